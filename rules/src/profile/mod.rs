//! Rulesets as profiles: the numbers and choices that make the one engine play a given ruleset.
//!
//! A profile is data (a TOML file in `rules/profiles/`, compiled in) read into [`Profile`]. The
//! engine asks the profile questions — how far does this weapon reach, how does this formation
//! divide the ground, how far may this unit move — and never matches on the ruleset itself.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::quarter::QuarterScheme;
use crate::units::{Degrees, Inches, Length, LengthScale, LengthUnit, MM_PER_INCH};
pub use crate::vocabulary::RulesetId;
use crate::vocabulary::{Formation, RuleRef, TerrainKind, UnitKind};

mod reading;
mod specials;
mod weapons;

pub use reading::ProfileError;
use specials::yes;
pub use specials::{
    ChargeLimits, CommandModel, FrontRankFigures, ProximityWords, RangeFrom, Specials,
};
use weapons::normalize_name;
pub use weapons::{Weapon, WeaponRef};

/// When two numbers are too close to call (digest §15, global recommendations).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tolerance {
    /// Distances within this of a threshold are borderline.
    pub distance: Inches,
    /// Angles within this of a threshold are borderline.
    pub angle: Degrees,
}

/// Where a formation may shoot (digest §6.3, A13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArcShape {
    /// The front quarter, widening from the front edge.
    FrontQuarter,
    /// A cone either side of the barrel, from the barrel tip.
    Cone,
    /// All round (skirmishers, squares and buildings: each face into its own quarter).
    AllRound,
}

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

/// The readings in force where the digest offers a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Readings {
    /// A27.
    #[serde(default)]
    pub support_zone: SupportZone,
    /// A25.
    #[serde(default)]
    pub traversing_fire: TraversingReading,
    /// Guns may pass over a not-clear nearest target for a clear one, "in exactly the same way
    /// as for infantry" (§6.12; true, the book), or must shoot the nearest (false).
    #[serde(default = "yes")]
    pub guns_pass_not_clear: bool,
    /// A18 and charges.
    #[serde(default)]
    pub charges_near_enemy: ChargesNearEnemy,
}

impl Default for Readings {
    fn default() -> Self {
        Readings {
            support_zone: SupportZone::default(),
            traversing_fire: TraversingReading::default(),
            guns_pass_not_clear: true,
            charges_near_enemy: ChargesNearEnemy::default(),
        }
    }
}

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

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct KindRules {
    #[serde(rename = "move")]
    move_allowance: Inches,
    /// How far a charge of this kind reaches, when the ruleset sets it apart from the move
    /// (eRules' charge column, BPT's charge distance, BBB's doubled dice).
    #[serde(default)]
    charge: Option<Inches>,
    default_formation: Formation,
    formations: Vec<Formation>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FormationRules {
    #[serde(default)]
    quarters: Option<QuarterScheme>,
    #[serde(default)]
    arc: Option<ArcShape>,
    #[serde(default)]
    shoots: Option<bool>,
    #[serde(default)]
    closing_fire: Option<bool>,
    #[serde(default)]
    enfilades: Option<bool>,
    #[serde(default)]
    blocks_sight: Option<bool>,
    #[serde(default)]
    firing_stands: Option<u32>,
    #[serde(default)]
    moves_per_turn: Option<u32>,
    #[serde(default)]
    halts_near_cavalry: Option<Inches>,
    #[serde(default)]
    towards_home_only: Option<bool>,
    #[serde(default, rename = "move")]
    move_allowance: Option<Inches>,
}

/// The distances a profile measures against, unscaled as written in the profile.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Distances {
    /// Enemy within this: proximity movement rule, initiative, command penalty (A17).
    pub proximity: Inches,
    /// Bases this close are touching.
    pub contact: Inches,
    /// Supporters within this of the engaged unit (A27).
    pub support: Inches,
    /// Brigade-mates within this of each other form a group (A16).
    pub brigade_cohesion: Inches,
    /// One command penalty step (A15).
    pub command_step: Inches,
    /// Close range (A14).
    pub close_range: Inches,
    /// The narrowest gap infantry and cavalry shoot through (A11).
    pub gap: Inches,
    /// The narrowest gap cannon shoot through.
    pub cannon_gap: Inches,
    /// The cost of crossing an obstacle.
    pub obstacle: Inches,
    /// The cost of entering a building.
    pub building_entry: Inches,
    /// How deep inside a wood a unit still sees and is seen (A9).
    pub wood_edge: Inches,
    /// How close behind an obstacle a unit counts as in cover (A31).
    pub cover_behind: Inches,
    /// Where cavalry halt before a steady square.
    pub cavalry_square_halt: Inches,
    /// A commander's move on foot.
    pub commander_on_foot: Inches,
    /// A commander's move on horseback.
    pub commander_mounted: Inches,
    /// Units fired over must be further than this from the gun and from the target (A40).
    #[serde(default = "dead_ground")]
    pub dead_ground: Inches,
    /// A charger crossing a unit's front within this may be shot at (A25).
    #[serde(default = "traversing")]
    pub traversing: Inches,
}

