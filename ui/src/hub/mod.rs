//! `vedette hub`: every table of a hall on one page, from the broker they publish to — for the
//! organisers' big screen. The hub keeps each table's plan (not its rulings: a screen across a
//! hall shows where the armies are, not their dice), whether it is served, and when it was last
//! heard from; pages get the lot at most once a second. Each table's game is listed too —
//! whether it is recorded, its file — with a link to the table's page opened on its timeline.
//!
//! Whatever arrives from the broker is checked: anyone on a hall's network can publish to it. A
//! table's link is taken only if it is a plain `http(s)://` address of a table's page.

pub mod command;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rumqttc::{AsyncClient, Event, Packet};
use serde::Serialize;
use tokio::sync::watch;

use crate::web::{MAX_MESSAGE, Refusals, ServeError, address, asset, page, serve_http, text};
use live::Token;
use live::mqtt::{self, Broker};

/// A table not heard from for this long is shown as stale.
const STALE_AFTER: Duration = Duration::from_secs(10);

/// How often pages are sent the hall.
const PAGE_PERIOD: Duration = Duration::from_secs(1);

/// Tables a hub keeps at most: more (a misbehaving publisher) are ignored, said once.
const MAX_TABLES: usize = 500;

/// One table as the hub shows it.
#[derive(Clone, Debug, Serialize)]
pub struct HallTable {
    /// Its name in the topics.
    pub name: String,
    /// Whether it says it is served.
    pub online: bool,
    /// Seconds since its last view (none yet: `null`).
    pub age: Option<f64>,
    /// Its plan: the view without rulings or camera.
    pub plan: Option<serde_json::Value>,
    /// Its game, as the table says.
    pub game: Option<HallGame>,
    #[serde(skip)]
    heard: Option<Instant>,
}

/// A table's game, as the hub shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HallGame {
    /// Whether it is recorded.
    pub recorded: bool,
    /// The record's file name, when it is.
    pub file: Option<String>,
    /// The table's page for viewers, when it is served (`http://host:port/t/<token>/`).
    pub page: Option<String>,
}

/// The longest file name or link taken from a table.
const LONGEST: usize = 300;

/// A table's game from its published message; what does not read as one is left out.
fn game_of(message: &serde_json::Value) -> Option<HallGame> {
    let game = message.get("game")?;
    let plain = |text: &str| {
        text.len() <= LONGEST
            && !text.is_empty()
            && !text
                .chars()
                .any(|c| c.is_control() || c.is_whitespace() || "\"'<>\\`".contains(c))
    };
    let file = game
        .get("file")
        .and_then(|f| f.as_str())
        .filter(|f| plain(f) && !f.contains('/'))
        .map(str::to_owned);
    let page = game
        .get("page")
        .and_then(|p| p.as_str())
        .filter(|p| plain(p) && table_page(p))
        .map(str::to_owned);
    Some(HallGame {
        recorded: game.get("recorded").and_then(|r| r.as_bool()) == Some(true) && file.is_some(),
        file,
        page,
    })
}

/// Whether `link` is a table's page: `http(s)://host[:port]/t/<token>/`, and nothing else
/// (no script, no other path of the machine).
fn table_page(link: &str) -> bool {
    let Some(rest) = link
        .strip_prefix("http://")
        .or_else(|| link.strip_prefix("https://"))
    else {
        return false;
    };
    let mut parts = rest.split('/');
    let (Some(host), Some("t"), Some(token), Some(""), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return false;
    };
    !host.is_empty() && Token::parse(token).is_ok()
}

/// What the hub knows of the hall.
#[derive(Default)]
struct Hall {
    tables: BTreeMap<String, HallTable>,
    refused: bool,
}

impl Hall {
    fn table(&mut self, name: &str) -> Option<&mut HallTable> {
        if !self.tables.contains_key(name) && self.tables.len() >= MAX_TABLES {
            if !self.refused {
                tracing::warn!("more than {MAX_TABLES} tables on the broker: the rest are ignored");
                self.refused = true;
            }
            return None;
        }
        Some(
            self.tables
                .entry(name.to_owned())
                .or_insert_with(|| HallTable {
                    name: name.to_owned(),
                    online: false,
                    age: None,
                    plan: None,
                    game: None,
                    heard: None,
                }),
        )
    }

