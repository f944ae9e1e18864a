//! `vedette bench live`: a synthetic game played at 1920×1080 (or 4K) through each kind of lens,
//! detected both ways on the same frames — the full-frame detector at decimate 1, and the live
//! (tracking) detector — with speed, recall, false tags and the small tags' placing on the table
//! side by side.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::time::{Duration, Instant};

use calibration::{ImageSize, PixelPoint, StandTagSpec, TableCalibration, TagPlacement};
use roster::TagFamily;
use rules::units::Degrees;
use vision::live::schedule::Plan;
use vision::synthetic::{
    Effects, GameSettings, LensClass, MovingGame, Renderer, Scenery, framing_camera_for,
};
use vision::{
    Detections, DetectorSettings, LiveDetector, LiveSettings, Mat, MissingTagSearch, TagDetector,
};

use super::figures::{percentile, quantile, sorted_times};
use super::world::calibrate_from_picture;
use crate::progress::progress;

/// What `vedette bench live` plays.
#[derive(Clone, Debug)]
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
    /// The webcam's lenses, the game played through each in turn.
    pub lenses: Vec<LensClass>,
    /// Rays a pixel's side when rendering (the webcam effects' 3 unless a long run asks for
    /// fewer: blur, noise and JPEG are the same).
    pub samples: u32,
}

/// A tag found further than this from its true place counts as wrong, not found.
const MATCH_PIXELS: f64 = 3.0;

/// False tags named in the report, at most, per way of detecting and lens.
const FALSE_NAMED: usize = 5;

/// Tags of this side, pixels, are the small ones whose placing on the table is measured.
const SMALL_PLACED: std::ops::Range<f64> = 11.0..16.0;

/// One frame and what the camera sees in it.
struct Shot {
    frame: u64,
    image: Mat,
    visible: HashMap<u32, [PixelPoint; 4]>,
    /// Every stand tag's true place on the table.
    placed: HashMap<u32, TagPlacement>,
}

/// What a frame's detections are judged against.
struct Truth<'a> {
    /// The game's tags (anchors and stands): any other id is invented.
    ours: &'a HashSet<u32>,
    /// The stand tags as the roster lists them.
    stands: &'a HashMap<u32, StandTagSpec>,
    /// The calibration the app would have: from the first frame's tags.
    calibration: &'a TableCalibration,
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
    /// The way of detecting, for the log.
    way: &'static str,
    times: Vec<Duration>,
    visible: usize,
    found: usize,
    /// Visible and found sightings by side class.
    visible_by_side: [usize; 3],
    found_by_side: [usize; 3],
    false_tags: usize,
    /// The first few false tags, described.
    false_named: Vec<String>,
    /// Mean corner distances to the truth, pixels.
    errors: Vec<f64>,
    /// How far the small tags found are placed on the table from their true places, inches.
    small_placed: Vec<f64>,
}

impl Score {
    /// Score one frame's detections.
    fn add(&mut self, shot: &Shot, detections: &Detections, truth: &Truth, time: Duration) {
        self.times.push(time);
        self.visible += shot.visible.len();
        for corners in shot.visible.values() {
            self.visible_by_side[side_class(corners)] += 1;
        }
        self.log_misses(shot, detections);
        for tag in &detections.tags {
            let sighting = &tag.sighting;
            let Some(corners) = shot.visible.get(&sighting.id) else {
                // A tag of the game partly hidden by the hand is neither found nor false; an
                // id that is on no tag of the table is invented.
                if !truth.ours.contains(&sighting.id) {
                    self.count_false(shot, sighting, "no tag of the table has this id");
                }
                continue;
            };
            let error = sighting
                .corners
                .iter()
                .zip(corners)
                .map(|(a, b)| a.distance(b).0)
                .sum::<f64>()
                / 4.0;
            if error > MATCH_PIXELS {
                let why = format!("{error:.1} px from where the tag lies");
                self.count_false(shot, sighting, &why);
                continue;
            }
            self.found += 1;
            self.found_by_side[side_class(corners)] += 1;
            self.errors.push(error);
            if SMALL_PLACED.contains(&vision::live::roi::side(corners).0) {
                self.small_placed
                    .extend(placing_error(shot, sighting, truth));
            }
        }
    }

    /// Log each tag in view that was not found (`-vv`), to see where recall is lost.
    fn log_misses(&self, shot: &Shot, detections: &Detections) {
        for (id, corners) in &shot.visible {
            if detections.tags.iter().all(|tag| tag.sighting.id != *id) {
                let centre = calibration::TagSighting {
                    id: *id,
                    corners: *corners,
                }
                .center();
                tracing::debug!(
                    way = self.way,
                    frame = shot.frame,
                    id,
                    side = vision::live::roi::side(corners).0,
                    x = centre.x,
                    y = centre.y,
                    "visible tag not found"
                );
            }
        }
    }

