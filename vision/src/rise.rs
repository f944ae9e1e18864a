//! How high a tag at rest stands above the plane it was placed on, from its whole printed
//! pattern fitted to its pixels.
//!
//! A tag taken down its rays to the plane it was placed on makes a square of its printed size
//! when it lies there, and a bigger one when it stands higher (see [`crate::bearing`]). From
//! the detector's corners that size is a percent or two out, tag by tag and frame after frame
//! — a whole inch of rise under a table camera, more with a figure over the tag's edge. Fitted
//! to every edge of its pattern ([`crate::refine`]), with the pixels a figure covers left out,
//! it is a few tenths of a percent out: a tenth or two of an inch. That is what tells a stand
//! on a hill the ground does not know from one on the cloth.
//!
//! Decisions:
//! - The app gauges a tag once a rest, not every frame: a fit costs a few milliseconds, and a
//!   stand at rest does not change its height.
//! - The fit's corners are the printed square's, not the detector's (which sit inside it by a
//!   share of a pixel that [`crate::bearing::FlatLook`] must learn): a flat tag gauges a scale
//!   of one, whatever its size, and no flat tag need be seen first.

use calibration::{Camera, StandTagSpec, TagSighting};
use opencv::core::Mat;
use rules::units::Inches;

use crate::bearing::Bearing;
use crate::error::VisionError;
use crate::refine::{CornerRefiner, RefineSettings, Refinement};

/// A fitted corner is this far from the truth, one standard deviation, pixels: 0.04–0.05 px
/// on wholly visible tags through the true lens, up to 0.1 px with a quarter of the tag under
/// a figure, and the lens learnt in play adds as much again (flat stands gauged 0.3" RMS on
/// `vedette bench accuracy`'s built tables, where this makes 0.2–0.25").
const FITTED_CORNER_NOISE: f64 = 0.15;
/// A tag a quarter to half covered is fitted twice as loosely as one barely covered (its side
/// 1.1 % RMS out, against 0.44 %, on the same tables): the spread grows by this much per share
/// covered.
const COVER_SPREAD: f64 = 5.0;

/// A tag's height as its fitted pattern gauges it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gauged {
    /// Above the plane it was placed on (negative: below).
    pub rise: Inches,
    /// One standard deviation of the rise: wider the more of the tag a cover hid from the fit.
    pub spread: Inches,
}

impl Gauged {
    /// Whether it surely stands higher than `above` over the plane it was placed on: by `sure`
    /// standard deviations.
    pub fn surely_above(&self, above: Inches, sure: f64) -> bool {
        (self.rise - above).0 > sure * self.spread.0
    }
}

/// Gauges tags' heights from their patterns (see the module's documentation).
pub struct RiseGauge {
    refiner: CornerRefiner,
}

impl RiseGauge {
    /// A gauge for tags of `family`; fails on an unknown family.
    pub fn new(family: &str) -> Result<RiseGauge, VisionError> {
        Ok(RiseGauge {
            refiner: CornerRefiner::new(family, RefineSettings::leaving_out_covers())?,
        })
    }

    /// How high each of these tags stands above the plane its spec's height gives, seen in
    /// `image` through `camera`: `None` for a tag whose pattern could not be fitted.
    pub fn gauge(
        &mut self,
        image: &Mat,
        camera: &Camera,
        tags: &[(TagSighting, StandTagSpec)],
    ) -> Result<Vec<Option<Gauged>>, VisionError> {
        let mut sightings: Vec<TagSighting> = tags.iter().map(|(s, _)| *s).collect();
        let report = self
            .refiner
            .refine(image, Some(&camera.intrinsics), &mut sightings)?;
        Ok(sightings
            .iter()
            .zip(tags)
            .zip(&report.outcomes)
            .map(|((fitted, (_, spec)), outcome)| match outcome {
                Refinement::Refined { covered, .. } => gauged(camera, fitted, spec, *covered),
                Refinement::Kept(_) => None,
            })
            .collect())
    }
}

/// The rise of a tag whose corners were fitted to its pattern.
fn gauged(
    camera: &Camera,
    fitted: &TagSighting,
    spec: &StandTagSpec,
    covered: f64,
) -> Option<Gauged> {
    let bearing = Bearing::of(camera, fitted, spec)?;
    let side = bearing.pixels.0.max(1.0);
    Some(Gauged {
        rise: bearing.rise_over(1.0),
        // A side is measured from two corners (√2 of a corner's noise), the scale from four
        // sides (half of that).
        spread: bearing.eye_height
            * (FITTED_CORNER_NOISE * std::f64::consts::FRAC_1_SQRT_2 / side)
            * (1.0 + COVER_SPREAD * covered),
    })
}
