//! Each tag's health as the camera sees it, with a plain remedy for what is wrong: "tag 34:
//! glare — tilt the lamp or print on matte paper", "tag 12: faded — reprint it".
//!
//! A tag is looked at where the detector put its corners ([`look`]): its black border and the
//! paper margin round it are read along each side, away from the corners. From them: how dark
//! the ink is against the paper, how much of the paper is clipped to full white, how sharp the
//! border's outer edge is (the blur's width, from the edge's steepest slope against its step),
//! and how well the whole tag fits its printed pattern. [`HealthWatch`] looks at a few resting
//! tags a frame, in turn, keeps each tag's last looks, and names an ailment only when most of
//! them agree — a hand's shadow or one MJPEG frame is no ailment.
//!
//! Decisions:
//! - Only tags lying still are looked at: a tag carried through the air is blurred by its
//!   motion, which no focus or reprint cures.
//! - Glare is told from fading by what clips: a lamp's reflection adds light, so the paper
//!   goes to full white and the ink greys; faded ink greys with the paper still paper.
//! - Figures are ratios of the paper's grey, so an exposure swinging as arms pass changes none.
//! - A tag's looks are kept when its unit moves: fading is the print's and follows it, and an
//!   ailment of its old place (a lamp's glare) is outvoted by a few looks at the new one
//!   rather than forgotten at once, so a remedy does not blink off at every move.

use std::collections::{HashMap, VecDeque};

use calibration::{PixelPoint, Pixels, TagSighting};
use nalgebra::{Matrix3, Vector3};
use opencv::core::{Mat, MatTraitConst, Rect};
use serde::Serialize;

use crate::detect::to_gray;
use crate::error::VisionError;
use crate::live::gray::GrayView;
use crate::live::likeness::{Correlation, bounds, in_cells};
use crate::live::square::square_to_quad;
use crate::pattern::TagTexture;
use crate::track::{TrackedTag, sightings_at_rest};

/// What the camera makes of one tag in one frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TagLook {
    /// How blurred it is: the standard deviation of the Gaussian blur that makes its printed
    /// pattern fit its pixels best, pixels (a focused 1080p webcam: 0.5–1).
    pub blur: Pixels,
    /// The correlation of its pixels with its pattern so blurred (1 for a perfect fit): low
    /// when it is creased, scuffed or partly covered.
    pub fit: f64,
    /// Its ink's grey over its paper's, as the blurred pattern fitted to it has them (a fresh
    /// print: about 0.1; the blur does not change it).
    pub ink: f64,
    /// Its paper margin's grey, as seen.
    pub paper: f64,
    /// The paper of the tags looked at in the same frame, the middle of them: glare is light
    /// they do not get, while an exposure swinging as an arm passes brightens them all.
    pub around: f64,
    /// The share of its paper margin at full white.
    pub clipped: f64,
    /// The side whose paper margin is hidden, if one is: it reads darker than
    /// [`COVERED_PAPER`] of the other sides' paper.
    pub covered: Option<PictureSide>,
    /// Its side, pixels.
    pub pixels: Pixels,
}

/// What can be wrong with a tag, each with its remedy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ailment {
    /// A lamp's reflection on glossy paper.
    Glare,
    /// Out of focus.
    Blurred,
    /// Ink gone grey.
    Faded,
    /// Its pattern poorly seen with good ink and focus: creased, scuffed or partly covered.
    Unclear,
    /// Its paper margin hidden along one side (figures on its base, seen from the side).
    Covered(PictureSide),
}

/// A side of a tag as the picture shows it: the lower side is the one nearest a camera at the
/// table's edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PictureSide {
    /// Towards the picture's bottom: nearest the camera.
    Lower,
    /// Towards the picture's top: farthest from the camera.
    Upper,
    /// Towards the picture's left.
    Left,
    /// Towards the picture's right.
    Right,
}

