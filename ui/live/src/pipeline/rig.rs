//! Several cameras over one table in the app: each camera an eye on threads of its own
//! (capture, then detection, calibration, lens and tracking — the very [`Processor`] one camera
//! runs, stopped before the table), or a camera on another machine heard over MQTT
//! ([`crate::remote`]); the pipeline thread keeps the rig ([`vision::rig`]), fuses every
//! camera's newest word into one table and builds the scene from it as one camera's is built.
//!
//! Decisions:
//! - The pipeline never waits for a camera: each eye sends its word when its frame is done,
//!   and the table is made from whatever each last said. A camera's frame counts from when its
//!   capture thread handed it over (a remote camera's, from its stamped capture time), so a
//!   slow camera is late, then lost, and said to be.
//! - A picture (a still camera) keeps saying what it shows: its word is sent again as current.
//! - The picture shown is one camera's (the 📷 menu picks which), with the fused table drawn
//!   over it through that camera's calibration; the plan shows every camera's part.
//! - Each camera calibrates itself from the table's anchors unless the cameras file gives it a
//!   calibration of its own; the scene takes the table's size from the first calibrated one.

use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};

use calibration::TagPlacement;
use roster::TagDefaults;
use vision::rig::{CameraReport, Rig, RigTable};
use vision::{Sighting, TrackedTag};

use super::state::hand_over;
use super::table::TableBook;
use super::*;
use crate::mqtt::Broker;
use crate::remote::{Heard, Listener};

/// How often the table is made again when no camera says anything (all unplugged): often
/// enough that a lost camera is said within a frame or two of the status bar.
const QUIET_TABLE: Duration = Duration::from_millis(250);

/// The least time between two tables made: cameras' words arriving together make one.
const TABLE_EVERY: Duration = Duration::from_millis(20);

/// What a camera's eye is told.
enum EyeCommand {
    Recalibrate,
    Roster(Box<Roster>),
}

/// What a camera's eye says.
enum Said {
    Opened,
    Failed(String),
    Saw(Box<Seen>),
}

/// One frame of one camera, as its eye made it.
#[derive(Clone)]
struct Seen {
    /// Its state without the table: picture, tags, calibration, status.
    state: TableState,
    /// Its tags for the rig, once it is calibrated.
    word: Option<CameraWord>,
}

struct Report {
    camera: usize,
    /// When the frame was captured, from the rig's start.
    captured: Duration,
    said: Said,
}

/// A camera at work, stopped when dropped.
struct Eye {
    commands: Sender<EyeCommand>,
    thread: Option<JoinHandle<()>>,
    /// A remote camera's listener.
    listener: Option<Listener>,
}

