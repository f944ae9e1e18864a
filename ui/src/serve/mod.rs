//! The table on the network: `vedette serve` (and the app's Share button) serves the table being
//! ruled to browsers on the local network, and can publish it to an MQTT broker for a hall's hub
//! (`vedette hub`).
//!
//! Decisions:
//! - One tokio runtime of its own, with one worker thread: the camera pipeline and the app's UI
//!   never wait for the network. The pipeline hands over its newest state through a `watch`
//!   channel (it only replaces a value); everything else happens here.
//! - A state becomes a [`view::TableView`] at most `rate` times a second, is diffed with the last
//!   one, and the patch is serialised once and broadcast to every page ([`feed`]). A page that
//!   falls behind is sent the whole view again instead of a backlog.
//! - Links carry a random token (`/t/<token>/`): the viewers' link shows the table, the umpire's
//!   link can also freeze the view, mark a turn and save a dispute case. Nothing else of the
//!   machine is reachable: the pages are compiled into the binary, and no request names a file.
//! - A recorded game can be looked back at from any page (`replay`): its timeline, and the
//!   table at any moment of it, read from the record as it is written. Each page looks back on
//!   its own; nothing it asks changes what the others see.
//! - Every input from the network is bounded and checked: a wrong token, an oversized or
//!   malformed message, too many connections are refused with a log line, never a panic.

pub mod broker_files;
pub mod command;
mod desk_view;
mod feed;
mod frame;
pub mod hall;
mod naming;
mod records;
pub mod remote;
mod replay;
mod routes;
mod shared;
mod socket;
mod umpire;
pub mod view;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use feed::Feed;
pub use live::Token;
use live::orders::Desk;
pub use live::pipeline::States;

use crate::web::share::{Served, Starter};
pub use crate::web::{Links, ServeError};
use crate::web::{address, listen, serve_http};
use shared::Viewers;

/// How to serve a table.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Where to listen (`0.0.0.0:8765`: every interface of the machine).
    pub listen: SocketAddr,
    /// The host name or address the links use (default: this machine's address on the LAN).
    pub host: Option<String>,
    /// The table's name, on pages and in MQTT topics (default: the scenario's name).
    pub name: Option<String>,
    /// The viewers' token (default: a new random one).
    pub token: Option<Token>,
    /// The umpire's token (default: a new random one).
    pub umpire_token: Option<Token>,
    /// Most pages connected at once; more are refused.
    pub max_viewers: usize,
    /// Most updates a second sent to pages.
    pub rate: f64,
    /// Publish the table to this broker too.
    pub mqtt: Option<live::mqtt::Broker>,
    /// Where the umpire's cases are saved.
    pub cases: PathBuf,
    /// The remote players' desk: shared with the app, which draws it over its own views.
    pub desk: Desk,
    /// Reach remote players through this broker too.
    pub remote: Option<remote::Remote>,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            listen: SocketAddr::from(([0, 0, 0, 0], 8765)),
            host: None,
            name: None,
            token: None,
            umpire_token: None,
            max_viewers: 200,
            rate: 10.0,
            mqtt: None,
            cases: PathBuf::from("vedette-cases"),
            desk: Desk::default(),
            remote: None,
        }
    }
}

/// A running server; dropping it stops it.
pub struct Server {
    runtime: Option<tokio::runtime::Runtime>,
    address: SocketAddr,
    links: Links,
    viewers: Arc<Viewers>,
    feed: Feed,
    remote: Arc<remote::RemoteStatus>,
    remote_links: Vec<(live::orders::Seat, String)>,
}

