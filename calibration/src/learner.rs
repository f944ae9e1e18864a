//! Learning the lens while people play: every frame's tags are offered, and a stand's sighting
//! is kept whenever the stand has moved somewhere new in the picture, until the kept sightings
//! cover the picture. A fit is made from a snapshot, on whichever thread the caller likes.
//!
//! Decisions:
//! - The sightings are kept in groups of about [`GROUP_SIZE`], each with the anchors seen while
//!   it filled, and each group is a picture of its own to the fit, with a pose of its own. The
//!   camera stands still while people play, so one pose for everything would be the model; but
//!   a stand's tag says little about the pose (only its size and shape do: its place is free),
//!   and a few hundred of them would outvote the four anchors that do, so that any small common
//!   error in the stand tags moved the table. Measured on `bench accuracy`'s wide lenses (8
//!   tables, after 30 s of play): one pose for all, position p95 0.038"; a pose per group,
//!   0.027". A camera nudged by a leaning player is absorbed the same way. When the camera is
//!   knocked the sightings no longer agree: [`LensLearner::restart`] drops them and keeps the
//!   lens.
//! - A stand that has not moved adds nothing; one that has moved more than a tag's width adds a
//!   sighting. The sightings kept are capped ([`MAX_KEPT`]), and past the cap a new one replaces
//!   one from the most crowded part of the picture, so the fit stays quick and spreads out.

use std::collections::HashMap;

use crate::anchors::AnchorLayout;
use crate::error::CalibrationError;
use crate::from_tags::{StandTagSpec, calibrate_from_tags};
use crate::lens::Coverage;
use crate::pixels::{ImageSize, PixelPoint};
use crate::table::TableCalibration;
use crate::tag::TagSighting;

/// The most stand sightings kept for a fit: about a second's fit on two cores.
pub const MAX_KEPT: usize = 160;

/// Stand sightings gathered into a group before the next group begins.
pub const GROUP_SIZE: usize = 40;

/// The most groups, each a pose to fit: past it the two oldest are merged (the camera has not
/// moved, so they share a pose as well as any).
const MAX_GROUPS: usize = MAX_KEPT / GROUP_SIZE + 1;

/// The sightings gathered so far.
#[derive(Clone, Debug)]
pub struct LensLearner {
    image_size: ImageSize,
    stands: HashMap<u32, StandTagSpec>,
    /// Per group, the latest sighting of each anchor while it filled.
    groups: Vec<HashMap<u32, TagSighting>>,
    kept: Vec<Kept>,
    /// Stand sightings taken since the start, those that replaced another included.
    taken: usize,
    frames: usize,
}

/// A stand sighting kept, and the group it belongs to.
#[derive(Clone, Copy, Debug)]
struct Kept {
    sighting: TagSighting,
    group: usize,
}

/// What a fit needs, detached from the learner so that it can be made on another thread.
#[derive(Clone, Debug)]
pub struct LearnedTags {
    /// The frame size.
    pub image_size: ImageSize,
    /// Per group, its anchors' sightings and the stand sightings kept in it, as a picture.
    pub pictures: Vec<Vec<TagSighting>>,
    /// The roster's stand tags.
    pub stands: HashMap<u32, StandTagSpec>,
}

impl LearnedTags {
    /// Fit the table and the lens; `previous`'s lens is kept unless this one is better founded.
    pub fn fit(
        &self,
        layout: &AnchorLayout,
        previous: Option<&TableCalibration>,
    ) -> Result<TableCalibration, CalibrationError> {
        calibrate_from_tags(
            layout,
            &self.pictures,
            &self.stands,
            None,
            self.image_size,
            previous,
        )
    }
}

impl LensLearner {
    /// A learner for frames of one size, knowing the roster's stand tags.
    pub fn new(image_size: ImageSize, stands: HashMap<u32, StandTagSpec>) -> LensLearner {
        LensLearner {
            image_size,
            stands,
            groups: Vec::new(),
            kept: Vec::new(),
            taken: 0,
            frames: 0,
        }
    }

