//! The web plumbing the table's server and the hall's hub share: a runtime and listener of
//! their own, the connections taken in (timed out and capped), the pages and their assets
//! compiled into the binary, the machine's address for links, QR codes, plain-text answers and
//! the refusals' log, and what the app needs to show a table it shares (its links, its viewers)
//! without knowing the server behind it.
//!
//! Decision: this is the layer below the faces that serve pages. `serve` (one table) and `hub`
//! (a hall of tables) both sit on it and never on each other; the app reaches a server only
//! through [`share::Starter`], which the command line hands it.

mod accept;
pub mod address;
pub mod page;
pub mod qr;
mod respond;
pub mod share;

use std::net::SocketAddr;

pub use accept::{HEADER_TIMEOUT, MOST_CONNECTIONS, MOST_FROM_ONE_ADDRESS};
pub use respond::{Refusals, asset, text};
pub use share::Links;

/// The largest message a page may send, bytes: the umpire's note on a case is the longest.
pub const MAX_MESSAGE: usize = 4096;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address is taken or not ours.
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address.
        address: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The runtime's thread could not start.
    #[error("cannot start the server's thread: {0}")]
    Runtime(std::io::Error),
}

/// A runtime of one worker thread named `name`, and a listener bound to `address` on it, with
/// the address it got (the port, when asked for port 0).
pub fn listen(
    name: &str,
    address: SocketAddr,
) -> Result<(tokio::runtime::Runtime, tokio::net::TcpListener, SocketAddr), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name(name)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let bound = runtime
        .block_on(tokio::net::TcpListener::bind(address))
        .and_then(|listener| Ok((listener.local_addr()?, listener)));
    let (local, listener) = bound.map_err(|source| ServeError::Listen { address, source })?;
    Ok((runtime, listener, local))
}

/// Serve `app` on `listener` until the runtime stops, telling handlers each peer's address: a
/// connection must send each request's head within [`HEADER_TIMEOUT`], and one address may hold
/// [`MOST_FROM_ONE_ADDRESS`] connections, all together [`MOST_CONNECTIONS`]; over a cap a
/// connection is closed at once, and what is refused is logged at most once a second.
pub async fn serve_http(listener: tokio::net::TcpListener, app: axum::Router, what: &'static str) {
    accept::serve(listener, app, what).await;
}
