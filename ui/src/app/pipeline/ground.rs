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
//! - How high a stand at rest stands is gauged from its whole pattern fitted to its pixels
//!   ([`vision::rise`]), once a rest: the tracker's look from the detector's corners is an inch
//!   out on a small tag, which under a camera at the side puts a stand an inch or more off. The
//!   look serves only a tag whose pattern cannot be fitted.

use std::collections::HashMap;
use std::time::Duration;

use calibration::{Camera, StandTagSpec, TableCalibration, TagSighting};
use roster::Roster;
use rules::geometry::TablePoint;
use rules::ground::{Ground, LearntRise};
use rules::units::Inches;
use vision::bearing::{Lift, SEEMS_RAISED};
use vision::rise::{Gauged, RiseGauge};
use vision::{FrameTags, Mat, Replaced, TagPose, TrackedTag, Tracker};

/// How long a stand rests raised before the ground under it is learnt from it.
pub const LEARN_AFTER: Duration = Duration::from_secs(10);

/// A stand whose fitted pattern gauges it this far above the ground under it …
const GAUGED_RAISED: Inches = Inches(0.3);
/// … by this many standard deviations of the gauge stands raised, and the ground under it is
/// learnt from it …
const GAUGED_SURE: f64 = 3.0;
/// … by this many, it seems raised: the player is told, nothing is learnt.
const SEEMS_SURE: f64 = 2.0;
/// Tags gauged a frame, at most: a few milliseconds each.
const GAUGED_A_FRAME: usize = 4;
/// A rest moved this far (placed again, or a new rest) is gauged again.
const GAUGED_AT: f64 = 0.05;

/// A stand resting above the ground under it.
struct Raised {
    /// Its tag.
    id: u32,
    /// Where it is placed now.
    placed: TagPose,
    /// How far above that it seems to be.
    above: Inches,
    /// Whether its pattern's fit gauged that beyond doubt (see [`vision::rise`]): only then is
    /// the ground learnt from it; a gauge less sure, or its look alone, only says it seems
    /// raised.
    learnable: bool,
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
/// play; the stands resting raised, since when; how high each rest was gauged.
pub struct GroundLearning {
    ground: Ground,
    raised_since: HashMap<u32, Duration>,
    /// `None` for a tag family the gauge does not know: the tracker's look serves alone.
    gauge: Option<RiseGauge>,
    /// By tag: where its rest was when gauged, and what the gauge said …
    gauged: HashMap<u32, (TablePoint, Option<Gauged>)>,
    /// … through this camera (a lens learnt better gauges every rest again).
    gauged_through: Option<Camera>,
}

/// What the camera saw this frame.
pub struct Seen<'a> {
    /// Its picture.
    pub image: &'a Mat,
    /// The tags placed on the table.
    pub tags: &'a FrameTags,
    /// Their sightings in the picture.
    pub sightings: &'a [TagSighting],
}

