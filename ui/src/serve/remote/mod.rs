//! The table for players far from it, through an MQTT broker both ends can reach: the host
//! opens no port, the players' pages speak MQTT over WebSockets to the same broker.
//!
//! Topics, under `vedette/<table>/` (the hall's, [`super::hall`], are beside them: `view`,
//! retained, for the hall's hub, and `online`, which tells pages whether the host is there):
//! - `live`: every update pages on the room's network get, as they get it (a patch, or the
//!   whole view), at the server's rate;
//! - `picture`: the camera's picture, JPEG, a few a second while a remote page is there
//!   ([`picture`]);
//! - `in`: what pages send, each message sealed by its seat ([`gate`], [`inbound`]): hello, a
//!   pointer, an order, a withdrawal, the timeline, a moment of it and the picture kept
//!   nearest it;
//! - `host`, retained: `{"epoch":…}`, new each time the host starts: pages put it in what
//!   they seal, so a message sealed for an earlier run is not taken by this one;
//! - `to/<page>`: the answers to one page (the whole view it asks for among them);
//!   `to/<page>/kept`: a picture kept in the record, JPEG, for a page looking back.
//!
//! Everything sent to pages goes in parts under 4 kB ([`parts`]: why).
//!
//! Decisions:
//! - Anyone who can read the broker's topics sees the table; only a seat's link lets a page
//!   point and order, and its token never travels: the page seals what it sends with a key
//!   made from it ([`live::orders::seal`]). A player who reads every message on the broker
//!   cannot speak for another seat, and a message he copies is not taken again (the host's
//!   epoch, and each page's rising sequence number, in what is sealed).
//! - Only the host may write what pages take as the table (`live`, `picture`, `online`,
//!   `host`, `to/…`): the broker's access list says so (`vedette remote-broker` writes it).
//! - A lost broker is waited for ([`live::mqtt::drive`]); the table, its record and the desk
//!   go on meanwhile: nothing a remote player did is held only by the broker. Nothing is
//!   queued for the broker while it is away, and what the host says on each connection (its
//!   subscription, its epoch) waits for room rather than being dropped; the host checks that
//!   it hears `in` ([`gate::Hearing`]) and subscribes again if it does not.
//! - Every limit is a seat's: its messages a second ([`gate`]), its asks of each kind, its
//!   pointers and orders (the desk), the pages it may open.
//! - A page numbers what it does (a pointer, an order, a withdrawal) and sends it again until
//!   the host says it took it; the host takes each number of a page once. An order given while
//!   the broker blinked arrives late, never twice, never not at all.

mod address;
mod gate;
mod inbound;
pub(crate) mod parts;
mod picture;
mod sender;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use live::Token;
use live::mqtt::{drive_telling, options, say_again, topic};
use live::orders::allowance::Allowances;
use live::orders::{Refusal, Seat};
use record::GameTime;
use rumqttc::{AsyncClient, Event, Packet, QoS};
use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

use super::replay::{LATEST, kept_picture, moment_json, timeline_json};
use super::shared::Shared;
pub use address::Remote;
use gate::{DEAF_AFTER, Gate, Hearing, PROBE_EVERY};
use inbound::{Ask, Inbound, Unread};
pub use picture::BUDGET as PICTURE_BUDGET;
pub use sender::RemoteStatus;
use sender::Sender;

/// How long a page is counted as there after its last hello (pages say it every 10 s).
const PRESENCE: Duration = Duration::from_secs(30);
/// Pages' messages waiting to be answered at most; a flood beyond it is dropped.
const WAITING: usize = 256;
/// The most pages a seat may open while the host runs: each is remembered (its last number)
/// until the host stops, so a copied message is never taken again.
const PAGES_A_SEAT: usize = 4096;
/// The act numbers of a page remembered as taken (its latest few).
const ACTS_REMEMBERED: usize = 64;

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
    /// Refused, in words; `q`: the question refused, if it was one.
    Refused {
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        q: Option<u64>,
    },
    /// What the page numbered `id` was taken (done or refused): not to be sent again.
    Done { id: u64 },
    /// The timeline, as pages on the room's network get it, for question `q`.
    Timeline {
        reading: Box<RawValue>,
        q: Option<u64>,
    },
    /// A moment of the game, as pages on the room's network get it, for question `q`.
    Moment {
        answer: Box<RawValue>,
        q: Option<u64>,
    },
    /// No timeline: the game is not recorded, or its record cannot be read.
    NoTimeline { text: String, q: Option<u64> },
}

