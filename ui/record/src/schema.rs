//! The record's tables, and how its file is opened.
//!
//! Decisions:
//! - One SQLite file per game, in WAL mode: a reader (the replay, the web page looking back)
//!   reads while the game is written, and a killed process leaves a file that opens with every
//!   transaction it committed.
//! - `synchronous = NORMAL`: a commit is safe against the process dying (kill -9, a crash) the
//!   moment it returns; against a power cut, the last commits before it may be lost but the
//!   file stays whole. The writer commits every [`crate::recorder::COMMIT_EVERY`].
//! - Everything changing is kept only when it changes, as a row stamped with its moment: the
//!   table's pieces (the table, each unit, each commander) and each ruling as JSON. A moment's
//!   table is the newest row of each piece at or before it; a piece that left the table is a
//!   row without a document.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use crate::RecordError;

/// "VDGR": marks the file as a Vedette game record for `file(1)` and for [`check`].
pub const APPLICATION_ID: i64 = 0x5644_4752;
/// The record format this build writes and the newest it reads.
pub const FORMAT: i64 = 1;

const TABLES: &str = "
CREATE TABLE game (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE piece (at INTEGER NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, doc TEXT);
CREATE INDEX piece_by_id ON piece (kind, id, at);
CREATE TABLE ruling (at INTEGER NOT NULL, key TEXT NOT NULL, doc TEXT);
CREATE INDEX ruling_by_key ON ruling (key, at);
CREATE INDEX ruling_at ON ruling (at);
CREATE TABLE move (at INTEGER NOT NULL, unit TEXT NOT NULL, doc TEXT NOT NULL);
CREATE TABLE mark (at INTEGER NOT NULL, kind TEXT NOT NULL, doc TEXT NOT NULL);
CREATE TABLE calibration (at INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE keyframe (at INTEGER NOT NULL, why TEXT NOT NULL, jpeg BLOB NOT NULL);
CREATE INDEX keyframe_at ON keyframe (at);
";

/// Make a new record's file (refusing one that exists: a game is never written over).
pub fn create(path: &Path) -> Result<Connection, RecordError> {
    let open = |source| RecordError::Open {
        path: path.to_owned(),
        source,
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if path.exists() {
        return Err(RecordError::NotARecord {
            path: path.to_owned(),
            why: "the file exists already: a game is never written over".into(),
        });
    }
    let connection = Connection::open_with_flags(path, flags).map_err(open)?;
    initialise(&connection).map_err(open)?;
    Ok(connection)
}

/// Make a record in memory (a game read back from its notation).
pub fn in_memory() -> Result<Connection, rusqlite::Error> {
    let connection = Connection::open_in_memory()?;
    initialise(&connection)?;
    Ok(connection)
}

fn initialise(connection: &Connection) -> Result<(), rusqlite::Error> {
    connection.pragma_update(None, "journal_mode", "WAL")?;
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    connection.pragma_update(None, "application_id", APPLICATION_ID)?;
    connection.pragma_update(None, "user_version", FORMAT)?;
    connection.execute_batch(TABLES)
}

/// The write-ahead log beside a record: `game.sqlite-wal`, holding what was committed since
/// the last checkpoint. A game closed as it should be has folded it into the file.
pub fn log_of(path: &Path) -> std::path::PathBuf {
    let mut log = path.as_os_str().to_owned();
    log.push("-wal");
    log.into()
}

/// Open a record to read (never to write: a replay leaves the file as it found it).
pub fn open(path: &Path) -> Result<Connection, RecordError> {
    if !path.is_file() {
        return Err(RecordError::NotARecord {
            path: path.to_owned(),
            why: "no such file".into(),
        });
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection =
        Connection::open_with_flags(path, flags).map_err(|source| RecordError::Open {
            path: path.to_owned(),
            source,
        })?;
    check(&connection, path)?;
    Ok(connection)
}

/// Refuse what is not a record of a format this build reads.
fn check(connection: &Connection, path: &Path) -> Result<(), RecordError> {
    let pragma = |name: &str| connection.pragma_query_value(None, name, |row| row.get::<_, i64>(0));
    let not_a_record = |why: String| RecordError::NotARecord {
        path: path.to_owned(),
        why,
    };
    let id = pragma("application_id").map_err(|e| not_a_record(e.to_string()))?;
    if id != APPLICATION_ID {
        return Err(not_a_record(format!("application id {id:#x}")));
    }
    let found = pragma("user_version").map_err(|e| not_a_record(e.to_string()))?;
    if found > FORMAT {
        return Err(RecordError::Newer {
            path: path.to_owned(),
            found,
            known: FORMAT,
        });
    }
    Ok(())
}
