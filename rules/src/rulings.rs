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
use crate::geometry::ConvexRegion;
use crate::measure::{InArc, PairMeasurement, UnitSummary, in_arc, measure_pair_in_arc, summarize};
use crate::profile::{Profile, RulesetId};
use crate::ruling::Ruling;
use crate::scene::Scene;
use crate::shooting::{ShootingReport, fire_arc, target_priority};
use crate::situation::{Situation, aabb_gap};
use crate::support::{SupportStatus, supports};
use crate::units::Inches;
use parry2d_f64::bounding_volume::BoundingVolume;

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
    /// Fraction of `to` that `from`'s leader can see, when the shooting rules looked at it (a
    /// target in the arc and range that could change whom `from` must shoot); `null` otherwise.
    pub visible_fraction: Option<f64>,
    /// A charge by `from` at `to`, when within reach of a move.
    pub charge: Option<ChargeAssessment>,
    /// `to`'s index in the scene.
    #[serde(skip)]
    pub to_index: usize,
    /// The unrounded gap between the two.
    #[serde(skip)]
    pub gap: Inches,
}

/// How far from `from` a rule can reach: its range, its charge, the 12" rule.
fn reach(situation: &Situation, index: usize) -> Inches {
    let profile = situation.profile;
    let view = &situation.units[index];
    let range = view.range().unwrap_or(Inches::ZERO);
    let charge = view.move_allowance;
    range.max(charge).max(profile.proximity()) + profile.tolerance().distance
}

/// Every ruling for a scene, with its ruleset's built-in profile at the scene's distance scale.
pub fn rulings(scene: &Scene) -> Rulings {
    rulings_with(scene, &scene.profile())
}

/// Every ruling for a scene with a given profile. Units are ruled on independently, so large
/// tables are split across the machine's cores.
pub fn rulings_with(scene: &Scene, profile: &Profile) -> Rulings {
    let situation = Situation::new(scene, profile);
    let supports = supports(&situation);
    let count = situation.units.len();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(count / PER_THREAD)
        .max(1);
    let chunk = count.div_ceil(threads).max(1);
    let per_unit: Vec<(UnitRulings, Vec<PairRulings>)> = if threads == 1 {
        (0..count)
            .map(|index| unit_rulings(&situation, &supports, index))
            .collect()
    } else {
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..count)
                .step_by(chunk)
                .map(|start| {
                    let (situation, supports) = (&situation, &supports);
                    scope.spawn(move || {
                        (start..(start + chunk).min(count))
                            .map(|index| unit_rulings(situation, supports, index))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            // A worker only panics on a bug; rule on its units here rather than lose them.
            workers
                .into_iter()
                .enumerate()
                .flat_map(|(i, worker)| {
                    worker.join().unwrap_or_else(|_| {
                        let start = i * chunk;
                        (start..(start + chunk).min(count))
                            .map(|index| unit_rulings(&situation, &supports, index))
                            .collect()
                    })
                })
                .collect()
        })
    };
    let (units, pairs): (Vec<UnitRulings>, Vec<Vec<PairRulings>>) = per_unit.into_iter().unzip();
    let mut general = cohesion_rulings(&situation);
    general.extend(contact_rulings(&situation));
    Rulings {
        ruleset: profile.id(),
        units,
        pairs: pairs.into_iter().flatten().collect(),
        general,
    }
}

/// Below this many units per thread, one thread is faster than starting another.
const PER_THREAD: usize = 40;

type Supports = (Vec<(usize, SupportStatus)>, Vec<Ruling>);

/// Whether any rule can use the pair: close enough to charge or for the 12" rule, or in the
/// fire arc and range.
fn worth_measuring(
    situation: &Situation,
    from: usize,
    to: usize,
    close: Inches,
    reach: Inches,
) -> bool {
    let (a, b) = (&situation.units[from], &situation.units[to]);
    let gap = aabb_gap(&a.aabb, &b.aabb);
    if gap > reach {
        return false;
    }
    if gap <= close {
        return true;
    }
    match fire_arc(a.unit, situation.profile) {
        ConvexRegion::Everywhere => true,
        ConvexRegion::Wedge(wedge) => {
            let corners: Vec<_> = b
                .unit
                .footprint
                .stands()
                .iter()
                .flat_map(|s| s.corners())
                .collect();
            !wedge.surely_misses(&corners)
        }
    }
}

fn unit_rulings(
    situation: &Situation,
    supports: &Supports,
    index: usize,
) -> (UnitRulings, Vec<PairRulings>) {
    let (support_statuses, support_rulings) = supports;
    let scene = situation.scene;
    let profile = situation.profile;
    let view = &situation.units[index];
    let mut shooting = target_priority(situation, index);
    let mut rulings = std::mem::take(&mut shooting.rulings);
    let command = command_distance(situation, index).map(|(status, ruling)| {
        rulings.push(ruling);
        status
    });
    let unit_reach = reach(situation, index);
    let close = view.move_allowance.max(profile.proximity()) + profile.tolerance().distance;
    let mut pairs = Vec::new();
    let side = view.side;
    for enemy in situation
        .units_in(view.aabb.loosened(unit_reach.0))
        .filter(|v| v.side != side)
    {
        if !worth_measuring(situation, index, enemy.index, close, unit_reach) {
            continue;
        }
        let pair = pair_rulings(situation, index, enemy.index, &shooting);
        if let Some(charge) = &pair.charge {
            rulings.push(charge_ruling(situation, index, enemy.index, charge));
        }
        pairs.push(pair);
    }
    // Every enemy within `close` is among the pairs, so the nearest one is too when it is that
    // close; otherwise search the table.
    let nearest_pair = pairs
        .iter()
        .map(|p| (p.to_index, p.gap))
        .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
        .filter(|(_, gap)| *gap <= close);
    let nearest = nearest_pair.or_else(|| situation.nearest_enemy(index));
    let proximity = enemy_within(situation, index, nearest).map(|(status, ruling)| {
        rulings.push(ruling);
        status
    });
    rulings.extend(
        support_rulings
            .iter()
            .filter(|r| r.unit == view.unit.id)
            .cloned(),
    );
    let unit = UnitRulings {
        summary: summarize(
            view.unit,
            profile,
            nearest.map(|(e, gap)| (&scene.units[e], gap)),
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
    };
    (unit, pairs)
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
    let arc = match shooting.screened.iter().find(|c| c.index == to) {
        Some(candidate) => InArc {
            fraction: candidate.arc_fraction,
            range: Some(candidate.bound()),
        },
        None => in_arc(unit, enemy, profile),
    };
    let gap = situation.gap(from, to);
    let measurement =
        measure_pair_in_arc(unit, enemy, profile, situation.units[from].weapon, arc, gap);
    let visible_fraction = shooting
        .targets
        .iter()
        .find(|t| t.index == to)
        .map(|t| t.visible_fraction);
    let allowance = situation.units[from].move_allowance;
    // The shooting assessment already looked from the same leader: a target it saw needs no
    // second look for the charge.
    let seen = visible_fraction.is_some_and(|f| f > 0.0);
    let charge = (measurement.range <= allowance + profile.tolerance().distance)
        .then(|| assess_charge(situation, from, to, seen));
    PairRulings {
        measurement,
        visible_fraction: visible_fraction.map(|f| (f * 1000.0).round() / 1000.0),
        charge,
        to_index: to,
        gap,
    }
}
