//! The `[specials]` table: settings only some rulesets use, each with a default that leaves
//! Black Powder as it is (`rules::rulesets::SPECIALS` lists them with the code each selects).

use serde::Deserialize;

use super::Profile;
use crate::units::{Degrees, Inches};
use crate::vocabulary::UnitKind;

/// How a ruleset judges command distance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CommandModel {
    /// −1 per full step once beyond one step (Black Powder's 12", BPT Commander's 20 cm).
    #[default]
    PenaltySteps,
    /// A hard radius: beyond it the unit may not move (Bugles, Bullets and Blades' 200 mm).
    Radius,
    /// No command distance: the ruleset commands otherwise (eRules' momentum).
    None,
}

/// Where ranges (and the fire arc's clipping) are measured from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RangeFrom {
    /// The leader: the middle of the front edge (Black Powder, BPT Commander, eRules).
    #[default]
    Leader,
    /// The centre of the firing stand (Bugles, Bullets and Blades; a gun's muzzle is its front).
    Centre,
    /// Anywhere along the front edge: the shortest distance between the firing unit and the
    /// enemy (BPT Commander §1.9); charges are measured from the front edge too. Sight lines
    /// still leave the leader.
    FrontEdge,
}

/// What the proximity distance means in a ruleset, for the ruling's words and rule reference.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProximityWords {
    /// The rule's name and section, e.g. "Zones of Control".
    pub rule: String,
    /// The adopted reading, if any (e.g. "B-21").
    #[serde(default)]
    pub reading: Option<String>,
    /// What it means to be within the distance: "it may not come closer without charging".
    pub within: String,
    /// What it means for artillery and skirmishers, when for them it is a ban rather than a
    /// test to take (eRules §20.2.1: a battery or skirmishers may not move closer at all):
    /// their ruling then decides "cannot".
    #[serde(default)]
    pub within_light: Option<String>,
    /// Being within is a test to take, not a fact or a ban (eRules §20.2.1: close-order troops
    /// take a reaction test to come any closer): the ruling then decides "test".
    #[serde(default)]
    pub within_is_test: bool,
    /// What it means to be beyond it.
    pub beyond: String,
    /// The rule is about close-order enemy only (eRules §20.2.1: formed troops), so
    /// skirmishers and artillery never set it off.
    #[serde(default)]
    pub close_order_enemy_only: bool,
}

