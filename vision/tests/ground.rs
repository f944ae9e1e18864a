//! A stand on a hill, seen by a camera at the table's side: placed on the cloth below its
//! tag's ray it lands inches away; placed on the ground the terrain gives, where it stands.
//! The truth is exact: every tag's corners are projected through a known camera.

use calibration::{AnchorLayout, Camera, Settings, TableCalibration, TagPlacement, TagSighting};
use rules::geometry::TablePoint;
use rules::ground::Ground;
use rules::scene::TerrainDoc;
use rules::units::{Degrees, Inches};
use vision::synthetic::framing_camera;
use vision::{locate_tags, locate_tags_on};

mod common;
use common::{HD, TABLE};

const TAG_HEIGHT: Inches = Inches(0.16);

fn sighting(camera: &Camera, id: u32, placement: &TagPlacement) -> TagSighting {
    TagSighting {
        id,
        corners: placement
            .corners()
            .map(|corner| camera.project(&corner).expect("in view")),
    }
}

/// A 1080p webcam at the table's side `tilt` from vertical, calibrated from the corner anchors
/// it sees exactly: the camera, its calibration and the anchors' sightings.
fn calibrated_from_anchors(tilt: Degrees) -> (Camera, TableCalibration, Vec<TagSighting>) {
    let camera = framing_camera(TABLE, HD, tilt, Degrees(70.0));
    let anchors = AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5));
    let seen: Vec<TagSighting> = anchors
        .anchors
        .iter()
        .map(|a| sighting(&camera, a.id, &a.placement()))
        .collect();
    let calibration =
        calibration::calibrate(&anchors, &seen, HD, &Settings::default()).expect("calibrates");
    (camera, calibration, seen)
}

/// A 2.5" hill with a flat top, its foot 24" × 20" in the middle of the table.
fn hill() -> TerrainDoc {
    let square = |x0: f64, y0: f64, w: f64, d: f64| {
        vec![
            TablePoint::new(x0, y0),
            TablePoint::new(x0 + w, y0),
            TablePoint::new(x0 + w, y0 + d),
            TablePoint::new(x0, y0 + d),
        ]
    };
    TerrainDoc {
        id: "ridge".into(),
        kind: rules::scene::TerrainKind::Hill,
        polygon: Some(square(24.0, 14.0, 24.0, 20.0)),
        line: None,
        height: Some(1),
        rise: Some(2.5),
        crest: Some(square(31.0, 20.0, 10.0, 8.0)),
    }
}

#[test]
fn a_stand_on_a_hill_is_placed_where_it_stands_when_the_hill_is_given() {
    let (camera, calibration, mut seen) = calibrated_from_anchors(Degrees(45.0));
    let ground = Ground::of_docs(&[hill()]);
    // Stands on the crest, on each flank and at the foot, facing every way.
    let stands = [
        (TablePoint::new(36.0, 24.0), 90.0),
        (TablePoint::new(27.5, 24.0), 0.0),
        (TablePoint::new(44.0, 22.0), 200.0),
        (TablePoint::new(36.0, 16.0), 270.0),
        (TablePoint::new(36.0, 32.5), 45.0),
        (TablePoint::new(10.0, 40.0), 120.0),
    ];
    for (k, (at, facing)) in stands.iter().enumerate() {
        let placement = TagPlacement {
            center: *at,
            facing: Degrees(*facing),
            size: Inches(1.0),
            height: ground.height_at(at) + TAG_HEIGHT,
        };
        seen.push(sighting(&camera, 100 + k as u32, &placement));
    }
    let on_cloth = locate_tags(&calibration, None, &seen, TAG_HEIGHT);
    let on_ground = locate_tags_on(&calibration, None, &seen, TAG_HEIGHT, &ground);
    for (k, (at, facing)) in stands.iter().enumerate() {
        let id = 100 + k as u32;
        let pose = |tags: &vision::FrameTags| {
            tags.tags
                .iter()
                .find(|t| t.pose.id == id)
                .map(|t| t.pose)
                .expect("placed")
        };
        let placed = pose(&on_ground);
        let off = (placed.center - at).norm();
        assert!(off < 0.01, "stand {k} at {at:?}: placed {off:.4}\" away");
        assert!(
            Degrees(*facing).turn_to(placed.facing).0.abs() < 0.5,
            "stand {k}: facing {} for {facing}",
            placed.facing.0
        );
        let lift = ground.height_at(at).0;
        let flat_off = (pose(&on_cloth).center - at).norm();
        if lift > 1.0 {
            // What the cloth alone gives a stand raised over an inch: inches away.
            assert!(flat_off > 0.8, "stand {k}: {flat_off:.3}\" on the cloth");
        } else if lift == 0.0 {
            assert!(flat_off < 0.01, "stand {k} off the hill: {flat_off:.4}\"");
        }
    }
}

