//! The command distance penalty (digest §5.2, A15): −1 for each full 12" from the commander's
//! head to the closest point of the unit, once beyond 12".

use super::CommandDistance;
use crate::profile::CommandModel;
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::{Commander, Scene, Unit};
use crate::situation::Situation;
use crate::units::Inches;

const COMMAND_DISTANCE: RuleRef = RuleRef::read_as("Command Modifiers (§5.2)", "A15");

/// The commander who orders `unit`: its brigade's commander, else its side's commander-in-chief.
pub fn commander_of<'s>(scene: &'s Scene, unit: &Unit) -> Option<&'s Commander> {
    let same_side = || scene.commanders.iter().filter(|c| c.side == unit.side);
    unit.brigade
        .as_ref()
        .and_then(|brigade| same_side().find(|c| c.brigade.as_ref() == Some(brigade)))
        .or_else(|| same_side().find(|c| c.brigade.is_none()))
}

/// The penalty for a distance: 0 up to one step, then −1 per full step (19" → −1, 38" → −3,
/// 48" → −4 with 12" steps).
fn penalty(distance: Inches, step: Inches) -> i64 {
    if distance <= step {
        0
    } else {
        -((distance.0 / step.0).floor() as i64)
    }
}

/// What the distance decides: yes without a penalty, a penalty beyond one step — the unit is
/// still under command, its order only harder — and borderline at a step, either way.
fn decide(penalty: i64, borderline: bool) -> Decision {
    match (borderline, penalty) {
        (true, _) => Decision::Borderline,
        (false, 0) => Decision::Yes,
        (false, _) => Decision::Penalty,
    }
}

/// How far the camera may have the distance from `commander` to `closest` (the nearest point of
/// `unit`) off, 95 % either way, when it placed both.
fn commander_plus_minus(
    situation: &Situation,
    unit: &crate::scene::Unit,
    commander: &crate::scene::Commander,
    closest: crate::geometry::TablePoint,
) -> Option<Inches> {
    let head = commander
        .sd?
        .covariance_at(crate::geometry::TableVector::zeros());
    let base = unit.footprint.covariance_at(closest)?;
    Some(crate::uncertainty::length_plus_minus(
        (commander.position, &head),
        (closest, &base),
        situation.scene.length_sd.unwrap_or(0.0),
    ))
}

/// The command distance of `index` and its ruling, when the scene has a commander for it.
pub fn command_distance(situation: &Situation, index: usize) -> Option<(CommandDistance, Ruling)> {
    let unit = &situation.scene.units[index];
    let commander = commander_of(situation.scene, unit)?;
    match situation.profile.specials().command_model {
        CommandModel::PenaltySteps => {}
        CommandModel::Radius => {
            return Some(super::radius::command_radius(situation, unit, commander));
        }
        CommandModel::None => return None,
    }
    let step = situation.profile.distances().command_step;
    let (closest, distance) = unit.footprint.closest_point(&commander.position);
    let plus_minus = commander_plus_minus(situation, unit, commander, closest);
    let margin = situation.margin(plus_minus);
    let marauders = unit
        .stats
        .as_ref()
        .is_some_and(|s| s.has_special("Marauders"));
    let penalty = if marauders {
        0
    } else {
        penalty(distance, step)
    };
    // A step boundary within tolerance: 12", 24", 36" …
    let nearest_step = (distance.0 / step.0).round() * step.0;
    let borderline =
        !marauders && nearest_step >= step.0 && (distance.0 - nearest_step).abs() <= margin.0;
    let mut explanation = match (marauders, penalty) {
        (true, _) => format!(
            "{} is {} from {}: Marauders ignore the distance penalty.",
            unit.name,
            situation.length_within(distance, plus_minus),
            commander.name
        ),
        (false, 0) => format!(
            "{} is {} from {}: no distance penalty.",
            unit.name,
            situation.length_within(distance, plus_minus),
            commander.name
        ),
        (false, p) => format!(
            "{} is {} from {}: {p} to its order for distance.",
            unit.name,
            situation.length_within(distance, plus_minus),
            commander.name
        ),
    };
    if borderline {
        let step = situation.profile.length(step);
        explanation.push_str(&match plus_minus {
            Some(_) => format!(
                " At a {step} step, {} — players decide.",
                situation.undecided(plus_minus)
            ),
            None => format!(
                " Within {} of a {step} step: borderline — players decide.",
                situation.profile.length(margin)
            ),
        });
    }
    let ruling = Ruling {
        topic: Topic::Command,
        unit: unit.id.clone(),
        other: Some(commander.id.clone()),
        decision: decide(penalty, borderline),
        rule: situation.profile.command_rule().unwrap_or(COMMAND_DISTANCE),
        figures: vec![
            Figure::inches("distance", distance).within(plus_minus),
            Figure::count("penalty", penalty),
        ],
        explanation,
        shapes: vec![Shape::segment(
            ShapeRole::Measure,
            &commander.position,
            &closest,
            situation.length_within(distance, plus_minus),
        )],
    };
    let status = CommandDistance {
        commander: commander.id.clone(),
        distance,
        penalty,
        borderline,
    };
    Some((status, ruling))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_books_examples() {
        let step = Inches(12.0);
        assert_eq!(penalty(Inches(12.0), step), 0);
        assert_eq!(penalty(Inches(19.0), step), -1);
        assert_eq!(penalty(Inches(38.0), step), -3);
        assert_eq!(penalty(Inches(48.0), step), -4);
        assert_eq!(
            penalty(Inches(24.0), step),
            -2,
            "the jump at exactly 24\" (A15)"
        );
    }
}
