//! Reading a record back: its timeline whole, and the table, rulings, calibration and picture
//! of any moment. A damaged record is read as far as it is sound, and says where it is not.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use calibration::TableCalibration;
use rules::Scene;
use rules::scene::{CommanderDoc, SceneDoc, UnitDoc};
use rusqlite::{Connection, Row, params};
use serde::de::DeserializeOwned;

use crate::book::{COMMANDER, TABLE, TablePiece, UNIT, WRITING};
use crate::{GameInfo, GameTime, Mark, RecordError, RecordedMove, schema};

/// A camera picture kept in the record.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyframe {
    /// When it was taken.
    pub at: GameTime,
    /// Why it was kept: "Turn 3", "every 30 s".
    pub why: String,
    /// The picture, JPEG.
    pub jpeg: Vec<u8>,
}

/// A recorded game, open to read.
pub struct GameRecord {
    connection: Connection,
    path: PathBuf,
    info: GameInfo,
    until: GameTime,
    moves: Vec<RecordedMove>,
    marks: Vec<Mark>,
    keyframes: Vec<GameTime>,
    damage: Vec<String>,
    /// The file had no write-ahead log beside it when it was opened.
    log_missing: bool,
}

impl GameRecord {
    /// Open the record in `path`: refused by name if it is not a record or cannot be read at
    /// all; read as far as it is sound otherwise ([`GameRecord::damage`] says where not).
    pub fn open(path: &Path) -> Result<GameRecord, RecordError> {
        // Looked for before SQLite opens the file, which may make a log of its own.
        let log_missing = !schema::log_of(path).exists();
        GameRecord::read(schema::open(path)?, path, log_missing)
    }

    /// Read the record on a connection already open.
    /// `log_missing`: the file had no write-ahead log beside it.
    pub(crate) fn read(
        connection: Connection,
        path: &Path,
        log_missing: bool,
    ) -> Result<GameRecord, RecordError> {
        let mut record = GameRecord {
            connection,
            path: path.to_owned(),
            info: GameInfo {
                table: String::new(),
                source: String::new(),
                started_unix_ms: 0,
                recorded_by: String::new(),
            },
            until: GameTime::START,
            moves: Vec::new(),
            marks: Vec::new(),
            keyframes: Vec::new(),
            damage: Vec::new(),
            log_missing,
        };
        record.info = record
            .setting("info")?
            .ok_or_else(|| record.damaged("its particulars are missing"))?;
        record.refresh();
        Ok(record)
    }

    /// Read the timeline again: a game still being recorded has gone on since.
    pub fn refresh(&mut self) {
        self.damage.clear();
        if self.log_missing && self.setting::<bool>(WRITING).ok().flatten() == Some(true) {
            self.damage.push(format!(
                "{} was not closed, and its log {} is not beside it: the game after its last \
                 checkpoint is missing (copy the two files together, or stop the game before \
                 copying its record)",
                self.path.display(),
                schema::log_of(&self.path).display()
            ));
        }
        self.until = match self.setting::<u64>("until") {
            Ok(Some(millis)) => GameTime::from_millis(millis),
            Ok(None) => GameTime::START,
            Err(e) => {
                self.damage.push(e.to_string());
                GameTime::START
            }
        };
        self.moves = self.rows(
            "move",
            "SELECT rowid, doc FROM move ORDER BY at, rowid",
            |r| doc(r, 1),
        );
        self.marks = self.rows(
            "mark",
            "SELECT rowid, doc FROM mark ORDER BY at, rowid",
            |r| doc(r, 1),
        );
        self.keyframes = self.rows(
            "keyframe",
            "SELECT rowid, at FROM keyframe ORDER BY at",
            |r| {
                r.get::<_, i64>(1)
                    .map(GameTime::from_column)
                    .map_err(|e| e.to_string())
            },
        );
        // A record cut short still reaches as far as what it holds.
        let last = self
            .moves
            .iter()
            .map(|m| m.ended)
            .chain(self.marks.iter().map(|m| m.at));
        self.until = last
            .chain(self.keyframes.iter().copied())
            .fold(self.until, GameTime::max);
    }

    /// The first moment the camera saw the table, if it has yet.
    pub fn first_table(&self) -> Option<GameTime> {
        let sql = "SELECT min(at) FROM piece WHERE kind = ?1";
        let first = self
            .connection
            .query_row(sql, [TABLE], |r| r.get::<_, Option<i64>>(0));
        first.ok().flatten().map(GameTime::from_column)
    }

