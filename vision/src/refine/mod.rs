//! Tag corners refined against the tag's own printed pattern.
//!
//! The detector puts a tag's corners where straight lines fitted to its four outer edges meet.
//! On the small, sheared tags a table camera sees, those lines are pulled by the blur where the
//! border meets the data cells and where two edges meet at a sharp angle: measured against the
//! synthetic truth, far anchors (23–25 px, strongly sheared) had their acute corners pushed
//! outwards by a third of a pixel on average (up to 0.9 px) and stand tags sat 0.1–0.2 px
//! inwards — and with exact corners the wide lens's fit is five times better. Once a tag is
//! decoded its whole pattern is known, so every edge between its cells can tell where it lies,
//! not only the outer four. The pattern is drawn as the camera would see it — through the
//! homography of four corners and the lens's bend over the tag, each pixel the pattern's
//! average over the pixel, blurred by a Gaussian, through the camera's tone curve, times a gain
//! plus an offset for the light — and all of these are fitted to the pixels by
//! Levenberg–Marquardt (the `levenberg-marquardt` crate, as the lens's bundle adjustment),
//! starting from the detector's corners. Measured on `vedette bench accuracy`'s tables (blur,
//! noise, uneven light, JPEG, busy cloth): corners 0.04–0.05 px RMS from the truth where the
//! detector's were 0.18–0.43 px, the far anchors' outward push gone (+0.29 → +0.01 px).
//!
//! Decisions:
//! - The corners reported follow the detector's convention, which the calibration models (see
//!   `calibration::lens::straight_edge_corners`): through a bending lens, where straight lines
//!   fitted to the bent edges meet. The fit itself sees the bend (two bows, or the lens itself
//!   once it is known, see [`Warp`]), so its corners are the printed square's; they are then
//!   moved to where those lines meet.
//! - A lens bends a large tag near its rim more than two bows can follow; the caller that has
//!   fitted a lens refines again through it ([`calibrate_through_lens`]).
//! - The blur is applied in the picture, not on the pattern: a webcam's blur is round in the
//!   picture, and a sheared tag's cells meet it at an angle, which is what bends the
//!   detector's acute corners. It is fitted per tag (a printed tag may be a little out of
//!   focus where another is not).
//! - The pixels fitted are those over the inked square and the inner half of the paper ring
//!   around it; what lies beyond the paper (a stand's paint, the cloth), within a blur's reach
//!   of them, is drawn as one lightness fitted with the rest.
//! - The Jacobian is the model's gradient in the picture times how far each number moves each
//!   point of the tag (forwards-additive Lucas–Kanade): one drawing of the model per step
//!   instead of one per number; the residuals themselves are exact, so the solution is the
//!   model's.
//! - It fails safe: a tag near the picture's edge, a small or flat one, a fit that does not
//!   settle, a blur or a tone curve out of reason, a poor match with the pattern, or any corner
//!   moved more than [`RefineSettings::max_shift`] keeps the detector's corners.
//! - Tags are fitted side by side on the machine's cores, a few milliseconds a tag each (a 1080p
//!   picture's 40 tags in about 0.1 s on two busy cores).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use calibration::LensLearner;
use calibration::tag::mean_side;
use calibration::{
    AnchorLayout, Intrinsics, PixelPoint, PixelVector, Pixels, TableCalibration, TagSighting,
};
use levenberg_marquardt::{LeastSquaresProblem, LevenbergMarquardt};
use nalgebra::{DMatrix, DVector, Dyn, Owned};
use opencv::core::{Mat, MatTraitConst, MatTraitConstManual};

use crate::detect::as_gray;
use crate::error::VisionError;
use crate::pattern::TagTexture;

mod through_lens;
mod warp;

pub use through_lens::{
    RefinedCalibration, TablePicture, TableTags, calibrate_pictures, calibrate_through_lens,
};
use warp::Warp;

/// How corners are refined, and when the detector's are kept instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefineSettings {
    /// The farthest a corner may move; a fit that moves one further keeps the detector's.
    pub max_shift: Pixels,
    /// How much of the paper ring around the inked square is fitted, in cells (the rest of the
    /// ring, and what lies beyond, is left out of the pixels fitted).
    pub paper: f64,
    /// The blur the fit starts from (a Gaussian's sigma).
    pub start_blur: Pixels,
    /// The most blur believed; a fit that needs more keeps the detector's corners.
    pub max_blur: Pixels,
    /// The worst RMS misfit kept, as a share of the tag's black–white difference.
    pub max_misfit: f64,
    /// Tags narrower than this keep the detector's corners.
    pub min_side: Pixels,
    /// Whether a tag the pattern matches poorly is fitted again without the pixels it misses:
    /// a figure over part of a tag leaves the rest to tell where the tag lies. Off by default
    /// (`calibrate_pictures`, whose figures were measured without it); on for the lens learnt
    /// in play and for a tag's height (`crate::rise`).
    pub leave_out_covers: bool,
}

impl RefineSettings {
    /// The default settings, with covers left out (see [`Self::leave_out_covers`]).
    pub fn leaving_out_covers() -> RefineSettings {
        RefineSettings {
            leave_out_covers: true,
            ..RefineSettings::default()
        }
    }
}

