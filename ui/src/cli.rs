//! The command-line interface: argument definitions, logging set-up and dispatch.

use std::io::{self, Write};
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
}

/// Run a parsed command line, writing its report to `out`.
pub fn run(cli: &Cli, out: &mut dyn Write) -> anyhow::Result<()> {
    match &cli.command {
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
        None => {
            writeln!(
                out,
                "The Vedette app is not built yet. Try `vedette measure samples/scenes/two-lines.json`,\nor `vedette --help` for every command."
            )?;
            Ok(())
        }
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
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr)
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
