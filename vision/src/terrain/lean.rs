//! Taking back what stands up: on the plan, a piece that stands up from the cloth covers its
//! footprint and, beyond it, everything its walls, roof or canopies hide, leaning away from the
//! camera the more the higher they are. A point `z` above the cloth lands `z · u` further out,
//! where `u` is the point's horizontal offset from the camera's foot over the camera's height.
//! The footprint is what remains when the region is eroded by that lean: the points whose whole
//! lean up to the piece's height stays inside the region.
//!
//! Decisions:
//! - A building's height is found, not assumed: the footprint is the least erosion at which the
//!   region is as rectangular as it gets (walls are a rectangle; the lean of their top makes a
//!   hexagon until it is taken back).
//! - A wood's canopies are taken to stand [`CANOPY_TOP`] above its base, and a wall or hedge to
//!   be about as high as it is wide: assumptions, said in the piece's reasons, since one
//!   picture cannot tell a tall thin wall from a low wide one.

use calibration::{Camera, TablePoint3};
use rules::geometry::TablePoint;

use super::plan::{PER_INCH, Plan};

/// How high a wood's canopies are taken to reach above its base, inches.
pub const CANOPY_TOP: f64 = 3.0;
/// The least depth of a band of wall, plan pixels.
const LEAST_BAND: f64 = 2.5;
/// The tallest building looked for, inches.
const TALLEST: f64 = 6.0;

/// How far a point at `p` leans a plan pixel for each inch of its height: its offset from the
/// camera's foot over the camera's height (pixels of the plan per inch of height).
pub fn lean_at(camera: &Camera, p: &TablePoint) -> (f64, f64) {
    let eye: TablePoint3 = camera.pose.eye();
    let height = eye.z.max(1.0);
    (
        (p.x - eye.x) / height * PER_INCH,
        (p.y - eye.y) / height * PER_INCH,
    )
}

/// The pixels of `pixels` whose lean up to `height` inches stays among them.
pub fn erode(plan: &Plan, pixels: &[usize], lean: (f64, f64), height: f64) -> Vec<usize> {
    let (dx, dy) = (lean.0 * height, lean.1 * height);
    let steps = dx.hypot(dy).ceil() as usize;
    if steps == 0 {
        return pixels.to_vec();
    }
    let mut member = vec![false; plan.columns * plan.rows];
    for &k in pixels {
        member[k] = true;
    }
    let w = plan.columns as i64;
    let h = plan.rows as i64;
    pixels
        .iter()
        .copied()
        .filter(|&k| {
            let (i, j) = ((k as i64) % w, (k as i64) / w);
            (1..=steps).all(|s| {
                let t = s as f64 / steps as f64;
                let (x, y) = (i + (dx * t).round() as i64, j + (dy * t).round() as i64);
                x >= 0 && y >= 0 && x < w && y < h && member[(y * w + x) as usize]
            })
        })
        .collect()
}

/// A building's height, from its region: the least erosion at which the region is as
/// rectangular as it gets, with that rectangularity.
pub fn building_height(
    plan: &Plan,
    pixels: &[usize],
    lean: (f64, f64),
    rectangular: impl Fn(&[usize]) -> Option<f64>,
) -> f64 {
    let per_step = lean.0.hypot(lean.1);
    if per_step < 0.05 {
        return 0.0;
    }
    // Heights a plan pixel of lean apart.
    let step = 1.0 / per_step;
    let mut best = (0.0, rectangular(pixels).unwrap_or(0.0));
    let mut height = step;
    while height <= TALLEST {
        let eroded = erode(plan, pixels, lean, height);
        if eroded.len() < pixels.len() / 4 {
            break;
        }
        if let Some(r) = rectangular(&eroded)
            && r > best.1 + 0.005
        {
            best = (height, r);
        }
        height += step;
    }
    best.0
}

/// A building's walls' height from the band of wall the camera sees below its roof: the
/// region's pixels are split in two by colour (OpenCV's k-means); the part nearer the camera is
/// the walls, and across the lean, the median depth of that band along the lean is the walls'
/// height times the lean. `None` when the split shows no such band (a camera straight over it,
/// walls and roof one colour).
pub fn wall_height(plan: &Plan, pixels: &[usize], lean: (f64, f64)) -> Option<Walls> {
    use opencv::core::{CV_32F, KMEANS_PP_CENTERS, Mat, TermCriteria, TermCriteria_Type};
    use opencv::prelude::*;
    let reach = lean.0.hypot(lean.1);
    if reach < 0.2 || pixels.len() < 40 {
        return None;
    }
    let (ux, uy) = (lean.0 / reach, lean.1 / reach);
    let colours: Vec<f32> = pixels.iter().flat_map(|&k| plan.lab[k]).collect();
    let data = Mat::new_rows_cols_with_data(pixels.len() as i32, 3, &colours).ok()?;
    let mut data32 = Mat::default();
    data.convert_to_def(&mut data32, CV_32F).ok()?;
    let mut labels = Mat::default();
    let criteria = TermCriteria::new(
        TermCriteria_Type::COUNT as i32 + TermCriteria_Type::EPS as i32,
        20,
        0.5,
    )
    .ok()?;
    opencv::core::kmeans_def(&data32, 2, &mut labels, criteria, 3, KMEANS_PP_CENTERS).ok()?;
    let labels = labels.data_typed::<i32>().ok()?.to_vec();
    let along = |k: usize| {
        let (i, j) = ((k % plan.columns) as f64, (k / plan.columns) as f64);
        (i * ux + j * uy, i * -uy + j * ux)
    };
    // The walls: the cluster nearer the camera on average.
    let mean_along = |c: i32| {
        let picked: Vec<f64> = pixels
            .iter()
            .zip(&labels)
            .filter(|(_, l)| **l == c)
            .map(|(&k, _)| along(k).0)
            .collect();
        (
            picked.iter().sum::<f64>() / picked.len().max(1) as f64,
            picked.len(),
        )
    };
    let ((near0, n0), (near1, n1)) = (mean_along(0), mean_along(1));
    if n0.min(n1) < pixels.len() / 20 {
        return None;
    }
    let roof = if near0 < near1 { 1 } else { 0 };
    let mut rows: std::collections::BTreeMap<i64, (f64, f64)> = std::collections::BTreeMap::new();
    for (&k, &label) in pixels.iter().zip(&labels) {
        let (s, t) = along(k);
        let row = rows.entry(t.round() as i64).or_insert((f64::MAX, f64::MAX));
        row.0 = row.0.min(s);
        if label == roof {
            row.1 = row.1.min(s);
        }
    }
    let mut depths: Vec<f64> = rows
        .values()
        .filter(|(near, roof)| *roof < f64::MAX && *near < f64::MAX)
        .map(|(near, roof)| roof - near)
        .collect();
    if depths.len() < 5 {
        return None;
    }
    depths.sort_by(f64::total_cmp);
    let middle = depths[depths.len() / 2];
    if middle < LEAST_BAND {
        // No band to speak of: a flat patch whose colours merely split in two.
        return None;
    }
    let steady = depths
        .iter()
        .filter(|d| (*d - middle).abs() <= 0.35 * middle.max(1.0))
        .count() as f64
        / depths.len() as f64;
    let height = middle / reach;
    (height <= TALLEST).then_some(Walls { height, steady })
}

/// The band of wall a camera at the side sees below a roof.
#[derive(Clone, Copy, Debug)]
pub struct Walls {
    /// The walls' height, inches.
    pub height: f64,
    /// The share of the band as deep as its median, give or take a third: near 1 for a
    /// building's straight wall, low for a patch whose colours merely split in two.
    pub steady: f64,
}
