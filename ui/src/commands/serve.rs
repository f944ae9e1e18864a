//! `vedette serve` and `vedette hub`: the table on every phone, and every table of a hall on one
//! screen (see [`crate::serve`]).

use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

use crate::serve::{Links, ServeOptions, Server, Token, qr};
use live::mqtt::Broker;
use live::pipeline::{
    CameraChoice, Pipeline, Recording, Setup, SourceChoice, check_rig, load_cameras,
};

/// Where `vedette serve` and the app take their frames and table files from.
#[derive(Debug, clap::Args)]
pub struct SourceArgs {
    /// The built-in demo table (what is served when no source is given).
    #[arg(long, conflicts_with_all = ["webcam", "video", "image", "cameras"])]
    pub demo: bool,
    /// A webcam, by index (0 is the first); give it again for several cameras over one
    /// table (`--webcam 0 --webcam 2`), each calibrating itself from the anchors.
    #[arg(long, value_name = "INDEX", conflicts_with_all = ["video", "image", "cameras"])]
    pub webcam: Vec<u32>,
    /// Several cameras over one table, from a cameras file (webcams, videos, pictures and
    /// remote cameras, each with its own calibration): see docs/guide/conventions.md.
    #[arg(long, value_name = "CAMERAS.toml", conflicts_with_all = ["video", "image", "calibration"])]
    pub cameras: Option<PathBuf>,
    /// A video file, played in a loop.
    #[arg(long, value_name = "FILE", conflicts_with = "image")]
    pub video: Option<PathBuf>,
    /// One picture.
    #[arg(long, value_name = "FILE")]
    pub image: Option<PathBuf>,
    /// A calibration made by `vedette calibrate`.
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// The anchors' layout (calibrates by itself when given).
    #[arg(long, value_name = "FILE")]
    pub anchors: Option<PathBuf>,
    /// The roster: which tag is on which stand.
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// A scene file whose terrain is on the table.
    #[arg(long, value_name = "FILE")]
    pub terrain: Option<PathBuf>,
    /// Where the game is recorded.
    #[command(flatten)]
    pub record: RecordArgs,
}

/// Where the game is recorded (`--record`, `--no-record`).
#[derive(Debug, Default, clap::Args)]
pub struct RecordArgs {
    /// Record the game into this file (an SQLite database; it must not exist yet) instead of
    /// the games folder (~/.local/share/vedette/games).
    #[arg(long, value_name = "FILE", conflicts_with = "no_record")]
    pub record: Option<PathBuf>,
    /// Do not record the game.
    #[arg(long)]
    pub no_record: bool,
}

impl RecordArgs {
    /// The choice the flags make.
    pub fn choice(&self) -> Recording {
        match (&self.record, self.no_record) {
            (_, true) => Recording::Off,
            (Some(path), false) => Recording::File(path.clone()),
            (None, false) => Recording::Kept,
        }
    }
}

impl SourceArgs {
    /// Whether the command line names a source or a table file (the app opens the source it
    /// used last when it does not).
    pub fn given(&self) -> bool {
        self.demo
            || !self.webcam.is_empty()
            || [
                &self.cameras,
                &self.video,
                &self.image,
                &self.calibration,
                &self.anchors,
                &self.roster,
                &self.terrain,
            ]
            .iter()
            .any(|p| p.is_some())
    }

    /// The setup the arguments name; a cameras file that cannot be used is an error naming it.
    pub fn setup(&self) -> anyhow::Result<Setup> {
        let source = match (
            self.webcam.as_slice(),
            &self.cameras,
            &self.video,
            &self.image,
        ) {
            ([index], ..) => SourceChoice::Webcam {
                index: *index,
                width: 1920,
                height: 1080,
            },
            ([_, _, ..], ..) => {
                let cameras = CameraChoice::webcams(&self.webcam);
                check_rig(&cameras).map_err(anyhow::Error::msg)?;
                SourceChoice::Cameras(cameras)
            }
            (_, Some(file), ..) => SourceChoice::Cameras(load_cameras(file)?),
            (_, _, Some(video), _) => SourceChoice::Video(video.clone()),
            (_, _, _, Some(image)) => SourceChoice::Image(image.clone()),
            _ => SourceChoice::Demo,
        };
        Ok(Setup {
            source,
            calibration: self.calibration.clone(),
            anchors: self.anchors.clone(),
            roster: self.roster.clone(),
            terrain: self.terrain.clone(),
            ruleset: None,
            record: self.record.choice(),
        })
    }
}

