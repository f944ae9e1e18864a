//! A short evening rendered pixel by pixel and played through the live detector and the
//! tracker: two players carry stands through the air, slide a tray and move units under their
//! hands, through a webcam's MJPEG (quality 55–75), motion blur, exposure swings and a lamp's
//! glare. The tracker must report each move once, where the unit was put, and keep every unit
//! lying still where it lies.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use calibration::{ImageSize, PixelPoint, Settings, TableCalibration, calibrate};
use rules::units::{Degrees, Inches};
use vision::synthetic::{Evening, EveningSettings, LensClass, Renderer, framing_camera_for};
use vision::{
    LiveDetector, LiveSettings, MoveEvent, MoveWatch, Tracker, TrackerSettings, locate_tags,
    observations,
};

const SIZE: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};
/// A unit untouched this long lies still: the settle time and a few frames.
const STILL_AFTER: Duration = Duration::from_millis(500);

/// What the evening's frames made of the table.
#[derive(Default)]
struct Played {
    /// Each move reported, with the time of the frame that reported it.
    moves: Vec<(Duration, MoveEvent)>,
    /// The distance between where a unit lying still was ruled and where it lies, every frame,
    /// with how long it had been untouched.
    still_errors: Vec<(f64, String, Duration)>,
    /// Tags of units lying still, 14 px and more, whole in view: seen, and all.
    found: usize,
    expected: usize,
    /// Tags found that are not on the table, or far from where they are.
    false_tags: Vec<(Duration, u32)>,
}

fn play(evening: &Evening) -> Played {
    let camera = framing_camera_for(
        evening.settings().table,
        LensClass::Ordinary.sample(SIZE, 1),
        Degrees(40.0),
    );
    let roster = evening.roster();
    let stand_tags = roster.stand_tags();
    let tag_units: HashMap<u32, &str> = evening.tags().collect();
    let mut detector = LiveDetector::new(LiveSettings::default()).expect("a detector");
    let mut tracker = Tracker::new(TrackerSettings::default());
    let mut watch = MoveWatch::new();
    let mut renderer = Renderer::new();
    let mut calibration: Option<TableCalibration> = None;
    let mut played = Played::default();
    for frame in 0..evening.frames() {
        let time = evening.time_of(frame);
        let world = evening.table_at(frame);
        let image = renderer
            .render(&world, &camera, &evening.effects_at(frame))
            .expect("renders");
        let sightings = detector.detect(&image).expect("detects").sightings();
        let calibration = calibration.get_or_insert_with(|| {
            let settings = Settings {
                intrinsics: Some(camera.intrinsics),
                ..Settings::default()
            };
            calibrate(evening.anchors(), &sightings, SIZE, &settings).expect("calibrates")
        });
        let located = locate_tags(calibration, Some(roster), &sightings, Inches(0.16));
        let observed = observations(&located, &sightings, &stand_tags);
        let tracked = tracker.update(time, calibration, &observed);
        let motion = watch
            .update(roster, calibration, &tracked, Vec::new(), "evening")
            .expect("a scene");
        played
            .moves
            .extend(motion.moves.into_iter().map(|m| (time, m)));

        let truth = evening.truth_at(frame);
        let still: HashSet<&str> = truth
            .units
            .iter()
            .filter(|u| u.lying && u.untouched_for.is_some_and(|t| t >= STILL_AFTER))
            .map(|u| u.unit.as_str())
            .collect();
        for unit in truth
            .units
            .iter()
            .filter(|u| still.contains(u.unit.as_str()))
        {
            let ruled = motion.scene.unit(&unit.unit).expect("every unit is ruled");
            let error = ruled
                .footprint
                .stands()
                .iter()
                .zip(&unit.stands)
                .map(|(a, b)| (a.center() - b.center()).norm())
                .fold(0.0, f64::max);
            let untouched = unit.untouched_for.unwrap_or_default();
            played
                .still_errors
                .push((error, unit.unit.clone(), untouched));
        }
        let everywhere: HashMap<u32, [PixelPoint; 4]> = world
            .tags_on_blocks()
            .filter_map(|(block, tag)| Some((tag.id, block.tag_as_seen(tag, &camera)?.corners)))
            .collect();
        let near = |a: &[PixelPoint; 4], b: &[PixelPoint; 4]| {
            a.iter().zip(b).map(|(p, q)| p.distance(q).0).sum::<f64>() / 4.0 <= 3.0
        };
        for (id, corners) in world.tags_in_view(&camera) {
            let still_unit = tag_units.get(&id).is_some_and(|u| still.contains(u));
            if still_unit && vision::live::roi::side(&corners).0 >= 14.0 {
                played.expected += 1;
                played.found += usize::from(
                    sightings
                        .iter()
                        .any(|s| s.id == id && near(&s.corners, &corners)),
                );
            }
        }
        for s in &sightings {
            if everywhere.get(&s.id).is_none_or(|c| !near(&s.corners, c)) {
                played.false_tags.push((time, s.id));
            }
        }
    }
    played
}

