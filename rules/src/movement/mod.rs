//! Moves checked between two scenes of the same units (digest §4, A18, A19): how far each
//! stand went, what that cost through terrain, how many moves that is, and whether a unit near
//! the enemy kept to its front or rear quarter; whether each brigade stayed one group
//! ([`check_brigades`]); and how far each commander went ([`check_commanders`]).

mod brigade;
mod commanders;
mod square;

pub use brigade::check_brigades;
pub use commanders::{CommanderMove, check_commanders};

use serde::Serialize;

use crate::geometry::{OrientedRect, TablePoint};
use crate::profile::{ChargesNearEnemy, EndingInsideFriends, Profile};
use crate::quarter::{Quarter, classify};
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::{Scene, Unit};
use crate::situation::Situation;
use crate::text::capitalised;
use crate::units::Inches;

const ALLOWANCE: RuleRef = RuleRef::read_as("Moving Units (§4.1)", "A19");
const PROXIMITY: RuleRef = RuleRef::read_as("Proximity of Enemy (§4.2)", "A18");
const INTERPENETRATION: RuleRef = RuleRef::read_as("Interpenetration of Units (§4.2)", "A37");

/// A37's tolerance: bases this far into a friend's touch it, they are not inside it (a camera
/// puts bases a few hundredths of an inch off, and players butt them up).
const FRIEND_OVERLAP: Inches = Inches(0.1);

/// One unit's move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveCheck {
    /// The unit.
    pub unit: String,
    /// The furthest any stand went, in a straight line.
    pub distance: Inches,
    /// What that costs with terrain.
    pub cost: Inches,
    /// One move.
    pub allowance: Inches,
    /// Moves needed (1–3 per order); more than 3 cannot be one turn's move.
    pub moves: u32,
    /// An enemy was within 12" at the start and the unit left its front and rear quarters.
    pub proximity_breach: bool,
    /// The rulings.
    pub rulings: Vec<Ruling>,
}

/// Units in `before` that are absent from `after`, and the other way round.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Roll {
    /// Seen before, not after.
    pub missing: Vec<String>,
    /// Seen after, not before.
    pub new: Vec<String>,
}

/// Pair each stand before with the same stand after (by order), or the whole footprints when
/// the unit has another number of stands now.
fn stand_pairs<'u>(before: &'u Unit, after: &'u Unit) -> Vec<(&'u OrientedRect, &'u OrientedRect)> {
    let (a, b) = (before.footprint.stands(), after.footprint.stands());
    if a.len() == b.len() {
        a.iter().zip(b).collect()
    } else {
        vec![(before.footprint.frame(), after.footprint.frame())]
    }
}

/// Each stand's centre before and after (see [`stand_pairs`]).
fn displacements(before: &Unit, after: &Unit) -> Vec<(TablePoint, TablePoint)> {
    stand_pairs(before, after)
        .into_iter()
        .map(|(s, t)| (s.center(), t.center()))
        .collect()
}

/// The terrain the unit may not enter that its stands cut into on their way (beyond the
/// tolerance, which players' bases brushing a wood's edge stay within).
fn swept_into(situation: &Situation, before: &Unit, after: &Unit) -> Option<String> {
    let tolerance = situation.profile.tolerance().distance;
    let pairs: Vec<(OrientedRect, OrientedRect)> = stand_pairs(before, after)
        .into_iter()
        .map(|(s, t)| (s.shrunk(tolerance), t.shrunk(tolerance)))
        .collect();
    situation
        .terrain
        .swept_into(before, pairs.iter().map(|(s, t)| (s, t)))
}

/// Whether every corner of `after` lies in `start`'s footprint or the given quarter of it.
fn stays_in(start: &OrientedRect, quarter: Quarter, after: &[OrientedRect]) -> bool {
    after.iter().flat_map(|s| s.corners()).all(|corner| {
        let reading = classify(start, &corner);
        reading.inside_footprint || reading.face == quarter || reading.margin.distance.0 < 1e-6
    })
}

/// Check every unit's move from `before` to `after`.
pub fn check_moves(before: &Scene, after: &Scene, profile: &Profile) -> (Vec<MoveCheck>, Roll) {
    let situation = Situation::new(before, profile);
    let mut checks: Vec<MoveCheck> = before
        .units
        .iter()
        .enumerate()
        .filter_map(|(index, unit)| {
            after
                .unit(&unit.id)
                .map(|moved| check_move(&situation, index, moved, after))
        })
        .collect();
    for check in &mut checks {
        crate::rulings::in_ruleset_terms(&mut check.rulings, profile);
    }
    let roll = Roll {
        missing: before
            .units
            .iter()
            .filter(|u| after.unit(&u.id).is_none())
            .map(|u| u.id.clone())
            .collect(),
        new: after
            .units
            .iter()
            .filter(|u| before.unit(&u.id).is_none())
            .map(|u| u.id.clone())
            .collect(),
    };
    (checks, roll)
}

