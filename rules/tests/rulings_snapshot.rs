//! Every ruling of every sample scene and of a synthetic battle, written one to a line the way
//! an umpire reads it, and compared with the snapshot committed beside this file
//! (`tests/snapshots/`). A change to any ruling fails `make test` and names the first line
//! that differs; when the change is meant, write the snapshot again and commit it with the
//! change, so that the diff shows every ruling it moved:
//!
//! ```sh
//! VEDETTE_BLESS=1 cargo test -p vedette-rules --test rulings_snapshot
//! ```
//!
//! Figures are written as the rulings round them (a hundredth of an inch, a thousandth of a
//! fraction), so the last digit of a sine on another platform does not show.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rules::Scene;
use rules::ruling::Ruling;
use rules::rulings::{Rulings, rulings};
use rules::synthetic::battle;

/// (units, terrain pieces, seed) of the synthetic battle: big enough for every kind of ruling,
/// small enough to read its snapshot.
const BATTLE: (usize, usize, u64) = (60, 10, 9);

fn line(ruling: &Ruling) -> String {
    let mut text = format!("{:?} {}", ruling.topic, ruling.unit);
    if let Some(other) = &ruling.other {
        let _ = write!(text, " → {other}");
    }
    let _ = write!(text, ": {:?} [{}", ruling.decision, ruling.rule.rule);
    if let Some(reading) = ruling.rule.reading {
        let _ = write!(text, "; {reading}");
    }
    text.push(']');
    for figure in &ruling.figures {
        let _ = write!(text, " {}={}{:?}", figure.name, figure.value, figure.unit);
    }
    let _ = write!(
        text,
        " — {} ({} shapes)",
        ruling.explanation,
        ruling.shapes.len()
    );
    text
}

fn dump(report: &Rulings) -> String {
    let mut out = format!("ruleset {:?}\n", report.ruleset);
    for unit in &report.units {
        for ruling in &unit.rulings {
            out.push_str(&line(ruling));
            out.push('\n');
        }
    }
    for ruling in &report.general {
        out.push_str(&line(ruling));
        out.push('\n');
    }
    out
}

fn samples() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut paths: Vec<PathBuf> = ["scenes", "scenarios"]
        .iter()
        .filter_map(|dir| std::fs::read_dir(root.join(dir)).ok())
        .flatten()
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "toml"))
        .collect();
    paths.sort();
    paths
}

/// Compare `actual` with the committed snapshot `name`, or write it when blessing.
fn check(name: &str, actual: &str) -> Result<(), String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("VEDETTE_BLESS").is_some() {
        std::fs::write(&path, actual).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: {e} (write it with VEDETTE_BLESS=1 and commit it)",
            path.display()
        )
    })?;
    if expected == actual {
        return Ok(());
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Err(format!(
        "{name}: rulings differ from {} at line {}:\nexpected: {}\nactual:   {}",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end>"),
        actual.lines().nth(line).unwrap_or("<end>"),
    ))
}

#[test]
fn rulings_match_the_committed_snapshot() {
    let mut failures = Vec::new();
    let (units, terrain, seed) = BATTLE;
    let battle = battle(units, terrain, seed);
    let name = format!("battle-{units}-{terrain}-{seed}");
    failures.extend(check(&name, &dump(&rulings(&battle))).err());
    let samples = samples();
    assert!(!samples.is_empty(), "no sample scenes found");
    for path in samples {
        let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("scene")
            .to_owned();
        failures.extend(check(&name, &dump(&rulings(&scene))).err());
    }
    assert!(
        failures.is_empty(),
        "{}\n(if the change is meant: VEDETTE_BLESS=1 cargo test -p vedette-rules --test rulings_snapshot, and commit the snapshots)",
        failures.join("\n")
    );
}