    /// Where a replay begins: the first moment the table was seen (the start without one).
    pub fn begins(&self) -> GameTime {
        self.first_table().unwrap_or(GameTime::START)
    }

    /// What each part of the record takes, bytes (its documents and pictures, not SQLite's
    /// own pages and indexes).
    pub fn bytes_by_part(&self) -> Vec<(&'static str, u64)> {
        let parts = [
            ("pictures", "SELECT sum(length(jpeg)) FROM keyframe"),
            ("rulings", "SELECT sum(length(doc)) FROM ruling"),
            ("the table's pieces", "SELECT sum(length(doc)) FROM piece"),
            ("moves", "SELECT sum(length(doc)) FROM move"),
            ("marks", "SELECT sum(length(doc)) FROM mark"),
            ("calibrations", "SELECT sum(length(doc)) FROM calibration"),
        ];
        parts
            .into_iter()
            .map(|(part, sql)| {
                let bytes = self
                    .connection
                    .query_row(sql, [], |r| r.get::<_, Option<i64>>(0));
                (
                    part,
                    bytes
                        .ok()
                        .flatten()
                        .and_then(|b| u64::try_from(b).ok())
                        .unwrap_or(0),
                )
            })
            .collect()
    }

    /// The record's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The game's particulars.
    pub fn info(&self) -> &GameInfo {
        &self.info
    }

    /// The moment the record reaches.
    pub fn until(&self) -> GameTime {
        self.until
    }

    /// Every move, in the order they ended.
    pub fn moves(&self) -> &[RecordedMove] {
        &self.moves
    }

    /// Every marked moment (turns, cases, contacts, units come into range), in order.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// When each kept picture was taken.
    pub fn keyframes(&self) -> &[GameTime] {
        &self.keyframes
    }

    /// Where the record is damaged: what could not be read, empty for a sound record.
    pub fn damage(&self) -> &[String] {
        &self.damage
    }

    fn damaged(&self, what: impl Into<String>) -> RecordError {
        RecordError::Damaged {
            path: self.path.clone(),
            what: what.into(),
        }
    }

