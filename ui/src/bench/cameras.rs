//! `vedette bench cameras`: an evening's game on a convention table (12'×6') seen by several
//! 1080p webcams side by side, as hostile as `bench play`'s (stands carried through the air,
//! trays slid, hands over units, MJPEG, motion blur, glare), one camera unplugged for part of
//! the game. Each camera runs the app's live detector and tracker on its own picture, is
//! calibrated from the anchors in its own view, and the cameras' resting tags are fused
//! ([`vision::fusion`]). Judged against the truth: recall of the tags some camera sees at 14
//! px or more, where stands lying still are placed, how far a stand in two views wavers from
//! frame to frame, what the unplugged camera leaves unseen, and the time a frame takes.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use calibration::{AnchorLayout, Camera, TableCalibration, TableSize, TagSighting};
use roster::Roster;
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use vision::rig::Rig;
use vision::synthetic::{Evening, EveningSettings, LensClass, Renderer, rig_cameras};
use vision::{
    DetectorSettings, FusedTags, LiveDetector, LiveSettings, LocatedTag, MissingTagSearch, Tracker,
    TrackerSettings, locate_tags, observations, scene_on_table,
};

use super::figures::{ms, percentile, quantile, sorted_times};
use super::world::{HD, calibrate_from_picture};
use crate::progress::progress;

/// What `vedette bench cameras` plays.
#[derive(clap::Args, Clone, Debug)]
pub struct CamerasBench {
    /// Seconds of play, 30 frames a second (each camera's picture rendered untimed).
    #[arg(long, default_value_t = 20.0)]
    pub seconds: f64,
    /// Units on the table (trays of two or three stands, and single bases: the evening of
    /// seed 1 makes 124 stands of 68 units, the 120 and more).
    #[arg(long, default_value_t = 68)]
    pub units: usize,
    /// Webcams side by side along the table (2–4).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..=4))]
    pub cameras: u32,
    /// The evening's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rays along a pixel's side when rendering: 1 for speed (blur, noise and JPEG stay), 2
    /// for four moments of the exposure (motion blur).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=3))]
    pub samples: u32,
    /// The share of the game the second camera is unplugged for, from 40 % of the way in
    /// (0: never).
    #[arg(long, default_value_t = 0.3)]
    pub unplugged: f64,
}

/// The convention table.
const TABLE: TableSize = TableSize {
    width: 144.0,
    depth: 72.0,
};
/// How far each camera's share reaches past its seams.
const OVERLAP: Inches = Inches(4.0);
/// Tags seen at least this big by some camera must be found.
const SMALLEST: f64 = 14.0;
/// A stand placed further than this from where it lies is misplaced.
const MISPLACED: f64 = 0.25;
/// How far stated heights may be off (the roster's default), inches.
const HEIGHT_SD: Inches = Inches(0.6 / 25.4);

/// One webcam: where it hangs, and what its own thread last made of its picture.
struct Eye {
    name: String,
    camera: Camera,
    /// Its time a frame: detect, place and track.
    times: Vec<Duration>,
    jobs: mpsc::Sender<(vision::Mat, Duration)>,
    done: mpsc::Receiver<anyhow::Result<Seen>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What a camera's thread made of one picture.
struct Seen {
    /// Its calibration, when it was made (on the first picture).
    calibrated: Option<TableCalibration>,
    tags: Vec<LocatedTag>,
    held: Vec<LocatedTag>,
    took: Duration,
}

impl Eye {
    fn new(k: usize, camera: Camera, evening: &Evening) -> Eye {
        let name = format!("camera {}", k + 1);
        let (jobs, inbox) = mpsc::channel();
        let (outbox, done) = mpsc::channel();
        let worker = Worker {
            name: name.clone(),
            roster: evening.roster().clone(),
            anchors: evening.anchors().clone(),
        };
        // The detector lives on the camera's own thread, as the app's pipeline keeps it.
        let thread = std::thread::spawn(move || worker.run(&inbox, &outbox));
        Eye {
            name,
            camera,
            times: Vec::new(),
            jobs,
            done,
            thread: Some(thread),
        }
    }

