//! The error bars a camera's scene carries: every stand's place and facing with how far the
//! camera may have them off, honest against the synthetic truth.

use std::collections::HashMap;

use calibration::{
    AnchorLayout, Camera, Settings, TableCalibration, TagPlacement, TagSighting, calibrate,
    calibrate_from_tags,
};
use roster::{Roster, TagDefaults};
use rules::Scene;
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use serde_json::json;
use vision::refine::{CornerRefiner, RefineSettings, TablePicture, calibrate_through_lens};
use vision::synthetic::{
    Coverage, Effects, LensClass, Renderer, Scenery, SyntheticTable, TrueStand, framing_camera,
    framing_camera_for,
};
use vision::{MissingTagSearch, TagDetector, locate_tags, scene_on_table, tag_pose};

mod common;
use common::{HD, TABLE};

fn anchors() -> AnchorLayout {
    AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5))
}

/// A tag's corners as a perfect camera sees them.
fn seen(camera: &Camera, id: u32, placement: &TagPlacement) -> TagSighting {
    let corners = placement
        .corners()
        .map(|c| camera.project(&c).expect("in view"));
    TagSighting { id, corners }
}

/// Calibrated from the anchors' exact corners through the camera's own lens.
fn exact_calibration(camera: &Camera) -> TableCalibration {
    let layout = anchors();
    let sightings: Vec<TagSighting> = layout
        .anchors
        .iter()
        .map(|a| seen(camera, a.id, &a.placement()))
        .collect();
    let settings = Settings {
        intrinsics: Some(camera.intrinsics),
        ..Settings::default()
    };
    calibrate(&layout, &sightings, HD, &settings).expect("calibrates")
}

fn scene(units: serde_json::Value) -> Scene {
    let doc =
        json!({"ruleset": "black-powder", "table": {"width": 72, "depth": 48}, "units": units});
    Scene::from_doc(serde_json::from_value(doc).expect("a scene"), "test").expect("valid")
}

#[test]
fn a_far_small_tag_is_placed_less_surely_than_a_near_large_one() {
    let camera = framing_camera(TABLE, HD, Degrees(50.0), Degrees(70.0));
    let calibration = exact_calibration(&camera);
    let tag = |y: f64| TagPlacement {
        center: TablePoint::new(36.0, y),
        facing: Degrees(30.0),
        size: Inches(1.0),
        height: Inches(0.16),
    };
    let placed = |y: f64| {
        let sighting = seen(&camera, 10, &tag(y));
        let pose = tag_pose(&calibration, &sighting, Inches(0.16)).expect("placed");
        (sighting.side(), pose.uncertainty)
    };
    let (a, b) = (placed(6.0), placed(42.0));
    let ((near_side, near), (far_side, far)) = if a.0 > b.0 { (a, b) } else { (b, a) };
    assert!(
        far_side < 0.8 * near_side,
        "{far_side:.1} vs {near_side:.1} px"
    );
    let spread = |c: &nalgebra::Matrix3<f64>| c[(0, 0)] + c[(1, 1)];
    assert!(
        spread(&far.covariance) > 1.5 * spread(&near.covariance),
        "far {:?} near {:?}",
        far.to_doc(),
        near.to_doc()
    );
    assert!(far.covariance[(2, 2)] > 1.5 * near.covariance[(2, 2)]);
    // A height off moves the far tag the more: it lies further from the camera's foot.
    assert!(far.per_height.norm() > near.per_height.norm());
}

#[test]
fn a_stand_filled_in_from_its_line_is_less_sure_than_the_stands_seen() {
    let camera = framing_camera(TABLE, HD, Degrees(40.0), Degrees(70.0));
    let calibration = exact_calibration(&camera);
    let stands: Vec<serde_json::Value> = (0..4)
        .map(|i| json!({"center": [30.0 + 2.0 * f64::from(i), 20.0], "facing": 90.0, "width": 2.0, "depth": 1.0}))
        .collect();
    let truth = scene(
        json!([{"id": "45th-foot", "side": "red", "kind": "infantry",
        "formation": "line", "stands": stands}]),
    );
    let roster = Roster::for_scene(&truth, TagDefaults::default(), 10);
    // The two left stands are seen; a hand covers the other two.
    let poses: Vec<_> = roster.units[0].stands[..2]
        .iter()
        .map(|stand| {
            let rect = truth.units[0].footprint.stands()[(stand.tag - 10) as usize];
            let placement = TagPlacement {
                center: rect.center(),
                facing: rect.facing(),
                size: Inches(stand.tag_size.unwrap_or(1.0)),
                height: Inches(0.16),
            };
            tag_pose(
                &calibration,
                &seen(&camera, stand.tag, &placement),
                Inches(0.16),
            )
            .expect("placed")
        })
        .collect();
    let (placed, sighted) =
        scene_on_table(&roster, &calibration, poses.iter(), Vec::new(), "camera").expect("scene");
    assert!(sighted.partial[0].placed.is_ok(), "{:?}", sighted.partial);
    let sd = placed.units[0].footprint.sd().expect("error bars");
    let spread: Vec<f64> = sd.iter().map(|s| s.centre().trace()).collect();
    let seen_most = spread[0].max(spread[1]);
    assert!(
        spread[2] > 2.0 * seen_most && spread[3] > spread[2],
        "centre variances {spread:?}"
    );
    assert!(sd[2].facing() > sd[0].facing() && sd[3].facing() > sd[1].facing());
    // The scene carries the calibration's length error too.
    assert!(placed.length_sd.is_some());
}

