//! What the faces ask of the running pipeline, done on its thread between frames.

use roster::Roster;
use rules::RulesetId;

use super::setup::Setup;

/// What the UI asks of the pipeline.
#[derive(Debug)]
pub enum Command {
    /// Switch to another source and table files (no restart needed).
    Open(Setup),
    /// Make a new calibration from the anchors in the next frame.
    Recalibrate,
    /// Use this roster from the next frame (edited in the app: the table follows each edit).
    Roster(Box<Roster>),
    /// Rule by this ruleset (`None`: the roster's) from the next frame.
    Ruleset(Option<RulesetId>),
    /// With several cameras, show this one's picture (by its place in the list).
    ShowCamera(usize),
}
