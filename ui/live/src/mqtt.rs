//! The MQTT transport a hall of tables and a table's remote cameras share: the broker's
//! address, the topics (`vedette/<table>/…`), a client's options, and an event loop that waits
//! for a broker that went away. Plain TCP only (`mqtt://`). What is published over it is the
//! faces' business (the hall's views) and the remote cameras' ([`crate::remote`]).

use std::time::Duration;

use rumqttc::{
    AsyncClient, Event, EventLoop, MqttOptions, Packet, QoS, SubAck, SubscribeReasonCode,
};

/// Where the broker is: `mqtt://[user:password@]host[:port][/table]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broker {
    /// Its host name or address.
    pub host: String,
    /// Its port (1883 unless given).
    pub port: u16,
    /// The table's name in the topics, if the address gives one.
    pub table: Option<String>,
    /// The user name and password it asks for, if the address gives them.
    pub login: Option<(String, String)>,
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
        // A password may hold '@' or ':': the login ends at the last '@', the user at its ':'.
        let (login, rest) = match rest.rsplit_once('@') {
            Some((login, rest)) => {
                let (user, password) = login.split_once(':').unwrap_or((login, ""));
                (Some((user.to_owned(), password.to_owned())), rest)
            }
            None => (None, rest),
        };
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
            login,
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

/// The largest packet given to the broker, and the largest message a reader takes: a
/// 300-unit table's view fits.
pub const MAX_PACKET: usize = 4 << 20;

/// The largest packet MQTT can carry. Every client takes packets up to it from the broker: a
/// client of rumqttc ends its connection on a packet over its limit, and a retained one would
/// end every connection after it (a loop a single player could start). Readers drop what is
/// over their own limit, with a log line, instead.
const MQTT_LARGEST: usize = 268_435_455;

/// Options for a client of `broker` named `id`.
pub fn options(broker: &Broker, id: &str) -> MqttOptions {
    let mut options = MqttOptions::new(id, broker.host.clone(), broker.port);
    options.set_keep_alive(Duration::from_secs(15));
    options.set_max_packet_size(MQTT_LARGEST, MAX_PACKET);
    if let Some((user, password)) = &broker.login {
        options.set_credentials(user.clone(), password.clone());
    }
    options
}

/// What a client says again each time it reaches the broker — its subscriptions, its retained
/// messages — from a task that waits for room in the client's queue: never dropped because
/// the queue is full of what piled up while the broker was away (a new session starts with no
/// subscriptions, and a broker restarted empty holds no retained message).
pub fn say_again(client: &AsyncClient, subscriptions: &[String], retained: &[(String, Vec<u8>)]) {
    let (client, subscriptions, retained) =
        (client.clone(), subscriptions.to_vec(), retained.to_vec());
    tokio::spawn(async move {
        for filter in subscriptions {
            if let Err(e) = client.subscribe(filter.clone(), QoS::AtMostOnce).await {
                tracing::warn!("cannot subscribe to {filter}: {e}");
            }
        }
        for (topic, payload) in retained {
            if let Err(e) = client
                .publish(topic.clone(), QoS::AtLeastOnce, true, payload)
                .await
            {
                tracing::warn!("cannot publish {topic}: {e}");
            }
        }
    });
}

/// How long a lost broker is waited for, at most, between tries.
const LONGEST_WAIT: Duration = Duration::from_secs(5);

/// Run a client's event loop for ever, handing `on` every event; a broker that goes away is
/// waited for (retrying ever less often, up to every 5 s), said once in the log per outage.
pub async fn drive(events: EventLoop, broker: Broker, on: impl FnMut(Event) + Send) {
    drive_telling(events, broker, on, |_| {}).await;
}

/// [`drive`], telling `up` whenever the broker is reached (`true`) or lost (`false`).
pub async fn drive_telling(
    mut events: EventLoop,
    broker: Broker,
    mut on: impl FnMut(Event) + Send,
    up: impl Fn(bool) + Send,
) {
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
                    up(true);
                    wait = Duration::from_millis(500);
                }
                if let Event::Incoming(Packet::SubAck(ack)) = &event {
                    say_refused(ack, &broker);
                }
                on(event);
            }
            Err(e) => {
                if !down {
                    tracing::warn!("the broker {broker} cannot be reached ({e}); retrying");
                    up(false);
                }
                down = true;
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(LONGEST_WAIT);
            }
        }
    }
}

/// A subscription the broker refused is said in the log: its access list does not let this
/// client read what it needs.
fn say_refused(ack: &SubAck, broker: &Broker) {
    if ack.return_codes.contains(&SubscribeReasonCode::Failure) {
        tracing::error!(
            "the broker {broker} refused a subscription: its access list does not let this \
             account read what it needs (see the guide's \"A remote game\")"
        );
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
                table: Some("table-7".into()),
                login: None,
            }
        );
        let login: Broker = "mqtt://host:p@ss@club.example:1883/t"
            .parse()
            .expect("valid");
        assert_eq!(login.login, Some(("host".into(), "p@ss".into())));
        assert_eq!(
            (login.host.as_str(), login.to_string()),
            ("club.example", "mqtt://club.example:1883".into())
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
