//! Small tags on a slope: tilted up to 16° off the table's plane, seen by a webcam 45° from
//! vertical, 9–16 px across, found by the live detector's small-tag search as flat ones are.

use std::collections::HashMap;

use calibration::{AnchorLayout, StandTagSpec, TagPlacement};
use nalgebra::{Isometry3, Translation3, Unit, UnitQuaternion, Vector3};
use rules::geometry::{OrientedRect, TablePoint};
use rules::units::{Degrees, Inches};
use vision::live::LiveDetector;
use vision::live::missing::MissingTagSearch;
use vision::synthetic::{
    Block, BlockMotion, Effects, PrintedTag, Renderer, Rgb, SyntheticTable, framing_camera,
};

mod common;
use common::{HD as SIZE, TABLE};

const TAG: Inches = Inches(0.7);

/// 40 bases with 0.7" tags over the table, each tilted by `tilt` about its own direction in
/// the table's plane (as on a hill's flank, facing every way), and the anchors.
fn tilted_table(tilt: f64, anchors: &AnchorLayout) -> SyntheticTable {
    let mut world = SyntheticTable::new(TABLE);
    let mut id = 10;
    for row in 0..4 {
        for column in 0..10 {
            let center =
                TablePoint::new(6.0 + 6.5 * f64::from(column), 8.0 + 10.0 * f64::from(row));
            let facing = Degrees(f64::from((row * 10 + column) * 37 % 360));
            let placement = TagPlacement {
                center,
                facing,
                size: TAG,
                height: Inches(0.16),
            };
            let across = f64::from(column * 53).to_radians();
            let axis = Unit::new_normalize(Vector3::new(across.cos(), across.sin(), 0.0));
            let turn = UnitQuaternion::from_axis_angle(&axis, tilt.to_radians());
            let pivot = Vector3::new(center.x, center.y, 0.0);
            let pose = Isometry3::from_parts(Translation3::from(pivot - turn * pivot), turn);
            world.blocks.push(Block {
                footprint: OrientedRect::from_center(center, facing, Inches(1.2), Inches(1.2)),
                height: Inches(0.16),
                colour: Rgb(110, 100, 70),
                tags: vec![PrintedTag { id, placement }],
                figures: false,
                motion: (tilt > 0.0).then(|| BlockMotion::still(pose)),
            });
            id += 1;
        }
    }
    for anchor in &anchors.anchors {
        world
            .blocks
            .push(Block::card(anchor.id, anchor.placement()));
    }
    world
}

#[test]
fn small_tags_tilted_on_a_slope_are_found_as_flat_ones_are() {
    let camera = framing_camera(TABLE, SIZE, Degrees(45.0), Degrees(70.0));
    let anchors = AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5));
    let mut found_at = Vec::new();
    for tilt in [0.0, 8.0, 16.0] {
        let world = tilted_table(tilt, &anchors);
        let image = Renderer::new()
            .render(&world, &camera, &Effects::WEBCAM)
            .expect("renders");
        let mut full = vision::TagDetector::new(Default::default()).expect("a detector");
        let seen = full.detect(&image).expect("detects").sightings();
        let calibration =
            calibration::calibrate(&anchors, &seen, SIZE, &Default::default()).expect("anchors");
        let wanted: HashMap<u32, StandTagSpec> = world
            .tags()
            .filter(|t| anchors.anchor(t.id).is_none())
            .map(|t| {
                let spec = StandTagSpec {
                    size: TAG,
                    height: Inches(0.16),
                };
                (t.id, spec)
            })
            .collect();
        let mut live = LiveDetector::new(Default::default()).expect("a live detector");
        live.search_missing(Some(
            MissingTagSearch::new(&calibration, &wanted).expect("a search"),
        ));
        let mut detections = live.detect(&image).expect("detects");
        live.search_pending(&image, &mut detections)
            .expect("searches");
        let ids: Vec<u32> = detections.tags.iter().map(|d| d.sighting.id).collect();
        assert!(
            ids.iter().all(|id| world.tags().any(|t| t.id == *id)),
            "a tag read that is not on the table: {ids:?}"
        );
        // Tags of 12 px or more: the small search's own floor lies below.
        let (mut big, mut found) = (0, 0);
        for (block, tag) in world.tags_on_blocks() {
            let side = block.tag_as_seen(tag, &camera).expect("in view").side();
            if wanted.contains_key(&tag.id) && side >= 12.0 {
                big += 1;
                found += usize::from(ids.contains(&tag.id));
            }
        }
        eprintln!("tilted {tilt}°: {found} of {big} tags of 12 px or more found");
        found_at.push((tilt, found, big));
    }
    for (tilt, found, big) in found_at {
        assert!(big >= 15, "{big} tags of 12 px or more");
        assert_eq!(found, big, "tilted {tilt}°: {found} of {big} found");
    }
}
