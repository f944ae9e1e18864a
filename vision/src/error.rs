//! What can go wrong between the camera and the scene.

use std::path::PathBuf;

/// An error of the camera half, naming the file, device or tag at fault.
#[derive(Debug, thiserror::Error)]
pub enum VisionError {
    /// An image file could not be read or decoded.
    #[error("{}: {reason}", file.display())]
    UnreadableImage {
        /// The file.
        file: PathBuf,
        /// Why.
        reason: String,
    },
    /// An image could not be written.
    #[error("{}: cannot write: {reason}", file.display())]
    UnwritableImage {
        /// The file.
        file: PathBuf,
        /// Why.
        reason: String,
    },
    /// A picture too small to hold a tag, or too large to work on.
    #[error("a {size} picture {why}")]
    PictureSize {
        /// Its size.
        size: calibration::ImageSize,
        /// What is wrong with it.
        why: String,
    },
    /// The image is unusable (empty, odd channel count …).
    #[error("image: {0}")]
    Image(String),
    /// The tag family is not one the detector knows.
    #[error(
        "unknown tag family {0:?}: use tag36h11 (the default), tag25h9, tag16h5, tagStandard41h12, tagStandard52h13, tagCircle21h7, tagCircle49h12 or tagCustom48h12"
    )]
    UnknownFamily(String),
    /// The detector could not be built.
    #[error("AprilTag detector: {0}")]
    Detector(String),
    /// OpenCV failed.
    #[error("OpenCV: {0}")]
    OpenCv(String),
}

impl From<opencv::Error> for VisionError {
    fn from(e: opencv::Error) -> VisionError {
        VisionError::OpenCv(e.message)
    }
}
