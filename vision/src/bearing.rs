//! How a tag lies: flat on its stand, or lifted and tilted off the stand's plane in a hand.
//!
//! A tag's four corners, taken down their pixels' rays to its stand's plane, make a square of
//! its printed size when it lies there. Lifted straight up, it makes a bigger square: the rays
//! spread on the way down, by the camera's height over the stand's plane over its height over
//! the tag. Tilted, it makes no square at all, but an outline stretched or sheared along the
//! line of sight. [`Bearing::of`] measures both on one sighting; [`FlatLook`] knows what a tag
//! lying flat looks like at each size in pixels, learnt from the tags lying still, and turns a
//! bearing into a [`Lift`]: how far above its stand, and how far tilted, the tag seems to be.
//!
//! Decisions:
//! - The tilt is the smallest tilt of the tag's plane that makes its outline a square again,
//!   searched over a grid, not the pose of a homography: at 15 px a homography's normal is
//!   lost in the corner noise and comes with a second solution, while the outline on the
//!   stand's plane is measured well. Under an oblique camera a tilt towards or across the line
//!   of sight changes the outline to first order, so a few degrees show.
//! - What a flat tag looks like is learnt per size, from the tags lying still: the detectors'
//!   corners sit 0.1–0.3 px inside the printed square, so a flat tag of 15 px seems 0.8" below
//!   its stand, and the corner noise fakes a tilt of a few degrees. Both are properties of the
//!   detector, the lens and the blur, the same for every tag of one size in one picture.

use calibration::{Camera, Pixels, StandTagSpec, TagSighting};
use nalgebra::{Matrix2, Vector2, Vector3};
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use serde::Serialize;

/// What a tag's outline says of how it lies (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bearing {
    /// Its side, measured on its stand's plane with its tilt undone, over its printed side:
    /// 1 for a tag lying there, more for one raised above it.
    pub scale: f64,
    /// The smallest tilt out of the table's plane that makes its outline a square.
    pub tilt: Degrees,
    /// Its side in the picture: the smaller, the noisier both figures.
    pub pixels: Pixels,
    /// The camera's height above the stand's plane, over the tag: turns a scale into a rise.
    pub eye_height: Inches,
}

/// The grid of tilts searched: up to 60° in 2° steps, every 10° of direction, then refined
/// round the best to a quarter of that.
const TILT_STEP: f64 = 2.0;
const TILT_MOST: f64 = 60.0;
const TOWARD_STEP: f64 = 10.0;
/// A detector's corners wander by about this much …
const CORNER_NOISE: f64 = 0.25;
/// … and an outline this many times that off square, over its side, is still square.
const NOISE_SIDES: f64 = 3.0;
/// A tag's corners sit inside its printed square by a share of a pixel its own pattern and
/// place set: one tag of 15 px lying flat seems an inch up, its neighbour half an inch down,
/// frame after frame. That bias is this share of one sighting's spread of the rise.
const RISE_BIAS: f64 = 1.0;
/// A flat tag of one pixel's side would seem tilted by this much, one standard deviation (the
/// spread shrinks as the tag grows): flat tags of 14–25 px read 0–5° on busy synthetic
/// tables through MJPEG.
const TILT_NOISE: f64 = 30.0;

impl Bearing {
    /// The bearing of a sighting of a tag of this size and stand height; `None` when a corner
    /// cannot be placed on the stand's plane.
    pub fn of(camera: &Camera, sighting: &TagSighting, spec: &StandTagSpec) -> Option<Bearing> {
        let mut corners = [TablePoint::origin(); 4];
        for (out, pixel) in corners.iter_mut().zip(&sighting.corners) {
            *out = camera.unproject_at(pixel, spec.height)?;
        }
        let centre = corners.iter().fold(Vector2::zeros(), |s, c| s + c.coords) / 4.0;
        let outline = outline_map(&corners, centre, spec.size);
        let eye = camera.pose.eye();
        let sight = (Vector3::new(centre.x, centre.y, spec.height.0) - eye.coords).normalize();
        let (tilt, scale) = best_tilt(&outline, &sight, Pixels(sighting.side()));
        Some(Bearing {
            scale,
            tilt,
            pixels: Pixels(sighting.side()),
            eye_height: Inches(eye.z - spec.height.0),
        })
    }

    /// How far above its stand's plane the tag seems to be, when a flat tag of its size in
    /// the picture measures `flat_scale`.
    pub fn rise_over(&self, flat_scale: f64) -> Inches {
        Inches(self.eye_height.0 * (1.0 - flat_scale / self.scale.max(1e-9)))
    }
}

