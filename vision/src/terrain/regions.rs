//! What is not cloth: the plan's pixels that differ from the cloth near them, gathered into
//! regions, each measured (size, width, colour, texture, shape) for the kinds to judge.
//!
//! Decisions:
//! - Hysteresis: a region grows over pixels only a little off the cloth (a hill piece flocked
//!   nearly like the mat, a wood's shaded rim) but is kept only where some pixels are clearly
//!   off it; mottling alone never starts one.
//! - A region smaller than [`SMALLEST`] is no terrain piece: a stand, a figure, a dropped die.

use opencv::core::{CV_8UC1, Mat, Point, Scalar, Size, Vector};
use opencv::imgproc;
use opencv::prelude::*;
use rules::geometry::TablePoint;

use super::cloth::Cloth;
use super::plan::{PER_INCH, Plan};
use crate::VisionError;

/// Lightness (OpenCV's 8-bit L) above which a pixel may be a tag's paper …
const PAPER: f32 = 200.0;
/// … and below which its ink.
const INK: f32 = 70.0;

/// Lab a (OpenCV's 8-bit scale) below which a pixel is green.
const GREEN: f32 = 124.0;

/// The smallest piece of terrain, square inches …
pub const SMALLEST: f64 = 4.0;
/// … unless it is a run of wall or hedge: this many times longer than wide, and at least
/// [`SMALLEST_RUN`] square inches.
const LONG_RUN: f64 = 8.0;
const SMALLEST_RUN: f64 = 1.2;
/// A pixel this far off the cloth (in units of the cloth's own spread) may join a region …
const WEAK: f32 = 1.0;
/// … and a region needs this many pixels this far off to be kept.
const STRONG: f32 = 1.8;
const STRONG_PIXELS: i32 = 60;

/// One region of the plan and what it looks like.
#[derive(Clone, Debug)]
pub struct Region {
    /// Its outline, table inches (simplified to a tenth of an inch or so).
    pub outline: Vec<TablePoint>,
    /// Its area, square inches.
    pub area: f64,
    /// Twice the deepest point's distance from its edge, inches: a band's width.
    pub width: f64,
    /// Its median Lab colour (OpenCV's 8-bit Lab).
    pub colour: [f32; 3],
    /// Its lightness against the cloth's near it (median).
    pub light: f32,
    /// How busy it is inside: the mean difference between its pixels and their median, in L.
    pub texture: f32,
    /// The share of its pixels darker than the cloth near them by a fifth, and green.
    pub dark_green: f32,
    /// Its area over that of the smallest rectangle round it.
    pub rectangular: f32,
    /// The lesser of its shares of paper-white and of ink-black pixels: a tag's print.
    pub printed: f32,
    /// Its pixels, by plan index, for drawing the outline of a band's centre.
    pub pixels: Vec<usize>,
}

impl Region {
    /// How many times longer than wide it is.
    pub fn elongation(&self) -> f64 {
        self.area / (self.width * self.width).max(1e-9)
    }
}

/// How far each pixel is off the cloth, in units of the cloth's own spread.
fn offness(plan: &Plan, cloth: &Cloth, k: usize) -> f32 {
    let p = &plan.smooth[k];
    let chroma = cloth.chroma_off(p) / (2.5 * cloth.chroma_spread).max(3.0);
    let light = (cloth.light_ratio(k, p) - 1.0).abs()
        / (4.0 * cloth.light_spread / cloth.local[k].max(1.0)).max(0.09);
    chroma.max(light)
}

