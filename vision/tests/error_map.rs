//! Where the camera measures worst: the map of a stand's error bar over the table, and what it
//! says would tighten it.

use std::time::Instant;

use calibration::{AnchorLayout, Camera, Settings, TableCalibration, TagSighting, calibrate};
use roster::TagDefaults;
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use vision::error_map::{ErrorMap, Source, place_error};
use vision::synthetic::{LensClass, framing_camera_for};

mod common;
use common::{HD, TABLE};

/// The map's cells: 12 × 8 on a 6' × 4' table.
const CELL: Inches = Inches(6.0);

fn anchors() -> AnchorLayout {
    AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5))
}

/// Calibrated from the anchors' exact corners, through the camera's own lens when `lens_known`,
/// else as a first calibration does from the anchors alone (a focal length, no distortion).
fn calibrated(camera: &Camera, lens_known: bool) -> TableCalibration {
    let layout = anchors();
    let sightings: Vec<TagSighting> = layout
        .anchors
        .iter()
        .map(|a| TagSighting {
            id: a.id,
            corners: a
                .placement()
                .corners()
                .map(|c| camera.project(&c).expect("in view")),
        })
        .collect();
    let settings = Settings {
        intrinsics: lens_known.then_some(camera.intrinsics),
        ..Settings::default()
    };
    calibrate(&layout, &sightings, HD, &settings).expect("calibrates")
}

/// A webcam 40° from vertical at the near (y = 0) edge, its lens measured.
fn tilted() -> (Camera, TableCalibration) {
    let camera = framing_camera_for(TABLE, LensClass::Ordinary.sample(HD, 3), Degrees(40.0));
    let calibration = calibrated(&camera, true);
    (camera, calibration)
}

#[test]
fn the_far_edge_of_a_tilted_cameras_table_is_measured_worse_than_the_near_edge() {
    let (camera, calibration) = tilted();
    assert!(
        camera.pose.eye().y < 0.0,
        "the camera stands at the near edge"
    );
    let started = Instant::now();
    let map = ErrorMap::over(&calibration, &TagDefaults::default(), CELL);
    eprintln!("12 × 8 cells in {:?}", started.elapsed());
    for row in (0..map.rows).rev() {
        let line: Vec<String> = (0..map.columns)
            .map(|c| {
                map.cell(c, row)
                    .map_or("  -  ".into(), |e| format!("{:.3}", e.plus_minus.0))
            })
            .collect();
        eprintln!("{}", line.join(" "));
    }
    eprintln!("worst {:?}\ncentre {:?}", map.worst, map.centre);
    assert_eq!((map.columns, map.rows), (12, 8));
    let figure = |y: f64| {
        map.at(&TablePoint::new(36.0, y))
            .expect("in the picture")
            .plus_minus
    };
    let (near, far) = (figure(3.0), figure(45.0));
    assert!(far.0 > 1.5 * near.0, "far ±{far:?} near ±{near:?}");
    // A measured lens, a 1" tag: hundredths of an inch, not tenths.
    assert!(near.0 > 0.002 && far.0 < 0.1, "far ±{far:?} near ±{near:?}");
    let (worst_at, worst) = map.worst.expect("a cell is seen");
    assert!(worst_at.y > TABLE.depth / 2.0, "worst at {worst_at}");
    assert!(worst.plus_minus >= far);
    let centre = map.centre.expect("the centre is seen").plus_minus;
    assert!(near < centre && centre < far, "centre ±{centre:?}");
    // The shares add up to the figure, in quadrature.
    let s = worst.shares;
    let total = (s.corners.0.powi(2) + s.height.0.powi(2) + s.calibration.0.powi(2)).sqrt();
    assert!((total - worst.plus_minus.0).abs() < 1e-9 * total.max(1.0));
    // Far from the camera's foot the stands' heights count; a measured lens hardly does.
    assert!(s.height.0 > s.calibration.0, "{s:?}");
    assert_ne!(map.worst_source(), Some(Source::Calibration));
}

#[test]
fn larger_tags_tighten_the_corners_share() {
    let (_, calibration) = tilted();
    let far = TablePoint::new(60.0, 44.0);
    let with = |size: f64| {
        let tags = TagDefaults {
            size,
            ..TagDefaults::default()
        };
        place_error(&calibration, &tags, far).expect("in the picture")
    };
    let (small, large) = (with(1.0), with(2.0));
    assert!(
        large.shares.corners.0 < 0.6 * small.shares.corners.0,
        "1\": {:?}\n2\": {:?}",
        small.shares,
        large.shares
    );
    assert!(large.plus_minus < small.plus_minus);
    // The other sources are the place's, not the tag's.
    assert!((large.shares.height.0 - small.shares.height.0).abs() < 0.3 * small.shares.height.0);
}

#[test]
fn heights_known_exactly_leave_no_height_share() {
    let (_, calibration) = tilted();
    let exact = TagDefaults {
        height_sd: 0.0,
        ..TagDefaults::default()
    };
    let map = ErrorMap::over(&calibration, &exact, CELL);
    let stated = ErrorMap::over(&calibration, &TagDefaults::default(), CELL);
    let (_, worst) = map.worst.expect("seen");
    assert_eq!(worst.shares.height, Inches(0.0));
    assert!(worst.plus_minus < stated.worst.expect("seen").1.plus_minus);
    assert_ne!(map.worst_source(), Some(Source::Height));
}

#[test]
fn a_lens_not_measured_is_named_as_what_would_improve_the_map() {
    for (lens, seed) in [(LensClass::Ordinary, 3), (LensClass::Wide, 5)] {
        let camera = framing_camera_for(TABLE, lens.sample(HD, seed), Degrees(40.0));
        let calibration = calibrated(&camera, false);
        let map = ErrorMap::over(&calibration, &TagDefaults::default(), CELL);
        let (_, worst) = map.worst.expect("seen");
        assert_eq!(
            map.worst_source(),
            Some(Source::Calibration),
            "{lens:?}: {:?}",
            worst.shares
        );
        assert!(Source::Calibration.advice().contains("lens learn"));
        // And it is wider than with the lens measured.
        let measured = ErrorMap::over(&calibrated(&camera, true), &TagDefaults::default(), CELL);
        assert!(worst.plus_minus > measured.worst.expect("seen").1.plus_minus);
    }
}

#[test]
fn places_outside_the_picture_are_unseen() {
    let (_, mut calibration) = tilted();
    // A table twice as wide as the camera frames: its far right is outside the picture.
    calibration.table.width = 2.0 * TABLE.width;
    let map = ErrorMap::over(&calibration, &TagDefaults::default(), CELL);
    assert_eq!(map.columns, 24);
    assert!(map.at(&TablePoint::new(140.0, 24.0)).is_none());
    assert!(map.at(&TablePoint::new(36.0, 24.0)).is_some());
}