    /// What arrived on `topic`: taken if it is a table's view or online flag, ignored (and
    /// logged) if it does not read.
    fn take(&mut self, topic: &str, payload: &[u8]) {
        let mut levels = topic.split('/');
        let (Some(mqtt::ROOT), Some(name), Some(leaf), None) =
            (levels.next(), levels.next(), levels.next(), levels.next())
        else {
            return;
        };
        match leaf {
            "online" => {
                if let Some(table) = self.table(name) {
                    table.online = payload == b"true";
                }
            }
            "view" => match plan_of(payload) {
                Some((plan, game)) => {
                    if let Some(table) = self.table(name) {
                        table.plan = Some(plan);
                        table.game = game;
                        table.heard = Some(Instant::now());
                        table.online = true;
                    }
                }
                None => tracing::warn!("table {name} published a view that does not read: ignored"),
            },
            _ => {}
        }
    }

    fn snapshot(&self) -> Vec<HallTable> {
        let now = Instant::now();
        self.tables
            .values()
            .map(|t| HallTable {
                age: t.heard.map(|h| now.duration_since(h).as_secs_f64()),
                ..t.clone()
            })
            .collect()
    }
}

/// A table's plan from its published view (the table, terrain and units, nothing more), and its
/// game.
fn plan_of(payload: &[u8]) -> Option<(serde_json::Value, Option<HallGame>)> {
    let message: serde_json::Value = serde_json::from_slice(payload).ok()?;
    let game = game_of(&message);
    let view = message.get("view")?;
    let keep = ["table", "terrain", "units", "status"];
    let plan: serde_json::Map<String, serde_json::Value> = keep
        .iter()
        .filter_map(|k| Some(((*k).to_owned(), view.get(*k)?.clone())))
        .collect();
    (plan.contains_key("table") && plan.contains_key("units"))
        .then_some((serde_json::Value::Object(plan), game))
}

struct HubShared {
    hall: Arc<Mutex<Hall>>,
    changes: watch::Receiver<u64>,
    token: Token,
    refusals: Refusals,
}

const NOT_THE_HUB: &str = "This is not the hub's link.\n";

impl HubShared {
    /// The refusal of a request from `peer` with a wrong `token`, logged; `None` if it is right.
    fn refuse(&self, token: &str, peer: SocketAddr) -> Option<Response> {
        if self.token.matches(token) {
            return None;
        }
        self.refusals.log(peer, "a request with a wrong hub token");
        Some(text(StatusCode::NOT_FOUND, NOT_THE_HUB))
    }
}

/// A running hub; dropping it stops it.
pub struct Hub {
    runtime: Option<tokio::runtime::Runtime>,
    link: String,
    hall: Arc<Mutex<Hall>>,
}

impl Hub {
    /// Listen on `listen` and follow the tables on `broker`.
    pub fn start(
        broker: Broker,
        listen: SocketAddr,
        host: Option<String>,
        token: Option<Token>,
    ) -> Result<Hub, ServeError> {
        let (runtime, listener, address) = crate::web::listen("vedette-hub", listen)?;
        let token = token.unwrap_or_else(Token::random);
        let host = host.unwrap_or_else(|| address::advertised_host(&address));
        let link = format!("http://{host}:{}/h/{token}/", address.port());
        let hall = Arc::new(Mutex::new(Hall::default()));
        let (changed, changes) = watch::channel(0u64);
        runtime.spawn(follow(broker, hall.clone(), changed));
        let shared = Arc::new(HubShared {
            hall: hall.clone(),
            changes,
            token,
            refusals: Refusals::default(),
        });
        let app = Router::new()
            .route("/h/{token}/", get(hub_page))
            .route("/h/{token}/ws", get(connect))
            .route("/assets/{file}", get(asset))
            .fallback(|| async { text(StatusCode::NOT_FOUND, NOT_THE_HUB) })
            .with_state(shared);
        runtime.spawn(serve_http(listener, app, "the hub"));
        Ok(Hub {
            runtime: Some(runtime),
            link,
            hall,
        })
    }

    /// The hub's link.
    pub fn link(&self) -> &str {
        &self.link
    }

