//! The fire arc as a region and as a shape to draw.

use crate::geometry::{ConvexRegion, OrientedRect, TablePoint, TableVector, Wedge};
use crate::profile::{ArcShape, Profile};
use crate::quarter::Quarter;
use crate::scene::Unit;
use crate::units::{Degrees, Inches};

/// Where a unit may shoot (digest §6.3, A13): its front quarter, a cone from the barrel, or
/// all round.
pub fn fire_arc(unit: &Unit, profile: &Profile) -> ConvexRegion {
    let frame = unit.footprint.frame();
    match profile.arc_shape(unit.formation) {
        ArcShape::AllRound => ConvexRegion::Everywhere,
        ArcShape::FrontQuarter => match profile.specials().front_arc_splay {
            None => ConvexRegion::Wedge(Quarter::Front.region(frame)),
            Some(splay) => ConvexRegion::Wedge(front_edge_arc(frame, splay)),
        },
        ArcShape::Cone => ConvexRegion::Wedge(Wedge::cone(
            frame.front_center(),
            frame.forward(),
            profile.cone_half_angle(),
        )),
    }
}

/// The ground ahead of a front edge between rays leaving its two ends, each splayed `splay`
/// from straight ahead: 45° is Black Powder's front quarter, 75° BPT Commander's 150° firing
/// cone (digest §1.4), 30° eRules' ±30° fire (digest §1.9).
pub fn front_edge_arc(frame: &OrientedRect, splay: Degrees) -> Wedge {
    let [front_right, front_left, _, _] = frame.corners();
    let (sin, cos) = splay.to_radians().sin_cos();
    let forward = frame.forward() * cos;
    let outward = frame.right() * sin;
    Wedge::new(
        front_left,
        forward - outward,
        front_right,
        forward + outward,
    )
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
    arc_outline_from(profile.range_origin(unit), &fire_arc(unit, profile), range)
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
