//! Units' moves as events: where each unit lies for the rules, which units are on their way
//! (drawn travelling), and each move made, once, when the unit comes to rest.
//!
//! [`crate::track`] says of each tag whether it rests or travels. A unit rests when none of
//! its tags travels; its place for the rules is where its tags rested *together*, kept while
//! any of them is on its way. When it comes to rest somewhere new, that is one
//! [`MoveEvent`]: from, to, facings, the path, when it started and ended, whether it was
//! lifted, whether it went unseen.
//!
//! Decisions:
//! - A unit moves as a whole. A stand of it that is covered while the others come to rest
//!   somewhere new is not held where it was (it was surely moved with them): it is left
//!   unseen and filled in from the unit's formation ([`crate::partial`]) until it is seen.
//! - A unit put back where it lay (picked up to look under, a tray nudged and pushed back) made
//!   no move: no event, and its rulings never changed.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use calibration::TableCalibration;
use roster::Roster;
use rules::Scene;
use rules::geometry::{OrientedRect, TablePoint};
use rules::scene::{SceneError, TerrainDoc};
use rules::units::{Degrees, Inches};
use serde::Serialize;

use crate::locate::{Sighted, TagPose, scene_on_table};
use crate::track::{Replaced, Sighting, TrackedTag};

/// A unit further than this from where it lay, or turned further than [`MOVED_TURN`], has
/// moved: beyond a resting tag's noise, which its mean of many sightings makes small.
pub const MOVED_DISTANCE: Inches = Inches(0.1);
/// See [`MOVED_DISTANCE`].
pub const MOVED_TURN: Degrees = Degrees(1.5);

/// Where a unit stood (or a commander): its leader, the point its measurements start from, and
/// its facing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Placed {
    /// The leader (a commander's position).
    pub leader: TablePoint,
    /// Where it faces, degrees counter-clockwise from +x.
    pub facing: Degrees,
}

/// One move, made and finished.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveEvent {
    /// The unit's (or commander's) id.
    pub unit: String,
    /// Where it lay before.
    pub from: Placed,
    /// Where it lies now.
    pub to: Placed,
    /// How far its furthest-going stand went along the way it was seen to go; straight, when
    /// it went unseen.
    pub path: Inches,
    /// When it left (from the start of the source).
    pub started: Duration,
    /// When it came to rest.
    pub ended: Duration,
    /// Whether it was lifted off the table on the way (carried in a hand).
    pub lifted: bool,
    /// Whether it went unseen: it left under a hand and was found elsewhere.
    pub unseen: bool,
}

impl MoveEvent {
    /// How far its leader went, in a straight line.
    pub fn straight(&self) -> Inches {
        Inches((self.to.leader - self.from.leader).norm())
    }

    /// How far it turned.
    pub fn turned(&self) -> Degrees {
        Degrees(self.from.facing.turn_to(self.to.facing).0.abs())
    }
}

/// A unit on its way: where its stands are seen now.
#[derive(Clone, Debug, PartialEq)]
pub struct Travelling {
    /// The unit's (or commander's) id.
    pub unit: String,
    /// Each of its travelling stands' footprint where it was last seen.
    pub stands: Vec<OrientedRect>,
    /// Whether it is in a hand now: lifted or tilted off the table.
    pub in_hand: bool,
    /// How high it seems above its stand's height, the most of its stands.
    pub lifted_by: Inches,
    /// When it left its rest.
    pub since: Duration,
    /// Whether any of its travelling stands is seen now (else it was carried out of sight).
    pub seen: bool,
}

/// One frame of the table in motion.
#[derive(Clone, Debug)]
pub struct TableMotion {
    /// The table for the rules: every unit where it rests.
    pub scene: Scene,
    /// What the tags said of the roster beyond the scene.
    pub sighted: Sighted,
    /// Units on their way.
    pub travelling: Vec<Travelling>,
    /// Moves finished in this frame.
    pub moves: Vec<MoveEvent>,
    /// The table just before those moves, for checking them (`rules::movement`).
    pub before: Option<Arc<Scene>>,
}

/// A unit's rest: its tags' places, together.
#[derive(Clone, Debug, Default)]
struct UnitRest {
    tags: HashMap<u32, TagPose>,
    /// Its tags left out when the unit moved while they were covered, with the rest they
    /// still had: out of it until they rest somewhere else.
    stale: HashMap<u32, TagPose>,
}

/// Units followed across frames (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct MoveWatch {
    rests: HashMap<String, UnitRest>,
    scene: Option<Arc<Scene>>,
}

