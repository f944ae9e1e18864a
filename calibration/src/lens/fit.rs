//! Fitting the lens to the tags in view: a robust bundle adjustment that measures as much of the
//! lens as the tags can pin down, and names the tags that do not fit.
//!
//! Decisions:
//! - Robust loss by iteratively reweighted least squares: each corner's weight comes from the
//!   Huber function of its last error, and the solver runs again. A mis-read corner or a tag
//!   knocked while the picture was taken pulls the fit by its weight, not by its square.
//! - The model is chosen from a ladder (focal length; then k1; then k2; then the principal
//!   point; then k3 and the tangential terms), each rung fitted from the one below. The rung
//!   taken explains the corners best for its number of parameters (the Bayesian information
//!   criterion on the robust cost), and moves tags by more than it leaves them uncertain (the
//!   uncertainty of where a tag is put, propagated from the fit's covariance to points spread
//!   over the table): the rung below is then wrong by more than this one is unsure. Four
//!   anchors alone cannot pin k2 or k3 down; a fit that frees them anyway would bend the
//!   picture's empty parts at random, by more than it moves the tags. A rung left more unsure
//!   than [`FitSettings::pinned`] is said so.
//! - A stand tag whose corners still fit badly is refitted alone with a free printed size: a tag
//!   printed at 20 mm but listed at 25 mm is named with the size it measures, and left out.
//! - Every stand tag is also refitted alone with a free height: one standing on a hill the
//!   roster and terrain do not know of sits inches higher than the typical stand, and its ray
//!   would meet the cloth elsewhere; kept, a third of the stands on hills bend the lens to agree
//!   with them. It is named with how high it sits, and left out. A tag's height from its size in
//!   the picture scatters by ±0.4" at 20 px, so only rises past four times the stands' scatter
//!   (1.1–1.8" on one picture of a busy table) are caught; lower ones bend the lens little.

use levenberg_marquardt::{LeastSquaresProblem, LevenbergMarquardt};
use nalgebra::{DMatrix, DVector, Dyn, Owned};
use rules::geometry::TablePoint;
use rules::units::Inches;
use serde::{Deserialize, Serialize};

use super::bundle::{Bundle, REFERENCE_WIDTH, stand_from_camera, table_view};
use super::coverage::{Coverage, ResidualMap};
use super::model::{LensModel, LensParam};
use super::promise::{PlaceGradients, Promise, corner_variance, probes, promise};
use super::view::{LensView, StandTag, Surface};
use crate::anchors::{ANCHOR_PLACED, TableSize};
use crate::camera::{Camera, CameraPose, Intrinsics};
use crate::pixels::root_mean_square;
use crate::pixels::{ImageSize, PixelPoint, Pixels};
use crate::tag::TagPlacement;

/// Below this share of the table's part of the picture covered by tags, say so.
const POORLY_COVERED: f64 = 0.5;

/// How a lens is fitted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitSettings {
    /// Corners further off than this count less (the Huber function's knee).
    pub huber: Pixels,
    /// The most of the lens to fit ([`LensModel::Fixed`] to keep the lens as given).
    pub highest: LensModel,
    /// A fit that puts tags on the table less certainly than this (one standard deviation, the
    /// worst place over the table) is warned about, and a model above it that would be is
    /// named as not fitted.
    pub pinned: Inches,
    /// A stand tag whose corners are off by more than this, and by more than four times the
    /// typical tag, is examined and left out. Corners refined against their patterns are
    /// 0.05 px off, the detector's 0.2–0.4 px; a tag partly hidden by a figure comes out 1–2 px
    /// off, and at a 1.5 px floor such tags stayed in a live fit's 160 and moved the table by
    /// 0.02" (`bench accuracy`, wide lenses, after play: p95 0.037" at 1.5 px, 0.021" at 0.6).
    pub outlier: Pixels,
    /// A stand tag that sits this much higher than the typical stand (refitted alone with its
    /// height free) is named as raised and left out: its ray would meet the table elsewhere
    /// and bend the lens to agree.
    pub raised: Inches,
    /// A stand tag whose printed size measures this share away from the roster's is named as
    /// the wrong size.
    pub size_tolerance: f64,
    /// The table, over which the fit's promise is worked out (over its tags' area when not
    /// given).
    pub table: Option<TableSize>,
}

impl FitSettings {
    /// Whether a fit leaving tags this uncertain has pinned them down (see [`Self::pinned`]).
    pub fn pins(&self, uncertainty: Inches) -> bool {
        uncertainty <= self.pinned
    }
}

impl Default for FitSettings {
    fn default() -> FitSettings {
        FitSettings {
            huber: Pixels(1.0),
            highest: LensModel::Full,
            pinned: Inches(0.1),
            outlier: Pixels(0.6),
            raised: Inches(0.75),
            size_tolerance: 0.06,
            table: None,
        }
    }
}

