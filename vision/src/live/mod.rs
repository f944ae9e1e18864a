//! Live detection: every tag, every frame, faster than a full-frame pass.
//!
//! A full-resolution AprilTag pass over a 1080p frame of a real (busy) table takes 50–100 ms
//! on a 2-core machine, and decimating it loses the small tags at the far edge of the table.
//! But from one frame to the next a tag moves a few pixels, and its id is known:
//! [`LiveDetector`] follows each tag seen in the last frame from its predicted corners
//! ([`follow`]: the border's four edges, checked cell by cell against the tag's pattern),
//! which costs tens of microseconds a tag. A tag that cannot be followed (a hand over it, a
//! shove) is searched for by the AprilTag detector in a small region round its prediction
//! ([`roi`]), the regions packed into one image ([`mosaic`]). New tags are found by a
//! decimated pass over one band of the frame a frame, and by a full-resolution full-frame pass
//! that runs regularly and when tags go missing ([`schedule`]). This is the idea behind
//! ArUco 3's speed-up: use what earlier frames say about where the tags are and how big.
//!
//! [`queue`] holds the bounded, frame-dropping hand-over between the threads of a live
//! pipeline.

mod covered;
pub(crate) mod follow;
pub(crate) mod gray;
pub(crate) mod likeness;
pub mod missing;
mod mosaic;
pub mod moved;
mod paint;
pub mod queue;
pub mod roi;
pub mod schedule;
pub(crate) mod square;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use calibration::{PixelPoint, PixelVector, Pixels, TagSighting};
use opencv::core::{Mat, MatTraitConst};

use self::follow::{FollowSettings, follow};
use self::gray::{gray_view, one_block};
use self::missing::{MissingTagSearch, Picture, Strip};
use self::mosaic::Mosaic;
use self::paint::Paint;
use self::roi::Region;
use self::schedule::{Plan, Schedule, ScheduleSettings, SweepPart};
use crate::detect::{
    Detection, Detections, DetectorSettings, TagDetector, as_gray, sort_tags, to_apriltag_image,
};
use crate::error::VisionError;
use crate::pattern::TagTexture;

/// How the live detector runs.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveSettings {
    /// The detector of the full-resolution passes (regions and full frames).
    pub detector: DetectorSettings,
    /// Which passes run when.
    pub schedule: ScheduleSettings,
    /// Frames a missing tag is still searched for in its region (a hand over it) before it is
    /// forgotten and left to the full-frame passes.
    pub hold_frames: u32,
}

impl Default for LiveSettings {
    fn default() -> LiveSettings {
        LiveSettings {
            detector: DetectorSettings::default(),
            schedule: ScheduleSettings::default(),
            hold_frames: 90,
        }
    }
}

/// What a tag's last sightings say about the next frame.
#[derive(Clone, Copy, Debug)]
struct Known {
    corners: [PixelPoint; 4],
    /// Each corner's pixels a frame, smoothed (corners apart, so a turning stand is
    /// predicted turning).
    velocity: [PixelVector; 4],
    last_seen: u64,
}

impl Known {
    /// The fastest corner's speed.
    fn speed(&self) -> Pixels {
        Pixels(
            self.velocity
                .iter()
                .map(|v| v.length().0)
                .fold(0.0, f64::max),
        )
    }

    fn side(&self) -> Pixels {
        roi::side(&self.corners)
    }
}

/// What the last frame's passes were.
#[derive(Clone, Debug, PartialEq)]
pub struct PassReport {
    /// The passes planned.
    pub plan: Plan,
    /// Regions searched (after merging).
    pub regions: usize,
    /// Their pixels.
    pub region_pixels: usize,
    /// Known tags not found in their regions: lost this frame or still covered.
    pub missing: usize,
    /// Known tags followed from their predicted corners (the rest were searched for).
    pub followed: usize,
}

