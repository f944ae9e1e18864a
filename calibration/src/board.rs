//! The full lens calibration: a printed grid of tags shown to the camera in several views.
//!
//! One view of the table's anchors measures a focal length at best; a board held at a few
//! angles measures the whole lens (focal length, principal point, distortion) with the bundle
//! adjustment of [`crate::lens`]. The board is a plane of tags of known ids and spacing, so partly covered
//! or partly out-of-frame views still count.

use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use serde::{Deserialize, Serialize};

use crate::camera::{CameraPose, Intrinsics};
use crate::error::CalibrationError;
use crate::lens::{FitSettings, KnownTag, LensView, Surface, fit_lens};
use crate::pixels::{ImageSize, Pixels};
use crate::solve::TYPICAL_FIELD_OF_VIEW;
use crate::tag::{TagPlacement, TagSighting};

/// Views needed for a lens calibration.
pub const MIN_VIEWS: usize = 3;
/// Board tags a view needs to count.
pub const MIN_TAGS_PER_VIEW: usize = 6;

/// A printed calibration board: `columns` × `rows` tags, ids increasing row by row from the
/// bottom-left, tops towards the board's top edge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Tag family.
    pub family: String,
    /// Tags across.
    pub columns: u32,
    /// Tags up.
    pub rows: u32,
    /// The id of the bottom-left tag.
    pub first_id: u32,
    /// The side of each tag's black square, inches.
    pub tag_size: f64,
    /// The gap between neighbouring tags' black squares, inches.
    pub gap: f64,
}

impl Default for Board {
    /// The board `vedette anchors` prints: 5 × 7 tags of 1.2" on A4 or Letter, ids 500–534
    /// (clear of anchors and units).
    fn default() -> Board {
        Board {
            family: "tag36h11".into(),
            columns: 5,
            rows: 7,
            first_id: 500,
            tag_size: 1.2,
            gap: 0.3,
        }
    }
}

impl Board {
    /// Where a tag of the board lies on the board's own plane, if it is one of the board's.
    pub fn placement(&self, id: u32) -> Option<TagPlacement> {
        let index = id.checked_sub(self.first_id)?;
        if index >= self.columns * self.rows {
            return None;
        }
        let pitch = self.tag_size + self.gap;
        let (column, row) = (index % self.columns, index / self.columns);
        Some(TagPlacement {
            center: TablePoint::new(
                (f64::from(column) + 0.5) * pitch,
                (f64::from(row) + 0.5) * pitch,
            ),
            facing: Degrees(90.0),
            size: Inches(self.tag_size),
            height: Inches::ZERO,
        })
    }

    /// All the board's tag ids.
    pub fn ids(&self) -> std::ops::Range<u32> {
        self.first_id..self.first_id + self.columns * self.rows
    }

    /// One picture's board tags, as the lens fit takes them.
    pub fn view(&self, sightings: &[TagSighting]) -> LensView {
        LensView {
            surface: Surface::Board,
            known: sightings
                .iter()
                .filter_map(|s| {
                    Some(KnownTag {
                        placement: self.placement(s.id)?,
                        sighting: *s,
                    })
                })
                .collect(),
            stands: Vec::new(),
        }
    }
}

/// A lens measured with the board.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardCalibration {
    /// The lens.
    pub intrinsics: Intrinsics,
    /// Views that counted.
    pub views: usize,
    /// RMS reprojection error over all views.
    pub rms: Pixels,
}

/// Measure the lens from several views of the board (the tags seen in each image), with the
/// same bundle adjustment that measures it from the table's tags ([`crate::lens`]).
pub fn calibrate_lens(
    board: &Board,
    views: &[Vec<TagSighting>],
    image_size: ImageSize,
) -> Result<BoardCalibration, CalibrationError> {
    let guess = Intrinsics::from_field_of_view(image_size, TYPICAL_FIELD_OF_VIEW);
    let (usable, poses): (Vec<LensView>, Vec<CameraPose>) = views
        .iter()
        .map(|sightings| board.view(sightings))
        .filter(|view| view.known.len() >= MIN_TAGS_PER_VIEW)
        .filter_map(|view| {
            let pose = view.initial_pose(&guess)?;
            Some((view, pose))
        })
        .unzip();
    if usable.len() < MIN_VIEWS {
        return Err(CalibrationError::TooFewBoardViews {
            usable: usable.len(),
            given: views.len(),
            tags_per_view: MIN_TAGS_PER_VIEW,
            needed: MIN_VIEWS,
        });
    }
    let fit = fit_lens(&usable, guess, &poses, &FitSettings::default())?;
    Ok(BoardCalibration {
        intrinsics: fit.intrinsics,
        views: usable.len(),
        rms: fit.report.rms,
    })
}