    /// The tables known now, by name, with whether each is live.
    pub fn tables(&self) -> Vec<(String, bool)> {
        self.hall
            .lock()
            .map(|hall| {
                hall.snapshot()
                    .into_iter()
                    .map(|t| {
                        let live = t.online && t.age.is_some_and(|a| a < STALE_AFTER.as_secs_f64());
                        (t.name, live)
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Follow the broker's tables for ever, through outages.
async fn follow(broker: Broker, hall: Arc<Mutex<Hall>>, changed: watch::Sender<u64>) {
    let id = format!("vedette-hub-{}", Token::random());
    let (client, events) = AsyncClient::new(mqtt::options(&broker, &id), 16);
    tracing::info!("following the tables on {broker}");
    mqtt::drive(events, broker, move |event| match event {
        Event::Incoming(Packet::ConnAck(_)) => {
            // A clean session forgets subscriptions: ask again after every connection.
            mqtt::say_again(&client, &[format!("{}/+/+", mqtt::ROOT)], &[]);
        }
        Event::Incoming(Packet::Publish(publish)) if publish.payload.len() > mqtt::MAX_PACKET => {
            tracing::warn!(
                "{}: a message of {} bytes dropped (the most a table sends is {})",
                publish.topic,
                publish.payload.len(),
                mqtt::MAX_PACKET
            );
        }
        Event::Incoming(Packet::Publish(publish)) => {
            if let Ok(mut hall) = hall.lock() {
                hall.take(&publish.topic, &publish.payload);
            }
            changed.send_modify(|v| *v += 1);
        }
        _ => {}
    })
    .await;
}

async fn hub_page(
    State(shared): State<Arc<HubShared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(token): Path<String>,
) -> Response {
    if let Some(refused) = shared.refuse(&token, peer) {
        return refused;
    }
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page::HUB_HTML,
    )
        .into_response()
}

async fn connect(
    State(shared): State<Arc<HubShared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(token): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Response {
    if let Some(refused) = shared.refuse(&token, peer) {
        return refused;
    }
    upgrade
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| watch_hall(socket, shared))
}

#[derive(Serialize)]
struct HallMessage {
    r#type: &'static str,
    tables: Vec<HallTable>,
}

/// Send a hub page the hall now and after every change (at most once a second), until it goes.
async fn watch_hall(mut socket: WebSocket, shared: Arc<HubShared>) {
    let mut changes = shared.changes.clone();
    let mut tick = tokio::time::interval(PAGE_PERIOD);
    loop {
        let tables = shared.hall.lock().map(|h| h.snapshot()).unwrap_or_default();
        let message = HallMessage {
            r#type: "hall",
            tables,
        };
        let text = serde_json::to_string(&message).unwrap_or_default();
        if socket.send(Message::Text(text.into())).await.is_err() {
            return;
        }
        tick.tick().await;
        tokio::select! {
            changed = changes.changed() => if changed.is_err() { return },
            // Ages grow and tables go stale without any message: say so every few seconds.
            () = tokio::time::sleep(Duration::from_secs(3)) => {}
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hall_takes_views_and_flags_and_ignores_junk() {
        let mut hall = Hall::default();
        let view = br#"{"type":"full","seq":3,"view":{"table":{"name":"t7"},"terrain":[],"units":{},"rulings":{"a":[]},"camera":null,"status":{}}}"#;
        hall.take("vedette/t7/view", view);
        hall.take("vedette/t8/online", b"false");
        hall.take("vedette/t9/view", b"not json");
        hall.take("vedette/t9/view/extra", view);
        hall.take("elsewhere/t10/view", view);
        let tables = hall.snapshot();
        let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["t7", "t8"]);
        let plan = tables[0].plan.as_ref().expect("a plan");
        assert!(plan.get("rulings").is_none() && plan.get("camera").is_none());
        assert!(tables[0].online && !tables[1].online);
        assert_eq!(tables[0].game, None);
    }

    #[test]
    fn a_tables_game_is_taken_with_its_link_and_a_link_elsewhere_is_not() {
        let message = |game: &str| {
            format!(
                r#"{{"type":"full","seq":1,"view":{{"table":{{"name":"t"}},"terrain":[],"units":{{}}}},"game":{game}}}"#
            )
        };
        let mut hall = Hall::default();
        let good = r#"{"recorded":true,"file":"2026-11-27_20h15m03-waterloo.sqlite","page":"http://10.0.0.7:8765/t/players-link/"}"#;
        hall.take("vedette/t1/view", message(good).as_bytes());
        let junk = [
            r#"{"recorded":true,"file":"../../etc/passwd","page":"javascript:alert(1)"}"#,
            r#"{"recorded":true,"file":"a b","page":"http://x/t/players-link/../../admin"}"#,
            r#"{"recorded":"yes","page":"http://x\"onclick=\"/t/players-link/"}"#,
        ];
        for (i, game) in junk.iter().enumerate() {
            hall.take(&format!("vedette/j{i}/view"), message(game).as_bytes());
        }
        let tables = hall.snapshot();
        let game = |name: &str| {
            tables
                .iter()
                .find(|t| t.name == name)
                .and_then(|t| t.game.clone())
        };
        assert_eq!(
            game("t1"),
            Some(HallGame {
                recorded: true,
                file: Some("2026-11-27_20h15m03-waterloo.sqlite".into()),
                page: Some("http://10.0.0.7:8765/t/players-link/".into()),
            })
        );
        for i in 0..junk.len() {
            let game = game(&format!("j{i}")).expect("a game, what reads of it");
            assert_eq!(
                (game.recorded, game.file, game.page),
                (false, None, None),
                "{i}"
            );
        }
    }
}
