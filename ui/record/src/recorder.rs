//! Recording a game as it is played: the pipeline hands over each moment for nothing more than
//! a few pointer copies; a thread of its own writes the record, committing every
//! [`COMMIT_EVERY`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use calibration::TableCalibration;
use rules::Scene;
use rules::rulings::Rulings;

use crate::book::Book;
use crate::{GameInfo, GameTime, Mark, RecordError, RecordedMove, schema};

/// How often the writer commits: a process killed mid-game loses at most this much of it
/// (and what it was still handed when it died).
pub const COMMIT_EVERY: Duration = Duration::from_millis(250);
/// How often a camera picture is kept besides those at turn marks and cases.
pub const KEYFRAME_EVERY: Duration = Duration::from_secs(30);
/// The JPEG quality of kept pictures: tags stay readable at 1080p, a frame takes 200–500 kB.
pub const JPEG_QUALITY: u8 = 80;

/// A camera picture to keep, made into pixels on the writer's thread (never the pipeline's).
pub type Picture = Box<dyn FnOnce() -> Option<image::RgbImage> + Send>;

/// What the table is at one moment: handed over each frame, kept only where it changed.
#[derive(Default)]
pub struct Moment {
    /// When.
    pub at: GameTime,
    /// The table as ruled (units where they rest).
    pub scene: Option<Arc<Scene>>,
    /// Its rulings.
    pub rulings: Option<Arc<Rulings>>,
    /// The calibration in force.
    pub calibration: Option<TableCalibration>,
    /// Moves finished since the last moment.
    pub moves: Vec<RecordedMove>,
    /// The camera's picture, when [`Recorder::wants_picture`] asked for one.
    pub picture: Option<Picture>,
}

enum Entry {
    Moment(Box<Moment>),
    Mark(Mark),
    Flush(Sender<()>),
}

/// A game being recorded. Cloned handles share one record: the pipeline hands over moments,
/// the UI marks turns and cases. The record is finished when the last handle is dropped.
#[derive(Clone)]
pub struct Recorder {
    shared: Arc<Shared>,
}

struct Shared {
    sender: Option<Sender<Entry>>,
    path: PathBuf,
    clock: Instant,
    /// When the last picture was asked for, ms since the start; `u64::MAX`: one is wanted now.
    last_picture: AtomicU64,
    /// Why the next picture is kept ("Turn 3", "Case: …"), when not for the time.
    picture_why: Mutex<Option<String>>,
    /// Why each picture asked for is kept, by its moment, until the writer keeps it.
    whys: Arc<Mutex<HashMap<u64, String>>>,
    /// What went wrong writing, for the status bar.
    problem: Arc<Mutex<Option<String>>>,
    /// The moment the record holds the game up to (committed).
    until: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

const PICTURE_NOW: u64 = u64::MAX;

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("path", &self.shared.path)
            .finish_non_exhaustive()
    }
}

