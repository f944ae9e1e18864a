//! Finding AprilTags in an image, with the AprilTag C library.
//!
//! Why the C library and not OpenCV's ArUco: on small, oblique tags (the only kind a table
//! camera sees) it finds nearly all tags of 16 px and more with ~0.2 px corners, where OpenCV
//! 4.6's ArUco path found under a third at ~1 px (notes/stack.md). OpenCV still does the image
//! work around it (decoding, colour conversion).

use std::time::{Duration, Instant};

use apriltag::{Detector, DetectorBuilder, Family, Image};
use calibration::{PixelPoint, TagSighting};
use opencv::core::{Mat, MatTraitConst, MatTraitConstManual};
use opencv::imgproc;
use serde::{Deserialize, Serialize};

use crate::error::VisionError;
use crate::image_io::{check_picture_size, image_size};

/// How the detector runs. The defaults favour accuracy: full resolution (`decimate = 1`) is
/// what finds 1" tags at the far edge of a 1080p table, and edge refinement (snapping each side
/// to the image gradient) brings synthetic corners from 0.20 to 0.11 px RMS.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DetectorSettings {
    /// Tag family, e.g. `tag36h11`.
    pub family: String,
    /// Find quads on an image this many times smaller (faster, fewer small tags).
    pub decimate: f32,
    /// Gaussian blur before finding quads, pixels (0 = none; 0.8 helps very noisy images).
    pub sigma: f32,
    /// Worker threads.
    pub threads: u8,
    /// Snap quad edges to strong gradients (used when decimating).
    pub refine_edges: bool,
    /// Bit errors corrected when decoding (0–2; more finds damaged tags, risks false ones).
    pub max_bit_errors: u8,
    /// Detections with a weaker decision margin than this are dropped as doubtful.
    pub min_decision_margin: f32,
    /// Tiles whose darkest and lightest grey levels differ by less than this are not looked at
    /// for edges. The library's 5 lets a detector find tags in the dimmest light, but also
    /// makes it trace every fibre of a flocked mat; a printed tag under any usable light
    /// differs by far more.
    pub min_contrast: u8,
}

impl Default for DetectorSettings {
    fn default() -> DetectorSettings {
        DetectorSettings {
            family: "tag36h11".into(),
            decimate: 1.0,
            sigma: 0.0,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get().min(8) as u8),
            refine_edges: true,
            max_bit_errors: 2,
            min_decision_margin: 0.0,
            min_contrast: LIBRARY_MIN_CONTRAST,
        }
    }
}

impl DetectorSettings {
    /// The bit errors corrected: `max_bit_errors`, but no more than the family's codes leave
    /// room for ([`FamilyLimits`]).
    pub fn bit_errors(&self) -> u8 {
        self.max_bit_errors
            .min(FamilyLimits::of(&self.family).bit_errors)
    }

    /// The weakest decision margin kept: `min_decision_margin`, but no weaker than the family's
    /// floor ([`FamilyLimits`]).
    pub fn decision_margin(&self) -> f32 {
        self.min_decision_margin
            .max(FamilyLimits::of(&self.family).decision_margin)
    }
}

/// What a family's codes allow on a busy table, whatever the settings ask.
///
/// - Bit errors: correcting e errors accepts any pattern within e bits of a code, and a
///   family's codes are only so far apart (11 bits for tag36h11, 9 for tag25h9, 5 for
///   tag16h5). On a busy table `vedette bench live --family tag16h5` read 7 false tags a frame
///   at 2 bits corrected, tag25h9 one in 30 frames (see docs/guide/setting-up.md, "Printing tags").
/// - Decision margin: for the small families, at least half the weakest a real tag showed in
///   `vedette bench live` (tag16h5's at 14 px: 85; tag25h9's: 58), where the false reads of
///   tag16h5 came at 1–3. Print is worse: `vedette bench print` (sheets of text on the table)
///   read one tag16h5 tag off a word at margin 32 in 84 pictures, where the weakest true tag
///   showed 44; tag16h5's floor sits between them, at 38.
struct FamilyLimits {
    bit_errors: u8,
    decision_margin: f32,
}

