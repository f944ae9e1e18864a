//! The recorded game on the table's page: its timeline, the table as it stood at any moment of
//! it, and the camera's picture kept nearest that moment — read from the game's record while
//! the game goes on being written into it.
//!
//! Decisions:
//! - Only reading, by plain `GET`s: each page looks back on its own, and nothing asked here
//!   changes what another page sees.
//! - A moment is [`live::replay::table_at`] made into the page's [`TableView`]: the page
//!   draws the past with the code that draws the present, and the app's own replay rules the
//!   same table the same way.
//! - The record is read on blocking threads (SQLite, then ruling the past table afresh), at most
//!   [`READERS`] at a time: a crowd of phones scrubbing waits its turn rather than taking the
//!   cores from the camera's pipeline.
//! - Each reader keeps its record open, and reads its timeline again only when a page asks for
//!   it or for a moment past it, at most once a [`REREAD_EVERY`]: opening an evening's record
//!   reads its whole timeline (a tenth of a second or two), a moment of it needs none of that.
//! - Nothing sent names a folder of the machine: the game's file name only. A record that
//!   cannot be read is logged here and answered with a sentence.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, Path as UrlPath, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use record::{Carriage, GameRecord, GameTime, Place};
use serde::{Deserialize, Serialize};

use super::records::{Game, Refused, sentence, unreadable};
use super::shared::{Shared, refuse_token};
use super::view::TableView;
use live::replay::table_at;

/// The latest moment a page may ask for, ms: a year (a larger number is a mistake, not a game).
pub(super) const LATEST: u64 = 365 * 24 * 3600 * 1000;

/// JSON that changes as the game goes on: never cached.
fn fresh_json(body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

const NOT_RECORDED: &str =
    "This table's game is not recorded, so there is nothing to look back at.\n";

/// Run `work` on the served game's record on a blocking thread, when a reader's turn
/// comes; its answer, or why there is none.
async fn read_record<T: Send + 'static>(
    shared: &Arc<Shared>,
    work: impl FnOnce(&mut Game) -> Result<T, Refused> + Send + 'static,
) -> Result<T, Refused> {
    let recorder = shared
        .feed
        .snapshot()
        .and_then(|snapshot| snapshot.state.recorder.clone());
    let Some(recorder) = recorder else {
        return Err(Refused(StatusCode::NOT_FOUND, NOT_RECORDED.into()));
    };
    let path = recorder.path().to_owned();
    let Ok(_turn) = shared.records.readers.acquire().await else {
        return Err(unreadable());
    };
    let shared = shared.clone();
    let done = tokio::task::spawn_blocking(move || shared.records.with_game(&path, work)).await;
    done.unwrap_or_else(|e| {
        tracing::warn!("reading the game's record stopped: {e}");
        Err(unreadable())
    })
}

/// The game's file name, without its folder: all of its place a page or the hall is told.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The game as a timeline: what a page draws under the table and steps through.
#[derive(Debug, Serialize)]
struct Timeline {
    /// The game's file name (no folder).
    file: String,
    /// The moment the record reaches, ms.
    until_ms: u64,
    /// The first moment the record holds the table, ms (none yet: `null`).
    start_ms: Option<u64>,
    /// What is listed below is what came after this moment (`null`: everything).
    since_ms: Option<u64>,
    /// Moves, by when they ended.
    moves: Vec<TimelineMove>,
    /// Marked moments.
    marks: Vec<TimelineMark>,
    /// When each kept picture was taken, ms.
    keyframes: Vec<u64>,
}

/// A move on the timeline.
#[derive(Debug, Serialize)]
struct TimelineMove {
    /// When it ended: when the unit came to rest where the rules take it.
    at_ms: u64,
    /// The unit's id.
    unit: String,
    /// Its name.
    name: String,
    /// Where it rested before.
    from: PlaceView,
    /// Where it rests after.
    to: PlaceView,
    /// `slid`, `carried` or `under a hand`, as the live page says it.
    how: &'static str,
}

/// A marked moment on the timeline.
#[derive(Debug, Serialize)]
struct TimelineMark {
    /// When.
    at_ms: u64,
    /// `turn`, `case`, `contact`, `in-range`, `charge-reach` or `note`.
    kind: &'static str,
    /// In words: "Turn 3", "1st Line in contact with 4e Ligne".
    label: String,
    /// Its sign on the timeline.
    symbol: &'static str,
}

