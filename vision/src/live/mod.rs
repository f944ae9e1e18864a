//! Live detection: every tag, every frame, faster than a full-frame pass.
//!
//! A full-resolution AprilTag pass over a 1080p frame takes ~100 ms on a 2-core machine, and
//! decimating it loses the small tags at the far edge of the table. But from one frame to the
//! next a tag moves a few pixels: [`LiveDetector`] searches, at full resolution, only small
//! regions around where the known tags are predicted to be ([`roi`]), packed into one image so
//! the detector's threads share them ([`mosaic`]). New tags are found by a decimated full-frame
//! pass spread over frames in bands, and by a full-resolution full-frame pass that runs
//! regularly and when tags go missing ([`schedule`]). This is the idea behind ArUco 3's
//! speed-up: use what earlier frames say about where the tags are and how big.
//!
//! [`queue`] holds the bounded, frame-dropping hand-over between the threads of a live
//! pipeline.

mod mosaic;
pub mod moved;
pub mod queue;
pub mod roi;
pub mod schedule;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use calibration::{PixelPoint, Pixels};
use opencv::core::{Mat, MatTraitConst};

use self::mosaic::Mosaic;
use self::roi::Region;
use self::schedule::{Plan, Schedule, ScheduleSettings};
use crate::detect::{
    Detection, Detections, DetectorSettings, TagDetector, as_gray, sort_tags, to_apriltag_image,
};
use crate::error::VisionError;

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
    /// Pixels a frame, smoothed.
    velocity: [f64; 2],
    last_seen: u64,
}

