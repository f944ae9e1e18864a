//! The table for players far from it, through an MQTT broker both ends can reach: the host
//! opens no port, the players' pages speak MQTT over WebSockets to the same broker.
//!
//! Topics, under `vedette/<table>/` (the hall's, [`super::hall`], are beside them: `view`,
//! retained, for the hall's hub, and `online`, which tells pages whether the host is there):
//! - `live`: every update pages on the room's network get, as they get it (a patch, or the
//!   whole view), at the server's rate;
//! - `picture`: the camera's picture, JPEG, a few a second while a remote page is there
//!   ([`picture`]);
//! - `in`: what pages send ([`inbound`]): hello, a pointer, an order, a withdrawal, the
//!   timeline, a moment of it and the picture kept nearest it;
//! - `to/<page>`: the answers to one page (the whole view it asks for among them);
//!   `to/<page>/kept`: a picture kept in the record, JPEG, for a page looking back.
//!
//! Everything sent to pages goes in parts under 4 kB ([`parts`]: why).
//!
//! Decisions:
//! - Anyone who can read the broker's topics sees the table: the page's link carries its
//!   side's token, which is what lets it point and order. Tokens travel in messages, so a
//!   broker that others can read should ask for a password (the guide says how).
//! - A lost broker is waited for ([`live::mqtt::drive`]); the table, its record and the desk
//!   go on meanwhile: nothing a remote player did is held only by the broker.
//! - A page numbers what it does (a pointer, an order, a withdrawal) and sends it again until
//!   the host says it took it; the host takes each number of a page once. An order given while
//!   the broker blinked arrives late, never twice, never not at all.

mod address;
mod inbound;
pub(crate) mod parts;
mod picture;
mod sender;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use live::Token;
use live::mqtt::{drive_telling, options, topic};
use live::orders::{Refusal, Seat, Seats};
use record::GameTime;
use rumqttc::{AsyncClient, Event, Packet, QoS};
use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

use super::replay::{LATEST, kept_picture, moment_json, timeline_json};
use super::shared::Shared;
pub use address::Remote;
use inbound::{Ask, Inbound, Unread};
pub use picture::BUDGET as PICTURE_BUDGET;
pub use sender::RemoteStatus;
use sender::Sender;

/// How long a page is counted as there after its last hello (pages say it every 10 s).
const PRESENCE: Duration = Duration::from_secs(30);
/// Pages' messages waiting to be answered at most; a flood beyond it is dropped.
const WAITING: usize = 256;

/// A moment a page asks for, no later than the latest a game may reach.
fn moment(ms: u64) -> GameTime {
    GameTime::from_millis(ms.min(LATEST))
}

/// JSON the record's readers wrote, sent on as it is (not read into a tree to be written again).
fn raw(json: String) -> Box<RawValue> {
    RawValue::from_string(json).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

/// An answer to one page.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum Reply {
    /// Its seat.
    Hello {
        role: &'static str,
        side: Option<String>,
        table: String,
    },
    /// Done, in words.
    Said { text: String },
    /// Refused, in words.
    Refused { text: String },
    /// What the page numbered `id` was taken (done or refused): not to be sent again.
    Done { id: u64 },
    /// The timeline, as pages on the room's network get it.
    Timeline { reading: Box<RawValue> },
    /// A moment of the game, as pages on the room's network get it.
    Moment { answer: Box<RawValue> },
    /// No timeline: the game is not recorded, or its record cannot be read.
    NoTimeline { text: String },
}

