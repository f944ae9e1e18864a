//! `vedette bench remote`: a remote game through a real broker and a real browser — Debian's
//! mosquitto set up by the files `vedette remote-broker` writes (its access list, its accounts,
//! its WebSockets listener serving the remote page), the demo table served to it
//! (`vedette serve --remote` in this process), and chromium under chromedriver opening the
//! sides' links, as remote players do.
//!
//! 1. The host's pipeline with no remote page, for its frame rate (before part 2 and after).
//! 2. `pages` pages (the British player's first, the Russian's): how long a state takes from
//!    the host's feed to the British page, beside what the broker's own small message takes
//!    (the anchor: 200-byte messages the bench publishes over plain MQTT, as the host, to the
//!    same page, under `to/` where the players' account reads);
//!    the pictures the page gets, a second and their size; how long an order takes from the
//!    page to the host's desk (what the app draws); and — the British player ordering each of
//!    his units to where the demo will move it next, the truth — how soon after the unit
//!    settles its order is matched, and how far from the truth the camera placed it. The host's
//!    frame rate meanwhile, as a ratio to (1).
//!
//! Clocks: the page's `Date.now()` and this process's system time are the same machine's.

use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, bail};
use fantoccini::{Client, ClientBuilder};
use live::Token;
use live::demo::Demo;
use live::mqtt::Broker;
use live::orders::Seats;
use live::pipeline::{Pipeline, Recording, Setup, TableState};
use serde_json::{Value, json};

use super::figures::{at, mean, sorted};
use super::processes::{Owned, free_port, shipped_mosquitto};
use crate::serve::remote::{PICTURE_BUDGET, Remote};
use crate::serve::{ServeOptions, Server};

/// What to measure.
#[derive(Clone, Copy, Debug)]
pub struct RemoteBench {
    /// Seconds each part runs.
    pub seconds: f64,
    /// Remote pages open in part 2 (1 or 2).
    pub pages: usize,
}

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Milliseconds since 1970, as the page's `Date.now()`.
fn epoch_ms() -> f64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Chromium, headless, under chromedriver.
async fn browser(profile: &Path) -> anyhow::Result<(Owned, Client)> {
    for program in [CHROMIUM, CHROMEDRIVER] {
        if !Path::new(program).exists() {
            bail!("{program} is missing (Debian: apt install chromium chromium-driver)");
        }
    }
    let port = free_port()?;
    let driver = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .context("chromedriver does not start")?;
    let driver = Owned(driver);
    let options = json!({
        "binary": CHROMIUM,
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-dev-shm-usage", "--window-size=1366,900",
                 format!("--user-data-dir={}", profile.display())],
    });
    let capabilities = serde_json::Map::from_iter([("goog:chromeOptions".to_owned(), options)]);
    let started = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => return Ok((driver, client)),
            Err(_) if started.elapsed() < Duration::from_secs(60) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => bail!("chromium did not start under chromedriver: {e}"),
        }
    }
}

async fn js(client: &Client, script: &str) -> anyhow::Result<Value> {
    client
        .execute(script, vec![])
        .await
        .with_context(|| format!("the page did not run {script}"))
}