impl GroundLearning {
    /// Starting from the ground the terrain gives, for tags of `family`.
    pub fn new(ground: Ground, family: &str) -> GroundLearning {
        let gauge = RiseGauge::new(family)
            .inspect_err(|e| tracing::warn!("stands' heights gauged by their look only: {e}"))
            .ok();
        GroundLearning {
            ground,
            raised_since: HashMap::new(),
            gauge,
            gauged: HashMap::new(),
            gauged_through: None,
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
        (roster, stand_tags): (&Roster, &HashMap<u32, StandTagSpec>),
        calibration: &TableCalibration,
        seen: Seen,
        tracked: &mut [TrackedTag],
        tracker: &mut Tracker,
    ) -> GroundWord {
        self.gauge_rests(&seen, stand_tags, calibration, tracked);
        let (tags, sightings) = (seen.tags, seen.sightings);
        let raised = raised_stands(tags, tracked, &self.gauged, &self.ground);
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
            let learnt = (stand.learnable && now.saturating_sub(since) >= LEARN_AFTER)
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
                    self.gauged.remove(&stand.id);
                    tracing::info!(tag = rise.tag, height = rise.height.0, "ground learnt");
                    word.notes.push(if rise.height > GAUGED_RAISED {
                        format!(
                            "learnt the ground {:.1}\" high at ({:.1}, {:.1}) from {name} (tag {}), which rested there: it is placed on it; give the hill in the terrain file to have it from the start",
                            rise.height.0, rise.at.x, rise.at.y, rise.tag
                        )
                    } else {
                        format!(
                            "{name} (tag {}) rests on the cloth at ({:.1}, {:.1}): the ground learnt there is forgotten",
                            rise.tag, rise.at.x, rise.at.y
                        )
                    });
                }
                None if stand.above < Inches::ZERO => {}
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

    /// Gauge how high the stands at rest stand whose rest is not gauged yet (a few a frame).
    fn gauge_rests(
        &mut self,
        seen: &Seen,
        specs: &HashMap<u32, StandTagSpec>,
        calibration: &TableCalibration,
        tracked: &[TrackedTag],
    ) {
        let Some(gauge) = &mut self.gauge else {
            return;
        };
        if self.gauged_through != Some(calibration.camera) {
            self.gauged.clear();
            self.gauged_through = Some(calibration.camera);
        }
        self.gauged
            .retain(|id, _| tracked.iter().any(|t| t.id == *id && t.resting.is_some()));
        let due: Vec<(u32, TablePoint, (TagSighting, StandTagSpec))> = tracked
            .iter()
            .filter_map(|tag| {
                let rest = tag.resting?;
                let done = self.gauged.get(&tag.id);
                if done.is_some_and(|(at, _)| (at - rest.center).norm() < GAUGED_AT) {
                    return None;
                }
                let sighting = seen.sightings.iter().find(|s| s.id == tag.id)?;
                let placed = seen.tags.tags.iter().find(|t| t.pose.id == tag.id)?.pose;
                let spec = StandTagSpec {
                    size: specs.get(&tag.id)?.size,
                    height: placed.height,
                };
                Some((tag.id, rest.center, (*sighting, spec)))
            })
            .take(GAUGED_A_FRAME)
            .collect();
        if due.is_empty() {
            return;
        }
        let tags: Vec<_> = due.iter().map(|(_, _, tag)| *tag).collect();
        match gauge.gauge(seen.image, &calibration.camera, &tags) {
            Ok(gauged) => {
                for ((id, at, _), gauged) in due.into_iter().zip(gauged) {
                    self.gauged.insert(id, (at, gauged));
                }
            }
            Err(e) => tracing::debug!("stands' heights not gauged: {e}"),
        }
    }
}

/// The stands lying well above where the ground under them puts them: raised at rest (their
/// rest's height, or their pattern's gauge at it, or while it is not gauged, how they looked)
/// beyond doubt (see [`Gauged::surely_above`], [`Lift::seems_raised`]).
fn raised_stands(
    tags: &FrameTags,
    tracked: &[TrackedTag],
    gauged: &HashMap<u32, (TablePoint, Option<Gauged>)>,
    ground: &Ground,
) -> Vec<Raised> {
    tracked
        .iter()
        .filter_map(|tag| {
            let rest = tag.resting?;
            let placed = tags.tags.iter().find(|t| t.pose.id == tag.id)?.pose;
            let by_rest = rest.height - placed.height;
            let (above, learnable) = match gauged.get(&tag.id) {
                Some((_, Some(gauge))) => (
                    gauged_off(gauge, &placed.center, ground, SEEMS_SURE),
                    gauged_off(gauge, &placed.center, ground, GAUGED_SURE).is_some(),
                ),
                _ => (tag.looked.filter(Lift::seems_raised).map(|l| l.rise), false),
            };
            let (above, learnable) = match above {
                Some(above) => (above, learnable),
                None => ((by_rest > SEEMS_RAISED).then_some(by_rest)?, false),
            };
            Some(Raised {
                id: tag.id,
                placed,
                above,
                learnable,
            })
        })
        .collect()
}

/// How far a stand stands off the ground under it, by its gauge, when surely off: above it,
/// or, on ground learnt in play, below it (learnt too high, through a lens learnt since).
fn gauged_off(gauge: &Gauged, at: &TablePoint, ground: &Ground, sure: f64) -> Option<Inches> {
    let learnt_here = ground.height_sd_at(at) > Inches::ZERO;
    let below = Gauged {
        rise: -gauge.rise,
        ..*gauge
    };
    (gauge.surely_above(GAUGED_RAISED, sure)
        || learnt_here && below.surely_above(GAUGED_RAISED, sure))
    .then_some(gauge.rise)
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
    if rise.height > GAUGED_RAISED {
        ground.learn(rise);
    } else {
        ground.forget_near(&rise.at);
    }
    Some(rise)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gauged(rise: f64) -> Gauged {
        Gauged {
            rise: Inches(rise),
            spread: Inches(0.2),
        }
    }

    #[test]
    fn a_stand_is_gauged_off_above_any_ground_and_below_only_ground_learnt_in_play() {
        let mut ground = Ground::flat();
        let here = TablePoint::new(30.0, 20.0);
        let off = |g: &Gauged, ground: &Ground| gauged_off(g, &here, ground, GAUGED_SURE);
        assert_eq!(off(&gauged(1.0), &ground), Some(Inches(1.0)));
        // Within three spreads: not surely off.
        assert_eq!(off(&gauged(0.5), &ground), None);
        // Below the cloth is the corners' noise, or a roster's wrong height.
        assert_eq!(off(&gauged(-1.0), &ground), None);
        ground.learn(LearntRise {
            at: here,
            height: Inches(2.0),
            tag: 7,
        });
        assert_eq!(off(&gauged(-1.0), &ground), Some(Inches(-1.0)));
        assert_eq!(off(&gauged(-0.5), &ground), None);
    }
}
