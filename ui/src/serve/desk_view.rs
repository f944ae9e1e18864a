//! What pages are told of the remote players' desk: the pointers on the table and the orders
//! given, each in its side's colour, with the check's words and, once the unit was moved, how
//! well it was placed.

use live::orders::{Board, Seat, StandingOrder};
use rules::Scene;
use rules::geometry::TablePoint;
use rules::ruling::to_thousandth;
use serde::Serialize;

use super::naming::{side_colour, verdict_word};

/// The desk as pages draw it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DeskView {
    /// Pointers still on the table.
    pub pointers: Vec<PointerView>,
    /// Orders open, and those placed in the last minute.
    pub orders: Vec<OrderView>,
}

/// A pointer on the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PointerView {
    /// Its number: a page fades each from when it first saw it.
    pub id: u64,
    /// The player's name.
    pub by: String,
    /// Its colour, `#rrggbb`: the player's side's, the umpire's white.
    pub colour: String,
    /// Where, inches.
    pub at: TablePoint,
    /// How long it has been there, whole seconds (a page that joins late fades it sooner).
    pub age_s: u64,
}

/// An order, open or placed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrderView {
    /// Its number (a page withdraws it by it).
    pub id: u64,
    /// The unit's id.
    pub unit: String,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: String,
    /// Who ordered it: the name the page gave (free text).
    pub by: String,
    /// The seat whose link ordered it ("the british seat"): what the link proved.
    pub seat: String,
    /// The side's colour.
    pub colour: String,
    /// The unit where it is ordered to: its stands' corners, inches.
    pub ghost: Vec<[TablePoint; 4]>,
    /// Where its leader is ordered to.
    pub leader: TablePoint,
    /// Its ordered facing, degrees counter-clockwise from +x.
    pub facing: f64,
    /// The check's worst verdict (`yes`, `penalty`, `test`, `borderline`, `no`).
    pub verdict: &'static str,
    /// The check's sentences, each with its verdict.
    pub checks: Vec<(&'static str, String)>,
    /// Once moved: how well it was placed ("placed as ordered (0.10\" off, 2° turned)").
    pub placed: Option<String>,
    /// Once moved: whether it was placed as ordered.
    pub as_ordered: Option<bool>,
}

impl DeskView {
    /// The desk's board, coloured by `scene`'s sides.
    pub fn of(board: &Board, scene: &Scene) -> DeskView {
        let colour = |seat: &Seat| match seat.side() {
            Some(side) => side_colour(scene, side),
            None => "#ffffff".into(),
        };
        DeskView {
            pointers: (board.pointers.iter())
                .map(|(pointer, age)| PointerView {
                    id: pointer.id,
                    by: pointer.by.clone(),
                    colour: colour(&pointer.seat),
                    at: to_thousandth(&pointer.at),
                    age_s: age.as_secs(),
                })
                .collect(),
            orders: (board.orders.iter())
                .map(|order| order_view(order, side_colour(scene, &order.side)))
                .collect(),
        }
    }
}

fn order_view(order: &StandingOrder, colour: String) -> OrderView {
    let placed = order.placed.as_ref().map(|(matched, _)| matched);
    OrderView {
        id: order.id,
        unit: order.order.unit.clone(),
        name: order.name.clone(),
        side: order.side.clone(),
        by: order.by.clone(),
        seat: order.seat.words(),
        colour,
        ghost: (order.ghost.iter())
            .map(|stand| stand.map(|c| to_thousandth(&c)))
            .collect(),
        leader: to_thousandth(&order.order.leader),
        facing: order.order.facing.0,
        verdict: verdict_word(order.verdict),
        checks: (order.checks.iter())
            .map(|(verdict, words)| (verdict_word(*verdict), words.clone()))
            .collect(),
        placed: placed.map(|m| m.words.clone()),
        as_ordered: placed.map(|m| m.as_ordered),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use live::TableState;
    use live::orders::{Desk, Seat};
    use rules::Scene;
    use rules::geometry::TablePoint;
    use rules::order::Order;
    use rules::scene::Format;

    use super::*;

    #[test]
    fn a_desk_with_an_order_and_a_pointer_is_sent_as_json() {
        let scene = Scene::parse(
            include_str!("../../../samples/scenes/two-lines.json"),
            Format::Json,
            "two-lines.json",
        )
        .expect("the sample");
        let unit = scene.units[0].clone();
        let mut state = TableState::message("test", None);
        state.scene = Some(Arc::new(scene.clone()));
        let desk = Desk::default();
        let seat = Seat::Umpire;
        let ahead = unit.footprint.leader() + rules::geometry::heading(unit.footprint.facing());
        let order = Order {
            unit: unit.id.clone(),
            leader: ahead,
            facing: unit.footprint.facing(),
        };
        desk.order(&seat, "Anne", order, &state).expect("taken");
        desk.point(&seat, "Anne", TablePoint::new(10.0, 10.0), &state)
            .expect("taken");
        let view = DeskView::of(&desk.board(), &scene);
        let json = serde_json::to_value(&view).expect("it serialises");
        assert_eq!(json["orders"][0]["by"], "Anne");
        assert_eq!(json["orders"][0]["unit"], unit.id.as_str());
        assert_eq!(json["pointers"][0]["at"][0], 10.0);
    }
}
