//! `vedette serve` against connections meant to exhaust it (issue 61): a flood of silent
//! connections from one address, a request sent by halves and never finished, and one link's
//! pages filling every slot. The table's pages must keep loading, and what was refused is logged.

mod common;

use std::io::Read;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use common::browser::{Browser, Setup};
use common::served::{serve, ws_url};
use futures_util::StreamExt;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};
use vedette_ui::web::{HEADER_TIMEOUT, MOST_FROM_ONE_ADDRESS};

type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Long enough for a debug build on a busy two-core machine to start, render and rule a frame,
/// and for chromium to start under chromedriver.
const PATIENCE: Duration = Duration::from_secs(90);

/// The silent connections of the flood: more than a server with the common limit of 1,024 open
/// files could hold.
const FLOOD: usize = 1_100;

/// Pages the umpire's link may connect whatever the viewers' link has (`UMPIRE_PAGES` in
/// `ui/src/serve/shared.rs`).
const UMPIRE_PAGES: usize = 8;

/// The next JSON message of `kind`, skipping pings and other kinds.
async fn next_of(socket: &mut Socket, kind: &str) -> Value {
    let found = tokio::time::timeout(PATIENCE, async {
        while let Some(message) = socket.next().await {
            let Ok(Message::Text(text)) = message else {
                continue;
            };
            let value: Value = serde_json::from_str(&text).expect("the server sends JSON");
            if value["type"] == kind {
                return Some(value);
            }
        }
        None
    })
    .await;
    found
        .expect("a message in time")
        .unwrap_or_else(|| panic!("the socket closed before a {kind:?} message"))
}

/// This process's limit of open files (its soft limit), from `/proc/self/limits`.
fn open_files_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// A TCP connection to `server` from `from` (any address of the loopback, 127/8, on Linux),
/// as a plain non-blocking socket: reading it never waits.
async fn connect_from(from: Ipv4Addr, server: SocketAddr) -> std::io::Result<std::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((from, 0)))?;
    let stream = socket.connect(server).await?;
    stream.into_std()
}

/// Whether the server has closed `stream` (it reads the end, or a reset).
fn closed(mut stream: &std::net::TcpStream) -> bool {
    let mut byte = [0u8; 1];
    match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    }
}

const UNITS_DRAWN: &str = "return document.querySelectorAll('#plan g.unit').length >= 10";

