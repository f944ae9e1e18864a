//! Brigade cohesion (digest §5.3, A16): a brigade order needs its units to form one group, each
//! within 6" of another (a chain is fine).

use std::collections::BTreeMap;

use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::{Scene, Unit};
use crate::situation::Situation;
use crate::units::Inches;

const COHESION: RuleRef = RuleRef::read_as("Brigade Orders (§5.3)", "A16");

/// The brigades of a scene with two or more units, as (side, brigade) → unit indices.
pub fn brigades(scene: &Scene) -> BTreeMap<(&str, &str), Vec<usize>> {
    let mut brigades: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (index, unit) in scene.units.iter().enumerate() {
        if let Some(brigade) = &unit.brigade {
            brigades
                .entry((unit.side.as_str(), brigade.as_str()))
                .or_default()
                .push(index);
        }
    }
    brigades.retain(|_, members| members.len() > 1);
    brigades
}

/// A unit cut off from its brigade's group: the unit, the nearest unit of the group, and the
/// gap between them (all indices in the scene).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CutOff {
    /// The unit outside the group.
    pub unit: usize,
    /// The nearest unit of the group.
    pub nearest: usize,
    /// Base edge to base edge.
    pub gap: Inches,
}

/// The units of `members` not in one group with the rest, each unit within `reach` of
/// another (A16: a chain is fine). The larger part is the group; the rest are cut off.
pub fn cut_off(units: &[Unit], members: &[usize], reach: Inches) -> Vec<CutOff> {
    let Some(&first) = members.first() else {
        return Vec::new();
    };
    let gap = |a: usize, b: usize| units[a].footprint.gap_to(&units[b].footprint);
    // Grow the group from the first unit; what is left is cut off.
    let mut group = vec![first];
    let mut grown = true;
    while grown {
        grown = false;
        for &m in members {
            if !group.contains(&m) && group.iter().any(|&g| gap(g, m) <= reach) {
                group.push(m);
                grown = true;
            }
        }
    }
    let mut outside: Vec<usize> = members
        .iter()
        .copied()
        .filter(|m| !group.contains(m))
        .collect();
    if outside.len() > group.len() {
        std::mem::swap(&mut group, &mut outside);
    }
    outside
        .into_iter()
        .map(|unit| {
            let (nearest, gap) = group
                .iter()
                .map(|&g| (g, gap(unit, g)))
                .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
                .unwrap_or((unit, Inches(f64::INFINITY)));
            CutOff { unit, nearest, gap }
        })
        .collect()
}

/// One ruling per brigade of two or more units: together, or which units are cut off.
pub fn cohesion_rulings(situation: &Situation) -> Vec<Ruling> {
    if !situation.profile.specials().brigade_orders {
        return Vec::new();
    }
    brigades(situation.scene)
        .into_iter()
        .map(|((_, brigade), members)| brigade_ruling(situation, brigade, &members))
        .collect()
}

fn brigade_ruling(situation: &Situation, brigade: &str, members: &[usize]) -> Ruling {
    let reach = situation.profile.distances().brigade_cohesion;
    let tolerance = situation.profile.tolerance().distance;
    let units = &situation.scene.units;
    let cut: Vec<(usize, usize, Inches)> = cut_off(units, members, reach)
        .into_iter()
        .map(|c| (c.unit, c.nearest, c.gap))
        .collect();
    let borderline = cut.iter().any(|(_, _, d)| *d - reach <= tolerance);
    let explanation = if cut.is_empty() {
        format!(
            "Brigade {brigade}: all {} units are within {reach} of one another as a group: it may take a brigade order.",
            members.len(),
            reach = situation.profile.length(reach)
        )
    } else {
        let parts: Vec<String> = cut
            .iter()
            .map(|(m, g, d)| {
                format!(
                    "{} is {} from {}",
                    units[*m].name,
                    situation.profile.length(d.rounded()),
                    units[*g].name
                )
            })
            .collect();
        let mut text = format!(
            "Brigade {brigade} is not one group: {} (more than {reach}).",
            parts.join("; "),
            reach = situation.profile.length(reach)
        );
        if borderline {
            text.push_str(" Borderline — players decide.");
        }
        text
    };
    Ruling {
        topic: Topic::Command,
        // Cut off: the first unit cut off, and the unit of the brigade it is furthest from
        // reaching (never the same unit twice); together: the brigade's first unit.
        unit: units[cut.first().map_or(members[0], |(m, _, _)| *m)]
            .id
            .clone(),
        other: cut.first().map(|(_, g, _)| units[*g].id.clone()),
        decision: Decision::judge(cut.is_empty(), borderline),
        rule: COHESION,
        figures: cut
            .iter()
            .map(|(_, _, d)| Figure::inches("gap", *d))
            .collect(),
        explanation,
        shapes: cut
            .iter()
            .map(|(m, g, d)| {
                Shape::segment(
                    ShapeRole::Measure,
                    &units[*m].footprint.leader(),
                    &units[*g].footprint.leader(),
                    situation.profile.length(d.rounded()).to_string(),
                )
            })
            .collect(),
    }
}
