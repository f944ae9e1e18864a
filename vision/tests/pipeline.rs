//! The whole camera pipeline on synthetic frames: render a known scene, detect, calibrate from
//! the anchors, place the tags at their heights, build the scene, and compare with the truth.

use std::path::Path;

use calibration::{AnchorLayout, ImageSize, Settings, TableCalibration, calibrate};
use roster::Roster;
use roster::TagDefaults;
use rules::Scene;
use rules::units::{Degrees, Inches};
use vision::synthetic::{Effects, Renderer, SyntheticTable, framing_camera};
use vision::{TagDetector, TagProblem, locate_tags, scene_on_table};

fn sample_scene() -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/scenes/two-lines.json");
    Scene::load(&path).expect("sample scene")
}

struct Shot {
    scene: Scene,
    world: SyntheticTable,
    camera: calibration::Camera,
    roster: Roster,
    calibration: TableCalibration,
    sightings: Vec<calibration::TagSighting>,
}

fn shoot(tilt: f64) -> Shot {
    let scene = sample_scene();
    let roster = Roster::for_scene(
        &scene,
        TagDefaults {
            size: 1.0,
            height: 0.16,
            ..TagDefaults::default()
        },
        10,
    );
    let anchors = AnchorLayout::corners(
        calibration::TableSize {
            width: scene.table.width.0,
            depth: scene.table.depth.0,
        },
        Inches(2.0),
        Inches(1.5),
    );
    let world = SyntheticTable::stage(&scene, &roster, &anchors);
    let size = ImageSize {
        width: 1920,
        height: 1080,
    };
    let camera = framing_camera(anchors.table, size, Degrees(tilt), Degrees(70.0));
    let image = Renderer::new()
        .render(&world, &camera, &Effects::WEBCAM)
        .expect("renders");
    let mut detector = TagDetector::new(Default::default()).expect("detector");
    let sightings = detector.detect(&image).expect("detects").sightings();
    let calibration =
        calibrate(&anchors, &sightings, size, &Settings::default()).expect("calibrates");
    Shot {
        scene,
        world,
        camera,
        roster,
        calibration,
        sightings,
    }
}

/// The shot's tags placed, as the pipeline places them (tags 0.16" up unless the roster says).
fn locate(shot: &Shot) -> vision::FrameTags {
    locate_tags(
        &shot.calibration,
        Some(&shot.roster),
        &shot.sightings,
        Inches(0.16),
    )
}

#[test]
fn tags_and_stands_land_where_they_are_within_five_hundredths_of_an_inch() {
    let shot = shoot(40.0);
    let located = locate(&shot);
    assert!(located.problems.is_empty(), "{:?}", located.problems);
    // Every tag of 16 px and more is found, and lands on its true place.
    for truth in shot.world.tags() {
        let pixels = shot
            .camera
            .project(&truth.placement.corners()[0])
            .zip(shot.camera.project(&truth.placement.corners()[1]));
        let side = pixels.map_or(0.0, |(a, b)| a.distance(&b).0);
        let Some(seen) = located.tags.iter().find(|t| t.pose.id == truth.id) else {
            assert!(side < 16.0, "tag {} ({side:.1} px) was not found", truth.id);
            continue;
        };
        let error = (seen.pose.center - truth.placement.center).norm();
        let turn = (seen.pose.facing - truth.placement.facing)
            .0
            .rem_euclid(360.0);
        assert!(
            error < 0.05 && turn.min(360.0 - turn) < 1.0,
            "tag {}: {error:.3}\", {turn:.2}°",
            truth.id
        );
    }
    // The scene built from them has every unit whose stands were all seen where it stands.
    let poses = located.tags.iter().map(|t| &t.pose);
    let (seen, sighted) =
        scene_on_table(&shot.roster, &shot.calibration, poses, Vec::new(), "camera")
            .expect("scene");
    let left_off = sighted.partial.iter().filter(|p| p.placed.is_err()).count();
    assert_eq!(
        seen.units.len() + sighted.unseen.len() + left_off,
        shot.scene.units.len()
    );
    for unit in &seen.units {
        let truth = shot.scene.unit(&unit.id).expect("in the scene");
        if unit.footprint.stands().len() == truth.footprint.stands().len() {
            let error = (unit.footprint.leader() - truth.footprint.leader()).norm();
            assert!(error < 0.05, "{}: leader {error:.3}\" off", unit.id);
        }
    }
}

