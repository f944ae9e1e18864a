//! Faces of a unit: the edge segment a quarter is drawn from, and how much of it others cover.

use crate::geometry::{OrientedRect, Segment, TablePoint, TableVector};
use crate::quarter::Quarter;
use crate::units::Inches;

/// One face of a unit: the edge between two corners, as seen from outside, left to right.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Face {
    /// Which face.
    pub quarter: Quarter,
    /// Its left end, as seen by someone facing it from outside.
    pub start: TablePoint,
    /// Its right end.
    pub end: TablePoint,
}

impl Face {
    /// The face of `frame` that `quarter` is drawn from.
    pub fn of(frame: &OrientedRect, quarter: Quarter) -> Face {
        let [front_right, front_left, rear_left, rear_right] = frame.corners();
        let (start, end) = match quarter {
            Quarter::Front => (front_right, front_left),
            Quarter::LeftFlank => (front_left, rear_left),
            Quarter::Rear => (rear_left, rear_right),
            Quarter::RightFlank => (rear_right, front_right),
        };
        Face {
            quarter,
            start,
            end,
        }
    }

    /// Its length.
    pub fn length(&self) -> Inches {
        Inches(nalgebra::distance(&self.start, &self.end))
    }

    /// The face as a segment, to measure from.
    pub fn segment(&self) -> Segment {
        Segment::new(self.start, self.end)
    }

    /// The unit vector along the face, from `start` to `end`.
    pub fn along(&self) -> TableVector {
        (self.end - self.start).normalize()
    }

    /// The unit vector pointing out of the unit through this face. Someone outside facing the
    /// face has `along` on their right, so outward is `along` turned a quarter clockwise.
    pub fn outward(&self) -> TableVector {
        let along = self.along();
        TableVector::new(along.y, -along.x)
    }

    /// The point `at` inches along the face from `start`.
    pub fn point_at(&self, at: Inches) -> TablePoint {
        self.start + self.along() * at.0
    }

    /// Where a point projects along the face, in inches from `start`.
    pub fn position_of(&self, point: &TablePoint) -> Inches {
        Inches((point - self.start).dot(&self.along()))
    }

    /// The stretch of the face (from, to, in inches from `start`) covered by those of `bases`
    /// whose nearest corner lies within `reach` of the face line.
    pub fn covered_by(&self, bases: &[OrientedRect], reach: Inches) -> Option<(Inches, Inches)> {
        let outward = self.outward();
        let height = |c: &TablePoint| (c - self.start).dot(&outward);
        let touching = bases.iter().filter(|b| {
            let nearest = b.corners().iter().map(height).fold(f64::INFINITY, f64::min);
            nearest.abs() <= reach.0 + 1e-9
        });
        let positions = touching
            .flat_map(|b| b.corners())
            .map(|c| self.position_of(&c).0);
        let (lo, hi) = positions.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p), hi.max(p))
        });
        let (lo, hi) = (lo.max(0.0), hi.min(self.length().0));
        (hi > lo).then_some((Inches(lo), Inches(hi)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Degrees;

    #[test]
    fn every_face_points_out_of_the_unit() {
        let frame = OrientedRect::new(
            TablePoint::new(3.0, 4.0),
            Degrees(37.0),
            Inches(6.0),
            Inches(2.0),
        );
        for quarter in Quarter::ALL {
            let face = Face::of(&frame, quarter);
            let middle = face.point_at(face.length() / 2.0);
            let outside = middle + face.outward() * 0.5;
            assert!(frame.closest_point(&outside).1.0 > 0.4, "{quarter:?}");
        }
    }
}