impl Default for RefineSettings {
    fn default() -> RefineSettings {
        RefineSettings {
            max_shift: Pixels(1.5),
            paper: 0.5,
            start_blur: Pixels(0.8),
            max_blur: Pixels(2.0),
            max_misfit: 0.2,
            min_side: Pixels(10.0),
            leave_out_covers: false,
        }
    }
}

/// What became of one tag's corners.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Refinement {
    /// Refined.
    Refined {
        /// The farthest any corner moved.
        shift: Pixels,
        /// The blur fitted.
        blur: Pixels,
        /// RMS misfit as a share of the black–white difference.
        misfit: f64,
        /// The share of the tag's pixels left out as covered (see
        /// [`RefineSettings::leave_out_covers`]).
        covered: f64,
    },
    /// The detector's corners were kept.
    Kept(Kept),
}

/// Why the detector's corners were kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kept {
    /// Too near the picture's edge for the pixels around it to be read.
    Edge,
    /// Too small, or no tag of the family has its id.
    Unsuitable,
    /// No black–white difference to fit.
    Flat,
    /// The fit did not settle.
    Unsettled,
    /// A corner would have moved further than allowed.
    TooFar,
    /// The blur fitted is out of reason.
    Blur,
    /// The pattern matches the pixels poorly (covered, smudged, another thing), or only
    /// through a tone curve no camera has.
    Misfit,
}

/// What refining a picture's tags did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RefineReport {
    /// Per tag, in the order given.
    pub outcomes: Vec<Refinement>,
    /// How long it took.
    pub time: Duration,
}

impl RefineReport {
    /// Tags whose corners were refined.
    pub fn refined(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|o| matches!(o, Refinement::Refined { .. }))
            .count()
    }
}

/// Refines the corners of decoded tags of one family; keeps each id's pattern between pictures.
pub struct CornerRefiner {
    family: String,
    settings: RefineSettings,
    patterns: HashMap<u32, Option<TagTexture>>,
}

impl CornerRefiner {
    /// A refiner for tags of `family`; fails on an unknown family.
    pub fn new(family: &str, settings: RefineSettings) -> Result<CornerRefiner, VisionError> {
        TagTexture::new(family, 0)?;
        Ok(CornerRefiner {
            family: family.to_owned(),
            settings,
            patterns: HashMap::new(),
        })
    }

    /// Refine the corners of these tags, found in this BGR or grey picture, in place; through
    /// `lens`, the camera's lens as far as it is known, when there is one (see [`Warp`]).
    pub fn refine(
        &mut self,
        image: &Mat,
        lens: Option<&Intrinsics>,
        sightings: &mut [TagSighting],
    ) -> Result<RefineReport, VisionError> {
        let started = Instant::now();
        let gray = as_gray(image)?;
        for sighting in sightings.iter() {
            let family = &self.family;
            self.patterns
                .entry(sighting.id)
                .or_insert_with(|| TagTexture::new(family, sighting.id).ok());
        }
        // The pixels are read here; the fits, each tag's its own, are made on every core.
        let mut fits = Vec::with_capacity(sightings.len());
        for sighting in sightings.iter() {
            let fit = match self.patterns.get(&sighting.id).and_then(Option::as_ref) {
                Some(pattern) => prepare(&gray, pattern, lens, &sighting.corners, &self.settings)?,
                None => Err(Kept::Unsuitable),
            };
            fits.push(fit);
        }
        let outcomes = fit_all(fits, &self.settings);
        let mut report = RefineReport {
            outcomes: Vec::with_capacity(sightings.len()),
            time: Duration::ZERO,
        };
        for (sighting, (outcome, corners)) in sightings.iter_mut().zip(outcomes) {
            if let Some(corners) = corners {
                sighting.corners = corners;
            }
            report.outcomes.push(outcome);
        }
        report.time = started.elapsed();
        Ok(report)
    }

    /// A frame's sightings to offer a lens learner, their corners refined (see
    /// [`learner_offer`]). `lens` is the lens fitted so far.
    pub fn offer_to_learner(
        &mut self,
        image: &Mat,
        sightings: &[TagSighting],
        anchors: &AnchorLayout,
        learner: &LensLearner,
        lens: Option<&Intrinsics>,
        limit: usize,
    ) -> Result<Vec<TagSighting>, VisionError> {
        let mut offered = learner_offer(sightings, anchors, learner, limit);
        if !offered.is_empty() {
            self.refine(image, lens, &mut offered)?;
        }
        Ok(offered)
    }
}

/// A picture's tags fitted to their patterns for placing them, through its calibration's lens,
/// the pixels figures cover left out (see [`RefineSettings::leave_out_covers`]): a tag found in
/// part is then placed and turned nearly as a whole one is. Every way of placing one picture
/// (`vedette locate`, the app's still picture) does this, so that one picture gives one
/// answer; a film's frames are placed from the detector's corners (a few milliseconds a tag,
/// every frame, is more than a live camera can spend).
pub fn for_placing(
    image: &Mat,
    calibration: &TableCalibration,
    sightings: &mut [TagSighting],
) -> Result<RefineReport, VisionError> {
    CornerRefiner::new(&calibration.family, RefineSettings::leaving_out_covers())?.refine(
        image,
        Some(&calibration.camera.intrinsics),
        sightings,
    )
}

