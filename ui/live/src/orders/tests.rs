use std::sync::Arc;
use std::time::Duration;

use rules::Scene;
use rules::geometry::TablePoint;
use rules::order::Order;
use rules::ruling::Verdict;
use rules::scene::Format;
use rules::units::{Degrees, Inches};
use vision::{MoveEvent, Placed};

use super::*;

/// A red line at (20, 10) facing north, a blue one far off.
fn state() -> TableState {
    let doc = serde_json::json!({
        "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
        "units": [
            { "id": "1st", "name": "1st Foot", "side": "red", "kind": "infantry",
              "formation": "line", "front_center": [20, 10], "facing": 90, "width": 9.4,
              "depth": 1.6 },
            { "id": "bleus", "side": "blue", "kind": "infantry", "formation": "line",
              "front_center": [60, 40], "facing": 270, "width": 9.4, "depth": 1.6 }
        ]
    });
    let scene = Scene::parse(&doc.to_string(), Format::Json, "test").expect("scene");
    let mut state = TableState::message("test", None);
    state.scene = Some(Arc::new(scene));
    state
}

fn order(unit: &str, x: f64, y: f64) -> Order {
    Order {
        unit: unit.into(),
        leader: TablePoint::new(x, y),
        facing: Degrees(90.0),
    }
}

fn moved(unit: &str, to: TablePoint, ended: u64) -> Arc<MoveRecord> {
    let placed = |leader| Placed {
        leader,
        facing: Degrees(90.0),
    };
    Arc::new(MoveRecord {
        event: MoveEvent {
            unit: unit.into(),
            from: placed(TablePoint::new(20.0, 10.0)),
            to: placed(to),
            path: Inches(6.0),
            started: Duration::from_secs(ended - 1),
            ended: Duration::from_secs(ended),
            lifted: true,
            unseen: false,
        },
        name: unit.into(),
        check: None,
    })
}

#[test]
fn an_order_is_checked_and_shown_then_matched_when_its_unit_settles() {
    let desk = Desk::default();
    let red = Seat::Side("red".into());
    let mut state = state();
    desk.follow(&state);
    let id = desk
        .order(&red, "Anne", order("1st", 20.0, 16.0), &state)
        .expect("taken");
    let board = desk.board();
    assert_eq!(board.orders.len(), 1);
    let standing = &board.orders[0];
    assert_eq!((standing.id, standing.by.as_str()), (id, "Anne"));
    assert_eq!(standing.verdict, Verdict::Yes);
    assert!(
        (standing.ghost[0][0].y - 16.0).abs() < 0.01,
        "{:?}",
        standing.ghost
    );
    // A move of another unit leaves the order open; the ordered unit's is matched.
    state.moves = vec![moved("bleus", TablePoint::new(60.0, 38.0), 5)];
    desk.follow(&state);
    assert!(desk.board().orders[0].placed.is_none());
    state
        .moves
        .push(moved("1st", TablePoint::new(20.0, 14.8), 8));
    desk.follow(&state);
    let board = desk.board();
    let (matched, _) = board.orders[0].placed.as_ref().expect("placed");
    assert_eq!(matched.words, "placed 1.20\" short of the order");
    // The same state followed again places nothing twice.
    let version = board.version;
    desk.follow(&state);
    assert_eq!(desk.board().version, version);
}

#[test]
fn a_side_orders_only_its_own_units_and_the_umpire_any() {
    let desk = Desk::default();
    let state = state();
    let refused = desk.order(
        &Seat::Side("red".into()),
        "Anne",
        order("bleus", 60.0, 36.0),
        &state,
    );
    assert!(
        matches!(refused, Err(Refusal::NotYours { .. })),
        "{refused:?}"
    );
    assert!(
        desk.order(&Seat::Umpire, "Umpire", order("bleus", 60.0, 36.0), &state)
            .is_ok()
    );
    let unknown = desk.order(&Seat::Umpire, "Umpire", order("ghosts", 1.0, 1.0), &state);
    assert!(matches!(
        unknown,
        Err(Refusal::Order(OrderError::NoSuchUnit(_)))
    ));
    let no_table = TableState::message("test", None);
    let early = desk.order(
        &Seat::Umpire,
        "Umpire",
        order("bleus", 60.0, 36.0),
        &no_table,
    );
    assert_eq!(early, Err(Refusal::NoTable));
}

#[test]
fn pointers_are_held_to_a_rate_and_the_table() {
    let desk = Desk::default();
    let state = state();
    let red = Seat::Side("red".into());
    let off = desk.point(&red, "Anne", TablePoint::new(80.0, 10.0), &state);
    assert_eq!(off, Err(Refusal::OffTheTable));
    let taken = (0..20)
        .filter(|_| {
            desk.point(&red, "Anne", TablePoint::new(30.0, 20.0), &state)
                .is_ok()
        })
        .count();
    assert!((8..=9).contains(&taken), "{taken} taken");
    assert_eq!(
        desk.point(&red, "Anne", TablePoint::new(30.0, 20.0), &state),
        Err(Refusal::TooFast("pointers"))
    );
    // Another name on the same seat is the same seat: held too.
    assert_eq!(
        desk.point(&red, "Bob", TablePoint::new(30.0, 20.0), &state),
        Err(Refusal::TooFast("pointers"))
    );
    // Another seat is not held by red's taps, whatever name it gives.
    let blue = Seat::Side("blue".into());
    assert!(
        desk.point(&blue, "Anne", TablePoint::new(30.0, 20.0), &state)
            .is_ok()
    );
    assert_eq!(desk.board().pointers.len(), taken + 1);
}

#[test]
fn orders_under_rotating_names_are_held_to_the_seat_and_recorded_with_it() {
    let desk = Desk::default();
    let state = state();
    let red = Seat::Side("red".into());
    let taken = (0..50)
        .filter(|n| {
            let name = format!("player {n}");
            desk.order(&red, &name, order("1st", 20.0, 16.0), &state)
                .is_ok()
        })
        .count();
    assert!((4..=5).contains(&taken), "{taken} of 50 taken");
    let standing = desk.board().orders.pop().expect("an order");
    assert!(
        ordered_words(&standing).starts_with("Order from player "),
        "{}",
        ordered_words(&standing)
    );
    assert!(
        ordered_words(&standing).contains("(the red seat)"),
        "{}",
        ordered_words(&standing)
    );
}

#[test]
fn a_new_order_for_a_unit_replaces_its_open_one_and_may_be_withdrawn() {
    let desk = Desk::default();
    let state = state();
    let red = Seat::Side("red".into());
    desk.order(&red, "Anne", order("1st", 20.0, 16.0), &state)
        .expect("taken");
    let second = desk
        .order(&red, "Anne", order("1st", 24.0, 16.0), &state)
        .expect("taken");
    assert_eq!(desk.board().orders.len(), 1);
    assert_eq!(
        desk.withdraw(&Seat::Side("blue".into()), second),
        Err(Refusal::NoSuchOrder(second))
    );
    desk.withdraw(&red, second).expect("withdrawn");
    assert!(desk.board().orders.is_empty());
}
