//! The lens measured from the tags on the table: a bundle adjustment over every tag of known
//! size in view, so that no calibration board is needed.
//!
//! The anchors fix the table's frame; every stand tag the roster lists adds its four corners,
//! with only its place and turn unknown. Spread over the picture, they pin down the lens's
//! distortion where four corner anchors alone cannot. See [`fit`] for the decisions.

mod bundle;
pub mod coverage;
pub mod fit;
pub mod model;
pub mod promise;
pub mod view;

pub use bundle::{as_detected, straight_edge_corners};
pub use coverage::{Coverage, ResidualMap};
pub use fit::{FitSettings, LensFit, LensFitError, LensReport, TagOutlier, fit_lens};
pub use model::{LensModel, LensParam};
pub use promise::Promise;
pub use view::{KnownTag, LensView, StandTag, Surface};
