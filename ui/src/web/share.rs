//! A table shared from the app (its Share button): what the app shows of the server, and how
//! the command line lets it start one.

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
}

/// Starts serving a table's states on a port (0: any free one): given to the app by the command
/// line, which knows the server, so that the app never reaches into it.
pub type Starter = Box<dyn Fn(u16, States) -> Result<Box<dyn Served>, ServeError>>;
