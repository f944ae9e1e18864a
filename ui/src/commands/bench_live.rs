//! `vedette bench live`: a synthetic game played at 1920×1080 (or 4K), detected both ways on
//! the same frames — the full-frame detector at decimate 1, and the live (tracking) detector — with
//! speed, recall and position error side by side.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::time::{Duration, Instant};

use calibration::{ImageSize, PixelPoint, calibrate_from_tags};
use rules::units::Degrees;
use vision::live::schedule::Plan;
use vision::synthetic::{
    Effects, GameSettings, LensClass, MovingGame, Renderer, Scenery, framing_camera_for,
};
use vision::{
    Detections, DetectorSettings, LiveDetector, LiveSettings, Mat, SmallTagSearch, TagDetector,
    TagFamily,
};

use super::bench::{percentile, progress};

/// What `vedette bench live` plays.
#[derive(Clone, Copy, Debug)]
pub struct LiveBench {
    /// Frames of video (30 a second).
    pub frames: usize,
    /// Stands, one 1" tag each (the 4 anchors come on top).
    pub tags: usize,
    /// The layout's seed.
    pub seed: u64,
    /// A busy table like a real one (a flocked mat, painted figures), or a plain one.
    pub busy: bool,
    /// The camera's picture.
    pub size: ImageSize,
    /// The tags' family.
    pub family: TagFamily,
    /// The webcam's lens.
    pub lens: LensClass,
    /// Rays a pixel's side when rendering (the webcam effects' 3 unless a long run asks for
    /// fewer: blur, noise and JPEG are the same).
    pub samples: u32,
}

/// A tag found further than this from its true place counts as wrong, not found.
const MATCH_PIXELS: f64 = 3.0;

/// One frame and what the camera sees in it.
struct Shot {
    image: Mat,
    visible: HashMap<u32, [PixelPoint; 4]>,
}

/// The tag sides recall is told apart by, pixels: under 11, 11–14, 14 and more.
const SIDE_CLASSES: [f64; 2] = [11.0, 14.0];

fn side_class(corners: &[PixelPoint; 4]) -> usize {
    let side = vision::live::roi::side(corners).0;
    SIDE_CLASSES.iter().filter(|&&edge| side >= edge).count()
}

/// How one way of detecting did over the game.
#[derive(Default)]
struct Score {
    times: Vec<Duration>,
    visible: usize,
    found: usize,
    /// Visible and found sightings by side class.
    visible_by_side: [usize; 3],
    found_by_side: [usize; 3],
    false_tags: usize,
    errors: Vec<f64>,
}

impl Score {
    /// Score one frame's detections; `ours` are the game's tags (anchors and stands).
    fn add(&mut self, shot: &Shot, detections: &Detections, ours: &HashSet<u32>, time: Duration) {
        self.times.push(time);
        self.visible += shot.visible.len();
        for corners in shot.visible.values() {
            self.visible_by_side[side_class(corners)] += 1;
        }
        for tag in &detections.tags {
            let Some(truth) = shot.visible.get(&tag.sighting.id) else {
                // A tag of the game partly hidden by the hand is neither found nor false; an
                // id that is on no tag of the table is invented.
                if !ours.contains(&tag.sighting.id) {
                    self.false_tags += 1;
                }
                continue;
            };
            let error = tag
                .sighting
                .corners
                .iter()
                .zip(truth)
                .map(|(a, b)| a.distance(b).0)
                .sum::<f64>()
                / 4.0;
            if error <= MATCH_PIXELS {
                self.found += 1;
                self.found_by_side[side_class(truth)] += 1;
                self.errors.push(error);
            } else {
                self.false_tags += 1;
            }
        }
    }

    fn recall(&self) -> f64 {
        self.found as f64 / self.visible.max(1) as f64
    }

    /// Recall by side class, as "11–14 px 97.1 %, …".
    fn recall_by_side(&self) -> String {
        let labels = ["under 11 px", "11–14 px", "14 px and more"];
        let cells: Vec<String> = (0..3)
            .map(|k| {
                let share = self.found_by_side[k] as f64 / self.visible_by_side[k].max(1) as f64;
                format!(
                    "{} {:.2} % of {}",
                    labels[k],
                    100.0 * share,
                    self.visible_by_side[k]
                )
            })
            .collect();
        cells.join(", ")
    }

