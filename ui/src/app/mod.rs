//! The table companion app (egui/eframe): the video with the rulings drawn in perspective on
//! the table, the plan from above, the unit list and the inspector, the tape measure, umpire
//! mode and convention mode.
//!
//! Layout of the code, egui-style: [`AppState`] holds everything the UI shows and is drawn
//! top to bottom each frame by one function per panel ([`views`]); the heavy work (detection,
//! calibration, rulings) runs on the [`pipeline`] thread, which publishes the newest
//! [`pipeline::TableState`]. Both views draw the same shapes through [`overlay`]'s
//! table→screen transforms.

pub mod headless;
pub mod measure;
pub mod overlay;
pub mod views;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::{Color32, TextureHandle, TextureOptions};
use rules::geometry::TablePoint;
use serde::{Deserialize, Serialize};

use self::measure::{LengthUnit, Pick, Picks};
use live::pipeline::{Command, Pipeline, Setup, Status, TableState};
use live::umpire::TurnMarker;

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
    pub source_form: views::sources::SourceForm,
    /// The roster editor and its "learn tags" step.
    pub roster: views::roster::RosterEditor,
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
    pub share: views::share::Share,
    /// A recorded game being looked at (the live game's, or one opened by `vedette replay`):
    /// while it is, the views show its moment, not the live table.
    pub replay: Option<live::replay::Replay>,
    /// The newest live table, kept while looking back.
    pub live_table: Option<Arc<TableState>>,
    /// When the live game's record was last read again (egui time, seconds).
    pub timeline_read: f64,
    texture: Option<(TextureHandle, Arc<live::Picture>)>,
    last_frame: Option<Instant>,
}

impl AppState {
    /// A state with these settings and nothing to show yet.
    pub fn new(settings: Settings) -> AppState {
        let source_form = views::sources::SourceForm::from_setup(&settings.setup);
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
            roster: views::roster::RosterEditor::default(),
            timing: UiTiming::default(),
            commands: Vec::new(),
            hover: None,
            plan_transform: None,
            show_lens_coverage: false,
            show_sight: false,
            show_error_map: false,
            share: views::share::Share::default(),
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

    /// Draw the whole app for one frame.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let started = Instant::now();
        let now = Instant::now();
        if let Some(last) = self.last_frame.replace(now) {
            self.timing.frame = now - last;
        }
        self.keys(ui.ctx());
        self.hover = None;
        if self.mode == Mode::Convention {
            views::convention::convention(ui, self);
        } else {
            egui::Panel::top("toolbar").show(ui, |ui| views::toolbar(ui, self));
            egui::Panel::bottom("status").show(ui, |ui| views::status::status_bar(ui, self));
            egui::Panel::bottom("timeline").show(ui, |ui| views::timeline::timeline_bar(ui, self));
            egui::Panel::left("units")
                .resizable(true)
                .default_size(210.0)
                .min_size(180.0)
                .show(ui, |ui| {
                    views::motion::moves_panel(ui, self);
                    ui.separator();
                    views::inspector::unit_list(ui, self);
                });
            egui::Panel::right("inspector")
                .resizable(true)
                .default_size(380.0)
                .min_size(320.0)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        views::timeline::checks_between(ui, self);
                        if self.mode == Mode::Umpire {
                            views::umpire::umpire_panel(ui, self);
                            ui.separator();
                        }
                        if self.roster.open {
                            views::roster::roster_panel(ui, self);
                            ui.separator();
                        }
                        if self.tool == Tool::Measure {
                            views::inspector::tape_panel(ui, self);
                            ui.separator();
                        }
                        views::inspector::inspector(ui, self);
                    });
                });
            egui::CentralPanel::default().show(ui, |ui| {
                let height = ui.available_height();
                let width = ui.available_width();
                let live = egui::Vec2::new(width, (height * 0.56).max(120.0));
                let click = ui
                    .allocate_ui(live, |ui| views::live_view::live_view(ui, self))
                    .inner;
                if let Some(click) = click {
                    self.click(click);
                }
                ui.separator();
                let comparing = self.replay.as_ref().is_some_and(|r| r.pinned().is_some());
                let click = if comparing {
                    views::timeline::plans_side_by_side(ui, self)
                } else {
                    views::plan_view::plan_view(ui, self)
                };
                if let Some(click) = click {
                    self.click(click);
                }
            });
        }
        views::share::share_window(ui.ctx(), self);
        self.timing.build = started.elapsed();
    }

    fn keys(&mut self, ctx: &egui::Context) {
        let (f11, escape) = ctx.input(|i| {
            (
                i.key_pressed(egui::Key::F11),
                i.key_pressed(egui::Key::Escape),
            )
        });
        if f11 {
            let next = if self.mode == Mode::Convention {
                Mode::Play
            } else {
                Mode::Convention
            };
            self.set_mode(ctx, next);
        }
        if escape {
            if self.mode == Mode::Convention {
                self.set_mode(ctx, Mode::Play);
            } else {
                self.tool = Tool::Select;
                self.measure = Picks::default();
            }
        }
    }
}

