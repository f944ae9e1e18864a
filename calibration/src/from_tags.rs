//! The table and the lens together, from every tag of known size in one or more pictures: the
//! anchors, the stand tags the roster lists, and the board when it is shown.
//!
//! Decisions:
//! - The anchors decide where the table is, exactly as [`crate::calibrate`] does (consensus over
//!   anchors, the moved one dropped); only then are the stand tags brought in, so a stray tag
//!   cannot move the table.
//! - The lens fitted is kept only if it is at least as well founded as the lens given: a blurred
//!   picture, tags in a line or a hand over half the table must never replace a good lens with a
//!   worse one. "Well founded" is whether the tags pinned the lens down, then how much of it was
//!   measured, then the share of the picture they covered.

use std::collections::HashMap;

use rules::units::Inches;

use crate::anchors::AnchorLayout;
use crate::board::{Board, MIN_TAGS_PER_VIEW};
use crate::calibrate::calibrate;
use crate::camera::Camera;
use crate::error::CalibrationError;
use crate::lens::{
    FitSettings, KnownTag, LensFit, LensModel, LensView, StandTag, Surface, fit_lens,
};
use crate::pixels::{ImageSize, Pixels};
use crate::solve::{Settings, WIDE_CONSENSUS};
use crate::table::{LensSource, TableCalibration, TagLens};
use crate::tag::TagSighting;

/// What the roster says of a stand's tag: everything but where it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StandTagSpec {
    /// The side of its black square.
    pub size: Inches,
    /// Its printed face's height above the cloth.
    pub height: Inches,
}

/// Calibrate the table and measure the lens from the tags of one or more pictures of one
/// camera mode. `stands` lists the roster's tags; `previous` is the calibration in use, whose
/// lens is kept unless these pictures measure a better one.
pub fn calibrate_from_tags(
    layout: &AnchorLayout,
    pictures: &[Vec<TagSighting>],
    stands: &HashMap<u32, StandTagSpec>,
    board: Option<&Board>,
    image_size: ImageSize,
    previous: Option<&TableCalibration>,
) -> Result<TableCalibration, CalibrationError> {
    let main = table_picture(layout, pictures).ok_or(CalibrationError::TooFewAnchors {
        seen: Vec::new(),
        missing: layout.anchors.iter().map(|a| a.id).collect(),
        layout: layout.anchors.len(),
    })?;
    let given = previous.map(|p| p.camera.intrinsics.scaled_to(image_size));
    // Without a measured lens the anchors at the picture's corners are bent by pixels, maybe
    // tens, and a camera without the bend cannot tell that from a move: keep every anchor the
    // consensus's widest tolerance keeps until the lens is fitted, then judge them through it.
    let loose = Settings {
        intrinsics: given,
        anchor_tolerance: Pixels(WIDE_CONSENSUS * image_size.diagonal()),
    };
    let start = calibrate(layout, &pictures[main], image_size, &loose)?;
    // Nor can its consensus, whose homography knows no bend: through a strong barrel lens it
    // leaves out an anchor where its file says. The lens is fitted with every anchor seen (the
    // fit is robust), and each is judged through the lens fitted.
    let mut trusted: Vec<u32> = start.anchors.iter().map(|a| a.anchor.id).collect();
    trusted.extend(start.rejected.iter().map(|r| r.id));
    trusted.sort_unstable();
    trusted.dedup();
    let mut start_camera = start.camera;
    for round in 1.. {
        let (fit, result) = fit_and_check(
            layout,
            pictures,
            main,
            stands,
            board,
            start_camera,
            &trusted,
        )?;
        let mut still: Vec<u32> = result.anchors.iter().map(|a| a.anchor.id).collect();
        still.sort_unstable();
        if still != trusted && round < ANCHOR_ROUNDS {
            // The fitted lens shows an anchor to be off after all (moved, or mis-read), or one
            // left out before the lens was known to lie where its file says: fit again with the
            // anchors it trusts.
            trusted = still;
            start_camera = result.camera;
            continue;
        }
        return keep_or_replace(layout, pictures, main, image_size, previous, fit, result);
    }
    unreachable!("the rounds end")
}

/// Fits of the lens at most, each with the anchors the one before trusted: an anchor is
/// dropped or taken back at most once or twice, and a lens that kept changing its mind would
/// not be worth more fits.
const ANCHOR_ROUNDS: usize = 3;

/// Which of the pictures the table is found in: the one showing the most anchors (the last on
/// a tie); `None` when there are none.
pub fn table_picture(layout: &AnchorLayout, pictures: &[Vec<TagSighting>]) -> Option<usize> {
    let anchors_in = |s: &[TagSighting]| s.iter().filter(|t| layout.anchor(t.id).is_some()).count();
    // `max_by_key` returns the last of equals: the latest picture, where the camera is now.
    (0..pictures.len()).max_by_key(|&i| anchors_in(&pictures[i]))
}