/// The unit's move to `after`, in the scene `then` (whose relative error of every length is
/// its `length_sd`).
fn check_move(situation: &Situation, index: usize, after: &Unit, then: &Scene) -> MoveCheck {
    let after_length_sd = then.length_sd;
    let profile = situation.profile;
    let before = &situation.scene.units[index];
    let (most_moves, formation_limit) = profile.moves_per_turn(before.formation);
    let moves_per_order = f64::from(most_moves);
    let allowance = profile.unit_move(before);
    let paths = displacements(before, after);
    let costs: Vec<(TablePoint, TablePoint, crate::terrain::MoveCost)> = paths
        .iter()
        .map(|(from, to)| {
            (
                *from,
                *to,
                situation.terrain.move_cost(before, from, to, profile),
            )
        })
        .collect();
    let worst = costs
        .iter()
        .max_by(|a, b| a.2.cost.0.total_cmp(&b.2.cost.0));
    let (distance, cost, notes, forbidden, path) = match worst {
        Some((from, to, c)) => (
            c.length,
            c.cost,
            c.notes.clone(),
            c.forbidden_by.clone(),
            Some((*from, *to)),
        ),
        None => (Inches::ZERO, Inches::ZERO, Vec::new(), None, None),
    };
    let forbidden = forbidden.or_else(|| swept_into(situation, before, after));
    let plus_minus = path.and_then(|(from, to)| {
        let length_sd = match (situation.scene.length_sd, after_length_sd) {
            (Some(then), Some(now)) => Some(then.max(now)),
            (then, now) => then.or(now),
        };
        before
            .footprint
            .plus_minus_to(from, &after.footprint, to, length_sd)
    });
    // Terrain that doubles a length doubles its error too.
    let cost_plus_minus = plus_minus.map(|within| {
        if distance.0 > 0.0 {
            within * (cost.0 / distance.0)
        } else {
            within
        }
    });
    let margin = situation.margin(cost_plus_minus);
    let moves = if allowance.0 > 0.0 {
        ((cost - margin).0 / allowance.0).ceil().max(0.0) as u32
    } else {
        0
    };
    let step_borderline = allowance.0 > 0.0 && {
        let nearest = (cost.0 / allowance.0).round() * allowance.0;
        nearest > 0.0 && (cost.0 - nearest).abs() <= margin.0
    };
    let mut rulings = Vec::new();
    let terrain = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    };
    // A formation with no move at all (BPT Commander's square) that moved anyway.
    let immobile = allowance.0 <= 0.0 && distance > situation.margin(plus_minus);
    let mut explanation = match moves {
        0 if immobile => format!(
            "{} moved {}, but a unit in {} cannot move.",
            before.name,
            situation.length_within(distance, plus_minus),
            before.formation.as_str()
        ),
        0 => format!("{} did not move.", before.name),
        n if (n as f64) <= moves_per_order => format!(
            "{} moved {}, costing {}{terrain}: {n} move{} of {allowance}.",
            before.name,
            situation.length_within(distance, plus_minus),
            situation.length_within(cost, cost_plus_minus),
            if n == 1 { "" } else { "s" },
            allowance = situation.profile.length(allowance)
        ),
        n => format!(
            "{} moved {}, costing {}{terrain}: {n} moves of {allowance}, more than the {most_moves} {}.",
            before.name,
            situation.length_within(distance, plus_minus),
            situation.length_within(cost, cost_plus_minus),
            if formation_limit {
                format!("a unit in {} may make in a turn", before.formation.as_str())
            } else {
                "an order can give".into()
            },
            allowance = situation.profile.length(allowance)
        ),
    };
    if let Some(terrain) = &forbidden {
        explanation.push_str(&format!(" It may not enter {terrain}."));
    }
    if step_borderline && moves > 0 {
        explanation.push_str(&format!(
            " {} a whole number of moves: {} — players decide.",
            capitalised(Situation::near_words(cost_plus_minus)),
            situation.undecided(cost_plus_minus)
        ));
    }
    rulings.push(Ruling {
        topic: Topic::Movement,
        unit: before.id.clone(),
        other: None,
        decision: {
            let allowed = forbidden.is_none() && moves as f64 <= moves_per_order && !immobile;
            // A forbidden move stays forbidden however close the numbers are.
            Decision::permit(allowed, allowed && step_borderline && moves > 0)
        },
        rule: ALLOWANCE,
        figures: vec![
            Figure::inches("moved", distance).within(plus_minus),
            Figure::inches("cost", cost).within(cost_plus_minus),
            Figure::count("moves", moves as i64),
        ],
        explanation,
        shapes: path
            .map(|(from, to)| {
                vec![Shape::segment(
                    ShapeRole::Measure,
                    &from,
                    &to,
                    situation.profile.length(distance.rounded()).to_string(),
                )]
            })
            .unwrap_or_default(),
    });
    rulings.extend(ends_on_friend(after, then, profile));
    let proximity_breach = proximity_breach(situation, index, after, &mut rulings);
    rulings.extend(square::square_rulings(situation, index, after));
    if profile.specials().momentum {
        rulings.push(crate::rulesets::erules::momentum::momentum_ruling(
            situation, index, after,
        ));
    }
    MoveCheck {
        unit: before.id.clone(),
        distance: distance.rounded(),
        cost: cost.rounded(),
        allowance,
        moves,
        proximity_breach,
        rulings,
    }
}