impl PictureSide {
    /// The side a direction in the picture (y down) points to.
    fn of(dx: f64, dy: f64) -> PictureSide {
        match (dx.abs() > dy.abs(), dx > 0.0, dy > 0.0) {
            (true, true, _) => PictureSide::Right,
            (true, false, _) => PictureSide::Left,
            (false, _, true) => PictureSide::Lower,
            (false, _, false) => PictureSide::Upper,
        }
    }
}

impl Ailment {
    /// In a word.
    pub fn name(self) -> &'static str {
        match self {
            Ailment::Glare => "glare",
            Ailment::Blurred => "blurred",
            Ailment::Faded => "faded",
            Ailment::Unclear => "hard to read",
            Ailment::Covered(_) => "partly covered",
        }
    }

    /// What to do about it.
    pub fn remedy(self) -> &'static str {
        match self {
            Ailment::Glare => "tilt the lamp or print on matte paper",
            Ailment::Blurred => "focus the camera, or give it more light",
            Ailment::Faded => "reprint it",
            Ailment::Unclear => "flatten it, clear what covers it, or reprint it",
            Ailment::Covered(PictureSide::Lower) => {
                "something in front of it (figures on its base?) hides its edge nearest the camera: move the tag away from them on its base, or raise the camera"
            }
            Ailment::Covered(PictureSide::Upper) => {
                "something hides its edge farthest from the camera: move the tag away from it on its base"
            }
            Ailment::Covered(_) => {
                "something beside it (figures on its base?) hides one of its edges: move the tag away from them on its base"
            }
        }
    }
}

/// Limits beyond which a look shows an ailment, from renders of each (see the tests): a fresh
/// print fits with ink at 0.06–0.13 of its paper whatever the blur, a faded one (ink 125 of
/// 236) at 0.48–0.67, one under a lamp at 0.5–0.9 with its margin clipped or 1.25–1.8 times as
/// bright as the other tags' (across a table lit from one side, paper differs by up to 1.15).
/// Glare: the margin a quarter clipped, or this much brighter than the tags looked at beside
/// it …
const GLARE_PAPER: f64 = 1.2;
/// … and the ink greyed by the added light.
const GLARE_INK: f64 = 0.35;
/// A focused 1080p webcam blurs by 0.5–1 px; at 2 px the cells of a 20 px tag run together.
const BLURRED: f64 = 1.8;
const FADED_INK: f64 = 0.35;
/// A tag fits its blurred pattern at 0.9–1 unless something covers or creases it.
const UNCLEAR_FIT: f64 = 0.75;
/// A side whose paper margin reads darker than this share of the other sides' is hidden: a
/// lamp from one side shades paper by 15 % at most, painted figures are half as bright or less.
const COVERED_PAPER: f64 = 0.6;

impl TagLook {
    /// What is wrong with the tag in this look, if anything.
    pub fn ailment(&self) -> Option<Ailment> {
        let bright = self.paper >= GLARE_PAPER * self.around || self.clipped >= 0.25;
        if bright && self.ink >= GLARE_INK {
            Some(Ailment::Glare)
        } else if self.blur.0 >= BLURRED {
            Some(Ailment::Blurred)
        } else if self.ink >= FADED_INK {
            Some(Ailment::Faded)
        } else if let Some(side) = self.covered {
            Some(Ailment::Covered(side))
        } else if self.fit < UNCLEAR_FIT {
            Some(Ailment::Unclear)
        } else {
            None
        }
    }
}

/// A tag's ailment, with the figures that show it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Remedy {
    /// The tag.
    pub tag: u32,
    /// What is wrong.
    pub ailment: Ailment,
    /// Its looks' middle figures.
    pub look: TagLook,
}

impl std::fmt::Display for Remedy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tag {}: {} — {}",
            self.tag,
            self.ailment.name(),
            self.ailment.remedy()
        )
    }
}

