//! Calibration against known cameras: anchors projected by a camera we chose, then solved.

use calibration::{Anchor, TablePoint3};
use calibration::{
    AnchorCheck, AnchorLayout, Board, Camera, CameraPose, Distortion, ImageSize, Intrinsics,
    LensSource, PixelPoint, Settings, TableCalibration, TableSize, TagSighting, calibrate,
    calibrate_lens, check_anchors,
};
use nalgebra::Vector3;
use rules::units::{Degrees, Inches};

const HD: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};
const TABLE: TableSize = TableSize {
    width: 72.0,
    depth: 48.0,
};

fn camera_at(tilt: f64, fov: f64) -> Camera {
    let target = TablePoint3::new(36.0, 24.0, 0.0);
    let distance = 80.0;
    let eye = TablePoint3::new(
        36.0,
        24.0 - distance * tilt.to_radians().sin(),
        distance * tilt.to_radians().cos(),
    );
    Camera {
        intrinsics: Intrinsics::from_field_of_view(HD, Degrees(fov)),
        pose: CameraPose::looking_at(eye, target, Vector3::y()),
    }
}

fn layout() -> AnchorLayout {
    AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5))
}

/// What the camera sees of the layout's anchors.
fn sightings(camera: &Camera, layout: &AnchorLayout) -> Vec<TagSighting> {
    layout
        .anchors
        .iter()
        .map(|a| TagSighting {
            id: a.id,
            corners: a
                .placement()
                .corners()
                .map(|c| camera.project(&c).expect("in front")),
        })
        .collect()
}

fn shifted(s: &TagSighting, dx: f64, dy: f64) -> TagSighting {
    TagSighting {
        id: s.id,
        corners: s.corners.map(|p| PixelPoint::new(p.x + dx, p.y + dy)),
    }
}

#[test]
fn an_oblique_camera_is_found_from_four_anchors_lens_included() {
    let truth = camera_at(40.0, 70.0);
    let layout = layout();
    let result = calibrate(
        &layout,
        &sightings(&truth, &layout),
        HD,
        &Settings::default(),
    )
    .expect("calibrates");
    assert_eq!(result.lens, LensSource::Anchors);
    let focal = result.camera.intrinsics.focal_x.0;
    let true_focal = truth.intrinsics.focal_x.0;
    assert!(
        (focal / true_focal - 1.0).abs() < 1e-3,
        "focal {focal} vs {true_focal}"
    );
    let eye_error = (result.camera.pose.eye() - truth.pose.eye()).norm();
    assert!(
        eye_error < 0.05,
        "camera placed {eye_error}\" from where it is"
    );
    assert!(
        result.quality.rms.0 < 0.01 && result.quality.rms_on_table.0 < 1e-3,
        "{:?}",
        result.quality
    );
    assert!((result.quality.tilt.0 - 40.0).abs() < 0.1);
    assert!(
        result.rejected.is_empty() && result.missing.is_empty() && result.warnings.is_empty(),
        "{:?}",
        result.warnings
    );
}

#[test]
fn a_moved_anchor_is_caught_and_ignored() {
    let truth = camera_at(35.0, 65.0);
    let mut layout = layout();
    layout.anchors.push(Anchor {
        id: 4,
        center: rules::geometry::TablePoint::new(36.0, 1.5),
        size: 2.0,
        facing: 90.0,
        height: 0.0,
    });
    let mut seen = sightings(&truth, &layout);
    // Anchor 4 was knocked an inch and a half along the edge: ~40 px in this view.
    seen[4] = shifted(&seen[4], 40.0, 0.0);
    let result = calibrate(&layout, &seen, HD, &Settings::default()).expect("calibrates");
    let rejected: Vec<u32> = result.rejected.iter().map(|r| r.id).collect();
    assert_eq!(rejected, [4]);
    assert!(
        result.warnings.iter().any(|w| w.contains("anchor tag 4")),
        "{:?}",
        result.warnings
    );
    assert!((result.camera.pose.eye() - truth.pose.eye()).norm() < 0.05);
}

#[test]
fn a_covered_anchor_still_calibrates_with_a_warning() {
    let truth = camera_at(40.0, 70.0);
    let layout = layout();
    let seen: Vec<TagSighting> = sightings(&truth, &layout)
        .into_iter()
        .filter(|s| s.id != 2)
        .collect();
    let result = calibrate(&layout, &seen, HD, &Settings::default()).expect("calibrates");
    assert_eq!(result.missing, [2]);
    assert!(
        result
            .warnings
            .iter()
            .any(|w| w.contains("only three anchors")),
        "{:?}",
        result.warnings
    );
    assert!((result.camera.pose.eye() - truth.pose.eye()).norm() < 0.05);
}

#[test]
fn two_anchors_are_not_enough_and_the_error_says_which_are_missing() {
    let truth = camera_at(40.0, 70.0);
    let layout = layout();
    let seen: Vec<TagSighting> = sightings(&truth, &layout)
        .into_iter()
        .filter(|s| s.id < 2)
        .collect();
    let error = calibrate(&layout, &seen, HD, &Settings::default())
        .expect_err("two anchors")
        .to_string();
    assert!(
        error.contains("2 of the 4 anchors") && error.contains("missing: 2, 3"),
        "{error}"
    );
    let none = calibrate(&layout, &[], HD, &Settings::default())
        .expect_err("no anchors")
        .to_string();
    assert!(none.contains("0 of the 4 anchors"), "{none}");
}

