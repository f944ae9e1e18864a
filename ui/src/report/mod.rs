//! A recorded game as a battle report, the kind a club posts after a game night: the game's
//! particulars, then turn by turn a plan of the table with each move drawn as an arrow, the
//! charges marked, what the rules said worth remembering, and the camera's picture.
//!
//! - `turns` — the game cut into turns, by its turn marks or into ten-minute sections.
//! - `gather` — each turn read from the record: its table, moves, charges, marks, picture.
//! - `notable` — a turn's contacts, charge reaches, ranges (capped), cases and notes.
//! - `plan` — a turn's plan as SVG; `palette` — its colours.
//! - `html` — one self-contained page; `pdf` — that page printed by chromium;
//!   `pages` — one picture a turn, drawn by resvg; `markup` — escaping and embedding.
//!
//! Everything is read from the record first ([`Report::gather`]); the formats only lay it out.

mod gather;
mod html;
mod markup;
mod notable;
mod pages;
mod palette;
mod pdf;
mod plan;
mod turns;

use std::path::{Path, PathBuf};

use record::{GameInfo, GameRecord, GameTime, RecordError, RecordedMove};
use rules::Scene;
use rules::units::Inches;

pub use notable::{CHARGE_REACH_SHOWN, IN_RANGE_SHOWN, Notable, Notables};
pub use turns::{Cutting, SECTION, Turn};

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

/// What a report wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// The files, in order.
    pub files: Vec<PathBuf>,
    /// How many turns (or sections) the game was cut into.
    pub turns: usize,
    /// How many moves it holds.
    pub moves: usize,
    /// How the game was cut.
    pub cutting: Cutting,
}

/// Write the report of `record` to `output`, in the format its extension asks for;
/// `progress` hears of each turn read (done, of).
pub fn write(
    record: &GameRecord,
    output: &Path,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Written, ReportError> {
    let format = Format::of(output)?;
    let mut laid_out = |lay: &dyn Fn(&Report) -> Result<Vec<PathBuf>, ReportError>| {
        let report = Report::gather(record, progress)?;
        Ok::<_, ReportError>(Written {
            files: lay(&report)?,
            turns: report.turns.len(),
            moves: report.moves,
            cutting: report.cutting,
        })
    };
    match format {
        Format::Html => laid_out(&|report| {
            save(output, html::page(report).as_bytes())?;
            Ok(vec![output.to_owned()])
        }),
        Format::Pdf => laid_out(&|report| {
            pdf::print(&html::page(report), output)?;
            Ok(vec![output.to_owned()])
        }),
        Format::Png => laid_out(&|report| {
            let mut files = Vec::with_capacity(report.turns.len());
            for turn in &report.turns {
                let path = pages::path_of(output, turn.number);
                save(&path, &pages::png(report, turn)?)?;
                files.push(path);
            }
            Ok(files)
        }),
        Format::Txt => {
            let text = record::notation::write(record)?;
            save(output, text.as_bytes())?;
            let (cutting, turns) = turns::cut(record);
            Ok(Written {
                files: vec![output.to_owned()],
                turns: turns.len(),
                moves: record.moves().len(),
                cutting,
            })
        }
    }
}

/// Write a file (and the folder it goes in), naming it if that fails.
fn save(path: &Path, bytes: &[u8]) -> Result<(), ReportError> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    folder
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(path, bytes))
        .map_err(|why| ReportError::Write {
            path: path.to_owned(),
            why,
        })
}
