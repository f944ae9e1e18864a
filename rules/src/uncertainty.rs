//! How sure the camera is of what it placed, and what that makes of a measured length: the
//! error bar every distance of a ruling carries when its units were seen by a camera.
//!
//! Decisions:
//! - Each stand carries the covariance of its centre and the standard deviation of its facing,
//!   independent from stand to stand: its tag's corner noise, its height above the cloth, and
//!   for a stand not seen, where its formation puts it. The calibration's own error is common to
//!   every stand and smooth across the table, so two stands near each other are off together;
//!   it is carried once for the scene as a relative error of every length (`length_sd`), the
//!   part of it that does not cancel in a distance.
//! - A distance between a point of one unit and a point of another is linearised: its variance
//!   is each point's covariance seen along the line between them, plus the length error's share
//!   of the distance. A point's covariance is its stand's centre covariance plus the facing's
//!   swing of the arm from the stand's centre to the point.
//! - Intervals are two-sided 95 % intervals of a normal error: ±1.96 σ.
//! - A scene without these (drawn by hand, or from a file) carries no interval, and its rulings
//!   read as they always have.

use nalgebra::{Matrix2, Vector2};
use serde::{Deserialize, Serialize};

use crate::geometry::{ConvexRegion, OrientedRect, TablePoint, TableVector, fraction_inside};
use crate::units::{Degrees, Inches};

/// How many standard deviations either side hold 95 % of a normal error.
pub const Z95: f64 = 1.959_963_985;

/// How far the camera may be off in placing one stand, as a scene file writes it: one standard
/// deviation of its centre along x and y (table inches), their correlation, and of its facing
/// (degrees).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceSdDoc {
    /// Along x, inches.
    pub x: f64,
    /// Along y, inches.
    pub y: f64,
    /// The correlation of the two, −1 to 1.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub r: f64,
    /// Of the facing, degrees.
    pub facing: f64,
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

/// How far the camera may be off in placing one stand, one standard deviation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaceSd {
    /// The covariance of its centre, square table inches.
    centre: Matrix2<f64>,
    /// Of its facing.
    facing: Degrees,
}

impl PlaceSd {
    /// From the covariance of the centre (square inches) and the facing's deviation.
    pub fn new(centre: Matrix2<f64>, facing: Degrees) -> PlaceSd {
        PlaceSd { centre, facing }
    }

    /// As a file gives it (checked finite and in range by the scene's validation).
    pub fn from_doc(doc: &PlaceSdDoc) -> PlaceSd {
        let xy = doc.r * doc.x * doc.y;
        PlaceSd {
            centre: Matrix2::new(doc.x * doc.x, xy, xy, doc.y * doc.y),
            facing: Degrees(doc.facing),
        }
    }

    /// As a file writes it.
    pub fn to_doc(&self) -> PlaceSdDoc {
        let (x, y) = (self.centre[(0, 0)].sqrt(), self.centre[(1, 1)].sqrt());
        let r = if x > 0.0 && y > 0.0 {
            (self.centre[(0, 1)] / (x * y)).clamp(-1.0, 1.0)
        } else {
            0.0
        };
        PlaceSdDoc {
            x,
            y,
            r,
            facing: self.facing.0,
        }
    }

    /// The covariance of the centre, square inches.
    pub fn centre(&self) -> &Matrix2<f64> {
        &self.centre
    }

    /// The deviation of the facing.
    pub fn facing(&self) -> Degrees {
        self.facing
    }

    /// The covariance of the stand's point `arm` away from its centre: the centre's, plus the
    /// facing's swing of the arm (a turn of δ moves the point by δ × the arm, across it).
    pub fn covariance_at(&self, arm: TableVector) -> Matrix2<f64> {
        let across = Vector2::new(-arm.y, arm.x);
        let turn = self.facing.0.to_radians();
        self.centre + across * across.transpose() * (turn * turn)
    }
}

/// The 95 % half-width of the length from `from` to `to`, given each end's covariance (square
/// inches) and the relative deviation of every length the calibration measures.
pub fn length_plus_minus(
    from: (TablePoint, &Matrix2<f64>),
    to: (TablePoint, &Matrix2<f64>),
    length_sd: f64,
) -> Inches {
    let line = to.0 - from.0;
    let length = line.norm();
    let ends = from.1 + to.1;
    // Two points on top of each other: no direction to look along, so the mean of both.
    let along = if length > 1e-9 {
        let unit = line / length;
        unit.dot(&(ends * unit))
    } else {
        ends.trace() / 2.0
    };
    let scale = length_sd * length;
    Inches(Z95 * (along + scale * scale).max(0.0).sqrt())
}

