//! Following tags from frame to frame: where each tag *lies*, not where it flies.
//!
//! Every tag is resting or travelling. A resting tag's place is the mean of its sightings
//! since it came to rest, so the camera's wobble averages away and the place gets surer the
//! longer it lies there. A tag seen twice in a row away from its rest (a move, not a glitch of
//! one frame) is travelling: it keeps its rest for the rules, and its latest sighting, with
//! how far it seems lifted and tilted off its stand ([`crate::bearing`]), is where it is
//! drawn travelling. It rests again once it has been still within its noise for
//! [`TrackerSettings::settle_time`] and lies on its stand's plane.
//!
//! Decisions:
//! - Nothing is ruled at a place a tag never rested: a tag carried over the table or held up
//!   in a hand keeps its last rest until it is put down and left, however slowly it moves.
//! - A tag first seen lying flat rests at once (a still picture is ruled on its one frame); a
//!   tag first seen in a hand has no rest until it is put down.
//! - A tag held still off its stand's plane for [`TrackerSettings::raised_settle`] lies on
//!   something (a hill, a building, a slope) rather than in a hand, which never holds that
//!   still: it rests, placed at the height its size says.
//! - A covered tag keeps its rest, marked "not seen since …"; it is dropped after
//!   [`TrackerSettings::hold`]. Found again within its noise of its rest, nothing moves; found
//!   elsewhere, it travelled unseen (a unit moved under a hand) and says so.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use calibration::{StandTagSpec, TableCalibration, TagSighting};
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use serde::Serialize;

use crate::bearing::{Bearing, FlatLook, InHand, Lift};
use crate::locate::{FrameTags, LocatedTag, TagPose, TagRole, tag_pose};

/// How the tracker decides what rests and what travels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrackerSettings {
    /// A tag is still while its sightings stay within this of their mean: the camera's noise
    /// (a small, far tag through an MJPEG webcam wobbles by a few hundredths of an inch).
    pub still_distance: Inches,
    /// The same for its facing, for a tag of 30 px and more; a smaller tag's facing wobbles
    /// more, by [`TURN_NOISE`] over its side.
    pub still_turn: Degrees,
    /// How long a tag must be still, lying on its stand's plane, to rest.
    pub settle_time: Duration,
    /// A tag seems in a hand when it seems lifted or tilted off its stand's plane by more
    /// than these, surely, over the sightings that would settle it.
    pub in_hand: InHand,
    /// A tag still this long rests even off its stand's plane (see the module's
    /// documentation).
    pub raised_settle: Duration,
    /// How long a covered tag is held at its rest.
    pub hold: Duration,
}

impl Default for TrackerSettings {
    fn default() -> TrackerSettings {
        TrackerSettings {
            still_distance: Inches(0.06),
            still_turn: Degrees(1.5),
            settle_time: Duration::from_millis(400),
            in_hand: InHand {
                rise: Inches(0.6),
                tilt: Degrees(6.0),
                sure: 3.0,
            },
            raised_settle: Duration::from_secs(3),
            hold: Duration::from_secs(60),
        }
    }
}

/// Sightings in a row away from its rest before a tag is taken to travel: one is a glitch.
const DEPARTURES: u32 = 2;
/// A rest counts at most this many sightings in its mean, then follows them slowly.
const REST_MEMORY: f64 = 60.0;
/// Sightings within the settle time needed to rest: a tag seen once after a gap has not been
/// seen still.
const SETTLE_SIGHTINGS: usize = 3;
/// A tag that had been resting this long teaches what a flat tag looks like.
const FLAT_AFTER: Duration = Duration::from_secs(1);
/// A tag first seen is in a hand only when it seems lifted or tilted this many times beyond
/// the limits, this many times as surely.
const FIRST_SIGHT_DOUBT: f64 = 2.0;
/// A gap between sightings longer than this means the tag was out of sight.
const UNSEEN_GAP: Duration = Duration::from_millis(250);
/// A journey seen to go further than this after the tag was found away from its rest was
/// watched, not made unseen.
const SEEN_MOVING: Inches = Inches(0.5);
/// A tag's facing wobbles by about this many degrees over its side in pixels, through MJPEG
/// and an arm's shadow: a far tag of 15 px turns 3° from one frame to the next, lying still.
const TURN_NOISE: f64 = 45.0;
/// A rest is placed again through a new calibration from a sighting within this of it.
const REPLACE_NEAR: f64 = 0.5;
/// A tag back at its rest after travelling less than this many times the still distance
/// never went anywhere: a glitch of its corners.
const WOBBLE: f64 = 4.0;