    /// Offer a frame's sightings; returns how many stand sightings were kept from it. `anchors`
    /// says which ids are anchors.
    pub fn observe(&mut self, sightings: &[TagSighting], anchors: &AnchorLayout) -> usize {
        self.frames += 1;
        let group = self.filling_group();
        let mut added = 0;
        for sighting in sightings.iter().filter(|s| is_sane(s)) {
            if anchors.anchor(sighting.id).is_some() {
                self.groups[group].insert(sighting.id, *sighting);
            } else if self.stands.contains_key(&sighting.id) && self.is_new_place(sighting) {
                self.keep(Kept {
                    sighting: *sighting,
                    group,
                });
                added += 1;
            }
        }
        added
    }

    /// The group this frame's sightings go to: the last one, or a new one when the last is full.
    /// A new group starts with the anchors as last seen, for a frame where a hand covers them.
    fn filling_group(&mut self) -> usize {
        let in_group = |g: usize| self.kept.iter().filter(|k| k.group == g).count();
        let full = self
            .groups
            .len()
            .checked_sub(1)
            .is_none_or(|g| in_group(g) >= GROUP_SIZE);
        if full {
            self.drop_empty_groups();
            while self.groups.len() >= MAX_GROUPS {
                self.merge_oldest_groups();
            }
            let anchors = self.groups.last().cloned().unwrap_or_default();
            self.groups.push(anchors);
        }
        self.groups.len() - 1
    }

    /// Fold the oldest group into the next, which keeps its own anchors.
    fn merge_oldest_groups(&mut self) {
        self.groups.remove(0);
        for k in &mut self.kept {
            k.group = k.group.saturating_sub(1);
        }
    }

    /// Forget the groups whose sightings have all given way to newer ones (past the cap), so
    /// that a table played all day keeps a handful of groups, not thousands.
    fn drop_empty_groups(&mut self) {
        let mut used = vec![false; self.groups.len()];
        for k in &self.kept {
            used[k.group] = true;
        }
        // Each group's index once the empty ones before it are gone.
        let renumbered: Vec<usize> = used
            .iter()
            .scan(0, |next, &u| {
                let index = *next;
                *next += usize::from(u);
                Some(index)
            })
            .collect();
        let mut flags = used.iter();
        self.groups
            .retain(|_| flags.next().copied().unwrap_or(true));
        for k in &mut self.kept {
            k.group = renumbered[k.group];
        }
    }

    /// Whether a stand sighting offered now would be kept: a sane sighting of a roster's stand
    /// tag, somewhere the stand has not been kept before. (An anchor's sighting is always taken,
    /// as the latest.) For a caller that prepares sightings at a cost, such as refining their
    /// corners, to prepare only those.
    pub fn wants(&self, sighting: &TagSighting, anchors: &AnchorLayout) -> bool {
        is_sane(sighting)
            && anchors.anchor(sighting.id).is_none()
            && self.stands.contains_key(&sighting.id)
            && self.is_new_place(sighting)
    }

    /// Whether a stand's sighting is far enough from each place it was kept at.
    fn is_new_place(&self, sighting: &TagSighting) -> bool {
        let centre = sighting.center();
        let width = sighting.side().max(8.0);
        !self
            .kept
            .iter()
            .map(|k| &k.sighting)
            .any(|k| k.id == sighting.id && k.center().distance(&centre).0 < width)
    }

    fn keep(&mut self, sighting: Kept) {
        if self.kept.len() < MAX_KEPT {
            self.kept.push(sighting);
            self.taken += 1;
            return;
        }
        // Replace a sighting from the most crowded cell.
        let cell = |p: &PixelPoint| {
            let column = (p.x / f64::from(self.image_size.width) * 8.0).floor() as i64;
            let row = (p.y / f64::from(self.image_size.height) * 5.0).floor() as i64;
            (column, row)
        };
        let mut crowd: HashMap<(i64, i64), usize> = HashMap::new();
        for k in &self.kept {
            *crowd.entry(cell(&k.sighting.center())).or_default() += 1;
        }
        let here = crowd
            .get(&cell(&sighting.sighting.center()))
            .copied()
            .unwrap_or_default();
        let crowded = self
            .kept
            .iter()
            .enumerate()
            .max_by_key(|(_, k)| crowd[&cell(&k.sighting.center())])
            .map(|(i, k)| (i, crowd[&cell(&k.sighting.center())]));
        if let Some((index, count)) = crowded
            && count > here + 1
        {
            self.kept[index] = sighting;
            self.taken += 1;
        }
    }

