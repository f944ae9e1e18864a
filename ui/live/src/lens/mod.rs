//! The lens learnt while people play, for the pipeline: each frame's tags are offered to the
//! [`LensLearner`], the corners of those it keeps refined on a thread of their own
//! (`refining`); when it has gathered enough new sightings a fit runs on another (the
//! pipeline never waits for either), and the fitted calibration is taken when it is better
//! founded than the one in use. The lens is saved per frame size in the app's data folder, so
//! the next session starts from it; a moved camera keeps it and only finds the table again.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use calibration::LensLearner;
use calibration::lens::{Coverage, LensModel};
use calibration::{AnchorLayout, ImageSize, Intrinsics, LensSource, Pixels, TableCalibration};
use roster::Roster;
use vision::Mat;
use vision::refine::learner_offer;

mod refining;

use refining::{Refined, Refining};

/// New stand sightings the learner must gather before the lens is fitted again.
const REFIT_AFTER: usize = 12;
/// Stand sightings needed for a first fit.
const FIRST_FIT: usize = 16;
/// New stand sightings whose corners are refined at a time (`vision::refine`, a few
/// milliseconds each); the rest are still new on the next frames.
const REFINED_PER_FRAME: usize = 8;

/// Where the app keeps lenses: set once by the app's window (tests and the command line keep
/// none, so no run of theirs leaves a lens for the next).
static APP_FOLDER: OnceLock<PathBuf> = OnceLock::new();

/// Keep lenses in `folder` (the app's data folder's `lenses`) from now on.
pub fn keep_lenses(folder: PathBuf) {
    let _ = APP_FOLDER.set(folder);
}

/// The folder lenses are kept in, if the app keeps them.
pub fn app_folder() -> Option<PathBuf> {
    APP_FOLDER.get().cloned()
}

/// Where the lens stands, for the status bar.
#[derive(Clone, Debug, PartialEq)]
pub enum LensStatus {
    /// Nothing to learn from: no anchors, or no roster to say what the stand tags are.
    Idle,
    /// Gathering sightings; no fitted lens yet.
    Learning {
        /// The share of the table's part of the picture covered, 0 to 1.
        covered: f64,
    },
    /// A lens fitted from the tags is in use.
    Fitted {
        /// Its corner RMS.
        rms: Pixels,
        /// How much of it was measured.
        model: LensModel,
    },
    /// A still picture, whose calibration measured what one picture can of the lens: from its
    /// tags (`Some`: the corner RMS and how much was measured), or too few of them to measure
    /// more than the anchors' focal length (`None`).
    OnePicture(Option<(Pixels, LensModel)>),
}

impl LensStatus {
    /// A still picture's lens, as its calibration measured it.
    pub fn of_picture(calibration: Option<&TableCalibration>) -> LensStatus {
        match calibration.map(|c| &c.lens) {
            Some(LensSource::Tags(lens)) => LensStatus::OnePicture(Some((lens.rms, lens.model))),
            Some(_) => LensStatus::OnePicture(None),
            None => LensStatus::Idle,
        }
    }
}

impl std::fmt::Display for LensStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LensStatus::Idle => write!(f, "lens: not learning"),
            LensStatus::Learning { covered } => write!(
                f,
                "lens: learning — {:.0} % of the picture covered",
                100.0 * covered
            ),
            LensStatus::Fitted { rms, model } => {
                write!(f, "lens: fitted, {:.2} px ({})", rms.0, model.describe())
            }
            LensStatus::OnePicture(Some((rms, model))) => write!(
                f,
                "lens: fitted from this picture, {:.2} px ({})",
                rms.0,
                model.describe()
            ),
            LensStatus::OnePicture(None) => write!(
                f,
                "lens: not measured — too few tags in this one picture (focal length from the anchors)"
            ),
        }
    }
}

/// The learning, as the pipeline thread holds it.
pub struct LensLearning {
    learner: Option<LensLearner>,
    fitting: Option<Receiver<Result<TableCalibration, String>>>,
    taken_at_last_fit: usize,
    status: LensStatus,
    /// The lens to start from when the table is found again (a moved camera keeps its lens).
    lens: Option<(Intrinsics, LensSource)>,
    /// Where lenses are saved; `None` keeps them in memory only (tests, read-only homes).
    folder: Option<PathBuf>,
    /// What the kept sightings covered at the last frame.
    coverage: Option<Coverage>,
    /// Refines the corners of the sightings kept: the family it was started for, and the
    /// thread (`None` when the family has no patterns to refine against).
    refining: Option<(String, Option<Refining>)>,
}

