//! `vedette report GAME -o report.html`: a recorded game as a battle report.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use indicatif::ProgressBar;

use super::Cutting;

/// Turns read before a progress bar is worth showing: a short game is done before it would
/// be seen.
const PROGRESS_FROM: usize = 8;

/// Write a battle report of a recorded game.
#[derive(Debug, clap::Args)]
pub struct ReportCommand {
    /// The game: its record (`.sqlite`, from the games folder or `--record`) or its notation.
    pub game: PathBuf,
    /// The report to write: `.html` (one page), `.pdf`, `.png` (one picture per turn:
    /// `report-1.png`, `report-2.png` …) or `.txt` (the game's notation, one line per move,
    /// which `vedette replay` reads back).
    #[arg(short, long)]
    pub output: PathBuf,
}

impl ReportCommand {
    /// Write the report.
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        // Refused before the record is read: a wrong name is a typo, not a long wait.
        super::Format::of(&self.output)?;
        let record = record::open_game(&self.game)
            .with_context(|| format!("reading the game {}", self.game.display()))?;
        let mut bar: Option<ProgressBar> = None;
        let written = super::write(&record, &self.output, &mut |done, of| {
            if of >= PROGRESS_FROM {
                bar.get_or_insert_with(|| crate::progress::progress(of, "reading turns"))
                    .set_position(done as u64);
            }
        })
        .with_context(|| format!("writing the report {}", self.output.display()))?;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let turns = match (written.cutting, written.turns) {
            (Cutting::ByTurns, 1) => "1 turn".to_owned(),
            (Cutting::ByTurns, n) => format!("{n} turns"),
            (Cutting::ByTime, 1) => "1 ten-minute section (no turns were marked)".to_owned(),
            (Cutting::ByTime, n) => format!("{n} ten-minute sections (no turns were marked)"),
        };
        let moves = match written.moves {
            1 => "1 move".to_owned(),
            n => format!("{n} moves"),
        };
        writeln!(out, "{}: {turns}, {moves}", self.game.display())?;
        for file in &written.files {
            writeln!(out, "wrote {}", file.display())?;
        }
        Ok(())
    }
}
