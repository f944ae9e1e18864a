//! Rulings in a ruleset's own words: lengths in its unit and rules cited from its own book.
//! The engine decides in Black Powder's terms; each ruleset's profile says how its book names
//! the same rules, and this is where the two meet (above the profiles and the rulesets' own
//! code, so that neither needs the other).

use crate::profile::Profile;
use crate::rulesets::OWN_RULES;
use crate::ruling::{Ruling, figures_in};
use crate::vocabulary::RuleRef;

/// The reading given to an engine rule a ruleset applies without naming its own.
pub const AS_IN_BLACK_POWDER: &str = "as in Black Powder";

/// Put rulings in a ruleset's own terms: lengths in its unit ([`figures_in`]) and rules cited
/// from its own book ([`cite`]). Where the engine's rules are the ruleset's own (Black
/// Powder), they are left as they are, at no cost.
pub fn in_ruleset_terms(rulings: &mut [Ruling], profile: &Profile) {
    figures_in(rulings, profile.length_scale());
    if profile.cites_engine_rules() {
        return;
    }
    for ruling in rulings.iter_mut() {
        if ruling.rule.reading != Some(AS_IN_BLACK_POWDER) {
            ruling.rule = cite(profile, ruling.rule);
        }
    }
}

/// How a ruleset cites one of the engine's rules: as it is where the rule is the ruleset's own
/// (named in its profile, or cited by a ruleset's own module), its own rule where its profile
/// names one, else the engine's rule marked "as in Black Powder".
pub fn cite(profile: &Profile, rule: RuleRef) -> RuleRef {
    if profile.cites_engine_rules()
        || profile.names_own_rule(rule.rule)
        || OWN_RULES.contains(&rule.rule)
    {
        return rule;
    }
    profile.citation(rule.rule).unwrap_or(RuleRef {
        rule: rule.rule,
        reading: Some(AS_IN_BLACK_POWDER),
    })
}