impl LensLearning {
    /// Learning that saves lenses in `folder`.
    pub fn new(folder: Option<PathBuf>) -> LensLearning {
        LensLearning {
            learner: None,
            fitting: None,
            taken_at_last_fit: 0,
            status: LensStatus::Idle,
            lens: None,
            folder,
            coverage: None,
            refining: None,
        }
    }

    /// The status bar's line.
    pub fn status(&self) -> &LensStatus {
        &self.status
    }

    /// The lens to find the table with: the one in use, or one saved for this frame size.
    pub fn lens_for(&mut self, size: ImageSize) -> Option<(Intrinsics, LensSource)> {
        if let Some((lens, source)) = self.lens
            && lens.image_size == size
        {
            return Some((lens, source));
        }
        let saved = TableCalibration::load(&self.file(size)?).ok()?;
        let found = (saved.camera.intrinsics, saved.lens);
        tracing::info!(size = %size, "starting from the lens saved for this frame size");
        self.lens = Some(found);
        Some(found)
    }

    fn file(&self, size: ImageSize) -> Option<PathBuf> {
        Some(
            self.folder
                .as_ref()?
                .join(format!("lens-{}x{}.toml", size.width, size.height)),
        )
    }

    /// The camera moved: what was gathered is in the old picture, and so is a fit under way
    /// (dropped: its thread finishes for nobody); the lens stays.
    pub fn restart(&mut self) {
        if let Some(learner) = &mut self.learner {
            learner.restart();
        }
        // An offer being refined is of the old picture.
        self.refining = None;
        self.fitting = None;
        self.taken_at_last_fit = 0;
    }

    /// Offer a frame's sightings; returns a newly fitted calibration to use from now on.
    pub fn frame(
        &mut self,
        image: &Mat,
        sightings: &[calibration::TagSighting],
        anchors: &AnchorLayout,
        roster: Option<&Roster>,
        calibration: &TableCalibration,
    ) -> Option<TableCalibration> {
        let Some(roster) = roster else {
            self.status = LensStatus::Idle;
            return None;
        };
        let size = calibration.camera.intrinsics.image_size;
        let learner = match &mut self.learner {
            Some(learner) if learner.image_size() == size => learner,
            slot => {
                // A new frame size: an offer being refined is of the old pictures.
                self.refining = None;
                slot.insert(LensLearner::new(size, roster.stand_tags()))
            }
        };
        let family = &anchors.family;
        if self.refining.as_ref().is_none_or(|(f, _)| f != family) {
            self.refining = Some((family.clone(), Refining::start(family)));
        }
        match self.refining.as_mut().and_then(|(_, r)| r.as_mut()) {
            Some(refining) => {
                if let Some(refined) = refining.take() {
                    observe_refined(learner, refined, anchors);
                }
                if !refining.busy() {
                    let offered = learner_offer(sightings, anchors, learner, REFINED_PER_FRAME);
                    // Through the lens in use: the last fit's once there is one.
                    let lens = calibration.camera.intrinsics;
                    if !offered.is_empty()
                        && let Err(offered) = refining.send(image, offered, lens)
                    {
                        learner.observe(&offered, anchors);
                    }
                }
            }
            // No patterns to refine against: the detector's corners.
            None => {
                learner.observe(sightings, anchors);
            }
        }
        let coverage = learner.coverage(Some(calibration));
        let covered = coverage.fraction();
        self.coverage = Some(coverage);
        let fitted = self.collect();
        if self.fitting.is_none() && self.due() {
            self.start_fit(anchors, calibration);
        }
        if !matches!(self.status, LensStatus::Fitted { .. }) {
            self.status = LensStatus::Learning { covered };
        }
        fitted
    }

    /// What the kept sightings covered at the last frame, for the live view.
    pub fn coverage(&self) -> Option<&Coverage> {
        self.coverage.as_ref()
    }

