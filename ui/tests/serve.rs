//! `vedette serve` as a network sees it: pages get the table and its changes, the umpire's link
//! acts, and hostile input — wrong tokens, junk and oversized messages, a flood of connections —
//! is refused with a log line while the table keeps being served.

mod common;

use std::time::Duration;

use common::served::{serve, ws_url};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Long enough for a debug build on a busy two-core machine to render and rule a frame.
const PATIENCE: Duration = Duration::from_secs(90);

async fn open(link: &str) -> Socket {
    let (socket, _) = connect_async(ws_url(link))
        .await
        .expect("the page connects");
    socket
}

/// The next JSON message of `kind` (`None`: any), skipping pings.
async fn next_of(socket: &mut Socket, kind: Option<&str>) -> Value {
    let found = tokio::time::timeout(PATIENCE, async {
        while let Some(message) = socket.next().await {
            let Ok(Message::Text(text)) = message else {
                continue;
            };
            let value: Value = serde_json::from_str(&text).expect("the server sends JSON");
            if kind.is_none_or(|k| value["type"] == k) {
                return Some(value);
            }
        }
        None
    })
    .await;
    found
        .expect("a message in time")
        .expect("the connection stays open")
}

async fn ask(socket: &mut Socket, request: Value) -> Value {
    socket
        .send(Message::Text(request.to_string().into()))
        .await
        .expect("sent");
    loop {
        let reply = next_of(socket, None).await;
        if reply["type"] == "said" || reply["type"] == "refused" {
            return reply;
        }
    }
}

#[tokio::test]
async fn a_page_gets_the_whole_table_then_its_changes() {
    let server = serve(&[]);
    let mut page = open(&server.link("table")).await;
    let hello = next_of(&mut page, Some("hello")).await;
    assert_eq!(hello["role"], "viewer");
    let full = next_of(&mut page, Some("full")).await;
    let view = &full["view"];
    assert_eq!(view["table"]["ruleset"], "black-powder");
    assert_eq!(view["table"]["name"], "Demo table: Crimea River");
    let units = view["units"].as_object().expect("units");
    assert!(units.len() >= 10, "{} units", units.len());
    let rulings = view["rulings"].as_object().expect("rulings");
    let said: usize = rulings
        .values()
        .map(|r| r.as_array().map_or(0, Vec::len))
        .sum();
    assert!(said > 50, "{said} rulings");
    // Every ruling reads as the app's: a verdict, a sentence, a rule.
    let first = &rulings.values().find_map(|r| r.get(0)).expect("a ruling");
    assert!(first["explanation"].as_str().is_some_and(|e| e.len() > 10));
    assert!(first["rule"].as_str().is_some_and(|r| !r.is_empty()));
    // The demo's armies advance: a patch of units follows, numbered after the view.
    let seq = full["seq"].as_u64().expect("seq");
    let patch = loop {
        let patch = next_of(&mut page, Some("patch")).await;
        if patch["patch"]["units"]
            .as_object()
            .is_some_and(|u| !u.is_empty())
        {
            break patch;
        }
    };
    assert!(patch["seq"].as_u64().expect("seq") > seq);
    // Nothing in what pages are sent names a file of the machine.
    let sent = full.to_string();
    assert!(
        !sent.contains("samples/") && !sent.contains(".toml"),
        "a path leaked"
    );
}

#[tokio::test]
async fn a_wrong_or_missing_token_is_refused_and_logged() {
    let server = serve(&[]);
    let authority = server.authority();
    for link in [
        format!("http://{authority}/t/not-the-token/"),
        format!("http://{authority}/t//"),
        format!("http://{authority}/"),
    ] {
        assert!(
            connect_async(ws_url(&link)).await.is_err(),
            "{link} opened a socket"
        );
    }
    server.wait_for_log("refused a request with a wrong table token", PATIENCE);
    // The right link still works.
    let mut page = open(&server.link("table")).await;
    next_of(&mut page, Some("full")).await;
}

