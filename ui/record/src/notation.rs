//! The game as plain text, one line per move, as chess has PGN: to read, to post, to keep in a
//! repository, and to read back into a replay.
//!
//! ```text
//! # Vedette game notation 1
//! [Table "Waterloo, 1815"]
//! [Source "webcam 0"]
//! [Started 1795240810000]
//! [RecordedBy "vedette 0.1.0"]
//! 0:00:00.0 Setup = {…the table before the first move, as a scene file…}
//! 0:00:04.0 Turn "Turn 1"
//! 0:01:12.4 1. bde-1 "1st Line" 12.00,30.00@90.0 -> 18.00,30.00@90.0 path=6.02 how=carried left=0:01:10.2 check="within its move" = unit {…}
//! 0:05:00.0 Case "bde-1" "fr-3" "was the charge in the flank?"
//! 0:06:00.0 Note "rain stops play"
//! ```
//!
//! Decisions:
//! - A move line reads on its own (who, from where to where, how far, how it was made) and
//!   ends with the unit as it came to rest, exactly, as the scene file writes a unit: reading
//!   back needs nothing else, and a stand's formation change is not guessed.
//! - Free text is a JSON string, so any name or note survives its quotes.
//! - Reading back makes a record in memory: the rulings are ruled afresh, the marks for
//!   contacts and ranges found again. Pictures are not in the notation.

use std::fmt::Write as _;
use std::path::Path;

use rules::rulings::rulings;
use rules::scene::{CommanderDoc, SceneDoc, UnitDoc};
use rules::units::Degrees;
use serde::de::DeserializeOwned;

use crate::book::{Book, COMMANDER, UNIT};
use crate::{
    Carriage, Case, GameInfo, GameRecord, GameTime, Mark, MarkKind, Place, RecordError,
    RecordedMove, schema,
};

const HEADER: &str = "# Vedette game notation 1";

/// The notation of a recorded game.
pub fn write(record: &GameRecord) -> Result<String, RecordError> {
    let mut text = String::new();
    let info = record.info();
    let _ = writeln!(text, "{HEADER}");
    let _ = writeln!(text, "[Table {}]", quoted(&info.table));
    let _ = writeln!(text, "[Source {}]", quoted(&info.source));
    let _ = writeln!(text, "[Started {}]", info.started_unix_ms);
    let _ = writeln!(text, "[RecordedBy {}]", quoted(&info.recorded_by));
    let setup_at = record
        .moves()
        .first()
        .map(|m| m.started.millis().saturating_sub(1))
        .map_or(record.until(), GameTime::from_millis);
    if let Some(setup) = record.scene_doc_at(setup_at)? {
        let _ = writeln!(text, "{setup_at} Setup = {}", json(&setup));
    }
    let mut marks = record.marks().iter().filter(|m| written(m.kind)).peekable();
    for (number, made) in record.moves().iter().enumerate() {
        while let Some(mark) = marks.next_if(|m| m.at <= made.ended) {
            mark_line(&mut text, mark);
        }
        move_line(&mut text, record, number + 1, made);
    }
    for mark in marks {
        mark_line(&mut text, mark);
    }
    Ok(text)
}

/// The marks a player or umpire made; the others are found again from the rulings.
fn written(kind: MarkKind) -> bool {
    matches!(
        kind,
        MarkKind::Turn | MarkKind::Case | MarkKind::Note | MarkKind::Order
    )
}

fn mark_line(text: &mut String, mark: &Mark) {
    let at = mark.at;
    match (&mark.kind, &mark.case) {
        (MarkKind::Case, Some(case)) => {
            let [a, b] = &case.units;
            let _ = writeln!(
                text,
                "{at} Case {} {} {}",
                quoted(a),
                quoted(b),
                quoted(&case.note)
            );
        }
        (MarkKind::Turn, _) => {
            let _ = writeln!(text, "{at} Turn {}", quoted(&mark.label));
        }
        (MarkKind::Order, _) => {
            let unit = mark.units.first().map(String::as_str).unwrap_or_default();
            let _ = writeln!(text, "{at} Order {} {}", quoted(unit), quoted(&mark.label));
        }
        _ => {
            let _ = writeln!(text, "{at} Note {}", quoted(&mark.label));
        }
    }
}

