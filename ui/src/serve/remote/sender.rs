//! What the remote link's tasks share: the sender of messages to pages, in parts, and how the
//! link is doing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

use rumqttc::{AsyncClient, QoS};

use super::parts;

/// How the remote link is doing, for the host's faces.
#[derive(Debug, Default)]
pub struct RemoteStatus {
    pub(super) connected: AtomicBool,
    pub(super) pages: AtomicUsize,
}

impl RemoteStatus {
    /// Whether the broker is reached now.
    pub fn connected(&self) -> bool {
        self.connected.load(Ordering::Relaxed)
    }

    /// Remote pages heard from in the last half minute.
    pub fn pages(&self) -> usize {
        self.pages.load(Ordering::Relaxed)
    }
}

/// Publishes messages to pages in parts ([`parts`]), numbering them.
pub(super) struct Sender {
    client: AsyncClient,
    status: Arc<RemoteStatus>,
    next: AtomicU32,
}

impl Sender {
    pub(super) fn new(client: AsyncClient, status: Arc<RemoteStatus>) -> Sender {
        Sender {
            client,
            status,
            next: AtomicU32::new(0),
        }
    }

    /// Publish without waiting. While the broker is away nothing is queued (a page back
    /// asks for the whole view; the next picture replaces the last), so the client's queue
    /// keeps room for what it says on connecting; what cannot be queued is dropped (a page
    /// drops a message missing a part).
    pub(super) fn send(&self, topic: &str, message: &[u8]) {
        if !self.status.connected() {
            return;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        for part in parts::parts(id, message) {
            if self
                .client
                .try_publish(topic, QoS::AtMostOnce, false, part)
                .is_err()
            {
                tracing::trace!("the broker is not taking messages now: one dropped");
                return;
            }
        }
    }
}
