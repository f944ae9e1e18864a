//! Remote play tried as hostile and careless players would: a real mosquitto set up by the
//! files `vedette remote-broker` writes (or bare, where a test needs every player to read every
//! topic), a real `vedette serve --demo --remote`, real pages in chromium, and a player's own
//! MQTT client doing what a player's laptop can. Each test is one way in which remote play
//! once failed its players (issue 61); the HTTP face's are in `hostile_http.rs`.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::broker::Club;
use common::browser::{Browser, Setup};
use common::served::Served;
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};

/// A remote player's laptop; its screenshots are not the guide's.
const LAPTOP: Setup = Setup {
    docs: false,
    ..common::browser::LAPTOP
};

/// The seats' tokens, fixed here so that a test can look for them on the broker.
const BRITISH: &str = "british-hostile-0123456789";
const RUSSIAN: &str = "russian-hostile-0123456789";
const UMPIRE: &str = "umpire-hostile-0123456789";
/// The room's umpire link's token: never the remote umpire's.
const ROOM_UMPIRE: &str = "room-umpire-0123456789";

/// `vedette serve --demo --remote …` on `club`'s broker as its host, the room's umpire link
/// with a token of its own.
fn serve(club: &Club) -> Served {
    club.serve_demo([BRITISH, RUSSIAN, UMPIRE], &["--umpire-token", ROOM_UMPIRE])
}

/// Messages heard, each with its topic.
type Heard = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A player's own MQTT client: what it hears on the topics it asked for, kept.
struct Tap {
    client: AsyncClient,
    heard: Heard,
}

impl Tap {
    /// Connected to `club`'s broker as a player (anonymous on a bare broker), as client `id`,
    /// once the broker has answered its subscriptions to `filters`.
    async fn open(club: &Club, id: &str, filters: &[&str]) -> Tap {
        let mut options = MqttOptions::new(id, "127.0.0.1", club.broker.port);
        options.set_max_packet_size(16 << 20, 16 << 20);
        if let Some(logins) = &club.logins {
            options.set_credentials("players", logins.players.clone());
        }
        let (client, mut events) = AsyncClient::new(options, 64);
        let tap = Tap {
            client: client.clone(),
            heard: Arc::default(),
        };
        let heard = tap.heard.clone();
        let filters: Vec<String> = filters.iter().map(|f| f.to_string()).collect();
        let wanted = filters.len();
        let (acked, mut subscribed) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            loop {
                match events.poll().await {
                    Ok(Event::Incoming(Packet::ConnAck(_))) => {
                        for filter in &filters {
                            let _ = client.subscribe(filter, QoS::AtMostOnce).await;
                        }
                    }
                    Ok(Event::Incoming(Packet::SubAck(_))) => {
                        let _ = acked.send(());
                    }
                    Ok(Event::Incoming(Packet::Publish(p))) => {
                        let mut heard = heard.lock().expect("lock");
                        heard.push((p.topic.clone(), p.payload.to_vec()));
                    }
                    Ok(_) => {}
                    Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
                }
            }
        });
        for _ in 0..wanted {
            tokio::time::timeout(Duration::from_secs(30), subscribed.recv())
                .await
                .expect("the broker answers a subscription");
        }
        tap
    }

    /// What it heard on `topic`.
    fn on(&self, topic: &str) -> Vec<Vec<u8>> {
        let heard = self.heard.lock().expect("lock");
        (heard.iter())
            .filter(|(t, _)| t == topic)
            .map(|(_, payload)| payload.clone())
            .collect()
    }

    async fn publish(&self, topic: &str, payload: impl Into<Vec<u8>>, retain: bool) {
        self.client
            .publish(topic, QoS::AtLeastOnce, retain, payload.into())
            .await
            .expect("queued");
    }
}

/// How many orders the host took (it logs each), of units whose id contains `unit`.
fn orders_taken(served: &Served, unit: &str) -> usize {
    (served.log().lines())
        .filter(|l| l.contains("ordered") && l.contains("unit=") && l.contains(unit))
        .count()
}

