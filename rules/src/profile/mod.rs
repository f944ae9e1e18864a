//! Rulesets as profiles: the numbers and choices that make the one engine play a given ruleset.
//!
//! A profile is data (a TOML file in `rules/profiles/`, compiled in) read into [`Profile`]. The
//! engine asks the profile questions — how far does this weapon reach, how does this formation
//! divide the ground, how far may this unit move — and never matches on the ruleset itself.
//!
//! [`Profile`] is the file's top table; each of its tables has a module that declares it and
//! answers the engine's questions about it:
//!
//! - `reading`: the built-in profiles, loading a file and checking its numbers;
//! - `scale`: the profile's unit, ground scale and distance scale;
//! - `distances`, `formations`, `terrain`, `weapons`, `readings`, `specials`: the tables;
//! - `citations`: the ruleset's own words for rules and range bands.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::units::LengthUnit;
pub use crate::vocabulary::RulesetId;
use crate::vocabulary::{Formation, RuleRef, TerrainKind, UnitKind};

mod citations;
mod distances;
mod formations;
mod reading;
mod readings;
mod scale;
mod specials;
mod terrain;
mod weapons;

pub use citations::{BandWords, Trigger};
use citations::{CitedRule, RuleNames};
pub use distances::{Distances, MeasuredBorderline, Tolerance};
pub use formations::{ArcShape, FiresBy};
use formations::{Arcs, FormationRules, KindRules};
pub use reading::ProfileError;
pub use readings::{ChargesNearEnemy, GunsPassNotClear, Readings, SupportZone, TraversingReading};
pub use scale::{FigureScaleError, GroundScale};
pub use specials::{
    ChargeLimits, CommandModel, EndingInsideFriends, FiguresLeft, FrontRankFigures, ProximityWords,
    RangeFrom, Specials, StandFigures,
};
pub use terrain::{Entry, SightRule, TerrainRules};
pub use weapons::{Overhead, Weapon, WeaponRef};

/// The default of a setting that is one unless the file says otherwise.
fn one() -> f64 {
    1.0
}

/// A ruleset's numbers and choices. Every length it hands out is already multiplied by the
/// profile's distance scale.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Profile {
    id: RulesetId,
    name: String,
    /// Whether the engine's rules are this ruleset's own, so that its rulings cite them as
    /// written (Black Powder, whose book the engine follows); every other ruleset cites its own
    /// rule where its `[rules]` table names one, else the engine's "as in Black Powder".
    #[serde(default)]
    engine_rules: bool,
    /// The engine choices this ruleset makes as Black Powder does, by their setting's path
    /// (`specials.moves-per-order`, `readings.support-zone`; the list is the rulesets
    /// module's `engine_choices`): stated, so that none is inherited unsaid.
    #[serde(default)]
    as_black_powder: Vec<String>,
    /// The unit the profile's lengths are written in and its rulings print in.
    #[serde(default)]
    length_unit: LengthUnit,
    /// For ground units (scale metres): how many table millimetres one unit takes, per figure
    /// scale, and which figure scale the profile's numbers assume.
    #[serde(default)]
    ground_scale: Option<GroundScale>,
    /// How many of `length_unit` make one table inch at `distance_scale = 1` (set on reading).
    #[serde(skip, default = "one")]
    unit_per_inch: f64,
    distance_scale: f64,
    /// Numbers the source lost and the digest reconstructed: shown so players can check them.
    #[serde(default)]
    reconstructed: Vec<Reconstruction>,
    /// How the ruleset names its range bands (Black Powder's words by default).
    #[serde(default)]
    bands: BandWords,
    /// Standing orders and reaction tests that an enemy's coming within a distance triggers.
    #[serde(default)]
    triggers: Vec<Trigger>,
    tolerance: Tolerance,
    kinds: BTreeMap<UnitKind, KindRules>,
    #[serde(default)]
    formations: BTreeMap<Formation, FormationRules>,
    distances: Distances,
    #[serde(default)]
    terrain: BTreeMap<TerrainKind, TerrainRules>,
    #[serde(default)]
    readings: Readings,
    arcs: Arcs,
    weapons: Vec<Weapon>,
    #[serde(default, rename = "specials")]
    extras: Specials,
    /// The rule names the specials give, kept for the life of the program so rulings can cite
    /// them like the engine's own (set on reading).
    #[serde(skip)]
    rule_names: RuleNames,
    /// The ruleset's own names for the engine's rules, keyed by Black Powder's (a ruleset other
    /// than Black Powder cites its own book).
    #[serde(default)]
    rules: BTreeMap<String, CitedRule>,
    /// The same, kept for the life of the program (set on reading).
    #[serde(skip)]
    citations: Vec<(&'static str, RuleRef)>,
}

/// A setting whose value the source lost, with the digest's reconstruction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Reconstruction {
    /// The profile setting, e.g. `distances.proximity`.
    pub setting: String,
    /// The value adopted, as the profile writes it (in the profile's unit).
    pub value: String,
    /// Where the digest discusses it and which other values the source allows.
    pub note: String,
}