fn move_line(text: &mut String, record: &GameRecord, number: usize, made: &RecordedMove) {
    let place = |p: &Place| format!("{:.2},{:.2}@{:.1}", p.leader.x, p.leader.y, p.facing.0);
    let how = match made.carriage {
        Carriage::Slid => "slid",
        Carriage::Carried => "carried",
        Carriage::Unseen => "unseen",
    };
    let _ = write!(
        text,
        "{} {number}. {} {} {} -> {} path={:.2} how={how} left={}",
        made.ended,
        made.unit,
        quoted(&made.name),
        place(&made.from),
        place(&made.to),
        made.path,
        made.started,
    );
    if let Some(check) = &made.check {
        let _ = write!(text, " check={}", quoted(check));
    }
    if let Some(verdict) = made.verdict {
        let _ = write!(text, " verdict={}", json(&verdict).trim_matches('"'));
    }
    for kind in [UNIT, COMMANDER] {
        if let Some(doc) = record.piece_at(kind, &made.unit, made.ended) {
            let _ = write!(text, " = {kind} {doc}");
            break;
        }
    }
    text.push('\n');
}

fn quoted(text: &str) -> String {
    json(&text)
}

fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

/// Read a game's notation back into a record in memory, ruled afresh.
pub fn read(path: &Path, text: &str) -> Result<GameRecord, RecordError> {
    let mut reader = Reader {
        path,
        line: 0,
        info: GameInfo {
            table: String::new(),
            source: String::new(),
            started_unix_ms: 0,
            recorded_by: String::new(),
        },
        table: None,
        book: None,
        until: GameTime::START,
    };
    for (index, line) in text.lines().enumerate() {
        reader.line = index + 1;
        let line = line.trim();
        if index == 0 && line != HEADER {
            return Err(reader.error(format!(
                "not a Vedette game notation (it begins {HEADER:?})"
            )));
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        reader.read_line(line)?;
    }
    reader.finish()
}

struct Reader<'a> {
    path: &'a Path,
    line: usize,
    info: GameInfo,
    table: Option<SceneDoc>,
    book: Option<Book>,
    until: GameTime,
}

