//! The same table rendered other ways than Vedette's own: what its error bars are checked
//! against, so that a bar honest only in the world it was tuned in shows it.
//!
//! Decisions:
//! - Each rendering changes one thing a real picture or table may have that the own rendering
//!   has not: how edges are sampled, the blur, the compression, the grain, a lens bent in a way
//!   the fitted model cannot follow, tags printed at the wrong scale, anchors placed a
//!   millimetre off. One cause each, so a bar that fails shows which cause it does not cover.
//! - The lens beyond the model is the picture warped after rendering (a thin-prism term and a
//!   radial term of the eighth power, neither of which OpenCV's five-number model has), so the
//!   renderer keeps one camera model and the truth in table inches is untouched.
//! - Tags printed large and anchors placed off change the world, not the roster or the anchor
//!   layout: the software is told the nominal sizes and places, as a player's files would.

use opencv::core::Mat;
use opencv::imgproc;
use opencv::prelude::*;
use rules::geometry::TableVector;
use rules::units::Inches;

use super::noise::Noise;
use super::render::Effects;
use super::world::SyntheticTable;
use crate::VisionError;
use calibration::Pixels;

/// One way of rendering a table (see the module's decisions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rendering {
    /// Vedette's own: 3×3 rays a pixel, a webcam's slight blur, noise, uneven light, JPEG 85.
    Own,
    /// One ray a pixel (edges aliased, corners where the pixel grid puts them), no blur.
    PointSampled,
    /// Out of focus: blur of 1.6 px, two rays a pixel each way.
    Soft,
    /// A cheap MJPEG stream: JPEG quality 40.
    Blocky,
    /// A dim room's grain: noise of 9 grey levels, the exposure 25 % under.
    Grainy,
    /// A lens bent beyond OpenCV's five numbers: a thin prism and an eighth-power term, 1–5.5 px
    /// at the picture's corners (the prism's pull along one diagonal adds to the radial term at
    /// one end and takes from it at the other).
    LensBeyond,
    /// Every tag printed 1 % larger than the files say (a printer's "fit to page").
    PrintedLarge,
    /// The anchors each placed 1 mm off where the layout says, each its own way.
    AnchorsOff,
}

/// How far each anchor is placed off in [`Rendering::AnchorsOff`].
pub const ANCHORS_OFF: Inches = Inches(1.0 / 25.4);
/// How much larger tags are printed in [`Rendering::PrintedLarge`].
pub const PRINTED_SCALE: f64 = 1.01;
/// The thin prism's and the eighth-power term's reach at the picture's corner, pixels.
const PRISM_AT_CORNER: f64 = 2.5;
const EIGHTH_AT_CORNER: f64 = 3.0;

impl Rendering {
    /// Every rendering, Vedette's own first.
    pub const ALL: [Rendering; 8] = [
        Rendering::Own,
        Rendering::PointSampled,
        Rendering::Soft,
        Rendering::Blocky,
        Rendering::Grainy,
        Rendering::LensBeyond,
        Rendering::PrintedLarge,
        Rendering::AnchorsOff,
    ];

    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Rendering::Own => "own",
            Rendering::PointSampled => "point-sampled",
            Rendering::Soft => "soft",
            Rendering::Blocky => "blocky",
            Rendering::Grainy => "grainy",
            Rendering::LensBeyond => "lens-beyond",
            Rendering::PrintedLarge => "printed-large",
            Rendering::AnchorsOff => "anchors-off",
        }
    }

    /// The rendering named `name`.
    pub fn named(name: &str) -> Option<Rendering> {
        Rendering::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The camera's faults in this rendering, its noise drawn from `seed`.
    pub fn effects(self, seed: u64) -> Effects {
        let webcam = Effects {
            seed,
            ..Effects::WEBCAM
        };
        match self {
            Rendering::PointSampled => Effects {
                supersample: 1,
                blur: Pixels(0.0),
                ..webcam
            },
            Rendering::Soft => Effects {
                supersample: 2,
                blur: Pixels(1.6),
                ..webcam
            },
            Rendering::Blocky => Effects {
                jpeg_quality: Some(40),
                ..webcam
            },
            Rendering::Grainy => Effects {
                noise: 9.0,
                gain: 0.75,
                ..webcam
            },
            _ => webcam,
        }
    }

    /// The table as this rendering has it: tags printed large, or anchors placed off (each
    /// anchor's way drawn from `table_seed`, the same for every picture of one table);
    /// `anchors` are the anchors' ids.
    pub fn table(self, world: &SyntheticTable, anchors: &[u32], table_seed: u64) -> SyntheticTable {
        let mut world = world.clone();
        for block in &mut world.blocks {
            for tag in &mut block.tags {
                match self {
                    Rendering::PrintedLarge => {
                        tag.placement.size = Inches(tag.placement.size.0 * PRINTED_SCALE);
                    }
                    Rendering::AnchorsOff if anchors.contains(&tag.id) => {
                        // Each anchor its own way, the same in every picture of the table.
                        let mut noise = Noise::new(table_seed ^ u64::from(tag.id));
                        let (sin, cos) = (std::f64::consts::TAU * noise.uniform()).sin_cos();
                        tag.placement.center += TableVector::new(cos, sin) * ANCHORS_OFF.0;
                    }
                    _ => {}
                }
            }
        }
        world
    }

    /// The picture as this rendering's camera delivers it: warped through the lens beyond the
    /// model, or as rendered.
    pub fn picture(self, rendered: Mat) -> Result<Mat, VisionError> {
        match self {
            Rendering::LensBeyond => bend_beyond(&rendered),
            _ => Ok(rendered),
        }
    }
}