#[tokio::test]
async fn junk_and_oversized_messages_are_refused_and_the_table_stays_served() {
    let server = serve(&[]);
    let mut page = open(&server.link("table")).await;
    next_of(&mut page, Some("full")).await;
    let reply = ask(&mut page, json!("not a request")).await;
    assert_eq!(reply["type"], "refused");
    page.send(Message::Text("{\"do\": \"launch\"}".into()))
        .await
        .expect("sent");
    // A message over the 4 KiB limit closes that page's connection, and only that one.
    let mut other = open(&server.link("table")).await;
    next_of(&mut other, Some("full")).await;
    let huge = json!({ "do": "save-case", "a": "x", "b": "y", "note": "z".repeat(10_000) });
    let _ = page.send(Message::Text(huge.to_string().into())).await;
    let closed = tokio::time::timeout(PATIENCE, async {
        while let Some(message) = page.next().await {
            if message.is_err() || matches!(message, Ok(Message::Close(_))) {
                return true;
            }
        }
        true
    })
    .await;
    assert_eq!(closed, Ok(true));
    server.wait_for_log("closed the connection of a page", PATIENCE);
    assert_eq!(ask(&mut other, json!({"do": "ping"})).await["text"], "pong");
    // Binary frames are not requests either.
    other
        .send(Message::Binary(vec![0u8; 16].into()))
        .await
        .expect("sent");
    assert_eq!(
        next_of(&mut other, Some("refused")).await["type"],
        "refused"
    );
}

