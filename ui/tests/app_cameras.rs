//! Several cameras over one table in the app's pipeline, as a player sets them up: two
//! rendered webcam pictures of a 6'×4' table, each camera calibrating itself from the anchors
//! in its own picture, fused into one table; a camera that cannot be opened is named and the
//! units only it would see are said to be unseen, while the other camera goes on; a camera on
//! "another machine" (`vedette camera`, in a process of its own) sends its tags over a real
//! mosquitto, joins the table, and is said lost when its machine goes away.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::broker::Broker;
use common::rig::{Table, folder, table};
use common::served::free_port;

use live::pipeline::{CameraChoice, Pipeline, Recording, Setup, SourceChoice, TableState};
use vision::rig::CameraState;

const PATIENCE: Duration = Duration::from_secs(120);

fn picture(name: &str, path: &Path) -> CameraChoice {
    CameraChoice {
        name: name.into(),
        source: SourceChoice::Image(path.to_owned()),
        calibration: None,
    }
}

fn start(table: &Table, cameras: Vec<CameraChoice>) -> Pipeline {
    let setup = Setup {
        source: SourceChoice::Cameras(cameras),
        anchors: Some(table.anchors.clone()),
        roster: Some(table.roster.clone()),
        record: Recording::Off,
        ..Setup::default()
    };
    Pipeline::start(setup, || {})
}