/// A tag detector that follows the tags from frame to frame (see the module's documentation).
/// Call [`LiveDetector::detect`] with consecutive frames of one camera.
pub struct LiveDetector {
    full: TagDetector,
    band: Option<TagDetector>,
    schedule: Schedule,
    hold_frames: u32,
    known: HashMap<u32, Known>,
    patterns: HashMap<u32, TagTexture>,
    frame: u64,
    /// The missing-tag search's strip in turn.
    missing_turn: usize,
    /// Whether the next tracking frame searches the whole table for missing tags.
    missing_whole: bool,
    report: Option<PassReport>,
    /// The roster's tags looked for where the detector misses them: too small, or partly
    /// covered.
    missing: Option<MissingTagSearch>,
}

impl LiveDetector {
    /// A live detector; fails on an unknown tag family.
    pub fn new(settings: LiveSettings) -> Result<LiveDetector, VisionError> {
        let band = (settings.schedule.bands > 0)
            .then(|| {
                TagDetector::new(DetectorSettings {
                    decimate: settings.schedule.band_decimate,
                    min_contrast: settings.schedule.band_min_contrast,
                    ..settings.detector.clone()
                })
            })
            .transpose()?;
        Ok(LiveDetector {
            full: TagDetector::new(settings.detector)?,
            band,
            schedule: Schedule::new(settings.schedule),
            hold_frames: settings.hold_frames,
            known: HashMap::new(),
            patterns: HashMap::new(),
            frame: 0,
            missing_turn: 0,
            missing_whole: false,
            report: None,
            missing: None,
        })
    }

    /// The settings of the full-resolution detector.
    pub fn settings(&self) -> &DetectorSettings {
        self.full.settings()
    }

    /// Which passes run when.
    pub fn schedule_settings(&self) -> ScheduleSettings {
        *self.schedule.settings()
    }

    /// What the last frame's passes were.
    pub fn last_pass(&self) -> Option<&PassReport> {
        self.report.as_ref()
    }

    /// Forget every tag (the camera moved, the source changed): the next frame is a full pass.
    pub fn clear(&mut self) {
        self.known.clear();
        self.schedule.restart();
    }

    /// Look for the roster's tags that no pass finds (too small for the detector, or partly
    /// covered by figures), one strip of the table a tracking frame (`None`: stop). Give a new search
    /// whenever the calibration or the roster changes.
    ///
    /// The first search after none covers the whole table at once, on the next tracking frame:
    /// that frame takes a tenth of a second longer (at 1080p), but every missing tag is there
    /// from the start instead of within a round of the strips.
    pub fn search_missing(&mut self, search: Option<MissingTagSearch>) {
        self.missing_whole = self.missing.is_none() && search.is_some();
        self.missing = search;
    }

    /// Run a whole-table search for missing tags, given since the last frame, on this frame at
    /// once (a still picture has no next frame to run it on), adding what it finds.
    pub fn search_pending(
        &mut self,
        image: &Mat,
        detections: &mut Detections,
    ) -> Result<(), VisionError> {
        if !self.missing_whole {
            return Ok(());
        }
        let gray = as_gray(image)?;
        let found = self.missing_pass(image, gray.as_ref(), &detections.tags)?;
        self.learn(&found);
        detections.tags.extend(found);
        sort_tags(&mut detections.tags);
        Ok(())
    }

    /// Find the tags of the next frame, a BGR or grey image.
    pub fn detect(&mut self, image: &Mat) -> Result<Detections, VisionError> {
        let started = Instant::now();
        crate::image_io::check_picture_size(crate::image_io::image_size(image))?;
        let gray = as_gray(image)?;
        let gray = gray.as_ref();
        let prepare_time = started.elapsed();
        let parts = sweep_parts(gray.cols().max(0) as usize * gray.rows().max(0) as usize);
        let plan = self.schedule.plan(self.known.len(), parts);
        let (mut tags, report) = match plan {
            Plan::Full(_) => (self.full_pass(gray)?, PassReport::empty(plan)),
            Plan::Tracking { band, sweep } => self.tracking_pass(image, gray, band, sweep, plan)?,
        };
        self.learn(&tags);
        if report.missing > 0 {
            self.schedule.report_missing();
        }
        self.report = Some(report);
        self.frame += 1;
        sort_tags(&mut tags);
        Ok(Detections {
            tags,
            prepare_time,
            detect_time: started.elapsed() - prepare_time,
        })
    }

