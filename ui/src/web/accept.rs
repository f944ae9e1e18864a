//! Taking connections in: each is served with HTTP/1 (WebSockets upgraded from it) by hyper, with
//! a deadline on every request's head, and no address — nor all of them together — may hold more
//! than a few of the server's connections. What is refused or cut is logged, sparingly.
//!
//! Decisions:
//! - The request head's deadline is also the idle timeout: hyper starts its header timer as soon
//!   as a connection may send a request — when it opens, and again when an answer has gone on a
//!   kept-alive one (`poll_read_head` in hyper's `proto/h1/conn.rs`) — so a connection that
//!   sends nothing, or half a request, is closed after [`HEADER_TIMEOUT`]. Once a connection is
//!   upgraded to a WebSocket hyper lets go of it, and no timer of hyper's applies: the page's
//!   socket keeps its own rules (pinged, let go when it stops reading; `serve::socket`).
//! - A connection is counted against its address from accepting it until its socket closes —
//!   through a WebSocket's whole life, as the count travels with the socket into the upgrade.
//!   The address is the peer's whole address: phones on one network share an IPv6 prefix, so a
//!   prefix is not one visitor. The cap over all addresses bounds the rest.
//! - Over a cap, a connection is closed as soon as it is accepted, before anything is read.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use super::Refusals;

/// How long a connection may take to send a request's head (its request line and headers), from
/// opening or from its last answer. A page sends its requests whole, at once: 10 s leaves room
/// for a phone on a poor network, and a browser opens a new connection when the server has closed
/// an idle one. Silent connections are let go before many can pile up.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Most connections open at once from one address. A page holds one WebSocket and, for moments,
/// up to six more (a browser's limit for one server) for its scripts, pictures and the record:
/// 32 lets one phone or laptop keep several pages of the table open, and leaves one address a
/// small part of [`MOST_CONNECTIONS`].
pub const MOST_FROM_ONE_ADDRESS: usize = 32;

/// Most connections open at once in all. Far more than a table's pages need (200 by default,
/// with the umpire's), and under a common limit of 1,024 open files once the server's own (its
/// record, camera, log, broker) are left room: beyond it connections are refused, not failed.
pub const MOST_CONNECTIONS: usize = 900;

/// How long the loop rests after failing to accept (out of open files, say): the failure lasts
/// until a connection closes, and retrying at once would only spin.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// Serve `app` on `listener` until the runtime stops: every connection as the module says,
/// each request told its peer's address (`ConnectInfo<SocketAddr>`).
pub async fn serve(listener: TcpListener, app: Router, what: &'static str) {
    let open = Arc::new(Open::default());
    let refusals = Arc::new(Refusals::default());
    let failures = Refusals::default();
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // The connection went before it was accepted: nothing is wrong with the server.
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                failures.note(&format!("{what} cannot accept connections: {e}"));
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        let counted = match Open::admit(&open, peer.ip()) {
            Ok(counted) => counted,
            Err(cap) => {
                refusals.log(peer, &cap.refused());
                drop(stream);
                continue;
            }
        };
        tokio::spawn(connection(
            stream,
            counted,
            peer,
            app.clone(),
            refusals.clone(),
        ));
    }
}

/// Serve one connection until it closes (or, upgraded, until hyper has handed it over).
async fn connection(
    stream: TcpStream,
    counted: Counted,
    peer: SocketAddr,
    app: Router,
    refusals: Arc<Refusals>,
) {
    let read = counted.read.clone();
    // The bytes read when the last request's head was whole: more since, and the connection
    // was sending a request when its time ran out.
    let read_by_last_request = Arc::new(AtomicU64::new(0));
    let heads = read_by_last_request.clone();
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        heads.store(read.load(Ordering::Relaxed), Ordering::Relaxed);
        request.extensions_mut().insert(ConnectInfo(peer));
        app.clone().oneshot(request)
    });
    let read = counted.read.clone();
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(TokioIo::new(CountedStream { stream, counted }), service)
        .with_upgrades()
        .await;
    match served {
        Ok(()) => {}
        Err(e) if e.is_timeout() => {
            if read.load(Ordering::Relaxed) > read_by_last_request.load(Ordering::Relaxed) {
                let what = format!(
                    "a request whose head took over {} s (its connection is closed)",
                    HEADER_TIMEOUT.as_secs()
                );
                refusals.log(peer, &what);
            } else {
                tracing::debug!("closed an idle connection from {peer}");
            }
        }
        Err(e) => tracing::debug!("a connection from {peer} ended: {e}"),
    }
}

