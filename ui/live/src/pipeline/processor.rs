//! One frame's work, without the thread ([`Processor`]), and the rulings made again only when
//! a stand moves ([`Ruler`]).

use roster::TagDefaults;
use rules::ground::Ground;
use vision::refine::{TablePicture, TableTags, calibrate_pictures};

use super::ground::{GroundLearning, Seen};
use super::state::Rate;
use super::table::TableBook;
use super::*;

/// Frames in a row the anchors must say "the camera moved" before the processor recalibrates
/// by itself (a hand passing over an anchor lasts less).
pub(super) const MOVED_FRAMES_BEFORE_RECALIBRATING: u32 = 10;

/// The side of the cells of the plan's map of what the camera can see.
pub(super) const SIGHT_CELL: Inches = Inches(2.0);

/// The side of the cells of the plan's map of where the camera measures worst: 12 × 8 on a
/// 6' × 4' table, fine enough to show how the error grows away from the camera.
pub(super) const ERROR_CELL: Inches = Inches(6.0);

/// One frame's work, without the thread.
pub struct Processor {
    inputs: Inputs,
    /// The live detector: regions around the known tags, full passes now and then.
    detector: Result<LiveDetector, String>,
    tracker: Tracker,
    /// Units at rest, on their way, and their moves.
    table: TableBook,
    /// The camera the tracked tags were placed through.
    placed_through: Option<calibration::Camera>,
    /// How each tag at rest looks: blur, glare, faded ink, and the remedy.
    health: HealthWatch,
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
    /// The ground under the stands: the hills whose rise the terrain gives, and what was
    /// learnt of it from stands resting above it.
    ground_learning: GroundLearning,
}

