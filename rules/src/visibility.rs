//! Line of sight on the plan (digest §6.1, A8–A11): sight lines from a unit's leader blocked by
//! other units' bases (friend or foe, engaged or not; never commanders) and by terrain (woods
//! beyond the edge allowance, buildings, hills higher than both ends), the fraction of a target
//! that can be seen, and the width of the gap a shot passes through.
//!
//! What a camera above the table cannot know — model heights, true eye lines over slopes — is
//! not guessed: hills are height levels, and everything else is flat.

use parry2d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry2d_f64::query::{PointQuery, Ray, RayCast};
use parry2d_f64::shape::Segment;
use parry2d_f64::transformation::convex_polygons_intersection_points;
use smallvec::SmallVec;

use crate::geometry::{
    ConvexRegion, LocalPoint, OrientedRect, TablePoint, TableVector, closest_part_inside,
};
use crate::profile::SightRule;
use crate::situation::{Situation, UnitView};
use crate::terrain::SightAllowances;
use crate::units::Inches;

/// What stops a sight line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Obstruction {
    /// A unit's bases (index in the scene).
    Unit(usize),
    /// A piece of terrain (its id).
    Terrain(String),
}

/// How much of a target one unit can see.
#[derive(Clone, Debug, PartialEq)]
pub struct Sight {
    /// Fraction of the target's base area in view (A8), 0 to 1.
    pub visible_fraction: f64,
    /// The closest point of the target that is both in view and in `region`, and its distance.
    pub closest_visible: Option<(TablePoint, Inches)>,
    /// What blocks the rest of the view, nearest first.
    pub obstructions: Vec<Obstruction>,
}

/// The largest spacing between the points sampled on a base (A8 suggests 0.25"; fewer points
/// on large bases keep a 200-unit table fast, and 0.5" is finer than a player's eye).
const SAMPLE_SPACING: f64 = 0.5;
const MAX_SAMPLES_ACROSS: usize = 10;
const MAX_SAMPLES_DEEP: usize = 2;

/// Points spread over a base, at the centres of a grid of cells.
fn samples(base: &OrientedRect) -> impl Iterator<Item = TablePoint> + '_ {
    let across = ((base.width().0 / SAMPLE_SPACING).ceil() as usize).clamp(1, MAX_SAMPLES_ACROSS);
    // Thin bases (a line two ranks deep) need one row: depth barely changes what is hidden.
    let deep = if base.depth().0 <= 1.0 {
        1
    } else {
        ((base.depth().0 / SAMPLE_SPACING).ceil() as usize).clamp(1, MAX_SAMPLES_DEEP)
    };
    (0..across).flat_map(move |i| {
        (0..deep).map(move |j| {
            base.from_local(LocalPoint {
                across: Inches(base.width().0 * ((i as f64 + 0.5) / across as f64 - 0.5)),
                ahead: Inches(-base.depth().0 * (j as f64 + 0.5) / deep as f64),
            })
        })
    })
}

/// The units and terrain that might cut sight lines from `eye` to `target`: those that meet
/// the convex hull of the eye and the target's bases.
///
/// Units lying wholly nearer than the target's nearest corner are `occluders`: a sight line to
/// any point of the target at a bearing inside an occluder's angular span crosses it, so a
/// bearing test answers exactly what a ray cast would. Only the other units need ray casts.
struct Corridor {
    /// The direction from the eye to the target's centre; bearings are measured from it.
    axis: TableVector,
    /// Bearing spans (from, to, as tangents) of units wholly nearer than the target, with their index.
    occluders: SmallVec<[(f64, f64, usize); 8]>,
    /// Units that need a ray cast.
    units: SmallVec<[usize; 8]>,
    /// Terrain pieces that may block sight.
    terrain: SmallVec<[usize; 8]>,
    /// The unit looking.
    looker: usize,
}

