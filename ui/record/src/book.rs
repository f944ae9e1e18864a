//! The writing of a record, on whatever thread owns it: each thing kept only when it changes,
//! in transactions the owner commits. [`crate::Recorder`] runs one on a thread of its own; a
//! game read back from its notation is written by one directly.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use calibration::TableCalibration;
use rules::Scene;
use rules::ruling::{Decision, Ruling, Topic};
use rules::rulings::Rulings;
use rules::scene::SceneDoc;
use rusqlite::{Connection, params};

use crate::{GameInfo, GameTime, Mark, MarkKind, RecordError, RecordedMove};

/// The kinds of piece a table is kept in.
pub(crate) const TABLE: &str = "table";
pub(crate) const UNIT: &str = "unit";
pub(crate) const COMMANDER: &str = "commander";

/// The table's own piece: the scene without its units and commanders, and their order (the
/// order the scene had them in, which its rulings follow).
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct TablePiece {
    pub scene: SceneDoc,
    pub units: Vec<String>,
    pub commanders: Vec<String>,
}

/// A record being written.
pub struct Book {
    connection: Connection,
    path: PathBuf,
    /// Each piece's document as last written.
    pieces: HashMap<(&'static str, String), String>,
    /// Each ruling's document and decision as last written.
    rulings: HashMap<String, (String, Decision)>,
    /// Whether rulings have been written yet: the first are the table as it stood, not events.
    ruled: bool,
    /// Units' and commanders' names, for the marks' words.
    names: HashMap<String, String>,
    calibration: Option<TableCalibration>,
    in_transaction: bool,
}

/// The game's key that says whether its writer is still at it: `true` from the first moment,
/// `false` once it closed the game and folded its log into the file.
pub const WRITING: &str = "writing";

impl Book {
    /// Start writing a new record on `connection` (made by [`crate::schema`]).
    pub fn start(
        connection: Connection,
        path: &Path,
        info: &GameInfo,
    ) -> Result<Book, RecordError> {
        let mut book = Book {
            connection,
            path: path.to_owned(),
            pieces: HashMap::new(),
            rulings: HashMap::new(),
            ruled: false,
            names: HashMap::new(),
            calibration: None,
            in_transaction: false,
        };
        book.begin()?;
        book.set("info", &serde_json::to_string(info).unwrap_or_default())?;
        book.set(WRITING, "true")?;
        book.commit(GameTime::START)?;
        // Into the file itself, so that the file alone is a record (its header, its tables)
        // and says it is being written while the rest of the game lies in its log.
        book.checkpoint()?;
        Ok(book)
    }

    /// Close the game: say it is written whole and fold the log into the file, so that the
    /// game is one file again.
    pub fn close(&mut self, until: GameTime) -> Result<(), RecordError> {
        self.begin()?;
        self.set(WRITING, "false")?;
        self.commit(until)?;
        self.checkpoint()
    }

    /// Fold the write-ahead log into the file and empty it.
    fn checkpoint(&self) -> Result<(), RecordError> {
        self.connection
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(|e| self.failed(e))
    }

    /// The record's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Hand the connection back (to read what was written).
    pub fn into_connection(self) -> Connection {
        self.connection
    }

    fn failed(&self, source: rusqlite::Error) -> RecordError {
        RecordError::Write {
            path: self.path.clone(),
            source,
        }
    }

    /// Begin a transaction, if none is open.
    pub fn begin(&mut self) -> Result<(), RecordError> {
        if !self.in_transaction {
            self.connection
                .execute_batch("BEGIN")
                .map_err(|e| self.failed(e))?;
            self.in_transaction = true;
        }
        Ok(())
    }

    /// Commit what was written, saying the record now holds the game up to `until`.
    pub fn commit(&mut self, until: GameTime) -> Result<(), RecordError> {
        self.begin()?;
        self.set("until", &until.millis().to_string())?;
        self.connection
            .execute_batch("COMMIT")
            .map_err(|e| self.failed(e))?;
        self.in_transaction = false;
        Ok(())
    }

    /// Give up the open transaction (a write failed): what it held is lost, and everything
    /// is written afresh at the next moment so that nothing is taken as kept that was not.
    pub fn rollback(&mut self) {
        if self.in_transaction {
            let _ = self.connection.execute_batch("ROLLBACK");
            self.in_transaction = false;
        }
        self.pieces.clear();
        self.rulings.clear();
        self.calibration = None;
    }

