//! The full lens calibration: a printed grid of tags shown to the camera in several views.
//!
//! One view of the table's anchors measures a focal length at best; a board held at a few
//! angles measures the whole lens (focal lengths, principal point, distortion) with OpenCV's
//! `calibrateCamera`. The board is a plane of tags of known ids and spacing, so partly covered
//! or partly out-of-frame views still count.

use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use serde::{Deserialize, Serialize};

use crate::camera::{Intrinsics, TablePoint3};
use crate::cv::{self, Freedom};
use crate::pixels::{ImageSize, PixelPoint, Pixels};
use crate::solve::{CalibrationError, TYPICAL_FIELD_OF_VIEW};
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

/// Measure the lens from several views of the board (the tags seen in each image).
pub fn calibrate_lens(
    board: &Board,
    views: &[Vec<TagSighting>],
    image_size: ImageSize,
) -> Result<BoardCalibration, CalibrationError> {
    let usable: Vec<(Vec<TablePoint3>, Vec<PixelPoint>)> = views
        .iter()
        .map(|sightings| {
            let tags: Vec<(TagPlacement, &TagSighting)> = sightings
                .iter()
                .filter_map(|s| Some((board.placement(s.id)?, s)))
                .collect();
            let table = tags.iter().flat_map(|(p, _)| p.corners()).collect();
            let pixels = tags.iter().flat_map(|(_, s)| s.corners).collect();
            (table, pixels)
        })
        .filter(|(table, _): &(Vec<TablePoint3>, _)| table.len() >= 4 * MIN_TAGS_PER_VIEW)
        .collect();
    if usable.len() < MIN_VIEWS {
        return Err(CalibrationError::TooFewBoardViews {
            usable: usable.len(),
            given: views.len(),
        });
    }
    let guess = Intrinsics::from_field_of_view(image_size, TYPICAL_FIELD_OF_VIEW);
    let (intrinsics, _, rms) = cv::calibrate(&usable, &guess, Freedom::Full)?;
    Ok(BoardCalibration {
        intrinsics,
        views: usable.len(),
        rms,
    })
}
