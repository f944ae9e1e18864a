//! Why a calibration failed, naming the anchors, views or images at fault.

use crate::anchors::MIN_ANCHORS_SEEN;
use crate::cv::CvError;
use crate::lens::LensFitError;
use crate::pixels::ImageSize;

/// Why a table calibration failed.
#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    /// Too few anchors in view.
    #[error("{} of the {} anchors in view (tags {}); at least {MIN_ANCHORS_SEEN} are needed — missing: {}", seen.len(), layout, list(seen), list(missing))]
    TooFewAnchors {
        /// Anchor ids seen.
        seen: Vec<u32>,
        /// Anchor ids not seen.
        missing: Vec<u32>,
        /// How many the layout has.
        layout: usize,
    },
    /// The anchors seen do not agree on where the table is.
    #[error(
        "the anchors in view (tags {}) do not agree on where the table is: is one of them moved, or is the anchors file for another table?",
        list(seen)
    )]
    NoConsensus {
        /// Anchor ids seen.
        seen: Vec<u32>,
    },
    /// The numbers could not be solved.
    #[error("calibration could not be solved: {0}")]
    Solver(#[from] CvError),
    /// Too few views of the calibration board.
    #[error(
        "{usable} of the {given} images show enough of the board (at least {tags_per_view} tags); {needed} are needed, at different angles"
    )]
    TooFewBoardViews {
        /// Views with enough board tags.
        usable: usize,
        /// Views given.
        given: usize,
        /// The tags a view must show.
        tags_per_view: usize,
        /// The views needed.
        needed: usize,
    },
    /// The lens could not be fitted to the tags.
    #[error(transparent)]
    Lens(#[from] LensFitError),
    /// The image size does not match the lens given.
    #[error("the image is {image} but the lens was measured at {lens}")]
    SizeMismatch {
        /// This image.
        image: ImageSize,
        /// The lens's.
        lens: ImageSize,
    },
}

fn list(ids: &[u32]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    ids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