impl Drop for Eye {
    fn drop(&mut self) {
        let (dead, _) = std::sync::mpsc::channel();
        self.commands = dead;
        self.listener = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Run a rig of cameras until the UI opens something else (returned) or goes away (`None`).
pub(super) fn run(
    setup: &Setup,
    cameras: &[CameraChoice],
    commands: &Receiver<Command>,
    to_ruling: &DropSender<(TableState, u64)>,
) -> Option<Setup> {
    let started = Instant::now();
    let mut inputs = Inputs::load(setup);
    // The game is recorded as one camera's is: the fused table, state by state.
    let recorder = recording::start(&setup.record, &setup.source.to_string()).unwrap_or_else(|e| {
        tracing::warn!("{e}");
        inputs.notes.push(e);
        None
    });
    if setup.calibration.is_some() {
        inputs.notes.push(
            "--calibration is one camera's: give each camera its own in the cameras file".into(),
        );
    }
    let (reports, receiver) = sync_channel::<Report>(4 * cameras.len().max(1));
    let eyes: Vec<Eye> = cameras
        .iter()
        .enumerate()
        .map(|(i, camera)| start_eye(i, camera, &inputs, started, reports.clone()))
        .collect();
    drop(reports);
    // Declared after the eyes so that it is dropped before them: an eye waiting to say
    // something to a full channel is let go before its thread is joined.
    let heard = receiver;
    let mut book = RigBook::new(cameras);
    let mut rules_changed = 0;
    let mut last_table: Option<Instant> = None;
    loop {
        loop {
            match commands.try_recv() {
                Ok(Command::Open(next)) => return Some(next),
                Ok(Command::Recalibrate) => {
                    eyes.iter().for_each(|e| tell(e, EyeCommand::Recalibrate));
                    book.table.clear();
                }
                Ok(Command::Roster(roster)) => {
                    eyes.iter()
                        .for_each(|e| tell(e, EyeCommand::Roster(roster.clone())));
                    inputs.roster = Some(*roster);
                    rules_changed += 1;
                }
                Ok(Command::Ruleset(ruleset)) => {
                    inputs.ruleset = ruleset;
                    rules_changed += 1;
                }
                Ok(Command::ShowCamera(index)) => book.shown = index.min(cameras.len() - 1),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return None,
            }
        }
        match heard.recv_timeout(Duration::from_millis(100)) {
            Ok(report) => book.take(report),
            Err(RecvTimeoutError::Timeout) => {}
            // Every eye has stopped (no camera could open): the table still says so, and the
            // UI may open something else.
            Err(RecvTimeoutError::Disconnected) => std::thread::sleep(QUIET_TABLE / 2),
        }
        let due = last_table.is_none_or(|t| t.elapsed() >= TABLE_EVERY);
        let quiet = last_table.is_none_or(|t| t.elapsed() >= QUIET_TABLE);
        if due && (book.news || quiet) {
            let mut state = book.state(started.elapsed(), &inputs);
            state.recorder = recorder.clone();
            hand_over(to_ruling, state, rules_changed, false);
            last_table = Some(Instant::now());
        }
    }
}

fn tell(eye: &Eye, command: EyeCommand) {
    // An eye that has stopped (its source failed for good) has nothing to be told.
    let _ = eye.commands.send(command);
}

/// Start camera `index`'s eye.
fn start_eye(
    index: usize,
    camera: &CameraChoice,
    table: &Inputs,
    started: Instant,
    reports: SyncSender<Report>,
) -> Eye {
    let (commands, told) = std::sync::mpsc::channel();
    let mut inputs = table.clone();
    inputs.notes.clear();
    // Each camera learns and keeps its own lens: two webcams of one resolution are not one
    // lens.
    inputs.lens_folder = table.lens_folder.as_ref().map(|folder| {
        let name = crate::mqtt::topic_name(&camera.name);
        folder.join("cameras").join(name)
    });
    if let Some(path) = &camera.calibration {
        match TableCalibration::load(path) {
            Ok(c) => inputs.calibration = Some(c),
            Err(e) => inputs.notes.push(e.to_string()),
        }
    }
    if let SourceChoice::Remote(url) = &camera.source {
        let listener = url
            .parse::<Broker>()
            .map_err(|e| e.to_string())
            .and_then(|broker| {
                let hear = hearing(index, started, reports.clone(), camera.name.clone());
                Listener::start(broker, &camera.name, hear).map_err(|e| e.to_string())
            });
        let listener = listener
            .inspect_err(|e| {
                send(&reports, index, started.elapsed(), Said::Failed(e.clone()));
            })
            .ok();
        return Eye {
            commands,
            thread: None,
            listener,
        };
    }
    let name = camera.name.clone();
    let source = camera.source.clone();
    let thread = std::thread::Builder::new()
        .name(format!("vedette-eye-{index}"))
        .spawn(move || watch(index, &name, &source, inputs, started, &reports, &told))
        .map_err(|e| tracing::error!("cannot start camera {index}'s thread: {e}"))
        .ok();
    Eye {
        commands,
        thread,
        listener: None,
    }
}

/// Send a report; a frame is dropped if the pipeline thread is behind, a message waits.
/// False when the pipeline thread has gone.
fn send(reports: &SyncSender<Report>, camera: usize, captured: Duration, said: Said) -> bool {
    let waits = !matches!(said, Said::Saw(_));
    let report = Report {
        camera,
        captured,
        said,
    };
    if waits {
        return reports.send(report).is_ok();
    }
    !matches!(reports.try_send(report), Err(TrySendError::Disconnected(_)))
}

/// A local camera's eye: read its source, look at each frame, say what it saw.
fn watch(
    index: usize,
    name: &str,
    source: &SourceChoice,
    inputs: Inputs,
    started: Instant,
    reports: &SyncSender<Report>,
    told: &Receiver<EyeCommand>,
) {
    let capture_is_live = matches!(source, SourceChoice::Webcam { .. } | SourceChoice::Video(_));
    let capture = match source_plan(source) {
        Ok(plan) => Capture::start(plan),
        Err(e) => {
            send(reports, index, started.elapsed(), Said::Failed(e));
            return;
        }
    };
    let still = matches!(source, SourceChoice::Image(_));
    let mut processor = Processor::new(Inputs { still, ..inputs });
    let mut last: Option<Seen> = None;
    let mut last_frame: Option<Duration> = None;
    loop {
        loop {
            match told.try_recv() {
                Ok(EyeCommand::Recalibrate) => processor.recalibrate(),
                Ok(EyeCommand::Roster(roster)) => processor.set_roster(*roster),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return,
            }
        }
        let said = match capture.received.recv_timeout(Duration::from_millis(100)) {
            Ok(Captured::Opened(_)) => Said::Opened,
            // A looping video started again: its tags jump back, which are no moves.
            Ok(Captured::Restarted) => {
                processor.new_game();
                continue;
            }
            Ok(Captured::Frame(frame)) => {
                let captured = started.elapsed();
                // Back after being lost (unplugged): where it last saw things is stale, and it
                // may have been knocked; it starts afresh from the anchors.
                if last_frame.is_some_and(|t| captured.saturating_sub(t) > vision::rig::LOST) {
                    processor.recalibrate();
                }
                last_frame = Some(captured);
                let (state, word) = processor.look(&frame, name);
                let seen = Seen { state, word };
                // Kept for a picture, whose one frame is said again after it has ended.
                if !capture_is_live {
                    last = Some(seen.clone());
                }
                if !send(reports, index, captured, Said::Saw(Box::new(seen))) {
                    return;
                }
                continue;
            }
            Ok(Captured::Failed(message)) => Said::Failed(message),
            Err(RecvTimeoutError::Timeout) => continue,
            // A picture has ended: what it shows is still the table now, said again as
            // often as the table is made when nothing else is said.
            Err(RecvTimeoutError::Disconnected) => match &last {
                Some(seen) => {
                    std::thread::sleep(QUIET_TABLE / 2);
                    Said::Saw(Box::new(seen.clone()))
                }
                None => return,
            },
        };
        if !send(reports, index, started.elapsed(), said) {
            return;
        }
    }
}

/// What a remote camera's listener does with what it hears.
fn hearing(
    index: usize,
    started: Instant,
    reports: SyncSender<Report>,
    name: String,
) -> impl FnMut(Heard) + Send + 'static {
    let mut calibration: Option<TableCalibration> = None;
    move |heard| {
        let now = started.elapsed();
        let said = match heard {
            Heard::Calibration(c) => {
                calibration = Some(*c);
                return;
            }
            Heard::Junk(why) => Said::Failed(why),
            Heard::Tags { age, message } => {
                let captured = now.saturating_sub(age);
                let mut state = TableState::message(&name, None);
                state.status.pipeline_fps = message.fps;
                state.calibration = calibration.clone();
                let word = calibration
                    .as_ref()
                    .map(|c| remote_word(c, &message, captured));
                if word.is_none() {
                    state.status.error = Some("its calibration has not come yet".into());
                }
                let seen = Seen { state, word };
                send(&reports, index, captured, Said::Saw(Box::new(seen)));
                return;
            }
        };
        send(&reports, index, now, said);
    }
}

/// A remote camera's tags as a word for the rig: each at rest where the camera places it.
fn remote_word(
    calibration: &TableCalibration,
    message: &crate::remote::TagsMessage,
    captured: Duration,
) -> CameraWord {
    let resting = |sighting: Sighting| {
        move |tag: vision::LocatedTag| TrackedTag {
            id: tag.pose.id,
            role: tag.role,
            resting: Some(tag.pose),
            sighting,
            travel: None,
            away: false,
            sure: true,
            arrived: None,
            looked: None,
        }
    };
    let now = message.now.iter().filter_map(|t| t.tag());
    let held: Vec<_> = message.held.iter().filter_map(|t| t.tag()).collect();
    let unseen = held
        .iter()
        .map(|t| {
            let last = TagPlacement {
                center: t.pose.center,
                facing: t.pose.facing,
                size: t.pose.measured_size,
                height: t.pose.height,
            };
            (t.pose.id, Unseen::of(&calibration.camera, &last))
        })
        .collect();
    let held_since = Sighting::HeldSince {
        last_seen: captured,
    };
    CameraWord {
        calibration: calibration.clone(),
        tracked: now
            .map(resting(Sighting::Now))
            .chain(held.into_iter().map(resting(held_since)))
            .collect(),
        held: unseen,
        replaced: Vec::new(),
    }
}

/// The rig's side of the pipeline thread: every camera's newest word, and the table made of
/// them.
struct RigBook {
    rig: Rig,
    /// Each camera's newest frame.
    seen: Vec<Option<Seen>>,
    /// What is wrong with each camera, if anything.
    problems: Vec<Option<String>>,
    /// The units' rests and moves.
    table: TableBook,
    /// The camera whose picture is shown.
    shown: usize,
    /// A camera said something since the last table.
    news: bool,
    /// Every camera's part of the table and the best camera's sight, made again only when a
    /// camera's calibration or sight changes (`None`: to be made).
    cover: Option<Cover>,
}

/// What the plan shows of the cameras' reach.
struct Cover {
    /// The stands' height the parts were traced at.
    height: Inches,
    parts: Vec<CameraPart>,
    sight: Option<(Arc<SightMap>, Inches)>,
}

impl RigBook {
    fn new(cameras: &[CameraChoice]) -> RigBook {
        RigBook {
            rig: Rig::new(cameras.iter().map(|c| c.name.clone())),
            seen: cameras.iter().map(|_| None).collect(),
            problems: cameras.iter().map(|_| None).collect(),
            table: TableBook::default(),
            shown: 0,
            news: false,
            cover: None,
        }
    }

