//! Helpers for Vedette's workspace-level integration tests.

use std::path::PathBuf;

use clap::Parser;
use vedette_ui::cli::{Cli, run};

/// The workspace root (this crate lives in `tests/`).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}

/// Every scene file in `samples/scenes/` and `samples/scenarios/`, sorted.
pub fn sample_scenes() -> Vec<PathBuf> {
    let mut scenes = scenes_in("samples/scenes");
    scenes.extend(scenes_in("samples/scenarios"));
    scenes
}

/// The seven book scenarios in `samples/scenarios/`.
pub fn scenarios() -> Vec<PathBuf> {
    scenes_in("samples/scenarios")
}

fn scenes_in(folder: &str) -> Vec<PathBuf> {
    let dir = workspace_root().join(folder);
    let mut scenes: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("json" | "toml")
            )
        })
        .collect();
    scenes.sort();
    scenes
}

/// Run `vedette ARGS…` in-process and return what it printed, or its error as text.
pub fn vedette(args: &[&str]) -> Result<String, String> {
    let cli = Cli::try_parse_from(std::iter::once("vedette").chain(args.iter().copied()))
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    run(&cli, &mut out).map_err(|e| format!("{e:#}"))?;
    String::from_utf8(out).map_err(|e| e.to_string())
}
