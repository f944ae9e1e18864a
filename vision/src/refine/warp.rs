//! Where a tag's printed pattern lies in the picture: the homography of its four corners,
//! through the lens when it is known, and the bows left to fit.

use calibration::{Intrinsics, PixelPoint};
use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};

use crate::live::square::square_to_quad;
use crate::pattern::TagTexture;

/// The homography from the pattern's cell coordinates (the paper's top-left at (0, 0), one
/// cell a unit, rows down) to the picture, for a tag whose inked square's corners are these.
fn cells_to_picture(pattern: &TagTexture, corners: &[PixelPoint; 4]) -> Option<Matrix3<f64>> {
    // `square_to_quad` maps the square from −1 to 1 onto the corners, −1 at the inked square's
    // left and top edges, which lie one cell in from the paper's.
    let scale = 2.0 / pattern.inked_cells() as f64;
    let to_square = Matrix3::new(
        scale,
        0.0,
        -1.0 - scale,
        0.0,
        scale,
        -1.0 - scale,
        0.0,
        0.0,
        1.0,
    );
    Some(square_to_quad(corners)? * to_square)
}

/// Where the pattern's points lie in the picture: a homography from four corners, through the
/// lens when one is known, and a residual bend to second order — the tag's top and bottom
/// edges bowed by `bend[0..2]` at their middles, its left and right edges by `bend[2..4]`
/// (pixels, x and y), the corners where they are.
///
/// Without a lens, the bows are the lens's whole bend over the tag: over a small tag a lens
/// bends every line about the same way, so two bows cover it. Near a wide lens's rim they do
/// not: there a 40 px anchor bends by 2 px and no two bows follow it within 0.4 px (nor
/// cubic terms within 0.1 px), and those corners came out 0.2 px off. With a lens (the one the
/// calibration has fitted so far), the homography maps the cells to the ideal picture, the one
/// a lens without distortion would see, and the lens bends it exactly; the bows are left what
/// the lens got wrong.
pub(super) struct Warp<'l> {
    /// From the pattern's cells to the picture, or to the ideal picture through a lens.
    pub(super) homography: Matrix3<f64>,
    inverse: Matrix3<f64>,
    lens: Option<&'l Intrinsics>,
    /// How the ideal picture moves with the picture over the tag, `[[∂x'/∂x, ∂x'/∂y],
    /// [∂y'/∂x, ∂y'/∂y]]`: the bows are small enough to be undone through it.
    slope: Matrix2<f64>,
    bend: [f64; 4],
    inked: f64,
}

impl<'l> Warp<'l> {
    pub(super) fn new(
        pattern: &TagTexture,
        corners: &[PixelPoint; 4],
        bend: [f64; 4],
        lens: Option<&'l Intrinsics>,
    ) -> Option<Warp<'l>> {
        let homography = cells_to_picture(pattern, &corners.map(|c| ideal(lens, &c)))?;
        let centre = PixelPoint::mean(corners);
        let at = ideal(lens, &centre);
        let right = ideal(lens, &PixelPoint::new(centre.x + 1.0, centre.y));
        let down = ideal(lens, &PixelPoint::new(centre.x, centre.y + 1.0));
        Some(Warp {
            inverse: homography.try_inverse()?,
            homography,
            lens,
            slope: Matrix2::new(right.x - at.x, down.x - at.x, right.y - at.y, down.y - at.y),
            bend,
            inked: pattern.inked_cells() as f64,
        })
    }

    /// How far the bows move the pattern point (`u`, `v`), as shares of the top and bottom
    /// edges' bow and of the left and right edges': 1 at an edge's middle, 0 at the corners.
    pub(super) fn bulges(&self, u: f64, v: f64) -> (f64, f64) {
        let s = 2.0 * (u - 1.0) / self.inked - 1.0;
        let t = 2.0 * (v - 1.0) / self.inked - 1.0;
        (1.0 - s * s, 1.0 - t * t)
    }

    fn bent(&self, u: f64, v: f64) -> (f64, f64) {
        let (across, down) = self.bulges(u, v);
        (
            self.bend[0] * across + self.bend[2] * down,
            self.bend[1] * across + self.bend[3] * down,
        )
    }

    /// Where a homography (this warp's, or one of moved corners) puts the pattern point
    /// (`u`, `v`) in the picture, the bows left out.
    pub(super) fn unbowed(&self, homography: &Matrix3<f64>, u: f64, v: f64) -> (f64, f64) {
        let (x, y) = apply(homography, u, v);
        let p = seen(self.lens, &PixelPoint::new(x, y));
        (p.x, p.y)
    }

    /// The homography of this warp with its corners moved to `corners`.
    pub(super) fn homography_at(
        &self,
        pattern: &TagTexture,
        corners: &[PixelPoint; 4],
    ) -> Option<Matrix3<f64>> {
        cells_to_picture(pattern, &corners.map(|c| ideal(self.lens, &c)))
    }

    pub(super) fn to_picture(&self, u: f64, v: f64) -> (f64, f64) {
        let (x, y) = self.unbowed(&self.homography, u, v);
        let (bx, by) = self.bent(u, v);
        (x + bx, y + by)
    }

    /// A picture point in the ideal picture: the lens undone (Newton's method, the costly part
    /// of drawing a tag, so done once a pixel; see `Alignment::ideal`).
    pub(super) fn ideal(&self, x: f64, y: f64) -> (f64, f64) {
        let p = ideal(self.lens, &PixelPoint::new(x, y));
        (p.x, p.y)
    }

    /// The pattern point seen at a picture point given in the ideal picture: the bows taken
    /// off by fixed-point steps until they settle, the homography undone.
    pub(super) fn to_cells(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let mut at = apply(&self.inverse, x, y);
        if self.bend.iter().any(|b| *b != 0.0) {
            for _ in 0..BOW_STEPS {
                let (bx, by) = self.bent(at.0, at.1);
                let bow = self.slope * Vector2::new(bx, by);
                let next = apply(&self.inverse, x - bow.x, y - bow.y);
                let settled = (next.0 - at.0).abs() + (next.1 - at.1).abs() < 1e-6;
                at = next;
                if settled {
                    break;
                }
            }
        }
        at
    }
}

/// The most fixed-point steps taken to undo the bows: each step leaves about a third of what
/// is left over a strongly bent anchor (2 px over 40 px), a hundredth over most tags.
const BOW_STEPS: usize = 8;

/// Where a pixel would be through the lens without its distortion: the picture point itself
/// when no lens is given.
fn ideal(lens: Option<&Intrinsics>, p: &PixelPoint) -> PixelPoint {
    lens.map_or(*p, |lens| lens.undistort(p))
}

/// Where the lens puts a point of the ideal picture: [`ideal`] undone.
fn seen(lens: Option<&Intrinsics>, p: &PixelPoint) -> PixelPoint {
    lens.map_or(*p, |lens| lens.distort(p))
}

fn apply(h: &Matrix3<f64>, x: f64, y: f64) -> (f64, f64) {
    let p = h * Vector3::new(x, y, 1.0);
    (p.x / p.z, p.y / p.z)
}
