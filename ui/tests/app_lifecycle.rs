//! The app over time, as a player or a convention table lives with it: settings survive a
//! restart, sources switch without one, a covered anchor or a knocked camera is recovered from
//! without help, and a lost camera keeps the last table on screen until it comes back.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

mod common;

use common::film;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use live::demo::{Demo, IMAGE_SIZE};
use live::pipeline::{CalibrationStatus, Processor, Recording, SourceChoice, Status, TableState};
use rules::units::{Degrees, Inches};
use rules::{RulesetId, Scene};
use vedette_ui::app::headless::{WINDOW, harness_on};
use vedette_ui::app::measure::LengthUnit;
use vedette_ui::app::source_form::Kind;
use vedette_ui::app::{Mode, Settings, VedetteApp};
use vision::FrameSource;
use vision::synthetic::{Block, Rgb, framing_camera};

fn samples() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../samples"))
}

fn has_text(harness: &Harness<'_, VedetteApp>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
}

/// eframe's storage, in memory: what the app writes on closing, read back on the next start.
#[derive(Default)]
struct Memory(HashMap<String, String>);

impl eframe::Storage for Memory {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }

    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }

    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }

    fn flush(&mut self) {}
}

fn app_with(settings: Settings) -> Harness<'static, VedetteApp> {
    let mut harness = Harness::builder()
        .with_size(WINDOW)
        .build_eframe(move |cc| VedetteApp::without_pipeline(&cc.egui_ctx, settings));
    harness.run_steps(2);
    harness
}

/// Through the 📷 menu: the sample picture, with its anchors and roster.
fn open_picture(harness: &mut Harness<'_, VedetteApp>) {
    let camera = samples().join("camera");
    let form = &mut harness.state_mut().state.source_form;
    form.kind = Kind::Image;
    form.path = camera.join("two-lines.jpg").display().to_string();
    form.anchors = camera.join("anchors.toml").display().to_string();
    form.roster = camera.join("two-lines-roster.toml").display().to_string();
    harness.get_by_label("📷 Source").click();
    harness.run_steps(2);
    harness.get_by_label("Open").click();
}

#[test]
fn settings_chosen_in_the_app_survive_a_restart() {
    let mut harness = app_with(Settings::default());
    harness.get_by_label("cm").click();
    harness.run_steps(2);
    harness.get_by_value("📖 the roster's ruleset").click();
    harness.run_steps(2);
    harness.get_by_label("Bugles, Bullets and Blades").click();
    harness.run_steps(2);
    let camera = samples().join("camera");
    open_picture(&mut harness);
    harness.run_steps(2);

    let mut storage = Memory::default();
    eframe::App::save(harness.state_mut(), &mut storage);
    let restored: Settings =
        eframe::get_value(&storage, vedette_ui::app::SETTINGS_KEY).expect("settings were saved");
    assert_eq!(restored.units, LengthUnit::Centimetres);
    assert_eq!(restored.setup.ruleset, Some(RulesetId::Bbb));
    assert_eq!(
        restored.setup.source,
        SourceChoice::Image(camera.join("two-lines.jpg"))
    );
    assert_eq!(
        restored.setup.roster,
        Some(camera.join("two-lines-roster.toml"))
    );
    assert_eq!(restored, harness.state().state.settings);

    // The next run opens on them: the form shows the picture, the toolbar centimetres.
    let harness = app_with(restored);
    let state = &harness.state().state;
    assert_eq!(state.settings.units, LengthUnit::Centimetres);
    assert_eq!(state.source_form.kind, Kind::Image);
    assert!(state.source_form.roster.ends_with("two-lines-roster.toml"));
}

#[test]
fn settings_from_an_older_or_damaged_store_fall_back_to_the_defaults() {
    let mut storage = Memory::default();
    eframe::App::save(app_with(Settings::default()).state_mut(), &mut storage);
    let key = vedette_ui::app::SETTINGS_KEY;
    eframe::Storage::set_string(&mut storage, key, "(units: Furlongs".into());
    assert_eq!(
        vedette_ui::app::load_settings(Some(&storage)),
        Settings::default()
    );
    assert_eq!(vedette_ui::app::load_settings(None), Settings::default());
}

