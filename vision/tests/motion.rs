//! Moves seen as moves, on exact sightings of a scripted table: a stand carried through the
//! air, a tray slid along the cloth, a unit moved under a hand, a glitch of one frame and a
//! stand left lying on something raised. What the rules see is where each unit *lies*.

use std::path::Path;
use std::time::Duration;

use calibration::{
    AnchorLayout, Camera, ImageSize, Settings, TableSize, TagPlacement, TagSighting, calibrate,
};
use roster::Roster;
use rules::Scene;
use rules::geometry::{OrientedRect, TablePoint};
use rules::units::{Degrees, Inches};
use vision::synthetic::{Block, BlockMotion, HandHold, PrintedTag, Rgb, framing_camera};
use vision::{
    MoveEvent, MoveWatch, TableMotion, Tracker, TrackerSettings, locate_tags, observations,
};

const SIZE: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};
const FPS: f64 = 30.0;
const HEIGHT: Inches = Inches(0.16);

const ROSTER: &str = r#"
ruleset = "black-powder"

[tags]
size = 1.0
height = 0.16

[[units]]
id = "line"
name = "The Line"
side = "red"
kind = "infantry"
formation = "line"

[[units.stands]]
tag = 10
width = 2.0
depth = 1.5

[[units.stands]]
tag = 11
width = 2.0
depth = 1.5

[[units]]
id = "guns"
name = "The Guns"
side = "blue"
kind = "artillery"
formation = "deployed"

[[units.stands]]
tag = 12
width = 1.5
depth = 1.5
"#;

/// A tag on the table: where it lies, and how a hand holds its stand, if one does.
#[derive(Clone, Copy)]
struct Tag {
    id: u32,
    at: TablePoint,
    facing: f64,
    held: Option<HandHold>,
}

fn lying(id: u32, x: f64, y: f64, facing: f64) -> Tag {
    Tag {
        id,
        at: TablePoint::new(x, y),
        facing,
        held: None,
    }
}

/// The line's two stands abreast, its centre at `(x, y)`, facing up the table.
fn line_at(x: f64, y: f64) -> [Tag; 2] {
    [lying(10, x - 1.0, y, 90.0), lying(11, x + 1.0, y, 90.0)]
}

struct Table {
    camera: Camera,
    calibration: calibration::TableCalibration,
    roster: Roster,
    tracker: Tracker,
    watch: MoveWatch,
    frame: u64,
    /// Frames a second the pipeline sees.
    fps: f64,
    /// The tracker's tags after the last frame.
    tracked: Vec<vision::TrackedTag>,
}

impl Table {
    fn new() -> Table {
        let size = TableSize {
            width: 72.0,
            depth: 48.0,
        };
        let camera = framing_camera(size, SIZE, Degrees(40.0), Degrees(70.0));
        let anchors = AnchorLayout::corners(size, Inches(2.0), Inches(1.5));
        let seen: Vec<TagSighting> = anchors
            .anchors
            .iter()
            .filter_map(|a| {
                PrintedTag {
                    id: a.id,
                    placement: a.placement(),
                }
                .as_seen(&camera)
            })
            .collect();
        let settings = Settings {
            intrinsics: Some(camera.intrinsics),
            ..Settings::default()
        };
        let calibration = calibrate(&anchors, &seen, SIZE, &settings).expect("calibrates");
        Table {
            camera,
            calibration,
            roster: Roster::parse(ROSTER, Path::new("motion.toml")).expect("roster"),
            tracker: Tracker::new(TrackerSettings::default()),
            watch: MoveWatch::new(),
            frame: 0,
            fps: FPS,
            tracked: Vec::new(),
        }
    }

    fn time(&self) -> Duration {
        Duration::from_secs_f64(self.frame as f64 / self.fps)
    }