/// Wait until `done`, or fail saying `what` and the host's log.
async fn until(served: &Served, what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "never: {what}\nthe host's log:\n{}",
            served.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// What these tests ask of a remote player's page.
impl Browser {
    /// Open `link` and wait until the host has told it its seat and it draws the table.
    async fn seated(&self, link: &str) {
        self.client.goto(link).await.expect("the page opens");
        self.until(
            "the host tells the page its seat and the table",
            "return link.seat !== null && page.view !== null",
        )
        .await;
    }

    /// Point at the table as `name`, and wait until the table shows the pointer.
    async fn points_as(&self, name: &str) {
        self.js(&format!(
            "$('player-name').value = '{name}'; link.point([30, 20]); return true"
        ))
        .await;
        self.until(
            "the page's pointer is on the table",
            &format!("return page.view.remote.pointers.some(p => p.by === '{name}')"),
        )
        .await;
    }

    /// One of `side`'s units, and a place an inch ahead of it.
    async fn a_unit_of(&self, side: &str) -> (String, [f64; 2], f64) {
        let found = self
            .js(&format!(
                "const [id, u] = Object.entries(page.view.units).find(([, u]) => u.side === '{side}'); \
                 const a = u.facing * Math.PI / 180; \
                 return [id, [u.leader[0] + Math.cos(a), u.leader[1] + Math.sin(a)], u.facing]"
            ))
            .await;
        serde_json::from_value(found).expect("a unit")
    }

    /// Order `unit` `times` times, `every` ms apart, as the player the JS expression `name`
    /// gives the `i`th time; each act is sent until the host says it took it. Once all are.
    async fn order(&self, name: &str, unit: &(String, [f64; 2], f64), times: u32, every: u32) {
        let (id, to, facing) = unit;
        self.js(&format!(
            "for (let i = 0; i < {times}; i++) setTimeout(() => {{ \
               $('player-name').value = {name}; \
               link.order('{id}', [{}, {}], {facing}); }}, i * {every}); return true",
            to[0], to[1]
        ))
        .await;
        tokio::time::sleep(Duration::from_millis(u64::from(times * every))).await;
        self.until(
            "every order sent is answered",
            "return link.pending.size === 0",
        )
        .await;
    }
}

/// Item 1: a player who reads every message on the broker (a bare one: anyone may) learns no
/// token, cannot seal a message for another seat, and cannot have a message he copied taken
/// again — at once, under another page's address, or 36 s later with its page gone.
#[tokio::test(flavor = "multi_thread")]
async fn a_player_reading_the_broker_can_neither_take_a_seat_nor_replay_a_message() {
    let club = Club::open_bare("reader");
    let served = serve(&club);
    let umpire = served.link("remote umpire");
    assert!(
        umpire.contains(UMPIRE) && !umpire.contains(ROOM_UMPIRE),
        "the remote umpire's link is not the room's: {umpire}"
    );
    let reader = Tap::open(&club, "a-reader", &["vedette/demo/#"]).await;
    let browser = Browser::open(LAPTOP).await;
    browser.seated(&served.link("remote british")).await;
    let unit = browser.a_unit_of("british").await;
    browser.order("'Anne'", &unit, 1, 0).await;
    until(&served, "the order is taken", || {
        orders_taken(&served, &unit.0) == 1
    })
    .await;

    let client_id = browser.js("return link.client.options.clientId").await;
    let client_id = client_id.as_str().expect("a client id").to_owned();
    let sent = reader.on("vedette/demo/in");
    let text = |m: &Vec<u8>| String::from_utf8_lossy(m).into_owned();
    assert!(sent.iter().any(|m| text(m).contains("\"do\":\"order\"")));
    for message in &sent {
        let message = text(message);
        for secret in [BRITISH, RUSSIAN, UMPIRE, ROOM_UMPIRE, client_id.as_str()] {
            assert!(!message.contains(secret), "{secret} travels in {message}");
        }
    }
    let order = (sent.iter().map(text))
        .find(|m| m.contains("\"do\":\"order\""))
        .expect("the order on the broker");

    // Sent again as it was: not taken.
    reader
        .publish("vedette/demo/in", order.clone(), false)
        .await;
    served.wait_for_log("taken already", Duration::from_secs(30));
    // Under another page's address: the seal no longer holds.
    let me = browser.js("return link.me").await;
    let elsewhere = order.replace(me.as_str().expect("an address"), "p-0123456789abcdef");
    assert_ne!(elsewhere, order);
    reader.publish("vedette/demo/in", elsewhere, false).await;
    served.wait_for_log("sealed by no seat's link", Duration::from_secs(30));
    // The old way (the token in the message): no seat at all.
    let old =
        format!(r#"{{"page":"p-0123456789abcdef","token":"{BRITISH}","ask":{{"do":"hello"}}}}"#);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    reader.publish("vedette/demo/in", old, false).await;
    served.wait_for_log("no seat's seal", Duration::from_secs(30));

    // 36 s later, its page closed: still not taken.
    browser
        .client
        .goto("about:blank")
        .await
        .expect("the page closes");
    tokio::time::sleep(Duration::from_secs(36)).await;
    let before = served.log().matches("taken already").count();
    reader.publish("vedette/demo/in", order, false).await;
    until(&served, "the late copy is refused", || {
        served.log().matches("taken already").count() > before
    })
    .await;
    assert_eq!(orders_taken(&served, &unit.0), 1, "{}", served.log());
    browser.close().await;
}

/// Item 2: the broker down 15 s, then 2 min: every seat works again within seconds of its
/// return — the page kept open through it, and pages of the other seats opened after — and
/// the retained `online` says the host is there.
#[tokio::test(flavor = "multi_thread")]
async fn every_seat_answers_after_the_broker_is_down_15_s_and_then_2_min() {
    let mut club = Club::open("outages");
    let served = serve(&club);
    let kept = Browser::open(LAPTOP).await;
    kept.seated(&served.link("remote british")).await;
    let other = Browser::open(LAPTOP).await;
    for outage in [Duration::from_secs(15), Duration::from_secs(120)] {
        club.broker.stop();
        tokio::time::sleep(outage).await;
        club.restart();
        let back = Instant::now();
        kept.points_as("Anne").await;
        for (seat, name) in [("remote russian", "Boris"), ("remote umpire", "Clio")] {
            other.seated(&served.link(seat)).await;
            other.points_as(name).await;
        }
        let id = format!("a-late-reader-{}", outage.as_secs());
        let online = Tap::open(&club, &id, &["vedette/demo/online"]).await;
        until(&served, "the retained online message", || {
            online.on("vedette/demo/online") == [b"true".to_vec()]
        })
        .await;
        println!(
            "{outage:?} outage: every seat answered {:?} after",
            back.elapsed()
        );
        assert!(back.elapsed() < Duration::from_secs(60));
    }
    assert!(!served.log().contains("panicked"), "{}", served.log());
    kept.close().await;
    other.close().await;
}

/// Item 3: with the shipped access list a player can neither read what pages send nor write
/// what pages take as the table: a false view, a retained "host gone", a false epoch are
/// dropped by the broker and the pages go on with the real table.
#[tokio::test(flavor = "multi_thread")]
async fn players_cannot_show_pages_a_false_table_through_the_shipped_broker() {
    let club = Club::open("spoof");
    let served = serve(&club);
    let browser = Browser::open(LAPTOP).await;
    browser.seated(&served.link("remote british")).await;
    let prankster = Tap::open(&club, "a-prankster", &["vedette/demo/in"]).await;
    let mut part = vec![0, 0, 0, 9, 0, 0, 0, 1];
    part.extend_from_slice(br#"{"type":"full","seq":999999999,"view":{"units":{}}}"#);
    prankster.publish("vedette/demo/live", part, false).await;
    prankster
        .publish("vedette/demo/online", "false", true)
        .await;
    prankster
        .publish("vedette/demo/host", r#"{"epoch":"forged"}"#, true)
        .await;
    let seq = browser
        .js("return page.seq")
        .await
        .as_u64()
        .expect("a number");
    browser
        .until(
            "the real table goes on",
            &format!("return page.seq > {seq} + 5 && Object.keys(page.view.units).length > 5"),
        )
        .await;
    let state = browser
        .js("return [page.seq < 999999999, link.hostOnline, link.epoch !== 'forged', $('banner').hidden]")
        .await;
    assert_eq!(state, serde_json::json!([true, true, true, true]));
    let late = Tap::open(
        &club,
        "a-late-reader",
        &["vedette/demo/online", "vedette/demo/host"],
    )
    .await;
    until(&served, "the retained messages are the host's", || {
        late.on("vedette/demo/online") == [b"true".to_vec()]
            && late.on("vedette/demo/host").len() == 1
    })
    .await;
    assert!(!String::from_utf8_lossy(&late.on("vedette/demo/host")[0]).contains("forged"));
    // What the page sent meanwhile (hellos, asks for the view) never reached the prankster.
    assert!(prankster.on("vedette/demo/in").is_empty());
    browser.close().await;
}

/// Item 3, on a bare broker: the page says that what it shows could be forged.
#[tokio::test(flavor = "multi_thread")]
async fn a_page_on_a_broker_any_player_may_write_says_so() {
    let club = Club::open_bare("writable");
    let served = serve(&club);
    let browser = Browser::open(LAPTOP).await;
    browser.seated(&served.link("remote russian")).await;
    browser
        .until(
            "the page warns",
            "return !$('banner').hidden && $('banner').textContent.includes('vedette remote-broker')",
        )
        .await;
    browser.close().await;
}

/// Item 4: a retained 5 MiB message on `in` (a bare broker takes it) is dropped with a log
/// line; the host never loops reconnecting and answers every seat.
#[tokio::test(flavor = "multi_thread")]
async fn a_retained_5_mib_message_on_in_is_dropped_and_the_host_answers() {
    let club = Club::open_bare("junk");
    let junk = Tap::open(&club, "a-vandal", &["vedette/demo/in"]).await;
    junk.publish("vedette/demo/in", vec![b'x'; 5 << 20], true)
        .await;
    let start = Instant::now();
    while junk.on("vedette/demo/in").is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the broker never took it"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let served = serve(&club);
    served.wait_for_log("a message of 5242880 bytes", Duration::from_secs(60));
    let browser = Browser::open(LAPTOP).await;
    for seat in ["remote british", "remote russian", "remote umpire"] {
        browser.seated(&served.link(seat)).await;
    }
    assert!(
        !served.log().contains("cannot be reached"),
        "the host lost the broker:\n{}",
        served.log()
    );
    browser.close().await;
}

/// Item 6: limits are the seat's, not the name's. Fifty orders at 50 a second under fifty
/// names are held to the seat's rate, recorded with the seat; the other side's player using
/// Anne's name takes nothing from Anne.
#[tokio::test(flavor = "multi_thread")]
async fn orders_under_rotating_or_borrowed_names_are_held_to_the_seat() {
    let club = Club::open("names");
    let served = serve(&club);
    let british = Browser::open(LAPTOP).await;
    british.seated(&served.link("remote british")).await;
    let unit = british.a_unit_of("british").await;
    let russian = Browser::open(LAPTOP).await;
    russian.seated(&served.link("remote russian")).await;
    let theirs = russian.a_unit_of("russian").await;
    // The Russian player floods under Anne's name; Anne's three orders are still hers.
    russian.order("'Anne'", &theirs, 20, 20).await;
    british.order("'Anne'", &unit, 3, 600).await;
    assert_eq!(orders_taken(&served, &unit.0), 3, "{}", served.log());

    tokio::time::sleep(Duration::from_secs(3)).await;
    // Fifty orders in a second under fifty names: the seat's allowance (a burst of 4, 2 a
    // second) holds them, however long the page takes to send them on a busy machine.
    let sending = Instant::now();
    british.order("'player ' + i", &unit, 50, 20).await;
    let allowed = 4 + (2.0 * sending.elapsed().as_secs_f64()).ceil() as usize;
    let taken = orders_taken(&served, &unit.0) - 3;
    assert!(
        taken >= 1 && taken <= allowed && taken < 25,
        "{taken} of 50 taken (the seat's allowance {allowed}):\n{}",
        served.log()
    );
    let words = british
        .js(&format!(
            "return page.view.remote.orders.find(o => o.unit === '{}').seat",
            unit.0
        ))
        .await;
    assert_eq!(words, "the british seat");
    british.close().await;
    russian.close().await;
}

/// Item 8: asks that cost the host (a past moment, a kept picture, the whole view) are held
/// to a rate a seat: a hundred of each at once get a handful of answers.
#[tokio::test(flavor = "multi_thread")]
async fn floods_of_asks_get_a_handful_of_answers() {
    let club = Club::open("asks");
    let served = serve(&club);
    let browser = Browser::open(LAPTOP).await;
    browser.seated(&served.link("remote umpire")).await;
    let me = browser.js("return link.me").await;
    let me = me.as_str().expect("an address").to_owned();
    let answers = format!("vedette/demo/to/{me}");
    let kept = format!("vedette/demo/to/{me}/kept");
    let tap = Tap::open(&club, "a-counter", &[&answers, &kept]).await;
    browser
        .js("for (let i = 0; i < 100; i++) { link.ask({do: 'moment', t: 1000 + i}); link.ask({do: 'kept', t: 1000 + i}); } return true")
        .await;
    // The page is told when it asked too fast: wait for that, then for the answers to settle.
    browser
        .until(
            "the page is told it asks too fast",
            "return $('toast').textContent.includes('too many')",
        )
        .await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let first_parts = |topic: &str| {
        (tap.on(topic).into_iter())
            .filter(|part| part.len() >= 8 && part[4..6] == [0, 0])
            .map(|part| String::from_utf8_lossy(&part[8..]).into_owned())
            .collect::<Vec<_>>()
    };
    let answered = (first_parts(&answers).iter())
        .filter(|m| {
            m.contains("\"type\":\"moment\"")
                || m.contains("\"type\":\"refused\"") && !m.contains("too many")
        })
        .count()
        + first_parts(&kept).len();
    assert!(
        answered <= 20,
        "{answered} answers to 200 asks:\n{}",
        served.log()
    );
    browser.close().await;
}

/// Item 9: a page's client id is random and never sent: a player who connects under the id
/// the page's address would once have given does not knock the page off the broker.
#[tokio::test(flavor = "multi_thread")]
async fn a_page_cannot_be_knocked_off_the_broker_by_its_address() {
    let club = Club::open("kick");
    let served = serve(&club);
    let browser = Browser::open(LAPTOP).await;
    browser.seated(&served.link("remote british")).await;
    browser
        .js("window.closes = 0; const was = link.client.onClose; link.client.onClose = (w) => { window.closes += 1; was(w); }; return true")
        .await;
    let me = browser.js("return link.me").await;
    let me = me.as_str().expect("an address").to_owned();
    let client_id = browser.js("return link.client.options.clientId").await;
    assert!(!client_id.as_str().expect("an id").contains(&me[2..]));
    let _thief = Tap::open(&club, &format!("vedette-page-{me}"), &[]).await;
    browser.points_as("Anne").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(browser.js("return window.closes").await, 0);
    assert!(!served.log().contains("panicked"));
    browser.close().await;
}
