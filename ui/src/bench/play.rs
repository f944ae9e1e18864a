//! `vedette bench play`: an evening's game (`vision::synthetic::Evening`: stands carried
//! through the air, trays slid, hands over units, arms across the table, MJPEG, motion blur,
//! exposure swings, glare) played through the live pipeline, and judged against its truth two
//! ways on the same frames: the tracker as it is (moves seen as moves: units ruled where they
//! rest, each move one event) and the tracker as it was before (every sighting placed at once,
//! a wobble averaged, a move jumped to).

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use calibration::{PixelPoint, TableCalibration, TagSighting};
use roster::Roster;
use rules::Scene;
use rules::geometry::{OrientedRect, TablePoint};
use rules::rulings::{Rulings, rulings};
use rules::units::{Degrees, Inches};
use vision::live::moved::{MoveThreshold, scene_moved};
use vision::synthetic::{
    Evening, EveningSettings, FrameTruth, LensClass, Renderer, framing_camera_for,
};
use vision::{
    DetectorSettings, LiveDetector, LiveSettings, MissingTagSearch, MoveEvent, MoveWatch, TagPose,
    Tracker, TrackerSettings, locate_tags, observations, scene_on_table,
};

use super::figures::{ms, percentile, quantile, sorted_times};
use super::world::{HD, calibrate_from_picture};
use crate::args::parse_lens;
use crate::progress::progress;

/// What `vedette bench play` plays.
#[derive(Clone, Debug, clap::Args)]
pub struct PlayBench {
    /// Seconds of play, 30 frames a second (each rendered untimed, about a quarter of a second
    /// a frame; a long run holds one frame at a time).
    #[arg(long, default_value_t = 60.0)]
    pub seconds: f64,
    /// Units on the table (trays of two or three stands, and single bases).
    #[arg(long, default_value_t = 36)]
    pub units: usize,
    /// Players moving units at once (1 or 2).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
    pub players: u32,
    /// The evening's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The webcam's lens: distortion-free, ordinary, pincushion or wide.
    #[arg(long, default_value = "ordinary", value_parser = parse_lens)]
    pub lens: LensClass,
    /// Rays along a pixel's side when rendering: 2 (four rays, four moments of the exposure
    /// for the motion blur); 1 for a long run (no motion blur beyond the camera's own).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=3))]
    pub samples: u32,
}

/// A tag found further than this from where it is counts as false.
const MATCH_PIXELS: f64 = 3.0;
/// A unit ruled further than this from every place it ever lay was ruled where it never lay.
const NEVER_LAY: f64 = 0.25;
/// A reported move matches a true one of its unit ending within this of the hand leaving …
const MATCH_TIME: (f64, f64) = (-0.5, 3.0);
/// … and putting the unit within this of where it was put.
const MATCH_PLACE: f64 = 0.5;
/// Tags under more glare than this (grey levels added at a corner) are counted apart …
const GLARED: f64 = 60.0;
/// … and under more than this should be named as glared.
const GLARE_SHOWS: f64 = 120.0;