/// One frame's sighting of a tag: placed, with its corners and what the roster says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Observed {
    /// Placed at its stand's height.
    pub tag: LocatedTag,
    /// Its corners.
    pub sighting: TagSighting,
    /// Its size and stand height, for a roster tag: what tells lifted from lying.
    pub spec: Option<StandTagSpec>,
}

/// A frame's tags as the tracker takes them: each placed tag with its sighting and, for the
/// roster's stand tags, their size and the height they were placed at.
pub fn observations(
    tags: &FrameTags,
    sightings: &[TagSighting],
    specs: &HashMap<u32, StandTagSpec>,
) -> Vec<Observed> {
    tags.tags
        .iter()
        .filter_map(|tag| {
            let sighting = *sightings.iter().find(|s| s.id == tag.pose.id)?;
            // Its stand's plane is where it was placed: on the ground under it, when a known
            // hill lifts it (a stand on a hill is not a stand in a hand).
            let spec = specs.get(&tag.pose.id).map(|spec| StandTagSpec {
                height: tag.pose.height,
                ..*spec
            });
            Some(Observed {
                tag: tag.clone(),
                sighting,
                spec,
            })
        })
        .collect()
}

/// The sightings of this frame's tags that lie at rest (seen now, neither travelling nor away
/// from their rest): the ones whose look says something of the tag, not of its motion.
pub(crate) fn sightings_at_rest(
    tracked: &[TrackedTag],
    sightings: &[TagSighting],
) -> Vec<TagSighting> {
    sightings
        .iter()
        .filter(|s| {
            tracked.iter().any(|t| {
                t.id == s.id && t.sighting == Sighting::Now && t.resting.is_some() && !t.unsettled()
            })
        })
        .copied()
        .collect()
}

/// Whether a tag is in view.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "seen")]
pub enum Sighting {
    /// Seen in this frame.
    Now,
    /// Not seen since this time (from the start of the source).
    HeldSince {
        /// Time of the last sighting.
        last_seen: Duration,
    },
}

/// A tag on its way.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Travel {
    /// Where it was last seen: at its stand's height, or at the height its size says when it
    /// is lifted.
    pub now: TagPose,
    /// When it left its rest (its first sighting away from it).
    pub since: Duration,
    /// How far it has gone, along its sightings.
    pub path: Inches,
    /// How far off its stand's plane it seems now.
    pub lift: Lift,
    /// Whether it is in a hand now: lifted or tilted off its stand's plane.
    pub in_hand: bool,
    /// Whether it was ever in a hand on this journey.
    pub lifted: bool,
    /// Whether it left its rest out of sight (under a hand, behind an arm).
    pub left_unseen: bool,
    /// How far it has been seen to go, after it was first seen away from its rest.
    pub seen_path: Inches,
}

/// How a tag came to its rest.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Journey {
    /// Where it rested before; `None` for a tag first seen on its way.
    pub from: Option<TagPose>,
    /// When it left.
    pub since: Duration,
    /// When it came to rest.
    pub ended: Duration,
    /// How far it went: along its sightings, or straight when it went unseen.
    pub path: Inches,
    /// Whether it was lifted on the way.
    pub lifted: bool,
    /// Whether it went unseen: it left out of sight and was found elsewhere.
    pub unseen: bool,
}

