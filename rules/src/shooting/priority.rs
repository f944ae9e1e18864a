//! Target priority (digest §6.4, A12): shoot the closest eligible enemy; a closest enemy that
//! is not a clear target may be passed over for the closest clear one; guns with a target within
//! half their range must shoot the closest, otherwise they choose.

use parry2d_f64::bounding_volume::BoundingVolume;
use serde::Serialize;

use super::firing_figures::{FiringFigures, firing_figures, what_fires};
use super::stand_figures::stand_losses;
use super::{
    Assessment, Candidate, FiringFace, Ineligible, NotClear, RangeBand, assess, firing_faces,
    ranks, reach_outline, screen,
};
use crate::profile::FiresBy;
use crate::profile::GunsPassNotClear;
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::{Unit, UnitKind};
use crate::situation::Situation;
use crate::text::concat;
use crate::units::Inches;

const PICK_A_TARGET: RuleRef = RuleRef::read_as("Pick a Target (§6.4)", "A12");
const NOT_CLEAR: RuleRef = RuleRef::book("Units that are Not Clear Targets (§6.4)");
const TIES: RuleRef = RuleRef::read_as("Pick a Target (§6.4)", "A6");
const ARTILLERY: RuleRef = RuleRef::read_as("Artillery target priority (§6.4, §6.12)", "A12");

/// Who a unit must and may shoot at, and why the rest are out (the `shooting` object of
/// `vedette rulings --json`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ShootingReport {
    /// Whether it may shoot this turn at all.
    pub can_shoot: bool,
    /// The target(s) the priority rule points at: the closest (ties: the player picks one).
    pub must_target: Vec<String>,
    /// Targets it may pick instead (a clear target past a not-clear closest one, or any target
    /// for guns with nothing within half range).
    pub may_target: Vec<String>,
    /// Targets it may shoot only under one side of a borderline measurement (a gun whose
    /// closest target is within tolerance of half its range): players decide.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub borderline_target: Vec<String>,
    /// Enemies within weapon range that cannot be shot, with the reason.
    pub ineligible: Vec<Ineligible>,
    /// Every eligible target, closest first.
    pub targets: Vec<Assessment>,
    /// Every enemy partly in the arc and within range, as screened (for reuse by callers).
    #[serde(skip)]
    pub screened: Vec<Candidate>,
    /// The rulings, for people.
    #[serde(skip)]
    pub rulings: Vec<Ruling>,
}

const WHEN_TO_SHOOT: RuleRef = RuleRef::book("When to Shoot (§6.1)");

/// Why the unit cannot shoot at all, if it cannot, and the rule that says so.
fn cannot_shoot(situation: &Situation, shooter: usize) -> Option<(String, RuleRef)> {
    let unit = &situation.scene.units[shooter];
    let profile = situation.profile;
    let when = |reason: String| Some((reason, WHEN_TO_SHOOT));
    if situation.units[shooter].range().is_none() {
        return when("has no ranged weapon".to_owned());
    }
    if !profile.formation_shoots(unit.formation) {
        return when(format!(
            "cannot shoot in {} formation",
            unit.formation.as_str()
        ));
    }
    if situation.units[shooter].engaged {
        return when("is engaged in hand-to-hand combat".to_owned());
    }
    if unit.kind == UnitKind::Cavalry && profile.specials().mounted_hold_fire {
        return when(
            "is mounted, and mounted troops cannot fire (some native horse may, under half range: players decide)"
                .to_owned(),
        );
    }
    if profile.specials().command_group_targets
        && let Some(front) = ranks::stand_in_front(situation, shooter)
    {
        let reason = format!(
            "stands in a rear rank, behind {}: only front-rank stands fire",
            situation.scene.units[front].name
        );
        return Some((reason, ranks::FRONT_RANK));
    }
    if unit.kind == UnitKind::Artillery {
        let at = unit.footprint.leader();
        if let Some(piece) = situation
            .terrain
            .pieces()
            .iter()
            .find(|p| p.rules.guns_silent && p.contains(&at))
        {
            return when(format!(
                "stands in {}, ground guns may not fire from",
                piece.id
            ));
        }
    }
    None
}

fn max_range(situation: &Situation, unit: usize) -> Inches {
    situation.units[unit].range().unwrap_or(Inches::ZERO)
}

/// The range beyond which no further target can change the choice, once `targets` (sorted)
/// decide it: past the closest (and its ties) if it is clear or the unit may not pass it over,
/// else past the closest clear one it may pass over to. A gun whose closest target is beyond
/// half its range, or within tolerance of it, may (or may perhaps) choose freely, so for it
/// every target counts.
fn decided_beyond(
    targets: &[Assessment],
    artillery: bool,
    pass: PassOver,
    max: Inches,
    tie: Inches,
) -> Option<Inches> {
    let half = max / 2.0;
    let first = targets.first()?;
    if artillery && (first.range > half || near(first.range, half, tie)) {
        return None;
    }
    let pool: Vec<&Assessment> = targets
        .iter()
        .filter(|t| !artillery || t.range <= half)
        .collect();
    let closest = closest_with_ties(&pool, tie);
    if pass == PassOver::Never || closest.iter().any(|t| t.is_clear()) {
        return Some(first.range + tie);
    }
    let clear = match pass {
        PassOver::WithinHalfRange => pool.into_iter().find(|t| t.is_clear()),
        _ => targets.iter().find(|t| t.is_clear()),
    };
    clear.map(|clear| clear.range + tie)
}