/// The linear map from the printed square (corners at ±½ its side, in AprilTag order) to its
/// outline on the stand's plane, fitted to the four corners by least squares. The printed
/// corners are orthogonal and centred, so the normal equations are diagonal: the map is the
/// outline's corners times the printed ones, over the side squared.
fn outline_map(corners: &[TablePoint; 4], centre: Vector2<f64>, side: Inches) -> Matrix2<f64> {
    let half = side.0 / 2.0;
    let printed = [(-half, -half), (half, -half), (half, half), (-half, half)];
    let mut map = Matrix2::zeros();
    for (corner, (u, v)) in corners.iter().zip(printed) {
        map += (corner.coords - centre) * Vector2::new(u, v).transpose();
    }
    map / (side.0 * side.0)
}

/// The tilt that makes the outline a square, and the side it then has (as a share of the
/// printed side). Under an oblique camera the outline of a tilted square has two fits, the
/// true tilt and its reflection about the line of sight, and the corners' noise can make the
/// steeper one the better by a hair (a flat tag "tilted" 50°): of the valleys of the misfit
/// within the noise of the best, the gentlest is taken, then its bottom.
fn best_tilt(outline: &Matrix2<f64>, sight: &Vector3<f64>, side: Pixels) -> (Degrees, f64) {
    let tilts = (TILT_MOST / TILT_STEP) as usize;
    let towards = (360.0 / TOWARD_STEP) as usize;
    let at = |i: usize, j: usize| (i as f64 * TILT_STEP, j as f64 * TOWARD_STEP);
    let misfit = |i: usize, j: usize| {
        let (tilt, toward) = at(i, j);
        squareness(outline, sight, tilt, toward).0
    };
    // The grid's misfits; every direction of no tilt is the same.
    let flat = misfit(0, 0);
    let grid: Vec<Vec<f64>> = (0..=tilts)
        .map(|i| {
            (0..towards)
                .map(|j| if i == 0 { flat } else { misfit(i, j) })
                .collect()
        })
        .collect();
    let best = grid.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let noise = (NOISE_SIDES * CORNER_NOISE / side.0.max(1.0)).powi(2);
    // The bottom of a valley: no neighbour on the grid lower (no tilt's neighbours are every
    // direction of the first step).
    let valley = |i: usize, j: usize| {
        let here = grid[i][j];
        if i == 0 {
            return grid
                .get(1)
                .is_none_or(|ring| ring.iter().all(|m| here <= *m));
        }
        let (left, right) = ((j + towards - 1) % towards, (j + 1) % towards);
        let rings = [i - 1, i, i + 1];
        rings
            .iter()
            .filter_map(|&a| grid.get(a))
            .all(|ring| [left, j, right].iter().all(|&b| here <= ring[b]))
    };
    let gentlest = (0..=tilts)
        .flat_map(|i| (0..towards).map(move |j| (i, j)))
        .find(|&(i, j)| (i > 0 || j == 0) && grid[i][j] <= best + noise && valley(i, j))
        .unwrap_or((0, 0));
    let (tilt, toward) = at(gentlest.0, gentlest.1);
    // Its bottom, within a coarse step either way.
    let fine = (-4..=4).flat_map(|i| {
        (-4..=4).map(move |j| {
            (
                (tilt + f64::from(i) * TILT_STEP / 4.0).max(0.0),
                toward + f64::from(j) * TOWARD_STEP / 4.0,
            )
        })
    });
    let (tilt, toward) = most_square(outline, sight, fine);
    (Degrees(tilt), squareness(outline, sight, tilt, toward).1)
}

/// Of some tilts (degrees, and the direction they lean towards), the one that makes the
/// outline most square; the first of equals.
fn most_square(
    outline: &Matrix2<f64>,
    sight: &Vector3<f64>,
    tilts: impl Iterator<Item = (f64, f64)>,
) -> (f64, f64) {
    let mut best = (f64::INFINITY, (0.0, 0.0));
    for (tilt, toward) in tilts {
        let misfit = squareness(outline, sight, tilt, toward).0;
        if misfit < best.0 {
            best = (misfit, (tilt, toward));
        }
    }
    best.1
}

