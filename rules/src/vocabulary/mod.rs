//! The game's vocabulary: the words every part of the rules engine speaks — which ruleset, what
//! kind of unit, how it is drawn up, what terrain, which face, which rule — with nothing of the
//! engine's own. It sits at the bottom of the crate so that the scene, the profiles and the
//! rulings can all use these words without using one another.

use serde::{Deserialize, Serialize};

mod face;

pub use face::Face;

/// The rulesets: each a variant, the name scenes write, and a profile of that name in
/// `rules/profiles/`, compiled in. Adding a ruleset is a line here and its TOML file.
macro_rules! rulesets {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)+) => {
        /// The rulesets Vedette knows, as written in a scene's `"ruleset"` field.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum RulesetId {
            $($(#[$doc])* #[serde(rename = $name)] $variant,)+
        }

        impl RulesetId {
            /// Every ruleset Vedette knows, in the order they are offered.
            pub const ALL: [RulesetId; [$($name),+].len()] = [$(RulesetId::$variant),+];

            /// The name as written in scene files.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(RulesetId::$variant => $name,)+
                }
            }

            /// The TOML text of its built-in profile.
            pub fn profile_text(self) -> &'static str {
                match self {
                    $(RulesetId::$variant => {
                        include_str!(concat!("../../profiles/", $name, ".toml"))
                    })+
                }
            }

            /// Its place in [`RulesetId::ALL`].
            pub fn index(self) -> usize {
                self as usize
            }
        }
    };
}

rulesets! {
    /// Black Powder (Warlord Games), the reference ruleset.
    BlackPowder => "black-powder",
    /// Black Powder Tactical Commander: stands, centimetres, a 150° firing cone.
    BptCommander => "bpt-commander",
    /// Bugles, Bullets and Blades: stands, millimetres, command groups.
    Bbb => "bbb",
    /// eRules Napoleonic Wars: scale metres, momentum, reaction tests.
    Erules => "erules",
}

/// The broad type of a unit (the stat line's Type column, digest §1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnitKind {
    /// Foot.
    Infantry,
    /// Horse.
    Cavalry,
    /// Guns, howitzers, machine guns, rockets.
    Artillery,
}

/// How a unit is drawn up (digest §2.2). Which kinds may use which is the profile's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Formation {
    /// Two ranks (cavalry one or two).
    Line,
    /// One rank of stands with a gap between each (BPT Commander §1.3).
    ExtendedLine,
    /// Three to six ranks, at least as wide as deep.
    AttackColumn,
    /// Deeper than wide; its front is the narrow end.
    MarchColumn,
    /// Open order: everything around it is front.
    Skirmish,
    /// A line or column with a skirmish screen; quarters from the main body.
    Mixed,
    /// An irregular dense mass.
    Warband,
    /// Four fronts.
    Square,
    /// Occupying a building: four faces, each a front.
    Building,
    /// A gun unlimbered, crew around it.
    Deployed,
    /// A gun hooked to its team.
    Limbered,
}

impl Formation {
    /// The name as written in scene files.
    pub fn as_str(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::ExtendedLine => "extended-line",
            Formation::AttackColumn => "attack-column",
            Formation::MarchColumn => "march-column",
            Formation::Skirmish => "skirmish",
            Formation::Mixed => "mixed",
            Formation::Warband => "warband",
            Formation::Square => "square",
            Formation::Building => "building",
            Formation::Deployed => "deployed",
            Formation::Limbered => "limbered",
        }
    }
}

impl UnitKind {
    /// The name as written in scene files.
    pub fn as_str(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Cavalry => "cavalry",
            UnitKind::Artillery => "artillery",
        }
    }
}

/// What a piece of terrain is (digest §4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TerrainKind {
    /// Woods: blocks sight through it, half pace.
    Wood,
    /// Rough ground: half pace.
    Rough,
    /// Very rough ground: a third pace.
    VeryRough,
    /// Extremely rough ground: a quarter pace.
    ExtremelyRough,
    /// A linear obstacle (hedge, wall, stream, ditch …): 6" to cross.
    Obstacle,
    /// A building block.
    Building,
    /// A hill, with a height level.
    Hill,
    /// Cliffs, open water, ravines.
    Impassable,
    /// A river: impassable except at bridges and fords.
    River,
    /// A road or track.
    Road,
    /// No effect on play.
    Decorative,
}

impl TerrainKind {
    /// The name as written in scene files.
    pub fn as_str(self) -> &'static str {
        match self {
            TerrainKind::Wood => "wood",
            TerrainKind::Rough => "rough",
            TerrainKind::VeryRough => "very-rough",
            TerrainKind::ExtremelyRough => "extremely-rough",
            TerrainKind::Obstacle => "obstacle",
            TerrainKind::Building => "building",
            TerrainKind::Hill => "hill",
            TerrainKind::Impassable => "impassable",
            TerrainKind::River => "river",
            TerrainKind::Road => "road",
            TerrainKind::Decorative => "decorative",
        }
    }

    /// Linear features may be given as a line rather than an area.
    pub fn may_be_linear(self) -> bool {
        matches!(
            self,
            TerrainKind::Obstacle | TerrainKind::Road | TerrainKind::River
        )
    }
}

/// The book section a ruling applies, and the digest's reading when the book is ambiguous.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RuleRef {
    /// e.g. "Pick a Target (§6.4)".
    pub rule: &'static str,
    /// e.g. "A12": the adopted reading of an ambiguity, when one applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading: Option<&'static str>,
}

impl RuleRef {
    /// A rule applied as written.
    pub const fn book(rule: &'static str) -> RuleRef {
        RuleRef {
            rule,
            reading: None,
        }
    }

    /// A rule applied through one of the digest's adopted readings.
    pub const fn read_as(rule: &'static str, reading: &'static str) -> RuleRef {
        RuleRef {
            rule,
            reading: Some(reading),
        }
    }
}