/// Settings only some rulesets use, each read by the code that needs it. Every one has a
/// default that leaves Black Powder as it is.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Specials {
    /// How command distance is judged.
    #[serde(default)]
    pub command_model: CommandModel,
    /// The command distance rule's name, when not Black Powder's.
    #[serde(default)]
    pub command_rule: Option<String>,
    /// Where ranges are measured from.
    #[serde(default)]
    pub range_from: RangeFrom,
    /// The proximity rule's meaning, when not Black Powder's.
    #[serde(default)]
    pub proximity: Option<ProximityWords>,
    /// The longest a unit can see in the open (Bugles, Bullets and Blades' 800 mm).
    #[serde(default)]
    pub sight_limit: Option<Inches>,
    /// Friends of a charged unit within this of it may answer the charge too (BPT Commander's
    /// counter-initiative, §1.11: "units opposing within 10 cm of a unit under charge").
    #[serde(default)]
    pub responders_within: Option<Inches>,
    /// Splay of a fire arc's edge rays from straight ahead, when not the 45° front quarter
    /// (BPT Commander: 75°, the 150° firing cone).
    #[serde(default)]
    pub front_arc_splay: Option<Degrees>,
    /// How many moves one order may give (Black Powder 3; one move per order or bound elsewhere).
    #[serde(default = "three")]
    pub moves_per_order: u32,
    /// Movement carries over between bounds and `check-move` checks it (eRules §10).
    #[serde(default)]
    pub momentum: bool,
    /// The rays dividing a unit's quarters when a shooter's side is judged, when not Black
    /// Powder's 45° (BPT Commander: the front is the 150° firing cone, the rear 45° either
    /// side of straight behind).
    #[serde(default)]
    pub quarter_rays: Option<crate::quarter::QuarterRays>,
    /// Units see only ahead of their front edge's line (BPT Commander's 180° line-of-sight
    /// arc, §1.4): the nearest enemy for the proximity rule is the nearest one they can see.
    #[serde(default)]
    pub sight_ahead_only: bool,
    /// Round shot strikes every unit in a strip along its line of fire, as wide as the battery,
    /// out to the gun's maximum range (eRules' beaten zone, fn17).
    #[serde(default)]
    pub beaten_zone: bool,
    /// A gun's shot penetrates beyond its target along the line of fire, a third of its
    /// remaining range, and every unit the line touches is rolled for (Bugles, Bullets and
    /// Blades' penetration zones, L439-441).
    #[serde(default)]
    pub penetration: bool,
    /// Brigades move on one order when their units keep together (Black Powder §5.3); rulesets
    /// without such an order set this false and get no brigade rulings.
    #[serde(default = "yes")]
    pub brigade_orders: bool,
    /// Who may not charge whom, where the ruleset's list differs from Black Powder's §7.1.
    #[serde(default)]
    pub charge_limits: ChargeLimits,
    /// A unit picks any visible enemy in range: no nearest-target priority (BPT Commander's
    /// ordered fire, BBB's nominated target).
    #[serde(default)]
    pub free_target_choice: bool,
    /// Stands fire on their own but are shot at as their command group: rear-rank stands hold
    /// their fire, a group's stands are one target, and a target more than one stand deep is
    /// easier to hit (Bugles, Bullets and Blades L351, L355, L379; `shooting::ranks`).
    #[serde(default)]
    pub command_group_targets: bool,
    /// Fire is counted in front-rank figures, each firing into its own cone (eRules §31b,
    /// E-24; `shooting::firing_figures`): the standard frontage of a figure of each kind.
    #[serde(default)]
    pub front_rank_figures: Option<FrontRankFigures>,
    /// Stands lose figures one at a time and fire worse for it: a full stand's figures of each
    /// kind, and how many lost add one to the score needed (Bugles, Bullets and Blades §2.9.2,
    /// L359-383; `shooting::stand_figures`). A scene's `figures` says how many a stand has left.
    #[serde(default)]
    pub stand_figures: Option<StandFigures>,
    /// A unit rolls its attacks per stand times the stands that fire, as its formation allows
    /// (BPT Commander §1.3, §1.9): its arc ruling says how many stands fire and what its
    /// formation adds or takes away.
    #[serde(default)]
    pub attacks_per_stand: bool,
    /// What a unit charged to its front may do with its muskets, in the ruleset's words
    /// (Black Powder's "may answer with closing fire"); empty where the ruleset has no such
    /// step (eRules: the reaction tests decide).
    #[serde(default = "closing_fire_words")]
    pub answer_fire: String,
    /// What becomes of a unit that ends its move inside a friend.
    #[serde(default)]
    pub ending_inside_friends: EndingInsideFriends,
    /// Guns fire from higher ground over infantry only (BPT Commander: "command units and
    /// infantry on foot"); Black Powder's guns over any unit.
    #[serde(default)]
    pub only_infantry_fired_over: bool,
    /// A charge at a target uphill of the charger (on a higher level) is not doubled: the
    /// charger has its move, not its charge distance (BBB L473).
    #[serde(default)]
    pub charges_uphill_undoubled: bool,
    /// Mounted troops do not fire (BBB L351: "mounted … cannot fire", but for some native
    /// types at under half range, which the players say).
    #[serde(default)]
    pub mounted_hold_fire: bool,
    /// Engaged guns may be supported like any unit in contact (BPT Commander §1.11: "a
    /// friendly unit in contact"); Black Powder's artillery cannot be.
    #[serde(default)]
    pub guns_supported: bool,
    /// Only cavalry supports cavalry (BPT Commander §1.11: "only mounted cavalry may support
    /// mounted cavalry").
    #[serde(default)]
    pub horse_supports_horse_only: bool,
    /// Fire down a target's length from its flank doubles its dice (Black Powder §6.9); a
    /// ruleset without such a rule (BPT Commander, BBB, eRules: a flank shot is at most a
    /// modifier) sets this false.
    #[serde(default = "yes")]
    pub enfilade: bool,
}

/// What becomes of a unit that ends its move inside a friend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndingInsideFriends {
    /// The move is not allowed: friends may pass through each other but may not end
    /// interpenetrated (Black Powder §4.2, A37).
    #[default]
    Forbidden,
    /// The unit is disordered (Bugles, Bullets and Blades L251-255: ending a turn mid-passage).
    Disorders,
}

pub(super) fn closing_fire_words() -> String {
    "may answer with closing fire".into()
}

/// Where a ruleset's list of forbidden charges differs from Black Powder's (§7.1). The defaults
/// are Black Powder's.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ChargeLimits {
    /// Skirmishers never charge (BBB, L479-487); Black Powder lets them charge some targets.
    #[serde(default)]
    pub skirmishers_never: bool,
    /// Cavalry may charge a steady square, which is a front like any other (BBB); in Black
    /// Powder it halts short.
    #[serde(default)]
    pub cavalry_into_steady_square: bool,
    /// Foot may not charge mounted troops unless they are disordered (BBB, L481).
    #[serde(default)]
    pub foot_not_into_steady_horse: bool,
    /// Cavalry must charge the enemy cavalry it sees within its charge distance before any
    /// other target, unless a leader rides with the charge (BBB L505, B-22).
    #[serde(default)]
    pub horse_charges_horse_first: bool,
    /// A charge may pass through the charger's own skirmishers, who neither hide the target
    /// nor bar the way (BBB L251: "charges … may pass through friendly skirmishers").
    #[serde(default)]
    pub through_friendly_skirmishers: bool,
}

pub(super) fn yes() -> bool {
    true
}

pub(super) fn three() -> u32 {
    3
}