impl Known {
    fn side(&self) -> Pixels {
        let c = &self.corners;
        Pixels(
            (0..4)
                .map(|k| c[k].distance(&c[(k + 1) % 4]).0)
                .sum::<f64>()
                / 4.0,
        )
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
    /// Known tags not found in their regions.
    pub missing: usize,
}

/// A tag detector that follows the tags from frame to frame (see the module's documentation).
/// Call [`LiveDetector::detect`] with consecutive frames of one camera.
pub struct LiveDetector {
    full: TagDetector,
    band: Option<TagDetector>,
    schedule: Schedule,
    hold_frames: u32,
    known: HashMap<u32, Known>,
    frame: u64,
    report: Option<PassReport>,
}

impl LiveDetector {
    /// A live detector; fails on an unknown tag family.
    pub fn new(settings: LiveSettings) -> Result<LiveDetector, VisionError> {
        let band = (settings.schedule.bands > 0)
            .then(|| {
                TagDetector::new(DetectorSettings {
                    decimate: settings.schedule.band_decimate,
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
            frame: 0,
            report: None,
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

    /// Find the tags of the next frame, a BGR or grey image.
    pub fn detect(&mut self, image: &Mat) -> Result<Detections, VisionError> {
        let started = Instant::now();
        let gray = as_gray(image)?;
        let gray = gray.as_ref();
        let (width, height) = (gray.cols() as usize, gray.rows() as usize);
        if width == 0 || height == 0 {
            return Err(VisionError::Image("the image is empty".into()));
        }
        let prepare_time = started.elapsed();
        let plan = self.schedule.plan(self.known.len());
        let (mut tags, report) = match plan {
            Plan::Full(_) => (self.full_pass(gray)?, PassReport::empty(plan)),
            Plan::Tracking { band } => self.tracking_pass(gray, band, plan)?,
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

    /// The known tags' regions at full resolution, and one band of the decimated pass.
    fn tracking_pass(
        &mut self,
        gray: &Mat,
        band: Option<u32>,
        plan: Plan,
    ) -> Result<(Vec<Detection>, PassReport), VisionError> {
        let (width, height) = (gray.cols() as usize, gray.rows() as usize);
        let expected = self.expected(width, height);
        let regions = roi::merge(expected.iter().map(|(_, r, _)| *r).collect());
        let mut tags = Vec::new();
        if let Some(mosaic) = Mosaic::build(gray, &regions)? {
            let found = self.full.detect_buffer(&mosaic.image);
            tags.extend(
                found
                    .into_iter()
                    .filter_map(|t| mosaic.to_frame(t))
                    .map(|(_, t)| t),
            );
        }
        let missing = expected
            .iter()
            .filter(|(id, _, recent)| *recent && !tags.iter().any(|t| t.sighting.id == *id))
            .count();
        let recent = expected.iter().filter(|(_, _, recent)| *recent).count();
        let share = self.schedule.settings().found_share;
        let report = PassReport {
            plan,
            regions: regions.len(),
            region_pixels: regions.iter().map(Region::area).sum(),
            // A scene that changed a lot counts as missing even when each loss is old news.
            missing: if ((recent - missing) as f64) < share * recent as f64 {
                missing.max(1)
            } else {
                missing
            },
        };
        if let (Some(band), Some(detector)) = (band, self.band.as_mut()) {
            let bands = self.schedule.settings().bands;
            for tag in band_pass(detector, gray, band, bands)? {
                if !tags.iter().any(|t| t.sighting.id == tag.sighting.id) {
                    tags.push(tag);
                }
            }
        }
        Ok((tags, report))
    }

    /// Each known tag's region in this frame, and whether it was seen in the previous frame
    /// (only those count as newly missing).
    fn expected(&self, width: usize, height: usize) -> Vec<(u32, Region, bool)> {
        self.known
            .iter()
            .filter_map(|(id, k)| {
                let missed = (self.frame - k.last_seen).saturating_sub(1);
                let ahead = (self.frame - k.last_seen).min(10) as f64;
                let corners = roi::predict(&k.corners, k.velocity, ahead);
                let speed = Pixels(k.velocity[0].hypot(k.velocity[1]));
                let margin = roi::margin(k.side(), speed, missed as u32);
                let region = Region::around(&corners, margin, width, height)?;
                Some((*id, region, missed == 0))
            })
            .collect()
    }

    /// Update what is known from the tags of this frame; forget tags missing too long.
    fn learn(&mut self, tags: &[Detection]) {
        let frame = self.frame;
        for tag in tags {
            let corners = tag.sighting.corners;
            let entry = self.known.entry(tag.sighting.id).or_insert(Known {
                corners,
                velocity: [0.0; 2],
                last_seen: frame,
            });
            let gap = (frame - entry.last_seen).max(1) as f64;
            let (was, now) = (PixelPoint::mean(&entry.corners), PixelPoint::mean(&corners));
            let step = [(now.x - was.x) / gap, (now.y - was.y) / gap];
            entry.velocity = [
                0.5 * entry.velocity[0] + 0.5 * step[0],
                0.5 * entry.velocity[1] + 0.5 * step[1],
            ];
            entry.corners = corners;
            entry.last_seen = frame;
        }
        let hold = u64::from(self.hold_frames);
        self.known.retain(|_, k| frame - k.last_seen <= hold);
    }
}

impl PassReport {
    fn empty(plan: Plan) -> PassReport {
        PassReport {
            plan,
            regions: 0,
            region_pixels: 0,
            missing: 0,
        }
    }
}

/// Rows overlapping between bands: a tag on a border shows whole in one of them.
const BAND_OVERLAP: usize = 64;

/// The tags of one horizontal band of the frame, by the decimated detector.
fn band_pass(
    detector: &mut TagDetector,
    gray: &Mat,
    band: u32,
    bands: u32,
) -> Result<Vec<Detection>, VisionError> {
    let (width, height) = (gray.cols() as usize, gray.rows() as usize);
    let step = height.div_ceil(bands.max(1) as usize);
    let top = (band as usize * step).saturating_sub(BAND_OVERLAP / 2) / roi::ALIGN * roi::ALIGN;
    let bottom = ((band as usize + 1) * step + BAND_OVERLAP / 2).min(height);
    if bottom <= top {
        return Ok(Vec::new());
    }
    let region = Region {
        left: 0,
        top,
        width,
        height: bottom - top,
    };
    let Some(mosaic) = Mosaic::build(gray, &[region])? else {
        return Ok(Vec::new());
    };
    let found = detector.detect_buffer(&mosaic.image);
    Ok(found
        .into_iter()
        .filter_map(|t| mosaic.to_frame(t))
        .map(|(_, t)| t)
        .collect())
}

/// How long the live detector's frames took, for reports.
pub fn frame_time(detections: &Detections) -> Duration {
    detections.prepare_time + detections.detect_time
}
