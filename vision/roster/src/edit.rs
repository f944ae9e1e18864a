//! Editing a roster file in place: the app's roster editor and its "learn tags" step change one
//! value at a time and the rest of the file — comments, order, layout — stays as the player
//! wrote it. Every change is checked by reading the edited text back as a roster, so an edit
//! that would make the file unreadable (a tag named twice, a stand of no size) is refused with
//! the same error `Roster::load` gives, and the file on disk is never left half-written.

use std::path::{Path, PathBuf};

use calibration::{FileError, files};
use toml_edit::{DocumentMut, value};

use crate::{Roster, TagOwner};

/// A value of a stand the editor can change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StandEdit {
    /// The tag on it.
    Tag(u32),
    /// Frontage, inches.
    Width(f64),
    /// Depth, inches.
    Depth(f64),
    /// Tag centre from the stand centre, inches: x to its right, y to its front.
    TagOffset(crate::TagOffset),
    /// The tag's top against the stand's front, degrees counter-clockwise.
    TagTurn(f64),
}

/// A roster file open for editing.
#[derive(Clone, Debug)]
pub struct RosterDocument {
    path: PathBuf,
    document: DocumentMut,
    roster: Roster,
    saved: bool,
}

impl RosterDocument {
    /// Open a roster file; it must already be a valid roster.
    pub fn open(path: &Path) -> Result<RosterDocument, FileError> {
        let text = files::read_text(path)?;
        let roster = Roster::parse(&text, path)?;
        let document = text.parse::<DocumentMut>().map_err(|e| FileError::Parse {
            file: path.to_owned(),
            line: files::line_of(&text, e.span().map_or(0, |s| s.start)),
            field: None,
            message: e.message().to_owned(),
        })?;
        Ok(RosterDocument {
            path: path.to_owned(),
            document,
            roster,
            saved: true,
        })
    }

    /// The roster as edited so far.
    pub fn roster(&self) -> &Roster {
        &self.roster
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether every edit is saved.
    pub fn is_saved(&self) -> bool {
        self.saved
    }

    /// Rename a unit (as people read it; its id stays, so scenes and cases still match).
    pub fn rename_unit(&mut self, unit: usize, name: &str) -> Result<(), FileError> {
        self.change(|doc| {
            let unit = doc
                .get_mut("units")?
                .as_array_of_tables_mut()?
                .get_mut(unit)?;
            unit["name"] = value(name);
            Some(())
        })
    }

    /// Change one value of a stand.
    pub fn edit_stand(
        &mut self,
        unit: usize,
        stand: usize,
        edit: StandEdit,
    ) -> Result<(), FileError> {
        self.change(|doc| {
            let stand = doc
                .get_mut("units")?
                .as_array_of_tables_mut()?
                .get_mut(unit)?
                .get_mut("stands")?
                .as_array_of_tables_mut()?
                .get_mut(stand)?;
            let (key, item) = match edit {
                StandEdit::Tag(tag) => ("tag", value(i64::from(tag))),
                StandEdit::Width(w) => ("width", value(w)),
                StandEdit::Depth(d) => ("depth", value(d)),
                StandEdit::TagOffset(offset) => {
                    let mut pair = toml_edit::Array::new();
                    pair.push(offset.right.0);
                    pair.push(offset.front.0);
                    ("tag_offset", value(pair))
                }
                StandEdit::TagTurn(t) => ("tag_turn", value(t)),
            };
            stand[key] = item;
            Some(())
        })
    }

    /// Put `tag` on a stand or a commander: the "learn tags" step, after the player has shown
    /// the tag to the camera and said what it is on.
    pub fn bind_tag(&mut self, tag: u32, owner: TagOwner) -> Result<(), FileError> {
        match owner {
            TagOwner::Stand { unit, stand } => self.edit_stand(unit, stand, StandEdit::Tag(tag)),
            TagOwner::Commander(index) => self.change(|doc| {
                let commander = doc
                    .get_mut("commanders")?
                    .as_array_of_tables_mut()?
                    .get_mut(index)?;
                commander["tag"] = value(i64::from(tag));
                Some(())
            }),
        }
    }

    /// Write the file, whole, through a temporary file beside it: a crash or a full disk leaves
    /// the old roster, never half of the new one.
    pub fn save(&mut self) -> Result<(), FileError> {
        let text = self.document.to_string();
        files::write_whole(&self.path, |temporary| std::fs::write(temporary, &text))?;
        self.saved = true;
        Ok(())
    }

    /// Apply an edit to the document and keep it only if the result is still a valid roster.
    fn change(
        &mut self,
        edit: impl FnOnce(&mut DocumentMut) -> Option<()>,
    ) -> Result<(), FileError> {
        let mut document = self.document.clone();
        edit(&mut document).ok_or_else(|| FileError::Invalid {
            file: self.path.clone(),
            line: None,
            message: "no such unit, stand or commander in the roster".into(),
        })?;
        let roster = Roster::parse(&document.to_string(), &self.path)?;
        self.document = document;
        self.roster = roster;
        self.saved = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROSTER: &str = r#"# The Light Division, as glued on a wet Sunday.
ruleset = "black-powder"

[[units]]
id = "45th-foot"
side = "red"
kind = "infantry"

[[units.stands]]
tag = 10   # the tray
width = 9.4
depth = 1.6

[[units]]
id = "95th-rifles"
side = "red"
kind = "infantry"

[[units.stands]]
tag = 11
width = 1.0
depth = 1.0
"#;

    fn roster_file(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("vedette-roster-edit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        std::fs::write(&path, ROSTER).expect("written");
        path
    }

    #[test]
    fn a_learnt_tag_is_written_and_everything_else_is_kept() {
        let path = roster_file("learn.toml");
        let mut doc = RosterDocument::open(&path).expect("opens");
        let owner = TagOwner::Stand { unit: 1, stand: 0 };
        doc.bind_tag(37, owner).expect("a free tag binds");
        doc.rename_unit(1, "95th Rifles").expect("renamed");
        assert!(!doc.is_saved());
        doc.save().expect("saved");
        let text = std::fs::read_to_string(&path).expect("read back");
        assert!(text.starts_with("# The Light Division, as glued on a wet Sunday."));
        assert!(text.contains("tag = 10   # the tray"), "{text}");
        let roster = Roster::load(&path).expect("still a roster");
        assert_eq!(roster.units[1].stands[0].tag, 37);
        assert_eq!(roster.units[1].name.as_deref(), Some("95th Rifles"));
        assert_eq!(roster.units[0].stands[0].tag, 10);
    }

    #[test]
    fn an_edit_that_breaks_the_roster_is_refused_and_nothing_changes() {
        let path = roster_file("refuse.toml");
        let mut doc = RosterDocument::open(&path).expect("opens");
        let err = doc
            .bind_tag(10, TagOwner::Stand { unit: 1, stand: 0 })
            .expect_err("tag 10 is on the 45th's tray already");
        let message = err.to_string();
        assert!(message.contains("refuse.toml"), "{message}");
        assert!(message.contains("10"), "{message}");
        assert_eq!(doc.roster().units[1].stands[0].tag, 11);
        assert!(doc.is_saved());
        let missing = doc.edit_stand(5, 0, StandEdit::Width(2.0));
        assert!(missing.is_err());
        let offset = StandEdit::TagOffset([0.0, -0.5].into());
        doc.edit_stand(0, 0, offset).expect("an offset");
        assert_eq!(
            doc.roster().units[0].stands[0].tag_offset,
            [0.0, -0.5].into()
        );
    }
}
