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
//!
//! Here: what the pipeline offers, gathered. `thread.rs` holds the threads and the UI's handle on
//! them ([`Pipeline`]); beside it: `setup.rs` (the
//! source and the table's files, loaded), `processor.rs` (one frame's work, and the
//! [`Ruler`]), `state.rs` (what a frame gives the views and the status bar).

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
use rules::movement::MoveCheck;
use rules::ruling::Verdict;
use rules::rulings::{Rulings, rulings};
use rules::scene::TerrainDoc;
use rules::units::Inches;
use rules::{RulesetId, Scene};
use serde::{Deserialize, Serialize};
use vision::live::moved::{MoveThreshold, scene_moved};
use vision::live::queue::{Counts, DropSender, dropping};

use vision::{
    DetectorSettings, ErrorMap, Frame, FrameSource, FrameTags, HealthWatch, LiveDetector,
    LiveSettings, MissingTagSearch, MoveEvent, MoveWatch, Remedy, Replaced, SightMap, Tracker,
    TrackerSettings, Travelling, Unseen, locate_tags_on,
};

use crate::capture::{Capture, Captured, OpenSource, SourcePlan};
use crate::lens::{LensLearning, LensStatus};
use crate::pipeline::demo::Demo;

mod cameras;
mod command;
pub mod demo;
mod ground;
mod processor;
mod recording;
mod rig;
mod setup;
mod sources;
mod state;
mod table;
mod thread;

pub use cameras::{CamerasFileError, MOST_CAMERAS, check_rig, load_cameras};
pub use command::Command;
pub use ground::LEARN_AFTER;
pub use processor::{Processor, Ruler};
pub use recording::{Keeper, Recording, start as start_recording};
pub use setup::{CameraChoice, Inputs, Setup, SourceChoice};
pub use sources::source_plan;
pub use state::{
    CalibrationStatus, CameraPart, CameraStatus, MoveJudgement, MoveRecord, Status, TableState,
    UnitName, WITHIN_ALLOWANCE,
};
pub use table::{CameraWord, MOVES_KEPT};
pub use thread::{Pipeline, States};
