//! `vedette bench serve`: what serving the table costs the table, and how fast it reaches pages.
//!
//! 1. The app on the demo table, headless, its UI stepped at 60 Hz: once without sharing, once
//!    with its Share button on and `viewers` WebSocket pages connected on the loopback — the
//!    UI's frame time and the pipeline's frame rate side by side.
//! 2. The demo pipeline served to `viewers` pages: how long an update takes from the server
//!    sending it to each page having it, and from the pipeline's state to the pages (which
//!    includes waiting for the next of `rate` updates a second).
//! 3. A hall: `tables` tables publishing to a real mosquitto broker, `vedette hub` following
//!    them, one hub page: whether every table stays live and how old the oldest view gets.
//!
//! The pages are simulated in this process (one thread for all of them): they read and parse
//! every message as a browser would, but draw nothing.

use std::collections::HashMap;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use egui_kittest::Harness;
use futures_util::StreamExt;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::http::Uri;
use tokio_tungstenite::{WebSocketStream, client_async, connect_async};

use super::figures::{ms, percentile};
use super::processes::{free_port, mosquitto, wait_for_port};
use crate::app::headless::WINDOW;
use crate::app::{Settings, VedetteApp};
use crate::hub::Hub;
use crate::serve::{Feed, ServeOptions, Server};
use crate::web::MOST_FROM_ONE_ADDRESS;
use live::mqtt::Broker;
use live::pipeline::{Pipeline, Recording, Setup};

/// What to measure.
#[derive(Clone, Copy, Debug)]
pub struct ServeBench {
    /// Seconds each part runs.
    pub seconds: f64,
    /// Pages watching the table.
    pub viewers: usize,
    /// Updates a second sent to pages.
    pub rate: f64,
    /// Tables in the hall.
    pub tables: usize,
}

/// The demo table, not recorded: a benchmark's table is not a game to keep.
fn unrecorded() -> Setup {
    Setup {
        record: Recording::Off,
        ..Setup::default()
    }
}

/// `vedette bench serve`.
pub fn run(bench: ServeBench, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "vedette bench serve — the demo table, {} pages on the loopback, {} updates/s, {} tables in a hall, {:.0} s a part ({})",
        bench.viewers,
        bench.rate,
        bench.tables,
        bench.seconds,
        if cfg!(debug_assertions) {
            "debug build"
        } else {
            "release build"
        }
    )?;
    let without = app_run(bench, false).context("the app without pages")?;
    let with = app_run(bench, true).context("the app with pages")?;
    writeln!(out, "1. the app beside its server")?;
    for (label, run) in [("without pages", &without), ("with pages", &with)] {
        writeln!(
            out,
            "   {label:<14} UI frame median {:.2} ms, p95 {:.2} ms; pipeline {:.1} frames/s, {:.1} ms of work a frame; {} page(s) connected, {:.1} updates/s each, {:.0} kB/s each",
            ms(run.ui_median),
            ms(run.ui_p95),
            run.pipeline_fps,
            ms(run.frame_work),
            run.pages,
            run.updates_per_page,
            run.bytes_per_page / 1000.0
        )?;
    }
    let latency = latency_run(bench).context("the latency run")?;
    writeln!(out, "2. an update's way to {} pages", bench.viewers)?;
    writeln!(
        out,
        "   server sends → page has it: median {:.1} ms, p95 {:.1} ms, max {:.1} ms over {} deliveries (goal: under 100 ms)",
        ms(percentile(&latency.sent_to_page, 0.5)),
        ms(percentile(&latency.sent_to_page, 0.95)),
        ms(percentile(&latency.sent_to_page, 1.0)),
        latency.sent_to_page.len()
    )?;
    writeln!(
        out,
        "   pipeline's state → page: median {:.1} ms, p95 {:.1} ms, of which state → server sends: median {:.1} ms, p95 {:.1} ms (the view made and diffed, and any wait for the next of {} updates a second)",
        ms(percentile(&latency.state_to_page, 0.5)),
        ms(percentile(&latency.state_to_page, 0.95)),
        ms(percentile(&latency.state_to_sent, 0.5)),
        ms(percentile(&latency.state_to_sent, 0.95)),
        bench.rate
    )?;
    writeln!(out, "3. a hall of {} tables on one broker", bench.tables)?;
    match hall_run(bench) {
        Ok(hall) => writeln!(
            out,
            "   live at once: {} of {} (all within {:.1} s of starting); oldest view seen after that {:.1} s (stale at 10 s); {:.1} hall updates/s to the hub's page",
            hall.most_live,
            bench.tables,
            hall.all_live_after,
            hall.oldest_view,
            hall.updates_per_second
        )?,
        Err(e) => writeln!(out, "   not measured: {e:#}")?,
    }
    Ok(())
}