    /// One frame with these tags in view.
    fn show(&mut self, tags: &[Tag]) -> TableMotion {
        let sightings: Vec<TagSighting> = tags.iter().filter_map(|t| self.seen(t)).collect();
        let located = locate_tags(&self.calibration, Some(&self.roster), &sightings, HEIGHT);
        let observed = observations(&located, &sightings, &self.roster.stand_tags());
        let time = self.time();
        self.tracked = self.tracker.update(time, &self.calibration, &observed);
        self.frame += 1;
        self.watch
            .update(
                &self.roster,
                &self.calibration,
                &self.tracked,
                Vec::new(),
                "test",
            )
            .expect("a scene")
    }

    /// The camera measured afresh (here through the same calibration: what matters is the
    /// rests placed again) between two frames, as the app does when its lens is learnt better.
    fn recalibrate(&mut self) {
        let replaced = self.tracker.recalibrated(&self.calibration);
        self.watch.rebase(&replaced);
    }

    /// Frames with the same tags, and every move they finish.
    fn hold(&mut self, frames: u64, tags: &[Tag]) -> Vec<MoveEvent> {
        (0..frames).flat_map(|_| self.show(tags).moves).collect()
    }

    fn seen(&self, tag: &Tag) -> Option<TagSighting> {
        let placement = TagPlacement {
            center: tag.at,
            facing: Degrees(tag.facing),
            size: Inches(1.0),
            height: HEIGHT,
        };
        let printed = PrintedTag {
            id: tag.id,
            placement,
        };
        let block = Block {
            footprint: OrientedRect::from_center(
                tag.at,
                Degrees(tag.facing),
                Inches(2.0),
                Inches(1.5),
            ),
            height: HEIGHT,
            colour: Rgb(168, 42, 38),
            tags: vec![printed],
            figures: true,
            motion: tag.held.map(|h| BlockMotion::still(h.pose(tag.at))),
        };
        block.tag_as_seen(&printed, &self.camera)
    }
}

fn leader(scene: &Scene, unit: &str) -> TablePoint {
    scene.unit(unit).expect("on the table").footprint.leader()
}

fn near(a: TablePoint, b: TablePoint, within: f64) -> bool {
    (a - b).norm() <= within
}

/// The guns carried from (30, 20) to (40, 26) through the air over a second, raised 2" and
/// tilted 15°, turned 10° on the way.
fn carried(k: u64, frames: u64) -> Tag {
    let s = k as f64 / frames as f64;
    let ramp = (s * 6.0).min(1.0).min((1.0 - s) * 6.0);
    let from = TablePoint::new(30.0, 20.0);
    let to = TablePoint::new(40.0, 26.0);
    let at = from + (to - from) * s;
    Tag {
        held: Some(HandHold {
            to: at,
            turn: Degrees(10.0 * s),
            rise: Inches(2.0 * ramp),
            tilt: Degrees(15.0 * ramp),
            toward: Degrees(200.0),
        }),
        ..lying(12, 30.0, 20.0, 90.0)
    }
}