/// Positions along a side where the border and the margin are read, as shares of the
/// half-side: away from the corners, where the blur mixes two sides.
const ALONG: [f64; 5] = [-0.6, -0.3, 0.0, 0.3, 0.6];
/// A grey at or above this is full white.
const WHITE: f64 = 250.0;
/// The blurs tried, pixels.
const BLURS: [f64; 7] = [0.4, 0.7, 1.0, 1.3, 1.6, 2.0, 2.6];

/// How a tag of this pattern looks in a grey picture, given its corners in the detector's
/// order; `None` when it reaches out of the picture.
pub(crate) fn look(
    gray: &GrayView,
    corners: &[PixelPoint; 4],
    pattern: &TagTexture,
) -> Option<TagLook> {
    let to_pixels = square_to_quad(corners)?;
    // The square spans −1 to 1 over the inked cells: a cell is 2/cells of it. The border's
    // middle is half a cell in from the edge, the margin's half a cell out.
    let half_cell = 1.0 / pattern.inked_cells() as f64;
    let at = |x: f64, y: f64| {
        let p = to_pixels * Vector3::new(x, y, 1.0);
        gray.at(p.x / p.z, p.y / p.z)
    };
    let mut paper = Vec::new();
    let mut sides = Vec::new();
    for (nx, ny) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
        let mut side = Vec::new();
        for t in ALONG {
            let (ex, ey) = (nx - ny * t, ny + nx * t);
            side.push(at(ex + nx * half_cell, ey + ny * half_cell)?);
        }
        paper.extend_from_slice(&side);
        sides.push(((nx, ny), median(&mut side)));
    }
    let clipped = paper.iter().filter(|p| **p >= WHITE).count() as f64 / paper.len() as f64;
    let paper = median(&mut paper);
    let covered = covered_side(&to_pixels, &sides);
    let sharp = sharpness(gray, pattern, corners)?;
    Some(TagLook {
        blur: sharp.blur,
        fit: sharp.fit,
        ink: sharp.ink / sharp.paper.max(1.0),
        paper,
        around: paper,
        clipped,
        covered,
        pixels: Pixels(super::live::roi::side(corners).0),
    })
}

/// The side (square direction, its paper's middle grey) whose paper reads darkest, if it is
/// darker than [`COVERED_PAPER`] of the middle of the others, as the picture shows it.
fn covered_side(to_pixels: &Matrix3<f64>, sides: &[((f64, f64), f64)]) -> Option<PictureSide> {
    let (darkest, &((nx, ny), grey)) = sides
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.1.total_cmp(&b.1.1))?;
    let mut others: Vec<f64> = sides
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != darkest)
        .map(|(_, s)| s.1)
        .collect();
    if grey >= COVERED_PAPER * median(&mut others) {
        return None;
    }
    let pixel = |x: f64, y: f64| {
        let p = to_pixels * Vector3::new(x, y, 1.0);
        (p.x / p.z, p.y / p.z)
    };
    let ((cx, cy), (sx, sy)) = (pixel(0.0, 0.0), pixel(nx, ny));
    Some(PictureSide::of(sx - cx, sy - cy))
}

/// What the blurred pattern that fits a tag best says of it.
struct Sharpness {
    blur: Pixels,
    fit: f64,
    /// The grey its ink and its paper have in that fit.
    ink: f64,
    paper: f64,
}