#[tokio::test]
async fn only_the_umpires_link_freezes_marks_turns_and_saves_cases() {
    let cases = common::scratch("serve-cases");
    let cases_arg = cases.display().to_string();
    let server = serve(&["--cases", &cases_arg]);
    let mut viewer = open(&server.link("table")).await;
    next_of(&mut viewer, Some("full")).await;
    let refused = ask(&mut viewer, json!({"do": "freeze"})).await;
    assert_eq!(refused["type"], "refused");
    assert!(
        refused["text"]
            .as_str()
            .is_some_and(|t| t.contains("only the umpire's link"))
    );

    let mut umpire = open(&server.link("umpire")).await;
    assert_eq!(next_of(&mut umpire, Some("hello")).await["role"], "umpire");
    let full = next_of(&mut umpire, Some("full")).await;
    let said = ask(&mut umpire, json!({"do": "freeze"})).await;
    assert_eq!(said["type"], "said", "{said}");
    // Every page is told the view is frozen.
    loop {
        let message = next_of(&mut viewer, None).await;
        let status = match message["type"].as_str() {
            Some("patch") => message["patch"]["status"].clone(),
            Some("full") => message["view"]["status"].clone(),
            _ => continue,
        };
        if status["frozen"] == true {
            break;
        }
    }
    let turn = ask(&mut umpire, json!({"do": "mark-turn"})).await;
    assert!(
        turn["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("turn 1 begins")),
        "{turn}"
    );
    let units: Vec<String> = full["view"]["units"]
        .as_object()
        .expect("units")
        .keys()
        .cloned()
        .collect();
    let case = ask(
        &mut umpire,
        json!({"do": "save-case", "a": units[0], "b": units[1], "note": "who charged whom"}),
    )
    .await;
    let text = case["text"].as_str().expect("a reply");
    assert!(text.starts_with("case saved: case-"), "{case}");
    assert!(!text.contains('/'), "the reply names a folder: {text}");
    let name = text.trim_start_matches("case saved: ");
    let saved = std::fs::read_to_string(cases.join(name)).expect("the case file");
    assert!(saved.contains("who charged whom"));
    let missing = ask(
        &mut umpire,
        json!({"do": "save-case", "a": "nobody", "b": units[1]}),
    )
    .await;
    assert_eq!(missing["type"], "refused");
}

#[tokio::test]
async fn a_flood_of_connections_is_refused_beyond_the_limit() {
    let server = serve(&["--max-viewers", "4"]);
    let link = server.link("table");
    let mut pages = Vec::new();
    let mut refused = 0;
    for _ in 0..10 {
        match connect_async(ws_url(&link)).await {
            Ok((socket, _)) => pages.push(socket),
            Err(_) => refused += 1,
        }
    }
    assert_eq!((pages.len(), refused), (4, 6));
    server.wait_for_log("4 are connected already", PATIENCE);
    // The pages let in are served; when one leaves, another may come.
    next_of(&mut pages[0], Some("full")).await;
    let mut gone = pages.pop().expect("a page");
    gone.close(None).await.expect("closed");
    drop(gone);
    let again = tokio::time::timeout(PATIENCE, async {
        loop {
            if let Ok((socket, _)) = connect_async(ws_url(&link)).await {
                return socket;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(again.is_ok(), "no room made when a page left");
}

#[tokio::test]
async fn the_picture_is_a_jpeg_at_the_width_asked_and_needs_the_token() {
    let server = serve(&[]);
    let mut page = open(&server.link("table")).await;
    // Wait for a view with a picture.
    loop {
        let full = next_of(&mut page, None).await;
        let status = match full["type"].as_str() {
            Some("full") => full["view"]["status"].clone(),
            Some("patch") => full["patch"]["status"].clone(),
            _ => continue,
        };
        if status["picture"] == true {
            break;
        }
    }
    let authority = server.authority();
    let fetch = |path: String| {
        let authority = authority.clone();
        async move {
            let mut stream = tokio::net::TcpStream::connect(&authority)
                .await
                .expect("tcp");
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let request =
                format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n");
            stream.write_all(request.as_bytes()).await.expect("sent");
            let mut response = Vec::new();
            stream.read_to_end(&mut response).await.expect("read");
            response
        }
    };
    let response = fetch("/t/players-link/frame.jpg?w=640".into()).await;
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("headers");
    let head = String::from_utf8_lossy(&response[..split]);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("image/jpeg"), "{head}");
    let picture = image::load_from_memory(&response[split + 4..]).expect("a JPEG");
    assert_eq!(picture.width(), 640);
    let refused = fetch("/t/someone-elses/frame.jpg".into()).await;
    assert!(String::from_utf8_lossy(&refused).starts_with("HTTP/1.1 404"));
}

#[tokio::test]
async fn several_cameras_are_served_as_one_table_and_a_missing_one_is_said() {
    // `vedette serve --cameras`: two rendered webcam pictures of one table, and a third
    // camera whose picture is missing. Pages get one table of every unit, each camera's
    // state, and that the third is out.
    let folder = common::rig::folder("serve-cameras");
    let table = common::rig::table(&folder);
    let server = common::rig::serve_cameras(
        &folder,
        &table,
        &[
            ("west", "west.png"),
            ("east", "east.png"),
            ("north", "north.png"),
        ],
    );
    let mut page = open(&server.link("table")).await;
    let status = tokio::time::timeout(PATIENCE, async {
        loop {
            let full = next_of(&mut page, Some("full")).await;
            let view = &full["view"];
            let units = view["units"].as_object().map_or(0, |u| u.len());
            let status = view["status"].clone();
            let states: Vec<&str> = status["cameras"]
                .as_array()
                .map(|c| c.iter().filter_map(|c| c["state"].as_str()).collect())
                .unwrap_or_default();
            if units == 12 && states == ["live", "live", "waiting"] {
                return status;
            }
            // Ask again, a little later: a page is sent the whole table when it connects.
            tokio::time::sleep(Duration::from_millis(250)).await;
            page = open(&server.link("table")).await;
        }
    })
    .await
    .expect("the table of both live cameras served in time");
    assert_eq!(status["cameras"][2]["name"], "north");
    assert_eq!(status["unseen"].as_array().map(Vec::len), Some(0));
    let _ = std::fs::remove_dir_all(&folder);
}