impl Corridor {
    /// The bearing of a point from the eye, relative to the axis, as a tangent (see [`span`]);
    /// `None` for a point not ahead of the eye.
    fn bearing(&self, eye: &TablePoint, point: &TablePoint) -> Option<f64> {
        let offset = point - eye;
        let axis = self.axis;
        let ahead = offset.dot(&axis);
        (ahead > 1e-9).then(|| (axis.x * offset.y - axis.y * offset.x) / ahead)
    }
}

fn corners_of<'a>(
    situation: &'a Situation<'a>,
    index: usize,
) -> impl Iterator<Item = TablePoint> + 'a {
    situation.units[index].corners.iter().copied()
}

/// What a line from the eye is for: units that do not block sight (BPT Commander's skirmishers
/// and unlimbered guns) are looked through, but nobody fires through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    Sight,
    Fire,
}

fn corridor(
    situation: &Situation,
    eye: &TablePoint,
    looker: usize,
    target: usize,
    over: &[usize],
    line: Line,
) -> Corridor {
    let target_view = &situation.units[target];
    let bounds = target_view.aabb.merged(&Aabb::from_points([*eye]));
    // A cheap capsule test first: the corridor lies within the target's bounding radius of the
    // segment from the eye to the target's centre.
    let target_centre = target_view.aabb.center();
    let target_radius = target_view.aabb.half_extents().norm();
    let capsule = Segment::new(*eye, target_centre);
    let direction = (target_centre - eye)
        .try_normalize(1e-12)
        .unwrap_or(TableVector::x());
    let axis_length = (target_centre - eye).norm();
    let near_axis = |view: &UnitView| {
        let centre = view.aabb.center();
        let reach = view.aabb.half_extents().norm() + target_radius;
        // The distance to the line through the capsule's axis never exceeds the distance to
        // the axis itself: a unit plainly off the line needs no exact (and dearer) projection.
        // The margin covers rounding, so this only ever rejects what the exact test would.
        // Likewise, one plainly on it, level with a point of the axis, is near it: the
        // distance to the axis is then the distance to the line.
        let offset = centre - eye;
        let off_line = (direction.x * offset.y - direction.y * offset.x).abs();
        let along = offset.dot(&direction);
        let level = along > NEAR_AXIS_MARGIN && along < axis_length - NEAR_AXIS_MARGIN;
        if level && off_line < reach - NEAR_AXIS_MARGIN {
            return true;
        }
        off_line <= reach + NEAR_AXIS_MARGIN
            && capsule.distance_to_local_point(&centre, true) <= reach
    };
    let target_span = span(eye, &direction, corners_of(situation, target));
    let mut occluders: SmallVec<[(f64, f64, usize); 8]> = SmallVec::new();
    let mut units: SmallVec<[usize; 8]> = SmallVec::new();
    // Boxes wholly beyond the target's farthest corner, or wholly behind the eye, cut nothing.
    let farthest = target_span.map(|(_, _, _, far)| far);
    let beyond = |view: &UnitView| {
        let gap = crate::situation::aabb_gap(&view.aabb, &Aabb::from_points([*eye])).0;
        farthest.is_some_and(|far| gap * gap > far)
    };
    let behind = |view: &UnitView| {
        // The box corner farthest along the axis: the others are behind the eye if it is
        // (each coordinate is picked by the sign of the axis, and rounding keeps that order).
        let corner = TablePoint::new(
            if direction.x >= 0.0 {
                view.aabb.maxs.x
            } else {
                view.aabb.mins.x
            },
            if direction.y >= 0.0 {
                view.aabb.maxs.y
            } else {
                view.aabb.mins.y
            },
        );
        (corner - eye).dot(&direction) <= 0.0
    };
    // A unit's bearings surely miss the target's when its bounding circle's do.
    let misses_bearings = |view: &UnitView| {
        target_span.is_some_and(|(low, high, _, _)| {
            circle_bearings(eye, &direction, view)
                .is_some_and(|(from, to)| to < low - slack(low) || from > high + slack(high))
        })
    };
    // The tests are independent filters, so the cheapest run first.
    let nearby = situation.units_in(bounds).filter(|v| {
        v.index != looker
            && v.index != target
            && !over.contains(&v.index)
            && (line == Line::Fire || v.blocks_sight)
            && !behind(v)
            && !beyond(v)
            && near_axis(v)
            && !misses_bearings(v)
    });
    for view in nearby {
        let index = view.index;
        // Bearings decide exactly for units wholly ahead of the eye: one whose bearings miss the
        // target's, or which lies wholly beyond it, cuts no sight line to it.
        match (
            target_span,
            span(eye, &direction, corners_of(situation, index)),
        ) {
            (Some((low, high, nearest, farthest)), Some((from, to, near, far))) => {
                if to < low || from > high || near > farthest {
                    continue;
                }
                if far < nearest {
                    occluders.push((from, to, index));
                } else {
                    units.push(index);
                }
            }
            _ => units.push(index),
        }
    }
    occluders.sort_by(|a, b| a.0.total_cmp(&b.0));
    Corridor {
        axis: direction,
        occluders,
        units,
        terrain: situation.terrain.sight_blockers_in(bounds).collect(),
        looker,
    }
}

