//! # Vedette vision
//!
//! From camera frames to stands in table inches: frame sources (webcam, video file, image,
//! synthetic renderer), AprilTag detection, tag → stand pose through the calibration, and
//! tracking across frames. Its output is a `rules::scene::Scene`.
//!
//! Status: built by a later issue; the crate exists now so that the dependency direction
//! `ui → vision → calibration → rules` holds from the start.