/// The blur that makes the pattern fit the pixels best (of [`BLURS`]), and that fit. The
/// pattern is drawn through the quad and blurred exactly by a Gaussian of that width in the
/// picture (taken into the pattern's cells along each of its axes) and by the pixel's own
/// square; only the inked square is compared, since beyond the paper margin lies the stand.
fn sharpness(
    gray: &GrayView,
    pattern: &TagTexture,
    corners: &[PixelPoint; 4],
) -> Option<Sharpness> {
    let to_square = square_to_quad(corners)?.try_inverse()?;
    let inked = pattern.inked_cells() as f64;
    let cells = pattern.cells as f64;
    let to_cells = |x: f64, y: f64| in_cells(&to_square, inked, x, y);
    let (low, high) = bounds(corners);
    let mut samples = Vec::new();
    for j in low.y.floor() as i64..=high.y.ceil() as i64 {
        for i in low.x.floor() as i64..=high.x.ceil() as i64 {
            let (x, y) = (i as f64, j as f64);
            let (u, v) = to_cells(x, y);
            let inside = |w: f64| (1.0..=cells - 1.0).contains(&w);
            if inside(u) && inside(v) {
                // Cells a pixel along each of the pattern's axes, here.
                let (ux, vx) = to_cells(x + 1.0, y);
                let (uy, vy) = to_cells(x, y + 1.0);
                let per_pixel = ((ux - u).hypot(uy - u), (vx - v).hypot(vy - v));
                samples.push((gray.at(x, y)?, u, v, per_pixel));
            }
        }
    }
    BLURS
        .iter()
        .filter_map(|&blur| {
            // The pixel's square blurs by √(1/12) of a pixel besides.
            let spread = (blur * blur + 1.0 / 12.0).sqrt();
            let mut sums = Correlation::default();
            for &(grey, u, v, (per_u, per_v)) in &samples {
                sums.add(blurred(pattern, u, v, spread * per_u, spread * per_v), grey);
            }
            let (ink, contrast) = sums.line()?;
            Some(Sharpness {
                blur: Pixels(blur),
                fit: sums.coefficient()?,
                ink,
                paper: ink + contrast,
            })
        })
        .max_by(|a, b| a.fit.total_cmp(&b.fit))
}

/// The pattern's lightness (ink 0, paper 1) at `(u, v)` in cells, blurred by a Gaussian of
/// `su` cells along its rows and `sv` down its columns: each cell weighted by the share of the
/// Gaussian over it, separably.
fn blurred(pattern: &TagTexture, u: f64, v: f64, su: f64, sv: f64) -> f64 {
    let (columns, ncols) = axis_weights(u, su);
    let (rows, nrows) = axis_weights(v, sv);
    rows[..nrows]
        .iter()
        .map(|&(row, wv)| {
            wv * columns[..ncols]
                .iter()
                .map(|&(col, wu)| if pattern.is_black(col, row) { 0.0 } else { wu })
                .sum::<f64>()
        })
        .sum()
}

/// Cells a Gaussian is spread over along one axis, at most (three standard deviations either
/// side of the widest blur tried on the smallest tag).
const REACH_CELLS: usize = 12;

/// The cells along one axis a Gaussian of `spread` cells at `x` falls on, with their shares,
/// and how many there are.
fn axis_weights(x: f64, spread: f64) -> ([(i64, f64); REACH_CELLS], usize) {
    let spread = spread.max(1e-6);
    let reach = 3.0 * spread;
    let mut out = [(0, 0.0); REACH_CELLS];
    let first = (x - reach).floor() as i64;
    let last = ((x + reach).floor() as i64).min(first + REACH_CELLS as i64 - 1);
    let mut below = normal_cdf((first as f64 - x) / spread);
    for (slot, c) in out.iter_mut().zip(first..=last) {
        let above = normal_cdf((c as f64 + 1.0 - x) / spread);
        *slot = (c, above - below);
        below = above;
    }
    (out, (last - first + 1).max(0) as usize)
}

/// The standard normal's cumulative distribution (Abramowitz and Stegun 7.1.26 for the error
/// function: within 1.5e-7).
fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    0.5 * (1.0 + erf.copysign(z))
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

/// Looks kept a tag.
const LOOKS_KEPT: usize = 12;
/// Tags looked at a frame, at most: a look costs a few tenths of a millisecond, and the
/// ailments it finds last minutes.
const LOOKS_A_FRAME: usize = 3;
/// Looks needed before an ailment is named …
const LOOKS_TO_NAME: usize = 5;
/// … and the share of them that must show it.
const AGREEING: f64 = 0.6;

