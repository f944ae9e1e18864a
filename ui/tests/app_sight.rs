//! What the camera can see, as the player is told it: the plan's map of the smallest tag found
//! at each place, and for a unit not seen now, why.

mod common;

use common::film;
use egui_kittest::kittest::Queryable;
use live::demo::Demo;
use live::pipeline::Processor;
use rules::units::{Degrees, Inches};
use vedette_ui::app::headless::harness_on;
use vision::Unseen;
use vision::synthetic::{Block, Rgb, SyntheticTable};

/// A hand held over the middle of a unit: skin-coloured, 2.5" above the cloth.
fn hand_over(table: &mut SyntheticTable, unit: &rules::scene::Unit) {
    table.blocks.push(Block {
        footprint: rules::geometry::OrientedRect::from_center(
            unit.footprint.frame().center(),
            Degrees(10.0),
            Inches(unit.footprint.frame().width().0 + 2.0),
            Inches(4.0),
        ),
        height: Inches(2.5),
        colour: Rgb(214, 170, 140),
        tags: Vec::new(),
        figures: false,
        motion: None,
    });
}

#[test]
fn the_plan_says_where_the_roster_tags_are_found_and_why_a_unit_is_not_seen() {
    let demo = Demo::new().expect("the demo");
    let mut processor = Processor::new(demo.inputs());
    let clear = demo.stage(0);
    let first = film(&mut processor, demo.camera, clear.clone(), 0);

    // Every unit of the demo is seen, so the map must say its tags are found where it stands,
    // and the far side needs bigger tags than the near side.
    let (map, tag_size) = first
        .sight
        .clone()
        .expect("a map once calibrated with a roster");
    assert_eq!(tag_size, Inches(demo.roster.tags.size));
    for unit in &demo.turns[0].units {
        let at = unit.footprint.frame().center();
        let smallest = map.at(&at).expect("on the table, in the picture");
        assert!(
            smallest <= tag_size,
            "{} at {at}: needs {smallest:?}",
            unit.id
        );
    }
    let depth = demo.turns[0].table.depth.0;
    let width = demo.turns[0].table.width.0;
    let row = |y: f64| map.at(&rules::geometry::TablePoint::new(width / 2.0, y));
    let camera_y = demo.camera.pose.eye().y;
    let (near, far) = if camera_y < depth / 2.0 {
        (2.0, depth - 2.0)
    } else {
        (depth - 2.0, 2.0)
    };
    assert!(
        row(far) > row(near),
        "far {:?} near {:?}",
        row(far),
        row(near)
    );

    // A hand over a unit: it is held where it was, and it is covered, not too small.
    let unit = &demo.turns[0].units[0];
    let mut covered = clear.clone();
    hand_over(&mut covered, unit);
    let state = film(&mut processor, demo.camera, covered, 1);
    assert_eq!(
        state.held_units.get(&unit.id),
        Some(&Unseen::Covered),
        "{:?}",
        state.held_units
    );
    assert!(
        state
            .status
            .held_tags
            .iter()
            .all(|(_, why)| *why == Unseen::Covered)
    );

    // The player sees it: the unit's reason in the inspector, the map on the plan.
    let mut harness = harness_on(state, Some(unit.id.clone()));
    harness.run_steps(2);
    assert!(
        harness
            .query_all_by_label_contains("Not seen now (covered)")
            .next()
            .is_some()
    );
    harness.get_by_label("sight").click();
    harness.run_steps(2);
    assert!(
        harness
            .query_all_by_label_contains("sight: green, the roster's")
            .next()
            .is_some()
    );
}
