//! The `[readings]` table: where a digest offers a choice between readings of the book, which
//! one is in force (each defaults to the digest's recommendation).

use serde::{Deserialize, Serialize};

use super::Profile;

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

/// Whether a gun may pass over a not-clear nearest target for a clear one (§6.12 and A12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GunsPassNotClear {
    /// The book: guns pick "in exactly the same way as for infantry", so past a not-clear
    /// nearest target to the closest clear one, wherever it stands in range (the default).
    #[default]
    Book,
    /// The digest's stricter A12: only to a clear target within half the gun's range.
    WithinHalfRange,
    /// Never: a gun with a target within half range shoots the closest.
    Never,
}

impl GunsPassNotClear {
    /// Its name in a profile file.
    pub fn as_str(self) -> &'static str {
        match self {
            GunsPassNotClear::Book => "book",
            GunsPassNotClear::WithinHalfRange => "within-half-range",
            GunsPassNotClear::Never => "never",
        }
    }
}

/// Profiles written before the reading had three values said `true` (the book) or `false`
/// (never); they still load.
impl<'de> Deserialize<'de> for GunsPassNotClear {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Words;
        impl serde::de::Visitor<'_> for Words {
            type Value = GunsPassNotClear;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"book\", \"within-half-range\" or \"never\" (true and false also read as book and never)")
            }
            fn visit_bool<E: serde::de::Error>(self, passes: bool) -> Result<Self::Value, E> {
                Ok(if passes {
                    GunsPassNotClear::Book
                } else {
                    GunsPassNotClear::Never
                })
            }
            fn visit_str<E: serde::de::Error>(self, word: &str) -> Result<Self::Value, E> {
                [
                    GunsPassNotClear::Book,
                    GunsPassNotClear::WithinHalfRange,
                    GunsPassNotClear::Never,
                ]
                .into_iter()
                .find(|reading| reading.as_str() == word)
                .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(word), &self))
            }
        }
        deserializer.deserialize_any(Words)
    }
}

/// The readings in force where the digest offers a choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Readings {
    /// A27.
    #[serde(default)]
    pub support_zone: SupportZone,
    /// A25.
    #[serde(default)]
    pub traversing_fire: TraversingReading,
    /// §6.12 and A12.
    #[serde(default)]
    pub guns_pass_not_clear: GunsPassNotClear,
    /// A18 and charges.
    #[serde(default)]
    pub charges_near_enemy: ChargesNearEnemy,
}

impl Profile {
    /// The readings in force where the digest offers a choice.
    pub fn readings(&self) -> Readings {
        self.readings
    }
}
