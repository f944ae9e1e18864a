//! Hills the cloth's colour does not show: a hill under the cloth, or a hill piece flocked like
//! the mat, is the cloth's own colour; only its flanks show it, lit or shaded as they face the
//! light. This finds the flanks (pixels of the cloth's chroma but lighter or darker than the
//! cloth around them), gathers those near each other, and takes the hull round each group as a
//! hill's foot.
//!
//! Decisions:
//! - Only pixels of the cloth's chroma count, and none inside a region already found: a shadow
//!   is not a hill, nor is a wood's dark base.
//! - The hull is convex: a flank facing the light may be lit as brightly as the flat cloth and
//!   show nothing, and the hull spans it. A hill with a deep bay in its foot is drawn without
//!   the bay; the players see it and drag the corner.

use opencv::core::{Mat, Point, Size, Vector};
use opencv::imgproc;
use opencv::prelude::*;

use super::cloth::Cloth;
use super::plan::{PER_INCH, Plan};
use super::regions::{Region, mask, measure};
use crate::VisionError;

/// A flank is at least this much lighter or darker than the cloth around it (over 0.7") …
const FLANK: f32 = 0.10;
/// … and a hill shows at least [`LEAST_STEEP`] square inches this much lighter or darker: a
/// mat's own mottling reaches the first now and then, the second hardly ever.
const STEEP: f32 = 0.16;
const LEAST_STEEP: f64 = 3.0;
/// Flanks this near each other belong to one hill, inches.
const GATHER: f64 = 2.0;
/// The least flank a hill shows, square inches.
const LEAST_FLANK: f64 = 6.0;
/// A region smoother than this (mean difference from its median, in L) may be a flank.
const SMOOTH: f32 = 0.8;
/// A hill's flanks show over at least this share of the hull round them.
const LEAST_SHOWN: f64 = 0.35;

/// Whether a region found by its colour may be a hill's shaded flank: the cloth's chroma,
/// smooth.
pub fn cloth_like(region: &Region, plan: &Plan, cloth: &Cloth) -> bool {
    let near = (2.5 * cloth.chroma_spread).max(3.0);
    let cloth_coloured = region
        .pixels
        .iter()
        .filter(|&&k| cloth.shaded_chroma_off(k, &plan.smooth[k]) < near)
        .count();
    cloth_coloured * 2 > region.pixels.len() && region.texture < SMOOTH
}

/// Hills shown only by their flanks' light, away from what `found` shows is not cloth.
pub fn shaded_hills(
    plan: &Plan,
    cloth: &Cloth,
    usable: &[bool],
    found: &[Region],
) -> Result<Vec<(Region, f64)>, VisionError> {
    let (w, h) = (plan.columns as i32, plan.rows as i32);
    let mut free = usable.to_vec();
    for region in found.iter().filter(|r| !cloth_like(r, plan, cloth)) {
        for &k in &region.pixels {
            free[k] = false;
        }
    }
    let ratio: Vec<f32> = (0..plan.smooth.len())
        .map(|k| cloth.light_ratio(k, &plan.smooth[k]) - 1.0)
        .collect();
    let ratio = Mat::new_rows_cols_with_data(h, w, &ratio)?.try_clone()?;
    let mut averaged = Mat::default();
    imgproc::blur_def(&ratio, &mut averaged, Size::new(7, 7))?;
    let averaged = averaged.data_typed::<f32>()?.to_vec();
    let near_chroma = (2.5 * cloth.chroma_spread).max(3.0);
    let flank: Vec<bool> = (0..plan.smooth.len())
        .map(|k| {
            free[k]
                && averaged[k].abs() >= FLANK
                && cloth.shaded_chroma_off(k, &plan.smooth[k]) < near_chroma
        })
        .collect();
    // Flanks: connected stretches of light or shade with a steep core; the mat's mottling
    // makes stretches too, but without the core.
    let evidence = mask(w, h, flank.iter().copied())?;
    let mut pieces = Mat::default();
    let count = imgproc::connected_components_def(&evidence, &mut pieces)?;
    let pieces = pieces.data_typed::<i32>()?.to_vec();
    let mut steep = vec![0usize; count as usize];
    for (k, &label) in pieces.iter().enumerate() {
        if label > 0 && averaged[k].abs() >= STEEP {
            steep[label as usize] += 1;
        }
    }
    let least_steep = (LEAST_STEEP * PER_INCH * PER_INCH) as usize;
    let kept: Vec<bool> = pieces
        .iter()
        .map(|&label| label > 0 && steep[label as usize] >= least_steep)
        .collect();
    // A hill's lit and shaded flanks, gathered into one.
    let kept_mask = mask(w, h, kept.iter().copied())?;
    let reach = (GATHER * PER_INCH) as i32 | 1;
    let kernel = imgproc::get_structuring_element(
        imgproc::MORPH_ELLIPSE,
        Size::new(reach, reach),
        Point::new(-1, -1),
    )?;
    let mut gathered = Mat::default();
    imgproc::morphology_ex_def(&kept_mask, &mut gathered, imgproc::MORPH_CLOSE, &kernel)?;
    let mut labels = Mat::default();
    let count = imgproc::connected_components_def(&gathered, &mut labels)?;
    let labels = labels.data_typed::<i32>()?.to_vec();
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); count as usize];
    for (k, &label) in labels.iter().enumerate() {
        if label > 0 && kept[k] {
            groups[label as usize].push(k);
        }
    }
    let least = (LEAST_FLANK * PER_INCH * PER_INCH) as usize;
    let mut hills = Vec::new();
    for group in groups.into_iter().filter(|g| g.len() >= least) {
        let points: Vector<Point> = group
            .iter()
            .map(|&k| Point::new((k % plan.columns) as i32, (k / plan.columns) as i32))
            .collect();
        let mut hull: Vector<Point> = Vector::new();
        imgproc::convex_hull_def(&points, &mut hull)?;
        let mut inside = Mat::new_rows_cols_with_default(
            h,
            w,
            opencv::core::CV_8UC1,
            opencv::core::Scalar::all(0.0),
        )?;
        imgproc::fill_convex_poly_def(&mut inside, &hull, opencv::core::Scalar::all(255.0))?;
        let pixels: Vec<usize> = inside
            .data_bytes()?
            .iter()
            .enumerate()
            .filter(|(k, v)| **v > 0 && usable[*k])
            .map(|(k, _)| k)
            .collect();
        // How sure: the share of the hull its flanks show, a hill being mostly flank.
        let shown = group.len() as f64 / pixels.len().max(1) as f64;
        if shown < LEAST_SHOWN {
            continue;
        }
        if let Some(region) = measure(plan, cloth, pixels)? {
            hills.push((region, (0.4 + shown).min(0.95)));
        }
    }
    Ok(hills)
}
