//! The wedge: the ground between two rays that leave the ends of an edge.
//!
//! Every Black Powder quarter is one (the rays leave a footprint's corners at 45°, §2.3), and so
//! is an artillery fire cone (both rays leave the barrel tip, 45° either side of it, §6.3).

use super::{TablePoint, TableVector};
use crate::units::Inches;

/// The unbounded region between two rays, seen from the edge they leave: `left` is the ray on
/// the left as one looks out of the wedge. The rays must diverge by less than 180°.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wedge {
    left_apex: TablePoint,
    left_ray: TableVector,
    right_apex: TablePoint,
    right_ray: TableVector,
}

/// The z component of the 2D cross product: positive when `b` is counter-clockwise of `a`.
fn cross(a: TableVector, b: TableVector) -> f64 {
    a.x * b.y - a.y * b.x
}

impl Wedge {
    /// A wedge from the two rays; ray directions need not be normalised.
    pub fn new(
        left_apex: TablePoint,
        left_ray: TableVector,
        right_apex: TablePoint,
        right_ray: TableVector,
    ) -> Self {
        Wedge {
            left_apex,
            left_ray: left_ray.normalize(),
            right_apex,
            right_ray: right_ray.normalize(),
        }
    }

    /// A cone from one point, `half_angle` either side of `axis` (an artillery arc).
    pub fn cone(apex: TablePoint, axis: TableVector, half_angle: crate::units::Degrees) -> Self {
        let turn = |angle: f64| nalgebra::Rotation2::new(angle) * axis;
        let half = half_angle.to_radians();
        Wedge::new(apex, turn(half), apex, turn(-half))
    }

    /// The points the left and right rays leave from.
    pub fn apexes(&self) -> [TablePoint; 2] {
        [self.left_apex, self.right_apex]
    }

    /// The unit directions of the left and right rays.
    pub fn rays(&self) -> [TableVector; 2] {
        [self.left_ray, self.right_ray]
    }

    /// The direction the wedge opens towards (the bisector of its rays).
    pub fn axis(&self) -> TableVector {
        (self.left_ray + self.right_ray).normalize()
    }

    /// Whether the point lies in the wedge (its boundary included).
    pub fn contains(&self, point: &TablePoint) -> bool {
        let right_of_left_ray = cross(self.left_ray, point - self.left_apex) <= 0.0;
        let left_of_right_ray = cross(self.right_ray, point - self.right_apex) >= 0.0;
        let beyond_base = (point - self.left_apex).dot(&self.axis()) >= 0.0
            || (point - self.right_apex).dot(&self.axis()) >= 0.0;
        right_of_left_ray && left_of_right_ray && beyond_base
    }

    /// Whether a convex shape with these corners certainly lies outside the wedge: all its
    /// corners are beyond one of the wedge's bounding lines. (When this says no, the shape may
    /// still miss; it is a cheap first test before clipping.)
    pub fn surely_misses(&self, corners: &[TablePoint]) -> bool {
        let outside_left = corners
            .iter()
            .all(|p| cross(self.left_ray, p - self.left_apex) > 0.0);
        let outside_right = corners
            .iter()
            .all(|p| cross(self.right_ray, p - self.right_apex) < 0.0);
        let axis = self.axis();
        let behind = corners.iter().all(|p| {
            (p - self.left_apex).dot(&axis) < 0.0 && (p - self.right_apex).dot(&axis) < 0.0
        });
        outside_left || outside_right || behind
    }

    /// A convex polygon (counter-clockwise) equal to the wedge out to at least `extent` from
    /// either apex: the rays are cut at twice that length, so the far chord of any wedge that
    /// opens by 120° or less lies beyond `extent`.
    pub fn polygon(&self, extent: Inches) -> Vec<TablePoint> {
        let reach = 2.0 * extent.0.max(1.0);
        let mut polygon = vec![
            self.right_apex,
            self.right_apex + self.right_ray * reach,
            self.left_apex + self.left_ray * reach,
            self.left_apex,
        ];
        if nalgebra::distance(&self.left_apex, &self.right_apex) < 1e-12 {
            polygon.pop();
        }
        polygon
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Degrees;

    #[test]
    fn a_gun_cone_holds_points_within_45_degrees_of_the_barrel() {
        let cone = Wedge::cone(
            TablePoint::origin(),
            TableVector::new(1.0, 0.0),
            Degrees(45.0),
        );
        assert!(cone.contains(&TablePoint::new(10.0, 9.9)));
        assert!(!cone.contains(&TablePoint::new(10.0, 10.1)));
        assert!(!cone.contains(&TablePoint::new(-1.0, 0.0)));
    }

    #[test]
    fn the_polygon_is_counter_clockwise_and_reaches_far_enough() {
        let cone = Wedge::cone(
            TablePoint::origin(),
            TableVector::new(0.0, 1.0),
            Degrees(45.0),
        );
        let poly = cone.polygon(Inches(10.0));
        let signed_area: f64 = (0..poly.len())
            .map(|i| {
                let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
                a.x * b.y - a.y * b.x
            })
            .sum();
        assert!(signed_area > 0.0);
        // The point 10" straight up the axis is inside the polygon's far chord.
        let chord_height = poly[1].y;
        assert!(chord_height > 10.0);
    }
}
