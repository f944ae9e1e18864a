//! A remote game through a real broker and a real browser: Debian's mosquitto with its
//! WebSockets listener serving the page `vedette remote-page` writes, a `vedette serve --demo
//! --remote` publishing the table to it, and chromium opening a side's link — as a remote
//! player does. `make test` installs all three.

mod common;

use std::time::{Duration, Instant};

use common::broker::Club;
use common::browser::{Browser, LAPTOP};
use common::served::Served;
use futures_util::StreamExt;
use serde_json::Value;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

const UNITS_DRAWN: &str = "return document.querySelectorAll('#plan g.unit').length >= 10";

/// The seats' tokens, fixed for these tests (a random one is 26 letters).
const BRITISH: &str = "british-link-0123456789";
const RUSSIAN: &str = "russian-link-0123456789";
const UMPIRE: &str = "umpire-link-0123456789";

/// `vedette serve --demo --remote …` on `club`'s broker, each seat's token fixed.
fn serve(club: &Club) -> Served {
    club.serve_demo([BRITISH, RUSSIAN, UMPIRE], &[])
}

/// What these tests ask of a remote player's page.
impl Browser {
    async fn show(&self, link: &str) {
        self.client.goto(link).await.expect("the page opens");
        self.until("the units are drawn", UNITS_DRAWN).await;
        self.until(
            "the host tells the page its seat",
            "return !document.getElementById('remote').hidden",
        )
        .await;
    }

    /// A tap on the plan at table point `p`, through the page's own handlers.
    async fn tap_plan(&self, p: [f64; 2]) {
        self.js(&format!(
            "const q = toPlan([{}, {}]); const m = $('plan').getScreenCTM(); \
             const at = new DOMPoint(q[0], q[1]).matrixTransform(m); \
             $('plan').dispatchEvent(new MouseEvent('click', {{clientX: at.x, clientY: at.y, bubbles: true}})); \
             return true",
            p[0], p[1]
        ))
        .await;
    }

    /// Wait until `script` returns true; if it never does, say what the page and the host
    /// last said.
    async fn wait(&self, served: &Served, what: &str, script: &str) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            if self.js(script).await == Value::Bool(true) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let page = self
            .js("return [$('toast').textContent, $('banner').textContent, link.pending.size, page.seq, Date.now() - page.news, page.behind, link.client.connected, JSON.stringify(page.view.remote), JSON.stringify(page.live.remote), link.client.lastError, JSON.stringify(link.counts)]")
            .await;
        panic!(
            "never: {what}\nthe page: {page}\nthe host's log:\n{}",
            served.log()
        );
    }

    async fn click(&self, id: &str) {
        self.js(&format!(
            "document.getElementById('{id}').click(); return true"
        ))
        .await;
    }
}

/// The demo's next move of one of `side`'s units from where the page shows it: its id and
/// where the demo puts its leader and facing next.
fn next_demo_move(view: &Value, side: &str) -> Option<(String, [f64; 2], f64)> {
    let demo = live::demo::Demo::new().expect("the demo");
    for (id, unit) in view["units"].as_object()? {
        if unit["side"] != side {
            continue;
        }
        let leader = [unit["leader"][0].as_f64()?, unit["leader"][1].as_f64()?];
        for pair in demo.turns.windows(2) {
            let (now, next) = (pair[0].unit(id)?, pair[1].unit(id)?);
            let at = now.footprint.leader();
            let to = next.footprint.leader();
            let here = (at.x - leader[0]).hypot(at.y - leader[1]) < 0.3;
            if here && (to - at).norm() > 2.0 {
                return Some((id.clone(), [to.x, to.y], next.footprint.facing().0));
            }
        }
    }
    None
}