/// Bounds on the bearings (as tangents, see [`span`]) of a unit's corners, from the circle
/// around its box: a few operations instead of a bearing per corner. `None` unless the circle
/// lies well ahead of the eye (near the eye, tangents are too sensitive to bound this way).
fn circle_bearings(eye: &TablePoint, axis: &TableVector, view: &UnitView) -> Option<(f64, f64)> {
    /// Inches: far enough ahead that rounding in a corner's tangent is negligible.
    const WELL_AHEAD: f64 = 0.1;
    let offset = view.aabb.center() - eye;
    let (ahead, aside) = (offset.dot(axis), axis.x * offset.y - axis.y * offset.x);
    // Slightly enlarged, so every corner lies inside despite rounding.
    let radius = view.aabb.half_extents().norm() * (1.0 + 1e-9) + 1e-9;
    let (near, far) = (ahead - radius, ahead + radius);
    if near <= WELL_AHEAD {
        return None;
    }
    let (left, right) = (aside + radius, aside - radius);
    let highest = left / if left >= 0.0 { near } else { far };
    let lowest = right / if right >= 0.0 { far } else { near };
    Some((lowest, highest))
}

/// The margin by which [`circle_bearings`] must clear a bearing to decide, for rounding in
/// both (tangents of points well ahead of the eye are good to far better than this).
fn slack(bearing: f64) -> f64 {
    1e-7 * (1.0 + bearing.abs())
}

/// Slack for rounding in the off-line pre-check of [`corridor`] (inches; table coordinates are
/// at most a few hundred inches, so rounding errors are some twelve orders smaller).
const NEAR_AXIS_MARGIN: f64 = 1e-6;

/// The first point of `unit`'s bases met walking from `from` to `to` (`to` when none is).
/// From the eye to a point of the target: where the line enters the target, so terrain inside
/// its own footprint does not hide it (A9); walked back from there to the eye: where the line
/// leaves the looker's own footprint.
fn first_met(situation: &Situation, from: &TablePoint, to: &TablePoint, unit: usize) -> TablePoint {
    let ray = Ray::new(*from, to - from);
    let toi = situation.units[unit]
        .shapes
        .iter()
        .filter_map(|(pose, shape)| shape.cast_ray(pose, &ray, 1.0, true))
        .fold(1.0, f64::min);
    from + (to - from) * toi
}

