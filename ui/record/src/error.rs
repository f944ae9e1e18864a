//! What can go wrong with a record, each naming the file at fault.

use std::path::PathBuf;

/// A record that cannot be made, written or read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file cannot be opened or made at all.
    #[error("{path}: cannot open the game record: {source}")]
    Open {
        /// The record's file.
        path: PathBuf,
        /// SQLite's reason.
        source: rusqlite::Error,
    },
    /// The file is not a Vedette game record (another database, or not a database).
    #[error("{path}: not a Vedette game record ({why})")]
    NotARecord {
        /// The file.
        path: PathBuf,
        /// What was found instead.
        why: String,
    },
    /// The record was written by a newer Vedette.
    #[error(
        "{path}: written by a newer Vedette (record format {found}; this one reads up to {known})"
    )]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its format.
        found: i64,
        /// The newest this build reads.
        known: i64,
    },
    /// Part of the record cannot be read: the file is damaged (truncated, overwritten).
    #[error("{path}: damaged record: {what}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// Which part, and SQLite's or the reader's reason.
        what: String,
    },
    /// Writing failed (disk full, file removed).
    #[error("{path}: cannot write the game record: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// SQLite's reason.
        source: rusqlite::Error,
    },
    /// A notation file cannot be read back.
    #[error("{path}:{line}: {message}")]
    Notation {
        /// The notation file.
        path: PathBuf,
        /// Its line, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

impl RecordError {
    /// Whether the record's file itself is damaged (as opposed to missing or foreign).
    pub fn is_damage(&self) -> bool {
        matches!(self, RecordError::Damaged { .. })
    }
}