/// A frame's sightings to offer a lens learner, to refine first: the stand sightings it will
/// keep (at most `limit` of them; the others are still new on a later frame) with the frame's
/// anchors; nothing on a frame that brings no new stand sighting, so that the learner keeps the
/// anchors refined before. Refining costs a few milliseconds a tag, and a live frame brings few
/// new places.
pub fn learner_offer(
    sightings: &[TagSighting],
    anchors: &AnchorLayout,
    learner: &LensLearner,
    limit: usize,
) -> Vec<TagSighting> {
    let mut offered: Vec<TagSighting> = sightings
        .iter()
        .filter(|s| learner.wants(s, anchors))
        .take(limit)
        .copied()
        .collect();
    if !offered.is_empty() {
        offered.extend(sightings.iter().filter(|s| anchors.anchor(s.id).is_some()));
    }
    offered
}

/// What refining one tag gives: how it went, and the new corners when they are to be used.
type Outcome = (Refinement, Option<[PixelPoint; 4]>);

/// One tag's corners fitted to its pattern in a grey picture: the new corners, or `None` with
/// the reason the detector's are kept.
pub fn refine_corners(
    gray: &Mat,
    pattern: &TagTexture,
    corners: &[PixelPoint; 4],
    settings: &RefineSettings,
) -> Result<Outcome, VisionError> {
    Ok(match prepare(gray, pattern, None, corners, settings)? {
        Ok(alignment) => fit(alignment, settings),
        Err(why) => (Refinement::Kept(why), None),
    })
}

/// The fit of one tag, ready to solve: its pixels read, its light started from the detector's
/// corners; or why it is not tried.
fn prepare<'a>(
    gray: &Mat,
    pattern: &'a TagTexture,
    lens: Option<&'a Intrinsics>,
    corners: &[PixelPoint; 4],
    settings: &RefineSettings,
) -> Result<Result<Alignment<'a>, Kept>, VisionError> {
    let side = mean_side(corners);
    if !at_most(settings.min_side.0, side) || !corners.iter().all(PixelPoint::is_finite) {
        return Ok(Err(Kept::Unsuitable));
    }
    let cell = side / pattern.inked_cells() as f64;
    let pad = (settings.paper * cell + 3.0 * settings.max_blur.0).ceil() as i32 + 2;
    let Some(patch) = Patch::read(gray, corners, pad)? else {
        return Ok(Err(Kept::Edge));
    };
    let Some(mut alignment) = Alignment::new(pattern, lens, *corners, patch, settings) else {
        return Ok(Err(Kept::Unsuitable));
    };
    if !alignment.start_light() {
        return Ok(Err(Kept::Flat));
    }
    Ok(Ok(alignment))
}

/// Solve each fit prepared, spread over the machine's cores, in order.
fn fit_all(fits: Vec<Result<Alignment, Kept>>, settings: &RefineSettings) -> Vec<Outcome> {
    let solve = |prepared: Result<Alignment, Kept>| match prepared {
        Ok(alignment) => fit(alignment, settings),
        Err(why) => (Refinement::Kept(why), None),
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    if threads == 1 || fits.len() < 2 {
        return fits.into_iter().map(solve).collect();
    }
    let per_thread = fits.len().div_ceil(threads);
    let mut chunks: Vec<Vec<Result<Alignment, Kept>>> = Vec::new();
    let mut rest = fits.into_iter().peekable();
    while rest.peek().is_some() {
        chunks.push(rest.by_ref().take(per_thread).collect());
    }
    std::thread::scope(|scope| {
        let running: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let count = chunk.len();
                let thread = scope.spawn(move || chunk.into_iter().map(solve).collect::<Vec<_>>());
                (count, thread)
            })
            .collect();
        running
            .into_iter()
            .flat_map(|(count, thread)| {
                // A fit that panicked (it never should) keeps its tags' corners.
                thread
                    .join()
                    .unwrap_or_else(|_| vec![(Refinement::Kept(Kept::Unsettled), None); count])
            })
            .collect()
    })
}

/// Solve a prepared fit and judge it. Where covers may be left out (see
/// [`RefineSettings::leave_out_covers`]), the pixels the pattern misses at the start are left
/// out first, and while the fit is poor, those it misses after it (see [`Alignment::uncover`]).
fn fit(mut alignment: Alignment, settings: &RefineSettings) -> Outcome {
    let fitted_at_first = alignment.used.len() as f64;
    let too_covered = |a: &Alignment| (a.used.len() as f64) < LEAST_KEPT * fitted_at_first;
    let covers = settings.leave_out_covers;
    if covers {
        alignment.uncover(NOT_THE_TAG_AT_START);
        if too_covered(&alignment) {
            return (Refinement::Kept(Kept::Misfit), None);
        }
    }
    let Some(mut solved) = solve(alignment) else {
        return (Refinement::Kept(Kept::Unsettled), None);
    };
    let mut outcome = judge(&solved, settings);
    for _ in 0..UNCOVERINGS {
        let clean = match outcome.0 {
            Refinement::Refined { misfit, .. } => misfit <= CLEAN_MISFIT,
            Refinement::Kept(why) => !matches!(why, Kept::Misfit | Kept::TooFar),
        };
        if !covers || clean || !solved.uncover(NOT_THE_TAG) {
            break;
        }
        if too_covered(&solved) {
            return (Refinement::Kept(Kept::Misfit), None);
        }
        let Some(again) = solve(solved) else {
            return (Refinement::Kept(Kept::Unsettled), None);
        };
        solved = again;
        outcome = judge(&solved, settings);
    }
    if let (Refinement::Refined { covered, .. }, _) = &mut outcome {
        *covered = 1.0 - solved.used.len() as f64 / fitted_at_first;
    }
    outcome
}