/// Text colours shared by the views.
pub const DIM: Color32 = Color32::from_rgb(150, 150, 150);

/// Text that warns: amber.
pub const WARN: Color32 = Color32::from_rgb(255, 190, 40);

/// A picture as egui's: its opaque RGBA bytes are egui's colours as they are, copied once.
fn colour_image(picture: &live::Picture) -> egui::ColorImage {
    let pixels: &[Color32] = bytemuck::cast_slice(&picture.rgba);
    egui::ColorImage::new(picture.size, pixels.to_vec())
}

/// The app's name for eframe: its window and its data folder.
pub const APP_ID: &str = "vedette";

/// The eframe app: the state, and the pipeline thread feeding it.
pub struct VedetteApp {
    /// What the UI shows.
    pub state: AppState,
    pipeline: Option<Pipeline>,
}

impl VedetteApp {
    /// The app on a live pipeline.
    pub fn new(ctx: &egui::Context, settings: Settings) -> VedetteApp {
        let repaint = ctx.clone();
        let pipeline = Pipeline::start(settings.setup.clone(), move || repaint.request_repaint());
        views::style(ctx);
        VedetteApp {
            state: AppState::new(settings),
            pipeline: Some(pipeline),
        }
    }

    /// The app showing fixed states, fed by the caller (headless screenshots and tests).
    pub fn without_pipeline(ctx: &egui::Context, settings: Settings) -> VedetteApp {
        views::style(ctx);
        VedetteApp {
            state: AppState::new(settings),
            pipeline: None,
        }
    }
}

impl eframe::App for VedetteApp {
    fn logic(&mut self, _ctx: &egui::Context, _frame: &mut eframe::Frame) {
        if let Some(new) = self.pipeline.as_ref().and_then(Pipeline::take_latest) {
            self.state.receive(new);
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.state.show(ui);
        for command in self.state.commands.drain(..) {
            match &self.pipeline {
                Some(pipeline) => pipeline.send(command),
                None => tracing::debug!("no pipeline for {command:?}"),
            }
        }
        if let Some(on) = self.state.share.requested.take() {
            let states = self.pipeline.as_ref().map(Pipeline::watch);
            self.state.share.switch(on, states);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.state.settings);
    }
}

/// The settings of the last run, or the defaults on a first run or when the stored ones
/// cannot be read (written by an older version, damaged): a bad settings file never stops the
/// app from opening.
pub fn load_settings(storage: Option<&dyn eframe::Storage>) -> Settings {
    let Some(storage) = storage else {
        return Settings::default();
    };
    eframe::get_value(storage, SETTINGS_KEY).unwrap_or_else(|| {
        if storage.get_string(SETTINGS_KEY).is_some() {
            tracing::warn!("the saved settings could not be read: using the defaults");
        }
        Settings::default()
    })
}

/// Open the app window on `start` (the command line's source and table files; `None`: those
/// used last); the game is recorded as `record` says.
pub fn run(start: Option<Setup>, record: live::pipeline::Recording) -> anyhow::Result<()> {
    let options = window_options()?;
    if let Some(folder) = eframe::storage_dir(APP_ID) {
        live::lens::keep_lenses(folder.join("lenses"));
    }
    eframe::run_native(
        APP_ID,
        options,
        Box::new(move |cc| {
            let mut settings = load_settings(cc.storage);
            if let Some(setup) = start {
                settings.setup = setup;
            }
            settings.setup.record = record;
            let context = cc.egui_ctx.clone();
            live::stopping::on_stop_signal(move |_| {
                context.send_viewport_cmd(egui::ViewportCommand::Close);
                context.request_repaint();
            });
            Ok(Box::new(VedetteApp::new(&cc.egui_ctx, settings)))
        }),
    )
    .map_err(|e| anyhow::anyhow!("the app window could not open: {e}"))
}

/// Open the app window on a recorded game (no camera), at the moment `at`.
pub fn run_replay(game: live::replay::Replay, at: record::GameTime) -> anyhow::Result<()> {
    let options = window_options()?;
    eframe::run_native(
        APP_ID,
        options,
        Box::new(move |cc| {
            let settings = load_settings(cc.storage);
            let mut app = VedetteApp::without_pipeline(&cc.egui_ctx, settings);
            app.state.look_back(game, at);
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow::anyhow!("the app window could not open: {e}"))
}

/// The window's options, once it is sure there is a display to open it on.
fn window_options() -> anyhow::Result<eframe::NativeOptions> {
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        anyhow::bail!(
            "no display to open the app on (neither DISPLAY nor WAYLAND_DISPLAY is set).\n\
             Run it under a virtual display:  xvfb-run -a -s \"-screen 0 1600x900x24\" vedette\n\
             or render the app to a picture:   vedette screenshot --demo app.png"
        );
    }
    Ok(eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Vedette")
            .with_inner_size([1600.0, 900.0])
            .with_min_inner_size([900.0, 560.0]),
        ..Default::default()
    })
}
