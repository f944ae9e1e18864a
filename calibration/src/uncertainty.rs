//! How far a calibration itself may put what the camera sees off: the share of every distance's
//! error that comes from the lens and the camera's pose, not from the stands' own tags.
//!
//! Decisions:
//! - It is worked out from what a calibration file keeps (the anchors' fit, the lens's source
//!   and, for a lens measured from tags, how uncertain its fit left lengths), so that files
//!   saved before it load and carry it (a file without the fit's length figure is judged by
//!   the worst place's).
//! - A measured lens's error is smooth over the table: stands near each other are off together,
//!   and what a distance between them keeps grows with the distance. So it is carried as a
//!   relative error of every length (the rules' `length_sd`), not as an error of each stand,
//!   which would widen a short distance's bar by the whole table's shift. Where the table as a
//!   whole lies a hair off, no ruling changes.
//! - The fit's covariance sees only its corners' random error. Errors every tag shares (the
//!   refined corners' common bias, the lens's terms beyond those fitted) are not averaged away
//!   by more sightings; measured against the synthetic truth, tag-measured lenses' lengths were
//!   off by 2–4 parts in 10,000 wherever the covariance said less. So lengths are never taken
//!   to be surer than [`SHARED_LENGTH_ERROR`].
//! - The anchors are where the layout says only to within a player's placing of them
//!   ([`ANCHOR_PLACED`]). The table as a whole lies off by as much as they do together (the
//!   `frame`: no distance between two stands keeps it, a stand's place against the table's edge
//!   or its terrain does), and the table's scale and a fitted lens's bend follow them: a fit
//!   from tags carries their placing through its own numbers (each anchor moved along each
//!   axis, the fit's numbers following as its other corners let them), into its length figure
//!   and its frame; a lens measured on purpose or given, into the scale the anchors fix. Anchors
//!   that disagree with each other beyond their corners' noise widen both, and say so
//!   ([`TableCalibration::doubts`]); one that disagrees by far is left out and named.
//! - A lens fitted from tags says what it could not measure: its promise
//!   ([`crate::lens::promise`]) holds every lens number free, those the tags did not pin down
//!   only to what webcams are. From the anchors alone that is the bend between them, which no
//!   length figure of the fit sees; each place is taken to be off by the promise's one standard
//!   deviation (at the worst place, so wide elsewhere). With stand tags in the fit the bend is
//!   measured and the fit's own length figure holds: counting the promise there too widened
//!   `vedette bench accuracy`'s bars to twice the errors, holding 100 % of them.
//! - A lens not measured (the anchors alone fit a focal length, no distortion) bends places by
//!   an amount the calibration cannot see where no tag was. How much the anchors can show of a
//!   bend depends on where they lie in the picture, so it is worked out for this camera when it
//!   is calibrated: the anchors as the camera with a webcam's bend ([`WEBCAM_BEND`]) would see
//!   them are calibrated the same way, and how far that puts places off at the worst place on
//!   the table, against how badly the anchors fit it, scales with the bend the real anchors'
//!   misfit shows (up to [`WIDEST_BEND`] webcams' worth; a webcam's worth where the anchors
//!   could not show one). Every place is taken to be off by that: the bend's shape differs from
//!   lens to lens, and each place's own figure (tried) held only 67–86 % of the truth through
//!   pincushion and wide lenses. The facing turns by it over [`BEND_SPAN`]. Files saved before
//!   this was worked out fall back to the anchors' misfit scaled by [`UNMEASURED_LENS_REACH`].

use rules::units::{Degrees, Inches};

use crate::anchors::{ANCHOR_PLACED, AnchorLayout};
use crate::lens::promise::over;
use crate::pixels::Pixels;
use crate::solve::{Settings, solve};
use crate::table::{LensSource, TableCalibration};
use crate::tag::TagSighting;

/// How far a calibration may put what the camera sees off, one standard deviation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CalibrationSd {
    /// Of each stand's place, along each axis, beyond its own tag's error.
    pub place: Inches,
    /// Of each stand's facing, beyond its own tag's error.
    pub facing: Degrees,
    /// Of every length, relative.
    pub length: f64,
    /// Of the table as a whole, along each axis: where the anchors put it (see
    /// [`ANCHOR_PLACED`]). Common to every stand: no distance between two keeps it.
    pub frame: Inches,
}

/// The least relative error of a length through a lens measured or given: what every tag's
/// corners share (see the module's decisions).
pub const SHARED_LENGTH_ERROR: f64 = 2.5e-4;

