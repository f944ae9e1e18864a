//! The app without a window: rendered to a PNG through egui_kittest and wgpu (lavapipe on a
//! machine without a GPU), and timed for `vedette bench app`. The demo's pipeline is run
//! synchronously here — the same [`Processor`] the pipeline thread runs — so a screenshot never
//! depends on timing.

use std::collections::VecDeque;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use egui_kittest::Harness;
use rules::ruling::{Decision, Topic};
use vision::FrameSource;
use vision::source::SyntheticSource;
use vision::synthetic::{Effects, SyntheticTable};

use live::demo::Demo;
use record::Recorder;

use super::{Settings, VedetteApp};
use live::pipeline::{Keeper, Processor, Recording, Ruler, TableState, start_recording};

/// The window size of screenshots and benchmarks.
pub const WINDOW: egui::Vec2 = egui::Vec2::new(1600.0, 900.0);

/// One demo frame at `turn`, through the whole pipeline (detection, calibration from the
/// anchors, placing, rulings).
pub fn demo_state(demo: &Demo, turn: usize) -> anyhow::Result<TableState> {
    demo_filmed(demo, vec![(demo.stage(turn), 1)])
}

/// The demo's tables, each shown for its number of frames at 10 frames a second, through the
/// whole pipeline: the state after the last frame.
pub fn demo_filmed(demo: &Demo, states: Vec<(SyntheticTable, u64)>) -> anyhow::Result<TableState> {
    let mut source = demo_source(demo, states);
    let mut processor = Processor::new(demo.inputs());
    let mut last = None;
    while let Some(frame) = source.next_frame()? {
        last = Some(processor.process(&frame, &source.name()));
    }
    last.context("the demo table gave no frame")
}

/// The demo's tables through its webcam, each for its number of frames at 10 a second.
fn demo_source(demo: &Demo, states: Vec<(SyntheticTable, u64)>) -> SyntheticSource {
    SyntheticSource::new(
        "demo table",
        demo.camera,
        Effects::WEBCAM,
        states,
        10.0,
        false,
    )
}

/// Frames of a turn's table the pipeline sees before the moves start in [`demo_state_moving`]:
/// enough for each tag's health to have been looked at a few times.
pub const SETTLED_FRAMES: u64 = 45;

/// The demo half-way through the moves after `turn`: the pipeline has watched the turn's table
/// for [`SETTLED_FRAMES`], then the units start sliding and one is carried in a hand.
pub fn demo_state_moving(demo: &Demo, turn: usize) -> anyhow::Result<TableState> {
    let halfway = live::demo::FRAMES_PER_MOVE / 2;
    let states = std::iter::once((demo.stage(turn), SETTLED_FRAMES))
        .chain(demo.making_moves(turn, halfway))
        .collect();
    demo_filmed(demo, states)
}

/// The demo's first `turns` turns and the moves between them, through the whole pipeline as
/// the app runs it (each frame observed, ruled, and handed to the record), recorded into
/// `path`: the record, flushed, and the moves the pipeline reported.
pub fn demo_recorded(demo: &Demo, path: &Path, turns: usize) -> anyhow::Result<(Recorder, usize)> {
    let recorder = start_recording(&Recording::File(path.to_owned()), "demo table")
        .map_err(anyhow::Error::msg)?
        .context("the demo was not recorded")?;
    let mut states = Vec::new();
    for turn in 0..turns {
        states.push((demo.stage(turn), SETTLED_FRAMES));
        states.extend(demo.making_moves(turn, live::demo::FRAMES_PER_MOVE));
    }
    let mut source = demo_source(demo, states);
    let mut processor = Processor::new(demo.inputs());
    let (mut ruler, mut keeper) = (Ruler::default(), Keeper::default());
    while let Some(frame) = source.next_frame()? {
        let (mut state, rules) = processor.observe(&frame, &source.name());
        ruler.complete(&mut state, rules);
        state.recorder = Some(recorder.clone());
        keeper.keep(&state, ruler.ruled());
    }
    let moves = keeper.moves_handed();
    recorder.flush();
    Ok((recorder, moves))
}

/// A unit worth selecting in a picture: one that must shoot at someone, else the first.
pub fn showcase_unit(state: &TableState) -> Option<String> {
    let rulings = state.rulings.as_deref()?;
    rulings
        .units
        .iter()
        .find(|u| {
            u.rulings
                .iter()
                .any(|r| r.topic == Topic::Shooting && r.decision == Decision::Must)
        })
        .or_else(|| {
            rulings.units.iter().find(|u| {
                u.rulings
                    .iter()
                    .any(|r| r.topic == Topic::Shooting && r.decision == Decision::May)
            })
        })
        .or_else(|| rulings.units.first())
        .map(|u| u.summary.id.clone())
}

/// A harness running the app on a fixed table state, with `select` selected. It refuses text
/// the fonts cannot draw (tests catch a missing glyph); [`screenshot`] tolerates it.
pub fn harness_on(state: TableState, select: Option<String>) -> Harness<'static, VedetteApp> {
    harness_with(Harness::builder(), state, select)
}

