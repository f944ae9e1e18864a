//! The fire arc as a shape to draw: the ground a unit or a face reaches within a range.

use super::{FiringFace, fire_arc, one_front};
use crate::geometry::{ConvexRegion, Segment, TablePoint, TableVector};
use crate::profile::Profile;
use crate::scene::Unit;
use crate::units::Inches;

/// Where the ray `apex + t·direction` (t ≥ 0, unit direction) meets the circle of `radius`
/// around `center`, if it starts inside the circle.
fn ray_meets_circle(
    apex: TablePoint,
    direction: TableVector,
    center: TablePoint,
    radius: f64,
) -> Option<TablePoint> {
    let offset = apex - center;
    let b = offset.dot(&direction);
    let c = offset.norm_squared() - radius * radius;
    let discriminant = b * b - c;
    (c <= 0.0 && discriminant >= 0.0).then(|| apex + direction * (-b + discriminant.sqrt()))
}

/// The outline of the ground a unit can shoot at: its arc clipped to the weapon's range
/// measured from the leader (digest §6.3: "slightly longer to the unit's centre"). Points are in
/// order, counter-clockwise.
pub fn arc_outline(unit: &Unit, profile: &Profile, range: Inches) -> Vec<TablePoint> {
    reach_outline(&one_front(unit, profile, fire_arc(unit, profile)), range)
}

/// The outline of the ground `face` can shoot at within `range`: from its eye, or from its
/// whole range edge where the ruleset measures between the units.
pub fn reach_outline(face: &FiringFace, range: Inches) -> Vec<TablePoint> {
    match &face.range_edge {
        Some(edge) => edge_reach_outline(edge, &face.arc, range),
        None => arc_outline_from(face.eye, &face.arc, range),
    }
}

/// The points within `range` of an edge, in `region`: round the ends, straight across the
/// middle. Counter-clockwise, from the edge's right end.
fn edge_reach_outline(edge: &Segment, region: &ConvexRegion, range: Inches) -> Vec<TablePoint> {
    const STEPS: usize = 8;
    let (left, right) = (edge.b, edge.a);
    let along = (right - left)
        .try_normalize(1e-12)
        .unwrap_or(TableVector::x());
    let forward = TableVector::new(-along.y, along.x);
    // The rays bounding the region, or (all round) straight back from each end.
    let [left_ray, right_ray] = match region {
        ConvexRegion::Wedge(wedge) => wedge.rays(),
        ConvexRegion::Everywhere => [-forward, -forward],
    };
    let sweep = |centre: TablePoint, from: TableVector, to: TableVector| {
        let start = from.y.atan2(from.x);
        let mut turn = to.y.atan2(to.x) - start;
        if turn < 0.0 {
            turn += std::f64::consts::TAU;
        }
        (0..=STEPS).map(move |i| {
            let angle = start + turn * i as f64 / STEPS as f64;
            centre + TableVector::new(angle.cos(), angle.sin()) * range.0
        })
    };
    let mut outline = vec![right];
    outline.extend(sweep(right, right_ray, forward));
    outline.extend(sweep(left, forward, left_ray));
    outline.push(left);
    outline.dedup_by(|a, b| nalgebra::distance(a, b) < 1e-9);
    outline
}

/// The outline of `region` clipped to `range` measured from `leader` (a unit's leader, or the
/// midpoint of a square's face).
pub fn arc_outline_from(
    leader: TablePoint,
    region: &ConvexRegion,
    range: Inches,
) -> Vec<TablePoint> {
    const STEPS: usize = 16;
    let circle_point = |angle: f64| leader + TableVector::new(angle.cos(), angle.sin()) * range.0;
    let wedge = match region {
        ConvexRegion::Everywhere => {
            return (0..STEPS * 2)
                .map(|i| circle_point(std::f64::consts::TAU * i as f64 / (STEPS * 2) as f64))
                .collect();
        }
        ConvexRegion::Wedge(wedge) => wedge,
    };
    let [left_apex, right_apex] = wedge.apexes();
    let [left_ray, right_ray] = wedge.rays();
    let (Some(right_end), Some(left_end)) = (
        ray_meets_circle(right_apex, right_ray, leader, range.0),
        ray_meets_circle(left_apex, left_ray, leader, range.0),
    ) else {
        return Vec::new();
    };
    let angle_of = |p: TablePoint| (p.y - leader.y).atan2(p.x - leader.x);
    let start = angle_of(right_end);
    let mut sweep = angle_of(left_end) - start;
    if sweep < 0.0 {
        sweep += std::f64::consts::TAU;
    }
    let mut outline = vec![right_apex];
    outline.extend((0..=STEPS).map(|i| circle_point(start + sweep * i as f64 / STEPS as f64)));
    outline.push(left_apex);
    outline.dedup_by(|a, b| nalgebra::distance(a, b) < 1e-9);
    outline
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fire_arc::arc::front_edge_arc;
    use crate::geometry::OrientedRect;
    use crate::units::Degrees;
    use parry2d_f64::math::Isometry;
    use parry2d_f64::query::PointQuery;

    #[test]
    fn the_reach_of_a_front_edge_is_its_range_from_the_nearest_point_of_the_edge() {
        // A 10" front facing north, its 150° cone (BPT Commander), 20" of range.
        let frame = OrientedRect::new(
            TablePoint::new(30.0, 10.0),
            Degrees(90.0),
            Inches(10.0),
            Inches(1.0),
        );
        let edge = Segment::new(frame.front_right(), frame.front_left());
        let cone = ConvexRegion::Wedge(front_edge_arc(&frame, Degrees(75.0)));
        let outline = edge_reach_outline(&edge, &cone, Inches(20.0));
        let from_edge = |p: &TablePoint| edge.distance_to_point(&Isometry::identity(), p, true);
        // The far points lie at the range from the edge, the ends on it.
        let far: Vec<f64> = outline
            .iter()
            .map(from_edge)
            .filter(|d| *d > 1e-9)
            .collect();
        assert!(far.iter().all(|d| (d - 20.0).abs() < 1e-9), "{far:?}");
        // Straight ahead of each end, the full range: wider than a circle round the leader.
        for end in [frame.front_left(), frame.front_right()] {
            let ahead = end + TableVector::new(0.0, 20.0);
            assert!(outline.iter().any(|p| nalgebra::distance(p, &ahead) < 1e-9));
        }
    }
}