/// Why a lens could not be fitted.
#[derive(Debug, thiserror::Error)]
pub enum LensFitError {
    /// Nothing to fit to.
    #[error("no tags to fit the lens to")]
    NoTags,
    /// The start does not match the views.
    #[error("{poses} starting poses for {views} pictures")]
    Mismatch {
        /// Poses given.
        poses: usize,
        /// Views given.
        views: usize,
    },
    /// The solver gave up.
    #[error("the lens fit did not converge: {0}")]
    Solver(String),
}

/// A stand tag left out of the fit, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TagOutlier {
    /// The tag.
    pub id: u32,
    /// The picture it was seen in (counting from 0).
    pub picture: usize,
    /// How far its corners were from the fit.
    pub error: Pixels,
    /// The printed size it measures, when that is what is wrong.
    pub measured: Option<Inches>,
    /// How far it sits above the height the roster gives, when that is what is wrong (a stand
    /// on a hill the calibration was not told of).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raised: Option<Inches>,
    /// The size the roster lists.
    pub listed: Inches,
}

impl std::fmt::Display for TagOutlier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mm = |i: Inches| i.0 * 25.4;
        if let Some(raised) = self.raised {
            return write!(
                f,
                "tag {} sits about {:.1}\" higher than the roster says (on a hill?): left out of the lens fit — give the hill's height in the terrain, or check the roster's height for it",
                self.id, raised.0
            );
        }
        match self.measured {
            Some(measured) => write!(
                f,
                "tag {} measures {:.1} mm across but the roster lists {:.1} mm: left out of the lens fit (check the roster's size or height for it, or the print)",
                self.id,
                mm(measured),
                mm(self.listed)
            ),
            None => write!(
                f,
                "tag {} (picture {}) is {} off the fit: left out of the lens fit (bent, blurred, or moved while the picture was taken?)",
                self.id,
                self.picture + 1,
                self.error
            ),
        }
    }
}

/// What a lens fit found, and how far to trust it.
#[derive(Clone, Debug, PartialEq)]
pub struct LensReport {
    /// How much of the lens was measured.
    pub model: LensModel,
    /// RMS corner error over every tag used.
    pub rms: Pixels,
    /// Tags used (sightings: a stand seen in two pictures counts twice).
    pub tags: usize,
    /// Where the detector puts a stand tag's edge against the printed square's (outwards
    /// positive) when the tag is 16 pixels across; narrower tags' edges are moved more (the
    /// blur spreads their narrow cells).
    pub edge: Pixels,
    /// Pictures used.
    pub pictures: usize,
    /// One standard deviation of where a tag is put, from the lens and pose alone: the worst
    /// over the tags' area.
    pub pinned: Inches,
    /// The relative standard deviation of a length up to 30" between two places, from the lens
    /// and pose alone, typical over the tags' area, the corners' error taken from the fit's own
    /// residuals: the calibration's share of a distance's error bar.
    pub length_sd: f64,
    /// How far the table as a whole may lie off where the anchors put it, one standard
    /// deviation along each axis, typical over the tags' area: the anchors placed within
    /// [`ANCHOR_PLACED`], carried through the fit (its lens and pose follow them).
    pub frame_sd: Inches,
    /// Whether the lens itself (focal length, principal point) is pinned down, so that it can
    /// be kept to re-find the table after the camera moves; when not, it serves these
    /// pictures only.
    pub transferable: bool,
    /// How far from the truth 95 % of stands may be put at the worst place on the table, the
    /// lens's unmeasured numbers counted (see [`super::promise`]); `None` when undetermined.
    pub promise: Option<Promise>,
    /// Which parts of the picture the tags covered.
    pub coverage: Coverage,
    /// The fit's error by part of the picture.
    pub residuals: ResidualMap,
    /// Stand tags left out.
    pub outliers: Vec<TagOutlier>,
    /// What the player should know.
    pub warnings: Vec<String>,
}

/// A fitted lens with the poses and places that go with it.
#[derive(Clone, Debug, PartialEq)]
pub struct LensFit {
    /// The lens.
    pub intrinsics: Intrinsics,
    /// Per picture, the camera's pose over the table (or the board's before the camera).
    pub poses: Vec<CameraPose>,
    /// Per picture, where each stand tag that was used lies.
    pub stands: Vec<Vec<(u32, TagPlacement)>>,
    /// The figures.
    pub report: LensReport,
}

/// Fit the lens to the tags of some pictures, starting from a lens and a pose per picture.
pub fn fit_lens(
    views: &[LensView],
    start: Intrinsics,
    poses: &[CameraPose],
    settings: &FitSettings,
) -> Result<LensFit, LensFitError> {
    if views.len() != poses.len() {
        return Err(LensFitError::Mismatch {
            poses: poses.len(),
            views: views.len(),
        });
    }
    if views.iter().all(|v| v.tag_count() == 0) {
        return Err(LensFitError::NoTags);
    }
    let mut views = views.to_vec();
    let mut outliers = Vec::new();
    // Two rounds at most: a tag left out in the first may have hidden another.
    for round in 0..3 {
        let climb = climb(&views, start, poses, settings)?;
        let found = if round < 2 {
            find_outliers(&climb.bundle, &views, settings)
        } else {
            Vec::new()
        };
        if found.is_empty() {
            return Ok(finish(&views, climb, outliers, settings));
        }
        for (view, index, outlier) in found.into_iter().rev() {
            views[view].stands.remove(index);
            outliers.push(outlier);
        }
    }
    unreachable!("the third round finds no outliers")
}

