//! Brigade cohesion across a move (digest §5.3, A16): a brigade order needs its units to form
//! one group — each within 6" of another — both before and after the move. A move that tears a
//! group apart names the unit whose move did it.

use crate::command::{CutOff, brigades, cut_off, widest_doubt};
use crate::geometry::angle_between;
use crate::profile::{Profile, Tolerance};
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::{Scene, Unit};
use crate::text::possessive;
use crate::units::Inches;

const COHESION: RuleRef = RuleRef::read_as("Brigade Orders (§5.3)", "A16");

/// Below this a unit has not moved (a camera never sees two identical positions).
const STILL: Inches = Inches(0.01);

/// Whether a unit stands where it stood.
pub(crate) fn moved(before: &Unit, after: &Unit) -> bool {
    let (a, b) = (before.footprint.stands(), after.footprint.stands());
    a.len() != b.len()
        || a.iter().zip(b).any(|(s, t)| {
            crate::geometry::distance(&s.center(), &t.center()) > STILL
                || angle_between(s.forward(), t.forward()).0 > 0.1
        })
}

/// Units cut off as (unit, nearest in the group, gap).
fn triples(cut: Vec<CutOff>) -> Vec<(usize, usize, Inches)> {
    cut.into_iter()
        .map(|c| (c.unit, c.nearest, c.gap))
        .collect()
}

/// One brigade's units at one moment, and whether they form a group.
struct Group<'u> {
    units: Vec<&'u Unit>,
    /// The scene's relative error of every length, when a camera measured it.
    length_sd: Option<f64>,
}

impl Group<'_> {
    /// The units cut off from the group at `reach`, with each pair's reach moved by `slack`
    /// (given the pair's error bar, if measured): (unit, nearest in the group, gap), as
    /// positions in `units`.
    fn cut_with(
        &self,
        reach: Inches,
        slack: impl Fn(Option<Inches>) -> Inches,
    ) -> Vec<(usize, usize, Inches)> {
        let units = &self.units;
        let reach_of = |a: usize, b: usize| {
            let within = units[a]
                .footprint
                .gap_plus_minus(&units[b].footprint, self.length_sd);
            reach + slack(within)
        };
        triples(cut_off(units, reach_of))
    }

    /// The units cut off from the group at `reach`.
    fn cut(&self, reach: Inches) -> Vec<(usize, usize, Inches)> {
        triples(cut_off(&self.units, |_, _| reach))
    }

    /// Whether it is one group, and whether a gap too near the reach to tell (each pair's
    /// margin: the tolerance drawn by hand, its error bar measured) could change that.
    fn cohesive(&self, reach: Inches, tolerance: &Tolerance) -> (bool, bool) {
        let at = self.cut(reach).is_empty();
        let tight = self
            .cut_with(reach, |within| -tolerance.margin(within))
            .is_empty();
        let loose = self
            .cut_with(reach, |within| tolerance.margin(within))
            .is_empty();
        (at, tight != loose)
    }
}

