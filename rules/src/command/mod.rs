//! Command (digest §5): the 12" rule and initiative, the command distance penalty, and
//! brigade cohesion.

mod cohesion;
mod distance;
mod proximity;
mod radius;

pub use radius::COMMAND_RADIUS;

pub(crate) use cohesion::widest_doubt;
pub use cohesion::{CutOff, brigades, cohesion_rulings, cut_off};
pub use distance::{CommandDistance, command_distance, commander_of};
pub use proximity::{
    EnemyWithin, SIGHT_ARC, SQUARES, enemy_within, held_by_cavalry, nearest_close_order,
    nearest_seen_ahead,
};