fn first_obstruction(
    situation: &Situation,
    corridor: &Corridor,
    eye: &TablePoint,
    point: &TablePoint,
    target: usize,
) -> Option<Obstruction> {
    if let Some(bearing) = corridor.bearing(eye, point)
        && let Some(&(_, _, index)) = corridor
            .occluders
            .iter()
            .find(|(from, to, _)| (*from..=*to).contains(&bearing))
    {
        return Some(Obstruction::Unit(index));
    }
    let end = first_met(situation, eye, point, target);
    let ray = Ray::new(*eye, end - eye);
    let unit = corridor.units.iter().copied().find(|&index| {
        situation.units[index]
            .shapes
            .iter()
            .any(|(pose, shape)| shape.intersects_ray(pose, &ray, 1.0))
    });
    if let Some(index) = unit {
        return Some(Obstruction::Unit(index));
    }
    if corridor.terrain.is_empty() {
        return None;
    }
    let distances = situation.profile.distances();
    let allowed = SightAllowances {
        wood_edge: distances.wood_edge,
        scale: situation.profile.scaled(Inches(1.0)).0,
        touching: distances.contact,
    };
    let leaving = first_met(situation, &end, eye, corridor.looker);
    situation
        .terrain
        .blocks_sight(&corridor.terrain, (eye, &leaving), &end, allowed)
        .map(|piece| Obstruction::Terrain(piece.id.clone()))
}

/// The bearing span of `corners` seen from `eye`, and how far their nearest and farthest
/// corners are; `None` if any corner is not ahead of the eye.
///
/// Bearings are kept as tangents (aside / ahead) and distances as squares: both order points
/// exactly as angles and distances would, for points ahead of the eye, without trigonometry.
fn span(
    eye: &TablePoint,
    axis: &TableVector,
    corners: impl Iterator<Item = TablePoint>,
) -> Option<(f64, f64, f64, f64)> {
    let mut out = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for corner in corners {
        let offset = corner - eye;
        let (ahead, aside) = (offset.dot(axis), axis.x * offset.y - axis.y * offset.x);
        if ahead <= 1e-9 {
            return None;
        }
        let bearing = aside / ahead;
        let distance = offset.norm_squared();
        out = (
            out.0.min(bearing),
            out.1.max(bearing),
            out.2.min(distance),
            out.3.max(distance),
        );
    }
    Some(out)
}

/// Whether the occluders together cover the target's whole bearing span: then every sight
/// line to it is cut and it cannot be seen (a unit behind its own front line).
fn hidden_behind(
    situation: &Situation,
    corridor: &Corridor,
    eye: &TablePoint,
    target: usize,
) -> Option<usize> {
    let (low, high, _, _) = span(eye, &corridor.axis, corners_of(situation, target))?;
    let mut reached = low;
    let mut first = None;
    for &(from, to, index) in &corridor.occluders {
        if from > reached {
            break;
        }
        if to > reached {
            reached = to;
            first.get_or_insert(index);
        }
        if reached >= high {
            return first;
        }
    }
    None
}

/// What `looker` sees of `target` from `eye` along lines it may fire on: the visible fraction,
/// and the closest visible point inside `region` (the looker's arc) — where range is measured to
/// (A5). Every unit in the way blocks, including those sight passes (BPT Commander's skirmishers):
/// nobody fires through a unit.
/// `nearest_in_region`, when the caller already knows it, is the closest point of the target in
/// the region, seen or not.
pub fn sight(
    situation: &Situation,
    looker: usize,
    eye: &TablePoint,
    target: usize,
    region: &ConvexRegion,
    nearest_in_region: Option<(TablePoint, Inches)>,
) -> Sight {
    sight_over(
        situation,
        looker,
        eye,
        target,
        region,
        nearest_in_region,
        &[],
    )
}

