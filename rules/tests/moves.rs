//! Checking a move between two scenes (digest §4, §5.3; A16): brigades kept together or torn
//! apart, commanders within their move.

mod common;

use common::{line, scene, scene_with};
use rules::movement::{check_brigades, check_commanders, check_moves};
use rules::ruling::{Topic, Verdict};
use rules::{Profile, RulesetId};
use serde_json::{Value, json};

fn bp() -> &'static Profile {
    Profile::builtin(RulesetId::BlackPowder)
}

/// Three battalions of one brigade in a row, leaders at the given x (9.4" lines facing north).
fn brigade(xs: [f64; 3], ys: [f64; 3]) -> Vec<Value> {
    ["1st", "2nd", "3rd"]
        .iter()
        .zip(xs.iter().zip(ys))
        .map(|(id, (x, y))| {
            let mut unit = line(id, "red", [*x, y], 90.0);
            unit["brigade"] = json!("guards");
            unit
        })
        .collect()
}

#[test]
fn a_brigade_advancing_together_may_move_on_one_order() {
    let before = scene(brigade([10.0, 22.0, 34.0], [10.0; 3]));
    let after = scene(brigade([10.0, 22.0, 34.0], [16.0; 3]));
    let rulings = check_brigades(&before, &after, bp());
    assert_eq!(rulings.len(), 1);
    assert_eq!(rulings[0].verdict(), Verdict::Yes);
    assert!(rulings[0].explanation.contains("still is after it"));
}

#[test]
fn a_battalion_marching_off_breaks_its_brigade_and_is_named() {
    // The 3rd sidesteps 6": 8.6" from the 2nd at the end, more than 6".
    let before = scene(brigade([10.0, 22.0, 34.0], [10.0; 3]));
    let after = scene(brigade([10.0, 22.0, 40.0], [10.0; 3]));
    let rulings = check_brigades(&before, &after, bp());
    assert_eq!(rulings[0].verdict(), Verdict::No);
    assert_eq!(rulings[0].other.as_deref(), Some("3rd"));
    let text = &rulings[0].explanation;
    assert!(text.contains("3rd's move breaks it"), "{text}");
    assert!(text.contains("3rd is 8.60\" from 2nd"), "{text}");
}

#[test]
fn the_middle_of_a_chain_moving_off_is_the_one_named() {
    // The 1st and 3rd stay, 14.6" apart: only the 2nd between them held the chain together.
    let before = scene(brigade([10.0, 22.0, 34.0], [10.0; 3]));
    let after = scene(brigade([10.0, 22.0, 34.0], [10.0, 20.0, 10.0]));
    let rulings = check_brigades(&before, &after, bp());
    assert_eq!(rulings[0].verdict(), Verdict::No);
    assert_eq!(rulings[0].other.as_deref(), Some("2nd"));
    assert!(rulings[0].explanation.contains("2nd's move breaks it"));
}

#[test]
fn a_brigade_ending_just_over_six_inches_apart_is_borderline() {
    // 6.2" between the 2nd and 3rd after the move.
    let before = scene(brigade([10.0, 22.0, 34.0], [10.0; 3]));
    let after = scene(brigade([10.0, 22.0, 37.6], [10.0; 3]));
    let rulings = check_brigades(&before, &after, bp());
    assert_eq!(rulings[0].verdict(), Verdict::Borderline);
    assert!(
        rulings[0]
            .explanation
            .contains("borderline — players decide")
    );
}

#[test]
fn a_brigade_already_apart_could_not_have_moved_on_one_order() {
    let before = scene(brigade([10.0, 22.0, 44.0], [10.0; 3]));
    let after = scene(brigade([10.0, 22.0, 44.0], [14.0; 3]));
    let rulings = check_brigades(&before, &after, bp());
    assert_eq!(rulings[0].verdict(), Verdict::No);
    assert!(
        rulings[0]
            .explanation
            .contains("was not one group before the move (3rd is 12.60\" from 2nd"),
        "{}",
        rulings[0].explanation
    );
}

