//! The roster editor's state between frames (the Roster panel draws it): the file open, the
//! player's picks for tags the camera does not know, and what the last edit said.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use roster::{RosterDocument, TagOwner};

/// The editor's state between frames.
#[derive(Debug, Default)]
pub struct RosterEditor {
    /// The panel is showing.
    pub open: bool,
    /// The roster file being edited.
    pub document: Option<RosterDocument>,
    /// What the last edit or save said, when it failed.
    pub error: Option<String>,
    /// Learn tags: what the player has picked for each unknown tag so far.
    pub choice: HashMap<u32, TagOwner>,
    opened: Option<PathBuf>,
}

impl RosterEditor {
    /// Open `path` unless it is the file already open (the setup may change under the panel).
    pub fn follow(&mut self, path: &Path) {
        if self.opened.as_deref() == Some(path) {
            return;
        }
        self.opened = Some(path.to_owned());
        self.choice.clear();
        match RosterDocument::open(path) {
            Ok(doc) => {
                self.document = Some(doc);
                self.error = None;
            }
            Err(e) => {
                self.document = None;
                self.error = Some(e.to_string());
            }
        }
    }
}