/// How the table is served.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Frames and table files.
    #[command(flatten)]
    pub source: SourceArgs,
    /// Where to listen: every interface by default, so phones on the same network reach it.
    #[arg(long, default_value = "0.0.0.0:8765")]
    pub listen: SocketAddr,
    /// The host name or address links should name (default: this machine's address on its
    /// network).
    #[arg(long)]
    pub host: Option<String>,
    /// The table's name, on pages and in MQTT topics (default: the scenario's name).
    #[arg(long)]
    pub name: Option<String>,
    /// The viewers' token (default: a new random one each time): fix it to print the link on
    /// a card. 8–64 lower-case letters, digits, '-' or '_'.
    #[arg(long)]
    pub token: Option<Token>,
    /// The umpire's token (default: a new random one each time).
    #[arg(long)]
    pub umpire_token: Option<Token>,
    /// Most pages at once; more are refused.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_viewers: u32,
    /// Most updates a second sent to pages (0.5–30).
    #[arg(long, default_value_t = 10.0, value_parser = rate)]
    pub rate: f64,
    /// Publish the table to an MQTT broker too: mqtt://host[:port][/table].
    #[arg(long, value_name = "URL")]
    pub mqtt: Option<Broker>,
    /// Where the umpire's cases are saved.
    #[arg(long, default_value = "vedette-cases")]
    pub cases: PathBuf,
    /// Stop after this many seconds (default: until Ctrl-C).
    #[arg(long)]
    pub seconds: Option<f64>,
}

fn rate(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number"))?;
    if (0.5..=30.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} updates a second: give 0.5 to 30"))
    }
}

/// How the hall's hub runs.
#[derive(Debug, clap::Args)]
pub struct HubArgs {
    /// The broker the tables publish to: mqtt://host[:port].
    #[arg(long, value_name = "URL")]
    pub mqtt: Broker,
    /// Where to listen.
    #[arg(long, default_value = "0.0.0.0:8764")]
    pub listen: SocketAddr,
    /// The host name or address the link should name.
    #[arg(long)]
    pub host: Option<String>,
    /// The hub's token (default: a new random one).
    #[arg(long)]
    pub token: Option<Token>,
    /// Stop after this many seconds (default: until Ctrl-C).
    #[arg(long)]
    pub seconds: Option<f64>,
}

/// `vedette serve`.
pub fn serve(args: &ServeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let setup = args.source.setup()?;
    let name = match (&args.name, &setup.source) {
        (None, SourceChoice::Demo) => Some("Demo table: Crimea River".to_owned()),
        (name, _) => name.clone(),
    };
    let pipeline = Pipeline::start(setup, || {});
    let options = ServeOptions {
        listen: args.listen,
        host: args.host.clone(),
        name,
        token: args.token.clone(),
        umpire_token: args.umpire_token.clone(),
        max_viewers: args.max_viewers as usize,
        rate: args.rate,
        mqtt: args.mqtt.clone(),
        cases: args.cases.clone(),
    };
    let server = Server::start(options, pipeline.watch())?;
    say_links(server.links(), out)?;
    if let Some(broker) = &args.mqtt {
        writeln!(out, "publishing to {broker} for the hall's hub")?;
    }
    out.flush()?;
    wait(args.seconds)?;
    writeln!(out, "stopped")?;
    Ok(())
}

fn say_links(links: &Links, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(out, "table: {}", links.viewer)?;
    if std::io::stdout().is_terminal()
        && let Some(code) = qr::terminal(&links.viewer)
    {
        write!(out, "{code}")?;
    }
    writeln!(
        out,
        "umpire: {} (keep it to yourself: it can freeze the view and save cases)",
        links.umpire
    )?;
    Ok(())
}

/// `vedette hub`.
pub fn hub(args: &HubArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let hub = crate::serve::hub::Hub::start(
        args.mqtt.clone(),
        args.listen,
        args.host.clone(),
        args.token.clone(),
    )?;
    writeln!(out, "hub: {}", hub.link())?;
    writeln!(out, "following the tables on {}", args.mqtt)?;
    out.flush()?;
    wait(args.seconds)?;
    writeln!(out, "stopped")?;
    Ok(())
}

/// Until Ctrl-C, SIGTERM or SIGHUP ([`live::stopping`]), or `seconds`.
fn wait(seconds: Option<f64>) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot wait for Ctrl-C")?;
    runtime.block_on(async {
        let limit = Duration::from_secs_f64(seconds.unwrap_or(1e9).clamp(0.0, 1e9));
        tokio::select! {
            signal = live::stopping::stop_signal() => tracing::info!("{signal}: stopping"),
            () = tokio::time::sleep(limit) => {}
        }
    });
    Ok(())
}
