//! `vedette camera --mqtt mqtt://host/table --name NAME --webcam 0`: this machine's camera as
//! one camera of a table run on another (see [`live::remote`]): it detects, calibrates,
//! learns its lens and tracks here, and sends each frame's tags with its capture time.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, bail};

use live::capture::{Capture, Captured};
use live::mqtt::Broker;
use live::pipeline::{Inputs, Processor, Setup, SourceChoice, source_plan};
use live::remote::{Sender, TagsMessage, WireTag, unix_ms};

/// The arguments of `vedette camera`.
#[derive(Debug, clap::Args)]
pub struct CameraCommand {
    /// The hall's broker and the table this camera looks at: mqtt://host[:port]/table.
    #[arg(long, value_name = "URL")]
    pub mqtt: Broker,
    /// The camera's name, as the table's cameras file names it (`mqtt = …` under this name).
    #[arg(long)]
    pub name: String,
    /// A webcam, by index.
    #[arg(long, value_name = "INDEX", conflicts_with_all = ["video", "image"])]
    pub webcam: Option<u32>,
    /// A video file, played in a loop.
    #[arg(long, value_name = "FILE", conflicts_with = "image")]
    pub video: Option<PathBuf>,
    /// One picture (it keeps saying what it shows).
    #[arg(long, value_name = "FILE")]
    pub image: Option<PathBuf>,
    /// This camera's calibration (`vedette calibrate`).
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// The anchors' layout: the camera calibrates itself from them.
    #[arg(long, value_name = "FILE")]
    pub anchors: Option<PathBuf>,
    /// The roster: which tag is on which stand (its tags' sizes and heights).
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// Stop after this many seconds (default: until Ctrl-C).
    #[arg(long)]
    pub seconds: Option<f64>,
}

/// How often the camera says how it is doing.
const REPORT_EVERY: Duration = Duration::from_secs(5);

impl CameraCommand {
    /// Look and send until stopped.
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let source = match (self.webcam, &self.video, &self.image) {
            (Some(index), ..) => SourceChoice::Webcam {
                index,
                width: 1920,
                height: 1080,
            },
            (_, Some(video), _) => SourceChoice::Video(video.clone()),
            (_, _, Some(image)) => SourceChoice::Image(image.clone()),
            _ => bail!("no camera given: --webcam INDEX, --video FILE or --image FILE"),
        };
        if self.mqtt.table.is_none() {
            bail!(
                "{}: name the table too, mqtt://host[:port]/table, as the table's cameras file does",
                self.mqtt
            );
        }
        let setup = Setup {
            source: source.clone(),
            calibration: self.calibration.clone(),
            anchors: self.anchors.clone(),
            roster: self.roster.clone(),
            ..Setup::default()
        };
        let inputs = Inputs::load(&setup);
        for note in &inputs.notes {
            writeln!(out, "! {note}")?;
        }
        if inputs.calibration.is_none() && inputs.anchors.is_none() {
            bail!(
                "the camera cannot place tags: give --calibration, or --anchors to calibrate here"
            );
        }
        let capture = Capture::start(source_plan(&source).map_err(anyhow::Error::msg)?);
        let mut sender = Sender::connect(&self.mqtt, &self.name).context("cannot start sending")?;
        writeln!(out, "camera {} → {} ({source})", self.name, self.mqtt)?;
        let mut processor = Processor::new(inputs);
        let mut sending = Sending::default();
        let until = self
            .seconds
            .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
        let mut said = Instant::now();
        while until.is_none_or(|u| Instant::now() < u) {
            match capture.received.recv_timeout(Duration::from_millis(100)) {
                Ok(Captured::Frame(frame)) => {
                    let captured = SystemTime::now();
                    let (state, word) = processor.look(&frame, &self.name);
                    let message =
                        sending.message(captured, state.status.pipeline_fps, word.as_ref());
                    if let Some(word) = &word {
                        sender.calibration(&word.calibration);
                    }
                    sender.tags(&message);
                    if let Some(error) = state.status.error {
                        writeln!(out, "! {error}")?;
                    }
                }
                Ok(Captured::Opened(name)) => writeln!(out, "opened {name}")?,
                Ok(Captured::Restarted) => processor.new_game(),
                Ok(Captured::Failed(why)) => writeln!(out, "! {why}")?,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                // A picture has ended: what it shows is still the table now.
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    if let Some(again) = sending.again(SystemTime::now()) {
                        sender.tags(&again);
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
            if said.elapsed() >= REPORT_EVERY {
                writeln!(out, "{} frames sent", sending.seq)?;
                said = Instant::now();
            }
        }
        writeln!(out, "{} frames sent", sending.seq)?;
        Ok(())
    }
}

/// The frames sent so far, and the last.
#[derive(Default)]
struct Sending {
    seq: u64,
    last: Option<TagsMessage>,
}

impl Sending {
    /// The message of a frame captured at `captured`: its tags in view now and held (none
    /// before the camera is calibrated).
    fn message(
        &mut self,
        captured: SystemTime,
        fps: f64,
        word: Option<&live::pipeline::CameraWord>,
    ) -> TagsMessage {
        let (now, held) = word.map_or_else(Default::default, |w| {
            vision::rig::rests_to_report(&w.tracked)
        });
        let wire = |tags: Vec<vision::LocatedTag>| tags.iter().map(WireTag::from).collect();
        let message = TagsMessage {
            seq: self.seq,
            captured_ms: unix_ms(captured),
            fps,
            now: wire(now),
            held: wire(held),
        };
        self.seq += 1;
        self.last = Some(message.clone());
        message
    }

    /// The last frame again, as captured at `captured` (a picture's table is the table now).
    fn again(&mut self, captured: SystemTime) -> Option<TagsMessage> {
        let mut message = self.last.clone()?;
        message.seq = self.seq;
        message.captured_ms = unix_ms(captured);
        self.seq += 1;
        Some(message)
    }
}
