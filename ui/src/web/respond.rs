//! Plain answers every page server gives: text, the pages' assets, and refusals logged sparingly.

use std::sync::atomic::Ordering;

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::page;

/// Logs refusals without letting a flood of them flood the log: one line a second, saying how
/// many were not logged since.
#[derive(Debug, Default)]
pub struct Refusals {
    last: std::sync::Mutex<Option<std::time::Instant>>,
    quiet: std::sync::atomic::AtomicU64,
}

impl Refusals {
    /// Log a refusal (`what`, from `peer`), unless one was logged less than a second ago.
    pub fn log(&self, peer: impl std::fmt::Display, what: &str) {
        self.note(&format!("refused {what} from {peer}"));
    }

    /// Log `line` (a failure the server lives through), unless a line was logged less than a
    /// second ago.
    pub fn note(&self, line: &str) {
        let now = std::time::Instant::now();
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        if last.is_some_and(|t| now.duration_since(t).as_secs_f64() < 1.0) {
            self.quiet.fetch_add(1, Ordering::Relaxed);
            return;
        }
        *last = Some(now);
        let quiet = self.quiet.swap(0, Ordering::Relaxed);
        if quiet > 0 {
            tracing::warn!("{line} ({quiet} more not logged)");
        } else {
            tracing::warn!("{line}");
        }
    }
}

/// A plain-text answer.
pub fn text(status: StatusCode, body: &'static str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

/// A page's script or style, by name.
pub async fn asset(Path(file): Path<String>) -> Response {
    match page::asset(&file) {
        Some((kind, body)) => ([(header::CONTENT_TYPE, kind)], body).into_response(),
        None => text(StatusCode::NOT_FOUND, "no such file\n"),
    }
}
