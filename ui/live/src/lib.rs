//! # Vedette's live table
//!
//! The table as it is played, with no window and no server: the sources and their capture,
//! the per-frame processor (tags → stands → the tracker → moves → rulings), the rig of several
//! cameras (remote ones over MQTT), the ruler, the [`TableState`] every face reads, the keeper
//! that hands each state to the game record, the replay of a recorded moment, the umpire's
//! cases and the demo table. The faces — the egui app, the web server, the hub, `vedette
//! camera`, the battle report, the subcommands — are built over it in `vedette-ui` and never
//! on one another; it runs headless and is tested headless.

pub mod capture;
pub mod lens;
pub mod look;
pub mod mqtt;
pub mod orders;
pub mod picture;
pub mod pipeline;
pub mod remote;
pub mod replay;
pub mod stopping;
pub mod token;
pub mod umpire;

pub use picture::Picture;
pub use pipeline::TableState;
pub use pipeline::demo;
pub use token::Token;
