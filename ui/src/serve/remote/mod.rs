//! The table for players far from it, through an MQTT broker both ends can reach: the host
//! opens no port, the players' pages speak MQTT over WebSockets to the same broker.
//!
//! Topics, under `vedette/<table>/` (the hall's, [`super::hall`], are beside them: `view`,
//! retained, gives a page that joins the whole table at once, and `online` says whether the
//! host is there):
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

mod inbound;
mod parts;
mod picture;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use live::Token;
use live::mqtt::{Broker, drive_telling, options, topic, topic_name};
use live::orders::{Refusal, Seat, Seats};
use record::GameTime;
use rumqttc::{AsyncClient, Event, Packet, QoS};
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

use super::replay::{LATEST, kept_picture, moment_json, timeline_json};
use super::shared::Shared;
use crate::args::RemoteArgs;
use inbound::{Ask, Inbound, Unread};
pub use picture::BUDGET as PICTURE_BUDGET;

/// Pictures sent a second at most, while remote pages are there.
const PICTURES_PER_SECOND: f64 = 3.0;
/// How long a page is counted as there after its last hello (pages say it every 10 s).
const PRESENCE: Duration = Duration::from_secs(30);
/// Pages' messages waiting to be answered at most; a flood beyond it is dropped.
const WAITING: usize = 256;

/// Where remote players reach the table.
#[derive(Clone, Debug)]
pub struct Remote {
    /// The broker, as the host reaches it.
    pub broker: Broker,
    /// The broker, as pages reach it: `ws://…` or `wss://…`.
    pub pages_broker: String,
    /// Where the remote player's page is: the links add the broker, table and token to it.
    pub page: String,
    /// The seats: a token a side, and the umpire's.
    pub seats: Seats,
    /// The user name and password pages give the broker, if it asks for them.
    pub player_login: Option<(String, String)>,
}

impl Remote {
    /// The remote table the command line asks for, with a seat for each of `sides` and the
    /// umpire (`umpire`'s token, or a new one); `None` without `--remote`.
    pub fn from_args(args: &RemoteArgs, sides: &[String], umpire: Option<Token>) -> Option<Remote> {
        let given = args.side_token.iter().cloned().collect();
        Some(Remote {
            broker: args.remote.clone()?,
            pages_broker: args.pages_broker()?,
            page: args.page()?,
            seats: Seats::new(sides, &given, umpire),
            player_login: args.player_login.clone(),
        })
    }

    /// The table's name in the topics.
    pub fn table(&self, name: &str) -> String {
        self.broker
            .table
            .clone()
            .unwrap_or_else(|| topic_name(name))
    }

    /// Each seat's link: its page with the broker, table and token after `#` (a fragment never
    /// reaches the server that hosts the page).
    pub fn links(&self, name: &str) -> Vec<(Seat, String)> {
        let table = self.table(name);
        let login = match &self.player_login {
            Some((user, password)) => {
                format!("&user={}&password={}", encode(user), encode(password))
            }
            None => String::new(),
        };
        let link = |token: &Token| {
            format!(
                "{}#broker={}&table={}&token={token}{login}",
                self.page,
                encode(&self.pages_broker),
                encode(&table)
            )
        };
        let sides =
            (self.seats.sides()).map(|(side, token)| (Seat::Side(side.into()), link(token)));
        sides
            .chain([(Seat::Umpire, link(self.seats.umpire()))])
            .collect()
    }
}

/// `text` for a link's fragment: all but letters, digits and `-._~` percent-encoded.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A moment a page asks for, no later than the latest a game may reach.
fn moment(ms: u64) -> GameTime {
    GameTime::from_millis(ms.min(LATEST))
}

/// How the remote link is doing, for the host's faces.
#[derive(Debug, Default)]
pub struct RemoteStatus {
    connected: AtomicBool,
    pages: AtomicUsize,
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
    Timeline { reading: serde_json::Value },
    /// A moment of the game, as pages on the room's network get it.
    Moment { answer: serde_json::Value },
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
    tokio::spawn(send_pictures(
        Sender::new(client),
        topic(&link.table, "picture"),
        link.shared.clone(),
        link.status.clone(),
    ));
    link.serve(&mut from_pages).await;
}

/// Publishes messages to pages in parts ([`parts`]), numbering them.
struct Sender {
    client: AsyncClient,
    next: AtomicU32,
}

impl Sender {
    fn new(client: AsyncClient) -> Sender {
        Sender {
            client,
            next: AtomicU32::new(0),
        }
    }

    /// Publish without waiting: while the broker is away, what cannot be queued is dropped
    /// (the next update, the next picture take its place; a page drops a message missing a
    /// part).
    fn send(&self, topic: &str, message: &[u8]) {
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
                    Ok(json) => Reply::Timeline {
                        reading: serde_json::from_str(&json).unwrap_or_default(),
                    },
                    Err(refused) => Reply::NoTimeline { text: refused.1 },
                });
            }
            Ask::Moment { t } => {
                return Some(match moment_json(&self.shared, moment(*t)).await {
                    Ok(json) => Reply::Moment {
                        answer: serde_json::from_str(&json).unwrap_or_default(),
                    },
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
                let text = refusal.to_string();
                self.shared
                    .refusals
                    .log(&inbound.page, &format!("a remote page's message: {text}"));
                Some(Reply::Refused { text })
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

/// Send the newest picture a few times a second while remote pages are there to see it.
async fn send_pictures(
    sender: Sender,
    topic: String,
    shared: Arc<Shared>,
    status: Arc<RemoteStatus>,
) {
    let mut pictures = picture::Pictures::default();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / PICTURES_PER_SECOND));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        if status.pages() == 0 {
            continue;
        }
        let Some(snapshot) = shared.feed.snapshot() else {
            continue;
        };
        if let Some(jpeg) = pictures.next(&snapshot.state).await {
            sender.send(&topic, &jpeg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_seat_has_a_link_carrying_the_broker_the_table_and_its_token_after_the_hash() {
        let args = RemoteArgs {
            remote: Some("mqtt://club.example/Table 7".parse().expect("a broker")),
            player_login: Some(("players".into(), "a&b".into())),
            side_token: vec![("red".into(), Token::parse("red-secret").expect("a token"))],
            ..RemoteArgs::default()
        };
        let remote =
            Remote::from_args(&args, &["red".into(), "blue".into()], None).expect("remote");
        let links = remote.links("ignored");
        assert_eq!(links.len(), 3);
        let (seat, red) = &links
            .iter()
            .find(|(s, _)| s.side() == Some("red"))
            .expect("red");
        assert_eq!(seat, &Seat::Side("red".into()));
        assert_eq!(
            red,
            "http://club.example:9001/vedette/remote.html#broker=ws%3A%2F%2Fclub.example%3A9001\
             &table=Table-7&token=red-secret&user=players&password=a%26b"
        );
        assert!(links.iter().any(|(s, _)| *s == Seat::Umpire));
    }
}
