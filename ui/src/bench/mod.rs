//! `vedette bench …`: benchmarks that print their figures.
//!
//! Each bench is a module of its own; they share one synthetic world ([`world`]: the staged
//! table, the picture size, the stands' heights, the calibration from one picture) and one way
//! of summing up ([`figures`]). The benches measure the faces too (the app, the server, the
//! hub), so this module sits above them, below only the command line.

pub mod accuracy;
mod built;
pub mod cameras;
pub mod figures;
mod honesty;
pub mod live_detection;
pub mod play;
pub mod print;
mod processes;
pub mod recording;
mod remote;
pub mod serving;
pub mod speed;
pub mod terrain;
pub mod world;

use std::io::Write;
use std::time::{Duration, Instant};

use live::capture::parse_resolution;
use rules::rulings::rulings;
use rules::synthetic::battle;

use self::figures::percentile;
use crate::args::{DetectorArgs, parse_family, parse_lens, parse_rendering};
use crate::progress::progress;

/// What `vedette bench rules` measures.
#[derive(Clone, Copy, Debug)]
pub struct RulesBench {
    /// Units in the synthetic battle.
    pub units: usize,
    /// Terrain pieces.
    pub terrain: usize,
    /// Timed runs.
    pub iterations: usize,
    /// The battle's seed.
    pub seed: u64,
}

/// The same battle as a camera would have placed it: every stand with an error bar (0.02"
/// either way, 0.2° of facing) and the calibration's 0.05 % on every length, so that the
/// rulings carry their ± and decide borderlines by them.
fn as_measured(scene: &rules::Scene) -> rules::Scene {
    let sd = rules::uncertainty::PlaceSd::new(
        nalgebra::Matrix2::from_diagonal_element(0.02 * 0.02),
        rules::units::Degrees(0.2),
    );
    let mut measured = scene.clone();
    measured.length_sd = Some(0.0005);
    for unit in &mut measured.units {
        let stands = unit.footprint.stands().len();
        unit.footprint = unit.footprint.clone().with_sd(vec![sd; stands]);
    }
    measured
}

/// Time every ruling of a synthetic battle and print the figures: the battle as drawn, and the
/// same battle as a camera measured it (error bars on), timed in turn in the same run.
pub fn rules(bench: RulesBench, out: &mut dyn Write) -> anyhow::Result<()> {
    let scene = battle(bench.units, bench.terrain, bench.seed);
    let measured = as_measured(&scene);
    // One untimed run each to warm caches and lazily parsed profiles.
    let first = rulings(&scene);
    let _ = rulings(&measured);
    let count: usize =
        first.units.iter().map(|u| u.rulings.len()).sum::<usize>() + first.general.len();
    let bar = progress(bench.iterations, "ruling");
    let time = |scene: &rules::Scene| {
        let started = Instant::now();
        let report = rulings(scene);
        let elapsed = started.elapsed();
        std::hint::black_box(report);
        elapsed
    };
    let (mut times, mut measured_times): (Vec<Duration>, Vec<Duration>) = (0..bench.iterations)
        .map(|_| {
            let pair = (time(&scene), time(&measured));
            bar.inc(1);
            pair
        })
        .unzip();
    bar.finish_and_clear();
    times.sort();
    measured_times.sort();
    let build = if cfg!(debug_assertions) {
        "debug build (use --release for real figures)"
    } else {
        "release build"
    };
    writeln!(
        out,
        "vedette bench rules — every ruling of a synthetic Black Powder battle ({build})"
    )?;
    writeln!(
        out,
        "scene: {} units, {} terrain pieces, 72\"×48\" table, seed {}; {} rulings, {} pairs within reach",
        scene.units.len(),
        scene.terrain.len(),
        bench.seed,
        count,
        first.pairs.len()
    )?;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    writeln!(
        out,
        "time per scene over {} runs: median {:.2} ms, p95 {:.2} ms, best {:.2} ms (target: under 5 ms)",
        times.len(),
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.95)),
        ms(times.first().copied().unwrap_or_default())
    )?;
    let ratio = ms(percentile(&measured_times, 0.5)) / ms(percentile(&times, 0.5)).max(1e-9);
    writeln!(
        out,
        "as measured by a camera (error bars on): median {:.2} ms, p95 {:.2} ms — {:.2}× the drawn battle in the same run (target: at most 1.10×)",
        ms(percentile(&measured_times, 0.5)),
        ms(percentile(&measured_times, 0.95)),
        ratio
    )?;
    Ok(())
}

