//! What one frame gives every view: the table's state and the status bar's.

use super::*;

/// A unit (or commander) of the roster as a player knows it: its name, and its id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitName {
    /// Its id in the roster.
    pub id: String,
    /// Its name, or its id when the roster gives none.
    pub name: String,
}

impl UnitName {
    /// The roster's unit or commander `id`, named as the roster names it.
    pub fn of(roster: &Roster, id: &str) -> UnitName {
        let units = roster.units.iter().map(|u| (&u.id, &u.name));
        let commanders = roster.commanders.iter().map(|c| (&c.id, &c.name));
        let name = units
            .chain(commanders)
            .find(|(unit, _)| *unit == id)
            .and_then(|(_, name)| name.clone());
        UnitName {
            id: id.to_owned(),
            name: name.unwrap_or_else(|| id.to_owned()),
        }
    }
}

/// The calibration as the status bar reports it.
#[derive(Clone, Debug, PartialEq)]
pub enum CalibrationStatus {
    /// No calibration: why, and what to do.
    Missing(String),
    /// Calibrated.
    Ready {
        /// Anchors' reprojection error, pixels.
        rms_pixels: f64,
        /// Anchors' error on the table.
        rms_inches: f64,
        /// What the anchors of this frame say.
        check: String,
        /// The camera has moved since: the calibration is stale.
        stale: bool,
    },
}

/// What the status bar shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    /// The source's name.
    pub source: String,
    /// Frames processed per second by the pipeline.
    pub pipeline_fps: f64,
    /// Tag detection time of the last frame.
    pub detect_time: Duration,
    /// The pipeline thread's work on the last frame: conversion, detection, calibration check,
    /// placing and tracking (rulings follow on their own thread).
    pub frame_work: Duration,
    /// The lens learner's share of `frame_work` on the last frame: refining the corners of new
    /// stand sightings against their patterns, through the lens in use, and gathering them
    /// (the fit itself runs on its own thread).
    pub lens_time: Duration,
    /// Handing the last state to the game's record (on the ruling thread, after the rulings).
    pub record_time: Duration,
    /// Camera frames dropped so far because the pipeline was still busy with the one before
    /// (the camera is never made to wait).
    pub dropped_frames: u64,
    /// Calibration.
    pub calibration: CalibrationStatus,
    /// The lens learnt in play.
    pub lens: LensStatus,
    /// Tags seen that the roster does not list.
    pub unknown_tags: Vec<u32>,
    /// Tags not seen now, held at their last place, and why the camera does not see them.
    pub held_tags: Vec<(u32, Unseen)>,
    /// Units (and commanders) of the roster not on the table.
    pub unseen: Vec<UnitName>,
    /// Units seen by some of their stands only: filled in from their formation, or left off.
    pub partial: Vec<vision::partial::PartialUnit>,
    /// Other things a player should know (tags off the table, files that did not load …).
    pub notes: Vec<String>,
    /// Why the error bars are wider than the camera's model alone says: the calibration's own
    /// residuals, the picture's corners' scatter. Empty when nothing says so.
    pub doubts: Vec<String>,
    /// The source is failing (lost camera, unreadable file): shown in red.
    pub error: Option<String>,
    /// With several cameras over the table: how each is doing (empty with one).
    pub cameras: Vec<CameraStatus>,
}

/// How one camera of several over the table is doing.
#[derive(Clone, Debug, PartialEq)]
pub struct CameraStatus {
    /// Its name and state: live, late, lost.
    pub report: vision::rig::CameraReport,
    /// Frames it processed a second.
    pub fps: f64,
    /// What is wrong with it (cannot open, not calibrated), if anything.
    pub problem: Option<String>,
}

impl CameraStatus {
    /// Whether it counts for nothing now (lost, or never heard from).
    pub fn out(&self) -> bool {
        matches!(
            self.report.state,
            vision::rig::CameraState::Lost { .. } | vision::rig::CameraState::Waiting
        )
    }
}

