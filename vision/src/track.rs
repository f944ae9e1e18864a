//! Following tags from frame to frame.
//!
//! Decisions:
//! - No lag on a deliberate move: a tag that moves further than the camera's noise (0.08" or
//!   2°) jumps to where it is seen; only small wobbles are averaged away. A player who pushes a
//!   unit 6" sees it arrive in the same frame.
//! - A covered tag is held at its last pose for a while, marked "not seen since …", so a hand
//!   over a unit does not make it vanish from the rulings; after the hold it is dropped.

use std::collections::HashMap;
use std::time::Duration;

use rules::Scene;
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use serde::Serialize;

use crate::locate::{LocatedTag, TagPose};

/// How the tracker smooths and holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrackerSettings {
    /// Moves shorter than this are treated as noise and averaged.
    pub still_distance: Inches,
    /// Turns smaller than this are treated as noise and averaged.
    pub still_turn: Degrees,
    /// Weight of a new sighting in the average of a still tag (0–1).
    pub smoothing: f64,
    /// How long a covered tag is held at its last pose.
    pub hold: Duration,
}

impl Default for TrackerSettings {
    fn default() -> TrackerSettings {
        TrackerSettings {
            still_distance: Inches(0.08),
            still_turn: Degrees(2.0),
            smoothing: 0.3,
            hold: Duration::from_secs(60),
        }
    }
}

/// Whether a tag is in view.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "seen")]
pub enum Sighting {
    /// Seen in this frame.
    Now,
    /// Not seen since this time (from the start of the source); held at its last pose.
    HeldSince {
        /// Time of the last sighting.
        last_seen: Duration,
    },
}

/// A tag as the tracker knows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrackedTag {
    /// Where it is (smoothed).
    pub tag: LocatedTag,
    /// In view or held.
    pub sighting: Sighting,
}

#[derive(Clone, Debug)]
struct Track {
    tag: LocatedTag,
    last_seen: Duration,
}

/// Tags followed across frames.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    settings: TrackerSettings,
    tracks: HashMap<u32, Track>,
}

impl Tracker {
    /// A tracker with these settings.
    pub fn new(settings: TrackerSettings) -> Tracker {
        Tracker {
            settings,
            tracks: HashMap::new(),
        }
    }

    /// Take one frame's tags, seen at `time`; returns every tag known, seen or held, by id.
    pub fn update(&mut self, time: Duration, tags: &[LocatedTag]) -> Vec<TrackedTag> {
        for seen in tags {
            let settings = self.settings;
            self.tracks
                .entry(seen.pose.id)
                .and_modify(|track| {
                    track.tag = LocatedTag {
                        pose: follow(&track.tag.pose, &seen.pose, &settings),
                        role: seen.role.clone(),
                    };
                    track.last_seen = time;
                })
                .or_insert_with(|| Track {
                    tag: seen.clone(),
                    last_seen: time,
                });
        }
        let hold = self.settings.hold;
        self.tracks
            .retain(|_, t| time.saturating_sub(t.last_seen) <= hold);
        let mut out: Vec<TrackedTag> = self
            .tracks
            .values()
            .map(|t| TrackedTag {
                tag: t.tag.clone(),
                sighting: if t.last_seen == time {
                    Sighting::Now
                } else {
                    Sighting::HeldSince {
                        last_seen: t.last_seen,
                    }
                },
            })
            .collect();
        out.sort_by_key(|t| t.tag.pose.id);
        out
    }

    /// Forget everything (a new calibration, a new game).
    pub fn clear(&mut self) {
        self.tracks.clear();
    }
}

/// The new pose of a tracked tag: the sighting itself after a real move, else a weighted
/// average that settles the camera's wobble.
fn follow(old: &TagPose, new: &TagPose, settings: &TrackerSettings) -> TagPose {
    let moved = (new.center - old.center).norm();
    let turned = turn_between(old.facing, new.facing);
    if moved > settings.still_distance.0 || turned.0.abs() > settings.still_turn.0 {
        return *new;
    }
    let w = settings.smoothing;
    TagPose {
        center: TablePoint::from(old.center.coords * (1.0 - w) + new.center.coords * w),
        facing: Degrees(old.facing.0 + turned.0 * w),
        ..*new
    }
}

/// The signed turn from `a` to `b`, in (−180°, 180°].
fn turn_between(a: Degrees, b: Degrees) -> Degrees {
    let d = (b.0 - a.0).rem_euclid(360.0);
    Degrees(if d > 180.0 { d - 360.0 } else { d })
}

/// How far a unit has moved since the turn began.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Movement {
    /// From where its leader stood at the start of the turn.
    pub straight: Inches,
    /// Along the way it went (wobbles under the noise threshold not counted).
    pub path: Inches,
    /// How much it turned.
    pub turned: Degrees,
}