/// A stand on a steep plateau 3" high seen from 55° from vertical: its tag's ray meets the
/// cloth 4" beyond the stand, past the plateau's foot, where the ground is the cloth. The tag
/// is where its ray first meets the ground, on the plateau.
#[test]
fn a_stand_on_a_plateau_seen_from_low_is_placed_on_it_not_on_the_cloth_behind() {
    let (camera, calibration, mut seen) = calibrated_from_anchors(Degrees(55.0));
    let at = TablePoint::new(36.0, 24.0);
    let square = |r: f64| {
        vec![
            TablePoint::new(at.x - r, at.y - r),
            TablePoint::new(at.x + r, at.y - r),
            TablePoint::new(at.x + r, at.y + r),
            TablePoint::new(at.x - r, at.y + r),
        ]
    };
    let plateau = TerrainDoc {
        id: "plateau".into(),
        kind: rules::scene::TerrainKind::Hill,
        polygon: Some(square(3.0)),
        line: None,
        height: Some(1),
        rise: Some(3.0),
        crest: Some(square(2.0)),
    };
    let ground = Ground::of_docs(&[plateau]);
    let placement = TagPlacement {
        center: at,
        facing: Degrees(90.0),
        size: Inches(1.0),
        height: ground.height_at(&at) + TAG_HEIGHT,
    };
    seen.push(sighting(&camera, 100, &placement));
    let placed = |tags: vision::FrameTags| {
        let tag = tags.tags.iter().find(|t| t.pose.id == 100).expect("placed");
        (tag.pose.center - at).norm()
    };
    let on_cloth = placed(locate_tags(&calibration, None, &seen, TAG_HEIGHT));
    assert!(
        on_cloth > 3.5,
        "the ray meets the cloth {on_cloth:.2}\" away"
    );
    let on_ground = placed(locate_tags_on(
        &calibration,
        None,
        &seen,
        TAG_HEIGHT,
        &ground,
    ));
    assert!(on_ground < 0.01, "placed {on_ground:.4}\" away");
}

/// The same through the whole pipeline: a unit standing on the flat top of a 2" hill, rendered
/// through a webcam 45° from vertical, detected, the camera calibrated from the anchors alone.
#[test]
fn a_rendered_unit_on_a_hilltop_is_placed_where_it_stands() {
    use vision::synthetic::{Effects, Renderer};
    const RISE: f64 = 2.0;
    let (scene, roster, anchors, mut world) = common::two_lines_staged(TAG_HEIGHT);
    // The first unit's stands on a hill whose crest holds them all.
    let raised: Vec<u32> = roster.units[0].stands.iter().map(|s| s.tag).collect();
    world.raise(&raised, Inches(RISE));
    let hill = TerrainDoc {
        polygon: Some(around(&scene.units[0], 8.0)),
        crest: Some(around(&scene.units[0], 1.0)),
        rise: Some(RISE),
        ..hill()
    };
    let camera = framing_camera(TABLE, HD, Degrees(45.0), Degrees(70.0));
    let image = Renderer::new()
        .render(&world, &camera, &Effects::WEBCAM)
        .expect("renders");
    let mut detector = vision::TagDetector::new(Default::default()).expect("a detector");
    let sightings = detector.detect(&image).expect("detects").sightings();
    let calibration =
        calibration::calibrate(&anchors, &sightings, HD, &Settings::default()).expect("calibrates");
    let ground = Ground::of_docs(&[hill]);
    let on_ground = locate_tags_on(&calibration, Some(&roster), &sightings, TAG_HEIGHT, &ground);
    let on_cloth = locate_tags(&calibration, Some(&roster), &sightings, TAG_HEIGHT);
    let mut checked = 0;
    for truth in world.tags().filter(|t| raised.contains(&t.id)) {
        let find = |tags: &vision::FrameTags| {
            tags.tags
                .iter()
                .find(|t| t.pose.id == truth.id)
                .map(|t| (t.pose.center - truth.placement.center).norm())
        };
        let (Some(off), Some(flat_off)) = (find(&on_ground), find(&on_cloth)) else {
            panic!("tag {} not found", truth.id);
        };
        assert!(off < 0.05, "tag {} on the hill: {off:.3}\" off", truth.id);
        assert!(
            flat_off > 1.0,
            "tag {} on the cloth: {flat_off:.3}\" off",
            truth.id
        );
        checked += 1;
    }
    assert_eq!(checked, raised.len());
}