impl std::fmt::Display for CameraStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.report)?;
        if matches!(self.report.state, vision::rig::CameraState::Live) {
            write!(f, ", {:.0} frames/s", self.fps)?;
        }
        match &self.problem {
            Some(problem) => write!(f, " ({problem})"),
            None => Ok(()),
        }
    }
}

/// The part of the table one camera of several shows, for the plan.
#[derive(Clone, Debug, PartialEq)]
pub struct CameraPart {
    /// The camera's name.
    pub name: String,
    /// Its picture's edges on the table, at the stands' height.
    pub outline: Vec<rules::geometry::TablePoint>,
}

impl Status {
    fn empty(source: &str) -> Status {
        Status {
            source: source.to_owned(),
            pipeline_fps: 0.0,
            detect_time: Duration::ZERO,
            frame_work: Duration::ZERO,
            lens_time: Duration::ZERO,
            record_time: Duration::ZERO,
            dropped_frames: 0,
            calibration: CalibrationStatus::Missing("no frame yet".into()),
            lens: LensStatus::Idle,
            unknown_tags: Vec::new(),
            held_tags: Vec::new(),
            unseen: Vec::new(),
            partial: Vec::new(),
            notes: Vec::new(),
            doubts: Vec::new(),
            error: None,
            cameras: Vec::new(),
        }
    }
}

/// The state of the table after one frame: what every view draws.
#[derive(Clone, Debug)]
pub struct TableState {
    /// The picture, RGBA, ready for a texture.
    pub frame: Option<Arc<crate::Picture>>,
    /// The frame's index in its source.
    pub frame_index: u64,
    /// The calibration in use.
    pub calibration: Option<TableCalibration>,
    /// The tags of this frame, placed.
    pub tags: Option<FrameTags>,
    /// The table as the camera sees it (with held units).
    pub scene: Option<Arc<Scene>>,
    /// Every ruling of the scene.
    pub rulings: Option<Arc<Rulings>>,
    /// Units placed only from held tags, and why the camera does not see their first tag.
    pub held_units: HashMap<String, Unseen>,
    /// Units on their way (in a hand, slid along the cloth): drawn travelling; the scene
    /// keeps them where they rest.
    pub travelling: Vec<Travelling>,
    /// The latest moves made, newest last.
    pub moves: Vec<Arc<MoveRecord>>,
    /// Tags whose look calls for a remedy (glare, faded ink, blur).
    pub health: Vec<Remedy>,
    /// Height of the tops of the bases, where unit outlines are drawn on the video.
    pub stand_height: Inches,
    /// Which parts of the picture the lens has been shown tags in.
    pub lens_coverage: Option<Coverage>,
    /// The smallest tag the camera finds at each place of the table, and the roster's size.
    pub sight: Option<(Arc<SightMap>, Inches)>,
    /// Where the camera measures worst: a stand's error bar at each place of the table, for
    /// the calibration and roster in use.
    pub error_map: Option<Arc<ErrorMap>>,
    /// With several cameras: the part of the table each shows.
    pub coverage: Vec<CameraPart>,
    /// The ground learnt from stands resting above it, for the plan.
    pub learnt_ground: Vec<rules::ground::LearntRise>,
    /// Status figures and messages.
    pub status: Status,
    /// The game's record, when it is recorded: where it is kept, and the handle to mark turns
    /// and cases in it.
    pub recorder: Option<record::Recorder>,
}

impl TableState {
    /// A state with a message and nothing to draw (no source, a failing source).
    pub fn message(source: &str, error: Option<String>) -> TableState {
        TableState {
            frame: None,
            frame_index: 0,
            calibration: None,
            tags: None,
            scene: None,
            rulings: None,
            held_units: HashMap::new(),
            travelling: Vec::new(),
            moves: Vec::new(),
            health: Vec::new(),
            stand_height: Inches(0.16),
            lens_coverage: None,
            sight: None,
            error_map: None,
            coverage: Vec::new(),
            learnt_ground: Vec::new(),
            status: Status {
                error,
                ..Status::empty(source)
            },
            recorder: None,
        }
    }
}