/// A tag as the tracker knows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrackedTag {
    /// Its id.
    pub id: u32,
    /// What it is.
    pub role: TagRole,
    /// Where it lies for the rules: its rest. `None` for a tag first seen on its way.
    pub resting: Option<TagPose>,
    /// In view or not.
    pub sighting: Sighting,
    /// On its way, if it is.
    pub travel: Option<Travel>,
    /// Seen away from its rest, but not yet taken to travel (a glitch, or the start of a
    /// move): its rest is in doubt.
    pub away: bool,
    /// Whether its rest has been still for the settle time: a tag first seen rests at once
    /// (a still picture is ruled on its one frame), on its first sightings' mean.
    pub sure: bool,
    /// How it came to its rest, once it has travelled.
    pub arrived: Option<Journey>,
    /// How far off the plane it was placed at it seemed while at its rest, against a flat tag
    /// of its size (the mean of its sightings there): a stand on something raised that the
    /// ground does not know seems lifted for as long as it lies there.
    pub looked: Option<Lift>,
}

/// A tag's rest placed again, not moved: through a better calibration, or on ground learnt
/// under it. `was` and `now` are the same place on the table as the old and the new way of
/// seeing it put it; whoever kept `was` should now keep `now`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Replaced {
    /// The tag.
    pub id: u32,
    /// Its rest as it was placed.
    pub was: TagPose,
    /// Its rest as it is placed now.
    pub now: TagPose,
}

impl TrackedTag {
    /// Whether it is not surely lying at its rest: travelling, or seen away from it.
    pub fn unsettled(&self) -> bool {
        self.travel.is_some() || self.away
    }

    /// Its rest, as a placed tag.
    pub fn resting_tag(&self) -> Option<LocatedTag> {
        Some(LocatedTag {
            pose: self.resting?,
            role: self.role.clone(),
        })
    }
}

/// A tag's rest: the mean of its still sightings.
#[derive(Clone, Copy, Debug)]
struct Rest {
    pose: TagPose,
    count: f64,
    /// Since when it has been still there.
    since: Duration,
    /// Whether it was found still for the settle time; a first sighting's rest is not until
    /// the tag has stayed that long.
    found_still: bool,
}

impl Rest {
    fn new(pose: TagPose, since: Duration) -> Rest {
        Rest {
            pose,
            count: 1.0,
            since,
            found_still: false,
        }
    }

    /// Take one more still sighting into the mean.
    fn absorb(&mut self, pose: &TagPose) {
        self.count = (self.count + 1.0).min(REST_MEMORY);
        let w = 1.0 / self.count;
        let turn = self.pose.facing.turn_to(pose.facing).0;
        self.pose = TagPose {
            center: TablePoint::from(self.pose.center.coords * (1.0 - w) + pose.center.coords * w),
            facing: Degrees((self.pose.facing.0 + turn * w).rem_euclid(360.0)),
            measured_size: Inches(self.pose.measured_size.0 * (1.0 - w) + pose.measured_size.0 * w),
            ..*pose
        };
    }
}

/// One sighting as a track remembers it.
#[derive(Clone, Copy, Debug)]
struct Seen {
    time: Duration,
    /// Placed at its rest's height: what stillness is judged on.
    pose: TagPose,
    /// Placed at its stand's height.
    on_stand: TagPose,
    /// Placed at the height its size says, when it seems off its stand's plane.
    raised: Option<TagPose>,
    /// How far off its stand's plane it seems, against how it looked at its rest.
    lift: Option<Lift>,
    /// The same against a flat tag of its size.
    raw: Option<Lift>,
    sighting: TagSighting,
}

#[derive(Clone, Debug)]
struct Track {
    role: TagRole,
    rest: Option<Rest>,
    /// How it looked while at its rest (against a flat tag of its size): what the lens and
    /// the light make of this tag lying there, which a lift is judged against.
    looked: Option<Lift>,
    recent: VecDeque<Seen>,
    departures: u32,
    travel: Option<Travel>,
    arrived: Option<Journey>,
    last_seen: Duration,
}

/// Tags followed across frames (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    settings: TrackerSettings,
    tracks: HashMap<u32, Track>,
    flat: FlatLook,
}

impl Tracker {
    /// A tracker with these settings.
    pub fn new(settings: TrackerSettings) -> Tracker {
        Tracker {
            settings,
            ..Tracker::default()
        }
    }

    /// Its settings.
    pub fn settings(&self) -> &TrackerSettings {
        &self.settings
    }

