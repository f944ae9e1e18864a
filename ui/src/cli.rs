//! The command-line interface: argument definitions, logging set-up and dispatch.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::{bench, commands};

/// Vedette — a computer-vision table companion for historical miniature wargames.
#[derive(Debug, Parser)]
#[command(name = "vedette", version, about, long_about = None)]
pub struct Cli {
    /// More log output on stderr: -v for progress, -vv for detail, -vvv for everything.
    /// (RUST_LOG overrides it.)
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,

    /// A ruleset profile (TOML) to use instead of the built-in one: adjusted ranges, moves,
    /// tolerance or distance scale. `vedette profile black-powder` prints the built-in one.
    #[arg(long, global = true, value_name = "FILE")]
    pub profile: Option<PathBuf>,

    /// What the app opens (with no subcommand; without any, the source it used last), and
    /// where it records the game.
    #[command(flatten)]
    pub source: crate::args::SourceArgs,

    /// Players far from the table (the app shares the table through the broker as it opens).
    #[command(flatten)]
    pub remote: crate::args::RemoteArgs,

    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the app on the built-in demo table (a Black Powder scenario played by the synthetic
    /// camera), whatever source was used last.
    Demo(crate::args::RecordArgs),
    /// Render the app headless to a PNG (no display needed): the look, checked in tests.
    Screenshot {
        /// Show the demo table (the only source for screenshots so far).
        #[arg(long, required = true)]
        demo: bool,
        /// The picture to write.
        output: PathBuf,
        /// The demo's turn to show (1 is the opening positions).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..))]
        turn: u16,
        /// Show the turn's moves half made: the units sliding, one carried in a hand (drawn
        /// where it is seen, dashed, beside where it rests for the rules), after the pipeline
        /// has watched the turn for a few seconds (tags' health read, moves listed).
        #[arg(long)]
        moving: bool,
        /// The unit to select (default: one that must shoot at someone).
        #[arg(long, value_name = "UNIT")]
        select: Option<String>,
    },
    /// Serve the table to browsers on the local network: a live plan, each unit's rulings, a
    /// tape and the camera's picture on every phone; a link for viewers and one for the umpire
    /// (with a QR code in a terminal). With no source, the built-in demo table.
    Serve(Box<crate::serve::command::ServeArgs>),
    /// Show every table of a hall on one page, from the MQTT broker the tables publish to
    /// (`vedette serve --mqtt`).
    Hub(crate::hub::command::HubArgs),
    /// Write the remote player's page (HTML and scripts) into a folder, for a web server the
    /// remote players reach: mosquitto's own (`http_dir`), a club's site. `vedette serve
    /// --remote` links to it.
    RemotePage {
        /// The folder: the page goes in its `vedette/` folder (made if missing).
        folder: std::path::PathBuf,
    },
    /// Write a mosquitto broker for a remote game into a folder: its configuration (a plain
    /// MQTT listener for the host, a WebSockets one for the players' pages, serving the remote
    /// page), an access list giving the host its table and the players only what a page needs,
    /// two accounts with random passwords, and the remote page. Prints how to start it and the
    /// `vedette serve --remote …` line to use.
    RemoteBroker(crate::serve::broker_files::RemoteBrokerArgs),
    /// Print the basic measurements of a scene: for every unit its position, move and range;
    /// for every pair of enemy units the edge-to-edge distance, the range from the leader,
    /// the quarter one stands in, the fraction in the fire arc, and whether it is in range.
    Measure(commands::measure::MeasureCommand),
    /// Print every ruling for a scene, grouped by unit: who each unit must or may shoot and
    /// why, who it can charge and on which face, its supports, its command distance and the
    /// 12" rule, brigade cohesion and contacts. Borderline cases are marked for the players.
    Rulings(commands::rulings::RulingsCommand),
    /// Be one camera of a table run on another machine: detect, place and track here, and
    /// send each frame's tags with its capture time over MQTT (the table lists this camera in
    /// its cameras file as `mqtt = "mqtt://host/table"` under the same name).
    Camera(crate::camera::CameraCommand),
    /// Print a built-in ruleset profile (TOML), to copy and adjust for --profile.
    Profile {
        /// The ruleset, e.g. black-powder.
        ruleset: String,
    },
    /// Benchmarks that print their figures.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Find the AprilTags in a picture: ids, centres and corners in pixels.
    Detect(commands::detect::DetectCommand),
    /// Calibrate the camera against the table and measure its lens, from every tag of known
    /// size in the pictures: the anchors, the roster's stand tags (--roster), and the
    /// calibration board in any picture that shows it.
    Calibrate(commands::calibrate::CalibrateCommand),
    /// Place every tag of a picture on the table: centre in inches and facing in degrees,
    /// with what it is on; with a roster, the scene.
    Locate(commands::locate::LocateCommand),
    /// The whole pipeline: picture → tags → scene → every ruling, with an annotated picture.
    Analyze(commands::locate::AnalyzeCommand),
    /// Find the terrain on the table in one calibrated picture (woods, rough ground, hills,
    /// rivers, roads, buildings, walls and hedges), each with how sure it is, and write it as a
    /// scene file that `rulings`, `locate --terrain` and the app read.
    Terrain(commands::terrain::TerrainCommand),
    /// Render a synthetic camera picture of a scene with a tag on every stand and the anchors
    /// in the corners: try the camera commands without a camera, or see how big your tags
    /// will look.
    Render(commands::render::RenderCommand),
    /// Compare two scenes of the same units (before and after a move) and check each unit's
    /// move against its allowance, with terrain, and the 12" rule's front-or-rear constraint.
    CheckMove(commands::check_move::CheckMoveCommand),
    /// Print tag sheets (PDF, SVG or a PNG preview) to stick on bases and movement trays:
    /// chosen ids at one size, or every tag of a roster on its stand's outline.
    Tags(commands::printables::TagsCommand),
    /// Print the anchor kit: from an anchors file (--layout), or a standard kit of 4 (the
    /// corners), 6 (and the middles of the long edges) or 8 anchors (and of every edge) for a
    /// table (--kit, --table, with --save-layout to write its anchors file); or the calibration
    /// board (--board).
    Anchors(commands::printables::AnchorsCommand),
    /// Open a recorded game in the app: scrub its timeline, step move by move and turn by
    /// turn, compare two moments. GAME is a record (from the games folder, or `--record`) or
    /// its notation (`vedette report GAME -o game.txt`).
    Replay(crate::app::replay_command::ReplayCommand),
    /// Write a battle report of a recorded game: a plan per turn with each move as an arrow,
    /// charges marked, the turn's notable rulings and the camera's pictures (HTML, PDF or PNG
    /// pages), or the game's notation, one line per move (.txt).
    Report(crate::report::command::ReportCommand),
    /// Army rosters: which tag is on which stand of which unit.
    #[command(subcommand)]
    Roster(commands::roster::RosterCommand),
}

/// Run a parsed command line, writing its report to `out`.
pub fn run(cli: &Cli, out: &mut dyn Write) -> anyhow::Result<()> {
    match &cli.command {
        Some(Command::Serve(args)) => crate::serve::command::serve(args, out),
        Some(Command::Hub(args)) => crate::hub::command::hub(args, out),
        Some(Command::RemotePage { folder }) => crate::serve::command::remote_page(folder, out),
        Some(Command::RemoteBroker(args)) => crate::serve::broker_files::remote_broker(args, out),
        Some(Command::Measure(command)) => command.run(cli.profile.as_deref(), out),
        Some(Command::Rulings(command)) => command.run(cli.profile.as_deref(), out),
        Some(Command::Profile { ruleset }) => commands::print_profile(ruleset, out),
        Some(Command::CheckMove(command)) => command.run(cli.profile.as_deref(), out),
        Some(Command::Detect(command)) => command.run(out),
        Some(Command::Calibrate(command)) => command.run(out),
        Some(Command::Camera(command)) => command.run(out),
        Some(Command::Locate(command)) => command.run(out),
        Some(Command::Terrain(command)) => command.run(out),
        Some(Command::Analyze(command)) => command.run(out),
        Some(Command::Render(command)) => command.run(out),
        Some(Command::Screenshot {
            demo: _,
            output,
            turn,
            moving,
            select,
        }) => crate::app::headless::screenshot(
            output,
            usize::from(*turn) - 1,
            *moving,
            select.clone(),
            out,
        ),
        Some(Command::Tags(command)) => command.run(out),
        Some(Command::Anchors(command)) => command.run(out),
        Some(Command::Bench(command)) => bench::run(command, out),
        Some(Command::Roster(command)) => commands::roster::run(command, out),
        Some(Command::Replay(command)) => command.run(out),
        Some(Command::Report(command)) => command.run(out),
        Some(Command::Demo(record)) => crate::app::run(
            Some(live::pipeline::Setup::default()),
            record.choice(),
            crate::serve::starter(None),
            false,
        ),
        None => {
            let given = cli.source.given().then(|| cli.source.setup()).transpose()?;
            let remote = remote_for_app(&cli.remote, given.as_ref(), out)?;
            let share_now = remote.is_some();
            let starter = crate::serve::starter(remote);
            crate::app::run(given, cli.source.record.choice(), starter, share_now)
        }
    }
}

/// The app's remote players, when `--remote` names a broker: a seat for each side of the
/// roster given (the demo's when none is), their links printed to send to the players.
fn remote_for_app(
    args: &crate::args::RemoteArgs,
    given: Option<&live::pipeline::Setup>,
    out: &mut dyn Write,
) -> anyhow::Result<Option<crate::serve::remote::Remote>> {
    let setup = given.cloned().unwrap_or_default();
    let sides = crate::args::sides_of(&setup);
    let Some(remote) = crate::serve::remote::Remote::from_args(args, &sides) else {
        return Ok(None);
    };
    // The app's table is named as `vedette serve` names one it is not told the name of.
    remote.say_links(&remote.links("table"), out)?;
    Ok(Some(remote))
}

fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    // A second initialisation (tests calling main twice) is harmless: keep the first.
    // Colours only on a terminal: a log piped to a file or `less` stays plain text.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr)
        .with_ansi(io::stderr().is_terminal())
        .try_init();
}

/// Whether an error is stdout closing under us (`vedette measure … | head`), which is not a
/// failure worth reporting.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

/// The binary's entry point: parse arguments, run, and turn errors into a message and exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.draws_with_wgpu() {
        crate::quiet_gpu::rerun_without_device_select();
    }
    init_logging(cli.verbose);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match run(&cli, &mut out).and_then(|()| Ok(out.flush()?)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("vedette: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

impl Cli {
    /// Whether the command draws with wgpu (the app and its headless pictures), and so lists
    /// the Vulkan devices (see [`crate::quiet_gpu`]).
    fn draws_with_wgpu(&self) -> bool {
        matches!(
            self.command,
            None | Some(Command::Demo(_))
                | Some(Command::Replay(_))
                | Some(Command::Screenshot { .. })
                | Some(Command::Bench(bench::BenchCommand::App { .. }))
        )
    }
}
