//! The `[[weapons]]` tables: what each weapon reaches, and the names players write for it.

use serde::{Deserialize, Serialize};

use super::Profile;
use crate::units::Inches;

/// Whether a weapon may fire over other units' heads (digest §6.12–§6.15, A40).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Overhead {
    /// Never: small arms, machine guns.
    #[default]
    Never,
    /// Cannon: when the gun or the target is on higher ground than the unit fired over, and
    /// that unit is clear of the dead ground near the gun and near the target.
    FromHigherGround,
    /// Howitzers, mortars, rockets: over their own side's units, always.
    OverFriends,
}

/// A weapon's reach (digest §6.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Weapon {
    /// The id used in scenes and rosters, e.g. `smoothbore-musket`.
    pub id: String,
    /// The book's name.
    pub name: String,
    /// Maximum range; `None` for hand-to-hand weapons.
    #[serde(default)]
    pub(super) range: Option<Inches>,
    /// Targets closer than this cannot be engaged (howitzers, mortars, rockets).
    #[serde(default)]
    pub(super) minimum: Option<Inches>,
    /// Limbered move of horse artillery.
    #[serde(default)]
    pub(super) limbered_move: Option<Inches>,
    /// Whether it fires over other units' heads.
    #[serde(default)]
    pub(super) overhead: Overhead,
    /// Guns that may fire canister at targets this close (Bugles, Bullets and Blades).
    #[serde(default)]
    pub(super) canister: Option<Inches>,
    /// Beyond `canister`, long canister at a lower rate up to this range (eRules E-07).
    #[serde(default)]
    pub(super) canister_long: Option<Inches>,
    /// The crew of a full gun of this weapon, where it is not the ruleset's usual gun crew
    /// (Bugles, Bullets and Blades: a machine gun's 3 to a gun's 4, L423).
    #[serde(default)]
    pub(super) crew: Option<u32>,
    /// Other names players write for it.
    #[serde(default)]
    pub(super) aliases: Vec<String>,
}

/// Lower-case, with spaces and underscores as hyphens, the book's "SB" spelled out and any
/// note in brackets dropped: "SB Muskets", "Rifled Muskets (24\")" → "smoothbore-muskets",
/// "rifled-muskets".
pub(super) fn normalize_name(name: &str) -> String {
    let without_note = name.split('(').next().unwrap_or("");
    without_note
        .trim()
        .to_lowercase()
        .split(|c: char| c.is_whitespace() || c == '_' || c == '-')
        .filter(|part| !part.is_empty())
        .map(|part| if part == "sb" { "smoothbore" } else { part })
        .collect::<Vec<_>>()
        .join("-")
}

impl Weapon {
    /// Multiply its lengths by `factor` (the profile's unit → inches).
    pub(super) fn convert(&mut self, factor: f64) {
        for length in [
            &mut self.range,
            &mut self.minimum,
            &mut self.limbered_move,
            &mut self.canister,
            &mut self.canister_long,
        ] {
            *length = length.map(|l| l * factor);
        }
    }

    /// Whether players writing `normalized` (see [`normalize_name`]) mean this weapon.
    pub(super) fn answers_to(&self, normalized: &str) -> bool {
        let plural = normalized.strip_suffix('s');
        self.id == normalized
            || plural == Some(self.id.as_str())
            || self.aliases.iter().any(|a| a == normalized)
    }
}

/// A weapon of a profile, with the profile's distance scale applied to its lengths.
#[derive(Clone, Copy, Debug)]
pub struct WeaponRef<'p> {
    pub(super) weapon: &'p Weapon,
    pub(super) scale: f64,
}

impl<'p> WeaponRef<'p> {
    /// The id used in scenes, e.g. `smoothbore-musket`.
    pub fn id(&self) -> &'p str {
        &self.weapon.id
    }

    /// The book's name.
    pub fn name(&self) -> &'p str {
        &self.weapon.name
    }

    /// Maximum range, if the weapon shoots.
    pub fn range(&self) -> Option<Inches> {
        self.weapon.range.map(|r| r * self.scale)
    }

    /// Minimum range, for weapons with a dead zone.
    pub fn minimum(&self) -> Option<Inches> {
        self.weapon.minimum.map(|r| r * self.scale)
    }

    /// Whether it fires over other units' heads (A40).
    pub fn overhead(&self) -> Overhead {
        self.weapon.overhead
    }

    /// Horse artillery (it has a faster limbered move): it may evade as cavalry (§7.6).
    pub fn is_horse_artillery(&self) -> bool {
        self.weapon.limbered_move.is_some()
    }

    /// Canister reach, for guns whose ruleset gives one.
    pub fn canister(&self) -> Option<Inches> {
        self.weapon.canister.map(|r| r * self.scale)
    }

    /// How far long canister reaches, beyond [`WeaponRef::canister`], if the ruleset has it.
    pub fn canister_long(&self) -> Option<Inches> {
        self.weapon.canister_long.map(|r| r * self.scale)
    }

    /// Its own full crew, where it is not the ruleset's usual gun crew.
    pub fn crew(&self) -> Option<u32> {
        self.weapon.crew
    }

    pub(super) fn limbered_move(&self) -> Option<Inches> {
        self.weapon.limbered_move.map(|r| r * self.scale)
    }
}

impl Profile {
    /// The weapon a scene or roster names, however the player spelled it.
    pub fn weapon(&self, name: &str) -> Option<WeaponRef<'_>> {
        let scale = self.distance_scale;
        // Scenes hold canonical ids: find those without allocating.
        let exact = self.weapons.iter().find(|w| w.id == name);
        let weapon = exact.or_else(|| {
            let wanted = normalize_name(name);
            self.weapons.iter().find(|w| w.answers_to(&wanted))
        })?;
        Some(WeaponRef { weapon, scale })
    }

    /// The ids of every weapon, for error messages.
    pub fn weapon_ids(&self) -> impl Iterator<Item = &str> {
        self.weapons.iter().map(|w| w.id.as_str())
    }
}