/// Each unit's movement this turn, from the scenes the camera builds.
#[derive(Clone, Debug, Default)]
pub struct MoveLog {
    start: HashMap<String, (TablePoint, Degrees)>,
    last: HashMap<String, TablePoint>,
    path: HashMap<String, f64>,
    still: Inches,
}

impl MoveLog {
    /// A log that ignores leader wobbles shorter than `still`.
    pub fn new(still: Inches) -> MoveLog {
        MoveLog {
            still,
            ..MoveLog::default()
        }
    }

    /// A new turn starts: every unit's present position is its start.
    pub fn mark_turn(&mut self, scene: &Scene) {
        self.start = scene
            .units
            .iter()
            .map(|u| (u.id.clone(), (u.footprint.leader(), u.footprint.facing())))
            .collect();
        self.last = self
            .start
            .iter()
            .map(|(id, (p, _))| (id.clone(), *p))
            .collect();
        self.path.clear();
    }

    /// Take the scene of a new frame.
    pub fn observe(&mut self, scene: &Scene) {
        for unit in &scene.units {
            let leader = unit.footprint.leader();
            self.start
                .entry(unit.id.clone())
                .or_insert((leader, unit.footprint.facing()));
            let last = self.last.entry(unit.id.clone()).or_insert(leader);
            let step = (leader - *last).norm();
            if step > self.still.0 {
                *self.path.entry(unit.id.clone()).or_default() += step;
                *last = leader;
            }
        }
    }

    /// How far a unit has moved this turn, as of the last scene observed.
    pub fn movement(&self, scene: &Scene, unit: &str) -> Option<Movement> {
        let now = scene.unit(unit)?;
        let (start, facing) = self.start.get(unit)?;
        Some(Movement {
            straight: Inches((now.footprint.leader() - start).norm()),
            path: Inches(self.path.get(unit).copied().unwrap_or(0.0)),
            turned: Degrees(turn_between(*facing, now.footprint.facing()).0.abs()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locate::TagRole;
    use calibration::Pixels;

    fn tag(id: u32, x: f64, y: f64, facing: f64) -> LocatedTag {
        let pose = TagPose {
            id,
            center: TablePoint::new(x, y),
            facing: Degrees(facing),
            height: Inches(0.16),
            measured_size: Inches(1.0),
            pixels: Pixels(22.0),
        };
        LocatedTag {
            pose,
            role: TagRole::Unknown,
        }
    }

    fn at(seconds: f64) -> Duration {
        Duration::from_secs_f64(seconds)
    }

    #[test]
    fn a_deliberate_move_arrives_in_the_same_frame() {
        let mut tracker = Tracker::default();
        tracker.update(at(0.0), &[tag(1, 10.0, 10.0, 90.0)]);
        let out = tracker.update(at(0.1), &[tag(1, 16.0, 10.0, 90.0)]);
        assert_eq!(out[0].tag.pose.center, TablePoint::new(16.0, 10.0));
    }

    #[test]
    fn wobble_is_averaged_away() {
        let mut tracker = Tracker::default();
        let mut last = Vec::new();
        for i in 0..40 {
            let wobble = if i % 2 == 0 { 0.02 } else { -0.02 };
            last = tracker.update(
                at(f64::from(i) * 0.1),
                &[tag(1, 10.0 + wobble, 10.0, 90.0 + wobble * 10.0)],
            );
        }
        let pose = last[0].tag.pose;
        assert!((pose.center.x - 10.0).abs() < 0.012, "{}", pose.center);
        assert!((pose.facing.0 - 90.0).abs() < 0.12, "{:?}", pose.facing);
    }

    #[test]
    fn a_covered_tag_is_held_then_dropped() {
        let settings = TrackerSettings {
            hold: Duration::from_secs(10),
            ..TrackerSettings::default()
        };
        let mut tracker = Tracker::new(settings);
        tracker.update(
            at(0.0),
            &[tag(1, 10.0, 10.0, 90.0), tag(2, 20.0, 10.0, 90.0)],
        );
        let held = tracker.update(at(5.0), &[tag(2, 20.0, 10.0, 90.0)]);
        assert_eq!(held.len(), 2);
        assert_eq!(held[0].sighting, Sighting::HeldSince { last_seen: at(0.0) });
        assert_eq!(held[1].sighting, Sighting::Now);
        let dropped = tracker.update(at(10.5), &[tag(2, 20.0, 10.0, 90.0)]);
        assert_eq!(
            dropped.iter().map(|t| t.tag.pose.id).collect::<Vec<_>>(),
            [2]
        );
    }

    #[test]
    fn turns_wrap_round_north() {
        assert!((turn_between(Degrees(359.0), Degrees(1.0)).0 - 2.0).abs() < 1e-12);
        assert!((turn_between(Degrees(1.0), Degrees(359.0)).0 + 2.0).abs() < 1e-12);
    }
}