/// Whether `range` is within tolerance of `limit`.
fn near(range: Inches, limit: Inches, tolerance: Inches) -> bool {
    (range - limit).abs() <= tolerance
}

/// Where a unit may look for a clear target past a not-clear nearest one (§6.4): infantry
/// anywhere in range; guns as the profile reads §6.12 (`guns-pass-not-clear`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PassOver {
    /// To the closest clear target in range.
    Anywhere,
    /// To the closest clear target within half the gun's range (A12).
    WithinHalfRange,
    /// Not at all: the closest is the target.
    Never,
}

fn pass_over(situation: &Situation, unit: &Unit) -> PassOver {
    if unit.kind != UnitKind::Artillery {
        return PassOver::Anywhere;
    }
    match situation.profile.readings().guns_pass_not_clear {
        GunsPassNotClear::Book => PassOver::Anywhere,
        GunsPassNotClear::WithinHalfRange => PassOver::WithinHalfRange,
        GunsPassNotClear::Never => PassOver::Never,
    }
}

/// The words that say which reading of §6.12 decided a gun's ruling, for rulings it decided.
fn gun_reading_note(situation: &Situation, unit: &Unit) -> String {
    if unit.kind != UnitKind::Artillery {
        return String::new();
    }
    let reading = situation.profile.readings().guns_pass_not_clear;
    let meaning = match reading {
        GunsPassNotClear::Book => {
            "a gun picks its target as infantry does, and the book sets no half-range limit on passing over"
        }
        GunsPassNotClear::WithinHalfRange => {
            "a gun passes over a not-clear target only for a clear one within half its range"
        }
        GunsPassNotClear::Never => "a gun never passes over the closest target",
    };
    format!(
        " Reading guns-pass-not-clear = \"{}\": {meaning}.",
        reading.as_str()
    )
}

/// The closest of `targets` (sorted by range) and every target tied with it (A6).
fn closest_with_ties<'t>(targets: &[&'t Assessment], tie: Inches) -> Vec<&'t Assessment> {
    let Some(first) = targets.first() else {
        return Vec::new();
    };
    targets
        .iter()
        .copied()
        .filter(|t| t.range - first.range <= tie)
        .collect()
}

/// The priority rule a unit picks its target by: guns have their own (eRules §19.3 is not its
/// infantry's §16.1).
fn pick_rule(unit: &Unit) -> RuleRef {
    if unit.kind == UnitKind::Artillery {
        ARTILLERY
    } else {
        PICK_A_TARGET
    }
}

/// Apply the priority rule to `shooter`.
pub fn target_priority(situation: &Situation, shooter: usize) -> ShootingReport {
    let unit = &situation.scene.units[shooter];
    let profile = situation.profile;
    if let Some((reason, rule)) = cannot_shoot(situation, shooter) {
        let ruling = Ruling {
            topic: Topic::Shooting,
            unit: unit.id.clone(),
            other: None,
            decision: Decision::Cannot,
            rule,
            figures: Vec::new(),
            explanation: format!("{} {reason}.", unit.name),
            shapes: Vec::new(),
        };
        return ShootingReport {
            rulings: vec![ruling],
            ..ShootingReport::default()
        };
    }
    let max = max_range(situation, shooter);
    let faces = firing_faces(unit, profile);
    if let [face] = faces.as_slice() {
        let (mut report, ineligible) = from_face(situation, shooter, face, max);
        report.rulings.extend(
            ineligible
                .iter()
                .map(|i| ineligible_ruling(situation, unit, i)),
        );
        report
            .rulings
            .insert(0, arc_ruling(situation, unit, face, max, 1));
        report.ineligible = ineligible;
        return report;
    }
    // A square or a building: each face shoots on its own, from its own midpoint (A3).
    let mut report = ShootingReport {
        can_shoot: true,
        ..ShootingReport::default()
    };
    let mut ineligible: Vec<Ineligible> = Vec::new();
    for face in &faces {
        let (part, out) = from_face(situation, shooter, face, max);
        report
            .rulings
            .push(arc_ruling(situation, unit, face, max, faces.len()));
        report.rulings.extend(part.rulings);
        for id in part.must_target {
            if !report.must_target.contains(&id) {
                report.must_target.push(id);
            }
        }
        for id in part.may_target {
            if !report.may_target.contains(&id) {
                report.may_target.push(id);
            }
        }
        for target in part.targets {
            match report.targets.iter_mut().find(|t| t.index == target.index) {
                Some(seen) if seen.range <= target.range => {}
                Some(seen) => *seen = target,
                None => report.targets.push(target),
            }
        }
        for candidate in part.screened {
            match report
                .screened
                .iter_mut()
                .find(|c| c.index == candidate.index)
            {
                Some(seen) if seen.arc_fraction >= candidate.arc_fraction => {}
                Some(seen) => *seen = candidate,
                None => report.screened.push(candidate),
            }
        }
        ineligible.extend(out);
    }
    let must = report.must_target.clone();
    report.may_target.retain(|id| !must.contains(id));
    report
        .targets
        .sort_by(|a, b| a.range.0.total_cmp(&b.range.0));
    // An enemy out of one face's arc is another face's business: it is out only if no face may
    // shoot it, and then for the reason given by a face whose arc it is in, if any.
    let mut out: Vec<Ineligible> = Vec::new();
    for reason in ineligible {
        if report.targets.iter().any(|t| t.index == reason.index) {
            continue;
        }
        let out_of_arc = reason.reason == NOT_IN_ARC;
        match out.iter_mut().find(|o| o.index == reason.index) {
            Some(kept) if kept.reason == NOT_IN_ARC && !out_of_arc => *kept = reason,
            Some(_) => {}
            None => out.push(reason),
        }
    }
    report
        .rulings
        .extend(out.iter().map(|i| ineligible_ruling(situation, unit, i)));
    report.ineligible = out;
    report
}

