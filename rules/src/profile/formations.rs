//! The `[kinds]`, `[formations]` and `[arcs]` tables: how far each kind of unit moves, which
//! formations it may take, and what each formation may do — shoot, and where; move, and how often.

use serde::{Deserialize, Serialize};

use super::{Profile, WeaponRef};
use crate::quarter::QuarterScheme;
use crate::units::{Degrees, Inches};
use crate::vocabulary::{Formation, UnitKind};

/// What of a square or building fires on its own (digest A3; BPT Commander §1.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FiresBy {
    /// Each face of the unit's outline, from its midpoint into the quarter before it (A3).
    #[default]
    Face,
    /// Each stand facing out, from its own front edge into its own front arc: the ruleset's
    /// cone (BPT Commander: "each stand fires only in the direction it faces"). A unit given as
    /// one rectangle fires so from each of its four faces.
    Stand,
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

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct KindRules {
    #[serde(rename = "move")]
    move_allowance: Inches,
    /// How far a charge of this kind reaches, when the ruleset sets it apart from the move
    /// (eRules' charge column, BPT's charge distance, BBB's doubled dice).
    #[serde(default)]
    charge: Option<Inches>,
    default_formation: Formation,
    formations: Vec<Formation>,
}

impl KindRules {
    /// Multiply its lengths by `factor` (the profile's unit → inches).
    pub(super) fn convert(&mut self, factor: f64) {
        self.move_allowance = self.move_allowance * factor;
        self.charge = self.charge.map(|c| c * factor);
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct FormationRules {
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
    dice_lost: Option<u32>,
    #[serde(default)]
    fires_by: Option<FiresBy>,
    #[serde(default)]
    charges: Option<bool>,
    #[serde(default)]
    moves_per_turn: Option<u32>,
    #[serde(default)]
    halts_near_cavalry: Option<Inches>,
    #[serde(default)]
    towards_home_only: Option<bool>,
    #[serde(default)]
    still_when_disordered: Option<bool>,
    #[serde(default, rename = "move")]
    move_allowance: Option<Inches>,
}

impl FormationRules {
    /// Multiply its lengths by `factor` (the profile's unit → inches).
    pub(super) fn convert(&mut self, factor: f64) {
        self.move_allowance = self.move_allowance.map(|m| m * factor);
        self.halts_near_cavalry = self.halts_near_cavalry.map(|d| d * factor);
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct Arcs {
    cone_half_angle: Degrees,
}

impl Profile {
    /// The half-angle of an artillery fire cone.
    pub fn cone_half_angle(&self) -> Degrees {
        self.arcs.cone_half_angle
    }

    /// A kind's own charge distance, scaled, where the ruleset gives one (otherwise a charge
    /// reaches one move).
    pub fn charge_distance(&self, kind: UnitKind) -> Option<Inches> {
        self.kinds
            .get(&kind)
            .and_then(|k| k.charge)
            .map(|c| self.scaled(c))
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

    /// Whether a disordered unit in the formation may not move at all (BBB L279: "disordered
    /// squares cannot move").
    pub fn still_when_disordered(&self, formation: Formation) -> bool {
        self.formation_rules(formation)
            .still_when_disordered
            .unwrap_or(false)
    }

    /// Whether the formation's shooting may enfilade a target (when it shoots at all).
    pub fn formation_enfilades(&self, formation: Formation) -> bool {
        self.specials().enfilade
            && self.formation_shoots(formation)
            && self.formation_rules(formation).enfilades.unwrap_or(true)
    }

    /// How many of a unit's stands fire in the formation, when not all of them (BPT Commander
    /// §1.3: one from a march column, the two front stands of an attack column).
    pub fn formation_firing_stands(&self, formation: Formation) -> Option<u32> {
        self.formation_rules(formation).firing_stands
    }

    /// Attack dice a unit in the formation loses when it fires (BPT Commander §1.9: a firer in
    /// extended line −1 die); 0 when the formation costs nothing.
    pub fn formation_dice_lost(&self, formation: Formation) -> u32 {
        self.formation_rules(formation).dice_lost.unwrap_or(0)
    }

    /// What of a unit in the formation fires on its own, when it has four fronts.
    pub fn formation_fires_by(&self, formation: Formation) -> FiresBy {
        self.formation_rules(formation).fires_by.unwrap_or_default()
    }

    /// Whether a unit in the formation may charge at all (BPT Commander §1.11: only from line
    /// or attack column, so not from extended line).
    pub fn formation_charges(&self, formation: Formation) -> bool {
        self.formation_rules(formation).charges.unwrap_or(true)
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
