//! Several cameras over one long table (issue 36): each calibrated from the anchors it sees
//! into the one table frame, their readings of a tag fused into one pose, a stand carried
//! across the seam between two views without a jump, and a tag two cameras read in different
//! places named rather than guessed.

use calibration::{
    AnchorLayout, Camera, ImageSize, Intrinsics, Settings, TableCalibration, TableSize,
    TagPlacement, TagSighting, calibrate,
};
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use vision::locate::{LocatedTag, TagRole};
use vision::synthetic::rig_cameras;
use vision::{CameraTags, fuse, tag_pose};

const HD: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};

/// A convention table: 12' by 6'.
const TABLE: TableSize = TableSize {
    width: 144.0,
    depth: 72.0,
};

/// How far each camera's share reaches past its seams, inches.
const OVERLAP: f64 = 4.0;

/// The height stands' tags are stated at, inches.
const STATED: Inches = Inches(0.16);

/// A seeded normal generator (SplitMix64 and Box–Muller): reproducible corner noise.
struct Noise(u64);

impl Noise {
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (((z ^ (z >> 31)) >> 11) as f64 + 1.0) / (1u64 << 53) as f64
    }

    fn gaussian(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// Three 1080p webcams side by side over the long table, each calibrated from the anchors it
/// sees, their corners found to `anchor_noise` px.
struct Webcams {
    cameras: Vec<Camera>,
    calibrations: Vec<TableCalibration>,
    names: Vec<String>,
}

impl Webcams {
    fn new(count: usize, anchor_noise: f64, seed: u64) -> Webcams {
        let layout = AnchorLayout::long_table(TABLE, count, Inches(2.0), Inches(1.5));
        let mut noise = Noise(seed);
        let mut rig = Webcams {
            cameras: Vec::new(),
            calibrations: Vec::new(),
            names: Vec::new(),
        };
        let lenses = vec![Intrinsics::from_field_of_view(HD, Degrees(70.0)); count];
        let cameras = rig_cameras(TABLE, &lenses, Inches(OVERLAP), Degrees(30.0));
        for (k, camera) in cameras.into_iter().enumerate() {
            let sightings: Vec<TagSighting> = layout
                .anchors
                .iter()
                .filter_map(|a| seen(&camera, a.id, &a.placement(), anchor_noise, &mut noise))
                .collect();
            assert!(sightings.len() >= 4, "camera {k} sees {}", sightings.len());
            let settings = Settings {
                intrinsics: Some(camera.intrinsics),
                ..Settings::default()
            };
            rig.calibrations
                .push(calibrate(&layout, &sightings, HD, &settings).expect("calibrates"));
            rig.cameras.push(camera);
            rig.names.push(format!("camera {}", k + 1));
        }
        rig
    }

    /// Each camera's reading of a tag truly at `truth` (none where it does not see it whole).
    fn read(&self, id: u32, truth: &TagPlacement, noise: &mut Noise) -> Vec<Vec<LocatedTag>> {
        self.cameras
            .iter()
            .zip(&self.calibrations)
            .map(|(camera, calibration)| {
                seen(camera, id, truth, 0.1, noise)
                    .and_then(|s| tag_pose(calibration, &s, STATED))
                    .map(|pose| LocatedTag {
                        pose,
                        role: TagRole::Unknown,
                    })
                    .into_iter()
                    .collect()
            })
            .collect()
    }

    fn fuse(&self, readings: &[Vec<LocatedTag>]) -> vision::FusedTags {
        self.fuse_agreeing(readings, &mut vision::Agreement::default())
    }

    /// Fused with what `agreement` has learnt, as a live table is.
    fn fuse_agreeing(
        &self,
        readings: &[Vec<LocatedTag>],
        agreement: &mut vision::Agreement,
    ) -> vision::FusedTags {
        let views: Vec<CameraTags> = (0..readings.len())
            .map(|k| CameraTags {
                camera: &self.names[k],
                calibration: &self.calibrations[k],
                tags: &readings[k],
                held: &[],
            })
            .collect();
        vision::fuse_agreeing(&views, Inches(0.6 / 25.4), agreement)
    }
}

/// A tag's corners as the camera sees them, each off by `sd` px; none unless all four lie 2 px
/// or more inside the picture.
fn seen(
    camera: &Camera,
    id: u32,
    placement: &TagPlacement,
    sd: f64,
    noise: &mut Noise,
) -> Option<TagSighting> {
    let mut corners = placement.corners().map(|c| camera.project(&c));
    let inside = |p: &calibration::PixelPoint| {
        p.x >= 2.0
            && p.y >= 2.0
            && p.x <= f64::from(HD.width) - 2.0
            && p.y <= f64::from(HD.height) - 2.0
    };
    if corners.iter().any(|c| !c.as_ref().is_some_and(inside)) {
        return None;
    }
    for corner in corners.iter_mut().flatten() {
        corner.x += sd * noise.gaussian();
        corner.y += sd * noise.gaussian();
    }
    Some(TagSighting {
        id,
        corners: corners.map(|c| c.expect("checked in view")),
    })
}

/// A 1" stand tag at `at`, truly `height` above the cloth.
fn tag_at(at: TablePoint, height: Inches) -> TagPlacement {
    TagPlacement {
        center: at,
        facing: Degrees(80.0),
        size: Inches(1.0),
        height,
    }
}

#[test]
fn a_tag_two_cameras_see_is_placed_from_both_more_surely_than_by_either() {
    let rig = Webcams::new(3, 0.1, 1);
    let mut noise = Noise(2);
    // At the seam between the first two cameras, truly 1 mm higher than stated.
    let truth = tag_at(TablePoint::new(48.0, 40.0), STATED + Inches(1.0 / 25.4));
    let readings = rig.read(7, &truth, &mut noise);
    assert_eq!(readings.iter().filter(|r| !r.is_empty()).count(), 2);
    let fused = rig.fuse(&readings);
    assert!(fused.conflicts.is_empty(), "{:?}", fused.conflicts);
    let [tag] = fused.tags.as_slice() else {
        panic!("one tag: {:?}", fused.tags)
    };
    assert_eq!(tag.seen_by.len(), 2, "{:?}", tag.seen_by);
    let error = |pose: &vision::TagPose| (pose.center - truth.center).norm();
    let spread = |pose: &vision::TagPose| {
        let c = pose.uncertainty.covariance;
        c[(0, 0)] + c[(1, 1)]
    };
    let alone: Vec<&vision::TagPose> = readings.iter().flatten().map(|t| &t.pose).collect();
    for one in &alone {
        assert!(
            spread(&tag.tag.pose) < spread(one),
            "the fused bar is narrower"
        );
    }
    let worst_alone = alone.iter().map(|p| error(p)).fold(0.0, f64::max);
    assert!(
        error(&tag.tag.pose) < worst_alone && error(&tag.tag.pose) < 0.03,
        "fused {:.4}\" off, the cameras {:?}",
        error(&tag.tag.pose),
        alone.iter().map(|p| error(p)).collect::<Vec<_>>()
    );
}

#[test]
fn a_stand_carried_across_a_seam_does_not_jump() {
    // Anchors found to 0.3 px: the cameras' calibrations disagree by a few hundredths near
    // the seam, and the stand's stated height is 2 mm off (a thicker base than the roster
    // says), which each camera sees shifted its own way: 0.06" apart at worst. Carried 0.1" a
    // frame from well inside the first view to well inside the second, the fused stand moves
    // as the stand does (0.019" at worst beyond its motion; 0.036" without the fade at the
    // pictures' edges).
    let rig = Webcams::new(3, 0.3, 11);
    let mut noise = Noise(12);
    let (mut last, mut worst_step, mut switch) = (None, 0.0_f64, 0.0_f64);
    let mut seen_by_two = 0;
    let mut agreement = vision::Agreement::default();
    for step in 0..=200 {
        let x = 38.0 + 0.1 * f64::from(step);
        let truth = tag_at(TablePoint::new(x, 36.0), STATED + Inches(2.0 / 25.4));
        let readings = rig.read(7, &truth, &mut noise);
        let centres: Vec<TablePoint> = readings.iter().flatten().map(|t| t.pose.center).collect();
        if let [a, b] = centres.as_slice() {
            seen_by_two += 1;
            switch = switch.max((*a - *b).norm());
        }
        // Fused as the rig fuses a live table, learning how the cameras differ as it goes.
        let fused = rig.fuse_agreeing(&readings, &mut agreement);
        assert!(fused.conflicts.is_empty(), "{:?}", fused.conflicts);
        let centre = fused.tags[0].tag.pose.center;
        if let Some((before, truth_before)) = last {
            let (before, truth_before): (TablePoint, TablePoint) = (before, truth_before);
            let moved: rules::geometry::TableVector = centre - before;
            let truly: rules::geometry::TableVector = truth.center - truth_before;
            worst_step = worst_step.max((moved - truly).norm());
        }
        last = Some((centre, truth.center));
    }
    eprintln!(
        "seam: {seen_by_two} frames seen by two, cameras apart by up to {switch:.4}\", worst step {worst_step:.4}\""
    );
    assert!(seen_by_two > 20, "the views overlap ({seen_by_two} frames)");
    // Feathering matters only if the cameras disagree by more than the goal.
    assert!(switch > 0.01, "the cameras disagree by {switch:.4}\"");
    assert!(
        worst_step <= 0.03,
        "worst step beyond the true motion {worst_step:.4}\" (cameras apart by up to {switch:.4}\")"
    );
}

#[test]
fn a_tag_two_cameras_read_in_different_places_is_named_not_guessed() {
    let rig = Webcams::new(3, 0.1, 3);
    let mut noise = Noise(4);
    let truth = tag_at(TablePoint::new(47.0, 30.0), STATED);
    let mut readings = rig.read(17, &truth, &mut noise);
    // The second camera misreads another stand's tag, 3" away, as tag 17.
    let elsewhere = tag_at(TablePoint::new(50.0, 33.0), STATED);
    readings[1] = rig.read(17, &elsewhere, &mut noise).swap_remove(1);
    assert!(readings.iter().all(|r| r.len() <= 1) && !readings[1].is_empty());
    let fused = rig.fuse(&readings);
    assert!(fused.tags.is_empty(), "not guessed: {:?}", fused.tags);
    let [conflict] = fused.conflicts.as_slice() else {
        panic!("one conflict: {:?}", fused.conflicts)
    };
    let words = conflict.to_string();
    assert!(
        words.contains("tag 17") && words.contains("camera 1") && words.contains("camera 2"),
        "{words}"
    );
    // Agreeing readings of the same tag are no conflict.
    let agreed = rig.fuse(&rig.read(17, &truth, &mut noise));
    assert!(agreed.conflicts.is_empty() && agreed.tags.len() == 1);
}

#[test]
fn a_long_tables_anchors_give_every_camera_six_and_neighbours_share_their_seam() {
    let layout = AnchorLayout::long_table(TABLE, 3, Inches(2.0), Inches(1.5));
    assert_eq!(layout.anchors.len(), 14);
    let rig = Webcams::new(3, 0.0, 5);
    let seen_by = |k: usize| -> Vec<u32> {
        layout
            .anchors
            .iter()
            .filter(|a| seen(&rig.cameras[k], a.id, &a.placement(), 0.0, &mut Noise(0)).is_some())
            .map(|a| a.id)
            .collect()
    };
    for k in 0..3 {
        assert!(seen_by(k).len() >= 6, "camera {k}: {:?}", seen_by(k));
    }
    let shared: Vec<u32> = seen_by(0)
        .into_iter()
        .filter(|id| seen_by(1).contains(id))
        .collect();
    assert!(shared.len() >= 2, "{shared:?}");
}

/// Ninety 2" stands scattered over the long table, their 1" tags truly 3–5 mm high (stated 4
/// mm).
fn long_table_battle(
    seed: u64,
) -> (
    rules::Scene,
    roster::Roster,
    vision::synthetic::SyntheticTable,
) {
    let mut noise = Noise(seed);
    let mut units = Vec::new();
    let mut heights = Vec::new();
    for row in 0..5 {
        for col in 0..18 {
            let x = 5.0 + 7.5 * f64::from(col) + 2.0 * noise.uniform() - 1.0;
            let y = 6.0 + 14.0 * f64::from(row) + 2.0 * noise.uniform() - 1.0;
            units.push(serde_json::json!({"id": format!("stand-{row}-{col}"),
                "side": if col % 2 == 0 { "red" } else { "blue" }, "kind": "infantry",
                "formation": "line", "stands": [{"center": [x, y],
                "facing": 360.0 * noise.uniform(), "width": 2.0, "depth": 1.5}]}));
            heights.push((3.0 + 2.0 * noise.uniform()) / 25.4);
        }
    }
    let doc = serde_json::json!({"ruleset": "black-powder",
        "table": {"width": TABLE.width, "depth": TABLE.depth}, "units": units});
    let truth = rules::Scene::from_doc(serde_json::from_value(doc).expect("a scene"), "test")
        .expect("valid");
    let stated = roster::Roster::for_scene(&truth, roster::TagDefaults::default(), 20);
    let mut true_heights = stated.clone();
    let stands = true_heights
        .units
        .iter_mut()
        .flat_map(|u| u.stands.iter_mut());
    for (stand, height) in stands.zip(heights) {
        stand.tag_height = Some(height);
    }
    let layout = AnchorLayout::long_table(TABLE, 3, Inches(2.0), Inches(1.5));
    let mut world = vision::synthetic::SyntheticTable::stage(&truth, &true_heights, &layout);
    world.scenery = vision::synthetic::Scenery::Busy { seed };
    (truth, stated, world)
}

#[test]
fn three_rendered_webcams_over_a_long_table_place_every_stand_any_sees() {
    // Rendered with a webcam's blur, noise and JPEG over a busy cloth, each camera calibrated
    // from the anchors in its own picture, the plain detector (no small-tag search): nearly
    // every stand whose tag some camera sees at 14 px or more is placed, those in the overlaps
    // from two cameras, to within 0.05" at p95 (seed 21: 89 of 90 stands, 13 by two cameras,
    // p95 0.027"). The live detector's recall is `vedette bench cameras`'s to judge.
    use vision::synthetic::{Effects, Renderer};
    let (truth, roster, world) = long_table_battle(21);
    let layout = AnchorLayout::long_table(TABLE, 3, Inches(2.0), Inches(1.5));
    let mut renderer = Renderer::new();
    let mut detector = vision::TagDetector::new(Default::default()).expect("detector");
    let mut placed: Vec<Vec<LocatedTag>> = Vec::new();
    let mut calibrations = Vec::new();
    let mut sizes: std::collections::HashMap<u32, f64> = Default::default();
    let lenses = vec![Intrinsics::from_field_of_view(HD, Degrees(70.0)); 3];
    let cameras = rig_cameras(TABLE, &lenses, Inches(OVERLAP), Degrees(30.0));
    for (k, camera) in (0u64..).zip(cameras) {
        let effects = Effects {
            seed: 30 + k,
            ..Effects::WEBCAM
        };
        let image = renderer.render(&world, &camera, &effects).expect("renders");
        let sightings = detector.detect(&image).expect("detects").sightings();
        let settings = Settings {
            intrinsics: Some(camera.intrinsics),
            ..Settings::default()
        };
        let calibration = calibrate(&layout, &sightings, HD, &settings).expect("calibrates");
        for (id, corners) in world.tags_in_view(&camera) {
            let side = TagSighting { id, corners }.side();
            let best = sizes.entry(id).or_insert(0.0);
            *best = best.max(side);
        }
        let located = vision::locate_tags(&calibration, Some(&roster), &sightings, STATED);
        placed.push(located.tags);
        calibrations.push(calibration);
    }
    let names = ["west", "middle", "east"];
    let views: Vec<CameraTags> = (0..3)
        .map(|k| CameraTags {
            camera: names[k],
            calibration: &calibrations[k],
            tags: &placed[k],
            held: &[],
        })
        .collect();
    let fused = fuse(&views, Inches(0.6 / 25.4));
    assert!(fused.conflicts.is_empty(), "{:?}", fused.conflicts);
    let mut errors = Vec::new();
    let mut missed = Vec::new();
    let mut by_both = 0;
    for (unit, entry) in truth.units.iter().zip(&roster.units) {
        let id = entry.stands[0].tag;
        if sizes.get(&id).is_none_or(|side| *side < 14.0) {
            continue;
        }
        let Some(tag) = fused.tags.iter().find(|t| t.tag.pose.id == id) else {
            missed.push(id);
            continue;
        };
        by_both += usize::from(tag.seen_by.len() >= 2);
        // The roster's tags sit at their stands' centres.
        let rect = unit.footprint.stands()[0];
        errors.push((tag.tag.pose.center - rect.center()).norm());
    }
    errors.sort_by(f64::total_cmp);
    let p95 = errors[(errors.len() * 95 / 100).min(errors.len() - 1)];
    eprintln!(
        "three cameras: {} stands placed, {} missed, {by_both} by both; p95 {p95:.4}\"",
        errors.len(),
        missed.len()
    );
    assert!(missed.len() * 50 <= errors.len(), "missed {missed:?}");
    assert!(
        errors.len() >= 80 && by_both >= 4,
        "{} placed, {by_both} by both",
        errors.len()
    );
    assert!(p95 <= 0.05, "p95 {p95:.4}\"");
}

#[test]
fn a_stand_carried_out_of_one_view_is_where_the_camera_that_sees_it_says() {
    // The first camera last saw tag 9 at (30, 30) and holds it there (a hand, or the stand
    // carried away); the second sees it now at (60, 30): no conflict, the stand is where it is
    // seen. Seen by no camera now, a held reading still places it.
    let rig = Webcams::new(3, 0.1, 7);
    let mut noise = Noise(8);
    let then = rig.read(9, &tag_at(TablePoint::new(30.0, 30.0), STATED), &mut noise);
    let now = rig.read(9, &tag_at(TablePoint::new(60.0, 30.0), STATED), &mut noise);
    assert!(!then[0].is_empty() && !now[1].is_empty());
    let nothing: Vec<LocatedTag> = Vec::new();
    let views = [
        CameraTags {
            camera: "camera 1",
            calibration: &rig.calibrations[0],
            tags: &nothing,
            held: &then[0],
        },
        CameraTags {
            camera: "camera 2",
            calibration: &rig.calibrations[1],
            tags: &now[1],
            held: &nothing,
        },
    ];
    let fused = fuse(&views, Inches(0.6 / 25.4));
    assert!(fused.conflicts.is_empty(), "{:?}", fused.conflicts);
    let centre = fused.tags[0].tag.pose.center;
    assert!(
        (centre - TablePoint::new(60.0, 30.0)).norm() < 0.05,
        "{centre:?}"
    );
    assert_eq!(fused.tags[0].seen_by, vec!["camera 2".to_owned()]);
    let only_held = fuse(&views[..1], Inches(0.6 / 25.4));
    assert!((only_held.tags[0].tag.pose.center - TablePoint::new(30.0, 30.0)).norm() < 0.05);
}

#[test]
fn a_late_camera_is_held_a_lost_one_counts_for_nothing_and_a_replugged_one_rejoins() {
    use std::time::Duration;
    use vision::rig::{CameraState, Rig};
    let webcams = Webcams::new(3, 0.1, 9);
    let mut noise = Noise(10);
    // Tag 5 lies where only the first camera sees it; tag 6 in the first two cameras' overlap.
    let only_first = tag_at(TablePoint::new(10.0, 36.0), STATED);
    let shared = tag_at(TablePoint::new(48.0, 36.0), STATED);
    let mut rig = Rig::new(webcams.names.clone());
    for (k, calibration) in webcams.calibrations.iter().enumerate() {
        rig.calibrated(k, calibration.clone());
    }
    let frame = |rig: &mut Rig, k: usize, at: Duration, noise: &mut Noise| {
        let mut tags = webcams.read(5, &only_first, noise).swap_remove(k);
        tags.extend(webcams.read(6, &shared, noise).swap_remove(k));
        rig.report(k, at, tags, Vec::new())
    };
    let ms = Duration::from_millis;
    for k in 0..3 {
        assert!(frame(&mut rig, k, ms(1000), &mut noise));
    }
    let table = rig.table(ms(1030), Inches(0.6 / 25.4));
    assert!(table.cameras.iter().all(|c| c.state == CameraState::Live));
    assert_eq!(table.fused.tags.len(), 2);
    // An older frame arriving late is dropped, never put over a newer one.
    assert!(!frame(&mut rig, 0, ms(900), &mut noise));
    // The first camera stops; the others go on. Half a second on it is late: its tags are
    // held, and tag 5, which only it sees, is kept where it last saw it.
    for k in 1..3 {
        assert!(frame(&mut rig, k, ms(1500), &mut noise));
    }
    let late = rig.table(ms(1520), Inches(0.6 / 25.4));
    assert!(
        matches!(late.cameras[0].state, CameraState::Late { .. }),
        "{}",
        late.cameras[0]
    );
    assert!(late.fused.tags.iter().any(|t| t.tag.pose.id == 5));
    // Three seconds on, lost: what only it saw is unseen, what the others see goes on.
    for k in 1..3 {
        assert!(frame(&mut rig, k, ms(4000), &mut noise));
    }
    let lost = rig.table(ms(4020), Inches(0.6 / 25.4));
    let words = lost.cameras[0].to_string();
    assert!(
        words.contains("camera 1: lost") && words.contains("unseen"),
        "{words}"
    );
    let ids: Vec<u32> = lost.fused.tags.iter().map(|t| t.tag.pose.id).collect();
    assert_eq!(ids, vec![6]);
    assert_eq!(lost.fused.tags[0].seen_by, vec!["camera 2".to_owned()]);
    // Plugged back, it rejoins with its next frame.
    assert!(frame(&mut rig, 0, ms(4100), &mut noise));
    let back = rig.table(ms(4110), Inches(0.6 / 25.4));
    assert_eq!(back.cameras[0].state, CameraState::Live);
    assert_eq!(back.fused.tags.len(), 2);
}

#[test]
fn a_still_stand_does_not_jump_when_a_hand_hides_it_from_one_of_two_cameras() {
    // At the seam, its height 2 mm off and the anchors found to 0.3 px: the two cameras read
    // it some hundredths apart. A second of both, then a hand over it in the second camera's
    // view: the first camera's reading alone, corrected by what was learnt of how it differs,
    // leaves the stand where both had it.
    let webcams = Webcams::new(3, 0.3, 11);
    let mut noise = Noise(13);
    let truth = tag_at(TablePoint::new(47.0, 30.0), STATED + Inches(2.0 / 25.4));
    let mut agreement = vision::Agreement::default();
    let fused_at = |readings: &[Vec<LocatedTag>], agreement: &mut vision::Agreement| {
        webcams.fuse_agreeing(readings, agreement).tags[0]
            .tag
            .pose
            .center
    };
    let mut both = TablePoint::origin();
    let mut apart = 0.0_f64;
    for _ in 0..30 {
        let readings = webcams.read(3, &truth, &mut noise);
        apart = (readings[0][0].pose.center - readings[1][0].pose.center).norm();
        both = fused_at(&readings, &mut agreement);
    }
    let mut hidden = webcams.read(3, &truth, &mut noise);
    hidden[1].clear();
    let alone = fused_at(&hidden, &mut agreement);
    let unlearnt = fused_at(&hidden, &mut vision::Agreement::default());
    assert!(
        apart > 0.02,
        "the cameras agree too well to tell: {apart:.4}\""
    );
    assert!(
        (alone - both).norm() < 0.01,
        "jumped {:.4}\" (the cameras {apart:.4}\" apart; unlearnt it would jump {:.4}\")",
        (alone - both).norm(),
        (unlearnt - both).norm()
    );
    assert!((unlearnt - both).norm() > 0.01);
}

#[test]
fn a_still_stand_glides_when_a_second_camera_comes_to_see_it() {
    // At the seam, its height 2 mm off and the anchors found to 0.3 px: the two cameras read
    // it some hundredths apart. A second of the first camera alone, then the second sees it
    // too (plugged back in, or its tracker settled the tag): the stand is not shown stepping
    // by their disagreement but glides to where both place it.
    let webcams = Webcams::new(3, 0.3, 11);
    let mut noise = Noise(14);
    let mut agreement = vision::Agreement::default();
    let mut fused_at = |readings: &[Vec<LocatedTag>]| {
        let shown = webcams.fuse_agreeing(readings, &mut agreement).tags[0]
            .tag
            .pose
            .center;
        (shown, webcams.fuse(readings).tags[0].tag.pose.center)
    };
    let truth = tag_at(TablePoint::new(47.0, 30.0), STATED + Inches(2.0 / 25.4));
    // The steps shown frame to frame while one camera sees it (its own noise), at the
    // moment the second joins (and what they would be unglided), and after.
    let (mut alone, mut joined, mut after) = (0.0_f64, (0.0, 0.0), 0.0_f64);
    let (mut shown, mut both) = fused_at(&webcams.read(3, &truth, &mut noise)[..1]);
    for moment in 1..90 {
        let mut readings = webcams.read(3, &truth, &mut noise);
        if moment < 30 {
            readings[1].clear();
        }
        let last = shown;
        (shown, both) = fused_at(&readings);
        let step = (shown - last).norm();
        match moment {
            ..30 => alone = alone.max(step),
            30 => joined = (step, (both - last).norm()),
            _ => after = after.max(step),
        }
    }
    let (step, unglided) = joined;
    eprintln!(
        "joined: {step:.4}\" shown, {unglided:.4}\" unglided; steps alone up to {alone:.4}\", after {after:.4}\""
    );
    assert!(
        unglided > 0.02,
        "the cameras agree too well to tell: {unglided:.4}\""
    );
    assert!(
        step < unglided / 4.0,
        "stepped {step:.4}\" (unglided {unglided:.4}\")"
    );
    assert!(after < alone + 0.003, "stepped {after:.4}\" gliding");
    assert!(
        (shown - both).norm() < 0.002,
        "two seconds after, still {:.4}\" from where both place it",
        (shown - both).norm()
    );
    // Hidden from the second camera a moment, then moved an inch as it sees it again: the
    // glide holds back the cameras' disagreement, not the stand.
    let mut readings = webcams.read(3, &truth, &mut noise);
    readings[1].clear();
    let (before, _) = fused_at(&readings);
    let moved = tag_at(TablePoint::new(48.0, 30.0), STATED + Inches(2.0 / 25.4));
    let (shown, both) = fused_at(&webcams.read(3, &moved, &mut noise));
    assert!(
        (shown - before).norm() > 0.95 && (shown - both).norm() < unglided + 0.01,
        "moved {:.4}\", {:.4}\" from where both place it",
        (shown - before).norm(),
        (shown - both).norm()
    );
}

#[test]
fn a_still_stand_a_camera_sees_every_other_frame_stays_where_it_is() {
    // A small tag at the edge of the second camera's picture is found there one frame and
    // missed the next. The stand must not step to and fro by the cameras' disagreement, nor
    // wander off as glides pile up: it stays as near where both cameras place it as when the
    // second camera sees it every frame.
    let webcams = Webcams::new(3, 0.3, 11);
    let mut noise = Noise(15);
    let (mut flickered, mut steady) = (vision::Agreement::default(), vision::Agreement::default());
    let truth = tag_at(TablePoint::new(47.0, 30.0), STATED + Inches(2.0 / 25.4));
    let (mut flickering, mut apart) = (0.0_f64, 0.0_f64);
    let (mut off, mut off_steady) = (0.0, 0.0);
    let mut shown = TablePoint::origin();
    for moment in 0..150 {
        let mut readings = webcams.read(3, &truth, &mut noise);
        let both = webcams.fuse(&readings).tags[0].tag.pose.center;
        if moment < 30 {
            readings[1].clear();
        }
        let steadily = webcams.fuse_agreeing(&readings, &mut steady).tags[0]
            .tag
            .pose
            .center;
        if moment % 2 == 1 {
            apart = apart.max((readings[0][0].pose.center - both).norm());
            readings[1].clear();
        }
        let last = shown;
        shown = webcams.fuse_agreeing(&readings, &mut flickered).tags[0]
            .tag
            .pose
            .center;
        if moment > 30 {
            flickering = flickering.max((shown - last).norm());
        }
        // Judged where both see it: where the glides would pile up.
        if moment >= 60 && moment % 2 == 0 {
            off += (shown - both).norm() / 45.0;
            off_steady += (steadily - both).norm() / 45.0;
        }
    }
    eprintln!(
        "every other frame: steps up to {flickering:.4}\" (the cameras up to {apart:.4}\" apart), {off:.4}\" from where both place it on average ({off_steady:.4}\" seen every frame)"
    );
    assert!(
        apart > 0.02,
        "the cameras agree too well to tell: {apart:.4}\""
    );
    assert!(flickering < apart / 2.0, "stepped {flickering:.4}\"");
    assert!(off < off_steady + 0.003, "{off:.4}\" off on average");
}