/// A rectangle round a unit's stands, `margin` wider all round.
fn around(unit: &rules::scene::Unit, margin: f64) -> Vec<TablePoint> {
    let corners: Vec<TablePoint> = unit
        .footprint
        .stands()
        .iter()
        .flat_map(|s| s.corners())
        .collect();
    let low = |k: usize| corners.iter().map(|p| p.coords[k]).fold(f64::MAX, f64::min);
    let high = |k: usize| corners.iter().map(|p| p.coords[k]).fold(f64::MIN, f64::max);
    let (x0, x1) = (low(0) - margin, high(0) + margin);
    let (y0, y1) = (low(1) - margin, high(1) + margin);
    vec![
        TablePoint::new(x0, y0),
        TablePoint::new(x1, y0),
        TablePoint::new(x1, y1),
        TablePoint::new(x0, y1),
    ]
}

/// `render` draws a hill's rise (issue 63): a scene whose hill is given its rise is staged with
/// the ground climbing to the crest and the stands on it standing that high, so the picture
/// differs from the flat one and the camera places those stands where they stand once the
/// hill is given.
#[test]
fn a_staged_hill_rises_and_its_stands_stand_on_it() {
    use rules::scene::{Rise, Terrain, TerrainKind, TerrainShape};
    use vision::synthetic::{Effects, Renderer, SyntheticTable};
    const RISE: f64 = 2.0;
    let (mut scene, roster, anchors, flat) = common::two_lines_staged(TAG_HEIGHT);
    scene.terrain.push(Terrain {
        id: "ridge".into(),
        kind: TerrainKind::Hill,
        shape: TerrainShape::Area(around(&scene.units[0], 8.0)),
        height: Some(1),
        rise: Some(Rise {
            top: Inches(RISE),
            crest: Some(around(&scene.units[0], 1.0)),
        }),
    });
    let world = SyntheticTable::stage(&scene, &roster, &anchors);
    let camera = framing_camera(TABLE, HD, Degrees(45.0), Degrees(70.0));
    let mut renderer = Renderer::new();
    let raised = renderer
        .render(&world, &camera, &Effects::IDEAL)
        .expect("renders");
    let level = renderer
        .render(&flat, &camera, &Effects::IDEAL)
        .expect("renders");
    use opencv::prelude::*;
    let mut differ = opencv::core::Mat::default();
    opencv::core::absdiff(&raised, &level, &mut differ).expect("compares");
    let changed = differ
        .data_bytes()
        .expect("bytes")
        .chunks(3)
        .filter(|p| p.iter().any(|v| *v > 8))
        .count();
    assert!(changed > 10_000, "{changed} pixels differ");
    // The first unit's tags stand on the crest, 2" up.
    let mut detector = vision::TagDetector::new(Default::default()).expect("a detector");
    let sightings = detector.detect(&raised).expect("detects").sightings();
    let calibration =
        calibration::calibrate(&anchors, &sightings, HD, &Settings::default()).expect("calibrates");
    let ground = Ground::of(&scene.terrain);
    let placed = locate_tags_on(&calibration, Some(&roster), &sightings, TAG_HEIGHT, &ground);
    for stand in &roster.units[0].stands {
        let truth = world.tags().find(|t| t.id == stand.tag).expect("staged");
        assert!((truth.placement.height.0 - TAG_HEIGHT.0 - RISE).abs() < 1e-6);
        let pose = placed
            .tags
            .iter()
            .find(|t| t.pose.id == stand.tag)
            .unwrap_or_else(|| panic!("tag {} not found", stand.tag));
        let off = (pose.pose.center - truth.placement.center).norm();
        assert!(off < 0.05, "tag {} on the hill: {off:.3}\" off", stand.tag);
    }
}