    fn take(&mut self, report: Report) {
        let i = report.camera;
        self.news = true;
        match report.said {
            Said::Opened => self.problems[i] = None,
            Said::Failed(why) => {
                tracing::warn!("camera {}: {why}", self.rig.cameras()[i].name);
                self.problems[i] = Some(why);
            }
            Said::Saw(seen) => {
                self.problems[i] = seen.state.status.error.clone().or_else(|| {
                    match &seen.state.status.calibration {
                        CalibrationStatus::Missing(why) if seen.word.is_none() => Some(why.clone()),
                        _ => None,
                    }
                });
                let sight = |seen: Option<&Seen>| {
                    let sight = seen.and_then(|s| s.state.sight.as_ref());
                    sight.map(|(map, _)| Arc::as_ptr(map))
                };
                if sight(self.seen[i].as_ref()) != sight(Some(&seen)) {
                    self.cover = None;
                }
                if let Some(word) = &seen.word {
                    let calibrated = self.rig.cameras()[i].calibration.as_ref();
                    if calibrated != Some(&word.calibration) {
                        self.rig.calibrated(i, word.calibration.clone());
                        self.cover = None;
                    }
                    let (now, held) = vision::rig::rests_to_report(&word.tracked);
                    self.rig.report(i, report.captured, now, held);
                }
                self.seen[i] = Some(*seen);
            }
        }
    }