/// What one app run measured.
struct AppRun {
    ui_median: Duration,
    ui_p95: Duration,
    pipeline_fps: f64,
    frame_work: Duration,
    pages: usize,
    updates_per_page: f64,
    bytes_per_page: f64,
}

/// What the simulated pages got: messages and bytes, and when each update (by seq) arrived.
#[derive(Default)]
struct Pages {
    messages: usize,
    bytes: usize,
    arrivals: Vec<(u64, u64, Instant)>,
}

/// Connect `count` pages to `link` on a thread of their own; each reads every message.
fn watch_pages(link: &str, count: usize, pages: Arc<Mutex<Pages>>, stop: Instant) {
    let url = format!("{}ws", link.replacen("http://", "ws://", 1));
    on_own_thread(async move {
        {
            let mut tasks = Vec::new();
            for page in 0..count {
                let (url, pages) = (url.clone(), pages.clone());
                tasks.push(tokio::spawn(async move {
                    let Some(mut socket) = open_page(&url, page).await else {
                        return;
                    };
                    while Instant::now() < stop {
                        let wait = stop.saturating_duration_since(Instant::now());
                        let Ok(Some(Ok(Message::Text(text)))) =
                            tokio::time::timeout(wait, socket.next()).await
                        else {
                            continue;
                        };
                        let arrived = Instant::now();
                        let value: serde_json::Value =
                            serde_json::from_str(&text).unwrap_or_default();
                        let seq = value["seq"].as_u64();
                        let frame = value["view"]["status"]["frame"]
                            .as_u64()
                            .or(value["patch"]["status"]["frame"].as_u64());
                        if let Ok(mut pages) = pages.lock() {
                            pages.messages += 1;
                            pages.bytes += text.len();
                            if let Some(seq) = seq {
                                pages.arrivals.push((seq, frame.unwrap_or(0), arrived));
                            }
                        }
                    }
                }));
            }
            for task in tasks {
                let _ = task.await;
            }
        }
    });
}

/// Page `page`'s socket to `url`, over the loopback from an address it shares with a few others
/// only: the server lets one address hold few connections (`web::MOST_FROM_ONE_ADDRESS`), as a
/// phone is one address. Where the loopback has one address only, from the loopback's own.
async fn open_page(url: &str, page: usize) -> Option<WebSocketStream<tokio::net::TcpStream>> {
    let port = url.parse::<Uri>().ok()?.port_u16()?;
    let per_address = MOST_FROM_ONE_ADDRESS / 2;
    let from = Ipv4Addr::new(127, 0, 0, 2 + (page / per_address).min(250) as u8);
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    let _ = socket.bind(SocketAddr::from((from, 0)));
    let stream = socket
        .connect(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .await
        .ok()?;
    let (socket, _) = client_async(url, stream).await.ok()?;
    Some(socket)
}

/// Run `work` on a thread and a runtime of its own.
fn on_own_thread(work: impl std::future::Future<Output = ()> + Send + 'static) {
    std::thread::spawn(move || {
        match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime.block_on(work),
            Err(e) => tracing::error!("cannot start a runtime for the bench: {e}"),
        }
    });
}