/// Errors of one connection rather than of the listener (as hyper's and axum's servers tell them).
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Which cap a connection met.
#[derive(Debug)]
enum Cap {
    OneAddress,
    All,
}

impl Cap {
    /// What was refused, as the log says it.
    fn refused(&self) -> String {
        match self {
            Cap::OneAddress => {
                format!("a connection: {MOST_FROM_ONE_ADDRESS} from its address are open already")
            }
            Cap::All => format!("a connection: {MOST_CONNECTIONS} are open already"),
        }
    }
}

/// The connections open now: in all, and from each address.
#[derive(Debug, Default)]
struct Open(Mutex<Counts>);

#[derive(Debug, Default)]
struct Counts {
    all: usize,
    by_address: HashMap<IpAddr, usize>,
}

impl Open {
    /// Count a connection from `address`, if no cap is met.
    fn admit(open: &Arc<Open>, address: IpAddr) -> Result<Counted, Cap> {
        // A poisoned count is still a count: nothing that panics holds it half-changed.
        let mut counts = open.0.lock().unwrap_or_else(|e| e.into_inner());
        if counts.all >= MOST_CONNECTIONS {
            return Err(Cap::All);
        }
        let from = counts.by_address.entry(address).or_default();
        if *from >= MOST_FROM_ONE_ADDRESS {
            return Err(Cap::OneAddress);
        }
        *from += 1;
        counts.all += 1;
        Ok(Counted {
            open: open.clone(),
            address,
            read: Arc::default(),
        })
    }
}

/// A connection's place in the count, given back when it is dropped; and the bytes it has read.
struct Counted {
    open: Arc<Open>,
    address: IpAddr,
    read: Arc<AtomicU64>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut counts = self.open.0.lock().unwrap_or_else(|e| e.into_inner());
        counts.all = counts.all.saturating_sub(1);
        if let Some(from) = counts.by_address.get_mut(&self.address) {
            *from = from.saturating_sub(1);
            if *from == 0 {
                counts.by_address.remove(&self.address);
            }
        }
    }
}

/// A connection's socket, carrying its place in the count wherever it goes: into hyper, and into
/// a WebSocket when it is upgraded.
struct CountedStream {
    stream: TcpStream,
    counted: Counted,
}

impl AsyncRead for CountedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        let read = (buf.filled().len() - before) as u64;
        self.counted.read.fetch_add(read, Ordering::Relaxed);
        polled
    }
}

impl AsyncWrite for CountedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_capped_and_its_places_come_back_when_its_connections_close() {
        let open = Arc::new(Open::default());
        let one = IpAddr::from([10, 0, 0, 1]);
        let other = IpAddr::from([10, 0, 0, 2]);
        let held: Vec<Counted> = (0..MOST_FROM_ONE_ADDRESS)
            .map(|_| Open::admit(&open, one).expect("room"))
            .collect();
        assert!(matches!(Open::admit(&open, one), Err(Cap::OneAddress)));
        let another = Open::admit(&open, other).expect("another address has room");
        drop(held);
        drop(another);
        let counts = open.0.lock().expect("a count");
        assert_eq!((counts.all, counts.by_address.len()), (0, 0));
        drop(counts);
        assert!(Open::admit(&open, one).is_ok());
    }

    #[test]
    fn all_connections_together_are_capped() {
        let open = Arc::new(Open::default());
        let held: Vec<Counted> = (0..MOST_CONNECTIONS)
            .map(|i| {
                let address = IpAddr::from([10, 1, (i / 256) as u8, (i % 256) as u8]);
                Open::admit(&open, address).expect("room")
            })
            .collect();
        let newcomer = IpAddr::from([10, 2, 0, 1]);
        assert!(matches!(Open::admit(&open, newcomer), Err(Cap::All)));
        drop(held);
        assert!(Open::admit(&open, newcomer).is_ok());
    }
}
