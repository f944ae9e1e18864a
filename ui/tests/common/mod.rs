//! What the command-line tests share: the real `vedette` binary run from the workspace root, as
//! a shell user runs it, and a scratch folder for the files a test writes.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Run `vedette` with `args` from the workspace root (so `samples/…` paths work).
pub fn vedette(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vedette"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("the vedette binary runs")
}

/// A fresh folder of this test run for `name`, made if missing.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vedette-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