/// Pixels the pattern misses by more than this share of its black–white difference are taken
/// for something over the tag (a figure, a hand) and left out of the fit: at the start (where
/// the detector's corners may be half a pixel out, which misses an edge's pixels by half as
/// much) …
const NOT_THE_TAG_AT_START: f64 = 0.6;
/// … and once fitted, while the fit misses the pixels kept by more than [`CLEAN_MISFIT`] (a
/// good fit's misfit on a webcam picture: 0.02–0.05) …
const NOT_THE_TAG: f64 = 0.25;
const CLEAN_MISFIT: f64 = 0.06;
/// … for at most this many rounds …
const UNCOVERINGS: usize = 3;
/// … and while this share of the pixels first fitted is kept.
const LEAST_KEPT: f64 = 0.5;
/// A cover's edge blurs into the pixels beside it, which it darkens by less than that: the
/// pixels this near one left out, in each direction, go with it.
const COVER_REACH: i64 = 2;

/// Solve a prepared fit: `None` when it does not settle.
fn solve(alignment: Alignment) -> Option<Alignment> {
    let (solved, report) = LevenbergMarquardt::new()
        .with_xtol(1e-6)
        .with_ftol(1e-8)
        .with_stepbound(1.0)
        .with_patience(10)
        .minimize(alignment);
    (report.termination.was_successful() && solved.valid).then_some(solved)
}

/// Judge a solved fit: its corners, or why the detector's are kept.
fn judge(solved: &Alignment, settings: &RefineSettings) -> Outcome {
    let kept = |why| (Refinement::Kept(why), None);
    let Some(fitted) = solved.straight_edge_corners() else {
        return kept(Kept::Unsettled);
    };
    let shift = fitted
        .iter()
        .zip(&solved.start)
        .map(|(a, b)| a.distance(b).0)
        .fold(0.0, f64::max);
    if !at_most(shift, settings.max_shift.0) {
        return kept(Kept::TooFar);
    }
    let blur = solved.blur();
    if !at_most(blur, settings.max_blur.0) {
        return kept(Kept::Blur);
    }
    let gain = solved.params[GAIN];
    if !at_most(MIN_CONTRAST, gain) {
        return kept(Kept::Flat);
    }
    if !TONES.contains(&solved.params[TONE]) {
        return kept(Kept::Misfit);
    }
    let misfit = solved.rms() / gain;
    if !at_most(misfit, settings.max_misfit) {
        return kept(Kept::Misfit);
    }
    (
        Refinement::Refined {
            shift: Pixels(shift),
            blur: Pixels(blur),
            misfit,
            covered: 0.0,
        },
        Some(fitted),
    )
}

/// The least black–white difference fitted, grey levels.
const MIN_CONTRAST: f64 = 15.0;
/// The step by which a corner is moved to see how it moves the tag, pixels.
const CORNER_STEP: f64 = 1e-3;
/// The step in blur for its derivative, pixels.
const BLUR_STEP: f64 = 1e-3;

/// The parameters: each corner's offset from where it started (x, y); how the lens bends the
/// tag's edges (see [`Warp`]); the light's gain and offset; the blur; the lightness of what lies
/// beyond the printed paper, in the pattern's terms (ink 0, paper 1); the camera's tone curve.
const CORNERS: usize = 8;
const BEND: usize = 8;
const GAIN: usize = 12;
const OFFSET: usize = 13;
const BLUR: usize = 14;
const SURROUND: usize = 15;
const TONE: usize = 16;
const PARAMETERS: usize = 17;

/// The tone curves believed (see [`tone`]): from a little steeper than linear at the ink to
/// far steeper (sRGB's gamma is about 2.5).
const TONES: std::ops::RangeInclusive<f64> = -0.8..=20.0;
/// Residuals beside the pixels': the surround's prior and the four bows'.
const PRIORS: usize = 5;

/// How loosely the surround's lightness is held to the paper's: a residual of this share of the
/// black–white difference per paper's worth of difference. Where the surround lies beyond the
/// blur's reach of every pixel fitted (an anchor's wide card), the pixels say nothing of it and
/// this keeps it at the paper's; where it lies within reach (a stand's paint a cell from the
/// ink), the pixels outweigh it.
const SURROUND_PRIOR: f64 = 0.2;

/// How much a lens may bow a tag's edge, pixels per square pixel of the tag's side: one
/// standard deviation of the prior on the bows. The strongest wide lens of `bench accuracy`
/// bows a 50 px anchor in the picture's corner by about a pixel, and the bow grows as the
/// square of the side. On a small tag the pixels barely tell a bow from corners moved apart,
/// and a free bow moved the corners of a 14 px tag by 0.4 px; the prior leaves a small tag's
/// bows near nought (where the lens can bow it by hundredths at most) and a large one's free.
const BOW_SPREAD: f64 = 3e-4;
/// The pixels' noise assumed when weighing the priors against them, as a share of the
/// black–white difference (the misfit of a good fit on a webcam picture: 0.02–0.03).
const PIXEL_NOISE: f64 = 0.03;

