//! The command-line interface: argument definitions, logging set-up and dispatch.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::commands;

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
    Bench(Bench),
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
    Roster(RosterCommand),
}

/// `vedette roster …`.
#[derive(Debug, Subcommand)]
pub enum RosterCommand {
    /// Make a roster: by questions on the terminal, from a commented template, or with a tag
    /// for every stand of a scenario.
    New {
        /// The roster to write.
        #[arg(short, long, value_name = "ROSTER.toml")]
        output: PathBuf,
        /// Write the commented template to fill in.
        #[arg(long, conflicts_with = "scenario")]
        template: bool,
        /// A scene or scenario: every unit, stand and commander, one tag each.
        #[arg(long, value_name = "SCENE")]
        scenario: Option<PathBuf>,
        /// The first tag id to hand out.
        #[arg(long, default_value_t = 10)]
        first_tag: u32,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Check a roster: duplicate tags, bad sizes, unknown brigades, ids outside the family or
    /// used by the anchors, and, with sheets, tags missing from them. Fails if any.
    Check {
        /// The roster.
        roster: PathBuf,
        /// Tag sheets printed for it (PDF or SVG made by `vedette tags`).
        #[arg(long, value_name = "SHEET")]
        sheet: Vec<PathBuf>,
        /// The anchor layout, whose ids no stand may use and whose family the stands share.
        #[arg(long, value_name = "ANCHORS.toml")]
        anchors: Option<PathBuf>,
    },
    /// Import a BattleScribe roster (.ros or .rosz) with Black Powder profiles: units with
    /// their stat lines and special rules, brigades and commanders, one tag each.
    Import {
        /// The BattleScribe file.
        file: PathBuf,
        /// The roster to write.
        #[arg(short, long, value_name = "ROSTER.toml")]
        output: PathBuf,
        /// The first tag id to hand out.
        #[arg(long, default_value_t = 10)]
        first_tag: u32,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
    },
}

/// Detector settings shared by the camera commands.
#[derive(Debug, Clone, clap::Args)]
pub struct DetectorArgs {
    /// Find quads on an image this many times smaller: faster, but small tags are lost
    /// (1 finds 1" tags across a 6' table at 1080p; 2 needs about 2" tags).
    #[arg(long, default_value_t = 1.0, value_name = "FACTOR", value_parser = within(1.0_f32, 8.0))]
    pub decimate: f32,
    /// Detector threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
    pub threads: Option<u8>,
}

impl DetectorArgs {
    /// The detector settings these arguments ask for.
    pub fn settings(&self) -> vision::DetectorSettings {
        let defaults = vision::DetectorSettings::default();
        vision::DetectorSettings {
            decimate: self.decimate,
            threads: self.threads.unwrap_or(defaults.threads),
            ..defaults
        }
    }
}

/// Where `locate` and `analyze` read from.
#[derive(Debug, Clone, clap::Args)]
pub struct LocateInputs {
    /// The picture (PNG, JPEG …).
    pub image: PathBuf,
    /// The calibration made by `vedette calibrate`.
    #[arg(long, value_name = "CAMERA.toml")]
    pub calibration: PathBuf,
    /// The roster: which tag is on which stand of which unit.
    #[arg(long, value_name = "ROSTER.toml")]
    pub roster: Option<PathBuf>,
    /// A scene file whose terrain is on the table (the camera sees only tags).
    #[arg(long, value_name = "SCENE")]
    pub terrain: Option<PathBuf>,
    /// Height of tags the roster does not list, inches above the cloth.
    #[arg(long, default_value_t = 0.16, value_name = "INCHES")]
    pub tag_height: f64,
}

impl LocateInputs {
    fn args(&self) -> commands::locate::LocateArgs<'_> {
        commands::locate::LocateArgs {
            image: &self.image,
            calibration: &self.calibration,
            roster: self.roster.as_deref(),
            terrain: self.terrain.as_deref(),
            tag_height: rules::units::Inches(self.tag_height),
        }
    }
}