    fn full_pass(&mut self, gray: &Mat) -> Result<Vec<Detection>, VisionError> {
        let buffer = to_apriltag_image(gray)?;
        Ok(self.full.detect_buffer(&buffer))
    }

    /// The known tags followed from their predicted corners; those that cannot be followed
    /// searched for in their regions at full resolution; and one band of the decimated pass.
    fn tracking_pass(
        &mut self,
        image: &Mat,
        gray: &Mat,
        band: Option<u32>,
        sweep: Option<SweepPart>,
        plan: Plan,
    ) -> Result<(Vec<Detection>, PassReport), VisionError> {
        let (width, height) = (gray.cols() as usize, gray.rows() as usize);
        let expected = self.expected(width, height);
        let (mut tags, lost) = self.follow_known(gray, &expected)?;
        let followed = tags.len();
        let regions = roi::merge(lost.iter().map(|e| e.region).collect());
        if let Some(mosaic) = Mosaic::build(gray, &regions)? {
            let found = self.full.detect_buffer(&mosaic.image);
            for (_, tag) in found.into_iter().filter_map(|t| mosaic.to_frame(t)) {
                keep_once(&mut tags, tag);
            }
        }
        let report = self.report(plan, &expected, &tags, followed, &regions);
        if let (Some(band), Some(detector)) = (band, self.band.as_mut()) {
            let bands = self.schedule.settings().bands;
            let found = band_pass(detector, gray, band, bands, BAND_OVERLAP, &tags)?;
            add_new(&mut tags, found);
        }
        if let Some(sweep) = sweep {
            let overlap = sweep_overlap(gray.rows().max(0) as usize);
            let found = band_pass(
                &mut self.full,
                gray,
                sweep.part,
                sweep.parts,
                overlap,
                &tags,
            )?;
            add_new(&mut tags, found);
        }
        // A frame that sweeps a part at full resolution has spent the missing-tag search's time.
        if sweep.is_none() {
            tags.extend(self.missing_pass(image, gray, &tags)?);
        }
        Ok((tags, report))
    }

    /// One strip of the missing-tag search, for the roster's tags not found by the other passes
    /// (`image` the frame, `gray` its grey).
    fn missing_pass(
        &mut self,
        image: &Mat,
        gray: &Mat,
        tags: &[Detection],
    ) -> Result<Vec<Detection>, VisionError> {
        let Some(search) = &self.missing else {
            return Ok(Vec::new());
        };
        let gray = one_block(gray)?;
        let view = gray_view(&gray)?;
        let paint = Paint::new(image);
        let picture = Picture {
            view: &view,
            paint: paint.as_ref(),
        };
        let seen: Vec<TagSighting> = tags.iter().map(|t| t.sighting).collect();
        let strip = if std::mem::take(&mut self.missing_whole) {
            Strip::WHOLE
        } else {
            // Every other frame, the strip where a small tag known a moment ago was lost: a
            // hand lifted off it finds it again within a frame or two, not a round of the table
            // later. Otherwise the next strip in turn, for tags never seen.
            let lost = self
                .frame
                .is_multiple_of(2)
                .then(|| lost_small_tag(&self.known, search, &seen, self.frame))
                .flatten();
            let index = match lost.and_then(|at| search.strip_at(at, SMALL_STRIPS)) {
                Some(index) => index,
                None => {
                    self.missing_turn = (self.missing_turn + 1) % SMALL_STRIPS;
                    self.missing_turn
                }
            };
            Strip {
                index,
                count: SMALL_STRIPS,
            }
        };
        // A tag of the detector's size lost a moment ago (a hand over it) is its region search's
        // to find again, not this search's.
        let regions_own: Vec<u32> = self
            .known
            .iter()
            .filter(|(_, k)| k.side().0 >= square::SMALL)
            .map(|(id, _)| *id)
            .collect();
        Ok(search
            .find(&gray, picture, &seen, &regions_own, strip)?
            .into_iter()
            .map(|sighting| Detection {
                sighting,
                // Confirmed by its likeness, not decoded: no bits were read.
                hamming: 0,
                decision_margin: 0.0,
            })
            .collect())
    }