fn app_run(bench: ServeBench, serve: bool) -> anyhow::Result<AppRun> {
    let mut harness = Harness::builder().with_size(WINDOW).build_eframe(|cc| {
        VedetteApp::new(&cc.egui_ctx, Settings::default()).sharing_with(crate::serve::starter(None))
    });
    let pages = Arc::new(Mutex::new(Pages::default()));
    let warm = Instant::now();
    while harness.state().state.table.is_none() && warm.elapsed() < Duration::from_secs(120) {
        harness.step();
        std::thread::sleep(Duration::from_millis(16));
    }
    let started = Instant::now();
    let stop = started + Duration::from_secs_f64(bench.seconds);
    if serve {
        harness.state_mut().state.share.requested = Some(true);
        harness.step();
        let link = harness
            .state()
            .state
            .share
            .links()
            .map(|l| l.viewer.clone())
            .context("the Share button did not start the server")?;
        watch_pages(&link, bench.viewers, pages.clone(), stop);
    }
    let mut steps = Vec::new();
    let mut fps = Vec::new();
    let mut work = Vec::new();
    let mut connected = 0;
    while Instant::now() < stop {
        let t = Instant::now();
        harness.step();
        steps.push(t.elapsed());
        let state = &harness.state().state;
        if let Some(status) = state.status() {
            fps.push(status.pipeline_fps);
            work.push(status.frame_work);
        }
        connected = connected.max(state.share.viewers());
        std::thread::sleep(Duration::from_millis(16).saturating_sub(t.elapsed()));
    }
    steps.sort();
    work.sort();
    fps.sort_by(f64::total_cmp);
    let pages = pages
        .lock()
        .map_err(|_| anyhow::anyhow!("the pages' thread failed"))?;
    let per_page = |total: usize| total as f64 / bench.viewers.max(1) as f64 / bench.seconds;
    Ok(AppRun {
        ui_median: percentile(&steps, 0.5),
        ui_p95: percentile(&steps, 0.95),
        pipeline_fps: fps.get(fps.len() / 2).copied().unwrap_or(0.0),
        frame_work: percentile(&work, 0.5),
        pages: connected,
        updates_per_page: if serve { per_page(pages.messages) } else { 0.0 },
        bytes_per_page: if serve { per_page(pages.bytes) } else { 0.0 },
    })
}

/// What the latency run measured.
struct Latency {
    sent_to_page: Vec<Duration>,
    state_to_page: Vec<Duration>,
    state_to_sent: Vec<Duration>,
}

fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

fn latency_run(bench: ServeBench) -> anyhow::Result<Latency> {
    let pipeline = Pipeline::start(unrecorded(), || {});
    let server = Server::start(
        ServeOptions {
            listen: loopback(),
            host: Some("127.0.0.1".into()),
            rate: bench.rate,
            max_viewers: bench.viewers + 10,
            ..ServeOptions::default()
        },
        pipeline.watch(),
    )?;
    let stop = Instant::now() + Duration::from_secs_f64(bench.seconds);
    // When each state left the pipeline, and when the server sent each update.
    let states: Arc<Mutex<HashMap<u64, Instant>>> = Arc::default();
    let sent: Arc<Mutex<HashMap<u64, Instant>>> = Arc::default();
    record(
        pipeline.watch(),
        server.feed().clone(),
        states.clone(),
        sent.clone(),
        stop,
    );
    let pages = Arc::new(Mutex::new(Pages::default()));
    watch_pages(&server.links().viewer, bench.viewers, pages.clone(), stop);
    while Instant::now() < stop + Duration::from_millis(500) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let pages = pages
        .lock()
        .map_err(|_| anyhow::anyhow!("the pages' thread failed"))?;
    let (states, sent) = (
        states.lock().map_err(|_| anyhow::anyhow!("poisoned"))?,
        sent.lock().map_err(|_| anyhow::anyhow!("poisoned"))?,
    );
    let mut sent_to_page = Vec::new();
    let mut state_to_page = Vec::new();
    let mut state_to_sent: HashMap<u64, Duration> = HashMap::new();
    for (seq, frame, arrived) in &pages.arrivals {
        if let Some(at) = sent.get(seq) {
            sent_to_page.push(arrived.saturating_duration_since(*at));
        }
        if let Some(at) = states.get(frame) {
            state_to_page.push(arrived.saturating_duration_since(*at));
            if let Some(sent) = sent.get(seq) {
                state_to_sent.insert(*seq, sent.saturating_duration_since(*at));
            }
        }
    }
    sent_to_page.sort();
    state_to_page.sort();
    let mut state_to_sent: Vec<Duration> = state_to_sent.into_values().collect();
    state_to_sent.sort();
    Ok(Latency {
        sent_to_page,
        state_to_page,
        state_to_sent,
    })
}

