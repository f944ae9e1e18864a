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

use calibration::{Camera, LensSource, StandTagSpec, TableCalibration, TagSighting};
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
/// … by this many, it seems raised: the player is told, nothing is learnt …
const SEEMS_SURE: f64 = 2.0;
/// … by this many, it may be raised: a tag so hidden its gauge cannot tell, and the player is
/// told the place assumes flat cloth (a stand on a hill, placed as if on the cloth, is an
/// inch or two off under a camera at the side).
const MAYBE_SURE: f64 = 1.0;
/// Through a lens from the anchors alone, a gauge is this much looser: without the lens's
/// distortion a tag's size is a percent out away from the picture's middle (flat stands'
/// gauges 1.9 spreads RMS through it on `vedette bench accuracy`'s built tables, 0.9 through
/// the lens learnt in play).
const ANCHORS_LENS_SPREAD: f64 = 2.0;
/// Tags gauged a second of video, at most: a few milliseconds each, four a frame at 30
/// frames a second. A source slower than that (a film sampled a frame a second) gauges as
/// many in each of its frames as the camera's second allows.
const GAUGED_A_SECOND: f64 = 120.0;
/// And a frame with no frame before it: the first frame, a still picture.
const GAUGED_A_FIRST_FRAME: usize = 4;
/// A rest moved this far (placed again, or a new rest) is gauged again.
const GAUGED_AT: f64 = 0.05;

/// A stand resting above the ground under it.
struct Raised {
    /// Its tag.
    id: u32,
    /// Where it is placed now.
    placed: TagPose,
    /// How far above that it seems to be …
    above: Inches,
    /// … and how sure that is.
    sureness: Sureness,
}

/// How sure Vedette is that a stand rests off the ground it knows under it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Sureness {
    /// Its pattern's fit gauged it beyond doubt (see [`vision::rise`]), give or take `spread`
    /// (one standard deviation): the ground is learnt from it, with that doubt.
    Learnable { spread: Inches },
    /// It seems so, by a looser gauge or its look alone: the player is told.
    Seems,
    /// Its tag is too hidden to tell, but it may be: the player is told its place assumes
    /// the ground Vedette knows.
    Maybe,
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
    /// When the last frame was looked at.
    last_look: Option<Duration>,
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
            last_look: None,
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
        let budget = match self.last_look.replace(now) {
            Some(last) => {
                (now.saturating_sub(last).as_secs_f64() * GAUGED_A_SECOND).ceil() as usize
            }
            None => GAUGED_A_FIRST_FRAME,
        };
        self.gauge_rests(&seen, stand_tags, calibration, tracked, budget.max(1));
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
            let learnt = match stand.sureness {
                Sureness::Learnable { spread } if now.saturating_sub(since) >= LEARN_AFTER => {
                    sighting.and_then(|s| learn(&stand, spread, s, calibration, &mut self.ground))
                }
                _ => None,
            };
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
                None => word.notes.push(unexplained(&name, &stand)),
            }
        }
        word
    }

    /// Gauge how high the stands at rest stand whose rest is not gauged yet (`budget` of them).
    fn gauge_rests(
        &mut self,
        seen: &Seen,
        specs: &HashMap<u32, StandTagSpec>,
        calibration: &TableCalibration,
        tracked: &[TrackedTag],
        budget: usize,
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
            .take(budget)
            .collect();
        if due.is_empty() {
            return;
        }
        let tags: Vec<_> = due.iter().map(|(_, _, tag)| *tag).collect();
        match gauge.gauge(seen.image, &calibration.camera, &tags) {
            Ok(gauged) => {
                let loosened = match calibration.lens {
                    LensSource::Anchors | LensSource::Assumed => ANCHORS_LENS_SPREAD,
                    _ => 1.0,
                };
                for ((id, at, _), gauged) in due.into_iter().zip(gauged) {
                    let gauged = gauged.map(|g| Gauged {
                        spread: g.spread * loosened,
                        ..g
                    });
                    self.gauged.insert(id, (at, gauged));
                }
            }
            Err(e) => tracing::debug!("stands' heights not gauged: {e}"),
        }
    }
}