#[tokio::test]
async fn a_flood_of_silent_connections_from_one_address_is_capped_and_pages_still_load() {
    let needed = FLOOD as u64 + 200;
    match open_files_limit() {
        Some(limit) if limit >= needed => {}
        limit => {
            eprintln!(
                "skipped: this test opens {FLOOD} connections and may open {limit:?} files; \
                 raise `ulimit -n` to {needed} or more to run it"
            );
            return;
        }
    }
    let server = serve(&[]);
    let address: SocketAddr = server.authority().parse().expect("host:port");
    let flooder = Ipv4Addr::new(127, 0, 0, 2);
    if let Err(e) = connect_from(flooder, address).await {
        eprintln!("skipped: cannot connect from {flooder} on this machine's loopback: {e}");
        return;
    }
    let browser = Browser::open(Setup {
        width: 1024,
        height: 768,
        emulated: false,
        patience: PATIENCE,
        docs: false,
    })
    .await;
    // Silent connections from one address: each sends nothing and is never closed by its end.
    let mut flood = Vec::with_capacity(FLOOD);
    for _ in 0..FLOOD {
        flood.push(
            connect_from(flooder, address)
                .await
                .expect("the flood connects"),
        );
    }
    // All but a few are closed at once, and the cap is logged.
    server.wait_for_log("from its address are open already", PATIENCE);
    let start = Instant::now();
    let mut shut = 0;
    while shut < FLOOD - MOST_FROM_ONE_ADDRESS {
        assert!(
            start.elapsed() < PATIENCE,
            "{shut} of the {FLOOD} silent connections closed; its log:\n{}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
        shut = flood.iter().filter(|s| closed(s)).count();
    }
    // A page from another address loads, its socket connects and it draws the table.
    browser
        .client
        .goto(&server.link("table"))
        .await
        .expect("the page opens");
    browser.until("the units are drawn", UNITS_DRAWN).await;
    let log = server.log();
    assert!(
        log.contains(&format!(
            "refused a connection: {MOST_FROM_ONE_ADDRESS} from its address are open already from {flooder}:"
        )),
        "{log}"
    );
    drop(flood);
    browser.close().await;
}

#[tokio::test]
async fn a_half_sent_request_and_an_idle_connection_are_closed_but_a_quiet_page_is_not() {
    let server = serve(&[]);
    let authority = server.authority();
    // A page that says nothing: its socket must outlive the header timeout.
    let (mut page, _) = connect_async(ws_url(&server.link("table")))
        .await
        .expect("the page connects");
    next_of(&mut page, "hello").await;
    let opened = Instant::now();
    // A request's head begun and never finished.
    let mut half = tokio::net::TcpStream::connect(&authority)
        .await
        .expect("tcp");
    half.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("sent");
    // A connection kept alive after its answer, and left idle.
    let mut idle = tokio::net::TcpStream::connect(&authority)
        .await
        .expect("tcp");
    idle.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("sent");
    let mut answer = [0u8; 512];
    let n = tokio::time::timeout(PATIENCE, idle.read(&mut answer))
        .await
        .expect("an answer in time")
        .expect("read");
    assert!(answer[..n].starts_with(b"HTTP/1.1 200"), "{n} bytes");
    // Both are closed once the header timeout has passed (and not long after).
    let limit = HEADER_TIMEOUT * 3;
    for (what, stream) in [("half-sent", &mut half), ("idle", &mut idle)] {
        let ended = tokio::time::timeout(limit, async {
            let mut rest = Vec::new();
            let _ = stream.read_to_end(&mut rest).await;
        })
        .await;
        assert!(
            ended.is_ok(),
            "the {what} connection is still open after {limit:?}"
        );
    }
    let took = opened.elapsed();
    assert!(
        took + Duration::from_secs(1) >= HEADER_TIMEOUT,
        "closed after {took:?}, before the header timeout"
    );
    let refusal = format!(
        "a request whose head took over {} s",
        HEADER_TIMEOUT.as_secs()
    );
    server.wait_for_log(&refusal, PATIENCE);
    // The quiet page is still served: updates (or the server's pings) keep coming.
    let alive = tokio::time::timeout(PATIENCE, async {
        loop {
            match page.next().await {
                Some(Ok(Message::Text(_) | Message::Ping(_))) => return true,
                Some(Ok(Message::Close(_)) | Err(_)) | None => return false,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert_eq!(
        alive,
        Ok(true),
        "the page's socket was closed after {:?}; the log:\n{}",
        opened.elapsed(),
        server.log()
    );
}

#[tokio::test]
async fn the_umpires_link_connects_however_many_viewers_fill_theirs() {
    let server = serve(&["--max-viewers", "3"]);
    let (viewers, umpires) = (
        ws_url(&server.link("table")),
        ws_url(&server.link("umpire")),
    );
    let mut pages = Vec::new();
    for _ in 0..3 {
        let (mut page, _) = connect_async(&viewers).await.expect("a viewer connects");
        assert_eq!(next_of(&mut page, "hello").await["role"], "viewer");
        pages.push(page);
    }
    let refused = |result: Result<_, tungstenite::Error>| match result {
        Err(tungstenite::Error::Http(response)) => response.status().as_u16() == 503,
        _ => false,
    };
    assert!(refused(connect_async(&viewers).await.map(|_| ())));
    server.wait_for_log("refused a page: 3 are connected already", PATIENCE);
    // The umpire's link has slots of its own: all of them connect, and then no more.
    let mut umpire_pages = Vec::new();
    for _ in 0..UMPIRE_PAGES {
        let (mut page, _) = connect_async(&umpires)
            .await
            .expect("the umpire's page connects with every viewer's slot taken");
        assert_eq!(next_of(&mut page, "hello").await["role"], "umpire");
        umpire_pages.push(page);
    }
    assert!(refused(connect_async(&umpires).await.map(|_| ())));
    // The viewers' link is still full: the umpire's pages took none of its slots, nor it theirs.
    assert!(refused(connect_async(&viewers).await.map(|_| ())));
    // When a viewer leaves, a viewer may come.
    drop(pages.pop());
    let again = tokio::time::timeout(PATIENCE, async {
        loop {
            if let Ok((socket, _)) = connect_async(&viewers).await {
                return socket;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(again.is_ok(), "no room made when a viewer left");
}