impl Recorder {
    /// Start recording a new game into `path` (which must not exist).
    pub fn create(path: &Path, info: &GameInfo) -> Result<Recorder, RecordError> {
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|e| RecordError::NotARecord {
                path: path.to_owned(),
                why: format!("cannot make its folder: {e}"),
            })?;
        }
        let book = Book::start(schema::create(path)?, path, info)?;
        let (sender, receiver) = std::sync::mpsc::channel();
        let problem = Arc::new(Mutex::new(None));
        let until = Arc::new(AtomicU64::new(0));
        let whys = Arc::new(Mutex::new(HashMap::new()));
        let writer = Writer {
            book,
            problem: problem.clone(),
            until: until.clone(),
            whys: whys.clone(),
            last_scene: None,
            last_rulings: None,
        };
        let thread = std::thread::Builder::new()
            .name("vedette-record".into())
            .spawn(move || writer.run(&receiver))
            .map_err(|e| RecordError::NotARecord {
                path: path.to_owned(),
                why: format!("cannot start its writer: {e}"),
            })?;
        tracing::info!("recording the game in {}", path.display());
        Ok(Recorder {
            shared: Arc::new(Shared {
                sender: Some(sender),
                path: path.to_owned(),
                clock: Instant::now(),
                last_picture: AtomicU64::new(PICTURE_NOW),
                picture_why: Mutex::new(None),
                whys,
                problem,
                until,
                thread: Some(thread),
            }),
        })
    }

    /// Where the game is kept.
    pub fn path(&self) -> &Path {
        &self.shared.path
    }

    /// The game's time now.
    pub fn now(&self) -> GameTime {
        GameTime::after(self.shared.clock.elapsed())
    }

    /// What went wrong writing the record, if anything has.
    pub fn problem(&self) -> Option<String> {
        self.shared.problem.lock().ok().and_then(|p| p.clone())
    }

    /// The moment the committed record reaches.
    pub fn until(&self) -> GameTime {
        GameTime::from_millis(self.shared.until.load(Ordering::Relaxed))
    }

    /// Whether a picture is due at `at` (without taking the turn: see [`Recorder::wants_picture`]).
    pub fn picture_due(&self, at: GameTime) -> bool {
        let last = self.shared.last_picture.load(Ordering::Relaxed);
        last == PICTURE_NOW || at.millis() >= last.saturating_add(every_ms())
    }

    /// Whether the moment `at` should carry the camera's picture: the first, one every
    /// [`KEYFRAME_EVERY`], and one at each turn mark and case. Asking takes the turn: the
    /// caller must then hand one over.
    pub fn wants_picture(&self, at: GameTime) -> bool {
        let last = self.shared.last_picture.load(Ordering::Relaxed);
        let taken = self.picture_due(at)
            && self
                .shared
                .last_picture
                .compare_exchange(last, at.millis(), Ordering::Relaxed, Ordering::Relaxed)
                .is_ok();
        // Why it is kept is settled now, on the caller's thread: a turn marked after this
        // picture was asked for is the next picture's reason, not this one's.
        if taken
            && let (Ok(mut why), Ok(mut whys)) =
                (self.shared.picture_why.lock(), self.shared.whys.lock())
        {
            whys.insert(
                at.millis(),
                why.take().unwrap_or_else(|| "every 30 s".into()),
            );
        }
        taken
    }

    /// Hand over a moment of the game.
    pub fn observe(&self, moment: Moment) {
        tracing::trace!(at = moment.at.millis(), "a moment handed to the record");
        self.send(Entry::Moment(Box::new(moment)));
    }

    /// Mark a moment (a turn, a case, a note); turns and cases keep the next picture too.
    pub fn mark(&self, mark: Mark) {
        if matches!(mark.kind, crate::MarkKind::Turn | crate::MarkKind::Case) {
            if let Ok(mut why) = self.shared.picture_why.lock() {
                *why = Some(mark.label.clone());
            }
            self.shared
                .last_picture
                .store(PICTURE_NOW, Ordering::Relaxed);
        }
        self.send(Entry::Mark(mark));
    }

    /// Wait until everything handed over so far is committed.
    pub fn flush(&self) {
        let (done, wait) = std::sync::mpsc::channel();
        self.send(Entry::Flush(done));
        let _ = wait.recv();
    }

    fn send(&self, entry: Entry) {
        if let Some(sender) = &self.shared.sender
            && sender.send(entry).is_err()
        {
            tracing::debug!("the record's writer has stopped");
        }
    }
}

fn every_ms() -> u64 {
    u64::try_from(KEYFRAME_EVERY.as_millis()).unwrap_or(u64::MAX)
}

