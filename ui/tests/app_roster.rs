//! The roster editor's "learn tags" step, as a player uses it: a stand whose tag the roster
//! gets wrong is shown to the camera, the player says which stand it is, saves, and the unit
//! is on the table.

use std::path::{Path, PathBuf};

use egui_kittest::kittest::Queryable;
use live::pipeline::{Inputs, Processor, Setup, SourceChoice, TableState};
use vedette_ui::app::headless::harness_on;
use vision::FrameSource;

fn camera_samples() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/camera")).to_owned()
}

/// The sample roster with the 45th Foot's tray given tag 99 instead of the 10 it carries, in a
/// file of the test's own (`test`): tests run side by side, and one saves its roster.
fn wrong_roster(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vedette-learn-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("roster.toml");
    let text = std::fs::read_to_string(camera_samples().join("two-lines-roster.toml"))
        .expect("sample roster");
    let wrong = text.replacen("tag = 10\n", "tag = 99\n", 1);
    assert_ne!(
        wrong, text,
        "the sample roster puts tag 10 on the 45th's tray"
    );
    std::fs::write(&path, wrong).expect("written");
    path
}

fn through_the_pipeline(roster: &Path) -> TableState {
    let camera = camera_samples();
    let setup = Setup {
        source: SourceChoice::Image(camera.join("two-lines.jpg")),
        calibration: None,
        anchors: Some(camera.join("anchors.toml")),
        roster: Some(roster.to_owned()),
        terrain: None,
        ..Setup::default()
    };
    let inputs = Inputs::load(&setup);
    assert!(inputs.notes.is_empty(), "{:?}", inputs.notes);
    let mut source = vision::source::ImageFile::new(&camera.join("two-lines.jpg"));
    let frame = source.next_frame().expect("readable").expect("a frame");
    Processor::new(inputs).process(&frame, "two-lines.jpg")
}

/// In the learn-tags list: the tag in view is on the 45th Foot's tray.
fn put_on_the_45th(harness: &mut egui_kittest::Harness<'_, vedette_ui::app::VedetteApp>) {
    // `run` steps until the UI settles, and checks that every widget has a name.
    harness.get_by_value("it is on…").click();
    harness.run();
    harness.get_by_label("45th Foot (now tag 99)").click();
    harness.run();
    harness.get_by_label("Put it there").click();
    harness.run();
}

fn placed(state: &TableState, unit: &str) -> bool {
    state.scene.as_ref().is_some_and(|s| s.unit(unit).is_some())
}

#[test]
fn a_tag_shown_to_the_camera_is_learnt_into_the_roster_file() {
    let roster = wrong_roster("learnt");
    let before = through_the_pipeline(&roster);
    assert!(
        before.status.unknown_tags.contains(&10),
        "{:?}",
        before.status
    );
    assert!(!placed(&before, "45th-foot"));

    let mut harness = harness_on(before, None);
    harness.state_mut().state.settings.setup.roster = Some(roster.clone());
    harness.get_by_label("🏷 Roster").click();
    harness.run_steps(3);
    assert!(harness.query_by_label("Tag 10 in view").is_some());
    put_on_the_45th(&mut harness);
    let doc = harness
        .state()
        .state
        .roster
        .document
        .as_ref()
        .expect("the roster is open");
    assert_eq!(doc.roster().units[0].stands[0].tag, 10);
    assert!(!doc.is_saved());
    assert!(harness.query_by_label("• not saved").is_some());
    harness.get_by_label("💾 Save").click();
    harness.run_steps(2);
    assert!(harness.query_by_label("• not saved").is_none());

    let after = through_the_pipeline(&roster);
    assert!(placed(&after, "45th-foot"), "{:?}", after.status);
    assert!(!after.status.unknown_tags.contains(&10));
}

#[test]
fn a_tag_already_on_another_stand_is_refused_with_the_line_at_fault() {
    let roster = wrong_roster("refused");
    let mut state = through_the_pipeline(&roster);
    // Pretend the camera saw tag 11 as a stranger (it is on the 95th's first stand).
    state.status.unknown_tags = vec![11];
    let mut harness = harness_on(state, None);
    harness.state_mut().state.settings.setup.roster = Some(roster.clone());
    harness.get_by_label("🏷 Roster").click();
    harness.run_steps(3);
    put_on_the_45th(&mut harness);
    let editor = &harness.state().state.roster;
    let error = editor.error.clone().expect("refused");
    assert!(error.contains("roster.toml:"), "{error}");
    assert!(error.contains("11"), "{error}");
    let doc = editor.document.as_ref().expect("still open");
    assert_eq!(doc.roster().units[0].stands[0].tag, 99, "nothing changed");
    assert!(doc.is_saved());
}

/// Step the app until `done` holds, failing with `what` after a generous deadline.
fn step_until(
    harness: &mut egui_kittest::Harness<'_, vedette_ui::app::VedetteApp>,
    what: &str,
    done: impl Fn(&vedette_ui::app::AppState) -> bool,
) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !done(&harness.state().state) {
        assert!(std::time::Instant::now() < deadline, "never saw {what}");
        harness.step();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn on_a_still_picture_the_table_shows_a_learnt_tag_as_soon_as_it_is_put_there() {
    // The app itself, its pipeline reading the picture once: it has no next frame to show the
    // change on, so the last one is looked at again.
    let roster = wrong_roster("still");
    let camera = camera_samples();
    let settings = vedette_ui::app::Settings {
        setup: Setup {
            source: SourceChoice::Image(camera.join("two-lines.jpg")),
            calibration: None,
            anchors: Some(camera.join("anchors.toml")),
            roster: Some(roster.clone()),
            terrain: None,
            ..Setup::default()
        },
        ..vedette_ui::app::Settings::default()
    };
    let mut harness = egui_kittest::Harness::builder()
        .with_size(vedette_ui::app::headless::WINDOW)
        .build_eframe(move |cc| vedette_ui::app::VedetteApp::new(&cc.egui_ctx, settings));
    step_until(&mut harness, "tag 10 unknown", |s| {
        s.status().is_some_and(|st| st.unknown_tags.contains(&10))
    });
    harness.get_by_label("🏷 Roster").click();
    harness.run_steps(3);
    put_on_the_45th(&mut harness);
    step_until(&mut harness, "the 45th on the table", |s| {
        s.table
            .as_ref()
            .and_then(|t| t.scene.as_ref())
            .is_some_and(|scene| scene.unit("45th-foot").is_some())
    });
}
