//! What a calibration can promise a player: how far from the truth stands may be put, at the
//! worst place on the table, counting what the fit measured and what it could not.
//!
//! Decisions:
//! - The promise is the fit's own covariance, propagated to where the camera puts a point on the
//!   table, with every number of the lens set free. The numbers the tags could not pin down
//!   (from the anchors alone, the bend between the picture's corners) are held only to what
//!   webcams are ([`RADIAL_SPREADS`], and the bundle's prior on the principal point and the
//!   tangential terms): the promise then includes what an unmeasured lens may do, where the
//!   model chosen would claim to know it exactly.
//! - 95 % of stands at the worst place: 2.45 standard deviations in the worst direction, the
//!   radius holding 95 % of a round spread (a flat one needs less; the promise errs wide).
//! - Over the whole table when its size is known, not only between the tags: a stand can stand
//!   anywhere, and the far edge, seen coarsest, is usually the worst place.

use levenberg_marquardt::LeastSquaresProblem;
use nalgebra::{DMatrix, DVector};
use rules::geometry::TablePoint;
use rules::units::Inches;
use serde::{Deserialize, Serialize};

use super::bundle::{Bundle, CORNER_NOISE, table_view};
use super::model::{LensModel, LensParam};
use crate::anchors::TableSize;
use crate::pixels::Pixels;

/// What webcams' radial terms are, one standard deviation about the fit's: enough to take in
/// the k2 and k3 a held rung leaves at nought (wide webcams' run to 0.15 and −0.05).
const RADIAL_SPREADS: [(LensParam, f64); 3] = [
    (LensParam::K1, 0.3),
    (LensParam::K2, 0.1),
    (LensParam::K3, 0.05),
];

/// Standard deviations (worst direction) holding 95 % of a round two-dimensional spread.
const PROMISE_SIGMAS: f64 = 2.45;

/// The least scatter a promise assumes of a corner: the best refined corners come within
/// 0.03 px of the truth, and a handful of anchors can fit closer than their corners truly lie.
/// (On `vedette render`'s tables, 36 of them through four kinds of lens, the promise from the
/// anchors alone covered every table's true p95 at this floor, 1.4–3.2 times it at the median;
/// at 0.1 px it was 5–11 times.)
const BEST_CORNERS: Pixels = Pixels(0.03);

/// Probes across and down the table.
const TABLE_PROBES: (u32, u32) = (9, 6);

/// How far from the truth a calibration puts stands: 95 % of them within `within` at the worst
/// place on the table, `at`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Promise {
    /// The radius, inches.
    pub within: Inches,
    /// The worst place.
    #[serde(with = "rules::geometry::xy")]
    pub at: TablePoint,
}

impl Promise {
    /// One standard deviation of a place, in the worst direction, at the worst place.
    pub fn sd(&self) -> Inches {
        Inches(self.within.0 / PROMISE_SIGMAS)
    }
}

/// The promise of a fit, over `table` (over its tags' area when the table is not known);
/// `None` when the fit leaves it undetermined.
pub(super) fn promise(bundle: &Bundle, table: Option<TableSize>) -> Option<Promise> {
    let v = table_view(bundle)?;
    let mut free = bundle.clone();
    free.rebase(LensModel::Full);
    let jacobian = free.jacobian()?;
    let residuals = free.residuals()?;
    // The anchors fix the table's frame: when their corners scatter more than the stand tags',
    // theirs is the scatter that counts.
    let sigma2 = corner_variance(&residuals, free.parameter_count(), BEST_CORNERS)
        .max(known_variance(&free, v));
    let mut information = jacobian.transpose() * &jacobian;
    for (i, param) in free.free().iter().enumerate() {
        if let Some((_, spread)) = RADIAL_SPREADS.iter().find(|(p, _)| p == param) {
            // A prior row in the bundle's units: its value over its spread, times a corner's
            // noise.
            information[(i, i)] += (CORNER_NOISE / spread).powi(2);
        }
    }
    let covariance = information.cholesky()?.inverse() * sigma2;
    let points = match table {
        Some(table) => over(table),
        None => probes(bundle, v),
    };
    let height = bundle.views()[v].typical_height();
    let (spread, at) = worst_spread(&free, v, &covariance, &points, height)?;
    Some(Promise {
        within: Inches(PROMISE_SIGMAS * spread),
        at,
    })
}

/// A coordinate's variance over the known tags' corners of view `v` (the anchors), as fitted.
fn known_variance(bundle: &Bundle, v: usize) -> f64 {
    let view = &bundle.views()[v];
    let projected = &bundle.projected()[v];
    let squares: Vec<f64> = view
        .known
        .iter()
        .zip(projected)
        .flat_map(|(known, at)| {
            (0..4).map(move |k| at[k].distance(&known.sighting.corners[k]).0.powi(2))
        })
        .collect();
    // Two coordinates a corner.
    squares.iter().sum::<f64>() / (2 * squares.len()).max(1) as f64
}

/// Points spread over the whole table, its edges included.
pub(crate) fn over(table: TableSize) -> Vec<TablePoint> {
    let (across, down) = TABLE_PROBES;
    (0..across)
        .flat_map(|i| {
            (0..down).map(move |j| {
                TablePoint::new(
                    table.width * f64::from(i) / f64::from(across - 1),
                    table.depth * f64::from(j) / f64::from(down - 1),
                )
            })
        })
        .collect()
}

