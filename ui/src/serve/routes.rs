//! The server's addresses. Everything under `/t/<token>/` needs the table's token; the pages'
//! scripts and styles under `/assets/` hold nothing of the table and need none. The recorded
//! game is read under `/t/<token>/record/` (see [`super::replay`]).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use serde::Deserialize;

use super::frame::Frames;
use super::replay::{self, Records};
use super::socket::{self, MAX_MESSAGE};
use super::{Feed, Token, Viewers, page};

/// Who a link lets in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Players and spectators: the table only.
    Viewer,
    /// The umpire: also freezes the view, marks turns, saves cases.
    Umpire,
}

impl Role {
    /// As pages are told.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Umpire => "umpire",
        }
    }
}

/// What every handler shares.
pub struct Shared {
    /// The table's views.
    pub feed: Feed,
    /// The viewers' token.
    pub viewer: Token,
    /// The umpire's token.
    pub umpire: Token,
    /// Pages connected now.
    pub viewers: Arc<Viewers>,
    /// Most pages at once.
    pub max_viewers: usize,
    /// Where cases are saved.
    pub cases: PathBuf,
    /// The camera picture, as JPEG, made when asked for.
    pub frames: Frames,
    /// Refused requests, logged at most once a second.
    pub refusals: Refusals,
    /// The game's record, read for pages looking back.
    pub records: Records,
}

impl Shared {
    /// Who `token` lets in, if anyone.
    pub(super) fn role(&self, token: &str) -> Option<Role> {
        if self.umpire.matches(token) {
            Some(Role::Umpire)
        } else if self.viewer.matches(token) {
            Some(Role::Viewer)
        } else {
            None
        }
    }
}

/// Logs refusals without letting a flood of them flood the log: one line a second, saying how
/// many were not logged since.
#[derive(Debug, Default)]
pub struct Refusals {
    last: std::sync::Mutex<Option<std::time::Instant>>,
    quiet: std::sync::atomic::AtomicU64,
}

impl Refusals {
    /// Log a refusal (`what`, from `peer`), unless one was logged less than a second ago.
    pub fn log(&self, peer: SocketAddr, what: &str) {
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
            tracing::warn!("refused {what} from {peer} ({quiet} more refusals not logged)");
        } else {
            tracing::warn!("refused {what} from {peer}");
        }
    }
}

/// The router.
pub fn router(shared: Shared) -> Router {
    Router::new()
        .route("/", get(home))
        .route("/t/{token}", get(add_slash))
        .route("/t/{token}/", get(table_page))
        .route("/t/{token}/ws", get(connect))
        .route("/t/{token}/frame.jpg", get(picture))
        .route("/t/{token}/record/timeline", get(replay::timeline))
        .route("/t/{token}/record/at", get(replay::at))
        .route("/t/{token}/record/picture", get(replay::picture))
        .route("/assets/{file}", get(asset))
        .fallback(not_found)
        .with_state(Arc::new(shared))
}

pub fn text(status: StatusCode, body: &'static str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

const NOT_A_LINK: &str =
    "This is not a table's link. Scan the QR code on the table's screen, or ask for the link.\n";

/// The answer to a request with a wrong token, logged (at most once a second).
pub(super) fn refuse_token(shared: &Shared, peer: SocketAddr) -> Response {
    shared
        .refusals
        .log(peer, "a request with a wrong table token");
    text(StatusCode::NOT_FOUND, NOT_A_LINK)
}

async fn home() -> Response {
    text(StatusCode::OK, NOT_A_LINK)
}

async fn not_found() -> Response {
    text(StatusCode::NOT_FOUND, NOT_A_LINK)
}

async fn add_slash(Path(token): Path<String>) -> Response {
    // Only a well-formed token is echoed back into a header.
    match Token::parse(&token) {
        Ok(token) => Redirect::permanent(&format!("/t/{token}/")).into_response(),
        Err(_) => text(StatusCode::NOT_FOUND, NOT_A_LINK),
    }
}

async fn table_page(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(token): Path<String>,
) -> Response {
    if shared.role(&token).is_none() {
        return refuse_token(&shared, peer);
    }
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        page::TABLE_HTML,
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

/// A page's slot among the connected ones, given back when its socket closes.
pub struct Slot(Arc<Viewers>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.0.fetch_sub(1, Ordering::Relaxed);
    }
}

async fn connect(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(token): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(role) = shared.role(&token) else {
        return refuse_token(&shared, peer);
    };
    let taken = shared.viewers.0.fetch_add(1, Ordering::Relaxed);
    let slot = Slot(shared.viewers.clone());
    if taken >= shared.max_viewers {
        shared.refusals.log(
            peer,
            &format!("a page: {} are connected already", shared.max_viewers),
        );
        return text(
            StatusCode::SERVICE_UNAVAILABLE,
            "Too many pages are watching this table; try again later.\n",
        );
    }
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| socket::serve(socket, shared, role, peer, slot))
}

#[derive(Deserialize)]
struct PictureQuery {
    /// The width the page wants, pixels.
    w: Option<u32>,
}

async fn picture(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(token): Path<String>,
    Query(query): Query<PictureQuery>,
) -> Response {
    if shared.role(&token).is_none() {
        return refuse_token(&shared, peer);
    }
    let Some(snapshot) = shared.feed.snapshot() else {
        return text(StatusCode::NOT_FOUND, "no picture yet\n");
    };
    match shared.frames.jpeg(&snapshot.state, query.w).await {
        Some(jpeg) => (
            [
                (header::CONTENT_TYPE, "image/jpeg"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            jpeg.to_vec(),
        )
            .into_response(),
        None => text(StatusCode::NOT_FOUND, "no picture yet\n"),
    }
}