/// The link between the table and its remote players: until the server stops.
pub async fn run(remote: Remote, name: String, shared: Arc<Shared>, status: Arc<RemoteStatus>) {
    let table = remote.table(&name);
    let id = format!("vedette-remote-{table}-{}", Token::random());
    // Room for a few pictures' parts (a picture is some 27): what does not fit is dropped.
    let (client, events) = AsyncClient::new(options(&remote.broker, &id), 512);
    let (to_desk, mut from_pages) = mpsc::channel::<Vec<u8>>(WAITING);
    let listener = client.clone();
    let in_topic = topic(&table, "in");
    let up = status.clone();
    let on_event = move |event| {
        match event {
            Event::Incoming(Packet::ConnAck(_)) => {
                // Said again on every (re)connection: the broker may have restarted empty.
                let _ = listener.try_subscribe(&in_topic, QoS::AtMostOnce);
            }
            // A flood beyond what waits to be answered is dropped.
            Event::Incoming(Packet::Publish(publish))
                if publish.topic == in_topic
                    && to_desk.try_send(publish.payload.to_vec()).is_err() =>
            {
                tracing::debug!("remote pages send faster than they are answered: one dropped");
            }
            _ => {}
        }
    };
    let told = move |reached: bool| up.connected.store(reached, Ordering::Relaxed);
    tokio::spawn(drive_telling(events, remote.broker.clone(), on_event, told));
    tracing::info!(
        "remote players reach the table through {} as {}",
        remote.broker,
        topic(&table, "…")
    );
    let mut link = Link {
        sender: Sender::new(client.clone()),
        table,
        seats: remote.seats,
        shared,
        status,
        pages: HashMap::new(),
    };
    // Pictures on a task of their own: encoding one never holds up the table's updates or a
    // player's order.
    tokio::spawn(picture::send_pictures(
        Sender::new(client),
        topic(&link.table, "picture"),
        link.shared.clone(),
        link.status.clone(),
    ));
    link.serve(&mut from_pages).await;
}

/// A page, as the link knows it.
struct Seen {
    at: Instant,
    /// The numbers of its latest asks taken.
    taken: VecDeque<u64>,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen {
            at: Instant::now(),
            taken: VecDeque::new(),
        }
    }
}

struct Link {
    sender: Sender,
    table: String,
    seats: Seats,
    shared: Arc<Shared>,
    status: Arc<RemoteStatus>,
    /// Pages heard from: when last, and what they asked that was taken.
    pages: HashMap<String, Seen>,
}

impl Link {
    async fn serve(&mut self, from_pages: &mut mpsc::Receiver<Vec<u8>>) {
        let mut updates = self.shared.feed.subscribe();
        let mut presence = tokio::time::interval(Duration::from_secs(1));
        let live_topic = topic(&self.table, "live");
        loop {
            tokio::select! {
                update = updates.recv() => {
                    let message = match update {
                        Ok(update) => update.message.clone(),
                        // Behind: the whole view instead of the backlog.
                        Err(RecvError::Lagged(_)) => match self.shared.feed.snapshot() {
                            Some(snapshot) => snapshot.full_message(),
                            None => continue,
                        },
                        Err(RecvError::Closed) => return,
                    };
                    self.publish(&live_topic, message.as_bytes().to_vec());
                }
                Some(payload) = from_pages.recv() => self.answer(&payload).await,
                _ = presence.tick() => self.count_pages(),
            }
        }
    }

    fn publish(&self, topic: &str, payload: Vec<u8>) {
        self.sender.send(topic, &payload);
    }

    fn reply(&self, page: &str, reply: &Reply) {
        let text = serde_json::to_string(reply).unwrap_or_default();
        self.publish(
            &topic(&self.table, &format!("to/{page}")),
            text.into_bytes(),
        );
    }

    fn refuse(&self, page: Option<&str>, why: &str) {
        self.shared.refusals.log(
            page.unwrap_or("a remote page"),
            &format!("a remote page's message: {why}"),
        );
        if let Some(page) = page {
            self.reply(
                page,
                &Reply::Refused {
                    text: why.to_owned(),
                },
            );
        }
    }

    async fn answer(&mut self, payload: &[u8]) {
        let inbound = match inbound::read(payload) {
            Ok(inbound) => inbound,
            Err(unread) => {
                let page = match unread {
                    Unread::BadPage => None,
                    _ => inbound::page_of(payload),
                };
                self.refuse(page.as_deref(), &unread.to_string());
                return;
            }
        };
        let Some(seat) = self.seats.seat(&inbound.token) else {
            self.refuse(Some(&inbound.page), &Refusal::NoSeat.to_string());
            return;
        };
        let taken = self.heard(&inbound.page, inbound.id);
        if !taken {
            let reply = self.act(&seat, &inbound).await;
            if let Some(reply) = reply {
                self.reply(&inbound.page, &reply);
            }
        }
        if let Some(id) = inbound.id {
            self.reply(&inbound.page, &Reply::Done { id });
        }
    }

