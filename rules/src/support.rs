//! Supports (digest §7.8, A27): unengaged friends within 6" in an engaged unit's flank or rear
//! quarter add +1 per supported flank and +1 for the rear.
//!
//! Each supporter supports one unit, and each (unit, zone) scores at most +1, so supporters are
//! assigned to zones by a maximum bipartite matching: the side gets the largest total the
//! positions allow.

use serde::Serialize;

use crate::geometry::{ConvexRegion, fraction_inside};
use crate::profile::SupportZone;
use crate::quarter::{Quarter, classify};
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::{Formation, UnitKind};
use crate::situation::Situation;
use crate::text::{and_list, capitalised};
use crate::units::Inches;

const SUPPORTS: RuleRef = RuleRef::read_as("Supports (§7.8)", "A27");
const ZONES: [Quarter; 3] = [Quarter::LeftFlank, Quarter::RightFlank, Quarter::Rear];

/// The supports of one engaged unit.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SupportStatus {
    /// Whether it can be supported at all.
    pub can_be_supported: bool,
    /// Supporter in each zone, if any: (zone, supporter id, gap).
    pub supporters: Vec<(Quarter, String, Inches)>,
    /// The bonus: +1 per supported zone.
    pub bonus: u32,
}

/// Why an engaged unit cannot be supported, if it cannot.
fn unsupportable(situation: &Situation, index: usize) -> Option<String> {
    let unit = &situation.scene.units[index];
    let guns = unit.kind == UnitKind::Artillery && situation.profile.specials().guns_supported;
    if !matches!(unit.kind, UnitKind::Infantry | UnitKind::Cavalry) && !guns {
        return Some("artillery cannot be supported".into());
    }
    if matches!(
        unit.formation,
        Formation::Skirmish | Formation::Square | Formation::Building
    ) {
        return Some(format!(
            "a unit in {} formation cannot be supported",
            unit.formation.as_str()
        ));
    }
    let faces = situation.engaged_faces(index);
    faces
        .iter()
        .find(|f| **f != Quarter::Front)
        .map(|f| format!("it is engaged to its {}", f.describe()))
}

/// Whether `supporter`'s kind may support `engaged`'s (BPT Commander: only cavalry supports
/// cavalry).
fn supports_kind(
    situation: &Situation,
    supporter: &crate::scene::Unit,
    engaged: &crate::scene::Unit,
) -> bool {
    !situation.profile.specials().horse_supports_horse_only
        || engaged.kind != UnitKind::Cavalry
        || supporter.kind == UnitKind::Cavalry
}

/// Whether `unit`'s flank zone holds an engaged friend (then that flank scores nothing).
fn flank_occupied(situation: &Situation, index: usize, zone: Quarter) -> bool {
    let unit = &situation.scene.units[index];
    let reach = situation.profile.distances().support;
    zone != Quarter::Rear
        && situation.friends_of(index).any(|f| {
            f.engaged
                && classify(unit.footprint.frame(), &f.unit.footprint.leader()).face == zone
                && unit.footprint.gap_to(&f.unit.footprint) <= reach
        })
}

/// Whether `supporter` stands in `engaged`'s `zone`, by the reading in force (A27).
fn in_zone(
    situation: &Situation,
    supporter: &crate::scene::Unit,
    engaged: &crate::scene::Unit,
    zone: Quarter,
) -> bool {
    let frame = engaged.footprint.frame();
    match situation.profile.readings().support_zone {
        SupportZone::Leader => classify(frame, &supporter.footprint.leader()).face == zone,
        SupportZone::HalfFootprint => {
            let region = ConvexRegion::Wedge(zone.region(frame));
            fraction_inside(&region, supporter.footprint.stands()) >= 0.5
        }
    }
}

fn may_support(situation: &Situation, index: usize) -> bool {
    let view = &situation.units[index];
    !view.engaged
        && !matches!(
            view.unit.formation,
            Formation::MarchColumn | Formation::Limbered
        )
}

/// Kuhn's augmenting path: try to give `supporter` a slot, moving others if that helps.
fn assign(
    supporter: usize,
    edges: &[Vec<usize>],
    slot_of: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for &slot in &edges[supporter] {
        if seen[slot] {
            continue;
        }
        seen[slot] = true;
        if slot_of[slot].is_none_or(|other| assign(other, edges, slot_of, seen)) {
            slot_of[slot] = Some(supporter);
            return true;
        }
    }
    false
}

