//! The `[readings]` table: where a digest offers a choice between readings of the book, which
//! one is in force (each defaults to the digest's recommendation).

use serde::{Deserialize, Serialize};

use super::Profile;
use super::specials::yes;

/// How a supporter is judged to be in a zone (digest A27).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SupportZone {
    /// The supporter's leader point is in the zone (the digest's recommendation).
    #[default]
    Leader,
    /// At least half of the supporter's footprint is in the zone.
    HalfFootprint,
}

/// How much of a unit's front a charger crossed (digest A25).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TraversingReading {
    /// The charger's leader path projected onto the front edge (the digest's recommendation).
    #[default]
    LeaderPath,
    /// The union of the charger's footprint projections along that path (more generous).
    FootprintUnion,
}

/// Whether the 12" rule's restriction (keep to the front or rear quarter, A18) binds a move
/// that ends in contact — a charge. The book does not say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChargesNearEnemy {
    /// It does: a charge leaving both quarters breaks it.
    Bound,
    /// Players decide: such a charge is reported as borderline (the default).
    #[default]
    Borderline,
    /// It does not: a charge may leave both quarters.
    Free,
}

/// The readings in force where the digest offers a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Readings {
    /// A27.
    #[serde(default)]
    pub support_zone: SupportZone,
    /// A25.
    #[serde(default)]
    pub traversing_fire: TraversingReading,
    /// Guns may pass over a not-clear nearest target for a clear one, "in exactly the same way
    /// as for infantry" (§6.12; true, the book), or must shoot the nearest (false).
    #[serde(default = "yes")]
    pub guns_pass_not_clear: bool,
    /// A18 and charges.
    #[serde(default)]
    pub charges_near_enemy: ChargesNearEnemy,
}

impl Default for Readings {
    fn default() -> Self {
        Readings {
            support_zone: SupportZone::default(),
            traversing_fire: TraversingReading::default(),
            guns_pass_not_clear: true,
            charges_near_enemy: ChargesNearEnemy::default(),
        }
    }
}

impl Profile {
    /// The readings in force where the digest offers a choice.
    pub fn readings(&self) -> Readings {
        self.readings
    }
}
