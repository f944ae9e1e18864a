//! The pipeline's threads — capture, the pipeline itself, ruling — and the handle the faces
//! hold on them ([`Pipeline`]): commands in, the newest table state out.

use super::sources::plan;
use super::state::hand_over;
use super::*;

/// A source being read, with its processor.
struct Running {
    name: String,
    capture: Option<Capture>,
    processor: Processor,
    /// Whether a frame or an "opened" has come from the source yet.
    opened: bool,
    /// A live source: its frames are skipped when a stage is busy, never waited for.
    live: bool,
    setup: Setup,
    /// The last frame read: a source that has ended (a still picture) shows a change of
    /// roster, ruleset or calibration on it again, having no next frame to show it on.
    last_frame: Option<vision::Frame>,
    /// The game's record, if it is recorded.
    recorder: Option<record::Recorder>,
}

impl Running {
    fn new(name: String, plan: Option<SourcePlan>, mut inputs: Inputs, setup: Setup) -> Running {
        let recorder = recording::start(&setup.record, &name).unwrap_or_else(|e| {
            tracing::warn!("{e}");
            inputs.notes.push(e);
            None
        });
        Running {
            recorder,
            name,
            live: plan.as_ref().is_some_and(|p| p.live),
            capture: plan.map(Capture::start),
            processor: Processor::new(inputs),
            opened: false,
            setup,
            last_frame: None,
        }
    }

    /// The source started again (a looping video, the demo): a new game, in a record of its
    /// own, on the same calibration.
    fn new_game(&mut self) {
        self.processor.new_game();
        // The last game's record closes once the states still carrying it are gone.
        if self.recorder.take().is_none() {
            return;
        }
        // Numbered from the file asked for: game-2, game-3 … (not game-2-2).
        let again = match &self.setup.record {
            Recording::File(asked) => Recording::File(record::place::next_file(asked)),
            other => other.clone(),
        };
        tracing::info!("{}: started again, a new game", self.name);
        self.recorder = recording::start(&again, &self.name).unwrap_or_else(|e| {
            tracing::warn!("{e}");
            None
        });
    }
}

/// Start reading the source a setup names, with its table files. The source is opened on the
/// capture thread; the demo table stands in for a webcam that cannot be opened (see [`run`]).
fn open(setup: &Setup) -> (Running, Option<String>) {
    let name = setup.source.to_string();
    let (plan, inputs, error) = match &setup.source {
        SourceChoice::Demo => match Demo::new() {
            Ok(demo) => {
                let inputs = Inputs {
                    ruleset: setup.ruleset,
                    ..demo.inputs()
                };
                let mut source = Some(demo.source());
                let open: OpenSource = Box::new(move || {
                    let source = source.take().ok_or("the demo table was already opened")?;
                    Ok(Box::new(source) as Box<dyn FrameSource>)
                });
                (Some(plan(open, true, false)), inputs, None)
            }
            Err(e) => (None, Inputs::default(), Some(format!("demo table: {e:#}"))),
        },
        other => match source_plan(other) {
            Ok(plan) => (Some(plan), Inputs::load(setup), None),
            Err(e) => (None, Inputs::load(setup), Some(e)),
        },
    };
    (Running::new(name, plan, inputs, setup.clone()), error)
}

/// The newest table state, as the pipeline publishes it to the faces that watch it (the web
/// server, the hall's feed).
pub type States = tokio::sync::watch::Receiver<Option<Arc<TableState>>>;

/// The pipeline thread, as the UI holds it.
pub struct Pipeline {
    commands: Sender<Command>,
    latest: Arc<Mutex<Option<Arc<TableState>>>>,
    /// The newest state for watchers besides the UI (the table's server): a value replaced,
    /// never a queue, so a slow watcher never holds the pipeline up.
    watched: tokio::sync::watch::Receiver<Option<Arc<TableState>>>,
    /// The pipeline thread, then the ruling thread (stopped in that order).
    threads: Vec<JoinHandle<()>>,
}

