//! Figures on every base, seen by a webcam at the table's side: how much of each tag they hide,
//! which tags the detector still finds (wholly visible tags must all be), and which the search
//! for the roster's missing tags adds, at their true corners, with figures over their edges.

use std::collections::HashMap;

use calibration::{
    AnchorLayout, Camera, PixelPoint, Settings, StandTagSpec, TableCalibration, TagPlacement,
    TagSighting, calibrate,
};
use rules::geometry::{OrientedRect, TablePoint};
use rules::units::{Degrees, Inches};
use vision::synthetic::{
    Block, Effects, MiniatureSettings, PrintedTag, Renderer, Rgb, SyntheticTable, framing_camera,
};

mod common;
use common::{HD as SIZE, TABLE};

/// 45 bases 40 mm square in a grid, turned every way, each with a 1" tag towards its rear (the
/// figures stand in front of and beside it).
fn table_of_bases() -> SyntheticTable {
    let mut world = SyntheticTable::new(TABLE);
    let mut id = 10;
    // The far sixth of the table left empty: tags there are under 16 px from the side, where
    // the detector misses some even bare (a matter of their size, not of the figures).
    for row in 0..5 {
        for column in 0..9 {
            let center =
                TablePoint::new(5.0 + 7.75 * f64::from(column), 5.0 + 7.5 * f64::from(row));
            let facing = Degrees(f64::from((row * 9 + column) * 47 % 360));
            let base = OrientedRect::from_center(center, facing, Inches(1.6), Inches(1.6));
            let height = Inches(0.16);
            let placement = TagPlacement {
                center: center - base.forward() * 0.15,
                facing,
                size: Inches(1.0),
                height,
            };
            world.blocks.push(Block {
                footprint: base,
                height,
                colour: Rgb(110, 100, 70),
                tags: vec![PrintedTag { id, placement }],
                figures: true,
                motion: None,
            });
            id += 1;
        }
    }
    world
}

#[test]
fn figures_hide_tags_from_a_side_camera_and_every_wholly_visible_tag_is_found() {
    let mut world = table_of_bases();
    let stood = world.stand_miniatures(&MiniatureSettings::default(), 7);
    assert!(stood >= 80, "{stood} figures on 45 bases");

    let camera = framing_camera(TABLE, SIZE, Degrees(45.0), Degrees(70.0));
    let image = Renderer::new()
        .render(&world, &camera, &Effects::WEBCAM)
        .expect("renders");
    let mut detector = vision::TagDetector::new(Default::default()).expect("a detector");
    let found = detector.detect(&image).expect("detects").sightings();
    let truth: Vec<(u32, f64, f64)> = world
        .tags_on_blocks()
        .filter_map(|(block, tag)| {
            let seen = block.tag_as_seen(tag, &camera)?;
            let hidden = world.hidden_share(tag.id, &camera)?;
            Some((tag.id, hidden, seen.side()))
        })
        .collect();
    let false_tags = found
        .iter()
        .filter(|s| !truth.iter().any(|(id, _, _)| *id == s.id))
        .count();
    assert_eq!(false_tags, 0, "tags read that are not on the table");
    let buckets = [
        ("wholly visible", 0.0, 0.0),
        ("under 25 % hidden", 1e-9, 0.25),
        ("25–50 % hidden", 0.25, 0.5),
        ("over half hidden", 0.5, 1.0),
    ];
    let mut recall = Vec::new();
    for (name, low, high) in buckets {
        let within: Vec<&(u32, f64, f64)> = truth
            .iter()
            .filter(|(_, hidden, _)| *hidden >= low && *hidden <= high)
            .collect();
        let seen = within
            .iter()
            .filter(|(id, _, _)| found.iter().any(|s| s.id == *id))
            .count();
        eprintln!("{name}: {seen} of {} found", within.len());
        recall.push((seen, within.len()));
    }
    let sides: Vec<f64> = truth.iter().map(|t| t.2).collect();
    eprintln!(
        "tags {:.0}–{:.0} px across; {stood} figures",
        sides.iter().copied().fold(f64::MAX, f64::min),
        sides.iter().copied().fold(0.0, f64::max)
    );
    let (visible_found, visible) = recall[0];
    let partly: usize = recall[1..].iter().map(|r| r.1).sum();
    assert!(
        partly >= 10,
        "the figures hide part of only {partly} tags from the side"
    );
    // A figure right beside a tag's quiet zone may still cost it (one in 15 today).
    assert!(
        visible >= 10 && visible_found * 10 >= visible * 9,
        "{visible_found} of {visible} wholly visible tags found"
    );
    // The tags found with part of their margin hidden are told so, with the side nearest
    // the camera named; no wholly visible one is.
    let mut watch = vision::health::HealthWatch::new("tag36h11");
    for _ in 0..found.len() * 2 {
        watch.examine(&image, &found).expect("looks");
    }
    let remedies = watch.remedies();
    let covered = |id: u32| {
        remedies
            .iter()
            .find(|r| r.tag == id)
            .is_some_and(|r| matches!(r.ailment, vision::health::Ailment::Covered(_)))
    };
    let hidden_of = |id: u32| truth.iter().find(|t| t.0 == id).map_or(0.0, |t| t.1);
    let told: Vec<u32> = found
        .iter()
        .map(|s| s.id)
        .filter(|id| covered(*id))
        .collect();
    let partly_found: Vec<u32> = found
        .iter()
        .map(|s| s.id)
        .filter(|id| hidden_of(*id) > 0.05)
        .collect();
    eprintln!(
        "told covered: {} of {} found with over 5 % hidden ({told:?}); remedies: {}",
        partly_found.iter().filter(|id| told.contains(id)).count(),
        partly_found.len(),
        remedies
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    );
    for id in &told {
        assert!(
            hidden_of(*id) > 0.0,
            "tag {id} told covered, wholly visible"
        );
    }
}