/// [`sight`], looking over the units in `over` (guns firing overhead, A40).
pub fn sight_over(
    situation: &Situation,
    looker: usize,
    eye: &TablePoint,
    target: usize,
    region: &ConvexRegion,
    nearest_in_region: Option<(TablePoint, Inches)>,
    over: &[usize],
) -> Sight {
    let bases = situation.scene.units[target].footprint.stands();
    let corridor = corridor(situation, eye, looker, target, over, Line::Fire);
    let exact = nearest_in_region.or_else(|| closest_part_inside(eye, region, bases));
    if corridor.units.is_empty() && corridor.occluders.is_empty() && corridor.terrain.is_empty() {
        return Sight {
            visible_fraction: 1.0,
            closest_visible: exact,
            obstructions: Vec::new(),
        };
    }
    if let Some(blocker) = hidden_behind(situation, &corridor, eye, target) {
        return Sight {
            visible_fraction: 0.0,
            closest_visible: None,
            obstructions: vec![Obstruction::Unit(blocker)],
        };
    }
    let mut seen = 0usize;
    let mut total = 0usize;
    let mut obstructions: Vec<Obstruction> = Vec::new();
    let mut nearest_seen: Option<(TablePoint, Inches)> = None;
    for point in bases.iter().flat_map(samples) {
        total += 1;
        match first_obstruction(situation, &corridor, eye, &point, target) {
            None => {
                seen += 1;
                let distance = Inches(nalgebra::distance(eye, &point));
                if in_region(region, &point) && nearest_seen.is_none_or(|(_, d)| distance < d) {
                    nearest_seen = Some((point, distance));
                }
            }
            Some(obstruction) => {
                if !obstructions.contains(&obstruction) {
                    obstructions.push(obstruction);
                }
            }
        }
    }
    let exact_visible = exact
        .filter(|(point, _)| first_obstruction(situation, &corridor, eye, point, target).is_none());
    // The samples are cell centres, up to half a cell inside the visible part: when the
    // closest point is hidden, the closest visible one lies where a shadow's edge crosses the
    // target's outline (or at a corner of it), so those points are tried too.
    let edge_visible = exact_visible.is_none().then(|| {
        let seen_at = |point: &TablePoint| {
            in_region(region, point)
                && first_obstruction(situation, &corridor, eye, point, target).is_none()
        };
        // The nearest point in view lies within a cell or so of the nearest sample in view
        // (a sliver of view between samples is the exception, and keeps the sample's range):
        // only candidates in that band are tried, which keeps the search cheap.
        let band = nearest_seen.map_or(Inches(0.0)..Inches(f64::INFINITY), |(_, d)| {
            Inches(d.0 - 2.0 * SAMPLE_SPACING)..d
        });
        nearest_visible_on_outline(situation, &corridor, eye, bases, band, seen_at)
    });
    let nearest_seen = edge_visible.flatten().or(nearest_seen);
    Sight {
        visible_fraction: if total == 0 {
            0.0
        } else {
            seen as f64 / total as f64
        },
        closest_visible: exact_visible.or(nearest_seen),
        obstructions,
    }
}

fn in_region(region: &ConvexRegion, point: &TablePoint) -> bool {
    match region {
        ConvexRegion::Everywhere => true,
        ConvexRegion::Wedge(w) => w.contains(point),
    }
}

/// How far either side of a shadow's edge a crossing point is tried: a point exactly on the
/// edge is neither in view nor hidden.
const EDGE_NUDGE: f64 = 0.005;

