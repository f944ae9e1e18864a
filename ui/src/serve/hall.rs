//! A hall of tables on one MQTT broker (mosquitto, usually): each `vedette serve --mqtt` publishes
//! its table under `vedette/<table>/…`, and `vedette hub` shows them all.
//!
//! Topics, all retained so that a hub started late sees every table at once:
//! - `vedette/<table>/view`: the table's whole view, as pages get it (`{"type":"full",…}`), at
//!   most twice a second, with its `game`: whether it is recorded, the record's file name, and
//!   the viewers' page — the hub links to it, opened on the game's timeline. The viewers'
//!   link only, never the umpire's: it is the link the table shows everyone as its QR code;
//! - `vedette/<table>/online`: `true` while the table is served, `false` when it stops — the
//!   broker says so itself (the last will) if the table's machine just goes away.
//!
//! A broker that vanishes is waited for: the table keeps being ruled and served, the log says so
//! once, and publishing starts again when the broker is back. Plain TCP only (`mqtt://`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use live::Token;
use live::mqtt::{Broker, drive_telling, options, say_again, topic, topic_name};
use rumqttc::{AsyncClient, Event, LastWill, Packet, QoS};
use serde::Serialize;

use super::Feed;
use super::feed::Snapshot;
use super::view::TableView;

/// Views a table publishes at most, a second: a hall's big screen needs no more.
const VIEWS_PER_SECOND: f64 = 2.0;

/// A table's message to the hall: the whole view, as pages get it, and its game.
#[derive(Serialize)]
struct HallMessage<'v> {
    r#type: &'static str,
    seq: u64,
    view: &'v TableView,
    game: Game<'v>,
}

/// A table's game, as the hall is told of it.
#[derive(Serialize)]
struct Game<'v> {
    /// Whether it is recorded.
    recorded: bool,
    /// The record's file name (no folder), when it is.
    file: Option<String>,
    /// The viewers' page of the table, when it is served to pages.
    page: Option<&'v str>,
}

/// The hall's message of `snapshot`, with the viewers' `page`.
fn hall_message(snapshot: &Snapshot, page: Option<&str>) -> String {
    let file = snapshot
        .state
        .recorder
        .as_ref()
        .map(|recorder| super::replay::file_name(recorder.path()));
    let message = HallMessage {
        r#type: "full",
        seq: snapshot.seq,
        view: &snapshot.view,
        game: Game {
            recorded: file.is_some(),
            file,
            page,
        },
    };
    // As for pages: a view cannot fail to serialise; if it ever did, nothing is published.
    serde_json::to_string(&message).unwrap_or_default()
}

/// Publish the feed's views to the broker until the server stops.
pub async fn publish(broker: Broker, name: String, feed: Feed) {
    publish_with_page(broker, name, None, feed).await;
}

/// Publish the feed's views to the broker until the server stops, with the table's viewers'
/// `page` for the hub to link to.
pub async fn publish_with_page(broker: Broker, name: String, page: Option<String>, feed: Feed) {
    let table = broker.table.clone().unwrap_or_else(|| topic_name(&name));
    let id = format!("vedette-{table}-{}", Token::random());
    let mut options = options(&broker, &id);
    options.set_last_will(LastWill::new(
        topic(&table, "online"),
        "false",
        QoS::AtLeastOnce,
        true,
    ));
    let (client, events) = AsyncClient::new(options, 8);
    tracing::info!("publishing the table to {broker} as {}", topic(&table, "…"));
    let online = client.clone();
    let online_topic = topic(&table, "online");
    let reached = Arc::new(AtomicBool::new(false));
    let told = reached.clone();
    tokio::spawn(drive_telling(
        events,
        broker.clone(),
        move |event| {
            if let Event::Incoming(Packet::ConnAck(_)) = event {
                // Said again on every (re)connection: the broker may have restarted empty.
                say_again(&online, &[], &[(online_topic.clone(), b"true".to_vec())]);
            }
        },
        move |up| told.store(up, Ordering::Relaxed),
    ));
    let mut snapshots = feed.snapshots();
    let period = Duration::from_secs_f64(1.0 / VIEWS_PER_SECOND);
    let view_topic = topic(&table, "view");
    while snapshots.changed().await.is_ok() {
        let snapshot = snapshots.borrow_and_update().clone();
        // While the broker is away nothing is queued: the view after it is back replaces
        // every one missed, and the queue keeps room for what a new connection says.
        if let (Some(snapshot), true) = (snapshot, reached.load(Ordering::Relaxed)) {
            let message = hall_message(&snapshot, page.as_deref());
            // Never waits: while the broker is away the queue fills and views are dropped.
            if client
                .try_publish(&view_topic, QoS::AtMostOnce, true, message.into_bytes())
                .is_err()
            {
                tracing::trace!("the broker is not taking views now: one dropped");
            }
        }
        tokio::time::sleep(period).await;
    }
}
