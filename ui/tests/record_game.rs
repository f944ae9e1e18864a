//! The game remembered: the demo recorded through the whole pipeline and read back as it was
//! ruled; a real `vedette serve` killed mid-game leaves a record that has lost at most the last
//! second; the recorded demo replayed in the app, stepped move by move, two moments compared.

mod common;

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use common::scratch;
use common::served::{Served, free_port};
use egui_kittest::kittest::Queryable;
use live::demo::{self, Demo};
use live::replay::{Replay, state_at};
use record::{GameRecord, GameTime};
use rules::rulings::rulings;
use vedette_ui::app::headless::{WINDOW, demo_recorded};
use vedette_ui::app::{Settings, VedetteApp};

/// Held by each test while it runs: the killed game's bound is on the record's writer, and
/// the other tests' rulings and rendering, in parallel on two cores, would starve the served
/// pipeline instead (it reached 1.5 s behind once), so the tests of this file take turns.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The demo's first two turns and their moves, recorded once for the tests that read it.
fn recorded_demo(name: &str) -> (std::path::PathBuf, usize) {
    let path = scratch("record-game").join(format!("{name}.sqlite"));
    let _ = std::fs::remove_file(&path);
    let demo = Demo::new().expect("the demo");
    let (recorder, moves) = demo_recorded(&demo, &path, 2).expect("the demo recorded");
    drop(recorder);
    (path, moves)
}

#[test]
fn the_demo_is_recorded_and_every_moment_replays_as_it_was_ruled() {
    let _turn = one_at_a_time();
    let (path, moves) = recorded_demo("demo");
    let record = GameRecord::open(&path).expect("the record opens");
    assert!(record.damage().is_empty(), "{:?}", record.damage());
    assert!(moves > 0, "the demo's units were moved");
    assert_eq!(
        record.moves().len(),
        moves,
        "every move the pipeline reported is kept"
    );
    assert!(
        !record.keyframes().is_empty(),
        "the camera's first picture is kept"
    );
    let mut moments: Vec<GameTime> = record.moves().iter().map(|m| m.ended).collect();
    moments.extend((0..=10).map(|k| GameTime::from_millis(record.until().millis() * k / 10)));
    let mut compared = 0;
    for at in moments {
        let Some(scene) = record.scene_at(at).expect("readable") else {
            continue;
        };
        let recorded = record.rulings_at(at).expect("readable");
        assert!(!recorded.is_empty(), "rulings were recorded by {at}");
        assert!(
            recorded == record::rulings_as_read(&rulings(&scene)),
            "the rulings recorded at {at} are not the fresh rulings of the table then"
        );
        compared += 1;
    }
    assert!(compared > moves, "{compared} moments compared");
    // After each move, the replayed table has the unit where the move put it.
    for made in record.moves() {
        let state = state_at(&record, made.ended).expect("the moment");
        let scene = state.scene.expect("a table");
        let leader = scene
            .unit(&made.unit)
            .map(|u| u.footprint.leader())
            .or_else(|| scene.commander(&made.unit).map(|c| c.position))
            .expect("the unit is on the table");
        assert!(
            (leader - made.to.leader).norm() < 0.25,
            "{} at {leader:?}, moved to {:?}",
            made.unit,
            made.to.leader
        );
    }
}

/// A real `vedette serve --demo` recording into `path`, logging each moment it hands to the
/// record.
fn serve_demo(path: &std::path::Path) -> Served {
    let listen = format!("127.0.0.1:{}", free_port());
    let record = path.display().to_string();
    Served::start_logging(
        &["serve", "--demo", "--listen", &listen, "--record", &record],
        &["table"],
        "vedette_ui=info,live=info,record=trace",
    )
}