    /// Take one frame's tags, seen at `time` through `calibration`; returns every tag known,
    /// seen or held, by id.
    pub fn update(
        &mut self,
        time: Duration,
        calibration: &TableCalibration,
        seen: &[Observed],
    ) -> Vec<TrackedTag> {
        for observed in seen {
            let bearing = observed
                .spec
                .and_then(|spec| Bearing::of(&calibration.camera, &observed.sighting, &spec));
            let raw = bearing.map(|b| self.flat.lift(&b));
            let on_stand = observed.tag.pose;
            let track = self
                .tracks
                .entry(on_stand.id)
                .or_insert_with(|| Track::new(&observed.tag));
            track.role = observed.tag.role.clone();
            let lift = raw.map(|r| track.judged(r));
            let raised = lift
                .filter(|l| l.in_hand(&self.settings.in_hand))
                .and_then(|l| tag_pose(calibration, &observed.sighting, on_stand.height + l.rise));
            let sighting = Seen {
                time,
                pose: track.at_rest_height(observed, calibration),
                on_stand,
                raised,
                lift,
                raw,
                sighting: observed.sighting,
            };
            track.see(sighting, &self.settings, calibration);
            if let (Some(bearing), Some(rest)) = (bearing, &track.rest)
                && track.travel.is_none()
                && rest.pose.height == on_stand.height
                && time.saturating_sub(rest.since) >= FLAT_AFTER
                && !raw.is_some_and(|l| l.seems_raised())
                && !(self.flat.taught() && track.looked.is_some_and(|l| l.seems_raised()))
            {
                // A tag at rest that seems raised (on a hill not known) against what a flat
                // tag looks like is not flat: learnt from, its own size would come to look
                // flat in a minute and its ground be learnt too low. Judged against the flat
                // look, not against how the tag itself looked at its rest (a still tag always
                // looks like itself). An untaught look learns from every tag not plainly raised
                // in the sighting itself, or one wrong at the start would never learn (the
                // demo's first pass recorded no move).
                self.flat.learn(&bearing);
            }
        }
        let hold = self.settings.hold;
        self.tracks
            .retain(|_, t| time.saturating_sub(t.last_seen) <= hold);
        let mut out: Vec<TrackedTag> = self
            .tracks
            .iter()
            .map(|(id, t)| t.report(*id, time, self.settings.settle_time))
            .collect();
        out.sort_by_key(|t| t.id);
        out
    }

    /// Forget everything (a new game, a moved camera).
    pub fn clear(&mut self) {
        self.tracks.clear();
        self.flat = FlatLook::default();
    }

    /// The camera is measured afresh (its lens learnt better, say), not moved: every rest is
    /// placed again through the new calibration from its latest sighting, so that nothing
    /// seems to move. What a flat tag looks like is learnt again: through a lens known less
    /// well, tags of one size looked bigger or smaller across the picture. Returns the rests
    /// placed again.
    pub fn recalibrated(&mut self, calibration: &TableCalibration) -> Vec<Replaced> {
        let replaced = self
            .tracks
            .iter_mut()
            .filter_map(|(id, track)| {
                let (was, now) = track.recalibrated(calibration)?;
                Some(Replaced { id: *id, was, now })
            })
            .collect();
        self.flat = FlatLook::default();
        replaced
    }

    /// The ground under tag `id` was learnt to be higher (or lower) than it was placed on, not
    /// moved: its rest and its recent sightings are placed again at `height` through the same
    /// calibration, so that nothing seems to move; how it looked was against the old height.
    /// Returns its rest placed again.
    pub fn regrounded(
        &mut self,
        id: u32,
        height: Inches,
        calibration: &TableCalibration,
    ) -> Option<Replaced> {
        let track = self.tracks.get_mut(&id)?;
        let again = |pose: &TagPose, sighting: &TagSighting| {
            tag_pose(calibration, sighting, height).unwrap_or(*pose)
        };
        let mut replaced = None;
        if let Some(rest) = &mut track.rest
            && let Some(last) = track.recent.back()
        {
            let was = rest.pose;
            rest.pose = again(&rest.pose, &last.sighting);
            replaced = Some(Replaced {
                id,
                was,
                now: rest.pose,
            });
        }
        for seen in &mut track.recent {
            seen.pose = again(&seen.pose, &seen.sighting);
            seen.on_stand = again(&seen.on_stand, &seen.sighting);
        }
        track.looked = None;
        replaced
    }