    /// Count the page as there; whether what it numbered `id` was taken already (sent again
    /// after a broker's blip).
    fn heard(&mut self, page: &str, id: Option<u64>) -> bool {
        let now = Instant::now();
        if self.pages.len() > 1000 {
            self.pages
                .retain(|_, seen| now.duration_since(seen.at) < PRESENCE);
        }
        let seen = self.pages.entry(page.to_owned()).or_default();
        seen.at = now;
        let Some(id) = id else {
            return false;
        };
        if seen.taken.contains(&id) {
            return true;
        }
        seen.taken.push_back(id);
        if seen.taken.len() > 64 {
            seen.taken.pop_front();
        }
        false
    }

    async fn act(&self, seat: &Seat, inbound: &Inbound) -> Option<Reply> {
        let feed = &self.shared.feed;
        let by = inbound
            .name
            .as_deref()
            .unwrap_or(seat.side().unwrap_or("umpire"));
        let state = feed.snapshot().map(|snapshot| snapshot.state.clone());
        let done = match &inbound.ask {
            Ask::Hello => {
                return Some(Reply::Hello {
                    role: if seat.side().is_some() {
                        "side"
                    } else {
                        "umpire"
                    },
                    side: seat.side().map(str::to_owned),
                    table: feed.name(),
                });
            }
            Ask::View => {
                if let Some(snapshot) = feed.snapshot() {
                    let to = topic(&self.table, &format!("to/{}", inbound.page));
                    self.publish(&to, snapshot.full_message().as_bytes().to_vec());
                }
                return None;
            }
            Ask::Point { at } => match &state {
                Some(state) => {
                    let at = rules::geometry::TablePoint::new(at[0], at[1]);
                    feed.desk().point(seat, by, at, state).map(|()| None)
                }
                None => Err(Refusal::NoTable),
            },
            Ask::Order {
                unit,
                leader,
                facing,
            } => match &state {
                Some(state) => {
                    let order = inbound::order(unit, *leader, *facing);
                    (feed.desk().order(seat, by, order, state))
                        .map(|id| Some(format!("order {id} given: the host sees it on the table")))
                }
                None => Err(Refusal::NoTable),
            },
            Ask::Withdraw { id } => feed
                .desk()
                .withdraw(seat, *id)
                .map(|()| Some(format!("order {id} withdrawn"))),
            Ask::Timeline { since } => {
                let since = since.map(moment);
                return Some(match timeline_json(&self.shared, since).await {
                    Ok(json) => Reply::Timeline { reading: raw(json) },
                    Err(refused) => Reply::NoTimeline { text: refused.1 },
                });
            }
            Ask::Moment { t } => {
                return Some(match moment_json(&self.shared, moment(*t)).await {
                    Ok(json) => Reply::Moment { answer: raw(json) },
                    Err(refused) => Reply::Refused { text: refused.1 },
                });
            }
            Ask::Kept { t } => {
                // Binary, on a topic of its own: the page shows it under the moment.
                return match kept_picture(&self.shared, moment(*t)).await {
                    Ok(jpeg) => {
                        let kept = topic(&self.table, &format!("to/{}/kept", inbound.page));
                        self.publish(&kept, jpeg);
                        None
                    }
                    Err(refused) => Some(Reply::Refused { text: refused.1 }),
                };
            }
        };
        match done {
            Ok(said) => {
                feed.desk_changed();
                said.map(|text| Reply::Said { text })
            }
            Err(refusal) => {
                self.refuse(Some(&inbound.page), &refusal.to_string());
                None
            }
        }
    }

    /// Count the pages heard from lately: pictures are sent while there are any.
    fn count_pages(&mut self) {
        let now = Instant::now();
        self.pages
            .retain(|_, seen| now.duration_since(seen.at) < PRESENCE);
        self.status.pages.store(self.pages.len(), Ordering::Relaxed);
    }
}