/// What `screen` says of an enemy outside the arc.
const NOT_IN_ARC: &str = "not in the arc of fire";

/// The priority rule for one firing face (a unit's one front, or a face of a square): its
/// report without the arc and ineligible rulings, and the enemies it cannot shoot.
fn from_face(
    situation: &Situation,
    shooter: usize,
    face: &FiringFace,
    max: Inches,
) -> (ShootingReport, Vec<Ineligible>) {
    let unit = &situation.scene.units[shooter];
    let profile = situation.profile;
    let tie = profile.tolerance().distance;
    let mut candidates = Vec::new();
    let mut ineligible = Vec::new();
    let origins = face.range_origins();
    let side = situation.units[shooter].side;
    let reach = origins.loosened((max + tie).0);
    for enemy in situation.units_in(reach).filter(|v| v.side != side) {
        // The gap between boxes never exceeds the true distance: a cheap first cut.
        if crate::situation::aabb_gap(&origins, &enemy.aabb) > max + tie {
            continue;
        }
        match screen(situation, (shooter, face), enemy.index, max) {
            Ok(candidate) => candidates.push(candidate),
            Err(reason) => ineligible.push(reason),
        }
    }
    candidates.sort_by(|a, b| a.bound().0.total_cmp(&b.bound().0));
    let screened = candidates.clone();
    let artillery = unit.kind == UnitKind::Artillery;
    let mut targets: Vec<Assessment> = Vec::new();
    // With a free choice every candidate is a target of its own: none is ruled out by a
    // nearer one.
    let free = profile.specials().free_target_choice;
    let pass = pass_over(situation, unit);
    for candidate in candidates {
        if !free
            && let Some(limit) = decided_beyond(&targets, artillery, pass, max, tie)
            && candidate.bound() > limit
        {
            let first = targets
                .first()
                .map(|t| name_of(situation, t))
                .unwrap_or_default();
            let reason = concat(&[
                first,
                " is closer and takes priority, whether or not this one can be seen",
            ]);
            ineligible.push(Ineligible {
                face: face.face,
                ..Ineligible::new(situation, candidate.index, reason)
            });
            continue;
        }
        match assess(situation, shooter, face, &candidate, max) {
            Ok(assessment) => {
                let at = targets.partition_point(|t| t.range <= assessment.range);
                targets.insert(at, assessment);
            }
            Err(reason) => ineligible.push(reason),
        }
    }
    let mut report = choose(situation, unit, face, max, &targets);
    report.can_shoot = true;
    report.targets = targets;
    report.screened = screened;
    (report, ineligible)
}

/// Pick the must and may targets among the eligible ones.
fn choose(
    situation: &Situation,
    unit: &Unit,
    face: &FiringFace,
    max: Inches,
    targets: &[Assessment],
) -> ShootingReport {
    let tie = situation.profile.tolerance().distance;
    let who = face.who(unit);
    let all: Vec<&Assessment> = targets.iter().collect();
    if situation.profile.specials().free_target_choice {
        return free_choice(situation, unit, &who, &all);
    }
    if unit.kind == UnitKind::Artillery {
        return gun_choice(situation, unit, &who, max, &all);
    }
    priority_among(situation, unit, &who, &all, &all, &all, tie)
}

/// A gun's choice (§6.4 rule 5, A12): with a target within half its range, the closest, picked
/// as infantry pick; with none, any target. A closest target within tolerance of half range
/// leaves the choice to the players, and any target within tolerance of it has a borderline
/// range band.
fn gun_choice(
    situation: &Situation,
    unit: &Unit,
    who: &str,
    max: Inches,
    all: &[&Assessment],
) -> ShootingReport {
    let tie = situation.profile.tolerance().distance;
    let half = max / 2.0;
    let Some(first) = all.first() else {
        return ShootingReport::default();
    };
    let mut report = if near(first.range, half, situation.margin(first.plus_minus)) {
        open_choice(situation, unit, who, half, all)
    } else if first.range <= half {
        let within: Vec<&Assessment> = all.iter().copied().filter(|t| t.range <= half).collect();
        let pass_pool = gun_pass_pool(situation, unit, &within, all);
        priority_among(situation, unit, who, &within, &pass_pool, all, tie)
    } else {
        free_gun_choice(situation, unit, who, half, all)
    };
    band_notes(situation, half, all, &mut report);
    report
}

