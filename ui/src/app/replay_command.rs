//! `vedette replay GAME`: a recorded game in the app.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;

use record::GameTime;

use live::replay::Replay;

/// Open a recorded game in the app.
#[derive(Debug, clap::Args)]
pub struct ReplayCommand {
    /// The game: its record (an `.sqlite` file from the games folder or `--record`) or its
    /// notation (`vedette report GAME -o game.txt`).
    pub game: PathBuf,
    /// Open at this moment (h:mm:ss, mm:ss or seconds) instead of the start.
    #[arg(long, value_name = "TIME", value_parser = game_time)]
    pub at: Option<GameTime>,
    /// Pin this moment beside it: the two plans side by side and the moves between checked.
    #[arg(long, value_name = "TIME", value_parser = game_time)]
    pub pin: Option<GameTime>,
}

fn game_time(text: &str) -> Result<GameTime, String> {
    GameTime::parse(text).ok_or_else(|| {
        format!("{text:?} is not a moment of a game: give h:mm:ss, mm:ss or seconds")
    })
}

impl ReplayCommand {
    /// Open the app on the game, once it is read (a file that is no game is named before any
    /// window opens).
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let record = record::open_game(&self.game)
            .with_context(|| format!("cannot replay {}", self.game.display()))?;
        writeln!(
            out,
            "{}: {} moves, {} bookmarks, {} long",
            self.game.display(),
            record.moves().len(),
            record.marks().len(),
            record.until()
        )?;
        for damage in record.damage() {
            writeln!(out, "  damaged, read as far as sound: {damage}")?;
        }
        let mut replay = Replay::new(record, false);
        if let Some(pin) = self.pin {
            replay.seek(pin);
            replay.pin(true);
        }
        let at = self.at.unwrap_or_else(|| replay.record().begins());
        super::run_replay(replay, at)
    }
}