    /// Hand what the camera's thread made of its picture to the rig, captured at `time`.
    fn take(&mut self, index: usize, rig: &mut Rig, time: Duration) -> anyhow::Result<()> {
        let seen = self
            .done
            .recv()
            .map_err(|_| anyhow::anyhow!("{}'s thread stopped", self.name))??;
        if let Some(calibration) = seen.calibrated {
            rig.calibrated(index, calibration);
        }
        rig.report(index, time, seen.tags, seen.held);
        self.times.push(seen.took);
        Ok(())
    }
}

impl Drop for Eye {
    fn drop(&mut self) {
        // Closing the jobs' channel ends the thread.
        let (closed, _) = mpsc::channel();
        self.jobs = closed;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A camera's thread: the app's live detector and tracker on its pictures.
struct Worker {
    name: String,
    roster: Roster,
    anchors: AnchorLayout,
}

impl Worker {
    fn run(
        self,
        inbox: &mpsc::Receiver<(vision::Mat, Duration)>,
        outbox: &mpsc::Sender<anyhow::Result<Seen>>,
    ) {
        let detector = LiveDetector::new(LiveSettings {
            detector: DetectorSettings::default(),
            ..LiveSettings::default()
        });
        let mut detector = match detector {
            Ok(detector) => detector,
            Err(e) => {
                let _ = outbox.send(Err(e.into()));
                return;
            }
        };
        let mut tracker = Tracker::new(TrackerSettings::default());
        let mut calibration = None;
        let mut last: Option<Duration> = None;
        while let Ok((image, time)) = inbox.recv() {
            // Back after being lost (unplugged): where it last saw things is stale, and the
            // camera may have been knocked; it starts afresh, as the app's camera does.
            if last.is_some_and(|last| time.saturating_sub(last) > vision::rig::LOST) {
                tracker.clear();
            }
            last = Some(time);
            let seen = self.frame(&mut detector, &mut tracker, &mut calibration, &image, time);
            if outbox.send(seen).is_err() {
                return;
            }
        }
    }

    /// One picture: calibrated from its anchors on the first (untimed, as the app does once),
    /// then detected, placed and tracked (timed).
    fn frame(
        &self,
        detector: &mut LiveDetector,
        tracker: &mut Tracker,
        calibration: &mut Option<TableCalibration>,
        image: &vision::Mat,
        time: Duration,
    ) -> anyhow::Result<Seen> {
        let stands = self.roster.stand_tags();
        let mut calibrated = None;
        if calibration.is_none() {
            let sightings = detector.detect(image)?.sightings();
            let fitted = calibrate_from_picture(image, &sightings, &self.anchors, &stands, HD)
                .map_err(|e| anyhow::anyhow!("{}: {e:#}", self.name))?;
            detector.search_missing(Some(MissingTagSearch::new(&fitted, &stands)?));
            calibrated = Some(fitted.clone());
            *calibration = Some(fitted);
        }
        let Some(calibration) = calibration.as_ref() else {
            anyhow::bail!("{}: not calibrated", self.name);
        };
        let started = Instant::now();
        let sightings = detector.detect(image)?.sightings();
        let located = locate_tags(calibration, Some(&self.roster), &sightings, Inches(0.16));
        let observed = observations(&located, &sightings, &stands);
        let tracked = tracker.update(time, calibration, &observed);
        let took = started.elapsed();
        let (tags, held) = vision::rig::rests_to_report(&tracked);
        Ok(Seen {
            calibrated,
            tags,
            held,
            took,
        })
    }
}

/// Tag-frames counted and found.
#[derive(Default, Clone, Copy)]
struct Tally {
    counted: usize,
    found: usize,
}

impl Tally {
    fn add(&mut self, found: bool) {
        self.counted += 1;
        self.found += usize::from(found);
    }

    fn share(&self) -> f64 {
        100.0 * self.found as f64 / self.counted.max(1) as f64
    }
}

/// What the game showed.
#[derive(Default)]
struct Figures {
    /// Tags of stands lying still that a live camera sees whole at 14 px or more.
    recall: Tally,
    /// The same while a camera is unplugged, and after it rejoins.
    recall_unplugged: Tally,
    /// Stands lying still, how far from where they lie (inches).
    errors: Vec<f64>,
    /// Of those, the ones two cameras placed.
    errors_two: Vec<f64>,
    misplaced: usize,
    /// Stand-frames lying still that no live camera sees: held where last seen, not judged.
    out_of_sight: usize,
    /// A still tag in two views: how far it moved from one frame to the next.
    wavers: Vec<f64>,
    /// Units named unseen (no tag placed) at once, at most: while a camera is unplugged, and
    /// while all play.
    unseen_unplugged: usize,
    unseen_all: usize,
    /// Cameras' readings of one tag left off the table for disagreeing, tag-frames.
    conflicts: usize,
    /// Wall time of a frame with every camera's work on its own thread.
    wall: Vec<Duration>,
    /// Moves whose stands ended in another camera's share than they started in.
    crossings: usize,
}

/// Play the evening and print the figures.
pub fn run(bench: &CamerasBench, out: &mut dyn Write) -> anyhow::Result<()> {
    let evening = Evening::new(EveningSettings {
        table: TABLE,
        units: bench.units.max(1),
        seconds: bench.seconds.max(2.0),
        seed: bench.seed,
        supersample: bench.samples,
        cameras: bench.cameras as usize,
        ..EveningSettings::default()
    });
    // Hung from a rig along the table, nearly overhead, each its own webcam's lens.
    let lenses: Vec<_> = (0..u64::from(bench.cameras))
        .map(|k| LensClass::Ordinary.sample(HD, bench.seed * 10 + k))
        .collect();
    let cameras = rig_cameras(TABLE, &lenses, OVERLAP, Degrees(15.0));
    let mut eyes: Vec<Eye> = cameras
        .into_iter()
        .enumerate()
        .map(|(k, camera)| Eye::new(k, camera, &evening))
        .collect();
    let stands: usize = evening.roster().units.iter().map(|u| u.stands.len()).sum();
    writeln!(
        out,
        "{} units ({stands} stands, 1\" tags) on a {}\"×{}\" table, {} webcams at {}×{} side by side, {} s at {} frames/s; camera 2 unplugged for {:.0} % of the game",
        evening.roster().units.len(),
        TABLE.width,
        TABLE.depth,
        bench.cameras,
        HD.width,
        HD.height,
        bench.seconds,
        evening.settings().fps,
        bench.unplugged * 100.0
    )?;
    let frames = evening.frames();
    let unplugged = |frame: u64| {
        let share = frame as f64 / frames as f64;
        (0.4..0.4 + bench.unplugged).contains(&share)
    };
    let tag_units: HashMap<u32, String> = evening.tags().map(|(t, u)| (t, u.to_owned())).collect();
    let settle = TrackerSettings::default().settle_time + Duration::from_millis(100);
    let mut figures = Figures {
        crossings: crossings(&evening),
        ..Figures::default()
    };
    let mut rig = Rig::new(eyes.iter().map(|e| e.name.clone()));
    let mut renderer = Renderer::new();
    let mut last: HashMap<u32, (TablePoint, usize)> = HashMap::new();
    let bar = progress(frames as usize, "frame");
    for frame in 0..frames {
        let world = evening.table_at(frame);
        let time = evening.time_of(frame);
        let effects = evening.effects_at(frame);
        let live: Vec<usize> = (0..eyes.len())
            .filter(|&k| !(k == 1 && unplugged(frame)))
            .collect();
        let images: Vec<(usize, vision::Mat)> = live
            .iter()
            .map(|&k| Ok((k, renderer.render(&world, &eyes[k].camera, &effects)?)))
            .collect::<anyhow::Result<_>>()?;
        // Every picture handed over at once: the cameras' threads work side by side.
        let started = Instant::now();
        for (k, image) in images {
            eyes[k]
                .jobs
                .send((image, time))
                .map_err(|_| anyhow::anyhow!("{}'s thread stopped", eyes[k].name))?;
        }
        for &k in &live {
            eyes[k].take(k, &mut rig, time)?;
        }
        if frame > 0 {
            figures.wall.push(started.elapsed());
        }
        // The unplugged camera sends nothing: late a quarter of a second on (what it saw
        // held), lost two seconds on (what only it saw unseen); it rejoins when it sends.
        let fused = rig.table(time, HEIGHT_SD).fused;
        figures.conflicts += fused.conflicts.len();
        for conflict in &fused.conflicts {
            tracing::debug!(%conflict, at = ?time);
        }
        let truth = evening.truth_at(frame);
        let still: HashSet<&str> = truth
            .units
            .iter()
            .filter(|u| u.lying && u.untouched_for.is_some_and(|t| t >= settle))
            .map(|u| u.unit.as_str())
            .collect();
        let still_tags: HashSet<u32> = tag_units
            .iter()
            .filter(|(_, unit)| still.contains(unit.as_str()))
            .map(|(id, _)| *id)
            .collect();
        let in_view = best_sides(&world, &eyes, &live);
        figures.count_recall(unplugged(frame), &in_view, &still_tags, &fused);
        // Judged where some live camera sees the tag as big as it must be found.
        let in_sight: HashSet<u32> = in_view
            .iter()
            .filter(|(_, side)| **side >= SMALLEST)
            .map(|(id, _)| *id)
            .collect();
        let lying = Lying {
            truth: &truth,
            still: &still,
            in_sight: &in_sight,
        };
        let first = rig.cameras()[0].calibration.as_ref();
        let unseen = judge_places(&evening, first, &fused, &lying, &mut figures)?;
        let most = if unplugged(frame) {
            &mut figures.unseen_unplugged
        } else {
            &mut figures.unseen_all
        };
        *most = (*most).max(unseen);
        figures.count_wavers(&fused, &still_tags, &mut last);
        bar.inc(1);
    }
    bar.finish_and_clear();
    report(&eyes, &figures, out)
}

/// Each tag in view of the `live` cameras, and the side in pixels of the best view of it.
fn best_sides(
    world: &vision::synthetic::SyntheticTable,
    eyes: &[Eye],
    live: &[usize],
) -> HashMap<u32, f64> {
    let mut best: HashMap<u32, f64> = HashMap::new();
    for &k in live {
        for (id, corners) in world.tags_in_view(&eyes[k].camera) {
            let side = TagSighting { id, corners }.side();
            let entry = best.entry(id).or_insert(0.0);
            *entry = entry.max(side);
        }
    }
    best
}

impl Figures {
    /// Count the tags of stands lying still that some live camera sees at [`SMALLEST`] px or
    /// more (`in_view`: the best side of each), found or not.
    fn count_recall(
        &mut self,
        unplugged: bool,
        in_view: &HashMap<u32, f64>,
        still_tags: &HashSet<u32>,
        fused: &FusedTags,
    ) {
        let placed: HashSet<u32> = fused.tags.iter().map(|t| t.tag.pose.id).collect();
        let tally = if unplugged {
            &mut self.recall_unplugged
        } else {
            &mut self.recall
        };
        for (id, side) in in_view {
            if still_tags.contains(id) && *side >= SMALLEST {
                tally.add(placed.contains(id));
            }
        }
    }

    /// How far each still tag in two views moved since the frame before (`last`: where each
    /// tag was, by how many cameras).
    fn count_wavers(
        &mut self,
        fused: &FusedTags,
        still_tags: &HashSet<u32>,
        last: &mut HashMap<u32, (TablePoint, usize)>,
    ) {
        for tag in &fused.tags {
            let id = tag.tag.pose.id;
            let now = (tag.tag.pose.center, tag.seen_by.len());
            if let Some((before, by)) = last.get(&id)
                && still_tags.contains(&id)
                && (by + now.1 > 2)
            {
                let waver = (now.0 - *before).norm();
                if waver > 0.03 {
                    tracing::debug!(tag = id, waver, seen_by = ?tag.seen_by, "a still stand moved");
                }
                self.wavers.push(waver);
            }
            last.insert(id, now);
        }
    }
}

/// The truth of a frame as the placing is judged: where units are, which lie still, and
/// which tags some live camera sees whole.
struct Lying<'a> {
    truth: &'a vision::synthetic::FrameTruth,
    still: &'a HashSet<&'a str>,
    in_sight: &'a HashSet<u32>,
}

/// Where the fused tags put the stands lying still, against where they lie; returns how many
/// units the scene names unseen.
fn judge_places(
    evening: &Evening,
    calibration: Option<&TableCalibration>,
    fused: &FusedTags,
    lying: &Lying,
    figures: &mut Figures,
) -> anyhow::Result<usize> {
    let Some(calibration) = calibration else {
        return Ok(0);
    };
    let (scene, sighted) = scene_on_table(
        evening.roster(),
        calibration,
        fused.poses(),
        Vec::new(),
        "cameras",
    )?;
    let by_two: HashSet<u32> = fused
        .tags
        .iter()
        .filter(|t| t.seen_by.len() >= 2)
        .map(|t| t.tag.pose.id)
        .collect();
    for unit in lying
        .truth
        .units
        .iter()
        .filter(|u| lying.still.contains(u.unit.as_str()))
    {
        let (Some(placed), Some(entry)) = (
            scene.unit(&unit.unit),
            evening.roster().units.iter().find(|u| u.id == unit.unit),
        ) else {
            continue;
        };
        let placed_stands = placed.footprint.stands();
        if placed_stands.len() != unit.stands.len() {
            continue;
        }
        for ((stand, true_stand), roster_stand) in
            placed_stands.iter().zip(&unit.stands).zip(&entry.stands)
        {
            // A stand no live camera sees at 14 px or more (carried into the unplugged camera's
            // view, under a hand, to where its tag is too small to read) is held where it was
            // last seen: counted apart, not as placed.
            if !lying.in_sight.contains(&roster_stand.tag) {
                figures.out_of_sight += 1;
                continue;
            }
            let error = (stand.center() - true_stand.center()).norm();
            if error > MISPLACED {
                let by = fused
                    .tags
                    .iter()
                    .find(|t| t.tag.pose.id == roster_stand.tag);
                tracing::debug!(unit = %unit.unit, tag = roster_stand.tag, error, seen_by = ?by.map(|t| &t.seen_by), "stand misplaced");
            }
            figures.errors.push(error);
            if by_two.contains(&roster_stand.tag) {
                figures.errors_two.push(error);
            }
            figures.misplaced += usize::from(error > MISPLACED);
        }
    }
    Ok(sighted.unseen.len())
}

/// Moves that carried a unit from one camera's share into another's.
fn crossings(evening: &Evening) -> usize {
    let seams = evening.seams();
    evening
        .moves()
        .iter()
        .filter(|m| {
            let (from, to) = (m.from.center.x, m.to.center.x);
            seams.iter().any(|&seam| (from - seam) * (to - seam) < 0.0)
        })
        .count()
}

fn report(eyes: &[Eye], figures: &Figures, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "recall: {:.2} % of {} tag-frames of stands lying still that a camera sees at {SMALLEST} px or more (goal ≥ 99 %)",
        figures.recall.share(),
        figures.recall.counted
    )?;
    writeln!(
        out,
        "        {:.2} % of {} while camera 2 is unplugged (the tags the others see); units named unseen at once: at most {} then, {} with every camera",
        figures.recall_unplugged.share(),
        figures.recall_unplugged.counted,
        figures.unseen_unplugged,
        figures.unseen_all
    )?;
    let quantiles = |values: &[f64]| {
        format!(
            "median {:.4}\", p95 {:.4}\", max {:.4}\" ({} stand-frames)",
            quantile(values, 0.5),
            quantile(values, 0.95),
            quantile(values, 1.0),
            values.len()
        )
    };
    writeln!(
        out,
        "stands lying still that a live camera sees at {SMALLEST} px or more, placed: {} (goal p95 ≤ 0.05\"); {} further than {MISPLACED}\"; {} stand-frames no live camera sees so, held where last seen",
        quantiles(&figures.errors),
        figures.misplaced,
        figures.out_of_sight
    )?;
    writeln!(
        out,
        "  of them placed by two cameras: {}",
        quantiles(&figures.errors_two)
    )?;
    writeln!(
        out,
        "a still stand in two views, from frame to frame: {} (goal ≤ 0.03\"); {} frames beyond it",
        quantiles(&figures.wavers),
        figures.wavers.iter().filter(|w| **w > 0.03).count()
    )?;
    writeln!(
        out,
        "moves from one camera's share into another's: {}; tags left off for the cameras disagreeing: {} tag-frames",
        figures.crossings, figures.conflicts
    )?;
    let wall = sorted_times(&figures.wall);
    writeln!(
        out,
        "time a frame, every camera on its own thread: mean {:.1} ms, p95 {:.1} ms → {:.1} frames/s each",
        ms(wall.iter().sum::<Duration>() / wall.len().max(1) as u32),
        ms(percentile(&wall, 0.95)),
        wall.len() as f64 / wall.iter().sum::<Duration>().as_secs_f64().max(1e-9)
    )?;
    for eye in eyes {
        let times = sorted_times(&eye.times);
        writeln!(
            out,
            "  {}: detect, place and track mean {:.1} ms, p95 {:.1} ms ({} frames)",
            eye.name,
            ms(times.iter().sum::<Duration>() / times.len().max(1) as u32),
            ms(percentile(&times, 0.95)),
            times.len()
        )?;
    }
    Ok(())
}
