//! How far the camera may have a tag, and the stand it is on, off: the error bar each stand of
//! a scene carries (`rules::uncertainty`).
//!
//! Decisions:
//! - A tag's corners are off by a noise of their own, independent corner to corner and the same
//!   every way, whose size depends on how many pixels the tag covers ([`corner_noise`]). It is
//!   carried to the table through the camera: each corner's pixel moves its point on the table
//!   by the camera's Jacobian there (foreshortened across the line of sight), the centre is
//!   the corners' mean and the facing the weighted mean of the sides' and the ends' directions,
//!   as [`crate::locate::tag_pose`] places them.
//! - A tag's height above the cloth is stated, not measured: a tag higher than stated is seen
//!   further from the camera's foot along its ray. The roster says how far its heights may be
//!   off ([`roster::TagDefaults::height_sd`]); the shift is along the line from the camera's
//!   foot, and grows with the distance from it. A tag on ground learnt in play adds the learnt
//!   height's own doubt ([`rules::ground::LearntRise::sd`]) along its ray.
//! - The calibration's own error is mostly common to stands near each other, and is carried by
//!   the scene as a relative error of every length; what it adds to each place and facing
//!   (much, for a lens not measured) is added to every tag's ([`calibration::CalibrationSd`]).
//! - A stand's centre lies at an offset from its tag: the facing's error swings it.
//! - A resting tag's pose is the mean of its still sightings ([`crate::track`]), but keeps one
//!   sighting's error bar: a still tag's corners are off the same way frame after frame (the
//!   blur, the print, where its edges fall on the pixel grid), so averaging frames does not
//!   shrink it the way independent sightings would.

use calibration::{CalibrationSd, Camera, PixelPoint, TableCalibration, TagSighting};
use nalgebra::{Matrix2, Matrix3, Matrix3x2, Vector2, Vector3};
use roster::RosterStand;
use rules::geometry::{TablePoint, TableVector};
use rules::uncertainty::{PlaceSd, PlaceSdDoc};
use rules::units::{Degrees, Inches};
use serde::{Serialize, Serializer};

/// How far a tag's corners are off, one standard deviation along each axis, pixels: as they
/// move its centre, and as they turn it.
///
/// Measured against the synthetic truth (`vedette bench accuracy`, its seed 1: four kinds of
/// lens, 30°–50° from vertical, a webcam's blur, noise, uneven light and JPEG): the detector's
/// corners are off mostly by an error common to a tag's four (its black square drawn in by the
/// blur), which moves neither its centre nor its facing. What is left moves the centre as
/// corners off by about 1.6 px over the tag's side would (0.08 px on a 20 px tag), and turns
/// it as corners off by about 2 px over its side would; tags under 16 px, most of them found by
/// the small-tag search, turn further, up to 2.5 times at 10 px. Checked on the benchmark's
/// seed 101: the facings' 95 % intervals held 95–97 % of them on both. (Turning them as
/// corners off by 2.4 px would hold 98–100 %: too wide.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CornerNoise {
    /// As the corners move the tag's centre.
    pub moving: f64,
    /// As they turn it.
    pub turning: f64,
}

/// The corner noise of a tag `side` pixels across (see [`CornerNoise`]).
pub fn corner_noise(side: f64) -> CornerNoise {
    let side = side.max(1.0);
    let small = (1.0 + SMALL_TURN * (SMALL_TAG - side).max(0.0)).min(SMALLEST_TURN);
    CornerNoise {
        moving: CORNER_FLOOR.hypot(MOVING / side),
        turning: CORNER_FLOOR.hypot(TURNING * small / side),
    }
}

/// The least a corner is off, pixels: the refined corners of large, sharp tags are found within
/// 0.03–0.05 px.
const CORNER_FLOOR: f64 = 0.03;
/// How far the corners move a tag, pixels times pixels of side (a 20 px tag's: 0.08 px).
const MOVING: f64 = 1.6;
/// How far they turn it, pixels times pixels of side (a 20 px tag's: 0.1 px).
const TURNING: f64 = 2.0;
/// Below this side, pixels, tags turn further ...
const SMALL_TAG: f64 = 16.0;
/// ... by this share more for each pixel less ...
const SMALL_TURN: f64 = 0.3;
/// ... up to this many times (10 px, the smallest searched for).
const SMALLEST_TURN: f64 = 2.5;

/// How far a tag placed from one picture may be off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TagUncertainty {
    /// The covariance of its centre (x, y, square inches) and facing (square radians), from
    /// its corners' noise and the calibration's error; its stated height is taken as true.
    pub covariance: Matrix3<f64>,
    /// How far its centre moves on the table for each inch it is higher than stated.
    pub per_height: TableVector,
}

/// How much wider a tag's error bar is when part of it is covered: on `bench accuracy`'s built
/// tables, tags found with figures over their edges are placed 2.3 (under a quarter hidden) to
/// 3.9 times (a quarter to half) as far off at the 95th percentile as those wholly in view.
pub const COVERED_WIDER: f64 = 3.0;

