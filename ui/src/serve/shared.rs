//! What every handler of the server shares: who a link lets in, the table's feed and its
//! pictures, the pages connected, the record read for pages looking back, and the refusal of a
//! wrong link.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::http::StatusCode;
use axum::response::Response;
use live::Token;

use super::Feed;
use super::frame::Frames;
use super::records::Records;
use crate::web::{Refusals, text};

/// Counts a page's connection while it lasts.
#[derive(Debug, Default)]
pub struct Viewers(pub(super) AtomicUsize);

impl Viewers {
    /// Pages connected now.
    pub fn count(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
}

/// Who a link lets in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Players and spectators: the table only.
    Viewer,
    /// The umpire: also freezes the view, marks turns, saves cases.
    Umpire,
}

impl Role {
    /// As pages are told.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Umpire => "umpire",
        }
    }
}

/// What every handler shares.
pub struct Shared {
    /// The table's views.
    pub feed: Feed,
    /// The viewers' token.
    pub viewer: Token,
    /// The umpire's token.
    pub umpire: Token,
    /// Pages connected now.
    pub viewers: Arc<Viewers>,
    /// Most pages at once.
    pub max_viewers: usize,
    /// Where cases are saved.
    pub cases: PathBuf,
    /// The camera picture, as JPEG, made when asked for.
    pub frames: Frames,
    /// Refused requests, logged at most once a second.
    pub refusals: Refusals,
    /// The game's record, read for pages looking back.
    pub records: Records,
}

impl Shared {
    /// Who `token` lets in, if anyone.
    pub(super) fn role(&self, token: &str) -> Option<Role> {
        if self.umpire.matches(token) {
            Some(Role::Umpire)
        } else if self.viewer.matches(token) {
            Some(Role::Viewer)
        } else {
            None
        }
    }
}

pub(super) const NOT_A_LINK: &str =
    "This is not a table's link. Scan the QR code on the table's screen, or ask for the link.\n";

/// The answer to a request with a wrong token, logged (at most once a second).
pub(super) fn refuse_token(shared: &Shared, peer: SocketAddr) -> Response {
    shared
        .refusals
        .log(peer, "a request with a wrong table token");
    text(StatusCode::NOT_FOUND, NOT_A_LINK)
}

/// A page's slot among the connected ones, given back when its socket closes.
pub struct Slot(pub(super) Arc<Viewers>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.0.fetch_sub(1, Ordering::Relaxed);
    }
}