    fn setting<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, RecordError> {
        let value: Option<String> = self
            .connection
            .query_row("SELECT value FROM game WHERE key = ?1", [key], |r| r.get(0))
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(self.damaged(format!("its {key}: {e}"))),
            })?;
        value
            .map(|v| serde_json::from_str(&v).map_err(|e| self.damaged(format!("its {key}: {e}"))))
            .transpose()
    }

    /// Every row a query gives, each read by `read`: a row that cannot be read is skipped and
    /// named; a table that cannot be read further ends there.
    fn rows<T>(
        &mut self,
        table: &str,
        sql: &str,
        read: impl Fn(&Row) -> Result<T, String>,
    ) -> Vec<T> {
        let mut kept = Vec::new();
        let mut damage = Vec::new();
        let result = self.connection.prepare(sql).and_then(|mut statement| {
            let mut rows = statement.query([])?;
            while let Some(row) = rows.next()? {
                match read(row) {
                    Ok(value) => kept.push(value),
                    Err(e) => {
                        let id: i64 = row.get(0).unwrap_or(-1);
                        damage.push(format!("{table} row {id}: {e}"));
                    }
                }
            }
            Ok(())
        });
        if let Err(e) = result {
            damage.push(format!("{table}: read up to its {}th row: {e}", kept.len()));
        }
        self.damage.extend(damage);
        kept
    }

    /// The table at `at`, as a scene file has it; `None` before the camera first saw it.
    pub fn scene_doc_at(&self, at: GameTime) -> Result<Option<SceneDoc>, RecordError> {
        let sql = "SELECT kind, id, doc, max(at) FROM piece WHERE at <= ?1 GROUP BY kind, id";
        let mut table: Option<TablePiece> = None;
        let mut units: HashMap<String, UnitDoc> = HashMap::new();
        let mut commanders: HashMap<String, CommanderDoc> = HashMap::new();
        let fail = |e: rusqlite::Error| self.damaged(format!("the table at {at}: {e}"));
        let mut statement = self.connection.prepare_cached(sql).map_err(fail)?;
        let mut rows = statement.query(params![at.column()]).map_err(fail)?;
        while let Some(row) = rows.next().map_err(fail)? {
            let (kind, id): (String, String) =
                (row.get(0).map_err(fail)?, row.get(1).map_err(fail)?);
            let Some(text) = row.get::<_, Option<String>>(2).map_err(fail)? else {
                continue;
            };
            let bad = |e: serde_json::Error| self.damaged(format!("{kind} {id:?} at {at}: {e}"));
            match kind.as_str() {
                TABLE => table = Some(serde_json::from_str(&text).map_err(bad)?),
                UNIT => drop(units.insert(id.clone(), serde_json::from_str(&text).map_err(bad)?)),
                COMMANDER => {
                    drop(commanders.insert(id.clone(), serde_json::from_str(&text).map_err(bad)?))
                }
                other => return Err(self.damaged(format!("a piece of unknown kind {other:?}"))),
            }
        }
        let Some(table) = table else {
            return Ok(None);
        };
        let mut doc = table.scene;
        doc.units = table
            .units
            .iter()
            .filter_map(|id| units.remove(id))
            .collect();
        doc.commanders = table
            .commanders
            .iter()
            .filter_map(|id| commanders.remove(id))
            .collect();
        Ok(Some(doc))
    }

    /// The table at `at`, checked as any scene is; `None` before the camera first saw it.
    pub fn scene_at(&self, at: GameTime) -> Result<Option<Scene>, RecordError> {
        let Some(doc) = self.scene_doc_at(at)? else {
            return Ok(None);
        };
        let source = format!("{} at {at}", self.path.display());
        Scene::from_doc(doc, &source)
            .map(Some)
            .map_err(|e| self.damaged(e.to_string()))
    }

    /// The rulings as they stood at `at`, by key (see [`crate::keyed`]), as JSON in the
    /// ruleset's unit.
    pub fn rulings_at(
        &self,
        at: GameTime,
    ) -> Result<BTreeMap<String, serde_json::Value>, RecordError> {
        let sql = "SELECT key, doc, max(at) FROM ruling WHERE at <= ?1 GROUP BY key";
        let fail = |e: rusqlite::Error| self.damaged(format!("the rulings at {at}: {e}"));
        let mut statement = self.connection.prepare_cached(sql).map_err(fail)?;
        let mut rows = statement.query(params![at.column()]).map_err(fail)?;
        let mut rulings = BTreeMap::new();
        while let Some(row) = rows.next().map_err(fail)? {
            let key: String = row.get(0).map_err(fail)?;
            if let Some(text) = row.get::<_, Option<String>>(1).map_err(fail)? {
                let value = serde_json::from_str(&text)
                    .map_err(|e| self.damaged(format!("ruling {key:?} at {at}: {e}")))?;
                rulings.insert(key, value);
            }
        }
        Ok(rulings)
    }

    /// The calibration in force at `at`.
    pub fn calibration_at(&self, at: GameTime) -> Result<Option<TableCalibration>, RecordError> {
        let sql = "SELECT doc FROM calibration WHERE at <= ?1 ORDER BY at DESC LIMIT 1";
        let text: Option<String> = self
            .connection
            .query_row(sql, params![at.column()], |r| r.get(0))
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(self.damaged(format!("the calibration at {at}: {e}"))),
            })?;
        text.map(|t| {
            serde_json::from_str(&t)
                .map_err(|e| self.damaged(format!("the calibration at {at}: {e}")))
        })
        .transpose()
    }

    /// The picture nearest `at`: the last kept at or before it, else the first after.
    pub fn keyframe_at(&self, at: GameTime) -> Result<Option<Keyframe>, RecordError> {
        let before = "SELECT at, why, jpeg FROM keyframe WHERE at <= ?1 ORDER BY at DESC LIMIT 1";
        let after = "SELECT at, why, jpeg FROM keyframe WHERE at > ?1 ORDER BY at LIMIT 1";
        for sql in [before, after] {
            let found = self.connection.query_row(sql, params![at.column()], |r| {
                Ok(Keyframe {
                    at: GameTime::from_column(r.get(0)?),
                    why: r.get(1)?,
                    jpeg: r.get(2)?,
                })
            });
            match found {
                Ok(keyframe) => return Ok(Some(keyframe)),
                Err(rusqlite::Error::QueryReturnedNoRows) => {}
                Err(e) => return Err(self.damaged(format!("the picture at {at}: {e}"))),
            }
        }
        Ok(None)
    }

    /// A unit's or commander's document at `at`, if it was on the table.
    pub(crate) fn piece_at(&self, kind: &str, id: &str, at: GameTime) -> Option<String> {
        let sql = "SELECT doc FROM piece WHERE kind = ?1 AND id = ?2 AND at <= ?3 ORDER BY at DESC LIMIT 1";
        self.connection
            .query_row(sql, params![kind, id, at.column()], |r| r.get(0))
            .ok()
            .flatten()
    }
}

fn doc<T: DeserializeOwned>(row: &Row, column: usize) -> Result<T, String> {
    let text: String = row.get(column).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}
