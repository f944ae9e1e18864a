//! A real browser for tests: Debian's chromium, headless, driven through chromedriver with
//! fantoccini, closed (chromedriver, chromium and its helpers) when dropped. `make test` installs
//! both (`.ci/system-deps.sh --tests`); without them a test that opens one fails, saying so.
//!
//! What a test asks of its page (show the table, click a button, count the plans) stays in the
//! test's own file, in an `impl Browser` of its own.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use serde_json::{Map, Value, json};

use super::served::free_port;

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// What differs between the tests' browsers.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// The window's size, CSS pixels.
    pub width: u32,
    pub height: u32,
    /// Whether that size is emulated as a device's screen (`mobileEmulation`): a desktop
    /// window is never narrower than 500 px, so a phone must be.
    pub emulated: bool,
    /// How long chromium may take to start under chromedriver, and a page to get to what
    /// [`Browser::until`] waits for.
    pub patience: Duration,
    /// Whether `VEDETTE_DOCS=1` also writes its screenshots to `docs/`: the guide's pictures
    /// are made by the test that shows them.
    pub docs: bool,
}

/// A laptop's window, as a remote player's: patient with a broker's first messages, its
/// screenshots the guide's.
pub const LAPTOP: Setup = Setup {
    width: 1366,
    height: 900,
    emulated: true,
    patience: Duration::from_secs(90),
    docs: true,
};

/// Chromium under chromedriver, closed when dropped.
pub struct Browser {
    driver: Child,
    pub client: Client,
    patience: Duration,
    docs: bool,
    _profile: PathBuf,
}

impl Browser {
    pub async fn open(setup: Setup) -> Browser {
        for program in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                Path::new(program).exists(),
                "{program} is missing: `make test` installs chromium and chromium-driver \
                 (.ci/system-deps.sh --tests)"
            );
        }
        let Setup {
            width,
            height,
            patience,
            ..
        } = setup;
        let port = free_port();
        // A process group of its own: chromium and its helpers go with it when a test ends,
        // even one that fails before closing the browser.
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let profile = super::scratch(&format!("chromium-{port}"));
        let mut options = json!({
            "binary": CHROMIUM,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                format!("--user-data-dir={}", profile.display()),
                format!("--window-size={width},{height}"),
            ],
        });
        if setup.emulated {
            options["mobileEmulation"] = json!({
                "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1.0 }
            });
        }
        let capabilities = Map::from_iter([("goog:chromeOptions".to_owned(), options)]);
        let start = Instant::now();
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector)
                .capabilities(capabilities.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(client) => break client,
                // chromedriver takes a moment to listen: its first refusals are expected.
                Err(_) if start.elapsed() < patience => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("chromium did not start under chromedriver: {e}"),
            }
        };
        Browser {
            driver,
            client,
            patience,
            docs: setup.docs,
            _profile: profile,
        }
    }

    /// What `script` returns on the page.
    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Wait until `script` returns true.
    pub async fn until(&self, what: &str, script: &str) {
        let start = Instant::now();
        loop {
            if self.js(script).await == Value::Bool(true) {
                return;
            }
            assert!(start.elapsed() < self.patience, "never: {what}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// A screenshot, kept in the test's scratch folder for a look (and in `docs/`, see
    /// [`Setup::docs`]); decoded.
    pub async fn screenshot(&self, name: &str) -> image::DynamicImage {
        let png = self.client.screenshot().await.expect("a screenshot");
        let path = super::scratch("web-screenshots").join(name);
        std::fs::write(&path, &png).expect("written");
        if self.docs && std::env::var_os("VEDETTE_DOCS").is_some() {
            let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/");
            std::fs::write(format!("{docs}{name}"), &png).expect("written to docs/");
        }
        image::load_from_memory(&png).expect("a PNG")
    }

    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The whole group: chromedriver, chromium and chromium's helpers.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.driver.id())])
            .status();
        let _ = self.driver.wait();
    }
}