/// Play the evening and print the figures.
pub fn run(bench: &PlayBench, out: &mut dyn Write) -> anyhow::Result<()> {
    let evening = Evening::new(EveningSettings {
        units: bench.units.max(1),
        seconds: bench.seconds.max(2.0),
        players: bench.players as usize,
        seed: bench.seed,
        supersample: bench.samples,
        ..EveningSettings::default()
    });
    let camera = framing_camera_for(
        evening.settings().table,
        bench.lens.sample(HD, bench.seed),
        Degrees(40.0),
    );
    header(bench, &evening, out)?;
    let mut play = Play::new(&evening)?;
    let mut renderer = Renderer::new();
    let bar = progress(evening.frames() as usize, "frame");
    for frame in 0..evening.frames() {
        let world = evening.table_at(frame);
        let image = renderer.render(&world, &camera, &evening.effects_at(frame))?;
        let shot = Shot {
            frame,
            time: evening.time_of(frame),
            image,
            truth: evening.truth_at(frame),
            in_view: world.tags_in_view(&camera).into_iter().collect(),
            everywhere: world
                .tags_on_blocks()
                .filter_map(|(block, tag)| Some((tag.id, block.tag_as_seen(tag, &camera)?.corners)))
                .collect(),
            glare: world
                .tags_on_blocks()
                .map(|(block, tag)| {
                    let c = block.carry(tag.placement.corners()[0]);
                    let at = TablePoint::new(c.x, c.y);
                    (tag.id, world.glare.iter().map(|g| g.at(&at)).sum())
                })
                .collect(),
        };
        play.frame(&evening, &shot)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    report(&evening, &play, out)
}

/// One frame and its truth.
struct Shot {
    frame: u64,
    time: Duration,
    image: vision::Mat,
    truth: FrameTruth,
    /// Tags whose square the camera sees whole, their corners.
    in_view: HashMap<u32, [PixelPoint; 4]>,
    /// Every tag's corners, hidden or not.
    everywhere: HashMap<u32, [PixelPoint; 4]>,
    /// Glare on each tag, grey levels added.
    glare: HashMap<u32, f64>,
}

/// The game being played: the live detector and both ways of tracking.
struct Play {
    detector: LiveDetector,
    calibration: Option<TableCalibration>,
    roster: Roster,
    ours: HashSet<u32>,
    tag_units: HashMap<u32, String>,
    /// Tags printed faded, and their units.
    faded: HashSet<u32>,
    faded_units: HashSet<String>,
    /// A unit untouched this long lies still: the tracker's settle time, and the two frames in
    /// which a unit found away from its rest (moved under a hand) shows it has moved.
    settle: Duration,
    now: Way,
    before: Way,
    tracker: Tracker,
    watch: MoveWatch,
    previous: PreviousTracker,
    /// Every move reported, with the time it was reported.
    events: Vec<(Duration, MoveEvent)>,
    recall: Recall,
    hands: Hands,
    health: vision::HealthWatch,
    /// The tags' remedies in the last frame, and the glare on each tag then.
    remedies: Vec<vision::Remedy>,
    last_glare: HashMap<u32, f64>,
    detect_times: Vec<Duration>,
    place_times: Vec<Duration>,
    /// Frames that looked at the whole frame at once, and parts of sweeps.
    full_passes: usize,
    sweep_parts: usize,
    /// Times the rulings changed (now) with no move reported in that frame: when, and the
    /// units whose place moved.
    unexplained: Vec<(Duration, Vec<String>)>,
}

impl Play {
    fn new(evening: &Evening) -> anyhow::Result<Play> {
        let detector = LiveDetector::new(LiveSettings {
            detector: DetectorSettings::default(),
            ..LiveSettings::default()
        })?;
        let roster = evening.roster().clone();
        let tag_units: HashMap<u32, String> =
            evening.tags().map(|(t, u)| (t, u.to_owned())).collect();
        let ours = tag_units
            .keys()
            .copied()
            .chain(evening.anchors().anchors.iter().map(|a| a.id))
            .collect();
        let settings = TrackerSettings::default();
        let faded: HashSet<u32> = evening.faded().collect();
        let faded_units = faded
            .iter()
            .filter_map(|t| tag_units.get(t).cloned())
            .collect();
        Ok(Play {
            detector,
            calibration: None,
            roster,
            ours,
            tag_units,
            faded,
            faded_units,
            settle: settings.settle_time + Duration::from_millis(100),
            now: Way::new("moves seen as moves (now)"),
            before: Way::new("every sighting placed (before)"),
            tracker: Tracker::new(settings),
            watch: MoveWatch::new(),
            previous: PreviousTracker::default(),
            events: Vec::new(),
            recall: Recall::default(),
            hands: Hands::default(),
            health: vision::HealthWatch::new("tag36h11"),
            remedies: Vec::new(),
            last_glare: HashMap::new(),
            detect_times: Vec::new(),
            place_times: Vec::new(),
            full_passes: 0,
            sweep_parts: 0,
            unexplained: Vec::new(),
        })
    }

    fn frame(&mut self, evening: &Evening, shot: &Shot) -> anyhow::Result<()> {
        let started = Instant::now();
        let found = self.detector.detect(&shot.image)?;
        let detect = started.elapsed();
        match self.detector.last_pass().map(|p| p.plan) {
            Some(vision::live::schedule::Plan::Full(_)) => self.full_passes += 1,
            Some(vision::live::schedule::Plan::Tracking { sweep: Some(_), .. }) => {
                self.sweep_parts += 1;
            }
            _ => {}
        }
        let sightings = found.sightings();
        let calibration = match &self.calibration {
            Some(c) => c.clone(),
            None => {
                // Untimed: the app calibrates once, when it starts.
                let stands = self.roster.stand_tags();
                let fitted = calibrate_from_picture(
                    &shot.image,
                    &sightings,
                    evening.anchors(),
                    &stands,
                    HD,
                )?;
                self.detector
                    .search_missing(Some(MissingTagSearch::new(&fitted, &stands)?));
                self.calibration = Some(fitted.clone());
                fitted
            }
        };
        self.recall.count(
            shot,
            &sightings,
            &self.ours,
            &self.tag_units,
            &self.faded,
            self.settle,
        );
        let started = Instant::now();
        let located = locate_tags(&calibration, Some(&self.roster), &sightings, Inches(0.16));
        let observed = observations(&located, &sightings, &self.roster.stand_tags());
        let tracked = self.tracker.update(shot.time, &calibration, &observed);
        let motion = self
            .watch
            .update(&self.roster, &calibration, &tracked, Vec::new(), "play")?;
        self.health
            .examine_at_rest(&shot.image, &tracked, &sightings)?;
        self.remedies = self.health.remedies();
        self.place_times.push(started.elapsed());
        self.last_glare.clone_from(&shot.glare);
        self.detect_times.push(detect);
        self.hands
            .count(shot, &motion.travelling, &self.tag_units, self.settle);
        for m in &motion.moves {
            tracing::debug!(at = ?shot.time, unit = %m.unit, to = ?m.to.leader, ended = ?m.ended, started = ?m.started, lifted = m.lifted, unseen = m.unseen, "move reported");
        }
        let moved_now = !motion.moves.is_empty();
        self.events
            .extend(motion.moves.into_iter().map(|m| (shot.time, m)));
        if let Some(units) = self
            .now
            .judge(evening, shot, Arc::new(motion.scene), self.settle)
            && !moved_now
        {
            self.unexplained.push((shot.time, units));
        }
        let poses = self.previous.update(&located.tags);
        let (scene, _) =
            scene_on_table(&self.roster, &calibration, poses.iter(), Vec::new(), "play")?;
        let _ = self
            .before
            .judge(evening, shot, Arc::new(scene), self.settle);
        Ok(())
    }
}

/// The tracker as it was before moves were seen as moves (`vision::track` before issue 32):
/// a sighting further than the camera's noise from where its tag was is taken at once, a
/// nearer one averaged in; a tag not seen is held where it was.
#[derive(Default)]
struct PreviousTracker {
    tags: HashMap<u32, TagPose>,
}

impl PreviousTracker {
    fn update(&mut self, seen: &[vision::LocatedTag]) -> Vec<TagPose> {
        for tag in seen {
            let new = tag.pose;
            self.tags
                .entry(new.id)
                .and_modify(|old| {
                    let moved = (new.center - old.center).norm();
                    let turned = old.facing.turn_to(new.facing).0;
                    *old = if moved > 0.08 || turned.abs() > 2.0 {
                        new
                    } else {
                        TagPose {
                            center: TablePoint::from(
                                old.center.coords * 0.7 + new.center.coords * 0.3,
                            ),
                            facing: Degrees(old.facing.0 + turned * 0.3),
                            ..new
                        }
                    };
                })
                .or_insert(new);
        }
        self.tags.values().copied().collect()
    }
}

/// What one way of tracking put before the rules, judged against the truth.
struct Way {
    name: &'static str,
    /// How far each unit lying still is ruled from where it lies, inches, every frame.
    settled_errors: Vec<f64>,
    /// The worst of them: how far, which unit, when.
    worst: (f64, String, Duration),
    /// Unit-frames ruled further than [`NEVER_LAY`] from every place the unit ever lay.
    never_lay: usize,
    /// Units ever ruled where they never lay.
    never_lay_units: HashSet<String>,
    /// Unit-frames judged.
    unit_frames: usize,
    /// Times a unit's place for the rules changed by more than the camera's noise.
    place_changes: usize,
    /// Times the rulings changed.
    /// Times a verdict changed: a ruling's decision, or which rulings there are.
    verdict_changes: usize,
    /// Times any ruling's words changed (a figure of it, a hundredth of an inch).
    wording_changes: usize,
    /// Times the table was ruled again, and how long that took.
    rule_times: Vec<Duration>,
    ruled: Option<(Arc<Scene>, Digests)>,
    places: HashMap<String, TablePoint>,
}

impl Way {
    fn new(name: &'static str) -> Way {
        Way {
            name,
            settled_errors: Vec::new(),
            worst: (0.0, String::new(), Duration::ZERO),
            never_lay: 0,
            never_lay_units: HashSet::new(),
            unit_frames: 0,
            place_changes: 0,
            verdict_changes: 0,
            wording_changes: 0,
            rule_times: Vec::new(),
            ruled: None,
            places: HashMap::new(),
        }
    }

    /// Judge one frame's table; the units whose place moved when the rulings changed.
    fn judge(
        &mut self,
        evening: &Evening,
        shot: &Shot,
        scene: Arc<Scene>,
        settle: Duration,
    ) -> Option<Vec<String>> {
        for truth in &shot.truth.units {
            let Some(unit) = scene.unit(&truth.unit) else {
                continue;
            };
            self.unit_frames += 1;
            let stands = unit.footprint.stands();
            let lying_still = truth.lying && truth.untouched_for.is_some_and(|t| t >= settle);
            if lying_still {
                let error = apart(stands, &truth.stands);
                if error > self.worst.0 {
                    self.worst = (error, truth.unit.clone(), shot.time);
                }
                self.settled_errors.push(error);
            }
            let ever = evening
                .rests_of(&truth.unit)
                .into_iter()
                .filter(|(since, _)| *since <= shot.time)
                .any(|(_, rest)| apart(stands, &rest) <= NEVER_LAY);
            if !ever {
                self.never_lay += 1;
                self.never_lay_units.insert(truth.unit.clone());
            }
            let leader = unit.footprint.leader();
            let was = self.places.insert(truth.unit.clone(), leader);
            if was.is_some_and(|w| (w - leader).norm() > 0.1) {
                self.place_changes += 1;
            }
        }
        self.rule(scene)
    }

    /// Rule again when a stand moved beyond the camera's wobble, as the app does; count the
    /// changes of the rulings, and name the units that moved when a verdict changed.
    fn rule(&mut self, scene: Arc<Scene>) -> Option<Vec<String>> {
        if let Some((ruled, _)) = &self.ruled
            && !scene_moved(ruled, &scene, MoveThreshold::default())
        {
            return None;
        }
        let started = Instant::now();
        let made = rulings(&scene);
        self.rule_times.push(started.elapsed());
        let digests = Digests::of(&made);
        let mut changed = None;
        if let Some((before, was)) = &self.ruled {
            self.wording_changes += usize::from(was.wording != digests.wording);
            if was.verdicts != digests.verdicts {
                self.verdict_changes += 1;
                changed = Some(moved_units(before, &scene));
            }
        }
        self.ruled = Some((scene, digests));
        changed
    }
}

/// Fingerprints of a table's rulings: their verdicts (topic, units, decision), and all their
/// words.
#[derive(Clone, Copy, PartialEq)]
struct Digests {
    verdicts: u64,
    wording: u64,
}

impl Digests {
    fn of(rulings: &Rulings) -> Digests {
        let mut verdicts = std::collections::hash_map::DefaultHasher::new();
        let mut wording = std::collections::hash_map::DefaultHasher::new();
        for ruling in rulings.units.iter().flat_map(|u| &u.rulings) {
            for hasher in [&mut verdicts, &mut wording] {
                format!("{:?}", ruling.topic).hash(hasher);
                ruling.unit.hash(hasher);
                ruling.other.hash(hasher);
                format!("{:?}", ruling.decision).hash(hasher);
            }
            ruling.explanation.hash(&mut wording);
        }
        Digests {
            verdicts: verdicts.finish(),
            wording: wording.finish(),
        }
    }
}

/// The units whose stands moved or turned more than the camera's wobble between two tables,
/// with how far ("red-3 0.21\" 0.4°"); a unit on one table only, "red-3 (gone)" or "(new)".
fn moved_units(before: &Scene, after: &Scene) -> Vec<String> {
    let threshold = MoveThreshold::default();
    let mut moved: Vec<String> = after
        .units
        .iter()
        .filter_map(|unit| {
            let Some(was) = before.unit(&unit.id) else {
                return Some(format!("{} (new)", unit.id));
            };
            let (a, b) = (was.footprint.stands(), unit.footprint.stands());
            let by = a
                .iter()
                .zip(b)
                .map(|(s, t)| (s.center() - t.center()).norm())
                .fold(0.0, f64::max);
            let turned = a
                .iter()
                .zip(b)
                .map(|(s, t)| s.facing().turn_to(t.facing()).0.abs())
                .fold(0.0, f64::max);
            (a.len() != b.len() || by > threshold.distance.0 || turned > threshold.turn.0)
                .then(|| format!("{} {by:.2}\" {turned:.1}°", unit.id))
        })
        .collect();
    moved.extend(
        before
            .units
            .iter()
            .filter(|u| after.unit(&u.id).is_none())
            .map(|u| format!("{} (gone)", u.id)),
    );
    if moved.is_empty() {
        moved.push("(no stand moved: a unit's state or the order of units)".into());
    }
    moved
}

/// The furthest any stand is from its truth (stands in the same order), inches.
fn apart(stands: &[OrientedRect], truth: &[OrientedRect]) -> f64 {
    if stands.len() != truth.len() {
        return f64::INFINITY;
    }
    stands
        .iter()
        .zip(truth)
        .map(|(a, b)| (a.center() - b.center()).norm())
        .fold(0.0, f64::max)
}

/// Tags found against tags in view.
#[derive(Default)]
struct Recall {
    /// Tags of units lying still, whole in view, by side: under 14 px, 14 px and more.
    still: [(usize, usize); 2],
    /// The same under glare.
    glared: (usize, usize),
    /// The same printed faded.
    faded: (usize, usize),
    /// Tags of units in a hand or moving, whole in view.
    moving: (usize, usize),
    false_tags: usize,
    false_named: Vec<String>,
    sightings: usize,
}

impl Recall {
    fn count(
        &mut self,
        shot: &Shot,
        found: &[TagSighting],
        ours: &HashSet<u32>,
        tag_units: &HashMap<u32, String>,
        faded: &HashSet<u32>,
        settle: Duration,
    ) {
        let still: HashSet<&str> = shot
            .truth
            .units
            .iter()
            .filter(|u| u.lying && u.untouched_for.is_some_and(|t| t >= settle))
            .map(|u| u.unit.as_str())
            .collect();
        let near = |a: &[PixelPoint; 4], b: &[PixelPoint; 4]| {
            a.iter().zip(b).map(|(p, q)| p.distance(q).0).sum::<f64>() / 4.0 <= MATCH_PIXELS
        };
        for (id, corners) in &shot.in_view {
            let Some(unit) = tag_units.get(id) else {
                continue;
            };
            let hit = usize::from(
                found
                    .iter()
                    .any(|s| s.id == *id && near(&s.corners, corners)),
            );
            if hit == 0 && still.contains(unit.as_str()) {
                let c = calibration::TagSighting {
                    id: *id,
                    corners: *corners,
                }
                .center();
                tracing::debug!(frame = shot.frame, id, unit = %unit, side = vision::live::roi::side(corners).0, x = c.x, y = c.y, glare = shot.glare.get(id).copied().unwrap_or(0.0), "tag of a unit lying still not found");
            }
            let bucket = if !still.contains(unit.as_str()) {
                &mut self.moving
            } else if faded.contains(id) {
                &mut self.faded
            } else if shot.glare.get(id).copied().unwrap_or(0.0) > GLARED {
                &mut self.glared
            } else {
                &mut self.still[usize::from(vision::live::roi::side(corners).0 >= 14.0)]
            };
            bucket.0 += 1;
            bucket.1 += hit;
        }
        self.sightings += found.len();
        for sighting in found {
            let right = ours.contains(&sighting.id)
                && shot
                    .everywhere
                    .get(&sighting.id)
                    .is_some_and(|c| near(&sighting.corners, c));
            if !right {
                self.false_tags += 1;
                if self.false_named.len() < 5 {
                    let c = sighting.center();
                    self.false_named.push(format!(
                        "frame {}: tag {} at ({:.0}, {:.0})",
                        shot.frame, sighting.id, c.x, c.y
                    ));
                }
            }
        }
    }
}

/// How well units in a hand were told from units lying still.
#[derive(Default)]
struct Hands {
    /// Unit-frames in a hand with a tag in view, and of those drawn travelling in a hand.
    in_hand: (usize, usize),
    /// Unit-frames lying still, and of those drawn travelling.
    still: (usize, usize),
}

impl Hands {
    fn count(
        &mut self,
        shot: &Shot,
        travelling: &[vision::Travelling],
        tag_units: &HashMap<u32, String>,
        settle: Duration,
    ) {
        for unit in &shot.truth.units {
            let on_way = travelling.iter().find(|t| t.unit == unit.unit);
            if unit.in_hand {
                let seen = shot
                    .in_view
                    .keys()
                    .any(|id| tag_units.get(id) == Some(&unit.unit));
                if seen {
                    self.in_hand.0 += 1;
                    self.in_hand.1 += usize::from(on_way.is_some_and(|t| t.in_hand));
                }
            } else if unit.lying && unit.untouched_for.is_some_and(|t| t >= settle) {
                self.still.0 += 1;
                self.still.1 += usize::from(on_way.is_some());
            }
        }
    }
}

fn header(bench: &PlayBench, evening: &Evening, out: &mut dyn Write) -> anyhow::Result<()> {
    let build = if cfg!(debug_assertions) {
        "debug build (use --release for real figures)"
    } else {
        "release build"
    };
    let s = evening.settings();
    let carried = evening.moves().iter().filter(|m| m.lifted).count();
    let hidden = evening.moves().iter().filter(|m| m.hidden).count();
    writeln!(
        out,
        "vedette bench play — an evening's game through the live pipeline, judged two ways on the same frames ({build})"
    )?;
    writeln!(
        out,
        "1920×1080 at 30 frames/s, {:.0} s ({} frames), {} lens, camera 40° from vertical; 72\"×48\" busy table, {} units ({} tags), {} player(s); seed {}",
        s.seconds,
        evening.frames(),
        bench.lens.name(),
        evening.roster().units.len(),
        evening.tags().count(),
        s.players,
        bench.seed
    )?;
    writeln!(
        out,
        "{} moves: {carried} carried (1–4\" up, tilted up to 30°, fingers over the tags), {} slid, {hidden} moved under a hand; hands resting over units and arms across the table besides",
        evening.moves().len(),
        evening.moves().len() - carried - hidden
    )?;
    writeln!(
        out,
        "webcam: MJPEG quality {}–{}, motion blur over a {:.0} ms exposure ({} rays a pixel), exposure swinging 0.6–1.4 as arms pass, {} glare spots, {} faded tags, blur σ 0.8 px, noise σ 3",
        s.jpeg.0,
        s.jpeg.1,
        s.shutter.as_secs_f64() * 1e3,
        s.supersample.pow(2),
        s.glare_spots,
        s.faded_tags
    )?;
    Ok(())
}

fn report(evening: &Evening, play: &Play, out: &mut dyn Write) -> anyhow::Result<()> {
    let true_moves = evening.moves().len().max(1);
    let faded: Vec<String> = play.faded.iter().map(ToString::to_string).collect();
    writeln!(out, "tags printed faded: {}", faded.join(", "))?;
    writeln!(
        out,
        "\nwhere units are ruled (a unit lying still: untouched for {:.1} s, the tracker's settle time and the 2 frames that show a unit moved)",
        play.settle.as_secs_f64()
    )?;
    writeln!(
        out,
        "{:<34} {:>10} {:>10} {:>10} {:>9} {:>22} {:>16} {:>16} {:>16}",
        "",
        "still p50",
        "p95",
        "p99",
        "max",
        "ruled where never lay",
        "place changes",
        "verdict changes",
        "words changed"
    )?;
    for way in [&play.before, &play.now] {
        writeln!(
            out,
            "{:<34} {:>9.4}\" {:>9.4}\" {:>9.4}\" {:>8.3}\" {:>8} ({:>3} units) {:>6} ({:>4.1}/move) {:>6} ({:>4.1}/move) {:>6} ({:>4.1}/move)",
            way.name,
            quantile(&way.settled_errors, 0.5),
            quantile(&way.settled_errors, 0.95),
            quantile(&way.settled_errors, 0.99),
            quantile(&way.settled_errors, 1.0),
            way.never_lay,
            way.never_lay_units.len(),
            way.place_changes,
            way.place_changes as f64 / true_moves as f64,
            way.verdict_changes,
            way.verdict_changes as f64 / true_moves as f64,
            way.wording_changes,
            way.wording_changes as f64 / true_moves as f64,
        )?;
    }
    for way in [&play.before, &play.now] {
        let (error, unit, at) = &way.worst;
        writeln!(
            out,
            "  {}: worst {error:.3}\" ({unit} at {:.1} s)",
            way.name,
            at.as_secs_f64()
        )?;
    }
    for (at, units) in play.unexplained.iter().take(5) {
        writeln!(
            out,
            "  now, a verdict changed with no move reported at {:.1} s: {}",
            at.as_secs_f64(),
            units.join(", ")
        )?;
    }
    moves(evening, play, out)?;
    let r = &play.recall;
    let share = |(seen, hit): (usize, usize)| 100.0 * hit as f64 / seen.max(1) as f64;
    writeln!(
        out,
        "\ntags found (live detector, within {MATCH_PIXELS} px)"
    )?;
    writeln!(
        out,
        "units lying still: 14 px and more {:.2} % of {}, under 14 px {:.2} % of {}; under glare {:.2} % of {}; printed faded {:.2} % of {}; moving or in a hand {:.2} % of {}",
        share(r.still[1]),
        r.still[1].0,
        share(r.still[0]),
        r.still[0].0,
        share(r.glared),
        r.glared.0,
        share(r.faded),
        r.faded.0,
        share(r.moving),
        r.moving.0
    )?;
    writeln!(
        out,
        "false tags: {} in {} tags found",
        r.false_tags, r.sightings
    )?;
    for named in &r.false_named {
        writeln!(out, "  {named}")?;
    }
    health(evening, play, out)?;
    let h = &play.hands;
    writeln!(
        out,
        "in a hand and seen: drawn travelling in a hand {:.1} % of {} unit-frames; lying still: drawn travelling {:.2} % of {}",
        share(h.in_hand),
        h.in_hand.0,
        share(h.still),
        h.still.0
    )?;
    speed(play, out)
}

/// The tags' remedies at the end against what ails them: glare where a lamp shines on them
/// now, faded ink where it was printed so.
fn health(evening: &Evening, play: &Play, out: &mut dyn Write) -> anyhow::Result<()> {
    let faded: HashSet<u32> = evening.faded().collect();
    let glared: HashSet<u32> = play
        .last_glare
        .iter()
        .filter(|(_, g)| **g > GLARE_SHOWS)
        .map(|(id, _)| *id)
        .collect();
    let named = |ailment: vision::Ailment, truth: &HashSet<u32>| {
        play.remedies
            .iter()
            .filter(|r| r.ailment == ailment && truth.contains(&r.tag))
            .count()
    };
    let wrong: Vec<String> = play
        .remedies
        .iter()
        .filter(|r| match r.ailment {
            vision::Ailment::Glare => !glared.contains(&r.tag),
            vision::Ailment::Faded => !faded.contains(&r.tag),
            _ => true,
        })
        .map(ToString::to_string)
        .collect();
    writeln!(
        out,
        "tags' health at the end: glare named on {} of {} tags under a lamp (over {GLARE_SHOWS} grey levels), faded on {} of {} faded tags; {} other remedies{}{}",
        named(vision::Ailment::Glare, &glared),
        glared.len(),
        named(vision::Ailment::Faded, &faded),
        faded.len(),
        wrong.len(),
        if wrong.is_empty() { "" } else { ": " },
        wrong.join("; ")
    )?;
    Ok(())
}

/// The moves reported against the moves made: of units whose tags read well, and apart, of
/// units with a tag printed faded (read now and then: their moves are found late or not at all).
fn moves(evening: &Evening, play: &Play, out: &mut dyn Write) -> anyhow::Result<()> {
    let readable = |unit: &str| !play.faded_units.contains(unit);
    let made: Vec<&vision::synthetic::TrueMove> = evening
        .moves()
        .iter()
        .filter(|m| readable(&m.unit))
        .collect();
    let events: Vec<&(Duration, MoveEvent)> = play
        .events
        .iter()
        .filter(|(_, e)| readable(&e.unit))
        .collect();
    let score = Matching::of(&made, &events);
    writeln!(
        out,
        "\nmoves of units whose tags read well: {} made, {} reported (now; before, there were no moves to report)",
        made.len(),
        events.len()
    )?;
    writeln!(
        out,
        "precision {:.1} %, recall {:.1} %; put-down place p50 {:.4}\", p95 {:.4}\", max {:.3}\"; reported after the hand left: p50 {:.2} s, p95 {:.2} s, max {:.2} s ({:.1} % within 1 s)",
        100.0 * score.matched as f64 / events.len().max(1) as f64,
        100.0 * score.matched as f64 / made.len().max(1) as f64,
        quantile(&score.put_down, 0.5),
        quantile(&score.put_down, 0.95),
        quantile(&score.put_down, 1.0),
        quantile(&score.latency, 0.5),
        quantile(&score.latency, 0.95),
        quantile(&score.latency, 1.0),
        100.0 * score.latency.iter().filter(|l| **l <= 1.0).count() as f64
            / score.latency.len().max(1) as f64
    )?;
    for m in score.missed.iter().take(5) {
        writeln!(
            out,
            "  missed: {} from ({:.1}, {:.1}) to ({:.1}, {:.1}), released at {:.1} s{}{}",
            m.unit,
            m.from.center.x,
            m.from.center.y,
            m.to.center.x,
            m.to.center.y,
            m.released.as_secs_f64(),
            if m.lifted { ", carried" } else { "" },
            if m.hidden { ", under a hand" } else { "" }
        )?;
    }
    for (at, e) in score.unmade.iter().take(5) {
        writeln!(
            out,
            "  not made: {} to ({:.1}, {:.1}), reported at {:.1} s",
            e.unit,
            e.to.leader.x,
            e.to.leader.y,
            at.as_secs_f64()
        )?;
    }
    let faded_made: Vec<&vision::synthetic::TrueMove> = evening
        .moves()
        .iter()
        .filter(|m| !readable(&m.unit))
        .collect();
    let faded_events: Vec<&(Duration, MoveEvent)> = play
        .events
        .iter()
        .filter(|(_, e)| !readable(&e.unit))
        .collect();
    let faded = Matching::of(&faded_made, &faded_events);
    writeln!(
        out,
        "moves of units with a faded tag: {} made, {} reported, {} of them found as made",
        faded_made.len(),
        faded_events.len(),
        faded.matched
    )?;
    Ok(())
}

/// Reported moves matched to moves made: each made move to the first reported move of its unit
/// ending within [`MATCH_TIME`] of the hand leaving and within [`MATCH_PLACE`] of where it was put.
struct Matching<'a> {
    matched: usize,
    put_down: Vec<f64>,
    latency: Vec<f64>,
    missed: Vec<&'a vision::synthetic::TrueMove>,
    unmade: Vec<&'a (Duration, MoveEvent)>,
}