/// The targets a gun may pass a not-clear closest one over for, as the profile reads §6.12.
fn gun_pass_pool<'a>(
    situation: &Situation,
    unit: &Unit,
    within: &[&'a Assessment],
    all: &[&'a Assessment],
) -> Vec<&'a Assessment> {
    match pass_over(situation, unit) {
        PassOver::Anywhere => all.to_vec(),
        PassOver::WithinHalfRange => within.to_vec(),
        PassOver::Never => Vec::new(),
    }
}

/// Nothing within half its range: the gun picks any visible target.
fn free_gun_choice(
    situation: &Situation,
    unit: &Unit,
    who: &str,
    half: Inches,
    all: &[&Assessment],
) -> ShootingReport {
    let rulings = all
        .iter()
        .map(|t| {
            let explanation = format!(
                "{who} may shoot at {} — {}: nothing is within half its range ({}), so it picks any visible target.",
                name_of(situation, t),
                situation.length_within(t.range, t.plus_minus),
                situation.profile.length(half)
            );
            target_ruling(situation, unit, t, Decision::May, ARTILLERY, explanation)
        })
        .collect();
    ShootingReport {
        may_target: all.iter().map(|t| t.id.clone()).collect(),
        rulings,
        ..ShootingReport::default()
    }
}

/// The closest target is within tolerance of half the gun's range: within it, the gun picks as
/// infantry pick; beyond it, any target. A target legal either way may be shot; one legal only
/// if the closest is beyond half range is borderline (the choice depends on the reading).
fn open_choice(
    situation: &Situation,
    unit: &Unit,
    who: &str,
    half: Inches,
    all: &[&Assessment],
) -> ShootingReport {
    let tie = situation.profile.tolerance().distance;
    let first = all[0];
    let within: Vec<&Assessment> = all
        .iter()
        .copied()
        .filter(|t| t.range <= half + situation.margin(t.plus_minus))
        .collect();
    let pass_pool = gun_pass_pool(situation, unit, &within, all);
    let strict = priority_among(situation, unit, who, &within, &pass_pool, all, tie);
    let closest = format!(
        "{} ({}) is {} half the gun's range ({})",
        name_of(situation, first),
        situation.length_within(first.range, first.plus_minus),
        Situation::near_words(first.plus_minus),
        situation.profile.length(half)
    );
    let mut report = ShootingReport::default();
    for mut ruling in strict.rulings {
        let Some(id) = ruling.other.clone() else {
            report.rulings.push(ruling);
            continue;
        };
        let legal = strict.must_target.contains(&id) || strict.may_target.contains(&id);
        if legal {
            if ruling.decision == Decision::Must {
                // The closest is no longer a must: it is one the gun may shoot either way.
                ruling.decision = Decision::May;
                ruling.explanation =
                    ruling
                        .explanation
                        .replacen(" must shoot at ", " may shoot at ", 1);
            }
            ruling.explanation.push_str(&format!(
                " {closest}: the gun must shoot the closest if it is within, and may pick any target if it is beyond — either way it may shoot this one."
            ));
            report.may_target.push(id);
            report.rulings.push(ruling);
            continue;
        }
        let Some(t) = all.iter().find(|t| t.id == id) else {
            continue;
        };
        let explanation = format!(
            "{who} may shoot at {} — {} — only if the closest is beyond half range: {closest}, so whether the gun must shoot the closest or may pick any target is borderline — players decide.",
            name_of(situation, t),
            situation.length_within(t.range, t.plus_minus),
        );
        report.rulings.push(target_ruling(
            situation,
            unit,
            t,
            Decision::Borderline,
            ARTILLERY,
            explanation,
        ));
        report.borderline_target.push(id);
    }
    report
}

/// A gun's half range also divides its medium from its long range: a target it may shoot
/// within tolerance of it has a borderline band, whatever its choice.
fn band_notes(
    situation: &Situation,
    half: Inches,
    all: &[&Assessment],
    report: &mut ShootingReport,
) {
    let profile = situation.profile;
    for ruling in &mut report.rulings {
        let Some(t) = all.iter().find(|t| Some(&t.id) == ruling.other.as_ref()) else {
            continue;
        };
        if ruling.decision == Decision::Cannot
            || !near(t.range, half, situation.margin(t.plus_minus))
        {
            continue;
        }
        let words = profile.band_words();
        ruling.explanation.push_str(&format!(
            " Its range band is borderline: {} is {} half the gun's range ({}), which divides {} from {} — players decide.",
            situation.length_within(t.range, t.plus_minus),
            Situation::near_words(t.plus_minus),
            profile.length(half),
            RangeBand::Medium.describe(words),
            RangeBand::ArtilleryLong.describe(words),
        ));
    }
}