#[test]
fn an_anchor_is_never_taken_for_a_stand() {
    let shot = shoot(40.0);
    let located = locate(&shot);
    // A roster that gives the first unit's first stand an anchor's id (a slip the app notes
    // when it reads the inputs): that stand is not seen, not put where the anchor is.
    let anchor = shot.calibration.anchors[0].anchor.id;
    let at = located
        .tags
        .iter()
        .find(|t| t.pose.id == anchor)
        .expect("the anchor is seen")
        .pose
        .center;
    let mut roster = shot.roster.clone();
    roster.units[0].stands[0].tag = anchor;
    let poses = located.tags.iter().map(|t| &t.pose);
    let (seen, _) =
        scene_on_table(&roster, &shot.calibration, poses, Vec::new(), "camera").expect("scene");
    for unit in &seen.units {
        for stand in unit.footprint.stands() {
            let distance = (stand.center() - at).norm();
            assert!(distance > 2.0, "{} stands on the anchor", unit.id);
        }
    }
}

#[test]
fn ignoring_tag_height_would_misplace_stands() {
    let shot = shoot(45.0);
    let flat = locate_tags(&shot.calibration, None, &shot.sightings, Inches::ZERO);
    let raised = locate_tags(
        &shot.calibration,
        Some(&shot.roster),
        &shot.sightings,
        Inches::ZERO,
    );
    let shift = flat
        .tags
        .iter()
        .filter_map(|f| {
            raised
                .tags
                .iter()
                .find(|r| r.pose.id == f.pose.id)
                .map(|r| (f.pose.center - r.pose.center).norm())
        })
        .fold(0.0, f64::max);
    // 4 mm of base seen 45° off vertical: about 0.16"·tan(45°) at the far side.
    assert!(
        shift > 0.08,
        "height correction moved tags by only {shift:.3}\""
    );
}

#[test]
fn unknown_duplicate_and_stray_tags_are_reported_not_trusted() {
    let shot = shoot(35.0);
    let mut sightings = shot.sightings.clone();
    let first_unit_tag = shot.roster.units[0].stands[0].tag;
    let original = *sightings
        .iter()
        .find(|s| s.id == first_unit_tag)
        .expect("seen");
    let moved = |dx: f64| calibration::TagSighting {
        id: first_unit_tag,
        corners: original
            .corners
            .map(|p| calibration::PixelPoint::new(p.x + dx, p.y)),
    };
    sightings.push(moved(300.0));
    let stranger = calibration::TagSighting {
        id: 377,
        ..moved(-200.0)
    };
    sightings.push(stranger);
    let located = locate_tags(
        &shot.calibration,
        Some(&shot.roster),
        &sightings,
        Inches(0.16),
    );
    assert!(located.problems.iter().any(
        |p| matches!(p, TagProblem::Duplicate { id, at } if *id == first_unit_tag && at.len() == 2)
    ));
    assert!(
        located
            .problems
            .iter()
            .any(|p| matches!(p, TagProblem::Unknown { id: 377, .. }))
    );
    assert!(
        !located.tags.iter().any(|t| t.pose.id == first_unit_tag),
        "a duplicated tag is not trusted"
    );
    let message = located
        .problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        message.contains(&format!("tag {first_unit_tag} is in view 2 times")),
        "{message}"
    );
}

#[test]
fn a_roster_naming_a_tag_twice_is_refused_with_both_places() {
    let text = r#"
[[units]]
id = "a"
side = "x"
kind = "infantry"
[[units.stands]]
tag = 12
width = 2
depth = 1
[[units]]
id = "b"
side = "y"
kind = "infantry"
[[units.stands]]
tag = 12
width = 2
depth = 1
"#;
    let error = Roster::parse(text, Path::new("army.toml"))
        .expect_err("duplicate tag")
        .to_string();
    assert!(
        error.contains("army.toml:15:") && error.contains("tag 12 is on b and also on a (line 7)"),
        "{error}"
    );
}

#[test]
fn a_rosters_family_bounds_its_ids_and_must_be_the_anchors() {
    let roster = |family: &str, tag: u32| {
        format!(
            "[tags]\nfamily = \"{family}\"\n\n[[units]]\nid = \"a\"\nside = \"x\"\nkind = \"infantry\"\n[[units.stands]]\ntag = {tag}\nwidth = 2\ndepth = 1\n"
        )
    };
    let small = Roster::parse(&roster("tag16h5", 29), Path::new("army.toml")).expect("tag 29");
    assert_eq!(small.tags.family, roster::TagFamily::Tag16h5);
    let clash = small
        .family_clash("tag36h11")
        .expect("anchors in another family");
    assert!(
        clash.contains("tag16h5") && clash.contains("tag36h11"),
        "{clash}"
    );
    assert_eq!(small.family_clash("tag16h5"), None);

    let error = Roster::parse(&roster("tag16h5", 30), Path::new("army.toml"))
        .expect_err("no tag 30 in tag16h5")
        .to_string();
    assert!(
        error.contains("army.toml:9:")
            && error.contains("tag 30 on a is not in tag16h5 (ids 0–29)"),
        "{error}"
    );
    let error = Roster::parse(&roster("tag99h1", 3), Path::new("army.toml"))
        .expect_err("no such family")
        .to_string();
    assert!(
        error.contains("army.toml") && error.contains("tag99h1"),
        "{error}"
    );
}
