//! Every ruling for a scene, grouped by unit: the `vedette rulings` report.
//!
//! Pairs are reported only where a rule can reach — within the longest of the shooter's range,
//! its charge move and the 12" proximity distance — so a 200-unit table is not 40,000 lines of
//! "too far".

mod wording;

use std::sync::atomic::{AtomicUsize, Ordering};
pub use wording::{AS_IN_BLACK_POWDER, cite, in_ruleset_terms};

use serde::Serialize;

use crate::charge::{ChargeAssessment, assess_charge, charge_ruling, contact_rulings};
use crate::command::{
    CommandDistance, EnemyWithin, cohesion_rulings, command_distance, enemy_within,
};
use crate::geometry::ConvexRegion;
use crate::measure::{InArc, PairMeasurement, UnitSummary, in_arc, measure_pair_in_arc, summarize};
use crate::profile::{Profile, RulesetId};
use crate::retire::{Withdrawal, retire};
use crate::ruling::Ruling;
use crate::scene::Scene;
use crate::shooting::{ShootingReport, beaten_zone, penetration_line, target_priority};
use crate::situation::{Situation, aabb_gap};
use crate::support::{SupportStatus, supports};
use crate::units::{Inches, LengthScale, written_in};
use parry2d_f64::bounding_volume::BoundingVolume;

/// All rulings of a scene. Serialized, every length and table position is in the ruleset's
/// unit, named once at the top (`length_unit`).
#[derive(Clone, Debug)]
pub struct Rulings {
    /// The ruleset.
    pub ruleset: RulesetId,
    /// Its unit, which the serialized report speaks.
    pub lengths: LengthScale,
    /// Per unit.
    pub units: Vec<UnitRulings>,
    /// Per ordered pair of enemies within reach of a rule.
    pub pairs: Vec<PairRulings>,
    /// Rulings about the table as a whole: brigades, contacts.
    pub general: Vec<Ruling>,
}

impl Serialize for Rulings {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        written_in(self.lengths, || {
            let mut report = serializer.serialize_struct("Rulings", 5)?;
            report.serialize_field("ruleset", &self.ruleset)?;
            report.serialize_field("length_unit", &self.lengths.unit)?;
            report.serialize_field("units", &self.units)?;
            report.serialize_field("pairs", &self.pairs)?;
            report.serialize_field("general", &self.general)?;
            report.end()
        })
    }
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
    /// Where it goes if it must retire, if engaged.
    pub retire: Option<Withdrawal>,
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
    let charge = view.charge_allowance;
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
    let general_rulings = || {
        let mut general = cohesion_rulings(&situation);
        general.extend(contact_rulings(&situation));
        general
    };
    let (per_unit, general) = if threads == 1 {
        let per_unit = (0..count)
            .map(|index| unit_rulings(&situation, &supports, index))
            .collect();
        (per_unit, general_rulings())
    } else {
        share_out(&situation, &supports, threads, general_rulings)
    };
    let (mut units, pairs): (Vec<UnitRulings>, Vec<Vec<PairRulings>>) =
        per_unit.into_iter().unzip();
    let mut general = general;
    for (unit, scene_unit) in units.iter_mut().zip(&scene.units) {
        crate::reconstructed::say_reconstructed(&mut unit.rulings, scene_unit, profile);
        in_ruleset_terms(&mut unit.rulings, profile);
    }
    in_ruleset_terms(&mut general, profile);
    Rulings {
        ruleset: profile.id(),
        lengths: profile.length_scale(),
        units,
        pairs: pairs.into_iter().flatten().collect(),
        general,
    }
}

/// The beaten zone of a battery's round shot at the target it must shoot (or, if the closest
/// is not clear, the first it may), for rulesets whose round shot strikes a strip.
fn round_shot(situation: &Situation, index: usize, shooting: &ShootingReport) -> Option<Ruling> {
    if !situation.profile.specials().beaten_zone
        || situation.units[index].unit.kind != crate::scene::UnitKind::Artillery
    {
        return None;
    }
    let aimed = shooting
        .must_target
        .first()
        .or(shooting.may_target.first())?;
    let target = shooting.targets.iter().find(|t| &t.id == aimed)?;
    beaten_zone(situation, index, target)
}

