//! The feed: table states in; one view, and patches of it, out — serialised once, shared by
//! every page (and the MQTT publisher).

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::{Notify, broadcast, watch};

use super::view::{DeskView, Patch, TableView, ruling_view};
use live::orders::Desk;
use live::pipeline::States;
use live::pipeline::TableState;
use live::umpire::TurnMarker;

/// Patches a page may fall behind by before it is sent the whole view instead.
const BACKLOG: usize = 32;

/// The view pages are sent, as of one state.
#[derive(Debug)]
pub struct Snapshot {
    /// Its number: patches after it have larger ones.
    pub seq: u64,
    /// The view.
    pub view: TableView,
    /// The state it was made from (for the picture and the umpire's cases).
    pub state: Arc<TableState>,
    /// The whole view as a page's message, made when a page first asks for it.
    full: OnceLock<Arc<str>>,
}

impl Snapshot {
    /// The message that sends a page the whole view.
    pub fn full_message(&self) -> Arc<str> {
        self.full
            .get_or_init(|| message(&Message::Full(self.seq, &self.view)))
            .clone()
    }
}

/// A change to broadcast: a patch, or the whole view when the table itself changed.
#[derive(Debug)]
pub struct Update {
    /// Its number.
    pub seq: u64,
    /// The message to send as it is.
    pub message: Arc<str>,
}