/// Every region of the plan that is not cloth, outside `usable` pixels excluded.
pub fn regions(plan: &Plan, cloth: &Cloth, usable: &[bool]) -> Result<Vec<Region>, VisionError> {
    let (w, h) = (plan.columns as i32, plan.rows as i32);
    let off: Vec<f32> = (0..plan.smooth.len())
        .map(|k| {
            if usable[k] {
                offness(plan, cloth, k)
            } else {
                0.0
            }
        })
        .collect();
    let weak = mask(w, h, off.iter().map(|v| *v >= WEAK))?;
    // Close small gaps (between a wood's trees, a wall's stones), then drop specks.
    let kernel = imgproc::get_structuring_element(
        imgproc::MORPH_ELLIPSE,
        Size::new(5, 5),
        Point::new(-1, -1),
    )?;
    let mut closed = Mat::default();
    morph(&weak, &mut closed, imgproc::MORPH_CLOSE, &kernel)?;
    // Specks go; a wall a third of an inch wide stays.
    let speck =
        imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(3, 3), Point::new(-1, -1))?;
    let mut opened = Mat::default();
    morph(&closed, &mut opened, imgproc::MORPH_OPEN, &speck)?;
    let mut labels = Mat::default();
    let mut stats = Mat::default();
    let mut centroids = Mat::default();
    let count = imgproc::connected_components_with_stats(
        &opened,
        &mut labels,
        &mut stats,
        &mut centroids,
        8,
        opencv::core::CV_32S,
    )?;
    let labels = labels.data_typed::<i32>()?.to_vec();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); count as usize];
    let mut strong = vec![0i32; count as usize];
    for (k, &label) in labels.iter().enumerate() {
        if label > 0 {
            members[label as usize].push(k);
            strong[label as usize] += i32::from(off[k] >= STRONG);
        }
    }
    let least = (SMALLEST_RUN * PER_INCH * PER_INCH) as usize;
    let mut found = Vec::new();
    for (label, pixels) in members.into_iter().enumerate().skip(1) {
        if pixels.len() < least || strong[label] < STRONG_PIXELS {
            continue;
        }
        if let Some(region) = measure(plan, cloth, pixels)?
            && (region.area >= SMALLEST || region.elongation() >= LONG_RUN)
        {
            found.push(region);
        }
    }
    Ok(found)
}

fn morph(src: &Mat, dst: &mut Mat, op: i32, kernel: &Mat) -> Result<(), VisionError> {
    imgproc::morphology_ex(
        src,
        dst,
        op,
        kernel,
        Point::new(-1, -1),
        1,
        opencv::core::BORDER_CONSTANT,
        Scalar::all(0.0),
    )?;
    Ok(())
}

/// A mask (255 where `on`) of the plan's size.
pub(super) fn mask(w: i32, h: i32, on: impl Iterator<Item = bool>) -> Result<Mat, VisionError> {
    let mut m = Mat::new_rows_cols_with_default(h, w, CV_8UC1, Scalar::all(0.0))?;
    for (byte, on) in m.data_bytes_mut()?.iter_mut().zip(on) {
        *byte = if on { 255 } else { 0 };
    }
    Ok(m)
}

