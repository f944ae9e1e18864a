//! What a record keeps besides the table: moves, marks on the timeline, the game's particulars.

use rules::geometry::TablePoint;
use rules::ruling::Verdict;
use rules::units::Degrees;
use serde::{Deserialize, Serialize};

use crate::GameTime;

/// Where a unit (or a commander) stood: its leader and its facing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Place {
    /// Its leader: the point its measurements start from.
    pub leader: TablePoint,
    /// Where it faces, degrees counter-clockwise from +x.
    pub facing: Degrees,
}

/// How a move was made, as the camera saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Carriage {
    /// Slid along the cloth.
    Slid,
    /// Lifted off the table on the way.
    Carried,
    /// Gone under a hand and found elsewhere.
    Unseen,
}

/// One move, made and finished.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedMove {
    /// The unit's (or commander's) id.
    pub unit: String,
    /// Its name, as the roster gives it.
    pub name: String,
    /// Where it lay before.
    pub from: Place,
    /// Where it lies now.
    pub to: Place,
    /// How far its furthest-going stand went, inches.
    pub path: f64,
    /// When it left.
    pub started: GameTime,
    /// When it came to rest: when the move is on the timeline.
    pub ended: GameTime,
    /// How it was made.
    pub carriage: Carriage,
    /// What `check-move` said of it against its allowance ("within its move", "2.1\" too
    /// far"), when there was a table before it to check it against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// The check's worst verdict, kept beside its words so that a replay marks the move as
    /// the game did; `None` for a move with no check, and in records made before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
}

impl RecordedMove {
    /// How far its leader went, in a straight line, inches.
    pub fn straight(&self) -> f64 {
        (self.to.leader - self.from.leader).norm()
    }
}

/// An umpire's case: the two units in dispute, the note, and what the rules said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// The units in dispute.
    pub units: [String; 2],
    /// The umpire's note.
    pub note: String,
    /// The rulings between them, in words.
    #[serde(default)]
    pub rulings: Vec<String>,
}

/// Why a moment is marked on the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarkKind {
    /// A turn began.
    Turn,
    /// An umpire's case was saved.
    Case,
    /// Two enemies came into contact (a charge made contact).
    Contact,
    /// A unit came within its range and arc of an enemy: it may (or must) shoot it.
    InRange,
    /// An enemy came within a unit's charge reach.
    ChargeReach,
    /// A note the players or the umpire wrote.
    Note,
    /// A player ordered a unit's move, or the unit was placed against its order (its words say
    /// which, and how well).
    Order,
}

impl MarkKind {
    /// How the kind is stored and written.
    pub fn as_str(self) -> &'static str {
        match self {
            MarkKind::Turn => "turn",
            MarkKind::Case => "case",
            MarkKind::Contact => "contact",
            MarkKind::InRange => "in-range",
            MarkKind::ChargeReach => "charge-reach",
            MarkKind::Note => "note",
            MarkKind::Order => "order",
        }
    }

    /// The kind a stored name names.
    pub fn parse(name: &str) -> Option<MarkKind> {
        [
            MarkKind::Turn,
            MarkKind::Case,
            MarkKind::Contact,
            MarkKind::InRange,
            MarkKind::ChargeReach,
            MarkKind::Note,
            MarkKind::Order,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }

    /// The kind's symbol in the timeline's lists and the report: one the app's fonts and
    /// DejaVu Sans (the report's pictures, the browser's fallback) both draw.
    pub fn symbol(self) -> &'static str {
        match self {
            MarkKind::Turn => "⚑",
            MarkKind::Case => "⚖",
            MarkKind::Contact => "⚔",
            MarkKind::InRange => "◎",
            MarkKind::ChargeReach => "♞",
            MarkKind::Note => "✏",
            MarkKind::Order => "→",
        }
    }
}

/// A marked moment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    /// When.
    pub at: GameTime,
    /// Why.
    pub kind: MarkKind,
    /// In words: "Turn 3", "1st Line in contact with 4e Ligne".
    pub label: String,
    /// The units it is about (none for a turn).
    #[serde(default)]
    pub units: Vec<String>,
    /// The case, for a case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<Case>,
}

/// The game's particulars, written when the record is made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameInfo {
    /// The table's name (its scenario's, or the one it was given).
    pub table: String,
    /// Where the frames came from: "webcam 0", "demo table", a file.
    pub source: String,
    /// When the record began, milliseconds since 1970 (UTC): the game's time 0.
    pub started_unix_ms: i64,
    /// The Vedette that recorded it.
    pub recorded_by: String,
}