#[test]
fn a_carried_stand_keeps_its_place_in_the_air_and_arrives_as_one_move() {
    let mut table = Table::new();
    let line = line_at(20.0, 10.0);
    let start = table.show(&[line[0], line[1], lying(12, 30.0, 20.0, 90.0)]);
    let guns_at = leader(&start.scene, "guns");
    assert!(
        table
            .hold(10, &[line[0], line[1], lying(12, 30.0, 20.0, 90.0)])
            .is_empty()
    );
    let mut in_hand = 0;
    for k in 0..30 {
        let motion = table.show(&[line[0], line[1], carried(k, 30)]);
        assert!(motion.moves.is_empty(), "frame {k}: {:?}", motion.moves);
        assert!(
            near(leader(&motion.scene, "guns"), guns_at, 1e-6),
            "frame {k}: the guns are ruled at {:?} while in the air",
            leader(&motion.scene, "guns")
        );
        if let Some(on_way) = motion.travelling.iter().find(|t| t.unit == "guns") {
            in_hand += usize::from(on_way.in_hand);
        }
    }
    assert!(in_hand >= 15, "in a hand for {in_hand} of 30 frames");
    let put_down = lying(12, 40.0, 26.0, 100.0);
    let moves = table.hold(30, &[line[0], line[1], put_down]);
    let [event] = moves.as_slice() else {
        panic!("one move, not {moves:?}");
    };
    assert_eq!(event.unit, "guns");
    assert!(event.lifted, "{event:?}");
    assert!(!event.unseen, "{event:?}");
    // Its leader, the middle of its front edge, half its depth ahead of its centre.
    let ahead = rules::geometry::heading(Degrees(100.0)) * 0.75;
    assert!(
        near(event.to.leader, TablePoint::new(40.0, 26.0) + ahead, 0.02),
        "{event:?}"
    );
    assert!((event.turned().0 - 10.0).abs() < 0.3, "{event:?}");
    let straight = (TablePoint::new(40.0, 26.0) - TablePoint::new(30.0, 20.0)).norm();
    assert!(
        event.path.0 >= straight - 0.1 && event.path.0 < straight * 1.3,
        "{event:?}"
    );
    let since_down = event.ended.as_secs_f64() - 41.0 / FPS;
    assert!(
        (0.3..=0.6).contains(&since_down),
        "came to rest {since_down:.2} s after it was put down"
    );
    let last = table.show(&[line[0], line[1], put_down]);
    assert!(last.travelling.is_empty());
    assert!(near(
        last.scene
            .unit("guns")
            .expect("guns")
            .footprint
            .frame()
            .center(),
        TablePoint::new(40.0, 26.0),
        0.01
    ));
}

#[test]
fn a_slid_tray_is_ruled_where_it_lay_until_it_stops() {
    let mut table = Table::new();
    let guns = lying(12, 50.0, 30.0, 270.0);
    let start = table.show(&[line_at(20.0, 10.0)[0], line_at(20.0, 10.0)[1], guns]);
    let was = leader(&start.scene, "line");
    table.hold(10, &[line_at(20.0, 10.0)[0], line_at(20.0, 10.0)[1], guns]);
    // 6" up the table at 3" a second.
    for k in 1..=60 {
        let y = 10.0 + 6.0 * f64::from(k) / 60.0;
        let [a, b] = line_at(20.0, y);
        let motion = table.show(&[a, b, guns]);
        assert!(motion.moves.is_empty());
        assert!(near(leader(&motion.scene, "line"), was, 1e-6), "frame {k}");
        assert!(
            motion.travelling.iter().all(|t| !t.in_hand),
            "a slid tray is not in a hand"
        );
    }
    let [a, b] = line_at(20.0, 16.0);
    let moves = table.hold(20, &[a, b, guns]);
    let [event] = moves.as_slice() else {
        panic!("one move, not {moves:?}");
    };
    assert_eq!(event.unit, "line");
    assert!(!event.lifted && !event.unseen, "{event:?}");
    assert!((event.straight().0 - 6.0).abs() < 0.01, "{event:?}");
    assert!((event.path.0 - 6.0).abs() < 0.2, "{event:?}");
}

/// The lens is learnt better every few seconds early in a game: a calibration that comes as
/// a slid tray settles at its new place, in any frame of its settling, neither loses the move
/// nor moves anything else.
#[test]
fn a_move_settling_when_the_camera_is_measured_afresh_is_still_one_move() {
    let guns = lying(12, 50.0, 30.0, 270.0);
    let settling = (TrackerSettings::default().settle_time.as_secs_f64() * FPS) as u64 + 4;
    for measured_at in 0..settling {
        let mut table = Table::new();
        let [a, b] = line_at(20.0, 10.0);
        table.hold(10, &[a, b, guns]);
        for k in 1..=30 {
            let [a, b] = line_at(20.0, 10.0 + 3.0 * f64::from(k) / 30.0);
            table.show(&[a, b, guns]);
        }
        let [a, b] = line_at(20.0, 13.0);
        let mut moves = table.hold(measured_at, &[a, b, guns]);
        table.recalibrate();
        moves.extend(table.hold(settling + 10, &[a, b, guns]));
        let [event] = moves.as_slice() else {
            panic!("measured afresh {measured_at} frames after it stopped: {moves:?}");
        };
        assert_eq!(event.unit, "line");
        assert!((event.straight().0 - 3.0).abs() < 0.01, "{event:?}");
    }
}

