//! Round shot's beaten zone, for rulesets whose round shot strikes a strip rather than a
//! target (eRules fn17, §28, §30, E-13; chosen by the profile's `beaten-zone` special).
//!
//! The zone is a rectangle centred on the line of fire, as wide as the battery's frontage, from
//! the battery's front to the gun's maximum range. Every unit in it is tested, friend or foe
//! (E-13b: a friend is flagged for the players to confirm), and casualties count only the
//! figures inside (E-13a), so each unit's share of its bases inside the strip is given.
//!
//! Decisions:
//! - The line of fire runs from the gun's eye (where its range is measured from) through the
//!   point it is aimed at (the target's nearest visible part): the same line the target
//!   ruling draws.
//! - Over a slope the zone is only 100 m long, centred on the point of aim (fn17). Whether the
//!   ground at the point of aim is a slope the camera cannot judge: when the strip crosses a
//!   hill the ruling says so and is borderline — players decide.

use geo::{Area, BooleanOps};
use parry2d_f64::bounding_volume::Aabb;

use super::assess::Assessment;
use crate::geometry::{OrientedRect, TablePoint, heading};
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::TerrainKind;
use crate::situation::Situation;
use crate::terrain::to_geo;
use crate::units::Inches;

/// The rule the ruling cites.
const BEATEN_ZONE: RuleRef = RuleRef {
    rule: "Round shot: the beaten zone (§28, fn17)",
    reading: Some("E-13"),
};

/// A unit with some of its bases in the strip.
#[derive(Clone, Debug, PartialEq)]
pub struct InZone {
    /// Its index in the scene.
    pub index: usize,
    /// The share of its bases' area inside the strip (its figures inside, E-13a).
    pub share: f64,
    /// On the firing battery's side.
    pub friend: bool,
    /// The share of the last bound it spent in the strip, from its momentum (its last bound's
    /// move, eRules §10): `None` when it did not move, so spent the whole bound there.
    pub time_inside: Option<f64>,
}

/// The strip a battery's round shot beats, aimed as `target` says, and who is in it.
pub fn beaten_zone(situation: &Situation, gun: usize, target: &Assessment) -> Option<Ruling> {
    let view = &situation.units[gun];
    let max = view.range()?;
    let frame = view.unit.footprint.frame();
    let strip = strip(target.tape.from, target.tape.to, frame.width(), max)?;
    let corners = strip.corners();
    let area = to_geo(&corners);
    // Only the units whose boxes meet the strip's are clipped against it.
    let bounds = Aabb::from_points(corners.iter().copied());
    let mut struck: Vec<InZone> = situation
        .units_in(bounds)
        .filter(|other| other.index != gun)
        .filter_map(|other| {
            let bases = other.unit.footprint.stands();
            let total: f64 = bases.iter().map(OrientedRect::area).sum();
            let inside: f64 = bases
                .iter()
                .map(|b| area.intersection(&to_geo(&b.corners())).unsigned_area())
                .sum();
            (total > 0.0 && inside > 1e-6).then(|| InZone {
                index: other.index,
                share: inside / total,
                friend: other.side == view.side,
                time_inside: time_inside(&strip, other.unit),
            })
        })
        .collect();
    struck.sort_by_key(|z| z.index);
    let slopes = hills_under(situation, &strip);
    Some(ruling(situation, gun, target, &strip, &struck, &slopes))
}

/// Steps along a unit's last move at which it is looked for in the strip.
const PATH_STEPS: u32 = 20;

/// The share of its last bound a unit that moved spent in the strip (§30): the share of its
/// path, start to here, along which its centre was inside. `None` if it did not move.
fn time_inside(strip: &OrientedRect, unit: &crate::scene::Unit) -> Option<f64> {
    let momentum = unit.momentum.filter(|m| m.distance > 0.0)?;
    let here = unit.footprint.frame().center();
    let step = heading(crate::units::Degrees(momentum.heading)) * momentum.distance;
    let inside = (0..=PATH_STEPS)
        .filter(|k| {
            let t = f64::from(*k) / f64::from(PATH_STEPS);
            let at = strip.to_local(&(here - step * (1.0 - t)));
            at.across.0.abs() <= strip.width().0 / 2.0
                && (-strip.depth().0..=0.0).contains(&at.ahead.0)
        })
        .count();
    Some(inside as f64 / f64::from(PATH_STEPS + 1))
}