    /// Where each tag rests now, by id.
    pub fn rests(&self) -> HashMap<u32, TagPose> {
        self.tracks
            .iter()
            .filter_map(|(id, t)| Some((*id, t.rest?.pose)))
            .collect()
    }
}

impl Track {
    fn new(tag: &LocatedTag) -> Track {
        Track {
            role: tag.role.clone(),
            rest: None,
            looked: None,
            recent: VecDeque::new(),
            departures: 0,
            travel: None,
            arrived: None,
            last_seen: Duration::ZERO,
        }
    }

    fn report(&self, id: u32, time: Duration, settle: Duration) -> TrackedTag {
        TrackedTag {
            id,
            role: self.role.clone(),
            resting: self.rest.map(|r| r.pose),
            sighting: if self.last_seen == time {
                Sighting::Now
            } else {
                Sighting::HeldSince {
                    last_seen: self.last_seen,
                }
            },
            travel: self.travel,
            // A tag seen away from its rest once and then covered is only covered.
            away: self.departures > 0 && self.last_seen == time,
            sure: self
                .rest
                .is_some_and(|r| r.found_still || time.saturating_sub(r.since) >= settle),
            arrived: self.arrived,
            looked: self.rest.and(self.looked),
        }
    }

    /// A sighting's lift judged against how this tag looked at its rest: a small tag's corners
    /// sit inside its printed square by a share of a pixel that its own pattern sets, so one
    /// tag of 15 px lying flat seems an inch up and its neighbour half an inch down, wherever
    /// it is put; an uncorrected lens makes a tag at the rim of the picture seem tilted.
    fn judged(&self, raw: Lift) -> Lift {
        let Some(looked) = &self.looked else {
            return raw;
        };
        Lift {
            rise: raw.rise - looked.rise,
            tilt: Degrees((raw.tilt.0 - looked.tilt.0).max(0.0)),
            rise_spread: Inches(raw.rise_spread.0.hypot(looked.rise_spread.0)),
            tilt_spread: Degrees(raw.tilt_spread.0.hypot(looked.tilt_spread.0)),
        }
    }

    /// Place the rest again through a new calibration, as the sighting nearest it moves with
    /// the new calibration, and the recent sightings with it: a tag settling goes on settling.
    /// (Taken from the nearest sighting, not the latest near it: a tag leaving its rest was
    /// seen a little way off it, and its rest would have gone with it.)
    /// Returns the rest as it was and as it is placed now, if it was placed again.
    fn recalibrated(&mut self, calibration: &TableCalibration) -> Option<(TagPose, TagPose)> {
        let mut replaced = None;
        if let Some(rest) = &mut self.rest
            && let Some(nearest) = self
                .recent
                .iter()
                .min_by(|a, b| {
                    let off = |s: &Seen| (s.pose.center - rest.pose.center).norm();
                    off(a).total_cmp(&off(b))
                })
                .filter(|s| (s.pose.center - rest.pose.center).norm() <= REPLACE_NEAR)
            && let Some(pose) = tag_pose(calibration, &nearest.sighting, rest.pose.height)
        {
            let again = TagPose {
                center: pose.center + (rest.pose.center - nearest.pose.center),
                facing: (pose.facing + nearest.pose.facing.turn_to(rest.pose.facing)).normalized(),
                ..pose
            };
            replaced = Some((rest.pose, again));
            rest.pose = again;
            rest.count = 1.0;
        }
        let again = |pose: &TagPose, sighting: &TagSighting| {
            tag_pose(calibration, sighting, pose.height).unwrap_or(*pose)
        };
        for seen in &mut self.recent {
            seen.pose = again(&seen.pose, &seen.sighting);
            seen.on_stand = again(&seen.on_stand, &seen.sighting);
            seen.raised = seen.raised.map(|r| again(&r, &seen.sighting));
        }
        // How it looked was how the old lens made it look.
        self.looked = None;
        replaced
    }

