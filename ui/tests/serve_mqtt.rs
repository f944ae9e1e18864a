//! A hall of tables on a real broker (Debian's mosquitto, which `make test` installs): tables
//! publish with `vedette serve --mqtt`, `vedette hub` shows them all, a table switched off is
//! shown as such, junk on the broker is ignored, and a broker that vanishes is waited for.

mod common;

use std::time::Duration;

use common::broker::Broker;
use common::served::{Served, free_port};
use futures_util::StreamExt;
use serde_json::Value;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

const PATIENCE: Duration = Duration::from_secs(90);

fn table(broker: &str) -> Served {
    Served::start(
        &[
            "serve",
            "--demo",
            "--listen",
            "127.0.0.1:0",
            "--mqtt",
            broker,
        ],
        &["table", "umpire"],
    )
}

fn hub(port: u16) -> Served {
    let broker = format!("mqtt://127.0.0.1:{port}");
    Served::start(
        &[
            "hub",
            "--mqtt",
            &broker,
            "--listen",
            "127.0.0.1:0",
            "--token",
            "hall-screen",
        ],
        &["hub"],
    )
}

/// Wait until the hub's page is sent a hall that `done` accepts; that hall.
async fn hall_until(link: &str, what: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let url = format!("{}ws", link.replacen("http://", "ws://", 1));
    let (mut page, _) = connect_async(url).await.expect("the hub's page connects");
    let found = tokio::time::timeout(PATIENCE, async {
        while let Some(Ok(message)) = page.next().await {
            let Message::Text(text) = message else {
                continue;
            };
            let hall: Value = serde_json::from_str(&text).expect("JSON");
            let tables = hall["tables"].as_array().cloned().unwrap_or_default();
            if done(&tables) {
                return Some(tables);
            }
        }
        None
    })
    .await;
    found
        .unwrap_or_else(|_| panic!("never: {what}"))
        .unwrap_or_else(|| panic!("the hub closed the page before: {what}"))
}

fn named<'t>(tables: &'t [Value], name: &str) -> Option<&'t Value> {
    tables.iter().find(|t| t["name"] == name)
}

fn live_with_plan(tables: &[Value], name: &str) -> bool {
    named(tables, name).is_some_and(|t| {
        t["online"] == true
            && t["plan"]["units"]
                .as_object()
                .is_some_and(|u| u.len() >= 10)
    })
}

// Several threads: the prankster's client runs while the test waits on the hub's log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hub_shows_every_table_of_the_hall_and_which_have_gone() {
    let broker = Broker::start(free_port());
    let one = table(&broker.url("hall-1"));
    let mut two = table(&broker.url("hall-2"));
    let screen = hub(broker.port);
    let link = screen.link("hub");
    let tables = hall_until(&link, "both tables live with their plans", |t| {
        live_with_plan(t, "hall-1") && live_with_plan(t, "hall-2")
    })
    .await;
    // The hub shows plans, not rulings.
    assert!(named(&tables, "hall-1").is_some_and(|t| t["plan"].get("rulings").is_none()));
    // Each table's game and the table's page, for the hub's links. (Whether it is recorded:
    // two tables started in the same second on one machine would want the same file.)
    let game = &named(&tables, "hall-1").expect("table 1")["game"];
    let recorded = game["recorded"].as_bool().expect("recorded or not");
    let file = game["file"].as_str();
    assert_eq!(file.is_some(), recorded, "{game}");
    assert!(file.is_none_or(|f| !f.contains('/')), "{game}");
    assert_eq!(game["page"].as_str(), Some(one.link("table").as_str()));

    // Junk published by anyone on the hall's network is ignored, and said.
    let (client, mut events) = rumqttc::AsyncClient::new(
        rumqttc::MqttOptions::new("a-prankster", "127.0.0.1", broker.port),
        4,
    );
    tokio::spawn(async move { while events.poll().await.is_ok() {} });
    client
        .publish(
            "vedette/hall-3/view",
            rumqttc::QoS::AtLeastOnce,
            true,
            "{not json",
        )
        .await
        .expect("published");
    screen.wait_for_log("table hall-3 published a view that does not read", PATIENCE);

    // A table's machine switched off: the broker says so for it, and the hub shows it.
    two.kill();
    let tables = hall_until(&link, "table 2 offline", |t| {
        named(t, "hall-2").is_some_and(|t| t["online"] == false)
    })
    .await;
    assert!(live_with_plan(&tables, "hall-1"));
    assert!(named(&tables, "hall-3").is_none());
}

#[tokio::test]
async fn a_broker_that_vanishes_is_waited_for_while_the_table_is_still_served() {
    let port = free_port();
    let mut broker = Broker::start(port);
    let mut served = table(&broker.url("table-7"));
    served.wait_for_log("publishing the table to", PATIENCE);
    broker.stop();
    served.wait_for_log("cannot be reached", PATIENCE);
    // Still served: a page connects and is sent the table.
    let url = format!("{}ws", served.link("table").replacen("http://", "ws://", 1));
    let (mut page, _) = connect_async(url).await.expect("still served");
    let full = tokio::time::timeout(PATIENCE, async {
        while let Some(Ok(message)) = page.next().await {
            if let Message::Text(text) = message
                && text.contains("\"type\":\"full\"")
            {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(full, Ok(true));
    assert!(served.running());
    // The broker comes back: publishing starts again, and a hub sees the table.
    let _broker = Broker::start(port);
    served.wait_for_log("is back", PATIENCE);
    let screen = hub(port);
    hall_until(&screen.link("hub"), "table 7 live again", |t| {
        live_with_plan(t, "table-7")
    })
    .await;
}

/// A retained view over what any table sends (5 MiB, where a bare broker takes anything) is
/// dropped with a log line: the hub never loops reconnecting and shows the hall's real table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hub_drops_a_5_mib_retained_view_and_shows_the_hall() {
    let broker = Broker::start(free_port());
    let mut options = rumqttc::MqttOptions::new("a-vandal", "127.0.0.1", broker.port);
    options.set_max_packet_size(16 << 20, 16 << 20);
    let (client, mut events) = rumqttc::AsyncClient::new(options, 4);
    tokio::spawn(async move { while events.poll().await.is_ok() {} });
    client
        .publish(
            "vedette/huge/view",
            rumqttc::QoS::AtLeastOnce,
            true,
            vec![b' '; 5 << 20],
        )
        .await
        .expect("published");
    let _table = table(&broker.url("hall-1"));
    let screen = hub(broker.port);
    screen.wait_for_log("a message of 5242880 bytes dropped", PATIENCE);
    hall_until(&screen.link("hub"), "the real table live", |t| {
        live_with_plan(t, "hall-1")
    })
    .await;
    assert!(
        !screen.log().contains("cannot be reached"),
        "the hub lost the broker:\n{}",
        screen.log()
    );
}