/// The game moments (ms) the server's log says it handed to its newest record: those after
/// the last time the game's clock went back to its start (the demo looped into a new game).
fn handed_moments(log: &str) -> Vec<i64> {
    let handed: Vec<i64> = log
        .lines()
        .filter(|line| line.contains("a moment handed to the record"))
        .filter_map(|line| line.split("at=").nth(1)?.trim().parse().ok())
        .collect();
    let newest_game = handed
        .windows(2)
        .rposition(|pair| pair[1] < pair[0])
        .map_or(0, |i| i + 1);
    handed[newest_game..].to_vec()
}

/// Wait until `done`, checking every 200 ms; fail after `limit`, saying `never` and the log.
fn wait_for(served: &Served, limit: Duration, never: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "{never}; log:\n{}", served.log());
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_game_killed_mid_way_has_lost_at_most_its_last_second() {
    let _turn = one_at_a_time();
    let folder = scratch("record-killed");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a folder");
    let path = folder.join("killed.sqlite");
    let mut served = serve_demo(&path);
    // Until the demo has made a move, and then some more of the game. On a slow machine the
    // demo may loop before its first move is seen: the game goes on in killed-2.sqlite.
    wait_for(
        &served,
        Duration::from_secs(240),
        "no move recorded",
        || games_from(&path).iter().any(|file| moved(file)),
    );
    std::thread::sleep(Duration::from_millis(1_700));
    let killed_at = jiff::Timestamp::now().as_millisecond();
    served.kill();
    // The game being written when it was killed: the newest file.
    let games = games_from(&path);
    let newest = games.last().expect("a game file");
    let record = GameRecord::open(newest).expect("the killed game's record opens");
    assert!(record.damage().is_empty(), "{:?}", record.damage());
    let started = record.info().started_unix_ms;
    let reached = i64::try_from(record.until().millis()).expect("ms");
    // What the record owes: every moment handed to it a second or more before the kill. How
    // often the pipeline hands one over is its own pace (30 a second in a release build, two
    // in a debug build on a busy machine), not the record's.
    let handed = handed_moments(&served.log());
    let owed = handed
        .iter()
        .copied()
        .filter(|at| started + at <= killed_at - 1_000)
        .max()
        .expect("moments handed to the record a second before the kill");
    assert!(
        reached >= owed,
        "{}: the record reaches {reached} ms, but the moment at {owed} ms was handed to it a \
         second or more before the kill",
        newest.display()
    );
    let lost = killed_at - (started + reached);
    assert!(games.iter().any(|file| moved(file)));
    assert!(record.scene_at(record.until()).expect("readable").is_some());
    let pace = handed.windows(2).map(|p| p[1] - p[0]).max().unwrap_or(0);
    eprintln!(
        "killed: the record reaches {lost} ms before the kill; the pipeline handed it a moment \
         at least every {pace} ms"
    );
}

/// Whether the game in `file` has a move recorded.
fn moved(file: &std::path::Path) -> bool {
    GameRecord::open(file).is_ok_and(|r| !r.moves().is_empty())
}

/// A game's file and the files the demo looped into after it (`killed-2.sqlite` …), those
/// that exist, oldest first.
fn games_from(path: &std::path::Path) -> Vec<std::path::PathBuf> {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let folder = path.parent().unwrap_or(std::path::Path::new(""));
    std::iter::once(path.to_owned())
        .chain((2..).map(|n| folder.join(format!("{stem}-{n}.sqlite"))))
        .take_while(|file| file.exists())
        .collect()
}

