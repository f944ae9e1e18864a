//! # Vedette vision
//!
//! From camera frames to stands in table inches: frame sources (webcam, video file, image,
//! synthetic renderer), AprilTag detection, tag → stand pose through the calibration, and
//! tracking across frames. Its output is a `rules::scene::Scene`.
//!
//! The flow of one frame: a [`FrameSource`] delivers a BGR picture; [`TagDetector`] finds the
//! tags' corners in pixels; [`locate_tags`] places each tag on the table at its own height
//! through a `calibration::TableCalibration`, sorting out anchors, the roster's tags and
//! strangers; [`Tracker`] follows them across frames; [`build_scene`] turns the roster's tags into
//! a scene the rulings take.
//!
//! Decisions:
//! - Tags are decoded by the AprilTag C library (vendored, statically linked), not OpenCV 4.6's
//!   ArUco: it finds far more of the small, oblique tags a table camera sees ([`detect`]).
//! - The synthetic renderer ([`synthetic`]) is part of the crate, not of the tests: it is the
//!   ground truth of every test and benchmark and the app's demo table, and it shares the
//!   calibration's camera model, so it cannot drift from what the pipeline assumes.

pub mod annotate;
pub mod bearing;
pub mod detect;
pub mod error;
pub mod error_map;
pub mod fusion;
pub mod health;
pub mod image_io;
pub mod live;
pub mod locate;
pub mod moves;
pub mod partial;
pub mod pattern;
pub mod printables;
pub mod refine;
pub mod rig;
pub mod rise;
pub mod scatter;
pub mod sight;
pub mod source;
pub mod synthetic;
pub mod terrain;
pub mod track;
pub mod uncertainty;

pub use detect::{Detection, Detections, DetectorSettings, TagDetector};
pub use error::VisionError;
pub use error_map::ErrorMap;
pub use fusion::{Agreement, CameraTags, Conflict, FusedTag, FusedTags, fuse, fuse_agreeing};
pub use health::{Ailment, HealthWatch, Remedy, TagLook};
pub use image_io::{
    check_picture_size, copy_image, decode_image, encode_jpeg, from_rgba, image_size, read_gray,
    read_image, to_rgba, write_image,
};
pub use live::missing::MissingTagSearch;
pub use live::{LiveDetector, LiveSettings, follow_tag};
pub use locate::{
    FrameTags, LocatedTag, TagPose, TagProblem, TagRole, build_scene, locate_tags, locate_tags_on,
    scene_on_table, tag_pose, tag_pose_on,
};
pub use moves::{MoveEvent, MoveWatch, Placed, TableMotion, Travelling};
/// OpenCV's image type, the frames' pixels.
pub use opencv::core::Mat;
pub use sight::{SightMap, Unseen};
pub use source::{Frame, FrameSource, SourceError};
pub use track::{Observed, Replaced, Sighting, TrackedTag, Tracker, TrackerSettings, observations};