    /// A sighting placed at the height of this track's rest: its stand's, or what it lies on.
    fn at_rest_height(&self, observed: &Observed, calibration: &TableCalibration) -> TagPose {
        match &self.rest {
            Some(rest) if rest.pose.height != observed.tag.pose.height => {
                tag_pose(calibration, &observed.sighting, rest.pose.height)
                    .unwrap_or(observed.tag.pose)
            }
            _ => observed.tag.pose,
        }
    }

    /// Take one sighting.
    fn see(&mut self, seen: Seen, settings: &TrackerSettings, calibration: &TableCalibration) {
        let first = self.recent.is_empty();
        self.remember(seen, settings);
        self.last_seen = seen.time;
        let in_hand = seen.lift.is_some_and(|l| l.in_hand(&settings.in_hand));
        if let Some(travel) = &mut self.travel {
            travel.step(&seen, in_hand, settings);
            if let Some(rest) = &self.rest
                && travel.path.0 < WOBBLE * settings.still_distance.0
                && still(&rest.pose, &seen, settings)
            {
                // Back where it lay before it had gone anywhere: a glitch, not a journey.
                self.travel = None;
                return;
            }
            self.settle(seen.time, settings, calibration);
            return;
        }
        let Some(rest) = &mut self.rest else {
            // A tag first seen has no history to judge its lift against: it is taken to be in
            // a hand only when that is plain.
            let plainly = seen
                .lift
                .is_some_and(|l| l.in_hand(&settings.in_hand.widened(FIRST_SIGHT_DOUBT)));
            if first && !plainly {
                self.rest = Some(Rest::new(seen.on_stand, seen.time));
                self.looked = seen.raw;
            } else {
                self.travel = Some(Travel::start(&seen, None, in_hand, false));
            }
            return;
        };
        if still(&rest.pose, &seen, settings) {
            rest.absorb(&seen.pose);
            if let Some(raw) = &seen.raw {
                self.looked = Some(match &self.looked {
                    Some(looked) => looked.followed(raw, rest.count),
                    None => *raw,
                });
            }
            self.departures = 0;
            return;
        }
        self.departures += 1;
        if self.departures < DEPARTURES {
            return;
        }
        let from = rest.pose;
        let (since, unseen) = self.departure();
        let mut travel = Travel::start(&seen, Some(&from), in_hand, unseen);
        travel.since = since;
        tracing::trace!(tag = seen.on_stand.id, at = ?seen.time, from = ?from.center, now = ?travel.now.center, in_hand, unseen, "tag leaves its rest");
        self.travel = Some(travel);
        self.departures = 0;
        self.settle(seen.time, settings, calibration);
    }

    /// When the tag left its rest (its first sighting away from it), and whether it was out
    /// of sight just before.
    fn departure(&self) -> (Duration, bool) {
        let n = self.recent.len();
        let first = n.saturating_sub(DEPARTURES as usize);
        let left = self.recent.get(first).map_or(self.last_seen, |s| s.time);
        let unseen = first
            .checked_sub(1)
            .and_then(|before| self.recent.get(before))
            .is_some_and(|before| left.saturating_sub(before.time) > UNSEEN_GAP);
        (left, unseen)
    }

    fn remember(&mut self, seen: Seen, settings: &TrackerSettings) {
        self.recent.push_back(seen);
        let keep = settings.raised_settle.max(settings.settle_time) + settings.settle_time;
        while self
            .recent
            .front()
            .is_some_and(|s| seen.time.saturating_sub(s.time) > keep)
        {
            self.recent.pop_front();
        }
    }

    /// Come to rest if the last sightings have been still long enough.
    fn settle(
        &mut self,
        time: Duration,
        settings: &TrackerSettings,
        calibration: &TableCalibration,
    ) {
        let Some(travel) = self.travel else {
            return;
        };
        let Some((rest, looked)) = still_since(&self.recent, time, settings, calibration) else {
            return;
        };
        self.looked = looked;
        let from = self.rest.map(|r| r.pose);
        let straight = from.map_or(Inches::ZERO, |f| {
            Inches((rest.pose.center - f.center).norm())
        });
        self.arrived = Some(Journey {
            from,
            since: travel.since,
            ended: time,
            path: if travel.went_unseen() {
                straight
            } else {
                travel.path
            },
            lifted: travel.lifted,
            unseen: travel.went_unseen(),
        });
        tracing::trace!(tag = rest.pose.id, at = ?time, to = ?rest.pose.center, path = %travel.path, "tag comes to rest");
        self.rest = Some(rest);
        self.travel = None;
        self.departures = 0;
    }
}

