//! The camera pipeline, off the UI thread, in stages joined by bounded hand-overs: the capture
//! thread reads the source ([`super::capture`]) and hands over one frame at a time, dropping
//! frames the next stage is too busy for; the pipeline thread owns the detector, the
//! calibration, the roster and the tracker, and hands each table it sees on; the ruling thread
//! rules it ([`Ruler`]: again only when a stand has moved or the rules changed) and publishes
//! the [`TableState`] — picture, tags, scene, rulings and status — into a one-state slot; the
//! UI thread draws whatever state is newest when it paints, and never waits. Each hand-over
//! holds one item: a live camera's frame that a busy stage cannot take is skipped, never
//! queued.
//!
//! [`Processor`] is the per-frame work without the thread, so the headless screenshot and the
//! tests run the very same steps synchronously.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use calibration::lens::Coverage;
use calibration::{
    AnchorCheck, AnchorLayout, ImageSize, Settings as CalibrationSettings, StandTagSpec,
    TableCalibration, TagPlacement, check_anchors,
};
use roster::Roster;
use rules::rulings::{Rulings, rulings};
use rules::scene::TerrainDoc;
use rules::units::Inches;
use rules::{RulesetId, Scene};
use serde::{Deserialize, Serialize};
use vision::live::moved::{MoveThreshold, scene_moved};
use vision::live::queue::{Counts, DropSender, dropping};
use vision::source::{ImageFile, VideoFile, Webcam, WebcamRequest};
use vision::{
    DetectorSettings, Frame, FrameSource, FrameTags, LiveDetector, LiveSettings, SightMap,
    SmallTagSearch, Tracker, TrackerSettings, Unseen, locate_tags, scene_on_table,
};

use super::capture::{Capture, Captured, OpenSource, SourcePlan};
use super::demo::Demo;
use super::lens::{LensLearning, LensStatus};

/// Where frames come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SourceChoice {
    /// The built-in demo table: a scenario played by the synthetic renderer.
    Demo,
    /// A webcam, by nokhwa's index, at a resolution.
    Webcam {
        /// Device index.
        index: u32,
        /// Width asked for, pixels.
        width: u32,
        /// Height asked for, pixels.
        height: u32,
    },
    /// A video file (played in a loop, so a convention table never runs dry).
    Video(PathBuf),
    /// One picture.
    Image(PathBuf),
}

impl std::fmt::Display for SourceChoice {
    /// What the source is called until it has opened and named itself.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceChoice::Demo => write!(f, "demo table"),
            SourceChoice::Webcam { index, .. } => write!(f, "webcam {index}"),
            SourceChoice::Video(path) | SourceChoice::Image(path) => {
                write!(f, "{}", path.display())
            }
        }
    }
}

/// Everything the pipeline needs to start: the source and the files that describe the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The frame source.
    pub source: SourceChoice,
    /// A calibration made by `vedette calibrate`.
    pub calibration: Option<PathBuf>,
    /// The anchor layout: lets the app calibrate (and recalibrate) by itself.
    pub anchors: Option<PathBuf>,
    /// Which tag is on which stand.
    pub roster: Option<PathBuf>,
    /// A scene file whose terrain is on the table.
    pub terrain: Option<PathBuf>,
    /// The ruleset to rule by; `None` plays the roster's (the scenario's on the demo table).
    #[serde(default)]
    pub ruleset: Option<RulesetId>,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            source: SourceChoice::Demo,
            calibration: None,
            anchors: None,
            roster: None,
            terrain: None,
            ruleset: None,
        }
    }
}

/// The table files, loaded. Problems loading them are notes for the status bar, never a crash.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// The calibration, if given and readable.
    pub calibration: Option<TableCalibration>,
    /// The anchors, if given: the processor calibrates from them when needed.
    pub anchors: Option<AnchorLayout>,
    /// The roster.
    pub roster: Option<Roster>,
    /// Terrain on the table.
    pub terrain: Vec<TerrainDoc>,
    /// What went wrong loading them.
    pub notes: Vec<String>,
    /// The ruleset chosen in the app over the roster's.
    pub ruleset: Option<RulesetId>,
    /// Where lenses learnt in play are kept between sessions (`None`: not kept).
    pub lens_folder: Option<PathBuf>,
}

