//! The table seen from straight above: the picture rectified through the calibration onto the
//! cloth's plane, at a fixed number of pixels an inch, in CIE Lab.
//!
//! Everything flat (a wood's base, a road, a river, a rough patch, a hill's foot) lands where it
//! lies; what stands up leans away from the camera, the more the higher it is. The finder works
//! here so that a piece's outline is in table inches from the start and its size means the same
//! whatever the camera's distance or tilt.

use calibration::{Camera, TablePoint3, TableSize};
use opencv::core::{BORDER_CONSTANT, CV_32FC1, Mat, Scalar};
use opencv::imgproc;
use opencv::prelude::*;
use rules::geometry::TablePoint;

use crate::VisionError;

/// Plan pixels an inch: a tenth of an inch each, finer than the half-inch a boundary may be off
/// and about what a 1080p camera sees of a 6' table.
pub const PER_INCH: f64 = 10.0;

/// The rectified table.
pub struct Plan {
    /// Columns (along the table's width).
    pub columns: usize,
    /// Rows (along its depth; row 0 at y = 0).
    pub rows: usize,
    /// Each pixel's L, a, b (OpenCV's 8-bit Lab: a and b centred on 128), row by row.
    pub lab: Vec<[f32; 3]>,
    /// The same after a median over 0.5": the flock's tufts and grain gone, edges kept.
    pub smooth: Vec<[f32; 3]>,
    /// Whether the camera saw that point of the table.
    pub seen: Vec<bool>,
}

impl Plan {
    /// The picture rectified onto the table `table`, through `camera`.
    pub fn of(picture: &Mat, camera: &Camera, table: TableSize) -> Result<Plan, VisionError> {
        let columns = (table.width * PER_INCH).round().max(1.0) as usize;
        let rows = (table.depth * PER_INCH).round().max(1.0) as usize;
        let size = picture.size()?;
        let mut map_x = Mat::new_rows_cols_with_default(
            rows as i32,
            columns as i32,
            CV_32FC1,
            Scalar::all(-1.0),
        )?;
        let mut map_y = map_x.clone();
        let mut seen = vec![false; columns * rows];
        for j in 0..rows {
            for i in 0..columns {
                let p = Plan::centre(i, j);
                let Some(pixel) = camera.project(&TablePoint3::new(p.x, p.y, 0.0)) else {
                    continue;
                };
                let inside = (0.0..f64::from(size.width - 1)).contains(&pixel.x)
                    && (0.0..f64::from(size.height - 1)).contains(&pixel.y);
                if inside {
                    *map_x.at_2d_mut::<f32>(j as i32, i as i32)? = pixel.x as f32;
                    *map_y.at_2d_mut::<f32>(j as i32, i as i32)? = pixel.y as f32;
                    seen[j * columns + i] = true;
                }
            }
        }
        // A plan pixel spans a few of the picture's: soften the flock's grain first so that
        // sampling does not alias it.
        let mut soft = Mat::default();
        imgproc::gaussian_blur_def(picture, &mut soft, opencv::core::Size::new(0, 0), 1.2)?;
        let mut flat = Mat::default();
        imgproc::remap(
            &soft,
            &mut flat,
            &map_x,
            &map_y,
            imgproc::INTER_LINEAR,
            BORDER_CONSTANT,
            Scalar::all(0.0),
        )?;
        let mut lab = Mat::default();
        imgproc::cvt_color_def(&flat, &mut lab, imgproc::COLOR_BGR2Lab)?;
        let mut median = Mat::default();
        imgproc::median_blur(&lab, &mut median, 5)?;
        Ok(Plan {
            columns,
            rows,
            lab: triples(&lab)?,
            smooth: triples(&median)?,
            seen,
        })
    }

    /// The table point at the centre of plan pixel `(i, j)`.
    pub fn centre(i: usize, j: usize) -> TablePoint {
        TablePoint::new((i as f64 + 0.5) / PER_INCH, (j as f64 + 0.5) / PER_INCH)
    }

    /// The plan pixel a table point falls in, if on the plan.
    pub fn pixel(&self, p: &TablePoint) -> Option<(usize, usize)> {
        let (i, j) = ((p.x * PER_INCH).floor(), (p.y * PER_INCH).floor());
        (i >= 0.0 && j >= 0.0 && (i as usize) < self.columns && (j as usize) < self.rows)
            .then_some((i as usize, j as usize))
    }
}

fn triples(image: &Mat) -> Result<Vec<[f32; 3]>, VisionError> {
    Ok(image
        .data_bytes()?
        .chunks_exact(3)
        .map(|c| [f32::from(c[0]), f32::from(c[1]), f32::from(c[2])])
        .collect())
}