/// Each tag's last looks and the remedies they call for (see the module's documentation).
#[derive(Default)]
pub struct HealthWatch {
    family: String,
    patterns: HashMap<u32, Option<TagTexture>>,
    looks: HashMap<u32, VecDeque<TagLook>>,
    turn: usize,
}

impl HealthWatch {
    /// A watch over tags of this family.
    pub fn new(family: &str) -> HealthWatch {
        HealthWatch {
            family: family.to_owned(),
            ..HealthWatch::default()
        }
    }

    /// Look at a few of this frame's tags that lie at rest (the tracker's `tracked`, their
    /// `sightings` in `image`): a carried tag's motion blur is no fault of its print.
    pub fn examine_at_rest(
        &mut self,
        image: &Mat,
        tracked: &[TrackedTag],
        sightings: &[TagSighting],
    ) -> Result<(), VisionError> {
        self.examine(image, &sightings_at_rest(tracked, sightings))
    }

    /// Look at a few of these tags (lying still, seen in `image`, a BGR or grey picture), in
    /// turn from frame to frame.
    pub fn examine(&mut self, image: &Mat, tags: &[TagSighting]) -> Result<(), VisionError> {
        if tags.is_empty() {
            return Ok(());
        }
        let count = tags.len().min(LOOKS_A_FRAME);
        let mut seen = Vec::with_capacity(count);
        for k in 0..count {
            let sighting = &tags[(self.turn + k) % tags.len()];
            if let Some(look) = self.look_at(image, sighting)? {
                seen.push((sighting.id, look));
            }
        }
        let mut papers: Vec<f64> = seen.iter().map(|(_, l)| l.paper).collect();
        let around = median(&mut papers);
        for (id, look) in seen {
            let looks = self.looks.entry(id).or_default();
            looks.push_back(TagLook { around, ..look });
            if looks.len() > LOOKS_KEPT {
                looks.pop_front();
            }
        }
        self.turn = (self.turn + count) % tags.len();
        Ok(())
    }

    fn look_at(
        &mut self,
        image: &Mat,
        sighting: &TagSighting,
    ) -> Result<Option<TagLook>, VisionError> {
        let Some(patch) = Patch::round(image, &sighting.corners)? else {
            return Ok(None);
        };
        let Some(view) = GrayView::new(&patch.gray) else {
            return Ok(None);
        };
        let corners = patch.corners;
        let family = self.family.clone();
        let pattern = self
            .patterns
            .entry(sighting.id)
            .or_insert_with(|| TagTexture::new(&family, sighting.id).ok());
        Ok(pattern.as_ref().and_then(|p| look(&view, &corners, p)))
    }

    /// The tags whose recent looks agree their paper margin is covered along a side.
    pub fn covered(&self) -> Vec<u32> {
        self.remedies()
            .into_iter()
            .filter(|r| matches!(r.ailment, Ailment::Covered(_)))
            .map(|r| r.tag)
            .collect()
    }

    /// The ailments the tags' recent looks agree on, by tag.
    pub fn remedies(&self) -> Vec<Remedy> {
        let mut out: Vec<Remedy> = self
            .looks
            .iter()
            .filter(|(_, looks)| looks.len() >= LOOKS_TO_NAME)
            .filter_map(|(id, looks)| {
                let mut counts: HashMap<Ailment, usize> = HashMap::new();
                for ailment in looks.iter().filter_map(TagLook::ailment) {
                    *counts.entry(ailment).or_default() += 1;
                }
                let (ailment, n) = counts.into_iter().max_by_key(|(_, n)| *n)?;
                (n as f64 >= AGREEING * looks.len() as f64).then(|| Remedy {
                    tag: *id,
                    ailment,
                    look: middle(looks),
                })
            })
            .collect();
        out.sort_by_key(|r| r.tag);
        out
    }
}