/// Every eligible target a unit may shoot at, in a ruleset without nearest-target priority.
/// Where stands are shot at as their command group, the group is one target, named once.
fn free_choice(
    situation: &Situation,
    unit: &Unit,
    who: &str,
    targets: &[&Assessment],
) -> ShootingReport {
    let mut report = ShootingReport::default();
    let by_group = situation.profile.specials().command_group_targets;
    let mut named: Vec<usize> = Vec::new();
    for t in targets {
        report.may_target.push(t.id.clone());
        if named.contains(&t.index) {
            continue;
        }
        let clear = match &situation.profile.band_words().cover {
            Some(words) => cover_note(t, words),
            None => not_clear_note(situation, t),
        };
        let group = by_group
            .then(|| ranks::command_group(situation, t.index))
            .flatten();
        let Some(group) = group else {
            report.rulings.push(target_ruling(
                situation,
                unit,
                t,
                Decision::May,
                pick_rule(unit),
                format!(
                    "{who} may shoot at {} — {} ({}): it may pick any visible enemy in range, nearest or not.{clear}",
                    name_of(situation, t),
                    situation.length_within(t.range, t.plus_minus),
                    t.band.describe(situation.profile.band_words())
                ),
            ));
            continue;
        };
        let in_reach: Vec<&Assessment> = targets
            .iter()
            .copied()
            .filter(|o| group.contains(&o.index))
            .collect();
        named.extend(in_reach.iter().map(|o| o.index));
        report.rulings.push(group_ruling(
            situation, unit, who, &group, &in_reach, &clear,
        ));
    }
    report
}

/// The ruling on shooting at a command group: the whole group is the target (B-27), its hits
/// shared among `in_reach` (its stands the unit may shoot, nearest first), and any of them more
/// than one stand deep is easier to hit (B-28).
fn group_ruling(
    situation: &Situation,
    unit: &Unit,
    who: &str,
    group: &[usize],
    in_reach: &[&Assessment],
    clear: &str,
) -> Ruling {
    let units = &situation.scene.units;
    let length = |t: &Assessment| situation.length_within(t.range, t.plus_minus);
    let nearest = in_reach[0];
    let names: Vec<&str> = group.iter().map(|&i| units[i].name.as_str()).collect();
    let reached: Vec<String> = in_reach
        .iter()
        .map(|t| format!("{} ({})", name_of(situation, t), length(t)))
        .collect();
    let deep: String = in_reach
        .iter()
        .filter_map(|t| {
            let other = ranks::stand_in_depth(situation, t.index)?;
            Some(format!(
                " {} is more than one stand deep ({} touches it front or rear): −2 to the score needed (L379, B-28).",
                name_of(situation, t),
                units[other].name
            ))
        })
        .collect();
    let brigade = units[nearest.index].brigade.as_deref().unwrap_or_default();
    let explanation = format!(
        "{who} may shoot at command group {brigade} ({}) — {} to its nearest stand, {} ({}): a stand of a command group is not a target on its own; the whole group is nominated and its hits are shared among the stands in reach, nearest first: {}.{deep}{clear}",
        names.join(", "),
        length(nearest),
        name_of(situation, nearest),
        nearest.band.describe(situation.profile.band_words()),
        reached.join(", "),
    );
    let mut ruling = target_ruling(
        situation,
        unit,
        nearest,
        Decision::May,
        pick_rule(unit),
        explanation,
    );
    ruling
        .figures
        .push(Figure::count("stands in the group", group.len() as i64));
    ruling
        .figures
        .push(Figure::count("stands in reach", in_reach.len() as i64));
    ruling.shapes.extend(in_reach[1..].iter().map(|t| {
        Shape::segment(
            ShapeRole::Measure,
            &t.tape.from,
            &t.tape.to,
            length(t).to_string(),
        )
    }));
    ruling
}

/// " It is not a clear target (…): −1 to hit.", for a target that is not clear.
fn not_clear_note(situation: &Situation, target: &Assessment) -> String {
    if target.is_clear() {
        String::new()
    } else {
        format!(
            " It is not a clear target ({}): −1 to hit.",
            reasons(situation, target)
        )
    }
}

/// " It is in cover (…): …", in the words of a ruleset whose book has no clear-target rule
/// (BPT Commander, BBB): cover changes the score to hit, and nothing else of Black Powder's
/// clear target applies.
fn cover_note(target: &Assessment, words: &str) -> String {
    target
        .not_clear
        .iter()
        .find_map(|reason| match reason {
            NotClear::InCover { terrain } => Some(format!(" It is in cover ({terrain}): {words}.")),
            _ => None,
        })
        .unwrap_or_default()
}

fn name_of<'s>(situation: &'s Situation, target: &Assessment) -> &'s str {
    &situation.scene.units[target.index].name
}

