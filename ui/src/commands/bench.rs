//! `vedette bench …`: benchmarks that print their figures.

use std::io::Write;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rules::rulings::rulings;
use rules::synthetic::battle;

/// What `vedette bench rules` measures.
#[derive(Clone, Copy, Debug)]
pub struct RulesBench {
    /// Units in the synthetic battle.
    pub units: usize,
    /// Terrain pieces.
    pub terrain: usize,
    /// Timed runs.
    pub iterations: usize,
    /// The battle's seed.
    pub seed: u64,
}

pub(crate) fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

pub(crate) fn progress(len: usize, message: &'static str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64).with_message(message);
    if let Ok(style) = ProgressStyle::with_template("{msg} {bar:30} {pos}/{len}") {
        bar.set_style(style);
    }
    bar
}

/// Time every ruling of a synthetic battle and print the figures.
pub fn rules(bench: RulesBench, out: &mut dyn Write) -> anyhow::Result<()> {
    let scene = battle(bench.units, bench.terrain, bench.seed);
    // One untimed run to warm caches and lazily parsed profiles.
    let first = rulings(&scene);
    let count: usize =
        first.units.iter().map(|u| u.rulings.len()).sum::<usize>() + first.general.len();
    let bar = progress(bench.iterations, "ruling");
    let mut times: Vec<Duration> = (0..bench.iterations)
        .map(|_| {
            let started = Instant::now();
            let report = rulings(&scene);
            let elapsed = started.elapsed();
            std::hint::black_box(report);
            bar.inc(1);
            elapsed
        })
        .collect();
    bar.finish_and_clear();
    times.sort();
    let build = if cfg!(debug_assertions) {
        "debug build (use --release for real figures)"
    } else {
        "release build"
    };
    writeln!(
        out,
        "vedette bench rules — every ruling of a synthetic Black Powder battle ({build})"
    )?;
    writeln!(
        out,
        "scene: {} units, {} terrain pieces, 72\"×48\" table, seed {}; {} rulings, {} pairs within reach",
        scene.units.len(),
        scene.terrain.len(),
        bench.seed,
        count,
        first.pairs.len()
    )?;
    writeln!(
        out,
        "time per scene over {} runs: median {:.2} ms, p95 {:.2} ms, best {:.2} ms (target: under 5 ms)",
        times.len(),
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.95).as_secs_f64() * 1e3,
        times.first().copied().unwrap_or_default().as_secs_f64() * 1e3
    )?;
    Ok(())
}
