//! What a battle report holds, read from the record before any format lays it out: the game's
//! particulars, its turns with their tables, moves, notables and pictures, and why a report
//! could not be written.

use std::path::{Path, PathBuf};

use record::{GameInfo, GameTime, RecordError, RecordedMove};
use rules::Scene;
use rules::units::Inches;

use super::notable::Notables;
use super::plan;
use super::turns::{self, Cutting, SECTION, Turn};

/// What can stop a report being written, naming the file or the program at fault.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The record cannot be read.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The output's name does not say which report to write.
    #[error(
        "{path}: a report is written as .html (one page), .png (one picture per turn), .pdf or .txt (the game's notation); give -o a name ending in one of them"
    )]
    UnknownFormat {
        /// The output asked for.
        path: PathBuf,
    },
    /// A file cannot be written.
    #[error("{path}: cannot write the report: {why}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        why: std::io::Error,
    },
    /// A turn's page cannot be drawn.
    #[error("{turn}: its page cannot be drawn: {why}")]
    Draw {
        /// The turn.
        turn: String,
        /// resvg's reason.
        why: String,
    },
    /// No chromium to print the PDF with.
    #[error(
        "printing a PDF needs chromium, and neither `chromium` nor `chromium-browser` is on the PATH: install it (Debian: apt-get install chromium), or write the report as .html and print it from a browser"
    )]
    NoChromium,
    /// Chromium ran but did not print.
    #[error("{path}: {program} did not print the report: {why}")]
    Print {
        /// The PDF asked for.
        path: PathBuf,
        /// The chromium run.
        program: PathBuf,
        /// What happened.
        why: String,
    },
}

/// The kinds of report, told by the output's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One self-contained page.
    Html,
    /// One picture per turn.
    Png,
    /// The page, printed.
    Pdf,
    /// The game's notation.
    Txt,
}

impl Format {
    /// The format an output's name asks for.
    pub fn of(path: &Path) -> Result<Format, ReportError> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("html" | "htm") => Ok(Format::Html),
            Some("png") => Ok(Format::Png),
            Some("pdf") => Ok(Format::Pdf),
            Some("txt") => Ok(Format::Txt),
            _ => Err(ReportError::UnknownFormat {
                path: path.to_owned(),
            }),
        }
    }
}

/// A recorded game, read for its report.
#[derive(Clone, Debug)]
pub struct Report {
    /// The game's particulars.
    pub info: GameInfo,
    /// How long the record runs.
    pub until: GameTime,
    /// How many moves were made.
    pub moves: usize,
    /// How the game was cut into turns.
    pub cutting: Cutting,
    /// Its turns.
    pub turns: Vec<TurnReport>,
    /// The ruleset's name, once the table was seen.
    pub ruleset: Option<String>,
    /// The scenario's name, when the table came from one.
    pub scenario: Option<String>,
    /// The armies, with their colours on the plans.
    pub sides: Vec<SideKey>,
    /// What of the record could not be read.
    pub damage: Vec<String>,
}

/// An army as the plans show it.
#[derive(Clone, Debug, PartialEq)]
pub struct SideKey {
    /// Its name.
    pub name: String,
    /// Its colour.
    pub fill: String,
    /// How many units it had on the table at the end.
    pub units: usize,
}

/// One turn, read.
#[derive(Clone, Debug)]
pub struct TurnReport {
    /// Its place in the report, from 1.
    pub number: usize,
    /// Its span of the game.
    pub turn: Turn,
    /// The table as the turn left it.
    pub scene: Option<Scene>,
    /// The moves made in it, each with whether it was a charge.
    pub moves: Vec<(RecordedMove, bool)>,
    /// What happened worth telling.
    pub notables: Notables,
    /// The camera's picture nearest its start.
    pub picture: Option<Picture>,
}

/// A camera picture, made small enough to embed.
#[derive(Clone, Debug)]
pub struct Picture {
    /// When it was taken.
    pub at: GameTime,
    /// JPEG.
    pub jpeg: Vec<u8>,
}

impl TurnReport {
    /// How many of its moves were charges.
    pub fn charges(&self) -> usize {
        self.moves.iter().filter(|(_, charge)| *charge).count()
    }

    /// Its moves as the plan draws them.
    fn plan_moves(&self) -> Vec<plan::PlanMove<'_>> {
        self.moves
            .iter()
            .map(|(made, charge)| plan::PlanMove {
                made,
                charge: *charge,
            })
            .collect()
    }

    /// Its plan as an `<svg class="plan">`.
    pub fn plan(&self, attributes: &str) -> String {
        plan::svg(
            self.scene.as_ref(),
            &self.plan_moves(),
            &format!("t{}", self.number),
            attributes,
        )
    }

    /// Width over height of its plan.
    pub fn plan_aspect(&self) -> f64 {
        plan::Extent::of(self.scene.as_ref(), &self.plan_moves()).aspect()
    }

    /// `0:12:04 – 0:19:40 · 5 moves, 1 charge`.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "{} – {} · {}",
            turns::clock(self.turn.from),
            turns::clock(self.turn.to),
            count(self.moves.len(), "move", "moves")
        );
        match self.charges() {
            0 => {}
            n => text.push_str(&format!(", {}", count(n, "charge", "charges"))),
        }
        text
    }

    /// A move's length in the ruleset's unit (inches without a table).
    pub fn length(&self, inches: f64) -> String {
        match &self.scene {
            Some(scene) => scene.profile().length(Inches(inches)).to_string(),
            None => format!("{inches:.1}\""),
        }
    }
}

impl Report {
    /// When the game was played, in the local time: `Tuesday 25 November 2026, 14:03`.
    pub fn date(&self) -> String {
        if self.info.started_unix_ms <= 0 {
            return "date unknown".into();
        }
        match jiff::Timestamp::from_millisecond(self.info.started_unix_ms) {
            Ok(at) => at
                .to_zoned(jiff::tz::TimeZone::system())
                .strftime("%A %-d %B %Y, %H:%M")
                .to_string(),
            Err(_) => "date unknown".into(),
        }
    }

    /// How long the game ran: `1 h 05 min`.
    pub fn duration(&self) -> String {
        turns::lasting(self.until.elapsed())
    }

    /// The report's title: the table's name, or the scenario's.
    pub fn title(&self) -> String {
        let table = self.info.table.trim();
        match (&self.scenario, table.is_empty()) {
            (Some(scenario), true) => scenario.clone(),
            (_, true) => "A game of Vedette".into(),
            (_, false) => table.to_owned(),
        }
    }

    /// `6 turns · 23 moves · 1 h 05 min`.
    pub fn facts(&self) -> String {
        let turns = match self.cutting {
            Cutting::ByTurns => count(self.turns.len(), "turn", "turns"),
            Cutting::ByTime => count(self.turns.len(), "section", "sections"),
        };
        format!(
            "{turns} · {} · {}",
            count(self.moves, "move", "moves"),
            self.duration()
        )
    }

    /// The note said when the game had no turn marks.
    pub fn cutting_note(&self) -> Option<String> {
        (self.cutting == Cutting::ByTime).then(|| {
            format!(
                "No turns were marked in this game: it is shown in sections of {} minutes.",
                SECTION.as_secs() / 60
            )
        })
    }
}

/// `1 move`, `3 moves`.
fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}
