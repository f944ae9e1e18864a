//! # Vedette vision
//!
//! From camera frames to stands in table inches: frame sources (webcam, video file, image,
//! synthetic renderer), AprilTag detection, tag → stand pose through the calibration, and
//! tracking across frames. Its output is a `rules::scene::Scene`.

pub mod annotate;
pub mod detect;
pub mod error;
pub mod image_io;
pub mod locate;
pub mod roster;
pub mod source;
pub mod synthetic;
pub mod track;

pub use detect::{Detection, Detections, DetectorSettings, TagDetector};
pub use error::VisionError;
pub use image_io::{decode_image, encode_jpeg, image_size, read_gray, read_image, write_image};
pub use locate::{
    FrameTags, LocatedTag, TagPose, TagProblem, TagRole, build_scene, locate_tags, tag_pose,
};
/// OpenCV's image type, the frames' pixels.
pub use opencv::core::Mat;
pub use roster::{Roster, TagMount, TagOwner};
pub use source::{Frame, FrameSource, SourceError};
pub use track::{MoveLog, Movement, Sighting, TrackedTag, Tracker, TrackerSettings};
