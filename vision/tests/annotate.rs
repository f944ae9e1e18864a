//! The annotated picture of a crowded table: two lines an inch apart, their long names and
//! every tag's id written on a small picture. No label covers another, none leaves the picture,
//! and every unit keeps its name.

use std::collections::HashMap;

use calibration::{AnchorLayout, ImageSize, Settings, calibrate};
use roster::Roster;
use roster::TagDefaults;
use rules::Scene;
use rules::scene::{Format, TableDoc};
use rules::units::{Degrees, Inches};
use vision::annotate::{Annotated, annotate, labels::overlap};
use vision::synthetic::{Effects, Renderer, SyntheticTable, framing_camera};
use vision::{TagDetector, TagPose, build_scene, locate_tags};

mod common;
use common::TABLE;

/// Sixteen units 4" wide, eight a side, the lines an inch apart across the table's middle.
fn crowded_scene() -> Scene {
    let units: Vec<String> = (0..16)
        .map(|i| {
            let (side, y, facing) = if i < 8 {
                ("red", 23.0, 90.0)
            } else {
                ("blue", 25.0, 270.0)
            };
            format!(
                r#"{{"id": "unit-{i}", "name": "{} Battalion, {}th Regiment of Foot", "side": "{side}",
                "kind": "infantry", "formation": "line", "front_center": [{}, {y}],
                "facing": {facing}, "width": 4.0, "depth": 1.5}}"#,
                i + 1,
                20 + i,
                16.0 + 5.0 * (i % 8) as f64
            )
        })
        .collect();
    let text = format!(
        r#"{{"ruleset": "black-powder", "table": {{"width": {}, "depth": {}}}, "units": [{}]}}"#,
        TABLE.width,
        TABLE.depth,
        units.join(", ")
    );
    Scene::parse(&text, Format::Json, "crowded.json").expect("a scene")
}

/// The crowded table filmed at 1280×720, read back through the pipeline and annotated.
fn annotated_crowd() -> (Annotated, usize, ImageSize) {
    let scene = crowded_scene();
    let roster = Roster::for_scene(
        &scene,
        TagDefaults {
            size: 1.0,
            height: 0.16,
            ..TagDefaults::default()
        },
        10,
    );
    let anchors = AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5));
    let world = SyntheticTable::stage(&scene, &roster, &anchors);
    let size = ImageSize {
        width: 1280,
        height: 720,
    };
    let camera = framing_camera(TABLE, size, Degrees(40.0), Degrees(70.0));
    let image = Renderer::new()
        .render(&world, &camera, &Effects::IDEAL)
        .expect("renders");
    let sightings = TagDetector::new(Default::default())
        .expect("detector")
        .detect(&image)
        .expect("detects")
        .sightings();
    let calibration =
        calibrate(&anchors, &sightings, size, &Settings::default()).expect("calibrates");
    let tags = locate_tags(&calibration, Some(&roster), &sightings, Inches(0.16));
    let poses: HashMap<u32, TagPose> = tags.tags.iter().map(|t| (t.pose.id, t.pose)).collect();
    let table = TableDoc {
        width: TABLE.width,
        depth: TABLE.depth,
    };
    let (seen, _) = build_scene(&roster, &poses, table, Vec::new(), "camera").expect("scene");
    let annotated =
        annotate(&image, &calibration, &tags, Some(&seen), Inches(0.16), &[]).expect("annotates");
    (annotated, seen.units.len(), size)
}

#[test]
fn labels_of_a_crowded_table_never_overlap_and_stay_in_the_picture() {
    let (annotated, units, size) = annotated_crowd();
    assert_eq!(units, 16, "every unit seen");
    let labels = &annotated.labels;
    for (i, a) in labels.iter().enumerate() {
        let area = a.area;
        assert!(
            area.x >= 0
                && area.y >= 0
                && area.x + area.width <= size.width as i32
                && area.y + area.height <= size.height as i32,
            "{:?} at {area:?} leaves the picture",
            a.text
        );
        for b in &labels[i + 1..] {
            assert!(
                !overlap(&a.area, &b.area),
                "{:?} at {:?} and {:?} at {:?} overlap",
                a.text,
                a.area,
                b.text,
                b.area
            );
        }
    }
    // The scene is crowded: labels had to move away from what they name, and yet every unit
    // has its name written.
    assert!(labels.iter().any(|l| l.moved), "no label had to move");
    let names = labels
        .iter()
        .filter(|l| l.text.contains("Regiment"))
        .count();
    assert_eq!(names, 16, "left out: {:?}", annotated.left_out);
}