impl Distances {
    fn lengths_mut(&mut self) -> [&mut Inches; 17] {
        [
            &mut self.proximity,
            &mut self.contact,
            &mut self.support,
            &mut self.brigade_cohesion,
            &mut self.command_step,
            &mut self.close_range,
            &mut self.gap,
            &mut self.cannon_gap,
            &mut self.obstacle,
            &mut self.building_entry,
            &mut self.wood_edge,
            &mut self.cover_behind,
            &mut self.cavalry_square_halt,
            &mut self.commander_on_foot,
            &mut self.commander_mounted,
            &mut self.dead_ground,
            &mut self.traversing,
        ]
    }

    fn convert(&mut self, factor: f64) {
        for length in self.lengths_mut() {
            *length = *length * factor;
        }
    }
}

/// The book's 6" dead ground, for profiles written before it was configurable.
fn dead_ground() -> Inches {
    Inches(6.0)
}

/// The book's 12" traversing-fire distance, for profiles written before it was configurable.
fn traversing() -> Inches {
    Inches(12.0)
}

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

fn one() -> f64 {
    1.0
}

impl Default for TerrainRules {
    fn default() -> Self {
        TerrainRules {
            cost: 1.0,
            skirmishers_free: false,
            sight: SightRule::Clear,
            cover: false,
            entry: Entry::Anyone,
            crossing: false,
            guns_silent: false,
            sight_inside: None,
            sight_into: None,
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Arcs {
    cone_half_angle: Degrees,
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
    /// What the rule makes the unit do.
    pub then: String,
    /// The rule as rulings cite it (set on reading).
    #[serde(skip, default = "no_rule")]
    pub cited: RuleRef,
}

fn no_rule() -> RuleRef {
    RuleRef::book("")
}

/// A ruleset's own rule for one of the engine's.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct CitedRule {
    rule: String,
    #[serde(default)]
    reading: Option<String>,
}

/// Rule references a profile gives in place of Black Powder's.
#[derive(Clone, Copy, Debug, Default)]
struct RuleNames {
    command: Option<RuleRef>,
    proximity: Option<RuleRef>,
}

/// A profile's text, kept for the rest of the program: rule references are `'static` like the
/// engine's own. Built-in profiles are read once; a loaded profile leaks its two or three names.
fn keep(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

/// Table millimetres per ground unit for each figure scale (eRules §36, digest §1.1).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GroundScale {
    /// The figure scale (in mm) the profile's numbers are read at.
    pub default_figures: u32,
    /// Figure scale (mm) → table millimetres per unit.
    pub mm_per_unit: BTreeMap<String, f64>,
}

impl GroundScale {
    /// Table millimetres per ground unit for figures of `figures` mm, if the profile lists them.
    pub fn mm_per_unit(&self, figures: u32) -> Option<f64> {
        self.mm_per_unit.get(&figures.to_string()).copied()
    }
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

/// Why a figure scale cannot be used with a profile.
#[derive(Debug, thiserror::Error)]
#[error("{ruleset} has no ground scale for {figures} mm figures (it knows {known})")]
pub struct FigureScaleError {
    /// The ruleset.
    pub ruleset: &'static str,
    /// The figure scale asked for.
    pub figures: u32,
    /// The figure scales it knows.
    pub known: String,
}

impl Profile {
    /// The readings in force where the digest offers a choice.
    pub fn readings(&self) -> Readings {
        self.readings
    }

    /// The profile's own distance scale.
    pub fn distance_scale(&self) -> f64 {
        self.distance_scale
    }

    /// The unit the ruleset measures in.
    pub fn length_unit(&self) -> LengthUnit {
        self.length_unit
    }

    /// How the ruleset's unit relates to table inches at this profile's scale. A ground unit
    /// (scale metres) shrinks with the figures; table units do not.
    pub fn length_scale(&self) -> LengthScale {
        let per_inch = if self.length_unit.is_ground() {
            self.unit_per_inch / self.distance_scale
        } else {
            self.unit_per_inch
        };
        LengthScale {
            unit: self.length_unit,
            per_inch,
        }
    }

    /// A table length, printable in the ruleset's unit (`7.43"`, `18.9 cm`, `150 mm`, `200 m`).
    pub fn length(&self, length: Inches) -> Length {
        self.length_scale().length(length)
    }

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

    /// The settings only some rulesets use.
    pub fn specials(&self) -> &Specials {
        &self.extras
    }

    /// How near a charged unit its friends must be to answer the charge too, scaled, if they
    /// may.
    pub fn responders_within(&self) -> Option<Inches> {
        self.extras.responders_within.map(|l| self.scaled(l))
    }

    /// The standard figure frontages, scaled, where fire is counted in figures.
    pub fn front_rank_figures(&self) -> Option<FrontRankFigures> {
        self.extras
            .front_rank_figures
            .map(|f| f.scaled(self.distance_scale))
    }

    /// The longest sight line in the open, scaled, if the ruleset caps it.
    pub fn sight_limit(&self) -> Option<Inches> {
        self.extras.sight_limit.map(|l| self.scaled(l))
    }

    /// Whether ranges are the shortest distance from a unit's front edge (BPT Commander) rather
    /// than from one point of it.
    pub fn ranges_from_front_edge(&self) -> bool {
        self.extras.range_from == RangeFrom::FrontEdge
    }

    /// The rays dividing a unit's quarters when a shooter's side is judged.
    pub fn quarter_rays(&self) -> crate::quarter::QuarterRays {
        self.extras
            .quarter_rays
            .unwrap_or(crate::quarter::QuarterRays::BLACK_POWDER)
    }

    /// The standing orders and reaction tests that distances trigger.
    pub fn triggers(&self) -> &[Trigger] {
        &self.triggers
    }

    /// How the ruleset names its range bands.
    pub fn band_words(&self) -> &BandWords {
        &self.bands
    }

    /// The settings the source lost and the digest reconstructed.
    pub fn reconstructed(&self) -> &[Reconstruction] {
        &self.reconstructed
    }

    /// The ground scale, for rulesets that measure in scale metres.
    pub fn ground_scale(&self) -> Option<&GroundScale> {
        self.ground_scale.as_ref()
    }

    /// The same profile for figures of `figures` mm (ground-scale rulesets only; others are
    /// returned unchanged, their scenes use `distance-scale`).
    pub fn with_figure_scale(&self, figures: u32) -> Result<Profile, FigureScaleError> {
        let Some(ground) = &self.ground_scale else {
            return Ok(self.clone());
        };
        let (Some(wanted), Some(base)) = (
            ground.mm_per_unit(figures),
            ground.mm_per_unit(ground.default_figures),
        ) else {
            return Err(FigureScaleError {
                ruleset: self.id.as_str(),
                figures,
                known: ground
                    .mm_per_unit
                    .keys()
                    .map(|k| format!("{k} mm"))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        Ok(self.with_distance_scale(self.distance_scale * wanted / base))
    }

    /// The same profile with every length multiplied by `scale` (0.5 for 15 mm figures).
    pub fn with_distance_scale(&self, scale: f64) -> Profile {
        Profile {
            distance_scale: scale,
            ..self.clone()
        }
    }

    /// Which ruleset this is.
    pub fn id(&self) -> RulesetId {
        self.id
    }

    /// The ruleset's name, for people.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A length the profile states (a move, a trigger's distance), at its distance scale.
    pub fn scaled(&self, length: Inches) -> Inches {
        length * self.distance_scale
    }

    /// The borderline tolerance, scaled.
    pub fn tolerance(&self) -> Tolerance {
        Tolerance {
            distance: self.scaled(self.tolerance.distance),
            angle: self.tolerance.angle,
        }
    }

    /// The distance at which enemies restrict movement and give initiative.
    pub fn proximity(&self) -> Inches {
        self.scaled(self.distances.proximity)
    }

    /// Every distance the rules measure against, scaled.
    pub fn distances(&self) -> Distances {
        let d = &self.distances;
        let s = |length: Inches| self.scaled(length);
        Distances {
            proximity: s(d.proximity),
            contact: s(d.contact),
            support: s(d.support),
            brigade_cohesion: s(d.brigade_cohesion),
            command_step: s(d.command_step),
            close_range: s(d.close_range),
            gap: s(d.gap),
            cannon_gap: s(d.cannon_gap),
            obstacle: s(d.obstacle),
            building_entry: s(d.building_entry),
            wood_edge: s(d.wood_edge),
            cover_behind: s(d.cover_behind),
            cavalry_square_halt: s(d.cavalry_square_halt),
            commander_on_foot: s(d.commander_on_foot),
            commander_mounted: s(d.commander_mounted),
            dead_ground: s(d.dead_ground),
            traversing: s(d.traversing),
        }
    }

    /// How a kind of terrain affects the rules (decorative and unlisted kinds: not at all).
    pub fn terrain_rules(&self, kind: TerrainKind) -> TerrainRules {
        self.terrain.get(&kind).copied().unwrap_or_default()
    }

    /// The half-angle of an artillery fire cone.
    pub fn cone_half_angle(&self) -> Degrees {
        self.arcs.cone_half_angle
    }

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

    /// A kind's own charge distance, scaled, where the ruleset gives one (otherwise a charge
    /// reaches one move).
    pub fn charge_distance(&self, kind: UnitKind) -> Option<Inches> {
        self.kinds
            .get(&kind)
            .and_then(|k| k.charge)
            .map(|c| self.scaled(c))
    }

    /// The ids of every weapon, for error messages.
    pub fn weapon_ids(&self) -> impl Iterator<Item = &str> {
        self.weapons.iter().map(|w| w.id.as_str())
    }

    /// The formations a kind of unit may adopt.
    pub fn formations_of(&self, kind: UnitKind) -> &[Formation] {
        self.kinds
            .get(&kind)
            .map(|k| k.formations.as_slice())
            .unwrap_or(&[])
    }

    /// The formation a unit takes when the scene does not say.
    pub fn default_formation(&self, kind: UnitKind) -> Formation {
        self.kinds
            .get(&kind)
            .map(|k| k.default_formation)
            .unwrap_or(Formation::Line)
    }

    fn formation_rules(&self, formation: Formation) -> FormationRules {
        self.formations.get(&formation).cloned().unwrap_or_default()
    }

    /// How the formation divides the ground around it.
    pub fn quarter_scheme(&self, formation: Formation) -> QuarterScheme {
        self.formation_rules(formation)
            .quarters
            .unwrap_or(QuarterScheme::FrontFlanksRear)
    }

    /// Where the formation may shoot.
    pub fn arc_shape(&self, formation: Formation) -> ArcShape {
        self.formation_rules(formation)
            .arc
            .unwrap_or(ArcShape::FrontQuarter)
    }

    /// Whether the formation may shoot at all.
    pub fn formation_shoots(&self, formation: Formation) -> bool {
        self.formation_rules(formation).shoots.unwrap_or(true)
    }

    /// Whether the formation may answer a charge with closing fire (when it shoots at all).
    pub fn formation_gives_closing_fire(&self, formation: Formation) -> bool {
        self.formation_shoots(formation)
            && self.formation_rules(formation).closing_fire.unwrap_or(true)
    }

    /// The most moves a unit in the formation may make in a turn, and whether that is the
    /// formation's own limit (a square's one half-pace move) rather than what an order gives.
    pub fn moves_per_turn(&self, formation: Formation) -> (u32, bool) {
        let order = self.specials().moves_per_order;
        match self.formation_rules(formation).moves_per_turn {
            Some(limit) if limit < order => (limit, true),
            _ => (order, false),
        }
    }

    /// How near enemy cavalry stops a unit in the formation moving at all (a square's 12"),
    /// scaled like every length; `None`: cavalry never does.
    pub fn halts_near_cavalry(&self, formation: Formation) -> Option<Inches> {
        self.formation_rules(formation)
            .halts_near_cavalry
            .map(|d| self.scaled(d))
    }

    /// Whether a unit in the formation may move only towards its own lines (a square, A38).
    pub fn towards_home_only(&self, formation: Formation) -> bool {
        self.formation_rules(formation)
            .towards_home_only
            .unwrap_or(false)
    }

    /// Whether the formation's shooting may enfilade a target (when it shoots at all).
    pub fn formation_enfilades(&self, formation: Formation) -> bool {
        self.formation_shoots(formation)
            && self.formation_rules(formation).enfilades.unwrap_or(true)
    }

    /// How many of a unit's stands fire in the formation, when not all of them (BPT Commander
    /// §1.3: one from a march column, the two front stands of an attack column).
    pub fn formation_firing_stands(&self, formation: Formation) -> Option<u32> {
        self.formation_rules(formation).firing_stands
    }

    /// Whether units in the formation block sight lines (BPT Commander §1.5: skirmishers and
    /// unlimbered guns do not; nobody fires over them either way).
    pub fn formation_blocks_sight(&self, formation: Formation) -> bool {
        self.formation_rules(formation).blocks_sight.unwrap_or(true)
    }

    /// How far one move takes the unit.
    pub fn move_allowance(
        &self,
        kind: UnitKind,
        formation: Formation,
        weapon: Option<WeaponRef<'_>>,
    ) -> Inches {
        let kind_move = self
            .kinds
            .get(&kind)
            .map(|k| k.move_allowance)
            .unwrap_or(Inches::ZERO);
        let limbered_move = match formation {
            Formation::Limbered => weapon.and_then(|w| w.limbered_move()),
            _ => None,
        };
        self.formation_rules(formation)
            .move_allowance
            .map(|m| self.scaled(m))
            .or(limbered_move)
            .unwrap_or_else(|| self.scaled(kind_move))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