fn harness_with(
    builder: egui_kittest::HarnessBuilder<VedetteApp>,
    state: TableState,
    select: Option<String>,
) -> Harness<'static, VedetteApp> {
    let state = Arc::new(state);
    let mut harness = builder
        .with_size(WINDOW)
        .with_max_steps(16)
        .wgpu()
        .build_eframe(move |cc| {
            let mut app = VedetteApp::without_pipeline(&cc.egui_ctx, Settings::default());
            app.state.receive(state);
            app.state.selected = select;
            app
        });
    harness.run_steps(3);
    harness
}

/// `vedette screenshot --demo OUT.png`: the app on the demo table, rendered to a picture.
pub fn screenshot(
    output: &Path,
    turn: usize,
    moving: bool,
    select: Option<String>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let demo = Demo::new()?;
    if turn >= demo.turns.len() {
        anyhow::bail!(
            "--turn {}: the demo has turns 1 to {}",
            turn + 1,
            demo.turns.len()
        );
    }
    let state = if moving {
        demo_state_moving(&demo, turn)?
    } else {
        demo_state(&demo, turn)?
    };
    if let Some(unit) = &select
        && state
            .scene
            .as_ref()
            .is_none_or(|scene| scene.unit(unit).is_none())
    {
        let names: Vec<&str> = state
            .scene
            .as_ref()
            .map(|scene| scene.units.iter().map(|u| u.id.as_str()).collect())
            .unwrap_or_default();
        anyhow::bail!(
            "--select {unit}: no such unit; the demo's are {}",
            names.join(", ")
        );
    }
    let select = select.or_else(|| showcase_unit(&state));
    let builder = Harness::builder().allow_missing_glyphs();
    let mut harness = harness_with(builder, state, select.clone());
    let image = harness
        .render()
        .map_err(|e| anyhow::anyhow!("the app could not be rendered headless: {e}"))?;
    image
        .save(output)
        .with_context(|| format!("cannot write {}", output.display()))?;
    writeln!(
        out,
        "{}: the app on the demo table (turn {}{}), {}×{}{}",
        output.display(),
        turn + 1,
        if moving { ", its moves half made" } else { "" },
        image.width(),
        image.height(),
        select.map_or_else(String::new, |s| format!(", {s} selected"))
    )?;
    Ok(())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The memory the process holds (resident set), where the system says (Linux).
fn resident_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// How often a long run reports its memory.
const MEMORY_EVERY: Duration = Duration::from_secs(60);

/// `vedette bench app`: the app on the live demo pipeline (its own thread) for a while, the UI
/// stepped at 60 Hz: how long each UI frame takes, how fast the pipeline runs beside it, and
/// how much memory the app holds as it goes (a line a minute, so a run of hours shows a leak).
pub fn bench(seconds: f64, convention: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    // The game is recorded, as the app records it, into a file removed afterwards.
    let record =
        std::env::temp_dir().join(format!("vedette-bench-app-{}.sqlite", std::process::id()));
    let _ = std::fs::remove_file(&record);
    let mut settings = Settings::default();
    settings.setup.record = Recording::File(record.clone());
    let mut harness = Harness::builder()
        .with_size(WINDOW)
        .build_eframe(move |cc| VedetteApp::new(&cc.egui_ctx, settings));
    if convention {
        let ctx = harness.ctx.clone();
        harness
            .state_mut()
            .state
            .set_mode(&ctx, super::Mode::Convention);
    }
    let mode = if convention { "convention" } else { "play" };
    writeln!(
        out,
        "vedette bench app — the demo table on the pipeline thread, {mode} mode, UI stepped at 60 Hz for {seconds:.0} s ({})",
        if cfg!(debug_assertions) {
            "debug build"
        } else {
            "release build"
        }
    )?;
    let started = Instant::now();
    let mut steps = VecDeque::new();
    let mut builds = VecDeque::new();
    let mut pipeline = PipelineTimings::default();
    let mut first_frame = None;
    let mut selected = false;
    let mut memory: Vec<(Duration, u64)> = Vec::new();
    let mut next_report = MEMORY_EVERY;
    while started.elapsed().as_secs_f64() < seconds {
        let t = Instant::now();
        harness.step();
        push_bounded(&mut steps, t.elapsed());
        let app = &mut harness.state_mut().state;
        push_bounded(&mut builds, app.timing.build);
        if let Some(table) = app.table.clone() {
            pipeline.offer(&table);
            if first_frame.is_none() {
                first_frame = Some(started.elapsed());
                memory.extend(resident_memory().map(|m| (started.elapsed(), m)));
            }
            if !selected && !convention {
                app.selected = showcase_unit(&table);
                selected = app.selected.is_some();
            }
        }
        if started.elapsed() >= next_report {
            next_report += MEMORY_EVERY;
            if let Some(m) = resident_memory() {
                memory.push((started.elapsed(), m));
                writeln!(
                    out,
                    "  {:>5.0} s: resident memory {:.0} MB",
                    started.elapsed().as_secs_f64(),
                    megabytes(m)
                )?;
            }
        }
        std::thread::sleep(Duration::from_millis(16).saturating_sub(t.elapsed()));
    }
    let steps = sorted(steps);
    let builds = sorted(builds);
    let status = harness.state().state.status().cloned();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    writeln!(
        out,
        "UI frame (build + layout + tessellation, no GPU): median {:.2} ms, p95 {:.2} ms, max {:.2} ms over the last {} frames; building the UI alone: median {:.2} ms",
        ms(percentile(&steps, 0.5)),
        ms(percentile(&steps, 0.95)),
        ms(percentile(&steps, 1.0)),
        steps.len(),
        ms(percentile(&builds, 0.5)),
    )?;
    match (status, first_frame) {
        (Some(s), Some(first)) => {
            writeln!(
                out,
                "pipeline: {:.1} frames/s, {} camera frames skipped while busy; first frame on screen after {:.1} s (the demo renders each turn once)",
                s.pipeline_fps,
                s.dropped_frames,
                first.as_secs_f64()
            )?;
            pipeline.report(out)?;
        }
        _ => writeln!(out, "pipeline: no frame arrived in {seconds:.0} s")?,
    }
    memory.extend(resident_memory().map(|m| (started.elapsed(), m)));
    drop(harness);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", record.display()));
    }
    memory_report(&memory, out)
}

