//! Calibrating from refined corners twice: once with the lens unknown, once through the lens
//! the first calibration fitted.
//!
//! Before the lens is known the refiner follows its bend over a tag with two bows, which is
//! right over a small tag and wrong near a wide lens's rim, where a large anchor's edges bend
//! by 2 px and the bows leave its corners 0.2 px out (see [`super::warp`]). Those anchors fix
//! the table and never move, so their error does not average away. The first calibration's
//! lens is good enough to draw the pattern through: refined again through it, those corners
//! come within a tenth of a pixel, and the second calibration is made from them.

use std::collections::HashMap;

use calibration::{
    AnchorLayout, Board, CalibrationError, ImageSize, Intrinsics, PixelPoint, StandTagSpec,
    TableCalibration, TagSighting, calibrate_from_tags,
};
use opencv::core::Mat;
use rules::ground::Ground;

use super::{CornerRefiner, RefineSettings};
use crate::error::VisionError;

/// What a table is calibrated from: the anchors, the roster's stand tags, the board (in any
/// picture that shows it) and the lens of an earlier calibration (kept unless these pictures
/// measure a better one).
#[derive(Clone, Copy)]
pub struct TableTags<'a> {
    /// The anchors, where the table's file says.
    pub anchors: &'a AnchorLayout,
    /// The roster's stand tags, by id (none of them an anchor's).
    pub stands: &'a HashMap<u32, StandTagSpec>,
    /// The calibration board, when a picture shows it.
    pub board: Option<&'a Board>,
    /// The earlier calibration whose lens is kept unless a better one is measured.
    pub previous: Option<&'a TableCalibration>,
    /// The ground under the stands, when the terrain gives hills their rise: a stand on a hill
    /// enters the fit at its true height, not its roster's (which would bend the lens).
    pub ground: Option<&'a Ground>,
}

/// Calibrate the table and measure the lens from every tag of known size in pictures of one
/// camera mode, as `vedette calibrate` does and the app does with a still picture: the
/// corners refined against their printed patterns, and again through the lens first fitted.
/// A family without patterns to refine against is calibrated from the detector's corners.
pub fn calibrate_pictures(
    tags: TableTags,
    pictures: &[TablePicture],
    size: ImageSize,
) -> Result<RefinedCalibration<CalibrationError>, VisionError> {
    let lifted = tags
        .ground
        .filter(|ground| !ground.is_flat())
        .map(|ground| on_the_ground(tags, ground, pictures, size));
    let stands = lifted.as_ref().unwrap_or(tags.stands);
    let calibrate = |sightings: &[Vec<TagSighting>]| {
        calibrate_from_tags(
            tags.anchors,
            sightings,
            stands,
            tags.board,
            size,
            tags.previous,
        )
    };
    match CornerRefiner::new(&tags.anchors.family, RefineSettings::default()) {
        Ok(mut refiner) => calibrate_through_lens(&mut refiner, pictures, calibrate),
        Err(e) => {
            tracing::info!("corners not refined ({e}): calibrating from the detector's");
            let detected: Vec<Vec<TagSighting>> =
                pictures.iter().map(|p| p.detected.to_vec()).collect();
            Ok(RefinedCalibration {
                calibration: calibrate(&detected),
                sightings: detected,
                through_lens: false,
            })
        }
    }
}

/// The stand tags at their true heights: each placed on the ground through the anchors' own
/// calibration of the first picture they calibrate, and raised by the ground's height there.
/// Tags not seen, or with no anchors' calibration to place them, keep their roster's height.
fn on_the_ground(
    tags: TableTags,
    ground: &Ground,
    pictures: &[TablePicture],
    size: ImageSize,
) -> HashMap<u32, StandTagSpec> {
    let mut stands = tags.stands.clone();
    let first = pictures.iter().find_map(|picture| {
        calibration::calibrate(tags.anchors, picture.detected, size, &Default::default())
            .ok()
            .map(|c| (c, picture.detected))
    });
    let Some((anchors_only, detected)) = first else {
        return stands;
    };
    for sighting in detected {
        if let Some(spec) = stands.get_mut(&sighting.id)
            && let Some(pose) = crate::tag_pose_on(&anchors_only, sighting, spec.height, ground)
        {
            spec.height = spec.height + ground.height_at(&pose.center);
        }
    }
    stands
}

/// One picture of the table: the picture, and its tags as the detector found them.
#[derive(Clone, Copy)]
pub struct TablePicture<'a> {
    /// The picture.
    pub image: &'a Mat,
    /// Its tags, as the detector found them.
    pub detected: &'a [TagSighting],
}