impl FamilyLimits {
    fn of(family: &str) -> FamilyLimits {
        let (bit_errors, decision_margin) = match family {
            "tag16h5" => (0, 38.0),
            "tag25h9" => (1, 20.0),
            _ => (2, 0.0),
        };
        FamilyLimits {
            bit_errors,
            decision_margin,
        }
    }
}

/// The AprilTag library's own floor on a quad's edge cluster.
const LIBRARY_MIN_CLUSTER_PIXELS: u32 = 5;
/// The AprilTag library's own floor on a tile's black–white difference.
const LIBRARY_MIN_CONTRAST: u8 = 5;

impl std::fmt::Display for DetectorSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}, decimate {}, sigma {}, {} thread(s), refine edges {}, ≤{} bit errors, margin ≥{}, contrast ≥{}",
            self.family,
            self.decimate,
            self.sigma,
            self.threads,
            self.refine_edges,
            self.bit_errors(),
            self.decision_margin(),
            self.min_contrast
        )
    }
}

/// One tag found in an image.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Detection {
    /// Its id and corners.
    #[serde(flatten)]
    pub sighting: TagSighting,
    /// Bits corrected to decode it.
    pub hamming: u8,
    /// How clearly it decoded (higher is better).
    pub decision_margin: f32,
}

/// The tags of one image and how long finding them took.
#[derive(Clone, Debug, PartialEq)]
pub struct Detections {
    /// The tags, sorted by id.
    pub tags: Vec<Detection>,
    /// Colour conversion and copy into the detector.
    pub prepare_time: Duration,
    /// The detector itself.
    pub detect_time: Duration,
}

impl Detections {
    /// The sightings alone.
    pub fn sightings(&self) -> Vec<TagSighting> {
        self.tags.iter().map(|d| d.sighting).collect()
    }
}

/// An AprilTag detector, configured once and used frame after frame.
pub struct TagDetector {
    detector: Detector,
    settings: DetectorSettings,
}

impl TagDetector {
    /// A detector with these settings; fails on an unknown family.
    pub fn new(settings: DetectorSettings) -> Result<TagDetector, VisionError> {
        let family: Family = settings
            .family
            .parse()
            .map_err(|_| VisionError::UnknownFamily(settings.family.clone()))?;
        let mut detector = DetectorBuilder::new()
            .add_family_bits(family, usize::from(settings.bit_errors()))
            .build()
            .map_err(|e| VisionError::Detector(e.to_string()))?;
        detector.set_decimation(settings.decimate.max(1.0));
        detector.set_sigma(settings.sigma.max(0.0));
        detector.set_thread_number(settings.threads.max(1));
        detector.set_refine_edges(settings.refine_edges);
        if settings.min_contrast != LIBRARY_MIN_CONTRAST {
            detector.set_thresholds(quad_thresholds(settings.min_contrast));
        }
        Ok(TagDetector { detector, settings })
    }

    /// The settings in use.
    pub fn settings(&self) -> &DetectorSettings {
        &self.settings
    }

    /// Find the tags in a BGR or grey image.
    pub fn detect(&mut self, image: &Mat) -> Result<Detections, VisionError> {
        let started = Instant::now();
        check_picture_size(image_size(image))?;
        let gray = as_gray(image)?;
        let buffer = to_apriltag_image(&gray)?;
        let prepared = Instant::now();
        let mut tags = self.detect_buffer(&buffer);
        sort_tags(&mut tags);
        Ok(Detections {
            tags,
            prepare_time: prepared - started,
            detect_time: prepared.elapsed(),
        })
    }
}

impl TagDetector {
    /// Every tag the library decodes in a BGR or grey image, however weak its decision margin
    /// (the bit errors are still the settings'): for measuring where a family's floor belongs
    /// (`vedette bench print`), never for finding tags.
    pub fn detect_unscreened(&mut self, image: &Mat) -> Result<Vec<Detection>, VisionError> {
        check_picture_size(image_size(image))?;
        let gray = as_gray(image)?;
        let buffer = to_apriltag_image(&gray)?;
        let mut tags = self.decode(&buffer, f32::NEG_INFINITY);
        sort_tags(&mut tags);
        Ok(tags)
    }

