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
    Coverage, LensClass, Renderer, Rendering, Scenery, SyntheticTable, TrueStand, framing_camera,
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

/// The error bars of tables `seeds` (with the camera's tilt) rendered `rendering`'s way,
/// calibrated as `vedette calibrate table.jpg --roster` does and placed as the live film places
/// them, judged against the truth.
fn judged(rendering: Rendering, seeds: &[(u64, f64)]) -> Coverage {
    let mut renderer = Renderer::new();
    let mut detector = TagDetector::new(Default::default()).expect("detector");
    let mut refiner = CornerRefiner::new("tag36h11", RefineSettings::default()).expect("refiner");
    let mut coverage = Coverage::default();
    let anchor_ids: Vec<u32> = anchors().anchors.iter().map(|a| a.id).collect();
    for &(seed, tilt) in seeds {
        let (truth, roster, world) = staged(seed);
        let camera = framing_camera_for(TABLE, LensClass::Ordinary.sample(HD, seed), Degrees(tilt));
        let world = rendering.table(&world, &anchor_ids, seed);
        let rendered = renderer
            .render(&world, &camera, &rendering.effects(seed))
            .expect("renders");
        let image = rendering.picture(rendered).expect("bent");
        let detected = detector.detect(&image).expect("detects").sightings();
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
    coverage
}

/// The coverage's figures honest: not too narrow, and not honest by being wide (the median bar
/// within twice the errors' p95; places, which carry the 0.75 mm a player's anchors may lie off
/// their marks where these tables' anchors lie exactly on them, within 2.6 times). Places and
/// distances may hold every truth for the same reason.
fn assert_honest(rendering: Rendering, coverage: &Coverage, least: f64) {
    let (places, distances) = (coverage.places(false), coverage.distances(false));
    let (facings, arcs) = (coverage.facings(false), coverage.arc_shares(false));
    let name = rendering.name();
    eprintln!(
        "{name}: places {places:?}\ndistances {distances:?}\nfacings {facings:?}\narc shares {arcs:?}"
    );
    assert!(
        places.count > 60 && distances.count > 300 && facings.count > 60,
        "{name}: {places:?} {distances:?} {facings:?}"
    );
    for (what, figures, most, ratio) in [
        ("places", places, 1.0, 2.6),
        ("distances", distances, 1.0, 2.0),
        ("facings", facings, 1.0, 2.0),
    ] {
        assert!(
            (least..=most).contains(&figures.covered),
            "{name} {what}: {figures:?}"
        );
        assert!(
            figures.median_half_width <= ratio * figures.p95_error,
            "{name} {what}: {figures:?}"
        );
    }
}

#[test]
fn the_stated_intervals_hold_the_truth_on_rendered_tables() {
    let coverage = judged(Rendering::Own, &[(11, 30.0), (12, 40.0), (13, 50.0)]);
    assert_honest(Rendering::Own, &coverage, 0.88);
    let arcs = coverage.arc_shares(false);
    assert!(arcs.count > 20, "{arcs:?}");
    // A few dozen shares: at most a handful out.
    assert!(arcs.covered >= 0.88, "{arcs:?}");
    assert!(arcs.median_half_width <= 2.0 * arcs.p95_error, "{arcs:?}");
}

/// Other renderings of the same tables (heavy compression, a dim room's grain, a lens bent
/// beyond the model, anchors set a millimetre off their marks): the bars widen for the cause
/// and still hold.
#[test]
fn the_stated_intervals_hold_the_truth_on_other_renderings() {
    for rendering in [
        Rendering::Blocky,
        Rendering::Grainy,
        Rendering::LensBeyond,
        Rendering::AnchorsOff,
    ] {
        let coverage = judged(rendering, &[(21, 35.0), (22, 45.0)]);
        assert_honest(rendering, &coverage, 0.85);
    }
}

/// The median of the placed tags' centre variances (the trace of each covariance's place part).
fn median_spread(tags: &vision::FrameTags) -> f64 {
    let mut spread: Vec<f64> = tags
        .tags
        .iter()
        .map(|t| {
            t.pose
                .uncertainty
                .covariance
                .fixed_view::<2, 2>(0, 0)
                .trace()
        })
        .collect();
    spread.sort_by(f64::total_cmp);
    spread[spread.len() / 2]
}

/// A picture out of focus: its tags' corners stray from their squares more than the noise
/// model says, the bars widen by as much, and the player is told why.
#[test]
fn a_soft_pictures_tags_carry_wider_bars_than_a_sharp_ones() {
    let (_, roster, world) = staged(31);
    let camera = framing_camera(TABLE, HD, Degrees(40.0), Degrees(70.0));
    let calibration = exact_calibration(&camera);
    let mut renderer = Renderer::new();
    let mut detector = TagDetector::new(Default::default()).expect("detector");
    let mut placed = |rendering: Rendering| {
        let image = renderer
            .render(&world, &camera, &rendering.effects(31))
            .expect("renders");
        let sightings = detector.detect(&image).expect("detects").sightings();
        locate_tags(&calibration, Some(&roster), &sightings, Inches(0.16))
    };
    let (sharp, soft) = (placed(Rendering::Own), placed(Rendering::Soft));
    assert!(sharp.tags.len() > 30 && soft.tags.len() >= 8);
    assert!(sharp.scatter.picture() < 1.3, "{:?}", sharp.scatter);
    assert!(soft.scatter.picture() > 1.8, "{:?}", soft.scatter);
    // The same tags, placed from each picture: their centres' variances.
    let spread = |tags: &vision::FrameTags, id: u32| {
        let tag = tags.tags.iter().find(|t| t.pose.id == id)?;
        Some(
            tag.pose
                .uncertainty
                .covariance
                .fixed_view::<2, 2>(0, 0)
                .trace(),
        )
    };
    let mut widened: Vec<f64> = soft
        .tags
        .iter()
        .filter_map(|t| Some(spread(&soft, t.pose.id)? / spread(&sharp, t.pose.id)?))
        .collect();
    widened.sort_by(f64::total_cmp);
    let median = widened[widened.len() / 2];
    assert!(median > 2.5, "variances {widened:.2?}× as wide");
    assert!(sharp.doubts().is_empty(), "{:?}", sharp.doubts());
    let told = soft.doubts();
    assert!(
        told.iter().any(|d| d.contains("corners scatter")),
        "{told:?}"
    );
}

/// A stand on a rise the roster does not know: its tag looks larger than printed, its bar
/// carries the rise along its ray (holding its true place), and it is named; the flat stands
/// around it are not.
#[test]
fn a_raised_stand_carries_its_rise_and_is_named() {
    let (_, roster, mut world) = staged(32);
    let raised = roster.units[22].stands[0].tag;
    world.raise(&[raised], Inches(2.0));
    let camera = framing_camera(TABLE, HD, Degrees(40.0), Degrees(70.0));
    let calibration = exact_calibration(&camera);
    let image = Renderer::new()
        .render(&world, &camera, &Rendering::Own.effects(32))
        .expect("renders");
    let mut detector = TagDetector::new(Default::default()).expect("detector");
    let sightings = detector.detect(&image).expect("detects").sightings();
    let tags = locate_tags(&calibration, Some(&roster), &sightings, Inches(0.16));
    let named: Vec<u32> = tags.raised.iter().map(|(id, _)| *id).collect();
    assert!(named.contains(&raised), "{:?}", tags.raised);
    assert!(
        named.len() <= 3,
        "flat stands said raised: {:?}",
        tags.raised
    );
    let (_, rise) = tags
        .raised
        .iter()
        .find(|(id, _)| *id == raised)
        .expect("named");
    assert!((0.8..3.5).contains(&rise.0), "{rise:?}");
    let pose = tags
        .tags
        .iter()
        .find(|t| t.pose.id == raised)
        .expect("placed")
        .pose;
    let truly = world
        .tags()
        .find(|t| t.id == raised)
        .expect("printed")
        .placement
        .center;
    let off = pose.center - truly;
    let centre = pose
        .uncertainty
        .covariance
        .fixed_view::<2, 2>(0, 0)
        .into_owned();
    let distance = (off.transpose() * centre.try_inverse().expect("a spread") * off)[(0, 0)];
    assert!(
        distance <= vision::synthetic::CHI2_95_2D,
        "{:.3}\" off, Mahalanobis² {distance:.1}",
        off.norm()
    );
    assert!(median_spread(&tags) * 20.0 < centre.trace());
    assert!(tags.doubts().iter().any(|d| d.contains("look higher")));
}

/// Anchors that disagree with each other (one knocked 3 mm after it was measured) widen the
/// table's own doubt, and the calibration says so.
#[test]
fn a_knocked_anchor_widens_the_tables_doubt_and_says_so() {
    let camera = framing_camera(TABLE, HD, Degrees(40.0), Degrees(70.0));
    let layout = anchors();
    let calibrated = |knocked: f64| {
        let sightings: Vec<TagSighting> = layout
            .anchors
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let mut placement = a.placement();
                if i == 0 {
                    placement.center.x += knocked;
                }
                seen(&camera, a.id, &placement)
            })
            .collect();
        let settings = Settings {
            intrinsics: Some(camera.intrinsics),
            ..Settings::default()
        };
        calibrate(&layout, &sightings, HD, &settings).expect("calibrates")
    };
    let (still, knocked) = (calibrated(0.0), calibrated(0.12));
    assert!(still.doubts().is_empty(), "{:?}", still.doubts());
    assert!(knocked.rejected.is_empty(), "{:?}", knocked.rejected);
    let (before, after) = (still.uncertainty(), knocked.uncertainty());
    assert!(
        after.frame.0 > 1.25 * before.frame.0,
        "{before:?} → {after:?}"
    );
    assert!(after.length > before.length, "{before:?} → {after:?}");
    let told = knocked.doubts();
    assert!(told.iter().any(|d| d.contains("anchors agree")), "{told:?}");
    // Knocked further, it no longer fits the others: it is left out, and named.
    let far = calibrated(0.3);
    let told = far.doubts();
    assert!(
        told.iter().any(|d| d.contains("anchor 0 lies")),
        "{:?} {told:?}",
        far.rejected
    );
    assert!(far.uncertainty().frame.0 > before.frame.0);
}

/// A bent lens the anchors alone cannot measure: their misfit shows it, and every place's bar
/// grows with it; through a lens with no bend the bars stay narrow.
#[test]
fn a_lens_the_model_cannot_follow_widens_every_place() {
    let layout = anchors();
    let calibrated = |class: LensClass| {
        let camera = framing_camera_for(TABLE, class.sample(HD, 5), Degrees(40.0));
        let sightings: Vec<TagSighting> = layout
            .anchors
            .iter()
            .map(|a| seen(&camera, a.id, &a.placement()))
            .collect();
        calibrate(&layout, &sightings, HD, &Settings::default()).expect("calibrates")
    };
    let (straight, wide) = (
        calibrated(LensClass::DistortionFree),
        calibrated(LensClass::Wide),
    );
    assert!(wide.quality.rms.0 > 4.0 * straight.quality.rms.0.max(0.05));
    let (narrow, widened) = (straight.uncertainty(), wide.uncertainty());
    assert!(
        widened.place.0 > 4.0 * narrow.place.0,
        "{narrow:?} → {widened:?}"
    );
    assert!(widened.frame.0 > narrow.frame.0);
    assert!(wide.doubts().iter().any(|d| d.contains("anchors agree")));
}