impl Server {
    /// Serve the states `states` carries, as `options` say.
    pub fn start(options: ServeOptions, states: States) -> Result<Server, ServeError> {
        let (runtime, listener, address) = listen("vedette-serve", options.listen)?;
        let viewer = options.token.clone().unwrap_or_else(Token::random);
        let umpire = options.umpire_token.clone().unwrap_or_else(Token::random);
        let host = options
            .host
            .clone()
            .unwrap_or_else(|| address::advertised_host(&address));
        let links = Links {
            viewer: format!("http://{host}:{}/t/{viewer}/", address.port()),
            umpire: format!("http://{host}:{}/t/{umpire}/", address.port()),
        };
        let viewers = Arc::new(Viewers::default());
        let period = Duration::from_secs_f64(1.0 / options.rate.clamp(0.1, 60.0));
        let (feed, publisher) =
            Feed::new(states, options.desk.clone(), options.name.clone(), period);
        runtime.spawn(publisher);
        let name = options.name.clone().unwrap_or_else(|| "table".into());
        let hall = options
            .mqtt
            .clone()
            .map(|broker| (broker, Some(links.viewer.clone())));
        // A remote table is in the hall too: its retained view is what a page joining gets.
        let remote_hall = (options.remote.as_ref())
            .map(|remote| (remote.broker.clone(), None))
            .filter(|(broker, _)| options.mqtt.as_ref() != Some(broker));
        for (broker, page) in hall.into_iter().chain(remote_hall) {
            runtime.spawn(hall::publish_with_page(
                broker,
                name.clone(),
                page,
                feed.clone(),
            ));
        }
        let shared = Arc::new(shared::Shared {
            feed: feed.clone(),
            viewer,
            umpire,
            viewers: viewers.clone(),
            max_viewers: options.max_viewers,
            cases: options.cases.clone(),
            frames: Default::default(),
            refusals: Default::default(),
            records: Default::default(),
        });
        let remote_status = Arc::new(remote::RemoteStatus::default());
        let remote_links = (options.remote.as_ref()).map_or_else(Vec::new, |r| r.links(&name));
        if let Some(remote) = options.remote.clone() {
            runtime.spawn(remote::run(
                remote,
                name,
                shared.clone(),
                remote_status.clone(),
            ));
        }
        let app = routes::router(shared);
        runtime.spawn(serve_http(listener, app, "the table's server"));
        tracing::info!("serving the table on {address}: {}", links.viewer);
        Ok(Server {
            runtime: Some(runtime),
            address,
            links,
            viewers,
            feed,
            remote: remote_status,
            remote_links,
        })
    }

    /// The links to the table.
    pub fn links(&self) -> &Links {
        &self.links
    }

    /// Where it listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Pages connected now.
    pub fn viewers(&self) -> usize {
        self.viewers.count()
    }

    /// Each remote seat's link (none without a remote broker).
    pub fn remote_links(&self) -> &[(live::orders::Seat, String)] {
        &self.remote_links
    }

    /// How the link to remote players is doing (all zero without one).
    pub fn remote(&self) -> &remote::RemoteStatus {
        &self.remote
    }

    /// What pages are sent, for watchers in this process (`bench serve` times its updates).
    pub fn feed(&self) -> &Feed {
        &self.feed
    }
}

impl Served for Server {
    fn links(&self) -> &Links {
        Server::links(self)
    }

    fn viewers(&self) -> usize {
        Server::viewers(self)
    }

    fn remote_links(&self) -> &[(live::orders::Seat, String)] {
        Server::remote_links(self)
    }

    fn remote(&self) -> Option<(bool, usize)> {
        (!self.remote_links.is_empty()).then(|| (self.remote.connected(), self.remote.pages()))
    }
}

/// How the app's Share button serves its table: on every interface at `port`, as `vedette serve`
/// does with its defaults — and to remote players too, when the command line gave a broker.
pub fn starter(remote: Option<remote::Remote>) -> Starter {
    Box::new(move |port, states, desk| {
        let options = ServeOptions {
            listen: SocketAddr::from(([0, 0, 0, 0], port)),
            desk,
            remote: remote.clone(),
            ..ServeOptions::default()
        };
        Ok(Box::new(Server::start(options, states)?) as Box<dyn Served>)
    })
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            // Pages are told by their sockets closing; nothing is waited for.
            runtime.shutdown_background();
        }
    }
}