impl Inputs {
    /// Load the files a setup names.
    pub fn load(setup: &Setup) -> Inputs {
        let mut inputs = Inputs {
            ruleset: setup.ruleset,
            lens_folder: super::lens::app_folder(),
            ..Inputs::default()
        };
        let note = |notes: &mut Vec<String>, e: &dyn std::fmt::Display| notes.push(e.to_string());
        if let Some(path) = &setup.calibration {
            match TableCalibration::load(path) {
                Ok(c) => inputs.calibration = Some(c),
                Err(e) => note(&mut inputs.notes, &e),
            }
        }
        if let Some(path) = &setup.anchors {
            match AnchorLayout::load(path) {
                Ok(a) => inputs.anchors = Some(a),
                Err(e) => note(&mut inputs.notes, &e),
            }
        }
        if let Some(path) = &setup.roster {
            match Roster::load(path) {
                Ok(r) => inputs.roster = Some(r),
                Err(e) => note(&mut inputs.notes, &e),
            }
        }
        let table_family = inputs
            .calibration
            .as_ref()
            .map(|c| c.family.as_str())
            .or_else(|| inputs.anchors.as_ref().map(|a| a.family.as_str()));
        if let (Some(roster), Some(family), Some(path)) =
            (&inputs.roster, table_family, &setup.roster)
            && let Some(clash) = roster.family_clash(family)
        {
            inputs.notes.push(format!("{}: {clash}", path.display()));
        }
        let anchor_ids: Vec<u32> = match (&inputs.calibration, &inputs.anchors) {
            (Some(calibration), _) => calibration.anchors.iter().map(|a| a.anchor.id).collect(),
            (None, Some(layout)) => layout.anchors.iter().map(|a| a.id).collect(),
            (None, None) => Vec::new(),
        };
        if let (Some(roster), Some(path)) = (&inputs.roster, &setup.roster) {
            for (id, owner) in roster.anchor_clashes(anchor_ids) {
                inputs.notes.push(format!(
                    "{}: tag {id} on {} is also an anchor of the table: give the stand another tag",
                    path.display(),
                    roster.describe(owner)
                ));
            }
        }
        if let Some(path) = &setup.terrain {
            match Scene::load(path) {
                Ok(scene) => inputs.terrain = rules::scene::SceneDoc::from(&scene).terrain,
                Err(e) => note(&mut inputs.notes, &e),
            }
        }
        inputs
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
    /// Units of the roster not on the table.
    pub unseen: Vec<String>,
    /// Units seen by some of their stands only: filled in from their formation, or left off.
    pub partial: Vec<vision::partial::PartialUnit>,
    /// Other things a player should know (tags off the table, files that did not load …).
    pub notes: Vec<String>,
    /// The source is failing (lost camera, unreadable file): shown in red.
    pub error: Option<String>,
}

impl Status {
    fn empty(source: &str) -> Status {
        Status {
            source: source.to_owned(),
            pipeline_fps: 0.0,
            detect_time: Duration::ZERO,
            frame_work: Duration::ZERO,
            dropped_frames: 0,
            calibration: CalibrationStatus::Missing("no frame yet".into()),
            lens: LensStatus::Idle,
            unknown_tags: Vec::new(),
            held_tags: Vec::new(),
            unseen: Vec::new(),
            partial: Vec::new(),
            notes: Vec::new(),
            error: None,
        }
    }
}

/// The state of the table after one frame: what every view draws.
#[derive(Clone, Debug)]
pub struct TableState {
    /// The picture, RGBA, ready for a texture.
    pub frame: Option<Arc<egui::ColorImage>>,
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
    /// Height of the tops of the bases, where unit outlines are drawn on the video.
    pub stand_height: Inches,
    /// Which parts of the picture the lens has been shown tags in.
    pub lens_coverage: Option<Coverage>,
    /// The smallest tag the camera finds at each place of the table, and the roster's size.
    pub sight: Option<(Arc<SightMap>, Inches)>,
    /// Status figures and messages.
    pub status: Status,
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
            stand_height: Inches(0.16),
            lens_coverage: None,
            sight: None,
            status: Status {
                error,
                ..Status::empty(source)
            },
        }
    }
}

/// Frames per second over the last few frames.
#[derive(Debug, Default)]
struct Rate(VecDeque<Instant>);

