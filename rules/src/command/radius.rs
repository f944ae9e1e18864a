//! A hard command radius (Bugles, Bullets and Blades digest §1.4, B-12): a stand moves only if
//! it is within the radius of its own command group leader, measured from the centre of the
//! leader's base to the closest point of the stand, when it begins to move.

use super::CommandDistance;
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::{Commander, Unit};
use crate::situation::Situation;

/// The rule radius rulings cite when the profile names none.
pub const COMMAND_RADIUS: RuleRef = RuleRef::read_as("Command radius", "B-12");

/// The radius ruling of `unit` under `commander`: the profile's command step is the radius.
/// There is no penalty to report: the status's penalty is 0 and the verdict says whether the
/// unit may move.
pub fn command_radius(
    situation: &Situation,
    unit: &Unit,
    commander: &Commander,
) -> (CommandDistance, Ruling) {
    let profile = situation.profile;
    let radius = profile.distances().command_step;
    let tolerance = profile.tolerance().distance;
    let (closest, distance) = unit.footprint.closest_point(&commander.position);
    let within = distance <= radius;
    let borderline = (distance - radius).abs() <= tolerance;
    let mut explanation = if within {
        format!(
            "{} is {} from its leader {}, within the {} command radius: it may move.",
            unit.name,
            profile.length(distance.rounded()),
            commander.name,
            profile.length(radius)
        )
    } else {
        format!(
            "{} is {} from its leader {}, beyond the {} command radius: it may not move.",
            unit.name,
            profile.length(distance.rounded()),
            commander.name,
            profile.length(radius)
        )
    };
    if borderline {
        explanation.push_str(" Borderline — players decide.");
    }
    let ruling = Ruling {
        topic: Topic::Command,
        unit: unit.id.clone(),
        other: Some(commander.id.clone()),
        decision: Decision::judge(within, borderline),
        rule: profile.command_rule().unwrap_or(COMMAND_RADIUS),
        figures: vec![
            Figure::inches("distance", distance),
            Figure::inches("radius", radius),
        ],
        explanation,
        shapes: vec![Shape::segment(
            ShapeRole::Measure,
            &commander.position,
            &closest,
            profile.length(distance.rounded()).to_string(),
        )],
    };
    let status = CommandDistance {
        commander: commander.id.clone(),
        distance,
        penalty: 0,
        borderline,
    };
    (status, ruling)
}