/// A unit's place on the timeline: its leader to the thousandth of an inch, its facing to the
/// tenth of a degree (an evening's timeline is megabytes of them otherwise).
#[derive(Debug, Serialize)]
struct PlaceView {
    /// Its leader, inches.
    leader: [f64; 2],
    /// Where it faces, degrees counter-clockwise from +x.
    facing: f64,
}

impl From<Place> for PlaceView {
    fn from(place: Place) -> PlaceView {
        let round = |v: f64, per: f64| (v * per).round() / per;
        PlaceView {
            leader: [round(place.leader.x, 1000.0), round(place.leader.y, 1000.0)],
            facing: round(place.facing.0, 10.0),
        }
    }
}

fn how(carriage: Carriage) -> &'static str {
    match carriage {
        Carriage::Slid => "slid",
        Carriage::Carried => "carried",
        Carriage::Unseen => "under a hand",
    }
}

fn timeline_of(game: &mut Game, since: Option<GameTime>) -> Timeline {
    let start = game.first_seen();
    let record = &game.record;
    let after = |at: GameTime| since.is_none_or(|since| at > since);
    Timeline {
        file: file_name(record.path()),
        until_ms: record.until().millis(),
        start_ms: start.map(GameTime::millis),
        since_ms: since.map(GameTime::millis),
        moves: record
            .moves()
            .iter()
            .filter(|m| after(m.ended))
            .map(|m| TimelineMove {
                at_ms: m.ended.millis(),
                unit: m.unit.clone(),
                name: m.name.clone(),
                from: m.from.into(),
                to: m.to.into(),
                how: how(m.carriage),
            })
            .collect(),
        marks: record
            .marks()
            .iter()
            .filter(|m| after(m.at))
            .map(|m| TimelineMark {
                at_ms: m.at.millis(),
                kind: m.kind.as_str(),
                label: m.label.clone(),
                symbol: m.kind.symbol(),
            })
            .collect(),
        keyframes: record
            .keyframes()
            .iter()
            .copied()
            .filter(|at| after(*at))
            .map(GameTime::millis)
            .collect(),
    }
}

/// The moment a page names: `t`, milliseconds since the record began.
#[derive(Debug, Deserialize)]
pub struct MomentQuery {
    t: Option<String>,
    since: Option<String>,
}

/// A moment a page wrote (`what` names it in the refusal), or the sentence refusing it.
fn moment(what: &str, text: Option<&str>) -> Result<Option<GameTime>, String> {
    let Some(text) = text else {
        return Ok(None);
    };
    match text.parse::<u64>() {
        Ok(ms) if ms <= LATEST => Ok(Some(GameTime::from_millis(ms))),
        _ => Err(format!(
            "{what}={:?} is not a moment of the game: give milliseconds since it began, \
             a whole number from 0 to {LATEST}.\n",
            text.chars().take(40).collect::<String>()
        )),
    }
}

/// The query's `t`, which must be there, or the sentence refusing it.
fn asked_moment(query: &Result<Query<MomentQuery>, QueryRejection>) -> Result<GameTime, String> {
    let t = query.as_ref().ok().and_then(|q| q.t.as_deref());
    moment("t", t)?.ok_or_else(|| "Name the moment: t=milliseconds since the game began.\n".into())
}

/// The moment a page with a known token asks for, or the answer refusing the request.
fn admitted(
    shared: &Shared,
    token: &str,
    peer: SocketAddr,
    query: &Result<Query<MomentQuery>, QueryRejection>,
) -> Result<GameTime, Box<Response>> {
    if shared.role(token).is_none() {
        return Err(Box::new(refuse_token(shared, peer)));
    }
    asked_moment(query).map_err(|why| Box::new(sentence(StatusCode::BAD_REQUEST, why)))
}

/// `GET /t/<token>/record/timeline[?since=MS]`: the game's moves, marks and kept pictures
/// (only those after `since`, for a page that has the rest).
pub async fn timeline(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    UrlPath(token): UrlPath<String>,
    query: Result<Query<MomentQuery>, QueryRejection>,
) -> Response {
    if shared.role(&token).is_none() {
        return refuse_token(&shared, peer);
    }
    let since = query.as_ref().ok().and_then(|q| q.since.as_deref());
    let since = match moment("since", since) {
        Ok(since) => since,
        Err(why) => return sentence(StatusCode::BAD_REQUEST, why),
    };
    match timeline_json(&shared, since).await {
        Ok(json) => fresh_json(json),
        Err(refused) => refused.into_response(),
    }
}

/// The game's timeline (what came after `since`), as JSON.
pub async fn timeline_json(
    shared: &Arc<Shared>,
    since: Option<GameTime>,
) -> Result<String, Refused> {
    read_record(shared, move |game| {
        game.fresh();
        let timeline = timeline_of(game, since);
        Ok(serde_json::to_string(&timeline).unwrap_or_default())
    })
    .await
}