/// The benchmarks.
#[derive(Debug, Subcommand)]
pub enum Bench {
    /// Time every ruling of a synthetic battle (two armies, scattered terrain, 72"×48").
    Rules {
        /// Units on the table.
        #[arg(long, default_value_t = 200)]
        units: usize,
        /// Terrain pieces.
        #[arg(long, default_value_t = 20)]
        terrain: usize,
        /// Timed runs.
        #[arg(long, default_value_t = 50)]
        iterations: usize,
        /// The battle's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Time the camera pipeline per stage (decode, detect, pose, scene) on synthetic frames
    /// at 1280×720 and 1920×1080, and print frames per second.
    Vision {
        /// Timed frames per resolution.
        #[arg(long, default_value_t = 10)]
        frames: usize,
        /// Detector settings.
        #[command(flatten)]
        detector: DetectorArgs,
    },
    /// Play a synthetic game at 1920×1080 (72"×48" table, 1" tags, moving stands, a hand now
    /// and then) and detect it both ways on the same frames: full-frame at decimate 1 and the
    /// live tracking detector; print time per frame, frames per second, recall and error.
    Live {
        /// Frames of video, 30 a second (each rendered untimed, then detected both ways; a long run holds one frame at a time).
        #[arg(long, default_value_t = 150)]
        frames: usize,
        /// Stands, each with a 1" tag (the 4 anchors come on top).
        #[arg(long, default_value_t = 64)]
        tags: usize,
        /// The layout's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Play on a plain table (flat cloth, flat stands) instead of a busy one like a real
        /// table (a flocked mat, painted figures): only the tags have edges, so full-frame
        /// detection is much cheaper than at a club.
        #[arg(long)]
        plain: bool,
        /// The camera's picture: 1080p (1920×1080) or 4k (3840×2160).
        #[arg(long, default_value = "1080p", value_parser = parse_resolution)]
        resolution: calibration::ImageSize,
        /// The tags' family: tag36h11, tag25h9 (at most 25 stands) or tag16h5 (at most 20).
        #[arg(long, default_value = "tag36h11", value_parser = parse_family)]
        family: roster::TagFamily,
        /// The webcam's lens, as `bench accuracy` draws them: distortion-free (70°), ordinary,
        /// pincushion or wide (80–90°, strong barrel); by default the game is played through
        /// each in turn.
        #[arg(long, value_parser = parse_lens)]
        lens: Option<vision::synthetic::LensClass>,
        /// Rays along a pixel's side when rendering: 3 (9 a pixel) as the webcam effects have
        /// it; 1 renders about five times faster for a long run (blur, noise and JPEG stay).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=4))]
        samples: u32,
    },
    /// Lay sheets of print (rules, army lists: capitals 0.08"–0.5") on busy 1080p tables
    /// among the stands and count the false tags the detector reads off them in a family, with
    /// the strongest false decode against the weakest true tag (what its decision-margin floor
    /// rests on).
    Print {
        /// Pictures, each its own table.
        #[arg(long, default_value_t = 12)]
        pictures: usize,
        /// The first picture's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The tags' family.
        #[arg(long, default_value = "tag16h5", value_parser = parse_family)]
        family: roster::TagFamily,
        /// Sheets of print on each table.
        #[arg(long, default_value_t = 6)]
        sheets: usize,
    },
    /// Run the app on the demo table's live pipeline, headless, and report the UI's frame time,
    /// the pipeline's frame rate beside it, and the app's memory as it runs (a convention table
    /// runs all day: `--convention --seconds 7200` checks that memory stays flat).
    App {
        /// How long to run, seconds.
        #[arg(long, default_value_t = 20.0)]
        seconds: f64,
        /// Run in convention mode (the unattended tour of the rulings) instead of play mode.
        #[arg(long)]
        convention: bool,
    },
    /// Measure what serving the table costs and how fast it reaches pages: the app's UI frame
    /// time and the pipeline's frame rate with and without pages watching, an update's way to
    /// each page, and a hall of tables on a real mosquitto broker followed by a hub.
    Serve {
        /// Seconds each part runs.
        #[arg(long, default_value_t = 20.0)]
        seconds: f64,
        /// Pages watching the table.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=1000))]
        viewers: u32,
        /// Updates a second sent to pages.
        #[arg(long, default_value_t = 10.0)]
        rate: f64,
        /// Tables in the hall.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=200))]
        tables: u32,
    },
    /// Measure the camera pipeline's accuracy on synthetic tables (1920×1080, 72"×48", busy,
    /// camera 30°–50° from vertical, 1" tags on 3–5 mm stands, blur, noise, JPEG) through four
    /// kinds of lens (distortion-free, ordinary, pincushion, wide), each calibrated five ways
    /// (anchors only, one picture with the stand tags, after 30 s of play, board, true lens):
    /// position and facing errors, anchors' reprojection, calibration time, recall, false tags,
    /// and how far the detector's corners and the refined ones lie from the truth.
    Accuracy {
        /// Synthetic tables per kind of lens.
        #[arg(long, default_value_t = 4)]
        tables: usize,
        /// The first table's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only these kinds of lens (distortion-free, ordinary, pincushion, wide; repeat the
        /// option for several); by default all four.
        #[arg(long, value_parser = parse_lens)]
        lens: Vec<vision::synthetic::LensClass>,
        /// The corners the calibrations are given: the detector's, or refined against each
        /// tag's pattern as `vedette calibrate` does.
        #[arg(long, value_enum, default_value = "refined")]
        corners: commands::bench_accuracy::Corners,
        /// Detector settings.
        #[command(flatten)]
        detector: DetectorArgs,
    },
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
        Some(Command::Bench(Bench::Rules {
            units,
            terrain,
            iterations,
            seed,
        })) => {
            let bench = commands::bench::RulesBench {
                units: *units,
                terrain: *terrain,
                iterations: *iterations,
                seed: *seed,
            };
            commands::bench::rules(bench, out)
        }
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
        Some(Command::Bench(Bench::Vision { frames, detector })) => {
            commands::bench_vision::speed(*frames, detector.settings(), out)
        }
        Some(Command::Bench(Bench::Accuracy {
            tables,
            seed,
            lens,
            corners,
            detector,
        })) => commands::bench_accuracy::accuracy(
            *tables,
            *seed,
            lens,
            *corners,
            detector.settings(),
            out,
        ),
        Some(Command::Bench(Bench::Live {
            frames,
            tags,
            seed,
            plain,
            resolution,
            family,
            lens,
            samples,
        })) => commands::bench_live::run(
            commands::bench_live::LiveBench {
                frames: *frames,
                tags: *tags,
                seed: *seed,
                busy: !*plain,
                size: *resolution,
                family: *family,
                lenses: lens.map_or(vision::synthetic::LensClass::ALL.to_vec(), |lens| {
                    vec![lens]
                }),
                samples: *samples,
            },
            out,
        ),
        Some(Command::Bench(Bench::Print {
            pictures,
            seed,
            family,
            sheets,
        })) => commands::bench_print::run(
            commands::bench_print::PrintBench {
                pictures: *pictures,
                seed: *seed,
                family: *family,
                sheets: *sheets,
            },
            out,
        ),
        Some(Command::Bench(Bench::Serve {
            seconds,
            viewers,
            rate,
            tables,
        })) => commands::bench_serve::run(
            commands::bench_serve::ServeBench {
                seconds: *seconds,
                viewers: *viewers as usize,
                rate: *rate,
                tables: *tables as usize,
            },
            out,
        ),
        Some(Command::Bench(Bench::App {
            seconds,
            convention,
        })) => crate::app::headless::bench(*seconds, *convention, out),
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
        Some(Command::Roster(command)) => run_roster(command, out),
        Some(Command::Demo) => crate::app::run(true),
        None => crate::app::run(false),
    }
}