/// What the server sends pages (besides replies to the umpire).
enum Message<'v> {
    Full(u64, &'v TableView),
    Patch(u64, &'v Patch),
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum Wire<'v> {
    Full { seq: u64, view: &'v TableView },
    Patch { seq: u64, patch: &'v Patch },
}

fn message(message: &Message) -> Arc<str> {
    let wire = match message {
        Message::Full(seq, view) => Wire::Full { seq: *seq, view },
        Message::Patch(seq, patch) => Wire::Patch { seq: *seq, patch },
    };
    // Views hold only strings, numbers and finite coordinates: serialising cannot fail, and
    // if it ever did the page would be told nothing rather than something wrong.
    serde_json::to_string(&wire).unwrap_or_default().into()
}

/// About one update a `period`, without holding back one that comes a little early: a bucket of
/// two updates, refilled a tenth faster than one a period. A camera giving exactly the rate's
/// frames a second (the demo: 10 and 10) drifts a little ahead of any clock; held to the exact
/// rate its frames would wait for their turn, up to a whole period (measured: half of one on
/// average, p95 90 ms), where now they go at once.
struct Pace {
    period: Duration,
    tokens: f64,
    last: tokio::time::Instant,
}

impl Pace {
    const BURST: f64 = 2.0;
    const SLACK: f64 = 1.1;

    fn new(period: Duration) -> Pace {
        Pace {
            period,
            tokens: Pace::BURST,
            last: tokio::time::Instant::now(),
        }
    }

    /// Wait, if need be, until an update may go, and count it.
    async fn take(&mut self) {
        let now = tokio::time::Instant::now();
        let refilled =
            now.duration_since(self.last).as_secs_f64() / self.period.as_secs_f64() * Pace::SLACK;
        self.tokens = (self.tokens + refilled).min(Pace::BURST);
        self.last = now;
        if self.tokens < 1.0 {
            let wait = self.period.mul_f64(1.0 - self.tokens);
            tokio::time::sleep(wait).await;
            self.last = tokio::time::Instant::now();
            self.tokens = 1.0;
        }
        self.tokens -= 1.0;
    }
}

/// What the umpire has done to the served view.
#[derive(Debug, Default)]
struct Control {
    frozen: bool,
    marker: TurnMarker,
}

/// The feed as handlers hold it.
#[derive(Clone)]
pub struct Feed {
    snapshot: watch::Receiver<Option<Arc<Snapshot>>>,
    updates: broadcast::Sender<Arc<Update>>,
    control: Arc<Mutex<Control>>,
    changed: Arc<Notify>,
    name: Option<String>,
    desk: Desk,
}

impl Feed {
    /// A feed of `states`, with the remote players' `desk` beside them, and the task that
    /// feeds it (updates at most once a `period`).
    pub fn new(
        states: States,
        desk: Desk,
        name: Option<String>,
        period: Duration,
    ) -> (Feed, impl std::future::Future<Output = ()>) {
        let (snapshot_in, snapshot) = watch::channel(None);
        let (updates, _) = broadcast::channel(BACKLOG);
        let feed = Feed {
            snapshot,
            updates,
            control: Arc::default(),
            changed: Arc::new(Notify::new()),
            name,
            desk,
        };
        let task = feed.clone().run(states, snapshot_in, period);
        (feed, task)
    }

    /// The newest snapshot, if the table has been seen yet.
    pub fn snapshot(&self) -> Option<Arc<Snapshot>> {
        self.snapshot.borrow().clone()
    }

    /// A receiver of snapshots, for tasks that wait for the next one.
    pub fn snapshots(&self) -> watch::Receiver<Option<Arc<Snapshot>>> {
        self.snapshot.clone()
    }

    /// Updates from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Update>> {
        self.updates.subscribe()
    }

    /// The table's name: the one it was given, else its scenario's, else "table".
    pub fn name(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        self.snapshot()
            .map(|s| s.view.table.name.clone())
            .unwrap_or_else(|| "table".into())
    }

    /// The remote players' desk.
    pub fn desk(&self) -> &Desk {
        &self.desk
    }

    /// Send pages the desk as it is now (a pointer put down, an order given), without waiting
    /// for the camera's next frame.
    pub fn desk_changed(&self) {
        self.changed.notify_one();
    }

    /// Freeze the view (pages keep the table as it is now) or let it follow the table again.
    pub fn set_frozen(&self, frozen: bool) {
        if let Ok(mut control) = self.control.lock() {
            control.frozen = frozen;
        }
        self.changed.notify_one();
    }

    /// Start a new turn with the table as it is now; the turn's number, or `None` if there is
    /// no table yet.
    pub fn mark_turn(&self) -> Option<u32> {
        let state = self.snapshot()?.state.clone();
        let scene = state.scene.clone()?;
        let turn = self.control.lock().ok().map(|mut control| {
            control.marker.mark(scene);
            control.marker.turn
        });
        if let Some(turn) = turn {
            live::umpire::record_turn(&state, turn);
        }
        self.changed.notify_one();
        turn
    }

    async fn run(
        self,
        mut states: States,
        snapshot: watch::Sender<Option<Arc<Snapshot>>>,
        period: Duration,
    ) {
        let mut seq = 0;
        let mut latest: Option<Arc<TableState>> = None;
        let mut pace = Pace::new(period);
        loop {
            tokio::select! {
                changed = states.changed() => {
                    if changed.is_err() {
                        tracing::debug!("the pipeline has stopped: the feed ends");
                        return;
                    }
                    latest = states.borrow_and_update().clone().or(latest);
                }
                () = self.changed.notified() => {}
            }
            if latest.is_none() {
                continue;
            }
            pace.take().await;
            // Whatever came while waiting: the newest.
            if states.has_changed().unwrap_or(false) {
                latest = states.borrow_and_update().clone().or(latest);
            }
            let Some(state) = latest.clone() else {
                continue;
            };
            let before = snapshot.borrow().clone();
            let Some((state, view)) = self.next(state, before.as_deref()) else {
                continue;
            };
            let patch = before.as_ref().and_then(|b| view.patch_from(&b.view));
            if patch.as_ref().is_some_and(Patch::is_empty) {
                continue;
            }
            seq += 1;
            let made = Arc::new(Snapshot {
                seq,
                view,
                state,
                full: OnceLock::new(),
            });
            let message = match &patch {
                Some(patch) => message(&Message::Patch(seq, patch)),
                None => made.full_message(),
            };
            snapshot.send_replace(Some(made));
            // No page listening is not an error.
            let _ = self.updates.send(Arc::new(Update { seq, message }));
        }
    }

    /// What to publish for `state`: the table as it is, with the turn's moves, or — while the
    /// umpire has frozen it — the table as it was, with only its status saying so.
    fn next(
        &self,
        state: Arc<TableState>,
        before: Option<&Snapshot>,
    ) -> Option<(Arc<TableState>, TableView)> {
        let control = self.control.lock().ok()?;
        self.desk.follow(&state);
        let board = self.desk.board();
        if let (true, Some(before)) = (control.frozen, before) {
            let mut kept = before.view.clone();
            kept.status.frozen = true;
            kept.status.turn = control.marker.turn;
            if let Some(scene) = &before.state.scene {
                kept.remote = DeskView::of(&board, scene);
            }
            return Some((before.state.clone(), kept));
        }
        let scenario = state
            .scene
            .as_ref()
            .and_then(|scene| scene.scenario.as_ref())
            .map(|s| s.name.as_str());
        let name = self.name.as_deref().or(scenario).unwrap_or("table");
        let mut view = TableView::of(&state, name)?;
        view.status.turn = control.marker.turn;
        if let Some(scene) = &state.scene {
            view.remote = DeskView::of(&board, scene);
            for check in control.marker.moves(scene) {
                if let Some(rulings) = view.rulings.get_mut(&check.unit) {
                    rulings.extend(check.rulings.iter().map(ruling_view));
                }
            }
        }
        Some((state, view))
    }
}