/// A unit or a commander, by its tags.
struct Member<'r> {
    id: &'r str,
    tags: Vec<u32>,
}

impl MoveWatch {
    /// A watch that has seen nothing yet.
    pub fn new() -> MoveWatch {
        MoveWatch::default()
    }

    /// Take one frame's tracked tags: the table for the rules, the units on their way and the
    /// moves finished now.
    pub fn update(
        &mut self,
        roster: &Roster,
        calibration: &TableCalibration,
        tracked: &[TrackedTag],
        terrain: Vec<TerrainDoc>,
        source: &str,
    ) -> Result<TableMotion, SceneError> {
        let by_id: HashMap<u32, &TrackedTag> = tracked.iter().map(|t| (t.id, t)).collect();
        let mut resting: Vec<TagPose> = Vec::new();
        let mut moved: Vec<(String, Journeys)> = Vec::new();
        let mut travelling = Vec::new();
        for member in members(roster) {
            let tags: Vec<&TrackedTag> = member
                .tags
                .iter()
                .filter_map(|id| by_id.get(id).copied())
                .collect();
            if let Some(on_way) = travelling_of(roster, &member, &tags) {
                travelling.push(on_way);
            }
            let rest = self.rests.entry(member.id.to_owned()).or_default();
            if let Some(journeys) = rest.update(&tags) {
                moved.push((member.id.to_owned(), journeys));
            }
            resting.extend(rest.tags.values().copied());
        }
        let (scene, sighted) =
            scene_on_table(roster, calibration, resting.iter(), terrain, source)?;
        let before = self.scene.clone();
        let moves = moved
            .into_iter()
            .filter_map(|(unit, journeys)| {
                let from = before.as_deref().and_then(|s| placed(s, &unit))?;
                let to = placed(&scene, &unit)?;
                let moved = (to.leader - from.leader).norm() > MOVED_DISTANCE.0
                    || from.facing.turn_to(to.facing).0.abs() > MOVED_TURN.0;
                moved.then(|| journeys.event(unit, from, to))
            })
            .collect();
        self.scene = Some(Arc::new(scene.clone()));
        Ok(TableMotion {
            scene,
            sighted,
            travelling,
            moves,
            before,
        })
    }

    /// Forget everything (a new game, a moved camera).
    pub fn clear(&mut self) {
        *self = MoveWatch::default();
    }

    /// The camera was measured afresh, or the ground under some stands learnt: the rests the
    /// tracker placed again (`replaced`) are taken as it now places them, with no move made.
    /// Only a rest this watch holds is replaced: a tag that came to a new rest the watch has
    /// not taken yet (it is not yet sure) still makes its move when it is.
    pub fn rebase(&mut self, replaced: &[Replaced]) {
        for rest in self.rests.values_mut() {
            for (id, pose) in rest.tags.iter_mut().chain(rest.stale.iter_mut()) {
                let Some(again) = replaced.iter().find(|r| r.id == *id) else {
                    continue;
                };
                if moved(&again.was, pose) {
                    tracing::debug!(tag = id, "a new rest not yet taken is kept as a move");
                } else {
                    *pose = again.now;
                }
            }
        }
    }
}

/// The roster's units and commanders, each with its tags.
fn members(roster: &Roster) -> impl Iterator<Item = Member<'_>> {
    let units = roster.units.iter().map(|u| Member {
        id: &u.id,
        tags: u.stands.iter().map(|s| s.tag).collect(),
    });
    let commanders = roster.commanders.iter().map(|c| Member {
        id: &c.id,
        tags: vec![c.tag],
    });
    units.chain(commanders)
}

/// Where a unit (or a commander) stands in a scene.
fn placed(scene: &Scene, id: &str) -> Option<Placed> {
    if let Some(unit) = scene.unit(id) {
        return Some(Placed {
            leader: unit.footprint.leader(),
            facing: unit.footprint.facing(),
        });
    }
    let commander = scene.commanders.iter().find(|c| c.id == id)?;
    Some(Placed {
        leader: commander.position,
        facing: Degrees(90.0),
    })
}

/// What the tags' journeys to a unit's new rest say of its move.
struct Journeys {
    path: Inches,
    started: Duration,
    ended: Duration,
    lifted: bool,
    unseen: bool,
}

impl Journeys {
    fn event(self, unit: String, from: Placed, to: Placed) -> MoveEvent {
        MoveEvent {
            unit,
            from,
            to,
            path: self.path,
            started: self.started,
            ended: self.ended,
            lifted: self.lifted,
            unseen: self.unseen,
        }
    }
}