    fn median(&self) -> Duration {
        let mut t = self.times.clone();
        t.sort();
        percentile(&t, 0.5)
    }

    fn p95(&self) -> Duration {
        let mut t = self.times.clone();
        t.sort();
        percentile(&t, 0.95)
    }

    fn fps(&self) -> f64 {
        self.times.len() as f64 / self.times.iter().sum::<Duration>().as_secs_f64().max(1e-9)
    }

    fn error_p95(&self) -> f64 {
        let mut e = self.errors.clone();
        e.sort_by(f64::total_cmp);
        e.get(((e.len() as f64 - 1.0) * 0.95).round() as usize)
            .copied()
            .unwrap_or(f64::NAN)
    }
}

/// Play the game, detect both ways, print the figures.
pub fn run(bench: LiveBench, out: &mut dyn Write) -> anyhow::Result<()> {
    let room = MovingGame::most_stands(bench.family);
    if bench.tags > room {
        anyhow::bail!(
            "{} has room for {room} stands: ask for --tags {room} or fewer",
            bench.family
        );
    }
    let game = MovingGame::new(GameSettings {
        family: bench.family,
        stands: bench.tags.max(1),
        seed: bench.seed,
        scenery: if bench.busy {
            Scenery::Busy { seed: bench.seed }
        } else {
            Scenery::Plain
        },
        ..GameSettings::default()
    });
    let lens = bench.lens.sample(bench.size, bench.seed);
    let camera = framing_camera_for(game.settings().table, lens, Degrees(40.0));
    let settings = DetectorSettings {
        family: bench.family.name().into(),
        ..DetectorSettings::default()
    };
    let mut full = TagDetector::new(settings.clone())?;
    let mut live = LiveDetector::new(LiveSettings {
        detector: settings.clone(),
        ..LiveSettings::default()
    })?;
    let anchors = game.anchors().anchors.iter().map(|anchor| anchor.id);
    let ours: HashSet<u32> = game.stand_tags().into_keys().chain(anchors).collect();
    let (mut a, mut b) = (Score::default(), Score::default());
    let mut passes = [0usize; 2];
    let (mut followed, mut known) = (0usize, 0usize);
    let mut renderer = Renderer::new();
    let frames = bench.frames.max(2);
    // Each frame is rendered (untimed), then detected both ways: a long run never holds more
    // than one frame.
    let bar = progress(frames, "frame");
    for frame in 0..frames as u64 {
        let effects = Effects {
            seed: frame + 1,
            supersample: bench.samples.max(1),
            ..Effects::WEBCAM
        };
        let shot = shoot(&mut renderer, &game, &camera, frame, &effects)?;
        let started = Instant::now();
        let found = full.detect(&shot.image)?;
        a.add(&shot, &found, &ours, started.elapsed());
        if frame == 0 {
            // As the app does once it has fitted the lens: calibrated from the first frame's
            // anchors and stand tags, the roster's tags looked for where they are too small for
            // the detector.
            let pictures = [found.sightings()];
            let stands = game.stand_tags();
            let calibration =
                calibrate_from_tags(game.anchors(), &pictures, &stands, None, bench.size, None)?;
            live.search_small(Some(SmallTagSearch::new(&calibration, &stands)?));
        }
        let started = Instant::now();
        let found = live.detect(&shot.image)?;
        b.add(&shot, &found, &ours, started.elapsed());
        if let Some(report) = live.last_pass() {
            let full = matches!(report.plan, Plan::Full(_));
            passes[usize::from(full)] += 1;
            if !full {
                followed += report.followed;
                known += found.tags.len();
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let passes = Passes {
        tracking: passes[0],
        full: passes[1],
        followed,
        known,
    };
    report(&bench, &game, &settings, &live, &a, &b, passes, out)
}

/// What the live detector's frames were.
struct Passes {
    tracking: usize,
    full: usize,
    /// Tags followed from their predictions, over the tracking frames.
    followed: usize,
    /// Tags found, over the tracking frames.
    known: usize,
}

/// Frame `frame` of the game and what the camera sees in it.
fn shoot(
    renderer: &mut Renderer,
    game: &MovingGame,
    camera: &calibration::Camera,
    frame: u64,
    effects: &Effects,
) -> anyhow::Result<Shot> {
    Ok(Shot {
        image: renderer.render(&game.table_at(frame), camera, effects)?,
        visible: game.visible_tags(frame, camera).into_iter().collect(),
    })
}

#[allow(clippy::too_many_arguments)]
fn report(
    bench: &LiveBench,
    game: &MovingGame,
    settings: &DetectorSettings,
    live: &LiveDetector,
    a: &Score,
    b: &Score,
    passes: Passes,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let build = if cfg!(debug_assertions) {
        "debug build (use --release for real figures)"
    } else {
        "release build"
    };
    let g = game.settings();
    writeln!(
        out,
        "vedette bench live — a synthetic game at {}, both ways on the same {} frames ({build})",
        bench.size,
        a.times.len()
    )?;
    writeln!(
        out,
        "table 72\"×48\", {} stands with {}\" {} tags + 4 anchors, {:.0} % of them moving at up to {} in/s \
         and turning, a hand over the table {} frames in every {}; camera 40° from vertical through a {} lens, webcam effects; {} table; seed {}; \
         {} rays a pixel; the small-tag search calibrated from the first frame's tags (lens fitted)",
        bench.tags,
        g.tag_size.0,
        bench.family,
        100.0 * g.moving_share,
        g.speed,
        g.hand_frames,
        g.hand_every,
        bench.lens.name(),
        if bench.busy {
            "busy (flocked mat, painted figures)"
        } else {
            "plain"
        },
        bench.seed,
        bench.samples.max(1).pow(2)
    )?;
    writeln!(out, "detector: {settings}")?;
    let s = live.schedule_settings();
    writeln!(
        out,
        "live: known tags followed from their predicted corners, the rest searched for in regions; \
         a decimate-{} band pass in {} bands; a full pass every {} frames, and on missing tags at most every {} — \
         {} full passes, {} tracking frames in which {:.1} % of the tags found were followed",
        s.band_decimate,
        s.bands,
        s.full_every,
        s.full_gap,
        passes.full,
        passes.tracking,
        100.0 * passes.followed as f64 / passes.known.max(1) as f64
    )?;
    writeln!(
        out,
        "{:<34} {:>9} {:>9} {:>8} {:>9} {:>13} {:>6}",
        "", "median", "p95", "frames/s", "recall", "error p95", "false"
    )?;
    for (name, score) in [
        ("(a) full frame, decimate 1", a),
        ("(b) live (tracking)", b),
    ] {
        writeln!(
            out,
            "{name:<34} {:>6.1} ms {:>6.1} ms {:>8.1} {:>8.2} % {:>10.3} px {:>6}",
            score.median().as_secs_f64() * 1e3,
            score.p95().as_secs_f64() * 1e3,
            score.fps(),
            100.0 * score.recall(),
            score.error_p95(),
            score.false_tags
        )?;
    }
    for (name, score) in [("(a)", a), ("(b)", b)] {
        writeln!(
            out,
            "recall of {name} by tag side: {}",
            score.recall_by_side()
        )?;
    }
    writeln!(
        out,
        "ratio (a)/(b): median {:.1}×, frames/s {:.1}×; recall of (b) is {:.2} % of (a)'s ({} of {} visible tag sightings vs {})",
        a.median().as_secs_f64() / b.median().as_secs_f64().max(1e-9),
        b.fps() / a.fps().max(1e-9),
        100.0 * b.recall() / a.recall().max(1e-9),
        b.found,
        b.visible,
        a.found
    )?;
    writeln!(
        out,
        "times are tag detection per frame (grey conversion included); error is the mean corner distance to the truth"
    )?;
    Ok(())
}
