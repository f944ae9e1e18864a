//! The ruleset's own words: the rules it cites in place of the engine's, the rules its
//! triggers apply, and its names for the range bands.

use serde::Deserialize;

use super::Profile;
use crate::units::Inches;
use crate::vocabulary::{RuleRef, UnitKind};

/// A ruleset's own words for the engine's range bands, numbers included, in its own units
/// (eRules' "short range, 0–75 m"): the engine decides the band, the profile names it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BandWords {
    /// Small arms within the close range.
    pub close: String,
    /// Small arms beyond it.
    pub long: String,
    /// Guns within the close range.
    pub short: String,
    /// Guns beyond it, up to half their maximum.
    pub medium: String,
    /// Guns beyond half their maximum.
    pub artillery_long: String,
    /// Small arms' close band ends at half the weapon's range, not at `distances.close-range`.
    #[serde(default)]
    pub close_at_half_range: bool,
    /// What cover does to a shot, where the book has no clear-target rule (BPT Commander's
    /// "hit on 5+", BBB's "+1 to the score needed"); without it a target in cover is not clear
    /// (Black Powder §6.4: −1 to hit).
    #[serde(default)]
    pub cover: Option<String>,
}

impl Default for BandWords {
    /// Black Powder's (digest §6.6, §6.12).
    fn default() -> BandWords {
        BandWords {
            close: "close range (+1 to hit)".into(),
            long: "beyond close range".into(),
            short: "short range".into(),
            medium: "medium range".into(),
            artillery_long: "long range (−1 to hit)".into(),
            close_at_half_range: false,
            cover: None,
        }
    }
}

/// A standing order or reaction test that an enemy of one kind coming within a distance
/// triggers for a unit of another (eRules §17.1: regular infantry sighting formed cavalry within
/// its charge distance forms square).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Trigger {
    /// The rule, as the book names it.
    pub rule: String,
    /// The adopted reading, if any.
    #[serde(default)]
    pub reading: Option<String>,
    /// The kind of unit the rule is about.
    pub tested: UnitKind,
    /// The kind of enemy that triggers it.
    pub by: UnitKind,
    /// How close the enemy must come, edge to edge.
    pub within: Inches,
    /// A longer reach some enemies of that kind have (irregular cavalry's longer charge): an
    /// enemy between `within` and this is borderline — players decide.
    #[serde(default)]
    pub wider: Option<Inches>,
    /// Which enemies have the longer reach.
    #[serde(default)]
    pub wider_for: Option<String>,
    /// Only an enemy the unit sees sets it off (eRules §17.1: cavalry "sighted"): one hidden
    /// behind a wood or other troops does not.
    #[serde(default)]
    pub sighted: bool,
    /// Only an enemy not in melee sets it off (eRules §17.1: cavalry "not in melee").
    #[serde(default)]
    pub not_in_melee: bool,
    /// What the rule makes the unit do.
    pub then: String,
    /// The rule as rulings cite it (set on reading).
    #[serde(skip, default = "no_rule")]
    pub cited: RuleRef,
}

impl Trigger {
    /// Multiply its lengths by `factor` (the profile's unit → inches).
    pub(super) fn convert(&mut self, factor: f64) {
        self.within = self.within * factor;
        self.wider = self.wider.map(|w| w * factor);
    }
}

fn no_rule() -> RuleRef {
    RuleRef::book("")
}

/// A ruleset's own rule for one of the engine's.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct CitedRule {
    rule: String,
    #[serde(default)]
    reading: Option<String>,
}

/// Rule references a profile gives in place of Black Powder's.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RuleNames {
    command: Option<RuleRef>,
    proximity: Option<RuleRef>,
}

/// A profile's text, kept for the rest of the program: rule references are `'static` like the
/// engine's own. Built-in profiles are read once; a loaded profile leaks its two or three names.
fn keep(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

impl Profile {
    /// The command distance rule, when the ruleset names its own.
    pub fn command_rule(&self) -> Option<RuleRef> {
        self.rule_names.command
    }

    /// The proximity rule, when the ruleset names its own.
    pub fn proximity_rule(&self) -> Option<RuleRef> {
        self.rule_names.proximity
    }

    /// Whether the engine's rules are this ruleset's own (`engine-rules`): its rulings cite
    /// them as written.
    pub fn cites_engine_rules(&self) -> bool {
        self.engine_rules
    }

    /// Whether the profile names `rule` as one of the ruleset's own: its command or proximity
    /// rule, or a trigger's.
    pub fn names_own_rule(&self, rule: &str) -> bool {
        let own = [self.rule_names.command, self.rule_names.proximity];
        own.iter().flatten().any(|r| r.rule == rule)
            || self.triggers.iter().any(|t| t.cited.rule == rule)
    }

    /// The ruleset's own rule for one of the engine's, where its `[rules]` table names one.
    pub fn citation(&self, engine_rule: &str) -> Option<RuleRef> {
        self.citations
            .iter()
            .find(|(engine, _)| *engine == engine_rule)
            .map(|(_, own)| *own)
    }

    /// The standing orders and reaction tests that distances trigger.
    pub fn triggers(&self) -> &[Trigger] {
        &self.triggers
    }

    /// How the ruleset names its range bands.
    pub fn band_words(&self) -> &BandWords {
        &self.bands
    }

    /// Keep the rules the profile names for the life of the program, so rulings cite them
    /// like the engine's own.
    pub(super) fn keep_citations(&mut self) {
        for trigger in &mut self.triggers {
            trigger.cited = RuleRef {
                rule: keep(&trigger.rule),
                reading: trigger.reading.as_deref().map(keep),
            };
        }
        self.citations = self
            .rules
            .iter()
            .map(|(engine, own)| {
                let cited = RuleRef {
                    rule: keep(&own.rule),
                    reading: own.reading.as_deref().map(keep),
                };
                (keep(engine), cited)
            })
            .collect();
        self.rule_names = RuleNames {
            command: self
                .extras
                .command_rule
                .as_deref()
                .map(|rule| RuleRef::book(keep(rule))),
            proximity: self.extras.proximity.as_ref().map(|words| RuleRef {
                rule: keep(&words.rule),
                reading: words.reading.as_deref().map(keep),
            }),
        };
    }
}
