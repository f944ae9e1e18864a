//! How a remote page proves its seat without showing its secret: every message it sends is
//! sealed with an HMAC-SHA256 whose key is derived from its link's token and the table's name,
//! and the token itself never travels. Every player may read what every other sends (they
//! share the broker); what he reads does not let him speak for another seat.
//!
//! A sealed message is `v1.<64 hex digits>.<body>`: the MAC of `"vedette/in/v1\n" + body`
//! under the seat's key, then the body as it was sealed (JSON, read by the host only once the
//! seal holds). The page's script (`seal.js`) seals the same way.
//!
//! Decisions:
//! - The key is `HMAC-SHA256(token, "vedette/seat/v1\n" + table)`: a token given for one table
//!   signs nothing for another, and the token is never a key by itself.
//! - Replay is the reader's business (the body carries the host's epoch, the page and a
//!   sequence number, which the host checks): the seal only says which seat wrote a body.
//! - Every seat's key is tried, every time, compared in constant time: how long opening takes
//!   says nothing of which seat, or how much of a MAC, was right.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::seats::{Seat, Seats};
use crate::Token;

type HmacSha256 = Hmac<Sha256>;

/// What a sealed message starts with: the seal's version.
const VERSION: &str = "v1";
/// What a seat's key is derived over, before the table's name.
const SEAT_CONTEXT: &str = "vedette/seat/v1\n";
/// What a message's MAC is computed over, before its body.
const MESSAGE_CONTEXT: &str = "vedette/in/v1\n";

/// A seat's key at one table.
#[derive(Clone)]
pub struct SeatKey([u8; 32]);

impl SeatKey {
    /// The key `token` gives at `table` (the table's name as it is in the topics).
    pub fn new(token: &Token, table: &str) -> SeatKey {
        let mut mac = keyed(token.to_string().as_bytes());
        mac.update(SEAT_CONTEXT.as_bytes());
        mac.update(table.as_bytes());
        SeatKey(mac.finalize().into_bytes().into())
    }

    fn mac(&self, body: &[u8]) -> HmacSha256 {
        let mut mac = keyed(&self.0);
        mac.update(MESSAGE_CONTEXT.as_bytes());
        mac.update(body);
        mac
    }
}

impl std::fmt::Debug for SeatKey {
    /// Never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SeatKey(…)")
    }
}

fn keyed(key: &[u8]) -> HmacSha256 {
    // HMAC takes a key of any length: this cannot fail.
    <HmacSha256 as Mac>::new_from_slice(key).expect("HMAC takes any key length")
}

/// `body` sealed with `key`, as a page sends it.
pub fn seal(key: &SeatKey, body: &str) -> String {
    let tag = key.mac(body.as_bytes()).finalize().into_bytes();
    let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
    format!("{VERSION}.{hex}.{body}")
}

/// Why a message is not taken as a seat's.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Unsealed {
    /// Not `v1.<64 hex>.<body>`: an old page, or junk.
    #[error("not a sealed message (an old page, or junk)")]
    NotSealed,
    /// The seal is no seat's: a wrong or forged link.
    #[error("sealed by no seat's link")]
    NoSeat,
}

/// Every seat's key at one table, to open what pages send.
#[derive(Clone, Debug)]
pub struct SeatKeys(Vec<(Seat, SeatKey)>);

impl SeatKeys {
    /// The keys of `seats` at `table`.
    pub fn new(seats: &Seats, table: &str) -> SeatKeys {
        let sides = (seats.sides()).map(|(side, token)| (Seat::Side(side.into()), token));
        let all = sides.chain([(Seat::Umpire, seats.umpire())]);
        SeatKeys(
            all.map(|(seat, token)| (seat, SeatKey::new(token, table)))
                .collect(),
        )
    }

