//! # Vedette calibration
//!
//! Maps the camera's pixels to table inches: camera intrinsics and lens distortion, the table
//! plane from anchor tags of known position, and the correction for a tag's height above the
//! table. Calibrations are saved and loaded with serde as TOML.
//!
//! This crate sits between `vision` (which finds tags in pixels) and `rules` (which works in
//! table inches); it depends on `rules` only for the table's units and types. OpenCV does the
//! numerical work it is best at (homographies, PnP, `calibrateCamera`); the camera model itself
//! (projection, distortion, back-projection at a height) is written out in [`camera`] so that the
//! synthetic renderer and the pipeline share exactly one model.
//!
//! Decisions:
//! - Tag height is modelled, not ignored: a tag on a 4 mm base seen 40° from vertical sits
//!   3 mm (0.13") from where a table-plane homography would put it. Each tag is placed where its
//!   pixel ray crosses the plane at its own height ([`Camera::unproject_at`]).
//! - Consensus is over anchors, not corners (see [`solve`]).

pub mod anchors;
pub mod board;
mod calibrate;
pub mod camera;
mod cv;
pub mod drift;
mod error;
pub mod files;
pub mod from_tags;
pub mod learner;
pub mod lens;
pub mod pixels;
pub mod solve;
pub mod table;
pub mod tag;
pub mod uncertainty;

pub use anchors::{Anchor, AnchorKit, AnchorLayout, TableSize};
pub use board::{Board, BoardCalibration, calibrate_lens};
pub use calibrate::calibrate;
pub use camera::{Camera, CameraPose, Distortion, Intrinsics, TablePoint3};
pub use cv::CvError;
pub use drift::{AnchorCheck, check_anchors};
pub use error::CalibrationError;
pub use files::FileError;
pub use from_tags::{StandTagSpec, calibrate_from_tags, table_picture};
pub use learner::{LearnedTags, LensLearner};
pub use pixels::{ImageSize, PixelPoint, PixelVector, Pixels};
pub use solve::Settings;
pub use table::{LensSource, Quality, TableCalibration, TagLens};
pub use tag::{TagPlacement, TagSighting};
pub use uncertainty::CalibrationSd;

use std::path::Path;

impl TableCalibration {
    /// Save as TOML.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        files::write_toml(self, path)
    }

    /// Read a calibration file and check that it describes a usable camera.
    pub fn load(path: &Path) -> Result<TableCalibration, FileError> {
        let calibration: TableCalibration = files::read_toml(path)?;
        let lens = calibration.camera.intrinsics;
        let numbers = [
            lens.focal_x.0,
            lens.focal_y.0,
            lens.principal_point.x,
            lens.principal_point.y,
        ];
        let problem = if numbers.iter().any(|n| !n.is_finite())
            || lens.focal_x.0 <= 0.0
            || lens.focal_y.0 <= 0.0
        {
            Some("camera.intrinsics: focal lengths must be positive and every number finite")
        } else if lens.image_size.width == 0 || lens.image_size.height == 0 {
            Some("camera.intrinsics.image_size: width and height must be positive")
        } else if !calibration
            .camera
            .pose
            .translation
            .iter()
            .all(|t| t.is_finite())
        {
            Some("camera.pose: the translation must be finite")
        } else if calibration.camera.pose.eye().z <= 0.0 {
            Some("camera.pose: the camera must be above the table")
        } else {
            None
        };
        match problem {
            Some(message) => Err(FileError::Invalid {
                file: path.to_owned(),
                line: None,
                message: message.to_owned(),
            }),
            None => Ok(calibration),
        }
    }
}