/// The pipeline thread's work on each frame it published, as its status gave it.
#[derive(Default)]
struct PipelineTimings {
    last_frame: Option<u64>,
    detection: VecDeque<Duration>,
    lens: VecDeque<Duration>,
    work: VecDeque<Duration>,
    record: VecDeque<Duration>,
}

impl PipelineTimings {
    /// Keep the timings of a state, once per frame (the ruling thread publishes a frame's
    /// state again with its rulings).
    fn offer(&mut self, table: &live::pipeline::TableState) {
        if self.last_frame == Some(table.frame_index) {
            return;
        }
        self.last_frame = Some(table.frame_index);
        push_bounded(&mut self.detection, table.status.detect_time);
        push_bounded(&mut self.lens, table.status.lens_time);
        push_bounded(&mut self.work, table.status.frame_work);
        push_bounded(&mut self.record, table.status.record_time);
    }

    fn report(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let line = |timings: &VecDeque<Duration>| {
            let sorted = sorted(timings.clone());
            format!(
                "median {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
                ms(percentile(&sorted, 0.5)),
                ms(percentile(&sorted, 0.95)),
                ms(percentile(&sorted, 0.99)),
                ms(percentile(&sorted, 1.0))
            )
        };
        writeln!(
            out,
            "pipeline thread, over {} frames: detection {}; lens learning (the corners of stands at new places refined through the lens in use; most frames bring none) {}; all its work (detection, calibration, lens learning, placing; rulings on their own thread) {}",
            self.work.len(),
            line(&self.detection),
            line(&self.lens),
            line(&self.work)
        )?;
        let record = sorted(self.record.clone());
        writeln!(
            out,
            "recording the game (handing each state to the record, on the ruling thread): median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
            ms(percentile(&record, 0.5)),
            ms(percentile(&record, 0.99)),
            ms(percentile(&record, 1.0))
        )
    }
}

/// Timings kept for the percentiles: the newest ten thousand, so a run of hours measures
/// itself without growing.
fn push_bounded(timings: &mut VecDeque<Duration>, t: Duration) {
    const KEPT: usize = 10_000;
    if timings.len() == KEPT {
        timings.pop_front();
    }
    timings.push_back(t);
}

fn sorted(timings: VecDeque<Duration>) -> Vec<Duration> {
    let mut timings = Vec::from(timings);
    timings.sort();
    timings
}

/// Memory at the first frame, at the end, and the growth per hour after the first minutes
/// (the demo renders its turns and the allocator warms up in the first few minutes).
fn memory_report(memory: &[(Duration, u64)], out: &mut dyn Write) -> anyhow::Result<()> {
    let (Some(first), Some(last)) = (memory.first(), memory.last()) else {
        return Ok(writeln!(out, "memory: not measured on this system")?);
    };
    let peak = memory.iter().map(|(_, m)| *m).max().unwrap_or(last.1);
    write!(
        out,
        "memory: {:.0} MB at the first frame, {:.0} MB at the end, {:.0} MB at most",
        megabytes(first.1),
        megabytes(last.1),
        megabytes(peak)
    )?;
    let settled = memory
        .iter()
        .find(|(t, _)| *t >= Duration::from_secs(300))
        .filter(|(t, _)| last.0 - *t >= Duration::from_secs(600));
    match settled {
        Some((t, m)) => writeln!(
            out,
            "; after {:.0} min: {:+.1} MB an hour",
            t.as_secs_f64() / 60.0,
            (megabytes(last.1) - megabytes(*m)) / (last.0 - *t).as_secs_f64() * 3600.0
        )?,
        None => writeln!(out, " (run 15 min or more for the growth per hour)")?,
    }
    Ok(())
}
