//! The oriented rectangle: the shape of a base, a stand, and of a unit's footprint.

use parry2d_f64::math::Isometry;
use parry2d_f64::query::PointQuery;
use parry2d_f64::query::details::distance_support_map_support_map;
use parry2d_f64::shape::Cuboid;

use super::{TablePoint, TableVector, heading};
use crate::units::{Degrees, Inches};

/// A rectangle that faces a direction. Its front edge is centred on `front_center`; the
/// rectangle extends `depth` behind that edge and `width / 2` to either side.
///
/// This is the Black Powder footprint: the front-edge midpoint is the unit's leader point
/// (digest A3), and the quarters are drawn from its corners.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrientedRect {
    front_center: TablePoint,
    facing: Degrees,
    width: Inches,
    depth: Inches,
    forward: TableVector,
}

/// A point in a rectangle's own frame: `across` to its right of the centre line, `ahead` of
/// its front edge (negative behind it). The digest's `x` and `y` of §2.3.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalPoint {
    /// Distance to the rectangle's right of its centre line (negative: to its left).
    pub across: Inches,
    /// Distance ahead of the front edge (negative: behind it).
    pub ahead: Inches,
}

/// Which way from a rectangle another one is looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Along {
    /// Beyond its front edge.
    Ahead,
    /// Beyond its rear edge.
    Behind,
}

impl OrientedRect {
    /// A rectangle from its front-edge midpoint, facing, width (frontage) and depth.
    pub fn new(front_center: TablePoint, facing: Degrees, width: Inches, depth: Inches) -> Self {
        let facing = facing.normalized();
        OrientedRect {
            front_center,
            facing,
            width,
            depth,
            forward: heading(facing),
        }
    }

    /// A rectangle from its centre (how stands are described).
    pub fn from_center(center: TablePoint, facing: Degrees, width: Inches, depth: Inches) -> Self {
        let front_center = center + heading(facing) * (depth.0 / 2.0);
        Self::new(front_center, facing, width, depth)
    }

    /// The midpoint of the front edge: the leader point of a unit footprint.
    pub fn front_center(&self) -> TablePoint {
        self.front_center
    }

    /// The direction the front edge faces.
    pub fn facing(&self) -> Degrees {
        self.facing
    }

    /// The length of the front edge.
    pub fn width(&self) -> Inches {
        self.width
    }

    /// The length of the side edges.
    pub fn depth(&self) -> Inches {
        self.depth
    }

    /// The centre of the rectangle.
    pub fn center(&self) -> TablePoint {
        self.front_center - self.forward * (self.depth.0 / 2.0)
    }

    /// The unit vector the front faces.
    pub fn forward(&self) -> TableVector {
        self.forward
    }

    /// The unit vector to the rectangle's own right as it faces its front.
    pub fn right(&self) -> TableVector {
        TableVector::new(self.forward.y, -self.forward.x)
    }

    /// The same rectangle shrunk by `margin` on every side (never to nothing).
    pub fn shrunk(&self, margin: Inches) -> OrientedRect {
        OrientedRect::from_center(
            self.center(),
            self.facing(),
            (self.width() - margin * 2.0).max(Inches(1e-3)),
            (self.depth() - margin * 2.0).max(Inches(1e-3)),
        )
    }

    /// The area of the rectangle, in square inches.
    pub fn area(&self) -> f64 {
        self.width.0 * self.depth.0
    }

    /// The table point at a position in this rectangle's frame.
    pub fn from_local(&self, local: LocalPoint) -> TablePoint {
        self.front_center + self.right() * local.across.0 + self.forward * local.ahead.0
    }

    /// A table point in this rectangle's frame.
    pub fn to_local(&self, point: &TablePoint) -> LocalPoint {
        let offset = point - self.front_center;
        LocalPoint {
            across: Inches(offset.dot(&self.right())),
            ahead: Inches(offset.dot(&self.forward)),
        }
    }

    /// The corners, counter-clockwise on the table: front-right, front-left, rear-left, rear-right.
    pub fn corners(&self) -> [TablePoint; 4] {
        let half = self.width.0 / 2.0;
        let back = -self.depth.0;
        let at = |across: f64, ahead: f64| {
            self.from_local(LocalPoint {
                across: Inches(across),
                ahead: Inches(ahead),
            })
        };
        [
            at(half, 0.0),
            at(-half, 0.0),
            at(-half, back),
            at(half, back),
        ]
    }

    /// The front-left corner (the unit's own left).
    pub fn front_left(&self) -> TablePoint {
        self.corners()[1]
    }

    /// The front-right corner (the unit's own right).
    pub fn front_right(&self) -> TablePoint {
        self.corners()[0]
    }

    /// The rear-left corner.
    pub fn rear_left(&self) -> TablePoint {
        self.corners()[2]
    }

    /// The rear-right corner.
    pub fn rear_right(&self) -> TablePoint {
        self.corners()[3]
    }

    /// The rectangle as a parry shape and its position: the cuboid's local x axis is `forward`.
    pub fn to_parry(&self) -> (Isometry<f64>, Cuboid) {
        // The rotation from the stored heading: no trigonometry on the hot path.
        let rotation =
            nalgebra::UnitComplex::from_cos_sin_unchecked(self.forward.x, self.forward.y);
        let pose =
            Isometry::from_parts(nalgebra::Translation2::from(self.center().coords), rotation);
        let half_extents = TableVector::new(self.depth.0 / 2.0, self.width.0 / 2.0);
        (pose, Cuboid::new(half_extents))
    }