/// Step the app until `done` holds, failing with `what` after a generous deadline (debug
/// builds render and detect 1080p frames slowly).
fn step_until(
    harness: &mut Harness<'_, VedetteApp>,
    what: &str,
    done: impl Fn(&vedette_ui::app::AppState) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(180);
    while !done(&harness.state().state) {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn source_name(state: &vedette_ui::app::AppState) -> String {
    state.status().map(|s| s.source.clone()).unwrap_or_default()
}

#[test]
fn sources_switch_without_a_restart() {
    let mut harness = Harness::builder()
        .with_size(WINDOW)
        .build_eframe(|cc| VedetteApp::new(&cc.egui_ctx, Settings::default()));
    step_until(&mut harness, "the demo table", |s| {
        s.table.as_ref().is_some_and(|t| t.scene.is_some())
            && source_name(s).starts_with("demo table")
    });

    // The picture, through the chooser.
    open_picture(&mut harness);
    step_until(&mut harness, "the picture's table", |s| {
        s.table
            .as_ref()
            .and_then(|t| t.scene.as_ref())
            .is_some_and(|scene| scene.unit("45th-foot").is_some())
    });
    assert!(source_name(&harness.state().state).contains("two-lines.jpg"));

    // A video that is not there: a clear message, and the app carries on.
    {
        let form = &mut harness.state_mut().state.source_form;
        form.kind = Kind::Video;
        form.path = "no-such-game.mp4".into();
    }
    harness.get_by_label("📷 Source").click();
    harness.run_steps(2);
    harness.get_by_label("Open").click();
    step_until(&mut harness, "the missing video's message", |s| {
        s.status()
            .and_then(|st| st.error.as_deref())
            .is_some_and(|e| e.contains("no-such-game.mp4"))
    });

    // And back to the demo.
    harness.state_mut().state.source_form.kind = Kind::Demo;
    harness.get_by_label("📷 Source").click();
    harness.run_steps(2);
    harness.get_by_label("Open").click();
    step_until(&mut harness, "the demo table again", |s| {
        s.table.as_ref().is_some_and(|t| t.scene.is_some())
            && source_name(s).starts_with("demo table")
    });
}

fn ready(status: &Status) -> Option<(bool, &str)> {
    match &status.calibration {
        CalibrationStatus::Ready { stale, check, .. } => Some((*stale, check.as_str())),
        CalibrationStatus::Missing(_) => None,
    }
}

fn units_placed(state: &TableState) -> usize {
    state.scene.as_ref().map_or(0, |s| s.units.len())
}

#[test]
fn a_hand_over_an_anchor_or_a_knocked_camera_is_recovered_from_unattended() {
    let demo = Demo::new().expect("the demo");
    let mut processor = Processor::new(demo.inputs());
    let clear = demo.stage(0);
    let first = film(&mut processor, demo.camera, clear.clone(), 0);
    let (stale, _) = ready(&first.status).expect("calibrated from the anchors");
    assert!(!stale);
    let everyone = units_placed(&first);
    assert_eq!(
        everyone,
        demo.turns[0].units.len(),
        "{:?} {:?}",
        first.status.unseen,
        first.status.notes
    );

    // A visitor's hand over an anchor: the calibration holds, every unit is still placed.
    let anchor = demo.anchors.anchors[0].placement();
    let mut covered = clear.clone();
    covered.blocks.push(Block {
        footprint: rules::geometry::OrientedRect::from_center(
            anchor.center,
            Degrees(20.0),
            Inches(4.0),
            Inches(3.0),
        ),
        height: Inches(2.5),
        colour: Rgb(214, 170, 140),
        tags: Vec::new(),
        figures: false,
        motion: None,
    });
    for i in 1..4 {
        let state = film(&mut processor, demo.camera, covered.clone(), i);
        let (stale, check) = ready(&state.status).expect("still calibrated");
        assert!(!stale, "a covered anchor is not a moved camera: {check}");
        assert_eq!(units_placed(&state), everyone);
    }

    // The camera is knocked: the table is seen from elsewhere. Marked stale at once, then
    // recalibrated from the anchors, with no one at the keyboard.
    let table = calibration::TableSize {
        width: demo.turns[0].table.width.0,
        depth: demo.turns[0].table.depth.0,
    };
    let knocked = framing_camera(table, IMAGE_SIZE, Degrees(27.0), Degrees(70.0));
    let after = film(&mut processor, knocked, clear.clone(), 4);
    assert_eq!(
        ready(&after.status).map(|r| r.0),
        Some(true),
        "stale at once"
    );
    let mut last = after;
    for i in 5..20 {
        last = film(&mut processor, knocked, clear.clone(), i);
        if matches!(ready(&last.status), Some((false, _))) {
            break;
        }
    }
    let (stale, check) = ready(&last.status).expect("calibrated again");
    assert!(!stale, "recalibrated: {check}");
    assert_eq!(
        units_placed(&last),
        everyone,
        "{:?} {:?}",
        last.status.unseen,
        last.status.notes
    );
    let eye = last.calibration.expect("a calibration").camera.pose.eye();
    let truth = knocked.pose.eye();
    assert!(
        (eye - truth).norm() < 1.0,
        "the new calibration found the camera where it now is: {eye:?} vs {truth:?}"
    );
}

#[test]
fn convention_mode_rides_out_a_lost_camera() {
    let scene = Scene::load(&samples().join("scenes/two-lines.json")).expect("sample scene");
    let rulings = rules::rulings::rulings(&scene);
    let mut state = TableState::message("webcam 0", None);
    state.scene = Some(Arc::new(scene));
    state.rulings = Some(Arc::new(rulings));
    let mut harness = harness_on(state.clone(), None);
    let ctx = harness.ctx.clone();
    harness.state_mut().state.set_mode(&ctx, Mode::Convention);
    harness.run_steps(3);
    let touring = harness.state().state.selected.clone();
    assert!(touring.is_some(), "the tour has started");

    // Unplugged: the message is on screen, the table and the tour stay.
    let lost = "camera lost: the webcam stopped sending frames; retrying every second";
    harness
        .state_mut()
        .state
        .receive(Arc::new(TableState::message("webcam 0", Some(lost.into()))));
    harness.run_steps(3);
    assert!(has_text(&harness, lost));
    let app = &harness.state().state;
    assert!(app.table.as_ref().is_some_and(|t| t.scene.is_some()));
    assert_eq!(app.selected, touring);
    assert_eq!(app.mode, Mode::Convention);

    // Plugged back in: the message goes, the table is live again.
    harness.state_mut().state.receive(Arc::new(state));
    harness.run_steps(3);
    assert!(!has_text(&harness, lost));
    assert!(has_text(&harness, "webcam 0"));
}

#[test]
fn the_ruleset_chosen_in_the_app_rules_the_camera_table() {
    let camera = samples().join("camera");
    let setup = live::pipeline::Setup {
        source: SourceChoice::Image(camera.join("two-lines.jpg")),
        anchors: Some(camera.join("anchors.toml")),
        roster: Some(camera.join("two-lines-roster.toml")),
        ..Default::default()
    };
    let mut processor = Processor::new(live::pipeline::Inputs::load(&setup));
    let mut source = vision::source::ImageFile::new(&camera.join("two-lines.jpg"));
    let frame = source.next_frame().expect("readable").expect("a frame");
    let explanations = |state: &TableState| -> String {
        let rulings = state.rulings.as_ref().expect("rulings");
        let texts: Vec<&str> = rulings
            .units
            .iter()
            .flat_map(|u| u.rulings.iter().map(|r| r.explanation.as_str()))
            .collect();
        texts.join("\n")
    };
    let by_roster = processor.process(&frame, "two-lines.jpg");
    assert_eq!(
        by_roster.scene.as_ref().map(|s| s.ruleset),
        Some(RulesetId::BlackPowder)
    );
    assert!(
        explanations(&by_roster).contains('"'),
        "Black Powder rules in inches"
    );

    processor.set_ruleset(Some(RulesetId::Bbb));
    let chosen = processor.process(&frame, "two-lines.jpg");
    assert_eq!(
        chosen.scene.as_ref().map(|s| s.ruleset),
        Some(RulesetId::Bbb)
    );
    let text = explanations(&chosen);
    assert!(text.contains(" mm"), "BBB rules in millimetres: {text}");
    assert_ne!(text, explanations(&by_roster));

    processor.set_ruleset(None);
    let back = processor.process(&frame, "two-lines.jpg");
    assert_eq!(
        back.scene.as_ref().map(|s| s.ruleset),
        Some(RulesetId::BlackPowder)
    );
}

/// A camera that is unplugged for a while: frames, then "lost" a few times, then frames again.
struct UnpluggedCamera {
    frame: vision::Frame,
    delivered: u64,
    /// Set by the test once it has seen the table: the camera is then lost for
    /// `lost_for` reads, and delivers again.
    unplugged: std::sync::Arc<std::sync::atomic::AtomicBool>,
    lost_for: usize,
}

impl FrameSource for UnpluggedCamera {
    fn name(&self) -> String {
        "webcam 0 (test)".into()
    }

    fn next_frame(&mut self) -> Result<Option<vision::Frame>, vision::SourceError> {
        let unplugged = self.unplugged.load(std::sync::atomic::Ordering::SeqCst);
        if unplugged && self.lost_for > 0 {
            self.lost_for -= 1;
            return Err(vision::SourceError::Lost {
                source_name: self.name(),
                reason: "unplugged".into(),
                retry: Duration::from_secs(1),
            });
        }
        let mut frame = self.frame.clone();
        frame.index = self.delivered;
        frame.time = Duration::from_millis(100 * self.delivered);
        self.delivered += 1;
        Ok(Some(frame))
    }
}

#[test]
fn the_pipeline_rides_out_an_unplugged_camera_and_carries_on() {
    let camera = samples().join("camera");
    let setup = live::pipeline::Setup {
        anchors: Some(camera.join("anchors.toml")),
        roster: Some(camera.join("two-lines-roster.toml")),
        ..Default::default()
    };
    let mut picture = vision::source::ImageFile::new(&camera.join("two-lines.jpg"));
    let frame = picture.next_frame().expect("readable").expect("a frame");
    // Unplugged once the table has been seen (not after a fixed number of frames: a busy
    // machine may rule the first frames after the camera is already lost), for three reads.
    let unplugged = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let source = UnpluggedCamera {
        frame,
        delivered: 0,
        unplugged: unplugged.clone(),
        lost_for: 3,
    };
    let record = common::scratch("unplugged").join("game.sqlite");
    let _ = std::fs::remove_file(&record);
    let pipeline = live::pipeline::Pipeline::start_on(
        Box::new(source),
        live::pipeline::Inputs::load(&setup),
        Recording::File(record),
        || {},
    );
    // What the UI would see, in order: the table, the lost camera, the table again.
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        let Some(state) = pipeline.take_latest() else {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        };
        // Every word of the pipeline, the lost camera's too, says the game is recorded (the
        // app's timeline and the served page's look-back read it there).
        assert!(state.recorder.is_some(), "{:?}", state.status.error);
        // The table arrives ruled: the ruling thread fills in the rulings before publishing.
        let step = match (&state.status.error, state.scene.is_some()) {
            (Some(e), _) if e.contains("stopped delivering") => "lost",
            (None, true) if state.rulings.is_some() => "table",
            _ => continue,
        };
        if seen.last() != Some(&step) {
            seen.push(step);
        }
        if seen == ["table"] {
            unplugged.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        if seen == ["table", "lost", "table"] {
            break;
        }
    }
    assert_eq!(seen, ["table", "lost", "table"]);
}

#[test]
fn the_toolbar_says_which_values_of_a_ruleset_are_reconstructions() {
    // BPT Commander's source lost many numbers: the toolbar warns, and lists them on hover.
    let with = |ruleset| {
        let mut settings = Settings::default();
        settings.setup.ruleset = Some(ruleset);
        app_with(settings)
    };
    let count = rules::Profile::builtin(RulesetId::BptCommander)
        .reconstructed()
        .len();
    assert!(count > 5);
    let harness = with(RulesetId::BptCommander);
    harness.get_by_label(&format!("⚠ {count} reconstructed values"));
    let harness = with(RulesetId::BlackPowder);
    assert!(
        harness
            .query_by_label_contains("reconstructed values")
            .is_none()
    );
}

#[test]
fn a_picture_too_small_to_hold_a_tag_is_refused_by_name_when_reopened_at_start() {
    // The last run's source, reopened as the app starts: a 1×1 picture once crashed the
    // detector, and so the app at every start.
    let path = std::env::temp_dir().join(format!("vedette-1x1-{}.png", std::process::id()));
    image::RgbImage::new(1, 1)
        .save(&path)
        .expect("a 1×1 picture");
    let mut settings = Settings::default();
    settings.setup.source = SourceChoice::Image(path.clone());
    let mut harness = Harness::builder()
        .with_size(WINDOW)
        .build_eframe(move |cc| VedetteApp::new(&cc.egui_ctx, settings));
    let name = format!("vedette-1x1-{}.png", std::process::id());
    step_until(&mut harness, "the tiny picture's message", |s| {
        s.status()
            .and_then(|st| st.error.as_deref())
            .is_some_and(|e| e.contains(&name) && e.contains("too small to hold a tag"))
    });
    std::fs::remove_file(&path).ok();
}