impl Reader<'_> {
    fn error(&self, message: impl Into<String>) -> RecordError {
        RecordError::Notation {
            path: self.path.to_owned(),
            line: self.line,
            message: message.into(),
        }
    }

    fn read_line(&mut self, line: &str) -> Result<(), RecordError> {
        if let Some(tag) = line.strip_prefix('[') {
            return self.header(
                tag.strip_suffix(']')
                    .ok_or_else(|| self.error("a header line ends with ]"))?,
            );
        }
        let mut words = Words { rest: line };
        let at = words
            .word()
            .and_then(GameTime::parse)
            .ok_or_else(|| self.error("a line begins with its time, h:mm:ss.s"))?;
        self.until = self.until.max(at);
        let what = words
            .word()
            .ok_or_else(|| self.error("nothing after the time"))?;
        match what {
            "Setup" => {
                let doc = self.after_equals::<SceneDoc>(&mut words)?;
                self.table = Some(doc);
                self.rule(at)
            }
            "Turn" => {
                let label = self.text(&mut words)?;
                self.mark(Mark { at, kind: MarkKind::Turn, label, units: Vec::new(), case: None })
            }
            "Note" => {
                let label = self.text(&mut words)?;
                self.mark(Mark { at, kind: MarkKind::Note, label, units: Vec::new(), case: None })
            }
            "Order" => {
                let unit = self.text(&mut words)?;
                let label = self.text(&mut words)?;
                self.mark(Mark { at, kind: MarkKind::Order, label, units: vec![unit], case: None })
            }
            "Case" => {
                let units = [self.text(&mut words)?, self.text(&mut words)?];
                let note = self.text(&mut words)?;
                let label = format!("Case: {} and {}", units[0], units[1]);
                let case = Case { units: units.clone(), note, rulings: Vec::new() };
                self.mark(Mark { at, kind: MarkKind::Case, label, units: units.to_vec(), case: Some(case) })
            }
            number if number.ends_with('.') => self.moved(at, &mut words),
            other => Err(self.error(format!("{other:?} is not a line of the notation (Setup, Turn, Case, Note or a numbered move)"))),
        }
    }

    fn header(&mut self, tag: &str) -> Result<(), RecordError> {
        let (name, value) = tag
            .split_once(' ')
            .ok_or_else(|| self.error("a header is [Name value]"))?;
        let text = || {
            serde_json::from_str::<String>(value).map_err(|e| self.error(format!("[{name}]: {e}")))
        };
        match name {
            "Table" => self.info.table = text()?,
            "Source" => self.info.source = text()?,
            "RecordedBy" => self.info.recorded_by = text()?,
            "Started" => {
                self.info.started_unix_ms = value
                    .trim()
                    .parse()
                    .map_err(|_| self.error("[Started] is milliseconds since 1970"))?;
            }
            // Headers of later versions are skipped, as PGN readers skip unknown tags.
            _ => {}
        }
        Ok(())
    }

    fn book(&mut self) -> Result<&mut Book, RecordError> {
        if self.book.is_none() {
            let connection = schema::in_memory().map_err(|source| RecordError::Open {
                path: self.path.to_owned(),
                source,
            })?;
            self.book = Some(Book::start(connection, self.path, &self.info)?);
        }
        let error = self.error("no record");
        self.book.as_mut().ok_or(error)
    }

    fn rule(&mut self, at: GameTime) -> Result<(), RecordError> {
        let doc = self
            .table
            .clone()
            .ok_or_else(|| self.error("a move before the Setup line"))?;
        let source = format!("{}:{}", self.path.display(), self.line);
        let scene =
            rules::Scene::from_doc(doc.clone(), &source).map_err(|e| self.error(e.to_string()))?;
        let ruled = rulings(&scene);
        let book = self.book()?;
        book.table_doc(at, doc)?;
        book.rulings(at, &ruled)?;
        Ok(())
    }

    fn mark(&mut self, mark: Mark) -> Result<(), RecordError> {
        self.book()?.mark(&mark)
    }

    fn moved(&mut self, at: GameTime, words: &mut Words) -> Result<(), RecordError> {
        let unit = words
            .word()
            .ok_or_else(|| self.error("a move names its unit"))?
            .to_owned();
        let name = self.text(words)?;
        let from = self.place(words.word())?;
        if words.word() != Some("->") {
            return Err(self.error("a move is written FROM -> TO"));
        }
        let to = self.place(words.word())?;
        let mut made = RecordedMove {
            unit: unit.clone(),
            name,
            from,
            to,
            path: 0.0,
            started: at,
            ended: at,
            carriage: Carriage::Slid,
            check: None,
            verdict: None,
        };
        while let Some(word) = words.peek_word() {
            if word == "=" {
                break;
            }
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| self.error(format!("{word:?}: expected key=value")))?;
            words.skip(key.len() + 1);
            match key {
                "check" => made.check = Some(self.text(words)?),
                _ => {
                    let value = value.to_owned();
                    words.word();
                    self.detail(&mut made, key, &value)?;
                }
            }
        }
        let piece = if words.word() == Some("=") {
            words.word().map(str::to_owned)
        } else {
            None
        };
        match piece.as_deref() {
            Some(UNIT) => {
                let doc: UnitDoc = self.json(words.rest())?;
                let table = self
                    .table
                    .as_mut()
                    .ok_or_else(|| self_error(self.path, self.line))?;
                match table.units.iter_mut().find(|u| u.id == doc.id) {
                    Some(kept) => *kept = doc,
                    None => table.units.push(doc),
                }
            }
            Some(COMMANDER) => {
                let doc: CommanderDoc = self.json(words.rest())?;
                let table = self
                    .table
                    .as_mut()
                    .ok_or_else(|| self_error(self.path, self.line))?;
                match table.commanders.iter_mut().find(|c| c.id == doc.id) {
                    Some(kept) => *kept = doc,
                    None => table.commanders.push(doc),
                }
            }
            _ => {
                return Err(self.error(format!(
                    "the move of {unit} ends with = unit {{…}} or = commander {{…}}"
                )));
            }
        }
        self.rule(at)?;
        self.book()?.moved(&made)
    }

    fn detail(&self, made: &mut RecordedMove, key: &str, value: &str) -> Result<(), RecordError> {
        match key {
            "path" => {
                made.path = value
                    .parse()
                    .map_err(|_| self.error(format!("path={value}: not a number of inches")))?
            }
            "left" => {
                made.started = GameTime::parse(value)
                    .ok_or_else(|| self.error(format!("left={value}: not a time")))?
            }
            "how" => {
                made.carriage = match value {
                    "slid" => Carriage::Slid,
                    "carried" => Carriage::Carried,
                    "unseen" => Carriage::Unseen,
                    other => {
                        return Err(self.error(format!("how={other}: slid, carried or unseen")));
                    }
                }
            }
            "verdict" => {
                made.verdict = Some(
                    serde_json::from_value(serde_json::Value::String(value.to_owned())).map_err(
                        |_| {
                            self.error(format!(
                                "verdict={value}: yes, penalty, test, borderline or no"
                            ))
                        },
                    )?,
                )
            }
            // Details of later versions are skipped.
            _ => {}
        }
        Ok(())
    }

    fn place(&self, word: Option<&str>) -> Result<Place, RecordError> {
        let bad = || self.error(format!("{:?}: a place is x,y@facing", word.unwrap_or("")));
        let (xy, facing) = word.and_then(|w| w.split_once('@')).ok_or_else(bad)?;
        let (x, y) = xy.split_once(',').ok_or_else(bad)?;
        let number = |s: &str| s.parse::<f64>().ok().filter(|v| v.is_finite());
        Ok(Place {
            leader: rules::geometry::TablePoint::new(
                number(x).ok_or_else(bad)?,
                number(y).ok_or_else(bad)?,
            ),
            facing: Degrees(number(facing).ok_or_else(bad)?),
        })
    }

    fn text(&self, words: &mut Words) -> Result<String, RecordError> {
        words
            .quoted()
            .ok_or_else(|| self.error("expected a quoted text"))
    }

    fn after_equals<T: DeserializeOwned>(&self, words: &mut Words) -> Result<T, RecordError> {
        if words.word() != Some("=") {
            return Err(self.error("expected = and the document"));
        }
        self.json(words.rest())
    }

    fn json<T: DeserializeOwned>(&self, text: &str) -> Result<T, RecordError> {
        serde_json::from_str(text).map_err(|e| self.error(e.to_string()))
    }

    fn finish(mut self) -> Result<GameRecord, RecordError> {
        let until = self.until;
        let path = self.path.to_owned();
        let mut book = self
            .book
            .take()
            .ok_or_else(|| self.error("no Setup line: the notation holds no game"))?;
        book.close(until)?;
        GameRecord::read(book.into_connection(), &path, false)
    }
}

