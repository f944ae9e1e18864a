//! A table shared from the app (its Share button): what the app shows of the server, and how
//! the command line lets it start one.

use live::orders::{Desk, Seat};
use live::pipeline::States;

use super::ServeError;

/// The links to a served table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Links {
    /// For players and spectators: shows the table.
    pub viewer: String,
    /// For the umpire: also freezes, marks turns and saves cases.
    pub umpire: String,
}

/// A table being served while the app runs: dropping it stops the serving.
pub trait Served {
    /// The links to the table.
    fn links(&self) -> &Links;
    /// Pages connected now.
    fn viewers(&self) -> usize;
    /// Each remote seat's link (none when no broker reaches remote players).
    fn remote_links(&self) -> &[(Seat, String)];
    /// Whether the broker for remote players is reached now, and how many remote pages are
    /// there (`None` without one).
    fn remote(&self) -> Option<(bool, usize)>;
}

/// Starts serving a table's states on a port (0: any free one), with the app's desk of remote
/// players' pointers and orders: given to the app by the command line, which knows the server,
/// so that the app never reaches into it.
pub type Starter = Box<dyn Fn(u16, States, Desk) -> Result<Box<dyn Served>, ServeError>>;
