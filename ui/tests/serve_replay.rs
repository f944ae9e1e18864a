//! Looking back at a recorded game from the table's page: `vedette serve` on the demo table,
//! recording into a file of the test's, answers the game's timeline, the table at any moment and
//! the pictures kept — to both links, and to nothing else — and the page in a real chromium steps
//! back a move, says so, draws the unit where it stood, and follows the live table again on
//! ● Live, while another page stays live throughout.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::browser::{Browser, Setup};
use common::served::Served;
use fantoccini::Locator;
use serde_json::{Value, json};

/// Long enough for a debug build on a busy two-core machine: the demo's first moves come after
/// about 25 s of its own time, and its frames are slower to make than to show.
const PATIENCE: Duration = Duration::from_secs(240);

/// A fresh file to record a game into (a record is never written over).
fn game_file(name: &str) -> PathBuf {
    let path = common::scratch("serve-replay").join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn serve(port: u16, record: Option<&std::path::Path>) -> Served {
    let listen = format!("127.0.0.1:{port}");
    let recording = record.map(|p| p.display().to_string());
    let mut args = vec![
        "serve",
        "--demo",
        "--listen",
        &listen,
        "--token",
        "players-link",
        "--umpire-token",
        "umpires-link",
    ];
    match &recording {
        Some(path) => args.extend(["--record", path.as_str()]),
        None => args.push("--no-record"),
    }
    Served::start(&args, &["table", "umpire"])
}

/// An answer over HTTP: its status, content type and body.
struct Answer {
    status: u16,
    kind: String,
    body: Vec<u8>,
}

impl Answer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// `GET path` from the server at `authority`, as a page asks it.
async fn get(authority: &str, path: &str) -> Answer {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(authority)
        .await
        .expect("tcp");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("headers");
    let head = String::from_utf8_lossy(&response[..split]).to_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let kind = head
        .lines()
        .find_map(|l| l.strip_prefix("content-type:"))
        .unwrap_or_default()
        .trim()
        .to_owned();
    let mut body = response[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        body = unchunk(&body);
    }
    Answer { status, kind, body }
}

fn unchunk(mut data: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(end) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..end]).trim(), 16)
            .expect("a chunk's size");
        if size == 0 {
            break;
        }
        body.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[end + 2 + size + 2..];
    }
    body
}

