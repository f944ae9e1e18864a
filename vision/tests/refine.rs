//! Corners refined against each tag's printed pattern ([`vision::refine`]): through a wide lens
//! the far anchors, small and strongly sheared, come out nearer the truth than the detector
//! puts them, and so do the stand tags; a tag whose pattern cannot be fitted keeps the
//! detector's corners.

use calibration::{AnchorLayout, Camera, Intrinsics, PixelPoint, Settings, TagSighting, calibrate};
use rules::geometry::{OrientedRect, TablePoint};
use rules::units::{Degrees, Inches};
use vision::detect::to_gray;
use vision::refine::{
    CornerRefiner, Kept, RefineSettings, Refinement, TablePicture, calibrate_through_lens,
    refine_corners,
};
use vision::synthetic::{
    Block, Effects, LensClass, PrintedTag, Renderer, Rgb, Scenery, SyntheticTable, TagTexture,
    framing_camera_for,
};
use vision::{Mat, TagDetector};

mod common;
use common::{HD, TABLE};

/// The four corner anchors of 2" on their cards, on a busy cloth.
fn anchors_on_busy_cloth() -> (SyntheticTable, AnchorLayout) {
    let anchors = AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5));
    let mut world = SyntheticTable::new(TABLE);
    world.scenery = Scenery::Busy { seed: 7 };
    for anchor in &anchors.anchors {
        world
            .blocks
            .push(Block::card(anchor.id, anchor.placement()));
    }
    (world, anchors)
}

/// A busy table through a wide lens (as `bench accuracy` draws them) with a webcam's blur,
/// noise, uneven light and JPEG, the camera 50° from vertical: the four corner anchors (the
/// far two about 21 px across, strongly sheared), and a row of 1" stand tags across the middle
/// (14–17 px) at all sorts of turns, on painted stands with figures.
fn wide_table() -> (Mat, Camera, SyntheticTable) {
    let (mut world, _) = anchors_on_busy_cloth();
    for k in 0..8u32 {
        let placement = calibration::TagPlacement {
            center: TablePoint::new(8.0 + 8.0 * f64::from(k), 26.0),
            facing: Degrees(90.0 + 37.0 * f64::from(k)),
            size: Inches(1.0),
            height: Inches(0.16),
        };
        world.blocks.push(Block {
            footprint: OrientedRect::from_center(
                placement.center,
                placement.facing - Degrees(90.0),
                Inches(2.0),
                Inches(1.5),
            ),
            height: placement.height,
            colour: Rgb(168, 42, 38),
            tags: vec![PrintedTag {
                id: 10 + k,
                placement,
            }],
            figures: true,
            motion: None,
        });
    }
    let camera = framing_camera_for(TABLE, LensClass::Wide.sample(HD, 1), Degrees(50.0));
    let image = Renderer::new()
        .render(&world, &camera, &Effects::WEBCAM)
        .expect("renders");
    (image, camera, world)
}

/// The farthest a sighting's corners lie from where the camera put the printed corners.
fn worst_error(sighting: &TagSighting, world: &SyntheticTable, camera: &Camera) -> f64 {
    let truth = world
        .tags()
        .find(|t| t.id == sighting.id)
        .and_then(|t| t.as_seen(camera))
        .expect("a true tag");
    sighting
        .corners
        .iter()
        .zip(&truth.corners)
        .map(|(a, b)| a.distance(b).0)
        .fold(0.0, f64::max)
}

fn detect(image: &Mat) -> Vec<TagSighting> {
    TagDetector::new(Default::default())
        .expect("detector")
        .detect(image)
        .expect("detects")
        .sightings()
}

#[test]
fn through_a_wide_lens_small_sheared_tags_corners_come_out_nearer_the_truth() {
    let (image, camera, world) = wide_table();
    let detected = detect(&image);
    let mut refined = detected.clone();
    let report = CornerRefiner::new("tag36h11", RefineSettings::default())
        .expect("refiner")
        .refine(&image, None, &mut refined)
        .expect("refines");
    assert_eq!(report.outcomes.len(), detected.len());
    let errors = |i: usize| {
        (
            worst_error(&detected[i], &world, &camera),
            worst_error(&refined[i], &world, &camera),
        )
    };
    // The far anchors (ids 2 and 3): the detector puts their acute corners most of a pixel
    // out; refined, they are within a tenth of one.
    let far: Vec<usize> = (0..detected.len())
        .filter(|&i| detected[i].id == 2 || detected[i].id == 3)
        .collect();
    assert_eq!(far.len(), 2, "both far anchors are found");
    for &i in &far {
        let (before, after) = errors(i);
        println!(
            "anchor {} ({:.1} px): detector {before:.3} px, refined {after:.3} px",
            detected[i].id,
            detected[i].side()
        );
        assert!(
            matches!(report.outcomes[i], Refinement::Refined { .. }),
            "{:?}",
            report.outcomes[i]
        );
        assert!(
            before > 0.5,
            "the detector's corners are off: {before:.3} px"
        );
        assert!(after < 0.1, "refined corners {after:.3} px off");
    }
    // The stand tags: the detector puts their worst corners 0.3–0.7 px off; refined, none is
    // worse than the detector's, and of those of 15 px and more none is 0.2 px off and they are
    // 0.1 px off on the whole (RMS: a worst corner of four is the tail of the noise).
    let stands: Vec<usize> = (0..detected.len())
        .filter(|&i| detected[i].id >= 10)
        .collect();
    assert!(stands.len() >= 6, "{} stand tags found", stands.len());
    let mut larger = Vec::new();
    for &i in &stands {
        let (before, after) = errors(i);
        println!(
            "stand tag {} ({:.1} px): detector {before:.3} px, refined {after:.3} px",
            detected[i].id,
            detected[i].side()
        );
        assert!(after < before, "tag {}: {after:.3} px", detected[i].id);
        if detected[i].side() >= 15.0 {
            assert!(after < 0.2, "tag {}: {after:.3} px", detected[i].id);
            larger.push(after);
        }
    }
    let rms = (larger.iter().map(|e| e * e).sum::<f64>() / larger.len() as f64).sqrt();
    assert!(
        larger.len() >= 4 && rms < 0.1,
        "{} tags, RMS {rms:.3} px",
        larger.len()
    );
}

