//! Enemy within 12" (digest §4.2, §5.4, A17): a unit so close to the enemy gets an initiative
//! move and must move straight forward or back.

use serde::Serialize;

use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::{Formation, UnitKind};
use crate::situation::Situation;
use crate::units::Inches;
use crate::visibility::{Obstruction, can_see};

const PROXIMITY: RuleRef =
    RuleRef::read_as("Proximity of Enemy (§4.2) and Initiative (§5.4)", "A17");

/// The closest enemy and whether it is within the proximity distance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnemyWithin {
    /// The closest enemy unit.
    pub id: String,
    /// Base edge to base edge.
    pub gap: Inches,
    /// Within the proximity distance (12").
    pub within: bool,
    /// Within tolerance of it.
    pub borderline: bool,
}

/// The nearest enemy of `index` in close order (neither skirmishers nor artillery), for a
/// proximity rule about formed troops only, and the gap to it.
pub fn nearest_close_order(situation: &Situation, index: usize) -> Option<(usize, Inches)> {
    situation.nearest_enemy_where(index, |e| {
        e.unit.kind != UnitKind::Artillery && e.unit.formation != Formation::Skirmish
    })
}

/// The rule that holds a square still near enemy cavalry.
pub const SQUARES: RuleRef = RuleRef::read_as("Battalion Squares (§9.1)", "A38");

/// What the 12" rule lets a unit within it do (§5.4): an engaged unit fights instead of moving,
/// a disordered one cannot move on initiative (§6.8), and a square with enemy cavalry near may
/// not move at all (§9.1).
fn initiative(engaged: bool, disordered: bool, held: bool) -> &'static str {
    match (engaged, disordered, held) {
        (true, _, _) => "it is engaged in hand-to-hand combat, so it makes no initiative move",
        (false, _, true) => {
            "it may make no move and no change of formation, enemy cavalry being near (Battalion Squares, §9.1)"
        }
        (false, true, false) => {
            "it must move straight forward or back; disordered, it has no initiative move"
        }
        (false, false, false) => {
            "it may make an initiative move, and must move straight forward or back"
        }
    }
}

/// A formation held still by enemy cavalry within the profile's distance (§9.1: a square may
/// neither move nor change formation): the ruling saying so, borderline within tolerance.
pub fn held_by_cavalry(situation: &Situation, index: usize) -> Option<Ruling> {
    let profile = situation.profile;
    let unit = &situation.scene.units[index];
    let reach = profile.halts_near_cavalry(unit.formation)?;
    let tolerance = profile.tolerance().distance;
    let (cavalry, gap) =
        situation.nearest_enemy_where(index, |e| e.unit.kind == UnitKind::Cavalry)?;
    let cavalry = situation.units[cavalry].unit;
    if gap > reach + tolerance {
        return None;
    }
    let borderline = (gap - reach).abs() <= tolerance;
    let mut explanation = format!(
        "{} may not move or change formation: enemy cavalry, {}, is {} away, within {}.",
        unit.name,
        cavalry.name,
        profile.length(gap.rounded()),
        profile.length(reach)
    );
    if borderline {
        explanation.push_str(" Within tolerance of the distance: borderline — players decide.");
    }
    Some(Ruling {
        topic: Topic::Movement,
        unit: unit.id.clone(),
        other: Some(cavalry.id.clone()),
        decision: Decision::permit(false, borderline),
        rule: SQUARES,
        figures: vec![Figure::inches("cavalry gap", gap)],
        explanation,
        shapes: Vec::new(),
    })
}