    /// The table now, shown over the chosen camera's picture.
    fn state(&mut self, now: Duration, inputs: &Inputs) -> TableState {
        self.news = false;
        let height_sd = inputs
            .roster
            .as_ref()
            .map_or(TagDefaults::default().height_sd, |r| r.tags.height_sd);
        let table = self.rig.table(now, Inches(height_sd));
        let shown = &self.rig.cameras()[self.shown];
        let mut state = match &self.seen[self.shown] {
            Some(seen) => seen.state.clone(),
            None => TableState::message(&shown.name, None),
        };
        state.status.cameras = self.statuses(&table.cameras);
        state
            .status
            .notes
            .extend(table.fused.conflicts.iter().map(|c| c.to_string()));
        let calibration = self
            .rig
            .cameras()
            .iter()
            .find_map(|c| c.calibration.clone());
        if let Some(calibration) = calibration {
            let word = self.fused_word(&table, calibration);
            state.status.held_tags = word.held.iter().map(|(id, why)| (*id, *why)).collect();
            state.status.held_tags.sort_unstable_by_key(|(id, _)| *id);
            self.table.build(inputs, &word, &mut state);
        }
        self.cover(&mut state);
        state
    }

    fn statuses(&self, reports: &[CameraReport]) -> Vec<CameraStatus> {
        reports
            .iter()
            .zip(&self.seen)
            .zip(&self.problems)
            .map(|((report, seen), problem)| CameraStatus {
                report: report.clone(),
                fps: seen.as_ref().map_or(0.0, |s| s.state.status.pipeline_fps),
                problem: problem.clone(),
            })
            .collect()
    }