/// The RMS of a sighting's corners from where a straight-edge detector would put the printed
/// corners through the camera's lens (the convention refined corners are reported in).
fn straight_edge_error(sighting: &TagSighting, world: &SyntheticTable, camera: &Camera) -> f64 {
    let printed = world
        .tags()
        .find(|t| t.id == sighting.id)
        .expect("a true tag");
    let truth = calibration::lens::as_detected(camera, &printed.placement.corners()).expect("seen");
    let sum: f64 = (0..4)
        .map(|k| sighting.corners[k].distance(&truth[k]).0.powi(2))
        .sum();
    (sum / 4.0).sqrt()
}

/// The camera 50° from vertical, so that the near anchors sit near the lens's rim (the strong
/// wide lens of `bench accuracy`'s fourth table), where it bends their 40 px edges by 2 px:
/// more than two bows can follow. The four anchors, on busy cloth, through a webcam.
fn rim_table() -> (Mat, Camera, SyntheticTable, AnchorLayout) {
    let (world, anchors) = anchors_on_busy_cloth();
    let camera = framing_camera_for(TABLE, LensClass::Wide.sample(HD, 4), Degrees(50.0));
    let effects = Effects {
        seed: 4,
        ..Effects::WEBCAM
    };
    let image = Renderer::new()
        .render(&world, &camera, &effects)
        .expect("renders");
    (image, camera, world, anchors)
}

#[test]
fn near_a_wide_lens_rim_large_anchors_are_refined_through_the_lens() {
    let (image, camera, world, _) = rim_table();
    let detected = detect(&image);
    let mut refiner = CornerRefiner::new("tag36h11", RefineSettings::default()).expect("refiner");
    let refine = |refiner: &mut CornerRefiner, lens| {
        let mut sightings = detected.clone();
        refiner
            .refine(&image, lens, &mut sightings)
            .expect("refines");
        sightings
    };
    let unknown = refine(&mut refiner, None);
    let known = refine(&mut refiner, Some(&camera.intrinsics));
    let near: Vec<usize> = (0..detected.len())
        .filter(|&i| detected[i].id < 2)
        .collect();
    assert_eq!(near.len(), 2, "both near anchors are found");
    let (mut before, mut after) = (0.0f64, 0.0f64);
    for &i in &near {
        let (a, b) = (
            straight_edge_error(&unknown[i], &world, &camera),
            straight_edge_error(&known[i], &world, &camera),
        );
        println!(
            "anchor {} ({:.1} px): lens unknown {a:.3} px, through the lens {b:.3} px",
            detected[i].id,
            detected[i].side()
        );
        (before, after) = (before.max(a), after.max(b));
    }
    // The worst of the two: 0.17 px with the lens unknown, 0.09 px through it (the rest is the
    // picture's noise: 0.07 px on a noiseless picture).
    assert!(before > 0.12, "two bows follow this lens: {before:.3} px");
    assert!(
        after < 0.1 && after < 0.6 * before,
        "through the lens: {after:.3} px (unknown: {before:.3} px)"
    );
    // A lens without distortion changes nothing: the corners are the same as with none.
    let plain = Intrinsics {
        distortion: Default::default(),
        ..camera.intrinsics
    };
    let flat = refine(&mut refiner, Some(&plain));
    for (a, b) in unknown.iter().zip(&flat) {
        for k in 0..4 {
            assert!(a.corners[k].distance(&b.corners[k]).0 < 1e-6, "{a:?} {b:?}");
        }
    }
}