    /// Follow each tag seen in the last frame from its predicted corners: the tags followed,
    /// and the expected tags left for the detector.
    fn follow_known<'e>(
        &mut self,
        gray: &Mat,
        expected: &'e [Expected],
    ) -> Result<(Vec<Detection>, Vec<&'e Expected>), VisionError> {
        let gray = one_block(gray)?;
        let view = gray_view(&gray)?;
        let max_wrong_cells = u32::from(self.full.settings().max_bit_errors);
        let mut tags = Vec::with_capacity(expected.len());
        let mut lost = Vec::new();
        for e in expected {
            let settings = FollowSettings {
                max_wrong_cells,
                through_cover: e.still,
            };
            let followed = if e.follow {
                self.pattern(e.id)
                    .and_then(|pattern| follow(&view, pattern, &e.corners, e.search, settings))
            } else {
                None
            };
            match followed {
                Some(f) => tags.push(Detection {
                    sighting: TagSighting {
                        id: e.id,
                        corners: f.corners,
                    },
                    hamming: u8::try_from(f.wrong_cells).unwrap_or(u8::MAX),
                    decision_margin: f.margin,
                }),
                None => lost.push(e),
            }
        }
        Ok((tags, lost))
    }

    /// The printed pattern of tag `id`, made once; `None` for an id outside the family.
    fn pattern(&mut self, id: u32) -> Option<&TagTexture> {
        let family = &self.full.settings().family;
        match self.patterns.entry(id) {
            std::collections::hash_map::Entry::Occupied(known) => Some(known.into_mut()),
            std::collections::hash_map::Entry::Vacant(slot) => {
                Some(slot.insert(TagTexture::new(family, id).ok()?))
            }
        }
    }

    /// What this tracking frame did, and whether it lost so many tags that a full pass is due.
    fn report(
        &self,
        plan: Plan,
        expected: &[Expected],
        tags: &[Detection],
        followed: usize,
        regions: &[Region],
    ) -> PassReport {
        let found = |id: u32| tags.iter().any(|t| t.sighting.id == id);
        let recent = expected.iter().filter(|e| e.recent).count();
        let missing = expected.iter().filter(|e| e.recent && !found(e.id)).count();
        // A tag still covered may be put down elsewhere at any moment, where only a sweep
        // finds a small one: it keeps asking for sweeps until it is forgotten.
        let lost = expected.iter().filter(|e| !found(e.id)).count();
        let share = self.schedule.settings().found_share;
        PassReport {
            plan,
            regions: regions.len(),
            region_pixels: regions.iter().map(Region::area).sum(),
            followed,
            // A scene that changed a lot counts as missing even when each loss is old news.
            missing: if ((recent - missing) as f64) < share * recent as f64 {
                lost.max(1)
            } else {
                lost
            },
        }
    }

    /// Where each known tag should be in this frame, by id: the tags come out of the frame in
    /// the same order on every run (a map's order changes from one run to the next, and what
    /// takes the first few of a frame's tags, such as the lens learning's offer, with it).
    fn expected(&self, width: usize, height: usize) -> Vec<Expected> {
        let mut expected: Vec<Expected> = self
            .known
            .iter()
            .filter_map(|(id, k)| {
                let missed = (self.frame - k.last_seen).saturating_sub(1);
                let ahead = (self.frame - k.last_seen).min(10) as f64;
                let corners = roi::predict(&k.corners, &k.velocity, ahead);
                let speed = k.speed();
                let margin = roi::margin(k.side(), speed, missed as u32);
                let region = Region::around(&corners, margin, width, height)?;
                Some(Expected {
                    id: *id,
                    corners,
                    search: roi::follow_search(k.side(), speed),
                    region,
                    recent: missed == 0,
                    // A tag too small for the detector is followed until it is forgotten: its
                    // region search could not find it.
                    follow: missed == 0 || k.side().0 < square::SMALL,
                    still: speed.0 < STILL_SPEED,
                })
            })
            .collect();
        expected.sort_by_key(|e| e.id);
        expected
    }

    /// Update what is known from the tags of this frame; forget tags missing too long.
    fn learn(&mut self, tags: &[Detection]) {
        let frame = self.frame;
        for tag in tags {
            let corners = tag.sighting.corners;
            let entry = self.known.entry(tag.sighting.id).or_insert(Known {
                corners,
                velocity: [PixelVector::default(); 4],
                last_seen: frame,
            });
            let gap = (frame - entry.last_seen).max(1) as f64;
            for (v, (was, now)) in entry
                .velocity
                .iter_mut()
                .zip(entry.corners.iter().zip(&corners))
            {
                *v = (*v + (*now - *was) * (1.0 / gap)) * 0.5;
            }
            entry.corners = corners;
            entry.last_seen = frame;
        }
        let hold = u64::from(self.hold_frames);
        self.known.retain(|_, k| frame - k.last_seen <= hold);
    }
}

