//! A table calibration as found and kept in its file: the camera, where its lens came from,
//! how each anchor fits and the figures of its quality. Below everything that finds one (the
//! anchors' solve, the tags' fit, the board) and everything that reads one.

use rules::units::{Degrees, Inches};
use serde::{Deserialize, Serialize};

use crate::anchors::{Anchor, TableSize};
use crate::camera::Camera;
use crate::lens::{FitSettings, LensModel, LensReport, Promise};
use crate::pixels::{PixelPoint, Pixels};

/// Where the lens model came from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "from")]
pub enum LensSource {
    /// Measured from the anchors of this view (focal length only).
    Anchors,
    /// The anchors could not measure it (camera looking almost straight down): assumed.
    Assumed,
    /// Measured with the calibration board.
    Board {
        /// Views used.
        views: usize,
        /// RMS reprojection error of the board calibration.
        rms: Pixels,
    },
    /// Given by the user (an earlier calibration file).
    Given,
    /// Measured from every tag of known size in view: the anchors and the roster's stand tags
    /// (and the board, if shown), by bundle adjustment.
    Tags(TagLens),
}

impl std::fmt::Display for LensSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LensSource::Anchors => write!(f, "focal length from the anchors, no distortion"),
            LensSource::Assumed => write!(f, "assumed: the anchors could not measure it"),
            LensSource::Board { views, rms } => {
                write!(f, "measured with the board, {views} views, RMS {rms}")
            }
            LensSource::Given => write!(f, "given"),
            LensSource::Tags(t) => write!(
                f,
                "{} measured from {} tags in {} picture(s), RMS {}, {:.0} % covered",
                t.model.describe(),
                t.tags,
                t.pictures,
                t.rms,
                100.0 * t.coverage
            ),
        }
    }
}

/// How one anchor fits the calibration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnchorFit {
    /// The anchor as laid out.
    pub anchor: Anchor,
    /// Where its corners were seen.
    pub seen: [PixelPoint; 4],
    /// RMS distance between its seen corners and the camera model's.
    pub error: Pixels,
    /// The same on the table: how far the model puts the seen corners from the true ones.
    pub error_on_table: Inches,
}

/// An anchor that was seen but not trusted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RejectedAnchor {
    /// The tag id.
    pub id: u32,
    /// Where it was seen (its centre).
    pub seen_at: PixelPoint,
    /// How far its corners are from where the trusted anchors put them.
    pub off_by: Pixels,
    /// The same on the table, where it lies (0 in files written before it was kept).
    #[serde(default)]
    pub off_on_table: Inches,
}

/// Summary figures of a calibration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quality {
    /// RMS corner reprojection error of the trusted anchors.
    pub rms: Pixels,
    /// The worst corner.
    pub max: Pixels,
    /// RMS error of the anchors' corners on the table.
    pub rms_on_table: Inches,
    /// The worst corner on the table.
    pub max_on_table: Inches,
    /// The camera's angle from straight down.
    pub tilt: Degrees,
    /// How many inches one pixel covers at the table's centre.
    pub inches_per_pixel: f64,
}

/// A camera calibrated against the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableCalibration {
    /// The tag family of the anchors (and, by default, of the units' tags).
    pub family: String,
    /// The playing area.
    pub table: TableSize,
    /// The camera.
    pub camera: Camera,
    /// Where the lens model came from.
    pub lens: LensSource,
    /// Figures of merit.
    pub quality: Quality,
    /// The anchors used, with their fit.
    pub anchors: Vec<AnchorFit>,
    /// Anchors seen but not trusted.
    #[serde(default)]
    pub rejected: Vec<RejectedAnchor>,
    /// Anchors of the layout that were not seen.
    #[serde(default)]
    pub missing: Vec<u32>,
    /// What the player should know (an assumed lens, no spare anchor …).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// How far from the truth this calibration puts stands (95 %, at the worst place on the
    /// table), when it measured the lens from the tags; files written before it have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promise: Option<Promise>,
    /// For a lens the anchors alone fitted (no bend measured): how far a webcam's bend the
    /// anchors could not show may put places off, one standard deviation, at the worst place
    /// (see [`crate::uncertainty`]); files written before it have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmeasured_lens: Option<Inches>,
    /// The lens fit's full figures, when this calibration measured the lens from tags (not
    /// saved: the file keeps the lens and its summary in `lens`).
    #[serde(skip)]
    pub lens_report: Option<LensReport>,
}

/// How a lens measured from tags was founded: kept in the calibration file, so that a later
/// fit can tell whether it does better.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TagLens {
    /// Pictures used.
    pub pictures: usize,
    /// Tag sightings used.
    pub tags: usize,
    /// How much of the lens was measured.
    pub model: LensModel,
    /// RMS corner error of the fit.
    pub rms: Pixels,
    /// The share of the table's part of the picture the tags covered, 0 to 1.
    pub coverage: f64,
    /// One standard deviation of where a tag is put, from the lens and pose alone.
    pub pinned: Inches,
    /// The relative standard deviation of a length up to 30" the fit leaves (see
    /// [`crate::lens::LensReport::length_sd`]); absent in files saved before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_sd: Option<f64>,
    /// How far the table as a whole may lie off where the anchors put it (see
    /// [`crate::lens::LensReport::frame_sd`]); absent in files saved before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_sd: Option<Inches>,
}

impl TagLens {
    pub(crate) fn of(report: &LensReport) -> TagLens {
        TagLens {
            pictures: report.pictures,
            tags: report.tags,
            model: report.model,
            rms: report.rms,
            coverage: report.coverage.fraction(),
            pinned: report.pinned,
            length_sd: Some(report.length_sd),
            frame_sd: Some(report.frame_sd),
        }
    }

    /// Whether this lens is at least as well founded as another: pinned down before not, then
    /// the more of the lens measured, then the more of the picture covered.
    pub(crate) fn at_least(&self, other: &TagLens) -> bool {
        let pinned_down = |lens: &TagLens| FitSettings::default().pins(lens.pinned);
        (pinned_down(self), self.model, self.coverage)
            >= (pinned_down(other), other.model, other.coverage - 0.02)
    }
}
