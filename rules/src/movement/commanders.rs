//! Commanders' moves (digest §4.1, §4.4): each commander moves once a turn, up to 36" on foot or
//! 48" on horseback, measured at his head.

use serde::Serialize;

use crate::profile::Profile;
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::Scene;
use crate::units::Inches;

const MOVING_COMMANDERS: RuleRef = RuleRef::book("Moving Commanders (§4.1, §4.4)");

/// One commander's move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CommanderMove {
    /// The commander.
    pub commander: String,
    /// How far his head went.
    pub distance: Inches,
    /// His one move: on foot or on horseback.
    pub allowance: Inches,
    /// The ruling.
    pub ruling: Ruling,
}

/// Check every commander seen in both scenes against his move.
pub fn check_commanders(before: &Scene, after: &Scene, profile: &Profile) -> Vec<CommanderMove> {
    let distances = profile.distances();
    let tolerance = profile.tolerance().distance;
    before
        .commanders
        .iter()
        .filter_map(|commander| {
            let moved = after.commander(&commander.id)?;
            let distance = crate::geometry::distance(&commander.position, &moved.position);
            let (allowance, how) = if commander.mounted {
                (distances.commander_mounted, "on horseback")
            } else {
                (distances.commander_on_foot, "on foot")
            };
            let within = distance <= allowance;
            let borderline = (distance - allowance).abs() <= tolerance;
            let mut explanation = if distance.0 < 0.01 {
                format!("{} did not move.", commander.name)
            } else if within {
                format!(
                    "{} moved {}, within his {allowance} move {how}.",
                    commander.name,
                    profile.length(distance.rounded()),
                    allowance = profile.length(allowance)
                )
            } else {
                format!(
                    "{} moved {}, more than his {allowance} move {how}: a commander moves once a turn (only a unit he has joined can carry him further, under Follow Me).",
                    commander.name,
                    profile.length(distance.rounded()),
                    allowance = profile.length(allowance)
                )
            };
            if borderline {
                explanation.push_str(" Within tolerance of his move: borderline — players decide.");
            }
            let ruling = Ruling {
                topic: Topic::Movement,
                unit: commander.id.clone(),
                other: None,
                decision: Decision::judge(within, borderline),
                rule: MOVING_COMMANDERS,
                figures: vec![
                    Figure::inches("moved", distance),
                    Figure::inches("move", allowance),
                ],
                explanation,
                shapes: vec![Shape::segment(
                    ShapeRole::Measure,
                    &commander.position,
                    &moved.position,
                    profile.length(distance.rounded()).to_string(),
                )],
            };
            Some(CommanderMove {
                commander: commander.id.clone(),
                distance: distance.rounded(),
                allowance,
                ruling,
            })
        })
        .collect()
}