    /// The tags of an image already in the detector's form, corners in OpenCV's convention
    /// (in the buffer's own coordinates), in the detector's order.
    pub(crate) fn detect_buffer(&mut self, buffer: &Image) -> Vec<Detection> {
        let margin = self.settings.decision_margin();
        self.decode(buffer, margin)
    }

    /// The tags decoded with at least `margin`.
    fn decode(&mut self, buffer: &Image, margin: f32) -> Vec<Detection> {
        self.detector
            .detect(buffer)
            .iter()
            .filter(|d| d.decision_margin() >= margin)
            .filter_map(|d| {
                Some(Detection {
                    sighting: TagSighting {
                        id: u32::try_from(d.id()).ok()?,
                        corners: d.corners().map(from_apriltag),
                    },
                    hamming: u8::try_from(d.hamming()).unwrap_or(u8::MAX),
                    decision_margin: d.decision_margin(),
                })
            })
            .collect()
    }
}

/// The library's own quad thresholds, but for the floor on a tile's black–white difference.
///
/// The `apriltag` crate writes `min_opposite_angle` into the C field `cos_critical_rad` as
/// radians, not as a cosine; so the cosine the library wants (cos 10°, its default) is passed
/// as that "angle" for the C struct to receive the right number.
fn quad_thresholds(min_contrast: u8) -> apriltag::detector::QuadThresholds {
    use measurements::Angle;
    let critical = 10f64.to_radians();
    apriltag::detector::QuadThresholds {
        min_cluster_pixels: LIBRARY_MIN_CLUSTER_PIXELS,
        max_maxima_number: 10,
        min_angle: Angle::from_radians(critical),
        min_opposite_angle: Angle::from_radians(critical.cos()),
        max_mse: noisy_float::prelude::r32(10.0),
        min_white_black_diff: min_contrast,
        deglitch: false,
    }
}

/// Sort tags by id, then left to right (the order [`Detections::tags`] promises).
pub(crate) fn sort_tags(tags: &mut [Detection]) {
    tags.sort_by(|a, b| {
        a.sighting
            .id
            .cmp(&b.sighting.id)
            .then(a.sighting.corners[0].x.total_cmp(&b.sighting.corners[0].x))
    });
}

/// The AprilTag library puts the centre of the top-left pixel at (0.5, 0.5); OpenCV, and
/// Vedette, at (0, 0).
fn from_apriltag([x, y]: [f64; 2]) -> PixelPoint {
    PixelPoint::new(x - 0.5, y - 0.5)
}

/// A frame as grey pixels: a grey frame as it is (no copy), colour converted.
pub(crate) fn as_gray(image: &Mat) -> Result<std::borrow::Cow<'_, Mat>, VisionError> {
    if image.channels() == 1 {
        Ok(std::borrow::Cow::Borrowed(image))
    } else {
        to_gray(image).map(std::borrow::Cow::Owned)
    }
}

/// An 8-bit grey copy of a BGR, BGRA or grey image.
pub fn to_gray(image: &Mat) -> Result<Mat, VisionError> {
    let code = match image.channels() {
        1 => return Ok(image.clone()),
        3 => imgproc::COLOR_BGR2GRAY,
        4 => imgproc::COLOR_BGRA2GRAY,
        n => {
            return Err(VisionError::Image(format!(
                "{n}-channel images are not supported"
            )));
        }
    };
    let mut gray = Mat::default();
    imgproc::cvt_color_def(image, &mut gray, code)?;
    Ok(gray)
}

pub(crate) fn to_apriltag_image(gray: &Mat) -> Result<Image, VisionError> {
    let (width, height) = (gray.cols() as usize, gray.rows() as usize);
    if width == 0 || height == 0 {
        return Err(VisionError::Image("the image is empty".into()));
    }
    let mut image = Image::zeros_with_alignment(width, height, 96)
        .map_err(|e| VisionError::Detector(e.to_string()))?;
    let stride = image.stride();
    let target = image.as_slice_mut();
    // Row by row: one copy of the pixels, whether or not the Mat is continuous (a Mat's
    // `clone` is a deep copy, which this avoids on every frame).
    for row in 0..height {
        let source = gray.at_row::<u8>(row as i32)?;
        target[row * stride..row * stride + width].copy_from_slice(&source[..width]);
    }
    Ok(image)
}
