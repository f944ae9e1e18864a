//! The demo table in motion, through the whole pipeline: a unit carried in a hand is drawn
//! where it is seen, ruled where it rests, listed as a move once it is put down; a faded tag
//! is named with its remedy in the status bar.

use egui_kittest::kittest::Queryable;
use live::demo::{Demo, FRAMES_PER_MOVE};
use live::pipeline::TableState;
use vedette_ui::app::headless::{SETTLED_FRAMES, demo_filmed, demo_state_moving, harness_on};

fn has_text(harness: &egui_kittest::Harness<'_, vedette_ui::app::VedetteApp>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
}

#[test]
fn a_carried_unit_is_drawn_in_the_hand_and_ruled_where_it_lay() {
    let demo = Demo::new().expect("the demo");
    let moving = demo_state_moving(&demo, 0).expect("the demo mid-move");
    let carried = moving
        .travelling
        .iter()
        .find(|t| t.in_hand)
        .expect("a unit in a hand");
    let scene = moving.scene.as_ref().expect("a scene");
    let resting = scene.unit(&carried.unit).expect("ruled where it rests");
    let lay = demo.turns[0].unit(&carried.unit).expect("in the opening");
    assert!(
        (resting.footprint.leader() - lay.footprint.leader()).norm() < 0.1,
        "ruled at {:?}, lay at {:?}",
        resting.footprint.leader(),
        lay.footprint.leader()
    );
    let ghost = carried.stands[0].center();
    assert!(
        (ghost - lay.footprint.frame().center()).norm() > 1.0,
        "the ghost {ghost:?} is on its way"
    );

    // Drawn: the app with the unit in the hand differs from the app without it where the
    // ghost is.
    let mut still = moving.clone();
    still.travelling.clear();
    let image = |state: TableState| harness_on(state, None).render().expect("the app renders");
    let (with, without) = (image(moving.clone()), image(still));
    let differing = with
        .pixels()
        .zip(without.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(differing > 200, "{differing} pixels differ");
}

#[test]
fn the_moves_made_are_listed_and_a_faded_tag_is_named_with_its_remedy() {
    let demo = Demo::new().expect("the demo");
    let states = std::iter::once((demo.stage(0), SETTLED_FRAMES))
        .chain(demo.making_moves(0, FRAMES_PER_MOVE - 1))
        .chain(std::iter::once((demo.stage(1), 12)))
        .collect();
    let state = demo_filmed(&demo, states).expect("the demo filmed");
    assert!(state.travelling.is_empty(), "{:?}", state.travelling);
    let moved: Vec<&str> = state.moves.iter().map(|m| m.event.unit.as_str()).collect();
    let advanced = demo.turns[0]
        .units
        .iter()
        .zip(&demo.turns[1].units)
        .filter(|(a, b)| (a.footprint.leader() - b.footprint.leader()).norm() > 0.5)
        .count();
    assert!(
        moved.len() >= advanced.saturating_sub(1) && !moved.is_empty(),
        "{} moves of {advanced} units: {moved:?}",
        moved.len()
    );
    assert!(
        state.moves.iter().any(|m| m.event.lifted),
        "one was carried"
    );
    let faded = demo.faded_tag().expect("a faded tag");
    let remedy = state
        .health
        .iter()
        .find(|r| r.tag == faded)
        .expect("the faded tag is named");
    let words = format!("tag {faded}: faded — reprint it");
    assert_eq!(remedy.to_string(), words);

    let harness = harness_on(state, None);
    assert!(has_text(&harness, &words), "the status bar names it");
    assert!(has_text(&harness, "🔀 Moves"), "the moves are listed");
}
