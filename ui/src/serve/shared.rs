//! What every handler of the server shares: who a link lets in, the table's feed and its
//! pictures, the pages connected (each link's slots apart), the record read for pages looking
//! back, and the refusal of a wrong link.

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

/// Pages the umpire's link may connect at once, whatever the viewers' link has: the umpire's
/// phone and laptop, a second umpire, a screen by the table, and room for pages reconnecting
/// before their old sockets are known to be gone (a dead one is noticed at its next ping). The
/// viewers' link has `--max-viewers` of its own, so a crowd of viewers never shuts the umpire
/// out.
pub const UMPIRE_PAGES: usize = 8;

/// Counts the pages connected, each link's apart.
#[derive(Debug, Default)]
pub struct Viewers {
    viewer: AtomicUsize,
    umpire: AtomicUsize,
}

impl Viewers {
    /// Pages connected now, through either link.
    pub fn count(&self) -> usize {
        self.viewer.load(Ordering::Relaxed) + self.umpire.load(Ordering::Relaxed)
    }

    fn of(&self, role: Role) -> &AtomicUsize {
        match role {
            Role::Viewer => &self.viewer,
            Role::Umpire => &self.umpire,
        }
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
    /// Most pages at once through the viewers' link (the umpire's has [`UMPIRE_PAGES`]).
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

    /// A slot for a page of `role`'s link, if its link has one free; if not, how many pages it
    /// may connect.
    pub(super) fn slot(&self, role: Role) -> Result<Slot, usize> {
        let most = match role {
            Role::Viewer => self.max_viewers,
            Role::Umpire => UMPIRE_PAGES,
        };
        let taken = self.viewers.of(role).fetch_add(1, Ordering::Relaxed);
        // Made before the check: a refused page gives its count back as it is dropped.
        let slot = Slot {
            viewers: self.viewers.clone(),
            role,
        };
        if taken >= most {
            return Err(most);
        }
        Ok(slot)
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

/// A page's slot among its link's connected ones, given back when its socket closes.
pub struct Slot {
    viewers: Arc<Viewers>,
    role: Role,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.viewers.of(self.role).fetch_sub(1, Ordering::Relaxed);
    }
}
