//! Command (digest §5): the 12" rule and initiative, the command distance penalty, and
//! brigade cohesion.

use serde::Serialize;

use crate::units::Inches;

mod cohesion;
mod distance;
mod proximity;
mod radius;

pub use radius::COMMAND_RADIUS;

pub(crate) use cohesion::widest_doubt;
pub use cohesion::{CutOff, brigades, cohesion_rulings, cut_off};
pub use distance::{command_distance, commander_of};
pub use proximity::{
    EnemyWithin, SIGHT_ARC, SQUARES, enemy_within, held_by_cavalry, nearest_close_order,
    nearest_seen_ahead,
};

/// A unit's distance from its commander and the penalty it costs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CommandDistance {
    /// The commander.
    pub commander: String,
    /// His head to the closest point of the unit.
    pub distance: Inches,
    /// The penalty to the order (0, −1, −2 …).
    pub penalty: i64,
    /// Within tolerance of a step.
    pub borderline: bool,
}
