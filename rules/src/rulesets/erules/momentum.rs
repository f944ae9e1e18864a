//! Momentum (eRules digest §1.3, §10, E-10): a unit's speed and direction of movement carry
//! over from its last bound. `check-move` predicts where it should be and flags a unit that
//! changed speed or direction — halting included — without a permitted reason.
//!
//! The one reason the table shows is the commander-in-chief in base contact (§10.2). The others
//! (the one formation the CinC redirects this bound, a detour, skirmishers deploying, a reaction
//! test or standing order) are not on the table: the ruling names them and players decide.

use crate::geometry::{TablePoint, TableVector, heading};
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::{Momentum, Unit};
use crate::situation::Situation;
use crate::units::{Degrees, Inches};

/// The rule momentum rulings cite.
pub const MOMENTUM: RuleRef = RuleRef::read_as("Momentum (§10)", "E-10");

/// Where `before` would be had it kept its last bound's speed and direction.
pub fn predicted(before: &Unit, momentum: Momentum) -> TablePoint {
    before.footprint.leader() + heading(Degrees(momentum.heading)) * momentum.distance
}

/// The angle between two directions, 0–180°.
fn turn_between(a: TableVector, b: TableVector) -> Degrees {
    Degrees::from_radians(a.angle(&b))
}

/// The commander-in-chief of `unit`'s side touching it at the start of the bound (§10.2).
fn led_by_cinc<'s>(situation: &'s Situation, unit: &Unit) -> Option<&'s str> {
    let reach = situation.profile.distances().contact + situation.profile.tolerance().distance;
    situation
        .scene
        .commanders
        .iter()
        .filter(|c| c.side == unit.side && c.brigade.is_none())
        .find(|c| unit.footprint.closest_point(&c.position).1 <= reach)
        .map(|c| c.name.as_str())
}

/// The momentum ruling on `after`, the unit at `index` in the situation's scene after its move.
pub fn momentum_ruling(situation: &Situation, index: usize, after: &Unit) -> Ruling {
    let profile = situation.profile;
    let before = &situation.scene.units[index];
    let from = before.footprint.leader();
    let moved = after.footprint.leader() - from;
    let distance = Inches(moved.norm());
    let tolerance = profile.tolerance();
    let length = |l: Inches| profile.length(l.rounded());
    let Some(momentum) = before.momentum else {
        return ruling(
            before,
            Decision::Yes,
            vec![Figure::inches("moved", distance)],
            format!(
                "{} has no recorded momentum (its first bound, §9): it may set off in any direction at any permitted speed.",
                before.name
            ),
            Vec::new(),
        );
    };
    let expected = Inches(momentum.distance);
    let target = predicted(before, momentum);
    let speed_change = distance - expected;
    let turn = if distance > tolerance.distance && expected > tolerance.distance {
        turn_between(moved, heading(Degrees(momentum.heading)))
    } else {
        Degrees(0.0)
    };
    let speed_changed = speed_change.abs() > tolerance.distance;
    let turned = turn > tolerance.angle;
    let near_limit = (speed_change.abs() - tolerance.distance).abs() <= tolerance.distance / 2.0
        || (turn - tolerance.angle).0.abs() <= tolerance.angle.0 / 2.0;
    let shapes = vec![Shape::segment(
        ShapeRole::Placement,
        &from,
        &target,
        format!("predicted {}", length(expected)),
    )];
    let figures = vec![
        Figure::inches("moved", distance),
        Figure::inches("momentum", expected),
        Figure::inches("speed change", speed_change),
        Figure {
            name: "turn",
            value: (turn.0 * 10.0).round() / 10.0,
            unit: crate::ruling::FigureUnit::Degrees,
            plus_minus: None,
        },
    ];
    let what = match (speed_changed, turned, distance <= tolerance.distance) {
        (false, false, _) => {
            return ruling(
                before,
                Decision::judge(true, near_limit),
                figures,
                format!(
                    "{} kept its momentum: it moved {} where {} was predicted, on its heading.",
                    before.name,
                    length(distance),
                    length(expected)
                ),
                shapes,
            );
        }
        (_, _, true) => "halted (a change of speed, E-10)".to_owned(),
        (true, false, false) => format!(
            "changed speed: {} instead of {}",
            length(distance),
            length(expected)
        ),
        (false, true, false) => format!("changed direction by {turn}"),
        (true, true, false) => format!(
            "changed speed ({} instead of {}) and direction (by {turn})",
            length(distance),
            length(expected)
        ),
    };
    if let Some(cinc) = led_by_cinc(situation, before) {
        return ruling(
            before,
            Decision::Yes,
            figures,
            format!(
                "{} {what}: permitted, {cinc} (commander-in-chief) is in base contact (§10.2).",
                before.name
            ),
            shapes,
        );
    }
    ruling(
        before,
        Decision::judge(false, near_limit),
        figures,
        format!(
            "{} {what} without the commander-in-chief in contact: permitted only as the one formation the CinC redirects this bound (§10.3), a detour or road march (§10.4), skirmishers deploying (§10.1), or a reaction test or standing order (§10.5) — players decide which, if any, applies.",
            before.name
        ),
        shapes,
    )
}

fn ruling(
    unit: &Unit,
    decision: Decision,
    figures: Vec<Figure>,
    explanation: String,
    shapes: Vec<Shape>,
) -> Ruling {
    Ruling {
        topic: Topic::Movement,
        unit: unit.id.clone(),
        other: None,
        decision,
        rule: MOMENTUM,
        figures,
        explanation,
        shapes,
    }
}