/// The game's timeline once it lists a move.
async fn timeline_with_moves(authority: &str) -> Value {
    let start = Instant::now();
    loop {
        let answer = get(authority, "/t/players-link/record/timeline").await;
        if answer.status == 200 {
            let timeline = answer.json();
            if timeline["moves"].as_array().is_some_and(|m| !m.is_empty()) {
                return timeline;
            }
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the timeline never listed a move: {} {}",
            answer.status,
            answer.text()
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

fn point(value: &Value) -> [f64; 2] {
    let number = |v: &Value| v.as_f64().expect("a number");
    [number(&value[0]), number(&value[1])]
}

fn apart(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

#[tokio::test]
async fn a_recorded_game_answers_its_timeline_its_moments_and_its_pictures() {
    let file = game_file("http.sqlite");
    let server = serve(0, Some(&file));
    let authority = server.authority();
    let timeline = timeline_with_moves(&authority).await;
    // The file's name, no folder: http.sqlite, or http-2.sqlite … once the demo has looped
    // into a new game (a slow machine may take that long to list a move).
    let name = timeline["file"].as_str().unwrap_or_default();
    assert!(
        name.starts_with("http") && name.ends_with(".sqlite") && !name.contains('/'),
        "{name}"
    );
    assert!(
        !timeline
            .to_string()
            .contains(&*std::env::temp_dir().to_string_lossy()),
        "the timeline names a folder of the machine"
    );
    let moves = timeline["moves"].as_array().expect("moves");
    for made in moves {
        assert!(made["unit"].as_str().is_some_and(|u| !u.is_empty()));
        assert!(made["name"].as_str().is_some_and(|n| !n.is_empty()));
        assert!(
            ["slid", "carried", "under a hand"].contains(&made["how"].as_str().unwrap_or("")),
            "{made}"
        );
    }
    let first = &moves[0];
    let at = first["at_ms"].as_u64().expect("when it ended");
    let until = timeline["until_ms"].as_u64().expect("until");
    let start = timeline["start_ms"]
        .as_u64()
        .expect("when the table was first seen");
    assert!(start < at && at <= until, "{start} {at} {until}");
    assert!(
        timeline["keyframes"]
            .as_array()
            .is_some_and(|k| !k.is_empty())
    );

    // Just before the move ended the unit stood where it came from; when it ended, where it
    // went. Both links may look back.
    let unit = first["unit"].as_str().expect("a unit");
    let mut seen = Vec::new();
    for (token, moment) in [("players-link", at - 1), ("umpires-link", at)] {
        let answer = get(&authority, &format!("/t/{token}/record/at?t={moment}")).await;
        assert_eq!(answer.status, 200, "{}", answer.text());
        let message = answer.json();
        assert_eq!(message["type"], "full");
        assert_eq!(message["at_ms"].as_u64(), Some(moment));
        assert_eq!(message["view"]["table"]["name"], "Demo table: Crimea River");
        assert!(
            message["view"]["rulings"]
                .as_object()
                .is_some_and(|r| !r.is_empty()),
            "the moment's rulings"
        );
        assert!(message["view"]["camera"].is_object(), "the moment's camera");
        assert!(message["picture_ms"].is_u64());
        seen.push(point(&message["view"]["units"][unit]["leader"]));
    }
    let (from, to) = (
        point(&first["from"]["leader"]),
        point(&first["to"]["leader"]),
    );
    assert!(
        apart(seen[0], from) < 0.5,
        "before: {:?}, from {from:?}",
        seen[0]
    );
    assert!(apart(seen[1], to) < 0.5, "after: {:?}, to {to:?}", seen[1]);
    assert!(
        apart(seen[0], seen[1]) > 1.0,
        "{unit} did not move: {seen:?}"
    );

    // Before the camera first saw the table, the page is shown the first moment it did.
    let beginning = get(&authority, "/t/players-link/record/at?t=0")
        .await
        .json();
    assert_eq!(beginning["at_ms"].as_u64(), Some(start));

    // The picture kept nearest a moment, as JPEG.
    let picture = get(
        &authority,
        &format!("/t/players-link/record/picture?t={at}"),
    )
    .await;
    assert_eq!((picture.status, picture.kind.as_str()), (200, "image/jpeg"));
    let decoded = image::load_from_memory(&picture.body).expect("a JPEG");
    assert!(decoded.width() >= 640, "{}", decoded.width());

    // What came after a moment only, for a page that holds the rest.
    let since = get(
        &authority,
        &format!("/t/players-link/record/timeline?since={until}"),
    )
    .await
    .json();
    assert_eq!(since["since_ms"].as_u64(), Some(until));
    assert!(
        since["moves"]
            .as_array()
            .is_some_and(|m| m.iter().all(|m| m["at_ms"].as_u64() > Some(until)))
    );

    // A moment that is not one is refused by name; a wrong token as every wrong token is.
    for (query, named) in [
        ("t=soon", "t=\"soon\""),
        ("t=-5", "t=\"-5\""),
        ("t=1.5", "t=\"1.5\""),
        ("", "t=milliseconds"),
    ] {
        for route in ["at", "picture"] {
            let answer = get(
                &authority,
                &format!("/t/players-link/record/{route}?{query}"),
            )
            .await;
            assert_eq!(answer.status, 400, "{route}?{query}: {}", answer.text());
            assert!(answer.text().contains(named), "{}", answer.text());
        }
    }
    let refused = get(&authority, "/t/players-link/record/timeline?since=never").await;
    assert_eq!(refused.status, 400);
    for route in ["timeline", "at?t=0", "picture?t=0"] {
        let answer = get(&authority, &format!("/t/someone-elses/record/{route}")).await;
        assert_eq!(answer.status, 404, "{route}");
        assert!(answer.text().contains("not a table's link"));
    }
}

#[tokio::test]
async fn a_table_whose_game_is_not_recorded_says_so() {
    let server = serve(0, None);
    let authority = server.authority();
    // Once the table is served (its first view made), and after.
    let start = Instant::now();
    loop {
        let answer = get(&authority, "/t/players-link/record/timeline").await;
        assert_eq!(answer.status, 404);
        assert!(answer.text().contains("not recorded"), "{}", answer.text());
        if get(&authority, "/t/players-link/frame.jpg").await.status == 200 {
            break;
        }
        assert!(start.elapsed() < PATIENCE, "the table was never served");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    for route in ["timeline", "at?t=1000", "picture?t=1000"] {
        let answer = get(&authority, &format!("/t/umpires-link/record/{route}")).await;
        assert_eq!(answer.status, 404, "{route}");
        assert!(answer.text().contains("not recorded"), "{}", answer.text());
    }
}

/// A laptop's window.
const WINDOW: Setup = Setup {
    width: 1366,
    height: 768,
    emulated: false,
    patience: PATIENCE,
    docs: false,
};

/// What this test asks of the table's page.
impl Browser {
    /// Click `#id` as a hand would, once in the middle of the window (the page's bar stays at
    /// its top, over whatever the page was scrolled to).
    async fn click(&self, id: &str) {
        self.js(&format!(
            "document.getElementById('{id}').scrollIntoView({{block: 'center'}})"
        ))
        .await;
        self.client
            .find(Locator::Id(id))
            .await
            .unwrap_or_else(|e| panic!("#{id}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("clicking #{id}: {e}"));
    }

    /// Where the plan draws `unit`'s leader, table inches.
    async fn drawn_leader(&self, unit: &str) -> [f64; 2] {
        let leader = self
            .js(&format!(
                "const g = document.querySelector('#plan g.unit[data-id=\"{unit}\"]'); \
                 return g ? g.dataset.leader.split(',').map(Number) : null"
            ))
            .await;
        point(&leader)
    }
}

const SHOWN: &str = "return document.querySelectorAll('#plan g.unit').length >= 10 \
     && !document.getElementById('timeline').hidden \
     && Number(document.getElementById('timeline').dataset.moves) > 0";

const LIVE: &str = "return document.getElementById('timeline').dataset.moment === 'live' \
     && document.getElementById('status').className === 'live'";

#[tokio::test]
async fn a_page_steps_back_a_move_and_comes_back_live_while_another_stays_live() {
    let file = game_file("browser.sqlite");
    let server = serve(0, Some(&file));
    timeline_with_moves(&server.authority()).await;
    let looking = Browser::open(WINDOW).await;
    let staying = Browser::open(WINDOW).await;
    for browser in [&looking, &staying] {
        browser
            .client
            .goto(&server.link("table"))
            .await
            .expect("the page opens");
        browser
            .until("the plan and the timeline with its moves", SHOWN)
            .await;
    }

    // ◀ move: just before the last move the page knows of, that move's unit where it stood.
    let last = looking
        .js("const m = past.timeline.moves; return m[m.length - 1]")
        .await;
    let unit = last["unit"].as_str().expect("a unit").to_owned();
    let moment = last["at_ms"].as_u64().expect("when") - 1;
    looking.click("tl-move-back").await;
    looking
        .until(
            "the page looks back at the moment before the move",
            &format!("return document.getElementById('timeline').dataset.moment === '{moment}'"),
        )
        .await;
    let status = looking
        .js("return document.getElementById('status').textContent")
        .await;
    let status = status.as_str().expect("a status");
    assert!(
        status.starts_with("at 0:") && status.ends_with("— looking back; live game goes on"),
        "{status}"
    );
    let drawn = looking.drawn_leader(&unit).await;
    let from = point(&last["from"]["leader"]);
    assert!(
        apart(drawn, from) < 0.5,
        "{unit} drawn at {drawn:?}, it stood at {from:?}"
    );
    // The umpire's tools are not for a moment of the past (this page has none shown anyway).
    assert_eq!(
        looking
            .js("return document.getElementById('mark-turn').disabled")
            .await,
        Value::Bool(true)
    );

    // The live table goes on arriving, and is not drawn.
    let seq = looking.js("return page.seq").await.as_u64().expect("seq");
    looking
        .until(
            "live updates still arriving",
            &format!("return page.seq > {seq}"),
        )
        .await;
    assert_eq!(
        looking
            .js("return document.getElementById('timeline').dataset.moment")
            .await,
        json!(moment.to_string())
    );
    assert!(apart(looking.drawn_leader(&unit).await, from) < 0.5);
    looking.screenshot("web-looking-back.png").await;

    // The camera shows the picture kept nearest the moment.
    looking.click("show-video").await;
    looking
        .until(
            "the kept picture shown",
            "const img = document.getElementById('video'); \
             return img.src.includes('/record/picture?t=') && img.naturalWidth > 0",
        )
        .await;
    looking.screenshot("web-looking-back-camera.png").await;
    looking.click("show-plan").await;

    // The other page never left the live table. It draws the live table's newest state: the
    // demo goes on meanwhile, and a page draws a state it was sent on its next animation
    // frame, so the two are compared in the page until they agree (read one after the other,
    // a state arriving between the reads failed the comparison now and then).
    assert_eq!(staying.js(LIVE).await, Value::Bool(true));
    staying
        .until(
            "the staying page draws the live table's leader",
            &format!(
                "const g = document.querySelector('#plan g.unit[data-id=\"{unit}\"]'); \
                 const live = page.live.units['{unit}'].leader; \
                 if (!g) return false; \
                 const [x, y] = g.dataset.leader.split(',').map(Number); \
                 return Math.hypot(x - live[0], y - live[1]) < 1e-6"
            ),
        )
        .await;

    // ● Live: the page follows the live table again.
    looking.click("tl-live").await;
    looking.until("the page is live again", LIVE).await;
    looking
        .until(
            "the plan draws the live table",
            &format!(
                "const g = document.querySelector('#plan g.unit[data-id=\"{unit}\"]'); \
                 return page.view === page.live && g.dataset.leader === page.live.units['{unit}'].leader.join(',')"
            ),
        )
        .await;
    assert_eq!(
        looking
            .js("return document.getElementById('mark-turn').disabled")
            .await,
        Value::Bool(false)
    );

    // The hall's link (`#replay`) opens the page looking back from the game's beginning.
    let start = staying.js("return past.timeline.start_ms").await;
    staying
        .client
        .goto(&format!("{}#replay", server.link("table")))
        .await
        .expect("the page opens");
    staying
        .until(
            "the page looks back from the beginning",
            &format!(
                "return document.getElementById('timeline').dataset.moment === '{start}' \
                 && document.querySelectorAll('#plan g.unit').length >= 10"
            ),
        )
        .await;
    looking.close().await;
    staying.close().await;
}