/// The fastest a tag's corners may move, pixels a frame, and it be taken to lie still.
const STILL_SPEED: f64 = 0.5;

/// Strips of the table the missing-tag search takes turns over, one a tracking frame.
const SMALL_STRIPS: usize = 12;

/// Where one of the known tags the search looks for and did not see this frame was last seen,
/// taking them in turn frame by frame; `None` when none is missing.
fn lost_small_tag(
    known: &HashMap<u32, Known>,
    search: &MissingTagSearch,
    seen: &[TagSighting],
    frame: u64,
) -> Option<PixelPoint> {
    // A lost tag of the detector's size is its region search's to find again.
    let mut lost: Vec<(u32, PixelPoint)> = known
        .iter()
        .filter(|(_, k)| k.side().0 < square::SMALL)
        .filter(|(id, _)| search.wants(**id) && seen.iter().all(|s| s.id != **id))
        .map(|(id, k)| (*id, PixelPoint::mean(&k.corners)))
        .collect();
    lost.sort_by_key(|(id, _)| *id);
    let pick = (frame / 2) as usize % lost.len().max(1);
    lost.get(pick).map(|(_, at)| *at)
}

/// A known tag in the coming frame.
#[derive(Clone, Copy, Debug)]
struct Expected {
    id: u32,
    /// Its predicted corners.
    corners: [PixelPoint; 4],
    /// How far from the predicted edges following looks.
    search: Pixels,
    /// Where the detector looks if following fails.
    region: Region,
    /// Whether it was seen in the last frame (only those count towards a scene changed a lot).
    recent: bool,
    /// Whether to follow it from its predicted corners before searching its region.
    follow: bool,
    /// Whether it lay still when last seen.
    still: bool,
}

impl PassReport {
    fn empty(plan: Plan) -> PassReport {
        PassReport {
            plan,
            regions: 0,
            region_pixels: 0,
            missing: 0,
            followed: 0,
        }
    }
}

/// Add a sighting unless the same tag was already seen at the same place: regions may overlap
/// (see [`roi::merge`]), and a tag inside two of them is found twice. Two sightings of one id
/// in different places stay both: that is a duplicate tag on the table, which must be reported.
fn keep_once(tags: &mut Vec<Detection>, tag: Detection) {
    let center = PixelPoint::mean(&tag.sighting.corners);
    let same = tags.iter_mut().find(|t| {
        t.sighting.id == tag.sighting.id
            && PixelPoint::mean(&t.sighting.corners).distance(&center).0 < 2.0
    });
    match same {
        Some(seen) if seen.decision_margin < tag.decision_margin => *seen = tag,
        Some(_) => {}
        None => tags.push(tag),
    }
}

/// Add the tags of a pass whose ids were not found yet.
fn add_new(tags: &mut Vec<Detection>, found: Vec<Detection>) {
    for tag in found {
        if !tags.iter().any(|t| t.sighting.id == tag.sighting.id) {
            tags.push(tag);
        }
    }
}

/// Rows overlapping between bands: a tag on a border shows whole in one of them.
const BAND_OVERLAP: usize = 64;

/// Pixels of the frame a part of a full-resolution sweep takes, about (with its overlap, some
/// 10 ms of a busy 1080p frame's 50–100 ms full pass on two cores).
const SWEEP_PIXELS: usize = 260_000;