impl<'a> Matching<'a> {
    fn of(
        made: &[&'a vision::synthetic::TrueMove],
        events: &[&'a (Duration, MoveEvent)],
    ) -> Matching<'a> {
        let mut taken = vec![false; events.len()];
        let mut score = Matching {
            matched: 0,
            put_down: Vec::new(),
            latency: Vec::new(),
            missed: Vec::new(),
            unmade: Vec::new(),
        };
        for true_move in made {
            let released = true_move.released.as_secs_f64();
            let found = events.iter().enumerate().find(|(k, (_, e))| {
                let after = e.ended.as_secs_f64() - released;
                !taken[*k]
                    && e.unit == true_move.unit
                    && (MATCH_TIME.0..=MATCH_TIME.1).contains(&after)
                    && (e.to.leader - true_move.to.leader()).norm() <= MATCH_PLACE
            });
            match found {
                Some((k, (reported, e))) => {
                    taken[k] = true;
                    score.matched += 1;
                    score
                        .put_down
                        .push((e.to.leader - true_move.to.leader()).norm());
                    score.latency.push(reported.as_secs_f64() - released);
                }
                None => score.missed.push(true_move),
            }
        }
        score.unmade = events
            .iter()
            .zip(&taken)
            .filter(|(_, t)| !**t)
            .map(|(e, _)| *e)
            .collect();
        score
    }
}

fn speed(play: &Play, out: &mut dyn Write) -> anyhow::Result<()> {
    let work: Vec<Duration> = play
        .detect_times
        .iter()
        .zip(&play.place_times)
        .map(|(d, p)| *d + *p)
        .collect();
    let work = sorted_times(&work);
    let place = sorted_times(&play.place_times);
    let detect = sorted_times(&play.detect_times);
    let total: Duration = work.iter().sum();
    let rule = sorted_times(&play.now.rule_times);
    writeln!(
        out,
        "\nthe pipeline thread's work a frame (detection, placing, tracking, moves, tags' health): median {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms — {:.1} frames/s on this machine; detection alone: median {:.1} ms, p99 {:.1} ms; placing, tracking, moves and tags' health alone: median {:.2} ms, p99 {:.2} ms",
        ms(percentile(&work, 0.5)),
        ms(percentile(&work, 0.95)),
        ms(percentile(&work, 0.99)),
        ms(percentile(&work, 1.0)),
        work.len() as f64 / total.as_secs_f64().max(1e-9),
        ms(percentile(&detect, 0.5)),
        ms(percentile(&detect, 0.99)),
        ms(percentile(&place, 0.5)),
        ms(percentile(&place, 0.99)),
    )?;
    writeln!(
        out,
        "live detector: {} full pass(es) of the whole frame at once, {} parts of full-resolution sweeps",
        play.full_passes, play.sweep_parts
    )?;
    writeln!(
        out,
        "rulings (on their own thread): ruled again {} times now, {} before; median {:.1} ms",
        play.now.rule_times.len(),
        play.before.rule_times.len(),
        ms(percentile(&rule, 0.5))
    )?;
    Ok(())
}