impl Default for Specials {
    fn default() -> Self {
        Specials {
            command_model: CommandModel::default(),
            command_rule: None,
            range_from: RangeFrom::default(),
            proximity: None,
            sight_limit: None,
            responders_within: None,
            penetration: false,
            front_arc_splay: None,
            moves_per_order: three(),
            momentum: false,
            charge_limits: ChargeLimits::default(),
            free_target_choice: false,
            command_group_targets: false,
            front_rank_figures: None,
            stand_figures: None,
            attacks_per_stand: false,
            answer_fire: closing_fire_words(),
            beaten_zone: false,
            sight_ahead_only: false,
            quarter_rays: None,
            brigade_orders: true,
            ending_inside_friends: EndingInsideFriends::default(),
            only_infantry_fired_over: false,
            charges_uphill_undoubled: false,
            mounted_hold_fire: false,
            guns_supported: false,
            horse_supports_horse_only: false,
            enfilade: true,
        }
    }
}

impl Specials {
    pub(super) fn convert(&mut self, factor: f64) {
        self.sight_limit = self.sight_limit.map(|l| l * factor);
        self.responders_within = self.responders_within.map(|l| l * factor);
        if let Some(figures) = &mut self.front_rank_figures {
            *figures = figures.scaled(factor);
        }
    }
}

/// The standard frontage of one figure of each kind, where fire is counted in figures (eRules
/// §38's table; E-24), and what a gun model counts for (§31b.2: 10 figures).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FrontRankFigures {
    /// A close-order foot figure.
    pub close_order: Inches,
    /// A foot figure in skirmish order.
    pub skirmisher: Inches,
    /// A cavalry figure.
    pub cavalry: Inches,
    /// A gun model.
    pub gun: Inches,
    /// The figures a gun model counts for when it fires canister.
    pub figures_per_gun: u32,
    /// Where the figures left of a unit that has lost some (a scene's `figures`) stand along
    /// its front.
    #[serde(default)]
    pub figures_left: FiguresLeft,
}

/// Where the front-rank figures left of a unit that has fewer figures than its frontage holds
/// stand, each firing from its own place (eRules §38 keeps a unit's figures as a tally; the
/// digest does not say which of the front rank's figures are the ones gone).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FiguresLeft {
    /// Spread evenly along the whole frontage, as a less densely based unit's own figures are
    /// (§38: such a unit counts its figures, not its frontage).
    #[default]
    Spread,
    /// Closed on the centre a standard frontage apart: the gaps are at the ends of the line.
    Centre,
}

/// The figures of a full stand of each kind, where stands lose figures one at a time and fire
/// worse for each they lose (Bugles, Bullets and Blades: 6 foot, 3 mounted, a gun's crew of 4,
/// L88-95, L423; §2.9.2: +1 to the score needed for each 2 figures lost, each crew figure).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct StandFigures {
    /// A foot stand.
    pub infantry: u32,
    /// A mounted stand.
    pub cavalry: u32,
    /// A gun's crew; a weapon with a `crew` of its own (a machine gun's 3) has that instead.
    pub artillery: u32,
    /// Figures a foot or mounted stand loses for each +1 to the score needed.
    pub figures_per_point: u32,
    /// Crew figures a gun loses for each +1 to the score needed.
    pub crew_per_point: u32,
}

impl StandFigures {
    /// The figures of a full stand of this kind; `crew` is its weapon's own crew, if any.
    pub fn full(&self, kind: UnitKind, crew: Option<u32>) -> u32 {
        match kind {
            UnitKind::Infantry => self.infantry,
            UnitKind::Cavalry => self.cavalry,
            UnitKind::Artillery => crew.unwrap_or(self.artillery),
        }
    }

    /// Figures a stand of this kind loses for each +1 to the score needed (0: none).
    pub fn per_point(&self, kind: UnitKind) -> u32 {
        match kind {
            UnitKind::Artillery => self.crew_per_point,
            _ => self.figures_per_point,
        }
    }

    /// What `lost` figures add to the score needed to hit; nothing where the profile sets no
    /// figures per point.
    pub fn score_penalty(&self, kind: UnitKind, lost: u32) -> u32 {
        lost.checked_div(self.per_point(kind)).unwrap_or(0)
    }
}

impl FrontRankFigures {
    /// Every frontage multiplied by `factor`.
    pub(super) fn scaled(self, factor: f64) -> FrontRankFigures {
        FrontRankFigures {
            close_order: self.close_order * factor,
            skirmisher: self.skirmisher * factor,
            cavalry: self.cavalry * factor,
            gun: self.gun * factor,
            ..self
        }
    }
}

impl Profile {
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

    /// A full stand's figures and what their loss costs, where stands lose figures one at a
    /// time and fire worse for it.
    pub fn stand_figures(&self) -> Option<&StandFigures> {
        self.extras.stand_figures.as_ref()
    }

    /// Whether the ruleset counts a unit's figures, so that a scene may say how many it has
    /// left.
    pub fn counts_figures(&self) -> bool {
        self.extras.front_rank_figures.is_some() || self.extras.stand_figures.is_some()
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
}