    /// The fused tags as one camera's word: each tag as the camera that sees it best follows
    /// it (on its way, or at rest), at rest where every camera together puts it.
    fn fused_word(&self, table: &RigTable, calibration: TableCalibration) -> CameraWord {
        let word_of = |name: &str| {
            let index = self.rig.cameras().iter().position(|c| c.name == name)?;
            self.seen[index].as_ref()?.word.as_ref()
        };
        let mut held = HashMap::new();
        let tracked = table
            .fused
            .tags
            .iter()
            .map(|fused| {
                let id = fused.tag.pose.id;
                let best = fused.seen_by.first().and_then(|name| word_of(name));
                let mut tag = best
                    .and_then(|w| w.tracked.iter().find(|t| t.id == id).cloned())
                    .unwrap_or_else(|| TrackedTag {
                        id,
                        role: fused.tag.role.clone(),
                        resting: None,
                        sighting: Sighting::Now,
                        travel: None,
                        away: false,
                        sure: true,
                        arrived: None,
                        looked: None,
                    });
                tag.resting = Some(fused.tag.pose);
                if let Some(why) = best.and_then(|w| w.held.get(&id)) {
                    held.insert(id, *why);
                }
                tag
            })
            .collect();
        CameraWord {
            calibration,
            tracked,
            held,
            replaced: Vec::new(),
        }
    }

    /// Every camera's part of the table, and the smallest tag the best of them finds: made
    /// again only when a camera's calibration or sight, or the stands' height, has changed.
    fn cover(&mut self, state: &mut TableState) {
        let height = state.stand_height;
        if self.cover.as_ref().is_none_or(|c| c.height != height) {
            self.cover = Some(self.make_cover(height));
        }
        if let Some(cover) = &self.cover {
            state.sight = cover.sight.clone();
            state.coverage = cover.parts.clone();
        }
    }

    /// Every camera's part of the table, traced at `height`, and the best camera's sight.
    fn make_cover(&self, height: Inches) -> Cover {
        let states = self.seen.iter().flatten().map(|s| &s.state);
        let sights: Vec<&(Arc<SightMap>, Inches)> =
            states.filter_map(|s| s.sight.as_ref()).collect();
        let sight = SightMap::best_of(sights.iter().map(|(map, _)| map.as_ref()))
            .zip(sights.first().map(|(_, size)| *size))
            .map(|(map, size)| (Arc::new(map), size));
        let parts = self
            .rig
            .cameras()
            .iter()
            .filter_map(|camera| {
                let calibration = camera.calibration.as_ref()?;
                let table = &calibration.table;
                Some(CameraPart {
                    name: camera.name.clone(),
                    outline: vision::sight::part_of_table(
                        &calibration.camera,
                        Inches(table.width),
                        Inches(table.depth),
                        height,
                    ),
                })
            })
            .collect();
        Cover {
            height,
            parts,
            sight,
        }
    }
}