/// Supports for every engaged unit: its status and the rulings that explain it.
pub fn supports(situation: &Situation) -> (Vec<(usize, SupportStatus)>, Vec<Ruling>) {
    let reach = situation.profile.distances().support;
    let mut rulings = Vec::new();
    let mut slots: Vec<(usize, Quarter)> = Vec::new();
    let mut statuses: Vec<(usize, SupportStatus)> = Vec::new();
    for view in situation.units.iter().filter(|v| v.engaged) {
        match unsupportable(situation, view.index) {
            Some(reason) => {
                rulings.push(plain(
                    situation,
                    view.index,
                    Decision::No,
                    format!("{} cannot be supported: {reason}.", view.unit.name),
                ));
                statuses.push((view.index, SupportStatus::default()));
            }
            None => {
                statuses.push((
                    view.index,
                    SupportStatus {
                        can_be_supported: true,
                        ..SupportStatus::default()
                    },
                ));
                slots.extend(
                    ZONES
                        .iter()
                        .filter(|z| !flank_occupied(situation, view.index, **z))
                        .map(|z| (view.index, *z)),
                );
            }
        }
    }
    // Which supporter may fill which slot, and how far it is.
    let candidates: Vec<usize> = situation
        .units
        .iter()
        .filter(|v| may_support(situation, v.index))
        .map(|v| v.index)
        .collect();
    let gap = |s: usize, u: usize| {
        situation.scene.units[s]
            .footprint
            .gap_to(&situation.scene.units[u].footprint)
    };
    let edges: Vec<Vec<usize>> = candidates
        .iter()
        .map(|&s| {
            let supporter = &situation.scene.units[s];
            slots
                .iter()
                .enumerate()
                .filter(|(_, (u, zone))| {
                    let engaged = &situation.scene.units[*u];
                    engaged.side == supporter.side
                        && supports_kind(situation, supporter, engaged)
                        && in_zone(situation, supporter, engaged, *zone)
                        && gap(s, *u) <= reach + situation.margin(situation.gap_plus_minus(s, *u))
                })
                .map(|(slot, _)| slot)
                .collect()
        })
        .collect();
    let mut slot_of: Vec<Option<usize>> = vec![None; slots.len()];
    for supporter in 0..candidates.len() {
        let mut seen = vec![false; slots.len()];
        assign(supporter, &edges, &mut slot_of, &mut seen);
    }
    // Each support given: the engaged unit, the zone, the supporter and its gap.
    let mut given: Vec<Support> = Vec::new();
    for (slot, assigned) in slot_of.iter().enumerate() {
        let Some(supporter) = assigned else { continue };
        let (engaged, zone) = slots[slot];
        let s = candidates[*supporter];
        let distance = gap(s, engaged);
        let plus_minus = situation.gap_plus_minus(s, engaged);
        if let Some((_, status)) = statuses.iter_mut().find(|(u, _)| *u == engaged) {
            status.supporters.push((
                zone,
                situation.scene.units[s].id.clone(),
                distance.rounded(),
            ));
            status.bonus += 1;
        }
        let support = Support {
            engaged,
            zone,
            supporter: s,
            distance,
            plus_minus,
        };
        rulings.push(support_ruling(situation, &support, reach));
        given.push(support);
    }
    for (engaged, status) in &statuses {
        if status.can_be_supported {
            let received: Vec<&Support> = given.iter().filter(|g| g.engaged == *engaged).collect();
            rulings.push(bonus_ruling(situation, *engaged, &received, reach));
        }
    }
    (statuses, rulings)
}

/// One support given: by `supporter`, in `engaged`'s `zone`, `distance` away (± `plus_minus`
/// when the camera measured it).
struct Support {
    engaged: usize,
    zone: Quarter,
    supporter: usize,
    distance: Inches,
    plus_minus: Option<Inches>,
}

impl Support {
    /// Whether its gap is too near the reach to tell which side it is: within the tape's
    /// tolerance, or, measured, within its error bar.
    fn near(&self, situation: &Situation, reach: Inches) -> bool {
        (self.distance - reach).abs() <= situation.margin(self.plus_minus)
    }
}

