//! Front-rank figures firing, for rulesets whose fire is counted in figures, not dice per unit
//! (eRules §31b: "the number of figures able to fire", one 2D6 roll per target and range band;
//! chosen by the profile's `front-rank-figures` special).
//!
//! Decisions:
//! - Only the front rank fires (E-24): the figures counted are those that fit along the unit's
//!   front edge at the standard frontage of a figure (density normalisation, §38): a unit based
//!   more densely counts no more, one based less densely would count its own figures, which the
//!   camera cannot see — so the count is the most the frontage holds.
//! - A unit that has lost figures says how many it has left (the scene's `figures`, §38's
//!   tally): its front rank fires no more than that. The digest does not say which figures a
//!   unit loses; the reading adopted is that its rear ranks close up first, so a unit of two
//!   ranks still fills its frontage until it has fewer figures than the frontage holds. The
//!   figures left then stand spread along the whole front, as a less densely based unit's do
//!   (§38), or closed on the centre a standard frontage apart, as the profile's
//!   `figures-left` says.
//! - Each figure fires from its own place on the front edge into its own 30° cone (§31b.1): it
//!   counts against a target when part of the target lies in that cone, in the band of the
//!   nearest such part (short or long range), and not at all beyond the weapon's range.
//! - Guns count as figures only for canister (§31b.2): each gun model is 10 figures, at close
//!   range within the canister reach and at long canister beyond it (E-07). A battery's
//!   `figures` are its crew, whose losses do not change what its guns count.
//! - Whether the target is in view is judged for the unit as a whole, as for every shot.

use super::Assessment;
use crate::geometry::{ConvexRegion, Wedge, clip};
use crate::profile::{FiguresLeft, FrontRankFigures};
use crate::scene::{Formation, Unit, UnitKind};
use crate::situation::Situation;
use crate::units::Inches;

/// The figures of one unit that fire at one target, by range band.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FiringFigures {
    /// In the close band (muskets' short range, guns' canister range).
    pub close: u32,
    /// In the long band (muskets' long range, guns' long canister).
    pub long: u32,
    /// In the front rank but with no part of the target in their cone or range.
    pub idle: u32,
    /// Of those firing, how many are within tolerance of the close band's edge: which band
    /// they fire in is for the players to decide.
    pub at_band_edge: u32,
    /// Figures a model stands for (10 for a gun, 1 for a musket figure).
    pub each: u32,
    /// How many figures the unit's frontage holds, and how many of them its front rank has,
    /// when it has fewer figures left than that (`None`: its frontage is full).
    pub short: Option<(u32, u32)>,
}

/// The bands a unit's figures fire in: close up to the first limit, long up to the second.
fn bands(situation: &Situation, unit: &Unit) -> Option<(Inches, Inches)> {
    let weapon = situation.profile.unit_weapon(unit)?;
    if unit.kind == UnitKind::Artillery {
        let canister = weapon.canister()?;
        return Some((canister, weapon.canister_long().unwrap_or(canister)));
    }
    Some((situation.profile.distances().close_range, weapon.range()?))
}

/// How wide one figure (or gun model) of the unit is, and how many figures it counts for.
fn figure_of(standard: &FrontRankFigures, kind: UnitKind, formation: Formation) -> (Inches, u32) {
    match (kind, formation) {
        (UnitKind::Artillery, _) => (standard.gun, standard.figures_per_gun),
        (_, Formation::Skirmish) => (standard.skirmisher, 1),
        (UnitKind::Cavalry, _) => (standard.cavalry, 1),
        _ => (standard.close_order, 1),
    }
}

/// The front-rank figures of `unit` that fire at `target`, if the ruleset counts figures and
/// the target is within a band.
pub fn firing_figures(
    situation: &Situation,
    unit: &Unit,
    target: &Assessment,
) -> Option<FiringFigures> {
    let standard = situation.profile.front_rank_figures()?;
    let (close, long) = bands(situation, unit)?;
    let (width, each) = figure_of(&standard, unit.kind, unit.formation);
    let frame = unit.footprint.frame();
    // A hair of slack so that a frontage of exactly n figures holds n.
    let holds = (frame.width().0 / width.0 + 1e-6).floor() as u32;
    let left = unit
        .figures
        .filter(|&left| unit.kind != UnitKind::Artillery && left < holds);
    let count = left.unwrap_or(holds);
    // How far to the right of the front's centre each figure stands: spread evenly along the
    // front, or closed on its centre a standard frontage apart.
    let closed = left.is_some() && standard.figures_left == FiguresLeft::Centre;
    let place = |slot: u32| {
        let slot = f64::from(slot) + 0.5;
        if closed {
            (slot - f64::from(count) / 2.0) * width.0
        } else {
            (slot / f64::from(count) - 0.5) * frame.width().0
        }
    };
    let bases = situation.scene.units[target.index].footprint.stands();
    // Each figure's cone is the small-arms arc's splay where the ruleset sets one.
    let half_angle = situation
        .profile
        .specials()
        .front_arc_splay
        .unwrap_or_else(|| situation.profile.cone_half_angle());
    let tolerance = situation.profile.tolerance().distance;
    let mut figures = FiringFigures {
        each,
        short: left.map(|left| (holds, left)),
        ..FiringFigures::default()
    };
    for slot in 0..count {
        let at = frame.front_center() + frame.right() * place(slot);
        let cone = ConvexRegion::Wedge(Wedge::cone(at, frame.forward(), half_angle));
        let Some((_, range)) = clip(&cone, bases).closest_to(&at) else {
            figures.idle += 1;
            continue;
        };
        match range {
            _ if range <= close => figures.close += 1,
            _ if range <= long + tolerance => figures.long += 1,
            _ => {
                figures.idle += 1;
                continue;
            }
        }
        if (range - close).abs() <= tolerance {
            figures.at_band_edge += 1;
        }
    }
    (figures.close + figures.long > 0).then_some(figures)
}

/// What fires, for the ruling: the guns' canister figures, or the front rank — as many figures
/// as its frontage holds, or the fewer the unit has left.
pub fn what_fires(situation: &Situation, unit: &Unit, firing: &FiringFigures) -> String {
    if unit.kind == UnitKind::Artillery {
        let crew = if unit.figures.is_some() {
            "; its crew's losses do not change that"
        } else {
            ""
        };
        return format!(
            "its guns count {} figures each for canister (§31b.2){crew}",
            firing.each
        );
    }
    match (unit.figures, firing.short) {
        (Some(_), Some((holds, left))) => {
            let standing = match situation.profile.front_rank_figures() {
                Some(f) if f.figures_left == FiguresLeft::Centre => {
                    "closed on the centre of its front"
                }
                _ => "spread along its front",
            };
            format!(
                "its front rank fires the {left} figures it has left, fewer than the {holds} its frontage holds, {standing} (E-24, §38)"
            )
        }
        (Some(left), None) => format!(
            "its front rank fires, as many figures as its frontage holds (E-24, §38): it has {left} figures left, enough to fill it"
        ),
        (None, _) => "its front rank fires, as many figures as its frontage holds (E-24, §38; fewer if it has lost figures)".to_owned(),
    }
}
