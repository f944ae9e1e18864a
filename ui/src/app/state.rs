//! What the app shows, kept between frames ([`AppState`]), and what persists between runs
//! ([`Settings`]). The views draw it and change it; nothing here draws.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::{Color32, TextureHandle, TextureOptions};
use live::orders::Desk;
use live::pipeline::{Command, Setup, Status, TableState};
use live::umpire::TurnMarker;
use rules::geometry::TablePoint;
use serde::{Deserialize, Serialize};

use super::measure::{LengthUnit, Pick, Picks};
use super::overlay;
use super::roster_editor::RosterEditor;
use super::share::Share;
use super::source_form::SourceForm;

/// The key under which settings are stored between runs.
pub const SETTINGS_KEY: &str = "vedette-settings";

/// What persists between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Source, calibration, anchors, roster and terrain files.
    pub setup: Setup,
    /// Inches or centimetres.
    pub units: LengthUnit,
    /// Where umpire cases are saved.
    pub case_folder: PathBuf,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            setup: Setup::default(),
            units: LengthUnit::Ruleset,
            case_folder: PathBuf::from("vedette-cases"),
        }
    }
}

/// The three ways the app is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Players at the table: live view, plan, inspector, tape.
    #[default]
    Play,
    /// The umpire: freeze, settle a dispute, save the case, check moves.
    Umpire,
    /// A demo table at a show: full screen, large type, rulings in turn, unattended.
    Convention,
}

/// What a click in a view does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Select the unit clicked.
    #[default]
    Select,
    /// Measure between two clicks.
    Measure,
}

/// A click in either view, in table terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Click {
    /// Where on the table.
    pub at: TablePoint,
    /// The unit clicked, if any.
    pub unit: Option<String>,
}

/// The plan's pan and zoom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanCamera {
    /// The table point at the plan's centre; `None` centres the table.
    pub center: Option<TablePoint>,
    /// Zoom over "whole table fits".
    pub zoom: f32,
}

impl Default for PlanCamera {
    fn default() -> PlanCamera {
        PlanCamera {
            center: None,
            zoom: 1.0,
        }
    }
}

/// Convention mode's unattended tour of the rulings.
#[derive(Clone, Debug, Default)]
pub struct Tour {
    /// The ruling shown: its unit and its index among the unit's rulings.
    pub shown: Option<(String, usize)>,
    /// How many have been shown (to pick the next).
    pub step: usize,
    /// When it was shown (egui time, seconds).
    pub since: f64,
}

/// How long the UI takes.
#[derive(Clone, Copy, Debug, Default)]
pub struct UiTiming {
    /// Time to build the last frame's UI.
    pub build: Duration,
    /// Time between the last two frames.
    pub frame: Duration,
}

/// Everything the UI shows and edits.
pub struct AppState {
    /// The table shown (frozen in umpire mode when asked).
    pub table: Option<Arc<TableState>>,
    /// The pipeline's newest status, even while the picture is frozen.
    pub live_status: Option<Status>,
    /// Umpire's freeze: new frames do not replace the table shown.
    pub frozen: bool,
    /// The selected unit.
    pub selected: Option<String>,
    /// Play, umpire, convention.
    pub mode: Mode,
    /// Select or measure.
    pub tool: Tool,
    /// The tape's ends.
    pub measure: Picks,
    /// The two units of a dispute (umpire mode).
    pub dispute: Picks,
    /// The plan's pan and zoom.
    pub plan: PlanCamera,
    /// Persisted settings.
    pub settings: Settings,
    /// The turn marker.
    pub turn: TurnMarker,
    /// The umpire's note for the case.
    pub case_note: String,
    /// The last thing done ("case saved to …"), for the status bar.
    pub message: Option<String>,
    /// Convention mode's tour.
    pub tour: Tour,
    /// The source chooser's form.
    pub source_form: SourceForm,
    /// The roster editor and its "learn tags" step.
    pub roster: RosterEditor,
    /// UI timings.
    pub timing: UiTiming,
    /// Commands for the pipeline, sent after the frame.
    pub commands: Vec<Command>,
    /// Where the cursor is on the table, in whichever view.
    pub hover: Option<TablePoint>,
    /// The plan's transform as last drawn (to find units on screen, e.g. in tests).
    pub plan_transform: Option<overlay::PlanTransform>,
    /// Shade the live view by where the lens has been shown tags.
    pub show_lens_coverage: bool,
    /// Shade the plan by the smallest tag the camera finds at each place.
    pub show_sight: bool,
    /// Shade the plan by the ± a stand at each place adds to a distance.
    pub show_error_map: bool,
    /// The table served to phones (the Share button), with its QR code.
    pub share: Share,
    /// Remote players' pointers and ordered moves: drawn on both views, shared with the
    /// server that takes them.
    pub desk: Desk,
    /// A recorded game being looked at (the live game's, or one opened by `vedette replay`):
    /// while it is, the views show its moment, not the live table.
    pub replay: Option<live::replay::Replay>,
    /// The newest live table, kept while looking back.
    pub live_table: Option<Arc<TableState>>,
    /// When the live game's record was last read again (egui time, seconds).
    pub timeline_read: f64,
    texture: Option<(TextureHandle, Arc<live::Picture>)>,
    pub(super) last_frame: Option<Instant>,
}

