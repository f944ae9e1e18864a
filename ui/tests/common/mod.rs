//! What the tests share: the real `vedette` binary run from the workspace root, as a shell user
//! runs it; a scratch folder for the files a test writes; a synthetic table filmed through the
//! app's pipeline; a served table (`served`) and a real browser to look at pages (`browser`).

#![allow(dead_code)]

pub mod broker;
pub mod browser;
pub mod rig;
pub mod served;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use live::pipeline::{Processor, TableState};
use vision::FrameSource;
use vision::source::SyntheticSource;
use vision::synthetic::{Effects, SyntheticTable};

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
    let dir = std::env::temp_dir().join(format!("vedette-{name}-{}", this_run()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// This test process's mark on its folders: its id and the moment it first asked. The id alone
/// comes round again on a new machine, and a folder an earlier run left is not fresh (`army new`
/// then refused to overwrite the roster it had written).
pub fn this_run() -> &'static str {
    static RUN: OnceLock<String> = OnceLock::new();
    RUN.get_or_init(|| {
        let since = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!("{}-{since:x}", std::process::id())
    })
}

/// Frame `index` of `table`, seen through `camera` (a webcam's blur, noise and JPEG), through
/// `processor` as the app's pipeline runs it; frames are 100 ms apart.
pub fn film(
    processor: &mut Processor,
    camera: calibration::Camera,
    table: SyntheticTable,
    index: u64,
) -> TableState {
    let mut source = SyntheticSource::new(
        "demo",
        camera,
        Effects::WEBCAM,
        vec![(table, 1)],
        10.0,
        false,
    );
    let mut frame = source.next_frame().expect("renders").expect("a frame");
    frame.index = index;
    frame.time = Duration::from_millis(100 * index);
    processor.process(&frame, "demo")
}