/// The penetration line of a gun's shot at each target it may shoot, for rulesets whose shot
/// bounces on through its target.
fn penetration(situation: &Situation, index: usize, shooting: &ShootingReport) -> Vec<Ruling> {
    if !situation.profile.specials().penetration
        || situation.units[index].unit.kind != crate::scene::UnitKind::Artillery
    {
        return Vec::new();
    }
    shooting
        .targets
        .iter()
        .filter(|t| shooting.must_target.contains(&t.id) || shooting.may_target.contains(&t.id))
        .filter_map(|t| penetration_line(situation, index, t))
        .collect()
}

/// Below this many units per thread, one thread is faster than starting another.
const PER_THREAD: usize = 40;

/// Units handed to a thread at a time: small enough that no thread is left with the costly
/// end of the table while the others wait, large enough that taking them is cheap.
const BLOCK: usize = 4;

type PerUnit = (UnitRulings, Vec<PairRulings>);

/// Rule on every unit with `threads` threads (this one included), each taking the next block
/// of units when it is free, since units cost very different amounts (a shooter with many
/// targets in range against a gun with none). This thread first works out the rulings about
/// the table as a whole (`general`), while the others start on the units.
fn share_out(
    situation: &Situation,
    supports: &Supports,
    threads: usize,
    general: impl FnOnce() -> Vec<Ruling>,
) -> (Vec<PerUnit>, Vec<Ruling>) {
    let count = situation.units.len();
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let start = next.fetch_add(BLOCK, Ordering::Relaxed);
            if start >= count {
                break done;
            }
            for index in start..(start + BLOCK).min(count) {
                done.push((index, unit_rulings(situation, supports, index)));
            }
        }
    };
    let (general, finished) = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let general = general();
        let mut finished = work();
        for helper in helpers {
            // A helper only panics on a bug; its units are ruled on again below.
            finished.extend(helper.join().unwrap_or_default());
        }
        (general, finished)
    });
    let mut slots: Vec<Option<PerUnit>> = (0..count).map(|_| None).collect();
    for (index, done) in finished {
        slots[index] = Some(done);
    }
    let per_unit = slots
        .into_iter()
        .enumerate()
        .map(|(index, done)| done.unwrap_or_else(|| unit_rulings(situation, supports, index)))
        .collect();
    (per_unit, general)
}

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
    match &a.arc {
        ConvexRegion::Everywhere => true,
        ConvexRegion::Wedge(wedge) => !wedge.surely_misses(&b.corners),
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
    rulings.extend(round_shot(situation, index, &shooting));
    rulings.extend(penetration(situation, index, &shooting));
    rulings.extend(crate::triggers::trigger_rulings(situation, index));
    let command = command_distance(situation, index).map(|(status, ruling)| {
        rulings.push(ruling);
        status
    });
    let unit_reach = reach(situation, index);
    let close = view.charge_allowance.max(profile.proximity()) + profile.tolerance().distance;
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
    let close_order_only = profile
        .specials()
        .proximity
        .as_ref()
        .is_some_and(|words| words.close_order_enemy_only);
    let mut nearest = if close_order_only {
        crate::command::nearest_close_order(situation, index)
    } else {
        nearest_pair.or_else(|| situation.nearest_enemy(index))
    };
    if profile.specials().sight_ahead_only {
        let (seen, unseen) = crate::command::nearest_seen_ahead(situation, index, nearest);
        rulings.extend(unseen);
        nearest = seen;
    }
    let proximity = enemy_within(situation, index, nearest).map(|(status, ruling)| {
        rulings.push(ruling);
        status
    });
    rulings.extend(crate::command::held_by_cavalry(situation, index));
    rulings.extend(
        support_rulings
            .iter()
            .filter(|r| r.unit == view.unit.id)
            .cloned(),
    );
    let retire = view.engaged.then(|| {
        let (withdrawal, ruling) = retire(situation, index);
        rulings.push(ruling);
        withdrawal
    });
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
        retire,
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
        None => in_arc(unit, enemy, &situation.units[from].arc, profile),
    };
    let gap = situation.gap(from, to);
    let measurement =
        measure_pair_in_arc(unit, enemy, profile, situation.units[from].weapon, arc, gap);
    let visible_fraction = shooting
        .targets
        .iter()
        .find(|t| t.index == to)
        .map(|t| t.visible_fraction);
    let allowance = situation.units[from].charge_allowance;
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
