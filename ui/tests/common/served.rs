//! A real `vedette serve` (or `vedette hub`) process for tests: started as a user starts it,
//! its links read from what it prints, its log kept, killed when dropped.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `vedette serve --demo` on a port of its own, the viewers' link's token `players-link` and
/// the umpire's `umpires-link`, with `extra` arguments.
pub fn serve(extra: &[&str]) -> Served {
    let mut args = vec![
        "serve",
        "--demo",
        "--listen",
        "127.0.0.1:0",
        "--token",
        "players-link",
        "--umpire-token",
        "umpires-link",
    ];
    args.extend_from_slice(extra);
    Served::start(&args, &["table", "umpire"])
}

/// The WebSocket address of a page's `link`.
pub fn ws_url(link: &str) -> String {
    format!("{}ws", link.replacen("http://", "ws://", 1))
}

/// A running `vedette` server.
pub struct Served {
    child: Child,
    /// What it printed first: `table: …`, `umpire: …` or `hub: …`, by label.
    pub links: Vec<(String, String)>,
    log: Arc<Mutex<String>>,
}

impl Served {
    /// Start `vedette` with `args` (`serve …` or `hub …`) and wait until it has printed the
    /// `labels`' links.
    pub fn start(args: &[&str], labels: &[&str]) -> Served {
        Served::start_logging(args, labels, "vedette_ui=info,live=info")
    }

    /// [`Served::start`] with the log filter `rust_log` (`RUST_LOG`).
    pub fn start_logging(args: &[&str], labels: &[&str], rust_log: &str) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_vedette"))
            .args(args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .env("RUST_LOG", rust_log)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("vedette starts");
        let log = Arc::new(Mutex::new(String::new()));
        let mut stderr = child.stderr.take().expect("stderr");
        let kept = log.clone();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                if let Ok(mut log) = kept.lock() {
                    log.push_str(&String::from_utf8_lossy(&buffer[..n]));
                }
            }
        });
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let mut links = Vec::new();
        while links.len() < labels.len() {
            let Some(Ok(line)) = lines.next() else {
                let log = log.lock().map(|l| l.clone()).unwrap_or_default();
                panic!("vedette {args:?} ended before printing its links; its log:\n{log}");
            };
            if let Some((label, rest)) = line.split_once(": ")
                && labels.contains(&label)
            {
                let link = rest.split_whitespace().next().unwrap_or("").to_owned();
                links.push((label.to_owned(), link));
            }
        }
        // Keep reading (and dropping) what it prints so that it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Served { child, links, log }
    }

    /// The link printed as `label`.
    pub fn link(&self, label: &str) -> String {
        self.links
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, link)| link.clone())
            .unwrap_or_else(|| panic!("no {label} link in {:?}", self.links))
    }

    /// `host:port` it serves on.
    pub fn authority(&self) -> String {
        let link = &self.links[0].1;
        link.trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap_or_default()
            .to_owned()
    }

    /// Its log so far.
    pub fn log(&self) -> String {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// Wait until its log says `what` (or fail after `limit`, showing the log).
    pub fn wait_for_log(&self, what: &str, limit: Duration) {
        let start = Instant::now();
        while !self.log().contains(what) {
            assert!(
                start.elapsed() < limit,
                "the server never logged {what:?}; its log:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether it is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Send it a signal (`TERM`, `HUP`, `INT`) as `kill` does, and wait until it has stopped:
    /// its exit status, `None` if it is still running after `limit` (then it is killed).
    pub fn stop(&mut self, signal: &str, limit: Duration) -> Option<std::process::ExitStatus> {
        stop_with(&mut self.child, signal, limit)
    }

    /// Kill it (as a machine switched off would end it).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A free port on the loopback.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Send `child` a signal (`TERM`, `HUP`, `INT`) as `kill` does, and wait until it has stopped:
/// its exit status, `None` if it is still running after `limit` (then it is killed).
pub fn stop_with(
    child: &mut Child,
    signal: &str,
    limit: Duration,
) -> Option<std::process::ExitStatus> {
    let sent = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal} failed");
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// A stopped game's record is one file: its log folded in, and a copy of the file alone
/// opens whole, with every move the record holds.
pub fn assert_one_file(game: &std::path::Path) {
    let log = record::log_of(game);
    assert!(
        std::fs::metadata(&log).map_or(true, |m| m.len() == 0),
        "{} is left beside the game",
        log.display()
    );
    let record = record::GameRecord::open(game).expect("the record opens");
    let copy = game.with_extension("copy.sqlite");
    let _ = std::fs::remove_file(&copy);
    std::fs::copy(game, &copy).expect("copied");
    let alone = record::GameRecord::open(&copy).expect("the copy opens");
    assert!(alone.damage().is_empty(), "{:?}", alone.damage());
    assert_eq!(alone.moves().len(), record.moves().len());
    assert_eq!(alone.until(), record.until());
}