#[test]
fn looking_straight_down_the_lens_is_assumed_and_the_player_is_told() {
    let truth = camera_at(0.0, 65.0);
    let layout = layout();
    let result = calibrate(
        &layout,
        &sightings(&truth, &layout),
        HD,
        &Settings::default(),
    )
    .expect("calibrates");
    assert_eq!(result.lens, LensSource::Assumed);
    assert!(
        result.warnings.iter().any(|w| w.contains("straight down")),
        "{:?}",
        result.warnings
    );
    // The plane is still exact: the assumed lens is the true one here.
    assert!(result.quality.rms_on_table.0 < 1e-3);
}

#[test]
fn a_known_distorted_lens_gives_back_the_pose() {
    let mut truth = camera_at(45.0, 75.0);
    truth.intrinsics.distortion = Distortion {
        k1: -0.2,
        k2: 0.08,
        p1: 0.0,
        p2: 0.0,
        k3: 0.0,
    };
    let layout = layout();
    let settings = Settings {
        intrinsics: Some(truth.intrinsics),
        ..Settings::default()
    };
    let result =
        calibrate(&layout, &sightings(&truth, &layout), HD, &settings).expect("calibrates");
    assert_eq!(result.lens, LensSource::Given);
    assert!((result.camera.pose.eye() - truth.pose.eye()).norm() < 1e-3);
}

#[test]
fn the_board_measures_a_distorted_lens() {
    let mut truth = camera_at(0.0, 70.0).intrinsics;
    truth.distortion = Distortion {
        k1: -0.15,
        k2: 0.05,
        p1: 0.0005,
        p2: -0.0003,
        k3: 0.0,
    };
    truth.principal_point = PixelPoint::new(975.0, 530.0);
    let board = Board::default();
    let centre = TablePoint3::new(3.75, 5.25, 0.0);
    let views: Vec<Vec<TagSighting>> = [
        (-8.0, -6.0, 18.0),
        (9.0, 4.0, 16.0),
        (3.0, -10.0, 20.0),
        (-5.0, 8.0, 15.0),
        (0.0, 0.0, 14.0),
    ]
    .iter()
    .map(|&(x, y, z)| {
        let camera = Camera {
            intrinsics: truth,
            pose: CameraPose::looking_at(centre + Vector3::new(x, y, z), centre, Vector3::y()),
        };
        board
            .ids()
            .filter_map(|id| {
                let corners = board.placement(id)?.corners().map(|c| camera.project(&c));
                Some(TagSighting {
                    id,
                    corners: [corners[0]?, corners[1]?, corners[2]?, corners[3]?],
                })
            })
            .collect()
    })
    .collect();
    let lens = calibrate_lens(&board, &views, HD).expect("calibrates");
    assert_eq!(lens.views, 5);
    assert!(lens.rms.0 < 0.05, "rms {}", lens.rms);
    assert!(
        (lens.intrinsics.focal_x.0 / truth.focal_x.0 - 1.0).abs() < 2e-3,
        "{:?}",
        lens.intrinsics
    );
    assert!(
        (lens.intrinsics.distortion.k1 - truth.distortion.k1).abs() < 0.01,
        "{:?}",
        lens.intrinsics.distortion
    );
    let too_few = calibrate_lens(&board, &views[..2], HD)
        .expect_err("two views")
        .to_string();
    assert!(too_few.contains("2 of the 2 images"), "{too_few}");
}

#[test]
fn a_bumped_camera_and_a_knocked_anchor_are_told_apart() {
    let truth = camera_at(40.0, 70.0);
    let layout = layout();
    let seen = sightings(&truth, &layout);
    let calibration = calibrate(&layout, &seen, HD, &Settings::default()).expect("calibrates");
    assert!(matches!(
        check_anchors(&calibration, &seen),
        AnchorCheck::Steady { .. }
    ));
    let bumped: Vec<TagSighting> = seen.iter().map(|s| shifted(s, 6.0, -3.0)).collect();
    assert!(matches!(
        check_anchors(&calibration, &bumped),
        AnchorCheck::CameraMoved { .. }
    ));
    let mut knocked = seen.clone();
    knocked[1] = shifted(&knocked[1], 0.0, 12.0);
    assert!(matches!(
        check_anchors(&calibration, &knocked),
        AnchorCheck::AnchorMoved { id: 1, .. }
    ));
    let covered = &seen[..1];
    assert!(matches!(
        check_anchors(&calibration, covered),
        AnchorCheck::Unknown { seen: 1 }
    ));
}

#[test]
fn a_calibration_file_round_trips_and_a_corrupt_one_names_the_line() {
    let truth = camera_at(40.0, 70.0);
    let layout = layout();
    let calibration = calibrate(
        &layout,
        &sightings(&truth, &layout),
        HD,
        &Settings::default(),
    )
    .expect("calibrates");
    let dir = std::env::temp_dir().join(format!("vedette-calibration-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("camera.toml");
    calibration.save(&path).expect("saves");
    let back = TableCalibration::load(&path).expect("loads");
    assert!((back.camera.pose.eye() - calibration.camera.pose.eye()).norm() < 1e-9);
    assert_eq!(back.anchors.len(), 4);

    let text = std::fs::read_to_string(&path).expect("reads");
    let corrupt = text.replacen("focal_x = ", "focal_x = \"wide\" # ", 1);
    std::fs::write(&path, &corrupt).expect("writes");
    let error = TableCalibration::load(&path)
        .expect_err("corrupt")
        .to_string();
    let line = corrupt
        .lines()
        .position(|l| l.contains("\"wide\""))
        .map(|i| i + 1)
        .unwrap_or(0);
    assert!(
        error.contains(&format!("camera.toml:{line}:")) && error.contains("focal_x"),
        "{error}"
    );

    let negative = text.replacen("focal_x = ", "focal_x = -", 1);
    std::fs::write(&path, negative).expect("writes");
    let error = TableCalibration::load(&path)
        .expect_err("negative focal")
        .to_string();
    assert!(
        error.contains("camera.toml") && error.contains("focal lengths must be positive"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