/// How the places view `v`'s camera puts at `height` move with the bundle's numbers.
pub(super) struct PlaceGradients {
    /// The numbers that move them: the lens's and the view's pose.
    pub indices: Vec<usize>,
    /// Each point the camera sees, with its gradient (2 × the numbers, inches per unit).
    pub points: Vec<(TablePoint, DMatrix<f64>)>,
}

impl PlaceGradients {
    /// Of `points`, by central differences; `None` when a camera nudged along some number
    /// cannot put a point.
    pub fn of(
        bundle: &Bundle,
        v: usize,
        points: &[TablePoint],
        height: Inches,
    ) -> Option<PlaceGradients> {
        let mut indices: Vec<usize> = (0..bundle.free().len()).collect();
        indices.extend(bundle.pose_columns(v));
        let camera = bundle.camera(v);
        let mut moved = Vec::new();
        for point in points {
            let Some(pixel) = camera.project_at(point, height) else {
                continue;
            };
            let mut gradient = DMatrix::zeros(2, indices.len());
            for (column, &index) in indices.iter().enumerate() {
                let step = bundle.step(index);
                let at = |s: f64| {
                    bundle
                        .nudged(index, s)
                        .camera(v)
                        .unproject_at(&pixel, height)
                };
                let (a, b) = (at(step)?, at(-step)?);
                gradient[(0, column)] = (a.x - b.x) / (2.0 * step);
                gradient[(1, column)] = (a.y - b.y) / (2.0 * step);
            }
            moved.push((*point, gradient));
        }
        Some(PlaceGradients {
            indices,
            points: moved,
        })
    }

    /// The covariance of the numbers that move the places, out of all the bundle's.
    pub fn select(&self, covariance: &DMatrix<f64>) -> DMatrix<f64> {
        covariance
            .select_rows(&self.indices)
            .select_columns(&self.indices)
    }

    /// Each point's variance in its worst direction, given the numbers' covariance (selected).
    pub fn worst_variances<'a>(
        &'a self,
        covariance: &'a DMatrix<f64>,
    ) -> impl Iterator<Item = (TablePoint, f64)> + 'a {
        self.points.iter().map(move |(point, gradient)| {
            let spread = gradient * covariance * gradient.transpose();
            // The larger eigenvalue of the 2×2 covariance: the worst direction.
            let (a, b, d) = (spread[(0, 0)], spread[(0, 1)], spread[(1, 1)]);
            let largest = (a + d) / 2.0 + (((a - d) / 2.0).powi(2) + b * b).sqrt();
            (*point, largest.max(0.0))
        })
    }
}

/// The worst standard deviation (inches, in the worst direction) of where view `v`'s camera
/// puts a point at `height`, over `points`, given the covariance of the bundle's numbers, and
/// where it is; `None` when a camera nudged along some number cannot put a point.
fn worst_spread(
    bundle: &Bundle,
    v: usize,
    covariance: &DMatrix<f64>,
    points: &[TablePoint],
    height: Inches,
) -> Option<(f64, TablePoint)> {
    let moved = PlaceGradients::of(bundle, v, points, height)?;
    let sub = moved.select(covariance);
    let worst = moved.worst_variances(&sub).fold(
        (0.0, TablePoint::origin()),
        |worst, (point, variance)| {
            if variance.sqrt() > worst.0 {
                (variance.sqrt(), point)
            } else {
                worst
            }
        },
    );
    worst.0.is_finite().then_some(worst)
}

/// A corner's variance as a fit with `parameters` numbers leaves its residuals, never below
/// `floor` squared.
pub(super) fn corner_variance(residuals: &DVector<f64>, parameters: usize, floor: Pixels) -> f64 {
    let spread =
        residuals.norm_squared() / residuals.len().saturating_sub(parameters).max(1) as f64;
    spread.max(floor.0 * floor.0)
}

/// Points spread over the area a view's tags cover, on its surface.
pub(super) fn probes(bundle: &Bundle, v: usize) -> Vec<TablePoint> {
    let view = &bundle.views()[v];
    let mut points: Vec<TablePoint> = view.known.iter().map(|k| k.placement.center).collect();
    points.extend(bundle.stand_placements()[v].iter().map(|p| p.center));
    let (mut low, mut high) = (
        TablePoint::new(f64::INFINITY, f64::INFINITY),
        TablePoint::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
    );
    for p in &points {
        low = TablePoint::new(low.x.min(p.x), low.y.min(p.y));
        high = TablePoint::new(high.x.max(p.x), high.y.max(p.y));
    }
    if !(low.x.is_finite() && high.x.is_finite()) {
        return Vec::new();
    }
    let (across, down) = (5, 4);
    (0..across)
        .flat_map(|i| {
            (0..down).map(move |j| {
                TablePoint::new(
                    low.x + (high.x - low.x) * f64::from(i) / f64::from(across - 1),
                    low.y + (high.y - low.y) * f64::from(j) / f64::from(down - 1),
                )
            })
        })
        .collect()
}
