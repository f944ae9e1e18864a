//! Code only some rulesets need. A ruleset is its profile (data, `rules/profiles/`) plus, where
//! no setting can say it, a module here that the engine reaches through a profile choice
//! (`[specials]`, every one listed with the code it selects in [`SPECIALS`]), never through the
//! ruleset's name.

mod choices;
pub mod erules;
mod specials;

pub use choices::{TERRAIN_KINDS, choices_table, engine_choices};
pub use specials::{SPECIALS, Special};

/// The rules the rulesets' own modules cite (from their own books, not Black Powder's).
pub const OWN_RULES: [&str; 6] = [
    erules::momentum::MOMENTUM.rule,
    crate::command::COMMAND_RADIUS.rule,
    crate::command::SIGHT_ARC.rule,
    crate::shooting::RANGE_BETWEEN_UNITS.rule,
    crate::shooting::PENETRATION.rule,
    crate::shooting::ranks::FRONT_RANK.rule,
];
