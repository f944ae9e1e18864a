//! Orders: a unit's move said before it is made, checked as a move is, and compared with where
//! the unit was then put.

mod common;

use common::{line, scene, scene_with};
use rules::geometry::TablePoint;
use rules::order::{Order, OrderError, check_order, match_order, moved_to, ordered_scene};
use rules::ruling::Verdict;
use rules::{Degrees, Profile, RulesetId};
use serde_json::json;

fn bp() -> &'static Profile {
    Profile::builtin(RulesetId::BlackPowder)
}

fn order(unit: &str, x: f64, y: f64, facing: f64) -> Order {
    Order {
        unit: unit.into(),
        leader: TablePoint::new(x, y),
        facing: Degrees(facing),
    }
}

#[test]
fn a_unit_ordered_forward_moves_whole_and_turns_about_its_leader() {
    let table = scene(vec![line("1st", "red", [20.0, 10.0], 90.0)]);
    let unit = &table.units[0];
    let moved = moved_to(unit, TablePoint::new(30.0, 20.0), Degrees(0.0));
    assert!((moved.footprint.leader() - TablePoint::new(30.0, 20.0)).norm() < 1e-9);
    assert!(moved.footprint.facing().turn_to(Degrees(0.0)).0.abs() < 1e-9);
    // The 9.4" line turned a quarter: its front now runs along y.
    let frame = moved.footprint.frame();
    assert!((frame.width().0 - 9.4).abs() < 1e-9);
    let ys: Vec<f64> = frame.corners().iter().map(|c| c.y).collect();
    let spread =
        ys.iter().cloned().fold(f64::MIN, f64::max) - ys.iter().cloned().fold(f64::MAX, f64::min);
    assert!((spread - 9.4).abs() < 1e-6, "{spread}");
}

#[test]
fn an_order_within_the_allowance_is_allowed_and_one_beyond_it_is_not() {
    let table = scene(vec![line("1st", "red", [20.0, 10.0], 90.0)]);
    let near = check_order(&table, &order("1st", 20.0, 16.0, 90.0), bp()).expect("checked");
    assert!((near.distance.0 - 6.0).abs() < 1e-6);
    assert!(near.rulings.iter().all(|r| r.verdict() == Verdict::Yes));
    let far = check_order(&table, &order("1st", 20.0, 47.5, 90.0), bp()).expect("checked");
    assert!(far.moves > 3, "{} moves", far.moves);
    assert!(far.rulings.iter().any(|r| r.verdict() == Verdict::No));
}

#[test]
fn an_order_through_a_wood_costs_what_the_move_would() {
    let wood = json!({ "id": "copse", "kind": "wood", "polygon": [[10, 12], [30, 12], [30, 14], [10, 14]] });
    let table = scene_with(
        vec![line("1st", "red", [20.0, 10.0], 90.0)],
        vec![wood],
        vec![],
    );
    let through = check_order(&table, &order("1st", 20.0, 17.0, 90.0), bp()).expect("checked");
    assert!(through.cost.0 > through.distance.0, "{through:?}");
}

#[test]
fn an_order_off_the_table_or_for_no_unit_is_refused_by_name() {
    let table = scene(vec![line("1st", "red", [20.0, 10.0], 90.0)]);
    assert_eq!(
        ordered_scene(&table, &order("2nd", 1.0, 1.0, 0.0)),
        Err(OrderError::NoSuchUnit("2nd".into()))
    );
    assert!(matches!(
        ordered_scene(&table, &order("1st", 2.0, 10.0, 90.0)),
        Err(OrderError::OffTheTable(_))
    ));
    assert_eq!(
        ordered_scene(&table, &order("1st", f64::NAN, 10.0, 90.0)),
        Err(OrderError::NotANumber)
    );
}

#[test]
fn a_unit_put_where_ordered_is_as_ordered_and_a_short_one_is_short() {
    let ordered = order("1st", 20.0, 16.0, 90.0);
    let start = TablePoint::new(20.0, 10.0);
    let exact = match_order(
        &ordered,
        start,
        TablePoint::new(20.1, 16.0),
        Degrees(92.0),
        bp(),
    );
    assert!(exact.as_ordered);
    assert_eq!(exact.words, "placed as ordered (0.10\" off, 2° turned)");
    let short = match_order(
        &ordered,
        start,
        TablePoint::new(20.0, 14.8),
        Degrees(90.0),
        bp(),
    );
    assert!(!short.as_ordered);
    assert!((short.along.0 + 1.2).abs() < 1e-9);
    assert_eq!(short.words, "placed 1.20\" short of the order");
    let beyond = match_order(
        &ordered,
        start,
        TablePoint::new(20.0, 17.0),
        Degrees(90.0),
        bp(),
    );
    assert_eq!(beyond.words, "placed 1.00\" beyond the order");
    // Looking the way it went (north), +x is its right.
    let aside = match_order(
        &ordered,
        start,
        TablePoint::new(21.0, 16.0),
        Degrees(60.0),
        bp(),
    );
    assert_eq!(
        aside.words,
        "placed 1.00\" to the right of the order, facing 30° off it"
    );
}