#[test]
fn a_brigade_that_did_not_move_is_not_reported() {
    let before = scene(brigade([10.0, 22.0, 44.0], [10.0; 3]));
    assert!(check_brigades(&before, &before, bp()).is_empty());
}

fn with_commanders(commanders: Vec<Value>) -> rules::Scene {
    scene_with(brigade([10.0, 22.0, 34.0], [10.0; 3]), vec![], commanders)
}

fn commander(id: &str, at: [f64; 2], mounted: bool) -> Value {
    json!({ "id": id, "side": "red", "position": at, "mounted": mounted })
}

#[test]
fn a_general_on_horseback_rides_48_inches_and_no_further() {
    let before = with_commanders(vec![commander("wellington", [10.0, 2.0], true)]);
    let rode = |x: f64| with_commanders(vec![commander("wellington", [x, 2.0], true)]);
    let within = check_commanders(&before, &rode(50.0), bp());
    assert_eq!(within[0].ruling.verdict(), Verdict::Yes);
    assert_eq!(within[0].distance.0, 40.0);
    let beyond = check_commanders(&before, &rode(60.0), bp());
    assert_eq!(beyond[0].ruling.verdict(), Verdict::No);
    assert!(
        beyond[0]
            .ruling
            .explanation
            .contains("more than his 48.00\" move")
    );
    let near = check_commanders(&before, &rode(58.3), bp());
    assert_eq!(near[0].ruling.verdict(), Verdict::Borderline);
}

#[test]
fn a_commander_on_foot_walks_36_inches() {
    let before = with_commanders(vec![commander("picton", [10.0, 2.0], false)]);
    let after = with_commanders(vec![commander("picton", [10.0, 42.0], false)]);
    let moves = check_commanders(&before, &after, bp());
    assert_eq!(moves[0].allowance.0, 36.0);
    assert_eq!(moves[0].ruling.verdict(), Verdict::No);
    assert!(moves[0].ruling.explanation.contains("on foot"));
}

#[test]
fn a_unit_may_pass_through_a_friend_but_not_end_its_move_inside_one() {
    // §4.2, A37. The 1st marches 12" north; the 2nd stands 8" ahead of it. Ending 1" into the
    // 2nd's line is refused and names the 2nd; passing all the way through (its rear edge
    // beyond the 2nd's front) is allowed; butting up to it (0.05" in: a camera's error) too.
    let second = line("2nd", "red", [30.0, 18.0], 90.0);
    let before = scene(vec![line("1st", "red", [30.0, 10.0], 90.0), second.clone()]);
    let ending = |y: f64| {
        let after = scene(vec![line("1st", "red", [30.0, y], 90.0), second.clone()]);
        let (checks, _) = check_moves(&before, &after, bp());
        let first = checks
            .into_iter()
            .find(|c| c.unit == "1st")
            .expect("the 1st");
        first
            .rulings
            .into_iter()
            .find(|r| r.topic == Topic::Movement && r.other.as_deref() == Some("2nd"))
    };
    // The 2nd's line runs from y = 16.4 (rear) to 18 (front); the 1st is 1.6" deep.
    let inside = ending(17.4).expect("ending inside the 2nd is ruled on");
    assert_eq!(inside.verdict(), Verdict::No);
    assert!(
        inside.explanation.contains("ends its move inside 2nd"),
        "{}",
        inside.explanation
    );
    assert_eq!(inside.rule.reading, Some("A37"));
    assert!(ending(19.7).is_none(), "through and beyond it");
    assert!(ending(16.45).is_none(), "butting up to it");
    // An enemy is not a friend: ending on one is a charge, ruled elsewhere.
    let mut enemy = second.clone();
    enemy["side"] = json!("blue");
    let before = scene(vec![line("1st", "red", [30.0, 10.0], 90.0), enemy.clone()]);
    let after = scene(vec![line("1st", "red", [30.0, 17.4], 90.0), enemy]);
    let (checks, _) = check_moves(&before, &after, bp());
    assert!(
        checks
            .iter()
            .flat_map(|c| &c.rulings)
            .all(|r| r.rule.reading != Some("A37"))
    );
}
