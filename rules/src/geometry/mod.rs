//! Table geometry: oriented rectangles (bases, stands, footprints), wedges (quarters and fire
//! cones), and the distance and clipping queries the rules ask of them.
//!
//! Points are nalgebra points in table inches. Distances between shapes and convex clipping
//! come from parry2d; nothing here re-implements a query parry already answers.

mod clip;
mod rect;
mod wedge;
pub mod xy;

pub use clip::{Clipped, ConvexRegion, clip, closest_part_inside, fraction_inside};
pub use parry2d_f64::shape::Segment;
pub use rect::{Along, LocalPoint, OrientedRect, gap_between};
pub use wedge::Wedge;

use nalgebra::{Point2, Vector2};

use crate::units::{Degrees, Inches};

/// A point on the table, in table inches (origin at the table corner, see the scene format).
pub type TablePoint = Point2<f64>;

/// A displacement on the table, in table inches.
pub type TableVector = Vector2<f64>;

/// The unit vector pointing along `facing` (counter-clockwise from +x).
pub fn heading(facing: Degrees) -> TableVector {
    let (sin, cos) = facing.to_radians().sin_cos();
    TableVector::new(cos, sin)
}

/// The facing (counter-clockwise from +x) of a non-zero direction.
pub fn facing_of(direction: TableVector) -> Degrees {
    Degrees::from_radians(direction.y.atan2(direction.x)).normalized()
}

/// The distance between two points on the table.
pub fn distance(a: &TablePoint, b: &TablePoint) -> Inches {
    Inches(nalgebra::distance(a, b))
}

/// A measured distance on the table: where the tape starts, where it ends, and its length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tape {
    /// Where it starts (on the measuring unit).
    pub from: TablePoint,
    /// Where it ends (on the unit measured to).
    pub to: TablePoint,
    /// How long it is.
    pub length: Inches,
}

impl Tape {
    /// The tape from `from` to `to`.
    pub fn between(from: TablePoint, to: TablePoint) -> Tape {
        Tape {
            from,
            to,
            length: distance(&from, &to),
        }
    }
}

/// The smallest angle between two directions, in `[0, 180]`.
pub fn angle_between(a: TableVector, b: TableVector) -> Degrees {
    Degrees::from_radians(a.angle(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_is_counter_clockwise_from_x() {
        let north = heading(Degrees(90.0));
        assert!((north - TableVector::new(0.0, 1.0)).norm() < 1e-12);
        assert!((facing_of(TableVector::new(0.0, -2.0)).0 - 270.0).abs() < 1e-9);
    }
}
