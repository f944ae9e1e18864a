//! The game remembered: every game recorded as it is played, in one SQLite file, and read
//! back at any moment — the table as it stood, the rulings as they were, the moves, the marks
//! on the timeline (turns, cases, contacts, enemies come into range) and the camera's pictures.
//!
//! No camera and no window here: the pipeline hands a [`Recorder`] each [`Moment`]; a
//! [`GameRecord`] reads one back; [`notation`] writes and reads a game as plain text.
//!
//! - `schema` — the file: its tables, WAL mode, what makes a file a record.
//! - `book` — writing: each piece of the table and each ruling only when it changes.
//! - `recorder` — recording on a thread of its own, committing four times a second.
//! - `reader` — reading any moment back; a damaged record read as far as it is sound.
//! - `notation` — one line per move, read back into a record.
//! - `place` — where games are kept.

mod book;
mod entry;
mod error;
pub mod notation;
pub mod place;
mod reader;
mod recorder;
mod schema;
mod time;

pub use book::{Book, keyed, rulings_as_read};
pub use entry::{Carriage, Case, GameInfo, Mark, MarkKind, Place, RecordedMove};
pub use error::RecordError;
pub use reader::{GameRecord, Keyframe};
pub use recorder::{COMMIT_EVERY, JPEG_QUALITY, KEYFRAME_EVERY, Moment, Picture, Recorder, jpeg};
pub use schema::log_of;
pub use time::GameTime;

/// Open a game: a record (an SQLite file) or its notation (plain text), told apart by what the
/// file begins with, not by its name.
pub fn open_game(path: &std::path::Path) -> Result<GameRecord, RecordError> {
    let mut start = [0u8; 16];
    let read = std::fs::File::open(path).and_then(|mut f| {
        use std::io::Read;
        f.read(&mut start)
    });
    match read {
        Ok(_) if start.starts_with(b"# Vedette") => {
            let text = std::fs::read_to_string(path).map_err(|e| RecordError::NotARecord {
                path: path.to_owned(),
                why: e.to_string(),
            })?;
            notation::read(path, &text)
        }
        _ => GameRecord::open(path),
    }
}