/// §4.2, A37: friends may pass through each other but may not end interpenetrated (or, in a
/// ruleset that says so, the unit is disordered). The ruling on the friend the unit ends its
/// move inside (by more than [`FRIEND_OVERLAP`]), if any.
fn ends_on_friend(after: &Unit, then: &Scene, profile: &Profile) -> Option<Ruling> {
    let inside = |friend: &Unit| {
        after.footprint.stands().iter().any(|stand| {
            let core = stand.shrunk(FRIEND_OVERLAP);
            friend
                .footprint
                .stands()
                .iter()
                .any(|other| core.gap_to(other) <= Inches(1e-9))
        })
    };
    let friend = then
        .units
        .iter()
        .find(|u| u.id != after.id && u.side == after.side && inside(u))?;
    let (allowed, outcome) = match profile.specials().ending_inside_friends {
        EndingInsideFriends::Forbidden => (
            false,
            "friends may pass through each other, but may not end a move interpenetrated",
        ),
        EndingInsideFriends::Disorders => {
            (true, "a passage of lines that ends mid-way disorders it")
        }
    };
    Some(Ruling {
        topic: Topic::Movement,
        unit: after.id.clone(),
        other: Some(friend.id.clone()),
        decision: Decision::permit(allowed, false),
        rule: INTERPENETRATION,
        figures: Vec::new(),
        explanation: format!(
            "{} ends its move inside {}: {outcome}.",
            after.name, friend.name
        ),
        shapes: vec![Shape::polygon(
            ShapeRole::Blocked,
            &friend.footprint.frame().corners(),
        )],
    })
}

/// Whether the unit ends its move touching an enemy (within the contact distance): a charge.
fn ends_in_contact(situation: &Situation, index: usize, after: &Unit) -> bool {
    let contact = situation.profile.distances().contact;
    situation
        .enemies_of(index)
        .any(|v| v.unit.footprint.gap_to(&after.footprint) <= contact)
}

/// A18: with an enemy within 12" at the start, the move must stay in the start footprint plus
/// its front quarter, or plus its rear quarter. Turning on the spot (the leader stays put) is a
/// formation change, which is allowed.
fn proximity_breach(
    situation: &Situation,
    index: usize,
    after: &Unit,
    rulings: &mut Vec<Ruling>,
) -> bool {
    let Some((near, _)) =
        crate::command::enemy_within(situation, index, situation.nearest_enemy(index))
    else {
        return false;
    };
    if !near.within {
        return false;
    }
    let before = &situation.scene.units[index];
    let frame = before.footprint.frame();
    let leader_moved =
        crate::geometry::distance(&before.footprint.leader(), &after.footprint.leader());
    let in_place = leader_moved <= situation.profile.tolerance().distance;
    let stands = after.footprint.stands();
    let kept = in_place
        || stays_in(frame, Quarter::Front, stands)
        || stays_in(frame, Quarter::Rear, stands);
    // A move that ends in contact was a charge; whether A18 binds one is a reading.
    let reading = situation.profile.readings().charges_near_enemy;
    let charged = ends_in_contact(situation, index, after);
    if charged && reading == ChargesNearEnemy::Free {
        return false;
    }
    if !kept {
        let mut explanation = format!(
            "{} started {} from {} (within {}), so it had to move wholly within its front or rear quarter; it did not.",
            before.name,
            situation.profile.length(near.gap),
            situation
                .scene
                .unit(&near.id)
                .map_or(near.id.as_str(), |u| u.name.as_str()),
            situation.profile.length(situation.profile.proximity())
        );
        let borderline = charged && reading == ChargesNearEnemy::Borderline;
        if borderline {
            explanation.push_str(" It ended in contact, a charge: whether the rule binds a charge the book does not say — borderline, players decide.");
        }
        rulings.push(Ruling {
            topic: Topic::Movement,
            unit: before.id.clone(),
            other: Some(near.id.clone()),
            decision: Decision::permit(false, borderline),
            rule: PROXIMITY,
            figures: vec![Figure::inches("enemy gap", near.gap)],
            explanation,
            shapes: vec![
                Shape::polygon(
                    ShapeRole::Quarter,
                    &Quarter::Front.region(frame).polygon(Inches(24.0)),
                ),
                Shape::polygon(
                    ShapeRole::Quarter,
                    &Quarter::Rear.region(frame).polygon(Inches(24.0)),
                ),
            ],
        });
    }
    !kept
}