/// The grey levels of a rectangle of the picture around a tag.
#[derive(Clone)]
struct Patch {
    /// Its top-left pixel.
    x0: i32,
    y0: i32,
    width: usize,
    height: usize,
    values: Vec<f64>,
}

impl Patch {
    /// The tag's bounding box and `pad` pixels around it; `None` when that leaves the picture.
    fn read(gray: &Mat, corners: &[PixelPoint; 4], pad: i32) -> Result<Option<Patch>, VisionError> {
        let (low, high) = corners.iter().fold(
            (
                (f64::INFINITY, f64::INFINITY),
                (f64::NEG_INFINITY, f64::NEG_INFINITY),
            ),
            |(l, h), c| ((l.0.min(c.x), l.1.min(c.y)), (h.0.max(c.x), h.1.max(c.y))),
        );
        let x0 = low.0.floor() as i32 - pad;
        let y0 = low.1.floor() as i32 - pad;
        let x1 = high.0.ceil() as i32 + pad;
        let y1 = high.1.ceil() as i32 + pad;
        if x0 < 0 || y0 < 0 || x1 >= gray.cols() || y1 >= gray.rows() {
            return Ok(None);
        }
        let (width, height) = ((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize);
        let mut values = Vec::with_capacity(width * height);
        for y in y0..=y1 {
            let row = gray.at_row::<u8>(y)?;
            values.extend(row[x0 as usize..=x1 as usize].iter().map(|&v| f64::from(v)));
        }
        Ok(Some(Patch {
            x0,
            y0,
            width,
            height,
            values,
        }))
    }

    /// The picture point at the centre of patch pixel `index`.
    fn point(&self, index: usize) -> (f64, f64) {
        (
            f64::from(self.x0) + (index % self.width) as f64,
            f64::from(self.y0) + (index / self.width) as f64,
        )
    }
}

/// The fit of one tag's pattern to its pixels: the solver's problem.
struct Alignment<'a> {
    pattern: &'a TagTexture,
    lens: Option<&'a Intrinsics>,
    start: [PixelPoint; 4],
    patch: Patch,
    /// The patch pixels fitted.
    used: Vec<usize>,
    /// The prior's spread of the bows, pixels.
    bow_spread: f64,
    /// The patch pixels drawn: those within a blur's reach of one fitted (the others cannot
    /// change the fitted pixels' model).
    needed: Vec<bool>,
    /// Each patch pixel's centre in the ideal picture (see [`Warp`]): worked out once, as
    /// undoing a lens is the costliest step of drawing.
    ideal: Vec<(f64, f64)>,
    params: DVector<f64>,
    /// At `params`: the pattern as drawn before the blur, and after, over the whole patch; and
    /// each pixel's share beyond the paper, before the blur.
    sharp: Vec<f64>,
    beyond: Vec<f64>,
    model: Vec<f64>,
    /// Whether `params` make a drawable tag.
    valid: bool,
}