    fn count_false(&mut self, shot: &Shot, sighting: &calibration::TagSighting, why: &str) {
        self.false_tags += 1;
        if self.false_named.len() < FALSE_NAMED {
            let centre = sighting.center();
            self.false_named.push(format!(
                "frame {}: tag {} at ({:.0}, {:.0}), {:.1} px: {why}",
                shot.frame,
                sighting.id,
                centre.x,
                centre.y,
                sighting.side()
            ));
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
        percentile(&sorted_times(&self.times), 0.5)
    }

    fn p95(&self) -> Duration {
        percentile(&sorted_times(&self.times), 0.95)
    }

    fn fps(&self) -> f64 {
        self.times.len() as f64 / self.times.iter().sum::<Duration>().as_secs_f64().max(1e-9)
    }

    fn error_p95(&self) -> f64 {
        quantile(&self.errors, 0.95)
    }

    fn small_placed_p95(&self) -> f64 {
        quantile(&self.small_placed, 0.95)
    }
}

/// How far a stand tag found is placed from its true place, inches, by the calibration at the
/// roster's height; `None` for an anchor or a tag the camera cannot place.
fn placing_error(shot: &Shot, sighting: &calibration::TagSighting, truth: &Truth) -> Option<f64> {
    let spec = truth.stands.get(&sighting.id)?;
    let placed = shot.placed.get(&sighting.id)?;
    let pose = vision::tag_pose(truth.calibration, sighting, spec.height)?;
    Some((pose.center - placed.center).norm())
}

/// Play the game through each lens, detect both ways, print the figures.
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
    let settings = DetectorSettings {
        family: bench.family.name().into(),
        ..DetectorSettings::default()
    };
    header(&bench, &game, &settings, out)?;
    let mut played = Vec::new();
    for &lens in &bench.lenses {
        let play = play(&bench, &game, &settings, lens)?;
        report(lens, &play, out)?;
        played.push((lens, play));
    }
    if played.len() > 1 {
        summary(&played, out)?;
    }
    writeln!(
        out,
        "times are tag detection per frame (grey conversion included); error is the mean corner distance to the truth; \
         placed is how far a stand tag of {}–{} px found is placed on the table from its true place, by the calibration from the first frame",
        SMALL_PLACED.start, SMALL_PLACED.end
    )?;
    Ok(())
}

/// One lens's game, detected both ways.
struct Played {
    full: Score,
    live: Score,
    passes: Passes,
    schedule: vision::live::schedule::ScheduleSettings,
}

/// Play the game through one kind of lens.
fn play(
    bench: &LiveBench,
    game: &MovingGame,
    settings: &DetectorSettings,
    lens: LensClass,
) -> anyhow::Result<Played> {
    let camera = framing_camera_for(
        game.settings().table,
        lens.sample(bench.size, bench.seed),
        Degrees(40.0),
    );
    let mut full = TagDetector::new(settings.clone())?;
    let mut live = LiveDetector::new(LiveSettings {
        detector: settings.clone(),
        ..LiveSettings::default()
    })?;
    let stands = game.stand_tags();
    let anchors = game.anchors().anchors.iter().map(|anchor| anchor.id);
    let ours: HashSet<u32> = stands.keys().copied().chain(anchors).collect();
    let mut a = Score {
        way: "full frame",
        ..Score::default()
    };
    let mut b = Score {
        way: "live",
        ..Score::default()
    };
    let mut passes = Passes::default();
    let mut calibration = None;
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
        let shot = shoot(&mut renderer, game, &camera, frame, &effects)?;
        let started = Instant::now();
        let found = full.detect(&shot.image)?;
        let full_time = started.elapsed();
        let calibration = match &calibration {
            Some(calibration) => calibration,
            None => {
                let fitted = calibrate_from_picture(
                    &shot.image,
                    &found.sightings(),
                    game.anchors(),
                    &stands,
                    bench.size,
                )?;
                live.search_missing(Some(MissingTagSearch::new(&fitted, &stands)?));
                calibration.insert(fitted)
            }
        };
        let truth = Truth {
            ours: &ours,
            stands: &stands,
            calibration,
        };
        a.add(&shot, &found, &truth, full_time);
        let started = Instant::now();
        let found = live.detect(&shot.image)?;
        b.add(&shot, &found, &truth, started.elapsed());
        if let Some(report) = live.last_pass() {
            passes.count(&report.plan, report.followed, found.tags.len());
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(Played {
        full: a,
        live: b,
        passes,
        schedule: live.schedule_settings(),
    })
}

/// What the live detector's frames were.
#[derive(Default)]
struct Passes {
    tracking: usize,
    full: usize,
    /// Full-resolution sweeps started (each spread over a few tracking frames).
    sweeps: usize,
    /// Tags followed from their predictions, over the tracking frames.
    followed: usize,
    /// Tags found, over the tracking frames.
    known: usize,
}

impl Passes {
    fn count(&mut self, plan: &Plan, followed: usize, found: usize) {
        if let Plan::Full(_) = plan {
            self.full += 1;
            return;
        }
        self.sweeps += usize::from(plan.full_look().is_some());
        self.tracking += 1;
        self.followed += followed;
        self.known += found;
    }
}

/// Frame `frame` of the game and what the camera sees in it.
fn shoot(
    renderer: &mut Renderer,
    game: &MovingGame,
    camera: &calibration::Camera,
    frame: u64,
    effects: &Effects,
) -> anyhow::Result<Shot> {
    let table = game.table_at(frame);
    Ok(Shot {
        frame,
        image: renderer.render(&table, camera, effects)?,
        visible: game.visible_tags(frame, camera).into_iter().collect(),
        placed: table.tags().map(|tag| (tag.id, tag.placement)).collect(),
    })
}

/// What every lens's game has in common.
fn header(
    bench: &LiveBench,
    game: &MovingGame,
    settings: &DetectorSettings,
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
        "vedette bench live — a synthetic game at {}, both ways on the same {} frames a lens ({build})",
        bench.size,
        bench.frames.max(2)
    )?;
    writeln!(
        out,
        "table 72\"×48\", {} stands with {}\" {} tags + 4 anchors, {:.0} % of them moving at up to {} in/s \
         and turning, a hand over the table {} frames in every {}; camera 40° from vertical, webcam effects; {} table; seed {}; \
         {} rays a pixel; the small-tag search calibrated from the first frame's tags (lens fitted)",
        bench.tags,
        g.tag_size.0,
        bench.family,
        100.0 * g.moving_share,
        g.speed,
        g.hand_frames,
        g.hand_every,
        if bench.busy {
            "busy (flocked mat, painted figures)"
        } else {
            "plain"
        },
        bench.seed,
        bench.samples.max(1).pow(2)
    )?;
    writeln!(out, "detector: {settings}")?;
    Ok(())
}

