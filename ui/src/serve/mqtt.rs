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

use std::time::Duration;

use rumqttc::{AsyncClient, Event, EventLoop, LastWill, MqttOptions, Packet, QoS};
use serde::Serialize;

use super::Feed;
use super::feed::Snapshot;
use super::view::TableView;

/// Where the broker is: `mqtt://host[:port][/table]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broker {
    /// Its host name or address.
    pub host: String,
    /// Its port (1883 unless given).
    pub port: u16,
    /// The table's name in the topics, if the address gives one.
    pub table: Option<String>,
}

/// What a broker's address may not be.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BadBroker {
    /// Not `mqtt://`.
    #[error(
        "{0:?} is not an MQTT address: write mqtt://host[:port][/table] (mqtts:// is not supported)"
    )]
    Scheme(String),
    /// No host, or a port that is not a number.
    #[error("{0:?} names no host and port: write mqtt://host[:port][/table]")]
    Address(String),
}

impl std::str::FromStr for Broker {
    type Err = BadBroker;

    fn from_str(text: &str) -> Result<Broker, BadBroker> {
        let rest = text
            .strip_prefix("mqtt://")
            .ok_or_else(|| BadBroker::Scheme(text.to_owned()))?;
        let (address, table) = match rest.split_once('/') {
            Some((address, table)) => (address, Some(table.trim_matches('/'))),
            None => (rest, None),
        };
        let (host, port) = match address.rsplit_once(':') {
            Some((host, port)) => (
                host,
                port.parse()
                    .map_err(|_| BadBroker::Address(text.to_owned()))?,
            ),
            None => (address, 1883),
        };
        if host.is_empty() || port == 0 {
            return Err(BadBroker::Address(text.to_owned()));
        }
        Ok(Broker {
            host: host.to_owned(),
            port,
            table: table.filter(|t| !t.is_empty()).map(topic_name),
        })
    }
}

impl std::fmt::Display for Broker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "mqtt://{}:{}", self.host, self.port)
    }
}

/// The root of every topic.
pub const ROOT: &str = "vedette";

/// A table's name as one level of a topic: MQTT's `/`, `+` and `#` (and anything else outside
/// letters, digits, `-` and `_`) become `-`.
pub fn topic_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if cleaned.is_empty() {
        "table".into()
    } else {
        cleaned
    }
}

/// A table's topic.
pub fn topic(table: &str, leaf: &str) -> String {
    format!("{ROOT}/{table}/{leaf}")
}

/// Views a table publishes at most, a second: a hall's big screen needs no more.
const VIEWS_PER_SECOND: f64 = 2.0;

/// The largest packet taken from or given to the broker: a 300-unit table's view fits.
pub const MAX_PACKET: usize = 4 << 20;

/// Options for a client of `broker` named `id`.
pub fn options(broker: &Broker, id: &str) -> MqttOptions {
    let mut options = MqttOptions::new(id, broker.host.clone(), broker.port);
    options.set_keep_alive(Duration::from_secs(15));
    options.set_max_packet_size(MAX_PACKET, MAX_PACKET);
    options
}

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
    let id = format!("vedette-{table}-{}", super::Token::random());
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
    tokio::spawn(drive(events, broker.clone(), move |event| {
        if let Event::Incoming(Packet::ConnAck(_)) = event {
            // Said again on every (re)connection: the broker may have restarted empty.
            let _ = online.try_publish(&online_topic, QoS::AtLeastOnce, true, "true");
        }
    }));
    let mut snapshots = feed.snapshots();
    let period = Duration::from_secs_f64(1.0 / VIEWS_PER_SECOND);
    let view_topic = topic(&table, "view");
    while snapshots.changed().await.is_ok() {
        let snapshot = snapshots.borrow_and_update().clone();
        if let Some(snapshot) = snapshot {
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

/// Run a client's event loop for ever, handing `on` every event; a broker that goes away is
/// waited for (retrying ever less often, up to every 10 s), said once in the log per outage.
pub async fn drive(mut events: EventLoop, broker: Broker, mut on: impl FnMut(Event) + Send) {
    let mut down = false;
    let mut wait = Duration::from_millis(500);
    loop {
        match events.poll().await {
            Ok(event) => {
                if let Event::Incoming(Packet::ConnAck(_)) = event {
                    if down {
                        tracing::info!("the broker {broker} is back");
                    }
                    down = false;
                    wait = Duration::from_millis(500);
                }
                on(event);
            }
            Err(e) => {
                if !down {
                    tracing::warn!("the broker {broker} cannot be reached ({e}); retrying");
                }
                down = true;
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(Duration::from_secs(10));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broker_address_gives_host_port_and_table() {
        let broker: Broker = "mqtt://hall.local:1884/table-7".parse().expect("valid");
        assert_eq!(
            broker,
            Broker {
                host: "hall.local".into(),
                port: 1884,
                table: Some("table-7".into())
            }
        );
        let plain: Broker = "mqtt://10.0.0.2".parse().expect("valid");
        assert_eq!((plain.port, plain.table), (1883, None));
        assert!(matches!(
            "http://x".parse::<Broker>(),
            Err(BadBroker::Scheme(_))
        ));
        assert!(matches!(
            "mqtt://:1883".parse::<Broker>(),
            Err(BadBroker::Address(_))
        ));
        assert!(matches!(
            "mqtt://host:port".parse::<Broker>(),
            Err(BadBroker::Address(_))
        ));
    }

    #[test]
    fn a_table_name_never_makes_a_wildcard_or_another_level() {
        assert_eq!(topic_name("Table 7 / #1"), "Table-7----1");
        assert_eq!(topic_name("a+b"), "a-b");
        assert_eq!(topic_name(""), "table");
        assert_eq!(topic("t", "view"), "vedette/t/view");
    }
}