#[test]
fn a_rendered_evening_reports_each_move_once_where_the_unit_was_put() {
    // Seed 19: a stand carried, a tray slid, two units moved under a hand, another carried.
    let evening = Evening::new(EveningSettings {
        units: 8,
        seconds: 11.0,
        players: 2,
        faded_tags: 0,
        seed: 19,
        ..EveningSettings::default()
    });
    let made = evening.moves();
    assert!(made.iter().any(|m| m.lifted) && made.iter().any(|m| m.hidden));
    assert!(made.iter().any(|m| !m.lifted && !m.hidden), "a slide");
    let played = play(&evening);

    // Each move made is reported once, once the unit is put down and within a second of the
    // hand leaving it, where it was put.
    let mut unmatched: Vec<&(Duration, MoveEvent)> = played.moves.iter().collect();
    for truth in made {
        let at = unmatched.iter().position(|(when, event)| {
            event.unit == truth.unit
                && (event.to.leader - truth.to.leader()).norm() < 0.05
                && *when >= truth.put_down
                && *when <= truth.released + Duration::from_secs(1)
        });
        let Some(at) = at else {
            panic!(
                "{} moved to {:?} ({:?}–{:?}) not reported: {:?}\nmade: {made:?}",
                truth.unit,
                truth.to.leader(),
                truth.touched,
                truth.released,
                played.moves
            );
        };
        let (_, event) = unmatched.remove(at);
        // Carried with fingers over its tag, a stand is not seen in the air: it was moved
        // unseen. A stand slid along the cloth is never said to have been lifted.
        assert!(truth.lifted || !event.lifted, "{event:?}");
        let moved = (truth.to.leader() - truth.from.leader()).norm();
        assert!(event.path.0 >= moved * 0.9, "{event:?} moved {moved:.2}\"");
    }
    assert!(unmatched.is_empty(), "moves never made: {unmatched:?}");

    // Units lying still are ruled where they lie, whatever the hands do round them; a unit
    // moved under a hand, once its tag is found again and has settled.
    let mut errors: Vec<f64> = played.still_errors.iter().map(|e| e.0).collect();
    errors.sort_by(f64::total_cmp);
    let p99 = errors[errors.len() * 99 / 100];
    let worst = played
        .still_errors
        .iter()
        .filter(|(_, _, untouched)| *untouched >= Duration::from_millis(1500))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .expect("units lying still");
    assert!(p99 <= 0.05, "p99 {p99:.3}\"");
    assert!(worst.0 <= 0.1, "worst {worst:?}");

    // Through MJPEG, blur and exposure swings the still tags are found, and nothing else is.
    let recall = played.found as f64 / played.expected as f64;
    assert!(
        recall >= 0.99,
        "{} of {} tags lying still found",
        played.found,
        played.expected
    );
    assert!(played.false_tags.is_empty(), "{:?}", played.false_tags);
}

#[test]
fn an_evening_over_several_cameras_carries_units_across_their_seams() {
    // The long table of `vedette bench cameras`: some moves cross from one camera's share into
    // the next (a stand carried or slid over the seam), every one ending on the table.
    let table = calibration::TableSize {
        width: 144.0,
        depth: 72.0,
    };
    let evening = Evening::new(EveningSettings {
        table,
        units: 68,
        seconds: 20.0,
        cameras: 3,
        ..EveningSettings::default()
    });
    let seams = evening.seams();
    assert_eq!(seams, vec![48.0, 96.0]);
    let crossing = |from: f64, to: f64| seams.iter().any(|&s| (from - s) * (to - s) < 0.0);
    let moves = evening.moves();
    let across = moves
        .iter()
        .filter(|m| crossing(m.from.center.x, m.to.center.x))
        .count();
    eprintln!("{across} of {} moves cross a seam", moves.len());
    assert!(
        across >= 3,
        "{across} of {} moves cross a seam",
        moves.len()
    );
    for m in moves {
        let c = m.to.center;
        assert!(c.x > 0.0 && c.y > 0.0 && c.x < table.width && c.y < table.depth);
    }
}