/// The hills the strip lies on: those its line of fire crosses (the terrain's own ray casts),
/// and those under one of its corners.
fn hills_under<'s>(situation: &'s Situation, strip: &OrientedRect) -> Vec<&'s str> {
    let far = strip.front_center();
    let near = far - strip.forward() * strip.depth().0;
    let crossed: Vec<&str> = situation
        .terrain
        .passages(&near, &far)
        .iter()
        .map(|p| p.piece.id.as_str())
        .collect();
    situation
        .terrain
        .pieces()
        .iter()
        .filter(|p| p.kind == TerrainKind::Hill)
        .filter(|p| {
            crossed.contains(&p.id.as_str()) || strip.corners().iter().any(|c| p.contains(c))
        })
        .map(|p| p.id.as_str())
        .collect()
}

/// The rectangle `width` wide from `eye` towards `aim`, `length` long; `None` when the aim is
/// the eye.
fn strip(eye: TablePoint, aim: TablePoint, width: Inches, length: Inches) -> Option<OrientedRect> {
    let towards = aim - eye;
    if towards.norm() < 1e-9 {
        return None;
    }
    let facing = crate::geometry::facing_of(towards);
    // An OrientedRect's front is its leading edge: the far end, `length` out along the line.
    let far = eye + heading(facing) * length.0;
    Some(OrientedRect::new(far, facing, width, length))
}

fn ruling(
    situation: &Situation,
    gun: usize,
    target: &Assessment,
    strip: &OrientedRect,
    struck: &[InZone],
    slopes: &[&str],
) -> Ruling {
    let profile = situation.profile;
    let scene = situation.scene;
    let unit = &scene.units[gun];
    let names: Vec<String> = struck
        .iter()
        .map(|z| {
            let other = &scene.units[z.index];
            let friend = if z.friend {
                ", a FRIENDLY unit: confirm (E-13b)"
            } else {
                ""
            };
            let time = match z.time_inside {
                Some(t) => format!(", there for {:.0} % of its last bound (§30)", 100.0 * t),
                None => String::new(),
            };
            format!(
                "{} ({:.0} % inside{time}{friend})",
                other.name,
                100.0 * z.share
            )
        })
        .collect();
    let mut explanation = format!(
        "Round shot from {} aimed at {} beats a strip {} wide from the guns out to {}: {}.",
        unit.name,
        scene.units[target.index].name,
        profile.length(strip.width()),
        profile.length(strip.depth()),
        if names.is_empty() {
            "no unit is in it".to_owned()
        } else {
            format!(
                "every unit in it is tested — {}; count only the figures inside (E-13a)",
                names.join(", ")
            )
        }
    );
    if struck.iter().any(|z| z.time_inside.is_some()) {
        explanation.push_str(
            " A unit that moved through the zone has its casualties reduced by the share of the bound it spent elsewhere, rounding up (§30).",
        );
    }
    if !slopes.is_empty() {
        explanation.push_str(&format!(
            " The strip crosses {}: fired over a slope the beaten zone is only 100 m long, centred on the point of aim (fn17) — borderline — players decide.",
            slopes.join(" and ")
        ));
    }
    Ruling {
        topic: Topic::Shooting,
        unit: unit.id.clone(),
        other: Some(target.id.clone()),
        decision: if slopes.is_empty() {
            Decision::Yes
        } else {
            Decision::Borderline
        },
        rule: BEATEN_ZONE,
        figures: vec![
            Figure::inches("zone width", strip.width()),
            Figure::inches("zone length", strip.depth()),
            Figure::count("units in the zone", struck.len() as i64),
            Figure::count(
                "friends in the zone",
                struck.iter().filter(|z| z.friend).count() as i64,
            ),
        ],
        explanation,
        shapes: vec![Shape::polygon(ShapeRole::Zone, &strip.corners())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strip_runs_from_the_eye_along_the_line_of_fire() {
        let eye = TablePoint::new(10.0, 10.0);
        let zone = strip(eye, TablePoint::new(10.0, 20.0), Inches(3.0), Inches(40.0))
            .expect("a line of fire");
        assert!((zone.depth().0 - 40.0).abs() < 1e-9);
        assert!((zone.width().0 - 3.0).abs() < 1e-9);
        let far = zone.front_center();
        assert!((far - TablePoint::new(10.0, 50.0)).norm() < 1e-9, "{far}");
        let near = far - zone.forward() * 40.0;
        assert!((near - eye).norm() < 1e-9);
        assert!(strip(eye, eye, Inches(3.0), Inches(40.0)).is_none());
    }
}