/// One lens's figures.
fn report(lens: LensClass, played: &Played, out: &mut dyn Write) -> anyhow::Result<()> {
    let (a, b, passes, s) = (&played.full, &played.live, &played.passes, &played.schedule);
    writeln!(out, "\n{} lens", lens.name())?;
    writeln!(
        out,
        "live: known tags followed from their predicted corners, the rest searched for in regions; \
         a decimate-{} band pass in {} bands; a full-resolution sweep of the frame (a part a frame) every {} frames, and on missing tags at most every {} — \
         {} full pass(es), {} sweeps, {} tracking frames in which {:.1} % of the tags found were followed",
        s.band_decimate,
        s.bands,
        s.full_every,
        s.full_gap,
        passes.full,
        passes.sweeps,
        passes.tracking,
        100.0 * passes.followed as f64 / passes.known.max(1) as f64
    )?;
    writeln!(
        out,
        "{:<34} {:>9} {:>9} {:>8} {:>9} {:>10} {:>16} {:>6}",
        "", "median", "p95", "frames/s", "recall", "error p95", "placed p95", "false"
    )?;
    for (name, score) in [
        ("(a) full frame, decimate 1", a),
        ("(b) live (tracking)", b),
    ] {
        writeln!(
            out,
            "{name:<34} {:>6.1} ms {:>6.1} ms {:>8.1} {:>8.2} % {:>7.3} px {:>7.3}\" ({:>5}) {:>6}",
            score.median().as_secs_f64() * 1e3,
            score.p95().as_secs_f64() * 1e3,
            score.fps(),
            100.0 * score.recall(),
            score.error_p95(),
            score.small_placed_p95(),
            score.small_placed.len(),
            score.false_tags
        )?;
    }
    for (name, score) in [("(a)", a), ("(b)", b)] {
        writeln!(
            out,
            "recall of {name} by tag side: {}",
            score.recall_by_side()
        )?;
        for named in &score.false_named {
            writeln!(out, "  false tag of {name}: {named}")?;
        }
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
    Ok(())
}

/// The live detector's figures through every lens, one line each.
fn summary(played: &[(LensClass, Played)], out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(out, "\nlive (tracking) through every lens")?;
    writeln!(
        out,
        "{:<22} {:>12} {:>12} {:>17} {:>6} {:>9} {:>9}",
        "lens", "≥ 14 px", "11–14 px", "placed p95", "false", "median", "frames/s"
    )?;
    for (lens, played) in played {
        let b = &played.live;
        let share =
            |k: usize| 100.0 * b.found_by_side[k] as f64 / b.visible_by_side[k].max(1) as f64;
        writeln!(
            out,
            "{:<22} {:>10.2} % {:>10.2} % {:>8.3}\" ({:>5}) {:>6} {:>6.1} ms {:>9.1}",
            lens.name(),
            share(2),
            share(1),
            b.small_placed_p95(),
            b.small_placed.len(),
            b.false_tags,
            b.median().as_secs_f64() * 1e3,
            b.fps()
        )?;
    }
    Ok(())
}