/// The closest enemy of `index` (any type or state; commanders are not units), and the ruling.
/// `nearest` is the unit's closest enemy and the gap (see [`Situation::nearest_enemy`]).
pub fn enemy_within(
    situation: &Situation,
    index: usize,
    nearest: Option<(usize, Inches)>,
) -> Option<(EnemyWithin, Ruling)> {
    let profile = situation.profile;
    let proximity = profile.proximity();
    let unit = situation.units[index].unit;
    let (enemy, gap) = nearest?;
    let enemy = &situation.units[enemy];
    let within = gap <= proximity;
    let plus_minus = situation.gap_plus_minus(index, enemy.index);
    let borderline = (gap - proximity).abs() <= situation.margin(plus_minus);
    let words = profile.specials().proximity.as_ref();
    let engaged = situation.units[index].engaged;
    // For artillery and skirmishers a ruleset's zone may be a ban, not a test to take.
    let light = unit.kind == UnitKind::Artillery || unit.formation == Formation::Skirmish;
    let ban = words
        .and_then(|w| w.within_light.as_deref())
        .filter(|_| light && within);
    // Surely held, not borderline: a borderline hold is the hold's own ruling to flag.
    let held = held_by_cavalry(situation, index).is_some_and(|r| r.decision == Decision::Cannot);
    let explanation = match (words, within) {
        (Some(words), true) => format!(
            "{} is {} from {}, within {}: {}.",
            unit.name,
            situation.length_within(gap, plus_minus),
            enemy.unit.name,
            profile.length(proximity),
            ban.unwrap_or(&words.within)
        ),
        (Some(words), false) => format!(
            "{} is {} from {}, its nearest {}enemy: {}.",
            unit.name,
            situation.length_within(gap, plus_minus),
            enemy.unit.name,
            if words.close_order_enemy_only {
                "close-order "
            } else {
                ""
            },
            words.beyond
        ),
        (None, true) => format!(
            "{} is {} from {}, within {}: {}.",
            unit.name,
            situation.length_within(gap, plus_minus),
            enemy.unit.name,
            profile.length(proximity),
            initiative(engaged, unit.state.disordered, held)
        ),
        // Said as "not within" first: the ruling's mark (✖, no) answers "within?", and a
        // sentence opening on the unit's freedom read beside it as a refusal.
        (None, false) => format!(
            "Not within {proximity} of an enemy: {} is {} from {}, its nearest, so it moves freely.",
            unit.name,
            situation.length_within(gap, plus_minus),
            enemy.unit.name,
            proximity = profile.length(proximity)
        ),
    };
    let (from, to) = unit
        .footprint
        .nearest_points_to(&enemy.unit.footprint)
        .unwrap_or((unit.footprint.leader(), enemy.unit.footprint.leader()));
    let ruling = Ruling {
        topic: Topic::Proximity,
        unit: unit.id.clone(),
        other: Some(enemy.unit.id.clone()),
        decision: match (ban, Decision::judge(within, borderline)) {
            (Some(_), _) => Decision::permit(false, borderline),
            // Within, the unit tests to come any closer: the zone is neither a ban nor a fact.
            (None, Decision::Yes) if words.is_some_and(|w| w.within_is_test) => Decision::Test,
            (None, decision) => decision,
        },
        rule: profile.proximity_rule().unwrap_or(PROXIMITY),
        figures: vec![
            Figure::inches("gap", gap).within(plus_minus),
            Figure::inches("proximity", proximity),
        ],
        explanation: if borderline {
            let why = crate::text::capitalised(&situation.undecided(plus_minus));
            format!("{explanation} {why} — players decide.")
        } else {
            explanation
        },
        shapes: vec![Shape::segment(
            ShapeRole::Measure,
            &from,
            &to,
            situation.length_within(gap, plus_minus),
        )],
    };
    Some((
        EnemyWithin {
            id: enemy.unit.id.clone(),
            gap,
            within,
            borderline,
        },
        ruling,
    ))
}

/// The rule a ruleset with a 180° line of sight cites when the nearest enemy is behind.
pub const SIGHT_ARC: RuleRef = RuleRef::book("Line of sight: a 180° arc (§1.4)");

/// For rulesets whose units see only ahead of their front edge's line (BPT Commander's 180°
/// arc): the nearest enemy with some part ahead of that line, and a ruling for each nearer
/// enemy wholly behind it (out of sight, so not the one the proximity rule looks at).
/// `nearest` is the nearest enemy whatever its place.
pub fn nearest_seen_ahead(
    situation: &Situation,
    index: usize,
    nearest: Option<(usize, Inches)>,
) -> (Option<(usize, Inches)>, Vec<Ruling>) {
    let unseen = |enemy: usize| why_unseen(situation, index, enemy);
    if nearest.is_none_or(|(enemy, _)| unseen(enemy).is_none()) {
        return (nearest, Vec::new());
    }
    let mut enemies: Vec<(usize, Inches)> = situation
        .enemies_of(index)
        .map(|e| (e.index, situation.gap(index, e.index)))
        .collect();
    enemies.sort_by(|a, b| a.1.0.total_cmp(&b.1.0));
    let mut behind = Vec::new();
    for (enemy, gap) in enemies {
        match unseen(enemy) {
            None => return (Some((enemy, gap)), behind),
            Some(why) => behind.push(unseen_ruling(situation, index, enemy, gap, &why)),
        }
    }
    (None, behind)
}

/// Why a unit cannot see an enemy for the initiative rule (§1.4): wholly behind its front
/// edge's line, or its sight blocked (a wood, a unit between); `None` when it sees it.
fn why_unseen(situation: &Situation, index: usize, enemy: usize) -> Option<String> {
    let view = &situation.units[index];
    let frame = view.unit.footprint.frame();
    let tolerance = situation.profile.tolerance().distance;
    let ahead = situation.units[enemy]
        .corners
        .iter()
        .any(|c| frame.to_local(c).ahead >= -tolerance);
    if !ahead {
        return Some("wholly behind its front edge's line, outside its 180° line of sight".into());
    }
    let leader = view.unit.footprint.leader();
    let blocker = can_see(situation, index, &leader, enemy).err()?;
    let name = match blocker {
        Obstruction::Unit(i) => situation.scene.units[i].name.clone(),
        Obstruction::Terrain(id) => id,
    };
    Some(format!("hidden from its sight by {name}"))
}

fn unseen_ruling(
    situation: &Situation,
    index: usize,
    enemy: usize,
    gap: Inches,
    why: &str,
) -> Ruling {
    let unit = situation.units[index].unit;
    let other = situation.units[enemy].unit;
    Ruling {
        topic: Topic::Proximity,
        unit: unit.id.clone(),
        other: Some(other.id.clone()),
        decision: Decision::No,
        rule: SIGHT_ARC,
        figures: vec![Figure::inches("gap", gap)],
        explanation: format!(
            "{} is {} from {} but {why}: it is not the nearest visible enemy.",
            other.name,
            situation.profile.length(gap.rounded()),
            unit.name
        ),
        shapes: Vec::new(),
    }
}