/// The closest point of the target's outline at a distance within `band` that `seen_at` says
/// is in view, among the corners of its bases and the points where the edges of the shadows
/// cast by what lies in the corridor (units and sight-blocking terrain) cross the bases' sides
/// facing the eye. The candidates are tried nearest first: the search stops at the first in
/// view.
fn nearest_visible_on_outline(
    situation: &Situation,
    corridor: &Corridor,
    eye: &TablePoint,
    bases: &[OrientedRect],
    band: std::ops::Range<Inches>,
    seen_at: impl Fn(&TablePoint) -> bool,
) -> Option<(TablePoint, Inches)> {
    let units = corridor
        .units
        .iter()
        .chain(corridor.occluders.iter().map(|(_, _, index)| index))
        .flat_map(|&index| corners_of(situation, index));
    let terrain = corridor
        .terrain
        .iter()
        .flat_map(|&piece| situation.terrain.pieces()[piece].outline().iter().copied());
    // Only a shadow edge within the target's bearings can cross its outline.
    let target_corners = bases.iter().flat_map(|b| b.corners());
    let (low, high) = span(eye, &corridor.axis, target_corners)
        .map_or((f64::NEG_INFINITY, f64::INFINITY), |(low, high, _, _)| {
            (low, high)
        });
    let shadow_edges: Vec<Ray> = units
        .chain(terrain)
        .filter(|corner| {
            corridor
                .bearing(eye, corner)
                .is_some_and(|b| (low..=high).contains(&b))
        })
        .map(|corner| Ray::new(*eye, corner - eye))
        .collect();
    let mut candidates: Vec<TablePoint> = Vec::new();
    for base in bases {
        let corners = base.corners();
        candidates.extend(corners);
        let centre = base.center();
        for k in 0..4 {
            let (a, b) = (corners[k], corners[(k + 1) % 4]);
            // A shadow's edge crosses a far side only beyond where it crossed a near one.
            let middle = nalgebra::center(&a, &b);
            if (eye - middle).dot(&(middle - centre)) <= 0.0 {
                continue;
            }
            let side = Segment::new(a, b);
            let along = (b - a).try_normalize(1e-12).unwrap_or(TableVector::x());
            for ray in &shadow_edges {
                let Some(toi) = side.cast_local_ray(ray, f64::MAX, true) else {
                    continue;
                };
                let at = ray.point_at(toi);
                candidates.extend([at + along * EDGE_NUDGE, at - along * EDGE_NUDGE]);
            }
        }
    }
    let mut by_distance: Vec<(TablePoint, Inches)> = candidates
        .into_iter()
        .map(|point| (point, Inches(nalgebra::distance(eye, &point))))
        .filter(|(_, distance)| band.contains(distance))
        .collect();
    by_distance.sort_by(|a, b| a.1.0.total_cmp(&b.1.0));
    by_distance.into_iter().find(|(point, _)| seen_at(point))
}

/// Whether `looker`'s `eye` sees any part of `target` (a charger's leader must, §7.2): the
/// line to the closest point first, then the sample points until one is in view. Units that do
/// not block sight in the ruleset are looked through.
pub fn can_see(
    situation: &Situation,
    looker: usize,
    eye: &TablePoint,
    target: usize,
) -> Result<(), Obstruction> {
    can_see_past(situation, looker, eye, target, &[])
}

/// Whether `looker` sees `target` from `eye` with the units `past` taken out of the way (BBB's
/// chargers pass through their own skirmishers).
pub fn can_see_past(
    situation: &Situation,
    looker: usize,
    eye: &TablePoint,
    target: usize,
    past: &[usize],
) -> Result<(), Obstruction> {
    let corridor = corridor(situation, eye, looker, target, past, Line::Sight);
    if corridor.units.is_empty() && corridor.occluders.is_empty() && corridor.terrain.is_empty() {
        return Ok(());
    }
    if let Some(blocker) = hidden_behind(situation, &corridor, eye, target) {
        return Err(Obstruction::Unit(blocker));
    }
    let bases = situation.scene.units[target].footprint.stands();
    let (closest, _) = situation.scene.units[target].footprint.closest_point(eye);
    let mut first = None;
    for point in std::iter::once(closest).chain(bases.iter().flat_map(samples)) {
        match first_obstruction(situation, &corridor, eye, &point, target) {
            None => return Ok(()),
            Some(obstruction) => {
                first.get_or_insert(obstruction);
            }
        }
    }
    Err(first.unwrap_or(Obstruction::Unit(target)))
}

/// The width of the clear corridor a shot from `eye` to `aim` passes through (A11): between
/// the nearest units and sight-blocking terrain on either side of the line, measured square to
/// it. Only blockers within `band` of the line are looked at (a wider gap never matters), so
/// `None` means a side is open, or its nearest blocker is farther than `band`.
pub fn gap_width(
    situation: &Situation,
    looker: usize,
    eye: &TablePoint,
    target: usize,
    aim: &TablePoint,
    band: Inches,
) -> Option<(Inches, [String; 2])> {
    gap_width_over(situation, looker, eye, target, aim, band, &[])
}

