//! The hand-over between the threads of a live pipeline (capture → detection → rulings →
//! drawing): a bounded queue whose sender never waits. When the next stage is still busy and
//! the queue is full, the new item is dropped and counted — a camera frame that cannot be
//! processed in time is worth nothing later, and waiting would stall the camera. What must not
//! be lost (a message, a replay's frame) is delivered instead, waiting for room.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};

/// What became of an offered item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Queued for the next stage.
    Queued,
    /// The queue was full: dropped.
    Dropped,
    /// The next stage has stopped.
    Closed,
}

/// The sending end of a frame-dropping queue.
#[derive(Debug)]
pub struct DropSender<T> {
    sender: SyncSender<T>,
    counts: Arc<Counts>,
}

impl<T> Clone for DropSender<T> {
    fn clone(&self) -> Self {
        DropSender {
            sender: self.sender.clone(),
            counts: self.counts.clone(),
        }
    }
}

/// Items queued and dropped, shared by both ends.
#[derive(Debug, Default)]
pub struct Counts {
    queued: AtomicU64,
    dropped: AtomicU64,
}

impl Counts {
    /// Items queued so far.
    pub fn queued(&self) -> u64 {
        self.queued.load(Ordering::Relaxed)
    }

    /// Items dropped so far.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

/// A queue holding at most `capacity` items (at least 1): the sender, the receiver, and the
/// counters.
pub fn dropping<T>(capacity: usize) -> (DropSender<T>, Receiver<T>, Arc<Counts>) {
    let (sender, receiver) = sync_channel(capacity.max(1));
    let counts = Arc::new(Counts::default());
    (
        DropSender {
            sender,
            counts: counts.clone(),
        },
        receiver,
        counts,
    )
}

impl<T> DropSender<T> {
    /// Queue the item if there is room, else drop it; never waits.
    pub fn offer(&self, item: T) -> Offer {
        match self.sender.try_send(item) {
            Ok(()) => {
                self.counts.queued.fetch_add(1, Ordering::Relaxed);
                Offer::Queued
            }
            Err(TrySendError::Full(_)) => {
                self.counts.dropped.fetch_add(1, Ordering::Relaxed);
                Offer::Dropped
            }
            Err(TrySendError::Disconnected(_)) => Offer::Closed,
        }
    }

    /// Queue an item that must not be lost (a message, the end of a source, a frame of a
    /// replay that can wait), waiting for room; [`Offer::Closed`] if the next stage stopped.
    pub fn deliver(&self, item: T) -> Offer {
        match self.sender.send(item) {
            Ok(()) => {
                self.counts.queued.fetch_add(1, Ordering::Relaxed);
                Offer::Queued
            }
            Err(_) => Offer::Closed,
        }
    }

    /// The counters.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_consumer_makes_frames_drop_instead_of_piling_up() {
        let (sender, receiver, counts) = dropping::<u32>(2);
        // The consumer is busy: it takes nothing while ten frames arrive.
        let offers: Vec<Offer> = (0..10).map(|f| sender.offer(f)).collect();
        assert_eq!(&offers[..2], &[Offer::Queued, Offer::Queued]);
        assert!(offers[2..].iter().all(|o| *o == Offer::Dropped));
        assert_eq!((counts.queued(), counts.dropped()), (2, 8));
        // It gets the oldest frames that fitted, then room for one new frame.
        assert_eq!(receiver.try_recv().ok(), Some(0));
        assert_eq!(sender.offer(10), Offer::Queued);
        assert_eq!(receiver.try_iter().collect::<Vec<_>>(), vec![1, 10]);
        drop(receiver);
        assert_eq!(sender.offer(11), Offer::Closed);
        assert_eq!(sender.deliver(12), Offer::Closed);
    }

    #[test]
    fn what_must_not_be_lost_waits_for_room_instead() {
        let (sender, receiver, counts) = dropping::<u32>(1);
        let consumer = std::thread::spawn(move || receiver.iter().collect::<Vec<_>>());
        for item in 0..20 {
            assert_eq!(sender.deliver(item), Offer::Queued);
        }
        drop(sender);
        assert_eq!(
            consumer.join().unwrap_or_default(),
            (0..20).collect::<Vec<_>>()
        );
        assert_eq!((counts.queued(), counts.dropped()), (20, 0));
    }

    #[test]
    fn a_blocked_consumer_thread_never_blocks_the_producer() {
        let (sender, receiver, counts) = dropping::<u32>(1);
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let consumer = std::thread::spawn(move || {
            // Blocked until the producer is done: it then sees only what the queue held.
            let _ = wait.recv();
            receiver.iter().count()
        });
        for frame in 0..100 {
            sender.offer(frame);
        }
        drop(sender);
        let _ = go.send(());
        let received = consumer.join().unwrap_or(usize::MAX);
        assert_eq!(received, 1);
        assert_eq!((counts.queued(), counts.dropped()), (1, 99));
    }
}