/// The result of climbing the model ladder.
struct Climb<'a> {
    bundle: Bundle<'a>,
    model: LensModel,
    /// How uncertain it leaves the table.
    uncertainty: Uncertainty,
    /// The first model refused, and how uncertain it would have left the table.
    refused: Option<(LensModel, f64)>,
}

fn climb<'a>(
    views: &'a [LensView],
    start: Intrinsics,
    poses: &[CameraPose],
    settings: &FitSettings,
) -> Result<Climb<'a>, LensFitError> {
    let stands: Vec<Vec<TagPlacement>> = views
        .iter()
        .zip(poses)
        .map(|(view, &pose)| {
            let camera = Camera {
                intrinsics: start,
                pose,
            };
            view.stands
                .iter()
                .map(|tag| stand_from_camera(&camera, tag).unwrap_or_else(|| fallback(tag)))
                .collect()
        })
        .collect();
    let ladder: Vec<LensModel> = if settings.highest == LensModel::Fixed {
        vec![LensModel::Fixed]
    } else {
        LensModel::LADDER
            .into_iter()
            .filter(|m| *m <= settings.highest)
            .collect()
    };
    // The starting lens places the stands; the ladder measures the lens afresh from its
    // lowest rung (an earlier lens's distortion held under "focal length only" would be that
    // lens, not a measurement of these tags).
    let fresh = if settings.highest == LensModel::Fixed {
        start
    } else {
        Intrinsics {
            principal_point: start.image_size.center(),
            distortion: crate::camera::Distortion::default(),
            ..start
        }
    };
    // Every rung is fitted, each from the one below; which is taken is decided after.
    let mut bundle = Bundle::new(views, ladder[0], fresh, poses.to_vec(), stands);
    let mut tried: Vec<Rung> = Vec::new();
    for &model in &ladder {
        bundle.rebase(model);
        robust_solve(&mut bundle, model, settings.huber)?;
        let uncertainty = uncertainty(&bundle);
        let score = information(&bundle, settings.huber);
        tracing::debug!(?model, ?uncertainty, score, "lens model tried");
        tried.push(Rung {
            bundle: bundle.clone(),
            model,
            uncertainty,
            score,
        });
        // A rung the tags cannot determine at all leaves every higher one undetermined too.
        if uncertainty.worst.is_infinite() {
            break;
        }
    }
    // A rung above the one taken is taken in its turn when it explains the corners better for
    // its number of parameters and it moves where tags are put by more than it leaves them
    // uncertain: then the lower rung is wrong by more than the higher one is unsure. A real
    // bend of the lens moves tags by tenths of an inch, a spurious k1 fitted to the detector's
    // quirks by less than its own uncertainty. A higher rung that is not pinned down is still
    // taken when the one below is wrong by more (a wide lens seen with few tags: the full lens
    // unsure by 0.12", focal length alone wrong by inches); the report says how unsure.
    let mut chosen = 0;
    for next in 1..tried.len() {
        let (best, candidate) = (&tried[chosen], &tried[next]);
        if candidate.score < best.score
            && displacement(&best.bundle, &candidate.bundle) > candidate.uncertainty.worst
        {
            chosen = next;
        }
    }
    // The first rung above the chosen one that the tags could not pin down, for the warning.
    let refused = tried[chosen + 1..]
        .iter()
        .find(|t| !settings.pins(Inches(t.uncertainty.worst)))
        .map(|t| (t.model, t.uncertainty.worst));
    let rung = tried.swap_remove(chosen);
    Ok(Climb {
        bundle: rung.bundle,
        model: rung.model,
        uncertainty: rung.uncertainty,
        refused,
    })
}

/// One rung of the ladder, fitted.
struct Rung<'a> {
    bundle: Bundle<'a>,
    model: LensModel,
    /// How uncertain it leaves the table (see [`uncertainty`]).
    uncertainty: Uncertainty,
    /// The information criterion: lower explains the corners better for its parameters.
    score: f64,
}

/// How far apart two fits put tags, the worst place over the first table picture's tags' area.
fn displacement(a: &Bundle, b: &Bundle) -> f64 {
    let Some(v) = table_view(a) else {
        return 0.0;
    };
    let height = a.views()[v].typical_height();
    probes(a, v)
        .iter()
        .filter_map(|probe| {
            let pixel = a.camera(v).project_at(probe, height)?;
            let (p, q) = (
                a.camera(v).unproject_at(&pixel, height)?,
                b.camera(v).unproject_at(&pixel, height)?,
            );
            Some((p - q).norm())
        })
        .fold(0.0, f64::max)
}