impl<'a> Alignment<'a> {
    fn new(
        pattern: &'a TagTexture,
        lens: Option<&'a Intrinsics>,
        start: [PixelPoint; 4],
        patch: Patch,
        settings: &RefineSettings,
    ) -> Option<Alignment<'a>> {
        let warp = Warp::new(pattern, &start, [0.0; 4], lens)?;
        let ideal: Vec<(f64, f64)> = (0..patch.values.len())
            .map(|i| {
                let (x, y) = patch.point(i);
                warp.ideal(x, y)
            })
            .collect();
        let (low, high) = (
            1.0 - settings.paper,
            pattern.cells as f64 - 1.0 + settings.paper,
        );
        // The pixels fitted stay those chosen at the start, so that the residuals are the same
        // ones at every step (the solver compares them); the patch's rim, a blur's reach wide,
        // is drawn but never fitted.
        let rim = (3.0 * settings.max_blur.0).ceil() as usize + 1;
        let used: Vec<usize> = (0..patch.values.len())
            .filter(|&i| {
                let (col, row) = (i % patch.width, i / patch.width);
                if col < rim || row < rim || col + rim >= patch.width || row + rim >= patch.height {
                    return false;
                }
                let (u, v) = warp.to_cells(ideal[i]);
                (low..=high).contains(&u) && (low..=high).contains(&v)
            })
            .collect();
        if used.len() < 2 * PARAMETERS {
            return None;
        }
        let mut needed = vec![false; patch.values.len()];
        let reach = rim as i64;
        for &i in &used {
            let (col, row) = ((i % patch.width) as i64, (i / patch.width) as i64);
            for r in (row - reach).max(0)..=(row + reach).min(patch.height as i64 - 1) {
                let from = r as usize * patch.width;
                let (c0, c1) = (
                    (col - reach).max(0) as usize,
                    (col + reach).min(patch.width as i64 - 1) as usize,
                );
                needed[from + c0..=from + c1].fill(true);
            }
        }
        let mut params = DVector::zeros(PARAMETERS);
        params[GAIN] = 1.0;
        params[BLUR] = settings.start_blur.0;
        params[SURROUND] = 1.0;
        let mut alignment = Alignment {
            pattern,
            lens,
            start,
            patch,
            used,
            needed,
            ideal,
            bow_spread: (BOW_SPREAD * mean_side(&start).powi(2)).max(1e-3),
            params: params.clone(),
            sharp: Vec::new(),
            beyond: Vec::new(),
            model: Vec::new(),
            valid: false,
        };
        alignment.set_params(&params);
        Some(alignment)
    }

    /// Start the light from the pattern drawn at the detector's corners: the gain and offset
    /// that fit it best. `false` when the pixels show no black–white difference.
    fn start_light(&mut self) -> bool {
        if !self.valid {
            return false;
        }
        let n = self.used.len() as f64;
        let (mut m, mut p, mut mm, mut mp) = (0.0, 0.0, 0.0, 0.0);
        for &i in &self.used {
            let (a, b) = (self.model[i], self.patch.values[i]);
            m += a;
            p += b;
            mm += a * a;
            mp += a * b;
        }
        let variance = mm / n - (m / n).powi(2);
        if variance < 1e-6 {
            return false;
        }
        let gain = (mp / n - (m / n) * (p / n)) / variance;
        if gain < MIN_CONTRAST {
            return false;
        }
        self.params[GAIN] = gain;
        self.params[OFFSET] = p / n - gain * m / n;
        true
    }

    fn corners_at(&self, params: &DVector<f64>) -> [PixelPoint; 4] {
        std::array::from_fn(|k| self.start[k] + PixelVector::new(params[2 * k], params[2 * k + 1]))
    }

    fn corners(&self) -> [PixelPoint; 4] {
        self.corners_at(&self.params)
    }

    fn bend(&self) -> [f64; 4] {
        std::array::from_fn(|k| self.params[BEND + k])
    }

    fn warp(&self) -> Option<Warp<'a>> {
        Warp::new(self.pattern, &self.corners(), self.bend(), self.lens)
    }

    /// The corners as a detector fitting straight lines to the edges would find them (the
    /// convention the calibration holds every corner to): through a bending lens, where the
    /// lines through the fitted bent edges meet.
    fn straight_edge_corners(&self) -> Option<[PixelPoint; 4]> {
        let warp = self.warp()?;
        let (n, middle) = (self.pattern.cells as f64, self.pattern.cells as f64 / 2.0);
        // Edge k runs from corner k to corner k + 1: bottom, right, top, left of the pattern.
        let middles = [
            (middle, n - 1.0),
            (n - 1.0, middle),
            (middle, 1.0),
            (1.0, middle),
        ]
        .map(|(u, v)| {
            let (x, y) = warp.to_picture(u, v);
            PixelPoint::new(x, y)
        });
        Some(calibration::lens::straight_edge_corners(
            self.corners(),
            middles,
        ))
    }

    fn blur(&self) -> f64 {
        self.params[BLUR].abs()
    }

    fn rms(&self) -> f64 {
        let sum: f64 = self.pixel_residuals().map(|r| r * r).sum();
        (sum / self.used.len() as f64).sqrt()
    }

    /// Leave out of the pixels fitted those the pattern misses by more than this share of its
    /// black–white difference, and those within [`COVER_REACH`] of them: `false` when none is.
    fn uncover(&mut self, share: f64) -> bool {
        let limit = share * self.params[GAIN];
        let width = self.patch.width;
        let mut covered = vec![false; self.patch.values.len()];
        let mut any = false;
        for (&i, r) in self.used.iter().zip(self.pixel_residuals()) {
            if r.abs() <= limit {
                continue;
            }
            any = true;
            let (col, row) = ((i % width) as i64, (i / width) as i64);
            for dy in -COVER_REACH..=COVER_REACH {
                for dx in -COVER_REACH..=COVER_REACH {
                    let (c, r) = (col + dx, row + dy);
                    if (0..width as i64).contains(&c) && (0..self.patch.height as i64).contains(&r)
                    {
                        covered[r as usize * width + c as usize] = true;
                    }
                }
            }
        }
        self.used.retain(|&i| !covered[i]);
        any
    }

    /// The fitted pixels' residuals, grey levels.
    fn pixel_residuals(&self) -> impl Iterator<Item = f64> + '_ {
        let (gain, offset, curve) = (self.params[GAIN], self.params[OFFSET], self.tone());
        self.used
            .iter()
            .map(move |&i| gain * tone(self.model[i], curve).0 + offset - self.patch.values[i])
    }

    fn tone(&self) -> f64 {
        self.params[TONE].clamp(*TONES.start(), *TONES.end())
    }

    /// The pixels' residuals and the surround's prior.
    fn residuals_now(&self) -> Vec<f64> {
        let gain = self.params[GAIN];
        let surround = SURROUND_PRIOR * gain * (self.params[SURROUND] - 1.0);
        let bows = (0..4).map(|k| PIXEL_NOISE * gain * self.params[BEND + k] / self.bow_spread);
        self.pixel_residuals()
            .chain([surround])
            .chain(bows)
            .collect()
    }
}