impl TagUncertainty {
    /// For a tag part of which is covered: its spread of place and facing [`COVERED_WIDER`]
    /// times as wide.
    pub fn covered(&self) -> TagUncertainty {
        TagUncertainty {
            covariance: self.covariance * COVERED_WIDER.powi(2),
            ..*self
        }
    }

    /// For a picture whose corners scatter `factor` times as far as [`corner_noise`] says
    /// (see [`crate::scatter::Scatter`]): the corners' share of its spread that many times as
    /// wide, the calibration's share (`own`) and that of the doubt of the ground under it
    /// (`ground_sd`, already carried) as they were.
    pub fn scattered(&self, factor: f64, own: &CalibrationSd, ground_sd: Inches) -> TagUncertainty {
        let kept = calibration_covariance(own) + (self.with_height(ground_sd) - self.covariance);
        let corners = self.covariance - kept;
        TagUncertainty {
            covariance: kept + corners * factor.powi(2),
            ..*self
        }
    }

    /// The covariance of its centre and facing with its height off by `height_sd`.
    pub fn with_height(&self, height_sd: Inches) -> Matrix3<f64> {
        let shift = Vector3::new(self.per_height.x, self.per_height.y, 0.0) * height_sd.0;
        self.covariance + shift * shift.transpose()
    }

    /// As a file writes it (the height taken as true).
    pub fn to_doc(&self) -> PlaceSdDoc {
        place_sd(&self.covariance).to_doc()
    }
}

/// Written as the scene writes a stand's: one standard deviation of x, y, their correlation,
/// and of the facing in degrees.
impl Serialize for TagUncertainty {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_doc().serialize(serializer)
    }
}

/// What [`tag_uncertainty`] needs of a tag as placed.
pub(crate) struct Placed<'a> {
    /// Its corners in the picture.
    pub sighting: &'a TagSighting,
    /// Its corners on the table, in the same order.
    pub corners: [TablePoint; 4],
    /// Its height.
    pub height: Inches,
    /// The share of its facing taken from its top and bottom edges (the rest from its sides).
    pub ends_share: f64,
}

/// How far a tag placed so may be off (see the module's decisions).
pub(crate) fn tag_uncertainty(
    calibration: &TableCalibration,
    placed: &Placed,
) -> Option<TagUncertainty> {
    let camera = &calibration.camera;
    let [bl, br, tr, tl] = placed.corners;
    let up = ((tl - bl) + (tr - br)) / 2.0;
    let right = ((br - bl) + (tr - tl)) / 2.0;
    // The facing's gradient against each corner on the table: the sides' direction turns by
    // its normal component over its squared length; `up` takes the top corners less the bottom
    // ones, `right` the right corners less the left ones, each by half.
    let turn = |v: TableVector| Vector2::new(-v.y, v.x) / v.norm_squared().max(1e-12);
    let (from_sides, from_ends) = (turn(up), turn(right));
    let share = placed.ends_share;
    let sign_up = [-0.5, -0.5, 0.5, 0.5];
    let sign_right = [-0.5, 0.5, 0.5, -0.5];
    let noise = corner_noise(placed.sighting.side());
    let mut covariance = Matrix3::zeros();
    for k in 0..4 {
        let to_table = pixel_jacobian(camera, &placed.sighting.corners[k], placed.height)?;
        let facing =
            from_sides * (sign_up[k] * (1.0 - share)) + from_ends * (sign_right[k] * share);
        // The centre is the corners' mean; each corner's noise as it moves and as it turns.
        let mut of_corner = Matrix3x2::zeros();
        of_corner
            .fixed_view_mut::<2, 2>(0, 0)
            .copy_from(&(Matrix2::identity() * (0.25 * noise.moving)));
        of_corner.set_row(2, &(facing.transpose() * noise.turning));
        let through = of_corner * to_table;
        covariance += through * through.transpose();
    }
    covariance += calibration_covariance(&calibration.uncertainty());
    let centre = TablePoint::from((bl.coords + br.coords + tr.coords + tl.coords) / 4.0);
    let eye = camera.pose.eye();
    let drop = placed.height.0 - eye.z;
    if drop.abs() < 1e-9 {
        return None;
    }
    // Along the ray, the point at height h is eye + (centre − eye) (h − eye.z)/(height − eye.z).
    let per_height = TableVector::new(centre.x - eye.x, centre.y - eye.y) / drop;
    Some(TagUncertainty {
        covariance,
        per_height,
    })
}

/// How far one tag's size may read off the others' in the same picture besides its corners'
/// noise, relative, one standard deviation: its print, and how far the detector's pull on its
/// edges differs from the typical one for its size (the page's own scale, a per cent or so
/// under "fit to page", is every tag's and cancels).
pub const PRINT_SCALE_SD: f64 = 0.005;

/// How many of its own standard deviations a tag's size must say it stands higher than
/// stated before its error bar carries it (see [`size_rise`]).
pub const RISE_EVIDENCE: f64 = 3.0;