/// `vedette bench …`: the benchmarks, each printing its figures.
#[derive(Debug, clap::Subcommand)]
pub enum BenchCommand {
    /// Find the terrain of synthetic battlefields (woods, rough ground, hills, rivers, roads,
    /// buildings, walls and hedges, stands among them) in one 1080p picture each, from above
    /// and from the side, and print how much was found and how well.
    Terrain {
        /// Battlefields, each dressed from its own seed.
        #[arg(long, default_value_t = 8)]
        tables: usize,
        /// The first battlefield's seed (the finder was developed on seeds 1–8; these are
        /// tables it never saw).
        #[arg(long, default_value_t = 1001)]
        seed: u64,
        /// Save each picture with what was found drawn on it (sure pieces white, proposed
        /// yellow) and the true terrain in green, in this folder.
        #[arg(long, value_name = "DIR")]
        pictures: Option<std::path::PathBuf>,
    },
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
    /// Play an evening's game as hostile as a real one (stands carried through the air,
    /// trays slid, hands over units, MJPEG, motion blur, exposure swings, glare) through the
    /// live pipeline, and judge where units are ruled, the moves reported, the tags found and
    /// the time a frame takes, the tracker as it is beside the tracker as it was.
    Play(play::PlayBench),
    /// Play an evening's game on a convention table (12'×6') seen by several 1080p webcams
    /// side by side, one unplugged for part of it, each calibrated from its own anchors, their
    /// tags fused: recall, where stands are placed, how a stand in two views wavers, what the
    /// unplugged camera leaves unseen, the time a frame takes.
    Cameras(cameras::CamerasBench),
    /// Record an evening's game of hours as the app records it (60 units carried and slid by
    /// hand, 30 frames a second, turn marks, cases, the webcam's pictures), then open the
    /// record and scrub it: the hand-over's cost on the ruling thread, the record's size an
    /// hour, the time to open it and show any moment.
    Record(recording::RecordBench),
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
    /// Measure a remote game through a real mosquitto (its WebSockets listener) and a real
    /// chromium: a state's and an order's way between the host and a remote page beside the
    /// broker's own, the pictures a page gets, orders matched with their units' moves, and the
    /// host's frame rate with remote pages and without.
    Remote {
        /// Seconds each part runs.
        #[arg(long, default_value_t = 30.0)]
        seconds: f64,
        /// Remote pages open (the British player's, then the Russian's).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
        pages: u32,
    },
    /// Measure the camera pipeline's accuracy on synthetic tables (1920×1080, 72"×48", busy,
    /// camera 30°–50° from vertical, 1" tags on 3–5 mm stands, blur, noise, JPEG) through four
    /// kinds of lens (distortion-free, ordinary, pincushion, wide), each calibrated five ways
    /// (anchors only, one picture with the stand tags, after 30 s of play, board, true lens):
    /// position and facing errors, anchors' reprojection, calibration time, recall, false tags,
    /// and how far the detector's corners and the refined ones lie from the truth; then the
    /// error bars judged on the same tables rendered seven other ways (point-sampled, soft,
    /// blocky, grainy, a lens beyond the model, tags printed large, anchors off their marks);
    /// then tables as people build them (a camera at the side, stands on hills, figures on the
    /// bases) beside their flat selves, through the app's pipeline.
    Accuracy {
        /// Synthetic tables per kind of lens (0: only the tables as people build them).
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
        corners: accuracy::Corners,
        /// Tables as people build them (a camera at the side, hills, figures on the bases),
        /// measured beside their flat selves through the app's pipeline; 0 leaves them out.
        #[arg(long, default_value_t = 3)]
        built_tables: usize,
        /// Tables per kind of lens rendered each other way than Vedette's own (point-sampled,
        /// soft, blocky, grainy, a lens beyond the model, tags printed 1 % large, anchors 1 mm
        /// off), on which the error bars are judged; 0 leaves them out.
        #[arg(long, default_value_t = 2)]
        rendered_tables: usize,
        /// Only these renderings (own, point-sampled, soft, blocky, grainy, lens-beyond,
        /// printed-large, anchors-off; repeat the option for several); by default all.
        #[arg(long, value_parser = parse_rendering)]
        rendering: Vec<vision::synthetic::Rendering>,
        /// Detector settings.
        #[command(flatten)]
        detector: DetectorArgs,
    },
}

/// Run a benchmark, writing its report to `out`.
pub fn run(command: &BenchCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        BenchCommand::Terrain {
            tables,
            seed,
            pictures,
        } => terrain::terrain(*tables, *seed, pictures.as_deref(), out),
        BenchCommand::Rules {
            units,
            terrain,
            iterations,
            seed,
        } => {
            let bench = RulesBench {
                units: *units,
                terrain: *terrain,
                iterations: *iterations,
                seed: *seed,
            };
            rules(bench, out)
        }
        BenchCommand::Vision { frames, detector } => {
            speed::speed(*frames, detector.settings(), out)
        }
        BenchCommand::Accuracy {
            tables,
            seed,
            lens,
            corners,
            built_tables,
            rendered_tables,
            rendering,
            detector,
        } => {
            let settings = detector.settings();
            accuracy::accuracy(*tables, *seed, lens, *corners, settings.clone(), out)?;
            honesty::honesty(*rendered_tables, *seed, lens, rendering, &settings, out)?;
            built::built_tables(*built_tables, *seed, &settings, out)
        }
        BenchCommand::Live {
            frames,
            tags,
            seed,
            plain,
            resolution,
            family,
            lens,
            samples,
        } => live_detection::run(
            live_detection::LiveBench {
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
        BenchCommand::Print {
            pictures,
            seed,
            family,
            sheets,
        } => print::run(
            print::PrintBench {
                pictures: *pictures,
                seed: *seed,
                family: *family,
                sheets: *sheets,
            },
            out,
        ),
        BenchCommand::Serve {
            seconds,
            viewers,
            rate,
            tables,
        } => serving::run(
            serving::ServeBench {
                seconds: *seconds,
                viewers: *viewers as usize,
                rate: *rate,
                tables: *tables as usize,
            },
            out,
        ),
        BenchCommand::Remote { seconds, pages } => remote::run(
            remote::RemoteBench {
                seconds: *seconds,
                pages: *pages as usize,
            },
            out,
        ),
        BenchCommand::Play(bench) => play::run(bench, out),
        BenchCommand::Cameras(bench) => cameras::run(bench, out),
        BenchCommand::Record(bench) => recording::run(bench, out),
        BenchCommand::App {
            seconds,
            convention,
        } => crate::app::headless::bench(*seconds, *convention, out),
    }
}
