//! What a profile says of one unit: the questions the engine asks the profile about a unit on
//! the table. They live with the scene, which knows what a unit is; the profile answers in
//! the game's words (a kind, a formation, a weapon's name) and never sees a unit.

use super::Unit;
use crate::geometry::{ConvexRegion, TablePoint, Tape, clip};
use crate::profile::{Profile, RangeFrom, WeaponRef};
use crate::quarter::Quarter;
use crate::units::Inches;
use crate::vocabulary::{Face, UnitKind};

impl Profile {
    /// Where `unit`'s sight lines leave, and its ranges too unless they are measured from its
    /// front edge: its leader, or (Bugles, Bullets and Blades) the
    /// centre of its stand — a gun's muzzle, at the front of its base, for artillery.
    pub fn range_origin(&self, unit: &Unit) -> TablePoint {
        match self.specials().range_from {
            RangeFrom::Leader | RangeFrom::FrontEdge => unit.footprint.leader(),
            RangeFrom::Centre if unit.kind == UnitKind::Artillery => unit.footprint.leader(),
            RangeFrom::Centre => unit.footprint.frame().center(),
        }
    }

    /// Where `unit`'s ranges are measured from, in words: "leader", "front edge" or "stand
    /// centre".
    pub fn range_origin_words(&self, unit: &Unit) -> &'static str {
        match self.specials().range_from {
            RangeFrom::FrontEdge => "front edge",
            RangeFrom::Centre if unit.kind != UnitKind::Artillery => "stand centre",
            RangeFrom::Leader | RangeFrom::Centre => "leader",
        }
    }

    /// The tape a charge by `unit` at `target` is measured along: from its leader to the
    /// target's nearest point, or, where the ruleset measures the shortest distance between
    /// the units (BPT Commander), from the nearest point of its front edge — the distance its
    /// initiative goes by.
    pub fn charge_tape(&self, unit: &Unit, target: &Unit) -> Tape {
        let leader = unit.footprint.leader();
        let from_leader = || Tape::between(leader, target.footprint.closest_point(&leader).0);
        if !self.ranges_from_front_edge() {
            return from_leader();
        }
        let front = Face::of(unit.footprint.frame(), Quarter::Front).segment();
        clip(&ConvexRegion::Everywhere, target.footprint.stands())
            .closest_to_edge(&front)
            .unwrap_or_else(from_leader)
    }

    /// One move of a unit, its weapon included (horse artillery moves faster limbered).
    pub fn unit_move(&self, unit: &Unit) -> Inches {
        self.move_allowance(unit.kind, unit.formation, self.unit_weapon(unit))
    }

    /// How far a unit's charge reaches: its kind's charge distance where the ruleset has one,
    /// otherwise one move.
    pub fn unit_charge(&self, unit: &Unit) -> Inches {
        self.charge_distance(unit.kind)
            .unwrap_or_else(|| self.unit_move(unit))
    }

    /// A unit's weapon.
    pub fn unit_weapon(&self, unit: &Unit) -> Option<WeaponRef<'_>> {
        unit.weapon.as_deref().and_then(|w| self.weapon(w))
    }
}
