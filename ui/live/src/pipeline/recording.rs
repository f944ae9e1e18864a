//! The game recorded as the pipeline sees it: where it is kept, and each state handed to the
//! record on the ruling thread for the price of a few pointer copies (the record's own thread
//! does the writing, see the `record` crate).

use std::path::PathBuf;

use record::{Carriage, GameInfo, GameTime, Moment, Place, RecordedMove, Recorder};

use super::*;

/// Where the game is recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Recording {
    /// In the user's data folder, one file per game, named by its start and its table.
    #[default]
    Kept,
    /// In this file (which must not exist yet).
    File(PathBuf),
    /// Not at all.
    Off,
}

/// Start recording a game read from `source`, or say why it is not recorded.
pub fn start(recording: &Recording, source: &str) -> Result<Option<Recorder>, String> {
    let path = match recording {
        Recording::Off => return Ok(None),
        Recording::File(path) => path.clone(),
        Recording::Kept => {
            let folder = record::place::games_folder()
                .ok_or("the game is not recorded: no home folder to keep it in")?;
            let began = jiff::Zoned::now().strftime("%Y-%m-%d_%Hh%Mm%S").to_string();
            record::place::free_file(&folder, &began, source)
        }
    };
    let info = GameInfo {
        table: source.to_owned(),
        source: source.to_owned(),
        started_unix_ms: jiff::Timestamp::now().as_millisecond(),
        recorded_by: format!("vedette {}", env!("CARGO_PKG_VERSION")),
    };
    Recorder::create(&path, &info)
        .map(Some)
        .map_err(|e| format!("the game is not recorded: {e}"))
}

/// Hands each state to its record: the table, the rulings and the calibration (the record
/// keeps what changed), the moves made since the last state, and a picture when one is due.
#[derive(Default)]
pub struct Keeper {
    /// The newest move handed over, to know which are new.
    last_move: Option<Arc<MoveRecord>>,
    /// Moves handed over so far.
    moves_handed: usize,
}

impl Keeper {
    /// Hand `state` to its record, if it is recorded, with the table its rulings were made
    /// for (what the record keeps as the table, so that its rulings are the rulings of it).
    pub fn keep(&mut self, state: &TableState, ruled: Option<&Arc<Scene>>) {
        if let Some(recorder) = &state.recorder {
            self.keep_at(state, ruled, recorder.now());
        }
    }

    /// How many moves have been handed to the record.
    pub fn moves_handed(&self) -> usize {
        self.moves_handed
    }

    /// [`Keeper::keep`] at the game's moment `at` (a benchmark's game runs on its own clock).
    pub fn keep_at(&mut self, state: &TableState, ruled: Option<&Arc<Scene>>, at: GameTime) {
        let Some(recorder) = &state.recorder else {
            return;
        };
        let seen = self
            .last_move
            .as_ref()
            .and_then(|last| state.moves.iter().position(|m| Arc::ptr_eq(m, last)));
        let new = &state.moves[seen.map_or(0, |i| i + 1)..];
        let moves: Vec<RecordedMove> = new.iter().map(|m| recorded(m, at)).collect();
        self.moves_handed += moves.len();
        self.last_move = state.moves.last().cloned().or(self.last_move.take());
        let picture = match &state.frame {
            Some(frame) if recorder.wants_picture(at) => Some(picture(frame.clone())),
            _ => None,
        };
        recorder.observe(Moment {
            at,
            scene: ruled.cloned(),
            rulings: state.rulings.clone(),
            calibration: state.calibration.clone(),
            moves,
            picture,
        });
    }
}

/// A move as the record keeps it: it ended now (moves are reported as they end).
fn recorded(made: &MoveRecord, now: GameTime) -> RecordedMove {
    let event = &made.event;
    let took = event.ended.saturating_sub(event.started);
    let place = |p: &vision::moves::Placed| Place {
        leader: p.leader,
        facing: p.facing,
    };
    RecordedMove {
        unit: event.unit.clone(),
        name: made.name.clone(),
        from: place(&event.from),
        to: place(&event.to),
        path: event.path.0,
        started: GameTime::after(now.elapsed().saturating_sub(took)),
        ended: now,
        carriage: if event.unseen {
            Carriage::Unseen
        } else if event.lifted {
            Carriage::Carried
        } else {
            Carriage::Slid
        },
        check: made.summary(),
        verdict: made.verdict(),
    }
}

/// The frame as the record's picture, made on the record's thread.
fn picture(frame: Arc<crate::Picture>) -> record::Picture {
    Box::new(move || {
        let [width, height] = frame.size;
        let rgb = frame.rgb();
        image::RgbImage::from_raw(u32::try_from(width).ok()?, u32::try_from(height).ok()?, rgb)
    })
}