impl AppState {
    /// A state with these settings and nothing to show yet.
    pub fn new(settings: Settings) -> AppState {
        let source_form = SourceForm::from_setup(&settings.setup);
        AppState {
            table: None,
            live_status: None,
            frozen: false,
            selected: None,
            mode: Mode::Play,
            tool: Tool::Select,
            measure: Picks::default(),
            dispute: Picks::default(),
            plan: PlanCamera::default(),
            settings,
            turn: TurnMarker::default(),
            case_note: String::new(),
            message: None,
            tour: Tour::default(),
            source_form,
            roster: RosterEditor::default(),
            timing: UiTiming::default(),
            commands: Vec::new(),
            hover: None,
            plan_transform: None,
            show_lens_coverage: false,
            show_sight: false,
            show_error_map: false,
            share: Share::default(),
            desk: Desk::default(),
            replay: None,
            live_table: None,
            timeline_read: 0.0,
            texture: None,
            last_frame: None,
        }
    }

    /// Take a new state from the pipeline. A state with only a message (a lost camera) keeps
    /// the last picture and table on screen, with the message in the status bar.
    pub fn receive(&mut self, new: Arc<TableState>) {
        self.live_status = Some(new.status.clone());
        // Remote orders are matched with the moves as they are made, whatever is shown.
        self.desk.follow(&new);
        if self.replay.is_some() {
            self.live_table = Some(new);
            return;
        }
        if self.frozen {
            return;
        }
        let bare = new.frame.is_none() && new.scene.is_none();
        match (&self.table, bare) {
            (Some(old), true) => {
                let mut kept = (**old).clone();
                kept.status = new.status.clone();
                self.table = Some(Arc::new(kept));
            }
            _ => self.table = Some(new),
        }
    }

    /// Look back at a recorded game, from the moment `at`.
    pub fn look_back(&mut self, replay: live::replay::Replay, at: record::GameTime) {
        self.live_table = self.table.take();
        self.replay = Some(replay);
        self.seek(at);
    }

    /// Show the looked-at game's moment `at`.
    pub fn seek(&mut self, at: record::GameTime) {
        if let Some(replay) = &mut self.replay {
            replay.seek(at);
            self.table = replay.shown().cloned().or(self.table.take());
        }
    }

    /// Stop looking back: the live table again.
    pub fn back_to_live(&mut self) {
        self.replay = None;
        if let Some(live) = self.live_table.take() {
            self.table = Some(live);
        }
    }

    /// The status to show: the pipeline's newest.
    pub fn status(&self) -> Option<&Status> {
        self.live_status
            .as_ref()
            .or_else(|| self.table.as_ref().map(|t| &t.status))
    }

    /// The picture as a texture, uploaded once per new frame.
    pub fn texture(&mut self, ctx: &egui::Context, frame: &Arc<live::Picture>) -> TextureHandle {
        match &mut self.texture {
            Some((handle, shown)) if Arc::ptr_eq(shown, frame) => handle.clone(),
            Some((handle, shown)) => {
                handle.set(colour_image(frame), TextureOptions::LINEAR);
                *shown = frame.clone();
                handle.clone()
            }
            None => {
                let handle =
                    ctx.load_texture("vedette-frame", colour_image(frame), TextureOptions::LINEAR);
                self.texture = Some((handle.clone(), frame.clone()));
                handle
            }
        }
    }

    /// A click in a view: select, measure, or pick a side of a dispute.
    pub fn click(&mut self, click: Click) {
        let pick = match &click.unit {
            Some(unit) => Pick::Unit(unit.clone()),
            None => Pick::Point(click.at),
        };
        match (self.mode, self.tool) {
            (_, Tool::Measure) => self.measure.push(pick),
            (Mode::Umpire, Tool::Select) => {
                if let Some(unit) = &click.unit {
                    self.selected = Some(unit.clone());
                    self.dispute.push(Pick::Unit(unit.clone()));
                }
            }
            _ => {
                if click.unit.is_some() {
                    self.selected = click.unit;
                }
            }
        }
    }

    /// Switch mode, asking the window for full screen in convention mode.
    pub fn set_mode(&mut self, ctx: &egui::Context, mode: Mode) {
        if mode == self.mode {
            return;
        }
        let convention = mode == Mode::Convention;
        if convention || self.mode == Mode::Convention {
            ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(convention));
        }
        if self.mode == Mode::Umpire {
            self.frozen = false;
        }
        self.mode = mode;
        self.tour = Tour::default();
    }
}

/// A picture as egui's: its opaque RGBA bytes are egui's colours as they are, copied once.
fn colour_image(picture: &live::Picture) -> egui::ColorImage {
    let pixels: &[Color32] = bytemuck::cast_slice(&picture.rgba);
    egui::ColorImage::new(picture.size, pixels.to_vec())
}