/// A table of 45 stands over the whole table, like `vedette bench accuracy`'s, each truly 3–5 mm
/// high where the roster states 4 mm for all.
fn staged(seed: u64) -> (Scene, Roster, SyntheticTable) {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 10_000) as f64 / 10_000.0
    };
    let mut units = Vec::new();
    let mut heights = Vec::new();
    for row in 0..5 {
        for col in 0..9 {
            let x = 6.0 + 7.5 * f64::from(col) + 2.0 * next() - 1.0;
            let y = 6.0 + 9.0 * f64::from(row) + 2.0 * next() - 1.0;
            units.push(json!({"id": format!("stand-{row}-{col}"), "side": if col % 2 == 0 { "red" } else { "blue" },
                "kind": "infantry", "formation": "line", "weapon": "smoothbore-musket", "stands": [{"center": [x, y], "facing": 360.0 * next(), "width": 2.0, "depth": 1.5}]}));
            heights.push((3.0 + 2.0 * next()) / 25.4);
        }
    }
    let truth = scene(json!(units));
    let stated = Roster::for_scene(&truth, TagDefaults::default(), 10);
    let mut true_heights = stated.clone();
    for (stand, height) in true_heights
        .units
        .iter_mut()
        .flat_map(|u| u.stands.iter_mut())
        .zip(heights)
    {
        stand.tag_height = Some(height);
    }
    let mut world = SyntheticTable::stage(&truth, &true_heights, &anchors());
    world.scenery = Scenery::Busy { seed: 7 };
    (truth, stated, world)
}

#[test]
fn the_stated_intervals_hold_the_truth_on_rendered_tables() {
    let mut renderer = Renderer::new();
    let mut detector = TagDetector::new(Default::default()).expect("detector");
    let mut refiner = CornerRefiner::new("tag36h11", RefineSettings::default()).expect("refiner");
    let mut coverage = Coverage::default();
    for (seed, tilt) in [(11, 30.0), (12, 40.0), (13, 50.0)] {
        let (truth, roster, world) = staged(seed);
        let camera = framing_camera_for(TABLE, LensClass::Ordinary.sample(HD, seed), Degrees(tilt));
        let effects = Effects {
            seed,
            ..Effects::WEBCAM
        };
        let image = renderer.render(&world, &camera, &effects).expect("renders");
        let detected = detector.detect(&image).expect("detects").sightings();
        // Calibrated as `vedette calibrate table.jpg --roster` does; placed as `locate` does.
        let stands = roster.stand_tags();
        let picture = TablePicture {
            image: &image,
            detected: &detected,
        };
        let calibration = calibrate_through_lens(&mut refiner, &[picture], |pictures| {
            calibrate_from_tags(&anchors(), pictures, &stands, None, HD, None)
        })
        .expect("refines")
        .calibration
        .expect("calibrates");
        let mut sightings = detected.clone();
        let search = MissingTagSearch::new(&calibration, &stands).expect("search");
        sightings.extend(search.find_in(&image, &detected).expect("searches"));
        let located = locate_tags(&calibration, Some(&roster), &sightings, Inches(0.16));
        let poses = located.tags.iter().map(|t| &t.pose);
        let (placed, _) =
            scene_on_table(&roster, &calibration, poses, Vec::new(), "camera").expect("scene");
        let true_stands: HashMap<String, Vec<TrueStand>> = truth
            .units
            .iter()
            .map(|unit| {
                let rect = unit.footprint.stands()[0];
                let placement = TagPlacement {
                    center: rect.center(),
                    facing: rect.facing(),
                    size: Inches(1.0),
                    height: Inches(0.16),
                };
                let side = seen(&camera, 0, &placement).side();
                let stand = TrueStand {
                    rect,
                    small: side < 16.0,
                };
                (unit.id.clone(), vec![stand])
            })
            .collect();
        coverage.judge(&placed, &true_stands);
    }
    let (distances, facings) = (coverage.distances(false), coverage.facings(false));
    let arcs = coverage.arc_shares(false);
    eprintln!("distances {distances:?}\nfacings {facings:?}\narc shares {arcs:?}");
    assert!(
        distances.count > 300 && facings.count > 100 && arcs.count > 20,
        "{distances:?} {facings:?} {arcs:?}"
    );
    // Hundreds of distances and facings: neither too narrow nor too wide. A few dozen shares:
    // at most a handful out.
    for (what, figures, most) in [
        ("distances", distances, 0.99),
        ("facings", facings, 0.99),
        ("arc shares", arcs, 1.0),
    ] {
        assert!(
            (0.88..=most).contains(&figures.covered),
            "{what}: {figures:?}"
        );
        // Honest, and not by being wide: the median bar within twice the errors' p95.
        assert!(
            figures.median_half_width <= 2.0 * figures.p95_error,
            "{what}: {figures:?}"
        );
    }
}