/// What an engaged unit gets from its supports, in a ruling of its own: the supporters' rulings
/// are theirs, and the unit fighting should read its bonus without looking for them.
fn bonus_ruling(
    situation: &Situation,
    engaged: usize,
    received: &[&Support],
    reach: Inches,
) -> Ruling {
    let unit = &situation.scene.units[engaged];
    let reach_words = situation.profile.length(reach);
    // Supporters a little beyond the reach count only if the players agree, as their own
    // rulings say.
    let (sure, doubtful): (Vec<&Support>, Vec<&Support>) =
        received.iter().partition(|s| s.distance <= reach);
    let listed = |of: &[&Support]| {
        let parts: Vec<String> = of
            .iter()
            .map(|s| {
                format!(
                    "{} in its {}",
                    situation.scene.units[s.supporter].name,
                    s.zone.describe()
                )
            })
            .collect();
        and_list(&parts)
    };
    let (bonus, more) = (sure.len(), sure.len() + doubtful.len());
    let name = &unit.name;
    let mut explanation = match (sure.is_empty(), doubtful.is_empty()) {
        (true, true) => format!(
            "{name} has no supports: no unengaged friend within {reach_words} in its flanks or rear. +0."
        ),
        (false, true) => format!("{name} is supported by {}: +{bonus}.", listed(&sure)),
        (true, false) => format!(
            "{name} is supported by {} only if the players agree (just beyond {reach_words}): +{more} if they do, +0 if not. Borderline — players decide.",
            listed(&doubtful)
        ),
        (false, false) => format!(
            "{name} is supported by {}, and by {} if the players agree (just beyond {reach_words}): +{bonus}, or +{more} if they do. Borderline — players decide.",
            listed(&sure),
            listed(&doubtful)
        ),
    };
    // A supporter just within the reach is borderline too (its own ruling says so).
    let near: Vec<&Support> = sure
        .iter()
        .copied()
        .filter(|s| s.near(situation, reach))
        .collect();
    if !near.is_empty() {
        let names: Vec<String> = near
            .iter()
            .map(|s| situation.scene.units[s.supporter].name.clone())
            .collect();
        let measured = near.iter().find_map(|s| s.plus_minus);
        explanation.push_str(&format!(
            " {} {} {} {reach_words}: borderline — players decide.",
            and_list(&names),
            if near.len() == 1 { "is" } else { "are" },
            Situation::near_words(measured)
        ));
    }
    Ruling {
        topic: Topic::Support,
        unit: unit.id.clone(),
        other: None,
        decision: Decision::judge(!sure.is_empty(), !doubtful.is_empty() || !near.is_empty()),
        rule: SUPPORTS,
        figures: vec![Figure::count("support bonus", bonus as i64)],
        explanation,
        shapes: Vec::new(),
    }
}

fn plain(situation: &Situation, index: usize, decision: Decision, explanation: String) -> Ruling {
    Ruling {
        topic: Topic::Support,
        unit: situation.scene.units[index].id.clone(),
        other: None,
        decision,
        rule: SUPPORTS,
        figures: Vec::new(),
        explanation,
        shapes: Vec::new(),
    }
}

fn support_ruling(situation: &Situation, support: &Support, reach: Inches) -> Ruling {
    let (s, u) = (
        &situation.scene.units[support.supporter],
        &situation.scene.units[support.engaged],
    );
    let (distance, zone) = (support.distance, support.zone);
    let borderline = support.near(situation, reach);
    // A supporter a little beyond the reach is only borderline: never call it "within".
    let (relation, verdict) = if distance <= reach {
        ("within", "+1")
    } else {
        ("just beyond", "+1 if the players agree")
    };
    let mut explanation = format!(
        "{} supports {} in its {} ({} away, {relation} {reach}): {verdict}.",
        s.name,
        u.name,
        zone.describe(),
        situation.length_within(distance, support.plus_minus),
        reach = situation.profile.length(reach)
    );
    if borderline {
        let why = situation.undecided(support.plus_minus);
        explanation.push_str(&format!(" {} — players decide.", capitalised(&why)));
    }
    let (closest, _) = u.footprint.closest_point(&s.footprint.leader());
    Ruling {
        topic: Topic::Support,
        unit: s.id.clone(),
        other: Some(u.id.clone()),
        decision: Decision::judge(true, borderline),
        rule: SUPPORTS,
        figures: vec![
            Figure::inches("gap", distance).within(support.plus_minus),
            Figure::count("bonus", 1),
        ],
        explanation,
        shapes: vec![Shape::segment(
            ShapeRole::Measure,
            &s.footprint.leader(),
            &closest,
            situation.length_within(distance, support.plus_minus),
        )],
    }
}
