//! The remote players' desk: pointers put on the table and moves ordered, from pages far from
//! it, held beside the live table — shown by every face (the app, the pages), checked against
//! the table, and matched with the move the host then makes.
//!
//! Decisions:
//! - The desk is beside the pipeline, not in it: it reads the states the pipeline publishes
//!   ([`Desk::follow`]), so the camera's work never waits for a remote player, and what a
//!   remote player sends cannot reach the pipeline's thread.
//! - An order is checked once, when it is given, against the table as it stands then (as
//!   `vedette check-move` checks a move); the words stay with it. A unit with an open order
//!   that the camera sees moved and settle is compared with it at once ([`rules::order`]), and
//!   the record keeps both, as order marks beside the move.
//! - One open order a unit: a new one replaces the old.
//! - Every input is bounded: names and counts are cut, coordinates must be on the table, each
//!   player is held to a rate ([`allowance`]); a refusal says why in words for the page.

pub mod allowance;
pub mod seal;
pub mod seats;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use record::{Mark, MarkKind};
use rules::geometry::TablePoint;
use rules::order::{Order, OrderError, OrderMatch, check_order, match_order};
use rules::ruling::Verdict;
use rules::scene::Unit;
use rules::units::Degrees;

use crate::pipeline::{MoveRecord, TableState};
use allowance::Allowances;
pub use seats::{Seat, Seats};

/// How long a pointer stays on the table.
pub const POINTER_LIFE: Duration = Duration::from_secs(5);
/// How long a placed order is still shown, with how well it was placed.
pub const PLACED_SHOWN: Duration = Duration::from_secs(60);
/// The most open orders kept: a page cannot fill the host's memory.
pub const MOST_ORDERS: usize = 200;
/// The most pointers on the table at once.
pub const MOST_POINTERS: usize = 50;
/// The longest player's name kept.
pub const LONGEST_NAME: usize = 40;

/// A pointer a player put on the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Pointer {
    /// Its number at this table.
    pub id: u64,
    /// The player's name.
    pub by: String,
    /// The player's seat.
    pub seat: Seat,
    /// Where, table inches.
    pub at: TablePoint,
    /// When.
    pub given: Instant,
}

/// A move ordered by a player.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingOrder {
    /// Its number at this table.
    pub id: u64,
    /// The player's name.
    pub by: String,
    /// The player's seat.
    pub seat: Seat,
    /// Where the unit is to go.
    pub order: Order,
    /// The unit's name.
    pub name: String,
    /// The unit's side.
    pub side: String,
    /// The unit where it is to stand: its stands' corners.
    pub ghost: Vec<[TablePoint; 4]>,
    /// Its leader when the order was given.
    pub from: TablePoint,
    /// The check's worst verdict.
    pub verdict: Verdict,
    /// The check's sentences, each with its verdict.
    pub checks: Vec<(Verdict, String)>,
    /// When it was given.
    pub given: Instant,
    /// How the unit was placed against it, once it was moved.
    pub placed: Option<(OrderMatch, Instant)>,
}