impl Pipeline {
    /// Start the pipeline on a setup; `repaint` is called after each new state (egui's
    /// `request_repaint`, so the UI wakes only when there is something new).
    pub fn start(setup: Setup, repaint: impl Fn() + Send + 'static) -> Pipeline {
        Pipeline::spawn(move || start(&setup), repaint)
    }

    /// Start the pipeline on a source of the caller's (a camera driver of its own, a scripted
    /// source in tests), with these table files, recorded as `record` says; its frames are not
    /// paced, and each waits to be processed.
    pub fn start_on(
        source: Box<dyn FrameSource + Send>,
        inputs: Inputs,
        record: Recording,
        repaint: impl Fn() + Send + 'static,
    ) -> Pipeline {
        let first = move || {
            let name = source.name();
            let mut source = Some(source);
            let open: OpenSource = Box::new(move || {
                let source = source.take().ok_or("the source was already opened")?;
                Ok(source as Box<dyn FrameSource>)
            });
            // A caller's source is not paced, and waits for each frame to be processed.
            let plan = SourcePlan {
                open,
                paced: false,
                live: false,
                looped: false,
            };
            let setup = Setup {
                record,
                ..Setup::default()
            };
            let running = Running::new(name, Some(plan), inputs, setup);
            Next::One(Box::new(running), None)
        };
        Pipeline::spawn(first, repaint)
    }

    fn spawn(
        first: impl FnOnce() -> Next + Send + 'static,
        repaint: impl Fn() + Send + 'static,
    ) -> Pipeline {
        let (commands, receiver) = std::sync::mpsc::channel();
        let latest = Arc::new(Mutex::new(None));
        let shared = latest.clone();
        let (watchers, watched) = tokio::sync::watch::channel(None);
        let (to_ruling, states, skipped) = dropping::<(TableState, u64)>(1);
        let threads = [
            std::thread::Builder::new()
                .name("vedette-pipeline".into())
                .spawn(move || run(first(), &receiver, &to_ruling)),
            std::thread::Builder::new()
                .name("vedette-rulings".into())
                .spawn(move || rule_and_publish(&states, &skipped, &shared, &watchers, &repaint)),
        ];
        let threads = threads
            .into_iter()
            .filter_map(|t| {
                t.map_err(|e| tracing::error!("cannot start a pipeline thread: {e}"))
                    .ok()
            })
            .collect();
        Pipeline {
            commands,
            latest,
            watched,
            threads,
        }
    }

    /// Send a command (switch source, recalibrate).
    pub fn send(&self, command: Command) {
        if self.commands.send(command).is_err() {
            tracing::error!("the pipeline thread has stopped");
        }
    }

    /// The newest state, if one arrived since the last call.
    pub fn take_latest(&self) -> Option<Arc<TableState>> {
        self.latest.lock().ok().and_then(|mut l| l.take())
    }