    /// Forget what was gathered (the camera has moved); the lens in use is not touched.
    pub fn restart(&mut self) {
        self.groups.clear();
        self.taken = 0;
        self.kept.clear();
        self.frames = 0;
    }

    /// The frame size it learns for.
    pub fn image_size(&self) -> ImageSize {
        self.image_size
    }

    /// Frames offered since the start or the last restart.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Stand sightings kept.
    pub fn kept(&self) -> usize {
        self.kept.len()
    }

    /// Stand sightings taken since the start or the last restart, those that replaced another
    /// past the cap included: what is new since a fit, once the cap is reached.
    pub fn taken(&self) -> usize {
        self.taken
    }

    /// Which parts of the picture the kept sightings cover (the table's part only, when a
    /// calibration says where the table is).
    pub fn coverage(&self, calibration: Option<&TableCalibration>) -> Coverage {
        let mut coverage = Coverage::new();
        if let Some(c) = calibration {
            let table = c.table;
            coverage.restrict(self.image_size, |p| {
                c.camera
                    .unproject_at(p, rules::units::Inches::ZERO)
                    .is_some_and(|t| table.contains(&t, rules::units::Inches::ZERO))
            });
        }
        let corners = self
            .kept
            .iter()
            .map(|k| &k.sighting)
            .chain(self.groups.last().into_iter().flat_map(HashMap::values))
            .flat_map(|s| s.corners);
        coverage.add(self.image_size, corners);
        coverage
    }

    /// What a fit needs now: a picture per group that has kept stand sightings.
    pub fn snapshot(&self) -> LearnedTags {
        let pictures = self
            .groups
            .iter()
            .enumerate()
            .filter_map(|(g, anchors)| {
                let mut picture: Vec<TagSighting> = anchors.values().copied().collect();
                picture.sort_by_key(|s| s.id);
                let before = picture.len();
                let stands = self.kept.iter().filter(|k| k.group == g);
                picture.extend(stands.map(|k| k.sighting));
                (picture.len() > before).then_some(picture)
            })
            .collect();
        LearnedTags {
            image_size: self.image_size,
            pictures,
            stands: self.stands.clone(),
        }
    }
}

