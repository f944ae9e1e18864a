//! A recorded game as a battle report, the kind a club posts after a game night: the game's
//! particulars, then turn by turn a plan of the table with each move drawn as an arrow, the
//! charges marked, what the rules said worth remembering, and the camera's picture.
//!
//! - `model` — what a report holds, and why one could not be written.
//! - `turns` — the game cut into turns, by its turn marks or into ten-minute sections.
//! - `gather` — each turn read from the record: its table, moves, charges, marks, picture.
//! - `notable` — a turn's contacts, charge reaches, ranges (capped), cases and notes.
//! - `plan` — a turn's plan as SVG; `palette` — its colours.
//! - `html` — one self-contained page; `pdf` — that page printed by chromium;
//!   `pages` — one picture a turn, drawn by resvg; `markup` — escaping and embedding.
//!
//! Everything is read from the record first ([`Report::gather`]); the formats only lay it out.

pub mod command;
mod gather;
mod html;
mod markup;
mod model;
mod notable;
mod pages;
mod palette;
mod pdf;
mod plan;
mod turns;

use std::path::{Path, PathBuf};

use record::GameRecord;

pub use model::{Format, Picture, Report, ReportError, SideKey, TurnReport};
pub use notable::{CHARGE_REACH_SHOWN, IN_RANGE_SHOWN, Notable, Notables};
pub use turns::{Cutting, SECTION, Turn};

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
