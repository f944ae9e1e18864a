//! The `[specials]` settings and the code each selects: the one list of how a ruleset's profile
//! reaches code only some rulesets need. A ruleset that needs a new rule adds a setting to
//! `profile::Specials` (its default leaving Black Powder as it is), a line here, and the code —
//! under `rulesets/` when it is the ruleset's alone, beside the engine's question otherwise.
//! `rules/tests/specials.rs` checks that every setting the profiles use is listed.

/// A `[specials]` setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Special {
    /// Its key under `[specials]`.
    pub key: &'static str,
    /// What it changes.
    pub does: &'static str,
    /// Where the code it selects lives (modules of `rules/src`).
    pub code: &'static [&'static str],
}

const fn special(key: &'static str, does: &'static str, code: &'static [&'static str]) -> Special {
    Special { key, does, code }
}

/// Every `[specials]` setting, in the order `profile::Specials` declares them.
pub const SPECIALS: [Special; 28] = [
    special(
        "command-model",
        "how command distance is judged: penalty steps, a hard radius, or none",
        &["command/distance.rs", "command/radius.rs"],
    ),
    special(
        "command-rule",
        "the command distance rule's name",
        &["command/distance.rs"],
    ),
    special(
        "range-from",
        "where ranges are measured from: the leader, the stand's centre or the front edge (charges too)",
        &[
            "scene/profile_of.rs",
            "shooting/priority.rs",
            "charge/mod.rs",
        ],
    ),
    special(
        "proximity",
        "what the proximity distance means, and which rule it is",
        &["command/proximity.rs"],
    ),
    special(
        "sight-limit",
        "the longest sight line in the open",
        &["shooting/assess.rs"],
    ),
    special(
        "responders-within",
        "friends of a charged unit within this may answer the charge",
        &["charge/mod.rs"],
    ),
    special(
        "front-arc-splay",
        "how wide the fire arc opens",
        &["fire_arc/arc.rs", "shooting/firing_figures.rs"],
    ),
    special(
        "moves-per-order",
        "how many moves one order gives",
        &["profile/mod.rs", "movement/mod.rs"],
    ),
    special(
        "momentum",
        "movement carries over between bounds, and check-move checks it",
        &["rulesets/erules/momentum.rs", "movement/mod.rs"],
    ),
    special(
        "quarter-rays",
        "the rays dividing a unit's quarters when a shooter's side is judged",
        &["measure.rs", "quarter.rs"],
    ),
    special(
        "sight-ahead-only",
        "units see only ahead of their front edge's line (for the proximity rule)",
        &["command/proximity.rs"],
    ),
    special(
        "beaten-zone",
        "round shot strikes every unit in a strip along its line of fire",
        &["shooting/beaten_zone.rs", "rulings/mod.rs"],
    ),
    special(
        "penetration",
        "a gun's shot penetrates beyond its target and every unit the line touches is rolled for",
        &["shooting/penetration.rs", "rulings/mod.rs"],
    ),
    special(
        "brigade-orders",
        "brigades move on one order when their units keep together",
        &["movement/brigade.rs", "command/cohesion.rs"],
    ),
    special(
        "charge-limits",
        "who may not charge whom",
        &["charge/mod.rs"],
    ),
    special(
        "free-target-choice",
        "a unit picks any visible enemy in range",
        &["shooting/priority.rs"],
    ),
    special(
        "command-group-targets",
        "stands are shot at as their command group; rear ranks hold their fire",
        &["shooting/ranks.rs", "shooting/priority.rs"],
    ),
    special(
        "front-rank-figures",
        "fire is counted in front-rank figures, each into its own cone, no more than a unit has left",
        &["shooting/firing_figures.rs", "scene/validate.rs"],
    ),
    special(
        "stand-figures",
        "a full stand's figures; each 2 a firing stand has lost (each crew figure) add 1 to the score it needs",
        &["shooting/stand_figures.rs", "scene/validate.rs"],
    ),
    special(
        "attacks-per-stand",
        "attacks are rolled per stand: the arc ruling says how many stands fire",
        &["shooting/priority.rs"],
    ),
    special(
        "answer-fire",
        "what a unit charged to its front may do with its muskets, in the ruleset's words",
        &["charge/mod.rs"],
    ),
    special(
        "ending-inside-friends",
        "what becomes of a unit that ends its move inside a friend: forbidden, or disordered",
        &["movement/mod.rs"],
    ),
    special(
        "only-infantry-fired-over",
        "guns fire from higher ground over infantry only",
        &["shooting/overhead.rs"],
    ),
    special(
        "charges-uphill-undoubled",
        "a charge at a target uphill of the charger has its move, not its charge distance",
        &["charge/mod.rs"],
    ),
    special(
        "mounted-hold-fire",
        "mounted troops do not fire",
        &["shooting/priority.rs"],
    ),
    special(
        "guns-supported",
        "engaged guns may be supported like any unit in contact",
        &["support.rs"],
    ),
    special(
        "horse-supports-horse-only",
        "only cavalry supports cavalry",
        &["support.rs"],
    ),
    special(
        "enfilade",
        "fire down a target's length from its flank doubles its dice",
        &["shooting/assess.rs"],
    ),
];