/// The middle of some looks, figure by figure.
fn middle(looks: &VecDeque<TagLook>) -> TagLook {
    let figure = |f: &dyn Fn(&TagLook) -> f64| {
        let mut values: Vec<f64> = looks.iter().map(f).collect();
        median(&mut values)
    };
    TagLook {
        blur: Pixels(figure(&|l| l.blur.0)),
        fit: figure(&|l| l.fit),
        ink: figure(&|l| l.ink),
        paper: figure(&|l| l.paper),
        around: figure(&|l| l.around),
        clipped: figure(&|l| l.clipped),
        covered: most_often(looks.iter().map(|l| l.covered)),
        pixels: Pixels(figure(&|l| l.pixels.0)),
    }
}

/// The side most looks saw covered (`None` when most saw none).
fn most_often(sides: impl Iterator<Item = Option<PictureSide>>) -> Option<PictureSide> {
    let mut counts: HashMap<Option<PictureSide>, usize> = HashMap::new();
    for side in sides {
        *counts.entry(side).or_default() += 1;
    }
    // A tie goes to "none covered".
    counts
        .into_iter()
        .max_by_key(|(side, n)| (*n, side.is_none()))?
        .0
}

/// A grey patch of the picture round a tag, with its margin and a little more, and the tag's
/// corners in the patch.
struct Patch {
    gray: Mat,
    corners: [PixelPoint; 4],
}