impl UnitRest {
    /// Take the unit's tags of this frame; the journeys that brought it to a new rest, if it
    /// just came to rest somewhere new.
    fn update(&mut self, tags: &[&TrackedTag]) -> Option<Journeys> {
        if tags.iter().any(|t| t.unsettled()) {
            return None;
        }
        self.stale
            .retain(|id, was| tags.iter().any(|t| t.id == *id && t.resting == Some(*was)));
        // A tag first seen a moment ago rests on its first sightings: the unit keeps the
        // place it was first given until the tag has been still for the settle time, so
        // that its rulings change once as the table is first seen, not frame by frame.
        let candidate: HashMap<u32, (TagPose, bool)> = tags
            .iter()
            .filter(|t| !self.stale.contains_key(&t.id))
            .filter_map(|t| {
                let rest = match self.tags.get(&t.id) {
                    Some(was) if !t.sure => *was,
                    _ => t.resting?,
                };
                Some((t.id, (rest, t.sighting == Sighting::Now)))
            })
            .collect();
        let moved: Vec<u32> = candidate
            .iter()
            .filter(|(id, (pose, _))| self.tags.get(id).is_none_or(|was| moved(was, pose)))
            .map(|(id, _)| *id)
            .collect();
        let first = self.tags.is_empty();
        let went = !first && moved.iter().any(|id| self.tags.contains_key(id));
        // Its stands that stayed covered while the others moved are surely not where they
        // were: left to the formation until they rest somewhere.
        let (kept, stale): (HashMap<u32, (TagPose, bool)>, _) = candidate
            .into_iter()
            .partition(|(id, (_, seen_now))| !went || *seen_now || moved.contains(id));
        self.stale
            .extend(stale.into_iter().map(|(id, (pose, _))| (id, pose)));
        self.tags = kept.into_iter().map(|(id, (pose, _))| (id, pose)).collect();
        if !went {
            return None;
        }
        let journeys: Vec<_> = tags
            .iter()
            .filter(|t| moved.contains(&t.id))
            .filter_map(|t| t.arrived)
            .collect();
        Some(Journeys {
            path: journeys
                .iter()
                .map(|j| j.path)
                .fold(Inches::ZERO, Inches::max),
            started: journeys.iter().map(|j| j.since).min().unwrap_or_default(),
            ended: journeys.iter().map(|j| j.ended).max().unwrap_or_default(),
            lifted: journeys.iter().any(|j| j.lifted),
            unseen: !journeys.is_empty() && journeys.iter().all(|j| j.unseen),
        })
    }
}

/// Whether a tag's new rest is a move from its old one.
fn moved(was: &TagPose, now: &TagPose) -> bool {
    (now.center - was.center).norm() > MOVED_DISTANCE.0
        || was.facing.turn_to(now.facing).0.abs() > MOVED_TURN.0
}

/// A unit on its way, if any of its tags travels: each travelling stand where it is seen.
fn travelling_of(roster: &Roster, member: &Member, tags: &[&TrackedTag]) -> Option<Travelling> {
    let on_way: Vec<&TrackedTag> = tags
        .iter()
        .copied()
        .filter(|t| t.travel.is_some())
        .collect();
    if on_way.is_empty() {
        return None;
    }
    let stands = on_way
        .iter()
        .filter_map(|t| {
            let travel = t.travel?;
            Some(footprint(roster, member.id, t.id, &travel.now))
        })
        .collect();
    let travels: Vec<_> = on_way.iter().filter_map(|t| t.travel).collect();
    Some(Travelling {
        unit: member.id.to_owned(),
        stands,
        in_hand: travels.iter().any(|t| t.in_hand),
        lifted_by: travels
            .iter()
            .map(|t| t.lift.rise)
            .fold(Inches::ZERO, Inches::max),
        since: travels.iter().map(|t| t.since).min().unwrap_or_default(),
        seen: on_way.iter().any(|t| t.sighting == Sighting::Now),
    })
}

/// A stand's footprint from its tag's pose; a commander's base is a square round his tag.
fn footprint(roster: &Roster, member: &str, tag: u32, pose: &TagPose) -> OrientedRect {
    let stand = roster
        .units
        .iter()
        .filter(|u| u.id == member)
        .flat_map(|u| &u.stands)
        .find(|s| s.tag == tag);
    match stand {
        Some(stand) => {
            let (center, facing) = stand.pose_from_tag(pose.center, pose.facing);
            OrientedRect::from_center(center, facing, Inches(stand.width), Inches(stand.depth))
        }
        None => {
            let side = pose.measured_size * 1.5;
            OrientedRect::from_center(pose.center, pose.facing, side, side)
        }
    }
}
