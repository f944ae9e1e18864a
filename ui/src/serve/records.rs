//! The game's record as the server reads it for pages looking back: a few records kept open,
//! one reader at a time each, read again as the game goes on.

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use record::{GameRecord, GameTime};
use tokio::sync::Semaphore;

/// Records read at once: each reading takes a core while it lasts.
const READERS: usize = 2;

/// How stale the kept record's timeline may be: a game being played goes on meanwhile.
const REREAD_EVERY: Duration = Duration::from_secs(1);

/// The game's record as the server reads it for pages.
pub struct Records {
    /// The records open and not in use: one for each reader at most.
    kept: Mutex<Vec<Game>>,
    pub(super) readers: Semaphore,
}

impl Default for Records {
    fn default() -> Records {
        Records {
            kept: Mutex::new(Vec::new()),
            readers: Semaphore::new(READERS),
        }
    }
}

/// A record open to read, and what is known of it.
pub struct Game {
    pub(super) record: GameRecord,
    /// When its timeline was read.
    read: Instant,
    /// The first moment the record holds the table (before it the camera had not seen it).
    seen: Option<GameTime>,
}

impl Game {
    fn open(path: &Path) -> Result<Game, record::RecordError> {
        let started = Instant::now();
        let record = GameRecord::open(path)?;
        tracing::debug!("opened the game's record in {:?}", started.elapsed());
        Ok(Game {
            record,
            read: Instant::now(),
            seen: None,
        })
    }

    /// Its timeline read again if it may have gone on since (reading an evening's timeline
    /// takes a tenth of a second: a moment within it needs none).
    pub(super) fn fresh(&mut self) {
        if self.read.elapsed() >= REREAD_EVERY {
            let started = Instant::now();
            self.record.refresh();
            self.read = Instant::now();
            tracing::debug!("read the game's timeline again in {:?}", started.elapsed());
        }
    }

    /// Its timeline read again if `asked` is past what it reaches (the game went on since).
    pub(super) fn reaching(&mut self, asked: GameTime) {
        if asked > self.record.until() {
            self.fresh();
        }
    }

    /// The first moment the record holds the table, found once: the record only grows.
    pub(super) fn first_seen(&mut self) -> Option<GameTime> {
        if self.seen.is_none() {
            self.seen = self.record.first_table();
        }
        self.seen
    }

    /// The moment a page asked for, as the record can show it: no later than it reaches, no
    /// earlier than the table was first seen.
    pub(super) fn moment(&mut self, asked: GameTime) -> GameTime {
        self.reaching(asked);
        let at = asked.min(self.record.until());
        match self.first_seen() {
            Some(seen) => at.max(seen),
            None => at,
        }
    }
}

/// A plain sentence, as every refusal of the server is.
pub(super) fn sentence(status: StatusCode, text: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        text,
    )
        .into_response()
}

/// Why the record gives no answer: its status for pages over HTTP, and the sentence for every
/// page (remote ones are told it over the broker).
#[derive(Debug)]
pub struct Refused(pub StatusCode, pub String);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        sentence(self.0, self.1)
    }
}

/// The record could not be read: said so, the details logged.
pub(super) fn unreadable() -> Refused {
    Refused(StatusCode::SERVICE_UNAVAILABLE, UNREADABLE.into())
}

pub(super) const UNREADABLE: &str =
    "The game's record cannot be read just now; try again in a moment.\n";

impl Records {
    /// Run `work` on a kept record of `path` (opened if none is free), then keep it for the
    /// next request. Records of another game (the app's Share, opening another source) go.
    pub(super) fn with_game<T>(
        &self,
        path: &Path,
        work: impl FnOnce(&mut Game) -> Result<T, Refused>,
    ) -> Result<T, Refused> {
        let kept = self.kept.lock().ok().and_then(|mut kept| {
            kept.retain(|game| game.record.path() == path);
            kept.pop()
        });
        let mut game = match kept.map_or_else(|| Game::open(path), Ok) {
            Ok(game) => game,
            Err(e) => {
                tracing::warn!("cannot read the game's record for a page: {e}");
                return Err(unreadable());
            }
        };
        let answer = work(&mut game);
        if let Ok(mut kept) = self.kept.lock()
            && kept.len() < READERS
        {
            kept.push(game);
        }
        answer
    }
}