    /// The gap between two rectangles: 0 when they touch or overlap.
    ///
    /// Uses parry's GJK distance. parry's dedicated cuboid–cuboid distance goes through a
    /// separating-axis closest-points routine that is not exact when the nearest features are
    /// two corners (measured: 22.76" for a true 18.72"), so it is not used here.
    pub fn gap_to(&self, other: &OrientedRect) -> Inches {
        gap_between(&self.to_parry(), &other.to_parry())
    }

    /// Whether `other` touches this rectangle directly ahead of or behind it, covering at least
    /// half its frontage, within `slack` (a stand in front of another puts it in a rear rank).
    pub fn touches_directly(&self, other: &OrientedRect, along: Along, slack: Inches) -> bool {
        if self.gap_to(other) > slack {
            return false;
        }
        let local = other.corners().map(|c| self.to_local(&c));
        let beyond = match along {
            Along::Ahead => local.iter().all(|p| p.ahead >= -slack),
            Along::Behind => local.iter().all(|p| p.ahead <= -self.depth + slack),
        };
        if !beyond {
            return false;
        }
        let half = self.width.0 / 2.0;
        let (left, right) = local.iter().fold((f64::MAX, f64::MIN), |(l, r), p| {
            (l.min(p.across.0), r.max(p.across.0))
        });
        let covered = right.min(half) - left.max(-half);
        covered >= self.width.0 / 2.0
    }

    /// The closest point of the (solid) rectangle to `point`, and its distance (0 inside).
    pub fn closest_point(&self, point: &TablePoint) -> (TablePoint, Inches) {
        let (pose, shape) = self.to_parry();
        let projection = shape.project_point(&pose, point, true);
        let gap = nalgebra::distance(&projection.point, point);
        (projection.point, Inches(gap))
    }
}

/// The gap between two rectangles already in parry form (see [`OrientedRect::gap_to`]).
pub fn gap_between(a: &(Isometry<f64>, Cuboid), b: &(Isometry<f64>, Cuboid)) -> Inches {
    let ((pose_a, shape_a), (pose_b, shape_b)) = (a, b);
    Inches(distance_support_map_support_map(
        &pose_a.inv_mul(pose_b),
        shape_a,
        shape_b,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_facing_north() -> OrientedRect {
        OrientedRect::new(
            TablePoint::new(30.0, 12.0),
            Degrees(90.0),
            Inches(9.4),
            Inches(1.6),
        )
    }

    #[test]
    fn corners_follow_the_units_own_left_and_right() {
        let r = line_facing_north();
        // Facing +y, the unit's right is +x.
        assert!((r.front_right() - TablePoint::new(34.7, 12.0)).norm() < 1e-9);
        assert!((r.front_left() - TablePoint::new(25.3, 12.0)).norm() < 1e-9);
        assert!((r.rear_left() - TablePoint::new(25.3, 10.4)).norm() < 1e-9);
        assert!((r.center() - TablePoint::new(30.0, 11.2)).norm() < 1e-9);
    }

    #[test]
    fn local_frame_round_trips() {
        let r = OrientedRect::new(
            TablePoint::new(3.0, 4.0),
            Degrees(37.0),
            Inches(5.0),
            Inches(2.0),
        );
        let p = TablePoint::new(-1.5, 8.25);
        let back = r.from_local(r.to_local(&p));
        assert!((back - p).norm() < 1e-9);
    }

    #[test]
    fn gap_is_zero_when_bases_touch() {
        let a = line_facing_north();
        let b = OrientedRect::new(
            TablePoint::new(30.0, 13.6),
            Degrees(90.0),
            Inches(9.4),
            Inches(1.6),
        );
        assert!(a.gap_to(&b).0.abs() < 1e-9);
        let c = OrientedRect::new(
            TablePoint::new(30.0, 16.6),
            Degrees(90.0),
            Inches(9.4),
            Inches(1.6),
        );
        assert!((a.gap_to(&c).0 - 3.0).abs() < 1e-9);
    }

    #[test]
    fn corner_to_corner_gap_is_euclidean() {
        // A march column and a stand far off its corner (a case parry's SAT distance got wrong).
        let column = OrientedRect::new(
            TablePoint::new(24.0, 20.0),
            Degrees(90.0),
            Inches(1.6),
            Inches(9.4),
        );
        let stand = OrientedRect::from_center(
            TablePoint::new(44.03, 25.185),
            Degrees(270.0),
            Inches(1.97),
            Inches(1.97),
        );
        let expected =
            nalgebra::distance(&TablePoint::new(24.8, 20.0), &TablePoint::new(43.045, 24.2));
        assert!((column.gap_to(&stand).0 - expected).abs() < 1e-6);
        assert!((stand.gap_to(&column).0 - expected).abs() < 1e-6);
    }

    #[test]
    fn closest_point_of_a_rotated_base() {
        let r = OrientedRect::from_center(
            TablePoint::new(0.0, 0.0),
            Degrees(45.0),
            Inches(2.0),
            Inches(2.0),
        );
        let (_, gap) = r.closest_point(&TablePoint::new(3.0, 0.0));
        // The nearest corner is at (sqrt 2, 0).
        assert!((gap.0 - (3.0 - 2f64.sqrt())).abs() < 1e-9);
    }
}
