//! A guard for work that must not change any ruling (performance work above all): every ruling
//! of several synthetic battles and of every sample scene, written out with `Debug` — which
//! prints each f64 exactly, unlike the rounded JSON — and compared with an earlier snapshot.
//!
//! The snapshot is not kept in the repository (the last digit of a sine may differ between
//! platforms). To use it, point `VEDETTE_RULINGS_SNAPSHOT` at a directory: the first run writes
//! the snapshot there, later runs compare against it and name the first line that differs.
//!
//! ```sh
//! VEDETTE_RULINGS_SNAPSHOT=/tmp/rulings-ref cargo test -p vedette-rules --test rulings_snapshot
//! ```

use std::path::{Path, PathBuf};

use rules::Scene;
use rules::rulings::{Rulings, rulings};
use rules::synthetic::battle;

/// (units, terrain pieces, seed): the benchmark's battle, others of other sizes (one small
/// enough to run on one thread), and denser terrain.
const BATTLES: [(usize, usize, u64); 6] = [
    (200, 20, 1),
    (200, 20, 2),
    (200, 20, 3),
    (300, 40, 4),
    (120, 30, 5),
    (60, 10, 9),
];

/// One line per unit and per pair, so a difference is easy to find.
fn dump(report: &Rulings) -> String {
    let mut out = format!("ruleset {:?}\n", report.ruleset);
    for unit in &report.units {
        out.push_str(&format!("{unit:?}\n"));
    }
    for pair in &report.pairs {
        out.push_str(&format!("{pair:?}\n"));
    }
    for ruling in &report.general {
        out.push_str(&format!("{ruling:?}\n"));
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

fn check(dir: &Path, name: &str, actual: &str) {
    let path = dir.join(format!("{name}.txt"));
    let Ok(expected) = std::fs::read_to_string(&path) else {
        std::fs::write(&path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    };
    if expected == actual {
        return;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    panic!(
        "{name}: rulings differ from {} at line {}:\nexpected: {}\nactual:   {}",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end>"),
        actual.lines().nth(line).unwrap_or("<end>"),
    );
}

#[test]
fn rulings_match_the_snapshot() {
    let Some(dir) = std::env::var_os("VEDETTE_RULINGS_SNAPSHOT") else {
        eprintln!("VEDETTE_RULINGS_SNAPSHOT is not set: nothing to compare");
        return;
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for (units, terrain, seed) in BATTLES {
        let scene = battle(units, terrain, seed);
        check(
            &dir,
            &format!("battle-{units}-{terrain}-{seed}"),
            &dump(&rulings(&scene)),
        );
    }
    let samples = samples();
    assert!(!samples.is_empty(), "no sample scenes found");
    for path in samples {
        let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("scene")
            .to_owned();
        check(&dir, &name, &dump(&rulings(&scene)));
    }
}
