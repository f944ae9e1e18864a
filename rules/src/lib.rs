//! # Vedette rules
//!
//! The pure rules core of Vedette: table geometry, the scene model, rulesets as profiles, and
//! the measurements and rulings that players and umpires ask for. No camera, no image, no UI:
//! everything here is in table inches and can be used on its own, from a scene file.
//!
//! Decisions, and why:
//! - **Quarters come from the footprint's oriented rectangle** with 45° corner rays (Black
//!   Powder digest §2.3, A1). A unit given as stands uses their bounding rectangle in its facing;
//!   distances are still measured to the stands themselves (A4).
//! - **Nothing borderline is decided silently.** Wherever a number is within the profile's
//!   tolerance of a threshold (0.5" or 3° by default), the answer carries that margin so the
//!   caller can say "borderline — players decide".
//! - **Rulesets are data.** A [`profile::Profile`] is read from TOML; the engine asks it for
//!   ranges, moves, arcs and quarter schemes and never branches on the ruleset's name.
//! - **Geometry queries come from parry2d** (distances, projections, convex clipping) on
//!   nalgebra points, and polygon validation from geo.

pub mod charge;
pub mod command;
pub mod fire_arc;
pub mod geometry;
pub mod ground;
pub mod measure;
pub mod movement;
pub mod order;
pub mod profile;
pub mod quarter;
pub mod reconstructed;
pub mod retire;
pub mod rulesets;
pub mod ruling;
pub mod rulings;
pub mod scene;
pub mod shooting;
pub mod situation;
pub mod support;
pub mod synthetic;
pub mod terrain;
pub(crate) mod text;
pub mod toml_numbers;
pub mod triggers;
pub mod uncertainty;
pub mod units;
pub mod visibility;
pub mod vocabulary;

pub use profile::Profile;
pub use quarter::Quarter;
pub use scene::Scene;
pub use units::{Degrees, Inches};
pub use vocabulary::RulesetId;