/// [`gap_width`], ignoring the units in `over` (a gun firing over their heads, A40).
pub fn gap_width_over(
    situation: &Situation,
    looker: usize,
    eye: &TablePoint,
    target: usize,
    aim: &TablePoint,
    band: Inches,
    over: &[usize],
) -> Option<(Inches, [String; 2])> {
    let axis = aim - eye;
    let length = axis.norm();
    if length < 1e-9 {
        return None;
    }
    let along = axis / length;
    let left = TableVector::new(-along.y, along.x);
    // The nearest blocker on either side so far, by its name (copied once, at the end).
    let mut left_bound = (f64::INFINITY, "");
    let mut right_bound = (f64::NEG_INFINITY, "");
    // How far left of the line (negative: right) a blocker's corners lie, if it is level
    // with some of the shot.
    let extent = |corners: &mut dyn Iterator<Item = TablePoint>| {
        let (mut a_min, mut a_max, mut l_min, mut l_max) = (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        );
        for c in corners {
            let offset = c - eye;
            let (a, l) = (offset.dot(&along), offset.dot(&left));
            (a_min, a_max, l_min, l_max) = (a_min.min(a), a_max.max(a), l_min.min(l), l_max.max(l));
        }
        (a_max > 0.0 && a_min < length).then_some((l_min, l_max))
    };
    // Which bound a blocker with this extent would move: the left one (true) or the right.
    let moves = |(l_min, l_max): (f64, f64), left: f64, right: f64| {
        if l_min > 0.0 && l_min < left {
            Some(true)
        } else if l_max < 0.0 && l_max > right {
            Some(false)
        } else {
            None
        }
    };
    let bounds = Aabb::from_points([*eye, *aim]).loosened(band.0);
    // The strip the shot crosses, eye to aim, a band and more to either side: only the part of
    // a unit inside it narrows the gap — not the part beyond the target or behind the shooter.
    let reach = left * (2.0 * band.0 + 1.0);
    let strip = [*eye - reach, *aim - reach, *aim + reach, *eye + reach];
    let mut level = Vec::new();
    for view in situation.units_in(bounds) {
        if view.index == looker || view.index == target || over.contains(&view.index) {
            continue;
        }
        // The whole unit's extent first: clipping only shrinks it, so a unit that is not level
        // with the shot, or that could not move a bound even whole, needs no clipping — only
        // one across an end of the shot and near the line is clipped.
        let Some(whole) = extent(&mut view.corners.iter().copied()) else {
            continue;
        };
        let crosses_line = whole.0 < 0.0 && whole.1 > 0.0;
        if !crosses_line && moves(whole, left_bound.0, right_bound.0).is_none() {
            continue;
        }
        let (near, far) = view
            .corners
            .iter()
            .map(|c| (c - eye).dot(&along))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), a| {
                (lo.min(a), hi.max(a))
            });
        let span = if near >= 0.0 && far <= length {
            Some(whole)
        } else {
            level.clear();
            for stand in view.unit.footprint.stands() {
                let mut piece = Vec::new();
                convex_polygons_intersection_points(&stand.corners(), &strip, &mut piece);
                level.extend(piece);
            }
            extent(&mut level.iter().copied())
        };
        let Some(span) = span else {
            continue;
        };
        match moves(span, left_bound.0, right_bound.0) {
            Some(true) => left_bound = (span.0, view.unit.id.as_str()),
            Some(false) => right_bound = (span.1, view.unit.id.as_str()),
            None => {}
        }
    }
    for piece in situation.terrain.pieces() {
        if piece.rules.sight == SightRule::Clear {
            continue;
        }
        let Some(span) = extent(&mut piece.outline().iter().copied()) else {
            continue;
        };
        let Some(to_left) = moves(span, left_bound.0, right_bound.0) else {
            continue;
        };
        // Terrain the shot starts or ends in does not hem it in. (Asked last: it is the
        // dearest test, and only matters for a piece that would move a bound.)
        if piece.contains(eye) || piece.contains(aim) {
            continue;
        }
        if to_left {
            left_bound = (span.0, piece.id.as_str());
        } else {
            right_bound = (span.1, piece.id.as_str());
        }
    }
    let width = left_bound.0 - right_bound.0;
    width.is_finite().then(|| {
        (
            Inches(width),
            [left_bound.1.to_owned(), right_bound.1.to_owned()],
        )
    })
}
