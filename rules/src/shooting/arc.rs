//! The fire arc as a region and as a shape to draw.

use crate::geometry::{ConvexRegion, TablePoint, TableVector, Wedge};
use crate::profile::{ArcShape, Profile};
use crate::quarter::Quarter;
use crate::scene::Unit;
use crate::units::Inches;

/// Where a unit may shoot (digest §6.3, A13): its front quarter, a cone from the barrel, or
/// all round.
pub fn fire_arc(unit: &Unit, profile: &Profile) -> ConvexRegion {
    let frame = unit.footprint.frame();
    match profile.arc_shape(unit.formation) {
        ArcShape::AllRound => ConvexRegion::Everywhere,
        ArcShape::FrontQuarter => ConvexRegion::Wedge(Quarter::Front.region(frame)),
        ArcShape::Cone => ConvexRegion::Wedge(Wedge::cone(
            frame.front_center(),
            frame.forward(),
            profile.cone_half_angle(),
        )),
    }
}

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
    arc_outline_from(unit.footprint.leader(), &fire_arc(unit, profile), range)
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
