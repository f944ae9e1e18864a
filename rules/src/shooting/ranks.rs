//! Stands in ranks, for rulesets whose stands fire on their own but are shot at as their
//! command group (Bugles, Bullets and Blades; chosen by the profile's `command-group-targets`
//! special).
//!
//! Decisions:
//! - A stand is in a rear rank when a friendly stand of any group stands directly in front of
//!   it: touching its front edge (within the contact distance and tolerance) and covering at
//!   least half its frontage (L351, B-25). Rear-rank stands do not fire.
//! - A stand of a command group — a stand touching another stand of its own group (same side,
//!   same `brigade`) — is not a target on its own: the whole group is nominated, and its hits
//!   are shared among its stands that the firer can see and reach, nearest first (L355, B-27).
//!   A lone stand is nominated by itself.
//! - A target stand is "more than one stand deep" when a stand of its own group touches it
//!   directly in front or behind, by the target's own facing, covering half its frontage
//!   (L379, B-28): −2 to the score needed.

use crate::geometry::Along;
use crate::ruling::RuleRef;
use crate::situation::Situation;
use crate::units::Inches;

/// Only front-rank stands fire.
pub const FRONT_RANK: RuleRef = RuleRef::read_as("Figures eligible to fire (L351)", "B-25");

/// How close two stands must be to touch.
fn slack(situation: &Situation) -> Inches {
    situation.profile.distances().contact + situation.profile.tolerance().distance
}

/// The friendly stand directly in front of `stand`, which puts it in a rear rank (B-25).
pub fn stand_in_front(situation: &Situation, stand: usize) -> Option<usize> {
    let frame = situation.scene.units[stand].footprint.frame();
    let slack = slack(situation);
    situation
        .friends_of(stand)
        .find(|f| frame.touches_directly(f.unit.footprint.frame(), Along::Ahead, slack))
        .map(|f| f.index)
}

/// Whether two units are stands of one command group.
fn same_group(situation: &Situation, a: usize, b: usize) -> bool {
    let (first, second) = (&situation.units[a], &situation.units[b]);
    first.side == second.side
        && first.unit.brigade.is_some()
        && first.unit.brigade == second.unit.brigade
}

/// The stands of `stand`'s command group, in scene order, if it is not a lone stand: it touches
/// another stand of its group (B-27).
pub fn command_group(situation: &Situation, stand: usize) -> Option<Vec<usize>> {
    let slack = slack(situation);
    let group: Vec<usize> = situation
        .units
        .iter()
        .filter(|other| other.index == stand || same_group(situation, stand, other.index))
        .map(|other| other.index)
        .collect();
    let touches = group
        .iter()
        .any(|&other| other != stand && situation.gap(stand, other) <= slack);
    touches.then_some(group)
}

/// A stand of `stand`'s own group directly in front of or behind it, which makes it more than
/// one stand deep (B-28).
pub fn stand_in_depth(situation: &Situation, stand: usize) -> Option<usize> {
    let frame = situation.scene.units[stand].footprint.frame();
    let slack = slack(situation);
    situation
        .friends_of(stand)
        .filter(|f| same_group(situation, stand, f.index))
        .find(|f| {
            let other = f.unit.footprint.frame();
            frame.touches_directly(other, Along::Ahead, slack)
                || frame.touches_directly(other, Along::Behind, slack)
        })
        .map(|f| f.index)
}
