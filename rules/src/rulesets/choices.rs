//! The choices the engine makes that a ruleset's book may make differently, and whose default
//! is Black Powder's: every one a profile other than Black Powder's must state — by a setting
//! of its own, or by naming it in its `as-black-powder` list — so that no ruleset inherits a
//! Black Powder rule unsaid (`rules/tests/profile_choices.rs` checks each built-in profile).
//! Black Powder's own profile is exempt: the engine's defaults are its book
//! (`engine-rules = true`).

use super::SPECIALS;

/// The `[specials.charge-limits]` settings: who may not charge whom.
const CHARGE_LIMITS: [&str; 5] = [
    "skirmishers-never",
    "cavalry-into-steady-square",
    "foot-not-into-steady-horse",
    "horse-charges-horse-first",
    "through-friendly-skirmishers",
];

/// The `[readings]`: where the digest offers a choice of reading.
const READINGS: [&str; 4] = [
    "support-zone",
    "traversing-fire",
    "guns-pass-not-clear",
    "charges-near-enemy",
];

/// The terrain kinds every profile gives rules of its own (a `[terrain.<kind>]` table): a
/// terrain table is never Black Powder's — what it leaves unset does nothing (anyone enters,
/// nothing blocks sight) — so each kind is stated, not inherited.
pub const TERRAIN_KINDS: [&str; 9] = [
    "wood",
    "rough",
    "very-rough",
    "extremely-rough",
    "obstacle",
    "building",
    "hill",
    "impassable",
    "river",
];

/// Every engine choice whose default is Black Powder's, as the dotted path of the profile
/// setting that makes it (`specials.moves-per-order`, `readings.support-zone`,
/// `distances.dead-ground`).
pub fn engine_choices() -> Vec<String> {
    let specials = SPECIALS
        .iter()
        .filter(|s| s.key != "charge-limits")
        .map(|s| format!("specials.{}", s.key));
    let limits = CHARGE_LIMITS
        .iter()
        .map(|k| format!("specials.charge-limits.{k}"));
    let readings = READINGS.iter().map(|k| format!("readings.{k}"));
    specials
        .chain(limits)
        .chain(readings)
        .chain(["distances.dead-ground".to_string()])
        .collect()
}