/// How far from a square the outline is when the tag's plane is tilted by `tilt` towards
/// `toward` (degrees), with the outline's sides lifted from the stand's plane onto the tilted
/// one along the line of sight: 0 for a square. Also the lifted sides' mean length.
fn squareness(outline: &Matrix2<f64>, sight: &Vector3<f64>, tilt: f64, toward: f64) -> (f64, f64) {
    let (t, a) = (tilt.to_radians(), toward.to_radians());
    let normal = Vector3::new(t.sin() * a.cos(), t.sin() * a.sin(), t.cos());
    let across = normal.dot(sight);
    let lift = |column: Vector2<f64>| {
        let w = Vector3::new(column.x, column.y, 0.0);
        w - sight * (normal.dot(&w) / across)
    };
    let (c1, c2) = (
        lift(outline.column(0).into()),
        lift(outline.column(1).into()),
    );
    let (n1, n2) = (c1.norm_squared(), c2.norm_squared());
    let total = (n1 + n2).max(1e-18);
    let misfit = ((n1 - n2).powi(2) + 4.0 * c1.dot(&c2).powi(2)) / (total * total);
    (misfit, (n1 * n2).sqrt().sqrt())
}

/// How far off its stand's plane a tag seems to be, and how sure that is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Lift {
    /// Above its stand's height (negative: below), from its size against a flat tag's.
    pub rise: Inches,
    /// Tilted out of the table's plane, beyond what the corner noise makes of a flat tag.
    pub tilt: Degrees,
    /// One standard deviation of the rise: the corners' noise over the tag's side, times the
    /// camera's height (a far, small tag under a high camera cannot tell an inch).
    pub rise_spread: Inches,
    /// One standard deviation of the tilt.
    pub tilt_spread: Degrees,
}

/// A tag at rest this far above the plane it was placed at lies on something raised the ground
/// does not know (a hill without its rise, a building, a book under the cloth) …
pub const SEEMS_RAISED: Inches = Inches(1.0);
/// … when that is also this many times the noise of its look.
const RAISED_SPREADS: f64 = 4.0;

impl Lift {
    /// Whether a tag lying still looks raised off the plane it was placed at, beyond doubt
    /// (see [`SEEMS_RAISED`]).
    pub fn seems_raised(&self) -> bool {
        self.rise > SEEMS_RAISED && self.rise.0 > RAISED_SPREADS * self.rise_spread.0
    }

    /// Whether it is surely off its stand's plane beyond these limits: in a hand. Only a rise
    /// counts: a tag cannot sink below its stand, so seeming to is the corners' noise (or a
    /// roster that gives the wrong height).
    pub fn in_hand(&self, limits: &InHand) -> bool {
        self.rise.0 > limits.rise.0.max(limits.sure * self.rise_spread.0)
            || self.tilt.0 > limits.tilt.0.max(limits.sure * self.tilt_spread.0)
    }

    /// This look followed towards one more sighting's, as a mean of `count` sightings would
    /// take it in (the spread narrowing with them).
    pub fn followed(&self, raw: &Lift, count: f64) -> Lift {
        let w = 1.0 / count.max(1.0);
        Lift {
            rise: self.rise * (1.0 - w) + raw.rise * w,
            tilt: Degrees(self.tilt.0 * (1.0 - w) + raw.tilt.0 * w),
            rise_spread: raw.rise_spread * w.sqrt(),
            tilt_spread: Degrees(raw.tilt_spread.0 * w.sqrt()),
        }
    }

    /// The mean of some lifts, its spread narrowed by their number — the rise's only down to
    /// [`RISE_BIAS`] of one sighting's: that much of a small tag's rise is its own, the same
    /// in every frame, which no number of sightings averages away.
    pub fn mean<'a>(lifts: impl IntoIterator<Item = &'a Lift>) -> Option<Lift> {
        let mut sum = Lift::default();
        let mut n = 0.0;
        for lift in lifts {
            sum.rise = sum.rise + lift.rise;
            sum.tilt = Degrees(sum.tilt.0 + lift.tilt.0);
            sum.rise_spread = sum.rise_spread + lift.rise_spread;
            sum.tilt_spread = Degrees(sum.tilt_spread.0 + lift.tilt_spread.0);
            n += 1.0;
        }
        (n > 0.0).then(|| Lift {
            rise: sum.rise / n,
            tilt: Degrees(sum.tilt.0 / n),
            rise_spread: sum.rise_spread / n * (1.0 / n + RISE_BIAS * RISE_BIAS).sqrt(),
            tilt_spread: Degrees(sum.tilt_spread.0 / (n * n.sqrt())),
        })
    }
}

/// When a tag is taken to be in a hand: lifted or tilted beyond these, and surely so.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InHand {
    /// Raised above its stand by more than this …
    pub rise: Inches,
    /// … or tilted by more than this …
    pub tilt: Degrees,
    /// … and by more than this many standard deviations of the figure.
    pub sure: f64,
}