impl Drop for Shared {
    fn drop(&mut self) {
        // Closing the channel lets the writer commit what it holds and stop.
        self.sender = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The writer's thread.
struct Writer {
    book: Book,
    problem: Arc<Mutex<Option<String>>>,
    until: Arc<AtomicU64>,
    whys: Arc<Mutex<HashMap<u64, String>>>,
    last_scene: Option<Arc<Scene>>,
    last_rulings: Option<Arc<Rulings>>,
}

impl Writer {
    fn run(mut self, entries: &Receiver<Entry>) {
        let mut until = GameTime::START;
        while let Ok(first) = entries.recv() {
            let deadline = Instant::now() + COMMIT_EVERY;
            // A flush is answered at once: its asker waits for the commit.
            let mut flush = matches!(first, Entry::Flush(_));
            let mut batch = vec![first];
            let mut closed = false;
            while !flush && let Some(left) = deadline.checked_duration_since(Instant::now()) {
                match entries.recv_timeout(left) {
                    Ok(entry) => {
                        flush = matches!(entry, Entry::Flush(_));
                        batch.push(entry);
                    }
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => {
                        closed = true;
                        break;
                    }
                }
            }
            let mut flushed = Vec::new();
            let written = self.write(batch, &mut until, &mut flushed);
            let result = written.and_then(|()| self.book.commit(until));
            match result {
                Ok(()) => self.until.store(until.millis(), Ordering::Relaxed),
                Err(e) => self.fail(&e),
            }
            for done in flushed {
                let _ = done.send(());
            }
            if closed {
                break;
            }
        }
        if let Err(e) = self.book.close(until) {
            self.fail(&e);
        }
    }

    fn fail(&mut self, error: &RecordError) {
        tracing::error!("{error}");
        if let Ok(mut problem) = self.problem.lock() {
            *problem = Some(error.to_string());
        }
        // What the failed transaction held is lost; the record goes on with the next.
        self.book.rollback();
        self.last_scene = None;
        self.last_rulings = None;
    }

    fn write(
        &mut self,
        batch: Vec<Entry>,
        until: &mut GameTime,
        flushed: &mut Vec<Sender<()>>,
    ) -> Result<(), RecordError> {
        self.book.begin()?;
        for entry in batch {
            match entry {
                Entry::Moment(moment) => {
                    *until = (*until).max(moment.at);
                    self.moment(*moment)?;
                }
                Entry::Mark(mark) => {
                    *until = (*until).max(mark.at);
                    self.book.mark(&mark)?;
                }
                Entry::Flush(done) => flushed.push(done),
            }
        }
        Ok(())
    }

    fn moment(&mut self, moment: Moment) -> Result<(), RecordError> {
        let at = moment.at;
        for made in &moment.moves {
            self.book.moved(made)?;
        }
        if let Some(calibration) = &moment.calibration {
            self.book.calibration(at, calibration)?;
        }
        // A table handed over again (a still picture's) is not looked at again; a new one is
        // compared piece by piece, and only the pieces that changed are written.
        if let Some(scene) = moment.scene
            && !self
                .last_scene
                .as_ref()
                .is_some_and(|s| Arc::ptr_eq(s, &scene))
        {
            self.book.table(at, &scene)?;
            self.last_scene = Some(scene);
        }
        if let Some(rulings) = moment.rulings
            && !self
                .last_rulings
                .as_ref()
                .is_some_and(|r| Arc::ptr_eq(r, &rulings))
        {
            self.book.rulings(at, &rulings)?;
            self.last_rulings = Some(rulings);
        }
        if let Some(picture) = moment.picture
            && let Some(pixels) = picture()
        {
            let why = self
                .whys
                .lock()
                .ok()
                .and_then(|mut w| w.remove(&at.millis()));
            let why = why.unwrap_or_else(|| "every 30 s".into());
            match jpeg(&pixels) {
                Ok(bytes) => self.book.keyframe(at, &why, &bytes)?,
                Err(e) => tracing::warn!("a keyframe could not be made: {e}"),
            }
        }
        Ok(())
    }
}

/// A picture as JPEG.
pub fn jpeg(pixels: &image::RgbImage) -> Result<Vec<u8>, image::ImageError> {
    let mut bytes = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, JPEG_QUALITY);
    pixels.write_with_encoder(encoder)?;
    Ok(bytes)
}