    fn set(&self, key: &str, value: &str) -> Result<(), RecordError> {
        self.connection
            .prepare_cached("INSERT OR REPLACE INTO game (key, value) VALUES (?1, ?2)")
            .and_then(|mut s| s.execute(params![key, value]))
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    /// The table at `at`: each piece that changed since the last is written.
    pub fn table(&mut self, at: GameTime, scene: &Scene) -> Result<(), RecordError> {
        self.table_doc(at, SceneDoc::from(scene))
    }

    /// The table at `at`, as a scene file has it.
    pub fn table_doc(&mut self, at: GameTime, doc: SceneDoc) -> Result<(), RecordError> {
        let mut now: Vec<((&'static str, String), String)> = Vec::new();
        for unit in &doc.units {
            let name = unit.name.clone().unwrap_or_else(|| unit.id.clone());
            self.names.insert(unit.id.clone(), name);
            now.push(((UNIT, unit.id.clone()), json(unit)));
        }
        for commander in &doc.commanders {
            let name = commander
                .name
                .clone()
                .unwrap_or_else(|| commander.id.clone());
            self.names.insert(commander.id.clone(), name);
            now.push(((COMMANDER, commander.id.clone()), json(commander)));
        }
        let table = TablePiece {
            units: doc.units.iter().map(|u| u.id.clone()).collect(),
            commanders: doc.commanders.iter().map(|c| c.id.clone()).collect(),
            scene: SceneDoc {
                units: Vec::new(),
                commanders: Vec::new(),
                ..doc
            },
        };
        now.push(((TABLE, String::new()), json(&table)));
        let present: HashSet<(&'static str, String)> = now.iter().map(|(k, _)| k.clone()).collect();
        let gone: Vec<(&'static str, String)> = self
            .pieces
            .keys()
            .filter(|k| !present.contains(*k))
            .cloned()
            .collect();
        for key in gone {
            self.pieces.remove(&key);
            self.piece(at, &key, None)?;
        }
        for (key, doc) in now {
            if self.pieces.get(&key) != Some(&doc) {
                self.piece(at, &key, Some(&doc))?;
                self.pieces.insert(key, doc);
            }
        }
        Ok(())
    }

    fn piece(
        &self,
        at: GameTime,
        (kind, id): &(&'static str, String),
        doc: Option<&str>,
    ) -> Result<(), RecordError> {
        self.connection
            .prepare_cached("INSERT INTO piece (at, kind, id, doc) VALUES (?1, ?2, ?3, ?4)")
            .and_then(|mut s| s.execute(params![at.column(), kind, id, doc]))
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    /// The rulings at `at`: each that changed is written, and the moments worth a bookmark
    /// (contact made, an enemy come into range or charge reach) are marked and returned.
    pub fn rulings(&mut self, at: GameTime, rulings: &Rulings) -> Result<Vec<Mark>, RecordError> {
        let now = keyed(rulings);
        let mut marks = Vec::new();
        let mut contacts = HashSet::new();
        let gone: Vec<String> = self
            .rulings
            .keys()
            .filter(|k| !now.contains_key(*k))
            .cloned()
            .collect();
        for key in gone {
            self.rulings.remove(&key);
            self.ruling_row(at, &key, None)?;
        }
        for (key, (ruling, doc)) in now {
            let before = self.rulings.get(&key).map(|(_, d)| *d);
            if self.rulings.get(&key).map(|(d, _)| d) == Some(&doc) {
                continue;
            }
            self.ruling_row(at, &key, Some(&doc))?;
            if self.ruled
                && let Some(mark) = self.bookmark(at, ruling, before, &mut contacts)
            {
                marks.push(mark);
            }
            self.rulings.insert(key, (doc, ruling.decision));
        }
        self.ruled = true;
        for mark in &marks {
            self.mark(mark)?;
        }
        Ok(marks)
    }

    fn ruling_row(&self, at: GameTime, key: &str, doc: Option<&str>) -> Result<(), RecordError> {
        self.connection
            .prepare_cached("INSERT INTO ruling (at, key, doc) VALUES (?1, ?2, ?3)")
            .and_then(|mut s| s.execute(params![at.column(), key, doc]))
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    /// A ruling that became worth a bookmark: what it now says was not so before.
    fn bookmark(
        &self,
        at: GameTime,
        ruling: &Ruling,
        before: Option<Decision>,
        contacts: &mut HashSet<(String, String)>,
    ) -> Option<Mark> {
        let other = ruling.other.clone()?;
        let name = |id: &str| self.names.get(id).cloned().unwrap_or_else(|| id.to_owned());
        let (unit, them) = (name(&ruling.unit), name(&other));
        let was = |yes: &[Decision]| before.is_some_and(|b| yes.contains(&b));
        let (kind, label) = match (ruling.topic, ruling.decision) {
            (Topic::Contact, Decision::Yes) if !was(&[Decision::Yes]) => {
                let pair = if ruling.unit < other {
                    (ruling.unit.clone(), other.clone())
                } else {
                    (other.clone(), ruling.unit.clone())
                };
                if !contacts.insert(pair) {
                    return None;
                }
                (MarkKind::Contact, format!("{unit} in contact with {them}"))
            }
            (Topic::Shooting, Decision::Must | Decision::May)
                if !was(&[Decision::Must, Decision::May]) =>
            {
                (
                    MarkKind::InRange,
                    format!("{them} in {unit}'s range and arc"),
                )
            }
            (Topic::Charge, Decision::May) if !was(&[Decision::May]) => (
                MarkKind::ChargeReach,
                format!("{them} within {unit}'s charge reach"),
            ),
            _ => return None,
        };
        Some(Mark {
            at,
            kind,
            label,
            units: vec![ruling.unit.clone(), other],
            case: None,
        })
    }

    /// The calibration in force from `at`, if it changed.
    pub fn calibration(
        &mut self,
        at: GameTime,
        calibration: &TableCalibration,
    ) -> Result<(), RecordError> {
        // Handed over every frame: compared as it is, serialized only when it changed.
        if self.calibration.as_ref() == Some(calibration) {
            return Ok(());
        }
        self.connection
            .prepare_cached("INSERT INTO calibration (at, doc) VALUES (?1, ?2)")
            .and_then(|mut s| s.execute(params![at.column(), json(calibration)]))
            .map_err(|e| self.failed(e))?;
        self.calibration = Some(calibration.clone());
        Ok(())
    }

    /// A move, at the moment it ended.
    pub fn moved(&mut self, made: &RecordedMove) -> Result<(), RecordError> {
        self.connection
            .prepare_cached("INSERT INTO move (at, unit, doc) VALUES (?1, ?2, ?3)")
            .and_then(|mut s| s.execute(params![made.ended.column(), made.unit, json(made)]))
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    /// A marked moment.
    pub fn mark(&mut self, mark: &Mark) -> Result<(), RecordError> {
        self.connection
            .prepare_cached("INSERT INTO mark (at, kind, doc) VALUES (?1, ?2, ?3)")
            .and_then(|mut s| s.execute(params![mark.at.column(), mark.kind.as_str(), json(mark)]))
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    /// A camera picture, as JPEG.
    pub fn keyframe(&mut self, at: GameTime, why: &str, jpeg: &[u8]) -> Result<(), RecordError> {
        self.connection
            .prepare_cached("INSERT INTO keyframe (at, why, jpeg) VALUES (?1, ?2, ?3)")
            .and_then(|mut s| s.execute(params![at.column(), why, jpeg]))
            .map(drop)
            .map_err(|e| self.failed(e))
    }
}

/// A value as the record keeps it. Serializing the record's own types cannot fail; a value
/// that somehow does is kept as `null` rather than losing the row.
fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

/// The rulings of a table as [`crate::GameRecord::rulings_at`] reads them back: by key, as
/// JSON values (to compare a moment's recorded rulings with the table's fresh ones).
pub fn rulings_as_read(rulings: &Rulings) -> BTreeMap<String, serde_json::Value> {
    keyed(rulings)
        .into_iter()
        .filter_map(|(key, (_, json))| Some((key, serde_json::from_str(&json).ok()?)))
        .collect()
}

/// Every ruling of a table by its key — topic, unit, other and its place among rulings with
/// the same three — with its JSON in the ruleset's unit.
pub fn keyed(rulings: &Rulings) -> BTreeMap<String, (&Ruling, String)> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let all = rulings
        .general
        .iter()
        .chain(rulings.units.iter().flat_map(|u| &u.rulings));
    rules::units::written_in(rulings.lengths, || {
        all.map(|ruling| {
            let about = format!(
                "{:?}|{}|{}",
                ruling.topic,
                ruling.unit,
                ruling.other.as_deref().unwrap_or("")
            );
            let count = seen.entry(about.clone()).or_default();
            *count += 1;
            let key = format!("{about}|{count}");
            (key, (ruling, json(ruling)))
        })
        .collect()
    })
}
