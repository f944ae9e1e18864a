//! The ground under the stands, learnt in play: a stand resting well above the ground Vedette
//! knows under it (a hill the terrain file does not give, or gives too low) is said so at once,
//! and once it has rested so for [`LEARN_AFTER`], the ground there is learnt from it: the tag's
//! ray meets its true height where the stand truly is, the ground is that height less the
//! tag's own height there, and the stand is placed again on it without seeming to move.
//!
//! Decisions:
//! - Only a stand at rest for [`LEARN_AFTER`] teaches the ground: a hand holds a stand still
//!   for a second or two, not ten, and a hill learnt from a hand would misplace every stand
//!   put there later.
//! - What is learnt is the height under that stand (see [`rules::ground::LearntRise`]), never
//!   a whole hill's outline: between the stands that rested on it the hill is not measured.

use std::collections::HashMap;
use std::time::Duration;

use calibration::{TableCalibration, TagSighting};
use roster::Roster;
use rules::ground::{Ground, LearntRise};
use rules::units::Inches;
use vision::bearing::{Lift, SEEMS_RAISED};
use vision::{FrameTags, Replaced, TagPose, TrackedTag, Tracker};

/// How long a stand rests raised before the ground under it is learnt from it.
pub const LEARN_AFTER: Duration = Duration::from_secs(10);

/// A stand resting above the ground under it.
struct Raised {
    /// Its tag.
    id: u32,
    /// Where it is placed now.
    placed: TagPose,
    /// How far above that it seems to be.
    above: Inches,
}

/// What one frame's look at the ground says.
#[derive(Default)]
pub struct GroundWord {
    /// What the player should know: stands raised where no ground is known, ground learnt.
    pub notes: Vec<String>,
    /// The rests of the stands on ground learnt now: placed again, not moved.
    pub replaced: Vec<Replaced>,
}

/// The ground under the stands as known: the hills the terrain gives and what was learnt in
/// play, and the stands resting raised, since when.
pub struct GroundLearning {
    ground: Ground,
    raised_since: HashMap<u32, Duration>,
}

impl GroundLearning {
    /// Starting from the ground the terrain gives.
    pub fn new(ground: Ground) -> GroundLearning {
        GroundLearning {
            ground,
            raised_since: HashMap::new(),
        }
    }

    /// The ground as known now.
    pub fn ground(&self) -> &Ground {
        &self.ground
    }

    /// Look at this frame's stands at rest: learn the ground under those raised for
    /// [`LEARN_AFTER`] (placing them again on it), and say what is learnt or still unexplained.
    pub fn look(
        &mut self,
        now: Duration,
        roster: &Roster,
        calibration: &TableCalibration,
        (tags, sightings): (&FrameTags, &[TagSighting]),
        tracked: &mut [TrackedTag],
        tracker: &mut Tracker,
    ) -> GroundWord {
        let raised = raised_stands(tags, tracked);
        self.raised_since
            .retain(|id, _| raised.iter().any(|r| r.id == *id));
        let mut word = GroundWord::default();
        if raised.is_empty() {
            return word;
        }
        let mounts = roster.mounts();
        for stand in raised {
            let Some(owner) = mounts.get(&stand.id).map(|m| m.owner) else {
                continue;
            };
            let since = *self.raised_since.entry(stand.id).or_insert(now);
            let sighting = sightings.iter().find(|s| s.id == stand.id);
            let learnt = (now.saturating_sub(since) >= LEARN_AFTER)
                .then(|| sighting.and_then(|s| learn(&stand, s, calibration, &mut self.ground)))
                .flatten();
            let name = roster.named(owner);
            match learnt {
                Some(rise) => {
                    let height = stand.placed.height + stand.above;
                    let again = tracker.regrounded(stand.id, height, calibration);
                    if let Some(tag) = tracked.iter_mut().find(|t| t.id == stand.id) {
                        tag.resting = again.map(|r| r.now).or(tag.resting);
                    }
                    word.replaced.extend(again);
                    self.raised_since.remove(&stand.id);
                    tracing::info!(tag = rise.tag, height = rise.height.0, "ground learnt");
                    word.notes.push(format!(
                        "learnt the ground {:.1}\" high at ({:.1}, {:.1}) from {name} (tag {}), which rested there: it is placed on it; give the hill in the terrain file to have it from the start",
                        rise.height.0, rise.at.x, rise.at.y, rise.tag
                    ));
                }
                None => word.notes.push(format!(
                    "{name} (tag {}) seems {:.1}\" above the ground Vedette knows at ({:.1}, {:.1}): on a hill it does not know? give the hill its rise in the terrain file, or leave the stand {}s and Vedette learns it",
                    stand.id,
                    stand.above.0,
                    stand.placed.center.x,
                    stand.placed.center.y,
                    LEARN_AFTER.as_secs()
                )),
            }
        }
        word
    }
}

/// The stands lying well above where the ground under them puts them: raised at rest (their
/// rest's height, or how they looked while at it) beyond doubt (see [`Lift::seems_raised`]).
fn raised_stands(tags: &FrameTags, tracked: &[TrackedTag]) -> Vec<Raised> {
    tracked
        .iter()
        .filter_map(|tag| {
            let rest = tag.resting?;
            let placed = tags.tags.iter().find(|t| t.pose.id == tag.id)?.pose;
            let by_rest = rest.height - placed.height;
            let by_look = tag
                .looked
                .filter(Lift::seems_raised)
                .map_or(Inches::ZERO, |l| l.rise);
            let above = by_rest.max(by_look);
            (above > SEEMS_RAISED).then_some(Raised {
                id: tag.id,
                placed,
                above,
            })
        })
        .collect()
}

/// The ground under a raised stand: where its tag's ray meets the tag's true height, that
/// height less the tag's own height above its ground.
fn learn(
    stand: &Raised,
    sighting: &TagSighting,
    calibration: &TableCalibration,
    ground: &mut Ground,
) -> Option<LearntRise> {
    let own_height = stand.placed.height - ground.height_at(&stand.placed.center);
    let truly = stand.placed.height + stand.above;
    let at = calibration.camera.unproject_at(&sighting.center(), truly)?;
    let rise = LearntRise {
        at,
        height: truly - own_height,
        tag: stand.id,
    };
    ground.learn(rise);
    Some(rise)
}
