//! What a profile says of one unit: the questions the engine asks the profile about a unit on
//! the table. They live with the scene, which knows what a unit is; the profile answers in
//! the game's words (a kind, a formation, a weapon's name) and never sees a unit.

use super::Unit;
use crate::geometry::TablePoint;
use crate::profile::{Profile, RangeFrom, WeaponRef};
use crate::units::Inches;
use crate::vocabulary::UnitKind;

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