#[tokio::test]
async fn a_remote_player_sees_points_orders_and_is_told_how_his_order_was_placed() {
    let club = Club::open("play");
    let served = serve(&club);
    let link = served.link("remote british");
    assert!(link.contains(&format!("token={BRITISH}")), "{link}");
    let room = RoomPage::open(&served.link("table")).await;
    let browser = Browser::open(LAPTOP).await;
    browser.show(&link).await;
    let seat = browser
        .js("return document.getElementById('seat').textContent")
        .await;
    assert!(
        seat.as_str().is_some_and(|s| s.contains("british")),
        "{seat}"
    );

    // The camera's picture comes through the broker, each within 100 kB.
    browser.click("show-video").await;
    browser
        .wait(
            &served,
            "two pictures arrive",
            "return (link.pictures || 0) >= 2 && $('video').src.startsWith('blob:')",
        )
        .await;

    // A pointer: on this page, on a page in the room (the LAN's), with the player's name.
    browser.click("show-plan").await;
    browser
        .js("$('player-name').value = 'Anne'; return true")
        .await;
    browser.click("point").await;
    browser.tap_plan([30.0, 20.0]).await;
    browser
        .wait(
            &served,
            "the pointer is drawn",
            "return document.querySelector('#plan .desk .pointer[data-by=\"Anne\"]') !== null",
        )
        .await;
    let at = browser
        .js("return page.view.remote.pointers.find(p => p.by === 'Anne').at")
        .await;
    let at: [f64; 2] = serde_json::from_value(at).expect("a point");
    // Within a screen pixel of the plan (a tap lands on whole pixels).
    assert!(
        (at[0] - 30.0).abs() < 0.15 && (at[1] - 20.0).abs() < 0.15,
        "{at:?}"
    );
    assert!(
        room.sees("\"by\":\"Anne\"").await,
        "the room's page never saw Anne's pointer"
    );
    browser.click("point").await;

    // An order drawn on the plan: a unit of one's own, dragged (here: tapped) to its place.
    // On the demo's last turn no unit moves again until it starts over: wait for one that will.
    let start = Instant::now();
    let (unit, to, facing) = loop {
        let view = browser.js("return page.view").await;
        if let Some(next) = next_demo_move(&view, "british") {
            break next;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no British unit moves again"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    browser.click("order").await;
    let body = browser
        .js(&format!(
            "const u = page.view.units['{unit}']; const c = u.stands[0].reduce((s, p) => [s[0] + p[0] / 4, s[1] + p[1] / 4], [0, 0]); return c"
        ))
        .await;
    let body: [f64; 2] = serde_json::from_value(body).expect("a point");
    browser.tap_plan(body).await;
    browser
        .wait(
            &served,
            "the ghost is drawn",
            "return desk.draft !== null && document.querySelector('#plan .desk .draft') !== null",
        )
        .await;
    browser.tap_plan(to).await;
    let tapped = browser.js("return desk.draft.leader").await;
    let tapped: [f64; 2] = serde_json::from_value(tapped).expect("a point");
    assert!(
        (tapped[0] - to[0]).hypot(tapped[1] - to[1]) < 0.15,
        "{tapped:?} / {to:?}"
    );
    // Put exactly where the demo will put it (a tap lands on whole pixels), and turned.
    browser
        .js(&format!(
            "desk.draft.leader = [{}, {}]; desk.draft.facing = {facing}; draftWords(); return true",
            to[0], to[1]
        ))
        .await;
    // The words and the place they measure from, read together: the camera's next update may
    // move the unit's leader by a hundredth of an inch between two reads.
    let said = browser
        .js(&format!(
            "return [$('draft-words').textContent, page.view.units['{unit}'].leader]"
        ))
        .await;
    let (words, stands): (String, [f64; 2]) =
        serde_json::from_value(said).expect("words, a leader");
    let moved = (to[0] - stands[0]).hypot(to[1] - stands[1]);
    assert!(
        words.contains(&format!("{moved:.2}\"")),
        "{words} / {moved:.2}"
    );
    browser.click("send-order").await;
    browser
        .wait(
            &served,
            "the order is checked and shown to everyone",
            &format!("return page.view.remote.orders.some(o => o.unit === '{unit}') && document.querySelector('#plan .desk .order[data-unit=\"{unit}\"]') !== null"),
        )
        .await;
    let order = browser
        .js(&format!(
            "return page.view.remote.orders.find(o => o.unit === '{unit}')"
        ))
        .await;
    assert_eq!(order["by"], "Anne");
    assert!(
        order["checks"].as_array().is_some_and(|c| !c.is_empty()),
        "{order}"
    );
    assert!(room.sees(&format!("\"unit\":\"{unit}\"")).await);

    // Another side's unit: refused, in words, and nothing is ordered.
    let russian = browser
        .js("return Object.entries(page.view.units).find(([, u]) => u.side === 'russian')[0]")
        .await;
    let russian = russian.as_str().expect("a Russian unit").to_owned();
    browser
        .js(&format!(
            "link.order('{russian}', [40, 24], 90); return true"
        ))
        .await;
    browser
        .wait(
            &served,
            "the refusal is said",
            "return $('toast').textContent.includes('not one of your units')",
        )
        .await;
    let ordered = browser
        .js(&format!(
            "return page.view.remote.orders.some(o => o.unit === '{russian}')"
        ))
        .await;
    assert_eq!(ordered, Value::Bool(false));

    // Junk from a page, under its seat's seal, is refused with a reason; the host goes on.
    browser.js("link.ask({do: 'launch'}); return true").await;
    browser
        .wait(
            &served,
            "junk is refused",
            "return $('toast').textContent.includes('not understood')",
        )
        .await;
    browser
        .js("link.client.publish('vedette/demo/in', new Uint8Array([0, 159, 255, 1])); return true")
        .await;

    // The host moves the unit (the demo does, on its turn): the order is matched with it.
    browser
        .wait(
            &served,
            "the unit is placed and matched with its order",
            &format!("const o = page.view.remote.orders.find(o => o.unit === '{unit}'); return !!o && o.placed !== null"),
        )
        .await;
    let placed = browser
        .js(&format!(
            "return page.view.remote.orders.find(o => o.unit === '{unit}')"
        ))
        .await;
    assert_eq!(placed["as_ordered"], Value::Bool(true), "{placed}");
    assert!(
        placed["placed"]
            .as_str()
            .is_some_and(|w| w.starts_with("placed as ordered (")),
        "{placed}"
    );
    browser.screenshot("remote-order.png").await;

    // The game's timeline, read over the broker.
    let timeline = browser
        .js("return link.timeline(null).then(r => r.json ? r.json.moves.length : r.text)")
        .await;
    assert!(timeline.as_u64().is_some_and(|n| n > 0), "{timeline}");
    // Two timeline questions at once (the page's own refresh and a player's): each gets its own
    // answer, or its own refusal when the seat asked too often, never the other's.
    let both = browser
        .js(
            "return Promise.all([link.timeline(1e13), link.timeline(null)])\
             .then(rs => rs.map(r => r.json ? r.json.moves.length : r.text))",
        )
        .await;
    let refused = |v: &Value| v.as_str().is_some_and(|t| t.contains("too many"));
    assert!(both[0] == 0 || refused(&both[0]), "{both}");
    assert!(
        both[1].as_u64().is_some_and(|n| n > 0) || refused(&both[1]),
        "{both}"
    );
    assert!(
        !served.log().contains("panicked"),
        "the host panicked:\n{}",
        served.log()
    );
    browser.close().await;
}

/// A page in the room, over the table's own WebSocket: what it is sent, kept.
struct RoomPage {
    heard: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl RoomPage {
    async fn open(link: &str) -> RoomPage {
        let url = format!("{}ws", link.replacen("http://", "ws://", 1));
        let (mut page, _) = connect_async(url).await.expect("the room's page connects");
        let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = heard.clone();
        tokio::spawn(async move {
            while let Some(Ok(message)) = page.next().await {
                if let (Message::Text(text), Ok(mut heard)) = (message, kept.lock()) {
                    heard.push(text.to_string());
                }
            }
        });
        RoomPage { heard }
    }

    /// Whether it is sent `text` within a while.
    async fn sees(&self, text: &str) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            let seen = self
                .heard
                .lock()
                .is_ok_and(|h| h.iter().any(|m| m.contains(text)));
            if seen {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        false
    }
}

#[tokio::test]
async fn the_broker_killed_and_started_again_mid_game_is_survived_at_both_ends() {
    let mut club = Club::open("outage");
    let served = serve(&club);
    let browser = Browser::open(LAPTOP).await;
    browser.show(&served.link("remote russian")).await;
    browser.click("point").await;
    browser.tap_plan([20.0, 20.0]).await;
    browser
        .until(
            "the pointer is drawn",
            "return page.view.remote.pointers.length > 0",
        )
        .await;

    club.broker.stop();
    browser
        .until(
            "the page says the broker is lost",
            "return !$('banner').hidden && $('banner').textContent.includes('broker')",
        )
        .await;
    // The table goes on for the room meanwhile.
    let room = RoomPage::open(&served.link("table")).await;
    assert!(room.sees("\"type\":\"patch\"").await);
    // An order given while the broker is away waits, and goes when it is back.
    let unit = browser
        .js("const [id, u] = Object.entries(page.view.units).find(([, u]) => u.side === 'russian'); \
             const a = u.facing * Math.PI / 180; \
             link.order(id, [u.leader[0] + Math.cos(a), u.leader[1] + Math.sin(a)], u.facing); return id")
        .await;
    let unit = unit.as_str().expect("a Russian unit").to_owned();

    club.restart();
    browser
        .until(
            "the page is back",
            "return $('banner').hidden && link.client.connected",
        )
        .await;
    let seq = browser
        .js("return page.seq")
        .await
        .as_u64()
        .expect("a number");
    browser
        .until(
            "the table is live on the page again",
            &format!("return page.seq > {seq} + 5"),
        )
        .await;
    browser
        .until(
            "the order given while the broker was away reaches the table",
            &format!("return page.view.remote.orders.some(o => o.unit === '{unit}') && link.pending.size === 0"),
        )
        .await;
    assert!(!served.log().contains("panicked"), "{}", served.log());
    browser.close().await;
}

#[test]
fn the_remote_bench_prints_every_figure_it_names() {
    let run = common::vedette(&["bench", "remote", "--seconds", "8", "--pages", "1"]);
    let printed = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{printed}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for figure in [
        "the broker's own 200-byte message",
        "a state from the host's feed to the remote page: median",
        "pictures at the page:",
        "an order from the page to the host's desk",
        "orders matched with their units' moves:",
        "the host's pipeline:",
    ] {
        assert!(printed.contains(figure), "no {figure:?} in:\n{printed}");
    }
    // States reached the page, and were timed.
    let states = printed
        .lines()
        .find(|l| l.contains("a state from the host's feed"))
        .and_then(|l| {
            l.split(" measured)")
                .next()?
                .rsplit('(')
                .next()?
                .parse::<u32>()
                .ok()
        });
    assert!(states.is_some_and(|n| n > 10), "{printed}");
}