async fn until(client: &Client, what: &str, script: &str) -> anyhow::Result<()> {
    let started = Instant::now();
    while js(client, script).await? != Value::Bool(true) {
        if started.elapsed() > Duration::from_secs(90) {
            bail!("the remote page never: {what}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// Wait until the pipeline has calibrated the table, and five seconds more.
fn warm_up(pipeline: &Pipeline) {
    let states = pipeline.watch();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        let ready = states
            .borrow()
            .as_ref()
            .is_some_and(|s| s.calibration.is_some());
        if ready {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_secs(5));
}

/// The host's pipeline frame rate over `seconds`: the mean of its states' own figure.
fn frame_rate(pipeline: &Pipeline, seconds: f64) -> f64 {
    let mut states = pipeline.watch();
    let mut rates = Vec::new();
    let end = Instant::now() + Duration::from_secs_f64(seconds);
    while Instant::now() < end {
        std::thread::sleep(Duration::from_millis(250));
        if let Some(state) = states.borrow_and_update().as_ref() {
            rates.push(state.status.pipeline_fps);
        }
    }
    mean(&rates)
}

/// Where the demo puts `unit` next, from where it stands now: its leader and facing.
fn next_place(demo: &Demo, unit: &rules::scene::Unit) -> Option<([f64; 2], f64)> {
    let here = unit.footprint.leader();
    demo.turns.windows(2).find_map(|pair| {
        let (now, next) = (pair[0].unit(&unit.id)?, pair[1].unit(&unit.id)?);
        let at = now.footprint.leader();
        let to = next.footprint.leader();
        ((at - here).norm() < 0.3 && (to - at).norm() > 1.0)
            .then(|| ([to.x, to.y], next.footprint.facing().0))
    })
}

/// `vedette bench remote`.
pub fn run(bench: RemoteBench, out: &mut dyn Write) -> anyhow::Result<()> {
    let scratch = std::env::temp_dir().join(format!("vedette-bench-remote-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let result = measure(bench, &scratch, out);
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn measure(bench: RemoteBench, scratch: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let (_broker, files) = shipped_mosquitto(&scratch.join("broker"), "bench")?;
    let broker: Broker = files.host_url("bench").parse()?;
    let pages_broker = files.pages_broker();
    let tokens = [
        ("british", "british-bench-seat-token"),
        ("russian", "russian-bench-seat-token"),
    ];
    let given = tokens
        .iter()
        .map(|(side, token)| Ok((side.to_string(), Token::parse(token)?)))
        .collect::<anyhow::Result<_>>()?;
    let sides: Vec<String> = tokens.iter().map(|(side, _)| side.to_string()).collect();
    let ping_broker = broker.clone();
    let remote = Remote {
        broker,
        pages_broker: pages_broker.clone(),
        page: format!(
            "http://127.0.0.1:{}/vedette/remote.html",
            files.args.ws_port
        ),
        seats: Seats::new(&sides, &given, None),
        player_login: Some(files.player_login()),
    };
    let links = remote.links("bench");
    let setup = Setup {
        record: Recording::Off,
        ..Setup::default()
    };
    let pipeline = Pipeline::start(setup, || {});
    let options = ServeOptions {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        name: Some("bench".into()),
        remote: Some(remote),
        ..ServeOptions::default()
    };
    let server = Server::start(options, pipeline.watch())?;
    writeln!(
        out,
        "A remote game through mosquitto's WebSockets listener and chromium: the demo table \
         (1920×1080), {} remote page(s), {:.0} s a part",
        bench.pages, bench.seconds
    )?;
    // Alone before and after the pages, once the table is calibrated and its lens learnt a
    // little (the first seconds' frame rate is the calibration's, not the serving's).
    warm_up(&pipeline);
    let before = frame_rate(&pipeline, bench.seconds);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let figures = runtime.block_on(with_pages(
        bench,
        &ping_broker,
        &server,
        &pipeline,
        &links,
        scratch,
    ))?;
    let after = frame_rate(&pipeline, bench.seconds);
    figures.print([before, after], out)
}

/// What part 2 measured.
struct Figures {
    state_ms: Vec<f64>,
    anchor_ms: Vec<f64>,
    pictures_per_second: f64,
    largest_picture: usize,
    order_ms: Vec<f64>,
    match_ms: Vec<f64>,
    match_off: Vec<f64>,
    frame_rate: f64,
    pages: usize,
}

impl Figures {
    fn print(&self, alone: [f64; 2], out: &mut dyn Write) -> anyhow::Result<()> {
        let line = |values: &[f64]| {
            let s = sorted(values);
            format!(
                "median {:.0} ms, p95 {:.0} ms ({} measured)",
                at(&s, 0.5),
                at(&s, 0.95),
                s.len()
            )
        };
        writeln!(
            out,
            "  the broker's own 200-byte message, MQTT in, WebSockets out: {}",
            line(&self.anchor_ms)
        )?;
        writeln!(
            out,
            "  a state from the host's feed to the remote page: {} (goal: p95 ≤ 250 ms)",
            line(&self.state_ms)
        )?;
        writeln!(
            out,
            "  pictures at the page: {:.1} a second, the largest {:.0} kB (goal: ≥ 2 a second, ≤ {} kB)",
            self.pictures_per_second,
            self.largest_picture as f64 / 1000.0,
            PICTURE_BUDGET / 1000
        )?;
        writeln!(
            out,
            "  an order from the page to the host's desk (what its app draws): {} (goal: p95 ≤ 250 ms)",
            line(&self.order_ms)
        )?;
        let off = sorted(&self.match_off);
        writeln!(
            out,
            "  orders matched with their units' moves: {} — after the unit settled {}; off the truth p95 {:.3}\", most {:.3}\" (goals: within 1 s, 0.05\")",
            off.len(),
            line(&self.match_ms),
            at(&off, 0.95),
            off.last().copied().unwrap_or(f64::NAN)
        )?;
        let [before, after] = alone;
        writeln!(
            out,
            "  the host's pipeline: {:.1} frames/s with {} remote page(s), {after:.1} alone after \
             them: ratio {:.2} ({before:.1} alone before them, while it still learnt its lens)",
            self.frame_rate,
            self.pages,
            self.frame_rate / after.max(1e-9)
        )?;
        Ok(())
    }
}

async fn with_pages(
    bench: RemoteBench,
    broker: &Broker,
    server: &Server,
    pipeline: &Pipeline,
    links: &[(live::orders::Seat, String)],
    scratch: &Path,
) -> anyhow::Result<Figures> {
    // When the host's feed sent each state, by its number.
    let sent: Arc<Mutex<HashMap<u64, f64>>> = Arc::default();
    let mut updates = server.feed().subscribe();
    let noted = sent.clone();
    tokio::spawn(async move {
        while let Ok(update) = updates.recv().await {
            if let Ok(mut sent) = noted.lock() {
                sent.insert(update.seq, epoch_ms());
            }
        }
    });
    let mut browsers = Vec::new();
    for (index, (_, link)) in links.iter().take(bench.pages.clamp(1, 2)).enumerate() {
        let profile: PathBuf = scratch.join(format!("chromium-{index}"));
        let (driver, client) = browser(&profile).await?;
        client
            .goto(link)
            .await
            .context("the remote page does not open")?;
        until(
            &client,
            "drew the table",
            "return page.view !== null && link.seat !== null",
        )
        .await?;
        browsers.push((driver, client));
    }
    let page = &browsers[0].1;
    // The pings come under `to/ping/`, which the players' account reads; the page notes them
    // as the `ping/…` it knows.
    js(
        page,
        "const take = link.client.onMessage, ping = link.root + '/to/ping/'; \
         link.client.onMessage = (topic, part) => \
           take(topic.startsWith(ping) ? link.root + '/ping/' + topic.slice(ping.length) : topic, part); \
         link.client.subscribe(ping + '#'); link.log = []; return true",
    )
    .await?;
    let figures = play(bench, broker, server, pipeline, page, &sent).await;
    for (_, client) in browsers {
        let _ = client.close().await;
    }
    figures
}

/// Part 2's play: pings, orders to the truth, the host's desk and frame rate watched.
async fn play(
    bench: RemoteBench,
    broker: &Broker,
    server: &Server,
    pipeline: &Pipeline,
    page: &Client,
    sent: &Arc<Mutex<HashMap<u64, f64>>>,
) -> anyhow::Result<Figures> {
    let demo = Demo::new()?;
    let mut pinger = Pinger::start(broker);
    let desk = server.feed().desk().clone();
    let mut states = pipeline.watch();
    let mut settled: HashMap<String, Instant> = HashMap::new();
    let mut seen_moves: Vec<Arc<live::pipeline::MoveRecord>> = Vec::new();
    let mut ordered: HashMap<String, f64> = HashMap::new();
    let mut order_ms = Vec::new();
    let (mut seen_orders, mut matched_orders): (Vec<u64>, Vec<u64>) = (Vec::new(), Vec::new());
    let (mut match_ms, mut match_off) = (Vec::new(), Vec::new());
    let mut rates = Vec::new();
    let started = Instant::now();
    let mut last_ping = Instant::now();
    let mut last_orders = Instant::now();
    while started.elapsed().as_secs_f64() < bench.seconds {
        tokio::time::sleep(Duration::from_millis(5)).await;
        if last_ping.elapsed() > Duration::from_millis(100) {
            last_ping = Instant::now();
            pinger.ping();
        }
        let state: Option<Arc<TableState>> = states.borrow_and_update().clone();
        if let Some(state) = &state {
            rates.push(state.status.pipeline_fps);
            for made in &state.moves {
                if !seen_moves.iter().any(|m| Arc::ptr_eq(m, made)) {
                    settled.insert(made.event.unit.clone(), Instant::now());
                    seen_moves.push(made.clone());
                }
            }
        }
        // The host's desk: an order seen for the first time, and one matched.
        for order in desk.board().orders {
            if !seen_orders.contains(&order.id) {
                seen_orders.push(order.id);
                // When the desk took it, on this machine's clock, from when the page sent it.
                let taken = epoch_ms() - order.given.elapsed().as_secs_f64() * 1000.0;
                if let Some(at) = ordered.remove(&order.order.unit) {
                    order_ms.push(taken - at);
                }
            }
            let placed = order.placed.as_ref().zip(settled.get(&order.order.unit));
            if let Some(((matched, when), moved)) = placed
                && !matched_orders.contains(&order.id)
            {
                matched_orders.push(order.id);
                // From the bench seeing the state that says the unit settled: the desk matches
                // as the host's feed takes that same state, often before the bench looks (0).
                match_ms.push(when.saturating_duration_since(*moved).as_secs_f64() * 1000.0);
                match_off.push(matched.off.0);
            }
        }
        if last_orders.elapsed() > Duration::from_millis(500)
            && let Some(state) = &state
        {
            last_orders = Instant::now();
            order_next_places(page, &demo, state, &desk, &mut ordered).await?;
        }
    }
    let log = js(page, "return link.log").await?;
    let (state_ms, anchor_ms, pictures, largest) = arrivals(&log, sent, bench.seconds);
    Ok(Figures {
        state_ms,
        anchor_ms,
        pictures_per_second: pictures,
        largest_picture: largest,
        order_ms,
        match_ms,
        match_off,
        frame_rate: mean(&rates),
        pages: bench.pages.clamp(1, 2),
    })
}

/// Order every British unit with no open order to where the demo moves it next, from the page.
async fn order_next_places(
    page: &Client,
    demo: &Demo,
    state: &TableState,
    desk: &live::orders::Desk,
    ordered: &mut HashMap<String, f64>,
) -> anyhow::Result<()> {
    let Some(scene) = &state.scene else {
        return Ok(());
    };
    let open: Vec<String> = (desk.board().orders.iter())
        .filter(|o| o.placed.is_none())
        .map(|o| o.order.unit.clone())
        .collect();
    // An order not seen by the host in 5 s was lost or refused: the unit may be ordered again.
    let now = epoch_ms();
    ordered.retain(|_, at| now - *at < 5000.0);
    // One order a call: a player orders a unit at a time (the desk holds each to two a second).
    let next = (scene.units.iter())
        .filter(|u| u.side == "british")
        .filter(|u| !open.contains(&u.id) && !ordered.contains_key(&u.id))
        .find_map(|u| Some((u, next_place(demo, u)?)));
    let Some((unit, (to, facing))) = next else {
        return Ok(());
    };
    // Timed by the page's own clock as it sends it.
    let order = format!(
        "const at = Date.now(); link.order('{}', [{}, {}], {facing}); return at",
        unit.id, to[0], to[1]
    );
    let sent = js(page, &order).await?.as_f64().unwrap_or_else(epoch_ms);
    ordered.insert(unit.id.clone(), sent);
    Ok(())
}

/// From the page's log: each state's way from the host's feed, each ping's way from this
/// process, the pictures a second and the largest.
fn arrivals(
    log: &Value,
    sent: &Arc<Mutex<HashMap<u64, f64>>>,
    seconds: f64,
) -> (Vec<f64>, Vec<f64>, f64, usize) {
    let sent = sent.lock().map(|s| s.clone()).unwrap_or_default();
    let entries = log.as_array().cloned().unwrap_or_default();
    let (mut states, mut anchors, mut pictures, mut largest) = (Vec::new(), Vec::new(), 0, 0);
    for entry in &entries {
        let arrived = entry["at"].as_f64().unwrap_or(f64::NAN);
        let leaf = entry["leaf"].as_str().unwrap_or_default();
        if leaf == "live"
            && let Some(from) = entry["seq"].as_u64().and_then(|seq| sent.get(&seq))
        {
            states.push(arrived - from);
        } else if let Some(from) = leaf
            .strip_prefix("ping/")
            .and_then(|t| t.parse::<f64>().ok())
        {
            anchors.push(arrived - from);
        } else if leaf == "picture" {
            pictures += 1;
            largest = largest.max(entry["bytes"].as_u64().unwrap_or(0) as usize);
        }
    }
    (states, anchors, f64::from(pictures) / seconds, largest)
}

/// A client of the broker that publishes 200-byte pings, each named by when it was sent.
struct Pinger {
    client: rumqttc::AsyncClient,
    table: String,
    next: u32,
}

impl Pinger {
    /// A pinger on `broker` (its event loop on the runtime this is called on).
    fn start(broker: &Broker) -> Pinger {
        let id = format!("vedette-bench-ping-{}", Token::random());
        let (client, events) = rumqttc::AsyncClient::new(live::mqtt::options(broker, &id), 64);
        tokio::spawn(live::mqtt::drive(events, broker.clone(), |_| {}));
        Pinger {
            client,
            table: broker.table.clone().unwrap_or_default(),
            next: 0,
        }
    }

    fn ping(&mut self) {
        self.next += 1;
        let topic = live::mqtt::topic(&self.table, &format!("to/ping/{:.0}", epoch_ms()));
        for part in crate::serve::remote::parts::parts(self.next, &[b'.'; 200]) {
            let _ = self
                .client
                .try_publish(&topic, rumqttc::QoS::AtMostOnce, false, part);
        }
    }
}