impl Patch {
    /// The patch round a tag's corners; `None` when the tag reaches out of the picture.
    fn round(image: &Mat, corners: &[PixelPoint; 4]) -> Result<Option<Self>, VisionError> {
        let side = super::live::roi::side(corners).0;
        let pad = side / 2.0 + 3.0;
        let (low, high) = bounds(corners);
        let (x0, y0) = ((low.x - pad).floor(), (low.y - pad).floor());
        let (x1, y1) = ((high.x + pad).ceil(), (high.y + pad).ceil());
        let (width, height) = (f64::from(image.cols()), f64::from(image.rows()));
        if x0 < 0.0 || y0 < 0.0 || x1 > width || y1 > height || !(x1 > x0 && y1 > y0) {
            return Ok(None);
        }
        let rect = Rect::new(x0 as i32, y0 as i32, (x1 - x0) as i32, (y1 - y0) as i32);
        let roi = Mat::roi(image, rect)?.try_clone()?;
        Ok(Some(Self {
            gray: to_gray(&roi)?,
            corners: corners.map(|c| PixelPoint::new(c.x - x0, c.y - y0)),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synthetic::{
        Block, Effects, Glare, PrintedTag, Renderer, Rgb, Scenery, SyntheticTable, framing_camera,
    };
    use calibration::{ImageSize, TableSize, TagPlacement};
    use rules::geometry::{OrientedRect, TablePoint};
    use rules::units::{Degrees, Inches};

    /// Tags across the table: plain ones (ids 10–15), faded ones (20–25), ones under a lamp's
    /// glare (30–35); their sightings where they truly are.
    fn table(effects: &Effects) -> (Mat, Vec<TagSighting>) {
        let size = TableSize {
            width: 72.0,
            depth: 48.0,
        };
        let camera = framing_camera(
            size,
            ImageSize {
                width: 1920,
                height: 1080,
            },
            Degrees(40.0),
            Degrees(70.0),
        );
        let mut world = SyntheticTable::new(size);
        world.scenery = Scenery::Busy { seed: 3 };
        for (row, first) in [(0, 10), (1, 20), (2, 30)] {
            for k in 0..6 {
                let center =
                    TablePoint::new(10.0 + 10.0 * f64::from(k), 8.0 + 14.0 * f64::from(row));
                let id = first + k as u32;
                let placement = TagPlacement {
                    center,
                    facing: Degrees(90.0 + 7.0 * f64::from(k)),
                    size: Inches(1.0),
                    height: Inches(0.16),
                };
                world.blocks.push(Block {
                    footprint: OrientedRect::from_center(
                        center,
                        placement.facing,
                        Inches(2.0),
                        Inches(1.5),
                    ),
                    height: Inches(0.16),
                    colour: Rgb(168, 42, 38),
                    tags: vec![PrintedTag { id, placement }],
                    figures: true,
                    motion: None,
                });
                if row == 1 {
                    world.faded.push((id, Rgb(125, 122, 120)));
                }
                if row == 2 {
                    world.glare.push(Glare {
                        center,
                        radius: Inches(1.5),
                        strength: 200.0,
                    });
                }
            }
        }
        let image = Renderer::new()
            .render(&world, &camera, effects)
            .expect("renders");
        let sightings = world
            .tags_on_blocks()
            .filter_map(|(b, t)| b.tag_as_seen(t, &camera))
            .collect();
        (image, sightings)
    }

    fn ailments(image: &Mat, sightings: &[TagSighting]) -> HashMap<u32, Option<Ailment>> {
        let mut watch = HealthWatch::new("tag36h11");
        let looks: Vec<(u32, TagLook)> = sightings
            .iter()
            .map(|s| {
                (
                    s.id,
                    watch.look_at(image, s).expect("reads").expect("in view"),
                )
            })
            .collect();
        let mut papers: Vec<f64> = looks.iter().map(|(_, l)| l.paper).collect();
        let around = median(&mut papers);
        looks
            .into_iter()
            .map(|(id, l)| (id, TagLook { around, ..l }.ailment()))
            .collect()
    }

    #[test]
    fn glare_and_faded_ink_are_told_apart_and_plain_tags_are_well() {
        let effects = Effects {
            jpeg_quality: Some(60),
            ..Effects::WEBCAM
        };
        let (image, sightings) = table(&effects);
        let found = ailments(&image, &sightings);
        for (id, ailment) in &found {
            let expected = match id / 10 {
                1 => None,
                2 => Some(Ailment::Faded),
                _ => Some(Ailment::Glare),
            };
            assert_eq!(*ailment, expected, "tag {id}");
        }
    }

    #[test]
    fn a_camera_out_of_focus_blurs_every_tag_and_an_exposure_swing_changes_nothing() {
        let blurred = Effects {
            blur: Pixels(2.2),
            ..Effects::WEBCAM
        };
        let (image, sightings) = table(&blurred);
        let found = ailments(&image, &sightings);
        for id in 10..16 {
            assert_eq!(found[&id], Some(Ailment::Blurred), "tag {id}");
        }
        let dark = Effects {
            gain: 0.6,
            ..Effects::WEBCAM
        };
        let (image, sightings) = table(&dark);
        let found = ailments(&image, &sightings);
        for id in 10..16 {
            assert_eq!(found[&id], None, "tag {id}");
        }
    }

    #[test]
    fn an_ailment_is_named_once_most_looks_agree_with_its_remedy() {
        let (image, sightings) = table(&Effects::WEBCAM);
        let mut watch = HealthWatch::new("tag36h11");
        // A few tags a frame, in turn: after a frame or two no tag has been seen enough.
        watch.examine(&image, &sightings).expect("reads");
        assert!(watch.remedies().is_empty());
        for _ in 0..40 {
            watch.examine(&image, &sightings).expect("reads");
        }
        let remedies = watch.remedies();
        let glare = remedies
            .iter()
            .find(|r| r.tag == 31)
            .expect("tag 31 under glare");
        assert_eq!(
            glare.to_string(),
            "tag 31: glare — tilt the lamp or print on matte paper"
        );
        let faded = remedies.iter().find(|r| r.tag == 22).expect("tag 22 faded");
        assert_eq!(faded.to_string(), "tag 22: faded — reprint it");
        assert!(remedies.iter().all(|r| r.tag >= 20), "{remedies:?}");
    }
}