/// The link between the table and its remote players: until the server stops.
pub async fn run(remote: Remote, name: String, shared: Arc<Shared>, status: Arc<RemoteStatus>) {
    let table = remote.table(&name);
    let id = format!("vedette-remote-{table}-{}", Token::random());
    // Room for a few pictures' parts (a picture is some 27): what does not fit is dropped.
    let (client, events) = AsyncClient::new(options(&remote.broker, &id), 512);
    let (to_desk, mut from_pages) = mpsc::channel::<(Seat, Vec<u8>)>(WAITING);
    let epoch = Token::random().to_string();
    let probe = format!("probe.{epoch}").into_bytes();
    let hearing = Arc::new(Hearing::since(Instant::now()));
    let mut gate = Gate::new(&remote.seats, &table, probe.clone(), hearing.clone());
    let in_topic = topic(&table, "in");
    let host = (
        topic(&table, "host"),
        format!(r#"{{"epoch":"{epoch}"}}"#).into_bytes(),
    );
    let (listener, heard) = (client.clone(), hearing.clone());
    let on_event = move |event| match event {
        Event::Incoming(Packet::ConnAck(_)) => {
            // Said again on every (re)connection: the broker may have restarted empty.
            heard.reset();
            say_again(
                &listener,
                std::slice::from_ref(&in_topic),
                std::slice::from_ref(&host),
            );
        }
        Event::Incoming(Packet::Publish(publish)) if publish.topic == in_topic => {
            let Some(admitted) = gate.admit(&publish.payload) else {
                return;
            };
            // A flood beyond what waits to be answered is dropped.
            if to_desk.try_send(admitted).is_err() {
                tracing::debug!("remote pages send faster than they are answered: one dropped");
            }
        }
        _ => {}
    };
    let up = status.clone();
    let told = move |reached: bool| up.connected.store(reached, Ordering::Relaxed);
    tokio::spawn(drive_telling(events, remote.broker.clone(), on_event, told));
    tracing::info!(
        "remote players reach the table through {} as {}",
        remote.broker,
        topic(&table, "…")
    );
    tokio::spawn(keep_hearing(
        client.clone(),
        table.clone(),
        probe,
        hearing,
        status.clone(),
    ));
    let mut link = Link {
        sender: Sender::new(client.clone(), status.clone()),
        epoch,
        table,
        shared,
        status,
        pages: HashMap::new(),
        asks: Allowances::default(),
    };
    // Pictures on a task of their own: encoding one never holds up the table's updates or a
    // player's order.
    tokio::spawn(picture::send_pictures(
        Sender::new(client, link.status.clone()),
        topic(&link.table, "picture"),
        link.shared.clone(),
        link.status.clone(),
    ));
    link.serve(&mut from_pages).await;
}

/// Put the host's probe on `…/in` every few seconds while the broker is reached, and subscribe
/// again when it has not been heard back for a while: a broker that lost the subscription (a
/// restart the client did not notice, a refused subscription) is not left deaf.
async fn keep_hearing(
    client: AsyncClient,
    table: String,
    probe: Vec<u8>,
    hearing: Arc<Hearing>,
    status: Arc<RemoteStatus>,
) {
    let in_topic = topic(&table, "in");
    let mut every = tokio::time::interval(PROBE_EVERY);
    loop {
        every.tick().await;
        if !status.connected() {
            continue;
        }
        if hearing.silent_for() > DEAF_AFTER {
            tracing::warn!(
                "the host has not heard {in_topic} for {} s: subscribing again",
                hearing.silent_for().as_secs()
            );
            hearing.reset();
            say_again(&client, std::slice::from_ref(&in_topic), &[]);
        }
        let _ = client.try_publish(&in_topic, QoS::AtMostOnce, false, probe.clone());
    }
}

/// A page, as the link knows it.
struct Seen {
    at: Instant,
    /// The number of its latest message taken.
    seq: u64,
    /// The numbers of its latest acts taken.
    taken: VecDeque<u64>,
}

struct Link {
    sender: Sender,
    /// This run of the host: pages seal it into what they send.
    epoch: String,
    table: String,
    shared: Arc<Shared>,
    status: Arc<RemoteStatus>,
    /// Pages heard from, by seat: when last, their latest number, the acts taken.
    pages: HashMap<(Seat, String), Seen>,
    /// Each seat's allowance of each kind of ask.
    asks: Allowances<(Seat, &'static str)>,
}

impl Link {
    async fn serve(&mut self, from_pages: &mut mpsc::Receiver<(Seat, Vec<u8>)>) {
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
                Some((seat, body)) = from_pages.recv() => self.answer(seat, &body).await,
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
        self.refuse_asked(page, why, None);
    }

    /// Refuse, answering question `q` if the page asked one.
    fn refuse_asked(&self, page: Option<&str>, why: &str, q: Option<u64>) {
        self.shared.refusals.log(
            page.unwrap_or("a remote page"),
            &format!("a remote page's message: {why}"),
        );
        if let Some(page) = page {
            self.reply(
                page,
                &Reply::Refused {
                    text: why.to_owned(),
                    q,
                },
            );
        }
    }

    async fn answer(&mut self, seat: Seat, body: &[u8]) {
        let inbound = match inbound::read(body) {
            Ok(inbound) => inbound,
            Err(unread) => {
                let page = match unread {
                    Unread::BadPage => None,
                    _ => inbound::page_of(body),
                };
                self.refuse(page.as_deref(), &unread.to_string());
                return;
            }
        };
        if let Err(why) = self.fresh(&seat, &inbound) {
            self.shared.refusals.log(seat.words(), why);
            return;
        }
        let taken = self.heard(&seat, &inbound.page, inbound.id);
        if !taken {
            if let Err(why) = self.allow(&seat, &inbound.ask) {
                self.refuse_asked(Some(&inbound.page), &why.to_string(), inbound.q);
            } else if let Some(reply) = self.act(&seat, &inbound).await {
                self.reply(&inbound.page, &reply);
            }
        }
        if let Some(id) = inbound.id {
            self.reply(&inbound.page, &Reply::Done { id });
        }
    }

    /// Whether `inbound` is new: sealed for this run of the host, and numbered above its
    /// page's last message. What fails is a copy (or a page that has not heard the host's
    /// new epoch yet: it sends again once it has).
    fn fresh(&mut self, seat: &Seat, inbound: &Inbound) -> Result<(), &'static str> {
        if inbound.epoch != self.epoch {
            return Err(
                "a message sealed for an earlier run of the host (a copy, or a page catching up)",
            );
        }
        let key = (seat.clone(), inbound.page.clone());
        if let Some(seen) = self.pages.get_mut(&key) {
            if inbound.seq <= seen.seq {
                return Err("a message taken already (a copy sent again)");
            }
            seen.seq = inbound.seq;
            return Ok(());
        }
        let opened = self.pages.keys().filter(|(s, _)| s == seat).count();
        if opened >= PAGES_A_SEAT {
            return Err("a seat that opened too many pages: the host must restart to take more");
        }
        let seen = Seen {
            at: Instant::now(),
            seq: inbound.seq,
            taken: VecDeque::new(),
        };
        self.pages.insert(key, seen);
        Ok(())
    }

    /// Count the page as there; whether what it numbered `id` was taken already (sent again
    /// after a broker's blip).
    fn heard(&mut self, seat: &Seat, page: &str, id: Option<u64>) -> bool {
        let Some(seen) = self.pages.get_mut(&(seat.clone(), page.to_owned())) else {
            return false;
        };
        seen.at = Instant::now();
        let Some(id) = id else {
            return false;
        };
        if seen.taken.contains(&id) {
            return true;
        }
        seen.taken.push_back(id);
        if seen.taken.len() > ACTS_REMEMBERED {
            seen.taken.pop_front();
        }
        false
    }

    /// Take one of `seat`'s goes at what it asks: the answers that cost the host (the whole
    /// view, the timeline, a past moment, a kept picture) are each held to a rate a seat.
    /// Pointers and orders are held by the desk.
    fn allow(&mut self, seat: &Seat, ask: &Ask) -> Result<(), Refusal> {
        let (what, per_second, burst) = match ask {
            Ask::Hello => ("hellos", 1.0, 4.0),
            Ask::View => ("views", 2.0, 4.0),
            Ask::Timeline { .. } => ("timelines", 1.0, 3.0),
            Ask::Moment { .. } => ("moments", 4.0, 8.0),
            Ask::Kept { .. } => ("kept pictures", 2.0, 4.0),
            Ask::Point { .. } | Ask::Order { .. } | Ask::Withdraw { .. } => return Ok(()),
        };
        if (self.asks).take((seat.clone(), what), per_second, burst, Instant::now()) {
            Ok(())
        } else {
            Err(Refusal::TooFast(what))
        }
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
                    Ok(json) => Reply::Timeline {
                        reading: raw(json),
                        q: inbound.q,
                    },
                    Err(refused) => Reply::NoTimeline {
                        text: refused.1,
                        q: inbound.q,
                    },
                });
            }
            Ask::Moment { t } => {
                return Some(match moment_json(&self.shared, moment(*t)).await {
                    Ok(json) => Reply::Moment {
                        answer: raw(json),
                        q: inbound.q,
                    },
                    Err(refused) => Reply::Refused {
                        text: refused.1,
                        q: inbound.q,
                    },
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
                    Err(refused) => Some(Reply::Refused {
                        text: refused.1,
                        q: inbound.q,
                    }),
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

    /// Count the pages heard from lately: pictures are sent while there are any. (Pages gone
    /// are remembered: their numbers keep a copy of their messages from being taken.)
    fn count_pages(&mut self) {
        let now = Instant::now();
        let here = (self.pages.values())
            .filter(|seen| now.duration_since(seen.at) < PRESENCE)
            .count();
        self.status.pages.store(here, Ordering::Relaxed);
    }
}