/// Tag 10, 1" across, on a bare base in the middle of the table, facing north; and where.
fn one_tag_on_a_base() -> (SyntheticTable, TablePoint) {
    let mut world = SyntheticTable::new(TABLE);
    let center = TablePoint::new(36.0, 24.0);
    let placement = TagPlacement {
        center,
        facing: Degrees(90.0),
        size: Inches(1.0),
        height: Inches(0.16),
    };
    world.blocks.push(Block {
        footprint: OrientedRect::from_center(center, Degrees(90.0), Inches(1.6), Inches(2.4)),
        height: Inches(0.16),
        colour: Rgb(110, 100, 70),
        tags: vec![PrintedTag { id: 10, placement }],
        figures: false,
        motion: None,
    });
    (world, center)
}

/// A red-painted block 0.8" wide, `depth` deep and `top` high, across the table's middle at `y`:
/// a figure, or a rank of them, south of the tag.
fn painted_block(y: f64, depth: Inches, top: Inches) -> Block {
    Block {
        footprint: OrientedRect::from_center(
            TablePoint::new(36.0, y),
            Degrees(90.0),
            Inches(0.8),
            depth,
        ),
        height: top,
        colour: Rgb(150, 30, 30),
        tags: Vec::new(),
        figures: false,
        motion: None,
    }
}

#[test]
fn a_figure_in_front_of_a_tag_hides_it_from_the_side_not_from_overhead() {
    let (mut world, center) = one_tag_on_a_base();
    // A 1" figure just south of the tag, between it and a camera at the table's south side.
    world
        .blocks
        .push(painted_block(center.y - 1.0, Inches(0.3), Inches(1.16)));
    let side = framing_camera(TABLE, SIZE, Degrees(50.0), Degrees(70.0));
    let overhead = framing_camera(TABLE, SIZE, Degrees(0.0), Degrees(70.0));
    let from_side = world.hidden_share(10, &side).expect("the tag");
    let from_above = world.hidden_share(10, &overhead).expect("the tag");
    assert!(from_side > 0.2 && from_side < 0.8, "{from_side}");
    assert_eq!(from_above, 0.0);
}

/// A tag whose paper margin is hidden along its edge nearest the camera by something dark on
/// its base (here a 0.2–0.6" block beside it): the detector misses it (the dark block joins
/// its black border), and looked at where it lies, it is said to be covered on that side,
/// with the remedy. With nothing beside it, it is found and well.
#[test]
fn a_tag_whose_margin_is_hidden_is_told_covered_on_the_side_nearest_the_camera() {
    let camera = framing_camera(TABLE, SIZE, Degrees(45.0), Degrees(70.0));
    for figure in [None, Some((0.05, 0.2)), Some((0.1, 0.4)), Some((0.2, 0.6))] {
        let (mut world, center) = one_tag_on_a_base();
        if let Some((depth, tall)) = figure {
            // South of the tag's black square, over its quiet zone, towards the camera.
            let y = center.y - 0.5 - 0.125 - depth / 2.0 + 0.06;
            world
                .blocks
                .push(painted_block(y, Inches(depth), Inches(0.16 + tall)));
        }
        let image = Renderer::new()
            .render(&world, &camera, &Effects::WEBCAM)
            .expect("renders");
        let mut detector = vision::TagDetector::new(Default::default()).expect("a detector");
        let found = detector.detect(&image).expect("detects").sightings();
        let truth = world
            .tags_on_blocks()
            .find_map(|(b, t)| b.tag_as_seen(t, &camera))
            .expect("in view");
        let mut watch = vision::health::HealthWatch::new("tag36h11");
        for _ in 0..8 {
            watch
                .examine(&image, std::slice::from_ref(&truth))
                .expect("looks");
        }
        let remedies = watch.remedies();
        match figure {
            None => {
                assert_eq!(found.len(), 1, "the bare tag is found");
                assert!(remedies.is_empty(), "{remedies:?}");
            }
            Some(_) => {
                let hidden = world.hidden_share(10, &camera).expect("the tag");
                assert!(hidden > 0.05, "{hidden}");
                assert_eq!(remedies.len(), 1, "{figure:?}: {remedies:?}");
                assert_eq!(
                    remedies[0].ailment,
                    vision::health::Ailment::Covered(vision::health::PictureSide::Lower)
                );
                assert!(remedies[0].to_string().contains("nearest the camera"));
            }
        }
    }
}