impl InHand {
    /// These limits, `times` as wide and as sure.
    pub fn widened(&self, times: f64) -> InHand {
        InHand {
            rise: self.rise * times,
            tilt: Degrees(self.tilt.0 * times),
            sure: self.sure * times,
        }
    }
}

/// What a tag lying flat at its stand's height looks like, by its side in pixels: learnt from
/// the tags lying still (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct FlatLook {
    bins: Vec<FlatBin>,
}

/// The flat tags of one size.
#[derive(Clone, Copy, Debug, PartialEq)]
struct FlatBin {
    scale: f64,
    tilt: f64,
    /// Sightings learnt from, up to [`FlatLook::MEMORY`].
    count: f64,
}

impl Default for FlatLook {
    fn default() -> FlatLook {
        FlatLook {
            bins: (0..FlatLook::BINS)
                .map(|k| {
                    let side = FlatLook::side_of(k);
                    FlatBin {
                        // Before any tag has been learnt: the corners 0.1 px inside the
                        // printed square (the detectors put them 0–0.2 px inside), a few
                        // degrees of tilt from the noise.
                        scale: 1.0 - 0.1 / side,
                        tilt: 40.0 / side,
                        count: 0.0,
                    }
                })
                .collect(),
        }
    }
}

impl FlatLook {
    /// Sizes are told apart in steps of this many pixels …
    const STEP: f64 = 2.0;
    /// … from this size …
    const SMALLEST: f64 = 8.0;
    /// … in this many bins (the last holds everything bigger).
    const BINS: usize = 20;
    /// A bin remembers about this many sightings: it follows a change of light or lens in a
    /// few seconds of play.
    const MEMORY: f64 = 400.0;

    fn bin(pixels: Pixels) -> usize {
        (((pixels.0 - Self::SMALLEST) / Self::STEP).max(0.0) as usize).min(Self::BINS - 1)
    }

    fn side_of(bin: usize) -> f64 {
        Self::SMALLEST + (bin as f64 + 0.5) * Self::STEP
    }

    /// A bin that has learnt from this many sightings knows what a flat tag of its size looks
    /// like well enough to tell a raised one.
    const TAUGHT: f64 = 30.0;

    /// Whether what a flat tag looks like has been learnt, at this size or another (see
    /// [`Self::TAUGHT`]).
    pub fn taught(&self) -> bool {
        self.bins.iter().any(|b| b.count >= Self::TAUGHT)
    }

    /// What a flat tag in bin `k` looks like: as learnt there, or, while that size is not
    /// taught, as the nearest taught size says (the corners sit inside the printed square by
    /// the same share of a pixel, and the noise's tilt falls with the side, at every size).
    fn look(&self, k: usize) -> FlatBin {
        let own = self.bins[k];
        if own.count >= Self::TAUGHT {
            return own;
        }
        let nearest = (0..Self::BINS)
            .filter(|&j| self.bins[j].count >= Self::TAUGHT)
            .min_by_key(|&j| j.abs_diff(k));
        let Some(j) = nearest else {
            return own;
        };
        let (from, to) = (Self::side_of(j), Self::side_of(k));
        let taught = self.bins[j];
        FlatBin {
            scale: 1.0 - (1.0 - taught.scale) * from / to,
            tilt: taught.tilt * from / to,
            count: own.count,
        }
    }

    /// Learn from a tag known to lie still on its stand.
    pub fn learn(&mut self, bearing: &Bearing) {
        let bin = &mut self.bins[Self::bin(bearing.pixels)];
        bin.count = (bin.count + 1.0).min(Self::MEMORY);
        let weight = 1.0 / bin.count;
        bin.scale += weight * (bearing.scale - bin.scale);
        bin.tilt += weight * (bearing.tilt.0 - bin.tilt);
    }

