//! The server's addresses. Everything under `/t/<token>/` needs the table's token; the pages'
//! scripts and styles under `/assets/` hold nothing of the table and need none. The recorded
//! game is read under `/t/<token>/record/` (see [`super::replay`]).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use serde::Deserialize;

use super::replay;
use super::shared::{NOT_A_LINK, Role, Shared, refuse_token};
use super::socket;
use crate::web::{MAX_MESSAGE, asset, page, text};
use live::Token;

/// The router.
pub fn router(shared: Arc<Shared>) -> Router {
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
        .with_state(shared)
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

async fn connect(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(token): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(role) = shared.role(&token) else {
        return refuse_token(&shared, peer);
    };
    let slot = match shared.slot(role) {
        Ok(slot) => slot,
        Err(most) => {
            let pages = match role {
                Role::Viewer => "a page",
                Role::Umpire => "an umpire's page",
            };
            let what = format!("{pages}: {most} are connected already");
            shared.refusals.log(peer, &what);
            return text(
                StatusCode::SERVICE_UNAVAILABLE,
                "Too many pages are watching this table; try again later.\n",
            );
        }
    };
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
