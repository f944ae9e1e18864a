//! The command-line interface: argument definitions, logging set-up and dispatch.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::commands;
use crate::commands::args::{DetectorArgs, LocateInputs, within};

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

    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the app on the built-in demo table (a Black Powder scenario played by the synthetic
    /// camera), whatever source was used last.
    Demo,
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
        /// The unit to select (default: one that must shoot at someone).
        #[arg(long, value_name = "UNIT")]
        select: Option<String>,
    },
    /// Serve the table to browsers on the local network: a live plan, each unit's rulings, a
    /// tape and the camera's picture on every phone; a link for viewers and one for the umpire
    /// (with a QR code in a terminal). With no source, the built-in demo table.
    Serve(Box<commands::serve::ServeArgs>),
    /// Show every table of a hall on one page, from the MQTT broker the tables publish to
    /// (`vedette serve --mqtt`).
    Hub(commands::serve::HubArgs),
    /// Print the basic measurements of a scene: for every unit its position, move and range;
    /// for every pair of enemy units the edge-to-edge distance, the range from the leader,
    /// the quarter one stands in, the fraction in the fire arc, and whether it is in range.
    Measure {
        /// The scene file (JSON or TOML).
        scene: PathBuf,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print every ruling for a scene, grouped by unit: who each unit must or may shoot and
    /// why, who it can charge and on which face, its supports, its command distance and the
    /// 12" rule, brigade cohesion and contacts. Borderline cases are marked for the players.
    Rulings {
        /// The scene file (JSON or TOML).
        scene: PathBuf,
        /// Only the rulings about this unit (its id).
        #[arg(long)]
        unit: Option<String>,
        /// Print JSON: the fields of `measure` plus shooting, visibility and charges.
        #[arg(long)]
        json: bool,
    },
    /// Print a built-in ruleset profile (TOML), to copy and adjust for --profile.
    Profile {
        /// The ruleset, e.g. black-powder.
        ruleset: String,
    },
    /// Benchmarks that print their figures.
    #[command(subcommand)]
    Bench(commands::bench::BenchCommand),
    /// Find the AprilTags in a picture: ids, centres and corners in pixels.
    Detect {
        /// The picture (PNG, JPEG …).
        image: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Tag family.
        #[arg(long, default_value = "tag36h11")]
        family: String,
        /// Detector settings.
        #[command(flatten)]
        detector: DetectorArgs,
    },
    /// Calibrate the camera against the table and measure its lens, from every tag of known
    /// size in the pictures: the anchors, the roster's stand tags (--roster), and the
    /// calibration board in any picture that shows it.
    Calibrate {
        /// Pictures: the table with its anchors in view (several, with the stands moved, pin
        /// the lens down better), and optionally the board.
        #[arg(required = true)]
        images: Vec<PathBuf>,
        /// The anchor layout: where each anchor tag lies on the table.
        #[arg(long, value_name = "ANCHORS.toml")]
        anchors: PathBuf,
        /// The roster: every stand tag it lists (its size and height known, its place not)
        /// helps measure the lens.
        #[arg(long, value_name = "ROSTER.toml")]
        roster: Option<PathBuf>,
        /// Where to write the calibration.
        #[arg(short, long, value_name = "CAMERA.toml")]
        output: PathBuf,
        /// Start from the lens of an earlier calibration; it is kept unless these pictures
        /// measure a better-founded one.
        #[arg(long, value_name = "CAMERA.toml")]
        lens: Option<PathBuf>,
        /// The table being played, width x depth (`108x60in`, `180x120cm`): a warning if the
        /// anchors file is laid out for another.
        #[arg(long, value_name = "WxH")]
        table: Option<String>,
        /// The scene or scenario being played: a warning if its table is not the one the
        /// anchors file is laid out for.
        #[arg(long, value_name = "SCENE", conflicts_with = "table")]
        scenario: Option<PathBuf>,
        /// Replace the output if it exists.
        #[arg(long)]
        force: bool,
        /// Detector settings.
        #[command(flatten)]
        detector: DetectorArgs,
    },
    /// Place every tag of a picture on the table: centre in inches and facing in degrees,
    /// with what it is on; with a roster, the scene.
    Locate {
        /// What to read.
        #[command(flatten)]
        inputs: LocateInputs,
        /// Print JSON (with the scene in the scene format).
        #[arg(long)]
        json: bool,
        /// Detector settings.
        #[command(flatten)]
        detector: DetectorArgs,
    },
    /// The whole pipeline: picture → tags → scene → every ruling, with an annotated picture.
    Analyze {
        /// What to read.
        #[command(flatten)]
        inputs: LocateInputs,
        /// Print JSON: tags, scene and rulings.
        #[arg(long)]
        json: bool,
        /// Write the picture with tags, stands and units drawn on it.
        #[arg(long, value_name = "OUT.png")]
        annotate: Option<PathBuf>,
        /// Replace the annotated picture if it exists.
        #[arg(long)]
        force: bool,
        /// Detector settings.
        #[command(flatten)]
        detector: DetectorArgs,
    },
    /// Render a synthetic camera picture of a scene with a tag on every stand and the anchors
    /// in the corners: try the camera commands without a camera, or see how big your tags
    /// will look.
    Render {
        /// The scene (JSON or TOML).
        scene: PathBuf,
        /// The picture to write (PNG or JPEG).
        #[arg(short, long, value_name = "OUT.png")]
        output: PathBuf,
        /// The roster giving each stand's tag; without one, tags are numbered from 10.
        #[arg(long, value_name = "ROSTER.toml")]
        roster: Option<PathBuf>,
        /// Save the roster used (to give to `locate` and `analyze`).
        #[arg(long, value_name = "ROSTER.toml")]
        save_roster: Option<PathBuf>,
        /// The anchor layout; four 2" anchors in the corners, 1.5" in, by default.
        #[arg(long, value_name = "ANCHORS.toml")]
        anchors: Option<PathBuf>,
        /// Image width, pixels (16 to 16384, at most 64 megapixels in all).
        #[arg(long, default_value_t = 1920, value_parser = clap::value_parser!(u32).range(16..=16384))]
        width: u32,
        /// Image height, pixels (16 to 16384).
        #[arg(long, default_value_t = 1080, value_parser = clap::value_parser!(u32).range(16..=16384))]
        height: u32,
        /// Camera angle from vertical, degrees (0 straight down to 80: beyond, the camera
        /// looks along the table rather than at it).
        #[arg(long, default_value_t = 40.0, value_parser = within(0.0, 80.0))]
        tilt: f64,
        /// Horizontal field of view of the lens, degrees (20 to 120, as webcams have).
        #[arg(long, default_value_t = 70.0, value_parser = within(20.0, 120.0))]
        fov: f64,
        /// A real webcam's kind of lens: none (ideal), ordinary, pincushion or wide (80–90°,
        /// strong barrel distortion); it brings its own field of view.
        #[arg(long, default_value = "none")]
        lens: String,
        /// Which lens of its kind (each seed draws another within the kind's ranges).
        #[arg(long, default_value_t = 1)]
        lens_seed: u64,
        /// A perfect camera: no blur, noise or JPEG.
        #[arg(long)]
        ideal: bool,
        /// Replace the picture (and the saved roster) if they exist.
        #[arg(long)]
        force: bool,
    },
    /// Compare two scenes of the same units (before and after a move) and check each unit's
    /// move against its allowance, with terrain, and the 12" rule's front-or-rear constraint.
    CheckMove {
        /// The scene before the move.
        before: PathBuf,
        /// The scene after the move.
        after: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print tag sheets (PDF, SVG or a PNG preview) to stick on bases and movement trays:
    /// chosen ids at one size, or every tag of a roster on its stand's outline.
    Tags {
        /// The ids: `1-40,55`.
        #[arg(
            long,
            value_name = "IDS",
            required_unless_present = "roster",
            conflicts_with = "roster"
        )]
        ids: Option<String>,
        /// A roster: each stand's tag on its base outline, at its offset and turn, with the
        /// unit's name.
        #[arg(long, value_name = "ROSTER.toml")]
        roster: Option<PathBuf>,
        /// The side of each tag's black square: `25mm`, `1in` (with --ids).
        #[arg(long, default_value = "1in", conflicts_with = "roster")]
        size: String,
        /// The base each tag goes on, frontage x depth: `40x20mm`, `2x1in` (with --ids).
        #[arg(long, value_name = "WxD", conflicts_with = "roster")]
        base: Option<String>,
        /// Tag family: tag36h11 (the default), tag25h9 or tag16h5 (with --ids; a roster names
        /// its own).
        #[arg(long, conflicts_with = "roster")]
        family: Option<String>,
        /// Paper: a4 or letter.
        #[arg(long, default_value = "a4")]
        paper: String,
        /// The file to write: .pdf (every page), .svg or .png (one file a page).
        #[arg(short, long, value_name = "OUT.pdf")]
        output: PathBuf,
    },
    /// Print the anchor kit: from an anchors file (--layout), or a standard kit of 4 (the
    /// corners), 6 (and the middles of the long edges) or 8 anchors (and of every edge) for a
    /// table (--kit, --table, with --save-layout to write its anchors file); or the calibration
    /// board (--board).
    Anchors {
        /// The anchor layout: each anchor is printed at its size with where it goes.
        #[arg(
            long,
            value_name = "ANCHORS.toml",
            required_unless_present_any = ["board", "kit"],
            conflicts_with_all = ["board", "kit"]
        )]
        layout: Option<PathBuf>,
        /// A standard kit of 2" anchors 1.5" in from the edges: 4, 6 or 8 anchors. Mid-edge
        /// anchors pin the middle of the table (see the README's camera section).
        #[arg(long, value_parser = ["4", "6", "8"], conflicts_with = "board")]
        kit: Option<String>,
        /// The playing area for --kit, width x depth: `72x48in`, `180x120cm`.
        #[arg(long, default_value = "72x48in", requires = "kit")]
        table: String,
        /// Write the kit's anchors file (for `calibrate --anchors`).
        #[arg(long, value_name = "ANCHORS.toml", requires = "kit")]
        save_layout: Option<PathBuf>,
        /// The calibration board instead (5 × 7 tags of 1.2", ids 500–534).
        #[arg(long)]
        board: bool,
        /// Paper: a4 or letter.
        #[arg(long, default_value = "a4")]
        paper: String,
        /// The file to write: .pdf, .svg or .png.
        #[arg(short, long, value_name = "OUT.pdf")]
        output: PathBuf,
    },
    /// Army rosters: which tag is on which stand of which unit.
    #[command(subcommand)]
    Roster(commands::roster::RosterCommand),
}