    /// How far off its stand's plane a tag of this bearing seems to be.
    pub fn lift(&self, bearing: &Bearing) -> Lift {
        let bin = &self.look(Self::bin(bearing.pixels));
        let side = bearing.pixels.0.max(1.0);
        Lift {
            rise: bearing.rise_over(bin.scale),
            tilt: Degrees((bearing.tilt.0 - bin.tilt).max(0.0)),
            // A side is measured from two corners (√2 of a corner's noise), the scale from
            // four sides (half of that).
            rise_spread: bearing.eye_height
                * (CORNER_NOISE * std::f64::consts::FRAC_1_SQRT_2 / side),
            tilt_spread: Degrees(TILT_NOISE / side),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calibration::{ImageSize, TablePoint3, TableSize, TagPlacement};
    use nalgebra::{Isometry3, Translation3, UnitQuaternion};

    fn camera() -> Camera {
        let table = TableSize {
            width: 72.0,
            depth: 48.0,
        };
        let size = ImageSize {
            width: 1920,
            height: 1080,
        };
        crate::synthetic::framing_camera(table, size, Degrees(40.0), Degrees(70.0))
    }

    const SPEC: StandTagSpec = StandTagSpec {
        size: Inches(1.0),
        height: Inches(0.16),
    };

    /// The exact sighting of a tag lying at `(x, y)` on its stand, raised by `rise` and tilted
    /// by `tilt` towards `toward`.
    fn sighting(camera: &Camera, x: f64, y: f64, rise: f64, tilt: f64, toward: f64) -> TagSighting {
        let placement = TagPlacement {
            center: TablePoint::new(x, y),
            facing: Degrees(63.0),
            size: SPEC.size,
            height: SPEC.height,
        };
        let a = toward.to_radians();
        let axis = nalgebra::Unit::new_normalize(Vector3::new(-a.sin(), a.cos(), 0.0));
        let pivot = Vector3::new(x, y, SPEC.height.0);
        let pose = Isometry3::from_parts(
            Translation3::from(pivot + Vector3::new(0.0, 0.0, rise)),
            UnitQuaternion::from_axis_angle(&axis, tilt.to_radians()),
        ) * Isometry3::translation(-pivot.x, -pivot.y, -pivot.z);
        let corners: Vec<_> = placement
            .corners()
            .iter()
            .map(|c: &TablePoint3| camera.project(&(pose * c)).expect("in view"))
            .collect();
        TagSighting {
            id: 1,
            corners: corners.try_into().expect("four corners"),
        }
    }

    fn exact() -> FlatLook {
        let mut look = FlatLook::default();
        for bin in &mut look.bins {
            (bin.scale, bin.tilt) = (1.0, 0.0);
        }
        look
    }

    #[test]
    fn a_tag_lying_on_its_stand_is_flat() {
        let camera = camera();
        for (x, y) in [(10.0, 8.0), (36.0, 24.0), (62.0, 42.0)] {
            let bearing = Bearing::of(&camera, &sighting(&camera, x, y, 0.0, 0.0, 0.0), &SPEC)
                .expect("placed");
            let lift = exact().lift(&bearing);
            assert!(lift.rise.0.abs() < 0.01, "{lift:?} at ({x}, {y})");
            assert!(lift.tilt.0 < 0.6, "{lift:?} at ({x}, {y})");
        }
    }

    #[test]
    fn a_lifted_tag_rises_by_its_lift() {
        let camera = camera();
        for rise in [1.0, 2.0, 4.0] {
            let bearing = Bearing::of(
                &camera,
                &sighting(&camera, 30.0, 30.0, rise, 0.0, 0.0),
                &SPEC,
            )
            .expect("placed");
            let lift = exact().lift(&bearing);
            assert!((lift.rise.0 - rise).abs() < 0.05, "{lift:?} for {rise}\"");
        }
    }

    #[test]
    fn a_tilted_tag_shows_its_tilt_whichever_way_it_leans() {
        let camera = camera();
        for tilt in [10.0, 20.0, 30.0] {
            for toward in [0.0, 90.0, 180.0, 270.0, 45.0] {
                let seen = sighting(&camera, 40.0, 20.0, 2.0, tilt, toward);
                let bearing = Bearing::of(&camera, &seen, &SPEC).expect("placed");
                let lift = exact().lift(&bearing);
                assert!(
                    (lift.tilt.0 - tilt).abs() < 2.0,
                    "{lift:?} for {tilt}° towards {toward}°"
                );
                assert!((lift.rise.0 - 2.0).abs() < 0.5, "{lift:?}");
            }
        }
    }

    #[test]
    fn the_look_of_a_flat_tag_is_learnt() {
        let camera = camera();
        let mut look = FlatLook::default();
        let flat = Bearing {
            scale: 0.985,
            tilt: Degrees(3.0),
            ..Bearing::of(
                &camera,
                &sighting(&camera, 30.0, 30.0, 0.0, 0.0, 0.0),
                &SPEC,
            )
            .expect("placed")
        };
        for _ in 0..50 {
            look.learn(&flat);
        }
        let lift = look.lift(&flat);
        assert!(lift.rise.0.abs() < 1e-9 && lift.tilt.0 < 1e-9, "{lift:?}");
        assert!(lift.rise_spread.0 > 0.0, "{lift:?}");
        let raised = Bearing { scale: 1.0, ..flat };
        assert!(look.lift(&raised).rise.0 > 0.5, "{:?}", look.lift(&raised));
    }
}