/// What a page is sent for a moment: the message that sends it the whole live view, with the
/// moment shown and the picture kept nearest it.
#[derive(Serialize)]
struct MomentMessage<'v> {
    r#type: &'static str,
    seq: u64,
    view: &'v TableView,
    /// The moment shown, ms (the one asked for, within what the record holds).
    at_ms: u64,
    /// When the picture kept nearest it was taken, ms (none: `null`).
    picture_ms: Option<u64>,
}

/// The picture kept nearest `at`, as [`GameRecord::keyframe_at`] finds it: the last at or
/// before it, else the first after.
fn nearest_picture(record: &GameRecord, at: GameTime) -> Option<GameTime> {
    let kept = record.keyframes();
    let before = kept.partition_point(|k| *k <= at);
    before
        .checked_sub(1)
        .and_then(|i| kept.get(i))
        .or_else(|| kept.get(before))
        .copied()
}

/// `GET /t/<token>/record/at?t=MS`: the table at that moment, as the page's view.
pub async fn at(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    UrlPath(token): UrlPath<String>,
    query: Result<Query<MomentQuery>, QueryRejection>,
) -> Response {
    let asked = match admitted(&shared, &token, peer, &query) {
        Ok(asked) => asked,
        Err(refused) => return *refused,
    };
    match moment_json(&shared, asked).await {
        Ok(json) => fresh_json(json),
        Err(refused) => refused.into_response(),
    }
}

/// The table at the moment `asked`, as the message that sends a page a whole view (with the
/// moment shown and the picture kept nearest it).
pub async fn moment_json(shared: &Arc<Shared>, asked: GameTime) -> Result<String, Refused> {
    let name = shared.feed.name();
    read_record(shared, move |game| {
        let started = Instant::now();
        let at = game.moment(asked);
        let state = table_at(&game.record, at).map_err(|e| {
            tracing::warn!("cannot read the table at {at} for a page: {e}");
            unreadable()
        })?;
        let Some(view) = TableView::of(&state, &name) else {
            return Err(Refused(
                StatusCode::NOT_FOUND,
                format!("The camera had not seen the table yet at {at}.\n"),
            ));
        };
        let message = MomentMessage {
            r#type: "full",
            seq: 0,
            view: &view,
            at_ms: at.millis(),
            picture_ms: nearest_picture(&game.record, at).map(GameTime::millis),
        };
        let json = serde_json::to_string(&message).unwrap_or_default();
        tracing::debug!("the table at {at} for a page in {:?}", started.elapsed());
        Ok(json)
    })
    .await
}

/// `GET /t/<token>/record/picture?t=MS`: the camera's picture kept nearest that moment, JPEG.
pub async fn picture(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    UrlPath(token): UrlPath<String>,
    query: Result<Query<MomentQuery>, QueryRejection>,
) -> Response {
    let asked = match admitted(&shared, &token, peer, &query) {
        Ok(asked) => asked,
        Err(refused) => return *refused,
    };
    match kept_picture(&shared, asked).await {
        Ok(jpeg) => (
            [
                (header::CONTENT_TYPE, "image/jpeg"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            jpeg,
        )
            .into_response(),
        Err(refused) => refused.into_response(),
    }
}

/// The camera's picture kept nearest `asked`, JPEG.
pub async fn kept_picture(shared: &Arc<Shared>, asked: GameTime) -> Result<Vec<u8>, Refused> {
    read_record(shared, move |game| match game.record.keyframe_at(asked) {
        Ok(Some(kept)) => Ok(kept.jpeg),
        Ok(None) => Err(Refused(
            StatusCode::NOT_FOUND,
            "No picture of the table was kept in this game yet.\n".into(),
        )),
        Err(e) => {
            tracing::warn!("cannot read a kept picture for a page: {e}");
            Err(unreadable())
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moment_is_a_whole_number_of_milliseconds_within_a_year() {
        assert_eq!(
            moment("t", Some("12040")).ok(),
            Some(Some(GameTime::from_millis(12_040)))
        );
        assert!(moment("t", None).is_ok_and(|m| m.is_none()));
        for bad in ["-3", "1.5", "soon", "99999999999999999999", ""] {
            let refused = moment("t", Some(bad)).err().unwrap_or_default();
            assert!(
                refused.starts_with(&format!("t={bad:?} is not a moment")),
                "{bad:?}"
            );
        }
    }
}