/// How much further than the anchors' own misfit an unmeasured lens may bend places between
/// them. A webcam's bend is mostly radial, nought at the picture's centre and growing with the
/// square of the distance from it; the anchors at the table's corners fit the undistorted
/// camera by moving it, and their misfit is what is left over at four points of a field that
/// is off by far more in between.
pub const UNMEASURED_LENS_REACH: f64 = 30.0;

/// A webcam's radial bend, one standard deviation of its k1: plain webcams' run from −0.15 to
/// 0.15 (barrel or pincushion), wide ones' to −0.35.
pub const WEBCAM_BEND: f64 = 0.15;

/// The most bend, in [`WEBCAM_BEND`]s, that the anchors' misfit is taken to show: a wide webcam's.
pub const WIDEST_BEND: f64 = 2.5;

/// How far the anchors' corners scatter besides any bend, pixels: the detector's corners.
const CORNER_SCATTER: f64 = 0.15;

/// A fit whose corners miss by more than this (RMS) does not fit as corners' noise would:
/// three times the detector's scatter.
pub const DOUBTFUL_MISFIT: Pixels = Pixels(3.0 * CORNER_SCATTER);

/// The span over which an unmeasured lens's bend turns what it shows by its whole reach:
/// about half a 4' table's depth.
pub const BEND_SPAN: Inches = Inches(24.0);

/// What a measured lens adds to each place, inches: its error is the whole table's, carried by
/// lengths (the anchors' misfit moves the table as a whole, which no distance sees).
const LEAST_PLACE: Inches = Inches(0.001);

/// The lengths a fit's worst place is spread over, for a file saved without its length figure
/// (inches): the longest distances the rules measure.
const OLD_FILE_LENGTHS: f64 = 30.0;

impl TableCalibration {
    /// How far this calibration may put what the camera sees off (one standard deviation).
    pub fn uncertainty(&self) -> CalibrationSd {
        let misfit = self.anchor_misfit();
        let frame = self.frame_sd(misfit);
        let shared = |length: f64| length.hypot(SHARED_LENGTH_ERROR);
        let measured = |length: f64| CalibrationSd {
            place: LEAST_PLACE,
            facing: Degrees(length.to_degrees()),
            length,
            frame,
        };
        match self.lens {
            LensSource::Tags(lens) => {
                let mut sd = match lens.length_sd {
                    Some(length) if length.is_finite() => CalibrationSd {
                        // The fit carried the anchors' placing through its lens and pose;
                        // their misfit beyond it counts as well.
                        frame: lens.frame_sd.map_or(frame, |fit| {
                            Inches(fit.0.hypot(self.frame_sd_of(misfit, Inches::ZERO).0))
                        }),
                        ..measured(shared(length))
                    },
                    _ if lens.pinned.0.is_finite() => {
                        measured(shared(lens.pinned.0 / OLD_FILE_LENGTHS))
                    }
                    _ => return self.unmeasured(misfit),
                };
                // A fit from the anchors alone could not measure the lens's bend between them;
                // its promise counts it: each place may be off by as much.
                let anchors_seen = self.anchors.len() + self.rejected.len();
                let anchors_alone = lens.tags <= anchors_seen * lens.pictures;
                if let (true, Some(promise)) = (anchors_alone, self.promise) {
                    sd.place = Inches(sd.place.0.max(promise.sd().0));
                }
                sd
            }
            // A lens measured on purpose, or given: the pose from the anchors fixes the table's
            // scale by their misfit, and the lens is taken to be as sure as one measured from
            // tags.
            LensSource::Board { .. } | LensSource::Given => measured(shared(self.scale_sd(misfit))),
            LensSource::Anchors | LensSource::Assumed => match self.unmeasured_lens {
                Some(bend) => {
                    let place = bend.0.max(LEAST_PLACE.0);
                    CalibrationSd {
                        place: Inches(place),
                        facing: Degrees((place / BEND_SPAN.0).atan().to_degrees()),
                        length: self.scale_sd(misfit),
                        frame,
                    }
                }
                None => self.unmeasured(misfit),
            },
        }
    }

    /// What this calibration's own residuals say against trusting it, in words a player can
    /// act on: none when they are as small as the corners' noise explains (see
    /// [`DOUBTFUL_MISFIT`]). Its error bars already carry what they say.
    pub fn doubts(&self) -> Vec<String> {
        let sd = self.uncertainty();
        let mut doubts = Vec::new();
        if self.quality.rms.0 > DOUBTFUL_MISFIT.0 {
            doubts.push(format!(
                "the anchors agree with each other only to {:.2} px ({:.3}\"): one may have been knocked or set off its mark — every place against the table carries ±{:.3}\"",
                self.quality.rms.0,
                self.quality.rms_on_table.0,
                rules::uncertainty::Z95 * sd.frame.0
            ));
        }
        for rejected in &self.rejected {
            doubts.push(format!(
                "anchor {} lies {:.2}\" from where the other anchors put it: knocked, or set off its mark? — left out until it is put back",
                rejected.id, rejected.off_on_table.0
            ));
        }
        if let LensSource::Tags(lens) = self.lens
            && lens.rms.0 > DOUBTFUL_MISFIT.0
        {
            doubts.push(format!(
                "the lens fits the tags only to {:.2} px: stands raised on ground Vedette does not know, or a lens its model cannot follow — every length carries ±{:.2} %",
                lens.rms.0,
                100.0 * rules::uncertainty::Z95 * sd.length
            ));
        }
        doubts
    }