impl LeastSquaresProblem<f64, Dyn, Dyn> for Alignment<'_> {
    type ResidualStorage = Owned<f64, Dyn>;
    type JacobianStorage = Owned<f64, Dyn, Dyn>;
    type ParameterStorage = Owned<f64, Dyn>;

    fn set_params(&mut self, x: &DVector<f64>) {
        self.params.copy_from(x);
        let drawn: Option<(Vec<f64>, Vec<f64>)> = self
            .warp()
            .map(|warp| draw(self.pattern, &warp, &self.patch, &self.ideal, &self.needed));
        match drawn {
            Some((paper, beyond)) if paper.iter().all(|v| v.is_finite()) => {
                let surround = self.params[SURROUND];
                let sharp: Vec<f64> = paper
                    .iter()
                    .zip(&beyond)
                    .map(|(p, b)| p + surround * b)
                    .collect();
                self.model = blurred(&sharp, self.patch.width, self.patch.height, self.blur());
                self.sharp = sharp;
                self.beyond = beyond;
                self.valid = true;
            }
            _ => self.valid = false,
        }
    }

    fn params(&self) -> DVector<f64> {
        self.params.clone()
    }

    fn residuals(&self) -> Option<DVector<f64>> {
        self.valid.then(|| DVector::from_vec(self.residuals_now()))
    }

    fn jacobian(&self) -> Option<DMatrix<f64>> {
        if !self.valid {
            return None;
        }
        let corners = self.corners();
        let warp = self.warp()?;
        // Each corner coordinate nudged: where the tag's points go.
        let mut nudged = Vec::with_capacity(CORNERS);
        for k in 0..CORNERS {
            let mut moved = corners;
            if k % 2 == 0 {
                moved[k / 2].x += CORNER_STEP;
            } else {
                moved[k / 2].y += CORNER_STEP;
            }
            nudged.push(warp.homography_at(self.pattern, &moved)?);
        }
        let (width, height) = (self.patch.width, self.patch.height);
        let blur = self.blur();
        let (less, more) = ((blur - BLUR_STEP).max(0.0), blur + BLUR_STEP);
        let sharper = blurred(&self.sharp, width, height, less);
        let blurrier = blurred(&self.sharp, width, height, more);
        // The blur is drawn at the parameter's size, whatever its sign.
        let sign = if self.params[BLUR] < 0.0 { -1.0 } else { 1.0 };
        let (gain, curve) = (self.params[GAIN], self.tone());
        let beyond = blurred(&self.beyond, width, height, blur);
        let mut jacobian = DMatrix::zeros(self.used.len() + PRIORS, PARAMETERS);
        for (r, &i) in self.used.iter().enumerate() {
            // Whatever moves the light before the tone curve moves the pixel through its slope.
            let (toned, slope, bend) = tone(self.model[i], curve);
            let scale = gain * slope;
            let gx = (self.model[i + 1] - self.model[i - 1]) / 2.0;
            let gy = (self.model[i + width] - self.model[i - width]) / 2.0;
            let (u, v) = warp.to_cells(self.ideal[i]);
            // The bend does not depend on the corners: a corner moves the tag's points as it
            // moves the homography.
            let (px, py) = warp.unbowed(&warp.homography, u, v);
            for (k, h) in nudged.iter().enumerate() {
                let (qx, qy) = warp.unbowed(h, u, v);
                let (dx, dy) = ((qx - px) / CORNER_STEP, (qy - py) / CORNER_STEP);
                jacobian[(r, k)] = -scale * (gx * dx + gy * dy);
            }
            let (across, down) = warp.bulges(u, v);
            jacobian[(r, BEND)] = -scale * gx * across;
            jacobian[(r, BEND + 1)] = -scale * gy * across;
            jacobian[(r, BEND + 2)] = -scale * gx * down;
            jacobian[(r, BEND + 3)] = -scale * gy * down;
            jacobian[(r, GAIN)] = toned;
            jacobian[(r, OFFSET)] = 1.0;
            jacobian[(r, BLUR)] = sign * scale * (blurrier[i] - sharper[i]) / (more - less);
            jacobian[(r, SURROUND)] = scale * beyond[i];
            jacobian[(r, TONE)] = gain * bend;
        }
        let prior = self.used.len();
        jacobian[(prior, GAIN)] = SURROUND_PRIOR * (self.params[SURROUND] - 1.0);
        jacobian[(prior, SURROUND)] = SURROUND_PRIOR * gain;
        for k in 0..4 {
            let row = prior + 1 + k;
            jacobian[(row, GAIN)] = PIXEL_NOISE * self.params[BEND + k] / self.bow_spread;
            jacobian[(row, BEND + k)] = PIXEL_NOISE * gain / self.bow_spread;
        }
        Some(jacobian)
    }
}

/// A camera's tone curve: the grey level's share of the way from ink to paper for a share `m`
/// of the light, `(1 + c) m / (1 + c m)` — the identity at `c` = 0, steeper in the shadows for
/// `c` > 0 (at 2.5 it follows sRGB's gamma within a few levels), 0 at the ink and 1 at the
/// paper whatever `c`. With its slope in `m` and in `c`.
///
/// Why: a lens blurs light, but most cameras store its gamma-encoded grey levels, in which a
/// blurred edge is no longer symmetric: its half-way grey lies a third of the blur towards the
/// ink, and a fit that took the grey levels for light put a real tag's edges half a pixel out
/// (the AprilTag project's own photos). The synthetic camera stores light as it is, and the fit
/// finds `c` near 0 there.
fn tone(m: f64, c: f64) -> (f64, f64, f64) {
    let m = m.max(0.0);
    let denominator = 1.0 + c * m;
    (
        (1.0 + c) * m / denominator,
        (1.0 + c) / (denominator * denominator),
        m * (1.0 - m) / (denominator * denominator),
    )
}

