//! The table companion app (egui/eframe): the video with the rulings drawn in perspective on
//! the table, the plan from above, the unit list and the inspector, the tape measure, umpire
//! mode and convention mode.
//!
//! Layout of the code, egui-style: [`AppState`] ([`state`]) holds everything the UI shows and is
//! drawn top to bottom each frame by one function per panel ([`views::show`]); the heavy work
//! (detection, calibration, rulings) runs on the live table's pipeline thread
//! ([`live::pipeline::Pipeline`]), which publishes the newest [`live::TableState`]. Both views
//! draw the same shapes through [`overlay`]'s table→screen transforms. The app is one face of
//! the live table: it never names the web server, and shares the table through the
//! [`crate::web::share::Starter`] it is given.

mod colours;
pub mod headless;
pub mod measure;
pub mod overlay;
pub mod replay_command;
pub mod roster_editor;
pub mod share;
pub mod source_form;
pub mod state;
pub mod views;

pub use colours::{DIM, WARN};
pub use state::{AppState, Click, Mode, PlanCamera, SETTINGS_KEY, Settings, Tool, Tour, UiTiming};

use live::pipeline::{Pipeline, Setup};

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

    /// The app whose Share button serves the table with `starter` (without, it says it cannot).
    pub fn sharing_with(mut self, starter: crate::web::share::Starter) -> VedetteApp {
        self.state.share = share::Share::with(starter);
        self
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
        views::show(ui, &mut self.state);
        for command in self.state.commands.drain(..) {
            match &self.pipeline {
                Some(pipeline) => pipeline.send(command),
                None => tracing::debug!("no pipeline for {command:?}"),
            }
        }
        if let Some(on) = self.state.share.requested.take() {
            let states = self.pipeline.as_ref().map(Pipeline::watch);
            self.state.share.switch(on, states, &self.state.desk);
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
/// used last); the game is recorded as `record` says, and shared with `share`'s servers — at
/// once when `share_now` (remote players are waiting for it).
pub fn run(
    start: Option<Setup>,
    record: live::pipeline::Recording,
    share: crate::web::share::Starter,
    share_now: bool,
) -> anyhow::Result<()> {
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
            let mut app = VedetteApp::new(&cc.egui_ctx, settings).sharing_with(share);
            if share_now {
                app.state.share.requested = Some(true);
            }
            Ok(Box::new(app))
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