impl Rate {
    fn tick(&mut self) -> f64 {
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

/// Frames in a row the anchors must say "the camera moved" before the processor recalibrates
/// by itself (a hand passing over an anchor lasts less).
const MOVED_FRAMES_BEFORE_RECALIBRATING: u32 = 10;

/// The side of the cells of the plan's map of what the camera can see.
const SIGHT_CELL: Inches = Inches(2.0);

/// One frame's work, without the thread.
pub struct Processor {
    inputs: Inputs,
    /// The live detector: regions around the known tags, full passes now and then.
    detector: Result<LiveDetector, String>,
    tracker: Tracker,
    rate: Rate,
    /// Rulings for [`Processor::process`]; the threaded pipeline rules on its own thread.
    ruler: Ruler,
    /// Counts changes of the rules (ruleset, roster): rulings of an older count are stale.
    rules_changed: u64,
    moved_frames: u32,
    calibration_note: Option<String>,
    /// The lens learnt while people play.
    lens: LensLearning,
    /// What was made for the camera and roster in use.
    for_camera: ForCamera,
}

/// What follows the camera and the roster: made again only when either changes.
#[derive(Default)]
struct ForCamera {
    /// The camera and rules count they were made for.
    made_for: Option<(calibration::Camera, u64)>,
    /// What the camera can see of the table, and the roster's tag size, for the plan.
    sight: Option<(Arc<SightMap>, Inches)>,
    /// The roster's stand tags: their sizes say why a held stand is not seen.
    stand_tags: HashMap<u32, StandTagSpec>,
}

impl Processor {
    /// A processor for these table files.
    pub fn new(inputs: Inputs) -> Processor {
        let settings = DetectorSettings {
            family: inputs
                .calibration
                .as_ref()
                .map(|c| c.family.clone())
                .or_else(|| inputs.anchors.as_ref().map(|a| a.family.clone()))
                .unwrap_or_else(|| DetectorSettings::default().family),
            ..DetectorSettings::default()
        };
        Processor {
            lens: LensLearning::new(inputs.lens_folder.clone()),
            inputs,
            detector: LiveDetector::new(LiveSettings {
                detector: settings,
                ..LiveSettings::default()
            })
            .map_err(|e| e.to_string()),
            tracker: Tracker::new(TrackerSettings::default()),
            rate: Rate::default(),
            ruler: Ruler::default(),
            rules_changed: 0,
            moved_frames: 0,
            calibration_note: None,
            for_camera: ForCamera::default(),
        }
    }

    /// Forget the calibration: the next frame with the anchors in view makes a new one, through
    /// the lens already learnt (a moved camera keeps its lens).
    pub fn recalibrate(&mut self) {
        if self.inputs.anchors.is_some() {
            self.inputs.calibration = None;
            self.lens.restart();
            self.tracker.clear();
            if let Ok(detector) = &mut self.detector {
                detector.clear();
            }
        }
    }

    /// Rule by this ruleset from now on (`None`: the roster's).
    pub fn set_ruleset(&mut self, ruleset: Option<RulesetId>) {
        self.inputs.ruleset = ruleset;
        self.rules_changed += 1;
    }

    /// Place stands from this roster from now on.
    pub fn set_roster(&mut self, roster: Roster) {
        self.inputs.roster = Some(roster);
        self.rules_changed += 1;
    }

    /// Detect, place, track, build the scene and rule on it.
    pub fn process(&mut self, frame: &Frame, source: &str) -> TableState {
        let (mut state, rules) = self.observe(frame, source);
        self.ruler.complete(&mut state, rules);
        state
    }

    /// Detect, place, track and build the scene, without rulings: the state, and the count of
    /// rule changes to rule it under (see [`Ruler::complete`]).
    pub fn observe(&mut self, frame: &Frame, source: &str) -> (TableState, u64) {
        let started = Instant::now();
        let mut state = TableState::message(source, None);
        state.frame_index = frame.index;
        state.status.notes = self.inputs.notes.clone();
        if let Some(roster) = &self.inputs.roster {
            state.stand_height = Inches(roster.tags.height);
        }
        let size = vision::image_size(&frame.image);
        match vision::to_rgba(&frame.image) {
            Ok(rgba) => {
                let pixels = [size.width as usize, size.height as usize];
                state.frame = Some(Arc::new(egui::ColorImage::from_rgba_unmultiplied(
                    pixels, &rgba,
                )));
            }
            Err(e) => state.status.error = Some(e.to_string()),
        }
        let detector = match &mut self.detector {
            Ok(detector) => detector,
            Err(e) => {
                state.status.error = Some(format!("no tag detector: {e}"));
                return (state, self.rules_changed);
            }
        };
        let mut detections = match detector.detect(&frame.image) {
            Ok(d) => d,
            Err(e) => {
                state.status.error = Some(e.to_string());
                return (state, self.rules_changed);
            }
        };
        state.status.detect_time = detections.detect_time;
        let sightings = detections.sightings();
        self.update_calibration(&sightings, size, &mut state.status);
        self.learn_lens(&frame.image, &sightings, &mut state);
        if let Ok(detector) = &mut self.detector {
            // For the next frame's search, and this frame's plan.
            Self::follow_camera(
                detector,
                &self.inputs,
                self.rules_changed,
                &mut self.for_camera,
            );
            // A calibration just made: the small tags are searched for on this frame, not the
            // next, which a still picture never gives.
            if let Err(e) = detector.search_pending(&frame.image, &mut detections) {
                tracing::warn!("the search for small tags failed: {e}");
            }
        }
        let sightings = detections.sightings();
        state.sight = self.for_camera.sight.clone();
        if let Some(calibration) = self.inputs.calibration.clone() {
            self.place(frame, &calibration, &sightings, &mut state);
            state.calibration = Some(calibration);
        }
        state.status.frame_work = started.elapsed();
        state.status.pipeline_fps = self.rate.tick();
        (state, self.rules_changed)
    }

    /// Keep the detector's search for small tags and the map of what the camera can see made
    /// for the camera and roster in use.
    fn follow_camera(
        detector: &mut LiveDetector,
        inputs: &Inputs,
        rules_changed: u64,
        made: &mut ForCamera,
    ) {
        let now = inputs
            .calibration
            .as_ref()
            .map(|c| (c.camera, rules_changed));
        if now == made.made_for {
            return;
        }
        made.made_for = now;
        made.sight = None;
        made.stand_tags = inputs
            .roster
            .as_ref()
            .map(Roster::stand_tags)
            .unwrap_or_default();
        let (Some(calibration), Some(roster)) = (&inputs.calibration, &inputs.roster) else {
            detector.search_small(None);
            return;
        };
        let search = SmallTagSearch::new(calibration, &made.stand_tags)
            .inspect_err(|e| tracing::warn!("no search for small tags: {e}"))
            .ok();
        detector.search_small(search);
        let map = SightMap::of(
            &calibration.camera,
            Inches(calibration.table.width),
            Inches(calibration.table.depth),
            Inches(roster.tags.height),
            SIGHT_CELL,
        );
        made.sight = Some((Arc::new(map), Inches(roster.tags.size)));
    }

    /// Keep the calibration fit for this frame: make one from the anchors when there is none,
    /// check it against the anchors, and make a new one when the camera has clearly moved.
    fn update_calibration(
        &mut self,
        sightings: &[calibration::TagSighting],
        size: ImageSize,
        status: &mut Status,
    ) {
        if let Some(c) = &self.inputs.calibration
            && c.camera.intrinsics.image_size != size
        {
            self.calibration_note = Some(format!(
                "the calibration was made at {} but the frames are {size}: recalibrate",
                c.camera.intrinsics.image_size
            ));
            self.inputs.calibration = None;
        }
        if self.inputs.calibration.is_none() {
            match &self.inputs.anchors {
                Some(anchors) => {
                    let lens = self.lens.lens_for(size);
                    let settings = CalibrationSettings {
                        intrinsics: lens.map(|(l, _)| l),
                        ..CalibrationSettings::default()
                    };
                    match calibration::calibrate(anchors, sightings, size, &settings) {
                        Ok(mut c) => {
                            if let Some((_, source)) = lens {
                                c.lens = source;
                            }
                            tracing::info!(rms = %c.quality.rms, "calibrated from the anchors in view");
                            self.inputs.calibration = Some(c);
                            self.calibration_note = None;
                        }
                        Err(e) => {
                            status.calibration =
                                CalibrationStatus::Missing(format!("not calibrated: {e}"));
                            return;
                        }
                    }
                }
                None => {
                    status.calibration = CalibrationStatus::Missing(
                        self.calibration_note.clone().unwrap_or_else(|| {
                            "no calibration: give a calibration file (vedette calibrate) or the anchors file".into()
                        }),
                    );
                    return;
                }
            }
        }
        let Some(calibration) = &self.inputs.calibration else {
            return;
        };
        let check = check_anchors(calibration, sightings);
        let stale = matches!(check, AnchorCheck::CameraMoved { .. });
        self.moved_frames = if stale { self.moved_frames + 1 } else { 0 };
        status.calibration = CalibrationStatus::Ready {
            rms_pixels: calibration.quality.rms.0,
            rms_inches: calibration.quality.rms_on_table.0,
            check: check.message(),
            stale,
        };
        if self.moved_frames >= MOVED_FRAMES_BEFORE_RECALIBRATING && self.inputs.anchors.is_some() {
            tracing::warn!("the camera has moved: recalibrating from the anchors");
            self.moved_frames = 0;
            self.recalibrate();
        }
    }

    /// Offer the frame's tags to the lens learning; take a better lens when one is fitted.
    /// Nothing is learnt while the anchors say the camera has moved: those frames are seen
    /// from elsewhere than the calibration's.
    fn learn_lens(
        &mut self,
        image: &vision::Mat,
        sightings: &[calibration::TagSighting],
        state: &mut TableState,
    ) {
        if let (Some(anchors), Some(calibration), 0) = (
            &self.inputs.anchors,
            &self.inputs.calibration,
            self.moved_frames,
        ) {
            let better = self.lens.frame(
                image,
                sightings,
                anchors,
                self.inputs.roster.as_ref(),
                calibration,
            );
            if let Some(better) = better {
                self.inputs.calibration = Some(better);
            }
        }
        state.status.lens = self.lens.status().clone();
        state.lens_coverage = self.lens.coverage().cloned();
    }

    /// Wait for the lens fit under way, if any, and take its lens (tests: the pipeline itself
    /// never waits).
    pub fn finish_lens_fit(&mut self, limit: Duration) -> bool {
        match self.lens.wait(limit) {
            Some(better) => {
                self.inputs.calibration = Some(better);
                true
            }
            None => false,
        }
    }

    /// The calibration in use.
    pub fn calibration(&self) -> Option<&TableCalibration> {
        self.inputs.calibration.as_ref()
    }

    /// Place the tags, follow them, and build the scene and its rulings.
    fn place(
        &mut self,
        frame: &Frame,
        calibration: &TableCalibration,
        sightings: &[calibration::TagSighting],
        state: &mut TableState,
    ) {
        let roster = self.inputs.roster.as_ref();
        let tags = locate_tags(calibration, roster, sightings, state.stand_height);
        for problem in &tags.problems {
            match problem {
                vision::TagProblem::Unknown { id, .. } => state.status.unknown_tags.push(*id),
                other => state.status.notes.push(other.to_string()),
            }
        }
        let tracked = self.tracker.update(frame.time, &tags.tags);
        let sizes = &self.for_camera.stand_tags;
        let held: HashMap<u32, Unseen> = tracked
            .iter()
            .filter(|t| t.sighting != vision::Sighting::Now)
            .map(|t| {
                let pose = &t.tag.pose;
                let size = sizes.get(&pose.id).map_or(pose.measured_size, |s| s.size);
                let last = TagPlacement {
                    center: pose.center,
                    facing: pose.facing,
                    size,
                    height: pose.height,
                };
                (pose.id, Unseen::of(&calibration.camera, &last))
            })
            .collect();
        state.status.held_tags = held.iter().map(|(id, why)| (*id, *why)).collect();
        state.status.held_tags.sort_unstable_by_key(|(id, _)| *id);
        state.tags = Some(tags);
        let Some(roster) = roster else {
            state
                .status
                .notes
                .push("no roster: tags are shown, units are not".into());
            return;
        };
        // An anchor's id in the roster is noted when the inputs are read.
        match scene_on_table(
            roster,
            calibration,
            tracked.iter().map(|t| &t.tag.pose),
            self.inputs.terrain.clone(),
            &state.status.source,
        ) {
            Ok((mut scene, sighted)) => {
                if let Some(ruleset) = self.inputs.ruleset {
                    scene.ruleset = ruleset;
                }
                state.held_units = roster
                    .units
                    .iter()
                    .filter(|u| u.stands.iter().all(|s| held.contains_key(&s.tag)))
                    .filter_map(|u| Some((u.id.clone(), held[&u.stands.first()?.tag])))
                    .collect();
                state.status.unseen = sighted.unseen;
                state.status.partial = sighted.partial;
                state.scene = Some(Arc::new(scene));
            }
            Err(e) => state.status.notes.push(e.to_string()),
        }
    }
}

/// Makes the rulings of a scene, and reuses them until a stand moves further than the
/// camera's wobble from where it was when they were made, or the rules change.
#[derive(Default)]
pub struct Ruler {
    /// The scene the rulings were made for, the rulings, and the rules' change count.
    cached: Option<(Arc<Scene>, Arc<Rulings>, u64)>,
}

impl Ruler {
    /// Fill in the rulings of the state's scene, under the rules of change count `rules`.
    pub fn complete(&mut self, state: &mut TableState, rules: u64) {
        let Some(scene) = &state.scene else {
            return;
        };
        if let Some((ruled, rulings, made_under)) = &self.cached
            && *made_under == rules
            && !scene_moved(ruled, scene, MoveThreshold::default())
        {
            state.rulings = Some(rulings.clone());
            return;
        }
        let made = Arc::new(rulings(scene));
        self.cached = Some((scene.clone(), made.clone(), rules));
        state.rulings = Some(made);
    }
}

/// What the UI asks of the pipeline.
#[derive(Debug)]
pub enum Command {
    /// Switch to another source and table files (no restart needed).
    Open(Setup),
    /// Make a new calibration from the anchors in the next frame.
    Recalibrate,
    /// Use this roster from the next frame (edited in the app: the table follows each edit).
    Roster(Box<Roster>),
    /// Rule by this ruleset (`None`: the roster's) from the next frame.
    Ruleset(Option<RulesetId>),
}

/// A source being read, with its processor.
struct Running {
    name: String,
    capture: Option<Capture>,
    processor: Processor,
    /// Whether a frame or an "opened" has come from the source yet.
    opened: bool,
    /// A live source: its frames are skipped when a stage is busy, never waited for.
    live: bool,
    setup: Setup,
    /// The last frame read: a source that has ended (a still picture) shows a change of
    /// roster, ruleset or calibration on it again, having no next frame to show it on.
    last_frame: Option<vision::Frame>,
}

impl Running {
    fn new(name: String, plan: Option<SourcePlan>, inputs: Inputs, setup: Setup) -> Running {
        Running {
            name,
            live: plan.as_ref().is_some_and(|p| p.live),
            capture: plan.map(Capture::start),
            processor: Processor::new(inputs),
            opened: false,
            setup,
            last_frame: None,
        }
    }
}

/// Start reading the source a setup names, with its table files. The source is opened on the
/// capture thread; the demo table stands in for a webcam that cannot be opened (see [`run`]).
fn open(setup: &Setup) -> (Running, Option<String>) {
    let name = setup.source.to_string();
    let (plan, inputs, error) = match &setup.source {
        SourceChoice::Demo => match Demo::new() {
            Ok(demo) => {
                let inputs = Inputs {
                    ruleset: setup.ruleset,
                    ..demo.inputs()
                };
                let mut source = Some(demo.source());
                let open: OpenSource = Box::new(move || {
                    let source = source.take().ok_or("the demo table was already opened")?;
                    Ok(Box::new(source) as Box<dyn FrameSource>)
                });
                (Some(plan(open, true, false)), inputs, None)
            }
            Err(e) => (None, Inputs::default(), Some(format!("demo table: {e:#}"))),
        },
        SourceChoice::Webcam {
            index,
            width,
            height,
        } => {
            let request = WebcamRequest {
                index: *index,
                width: *width,
                height: *height,
                ..WebcamRequest::default()
            };
            let open: OpenSource = Box::new(move || {
                let camera = Webcam::open(request).map_err(|e| e.to_string())?;
                Ok(Box::new(camera) as Box<dyn FrameSource>)
            });
            (Some(plan(open, false, false)), Inputs::load(setup), None)
        }
        SourceChoice::Video(path) => {
            let path = path.clone();
            let open: OpenSource = Box::new(move || {
                let video = VideoFile::open(&path).map_err(|e| e.to_string())?;
                Ok(Box::new(video) as Box<dyn FrameSource>)
            });
            // Loop a video: a convention table keeps playing.
            (Some(plan(open, true, true)), Inputs::load(setup), None)
        }
        SourceChoice::Image(path) => {
            let path = path.clone();
            let open: OpenSource =
                Box::new(move || Ok(Box::new(ImageFile::new(&path)) as Box<dyn FrameSource>));
            // A picture's one frame must not be dropped.
            let plan = SourcePlan {
                live: false,
                ..plan(open, false, false)
            };
            (Some(plan), Inputs::load(setup), None)
        }
    };
    (Running::new(name, plan, inputs, setup.clone()), error)
}

/// A live source's plan: frames dropped when the processor is busy.
fn plan(open: OpenSource, paced: bool, looped: bool) -> SourcePlan {
    SourcePlan {
        open,
        paced,
        live: true,
        looped,
    }
}

/// The pipeline thread, as the UI holds it.
pub struct Pipeline {
    commands: Sender<Command>,
    latest: Arc<Mutex<Option<Arc<TableState>>>>,
    /// The newest state for watchers besides the UI (the table's server): a value replaced,
    /// never a queue, so a slow watcher never holds the pipeline up.
    watched: tokio::sync::watch::Receiver<Option<Arc<TableState>>>,
    /// The pipeline thread, then the ruling thread (stopped in that order).
    threads: Vec<JoinHandle<()>>,
}

impl Pipeline {
    /// Start the pipeline on a setup; `repaint` is called after each new state (egui's
    /// `request_repaint`, so the UI wakes only when there is something new).
    pub fn start(setup: Setup, repaint: impl Fn() + Send + 'static) -> Pipeline {
        Pipeline::spawn(move || open(&setup), repaint)
    }

    /// Start the pipeline on a source of the caller's (a camera driver of its own, a scripted
    /// source in tests), with these table files; its frames are not paced, and each waits to
    /// be processed.
    pub fn start_on(
        source: Box<dyn FrameSource + Send>,
        inputs: Inputs,
        repaint: impl Fn() + Send + 'static,
    ) -> Pipeline {
        let first = move || {
            let name = source.name();
            let mut source = Some(source);
            let open: OpenSource = Box::new(move || {
                let source = source.take().ok_or("the source was already opened")?;
                Ok(source as Box<dyn FrameSource>)
            });
            // A caller's source is not paced, and waits for each frame to be processed.
            let plan = SourcePlan {
                open,
                paced: false,
                live: false,
                looped: false,
            };
            let running = Running::new(name, Some(plan), inputs, Setup::default());
            (running, None)
        };
        Pipeline::spawn(first, repaint)
    }

    fn spawn(
        first: impl FnOnce() -> (Running, Option<String>) + Send + 'static,
        repaint: impl Fn() + Send + 'static,
    ) -> Pipeline {
        let (commands, receiver) = std::sync::mpsc::channel();
        let latest = Arc::new(Mutex::new(None));
        let shared = latest.clone();
        let (watchers, watched) = tokio::sync::watch::channel(None);
        let (to_ruling, states, skipped) = dropping::<(TableState, u64)>(1);
        let threads = [
            std::thread::Builder::new()
                .name("vedette-pipeline".into())
                .spawn(move || run(first(), &receiver, &to_ruling)),
            std::thread::Builder::new()
                .name("vedette-rulings".into())
                .spawn(move || rule_and_publish(&states, &skipped, &shared, &watchers, &repaint)),
        ];
        let threads = threads
            .into_iter()
            .filter_map(|t| {
                t.map_err(|e| tracing::error!("cannot start a pipeline thread: {e}"))
                    .ok()
            })
            .collect();
        Pipeline {
            commands,
            latest,
            watched,
            threads,
        }
    }

    /// Send a command (switch source, recalibrate).
    pub fn send(&self, command: Command) {
        if self.commands.send(command).is_err() {
            tracing::error!("the pipeline thread has stopped");
        }
    }

    /// The newest state, if one arrived since the last call.
    pub fn take_latest(&self) -> Option<Arc<TableState>> {
        self.latest.lock().ok().and_then(|mut l| l.take())
    }

    /// Every new state, for a watcher besides the UI (the table's server).
    pub fn watch(&self) -> tokio::sync::watch::Receiver<Option<Arc<TableState>>> {
        self.watched.clone()
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        // Closing the channel stops the pipeline thread at its next frame, which closes the
        // ruling thread's queue.
        let (dead, _) = std::sync::mpsc::channel();
        self.commands = dead;
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// The ruling thread: rule each state (again only when a stand moved or the rules changed) and
/// put it in the UI's one-state slot.
fn rule_and_publish(
    states: &Receiver<(TableState, u64)>,
    skipped: &Counts,
    latest: &Mutex<Option<Arc<TableState>>>,
    watchers: &tokio::sync::watch::Sender<Option<Arc<TableState>>>,
    repaint: &dyn Fn(),
) {
    let mut ruler = Ruler::default();
    for (mut state, rules) in states {
        ruler.complete(&mut state, rules);
        state.status.dropped_frames += skipped.dropped();
        let state = Arc::new(state);
        watchers.send_replace(Some(state.clone()));
        if let Ok(mut slot) = latest.lock() {
            *slot = Some(state);
        }
        repaint();
    }
}

/// Hand a state to the ruling thread: a live source's frame is skipped if that thread is
/// busy; a message, a picture's or a script's frame waits for it.
fn hand_over(to_ruling: &DropSender<(TableState, u64)>, state: TableState, rules: u64, wait: bool) {
    if wait {
        to_ruling.deliver((state, rules));
    } else {
        to_ruling.offer((state, rules));
    }
}

fn run(
    first: (Running, Option<String>),
    commands: &Receiver<Command>,
    to_ruling: &DropSender<(TableState, u64)>,
) {
    let (mut running, mut error) = first;
    loop {
        let command = if running.capture.is_none() {
            // Nothing to read: wait for the UI, without spinning.
            match commands.recv_timeout(Duration::from_millis(250)) {
                Ok(c) => Some(c),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        } else {
            match commands.try_recv() {
                Ok(c) => Some(c),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => return,
            }
        };
        let changes_inputs = matches!(
            command,
            Some(Command::Recalibrate | Command::Roster(_) | Command::Ruleset(_))
        );
        match command {
            Some(Command::Open(setup)) => (running, error) = open(&setup),
            Some(Command::Recalibrate) => running.processor.recalibrate(),
            Some(Command::Roster(roster)) => running.processor.set_roster(*roster),
            Some(Command::Ruleset(ruleset)) => running.processor.set_ruleset(ruleset),
            None => {}
        }
        if let Some(e) = error.take() {
            let message = TableState::message(&running.name, Some(e));
            hand_over(to_ruling, message, 0, true);
        }
        if changes_inputs
            && running.capture.is_none()
            && let Some(frame) = &running.last_frame
        {
            let (state, rules) = running.processor.observe(frame, &running.name);
            hand_over(to_ruling, state, rules, true);
        }
        let Some(capture) = &running.capture else {
            continue;
        };
        // Wake now and then to take the UI's commands.
        match capture.received.recv_timeout(Duration::from_millis(100)) {
            Ok(Captured::Opened(name)) => (running.name, running.opened) = (name, true),
            Ok(Captured::Frame(frame)) => {
                running.opened = true;
                let dropped = capture.counts.dropped();
                let (mut state, rules) = running.processor.observe(&frame, &running.name);
                state.status.dropped_frames = dropped;
                hand_over(to_ruling, state, rules, !running.live);
                running.last_frame = Some(frame);
            }
            Ok(Captured::Failed(message)) => {
                if !running.opened && matches!(running.setup.source, SourceChoice::Webcam { .. }) {
                    // No camera: the app stays alive on the demo table.
                    let demo = Setup {
                        source: SourceChoice::Demo,
                        ..Setup::default()
                    };
                    (running, _) = open(&demo);
                    error = Some(format!("{message}: showing the demo table instead"));
                } else {
                    let message = TableState::message(&running.name, Some(message));
                    hand_over(to_ruling, message, 0, true);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            // The source has ended (a picture, a sequence): keep the last state on screen.
            Err(RecvTimeoutError::Disconnected) => running.capture = None,
        }
    }
}