/// What calibrating through the fitted lens gave.
pub struct RefinedCalibration<E> {
    /// The calibration, or the calibrating function's error when even the first failed.
    pub calibration: Result<TableCalibration, E>,
    /// The sightings it was made from, per picture, their corners refined.
    pub sightings: Vec<Vec<TagSighting>>,
    /// Whether the second calibration, through the first's lens, was made and kept.
    pub through_lens: bool,
}

/// Refine every picture's corners and `calibrate` from them; when that fits a lens that bends
/// some tag noticeably, refine those tags again through it and calibrate again. The second
/// calibration is kept when it succeeds; when it fails, the first stands.
pub fn calibrate_through_lens<E>(
    refiner: &mut CornerRefiner,
    pictures: &[TablePicture],
    calibrate: impl Fn(&[Vec<TagSighting>]) -> Result<TableCalibration, E>,
) -> Result<RefinedCalibration<E>, VisionError> {
    let sightings = refine_all(refiner, pictures)?;
    let first = calibrate(&sightings);
    let again = match &first {
        Ok(calibration) => {
            let lens = &calibration.camera.intrinsics;
            refine_bent(refiner, pictures, &sightings, lens)?
        }
        Err(_) => None,
    };
    if let Some(again) = again {
        match calibrate(&again) {
            Ok(second) => {
                return Ok(RefinedCalibration {
                    calibration: Ok(second),
                    sightings: again,
                    through_lens: true,
                });
            }
            Err(_) => tracing::warn!(
                "calibrating through the fitted lens failed; the first calibration stands"
            ),
        }
    }
    Ok(RefinedCalibration {
        calibration: first,
        sightings,
        through_lens: false,
    })
}

/// Every picture's detected tags, refined with the lens unknown.
fn refine_all(
    refiner: &mut CornerRefiner,
    pictures: &[TablePicture],
) -> Result<Vec<Vec<TagSighting>>, VisionError> {
    pictures
        .iter()
        .map(|picture| {
            let mut sightings = picture.detected.to_vec();
            let report = refiner.refine(picture.image, None, &mut sightings)?;
            tracing::info!(
                refined = report.refined(),
                tags = sightings.len(),
                seconds = report.time.as_secs_f64(),
                "corners refined against their patterns"
            );
            Ok(sightings)
        })
        .collect()
}

/// The tags that `lens` bends enough for two bows to miss, refined again through it from the
/// detector's corners, the others' first refinement kept (refining costs a few milliseconds a
/// tag, and most stand tags are bent by hundredths of a pixel); `None` when no tag is.
fn refine_bent(
    refiner: &mut CornerRefiner,
    pictures: &[TablePicture],
    first: &[Vec<TagSighting>],
    lens: &Intrinsics,
) -> Result<Option<Vec<Vec<TagSighting>>>, VisionError> {
    let bent: Vec<Vec<usize>> = pictures
        .iter()
        .map(|picture| {
            (0..picture.detected.len())
                .filter(|&i| bulge(lens, &picture.detected[i].corners) >= BENT)
                .collect()
        })
        .collect();
    if bent.iter().all(Vec::is_empty) {
        return Ok(None);
    }
    let mut sightings = first.to_vec();
    for ((picture, bent), sightings) in pictures.iter().zip(&bent).zip(&mut sightings) {
        let mut again: Vec<TagSighting> = bent.iter().map(|&i| picture.detected[i]).collect();
        let report = refiner.refine(picture.image, Some(lens), &mut again)?;
        tracing::info!(
            refined = report.refined(),
            tags = again.len(),
            seconds = report.time.as_secs_f64(),
            "corners refined again through the fitted lens"
        );
        for (&i, sighting) in bent.iter().zip(again) {
            sightings[i] = sighting;
        }
    }
    Ok(Some(sightings))
}

/// How far a lens must bow one of a tag's edges, pixels, for the tag to be refined through it.
/// Two bows follow a bow of a few tenths of a pixel within two or three hundredths (a 50 px
/// anchor bowed 0.7 px: 0.03 px), and one of a twentieth all but exactly.
const BENT: f64 = 0.05;

/// The most a lens bows any of a tag's edges: how far the lens puts the middle of each edge,
/// as straight in the ideal picture, from the chord between its corners, pixels.
fn bulge(lens: &Intrinsics, corners: &[PixelPoint; 4]) -> f64 {
    (0..4)
        .map(|k| {
            let (a, b) = (corners[k], corners[(k + 1) % 4]);
            let (ia, ib) = (lens.to_normalized(&a), lens.to_normalized(&b));
            let middle = lens.to_pixel((ia.0 + ib.0) / 2.0, (ia.1 + ib.1) / 2.0);
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            ((middle.x - a.x) * dy - (middle.y - a.y) * dx).abs() / dx.hypot(dy).max(1e-9)
        })
        .fold(0.0, f64::max)
}