/// What follows the camera and the roster: made again only when either changes.
#[derive(Default)]
pub(super) struct ForCamera {
    /// The camera and rules count they were made for.
    made_for: Option<(calibration::Camera, u64)>,
    /// What the camera can see of the table, and the roster's tag size, for the plan.
    sight: Option<(Arc<SightMap>, Inches)>,
    /// Where the camera measures worst, for the plan.
    error_map: Option<Arc<ErrorMap>>,
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
        let ground_learning =
            GroundLearning::new(Ground::of_docs(&inputs.terrain), &settings.family);
        Processor {
            health: HealthWatch::new(&settings.family),
            lens: LensLearning::new(inputs.lens_folder.clone()),
            inputs,
            detector: LiveDetector::new(LiveSettings {
                detector: settings,
                ..LiveSettings::default()
            })
            .map_err(|e| e.to_string()),
            tracker: Tracker::new(TrackerSettings::default()),
            table: TableBook::default(),
            placed_through: None,
            rate: Rate::default(),
            ruler: Ruler::default(),
            rules_changed: 0,
            moved_frames: 0,
            calibration_note: None,
            for_camera: ForCamera::default(),
            ground_learning,
        }
    }

    /// Forget the calibration: the next frame with the anchors in view makes a new one, through
    /// the lens already learnt (a moved camera keeps its lens).
    pub fn recalibrate(&mut self) {
        if self.inputs.anchors.is_some() {
            self.inputs.calibration = None;
            self.lens.restart();
            self.tracker.clear();
            self.table.clear();
            self.placed_through = None;
            if let Ok(detector) = &mut self.detector {
                detector.clear();
            }
        }
    }

    /// Start a new game on the same table, camera and calibration (a looping source started
    /// again): every rest, move and followed tag forgotten, so units jumping back to their
    /// start are no moves.
    pub fn new_game(&mut self) {
        self.tracker.clear();
        self.table.new_game();
        self.placed_through = None;
        if let Ok(detector) = &mut self.detector {
            detector.clear();
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
        let (mut state, word) = self.look(frame, source);
        if let Some(word) = word {
            self.table.build(&self.inputs, &word, &mut state);
        }
        (state, self.rules_changed)
    }

    /// Detect, keep the calibration and lens fit, place and track: the frame's state without
    /// its scene, and what the camera says of its tags once it is calibrated (a camera of a
    /// rig stops here: the rig builds the table from every camera's word).
    pub fn look(&mut self, frame: &Frame, source: &str) -> (TableState, Option<CameraWord>) {
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
                state.frame = crate::Picture::from_rgba(pixels, rgba).map(Arc::new);
            }
            Err(e) => state.status.error = Some(e.to_string()),
        }
        let detector = match &mut self.detector {
            Ok(detector) => detector,
            Err(e) => {
                state.status.error = Some(format!("no tag detector: {e}"));
                return (state, None);
            }
        };
        let mut detections = match detector.detect(&frame.image) {
            Ok(d) => d,
            Err(e) => {
                state.status.error = Some(e.to_string());
                return (state, None);
            }
        };
        state.status.detect_time = detections.detect_time;
        let sightings = detections.sightings();
        self.update_calibration(&frame.image, &sightings, size, &mut state.status);
        self.learn_lens(&frame.image, &sightings, &mut state);
        if let Ok(detector) = &mut self.detector {
            // For the next frame's search, and this frame's plan.
            Self::follow_camera(
                detector,
                &self.inputs,
                self.rules_changed,
                &mut self.for_camera,
            );
            // A calibration just made: the missing tags are searched for on this frame, not the
            // next, which a still picture never gives.
            if let Err(e) = detector.search_pending(&frame.image, &mut detections) {
                tracing::warn!("the search for missing tags failed: {e}");
            }
        }
        let mut sightings = detections.sightings();
        if self.inputs.still
            && let Some(calibration) = &self.inputs.calibration
            && let Err(e) = vision::refine::for_placing(&frame.image, calibration, &mut sightings)
        {
            tracing::debug!("the still picture's corners not refined: {e}");
        }
        state.sight = self.for_camera.sight.clone();
        state.error_map = self.for_camera.error_map.clone();
        let word = self.inputs.calibration.clone().map(|calibration| {
            let word = self.track(frame, &calibration, &sightings, &mut state);
            state.calibration = Some(calibration);
            word
        });
        state.status.frame_work = started.elapsed();
        state.status.pipeline_fps = self.rate.tick();
        (state, word)
    }

    /// Keep the detector's search for missing tags and the map of what the camera can see made
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
        made.error_map = inputs.calibration.as_ref().map(|calibration| {
            // Stands as the roster has them; without one, the tags Vedette prints by default.
            let tags = inputs
                .roster
                .as_ref()
                .map_or_else(TagDefaults::default, |r| r.tags);
            let started = Instant::now();
            let map = ErrorMap::over(calibration, &tags, ERROR_CELL);
            tracing::debug!(took = ?started.elapsed(), "where the camera measures worst");
            Arc::new(map)
        });
        made.stand_tags = inputs
            .roster
            .as_ref()
            .map(Roster::stand_tags)
            .unwrap_or_default();
        let (Some(calibration), Some(roster)) = (&inputs.calibration, &inputs.roster) else {
            detector.search_missing(None);
            return;
        };
        let search = MissingTagSearch::new(calibration, &made.stand_tags)
            .inspect_err(|e| tracing::warn!("no search for missing tags: {e}"))
            .ok();
        detector.search_missing(search);
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
        image: &vision::Mat,
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
            let Some(anchors) = &self.inputs.anchors else {
                status.calibration = CalibrationStatus::Missing(
                    self.calibration_note.clone().unwrap_or_else(|| {
                        "no calibration: give a calibration file (vedette calibrate) or the anchors file".into()
                    }),
                );
                return;
            };
            let made = if self.inputs.still {
                let roster = self.inputs.roster.as_ref();
                calibrate_still(
                    anchors,
                    roster,
                    self.ground_learning.ground(),
                    image,
                    sightings,
                )
            } else {
                calibrate_live(&mut self.lens, anchors, sightings, size)
            };
            match made {
                Ok(c) => {
                    tracing::info!(rms = %c.quality.rms, lens = %c.lens, "calibrated from the tags in view");
                    self.inputs.calibration = Some(c);
                    self.calibration_note = None;
                }
                Err(e) => {
                    status.calibration = CalibrationStatus::Missing(format!("not calibrated: {e}"));
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
        let started = Instant::now();
        if self.inputs.still {
            // One picture teaches nothing more than its calibration measured.
            state.status.lens = LensStatus::of_picture(self.inputs.calibration.as_ref());
            return;
        }
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
        state.status.lens_time = started.elapsed();
    }

    /// Let the lens learning catch up — the corners being refined taken, the fit they make due
    /// run — and take its lens (tests: the pipeline itself never waits).
    pub fn finish_lens_fit(&mut self, limit: Duration) -> bool {
        let (Some(anchors), Some(calibration)) = (&self.inputs.anchors, &self.inputs.calibration)
        else {
            return false;
        };
        match self.lens.settle(limit, anchors, calibration) {
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

    /// Place the tags and follow them: what this camera says of its frame, for the table.
    fn track(
        &mut self,
        frame: &Frame,
        calibration: &TableCalibration,
        sightings: &[calibration::TagSighting],
        state: &mut TableState,
    ) -> CameraWord {
        let roster = self.inputs.roster.as_ref();
        let ground = self.ground_learning.ground();
        let mut tags = locate_tags_on(calibration, roster, sightings, state.stand_height, ground);
        // A tag the figures on its base partly cover is placed less surely: its bar says so.
        let covered = self.health.covered();
        for tag in tags
            .tags
            .iter_mut()
            .filter(|t| covered.contains(&t.pose.id))
        {
            tag.pose.uncertainty = tag.pose.uncertainty.covered();
        }
        state.status.doubts = calibration.doubts();
        state.status.doubts.extend(tags.doubts());
        for problem in &tags.problems {
            match problem {
                vision::TagProblem::Unknown { id, .. } => state.status.unknown_tags.push(*id),
                other => state.status.notes.push(other.to_string()),
            }
        }
        let mut replaced = Vec::new();
        if self.placed_through != Some(calibration.camera) {
            // The lens learnt better: the same table seen more truly, no unit moved.
            if self.placed_through.is_some() {
                replaced = self.tracker.recalibrated(calibration);
            }
            self.placed_through = Some(calibration.camera);
        }
        let observed = vision::observations(&tags, sightings, &self.for_camera.stand_tags);
        let mut tracked = self.tracker.update(frame.time, calibration, &observed);
        if let Some(roster) = roster {
            let word = self.ground_learning.look(
                frame.time,
                (roster, &self.for_camera.stand_tags),
                calibration,
                Seen {
                    image: &frame.image,
                    tags: &tags,
                    sightings,
                },
                &mut tracked,
                &mut self.tracker,
            );
            state.status.notes.extend(word.notes);
            // The stands on learnt ground were placed again: the same table seen more
            // truly, as when the lens is learnt better.
            replaced.extend(word.replaced);
        }
        state.learnt_ground = self.ground_learning.ground().learnt().to_vec();
        if !state.learnt_ground.is_empty() {
            state.status.notes.push(format!(
                "the ground under {} stand(s) learnt in play (dashed, \"learnt … up\"): give the hill its rise in the terrain file to have it from the start",
                state.learnt_ground.len()
            ));
        }
        look_after_tags(&mut self.health, &frame.image, &tracked, sightings, state);
        let held = self.held(calibration, &tracked);
        state.status.held_tags = held.iter().map(|(id, why)| (*id, *why)).collect();
        state.status.held_tags.sort_unstable_by_key(|(id, _)| *id);
        state.tags = Some(tags);
        CameraWord {
            calibration: calibration.clone(),
            tracked,
            held,
            replaced,
        }
    }

    /// The tags not seen now, held where they rest, and why the camera does not see them.
    fn held(
        &self,
        calibration: &TableCalibration,
        tracked: &[vision::TrackedTag],
    ) -> HashMap<u32, Unseen> {
        let sizes = &self.for_camera.stand_tags;
        tracked
            .iter()
            .filter(|t| t.sighting != vision::Sighting::Now)
            .filter_map(|t| {
                let pose = t.resting.as_ref()?;
                let size = sizes.get(&pose.id).map_or(pose.measured_size, |s| s.size);
                let last = TagPlacement {
                    center: pose.center,
                    facing: pose.facing,
                    size,
                    height: pose.height,
                };
                Some((pose.id, Unseen::of(&calibration.camera, &last)))
            })
            .collect()
    }
}

/// Look at a few tags at rest this frame.
fn look_after_tags(
    health: &mut HealthWatch,
    image: &vision::Mat,
    tracked: &[vision::TrackedTag],
    sightings: &[calibration::TagSighting],
    state: &mut TableState,
) {
    if let Err(e) = health.examine_at_rest(image, tracked, sightings) {
        tracing::debug!("tags' health not read: {e}");
    }
    state.health = health.remedies();
}

/// Makes the rulings of a scene, and reuses them until a stand moves further than the
/// camera's wobble from where it was when they were made, or the rules change.
#[derive(Default)]
pub struct Ruler {
    /// The scene the rulings were made for, the rulings, and the rules' change count.
    cached: Option<(Arc<Scene>, Arc<Rulings>, u64)>,
}

impl Ruler {
    /// The table the rulings in use were made for: where the units stood for the rules (a
    /// rest's mean creeps by hundredths of an inch as sightings come in; this moves only when
    /// the rulings are made again).
    pub fn ruled(&self) -> Option<&Arc<Scene>> {
        self.cached.as_ref().map(|(scene, _, _)| scene)
    }

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

/// A still picture's calibration, made as `vedette calibrate` makes it: the lens measured from
/// the anchors and the roster's stand tags, their corners refined. The same picture gives the
/// same error bars and rulings in the app as through a calibration file.
fn calibrate_still(
    anchors: &AnchorLayout,
    roster: Option<&Roster>,
    ground: &Ground,
    image: &vision::Mat,
    detected: &[calibration::TagSighting],
) -> Result<TableCalibration, String> {
    let mut stands = roster.map(Roster::stand_tags).unwrap_or_default();
    // A tag both anchor and stand is the anchor (as `vedette calibrate` reads it).
    stands.retain(|id, _| anchors.anchor(*id).is_none());
    let tags = TableTags {
        anchors,
        stands: &stands,
        board: None,
        previous: None,
        ground: Some(ground),
    };
    let picture = TablePicture { image, detected };
    let fitted = calibrate_pictures(tags, &[picture], vision::image_size(image))
        .map_err(|e| e.to_string())?;
    fitted.calibration.map_err(|e| e.to_string())
}

/// A live source's calibration from the anchors in view, through the lens learnt so far
/// (later frames teach the lens more: see [`LensLearning`]).
fn calibrate_live(
    lens: &mut LensLearning,
    anchors: &AnchorLayout,
    sightings: &[calibration::TagSighting],
    size: ImageSize,
) -> Result<TableCalibration, String> {
    let lens = lens.lens_for(size);
    let settings = CalibrationSettings {
        intrinsics: lens.map(|(l, _)| l),
        ..CalibrationSettings::default()
    };
    let mut c =
        calibration::calibrate(anchors, sightings, size, &settings).map_err(|e| e.to_string())?;
    if let Some((_, source)) = lens {
        c.lens = source;
    }
    Ok(c)
}