impl Travel {
    fn start(seen: &Seen, from: Option<&TagPose>, in_hand: bool, left_unseen: bool) -> Travel {
        Travel {
            now: seen.raised.unwrap_or(seen.on_stand),
            since: seen.time,
            path: Inches(from.map_or(0.0, |f| (seen.pose.center - f.center).norm())),
            lift: seen.lift.unwrap_or_default(),
            in_hand,
            lifted: in_hand,
            left_unseen,
            seen_path: Inches::ZERO,
        }
    }

    fn step(&mut self, seen: &Seen, in_hand: bool, settings: &TrackerSettings) {
        let now = seen.raised.unwrap_or(seen.on_stand);
        let step = (now.center - self.now.center).norm();
        if step > settings.still_distance.0 / 2.0 {
            self.path = self.path + Inches(step);
            self.seen_path = self.seen_path + Inches(step);
        }
        self.now = now;
        self.lift = seen.lift.unwrap_or_default();
        self.in_hand = in_hand;
        self.lifted |= in_hand;
    }

    /// Whether it left its rest unseen and was not seen on its way: it was moved under a
    /// hand, not carried in view.
    fn went_unseen(&self) -> bool {
        self.left_unseen && !self.lifted && self.seen_path.0 < SEEN_MOVING.0
    }
}

/// The rest the newest sightings make, if they have been still for the settle time and lie
/// on the stand's plane (placed at its height), or have been still for the raised settle time
/// (placed at the height their size says).
fn still_since(
    recent: &VecDeque<Seen>,
    now: Duration,
    settings: &TrackerSettings,
    calibration: &TableCalibration,
) -> Option<(Rest, Option<Lift>)> {
    let mut still_ones: Vec<&Seen> = Vec::new();
    let mut mean: Option<Rest> = None;
    for seen in recent.iter().rev() {
        match &mut mean {
            Some(m) if !still(&m.pose, seen, settings) => break,
            Some(m) => m.absorb(&seen.pose),
            None => mean = Some(Rest::new(seen.pose, now)),
        }
        still_ones.push(seen);
    }
    let lasted = now.saturating_sub(still_ones.last()?.time);
    // A frame's worth of slack: the oldest still sighting may fall a frame short. The
    // sightings are counted over all the time it lay still, not within the settle time: a
    // slow machine seeing 3 frames a second never has three within 0.4 s, and its moves
    // never ended.
    if still_ones.len() < SETTLE_SIGHTINGS
        || lasted.as_secs_f64() < settings.settle_time.as_secs_f64() * 0.9
    {
        return None;
    }
    let lift = Lift::mean(still_ones.iter().filter_map(|s| s.lift.as_ref()));
    let height = match lift {
        Some(l) if l.in_hand(&settings.in_hand) => {
            if lasted < settings.raised_settle {
                return None;
            }
            // Lying on something: placed at the height its size says.
            still_ones.first()?.on_stand.height + l.rise
        }
        _ => still_ones.first()?.on_stand.height,
    };
    let mut placed = still_ones.iter().filter_map(|s| {
        if s.on_stand.height == height {
            Some(s.on_stand)
        } else {
            tag_pose(calibration, &s.sighting, height)
        }
    });
    // Still since its oldest still sighting.
    let mut rest = Rest::new(placed.next()?, now.saturating_sub(lasted));
    rest.found_still = true;
    for pose in placed {
        rest.absorb(&pose);
    }
    let looked = Lift::mean(still_ones.iter().filter_map(|s| s.raw.as_ref()));
    Some((rest, looked))
}

/// Whether a sighting is within the camera's noise of a place.
fn still(rest: &TagPose, seen: &Seen, settings: &TrackerSettings) -> bool {
    let turn_noise = TURN_NOISE / seen.sighting.side().max(1.0);
    (seen.pose.center - rest.center).norm() <= settings.still_distance.0
        && rest.facing.turn_to(seen.pose.facing).0.abs() <= settings.still_turn.0.max(turn_noise)
}
