//! Several cameras on one table, each sending its tags when its frame is done: the newest
//! word from each, which cameras are live, late or lost, and the one table they make now.
//!
//! Decisions:
//! - The rig never waits for a camera. Each camera's newest tags are kept as they arrive (a
//!   frame older than one already kept is dropped: cameras over a network may deliver out of
//!   order), and the table is made from whatever is kept when it is asked for.
//! - Times are capture times on one clock (the rig's, or a remote camera's stamped time
//!   carried over): a camera whose newest frame was captured more than [`LATE`] before now is
//!   late, and what it saw counts as held (where it last saw a tag, trusted only where no
//!   camera sees the tag now); more than [`LOST`] before now, or never heard from, it is lost
//!   and counts for nothing, so the stands only it saw are unseen and said to be, never left
//!   where a camera long gone last saw them.
//! - A lost camera that sends again rejoins with its next frame.

use std::fmt;
use std::time::Duration;

use calibration::TableCalibration;
use rules::units::Inches;
use serde::Serialize;

use crate::fusion::{Agreement, CameraTags, FusedTags, fuse_agreeing};
use crate::locate::LocatedTag;
use crate::track::{Sighting, TrackedTag};

/// A camera whose newest frame is older than this is late: its tags are held, not seen now.
pub const LATE: Duration = Duration::from_millis(250);

/// A camera whose newest frame is older than this is lost: its tags count for nothing.
pub const LOST: Duration = Duration::from_secs(2);

/// A camera's tracked tags as it reports them to the rig: the rests of the tags it sees now,
/// lying settled; and the rests of the others — out of view, or on their way or seen away
/// from their rest, whose rest is in doubt — as held (trusted only where no camera sees the
/// tag now).
pub fn rests_to_report(tracked: &[TrackedTag]) -> (Vec<LocatedTag>, Vec<LocatedTag>) {
    let (now, held): (Vec<&TrackedTag>, Vec<&TrackedTag>) = tracked
        .iter()
        .filter(|t| t.resting.is_some())
        .partition(|t| t.sighting == Sighting::Now && !t.unsettled());
    let rests = |tags: Vec<&TrackedTag>| tags.iter().filter_map(|t| t.resting_tag()).collect();
    (rests(now), rests(held))
}

/// How a camera of the rig is doing now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "state")]
pub enum CameraState {
    /// Not heard from yet (or not calibrated).
    Waiting,
    /// Its newest frame is recent.
    Live,
    /// Its newest frame was captured this long ago.
    Late {
        /// How long ago.
        behind: Duration,
    },
    /// Not heard from for this long.
    Lost {
        /// How long since its newest frame.
        behind: Duration,
    },
}

/// One camera's newest word.
#[derive(Clone, Debug)]
struct Newest {
    captured: Duration,
    tags: Vec<LocatedTag>,
    held: Vec<LocatedTag>,
}

/// One camera of the rig.
#[derive(Clone, Debug)]
pub struct RigCamera {
    /// Its name ("west", "webcam 2", "pi-east").
    pub name: String,
    /// Its calibration into the table's frame, once it has one.
    pub calibration: Option<TableCalibration>,
    newest: Option<Newest>,
}

/// A camera's state, in words for the status bar.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CameraReport {
    /// The camera.
    pub name: String,
    /// How it is doing.
    #[serde(flatten)]
    pub state: CameraState,
}

impl fmt::Display for CameraReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        match self.state {
            CameraState::Waiting => write!(f, "{name}: waiting for its first frame"),
            CameraState::Live => write!(f, "{name}: live"),
            CameraState::Late { behind } => write!(
                f,
                "{name}: {:.1} s behind — its stands kept where it last saw them",
                behind.as_secs_f64()
            ),
            CameraState::Lost { behind } => write!(
                f,
                "{name}: lost ({:.0} s without a frame — unplugged?): what only it sees is unseen",
                behind.as_secs_f64()
            ),
        }
    }
}

