//! The gate between the broker and the table: what the host takes from `…/in`, before a
//! byte of it is read as JSON. It runs on the broker's event loop, so what it lets through is
//! already a seat's, and what it drops costs the table nothing.
//!
//! Decisions:
//! - A message is taken only under a seat's seal ([`live::orders::seal`]); one sealed by no
//!   seat's link (a forged one, an old page's, junk) is dropped with a log line and never
//!   answered: an answer to a page nobody proved would let anyone make the host talk.
//! - Each seat is held to its own rate of messages: one seat's flood fills neither the queue
//!   of what waits to be answered nor another seat's share of it.
//! - The host hears itself: it puts a probe on `…/in` every few seconds and knows when it was
//!   last heard back, so a subscription the broker lost is noticed and asked again
//!   ([`Hearing`]) instead of leaving the table deaf while it looks live.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use live::orders::allowance::Allowances;
use live::orders::seal::{SeatKeys, Unsealed};
use live::orders::{Seat, Seats};

use super::inbound::LARGEST;
use crate::web::Refusals;

/// Messages a seat may send a second, and in a burst: a page says hello every 10 s, asks for
/// the view at most once a second, resends what it did every 2 s and points four times a
/// second at most; a few pages may share a seat.
const PER_SECOND: f64 = 20.0;
const BURST: f64 = 40.0;

/// How often the host puts its probe on `…/in`.
pub(super) const PROBE_EVERY: Duration = Duration::from_secs(4);
/// Not heard for this long while connected: the subscription is asked again.
pub(super) const DEAF_AFTER: Duration = Duration::from_secs(10);

/// When the host last heard its own probe.
#[derive(Debug)]
pub(super) struct Hearing {
    start: Instant,
    /// Milliseconds after `start`.
    last: AtomicU64,
}

impl Hearing {
    /// Never heard yet: silent since `start`.
    pub(super) fn since(start: Instant) -> Hearing {
        Hearing {
            start,
            last: AtomicU64::new(0),
        }
    }

    fn heard(&self) {
        let ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(ms, Ordering::Relaxed);
    }

    /// How long since the probe was last heard (since the start, if never).
    pub(super) fn silent_for(&self) -> Duration {
        self.start
            .elapsed()
            .saturating_sub(Duration::from_millis(self.last.load(Ordering::Relaxed)))
    }

    /// Count it heard now: a new subscription is given its time.
    pub(super) fn reset(&self) {
        self.heard();
    }
}

/// The gate.
pub(super) struct Gate {
    keys: SeatKeys,
    allowances: Allowances<Seat>,
    probe: Vec<u8>,
    hearing: Arc<Hearing>,
    /// The gate's refusals, logged at most once a second.
    refusals: Refusals,
}

impl Gate {
    /// A gate for `seats` at `table`, knowing the host's own `probe`.
    pub(super) fn new(seats: &Seats, table: &str, probe: Vec<u8>, hearing: Arc<Hearing>) -> Gate {
        Gate {
            keys: SeatKeys::new(seats, table),
            allowances: Allowances::default(),
            probe,
            hearing,
            refusals: Refusals::default(),
        }
    }

    /// The seat that sent `payload` and the message inside its seal, if it is let through.
    pub(super) fn admit(&mut self, payload: &[u8]) -> Option<(Seat, Vec<u8>)> {
        if payload == self.probe.as_slice() {
            self.hearing.heard();
            return None;
        }
        if payload.len() > LARGEST + 128 {
            self.refuse(&format!(
                "a message of {} bytes (the most is {LARGEST})",
                payload.len()
            ));
            return None;
        }
        let (seat, body) = match self.keys.open(payload) {
            Ok(opened) => opened,
            Err(Unsealed::NotSealed) => {
                self.refuse("a message with no seat's seal (an old page, or junk)");
                return None;
            }
            Err(Unsealed::NoSeat) => {
                self.refuse("a message sealed by no seat's link (a wrong or forged link)");
                return None;
            }
        };
        if !(self.allowances).take(seat.clone(), PER_SECOND, BURST, Instant::now()) {
            self.refuse(&format!(
                "{}: more than {PER_SECOND} messages a second",
                seat.words()
            ));
            return None;
        }
        Some((seat, body.to_vec()))
    }

    fn refuse(&self, what: &str) {
        self.refusals
            .log("the broker", &format!("a remote message: {what}"));
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use live::Token;
    use live::orders::seal::{SeatKey, seal};

    use super::*;

    fn gate() -> (Gate, Token) {
        let red = Token::random();
        let given = BTreeMap::from([("red".to_owned(), red.clone())]);
        let seats = Seats::new(&["red".into(), "blue".into()], &given, None);
        let gate = Gate::new(
            &seats,
            "t",
            b"probe".to_vec(),
            Arc::new(Hearing::since(
                (Instant::now().checked_sub(Duration::from_secs(60))).expect("a minute since boot"),
            )),
        );
        (gate, red)
    }

    #[test]
    fn only_a_seats_seal_passes_and_each_seat_is_held_to_its_rate() {
        let (mut gate, red) = gate();
        let key = SeatKey::new(&red, "t");
        let sealed = seal(&key, "{}");
        assert_eq!(
            gate.admit(sealed.as_bytes()),
            Some((Seat::Side("red".into()), b"{}".to_vec()))
        );
        assert_eq!(gate.admit(b"{\"page\":\"p-12345678\"}"), None);
        let wrong = seal(&SeatKey::new(&Token::random(), "t"), "{}");
        assert_eq!(gate.admit(wrong.as_bytes()), None);
        let passed = (0..200)
            .filter(|_| gate.admit(sealed.as_bytes()).is_some())
            .count();
        assert!(passed < 60, "{passed} of 200 passed at once");
    }

    #[test]
    fn the_hosts_own_probe_is_heard_and_not_passed() {
        let (mut gate, _) = gate();
        assert!(gate.hearing.silent_for() >= Duration::from_secs(60));
        assert_eq!(gate.admit(b"probe"), None);
        assert!(gate.hearing.silent_for() < Duration::from_secs(60));
    }
}
