//! The `[terrain]` table: what each kind of ground does to movement, sight and cover.

use serde::Deserialize;

use super::{Profile, one};
use crate::units::Inches;
use crate::vocabulary::TerrainKind;

/// What a kind of terrain does to sight (digest A9, A10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SightRule {
    /// No effect.
    #[default]
    Clear,
    /// Blocks a sight line that runs through more of it than the wood edge allowance.
    Wood,
    /// Blocks any sight line through it (buildings).
    Solid,
    /// Blocks a sight line crossing it unless an end is on it or higher (hills).
    Height,
    /// Blocks a sight line crossing it unless the looker or the target touches it (BPT
    /// Commander's walls, fences and hedges: "unless troops are in base contact").
    Linear,
}

/// Who may enter a kind of terrain (digest §4.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Entry {
    /// Anyone.
    #[default]
    Anyone,
    /// Only infantry in skirmish order (others by road only).
    SkirmishingInfantry,
    /// Only infantry.
    Infantry,
    /// Nobody.
    Nobody,
}

impl Entry {
    /// Who may enter, said as those left out hear it: "only infantry".
    pub fn who(&self) -> &'static str {
        match self {
            Entry::Anyone => "anyone",
            Entry::SkirmishingInfantry => "only infantry in skirmish order",
            Entry::Infantry => "only infantry",
            Entry::Nobody => "nobody",
        }
    }
}

/// How a kind of terrain affects the rules.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TerrainRules {
    /// Each inch moved inside costs this many inches.
    #[serde(default = "one")]
    pub cost: f64,
    /// Skirmishers move through it at no penalty.
    #[serde(default)]
    pub skirmishers_free: bool,
    /// What it does to sight.
    #[serde(default)]
    pub sight: SightRule,
    /// Units in it (or close behind a linear one) are in cover.
    #[serde(default)]
    pub cover: bool,
    /// Who may enter.
    #[serde(default)]
    pub entry: Entry,
    /// Who may charge into or through it, when fewer may than enter (BBB L501: mounted troops
    /// cannot charge through rough terrain; eRules §35.3: horse may not charge in woods, bogs,
    /// marsh or rocks); as [`Self::entry`] when not given.
    #[serde(default)]
    pub charge_entry: Option<Entry>,
    /// A charge at a target standing in it is not doubled: the charger has its move, not its
    /// charge distance (BBB L473: no ×2 against a target in difficult terrain).
    #[serde(default)]
    pub charges_undoubled: bool,
    /// A linear obstacle: crossing costs the profile's obstacle distance.
    #[serde(default)]
    pub crossing: bool,
    /// Guns standing in it may not fire (eRules fn9: not in woods nor on slopes).
    #[serde(default)]
    pub guns_silent: bool,
    /// The farthest anyone sees when the looker or the target stands in it (BBB: 200 mm in
    /// open woods, 300 mm in rough ground).
    #[serde(default)]
    pub sight_inside: Option<Inches>,
    /// The farthest anyone sees into it from outside (BBB: 50 mm into woods); the inside
    /// distance when not given.
    #[serde(default)]
    pub sight_into: Option<Inches>,
}

impl TerrainRules {
    /// Multiply its lengths by `factor` (the profile's unit → inches).
    pub(super) fn convert(&mut self, factor: f64) {
        self.sight_inside = self.sight_inside.map(|d| d * factor);
        self.sight_into = self.sight_into.map(|d| d * factor);
    }
}

impl Default for TerrainRules {
    fn default() -> Self {
        TerrainRules {
            cost: 1.0,
            skirmishers_free: false,
            sight: SightRule::Clear,
            cover: false,
            entry: Entry::Anyone,
            charge_entry: None,
            charges_undoubled: false,
            crossing: false,
            guns_silent: false,
            sight_inside: None,
            sight_into: None,
        }
    }
}

impl Profile {
    /// How a kind of terrain affects the rules (decorative and unlisted kinds: not at all).
    pub fn terrain_rules(&self, kind: TerrainKind) -> TerrainRules {
        self.terrain.get(&kind).copied().unwrap_or_default()
    }
}