/// Stopped by `kill` (SIGTERM) or a closed terminal (SIGHUP) as by Ctrl-C: the game is one
/// file, whole when copied alone. Played until it loops, the demo starts a new game in a
/// record of its own, and its units going back to their start are no moves.
#[test]
fn a_game_stopped_by_sigterm_or_sighup_is_one_file_and_the_demo_loops_into_a_new_game() {
    let _turn = one_at_a_time();
    for (signal, until_looped) in [("HUP", false), ("TERM", true)] {
        let folder = scratch(&format!("record-stopped-{signal}"));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).expect("a folder");
        let path = folder.join("game.sqlite");
        let next = folder.join("game-2.sqlite");
        let mut served = serve_demo(&path);
        let never = if until_looped {
            "the demo never looped into a new game"
        } else {
            "no move recorded"
        };
        wait_for(
            &served,
            Duration::from_secs(300),
            never,
            || match until_looped {
                false => games_from(&path).iter().any(|file| moved(file)),
                true => next.exists(),
            },
        );
        let status = served.stop(signal, Duration::from_secs(30));
        assert!(
            status.is_some_and(|s| s.success()),
            "SIG{signal} ended it with {status:?}; log:\n{}",
            served.log()
        );
        common::served::assert_one_file(&path);
        if !until_looped {
            continue;
        }
        common::served::assert_one_file(&next);
        let first = GameRecord::open(&path).expect("the first game");
        let demo = Demo::new().expect("the demo");
        let units = demo.turns[0].units.len() + demo.turns[0].commanders.len();
        assert!(
            first.moves().len() <= units * (demo::TURNS - 1),
            "{} moves in one pass of the demo ({} units, {} turns)",
            first.moves().len(),
            units,
            demo::TURNS
        );
        // The way back to the opening positions is no move (a slow machine may see two
        // turns' advances as one move: that is not the loop).
        let opening = &demo.turns[0];
        for made in first.moves() {
            let Some(start) = opening.unit(&made.unit).map(|u| u.footprint.leader()) else {
                continue;
            };
            let back = (made.to.leader - start).norm() < 1.0;
            let away = (made.from.leader - start).norm() > 6.0;
            assert!(
                !(back && away),
                "{} moved {:.1}\" back to its opening place: the demo's loop recorded as a move",
                made.name,
                made.straight()
            );
        }
    }
}

#[test]
fn the_recorded_demo_replays_in_the_app_move_by_move_and_two_moments_side_by_side() {
    let _turn = one_at_a_time();
    let (path, _) = recorded_demo("replayed");
    let record = GameRecord::open(&path).expect("opens");
    let first_move = record.moves().first().expect("a move").ended;
    let unit = record.moves()[0].unit.clone();
    let replay = Replay::new(record, false);
    let begins = replay.at();
    let begins_label = begins.to_string();
    let mut harness = egui_kittest::Harness::builder()
        .with_size(WINDOW)
        .with_max_steps(16)
        .wgpu()
        .build_eframe(move |cc| {
            let mut app = VedetteApp::without_pipeline(&cc.egui_ctx, Settings::default());
            app.state.look_back(replay, begins);
            app
        });
    harness.run_steps(3);
    let at =
        |h: &egui_kittest::Harness<'_, VedetteApp>| h.state().state.replay.as_ref().map(Replay::at);
    assert_eq!(at(&harness), Some(begins));
    assert!(
        harness
            .query_by_label_contains("⏪ a recorded game")
            .is_some()
    );
    // ▶: the first move.
    harness.get_by_label("▶").click();
    harness.run_steps(3);
    assert_eq!(at(&harness), Some(first_move));
    let moved = harness
        .state()
        .state
        .table
        .as_ref()
        .and_then(|t| t.scene.clone())
        .expect("a table");
    assert!(moved.unit(&unit).is_some() || moved.commander(&unit).is_some());
    // Pin the opening, go on a move: both plans, and the move between them checked.
    harness.get_by_label("◀").click();
    harness.run_steps(2);
    harness.get_by_label("📌 Pin").click();
    harness.run_steps(2);
    harness.get_by_label("▶").click();
    harness.run_steps(4);
    assert!(
        harness.query_by_label_contains("↔ Moves from").is_some(),
        "the comparison is shown"
    );
    let pinned = format!("📌 {}", begins_label);
    assert!(
        harness.query_by_label(&pinned).is_some(),
        "the pinned plan is captioned {pinned}"
    );
    let picture = harness.render().expect("the app renders");
    let shot = scratch("record-game").join("replay-compare.png");
    picture.save(&shot).expect("saved");
    eprintln!("the replay, two moments side by side: {}", shot.display());
}
