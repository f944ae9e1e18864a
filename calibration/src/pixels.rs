//! Quantities measured in the image, kept apart from table inches by their types.

use std::fmt;
use std::ops::{Add, Mul, Sub};

use rules::geometry::xy::Pair;
use serde::{Deserialize, Serialize};

/// A length in image pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Pixels(pub f64);

impl fmt::Display for Pixels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.2} px", self.0)
    }
}

/// A point in the image, in pixels: `x` to the right, `y` down, and the centre of the top-left
/// pixel at (0, 0) — OpenCV's convention. (The AprilTag C library puts that centre at
/// (0.5, 0.5); `vision` converts its corners on the way in.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "Pair", into = "[f64; 2]")]
pub struct PixelPoint {
    /// Rightwards.
    pub x: f64,
    /// Downwards.
    pub y: f64,
}

impl PixelPoint {
    /// The point (x, y).
    pub const fn new(x: f64, y: f64) -> PixelPoint {
        PixelPoint { x, y }
    }

    /// The straight-line distance to another point.
    pub fn distance(&self, other: &PixelPoint) -> Pixels {
        Pixels((self.x - other.x).hypot(self.y - other.y))
    }

    /// The mean of some points (the origin when there are none).
    pub fn mean(points: &[PixelPoint]) -> PixelPoint {
        let n = points.len().max(1) as f64;
        let (x, y) = points
            .iter()
            .fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
        PixelPoint::new(x / n, y / n)
    }

    /// Whether both coordinates are finite numbers.
    pub fn is_finite(&self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

impl Sub for PixelPoint {
    type Output = PixelVector;

    fn sub(self, from: PixelPoint) -> PixelVector {
        PixelVector::new(self.x - from.x, self.y - from.y)
    }
}

impl Add<PixelVector> for PixelPoint {
    type Output = PixelPoint;

    fn add(self, step: PixelVector) -> PixelPoint {
        PixelPoint::new(self.x + step.x, self.y + step.y)
    }
}

/// A step across the image, in pixels (a corner's motion from one frame to the next).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PixelVector {
    /// Rightwards.
    pub x: f64,
    /// Downwards.
    pub y: f64,
}

impl PixelVector {
    /// The step (x, y).
    pub const fn new(x: f64, y: f64) -> PixelVector {
        PixelVector { x, y }
    }

    /// How long the step is.
    pub fn length(&self) -> Pixels {
        Pixels(self.x.hypot(self.y))
    }
}

impl Add for PixelVector {
    type Output = PixelVector;

    fn add(self, other: PixelVector) -> PixelVector {
        PixelVector::new(self.x + other.x, self.y + other.y)
    }
}

impl Mul<f64> for PixelVector {
    type Output = PixelVector;

    fn mul(self, factor: f64) -> PixelVector {
        PixelVector::new(self.x * factor, self.y * factor)
    }
}

impl From<[f64; 2]> for PixelPoint {
    fn from([x, y]: [f64; 2]) -> PixelPoint {
        PixelPoint { x, y }
    }
}

impl From<Pair> for PixelPoint {
    fn from(Pair(pair): Pair) -> PixelPoint {
        PixelPoint::from(pair)
    }
}

impl From<PixelPoint> for [f64; 2] {
    fn from(p: PixelPoint) -> [f64; 2] {
        [p.x, p.y]
    }
}

impl fmt::Display for PixelPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({:.1}, {:.1}) px", self.x, self.y)
    }
}

/// The size of a camera image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageSize {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl ImageSize {
    /// The centre of the image (where an uncalibrated lens's principal point is assumed).
    pub fn center(&self) -> PixelPoint {
        PixelPoint::new(
            (f64::from(self.width) - 1.0) / 2.0,
            (f64::from(self.height) - 1.0) / 2.0,
        )
    }

    /// The length of the image's diagonal, pixels.
    pub fn diagonal(&self) -> f64 {
        f64::from(self.width).hypot(f64::from(self.height))
    }

    /// Whether a point lies inside the image.
    pub fn contains(&self, p: &PixelPoint) -> bool {
        p.x >= -0.5
            && p.y >= -0.5
            && p.x <= f64::from(self.width) - 0.5
            && p.y <= f64::from(self.height) - 0.5
    }
}

impl fmt::Display for ImageSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}×{}", self.width, self.height)
    }
}

/// The root mean square of errors (a tag's corners' misses, in pixels).
pub(crate) fn root_mean_square(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, count) = values.fold((0.0, 0.0), |(sum, count), v| (sum + v * v, count + 1.0));
    (sum / count).sqrt()
}