/// The lens beyond the model's displacement at pixel (x, y) of a `w`×`h` picture, pixels: a
/// thin prism (r² along one diagonal) and a radial eighth-power term.
fn beyond(x: f64, y: f64, w: f64, h: f64) -> (f64, f64) {
    let half_diagonal = (w * w + h * h).sqrt() / 2.0;
    let (u, v) = ((x - w / 2.0) / half_diagonal, (y - h / 2.0) / half_diagonal);
    let r2 = u * u + v * v;
    let prism = PRISM_AT_CORNER * r2 / std::f64::consts::SQRT_2;
    let eighth = EIGHTH_AT_CORNER * r2.powi(4);
    let r = r2.sqrt().max(1e-12);
    (prism + eighth * u / r, prism + eighth * v / r)
}

/// Warp a rendered picture through the lens beyond the model: each pixel of the result shows
/// what the rendered picture shows where the bend came from.
fn bend_beyond(rendered: &Mat) -> Result<Mat, VisionError> {
    let size = rendered.size()?;
    let (w, h) = (f64::from(size.width), f64::from(size.height));
    let mut map_x = Mat::new_rows_cols_with_default(
        size.height,
        size.width,
        opencv::core::CV_32FC1,
        opencv::core::Scalar::all(0.0),
    )?;
    let mut map_y = map_x.clone();
    for j in 0..size.height {
        for i in 0..size.width {
            let (x, y) = (f64::from(i), f64::from(j));
            // The bend's inverse by two fixed-point steps: it is a few pixels and smooth.
            let (mut sx, mut sy) = (x, y);
            for _ in 0..2 {
                let (dx, dy) = beyond(sx, sy, w, h);
                (sx, sy) = (x - dx, y - dy);
            }
            *map_x.at_2d_mut::<f32>(j, i)? = sx as f32;
            *map_y.at_2d_mut::<f32>(j, i)? = sy as f32;
        }
    }
    let mut bent = Mat::default();
    imgproc::remap(
        rendered,
        &mut bent,
        &map_x,
        &map_y,
        imgproc::INTER_LINEAR,
        opencv::core::BORDER_REPLICATE,
        opencv::core::Scalar::all(0.0),
    )?;
    Ok(bent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bend_beyond_reaches_a_few_pixels_at_the_corners_and_none_at_the_centre() {
        let (w, h) = (1920.0, 1080.0);
        let at_centre = beyond(w / 2.0, h / 2.0, w, h);
        assert!(at_centre.0.abs() < 1e-9 && at_centre.1.abs() < 1e-9);
        let reach: Vec<f64> = [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)]
            .iter()
            .map(|&(x, y)| {
                let (dx, dy) = beyond(x, y, w, h);
                dx.hypot(dy)
            })
            .collect();
        let most = reach.iter().copied().fold(0.0, f64::max);
        let least = reach.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(
            (4.0..6.0).contains(&most) && least > 0.5,
            "{reach:.2?} px at the corners"
        );
    }

    #[test]
    fn every_rendering_has_a_name_of_its_own() {
        for r in Rendering::ALL {
            assert_eq!(Rendering::named(r.name()), Some(r));
        }
    }
}
