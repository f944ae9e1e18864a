//! Where a unit may shoot: its fire arc (the ground ahead of its firing face, as the profile
//! shapes it) and the faces it fires from. Below `situation` and `measure`, which ask it, and
//! below `shooting`, which judges the shots.

mod arc;
mod face;

pub use arc::{arc_outline, arc_outline_from, face_arc, fire_arc, reach_outline};
pub use face::{FiringFace, firing_faces, one_front, side_word};