/// Calibrated from the anchors' exact corners through the camera's own lens: what is tested is
/// the search, not the calibration.
fn exact_calibration(camera: &Camera) -> TableCalibration {
    let layout = AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5));
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
        intrinsics: Some(camera.intrinsics),
        ..Settings::default()
    };
    calibrate(&layout, &sightings, SIZE, &settings).expect("calibrates")
}

fn mean_corner_error(a: &[PixelPoint; 4], b: &[PixelPoint; 4]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p.distance(q).0).sum::<f64>() / 4.0
}

/// The figures on the bases hide edges and corners of many tags from the detector; the search
/// for the roster's missing tags finds nearly all those less than a quarter hidden, and most
/// of those hidden up to half, each at its true corners, and names no tag where it is not.
#[test]
fn tags_with_figures_over_their_edges_are_found_by_the_roster_search() {
    let mut world = table_of_bases();
    world.stand_miniatures(&MiniatureSettings::default(), 7);
    let camera = framing_camera(TABLE, SIZE, Degrees(45.0), Degrees(70.0));
    let image = Renderer::new()
        .render(&world, &camera, &Effects::WEBCAM)
        .expect("renders");
    let detected = vision::TagDetector::new(Default::default())
        .expect("a detector")
        .detect(&image)
        .expect("detects")
        .sightings();
    let wanted: HashMap<u32, StandTagSpec> = world
        .tags_on_blocks()
        .map(|(_, tag)| {
            let spec = StandTagSpec {
                size: tag.placement.size,
                height: tag.placement.height,
            };
            (tag.id, spec)
        })
        .collect();
    let search =
        vision::MissingTagSearch::new(&exact_calibration(&camera), &wanted).expect("search");
    let added = search.find_in(&image, &detected).expect("searches");
    let found: Vec<&TagSighting> = detected.iter().chain(&added).collect();
    // (id, share hidden, found, corners off on average in pixels).
    let mut tags = Vec::new();
    for (block, tag) in world.tags_on_blocks() {
        let (Some(truth), Some(hidden)) = (
            block.tag_as_seen(tag, &camera),
            world.hidden_share(tag.id, &camera),
        ) else {
            continue;
        };
        let sighting = found.iter().find(|s| s.id == tag.id);
        let off = sighting.map(|s| mean_corner_error(&s.corners, &truth.corners));
        tags.push((tag.id, hidden, off));
    }
    for (id, hidden, off) in &tags {
        eprintln!("tag {id}: {hidden:.2} hidden, corners {off:.2?} px off");
        if let Some(off) = off {
            assert!(
                *off < 1.0,
                "tag {id} ({hidden:.2} hidden) found {off:.2} px off"
            );
        }
    }
    let recall = |low: f64, high: f64| {
        let within: Vec<_> = tags.iter().filter(|t| t.1 > low && t.1 <= high).collect();
        let seen = within.iter().filter(|t| t.2.is_some()).count();
        eprintln!("hidden {low}–{high}: {seen} of {} found", within.len());
        (seen, within.len())
    };
    let (seen, all) = recall(0.0, 0.25);
    assert!(
        all >= 10 && seen * 100 >= all * 95,
        "{seen} of {all} under a quarter hidden"
    );
    let (seen, all) = recall(0.25, 0.5);
    assert!(
        all >= 5 && seen * 2 >= all,
        "{seen} of {all} a quarter to half hidden"
    );
    let detected_partly = detected
        .iter()
        .filter(|s| tags.iter().any(|t| t.0 == s.id && t.1 > 0.0))
        .count();
    assert!(
        added.len() > detected_partly,
        "the search adds {} tags; the detector found {detected_partly} partly hidden",
        added.len()
    );
}