fn reasons(situation: &Situation, target: &Assessment) -> String {
    target
        .not_clear
        .iter()
        .map(|r| r.describe_in(situation.profile.length_scale()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Steps 2–4 of A12 over `pool` (sorted): the closest, or past a not-clear closest one the
/// closest clear target of `pass_pool`; `all` are every eligible target, for the rulings on
/// those passed over.
fn priority_among(
    situation: &Situation,
    unit: &Unit,
    who: &str,
    pool: &[&Assessment],
    pass_pool: &[&Assessment],
    all: &[&Assessment],
    tie: Inches,
) -> ShootingReport {
    let mut report = ShootingReport::default();
    let closest = closest_with_ties(pool, tie);
    let Some(first) = closest.first() else {
        return report;
    };
    report.must_target = closest.iter().map(|t| t.id.clone()).collect();
    let tied = closest.len() > 1;
    for t in &closest {
        let note = if tied {
            " Equally close targets (within the tolerance): the player picks one."
        } else {
            ""
        };
        let clear = not_clear_note(situation, t);
        report.rulings.push(target_ruling(
            situation,
            unit,
            t,
            Decision::Must,
            if tied { TIES } else { pick_rule(unit) },
            format!(
                "{} must shoot at {} — {} ({}), the closest visible enemy in its arc.{clear}{note}",
                who,
                name_of(situation, t),
                situation.length_within(t.range, t.plus_minus),
                t.band.describe(situation.profile.band_words())
            ),
        ));
    }
    let closest_is_clear = closest.iter().any(|t| t.is_clear());
    let alternatives: Vec<&Assessment> = if closest_is_clear {
        Vec::new()
    } else {
        let clear: Vec<&Assessment> = pass_pool.iter().copied().filter(|t| t.is_clear()).collect();
        closest_with_ties(&clear, tie)
    };
    let reading = gun_reading_note(situation, unit);
    for t in &alternatives {
        report.may_target.push(t.id.clone());
        // Past half range (outside `pool`), a gun may shoot it only by the book's reading.
        let reading = if pool.iter().any(|p| p.index == t.index) {
            ""
        } else {
            reading.as_str()
        };
        report.rulings.push(target_ruling(
            situation,
            unit,
            t,
            Decision::May,
            NOT_CLEAR,
            format!(
                "{} may shoot at {} instead — {}: the closest, {}, is not a clear target ({}).{reading}",
                who,
                name_of(situation, t),
                situation.length_within(t.range, t.plus_minus),
                name_of(situation, first),
                reasons(situation, first)
            ),
        ));
    }
    for t in all {
        if report.must_target.contains(&t.id) || report.may_target.contains(&t.id) {
            continue;
        }
        let length = |t: &Assessment| situation.length_within(t.range, t.plus_minus);
        let why = match alternatives.first() {
            _ if closest_is_clear => {
                format!(
                    "{} is closer ({})",
                    name_of(situation, first),
                    length(first)
                )
            }
            _ if !t.is_clear() => format!(
                "a not-clear target ({}) may only be passed over for a clear one",
                reasons(situation, t)
            ),
            Some(clear) => format!(
                "{} is the closest clear target ({})",
                name_of(situation, clear),
                length(clear)
            ),
            None => format!(
                "the closest, {} ({}), is not a clear target ({}), and may not be passed over for this one.{}",
                name_of(situation, first),
                length(first),
                reasons(situation, first),
                reading.trim_end_matches('.')
            ),
        };
        report.rulings.push(target_ruling(
            situation,
            unit,
            t,
            Decision::Cannot,
            pick_rule(unit),
            format!(
                "{} may not shoot at {} — {}: {why}.",
                who,
                name_of(situation, t),
                situation.length_within(t.range, t.plus_minus)
            ),
        ));
    }
    report
}

fn target_ruling(
    situation: &Situation,
    unit: &Unit,
    t: &Assessment,
    decision: Decision,
    rule: RuleRef,
    explanation: String,
) -> Ruling {
    let weapon = situation.profile.unit_weapon(unit);
    let max = weapon.and_then(|w| w.range()).unwrap_or(Inches::ZERO);
    let borderline = (t.range - max).abs() <= situation.margin(t.plus_minus);
    let mut explanation = explanation;
    if let Some(canister) = weapon.and_then(|w| w.canister()) {
        let long = weapon.and_then(|w| w.canister_long());
        explanation.push_str(&canister_note(situation, t.range, canister, long));
    }
    if borderline {
        let why = situation.undecided(t.plus_minus);
        explanation.push_str(&format!(
            " Range {} against a maximum of {max}: {why} — players decide.",
            situation.length_within(t.range, t.plus_minus),
            max = situation.profile.length(max)
        ));
    }
    // Half in the arc decides whether the target is clear (A7); a share the camera cannot
    // tell from half leaves that to the players. Drawn by hand, a share is what it is.
    let half_in_arc_borderline = t
        .arc_plus_minus
        .is_some_and(|within| (t.arc_fraction - 0.5).abs() <= within);
    if half_in_arc_borderline {
        explanation.push_str(&format!(
            " {:.0}% ± {:.0}% of it is in the arc: the camera cannot tell whether half is, which decides whether it is a clear target — players decide.",
            t.arc_fraction * 100.0,
            t.arc_plus_minus.unwrap_or(0.0) * 100.0
        ));
    }
    if t.enfilade {
        explanation.push_str(" Its leader is in the target's enfilade corridor: double dice.");
    }
    let overhead_borderline = t.overhead.iter().any(|o| o.borderline);
    if !t.overhead.is_empty() {
        explanation.push_str(&overhead_note(situation, t));
    }
    let mut figures = vec![
        Figure::inches("range", t.range).within(t.plus_minus),
        Figure::fraction("in arc", t.arc_fraction).within_share(t.arc_plus_minus),
        Figure::fraction("visible", t.visible_fraction),
    ];
    figures.push(Figure::inches("maximum range", max));
    let fires = matches!(decision, Decision::Must | Decision::May);
    if let Some(firing) = fires.then(|| firing_figures(situation, unit, t)).flatten() {
        explanation.push_str(&figures_note(situation, unit, &firing));
        figures.push(Figure::count(
            "figures at close range",
            i64::from(firing.close * firing.each),
        ));
        figures.push(Figure::count(
            "figures at long range",
            i64::from(firing.long * firing.each),
        ));
    }
    if let Some(losses) = fires.then(|| stand_losses(situation, unit)).flatten() {
        explanation.push_str(&losses.note(unit));
        figures.extend(losses.figures());
    }
    Ruling {
        topic: Topic::Shooting,
        unit: unit.id.clone(),
        other: Some(t.id.clone()),
        decision: if borderline || overhead_borderline || half_in_arc_borderline {
            Decision::Borderline
        } else {
            decision
        },
        rule,
        figures,
        explanation,
        shapes: vec![Shape::segment(
            ShapeRole::Measure,
            &t.tape.from,
            &t.tape.to,
            situation.length_within(t.range, t.plus_minus),
        )],
    }
}

/// How many front-rank figures fire, by band (eRules §31b, E-24).
fn figures_note(situation: &Situation, unit: &Unit, firing: &FiringFigures) -> String {
    let artillery = unit.kind == UnitKind::Artillery;
    let (close, long) = if artillery {
        ("at close range (canister)", "at long canister")
    } else {
        ("at short range", "at long range")
    };
    let mut bands = Vec::new();
    if firing.close > 0 {
        bands.push(format!("{} {close}", firing.close * firing.each));
    }
    if firing.long > 0 {
        bands.push(format!("{} {long}", firing.long * firing.each));
    }
    let mut note = format!(
        " Figures firing: {}, one roll per band — {}",
        bands.join(", "),
        what_fires(situation, unit, firing)
    );
    if firing.idle > 0 {
        note.push_str(&format!(
            "; {} more have no part of it in their cone and range",
            firing.idle * firing.each
        ));
    }
    note.push('.');
    if firing.at_band_edge > 0 {
        note.push_str(&format!(
            " {} of them are within tolerance of the edge between the bands: borderline — players decide.",
            firing.at_band_edge * firing.each,
        ));
    }
    note
}

/// What firing over heads means for the shot (A40).
/// Whether a gun may fire canister at this range (rulesets whose guns have a canister reach:
/// Bugles, Bullets and Blades ≤ 200 mm, eRules' close range ≤ 250 m, and eRules' long canister
/// beyond it to a configurable 500 m, E-07).
fn canister_note(
    situation: &Situation,
    range: Inches,
    canister: Inches,
    long: Option<Inches>,
) -> String {
    let profile = situation.profile;
    let near = |limit: Inches| (range - limit).abs() <= profile.tolerance().distance;
    let verdict = match long {
        _ if near(canister) => "borderline for canister — players decide".to_owned(),
        _ if range <= canister => "it may fire canister".to_owned(),
        Some(long) if near(long) => format!(
            "borderline for long canister (to {}) — players decide",
            profile.length(long)
        ),
        Some(long) if range <= long => format!(
            "too far for canister at close range, but within long canister (to {}, E-07): canister at about a third of the rate, or round shot",
            profile.length(long)
        ),
        Some(_) => "too far for canister: round shot only".to_owned(),
        None => "too far for canister".to_owned(),
    };
    format!(" Canister reaches {}: {verdict}.", profile.length(canister))
}

fn overhead_note(situation: &Situation, t: &Assessment) -> String {
    let names: Vec<String> = t
        .overhead
        .iter()
        .map(|o| situation.scene.units[o.index].name.clone())
        .collect();
    let names = names.join(" and ");
    let cannon = t.overhead.iter().any(|o| o.gun_gap.is_some());
    if !cannon {
        return format!(" It lobs its shot over {names}.");
    }
    let dead = situation.profile.distances().dead_ground;
    let gaps: Vec<String> = t
        .overhead
        .iter()
        .filter_map(|o| {
            Some(format!(
                "{} from the gun, {} from the target",
                situation.profile.length(o.gun_gap?),
                situation.profile.length(o.target_gap?)
            ))
        })
        .collect();
    let needed = if dead > Inches::ZERO {
        format!("; more than {} needed", situation.profile.length(dead))
    } else {
        String::new()
    };
    let mut note = format!(
        " It fires over {names} from higher ground ({}{needed}): −1 to hit.",
        gaps.join("; "),
    );
    if t.band == RangeBand::Short {
        note.push_str(" No canister overhead: use the medium-range dice.");
    }
    if t.overhead.iter().any(|o| o.borderline) {
        note.push_str(&format!(
            " A unit fired over is within tolerance of the {dead} dead ground: borderline — players decide.",
            dead = situation.profile.length(dead)
        ));
    }
    note
}

fn ineligible_ruling(situation: &Situation, unit: &Unit, i: &Ineligible) -> Ruling {
    Ruling {
        topic: Topic::Shooting,
        unit: unit.id.clone(),
        other: Some(i.id.clone()),
        decision: Decision::permit(false, i.borderline),
        rule: i.rule.unwrap_or_else(|| pick_rule(unit)),
        figures: Vec::new(),
        explanation: format!(
            "{} cannot shoot at {}: {}.",
            match i.face {
                Some(face) => format!(
                    "{} {} face",
                    crate::text::possessive(&unit.name),
                    super::side_word(face)
                ),
                None => unit.name.clone(),
            },
            situation.scene.units[i.index].name,
            i.reason
        ),
        shapes: Vec::new(),
    }
}

fn arc_ruling(
    situation: &Situation,
    unit: &Unit,
    face: &FiringFace,
    max: Inches,
    faces: usize,
) -> Ruling {
    let profile = situation.profile;
    let centre = profile.specials().range_from == crate::profile::RangeFrom::Centre
        && unit.kind != UnitKind::Artillery;
    let by_stand = profile.formation_fires_by(unit.formation) == FiresBy::Stand;
    let between = face.range_edge.is_some();
    let (from, rule) = match face.face {
        None if between => (
            "measured from anywhere along its front edge (the shortest distance between the units), into its arc",
            super::RANGE_BETWEEN_UNITS,
        ),
        None if centre => (
            "measured from the centre of its stand, into its arc",
            RuleRef::book("Ranges and arcs of fire"),
        ),
        None => (
            "measured from its leader, into its arc",
            RuleRef::read_as("Arc of fire and range (§6.3)", "A13"),
        ),
        Some(_) => (
            match (by_stand, between) {
                (true, true) => {
                    "measured from anywhere along the front edge of the stand facing that way (the shortest distance between the units), into that stand's own arc"
                }
                (true, false) => {
                    "measured from the middle of the front edge of the stand facing that way, into that stand's own arc"
                }
                (false, true) => {
                    "measured from anywhere along the face (the shortest distance between the units), into the quarter in front of it"
                }
                (false, false) => {
                    "measured from the face's midpoint, into the quarter in front of it"
                }
            },
            RuleRef::read_as("Squares and buildings: each face shoots (§6.3, §9.1)", "A3"),
        ),
    };
    let mut figures = vec![Figure::inches("maximum range", max)];
    let mut explanation = format!(
        "{} shoots up to {}, {from}.",
        face.who(unit),
        profile.length(max)
    );
    let (note, stands) = firing_stands(situation, unit, faces);
    explanation.push_str(&note);
    figures.extend(stands);
    Ruling {
        topic: Topic::Shooting,
        unit: unit.id.clone(),
        other: None,
        decision: Decision::Yes,
        rule,
        figures,
        explanation,
        shapes: vec![Shape::polygon(ShapeRole::Arc, &reach_outline(face, max))],
    }
}

/// Which of a unit's stands fire, in words and figures, where the ruleset says (BPT Commander
/// §1.3, §1.9: a column's front stands only, a square's stands each its own way, all of a line;
/// a firer in extended line one attack die less). `faces`: how many parts of it fire on their
/// own.
fn firing_stands(situation: &Situation, unit: &Unit, faces: usize) -> (String, Vec<Figure>) {
    let profile = situation.profile;
    let formation = unit.formation;
    let words = formation.as_str().replace('-', " ");
    let per_stand = profile.specials().attacks_per_stand && unit.kind != UnitKind::Artillery;
    let footprint = &unit.footprint;
    let stands = footprint
        .is_from_stands()
        .then(|| footprint.stands().len() as i64);
    let mut figures = Vec::new();
    let mut note = match profile.formation_firing_stands(formation) {
        _ if faces > 1 && per_stand => {
            figures.push(Figure::count("stands firing", faces as i64));
            format!(
                " In {words} each stand fires only the way it faces: {faces} stands fire, each into its own arc."
            )
        }
        Some(firing) if faces == 1 => {
            figures.push(Figure::count("stands firing", i64::from(firing)));
            match firing {
                1 => format!(" In {words} only its front stand fires."),
                n => format!(" In {words} only its front {n} stands fire."),
            }
        }
        None if per_stand => match stands {
            Some(all) => {
                figures.push(Figure::count("stands firing", all));
                format!(" In {words} all its {all} stands fire.")
            }
            None => format!(" In {words} all its stands fire."),
        },
        _ => String::new(),
    };
    let lost = profile.formation_dice_lost(formation);
    if lost > 0 {
        figures.push(Figure::count("attack dice lost", i64::from(lost)));
        let what = match lost {
            1 => "one attack die".to_owned(),
            n => format!("{n} attack dice"),
        };
        note.push_str(&format!(" It loses {what} for firing in {words}."));
    }
    (note, figures)
}