/// The Bayesian information criterion of a fit, on the Huber cost of its corners (in units of
/// the knee): lower is better; each parameter must buy its keep.
fn information(bundle: &Bundle, huber: Pixels) -> f64 {
    let errors = corner_errors(bundle, bundle.views());
    let k = huber.0;
    let (mut cost, mut corners) = (0.0, 0usize);
    for e in errors.iter().flatten().flatten() {
        cost += if *e <= k { e * e } else { 2.0 * k * e - k * k };
        corners += 1;
    }
    let m = (2 * corners).max(1) as f64;
    let parameters = bundle.parameter_count() as f64;
    m * (cost.max(1e-12) / m).ln() + parameters * m.ln()
}

/// A stand tag the starting camera cannot place (its rays miss the table): start it at the
/// origin; the fit moves it, or calls it an outlier.
fn fallback(tag: &StandTag) -> TagPlacement {
    TagPlacement {
        center: TablePoint::new(0.0, 0.0),
        facing: rules::units::Degrees(90.0),
        size: tag.size,
        height: tag.height,
    }
}

/// Each corner's error in pixels, per view and tag, as seen against the model.
fn corner_errors(bundle: &Bundle, views: &[LensView]) -> Vec<Vec<[f64; 4]>> {
    bundle
        .projected()
        .iter()
        .zip(views)
        .map(|(tags, view)| {
            tags.iter()
                .enumerate()
                .map(|(t, corners)| {
                    let seen = &view.sighting(t).corners;
                    std::array::from_fn(|k| corners[k].distance(&seen[k]).0)
                })
                .collect()
        })
        .collect()
}

/// Evaluations allowed a solve, per parameter: a well-posed rung converges in a few; one the tags
/// cannot determine (the full lens from a flat table without distortion) crawls along its
/// undetermined direction for as long as it is let, and is refused afterwards anyway.
const PATIENCE: usize = 10;

/// A reweighted solve that moves no number by more than this has settled (the numbers are in
/// picture widths, radians and inches: a millionth of any is far below what a tag can show).
const SETTLED: f64 = 1e-6;

/// Solve, reweight by the Huber function, solve again, until the weights settle.
fn robust_solve(bundle: &mut Bundle, model: LensModel, huber: Pixels) -> Result<(), LensFitError> {
    let views = bundle.views();
    for round in 0..4 {
        let errors = corner_errors(bundle, views);
        let weights: Vec<Vec<[f64; 4]>> = errors
            .iter()
            .map(|tags| {
                tags.iter()
                    .map(|e| {
                        e.map(|e| {
                            if e <= huber.0 {
                                1.0
                            } else {
                                (huber.0 / e).sqrt()
                            }
                        })
                    })
                    .collect()
            })
            .collect();
        bundle.set_weights(weights);
        let before = bundle.params();
        let (solved, report) = LevenbergMarquardt::new()
            .with_patience(PATIENCE)
            .minimize(bundle.clone());
        if report.termination.was_usage_issue()
            || matches!(
                report.termination,
                levenberg_marquardt::TerminationReason::Numerical(_)
            )
        {
            return Err(LensFitError::Solver(format!("{:?}", report.termination)));
        }
        tracing::trace!(?model, round, evaluations = report.number_of_evaluations, termination = ?report.termination, "robust round");
        *bundle = solved;
        bundle.rebase(model);
        // A solve that ran out of patience is crawling along a direction the tags do not
        // determine: reweighting will not settle it, and the rung will be refused.
        let crawling = report.termination == levenberg_marquardt::TerminationReason::LostPatience;
        let moved = (bundle.params() - before).amax();
        if crawling || (round > 0 && moved < SETTLED) {
            break;
        }
    }
    Ok(())
}

/// How uncertain a fit leaves where the camera puts a point: the lens and pose's share of a
/// tag's error, over a grid spread across the first table picture's tags.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Uncertainty {
    /// The worst standard deviation (inches, the worst direction), its corners taken to be no
    /// better than a tenth of a pixel: what the ladder and the warnings judge a fit by.
    /// Infinite when the fit leaves some combination of numbers undetermined.
    worst: f64,
    /// The typical relative standard deviation of a length between two places up to
    /// [`LENGTHS`] apart, its corners' error taken from the fit's own residuals: how much of
    /// its error a distance between two stands keeps (two places near each other are off
    /// together, and the error their distance keeps grows with it).
    length: f64,
    /// Whether the lens itself is pinned down (see [`lens_pinned`]).
    transferable: bool,
    /// How far the table as a whole may lie off, one standard deviation along each axis
    /// (inches, typical over the tags' area), from the anchors' being placed only within
    /// [`ANCHOR_PLACED`] of where the layout says.
    frame: f64,
}

impl Uncertainty {
    const UNDETERMINED: Uncertainty = Uncertainty {
        worst: f64::INFINITY,
        length: f64::INFINITY,
        frame: f64::INFINITY,
        transferable: false,
    };
}

