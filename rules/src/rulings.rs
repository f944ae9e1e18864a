//! Every ruling for a scene, grouped by unit: the `vedette rulings` report.
//!
//! Pairs are reported only where a rule can reach — within the longest of the shooter's range,
//! its charge move and the 12" proximity distance — so a 200-unit table is not 40,000 lines of
//! "too far".

use serde::Serialize;

use crate::charge::{ChargeAssessment, assess_charge, charge_ruling, contact_rulings};
use crate::command::{
    CommandDistance, EnemyWithin, cohesion_rulings, command_distance, enemy_within,
};
use crate::measure::{PairMeasurement, UnitSummary, measure_pair, summarize};
use crate::profile::{Profile, RulesetId};
use crate::ruling::Ruling;
use crate::scene::Scene;
use crate::shooting::{ShootingReport, target_priority};
use crate::situation::{Situation, aabb_gap};
use crate::support::{SupportStatus, supports};
use crate::units::Inches;

/// All rulings of a scene.
#[derive(Clone, Debug, Serialize)]
pub struct Rulings {
    /// The ruleset.
    pub ruleset: RulesetId,
    /// Per unit.
    pub units: Vec<UnitRulings>,
    /// Per ordered pair of enemies within reach of a rule.
    pub pairs: Vec<PairRulings>,
    /// Rulings about the table as a whole: brigades, contacts.
    pub general: Vec<Ruling>,
}

/// Everything about one unit.
#[derive(Clone, Debug, Serialize)]
pub struct UnitRulings {
    /// What `vedette measure` says of it.
    #[serde(flatten)]
    pub summary: UnitSummary,
    /// In hand-to-hand combat.
    pub engaged: bool,
    /// Who it must and may shoot.
    pub shooting: ShootingReport,
    /// Its closest enemy and the 12" rule.
    pub proximity: Option<EnemyWithin>,
    /// Its commander's distance and penalty.
    pub command: Option<CommandDistance>,
    /// Its supports, if engaged.
    pub supports: Option<SupportStatus>,
    /// Every ruling about it, for people.
    pub rulings: Vec<Ruling>,
}

/// One ordered pair of enemies.
#[derive(Clone, Debug, Serialize)]
pub struct PairRulings {
    /// What `vedette measure` says of it.
    #[serde(flatten)]
    pub measurement: PairMeasurement,
    /// Fraction of `to` that `from`'s leader can see (when it was looked at: a target in range
    /// and arc, or a charge within reach).
    pub visible_fraction: Option<f64>,
    /// A charge by `from` at `to`, when within reach of a move.
    pub charge: Option<ChargeAssessment>,
}

/// How far from `from` a rule can reach: its range, its charge, the 12" rule.
fn reach(situation: &Situation, index: usize) -> Inches {
    let profile = situation.profile;
    let unit = &situation.scene.units[index];
    let range = profile
        .unit_weapon(unit)
        .and_then(|w| w.range())
        .unwrap_or(Inches::ZERO);
    let charge = profile.move_allowance(unit.kind, unit.formation, None);
    range.max(charge).max(profile.proximity()) + profile.tolerance().distance
}

/// Every ruling for a scene, with its ruleset's built-in profile.
pub fn rulings(scene: &Scene) -> Rulings {
    rulings_with(scene, Profile::builtin(scene.ruleset))
}

/// Every ruling for a scene with a given profile.
pub fn rulings_with(scene: &Scene, profile: &Profile) -> Rulings {
    let situation = Situation::new(scene, profile);
    let (support_statuses, support_rulings) = supports(&situation);
    let mut pairs = Vec::new();
    let mut units = Vec::new();
    for view in &situation.units {
        let index = view.index;
        let shooting = target_priority(&situation, index);
        let mut rulings = shooting.rulings.clone();
        let proximity = enemy_within(&situation, index).map(|(status, ruling)| {
            rulings.push(ruling);
            status
        });
        let command = command_distance(&situation, index).map(|(status, ruling)| {
            rulings.push(ruling);
            status
        });
        let unit_reach = reach(&situation, index);
        for enemy in situation.enemies_of(index) {
            if aabb_gap(&view.aabb, &enemy.aabb) > unit_reach {
                continue;
            }
            let pair = pair_rulings(&situation, index, enemy.index, &shooting);
            if let Some(charge) = &pair.charge {
                rulings.push(charge_ruling(&situation, index, enemy.index, charge));
            }
            pairs.push(pair);
        }
        rulings.extend(
            support_rulings
                .iter()
                .filter(|r| r.unit == view.unit.id)
                .cloned(),
        );
        units.push(UnitRulings {
            summary: summarize(
                view.unit,
                profile,
                situation
                    .nearest_enemy(index)
                    .map(|(e, gap)| (&scene.units[e], gap)),
            ),
            engaged: view.engaged,
            supports: support_statuses
                .iter()
                .find(|(u, _)| *u == index)
                .map(|(_, s)| s.clone()),
            shooting,
            proximity,
            command,
            rulings,
        });
    }
    let mut general = cohesion_rulings(&situation);
    general.extend(contact_rulings(&situation));
    Rulings {
        ruleset: profile.id(),
        units,
        pairs,
        general,
    }
}

fn pair_rulings(
    situation: &Situation,
    from: usize,
    to: usize,
    shooting: &ShootingReport,
) -> PairRulings {
    let scene = situation.scene;
    let profile = situation.profile;
    let (unit, enemy) = (&scene.units[from], &scene.units[to]);
    let measurement = measure_pair(unit, enemy, profile);
    let assessed = shooting
        .targets
        .iter()
        .find(|t| t.id == enemy.id)
        .map(|t| t.visible_fraction);
    let allowance = profile.move_allowance(unit.kind, unit.formation, None);
    let charge = (measurement.range <= allowance + profile.tolerance().distance)
        .then(|| assess_charge(situation, from, to));
    let visible_fraction = assessed.or_else(|| charge.as_ref().map(|c| c.visible_fraction));
    PairRulings {
        measurement,
        visible_fraction: visible_fraction.map(|f| (f * 1000.0).round() / 1000.0),
        charge,
    }
}
