//! The real app, as a person starts it: `vedette demo` on a virtual screen (Xvfb), looked at
//! through screenshots of the whole screen. The window opens and draws the table, the demo's
//! turns are played (units slid and carried, the picture changing), and the app is still
//! running when the test closes it. What it draws (a unit in a hand as a ghost, a faded tag's
//! remedy in the status bar) is asserted on the app's own rendering in `app_motion.rs`; the
//! screenshots are kept for a person to look at.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::scratch;

/// How long the slowest machine may take to open the window and play a turn.
const PATIENCE: Duration = Duration::from_secs(120);

/// A virtual screen, stopped when dropped.
struct Screen {
    server: Child,
    display: String,
}

impl Screen {
    /// A 1600×900 screen on the first free display from :90.
    fn open() -> Screen {
        assert!(
            Path::new("/usr/bin/Xvfb").exists(),
            "Xvfb is missing: `make test` installs xvfb"
        );
        for number in 90..160 {
            if Path::new(&format!("/tmp/.X{number}-lock")).exists() {
                continue;
            }
            let display = format!(":{number}");
            let Ok(mut server) = Command::new("/usr/bin/Xvfb")
                .args([&display, "-screen", "0", "1600x900x24", "-nolisten", "tcp"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
            else {
                continue;
            };
            let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(10) {
                if socket.exists() {
                    return Screen { server, display };
                }
                if server.try_wait().ok().flatten().is_some() {
                    break; // taken by another server meanwhile
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = server.kill();
            let _ = server.wait();
        }
        panic!("no free X display between :90 and :159");
    }

    /// The whole screen as a picture; `None` while it cannot be read yet.
    fn shot(&self) -> Option<image::RgbImage> {
        let out = Command::new("import")
            .args(["-display", &self.display, "-window", "root", "png:-"])
            .stderr(Stdio::null())
            .output()
            .ok()?;
        let picture = image::load_from_memory(&out.stdout).ok()?;
        Some(picture.to_rgb8())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// Colours in a picture, coarsely: a blank screen has one, the app's window hundreds.
fn colours(picture: &image::RgbImage) -> usize {
    picture
        .pixels()
        .step_by(7)
        .map(|p| (p[0] >> 3, p[1] >> 3, p[2] >> 3))
        .collect::<HashSet<_>>()
        .len()
}

/// The share of pixels that differ between two pictures.
fn changed(a: &image::RgbImage, b: &image::RgbImage) -> f64 {
    let differ = a.pixels().zip(b.pixels()).filter(|(p, q)| p != q).count();
    differ as f64 / (a.width() * a.height()).max(1) as f64
}

/// Screenshots every quarter of a second until one shows `what`; the app must keep running,
/// and show it within [`PATIENCE`] of `start` (else the test fails, saying `never`).
fn watch(
    app: &mut Child,
    screen: &Screen,
    log: &Path,
    start: Instant,
    never: &str,
    what: impl Fn(&image::RgbImage) -> bool,
) -> image::RgbImage {
    loop {
        assert!(
            app.try_wait().expect("the app's state").is_none(),
            "the app quit: {}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        assert!(start.elapsed() < PATIENCE, "{never}");
        if let Some(shot) = screen.shot().filter(|s| what(s)) {
            return shot;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn the_demo_opens_in_a_window_and_plays_its_turns() {
    let screen = Screen::open();
    let home = scratch("app-window-home");
    let _ = std::fs::remove_dir_all(&home);
    let log = scratch("app-window").join("vedette.log");
    let mut app = Command::new(env!("CARGO_BIN_EXE_vedette"))
        .arg("demo")
        .env("DISPLAY", &screen.display)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("a log file"))
        .spawn()
        .expect("vedette starts");
    let start = Instant::now();
    let first = watch(
        &mut app,
        &screen,
        &log,
        start,
        "the window never drew",
        |shot| colours(shot) > 200,
    );
    first
        .save(scratch("app-window").join("opened.png"))
        .expect("saved");
    // The demo plays: the table is filmed afresh and its units move.
    let later = watch(
        &mut app,
        &screen,
        &log,
        start,
        "the demo never moved on",
        |shot| changed(&first, shot) > 0.02,
    );
    later
        .save(scratch("app-window").join("playing.png"))
        .expect("saved");
    // Stopped as a service manager or `kill` stops it: the window closes as on its close
    // button, and the game it recorded is one file, whole without its log.
    let status = common::served::stop_with(&mut app, "TERM", PATIENCE);
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!said.contains("panicked"), "{said}");
    assert!(status.is_some(), "SIGTERM did not close the app: {said}");
    let games = home.join("data/vedette/games");
    let recorded: Vec<PathBuf> = std::fs::read_dir(&games)
        .expect("the games folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "sqlite"))
        .collect();
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    common::served::assert_one_file(&recorded[0]);

    // The game replayed as a user replays it, without a desktop session (xvfb-run, ssh): the
    // window draws, and nothing is said of XDG_RUNTIME_DIR (it was, four times).
    let log = scratch("app-window").join("replay.log");
    let mut replay = Command::new(env!("CARGO_BIN_EXE_vedette"))
        .arg("replay")
        .arg(&recorded[0])
        .env("DISPLAY", &screen.display)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("NODEVICE_SELECT")
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("a log file"))
        .spawn()
        .expect("vedette replay starts");
    let shown = watch(
        &mut replay,
        &screen,
        &log,
        Instant::now(),
        "the replay's window never drew",
        |shot| colours(shot) > 200,
    );
    shown
        .save(scratch("app-window").join("replay.png"))
        .expect("saved");
    let _ = replay.kill();
    let _ = replay.wait();
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!said.contains("XDG_RUNTIME_DIR"), "{said}");
    assert!(!said.contains("panicked"), "{said}");
}