    /// Every new state, for a watcher besides the UI (the table's server).
    pub fn watch(&self) -> States {
        self.watched.clone()
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        // Closing the channel stops the pipeline thread at its next frame, which closes the
        // ruling thread's queue.
        let (dead, _) = std::sync::mpsc::channel();
        self.commands = dead;
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// The ruling thread: rule each state (again only when a stand moved or the rules changed) and
/// put it in the UI's one-state slot.
fn rule_and_publish(
    states: &Receiver<(TableState, u64)>,
    skipped: &Counts,
    latest: &Mutex<Option<Arc<TableState>>>,
    watchers: &tokio::sync::watch::Sender<Option<Arc<TableState>>>,
    repaint: &dyn Fn(),
) {
    let mut ruler = Ruler::default();
    let mut keeper = Keeper::default();
    for (mut state, rules) in states {
        ruler.complete(&mut state, rules);
        let started = Instant::now();
        keeper.keep(&state, ruler.ruled());
        state.status.record_time = started.elapsed();
        state.status.dropped_frames += skipped.dropped();
        let state = Arc::new(state);
        watchers.send_replace(Some(state.clone()));
        if let Ok(mut slot) = latest.lock() {
            *slot = Some(state);
        }
        repaint();
    }
}

/// What the pipeline thread runs: one source, or several cameras over the table.
enum Next {
    One(Box<Running>, Option<String>),
    Rig(Setup, Vec<CameraChoice>),
}

/// Start what a setup names.
fn start(setup: &Setup) -> Next {
    match &setup.source {
        SourceChoice::Cameras(cameras) if !cameras.is_empty() => {
            Next::Rig(setup.clone(), cameras.clone())
        }
        _ => {
            let (running, error) = open(setup);
            Next::One(Box::new(running), error)
        }
    }
}

/// The pipeline thread: run one source or a rig, and whatever the UI opens next, until the
/// UI goes away.
fn run(first: Next, commands: &Receiver<Command>, to_ruling: &DropSender<(TableState, u64)>) {
    let mut next = first;
    loop {
        let opened = match next {
            Next::One(running, error) => run_one(*running, error, commands, to_ruling),
            Next::Rig(setup, cameras) => rig::run(&setup, &cameras, commands, to_ruling),
        };
        let Some(setup) = opened else {
            return;
        };
        next = start(&setup);
    }
}

/// Run one source until the UI opens several cameras (returned) or goes away (`None`).
fn run_one(
    mut running: Running,
    mut error: Option<String>,
    commands: &Receiver<Command>,
    to_ruling: &DropSender<(TableState, u64)>,
) -> Option<Setup> {
    loop {
        let command = if running.capture.is_none() {
            // Nothing to read: wait for the UI, without spinning.
            match commands.recv_timeout(Duration::from_millis(250)) {
                Ok(c) => Some(c),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        } else {
            match commands.try_recv() {
                Ok(c) => Some(c),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => return None,
            }
        };
        let changes_inputs = matches!(
            command,
            Some(Command::Recalibrate | Command::Roster(_) | Command::Ruleset(_))
        );
        match command {
            Some(Command::Open(setup)) => match start(&setup) {
                Next::One(next, e) => (running, error) = (*next, e),
                Next::Rig(..) => return Some(setup),
            },
            Some(Command::Recalibrate) => running.processor.recalibrate(),
            Some(Command::Roster(roster)) => running.processor.set_roster(*roster),
            Some(Command::Ruleset(ruleset)) => running.processor.set_ruleset(ruleset),
            Some(Command::ShowCamera(_)) | None => {}
        }
        if let Some(e) = error.take() {
            let mut message = TableState::message(&running.name, Some(e));
            message.recorder = running.recorder.clone();
            hand_over(to_ruling, message, 0, true);
        }
        if changes_inputs
            && running.capture.is_none()
            && let Some(frame) = &running.last_frame
        {
            let (mut state, rules) = running.processor.observe(frame, &running.name);
            state.recorder = running.recorder.clone();
            hand_over(to_ruling, state, rules, true);
        }
        let Some(capture) = &running.capture else {
            continue;
        };
        // Wake now and then to take the UI's commands.
        match capture.received.recv_timeout(Duration::from_millis(100)) {
            Ok(Captured::Opened(name)) => (running.name, running.opened) = (name, true),
            Ok(Captured::Restarted) => running.new_game(),
            Ok(Captured::Frame(frame)) => {
                running.opened = true;
                let dropped = capture.counts.dropped();
                let (mut state, rules) = running.processor.observe(&frame, &running.name);
                state.status.dropped_frames = dropped;
                state.recorder = running.recorder.clone();
                hand_over(to_ruling, state, rules, !running.live);
                running.last_frame = Some(frame);
            }
            Ok(Captured::Failed(message)) => {
                if !running.opened && matches!(running.setup.source, SourceChoice::Webcam { .. }) {
                    // No camera: the app stays alive on the demo table.
                    let demo = Setup {
                        source: SourceChoice::Demo,
                        ..Setup::default()
                    };
                    (running, _) = open(&demo);
                    error = Some(format!("{message}: showing the demo table instead"));
                } else {
                    // The game is still recorded while its camera is lost: say so.
                    let mut message = TableState::message(&running.name, Some(message));
                    message.recorder = running.recorder.clone();
                    hand_over(to_ruling, message, 0, true);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            // The source has ended (a picture, a sequence): keep the last state on screen.
            Err(RecvTimeoutError::Disconnected) => running.capture = None,
        }
    }
}
