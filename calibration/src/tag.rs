//! A printed tag: where it lies on the table, and where the camera saw its corners.
//!
//! Corner order is the AprilTag library's: bottom-left, bottom-right, top-right, top-left of
//! the printed tag as one reads it from above. A tag's `facing` is the direction its top points,
//! in degrees counter-clockwise from +x (the scene format's convention for units).

use rules::geometry::{TablePoint, TableVector, heading};
use rules::units::{Degrees, Inches};
use serde::{Deserialize, Serialize};

use crate::camera::TablePoint3;
use crate::pixels::PixelPoint;

/// One sighting of a tag in one image.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TagSighting {
    /// The tag's id in its family.
    pub id: u32,
    /// The outer corners of its black square, in AprilTag order.
    pub corners: [PixelPoint; 4],
}

impl TagSighting {
    /// The centre: where the diagonals cross (the mean of the corners is biased under
    /// perspective; the crossing is exact).
    pub fn center(&self) -> PixelPoint {
        let [a, b, c, d] = self.corners;
        diagonal_crossing(a, c, b, d).unwrap_or_else(|| PixelPoint::mean(&self.corners))
    }

    /// The mean length of the four sides: how big the tag looks.
    pub fn side(&self) -> f64 {
        mean_side(&self.corners)
    }
}

/// The mean length of a quad's four sides, pixels.
pub fn mean_side(corners: &[PixelPoint; 4]) -> f64 {
    (0..4)
        .map(|i| corners[i].distance(&corners[(i + 1) % 4]).0)
        .sum::<f64>()
        / 4.0
}

fn diagonal_crossing(
    a: PixelPoint,
    c: PixelPoint,
    b: PixelPoint,
    d: PixelPoint,
) -> Option<PixelPoint> {
    let (r, s) = ((c.x - a.x, c.y - a.y), (d.x - b.x, d.y - b.y));
    let denominator = r.0 * s.1 - r.1 * s.0;
    if denominator.abs() < 1e-12 {
        return None;
    }
    let t = ((b.x - a.x) * s.1 - (b.y - a.y) * s.0) / denominator;
    Some(PixelPoint::new(a.x + t * r.0, a.y + t * r.1))
}

/// Where a tag lies on the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TagPlacement {
    /// The centre of the tag.
    pub center: TablePoint,
    /// The direction the tag's top points.
    pub facing: Degrees,
    /// The side of its black square.
    pub size: Inches,
    /// The height of its printed face above the table.
    pub height: Inches,
}

impl TagPlacement {
    /// The corners of the black square, in AprilTag order.
    pub fn corners(&self) -> [TablePoint3; 4] {
        self.corners_2d()
            .map(|p| TablePoint3::new(p.x, p.y, self.height.0))
    }

    /// The corners on the plan, in AprilTag order.
    pub fn corners_2d(&self) -> [TablePoint; 4] {
        let up = heading(self.facing) * (self.size.0 / 2.0);
        let right = TableVector::new(up.y, -up.x);
        let c = self.center;
        [
            c - right - up,
            c + right - up,
            c + right + up,
            c - right + up,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_go_round_the_tag_from_its_bottom_left() {
        let tag = TagPlacement {
            center: TablePoint::new(10.0, 10.0),
            facing: Degrees(90.0),
            size: Inches(2.0),
            height: Inches(0.0),
        };
        let [bl, br, tr, tl] = tag.corners_2d();
        let close = |p: TablePoint, x: f64, y: f64| (p - TablePoint::new(x, y)).norm() < 1e-12;
        assert!(close(bl, 9.0, 9.0) && close(br, 11.0, 9.0));
        assert!(close(tr, 11.0, 11.0) && close(tl, 9.0, 11.0));
    }

    #[test]
    fn the_centre_of_a_sighting_is_where_its_diagonals_cross() {
        let sighting = TagSighting {
            id: 1,
            corners: [
                PixelPoint::new(0.0, 10.0),
                PixelPoint::new(10.0, 10.0),
                PixelPoint::new(8.0, 0.0),
                PixelPoint::new(2.0, 0.0),
            ],
        };
        let c = sighting.center();
        // A trapezoid: the crossing sits nearer the short (top) side than the mean does.
        assert!((c.x - 5.0).abs() < 1e-12);
        assert!(c.y < 5.0 && c.y > 3.0, "{c}");
    }
}