/// The detector's corners are never better than about a tenth of a pixel: the worst place is
/// judged as if the corners were no better.
const JUDGED_CORNERS: f64 = 0.1;
/// Nor are refined ones better than about two hundredths: the least corner error a distance's
/// error bar is worked out from.
const LEAST_CORNERS: f64 = 0.02;

/// How uncertain the fitted camera leaves where it puts a point (see [`Uncertainty`]).
fn uncertainty(bundle: &Bundle) -> Uncertainty {
    const UNDETERMINED: Uncertainty = Uncertainty::UNDETERMINED;
    let views = bundle.views();
    let Some(v) = table_view(bundle) else {
        return UNDETERMINED;
    };
    let Some(jacobian) = bundle.jacobian() else {
        return UNDETERMINED;
    };
    let residuals = bundle.residuals().unwrap_or_else(|| DVector::zeros(0));
    let spread = corner_variance(&residuals, bundle.parameter_count(), Pixels(0.0));
    let normal = jacobian.transpose() * &jacobian;
    let Some(cholesky) = normal.cholesky() else {
        return UNDETERMINED;
    };
    // For unit corner error; scaled below by the one assumed.
    let covariance = cholesky.inverse();
    let height = views[v].typical_height();
    let Some(moved) = PlaceGradients::of(bundle, v, &probes(bundle, v), height) else {
        return UNDETERMINED;
    };
    let sub = moved.select(&covariance);
    let worst = moved
        .worst_variances(&sub)
        .map(|(_, variance)| variance)
        .fold(0.0, f64::max);
    let judged = spread.max(JUDGED_CORNERS * JUDGED_CORNERS);
    let own = spread.max(LEAST_CORNERS * LEAST_CORNERS);
    let placed = moved.select(&anchors_placed(bundle, &jacobian, &covariance));
    let found = Uncertainty {
        worst: (worst * judged).sqrt(),
        length: (relative_length_variance(&moved.points, &sub) * own
            + relative_length_variance(&moved.points, &placed))
        .sqrt(),
        transferable: lens_pinned(bundle, &(covariance * judged)),
        frame: typical_spread(&moved, &placed),
    };
    if found.worst.is_finite() && found.length.is_finite() && found.frame.is_finite() {
        found
    } else {
        UNDETERMINED
    }
}

/// The covariance of the fit's numbers from the anchors' places alone: each anchor may lie
/// [`ANCHOR_PLACED`] off where the layout says along each axis, and the fit follows it as far
/// as its other corners let it (the numbers move by −(JᵀJ)⁻¹Jᵀ times the residuals' move; the
/// stands, projected out of the Jacobian, follow of themselves). `covariance` is (JᵀJ)⁻¹.
fn anchors_placed(
    bundle: &Bundle,
    jacobian: &DMatrix<f64>,
    covariance: &DMatrix<f64>,
) -> DMatrix<f64> {
    let n = covariance.nrows();
    let mut placed = DMatrix::zeros(n, n);
    for shift in bundle.anchor_shifts() {
        let follows = covariance * (jacobian.transpose() * shift);
        placed += &follows * follows.transpose();
    }
    placed * ANCHOR_PLACED.0.powi(2)
}

/// The typical standard deviation along each axis of where the camera puts the probes, given
/// the covariance of the numbers that move them (selected): the root mean of half each
/// probe's trace.
fn typical_spread(moved: &PlaceGradients, covariance: &DMatrix<f64>) -> f64 {
    let variances: Vec<f64> = moved
        .points
        .iter()
        .map(|(_, gradient)| (gradient * covariance * gradient.transpose()).trace() / 2.0)
        .collect();
    (variances.iter().sum::<f64>() / variances.len().max(1) as f64)
        .max(0.0)
        .sqrt()
}

/// The lengths a distance's relative error is judged over: those the rules measure.
const LENGTHS: f64 = 30.0;

/// The mean square relative deviation of a length between two of these places up to
/// [`LENGTHS`] apart, given how each moves with the parameters and the parameters' covariance
/// (for unit corner error).
fn relative_length_variance(
    moved: &[(TablePoint, DMatrix<f64>)],
    covariance: &DMatrix<f64>,
) -> f64 {
    let (mut sum, mut count) = (0.0, 0.0);
    for (i, (a, of_a)) in moved.iter().enumerate() {
        for (b, of_b) in &moved[i + 1..] {
            let length = (b - a).norm();
            if length <= 0.0 || length > LENGTHS {
                continue;
            }
            let along = (b - a) / length;
            let gradient =
                (of_b - of_a).transpose() * nalgebra::DVector::from_vec(vec![along.x, along.y]);
            let variance = (gradient.transpose() * covariance * &gradient)[(0, 0)];
            sum += variance.max(0.0) / (length * length);
            count += 1.0;
        }
    }
    if count > 0.0 { sum / count } else { 0.0 }
}