/// The bundle adjustment from a starting camera, and the table calibrated through its lens.
fn fit_and_check(
    layout: &AnchorLayout,
    pictures: &[Vec<TagSighting>],
    main: usize,
    stands: &HashMap<u32, StandTagSpec>,
    board: Option<&Board>,
    start: Camera,
    trusted: &[u32],
) -> Result<(LensFit, TableCalibration), CalibrationError> {
    let lens = start.intrinsics;
    let mut main_view = None;
    let mut views = Vec::new();
    let mut poses = Vec::new();
    for (i, sightings) in pictures.iter().enumerate() {
        let trust = |id: u32| i != main || trusted.contains(&id);
        let table = table_view(layout, sightings, stands, trust);
        let pose = if i == main {
            Some(start.pose)
        } else {
            table.initial_pose(&lens)
        };
        if let Some(pose) = pose.filter(|_| table.known.len() >= 3) {
            if i == main {
                main_view = Some(views.len());
            }
            views.push(table);
            poses.push(pose);
        }
        if let Some(board) = board {
            let view = board.view(sightings);
            if view.known.len() >= MIN_TAGS_PER_VIEW
                && let Some(pose) = view.initial_pose(&lens)
            {
                views.push(view);
                poses.push(pose);
            }
        }
    }
    let settings = FitSettings {
        table: Some(layout.table),
        ..FitSettings::default()
    };
    let fit = fit_lens(&views, lens, &poses, &settings)?;
    let mut result = calibrate(
        layout,
        &pictures[main],
        lens.image_size,
        &Settings {
            intrinsics: Some(fit.intrinsics),
            ..Settings::default()
        },
    )?;
    // The lens and the pose were found together, with every tag: keep them together (a pose
    // from the anchors alone would undo part of what the stand tags taught the lens).
    if let Some(v) = main_view {
        result.set_camera(Camera {
            intrinsics: fit.intrinsics,
            pose: fit.poses[v],
        });
    }
    Ok((fit, result))
}

/// The new lens, or the earlier one when these pictures pin the lens down less well.
fn keep_or_replace(
    layout: &AnchorLayout,
    pictures: &[Vec<TagSighting>],
    main: usize,
    image_size: ImageSize,
    previous: Option<&TableCalibration>,
    fit: LensFit,
    mut result: TableCalibration,
) -> Result<TableCalibration, CalibrationError> {
    let fitted = TagLens::of(&fit.report);
    let earlier = previous.and_then(|p| match p.lens {
        LensSource::Tags(t) => Some(t),
        _ => None,
    });
    let keep_earlier = match (previous.map(|p| p.lens), earlier) {
        (_, Some(earlier)) => !fitted.at_least(&earlier),
        // A board's lens is measured on purpose: keep it unless the tags measure all of it.
        (Some(LensSource::Board { .. }), None) => fit.report.model < LensModel::Full,
        _ => false,
    };
    if let (true, Some(previous)) = (keep_earlier, previous) {
        let mut kept = calibrate(
            layout,
            &pictures[main],
            image_size,
            &Settings {
                intrinsics: Some(previous.camera.intrinsics.scaled_to(image_size)),
                ..Settings::default()
            },
        )?;
        kept.lens = previous.lens;
        kept.warnings.push(format!(
            "lens: kept the earlier lens — these pictures pin it down less well ({}, {:.0} % of the picture covered)",
            fit.report.model.describe(),
            100.0 * fitted.coverage
        ));
        return Ok(kept);
    }
    result.lens = LensSource::Tags(fitted);
    result.promise = fit.report.promise;
    result.warnings.extend(fit.report.warnings.iter().cloned());
    result.lens_report = Some(fit.report);
    Ok(result)
}

/// A table picture's anchors (those `trusted`) and roster stand tags.
fn table_view(
    layout: &AnchorLayout,
    sightings: &[TagSighting],
    stands: &HashMap<u32, StandTagSpec>,
    trusted: impl Fn(u32) -> bool,
) -> LensView {
    let mut view = LensView {
        surface: Surface::Table,
        known: Vec::new(),
        stands: Vec::new(),
    };
    for sighting in sightings {
        if let Some(anchor) = layout.anchor(sighting.id) {
            if trusted(sighting.id) {
                view.known.push(KnownTag {
                    placement: anchor.placement(),
                    sighting: *sighting,
                });
            }
        } else if let Some(spec) = stands.get(&sighting.id) {
            view.stands.push(StandTag {
                sighting: *sighting,
                size: spec.size,
                height: spec.height,
            });
        }
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lens(model: LensModel, pinned: f64, coverage: f64) -> TagLens {
        TagLens {
            pictures: 1,
            tags: 40,
            model,
            rms: Pixels(0.2),
            coverage,
            pinned: Inches(pinned),
            length_sd: None,
            frame_sd: None,
        }
    }

    #[test]
    fn a_pinned_down_lens_is_better_founded_than_a_fuller_one_that_is_not() {
        let unsure_full = lens(LensModel::Full, 0.15, 0.6);
        let pinned_radial = lens(LensModel::Radial, 0.04, 0.6);
        assert!(pinned_radial.at_least(&unsure_full));
        assert!(!unsure_full.at_least(&pinned_radial));
        // Both pinned down: the fuller model, then the wider coverage.
        let pinned_full = lens(LensModel::Full, 0.05, 0.5);
        assert!(pinned_full.at_least(&pinned_radial));
        assert!(!lens(LensModel::Full, 0.05, 0.4).at_least(&pinned_full));
    }

    #[test]
    fn the_table_is_found_in_the_picture_with_most_anchors_the_latest_of_equals() {
        let layout = AnchorLayout::corners(
            crate::anchors::TableSize {
                width: 72.0,
                depth: 48.0,
            },
            Inches(2.0),
            Inches(1.5),
        );
        let seen = |ids: &[u32]| -> Vec<TagSighting> {
            ids.iter()
                .map(|&id| TagSighting {
                    id,
                    corners: [crate::PixelPoint::new(0.0, 0.0); 4],
                })
                .collect()
        };
        let board = seen(&[500, 501, 502]);
        let (three, four) = (seen(&[0, 1, 2, 40]), seen(&[0, 1, 2, 3]));
        assert_eq!(
            table_picture(&layout, std::slice::from_ref(&board)),
            Some(0)
        );
        assert_eq!(
            table_picture(&layout, &[four.clone(), three.clone()]),
            Some(0)
        );
        assert_eq!(
            table_picture(&layout, &[four.clone(), board, four]),
            Some(2)
        );
        assert_eq!(table_picture(&layout, &[]), None);
    }
}