/// How much higher than stated a tag stands, by its size in the picture, when that is beyond
/// what its corners' noise (`scatter` times the model's: see [`crate::scatter`]) and its print
/// explain ([`RISE_EVIDENCE`]); `None` when it is not.
/// A tag higher than stated lies nearer the camera than the plane it is placed on, and looks
/// larger there in proportion: its side measured on that plane is `size` × (E − h) / (E − h′),
/// E the camera's height, h the stated height and h′ the true one. What this misses is lower
/// than a stand on a hill stands (about 1" at 20 px from 45" away); a tag printed small reads
/// low, never high.
pub fn size_rise(
    camera: &Camera,
    size: Inches,
    measured: Inches,
    height: Inches,
    (side_pixels, scatter): (f64, f64),
) -> Option<Inches> {
    let above = camera.pose.eye().z - height.0;
    if !(above > 0.0 && measured.0 > 0.0 && size.0 > 0.0) {
        return None;
    }
    let rise = above * (1.0 - size.0 / measured.0);
    let relative = scatter * corner_noise(side_pixels).moving / side_pixels.max(1.0);
    let sd = above * relative.hypot(PRINT_SCALE_SD);
    (rise > RISE_EVIDENCE * sd).then_some(Inches(rise))
}

/// The calibration's own share of every tag's centre and facing covariance.
fn calibration_covariance(own: &CalibrationSd) -> Matrix3<f64> {
    let (place, turn) = (own.place.0, own.facing.0.to_radians());
    Matrix3::from_diagonal(&Vector3::new(place * place, place * place, turn * turn))
}

/// How far a tag's corners stray from a square of their own, against [`corner_noise`]: the
/// sum of their squared misfits in pixels over the noise's variance, once a square of any
/// size, place and turn is fitted to them on the table at `height` (a square's shape, not its
/// size: a tag higher or printed larger than stated is still square). Four corners less the
/// square's four numbers leave four degrees of freedom: a tag as noisy as the model says sums
/// to about four. `None` where a corner's ray misses that height.
pub fn shape_misfit(camera: &Camera, sighting: &TagSighting, height: Inches) -> Option<f64> {
    let mut on_table = [Vector2::zeros(); 4];
    for (out, pixel) in on_table.iter_mut().zip(&sighting.corners) {
        *out = camera.unproject_at(pixel, height)?.coords;
    }
    let centre = on_table.iter().sum::<Vector2<f64>>() / 4.0;
    // The square in its own frame, in the tags' corner order (counter-clockwise from bottom
    // left); the best similarity to it is one complex number: a turn and a scale.
    const SQUARE: [(f64, f64); 4] = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
    let (mut re, mut im) = (0.0, 0.0);
    for (c, (qx, qy)) in on_table.iter().zip(SQUARE) {
        let z = c - centre;
        re += z.x * qx + z.y * qy;
        im += z.y * qx - z.x * qy;
    }
    let (re, im) = (re / 8.0, im / 8.0);
    let noise = corner_noise(sighting.side()).moving;
    let mut misfit = 0.0;
    for ((c, (qx, qy)), pixel) in on_table.iter().zip(SQUARE).zip(&sighting.corners) {
        let fitted = Vector2::new(re * qx - im * qy, im * qx + re * qy);
        let off = c - centre - fitted;
        let to_pixels = pixel_jacobian(camera, pixel, height)?.try_inverse()?;
        misfit += (to_pixels * off).norm_squared() / (noise * noise);
    }
    Some(misfit)
}

/// How a point on the table at `height` moves as its pixel moves (inches per pixel), by finite
/// differences over a tenth of a pixel.
fn pixel_jacobian(camera: &Camera, pixel: &PixelPoint, height: Inches) -> Option<Matrix2<f64>> {
    const STEP: f64 = 0.1;
    let at = camera.unproject_at(pixel, height)?;
    let along_x = camera.unproject_at(&PixelPoint::new(pixel.x + STEP, pixel.y), height)?;
    let along_y = camera.unproject_at(&PixelPoint::new(pixel.x, pixel.y + STEP), height)?;
    let (dx, dy) = ((along_x - at) / STEP, (along_y - at) / STEP);
    Some(Matrix2::new(dx.x, dy.x, dx.y, dy.y))
}

/// A centre-and-facing covariance (square inches, square radians) as the rules take it.
pub fn place_sd(covariance: &Matrix3<f64>) -> PlaceSd {
    let centre = covariance.fixed_view::<2, 2>(0, 0).into_owned();
    let facing = covariance[(2, 2)].max(0.0).sqrt().to_degrees();
    PlaceSd::new(centre, Degrees(facing))
}

/// How far a stand placed from its tag may be off: its tag's, its height off by `height_sd`,
/// and the facing's error swinging the stand's centre about the tag's.
pub fn stand_sd(
    stand: &RosterStand,
    tag: &TagUncertainty,
    facing: Degrees,
    height_sd: Inches,
) -> PlaceSd {
    let arm = stand.tag_offset.on_table(facing);
    // The stand's centre is the tag's less the arm; turning the arm by δ moves it by δ across.
    let mut through = Matrix3::identity();
    through[(0, 2)] = arm.y;
    through[(1, 2)] = -arm.x;
    place_sd(&(through * tag.with_height(height_sd) * through.transpose()))
}