/// Whether the lens itself is pinned down, not only where this picture's tags land: a plane seen
/// from one place lets the focal length, the principal point and the camera's distance trade off
/// (a focal length twice the truth, with the camera twice as far, fits one picture's tags as
/// well). Such a lens serves this picture, but one kept to re-find the table after the camera
/// moves must be right. One standard deviation of the focal length within 3 %; of the
/// principal point within 3 % of the picture's width (a principal point a little off is nearly
/// a turn of the camera, which the next picture's anchors find again; held at the centre
/// instead, it would bend every fit by its offset).
fn lens_pinned(bundle: &Bundle, covariance: &DMatrix<f64>) -> bool {
    bundle.free().iter().enumerate().all(|(i, param)| {
        let sigma = covariance[(i, i)].max(0.0).sqrt();
        match param {
            LensParam::Focal => sigma <= FOCAL_TOLERANCE * param.get(&bundle.lens()),
            LensParam::CentreX | LensParam::CentreY => sigma <= CENTRE_TOLERANCE,
            _ => true,
        }
    })
}

/// How certain the focal length must be, relatively, one standard deviation.
const FOCAL_TOLERANCE: f64 = 0.03;
/// How certain the principal point must be, against the picture's width (the solver's unit).
const CENTRE_TOLERANCE: f64 = 0.03;

/// Stand tags that still fit badly, or sit higher than the roster says, with the diagnosis of
/// each: (view, stand index, why), in the order of their views and indices.
fn find_outliers(
    bundle: &Bundle,
    views: &[LensView],
    settings: &FitSettings,
) -> Vec<(usize, usize, TagOutlier)> {
    let mut found = badly_fitting(bundle, views, settings);
    for raised in raised_tags(bundle, views, settings) {
        if !found.iter().any(|f| (f.0, f.1) == (raised.0, raised.1)) {
            found.push(raised);
        }
    }
    found.sort_by_key(|f| (f.0, f.1));
    found
}

/// Stand tags on the table that sit higher above the cloth than the roster says, by more than
/// [`FitSettings::raised`] and more than the tags' rises scatter: each refitted alone with its
/// height free, its rise taken over the typical stand's (the detector's corners sit inside
/// the printed square alike on every tag, which seems a shared rise or fall).
fn raised_tags(
    bundle: &Bundle,
    views: &[LensView],
    settings: &FitSettings,
) -> Vec<(usize, usize, TagOutlier)> {
    let mut rises = Vec::new();
    for (v, view) in views.iter().enumerate() {
        if view.surface != Surface::Table {
            continue;
        }
        let camera = bundle.camera(v);
        for (s, tag) in view.stands.iter().enumerate() {
            let start = &bundle.stand_placements()[v][s];
            if let Some((height, _)) = measure_height(&camera, tag, start) {
                rises.push((v, s, (height - tag.height).0));
            }
        }
    }
    let rise_of: Vec<f64> = rises.iter().map(|r| r.2).collect();
    let Some((typical, limit)) = flat_rise(&rise_of, settings.raised) else {
        return Vec::new();
    };
    rises
        .into_iter()
        .filter(|&(_, _, rise)| rise - typical > limit)
        .map(|(v, s, rise)| {
            let tag = &views[v].stands[s];
            (
                v,
                s,
                TagOutlier {
                    id: tag.sighting.id,
                    picture: v,
                    error: Pixels(0.0),
                    measured: None,
                    raised: Some(Inches(rise - typical)),
                    listed: tag.size,
                },
            )
        })
        .collect()
}

/// The rise of a stand lying flat, and how far above that a stand counts as raised: found in
/// the shortest span holding half the rises (a third of the stands on hills pull a median and
/// its spread up; they cannot pull the flat half's span), then the median and four times the
/// scatter (at least `floor`) of the rises near it.
fn flat_rise(rises: &[f64], floor: Inches) -> Option<(f64, f64)> {
    let mut sorted = rises.to_vec();
    sorted.sort_by(f64::total_cmp);
    let half = sorted.len() / 2 + 1;
    let (low, high) = (0..=sorted.len().checked_sub(half)?)
        .map(|i| (sorted[i], sorted[i + half - 1]))
        .min_by(|a, b| (a.1 - a.0).total_cmp(&(b.1 - b.0)))?;
    // Half the span of half of normal scatter is 0.674 standard deviations.
    let (centre, scatter) = ((low + high) / 2.0, 1.4826 * (high - low) / 2.0);
    let near: Vec<f64> = sorted
        .iter()
        .copied()
        .filter(|r| (r - centre).abs() <= floor.0.max(4.0 * scatter))
        .collect();
    let typical = near[near.len() / 2];
    let mut deviations: Vec<f64> = near.iter().map(|r| (r - typical).abs()).collect();
    deviations.sort_by(f64::total_cmp);
    let scatter = 1.4826 * deviations[deviations.len() / 2];
    Some((typical, floor.0.max(4.0 * scatter)))
}