    /// A lens not measured (see the module's decisions).
    fn unmeasured(&self, misfit: f64) -> CalibrationSd {
        let place = (UNMEASURED_LENS_REACH * misfit).max(LEAST_PLACE.0);
        CalibrationSd {
            place: Inches(place),
            facing: Degrees((place / BEND_SPAN.0).atan().to_degrees()),
            length: self.scale_sd(misfit),
            frame: self.frame_sd(misfit),
        }
    }

    /// Where the table as a whole may lie: each anchor placed within [`ANCHOR_PLACED`] and
    /// as far off as their corners' misfit on the table says, averaged over the anchors.
    fn frame_sd(&self, misfit: f64) -> Inches {
        self.frame_sd_of(misfit, ANCHOR_PLACED)
    }

    /// The same, each anchor placed within `placed`.
    fn frame_sd_of(&self, misfit: f64, placed: Inches) -> Inches {
        let count = self.anchors.len().max(1) as f64;
        Inches(placed.0.hypot(misfit) * (2.0 / count).sqrt())
    }

    /// How far the anchors' corners lie from where the camera puts them, in inches on the table
    /// (their misfit in pixels, at the table's centre's scale).
    fn anchor_misfit(&self) -> f64 {
        let misfit = self.quality.rms.0 * self.quality.inches_per_pixel;
        if misfit.is_finite() { misfit } else { 0.0 }
    }

    /// The table's scale as the anchors fix it: their corners' misfit (inches) and their
    /// placing, against how far apart they lie.
    fn scale_sd(&self, misfit: f64) -> f64 {
        let centres: Vec<_> = self
            .anchors
            .iter()
            .map(|a| a.anchor.placement().center)
            .collect();
        let spread = centres
            .iter()
            .flat_map(|a| centres.iter().map(move |b| (a - b).norm()))
            .fold(0.0, f64::max);
        if spread <= 0.0 {
            return 0.0;
        }
        // Each corner off by the misfit, each anchor as a whole by its placing.
        let corners = 4.0 * centres.len() as f64;
        let by_corners = misfit * (2.0 / corners).sqrt();
        let by_placing = ANCHOR_PLACED.0 * (2.0 / centres.len() as f64).sqrt();
        by_corners.hypot(by_placing) / spread
    }
}

/// How far a lens the anchors alone fitted may put places off, one standard deviation, at the
/// worst place (see the module's decisions); `None` when a bent camera cannot see the anchors
/// or be calibrated from them.
pub(crate) fn unmeasured_lens(
    found: &TableCalibration,
    layout: &AnchorLayout,
    settings: &Settings,
) -> Option<Inches> {
    let mut bent = found.camera;
    bent.intrinsics.distortion.k1 = -WEBCAM_BEND;
    let sightings = found
        .anchors
        .iter()
        .map(|fit| {
            let [a, b, c, d] = fit.anchor.placement().corners().map(|p| bent.project(&p));
            Some(TagSighting {
                id: fit.anchor.id,
                corners: [a?, b?, c?, d?],
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let image_size = found.camera.intrinsics.image_size;
    let refit = solve(layout, &sightings, image_size, settings).ok()?;
    let height = found.anchors.first()?.anchor.placement().height;
    let farthest = over(found.table)
        .iter()
        .filter_map(|p| {
            let pixel = bent.project_at(p, height)?;
            Some((refit.camera.unproject_at(&pixel, height)? - p).norm())
        })
        .reduce(f64::max)?;
    // How many webcams' worth of bend the real anchors' misfit shows, beside their corners'
    // own scatter; where a webcam's bend leaves the anchors fitting as well, they show nothing.
    let shown = refit.quality.rms.0;
    let seen = (found.quality.rms.0.powi(2) - CORNER_SCATTER.powi(2))
        .max(0.0)
        .sqrt();
    let bends = if shown >= 2.0 * CORNER_SCATTER {
        (seen / shown).min(WIDEST_BEND)
    } else {
        1.0
    };
    Some(Inches(farthest * bends))
}
