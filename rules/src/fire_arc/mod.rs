//! Where a unit may shoot: its fire arc (the ground ahead of its firing face, as the profile
//! shapes it) and the faces it fires from. Below `situation` and `measure`, which ask it, and
//! below `shooting`, which judges the shots.

mod arc;
mod face;
mod outline;

pub use arc::{face_arc, fire_arc};
pub use face::{FiringFace, firing_faces, one_front, side_word};
pub use outline::{arc_outline, arc_outline_from, reach_outline};