/// Stand tags whose corners fit badly, with the diagnosis of each.
fn badly_fitting(
    bundle: &Bundle,
    views: &[LensView],
    settings: &FitSettings,
) -> Vec<(usize, usize, TagOutlier)> {
    let errors = corner_errors(bundle, views);
    let rms = |e: &[f64; 4]| root_mean_square(e.iter().copied());
    let mut all: Vec<f64> = errors.iter().flatten().map(rms).collect();
    all.sort_by(f64::total_cmp);
    let typical = all.get(all.len() / 2).copied().unwrap_or(0.0);
    let limit = (4.0 * typical).max(settings.outlier.0);
    let mut found = Vec::new();
    for (v, view) in views.iter().enumerate() {
        let camera = bundle.camera(v);
        for (s, tag) in view.stands.iter().enumerate() {
            let error = rms(&errors[v][view.known.len() + s]);
            if error <= limit {
                continue;
            }
            let measured = measure_size(&camera, tag, &bundle.stand_placements()[v][s])
                .filter(|(size, fit)| {
                    (size.0 / tag.size.0 - 1.0).abs() > settings.size_tolerance && *fit < limit
                })
                .map(|(size, _)| size);
            found.push((
                v,
                s,
                TagOutlier {
                    id: tag.sighting.id,
                    picture: v,
                    error: Pixels(error),
                    measured,
                    raised: None,
                    listed: tag.size,
                },
            ));
        }
    }
    found
}

/// One stand tag refitted alone with its printed size free: (size, RMS corner error).
fn measure_size(camera: &Camera, tag: &StandTag, start: &TagPlacement) -> Option<(Inches, f64)> {
    refit_alone(camera, tag, start, Free::Size)
}

/// One stand tag refitted alone with its height free: (height, RMS corner error).
fn measure_height(camera: &Camera, tag: &StandTag, start: &TagPlacement) -> Option<(Inches, f64)> {
    refit_alone(camera, tag, start, Free::Height)
}

fn refit_alone(
    camera: &Camera,
    tag: &StandTag,
    start: &TagPlacement,
    free: Free,
) -> Option<(Inches, f64)> {
    let problem = OneTag {
        camera: *camera,
        tag: *tag,
        free,
        params: DVector::from_vec(vec![
            start.center.x,
            start.center.y,
            start.facing.0.to_radians(),
            match free {
                Free::Size => tag.size.0,
                Free::Height => tag.height.0,
            },
        ]),
    };
    let (solved, report) = LevenbergMarquardt::new().minimize(problem);
    if !report.termination.was_successful() {
        return None;
    }
    let residuals = solved.residuals()?;
    let value = solved.params[3];
    let sane = match free {
        Free::Size => value > 0.0,
        Free::Height => value.is_finite(),
    };
    sane.then(|| (Inches(value), (residuals.norm_squared() / 4.0).sqrt()))
}

/// What a tag refitted alone may change besides its place and turn.
#[derive(Clone, Copy)]
enum Free {
    /// Its printed size.
    Size,
    /// Its height above the cloth.
    Height,
}

/// One tag, the camera held: x, y, turn, and its printed size or height.
struct OneTag {
    camera: Camera,
    tag: StandTag,
    free: Free,
    params: DVector<f64>,
}

impl OneTag {
    fn residuals_at(&self, p: &DVector<f64>) -> DVector<f64> {
        let (size, height) = match self.free {
            Free::Size => (Inches(p[3]), self.tag.height),
            Free::Height => (self.tag.size, Inches(p[3])),
        };
        let placement = TagPlacement {
            center: TablePoint::new(p[0], p[1]),
            facing: rules::units::Degrees(p[2].to_degrees()),
            size,
            height,
        };
        let seen = &self.tag.sighting.corners;
        let corners = placement.corners();
        DVector::from_iterator(
            8,
            (0..4).flat_map(|k| {
                let at = self
                    .camera
                    .project(&corners[k])
                    .unwrap_or(PixelPoint::new(1e4, 1e4));
                [at.x - seen[k].x, at.y - seen[k].y]
            }),
        )
    }
}

impl LeastSquaresProblem<f64, Dyn, Dyn> for OneTag {
    type ResidualStorage = Owned<f64, Dyn>;
    type JacobianStorage = Owned<f64, Dyn, Dyn>;
    type ParameterStorage = Owned<f64, Dyn>;

    fn set_params(&mut self, x: &DVector<f64>) {
        self.params.copy_from(x);
    }

    fn params(&self) -> DVector<f64> {
        self.params.clone()
    }

    fn residuals(&self) -> Option<DVector<f64>> {
        Some(self.residuals_at(&self.params))
    }

    fn jacobian(&self) -> Option<DMatrix<f64>> {
        let mut jacobian = DMatrix::zeros(8, 4);
        for k in 0..4 {
            let step = 1e-6;
            let (mut ahead, mut behind) = (self.params.clone(), self.params.clone());
            ahead[k] += step;
            behind[k] -= step;
            jacobian.set_column(
                k,
                &((self.residuals_at(&ahead) - self.residuals_at(&behind)) / (2.0 * step)),
            );
        }
        Some(jacobian)
    }
}

