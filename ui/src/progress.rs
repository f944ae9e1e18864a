//! The progress bar long work shows on the command line (benchmarks, reading a record).

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps labelled `message`.
pub fn progress(len: usize, message: &'static str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64).with_message(message);
    if let Ok(style) = ProgressStyle::with_template("{msg} {bar:30} {pos}/{len}") {
        bar.set_style(style);
    }
    bar
}