/// A sighting whose corners are all finite numbers and that is not folded over on itself.
fn is_sane(sighting: &TagSighting) -> bool {
    sighting.corners.iter().all(PixelPoint::is_finite) && sighting.side() >= 4.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anchors::TableSize;
    use rules::units::Inches;

    const HD: ImageSize = ImageSize {
        width: 1920,
        height: 1080,
    };

    fn square(id: u32, x: f64, y: f64) -> TagSighting {
        TagSighting {
            id,
            corners: [
                PixelPoint::new(x - 10.0, y + 10.0),
                PixelPoint::new(x + 10.0, y + 10.0),
                PixelPoint::new(x + 10.0, y - 10.0),
                PixelPoint::new(x - 10.0, y - 10.0),
            ],
        }
    }

    fn learner() -> (LensLearner, AnchorLayout) {
        let spec = StandTagSpec {
            size: Inches(1.0),
            height: Inches(0.16),
        };
        let stands = (10..20).map(|id| (id, spec)).collect();
        let layout = AnchorLayout::corners(
            TableSize {
                width: 72.0,
                depth: 48.0,
            },
            Inches(2.0),
            Inches(1.5),
        );
        (LensLearner::new(HD, stands), layout)
    }

    #[test]
    fn a_stand_that_stays_put_is_kept_once_and_one_that_moves_again() {
        let (mut learner, layout) = learner();
        assert_eq!(learner.observe(&[square(10, 500.0, 500.0)], &layout), 1);
        assert_eq!(learner.observe(&[square(10, 505.0, 500.0)], &layout), 0);
        assert_eq!(learner.observe(&[square(10, 560.0, 500.0)], &layout), 1);
        assert_eq!(learner.kept(), 2);
        assert_eq!(learner.frames(), 3);
    }

    #[test]
    fn unknown_tags_and_broken_sightings_are_not_kept() {
        let (mut learner, layout) = learner();
        let mut broken = square(11, 700.0, 500.0);
        broken.corners[2].x = f64::NAN;
        assert_eq!(
            learner.observe(&[square(99, 100.0, 100.0), broken], &layout),
            0
        );
        learner.observe(&[square(0, 40.0, 1000.0)], &layout);
        assert!(
            learner.snapshot().pictures.is_empty(),
            "an anchor alone teaches nothing"
        );
    }

    #[test]
    fn sightings_are_fitted_in_groups_each_with_the_anchors_seen_while_it_filled() {
        let (mut learner, layout) = learner();
        let anchors = [square(0, 40.0, 1000.0), square(1, 1880.0, 1000.0)];
        // One group's worth, a stand at a new place each frame, the anchors in view.
        for n in 0..GROUP_SIZE {
            let x = 100.0 + 40.0 * n as f64;
            learner.observe(&[anchors[0], anchors[1], square(10, x, 500.0)], &layout);
        }
        // The next frames, a hand over the anchors: a new group, with the anchors last seen.
        learner.observe(&[square(11, 300.0, 700.0)], &layout);
        learner.observe(
            &[square(11, 400.0, 700.0), square(0, 41.0, 1000.0)],
            &layout,
        );
        let pictures = learner.snapshot().pictures;
        let ids = |p: &[TagSighting]| p.iter().map(|s| s.id).collect::<Vec<_>>();
        assert_eq!(pictures.len(), 2);
        assert_eq!(pictures[0].len(), 2 + GROUP_SIZE);
        assert_eq!(ids(&pictures[1]), [0, 1, 11, 11]);
        assert_eq!(
            pictures[1][0].center().x,
            41.0,
            "the latest sighting of anchor 0"
        );
        assert_eq!(
            pictures[0][0].center().x,
            40.0,
            "the first group keeps its own"
        );
    }

    #[test]
    fn past_the_cap_the_crowded_part_of_the_picture_gives_way() {
        let (mut learner, layout) = learner();
        // Fill up with sightings in one corner of the picture.
        let mut n = 0;
        while learner.kept() < MAX_KEPT {
            let (x, y) = (
                30.0 + 25.0 * f64::from(n % 6),
                30.0 + 25.0 * f64::from(n / 6),
            );
            learner.observe(&[square(10 + n % 10, x, y)], &layout);
            n += 1;
        }
        let before = learner.coverage(None).fraction();
        learner.observe(&[square(12, 1500.0, 900.0)], &layout);
        assert_eq!(learner.kept(), MAX_KEPT);
        assert_eq!(
            learner.taken(),
            MAX_KEPT + 1,
            "the one that gave way is counted"
        );
        assert!(learner.coverage(None).fraction() > before);
        // A long game: sightings keep coming and giving way; the groups do not pile up.
        for n in 0..20 * MAX_KEPT {
            let (x, y) = (
                40.0 + 30.0 * f64::from(n as u32 % 60),
                40.0 + 30.0 * f64::from(n as u32 / 60 % 33),
            );
            learner.observe(&[square(10 + n as u32 % 10, x, y)], &layout);
        }
        let pictures = learner.snapshot().pictures;
        assert!(pictures.len() <= MAX_GROUPS, "{} groups", pictures.len());
        assert_eq!(pictures.iter().map(Vec::len).sum::<usize>(), MAX_KEPT);
        assert_eq!(
            learner.groups.len(),
            pictures.len(),
            "no empty group is kept"
        );
        learner.restart();
        assert_eq!(
            (learner.kept(), learner.taken(), learner.frames()),
            (0, 0, 0)
        );
    }
}