fn self_error(path: &Path, line: usize) -> RecordError {
    RecordError::Notation {
        path: path.to_owned(),
        line,
        message: "a move before the Setup line".into(),
    }
}

/// A line taken word by word; quoted words are JSON strings.
struct Words<'a> {
    rest: &'a str,
}

impl<'a> Words<'a> {
    fn peek_word(&self) -> Option<&'a str> {
        let rest = self.rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        (end > 0).then(|| &rest[..end])
    }

    fn word(&mut self) -> Option<&'a str> {
        let word = self.peek_word()?;
        self.rest = &self.rest.trim_start()[word.len()..];
        Some(word)
    }

    fn skip(&mut self, bytes: usize) {
        let rest = self.rest.trim_start();
        self.rest = rest.get(bytes..).unwrap_or("");
    }

    fn quoted(&mut self) -> Option<String> {
        let rest = self.rest.trim_start();
        if !rest.starts_with('"') {
            return None;
        }
        let mut escaped = false;
        let end = rest.char_indices().skip(1).find_map(|(i, c)| {
            let closes = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            closes.then_some(i)
        })?;
        let text = serde_json::from_str(&rest[..=end]).ok()?;
        self.rest = &rest[end + 1..];
        Some(text)
    }

    fn rest(&self) -> &'a str {
        self.rest.trim()
    }
}