/// Measure one region.
pub(super) fn measure(
    plan: &Plan,
    cloth: &Cloth,
    pixels: Vec<usize>,
) -> Result<Option<Region>, VisionError> {
    let (w, h) = (plan.columns as i32, plan.rows as i32);
    let mut inside = vec![false; plan.smooth.len()];
    for &k in &pixels {
        inside[k] = true;
    }
    let m = mask(w, h, inside.iter().copied())?;
    let mut contours: Vector<Vector<Point>> = Vector::new();
    imgproc::find_contours_def(
        &m,
        &mut contours,
        imgproc::RETR_EXTERNAL,
        imgproc::CHAIN_APPROX_NONE,
    )?;
    let Some(contour) = contours.iter().max_by_key(|c| c.len()) else {
        return Ok(None);
    };
    let mut simple: Vector<Point> = Vector::new();
    imgproc::approx_poly_dp(&contour, &mut simple, 1.2, true)?;
    if simple.len() < 3 {
        return Ok(None);
    }
    let outline = simple
        .iter()
        .map(|p| {
            TablePoint::new(
                (f64::from(p.x) + 0.5) / PER_INCH,
                (f64::from(p.y) + 0.5) / PER_INCH,
            )
        })
        .collect();
    let rect = imgproc::min_area_rect(&contour)?;
    let rect_area = f64::from(rect.size.width) * f64::from(rect.size.height);
    let mut distance = Mat::default();
    imgproc::distance_transform_def(&m, &mut distance, imgproc::DIST_L2, 5)?;
    let deepest = distance
        .data_typed::<f32>()?
        .iter()
        .copied()
        .fold(0f32, f32::max);
    let area = pixels.len() as f64 / (PER_INCH * PER_INCH);
    let middle = |values: Vec<f32>| {
        let mut v = values;
        let mid = v.len() / 2;
        *v.select_nth_unstable_by(mid, f32::total_cmp).1
    };
    let colour = [0, 1, 2].map(|c| middle(pixels.iter().map(|&k| plan.smooth[k][c]).collect()));
    let light = middle(
        pixels
            .iter()
            .map(|&k| cloth.light_ratio(k, &plan.smooth[k]))
            .collect(),
    );
    let texture = pixels
        .iter()
        .map(|&k| (plan.lab[k][0] - plan.smooth[k][0]).abs())
        .sum::<f32>()
        / pixels.len() as f32;
    let dark_green = pixels
        .iter()
        .filter(|&&k| {
            let p = &plan.smooth[k];
            cloth.light_ratio(k, p) < 0.8 && p[1] < GREEN
        })
        .count() as f32
        / pixels.len() as f32;
    let share = |test: &dyn Fn(&[f32; 3]) -> bool| {
        pixels.iter().filter(|&&k| test(&plan.lab[k])).count() as f32 / pixels.len() as f32
    };
    let grey = |p: &[f32; 3]| (p[1] - 128.0).hypot(p[2] - 128.0) < 12.0;
    let printed = share(&|p| p[0] > PAPER && grey(p)).min(share(&|p| p[0] < INK && grey(p)));
    Ok(Some(Region {
        outline,
        printed,
        area,
        width: 2.0 * f64::from(deepest) / PER_INCH,
        colour,
        light,
        texture,
        dark_green,
        rectangular: (pixels.len() as f64 / rect_area.max(1.0)) as f32,
        pixels,
    }))
}

/// The table point at the middle of some plan pixels.
pub fn centroid(plan: &Plan, pixels: &[usize]) -> TablePoint {
    let n = pixels.len().max(1) as f64;
    let (sx, sy) = pixels.iter().fold((0.0, 0.0), |(x, y), &k| {
        let c = Plan::centre(k % plan.columns, k / plan.columns);
        (x + c.x, y + c.y)
    });
    TablePoint::new(sx / n, sy / n)
}

/// How much of the smallest rectangle round some plan pixels they fill, and its corners.
pub fn rectangle(plan: &Plan, pixels: &[usize]) -> Option<(f64, Vec<TablePoint>)> {
    if pixels.len() < 3 {
        return None;
    }
    let points: Vector<Point> = pixels
        .iter()
        .map(|&k| Point::new((k % plan.columns) as i32, (k / plan.columns) as i32))
        .collect();
    let rect = imgproc::min_area_rect(&points).ok()?;
    // Pixels are squares: the rectangle round their centres is a pixel short each way.
    let size = opencv::core::Size2f::new(rect.size.width + 1.0, rect.size.height + 1.0);
    let outer = opencv::core::RotatedRect::new(rect.center, size, rect.angle).ok()?;
    let mut corners = [opencv::core::Point2f::default(); 4];
    outer.points(&mut corners).ok()?;
    let area = f64::from(size.width) * f64::from(size.height);
    let corners = corners
        .iter()
        .map(|c| {
            TablePoint::new(
                (f64::from(c.x) + 0.5) / PER_INCH,
                (f64::from(c.y) + 0.5) / PER_INCH,
            )
        })
        .collect();
    Some((pixels.len() as f64 / area, corners))
}