/// A unit of two stands slid one after the other: the camera measured afresh while the first
/// lies at its new place and the second is still on its way leaves the unit where it lay until
/// both have come to rest, and the move goes from where it lay.
#[test]
fn a_unit_half_moved_when_the_camera_is_measured_afresh_moves_from_where_it_lay() {
    let mut table = Table::new();
    let guns = lying(12, 50.0, 30.0, 270.0);
    let [a, b] = line_at(20.0, 10.0);
    table.hold(10, &[a, b, guns]);
    let was = table.show(&[a, b, guns]);
    let from = leader(&was.scene, "line");
    let [a_there, _] = line_at(20.0, 13.0);
    // The left stand slid 3" in a third of a second and left there; the right one slower.
    let mut moves = Vec::new();
    for k in 1..=45 {
        let share = |frames: f64| (f64::from(k) / frames).min(1.0);
        let [a_now, _] = line_at(20.0, 10.0 + 3.0 * share(10.0));
        let [_, b_now] = line_at(20.0, 10.0 + 3.0 * share(45.0));
        if k == 30 {
            table.recalibrate();
        }
        moves.extend(table.show(&[a_now, b_now, guns]).moves);
    }
    let [_, b_there] = line_at(20.0, 13.0);
    moves.extend(table.hold(30, &[a_there, b_there, guns]));
    let [event] = moves.as_slice() else {
        panic!("one move, not {moves:?}");
    };
    assert!(
        near(event.from.leader, from, 0.01),
        "{event:?} from {from:?}"
    );
    assert!((event.straight().0 - 3.0).abs() < 0.01, "{event:?}");
}

/// A slow machine (a big camera, a debug build) sees a few frames a second: the tray slid 6"
/// in two seconds is still one move, made when it stops.
#[test]
fn a_slid_tray_seen_three_times_a_second_is_one_move() {
    let mut table = Table::new();
    table.fps = 3.0;
    let guns = lying(12, 50.0, 30.0, 270.0);
    let [a, b] = line_at(20.0, 10.0);
    table.hold(3, &[a, b, guns]);
    for k in 1..=6 {
        let [a, b] = line_at(20.0, 10.0 + f64::from(k));
        assert!(table.show(&[a, b, guns]).moves.is_empty(), "frame {k}");
    }
    let [a, b] = line_at(20.0, 16.0);
    let moves = table.hold(6, &[a, b, guns]);
    let [event] = moves.as_slice() else {
        panic!("one move, not {moves:?}");
    };
    assert_eq!(event.unit, "line");
    assert!((event.straight().0 - 6.0).abs() < 0.01, "{event:?}");
}

#[test]
fn a_unit_moved_under_a_hand_is_reported_moved_and_its_neighbour_does_not_jump() {
    let mut table = Table::new();
    let guns = lying(12, 24.0, 12.0, 90.0);
    let [a, b] = line_at(20.0, 10.0);
    let start = table.show(&[a, b, guns]);
    let guns_at = leader(&start.scene, "guns");
    table.hold(10, &[a, b, guns]);
    // A hand over both for two seconds: nothing seen but the table; the line is moved 3"
    // under it, the guns are not.
    for _ in 0..60 {
        let motion = table.show(&[]);
        assert!(motion.moves.is_empty());
        assert!(near(leader(&motion.scene, "guns"), guns_at, 1e-6));
        assert!(motion.scene.unit("line").is_some(), "held where it was");
    }
    let [a, b] = line_at(20.0, 13.0);
    let moves = table.hold(20, &[a, b, guns]);
    let [event] = moves.as_slice() else {
        panic!("one move, not {moves:?}");
    };
    assert_eq!(event.unit, "line");
    assert!(event.unseen, "{event:?}");
    assert!((event.path.0 - 3.0).abs() < 0.01, "{event:?}");
    let last = table.show(&[a, b, guns]);
    assert!(
        near(leader(&last.scene, "guns"), guns_at, 0.005),
        "the guns stayed"
    );
}