fn finish(
    views: &[LensView],
    climb: Climb,
    outliers: Vec<TagOutlier>,
    settings: &FitSettings,
) -> LensFit {
    let bundle = &climb.bundle;
    let lens = bundle.lens();
    let size = lens.image_size;
    let errors = corner_errors(bundle, views);
    let mut all = Vec::new();
    let mut coverage = Coverage::new();
    let mut located = Vec::new();
    for (v, view) in views.iter().enumerate() {
        for (t, sighting) in view.sightings().enumerate() {
            for (corner, &error) in sighting.corners.iter().zip(&errors[v][t]) {
                all.push((*corner, error));
            }
            coverage.add(size, sighting.corners);
        }
    }
    if let Some(v) = views.iter().position(|view| view.surface == Surface::Table) {
        restrict_to_table(&mut coverage, &bundle.camera(v), &views[v], size);
    }
    for (v, view) in views.iter().enumerate() {
        let places = &bundle.stand_placements()[v];
        located.push(
            view.stands
                .iter()
                .zip(places)
                .map(|(tag, place)| (tag.sighting.id, *place))
                .collect(),
        );
    }
    let report = LensReport {
        model: climb.model,
        rms: Pixels(root_mean_square(all.iter().map(|p| p.1))),
        tags: views.iter().map(LensView::tag_count).sum(),
        edge: Pixels(bundle.edge()[1].at(REFERENCE_WIDTH)),
        pictures: views.len(),
        pinned: Inches(climb.uncertainty.worst),
        length_sd: climb.uncertainty.length,
        frame_sd: Inches(climb.uncertainty.frame),
        promise: promise(bundle, settings.table),
        transferable: climb.uncertainty.transferable,
        residuals: ResidualMap::of(size, all.iter().copied()),
        warnings: warnings(&climb, &coverage, views, &outliers, settings),
        coverage,
        outliers,
    };
    LensFit {
        intrinsics: lens,
        poses: bundle.poses().to_vec(),
        stands: located,
        report,
    }
}

/// Only the cells that show the table, between its outermost known tags, can be covered.
fn restrict_to_table(coverage: &mut Coverage, camera: &Camera, view: &LensView, size: ImageSize) {
    let centres: Vec<TablePoint> = view.known.iter().map(|k| k.placement.center).collect();
    if centres.len() < 3 {
        return;
    }
    let (lx, hx) = centres
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p.x), h.max(p.x))
        });
    let (ly, hy) = centres
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p.y), h.max(p.y))
        });
    coverage.restrict(size, |pixel| {
        camera
            .unproject_at(pixel, Inches::ZERO)
            .is_some_and(|p| p.x >= lx && p.x <= hx && p.y >= ly && p.y <= hy)
    });
}

fn warnings(
    climb: &Climb,
    coverage: &Coverage,
    views: &[LensView],
    outliers: &[TagOutlier],
    settings: &FitSettings,
) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some((refused, pinned)) = climb.refused {
        let held = climb.model.held();
        let would = if pinned.is_finite() {
            format!("would leave tags {pinned:.3}\" uncertain")
        } else {
            "cannot be determined".to_owned()
        };
        warnings.push(format!(
            "lens: {} fitted; {} not fitted: the tags in view cannot pin them down (fitting {} {would}, more than {:.3}\") — spread stands over the whole picture, or add pictures",
            climb.model.describe(),
            held.join(", "),
            refused.describe(),
            settings.pinned.0
        ));
    }
    if !settings.pins(Inches(climb.uncertainty.worst)) {
        warnings.push(format!(
            "lens: {} fitted, but the tags in view leave where stands are put {:.3}\" uncertain — spread stands over the whole picture, or let it learn in play",
            climb.model.describe(),
            climb.uncertainty.worst
        ));
    }
    if !climb.uncertainty.transferable {
        warnings.push(
            "lens: it fits these pictures, but its focal length and centre are not pinned down well enough to keep it for the camera at another place — add pictures, or let it learn in play".to_owned(),
        );
    }
    let (across, down) = coverage.spans();
    let covered = coverage.fraction();
    if covered < POORLY_COVERED || across < 0.6 || down < 0.6 {
        warnings.push(format!(
            "lens: the tags cover only {:.0} % of the table's part of the picture ({:.0} % across, {:.0} % down): the lens is not pinned down where no tag was seen — spread the stands over the table, or let it learn in play",
            100.0 * covered,
            100.0 * across,
            100.0 * down
        ));
    }
    let tags: usize = views.iter().map(LensView::tag_count).sum();
    if tags < 12 {
        warnings.push(format!(
            "lens: only {tags} tags to fit it to: place the stands on the table (their tags count) or add pictures"
        ));
    }
    warnings.extend(outliers.iter().map(ToString::to_string));
    warnings
}