/// Note when each pipeline state (by frame) and each update (by seq) appears, in this process.
fn record(
    mut states: crate::serve::States,
    feed: Feed,
    state_times: Arc<Mutex<HashMap<u64, Instant>>>,
    sent_times: Arc<Mutex<HashMap<u64, Instant>>>,
    stop: Instant,
) {
    on_own_thread(async move {
        {
            let mut updates = feed.subscribe();
            while Instant::now() < stop {
                tokio::select! {
                    changed = states.changed() => {
                        if changed.is_err() { return; }
                        let frame = states.borrow_and_update().as_ref().map(|s| s.frame_index);
                        if let (Some(frame), Ok(mut times)) = (frame, state_times.lock()) {
                            times.entry(frame).or_insert_with(Instant::now);
                        }
                    }
                    update = updates.recv() => {
                        if let (Ok(update), Ok(mut times)) = (update, sent_times.lock()) {
                            times.insert(update.seq, Instant::now());
                        }
                    }
                    () = tokio::time::sleep(Duration::from_millis(200)) => {}
                }
            }
        }
    });
}

/// What the hall run measured.
struct HallRun {
    most_live: usize,
    all_live_after: f64,
    oldest_view: f64,
    updates_per_second: f64,
}

fn hall_run(bench: ServeBench) -> anyhow::Result<HallRun> {
    let port = free_port()?;
    let _broker = mosquitto(&["-p", &port.to_string()])?;
    let started = Instant::now();
    wait_for_port(port, "mosquitto", Duration::from_secs(10))?;
    let broker: Broker = format!("mqtt://127.0.0.1:{port}").parse()?;
    // One pipeline, many tables: each its own feed and publisher, as many `vedette serve`s.
    let pipeline = Pipeline::start(unrecorded(), || {});
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    for table in 0..bench.tables {
        let name = format!("table-{:02}", table + 1);
        let (feed, task) = Feed::new(
            pipeline.watch(),
            live::orders::Desk::default(),
            Some(name.clone()),
            Duration::from_millis(500),
        );
        runtime.spawn(task);
        runtime.spawn(crate::serve::hall::publish(
            Broker {
                table: Some(name.clone()),
                ..broker.clone()
            },
            name,
            feed,
        ));
    }
    let hub = Hub::start(broker, loopback(), Some("127.0.0.1".into()), None)?;
    let hall = Arc::new(Mutex::new((0usize, None::<f64>, 0.0f64, 0usize)));
    let stop = Instant::now() + Duration::from_secs_f64(bench.seconds.max(10.0));
    let link = hub.link().to_owned();
    let seen = hall.clone();
    let tables = bench.tables;
    runtime.spawn(async move {
        let url = format!("{}ws", link.replacen("http://", "ws://", 1));
        let Ok((mut socket, _)) = connect_async(url).await else {
            return;
        };
        while let Some(Ok(message)) = socket.next().await {
            let Message::Text(text) = message else {
                continue;
            };
            let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
            let list = value["tables"].as_array().cloned().unwrap_or_default();
            let live: Vec<f64> = list
                .iter()
                .filter(|t| t["online"] == true)
                .filter_map(|t| t["age"].as_f64())
                .filter(|age| *age < 10.0)
                .collect();
            if let Ok(mut hall) = seen.lock() {
                hall.3 += 1;
                hall.0 = hall.0.max(live.len());
                if live.len() == tables && hall.1.is_none() {
                    hall.1 = Some(started.elapsed().as_secs_f64());
                }
                if hall.1.is_some() {
                    let oldest = list
                        .iter()
                        .filter_map(|t| t["age"].as_f64())
                        .fold(0.0, f64::max);
                    hall.2 = hall.2.max(oldest);
                }
            }
        }
    });
    while Instant::now() < stop {
        std::thread::sleep(Duration::from_millis(200));
    }
    let (most_live, all_live, oldest, messages) = *hall
        .lock()
        .map_err(|_| anyhow::anyhow!("the hub page failed"))?;
    runtime.shutdown_background();
    Ok(HallRun {
        most_live,
        all_live_after: all_live.unwrap_or(f64::NAN),
        oldest_view: oldest,
        updates_per_second: messages as f64 / started.elapsed().as_secs_f64(),
    })
}
