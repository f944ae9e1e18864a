//! Retiring and evading (digest §7.6, §8.3; A28, A29, A36) from situations a player knows.

mod common;

use common::{line, of, rule, scene, unit};
use rules::Scene;
use rules::quarter::Quarter;
use rules::retire::{Outcome, Withdrawal, retire};
use rules::ruling::Verdict;
use rules::situation::Situation;
use serde_json::{Value, json};

/// Where the 45th goes if it must retire.
fn retire_of(scene: &Scene, id: &str) -> (Withdrawal, rules::ruling::Ruling) {
    let profile = scene.profile();
    let situation = Situation::new(scene, &profile);
    let index = scene.units.iter().position(|u| u.id == id).expect("unit");
    retire(&situation, index)
}

/// The 45th facing north with its leader at `front`, and the 3e touching its front.
fn fighting_to_the_front(front: [f64; 2]) -> Vec<Value> {
    vec![
        line("45th", "red", front, 90.0),
        line("3e", "blue", front, 270.0),
    ]
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn a_battalion_fighting_to_its_front_retires_one_move_straight_back() {
    let report = rule(&scene(fighting_to_the_front([30.0, 20.0])));
    let retire = of(&report, "45th")
        .retire
        .as_ref()
        .expect("engaged: retire");
    assert_eq!(retire.outcome, Outcome::Moves);
    assert_eq!(retire.quarter, Quarter::Rear);
    assert_eq!(retire.moves, 1);
    assert!(close(retire.distance.0, 12.0));
    let end = retire.end.expect("an end position");
    assert!((end.front_center() - rules::geometry::TablePoint::new(30.0, 8.0)).norm() < 1e-6);
    assert!(
        of(&report, "45th").rulings.iter().any(|r| r
            .explanation
            .contains("If 45th must retire, it makes one full move (12.00\") into its rear quarter, straight"))
    );
}

#[test]
fn a_retire_blocked_by_the_table_edge_destroys_the_unit() {
    // 8" from its own table edge: a full move back leaves the table whichever way it veers.
    let (retire, ruling) = retire_of(&scene(fighting_to_the_front([30.0, 8.0])), "45th");
    assert_eq!(retire.outcome, Outcome::Destroyed);
    assert_eq!(ruling.verdict(), Verdict::No);
    assert!(
        ruling
            .explanation
            .contains("crosses the table edge: it is destroyed")
    );
}

#[test]
fn a_retire_ending_a_hair_inside_the_table_edge_is_borderline() {
    // The stand's centre ends 0.3" inside the edge.
    let (retire, ruling) = retire_of(&scene(fighting_to_the_front([30.0, 13.1])), "45th");
    assert_eq!(retire.outcome, Outcome::Moves);
    assert!(retire.borderline);
    assert_eq!(ruling.verdict(), Verdict::Borderline);
}

#[test]
fn a_retire_that_would_end_on_friends_goes_two_moves_through_them() {
    // A deep friendly mass 7.4" behind: every one-move end lands on it; two moves clear it.
    let mut units = fighting_to_the_front([30.0, 30.0]);
    units.push(unit(
        json!({ "id": "reserve", "side": "red", "kind": "infantry",
        "front_center": [30.0, 21.0], "facing": 90.0, "width": 40.0, "depth": 5.0 }),
    ));
    let (retire, ruling) = retire_of(&scene(units), "45th");
    assert_eq!(retire.outcome, Outcome::Moves);
    assert_eq!(retire.moves, 2);
    assert!(close(retire.distance.0, 24.0));
    assert!(ruling.explanation.contains("two full moves (24.00\")"));
    assert!(ruling.explanation.contains("it would end on reserve"));
}

#[test]
fn enemies_behind_leave_no_way_back_and_the_unit_breaks() {
    let mut units = fighting_to_the_front([30.0, 20.0]);
    units.push(unit(
        json!({ "id": "lancers", "name": "Polish Lancers", "side": "blue",
        "kind": "cavalry", "front_center": [30.0, 16.0], "facing": 90.0, "width": 40.0,
        "depth": 4.0 }),
    ));
    let (retire, ruling) = retire_of(&scene(units), "45th");
    assert_eq!(retire.outcome, Outcome::Breaks);
    assert_eq!(ruling.verdict(), Verdict::No);
    assert!(
        ruling
            .explanation
            .contains("Polish Lancers is in the way; it breaks"),
        "{}",
        ruling.explanation
    );
}

#[test]
fn a_battalion_fighting_only_its_left_flank_retires_to_its_right() {
    // The 3e faces east against the 45th's left end (the 45th's own left is west).
    let units = vec![
        line("45th", "red", [30.0, 20.0], 90.0),
        unit(
            json!({ "id": "3e", "side": "blue", "kind": "infantry", "front_center": [25.25, 19.2],
            "facing": 0.0, "width": 5.0, "depth": 1.6 }),
        ),
    ];
    let (retire, _) = retire_of(&scene(units), "45th");
    assert_eq!(retire.quarter, Quarter::RightFlank);
    assert_eq!(retire.outcome, Outcome::Moves);
    let end = retire.end.expect("an end position");
    assert!((end.front_center() - rules::geometry::TablePoint::new(42.0, 20.0)).norm() < 1e-6);
}

#[test]
fn a_square_ignores_retire_results() {
    let units = vec![
        unit(
            json!({ "id": "45th", "side": "red", "kind": "infantry", "formation": "square",
            "front_center": [30.0, 20.0], "facing": 90.0, "width": 6.0, "depth": 6.0 }),
        ),
        line("3e", "blue", [30.0, 20.0], 270.0),
    ];
    let (retire, ruling) = retire_of(&scene(units), "45th");
    assert_eq!(retire.outcome, Outcome::Holds);
    assert!(
        ruling
            .explanation
            .contains("holds its ground without disorder")
    );
}

#[test]
fn hussars_charged_in_the_front_by_infantry_evade_to_the_rear_by_one_move() {
    // The 45th is 10" from the hussars' front: it reaches; cavalry charged by infantry may evade.
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 16.0], 90.0),
        unit(
            json!({ "id": "hussars", "name": "2e Hussards", "side": "blue", "kind": "cavalry",
            "front_center": [30.0, 26.0], "facing": 270.0, "width": 5.9, "depth": 3.9 }),
        ),
    ]));
    let charge = report
        .pairs
        .iter()
        .find(|p| p.measurement.from == "45th" && p.measurement.to == "hussars")
        .and_then(|p| p.charge.as_ref())
        .expect("a charge");
    let evade = charge.evade.as_ref().expect("cavalry may evade infantry");
    assert_eq!(evade.quarter, Quarter::Rear);
    assert_eq!((evade.outcome, evade.moves), (Outcome::Moves, 1));
    assert!(close(evade.distance.0, 18.0));
    let end = evade.end.expect("an end position");
    assert!((end.front_center() - rules::geometry::TablePoint::new(30.0, 44.0)).norm() < 1e-6);
    let text = common::text_of(&report, "45th");
    assert!(
        text.contains("2e Hussards may evade: one full move (18.00\") into its rear quarter"),
        "{text}"
    );
}

#[test]
fn formed_infantry_charged_by_infantry_may_not_evade() {
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 16.0], 90.0),
        line("3e", "blue", [30.0, 26.0], 270.0),
    ]));
    let charge = report
        .pairs
        .iter()
        .find(|p| p.measurement.from == "45th")
        .and_then(|p| p.charge.as_ref())
        .expect("a charge");
    assert!(charge.evade.is_none());
}