/// One ruling per brigade (of two or more units) with a unit that moved between `before` and
/// `after`: whether it was one group before the move and after it, and which unit's move broke
/// it apart.
pub fn check_brigades(before: &Scene, after: &Scene, profile: &Profile) -> Vec<Ruling> {
    if !profile.specials().brigade_orders {
        return Vec::new();
    }
    let reach = profile.distances().brigade_cohesion;
    let tolerance = profile.tolerance();
    let mut rulings = Vec::new();
    for ((_, brigade), members) in brigades(before) {
        // The units seen in both scenes, in the same order.
        let pairs: Vec<(&Unit, &Unit)> = members
            .iter()
            .filter_map(|&m| {
                let unit = &before.units[m];
                after.unit(&unit.id).map(|moved| (unit, moved))
            })
            .collect();
        if pairs.len() < 2 || !pairs.iter().any(|(b, a)| moved(b, a)) {
            continue;
        }
        let start = Group {
            units: pairs.iter().map(|(b, _)| *b).collect(),
            length_sd: before.length_sd,
        };
        let end = Group {
            units: pairs.iter().map(|(_, a)| *a).collect(),
            length_sd: after.length_sd,
        };
        let (was, was_borderline) = start.cohesive(reach, &tolerance);
        let (is, is_borderline) = end.cohesive(reach, &tolerance);
        // The units whose move alone broke the group: put one back and the group holds.
        let breakers: Vec<&Unit> = if was && !is {
            (0..pairs.len())
                .filter(|&i| moved(pairs[i].0, pairs[i].1))
                .filter(|&i| {
                    let mut units = end.units.clone();
                    units[i] = pairs[i].0;
                    Group {
                        units,
                        length_sd: after.length_sd,
                    }
                    .cut(reach)
                    .is_empty()
                })
                .map(|i| pairs[i].0)
                .collect()
        } else {
            Vec::new()
        };
        let after_cut = end.cut(reach);
        let before_cut = start.cut(reach);
        let describe = |group: &Group, cut: &[(usize, usize, Inches)]| {
            cut.iter()
                .map(|(m, g, d)| {
                    format!(
                        "{} is {} from {}",
                        group.units[*m].name,
                        profile.length(d.rounded()),
                        group.units[*g].name
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        let mut explanation = match (was, is) {
            (true, true) => format!(
                "Brigade {brigade} was one group (each unit within {reach} of another) before the move and still is after it: a brigade order could have moved it.",
                reach = profile.length(reach)
            ),
            (true, false) => {
                let who = if breakers.is_empty() {
                    "the moves together break it".to_owned()
                } else {
                    let names: Vec<&str> = breakers.iter().map(|u| u.name.as_str()).collect();
                    let whose = possessive(&names.join(" and "));
                    format!("{whose} move breaks it")
                };
                format!(
                    "Brigade {brigade} was one group before the move but not after it: {who} — {} (more than {reach}). A brigade order must keep its units within {reach} of one another.",
                    describe(&end, &after_cut),
                    reach = profile.length(reach)
                )
            }
            (false, _) => format!(
                "Brigade {brigade} was not one group before the move ({}, more than {reach}), so it could not move on one brigade order: its units needed orders of their own.",
                describe(&start, &before_cut),
                reach = profile.length(reach)
            ),
        };
        let borderline = was_borderline || is_borderline;
        if borderline {
            let doubt = widest_doubt(&start.units, before.length_sd, reach, &tolerance)
                .into_iter()
                .chain(widest_doubt(&end.units, after.length_sd, reach, &tolerance))
                .reduce(Inches::max);
            explanation.push_str(&match doubt {
                Some(within) => format!(
                    " A gap is too near to tell from {reach}: the camera cannot tell within {} — players decide.",
                    profile.length(within.rounded_up()),
                    reach = profile.length(reach)
                ),
                None => format!(
                    " A gap is within {tolerance} of {reach}: borderline — players decide.",
                    tolerance = profile.length(tolerance.distance),
                    reach = profile.length(reach)
                ),
            });
        }
        let (shown, cut) = if was {
            (&end, &after_cut)
        } else {
            (&start, &before_cut)
        };
        let mut figures: Vec<Figure> = cut
            .iter()
            .map(|(_, _, d)| Figure::inches("gap", *d))
            .collect();
        figures.push(Figure::inches("cohesion", reach));
        rulings.push(Ruling {
            topic: Topic::Command,
            unit: pairs[0].0.id.clone(),
            other: breakers
                .first()
                .map(|u| u.id.clone())
                .or_else(|| cut.first().map(|(m, _, _)| shown.units[*m].id.clone())),
            decision: Decision::judge(was && is, borderline),
            rule: COHESION,
            figures,
            explanation,
            shapes: cut
                .iter()
                .map(|(m, g, d)| {
                    Shape::segment(
                        ShapeRole::Measure,
                        &shown.units[*m].footprint.leader(),
                        &shown.units[*g].footprint.leader(),
                        profile.length(d.rounded()).to_string(),
                    )
                })
                .collect(),
        });
    }
    crate::rulings::in_ruleset_terms(&mut rulings, profile);
    rulings
}