fn run_roster(command: &RosterCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    use commands::roster::{self, NewFrom};
    match command {
        RosterCommand::New {
            output,
            template,
            scenario,
            first_tag,
            force,
        } => {
            let from = match (template, scenario) {
                (true, _) => NewFrom::Template,
                (false, Some(path)) => NewFrom::Scenario(path),
                (false, None) => NewFrom::Questions,
            };
            roster::new(from, output, *first_tag, *force, out)
        }
        RosterCommand::Check {
            roster: path,
            sheet,
            anchors,
        } => {
            let args = roster::CheckArgs {
                roster: path,
                sheets: sheet,
                anchors: anchors.as_deref(),
            };
            roster::check(&args, out)
        }
        RosterCommand::Import {
            file,
            output,
            first_tag,
            force,
        } => roster::import(file, output, *first_tag, *force, out),
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
                | Some(Command::Bench(Bench::App { .. }))
        )
    }
}

/// A kind of lens by the first word of its name.
fn parse_lens(text: &str) -> Result<vision::synthetic::LensClass, String> {
    vision::synthetic::LensClass::ALL
        .into_iter()
        .find(|lens| lens.name().split_whitespace().next() == Some(text))
        .ok_or_else(|| format!("{text}: use distortion-free, ordinary, pincushion or wide"))
}

/// A tag family by its AprilTag name.
fn parse_family(text: &str) -> Result<roster::TagFamily, String> {
    roster::TagFamily::ALL
        .into_iter()
        .find(|f| f.name() == text)
        .ok_or_else(|| format!("{text}: use tag36h11, tag25h9 or tag16h5"))
}

/// A parser of a number from `low` to `high`, saying the range when it is not in it.
fn within<T>(low: T, high: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        let value: T = text
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a number"))?;
        if low <= value && value <= high {
            Ok(value)
        } else {
            Err(format!("{text} is out of range: use {low} to {high}"))
        }
    }
}

/// A camera picture size by its everyday name.
fn parse_resolution(name: &str) -> Result<calibration::ImageSize, String> {
    let (width, height) = match name.to_ascii_lowercase().as_str() {
        "720p" => (1280, 720),
        "1080p" => (1920, 1080),
        "4k" | "2160p" => (3840, 2160),
        other => return Err(format!("{other:?}: use 720p, 1080p or 4k")),
    };
    Ok(calibration::ImageSize { width, height })
}
