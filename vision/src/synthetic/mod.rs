//! A synthetic table: tags at known poses, seen by a known camera.
//!
//! This is the ground truth of the camera half. Every test of detection, calibration, tag
//! height and tracking, the accuracy benchmark and the app's built-in demo table render their
//! frames here, with the same camera model the pipeline uses ([`calibration::Camera`]), so an
//! error measured is an error of the pipeline, never of a mismatched model.
//!
//! The world is a cloth (plain, or busy like a real table: see [`Scenery`]) with flat terrain patches and boxes on it (stands, movement trays,
//! anchor cards), each box optionally carrying printed tags on its top. Rendering is ray
//! casting with supersampling (box-filter antialiasing, so edges carry no bias), then the
//! camera's faults: blur, uneven light, sensor noise and JPEG.

mod battlefield;
mod colour;
mod coverage;
mod evening;
mod framing;
mod game;
mod landscape;
mod lenses;
mod miniatures;
mod noise;
mod print;
mod render;
mod renderings;
mod scenery;
mod staging;
mod world;

pub use crate::pattern::TagTexture;
pub use battlefield::{Battlefield, band};
pub use colour::Rgb;
pub use coverage::{CHI2_95_2D, Coverage, FARTHEST, Figures, TrueStand, Verdicts};
pub use evening::{Evening, EveningSettings, FrameTruth, Pose, TrueMove, UnitTruth, held_in_hand};
pub use framing::{
    framing_camera, framing_camera_for, framing_camera_from, framing_camera_over, rig_cameras,
};
pub use game::{GameSettings, MovingGame};
pub use landscape::{Ball, Landscape, Prism, Relief};
pub use lenses::LensClass;
pub use miniatures::MiniatureSettings;
pub use print::{Sheet, TEXT_SIZES};
pub use render::{Effects, Renderer};
pub use renderings::{ANCHORS_OFF, PRINTED_SCALE, Rendering};
pub use scenery::Scenery;
pub use world::{Block, BlockMotion, Glare, HandHold, Patch, PrintedTag, SyntheticTable};