#[test]
fn a_calibration_is_made_again_through_the_lens_it_fitted_and_never_lost() {
    let (image, camera, _, layout) = rim_table();
    let anchors = &layout;
    let detected = detect(&image);
    let picture = [TablePicture {
        image: &image,
        detected: &detected,
    }];
    let mut refiner = CornerRefiner::new("tag36h11", RefineSettings::default()).expect("refiner");
    // A calibration that measures this lens: the near anchors are refined again through it
    // (the far ones, bent by hundredths, keep their first refinement), and it is made again.
    let with = |lens: Intrinsics| {
        move |pictures: &[Vec<TagSighting>]| {
            let settings = Settings {
                intrinsics: Some(lens),
                ..Settings::default()
            };
            calibrate(anchors, &pictures[0], HD, &settings)
        }
    };
    let calls = std::cell::Cell::new(0);
    let counted = |pictures: &[Vec<TagSighting>]| {
        calls.set(calls.get() + 1);
        with(camera.intrinsics)(pictures)
    };
    let twice = calibrate_through_lens(&mut refiner, &picture, counted).expect("refines");
    assert!(twice.through_lens && twice.calibration.is_ok());
    assert_eq!(calls.get(), 2);
    let mut first = detected.clone();
    refiner.refine(&image, None, &mut first).expect("refines");
    for (once, again) in first.iter().zip(&twice.sightings[0]) {
        assert_eq!(
            once.corners == again.corners,
            once.id >= 2,
            "anchor {}",
            once.id
        );
    }

    // A lens that bends nothing: nothing to refine again, one calibration.
    let flat = Intrinsics {
        distortion: Default::default(),
        ..camera.intrinsics
    };
    let once = calibrate_through_lens(&mut refiner, &picture, with(flat)).expect("refines");
    assert!(!once.through_lens);
    assert_eq!(once.sightings[0], first);

    // The second calibration fails: the first stands.
    let calls = std::cell::Cell::new(0);
    let second_fails = |pictures: &[Vec<TagSighting>]| {
        calls.set(calls.get() + 1);
        match calls.get() {
            1 => with(camera.intrinsics)(pictures),
            _ => with(camera.intrinsics)(&[Vec::new()]),
        }
    };
    let kept = calibrate_through_lens(&mut refiner, &picture, second_fails).expect("refines");
    assert_eq!(calls.get(), 2);
    assert!(!kept.through_lens && kept.calibration.is_ok());
    assert_eq!(kept.sightings[0], first);
}

#[test]
fn a_tag_whose_pattern_cannot_be_fitted_keeps_the_detectors_corners() {
    let (image, _, _) = wide_table();
    let gray = to_gray(&image).expect("grey");
    let tag = *detect(&image)
        .iter()
        .find(|s| s.id == 0)
        .expect("the near left anchor");
    let settings = RefineSettings::default();
    let pattern = |id| TagTexture::new("tag36h11", id).expect("pattern");
    let (right, _) = refine_corners(&gray, &pattern(0), &tag.corners, &settings).expect("fits");
    assert!(matches!(right, Refinement::Refined { .. }), "{right:?}");

    // Another tag's pattern over these pixels does not match them.
    let (wrong, corners) =
        refine_corners(&gray, &pattern(1), &tag.corners, &settings).expect("fits");
    assert!(matches!(wrong, Refinement::Kept(_)), "{wrong:?}");
    assert_eq!(corners, None);

    // Corners 3 px off: the fit may find the tag again, but further than a corner may move.
    let off = TagSighting {
        id: 0,
        corners: tag.corners.map(|c| PixelPoint::new(c.x + 3.0, c.y - 1.0)),
    };
    let (far, corners) = refine_corners(&gray, &pattern(0), &off.corners, &settings).expect("fits");
    assert!(matches!(far, Refinement::Kept(_)), "{far:?}");
    assert_eq!(corners, None);

    // Through the refiner, whatever is kept is left exactly as it was: those, a patch of
    // cloth, a tag at the picture's edge, an id the family lacks.
    let cloth = TagSighting {
        id: 5,
        corners: [
            PixelPoint::new(900.0, 620.0),
            PixelPoint::new(920.0, 620.0),
            PixelPoint::new(920.0, 600.0),
            PixelPoint::new(900.0, 600.0),
        ],
    };
    let at_edge = TagSighting {
        id: 6,
        corners: cloth.corners.map(|c| PixelPoint::new(c.x - 898.0, c.y)),
    };
    let unknown = TagSighting { id: 100_000, ..tag };
    let mispatterned = TagSighting { id: 1, ..tag };
    let mut sightings = vec![off, cloth, at_edge, unknown, mispatterned];
    let given = sightings.clone();
    let report = CornerRefiner::new("tag36h11", settings)
        .expect("refiner")
        .refine(&image, None, &mut sightings)
        .expect("refines");
    assert_eq!(sightings, given, "{:?}", report.outcomes);
    assert_eq!(report.refined(), 0);
    assert_eq!(report.outcomes[2], Refinement::Kept(Kept::Edge));
    assert_eq!(report.outcomes[3], Refinement::Kept(Kept::Unsuitable));
}

#[test]
fn an_unknown_family_is_refused() {
    assert!(CornerRefiner::new("tag99h1", RefineSettings::default()).is_err());
}