/// The first state that `done` accepts.
fn wait_for(pipeline: &Pipeline, what: &str, done: impl Fn(&TableState) -> bool) -> TableState {
    let start = Instant::now();
    let mut last = None;
    while start.elapsed() < PATIENCE {
        match pipeline.take_latest() {
            Some(state) if done(&state) => return (*state).clone(),
            Some(state) => last = Some(state),
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    let status = last.map(|s| format!("{:?}", s.status));
    panic!("never {what}; last status: {status:?}");
}

/// Whether every camera is live and every unit of the battle on the table.
fn all_live_with_every_unit(state: &TableState, cameras: usize) -> bool {
    state.status.cameras.len() == cameras
        && state
            .status
            .cameras
            .iter()
            .all(|c| c.report.state == CameraState::Live)
        && state
            .scene
            .as_ref()
            .is_some_and(|scene| scene.units.len() == 12)
}

/// How far each unit of the scene is from the truth, inches.
fn misplaced(state: &TableState, truth: &rules::Scene) -> Vec<(String, f64)> {
    let scene = state.scene.as_ref().expect("a scene");
    truth
        .units
        .iter()
        .filter_map(|unit| {
            let placed = scene.unit(&unit.id)?;
            let off = (placed.footprint.stands()[0].center() - unit.footprint.stands()[0].center())
                .norm();
            Some((unit.id.clone(), off))
        })
        .collect()
}

#[test]
fn two_cameras_make_one_table_with_every_unit_where_it_stands() {
    let folder = folder("two-cameras");
    let table = table(&folder);
    let pipeline = start(
        &table,
        vec![
            picture("west", &table.pictures[0]),
            picture("east", &table.pictures[1]),
        ],
    );
    let state = wait_for(&pipeline, "saw every unit through two live cameras", |s| {
        all_live_with_every_unit(s, 2)
    });
    let off = misplaced(&state, &table.truth);
    assert_eq!(off.len(), 12);
    let worst = off.iter().map(|(_, d)| *d).fold(0.0, f64::max);
    assert!(worst < 0.1, "{off:?}");
    assert!(state.status.unseen.is_empty(), "{:?}", state.status.unseen);
    // The plan: each camera's part, and where the best of them finds the roster's tags.
    assert_eq!(state.coverage.len(), 2);
    let (west, east) = (&state.coverage[0], &state.coverage[1]);
    let reach = |outline: &[rules::geometry::TablePoint]| {
        let xs = outline.iter().map(|p| p.x);
        (
            xs.clone().fold(f64::MAX, f64::min),
            xs.fold(f64::MIN, f64::max),
        )
    };
    let ((w0, w1), (e0, e1)) = (reach(&west.outline), reach(&east.outline));
    assert!(
        w0 < 2.0 && w1 > 36.0 && w1 < 60.0,
        "west spans {w0:.1}–{w1:.1}"
    );
    assert!(
        e0 < 36.0 && e0 > 12.0 && e1 > 70.0,
        "east spans {e0:.1}–{e1:.1}"
    );
    let (sight, tag) = state.sight.as_ref().expect("the best camera's sight");
    for x in [10.0, 36.0, 62.0] {
        let smallest = sight
            .at(&rules::geometry::TablePoint::new(x, 24.0))
            .expect("some camera sees the middle of the table");
        assert!(smallest <= *tag, "at x = {x}: {smallest:?}");
    }
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_camera_that_cannot_open_is_named_and_what_only_it_sees_is_unseen() {
    let folder = folder("one-camera-missing");
    let table = table(&folder);
    let missing = folder.join("east-unplugged.png");
    let pipeline = start(
        &table,
        vec![
            picture("west", &table.pictures[0]),
            picture("east", &missing),
        ],
    );
    let state = wait_for(&pipeline, "ruled on the west camera alone", |s| {
        s.status.cameras.len() == 2
            && s.status.cameras[0].report.state == CameraState::Live
            && s.status.cameras[1].problem.is_some()
            && s.scene.is_some()
    });
    let east = &state.status.cameras[1];
    assert!(east.out(), "{east}");
    let problem = east.problem.as_deref().unwrap_or_default();
    assert!(problem.contains("east-unplugged.png"), "{problem}");
    // The west camera sees the west half (and a little of the east); the units beyond it
    // are unseen and named, not left anywhere.
    let off = misplaced(&state, &table.truth);
    assert!(off.iter().all(|(_, d)| *d < 0.1), "{off:?}");
    for unit in &table.truth.units {
        let x = unit.footprint.stands()[0].center().x;
        let unseen = state.status.unseen.iter().any(|u| u.id == unit.id);
        if x < 30.0 {
            assert!(
                !unseen,
                "{} at x = {x:.1} is in the west camera's view",
                unit.id
            );
        }
        if x > 50.0 {
            assert!(
                unseen,
                "{} at x = {x:.1} is only in the east camera's view",
                unit.id
            );
        }
    }
    // Named for the player as the roster names them ("Unit 11"), not by id.
    let unseen: Vec<(&str, &str)> = (state.status.unseen.iter())
        .map(|u| (u.id.as_str(), u.name.as_str()))
        .collect();
    assert!(
        unseen
            .iter()
            .all(|(id, name)| *name == format!("Unit {}", &id[5..])),
        "{unseen:?}"
    );
    assert_eq!(
        state.coverage.len(),
        1,
        "only the west camera is calibrated"
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_remote_camera_over_a_real_broker_joins_the_table_is_said_lost_when_it_goes_and_rejoins() {
    let broker = Broker::start(free_port());
    let folder = folder("remote-camera");
    let table = table(&folder);
    let url = broker.url("table-9");
    // The east camera on "another machine": `vedette camera` in a process of its own.
    let mut east = remote_camera(&url, &table);
    let remote = CameraChoice {
        name: "east".into(),
        source: SourceChoice::Remote(url.clone()),
        calibration: None,
    };
    let pipeline = start(&table, vec![picture("west", &table.pictures[0]), remote]);
    let state = wait_for(
        &pipeline,
        "saw every unit with the remote camera live",
        |s| all_live_with_every_unit(s, 2),
    );
    let off = misplaced(&state, &table.truth);
    assert!(off.iter().all(|(_, d)| *d < 0.1), "{off:?}");
    assert_eq!(
        state.coverage.len(),
        2,
        "the remote camera's calibration came"
    );
    // Its machine goes away: the table goes on without it and says so.
    let _ = east.kill();
    let _ = east.wait();
    let state = wait_for(&pipeline, "said the remote camera is lost", |s| {
        s.status.cameras.len() == 2
            && matches!(s.status.cameras[1].report.state, CameraState::Lost { .. })
    });
    assert_eq!(state.status.cameras[0].report.state, CameraState::Live);
    let said = state.status.cameras[1].to_string();
    assert!(said.contains("east: lost"), "{said}");
    for unit in &table.truth.units {
        if unit.footprint.stands()[0].center().x > 50.0 {
            assert!(
                state.status.unseen.iter().any(|u| u.id == unit.id),
                "{} is unseen",
                unit.id
            );
        }
    }
    // Started again, it rejoins with its next frame.
    let mut east = remote_camera(&url, &table);
    let state = wait_for(
        &pipeline,
        "saw every unit again with the camera back",
        |s| all_live_with_every_unit(s, 2),
    );
    assert!(state.status.unseen.is_empty(), "{:?}", state.status.unseen);
    let _ = east.kill();
    let _ = east.wait();
    let _ = std::fs::remove_dir_all(&folder);
}

/// The east camera on "another machine": `vedette camera` in a process of its own.
fn remote_camera(url: &str, table: &Table) -> std::process::Child {
    let arg = |path: &Path| path.display().to_string();
    std::process::Command::new(env!("CARGO_BIN_EXE_vedette"))
        .args([
            "camera",
            "--mqtt",
            url,
            "--name",
            "east",
            "--seconds",
            "300",
        ])
        .args(["--image", &arg(&table.pictures[1])])
        .args(["--anchors", &arg(&table.anchors)])
        .args(["--roster", &arg(&table.roster)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("vedette camera starts")
}

#[test]
fn render_and_calibrate_take_several_cameras() {
    // `vedette render --cameras 2` pictures a long table from two cameras, with its anchors
    // and a cameras file; `vedette calibrate --cameras` calibrates each camera from its own
    // picture into the file the cameras file names for it.
    let folder = folder("cli-cameras");
    let vedette = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_vedette"))
            .args(args)
            .current_dir(&folder)
            .output()
            .expect("vedette runs");
        let said = String::from_utf8_lossy(&output.stdout).into_owned();
        let errors = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{args:?}: {said}\n{errors}");
        said
    };
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/scenarios/ntombi.json");
    let said = vedette(&[
        "render",
        &scenario.display().to_string(),
        "--cameras",
        "2",
        "--save-roster",
        "roster.toml",
        "-o",
        "table.png",
    ]);
    assert!(
        said.contains("table-2.png") && said.contains("10 anchors"),
        "{said}"
    );
    let rendered =
        std::fs::read_to_string(folder.join("table.cameras.toml")).expect("a cameras file");
    assert!(rendered.contains("image = \"table-1.png\""), "{rendered}");
    std::fs::write(
        folder.join("cameras.toml"),
        "[[camera]]\nname = \"west\"\nimage = \"table-1.png\"\ncalibration = \"west.toml\"\n\n\
         [[camera]]\nname = \"east\"\nimage = \"table-2.png\"\ncalibration = \"east.toml\"\n",
    )
    .expect("written");
    let said = vedette(&[
        "calibrate",
        "--cameras",
        "cameras.toml",
        "--anchors",
        "table.anchors.toml",
    ]);
    assert!(said.contains("2 of 2 cameras calibrated"), "{said}");
    for name in ["west", "east"] {
        let calibration = calibration::TableCalibration::load(&folder.join(format!("{name}.toml")))
            .expect("a calibration per camera");
        assert!(
            calibration.quality.rms.0 < 0.5,
            "{name}: {:?}",
            calibration.quality
        );
    }
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn with_no_camera_that_opens_the_app_says_so_and_can_open_another_source() {
    let folder = folder("no-camera-opens");
    let table = table(&folder);
    let pipeline = start(
        &table,
        vec![
            picture("west", &folder.join("gone-west.png")),
            picture("east", &folder.join("gone-east.png")),
        ],
    );
    let state = wait_for(&pipeline, "named both cameras' problems", |s| {
        s.status.cameras.len() == 2 && s.status.cameras.iter().all(|c| c.problem.is_some())
    });
    assert!(state.status.cameras.iter().all(|c| c.out()));
    // The pipeline lives on: the player opens the demo table.
    pipeline.send(live::pipeline::Command::Open(Setup {
        record: Recording::Off,
        ..Setup::default()
    }));
    wait_for(&pipeline, "played the demo table instead", |s| {
        s.status.cameras.is_empty() && s.scene.is_some()
    });
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn the_camera_menu_adds_and_removes_cameras_and_opens_them_together() {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use vedette_ui::app::source_form::Kind;
    use vedette_ui::app::{Settings, VedetteApp};
    let mut harness = Harness::builder()
        .with_size(vedette_ui::app::headless::WINDOW)
        .build_eframe(|cc| VedetteApp::without_pipeline(&cc.egui_ctx, Settings::default()));
    harness.run_steps(2);
    // The menu, opened if it is not.
    let menu = |harness: &mut Harness<'_, VedetteApp>| {
        if harness
            .query_by_label_contains("Add the camera above")
            .is_none()
        {
            harness.get_by_label("📷 Source").click();
            harness.run_steps(2);
        }
    };
    let add = |harness: &mut Harness<'_, VedetteApp>, name: &str| {
        let form = &mut harness.state_mut().state.source_form;
        form.kind = Kind::Image;
        form.path = format!("{name}.png");
        form.camera_name = name.into();
        menu(harness);
        harness
            .get_by_label_contains("Add the camera above")
            .click();
        harness.run_steps(2);
    };
    add(&mut harness, "west");
    add(&mut harness, "east");
    add(&mut harness, "west");
    let names = |harness: &Harness<'_, VedetteApp>| -> Vec<String> {
        let rig = &harness.state().state.source_form.rig;
        rig.iter().map(|c| c.name.clone()).collect()
    };
    assert_eq!(names(&harness), ["west", "east"]);
    let refused = harness.state().state.source_form.rig_error.clone();
    assert!(
        refused
            .as_deref()
            .is_some_and(|e| e.contains("two cameras are named \"west\"")),
        "{refused:?}"
    );
    harness
        .get_all_by_label("✖")
        .next()
        .expect("a remove button")
        .click();
    harness.run_steps(2);
    assert_eq!(names(&harness), ["east"]);
    add(&mut harness, "north");
    menu(&mut harness);
    harness.get_by_label("Open").click();
    harness.run_steps(2);
    match &harness.state().state.settings.setup.source {
        SourceChoice::Cameras(cameras) => {
            let opened: Vec<&str> = cameras.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(opened, ["east", "north"]);
            assert_eq!(
                cameras[1].source,
                SourceChoice::Image(PathBuf::from("north.png"))
            );
        }
        other => panic!("opened {other:?}"),
    }
}
