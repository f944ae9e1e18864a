//! Figures a firing stand has lost, for rulesets whose stands lose figures one at a time and
//! fire worse for each they lose (Bugles, Bullets and Blades §2.9.2, L359-383; chosen by the
//! profile's `stand-figures` special).
//!
//! Decisions:
//! - All the figures of a front-rank stand fire (L351), but a stand rolls its dice whatever
//!   its figures (B-38: dice per stand, gun or machine gun): what its losses change is the score
//!   needed to hit, +1 for each 2 figures a foot or mounted stand has lost and for each crew
//!   figure a gun or machine gun has lost.
//! - The figures a stand has left are the scene's `figures`; a stand without them is full (6
//!   foot, 3 mounted, a gun's crew of 4, a machine gun's 3: the profile's numbers). A gun with
//!   extra gunners bought for it has a larger crew: a profile file raises `artillery` for it.

use crate::ruling::Figure;
use crate::scene::{Unit, UnitKind};
use crate::situation::Situation;

/// What a firing stand has lost, and what that adds to the score it needs to hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StandLosses {
    /// Its figures (a gun's crew) left.
    pub left: u32,
    /// A full stand's.
    pub full: u32,
    /// Added to the score needed to hit.
    pub penalty: u32,
    /// Figures (crew) lost for each point added; 0 when losses add nothing.
    pub per_point: u32,
}

/// What `unit` has lost, if the ruleset counts a stand's figures and the scene says how many
/// it has left.
pub fn stand_losses(situation: &Situation, unit: &Unit) -> Option<StandLosses> {
    let standard = situation.profile.stand_figures()?;
    let left = unit.figures?;
    let crew = situation.profile.unit_weapon(unit).and_then(|w| w.crew());
    let full = standard.full(unit.kind, crew);
    let lost = full.saturating_sub(left);
    Some(StandLosses {
        left,
        full,
        penalty: standard.score_penalty(unit.kind, lost),
        per_point: standard.per_point(unit.kind),
    })
}

impl StandLosses {
    /// The sentence a shooting ruling adds, e.g. "NNC 1st stand has 4 of its 6 figures left:
    /// +1 to the score needed (+1 for each 2 figures lost, L359-383)."
    pub fn note(&self, unit: &Unit) -> String {
        let figures = if unit.kind == UnitKind::Artillery {
            "crew"
        } else {
            "figures"
        };
        let each = match self.per_point {
            0 => "losses add nothing here".to_owned(),
            1 if unit.kind == UnitKind::Artillery => "+1 for each crew figure lost".to_owned(),
            1 => "+1 for each figure lost".to_owned(),
            n if unit.kind == UnitKind::Artillery => format!("+1 for each {n} crew figures lost"),
            n => format!("+1 for each {n} figures lost"),
        };
        let added = match self.penalty {
            0 => "nothing added to the score needed".to_owned(),
            n => format!("+{n} to the score needed"),
        };
        format!(
            " {} has {} of its {} {figures} left: {added} ({each}, L359-383).",
            unit.name, self.left, self.full
        )
    }

    /// The numbers of the note, for the ruling's figures.
    pub fn figures(&self) -> [Figure; 2] {
        [
            Figure::count("figures left", i64::from(self.left)),
            Figure::count("added to the score needed", i64::from(self.penalty)),
        ]
    }
}
