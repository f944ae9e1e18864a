//! Brigade cohesion (digest §5.3, A16): a brigade order needs its units to form one group, each
//! within 6" of another (a chain is fine).

use std::collections::BTreeMap;

use crate::profile::Tolerance;
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
/// gap between them (all positions in the units given).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CutOff {
    /// The unit outside the group.
    pub unit: usize,
    /// The nearest unit of the group.
    pub nearest: usize,
    /// Base edge to base edge.
    pub gap: Inches,
}

/// The units not in one group with the rest, each unit within `reach` of another (A16: a
/// chain is fine). `reach` is asked per pair (as positions in `units`), so a pair the camera
/// measured may be held to its own error bar. The larger part is the group; the rest are cut
/// off.
pub fn cut_off(units: &[&Unit], reach: impl Fn(usize, usize) -> Inches) -> Vec<CutOff> {
    if units.is_empty() {
        return Vec::new();
    }
    let gap = |a: usize, b: usize| units[a].footprint.gap_to(&units[b].footprint);
    // Grow the group from the first unit; what is left is cut off.
    let mut group = vec![0];
    let mut grown = true;
    while grown {
        grown = false;
        for m in 0..units.len() {
            if !group.contains(&m) && group.iter().any(|&g| gap(g, m) <= reach(g, m)) {
                group.push(m);
                grown = true;
            }
        }
    }
    let mut outside: Vec<usize> = (0..units.len()).filter(|m| !group.contains(m)).collect();
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

/// The widest error bar of the measured gaps too near `reach` to tell from it, to say in a
/// ruling why it is for the players (none among units drawn by hand).
pub(crate) fn widest_doubt(
    units: &[&Unit],
    length_sd: Option<f64>,
    reach: Inches,
    tolerance: &Tolerance,
) -> Option<Inches> {
    (0..units.len())
        .flat_map(|a| (a + 1..units.len()).map(move |b| (a, b)))
        .filter_map(|(a, b)| {
            let within = units[a]
                .footprint
                .gap_plus_minus(&units[b].footprint, length_sd)?;
            let gap = units[a].footprint.gap_to(&units[b].footprint);
            ((gap - reach).abs() <= tolerance.margin(Some(within))).then_some(within)
        })
        .reduce(Inches::max)
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
    let units: Vec<&Unit> = members.iter().map(|&m| &situation.scene.units[m]).collect();
    let plus_minus = |a: usize, b: usize| {
        units[a]
            .footprint
            .gap_plus_minus(&units[b].footprint, situation.scene.length_sd)
    };
    let cut: Vec<(usize, usize, Inches, Option<Inches>)> = cut_off(&units, |_, _| reach)
        .into_iter()
        .map(|c| (c.unit, c.nearest, c.gap, plus_minus(c.unit, c.nearest)))
        .collect();
    // Cut off by a gap too near the reach to tell; or together only by one the camera cannot
    // tell from the reach (a tape's gap just inside it is not in doubt: the tolerance reads
    // only beyond the reach, as it always has).
    let cut_in_doubt = cut
        .iter()
        .any(|(_, _, d, within)| *d - reach <= situation.margin(*within));
    let tight = |a: usize, b: usize| {
        plus_minus(a, b).map_or(reach, |within| reach - situation.margin(Some(within)))
    };
    let held_in_doubt = cut.is_empty() && !cut_off(&units, tight).is_empty();
    let borderline = cut_in_doubt || held_in_doubt;
    let doubt = borderline
        .then(|| {
            widest_doubt(
                &units,
                situation.scene.length_sd,
                reach,
                &situation.profile.tolerance(),
            )
        })
        .flatten();
    let mut explanation = if cut.is_empty() {
        format!(
            "Brigade {brigade}: all {} units are within {reach} of one another as a group: it may take a brigade order.",
            members.len(),
            reach = situation.profile.length(reach)
        )
    } else {
        let parts: Vec<String> = cut
            .iter()
            .map(|(m, g, d, within)| {
                format!(
                    "{} is {} from {}",
                    units[*m].name,
                    situation.length_within(*d, *within),
                    units[*g].name
                )
            })
            .collect();
        format!(
            "Brigade {brigade} is not one group: {} (more than {reach}).",
            parts.join("; "),
            reach = situation.profile.length(reach)
        )
    };
    if borderline {
        explanation.push_str(&format!(
            " {} — players decide.",
            crate::text::capitalised(&situation.undecided(doubt))
        ));
    }
    Ruling {
        topic: Topic::Command,
        // Cut off: the first unit cut off, and the unit of the brigade it is furthest from
        // reaching (never the same unit twice); together: the brigade's first unit.
        unit: units[cut.first().map_or(0, |c| c.0)].id.clone(),
        other: cut.first().map(|c| units[c.1].id.clone()),
        decision: Decision::judge(cut.is_empty(), borderline),
        rule: COHESION,
        figures: cut
            .iter()
            .map(|(_, _, d, within)| Figure::inches("gap", *d).within(*within))
            .collect(),
        explanation,
        shapes: cut
            .iter()
            .map(|(m, g, d, _)| {
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