/// Why the desk refuses what a page sent: said to that page in these words.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum Refusal {
    /// A side's player ordered another side's unit.
    #[error("{unit} is not one of your units (it fights for {side}): order your own")]
    NotYours {
        /// The unit's name.
        unit: String,
        /// Its side.
        side: String,
    },
    /// Too many in too short a time.
    #[error("too many {0} at once: wait a moment")]
    TooFast(&'static str),
    /// No table yet (no calibration, no roster).
    #[error("the table is not seen yet: wait until it is")]
    NoTable,
    /// A place off the table.
    #[error("that point is off the table")]
    OffTheTable,
    /// The order cannot be checked.
    #[error("{0}")]
    Order(#[from] OrderError),
    /// No open order of that number.
    #[error("there is no open order {0}")]
    NoSuchOrder(u64),
}

/// The desk: shared by the faces that take players' messages and those that draw them.
#[derive(Clone, Debug, Default)]
pub struct Desk {
    book: Arc<Mutex<Book>>,
}

#[derive(Debug, Default)]
struct Book {
    orders: Vec<StandingOrder>,
    pointers: VecDeque<Pointer>,
    next_id: u64,
    allowances: Allowances<(Seat, &'static str)>,
    /// The moves already compared with the orders (the last state's list).
    compared: Vec<Arc<MoveRecord>>,
    /// Bumped at every change, so the faces know when to draw again.
    version: u64,
}

/// What the desk holds now, for drawing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    /// Pointers still on the table, with how long ago each was put there.
    pub pointers: Vec<(Pointer, Duration)>,
    /// Open orders, and those placed in the last [`PLACED_SHOWN`].
    pub orders: Vec<StandingOrder>,
    /// Counts every change.
    pub version: u64,
}

impl Desk {
    fn book(&self) -> MutexGuard<'_, Book> {
        // A face that panicked while holding the book left it whole: every change is one push
        // or one field set.
        self.book
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Put `seat`'s pointer at `at` on the table of `state`.
    pub fn point(
        &self,
        seat: &Seat,
        by: &str,
        at: TablePoint,
        state: &TableState,
    ) -> Result<(), Refusal> {
        let scene = state.scene.as_ref().ok_or(Refusal::NoTable)?;
        if !scene.table.contains(&at) {
            return Err(Refusal::OffTheTable);
        }
        let now = Instant::now();
        let mut book = self.book();
        book.allow(seat, "pointers", 4.0, 8.0, now)?;
        book.next_id += 1;
        let id = book.next_id;
        book.pointers.push_back(Pointer {
            id,
            by: name(by),
            seat: seat.clone(),
            at,
            given: now,
        });
        while book.pointers.len() > MOST_POINTERS {
            book.pointers.pop_front();
        }
        book.version += 1;
        Ok(())
    }

    /// Take `seat`'s order, checked against the table of `state`; its number.
    pub fn order(
        &self,
        seat: &Seat,
        by: &str,
        order: Order,
        state: &TableState,
    ) -> Result<u64, Refusal> {
        let scene = state.scene.as_ref().ok_or(Refusal::NoTable)?;
        let unit = scene
            .unit(&order.unit)
            .ok_or_else(|| OrderError::NoSuchUnit(order.unit.clone()))?;
        if !seat.may_order(&unit.side) {
            return Err(Refusal::NotYours {
                unit: unit.name.clone(),
                side: unit.side.clone(),
            });
        }
        let now = Instant::now();
        self.book().allow(seat, "orders", 2.0, 4.0, now)?;
        let check = check_order(scene, &order, &scene.profile())?;
        let ghost = rules::order::moved_to(unit, order.leader, order.facing);
        let checks: Vec<(Verdict, String)> = (check.rulings.iter())
            .map(|r| (r.verdict(), r.explanation.clone()))
            .collect();
        let verdict = checks.iter().map(|(v, _)| *v).max().unwrap_or(Verdict::Yes);
        let mut book = self.book();
        book.next_id += 1;
        let standing = StandingOrder {
            id: book.next_id,
            by: name(by),
            seat: seat.clone(),
            name: unit.name.clone(),
            side: unit.side.clone(),
            ghost: corners(&ghost),
            from: unit.footprint.leader(),
            verdict,
            checks,
            given: now,
            placed: None,
            order,
        };
        tracing::info!(unit = %standing.order.unit, by = %standing.by, "ordered");
        if let Some(recorder) = &state.recorder {
            recorder.mark(order_mark(
                recorder.now(),
                &standing,
                &ordered_words(&standing),
            ));
        }
        let id = standing.id;
        book.orders
            .retain(|o| o.placed.is_some() || o.order.unit != standing.order.unit);
        book.orders.push(standing);
        if book.orders.len() > MOST_ORDERS {
            book.orders.remove(0);
        }
        book.version += 1;
        Ok(id)
    }

    /// Withdraw open order `id`: its player's, or any for the umpire.
    pub fn withdraw(&self, seat: &Seat, id: u64) -> Result<(), Refusal> {
        let mut book = self.book();
        let index = (book.orders.iter())
            .position(|o| o.id == id && o.placed.is_none() && seat.may_order(&o.side))
            .ok_or(Refusal::NoSuchOrder(id))?;
        book.orders.remove(index);
        book.version += 1;
        Ok(())
    }

    /// Follow the table: compare the moves made since the last state with the open orders,
    /// and forget pointers and placed orders past their time.
    pub fn follow(&self, state: &TableState) {
        let now = Instant::now();
        let mut book = self.book();
        let fresh = book.new_moves(&state.moves);
        for made in fresh {
            book.place(&made, state, now);
        }
        book.compared = state.moves.clone();
        let before = (book.pointers.len(), book.orders.len());
        book.pointers
            .retain(|p| now.duration_since(p.given) < POINTER_LIFE);
        book.orders.retain(|o| match o.placed {
            Some((_, at)) => now.duration_since(at) < PLACED_SHOWN,
            None => true,
        });
        if before != (book.pointers.len(), book.orders.len()) {
            book.version += 1;
        }
    }

    /// What to draw now.
    pub fn board(&self) -> Board {
        let now = Instant::now();
        let book = self.book();
        Board {
            pointers: (book.pointers.iter())
                .map(|p| (p.clone(), now.duration_since(p.given)))
                .filter(|(_, age)| *age < POINTER_LIFE)
                .collect(),
            orders: book.orders.clone(),
            version: book.version,
        }
    }
}

impl Book {
    /// Take one of `seat`'s goes at `what`: each seat is held to its own rate, whatever name
    /// its pages give (a name is free text; a seat is proven).
    fn allow(
        &mut self,
        seat: &Seat,
        what: &'static str,
        per_second: f64,
        burst: f64,
        now: Instant,
    ) -> Result<(), Refusal> {
        if (self.allowances).take((seat.clone(), what), per_second, burst, now) {
            Ok(())
        } else {
            Err(Refusal::TooFast(what))
        }
    }

    /// The moves of `moves` not compared yet: those the last state did not list (a list of
    /// the latest few, so a move is new until it is in one).
    fn new_moves(&self, moves: &[Arc<MoveRecord>]) -> Vec<Arc<MoveRecord>> {
        (moves.iter())
            .filter(|made| !self.compared.iter().any(|old| Arc::ptr_eq(old, made)))
            .cloned()
            .collect()
    }

    /// Compare `made` with its unit's open order, if it has one.
    fn place(&mut self, made: &MoveRecord, state: &TableState, now: Instant) {
        let unit = &made.event.unit;
        let Some(standing) = (self.orders.iter_mut())
            .rev()
            .find(|o| o.placed.is_none() && &o.order.unit == unit)
        else {
            return;
        };
        let Some(scene) = &state.scene else {
            return;
        };
        let to = &made.event.to;
        let matched = match_order(
            &standing.order,
            standing.from,
            to.leader,
            to.facing,
            &scene.profile(),
        );
        tracing::info!(%unit, words = %matched.words, "placed against its order");
        if let Some(recorder) = &state.recorder {
            let words = format!("{} {}", standing.name, matched.words);
            recorder.mark(order_mark(recorder.now(), standing, &words));
        }
        standing.placed = Some((matched, now));
        self.version += 1;
    }
}

/// A player's name as the desk keeps it: trimmed, cut, never empty.
fn name(by: &str) -> String {
    let cut: String = (by.trim().chars())
        .filter(|c| !c.is_control())
        .take(LONGEST_NAME)
        .collect();
    if cut.is_empty() {
        "a player".into()
    } else {
        cut
    }
}

fn corners(unit: &Unit) -> Vec<[TablePoint; 4]> {
    unit.footprint
        .stands()
        .iter()
        .map(|s| s.corners())
        .collect()
}

/// "Order from Anne (the british seat): 45th Foot to (20.0, 16.0) facing 90° — within its
/// allowance". The name is what the page says; the seat is what its link proves.
fn ordered_words(standing: &StandingOrder) -> String {
    let worst = (standing.checks.iter())
        .max_by_key(|(v, _)| *v)
        .filter(|(v, _)| *v != Verdict::Yes)
        .map(|(_, words)| words.as_str())
        .unwrap_or(crate::pipeline::WITHIN_ALLOWANCE);
    let at = standing.order.leader;
    let Degrees(facing) = standing.order.facing.normalized();
    format!(
        "Order from {} ({}): {} to ({:.1}, {:.1}) facing {facing:.0}° — {worst}",
        standing.by,
        standing.seat.words(),
        standing.name,
        at.x,
        at.y
    )
}

fn order_mark(at: record::GameTime, standing: &StandingOrder, label: &str) -> Mark {
    Mark {
        at,
        kind: MarkKind::Order,
        label: label.to_owned(),
        units: vec![standing.order.unit.clone()],
        case: None,
    }
}

#[cfg(test)]
mod tests;
