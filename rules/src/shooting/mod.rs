//! Shooting (digest §6): who a unit may shoot, who it must shoot, and why the others are out.
//!
//! - [`assess`] looks at one target: in the arc, in view, in range, through a wide enough gap,
//!   and whether it is a clear target.
//! - [`target_priority`] applies "shoot the closest" with the not-clear exception and the
//!   artillery half-range rule (A12).
//! - [`firing_faces`] says where a unit shoots from: its leader, or each face of a square or
//!   building from the face's midpoint (A3).
//! - [`look_over`] lets guns fire over heads: cannon from higher ground clear of the 6" dead
//!   ground, howitzers, mortars and rockets over friends (A40).
//! - [`traversing_fire`] asks whether a unit may shoot at a charger crossing its front (A25).
//! - [`arc_outline`] draws the real firing area: the arc clipped to the weapon's range,
//!   measured from the leader.
//! - [`beaten_zone`] is round shot's strip and every unit in it, for rulesets whose round shot
//!   strikes a strip (eRules).
//! - [`penetration_line`] is a gun's shot bouncing on through its target (BBB).
//! - [`ranks`] holds fire in rear ranks and makes a command group one target (BBB).
//! - `firing_figures` counts the front-rank figures firing at a target, by band (eRules).
//! - `stand_figures` adds a firing stand's lost figures to the score it needs (BBB).

mod assess;
mod beaten_zone;
mod enfilade;
mod firing_figures;
mod overhead;
mod penetration;
mod priority;
pub mod ranks;
mod stand_figures;
mod traversing;

/// The range rule of a ruleset measuring "the shortest distance between the firing unit and
/// the enemy unit" (BPT Commander §1.9), cited in its own words.
pub const RANGE_BETWEEN_UNITS: crate::ruling::RuleRef =
    crate::ruling::RuleRef::book("Firing: range, unit to unit (§1.9)");

pub use crate::fire_arc::{
    FiringFace, arc_outline, arc_outline_from, fire_arc, firing_faces, one_front, reach_outline,
    side_word,
};
pub use assess::{Assessment, Candidate, Ineligible, NotClear, RangeBand, assess, screen};
pub use beaten_zone::{InZone, beaten_zone};
pub use enfilade::in_enfilade;
pub use overhead::{FiredOver, OverheadSight, Refused, look_over};
pub use penetration::{PENETRATION, penetration_line};
pub use priority::{ShootingReport, target_priority};
pub use traversing::{TraversingFire, traversing_fire, traversing_fire_in};