/// In how many parts a frame of this many pixels is swept (8 at 1080p, 32 at 4K).
fn sweep_parts(pixels: usize) -> u32 {
    pixels.div_ceil(SWEEP_PIXELS).clamp(1, 32) as u32
}

/// Rows overlapping between a sweep's parts: the tallest tag of the frame, the near anchors.
fn sweep_overlap(height: usize) -> usize {
    (height / 10).max(BAND_OVERLAP)
}

/// The tags of one horizontal band of the frame (`band` of `bands`, overlapping its
/// neighbours by `overlap` rows), by this detector — decimated for the band pass, at full
/// resolution for a sweep's part — the tags already found painted over.
fn band_pass(
    detector: &mut TagDetector,
    gray: &Mat,
    band: u32,
    bands: u32,
    overlap: usize,
    found: &[Detection],
) -> Result<Vec<Detection>, VisionError> {
    let (width, height) = (gray.cols() as usize, gray.rows() as usize);
    let step = height.div_ceil(bands.max(1) as usize);
    let top = (band as usize * step).saturating_sub(overlap / 2) / roi::ALIGN * roi::ALIGN;
    let bottom = ((band as usize + 1) * step + overlap / 2).min(height);
    if bottom <= top {
        return Ok(Vec::new());
    }
    let region = Region {
        left: 0,
        top,
        width,
        height: bottom - top,
    };
    let Some(mut mosaic) = Mosaic::build(gray, &[region])? else {
        return Ok(Vec::new());
    };
    let known: Vec<[PixelPoint; 4]> = found.iter().map(|t| t.sighting.corners).collect();
    mosaic.blank(&known);
    let new = detector.detect_buffer(&mosaic.image);
    Ok(new
        .into_iter()
        .filter_map(|t| mosaic.to_frame(t))
        .map(|(_, t)| t)
        .collect())
}

/// How long the live detector's frames took, for reports.
pub fn frame_time(detections: &Detections) -> Duration {
    detections.prepare_time + detections.detect_time
}

/// Find tag `id` of `family` again near its `predicted` corners in a frame, as the live
/// detector does from one frame to the next (see [`follow`]): where it is, or `None` when it
/// is not there (covered, gone, or not this tag).
pub fn follow_tag(
    frame: &Mat,
    family: &str,
    id: u32,
    predicted: &[PixelPoint; 4],
) -> Result<Option<TagSighting>, VisionError> {
    let gray = as_gray(frame)?;
    let gray = one_block(&gray)?;
    let view = gray_view(&gray)?;
    let pattern = TagTexture::new(family, id)?;
    let search = roi::follow_search(roi::side(predicted), Pixels(0.0));
    let settings = FollowSettings {
        max_wrong_cells: u32::from(DetectorSettings::default().max_bit_errors),
        through_cover: false,
    };
    Ok(
        follow(&view, &pattern, predicted, search, settings).map(|f| TagSighting {
            id,
            corners: f.corners,
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sighting(id: u32, x: f64, margin: f32) -> Detection {
        let at = |dx: f64, dy: f64| PixelPoint::new(x + dx, 100.0 + dy);
        Detection {
            sighting: TagSighting {
                id,
                corners: [at(0.0, 0.0), at(20.0, 0.0), at(20.0, 20.0), at(0.0, 20.0)],
            },
            hamming: 0,
            decision_margin: margin,
        }
    }

    #[test]
    fn a_tag_found_in_two_overlapping_regions_is_kept_once_with_its_clearer_sighting() {
        let mut tags = Vec::new();
        keep_once(&mut tags, sighting(7, 50.0, 40.0));
        keep_once(&mut tags, sighting(7, 50.3, 70.0));
        assert_eq!(tags.len(), 1);
        assert_eq!(tags[0].decision_margin, 70.0);
    }

    #[test]
    fn one_id_in_two_places_stays_twice_for_the_duplicate_to_be_reported() {
        let mut tags = Vec::new();
        keep_once(&mut tags, sighting(7, 50.0, 40.0));
        keep_once(&mut tags, sighting(7, 400.0, 40.0));
        keep_once(&mut tags, sighting(8, 50.0, 40.0));
        assert_eq!(tags.len(), 3);
    }
}