/// The 95 % half-width of the share of `bases` inside `region`, given the covariance (square
/// inches) of the bases' place relative to the region, and the deviation of the region's turn
/// about `pivot` (the shooter's facing, its arc turning about its eye). The share is not linear
/// in either, so its slopes are taken across a step of the size of the errors themselves.
pub fn share_plus_minus(
    region: &ConvexRegion,
    pivot: TablePoint,
    turn: Degrees,
    bases: &[OrientedRect],
    relative: &Matrix2<f64>,
) -> f64 {
    let share = |moved: &dyn Fn(&OrientedRect) -> OrientedRect| {
        let bases: Vec<OrientedRect> = bases.iter().map(moved).collect();
        fraction_inside(region, &bases)
    };
    let shifted = |by: TableVector| {
        move |base: &OrientedRect| {
            OrientedRect::from_center(
                base.center() + by,
                base.facing(),
                base.width(),
                base.depth(),
            )
        }
    };
    let step = (relative.trace() / 2.0).sqrt().max(0.01);
    let slope = |along: TableVector| {
        (share(&shifted(along * step)) - share(&shifted(-along * step))) / (2.0 * step)
    };
    let gradient = Vector2::new(slope(TableVector::x()), slope(TableVector::y()));
    // The arc turning one way is the bases turning the other about its eye.
    let angle = turn.0.to_radians().max(1e-4);
    let turned = |by: f64| {
        let rotation = nalgebra::Rotation2::new(by);
        move |base: &OrientedRect| {
            OrientedRect::from_center(
                pivot + rotation * (base.center() - pivot),
                Degrees(base.facing().0 + by.to_degrees()),
                base.width(),
                base.depth(),
            )
        }
    };
    let turn_slope = (share(&turned(angle)) - share(&turned(-angle))) / (2.0 * angle);
    let variance =
        gradient.dot(&(relative * gradient)) + (turn_slope * turn.0.to_radians()).powi(2);
    (Z95 * variance.max(0.0).sqrt()).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_distance_is_only_as_uncertain_as_its_ends_are_along_it() {
        // Each end 0.01" sd along x, 0.05" along y: a distance along x is ±1.96 × √2 × 0.01.
        let end = PlaceSd::from_doc(&PlaceSdDoc {
            x: 0.01,
            y: 0.05,
            r: 0.0,
            facing: 0.0,
        });
        let along_x = length_plus_minus(
            (TablePoint::new(0.0, 0.0), end.centre()),
            (TablePoint::new(10.0, 0.0), end.centre()),
            0.0,
        );
        assert!((along_x.0 - Z95 * 0.01 * 2f64.sqrt()).abs() < 1e-12);
        let along_y = length_plus_minus(
            (TablePoint::new(0.0, 0.0), end.centre()),
            (TablePoint::new(0.0, 10.0), end.centre()),
            0.0,
        );
        assert!((along_y.0 - Z95 * 0.05 * 2f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn a_facing_error_swings_the_far_end_of_a_wide_stand() {
        // 1° of facing moves a point 5" from the centre by 5 × π/180 across the arm.
        let stand = PlaceSd::new(Matrix2::zeros(), Degrees(1.0));
        let at_end = stand.covariance_at(TableVector::new(5.0, 0.0));
        let swing = 5.0 * 1f64.to_radians();
        assert!((at_end[(1, 1)] - swing * swing).abs() < 1e-12);
        assert_eq!(at_end[(0, 0)], 0.0);
        assert_eq!(stand.covariance_at(TableVector::zeros()), Matrix2::zeros());
    }

    #[test]
    fn the_length_error_grows_with_the_length() {
        let exact = Matrix2::zeros();
        let far = length_plus_minus(
            (TablePoint::new(0.0, 0.0), &exact),
            (TablePoint::new(30.0, 40.0), &exact),
            0.001,
        );
        assert!((far.0 - Z95 * 0.05).abs() < 1e-12);
    }

    #[test]
    fn the_file_form_reads_back() {
        let doc = PlaceSdDoc {
            x: 0.02,
            y: 0.03,
            r: -0.4,
            facing: 0.3,
        };
        let back = PlaceSd::from_doc(&doc).to_doc();
        assert!((back.x - doc.x).abs() < 1e-12 && (back.y - doc.y).abs() < 1e-12);
        assert!((back.r - doc.r).abs() < 1e-12 && back.facing == doc.facing);
    }
}