impl Profile {
    /// The settings the source lost and the digest reconstructed.
    pub fn reconstructed(&self) -> &[Reconstruction] {
        &self.reconstructed
    }

    /// The engine choices this ruleset says it makes as Black Powder does.
    pub fn as_black_powder(&self) -> &[String] {
        &self.as_black_powder
    }

    /// Which ruleset this is.
    pub fn id(&self) -> RulesetId {
        self.id
    }

    /// The ruleset's name, for people.
    pub fn name(&self) -> &str {
        &self.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quarter::QuarterScheme;
    use crate::units::Inches;

    fn bp() -> &'static Profile {
        Profile::builtin(RulesetId::BlackPowder)
    }

    #[test]
    fn the_builtin_profile_parses() {
        assert_eq!(bp().name(), "Black Powder");
        assert_eq!(bp().tolerance().distance, Inches(0.5));
    }

    /// Why the Black Powder profile with `from` replaced by `to` is refused.
    fn refusal(from: &str, to: &str) -> String {
        let text = Profile::builtin_text(RulesetId::BlackPowder).replacen(from, to, 1);
        assert_ne!(
            text,
            Profile::builtin_text(RulesetId::BlackPowder),
            "{from}"
        );
        Profile::from_toml(&text).expect_err(to).to_string()
    }

    #[test]
    fn a_profile_with_a_number_that_is_not_one_is_refused_by_line_and_field() {
        let nan = refusal("distance = 0.5", "distance = nan");
        assert!(
            nan.contains("line 14: tolerance.distance: must be a finite number, not nan"),
            "{nan}"
        );
        let negative = refusal("distance = 0.5", "distance = -1");
        assert!(
            negative.contains("line 14: tolerance.distance: must be zero or more, not -1"),
            "{negative}"
        );
        // An absurd allowance once made a retiring unit's path search loop for ever.
        let huge = refusal("move = 12.0", "move = 1e300");
        assert!(huge.contains("must be at most 100,000"), "{huge}");
    }

    #[test]
    fn weapons_are_found_however_players_spell_them() {
        assert_eq!(
            bp().weapon("Smoothbore Muskets").and_then(|w| w.range()),
            Some(Inches(18.0))
        );
        assert_eq!(
            bp().weapon("smoothbore_musket").and_then(|w| w.range()),
            Some(Inches(18.0))
        );
        assert_eq!(
            bp().weapon("Gatling Gun").and_then(|w| w.range()),
            Some(Inches(36.0))
        );
        assert_eq!(bp().weapon("lances").and_then(|w| w.range()), None);
        assert!(bp().weapon("laser").is_none());
    }

    #[test]
    fn howitzers_have_a_minimum_range() {
        let howitzer = bp().weapon("field-howitzer").expect("known");
        assert_eq!(howitzer.minimum(), Some(Inches(6.0)));
    }

    #[test]
    fn moves_follow_the_moving_units_table() {
        let p = bp();
        assert_eq!(
            p.move_allowance(UnitKind::Infantry, Formation::Line, None),
            Inches(12.0)
        );
        assert_eq!(
            p.move_allowance(UnitKind::Cavalry, Formation::Line, None),
            Inches(18.0)
        );
        assert_eq!(
            p.move_allowance(UnitKind::Infantry, Formation::Square, None),
            Inches(6.0)
        );
        let horse_guns = p.weapon("rifled-horse-artillery");
        assert_eq!(
            p.move_allowance(UnitKind::Artillery, Formation::Limbered, horse_guns),
            Inches(18.0)
        );
        assert_eq!(
            p.move_allowance(UnitKind::Artillery, Formation::Deployed, None),
            Inches(6.0)
        );
    }

    #[test]
    fn the_distance_scale_shrinks_every_length() {
        let small = bp().with_distance_scale(0.5);
        assert_eq!(
            small.weapon("smoothbore-musket").and_then(|w| w.range()),
            Some(Inches(9.0))
        );
        assert_eq!(
            small.move_allowance(UnitKind::Infantry, Formation::Line, None),
            Inches(6.0)
        );
        assert_eq!(small.tolerance().distance, Inches(0.25));
        assert_eq!(small.proximity(), Inches(6.0));
    }

    #[test]
    fn skirmishers_are_all_front_and_squares_four_fronts() {
        assert_eq!(
            bp().quarter_scheme(Formation::Skirmish),
            QuarterScheme::AllFront
        );
        assert_eq!(
            bp().quarter_scheme(Formation::Square),
            QuarterScheme::FourFronts
        );
        assert_eq!(
            bp().quarter_scheme(Formation::Line),
            QuarterScheme::FrontFlanksRear
        );
        assert_eq!(bp().arc_shape(Formation::Deployed), ArcShape::Cone);
        assert!(!bp().formation_shoots(Formation::MarchColumn));
    }
}