/// A move made, with the unit's name and the check of it against the table before it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    /// The move.
    pub event: MoveEvent,
    /// The unit's name.
    pub name: String,
    /// What was said of it against its allowance; `None` when there was no table before it.
    pub check: Option<MoveJudgement>,
}

/// The words a record keeps for a move within its allowance (records made before verdicts
/// were kept have only these to tell such a move by).
pub const WITHIN_ALLOWANCE: &str = "within its allowance";

/// What was said of a move against its allowance.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveJudgement {
    /// Checked now as `vedette check-move` checks it: its cost, the moves it needs, the 12"
    /// rule.
    Checked(MoveCheck),
    /// As a game's record kept it: the words of its worst ruling and that ruling's verdict,
    /// which records made before verdicts were kept do not have.
    Recorded {
        /// [`WITHIN_ALLOWANCE`], or the worst ruling's explanation.
        words: String,
        /// The worst verdict.
        verdict: Option<Verdict>,
    },
}

impl MoveRecord {
    /// How the unit went: carried, slid, or moved under a hand (its tags not seen on the way).
    pub fn how(&self) -> &'static str {
        if self.event.unseen {
            "under a hand"
        } else if self.event.lifted {
            "carried"
        } else {
            "slid"
        }
    }

    /// Its check's worst verdict (verdicts are ordered from the best news to the worst);
    /// `None` for a move nobody checked, which no view may show as allowed.
    pub fn verdict(&self) -> Option<Verdict> {
        match self.check.as_ref()? {
            MoveJudgement::Checked(check) => check.rulings.iter().map(|r| r.verdict()).max(),
            MoveJudgement::Recorded { verdict, .. } => *verdict,
        }
    }

    /// The check's sentences, each with its verdict where it is known.
    pub fn checks(&self) -> Vec<(Option<Verdict>, String)> {
        match &self.check {
            None => Vec::new(),
            Some(MoveJudgement::Checked(check)) => check
                .rulings
                .iter()
                .map(|r| (Some(r.verdict()), r.explanation.clone()))
                .collect(),
            Some(MoveJudgement::Recorded { words, verdict }) => vec![(*verdict, words.clone())],
        }
    }

    /// The check in a few words, as a record keeps it: [`WITHIN_ALLOWANCE`], or the worst
    /// ruling's explanation.
    pub fn summary(&self) -> Option<String> {
        match self.check.as_ref()? {
            MoveJudgement::Checked(check) => {
                let worst = check.rulings.iter().max_by_key(|r| r.verdict());
                Some(match worst {
                    Some(ruling) if ruling.verdict() != Verdict::Yes => ruling.explanation.clone(),
                    _ => WITHIN_ALLOWANCE.to_owned(),
                })
            }
            MoveJudgement::Recorded { words, .. } => Some(words.clone()),
        }
    }
}

/// Frames per second over the last few frames.
#[derive(Debug, Default)]
pub(super) struct Rate(VecDeque<Instant>);

impl Rate {
    pub(super) fn tick(&mut self) -> f64 {
        let now = Instant::now();
        self.0.push_back(now);
        while self.0.len() > 30 {
            self.0.pop_front();
        }
        match (self.0.front(), self.0.len()) {
            (Some(first), n) if n > 1 => {
                (n - 1) as f64 / now.duration_since(*first).as_secs_f64().max(1e-6)
            }
            _ => 0.0,
        }
    }
}
/// Hand a state to the ruling thread: a live source's frame is skipped if that thread is
/// busy; a message, a picture's or a script's frame waits for it.
pub(super) fn hand_over(
    to_ruling: &DropSender<(TableState, u64)>,
    state: TableState,
    rules: u64,
    wait: bool,
) {
    if wait {
        to_ruling.deliver((state, rules));
    } else {
        to_ruling.offer((state, rules));
    }
}