/// The table the rig makes at one moment.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RigTable {
    /// Every tag placed, and the tags the cameras disagree on.
    pub fused: FusedTags,
    /// Each camera's state.
    pub cameras: Vec<CameraReport>,
}

/// The cameras over one table.
#[derive(Clone, Debug, Default)]
pub struct Rig {
    cameras: Vec<RigCamera>,
    /// How the cameras' readings of each tag have differed, learnt as they are fused.
    agreement: Agreement,
}

impl Rig {
    /// A rig of cameras by name, none heard from yet.
    pub fn new(names: impl IntoIterator<Item = String>) -> Rig {
        Rig {
            cameras: names
                .into_iter()
                .map(|name| RigCamera {
                    name,
                    calibration: None,
                    newest: None,
                })
                .collect(),
            agreement: Agreement::default(),
        }
    }

    /// Its cameras.
    pub fn cameras(&self) -> &[RigCamera] {
        &self.cameras
    }

    /// Camera `index` is calibrated (afresh).
    pub fn calibrated(&mut self, index: usize, calibration: TableCalibration) {
        if let Some(camera) = self.cameras.get_mut(index) {
            camera.calibration = Some(calibration);
        }
    }

    /// Camera `index` saw `tags` now and holds `held`, in a frame captured at `captured`; a
    /// frame older than the newest already kept is dropped (returns false).
    pub fn report(
        &mut self,
        index: usize,
        captured: Duration,
        tags: Vec<LocatedTag>,
        held: Vec<LocatedTag>,
    ) -> bool {
        let Some(camera) = self.cameras.get_mut(index) else {
            return false;
        };
        if camera
            .newest
            .as_ref()
            .is_some_and(|n| n.captured > captured)
        {
            return false;
        }
        camera.newest = Some(Newest {
            captured,
            tags,
            held,
        });
        true
    }

    /// How camera `index` is doing at `now`.
    pub fn state(&self, index: usize, now: Duration) -> CameraState {
        let Some(camera) = self.cameras.get(index) else {
            return CameraState::Waiting;
        };
        match (&camera.newest, &camera.calibration) {
            (Some(newest), Some(_)) => {
                let behind = now.saturating_sub(newest.captured);
                if behind > LOST {
                    CameraState::Lost { behind }
                } else if behind > LATE {
                    CameraState::Late { behind }
                } else {
                    CameraState::Live
                }
            }
            _ => CameraState::Waiting,
        }
    }

    /// The table at `now` from every camera's newest word (see the module's decisions);
    /// `height_sd` is how far stated tag heights may be off.
    pub fn table(&mut self, now: Duration, height_sd: Inches) -> RigTable {
        let states: Vec<CameraState> = (0..self.cameras.len())
            .map(|index| self.state(index, now))
            .collect();
        let views: Vec<CameraTags> = self
            .cameras
            .iter()
            .zip(&states)
            .filter_map(|(camera, state)| {
                let (Some(newest), Some(calibration)) = (&camera.newest, &camera.calibration)
                else {
                    return None;
                };
                let (tags, held): (&[LocatedTag], &[LocatedTag]) = match state {
                    CameraState::Live => (&newest.tags, &newest.held),
                    // What a late camera sees "now" is from a while ago: held, all of it.
                    CameraState::Late { .. } => (&[], &newest.tags),
                    CameraState::Lost { .. } | CameraState::Waiting => return None,
                };
                Some(CameraTags {
                    camera: &camera.name,
                    calibration,
                    tags,
                    held,
                })
            })
            .collect();
        RigTable {
            fused: fuse_agreeing(&views, height_sd, &mut self.agreement),
            cameras: self
                .cameras
                .iter()
                .zip(states)
                .map(|(camera, state)| CameraReport {
                    name: camera.name.clone(),
                    state,
                })
                .collect(),
        }
    }
}
