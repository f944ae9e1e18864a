//! What a remote player's page may send the table, read strictly: a message is a small JSON
//! object naming the page, the host's epoch and the page's sequence number (the gate's business,
//! [`super::gate`]) and one thing asked; anything else is refused with a reason, never acted on
//! half-read. It holds no token: the seal around it ([`live::orders::seal`]) proves the seat.

use rules::geometry::TablePoint;
use rules::order::Order;
use rules::units::Degrees;
use serde::Deserialize;

/// The largest message taken from a page, bytes.
pub const LARGEST: usize = 4096;

/// A message from a page.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Inbound {
    /// The page's own address: its replies go to `…/to/<page>`.
    pub page: String,
    /// The host's epoch the page was told (`…/host`): a message sealed for an earlier run of
    /// the host is not taken by this one.
    pub epoch: String,
    /// The page's number for this message, higher than its last: a message read off the
    /// broker and sent again is not taken twice.
    pub seq: u64,
    /// The player's name, as the page asked it.
    #[serde(default)]
    pub name: Option<String>,
    /// The page's number for what it asks, when it sends it again until it is told it was
    /// done (a pointer, an order, a withdrawal): what was done already is not done twice.
    #[serde(default)]
    pub id: Option<u64>,
    /// The page's number for a question (the timeline, a moment, a kept picture): its answer
    /// carries it back, so that two questions of one kind are never answered crosswise.
    #[serde(default)]
    pub q: Option<u64>,
    /// What it asks.
    pub ask: Ask,
}

/// What a page asks.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Ask {
    /// "I am here": the seat it has is said back; pictures are sent while pages are here.
    Hello,
    /// The whole table now (a page starting, or one that missed an update).
    View,
    /// A pointer on the table, inches.
    Point {
        /// Where.
        at: [f64; 2],
    },
    /// A unit ordered to a place and facing.
    Order {
        /// The unit's id.
        unit: String,
        /// Where its leader is to stand, inches.
        leader: [f64; 2],
        /// Its facing, degrees counter-clockwise from +x.
        facing: f64,
    },
    /// An open order withdrawn.
    Withdraw {
        /// Its number.
        id: u64,
    },
    /// The game's timeline, or what came after `since` (ms).
    Timeline {
        /// The end of the timeline the page holds.
        #[serde(default)]
        since: Option<u64>,
    },
    /// The table at a moment of the game (ms).
    Moment {
        /// The moment.
        t: u64,
    },
    /// The camera's picture kept nearest a moment of the game (ms).
    Kept {
        /// The moment.
        t: u64,
    },
}

/// The order a page asks, in the rules' terms.
pub fn order(unit: &str, leader: [f64; 2], facing: f64) -> Order {
    Order {
        unit: unit.to_owned(),
        leader: TablePoint::new(leader[0], leader[1]),
        facing: Degrees(facing),
    }
}

/// Why a message is not read.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum Unread {
    /// Over [`LARGEST`].
    #[error("a message of {0} bytes: the most is {LARGEST}")]
    TooLarge(usize),
    /// Not the JSON a page sends.
    #[error("not understood ({0})")]
    NotUnderstood(String),
    /// A page's address that could make another topic.
    #[error("a page's address must be 8–40 letters, digits or '-'")]
    BadPage,
}

/// Read a page's message.
pub fn read(payload: &[u8]) -> Result<Inbound, Unread> {
    if payload.len() > LARGEST {
        return Err(Unread::TooLarge(payload.len()));
    }
    let inbound: Inbound =
        serde_json::from_slice(payload).map_err(|e| Unread::NotUnderstood(e.to_string()))?;
    if !good_page(&inbound.page) {
        return Err(Unread::BadPage);
    }
    Ok(inbound)
}

/// The page's address of a message that could not be read, if it names a good one: the
/// refusal goes there.
pub fn page_of(payload: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Page {
        page: String,
    }
    let page: Page = serde_json::from_slice(&payload[..payload.len().min(LARGEST)]).ok()?;
    good_page(&page.page).then_some(page.page)
}

/// Whether a page's address makes one level of a topic, and no wildcard.
fn good_page(page: &str) -> bool {
    (8..=40).contains(&page.len()) && page.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_message_is_read_and_junk_is_refused_with_a_reason() {
        let order = br#"{"page":"p-12345678","epoch":"e","seq":1,"name":"Anne",
            "ask":{"do":"order","unit":"1st","leader":[20,16],"facing":90}}"#;
        let read_order = read(order).expect("read");
        assert_eq!(read_order.name.as_deref(), Some("Anne"));
        assert!(matches!(read_order.ask, Ask::Order { ref unit, .. } if unit == "1st"));
        let junk: [&[u8]; 5] = [
            b"not json",
            br#"{"page":"p-12345678","epoch":"e","seq":1,"ask":{"do":"launch"}}"#,
            br#"{"page":"p-12345678","epoch":"e","seq":1,"ask":{"do":"point","at":[1]}}"#,
            br#"{"page":"p-12345678","epoch":"e","seq":1,"ask":{"do":"hello"},"extra":1}"#,
            br#"{"page":"p-1234567/#","epoch":"e","seq":1,"ask":{"do":"hello"}}"#,
        ];
        for payload in junk {
            assert!(
                read(payload).is_err(),
                "{}",
                String::from_utf8_lossy(payload)
            );
        }
        assert_eq!(
            read(&vec![b' '; LARGEST + 1]),
            Err(Unread::TooLarge(LARGEST + 1))
        );
        assert_eq!(
            page_of(br#"{"page":"p-12345678","junk":true}"#).as_deref(),
            Some("p-12345678")
        );
        assert_eq!(page_of(br#"{"page":"+/#"}"#), None);
    }
}