/// Run a parsed command line, writing its report to `out`.
pub fn run(cli: &Cli, out: &mut dyn Write) -> anyhow::Result<()> {
    match &cli.command {
        Some(Command::Serve(args)) => commands::serve::serve(args, out),
        Some(Command::Hub(args)) => commands::serve::hub(args, out),
        Some(Command::Measure { scene, json }) => {
            commands::measure::run(scene, cli.profile.as_deref(), *json, out)
        }
        Some(Command::Rulings { scene, unit, json }) => {
            commands::rulings::run(scene, cli.profile.as_deref(), unit.as_deref(), *json, out)
        }
        Some(Command::Profile { ruleset }) => commands::print_profile(ruleset, out),
        Some(Command::CheckMove {
            before,
            after,
            json,
        }) => commands::check_move::run(before, after, cli.profile.as_deref(), *json, out),
        Some(Command::Detect {
            image,
            json,
            family,
            detector,
        }) => {
            let settings = vision::DetectorSettings {
                family: family.clone(),
                ..detector.settings()
            };
            commands::detect::run(image, settings, *json, out)
        }
        Some(Command::Calibrate {
            images,
            anchors,
            roster,
            output,
            lens,
            table,
            scenario,
            force,
            detector,
        }) => {
            let args = commands::calibrate::CalibrateArgs {
                images,
                anchors,
                roster: roster.as_deref(),
                output,
                lens: lens.as_deref(),
                table: table.as_deref(),
                scenario: scenario.as_deref(),
                force: *force,
            };
            commands::calibrate::run(args, detector.settings(), out)
        }
        Some(Command::Locate {
            inputs,
            json,
            detector,
        }) => commands::locate::run_locate(&inputs.args(), detector.settings(), *json, out),
        Some(Command::Analyze {
            inputs,
            json,
            annotate,
            force,
            detector,
        }) => commands::locate::run_analyze(
            &inputs.args(),
            detector.settings(),
            *json,
            annotate.as_deref(),
            *force,
            out,
        ),
        Some(Command::Render {
            scene,
            output,
            roster,
            save_roster,
            anchors,
            width,
            height,
            tilt,
            fov,
            ideal,
            lens,
            lens_seed,
            force,
        }) => {
            let lens = commands::render::lens_class(lens)?.map(|class| (class, *lens_seed));
            let args = commands::render::RenderArgs {
                scene,
                roster: roster.as_deref(),
                save_roster: save_roster.as_deref(),
                anchors: anchors.as_deref(),
                output,
                size: calibration::ImageSize {
                    width: *width,
                    height: *height,
                },
                tilt: rules::units::Degrees(*tilt),
                field_of_view: rules::units::Degrees(*fov),
                ideal: *ideal,
                lens,
                force: *force,
            };
            commands::render::run(args, out)
        }
        Some(Command::Screenshot {
            demo: _,
            output,
            turn,
            select,
        }) => crate::app::headless::screenshot(output, usize::from(*turn) - 1, select.clone(), out),
        Some(Command::Tags {
            ids,
            roster,
            size,
            base,
            family,
            paper,
            output,
        }) => {
            let source = match (roster, ids) {
                (Some(roster), _) => commands::printables::TagSource::Roster(roster),
                (None, ids) => commands::printables::TagSource::Ids {
                    ids: ids.as_deref().unwrap_or_default(),
                    size,
                    base: base.as_deref(),
                },
            };
            commands::printables::tags(source, family.as_deref(), paper, output, out)
        }
        Some(Command::Anchors {
            layout,
            kit,
            table,
            save_layout,
            board: _,
            paper,
            output,
        }) => {
            use commands::printables::AnchorSheet;
            let sheet = match (layout, kit) {
                (Some(path), _) => AnchorSheet::Layout(path),
                (None, Some(kit)) => AnchorSheet::Kit {
                    kit,
                    table,
                    save: save_layout.as_deref(),
                },
                (None, None) => AnchorSheet::Board,
            };
            commands::printables::anchors(sheet, paper, output, out)
        }
        Some(Command::Bench(command)) => commands::bench::run(command, out),
        Some(Command::Roster(command)) => commands::roster::run(command, out),
        Some(Command::Demo) => crate::app::run(true),
        None => crate::app::run(false),
    }
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
            None | Some(Command::Demo)
                | Some(Command::Screenshot { .. })
                | Some(Command::Bench(commands::bench::BenchCommand::App { .. }))
        )
    }
}