    fn due(&self) -> bool {
        let taken = self.learner.as_ref().map_or(0, LensLearner::taken);
        let step = if self.taken_at_last_fit == 0 {
            FIRST_FIT
        } else {
            REFIT_AFTER
        };
        taken >= self.taken_at_last_fit + step
    }

    fn start_fit(&mut self, anchors: &AnchorLayout, calibration: &TableCalibration) {
        let Some(learner) = &self.learner else {
            return;
        };
        let snapshot = learner.snapshot();
        self.taken_at_last_fit = learner.taken();
        let (anchors, previous) = (anchors.clone(), calibration.clone());
        let (send, receive) = channel();
        let spawned = std::thread::Builder::new()
            .name("lens fit".into())
            .spawn(move || {
                let result = snapshot
                    .fit(&anchors, Some(&previous))
                    .map_err(|e| e.to_string());
                // The pipeline may have stopped meanwhile: nobody to tell.
                let _ = send.send(result);
            });
        match spawned {
            Ok(_) => self.fitting = Some(receive),
            Err(e) => tracing::warn!("could not start the lens fit: {e}"),
        }
    }

    /// Take a finished fit, if any: the calibration to use when it measured a better lens.
    fn collect(&mut self) -> Option<TableCalibration> {
        let result = match self.fitting.as_ref()?.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => Err("the lens fit stopped".into()),
        };
        self.fitting = None;
        self.adopt(result)
    }

    /// Let the learning catch up (tests: the pipeline itself never waits): take the offer being
    /// refined, start the fit it makes due, and wait for the fit running.
    pub fn settle(
        &mut self,
        limit: Duration,
        anchors: &AnchorLayout,
        calibration: &TableCalibration,
    ) -> Option<TableCalibration> {
        let refined = self
            .refining
            .as_mut()
            .and_then(|(_, r)| r.as_mut())
            .and_then(|r| r.wait(limit));
        if let (Some(refined), Some(learner)) = (refined, &mut self.learner) {
            observe_refined(learner, refined, anchors);
        }
        if self.fitting.is_none() && self.due() {
            self.start_fit(anchors, calibration);
        }
        let result = self.fitting.as_ref()?.recv_timeout(limit).ok()?;
        self.fitting = None;
        self.adopt(result)
    }

    fn adopt(&mut self, result: Result<TableCalibration, String>) -> Option<TableCalibration> {
        let calibration = match result {
            Ok(c) => c,
            Err(e) => {
                tracing::debug!("lens fit: {e}");
                return None;
            }
        };
        let LensSource::Tags(lens) = calibration.lens else {
            tracing::debug!("lens fit: the lens in use is better founded; kept");
            return None;
        };
        if self
            .lens
            .is_some_and(|(l, _)| l == calibration.camera.intrinsics)
        {
            return None;
        }
        tracing::info!(rms = %lens.rms, model = ?lens.model, "lens fitted from the tags in play");
        self.status = LensStatus::Fitted {
            rms: lens.rms,
            model: lens.model,
        };
        // A lens these tags fit but do not pin down serves the camera where it is; the one kept
        // to re-find the table after a knock (and saved) must be pinned down.
        if calibration
            .lens_report
            .as_ref()
            .is_some_and(|r| r.transferable)
        {
            self.lens = Some((calibration.camera.intrinsics, calibration.lens));
            self.save(&calibration);
        }
        Some(calibration)
    }

    fn save(&self, calibration: &TableCalibration) {
        let Some(file) = self.file(calibration.camera.intrinsics.image_size) else {
            return;
        };
        let saved = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(|e| e.to_string())
            .and_then(|()| calibration.save(&file).map_err(|e| e.to_string()));
        if let Err(e) = saved {
            tracing::warn!("could not keep the lens in {}: {e}", file.display());
        }
    }
}

/// Give the learner an offer back from refining: refined, or as detected when it could not be.
fn observe_refined(learner: &mut LensLearner, refined: Refined, anchors: &AnchorLayout) {
    let sightings = refined.unwrap_or_else(|(why, detected)| {
        tracing::warn!("lens learning: corners not refined: {why}");
        detected
    });
    learner.observe(&sightings, anchors);
}