/// The pattern as the pixels of the patch see it, before any blur: each pixel the pattern's
/// average over the pixel's footprint (so that the drawing moves smoothly with the corners, as
/// the solver needs). `ideal` is each pixel's centre in the ideal picture (see [`Warp`]).
fn draw(
    pattern: &TagTexture,
    warp: &Warp,
    patch: &Patch,
    ideal: &[(f64, f64)],
    needed: &[bool],
) -> (Vec<f64>, Vec<f64>) {
    // A pixel's footprint in cells, from how the cells run in the patch's middle: the width of
    // the box with the same spread as the pixel's square seen in cells.
    let (cx, cy) = (
        f64::from(patch.x0) + patch.width as f64 / 2.0,
        f64::from(patch.y0) + patch.height as f64 / 2.0,
    );
    let cells = |x: f64, y: f64| warp.to_cells(warp.ideal(x, y));
    let (centre, right, down) = (cells(cx, cy), cells(cx + 1.0, cy), cells(cx, cy + 1.0));
    let (du, dv) = (
        (right.0 - centre.0).hypot(down.0 - centre.0),
        (right.1 - centre.1).hypot(down.1 - centre.1),
    );
    let (hu, hv) = ((0.5 * du).min(0.49), (0.5 * dv).min(0.49));
    let mut paper = vec![1.0; ideal.len()];
    let mut beyond = vec![0.0; ideal.len()];
    for (i, &at) in ideal.iter().enumerate() {
        if needed[i] {
            let (u, v) = warp.to_cells(at);
            (paper[i], beyond[i]) = lightness(pattern, u, v, hu, hv);
        }
    }
    (paper, beyond)
}

/// The share of the box of half-widths `hu`, `hv` cells around (`u`, `v`) that is paper, and
/// the share beyond the paper; the rest is ink. The box is under a cell wide, so it meets at
/// most two cells each way.
fn lightness(pattern: &TagTexture, u: f64, v: f64, hu: f64, hv: f64) -> (f64, f64) {
    let shares = |w: f64, h: f64| -> [(i64, f64); 2] {
        let (a, b) = ((w - h).floor(), (w + h).floor());
        if a == b || h <= 0.0 {
            [(a as i64, 1.0), (a as i64 + 1, 0.0)]
        } else {
            let first = (b - (w - h)) / (2.0 * h);
            [(a as i64, first), (b as i64, 1.0 - first)]
        }
    };
    let (across, down) = (shares(u, hu), shares(v, hv));
    let cells = 0..pattern.cells as i64;
    let (mut light, mut outside) = (0.0, 0.0);
    for (row, wv) in down {
        for (col, wu) in across {
            if wu > 0.0 && wv > 0.0 {
                if !cells.contains(&col) || !cells.contains(&row) {
                    outside += wu * wv;
                } else if !pattern.is_black(col, row) {
                    light += wu * wv;
                }
            }
        }
    }
    (light, outside)
}

/// A Gaussian blur of sigma `sigma` pixels, rows then columns, the patch's edge repeated.
fn blurred(values: &[f64], width: usize, height: usize, sigma: f64) -> Vec<f64> {
    if sigma < 1e-3 {
        return values.to_vec();
    }
    let reach = (3.0 * sigma).ceil() as i64;
    let mut kernel: Vec<f64> = (-reach..=reach)
        .map(|d| (-(d * d) as f64 / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f64 = kernel.iter().sum();
    kernel.iter_mut().for_each(|k| *k /= total);
    let across = blur_pass(values, &kernel, width, height, Axis::Row);
    blur_pass(&across, &kernel, width, height, Axis::Column)
}

/// Which way a pass of the separable blur runs.
#[derive(Clone, Copy)]
enum Axis {
    Row,
    Column,
}

/// One pass of the separable blur along `axis`, the picture's edge repeated beyond it.
fn blur_pass(values: &[f64], kernel: &[f64], width: usize, height: usize, axis: Axis) -> Vec<f64> {
    // Lines of `length` values `step` apart, each line starting `line_step` after the last.
    let (lines, length, line_step, step) = match axis {
        Axis::Row => (height, width, width, 1),
        Axis::Column => (width, height, 1, width),
    };
    let reach = (kernel.len() / 2) as i64;
    let mut out = vec![0.0; values.len()];
    for line in 0..lines {
        let start = line * line_step;
        for at in 0..length {
            let mut sum = 0.0;
            for (k, weight) in kernel.iter().enumerate() {
                let from = (at as i64 + k as i64 - reach).clamp(0, length as i64 - 1) as usize;
                sum += weight * values[start + from * step];
            }
            out[start + at * step] = sum;
        }
    }
    out
}

/// Whether `value` is at most `limit`; never for a NaN, so that a fit gone wrong is refused.
fn at_most(value: f64, limit: f64) -> bool {
    value <= limit
}