#[test]
fn a_glitch_of_one_frame_moves_nothing() {
    let mut table = Table::new();
    let [a, b] = line_at(20.0, 10.0);
    let guns = lying(12, 40.0, 20.0, 90.0);
    let start = table.show(&[a, b, guns]);
    table.hold(10, &[a, b, guns]);
    let glitch = Tag {
        at: TablePoint::new(40.3, 20.1),
        ..guns
    };
    let mut moves = table.hold(1, &[a, b, glitch]);
    for _ in 0..20 {
        let motion = table.show(&[a, b, guns]);
        assert!(motion.travelling.is_empty());
        moves.extend(motion.moves);
    }
    assert!(moves.is_empty(), "{moves:?}");
    let end = table.show(&[a, b, guns]);
    assert!(near(
        leader(&end.scene, "guns"),
        leader(&start.scene, "guns"),
        0.005
    ));
}

#[test]
fn a_stand_held_still_in_the_air_is_not_ruled_there_until_it_plainly_lies_on_something() {
    let mut table = Table::new();
    let [a, b] = line_at(20.0, 10.0);
    let start = table.show(&[a, b, lying(12, 40.0, 20.0, 90.0)]);
    let guns_at = leader(&start.scene, "guns");
    // Lifted 2.5" and put on a hill 4" away (or held there, perfectly still). Held lower,
    // a small tag is within what its own corners make of a flat one (see
    // `vision::bearing`): held perfectly still that low, it would be taken to lie there.
    let raised = Tag {
        held: Some(HandHold {
            rise: Inches(2.5),
            ..HandHold::on_cloth(TablePoint::new(44.0, 20.0), Degrees(0.0))
        }),
        ..lying(12, 40.0, 20.0, 90.0)
    };
    let settle = TrackerSettings::default().raised_settle;
    let frames = (settle.as_secs_f64() * FPS) as u64;
    for k in 0..frames - 3 {
        let motion = table.show(&[a, b, raised]);
        assert!(motion.moves.is_empty(), "frame {k}");
        assert!(
            near(leader(&motion.scene, "guns"), guns_at, 1e-6),
            "frame {k}"
        );
    }
    let moves = table.hold(10, &[a, b, raised]);
    let [event] = moves.as_slice() else {
        panic!("one move, not {moves:?}");
    };
    // Placed at the height its size says, not on the cloth 2" further from the camera.
    assert!((event.straight().0 - 4.0).abs() < 0.15, "{event:?}");
}

/// A stand resting 2" up on a hill the ground does not know keeps looking 2" up: what a flat
/// tag looks like is never learnt from it (it was, as from any tag at rest, and in three
/// seconds it looked 1" up; its ground was then learnt half as high as it is).
#[test]
fn a_stand_resting_raised_keeps_looking_raised() {
    let mut table = Table::new();
    let [a, b] = line_at(20.0, 10.0);
    let raised = Tag {
        held: Some(HandHold {
            rise: Inches(2.0),
            ..HandHold::on_cloth(TablePoint::new(40.0, 20.0), Degrees(0.0))
        }),
        ..lying(12, 40.0, 20.0, 90.0)
    };
    for second in 1..=3 {
        table.hold(30, &[a, b, raised]);
        let looked = table
            .tracked
            .iter()
            .find(|t| t.id == 12)
            .and_then(|t| t.looked)
            .expect("the raised stand rests, with a look");
        assert!(
            (looked.rise.0 - 2.0).abs() < 0.35,
            "after {second} s it looks {:.2}\" up",
            looked.rise.0
        );
    }
}
