//! A gun's penetration line, for rulesets whose shot bounces on through its target (Bugles,
//! Bullets and Blades' artillery penetration zones, L439-441, B-31; chosen by the profile's
//! `penetration` special).
//!
//! Decisions:
//! - The line runs from the muzzle through the point the shot is measured to (the target's
//!   nearest part) and on beyond it, the penetration zone's length — a third of what is left of
//!   the gun's range, `(maximum − range) ÷ 3` — measured from that point.
//! - Woods, buildings, hills and rivers stop it where it first meets them ("trees, buildings,
//!   a ridge or a hill", "particularly wet or soft ground"); a target standing in one stops it
//!   at once.
//! - Every unit whose bases the line touches beyond the muzzle, friend or foe, is rolled for
//!   separately; friends are named as such.
//! - Canister (at or within the weapon's canister reach) penetrates one stand deep instead:
//!   no line is drawn for it.

use parry2d_f64::bounding_volume::Aabb;
use parry2d_f64::math::Isometry;
use parry2d_f64::query::intersection_test;
use parry2d_f64::shape::Segment;

use super::assess::Assessment;
use crate::geometry::TablePoint;
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::TerrainKind;
use crate::situation::Situation;
use crate::units::Inches;

/// The rule the ruling cites, in Bugles, Bullets and Blades' own words.
pub const PENETRATION: RuleRef = RuleRef {
    rule: "Artillery penetration zones (L439-441)",
    reading: Some("B-31"),
};

/// The terrain that stops a bouncing shot.
fn stops_shot(kind: TerrainKind) -> bool {
    matches!(
        kind,
        TerrainKind::Wood | TerrainKind::Building | TerrainKind::Hill | TerrainKind::River
    )
}

/// The penetration line of `gun`'s shot at `target`, and every unit it touches.
pub fn penetration_line(situation: &Situation, gun: usize, target: &Assessment) -> Option<Ruling> {
    let view = &situation.units[gun];
    let max = view.range()?;
    if view
        .weapon
        .and_then(|w| w.canister())
        .is_some_and(|canister| target.range <= canister)
    {
        return None;
    }
    let (muzzle, aim) = (target.tape.from, target.tape.to);
    let along = (aim - muzzle).try_normalize(1e-9)?;
    let left = (max - target.range).max(Inches::ZERO);
    let length = left / 3.0;
    let mut end = aim + along * length.0;
    let stopped = first_stop(situation, aim, end);
    if let Some((at, _)) = stopped {
        end = at;
    }
    let line = Segment::new(muzzle, end);
    // Only the units whose boxes meet the line's are tested against it.
    let mut touched: Vec<(usize, bool)> = situation
        .units_in(Aabb::from_points([muzzle, end]))
        .filter(|other| other.index != gun && other.index != target.index)
        .filter(|other| {
            other.shapes.iter().any(|(pose, cuboid)| {
                intersection_test(&Isometry::identity(), &line, pose, cuboid).unwrap_or(false)
            })
        })
        .map(|other| (other.index, other.side == view.side))
        .collect();
    touched.sort_by_key(|(index, _)| *index);
    Some(ruling(
        situation,
        gun,
        target,
        (aim, end),
        (left, length),
        &touched,
        stopped.map(|(_, id)| id),
    ))
}

/// Where the line from `from` to `to` first meets terrain that stops the shot, and which.
fn first_stop<'s>(
    situation: &'s Situation,
    from: TablePoint,
    to: TablePoint,
) -> Option<(TablePoint, &'s str)> {
    situation
        .terrain
        .pieces()
        .iter()
        .filter(|piece| stops_shot(piece.kind))
        .filter_map(|piece| Some((piece.first_meeting(&from, &to)?, piece.id.as_str())))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(along, id)| (from + (to - from) * along, id))
}

fn ruling(
    situation: &Situation,
    gun: usize,
    target: &Assessment,
    (aim, end): (TablePoint, TablePoint),
    (left, length): (Inches, Inches),
    touched: &[(usize, bool)],
    stopped_by: Option<&str>,
) -> Ruling {
    let profile = situation.profile;
    let scene = situation.scene;
    let unit = &scene.units[gun];
    let names: Vec<String> = touched
        .iter()
        .map(|&(index, friend)| {
            let name = &scene.units[index].name;
            if friend {
                format!("{name} (a FRIENDLY unit)")
            } else {
                name.clone()
            }
        })
        .collect();
    let beyond = if names.is_empty() {
        "it touches no other unit".to_owned()
    } else {
        format!(
            "every stand it touches is rolled for separately — {}",
            names.join(", ")
        )
    };
    let mut explanation = format!(
        "If {} fires at {}, the shot penetrates {} beyond it (a third of the {} left of its range): {beyond}.",
        unit.name,
        scene.units[target.index].name,
        profile.length(length.rounded()),
        profile.length(left.rounded()),
    );
    if let Some(piece) = stopped_by {
        explanation.push_str(&format!(" The line stops at {piece}."));
    }
    Ruling {
        topic: Topic::Shooting,
        unit: unit.id.clone(),
        other: Some(target.id.clone()),
        decision: Decision::Must,
        rule: PENETRATION,
        figures: vec![
            Figure::inches("penetration", length),
            Figure::count("units touched", touched.len() as i64),
            Figure::count(
                "friends touched",
                touched.iter().filter(|(_, friend)| *friend).count() as i64,
            ),
        ],
        explanation,
        shapes: vec![Shape::segment(
            ShapeRole::Measure,
            &aim,
            &end,
            format!("penetration {}", profile.length(length.rounded())),
        )],
    }
}