/// What the player is told of a stand off the ground Vedette knows under it, learnt from or
/// not yet.
fn unexplained(name: &str, stand: &Raised) -> String {
    let (id, above, at) = (stand.id, stand.above.0, stand.placed.center);
    let remedy = match stand.sureness {
        Sureness::Learnable { .. } => format!(
            "give the hill its rise in the terrain file, or leave the stand {}s and Vedette learns it",
            LEARN_AFTER.as_secs()
        ),
        Sureness::Seems => "give the hill its rise in the terrain file (too little of its tag is seen clearly to learn the ground from it)".to_string(),
        Sureness::Maybe => {
            return format!(
                "{name} (tag {id}) may stand {above:.1}\" above the ground Vedette knows at ({:.1}, {:.1}): figures hide too much of its tag to be sure, and it is placed as if on that ground; give the hill in the terrain file, or clear the tag's edges",
                at.x, at.y
            )
        }
    };
    format!(
        "{name} (tag {id}) seems {above:.1}\" above the ground Vedette knows at ({:.1}, {:.1}): on a hill it does not know? {remedy}",
        at.x, at.y
    )
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
            let judged = match gauged.get(&tag.id) {
                Some((_, Some(gauge))) => judge_gauge(gauge, &placed.center, ground)
                    .map(|sureness| (gauge.rise, sureness)),
                _ => tag
                    .looked
                    .filter(Lift::seems_raised)
                    .map(|l| (l.rise, Sureness::Seems)),
            };
            let (above, sureness) = match judged {
                Some(judged) => judged,
                None => (
                    (by_rest > SEEMS_RAISED).then_some(by_rest)?,
                    Sureness::Seems,
                ),
            };
            Some(Raised {
                id: tag.id,
                placed,
                above,
                sureness,
            })
        })
        .collect()
}

/// How sure a stand's gauge is that it stands off the ground under it; `None` when it may
/// well rest on it.
fn judge_gauge(gauge: &Gauged, at: &TablePoint, ground: &Ground) -> Option<Sureness> {
    let off = |sure| gauged_off(gauge, at, ground, sure);
    if off(GAUGED_SURE) {
        Some(Sureness::Learnable {
            spread: gauge.spread,
        })
    } else if off(SEEMS_SURE) {
        Some(Sureness::Seems)
    } else {
        off(MAYBE_SURE).then_some(Sureness::Maybe)
    }
}

/// Whether a stand's gauge puts it `sure` spreads off the ground under it: above it, or, on
/// ground learnt in play, below it (learnt too high, through a lens learnt since).
fn gauged_off(gauge: &Gauged, at: &TablePoint, ground: &Ground, sure: f64) -> bool {
    let learnt_here = ground.height_sd_at(at) > Inches::ZERO;
    let below = Gauged {
        rise: -gauge.rise,
        ..*gauge
    };
    gauge.surely_above(GAUGED_RAISED, sure)
        || learnt_here && below.surely_above(GAUGED_RAISED, sure)
}

/// The ground under a raised stand gauged give or take `spread`: where its tag's ray meets the
/// tag's true height, that height less the tag's own height above its ground.
fn learn(
    stand: &Raised,
    spread: Inches,
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
        sd: spread,
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

    fn gauged(rise: f64, spread: f64) -> Gauged {
        Gauged {
            rise: Inches(rise),
            spread: Inches(spread),
        }
    }

    #[test]
    fn a_gauge_is_judged_by_how_many_spreads_it_stands_above_ground_or_below_ground_learnt() {
        let mut ground = Ground::flat();
        let here = TablePoint::new(30.0, 20.0);
        let judge =
            |rise, spread, ground: &Ground| judge_gauge(&gauged(rise, spread), &here, ground);
        let learnable = Some(Sureness::Learnable {
            spread: Inches(0.2),
        });
        // 0.3" up counts from the gauge's 0.3": 1" up is 3.5 spreads, 0.8" is 2.5, 0.6" 1.5.
        assert_eq!(judge(1.0, 0.2, &ground), learnable);
        assert_eq!(judge(0.8, 0.2, &ground), Some(Sureness::Seems));
        assert_eq!(judge(0.6, 0.2, &ground), Some(Sureness::Maybe));
        assert_eq!(judge(0.45, 0.2, &ground), None);
        // A tag under figures gauged loosely: it may be raised, and nothing is learnt from it.
        assert_eq!(judge(1.3, 0.8, &ground), Some(Sureness::Maybe));
        // Below the cloth is the corners' noise, or a roster's wrong height.
        assert_eq!(judge(-1.0, 0.2, &ground), None);
        ground.learn(LearntRise {
            at: here,
            height: Inches(2.0),
            sd: Inches(0.3),
            tag: 7,
        });
        // Below ground learnt in play: learnt too high.
        assert_eq!(judge(-1.0, 0.2, &ground), learnable);
        assert_eq!(judge(-0.55, 0.2, &ground), Some(Sureness::Maybe));
        assert_eq!(judge(-0.4, 0.2, &ground), None);
    }
}