    /// The seat that sealed `message`, and its body.
    pub fn open<'m>(&self, message: &'m [u8]) -> Result<(Seat, &'m [u8]), Unsealed> {
        let (tag, body) = split(message).ok_or(Unsealed::NotSealed)?;
        let mut found = None;
        for (seat, key) in &self.0 {
            // `verify_slice` compares in constant time; every key is tried.
            if key.mac(body).verify_slice(&tag).is_ok() {
                found = Some(seat.clone());
            }
        }
        found.map(|seat| (seat, body)).ok_or(Unsealed::NoSeat)
    }
}

/// A sealed message's MAC and body.
fn split(message: &[u8]) -> Option<([u8; 32], &[u8])> {
    let rest = message
        .strip_prefix(VERSION.as_bytes())?
        .strip_prefix(b".")?;
    let (hex, body) = (rest.get(..64)?, rest.get(64..)?.strip_prefix(b".")?);
    let mut tag = [0u8; 32];
    for (byte, pair) in tag.iter_mut().zip(hex.chunks_exact(2)) {
        let text = std::str::from_utf8(pair).ok()?;
        *byte = u8::from_str_radix(text, 16).ok()?;
    }
    Some((tag, body))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn seats() -> Seats {
        let red = Token::parse("red-seat-token-0123456789").expect("a token");
        let umpire = Token::parse("umpire-seat-token-0123456789").expect("a token");
        let given = BTreeMap::from([("red".to_owned(), red)]);
        Seats::new(&["red".into(), "blue".into()], &given, Some(umpire))
    }

    #[test]
    fn a_sealed_message_opens_as_its_seat_and_as_no_other() {
        let seats = seats();
        let keys = SeatKeys::new(&seats, "sunday");
        let red = SeatKey::new(
            &Token::parse("red-seat-token-0123456789").expect("ok"),
            "sunday",
        );
        let sealed = seal(&red, r#"{"ask":"hello"}"#);
        assert_eq!(
            keys.open(sealed.as_bytes()),
            Ok((Seat::Side("red".into()), &br#"{"ask":"hello"}"#[..]))
        );
        let umpire = SeatKey::new(seats.umpire(), "sunday");
        assert_eq!(
            keys.open(seal(&umpire, "{}").as_bytes()).map(|(s, _)| s),
            Ok(Seat::Umpire)
        );
    }

    #[test]
    fn a_changed_body_another_table_or_junk_is_refused() {
        let seats = seats();
        let keys = SeatKeys::new(&seats, "sunday");
        let red = SeatKey::new(
            &Token::parse("red-seat-token-0123456789").expect("ok"),
            "sunday",
        );
        let sealed = seal(&red, r#"{"seq":1}"#);
        let changed = sealed.replace(r#""seq":1"#, r#""seq":2"#);
        assert_eq!(keys.open(changed.as_bytes()), Err(Unsealed::NoSeat));
        let elsewhere = SeatKey::new(
            &Token::parse("red-seat-token-0123456789").expect("ok"),
            "monday",
        );
        let sealed_elsewhere = seal(&elsewhere, r#"{"seq":1}"#);
        assert_eq!(
            keys.open(sealed_elsewhere.as_bytes()),
            Err(Unsealed::NoSeat)
        );
        for junk in [
            &b""[..],
            b"{\"token\":\"red-seat-token-0123456789\"}",
            b"v1.zz.{}",
            b"v2.00.{}",
        ] {
            assert_eq!(keys.open(junk), Err(Unsealed::NotSealed));
        }
    }

    /// The page's script computes the same: this vector is checked there too
    /// (`ui/tests/remote_hostile.rs` runs `seal.js` in a browser against it).
    #[test]
    fn the_seal_matches_the_published_vector() {
        let token = Token::parse("abcdefghijkmnpqrstuvwxyz23").expect("ok");
        let sealed = seal(&SeatKey::new(&token, "table-7"), r#"{"page":"p-1"}"#);
        assert_eq!(sealed, VECTOR);
    }

    /// Computed with Python's `hmac` and `hashlib`, apart from this module.
    pub const VECTOR: &str =
        r#"v1.420ce24ea2794bde83800ac4eca579e3b6a2a0436c240d53caae45604385cb20.{"page":"p-1"}"#;
}
