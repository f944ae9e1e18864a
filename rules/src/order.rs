//! A move ordered before it is made: a player (often one playing from afar) says where one of
//! his units should go and which way it should face; the order is checked as a move would be
//! (`check_moves` against the table as it stands), and once the unit has been moved, the
//! order is compared with where it was put.
//!
//! Decisions:
//! - An order moves the unit as a whole: every stand turns with the leader about the leader and
//!   goes where it goes. A change of formation is not something a ghost dragged on a plan can
//!   say; players say it in words.
//! - "Placed as ordered" allows what a hand and a camera both get wrong:
//!   [`AS_ORDERED`] and [`TURNED_AS_ORDERED`]. Past those the words say the larger miss: short
//!   of or beyond the order along the way it went, or to its left or right.

use serde::Serialize;

use crate::geometry::{OrientedRect, TablePoint, TableVector};
use crate::movement::{MoveCheck, check_moves};
use crate::profile::Profile;
use crate::scene::{Footprint, Scene, Unit};
use crate::units::{Degrees, Inches};

/// How far a unit's leader may be put from where it was ordered and still be "as ordered".
pub const AS_ORDERED: Inches = Inches(0.25);
/// How far it may face from the ordered facing and still be "as ordered".
pub const TURNED_AS_ORDERED: Degrees = Degrees(5.0);

/// Where a unit is ordered to: its leader (the middle of its front edge) and its facing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Order {
    /// The unit's id.
    pub unit: String,
    /// Where its leader should stand.
    pub leader: TablePoint,
    /// Which way it should face (counter-clockwise from the table's +x).
    pub facing: Degrees,
}

/// Why an order cannot be checked.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OrderError {
    /// The scene has no such unit.
    #[error("there is no unit {0:?} on the table")]
    NoSuchUnit(String),
    /// The order puts a stand off the table.
    #[error("the order puts {0} off the table")]
    OffTheTable(String),
    /// A coordinate or the facing is not a finite number.
    #[error("the order's place or facing is not a number")]
    NotANumber,
}

/// `unit` moved as a whole so that its leader stands at `leader`, facing `facing`.
pub fn moved_to(unit: &Unit, leader: TablePoint, facing: Degrees) -> Unit {
    let from = unit.footprint.leader();
    let turn = unit.footprint.facing().turn_to(facing);
    let rotation = nalgebra::Rotation2::new(turn.to_radians());
    let place = |p: TablePoint| TablePoint::from(leader.coords + rotation * (p - from));
    let carry = |rect: &OrientedRect| {
        OrientedRect::new(
            place(rect.front_center()),
            (rect.facing() + turn).normalized(),
            rect.width(),
            rect.depth(),
        )
    };
    let footprint = if unit.footprint.is_from_stands() {
        let stands = unit.footprint.stands().iter().map(carry).collect();
        Footprint::from_stands(stands, Some(facing.normalized()))
    } else {
        Footprint::block(carry(unit.footprint.frame()))
    };
    Unit {
        footprint,
        ..unit.clone()
    }
}

/// The table as it would stand with the order carried out.
pub fn ordered_scene(scene: &Scene, order: &Order) -> Result<Scene, OrderError> {
    let finite = order.leader.x.is_finite() && order.leader.y.is_finite();
    if !finite || !order.facing.0.is_finite() {
        return Err(OrderError::NotANumber);
    }
    let index = (scene.units.iter())
        .position(|u| u.id == order.unit)
        .ok_or_else(|| OrderError::NoSuchUnit(order.unit.clone()))?;
    let unit = moved_to(&scene.units[index], order.leader, order.facing);
    let mut corners = unit.footprint.stands().iter().flat_map(|s| s.corners());
    if !corners.all(|p| scene.table.contains(&p)) {
        return Err(OrderError::OffTheTable(unit.name.clone()));
    }
    let mut after = scene.clone();
    after.units[index] = unit;
    Ok(after)
}

/// The order checked as `vedette check-move` checks a move: its cost through terrain against
/// the unit's allowance, the moves it needs, the 12" rule and whether it ends in contact.
pub fn check_order(
    scene: &Scene,
    order: &Order,
    profile: &Profile,
) -> Result<MoveCheck, OrderError> {
    let after = ordered_scene(scene, order)?;
    let (checks, _) = check_moves(scene, &after, profile);
    checks
        .into_iter()
        .find(|c| c.unit == order.unit)
        .ok_or_else(|| OrderError::NoSuchUnit(order.unit.clone()))
}

/// How a unit was placed against its order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrderMatch {
    /// How far its leader stands from the ordered place.
    pub off: Inches,
    /// How far it faces from the ordered facing.
    pub turned: Degrees,
    /// Along the way it was ordered (positive: beyond the order; negative: short of it).
    pub along: Inches,
    /// Across that way (positive: to its left, looking the way it went).
    pub across: Inches,
    /// Within [`AS_ORDERED`] and [`TURNED_AS_ORDERED`].
    pub as_ordered: bool,
    /// In words: "placed as ordered (0.1" off, 2° turned)", "placed 1.2" short of the order".
    pub words: String,
}

/// How the unit, ordered from `start` (its leader when the order was given), was placed:
/// its leader at `placed`, facing `facing`.
pub fn match_order(
    order: &Order,
    start: TablePoint,
    placed: TablePoint,
    facing: Degrees,
    profile: &Profile,
) -> OrderMatch {
    let miss: TableVector = placed - order.leader;
    let turned = Degrees(order.facing.turn_to(facing).0.abs());
    let way = order.leader - start;
    // A unit ordered only to turn has no way: short and beyond are along its facing.
    let ahead = if way.norm() > 0.5 {
        way.normalize()
    } else {
        let radians = order.facing.to_radians();
        TableVector::new(radians.cos(), radians.sin())
    };
    let (along, across) = (miss.dot(&ahead), ahead.perp(&miss));
    let off = Inches(miss.norm());
    let as_ordered = off <= AS_ORDERED && turned <= TURNED_AS_ORDERED;
    let length = |l: f64| profile.length(Inches(l.abs())).to_string();
    let words = if as_ordered {
        format!(
            "placed as ordered ({} off, {:.0}° turned)",
            length(off.0),
            turned.0
        )
    } else {
        let place = if off <= AS_ORDERED {
            "placed where ordered".to_owned()
        } else if along.abs() >= across.abs() {
            let side = if along < 0.0 { "short of" } else { "beyond" };
            format!("placed {} {side} the order", length(along))
        } else {
            let side = if across > 0.0 { "left" } else { "right" };
            format!("placed {} to the {side} of the order", length(across))
        };
        if turned > TURNED_AS_ORDERED {
            format!("{place}, facing {:.0}° off it", turned.0)
        } else {
            place
        }
    };
    OrderMatch {
        off,
        turned,
        along: Inches(along),
        across: Inches(across),
        as_ordered,
        words,
    }
}
