//! Calibrating from one picture's anchors: the table as the anchors put it, and how far a lens
//! they alone measured may put places off.

use crate::anchors::AnchorLayout;
use crate::error::CalibrationError;
use crate::pixels::ImageSize;
use crate::solve::{Settings, solve};
use crate::table::{LensSource, TableCalibration};
use crate::tag::TagSighting;
use crate::uncertainty::unmeasured_lens;

/// Calibrate the camera against the table from the tags seen in one image.
pub fn calibrate(
    layout: &AnchorLayout,
    sightings: &[TagSighting],
    image_size: ImageSize,
    settings: &Settings,
) -> Result<TableCalibration, CalibrationError> {
    let mut found = solve(layout, sightings, image_size, settings)?;
    if matches!(found.lens, LensSource::Anchors | LensSource::Assumed) {
        found.unmeasured_lens = unmeasured_lens(&found, layout, settings);
    }
    Ok(found)
}
