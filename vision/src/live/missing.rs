//! Finding the roster's tags the AprilTag detector misses, where the calibrated camera says
//! they can be: tags too small for it, and tags partly covered by the figures on their bases.
//!
//! The detector's quad finder needs a tag's one-cell paper border to part its black border from
//! whatever lies round it, all the way round. On the far side of an oblique table a cell is a
//! pixel and a half and the blur closes that gap, so most tags under 16 px are never found;
//! and a figure standing over a tag's quiet zone, seen from a camera at the table's side, breaks
//! the ring at any size (on `bench accuracy`'s built tables the detector finds a sixth of the
//! tags less than a quarter covered). Yet the calibration knows how big a stand's tag is at
//! every place on the table. The table is drawn again seen from straight above (the table
//! picture rectified at the tags' height), where every tag is a square of one known size at
//! some turn. There, a point is a candidate when along most rays from it a dark border is
//! followed by light paper, as round a tag whatever its turn and data cells
//! ([`ring_contrast`]: the median ray, so a figure over a few rays does not hide it). Each
//! candidate's turn is read from its grid of edges, its centre squared up on its border, and the
//! square handed to the follower's edge fit on the camera's own pixels; what that finds is
//! judged by its likeness to the patterns of the roster's tags not yet seen
//! ([`likeness::identify`]): it must be clearly one tag at one turn, or it is dropped. When the
//! border's four edges are not all found, or the whole pattern is not clearly one tag, the
//! candidate is tried as covered along each edge and at each corner in turn ([`covered`]).
//!
//! Decisions:
//! - Only unseen roster tags are tried: a stranger's id is never invented, and each pattern tried
//!   is one more chance for clutter to resemble something, so the list is kept to what is missing.
//! - Rectifying once per tag size makes the candidate test the same everywhere (one size, no
//!   perspective); the fine fit and the check are made on the original pixels, so the
//!   resampling never decides where a tag is.
//! - The dark middle of a tag is no test: some tags' data cells are mostly paper, and a dark base
//!   beside a tag is darker than its middle. The ring is what every tag has.
//! - An id judged to be in two places is reported in neither.
//! - The live detector searches one strip of the table a frame ([`MissingTagSearch::find`]), so
//!   that no frame pays for the whole band.

use std::collections::HashMap;

use calibration::{
    Camera, PixelPoint, Pixels, StandTagSpec, TableCalibration, TableSize, TagPlacement,
    TagSighting,
};
use opencv::core::{self as cv, Mat, MatTraitConst, MatTraitConstManual, MatTraitManual, Scalar};
use opencv::imgproc;
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};

use super::covered;
use super::gray::{GrayView, gray_view, one_block};
use super::likeness;
use super::paint::Paint;
use super::roi::{follow_search, side};
use super::square::{SideRatio, fit_square};
use crate::detect::as_gray;
use crate::error::VisionError;
use crate::pattern::TagTexture;

/// A tag's side in the rectified picture, in its pixels.
const RECTIFIED_SIDE: f64 = 12.0;
/// Tags smaller than this in the camera's picture are not looked for: too few pixels to tell
/// one pattern from another.
const MIN_SIDE: f64 = 9.0;
/// Tags larger than this are left to the detector. Below it a figure over the quiet zone hides
/// a tag from the detector as surely as its size does; above it (the near edge of a big table
/// seen from close) the search would cost more than the few tags it finds.
const MAX_SIDE: f64 = 64.0;
/// The least difference between a candidate's border and the paper round it, grey levels.
const MIN_CONTRAST: f64 = 30.0;
/// Candidates tried at most per tag size in a search of the whole table, clearest first: a
/// bound on the time a busy table takes.
const MAX_CANDIDATES: usize = 2000;
/// The same for one strip searched live, a strip a frame: reading a candidate's turn and
/// squaring it up costs some 0.1 ms, and on a busy table with hands over it and tags missing a
/// strip rings at a few hundred places.
const LIVE_CANDIDATES: usize = 60;

/// A part of the table to search: strip `index` of `count` across its depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Strip {
    pub index: usize,
    pub count: usize,
}

impl Strip {
    /// The whole table at once.
    pub const WHOLE: Strip = Strip { index: 0, count: 1 };

    /// The candidates tried at most per tag size: many for the whole table (a picture, or the
    /// first frame of a calibration), a frame's budget for a strip searched live.
    fn budget(self) -> usize {
        if self.count <= 1 {
            MAX_CANDIDATES
        } else {
            LIVE_CANDIDATES
        }
    }

    /// Its rows of a picture `rows` high, overlapping the next strips by a tag and a half so
    /// that a tag on a border is whole in one of them.
    fn rows(self, rows: usize) -> std::ops::Range<usize> {
        let overlap = (1.5 * RECTIFIED_SIDE) as usize;
        let count = self.count.max(1);
        let step = Strip::step(rows, count);
        let top = (self.index % count * step).saturating_sub(overlap);
        let bottom = ((self.index % count + 1) * step + overlap).min(rows);
        top..bottom
    }

    /// The strip of `count` whose own rows (overlap aside) of a picture `rows` high hold `row`.
    fn holding(row: usize, rows: usize, count: usize) -> Strip {
        let count = count.max(1);
        Strip {
            index: row / Strip::step(rows, count),
            count,
        }
    }

    /// Rows a strip of `count` spans in a picture `rows` high, overlap aside.
    fn step(rows: usize, count: usize) -> usize {
        rows.div_ceil(count).max(1)
    }
}

/// A search for the roster's missing tags through one calibrated camera, prepared once (the
/// table's rectification) and run on frame after frame.
pub struct MissingTagSearch {
    camera: Camera,
    groups: Vec<Group>,
}

/// Wanted tags of one printed size, looked for together.
struct Group {
    size: Inches,
    /// Their mean height above the cloth: the plane the table is rectified at.
    height: Inches,
    patterns: Vec<(u32, TagTexture)>,
    /// For each pixel of the rectified table, its place in the camera's picture; −1 where the
    /// group's tags would not be between [`MIN_SIDE`] and [`MAX_SIDE`] pixels.
    map: Mat,
    /// Rectified pixels a table inch.
    per_inch: f64,
}

impl Group {
    /// Cells across the black square of the group's family (8 for tag36h11).
    fn inked_cells(&self) -> usize {
        self.patterns.first().map_or(8, |(_, p)| p.inked_cells())
    }
}

impl MissingTagSearch {
    /// A search for the `wanted` tags (the roster's stand tags) on the table `calibration`
    /// describes; fails on an id outside the calibration's tag family.
    pub fn new(
        calibration: &TableCalibration,
        wanted: &HashMap<u32, StandTagSpec>,
    ) -> Result<MissingTagSearch, VisionError> {
        let camera = calibration.camera;
        let mut by_size: HashMap<i64, Vec<(u32, StandTagSpec)>> = HashMap::new();
        for (&id, spec) in wanted {
            let key = (spec.size.0 * 100.0).round() as i64;
            by_size.entry(key).or_default().push((id, *spec));
        }
        let mut groups = Vec::new();
        for mut tags in by_size.into_values() {
            tags.sort_by_key(|t| t.0);
            let n = tags.len() as f64;
            let size = Inches(tags.iter().map(|t| t.1.size.0).sum::<f64>() / n);
            let height = Inches(tags.iter().map(|t| t.1.height.0).sum::<f64>() / n);
            let patterns = tags
                .iter()
                .map(|&(id, _)| Ok((id, TagTexture::new(&calibration.family, id)?)))
                .collect::<Result<_, VisionError>>()?;
            let per_inch = RECTIFIED_SIDE / size.0;
            let map = rectification(&camera, calibration.table, size, height, per_inch)?;
            groups.push(Group {
                size,
                height,
                patterns,
                map,
                per_inch,
            });
        }
        groups.sort_by(|a, b| a.size.0.total_cmp(&b.size.0));
        Ok(MissingTagSearch { camera, groups })
    }

    /// The wanted tags found in a frame (BGR or grey), except those `seen` already: the whole
    /// table at once, as for a single picture.
    pub fn find_in(
        &self,
        frame: &Mat,
        seen: &[TagSighting],
    ) -> Result<Vec<TagSighting>, VisionError> {
        let gray = as_gray(frame)?;
        let gray = one_block(&gray)?;
        let paint = Paint::new(frame);
        let view = gray_view(&gray)?;
        let picture = Picture {
            view: &view,
            paint: paint.as_ref(),
        };
        self.find(&gray, picture, seen, &[], Strip::WHOLE)
    }

    /// Whether tag `id` is one the search looks for.
    pub(crate) fn wants(&self, id: u32) -> bool {
        self.groups
            .iter()
            .any(|g| g.patterns.iter().any(|(wanted, _)| *wanted == id))
    }

    /// Which of `count` strips holds the place of the table seen at `pixel` (at the smallest
    /// tags' height); `None` when the camera cannot see that pixel on the table.
    pub(crate) fn strip_at(&self, pixel: PixelPoint, count: usize) -> Option<usize> {
        let group = self.groups.first()?;
        let place = self.camera.unproject_at(&pixel, group.height)?;
        let rows = group.map.rows().max(1) as usize;
        let row = (place.y * group.per_inch).clamp(0.0, (rows - 1) as f64) as usize;
        Some(Strip::holding(row, rows, count).index)
    }

    /// The wanted tags found in one grey frame's `strip` of the table, except those `seen`
    /// already (by id, and anything where a seen tag lies) and those `elsewhere` (looked for
    /// by other means).
    pub(crate) fn find(
        &self,
        gray: &Mat,
        picture: Picture,
        seen: &[TagSighting],
        elsewhere: &[u32],
        strip: Strip,
    ) -> Result<Vec<TagSighting>, VisionError> {
        let mut found: HashMap<u32, Vec<TagSighting>> = HashMap::new();
        let mut taken: Vec<PixelPoint> = seen.iter().map(TagSighting::center).collect();
        for group in &self.groups {
            let patterns: Vec<(u32, &TagTexture)> = group
                .patterns
                .iter()
                .filter(|(id, _)| seen.iter().all(|s| s.id != *id) && !elsewhere.contains(id))
                .map(|(id, pattern)| (*id, pattern))
                .collect();
            if patterns.is_empty() {
                continue;
            }
            let rectified = Rectified::new(gray, group, strip)?;
            for candidate in rectified.candidates(&taken, strip.budget())? {
                let Some(corners) = self.predicted(group, &rectified, candidate) else {
                    continue;
                };
                let size = side(&corners);
                let centre = PixelPoint::mean(&corners);
                if taken.iter().any(|t| t.distance(&centre).0 < size.0) {
                    continue;
                }
                if let Some((fitted, id, quarter)) = identified(picture, &corners, size, &patterns)
                {
                    let corners = std::array::from_fn(|k| fitted[(k + quarter) % 4]);
                    found
                        .entry(id)
                        .or_default()
                        .push(TagSighting { id, corners });
                    taken.push(centre);
                }
            }
        }
        Ok(found
            .into_values()
            .filter_map(|places| (places.len() == 1).then(|| places[0]))
            .collect())
    }

    /// The corners a tag of the group would have in the camera's picture, centred on the
    /// candidate and turned with its grid, in the detector's order for one of four turns.
    fn predicted(
        &self,
        group: &Group,
        rectified: &Rectified,
        candidate: Candidate,
    ) -> Option<[PixelPoint; 4]> {
        let y = candidate.y + rectified.top as f64;
        let placement = TagPlacement {
            center: TablePoint::new(
                (candidate.x + 0.5) / group.per_inch,
                (y + 0.5) / group.per_inch,
            ),
            facing: Degrees(candidate.turn.to_degrees()),
            size: group.size,
            height: group.height,
        };
        let projected: Vec<PixelPoint> = placement
            .corners()
            .iter()
            .filter_map(|c| self.camera.project(c))
            .collect();
        projected.try_into().ok()
    }
}

/// Where each pixel of the table seen from above at `height`, `per_inch` pixels an inch, is in
/// the camera's picture, where tags of `size` would be between [`MIN_SIDE`] and [`MAX_SIDE`]
/// pixels (−1 elsewhere).
fn rectification(
    camera: &Camera,
    table: TableSize,
    size: Inches,
    height: Inches,
    per_inch: f64,
) -> Result<Mat, VisionError> {
    let cols = (table.width * per_inch).ceil() as usize;
    let rows = (table.depth * per_inch).ceil() as usize;
    let band = SearchedBand::new(camera, table, size, height);
    let to_table =
        |col: f64, row: f64| TablePoint::new((col + 0.5) / per_inch, (row + 0.5) / per_inch);
    // The camera is projected on a coarse grid and interpolated between: its lens bends
    // smoothly, and projecting every pixel would cost more than the search.
    let nodes = Nodes::new(cols, rows, |col, row| {
        camera
            .project_at(&to_table(col, row), height)
            .map(|p| [p.x as f32, p.y as f32])
    });
    let mut map =
        Mat::new_rows_cols_with_default(rows as i32, cols as i32, cv::CV_32FC2, Scalar::all(-1.0))?;
    for row in 0..rows {
        let line = map.at_row_mut::<cv::Vec2f>(row as i32)?;
        for (col, cell) in line.iter_mut().enumerate() {
            if band.contains(&to_table(col as f64, row as f64))
                && let Some(p) = nodes.at(col, row)
            {
                *cell = cv::Vec2f::from(p);
            }
        }
    }
    Ok(map)
}

/// One strip of the table seen from straight above, [`RECTIFIED_SIDE`] pixels a tag side
/// (black outside the searched band).
struct Rectified<'g> {
    image: Mat,
    /// Which rows of the whole rectified table it holds.
    top: usize,
    /// The group's map of the whole table (−1 outside the searched band).
    map: &'g Mat,
    /// The rectified side of one of the family's cells.
    cell: f64,
}

/// A candidate's centre in the rectified strip and its grid's turn (radians, modulo a
/// quarter).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    x: f64,
    y: f64,
    turn: f64,
}

impl<'g> Rectified<'g> {
    /// Whether the camera's pixel under the strip's point `(x, y)` is within [`MIN_SIDE`] of
    /// a tag found.
    fn on_a_tag_found(&self, x: f64, y: f64, taken: &[PixelPoint]) -> Result<bool, VisionError> {
        if taken.is_empty() {
            return Ok(false);
        }
        let source = self
            .map
            .at_2d::<cv::Vec2f>((self.top + y.round() as usize) as i32, x.round() as i32)?;
        let pixel = PixelPoint::new(f64::from(source[0]), f64::from(source[1]));
        Ok(taken.iter().any(|t| t.distance(&pixel).0 < MIN_SIDE))
    }

    fn new(gray: &Mat, group: &'g Group, strip: Strip) -> Result<Rectified<'g>, VisionError> {
        let rows = strip.rows(group.map.rows() as usize);
        let map = group
            .map
            .row_range(&cv::Range::new(rows.start as i32, rows.end as i32)?)?;
        let mut image = Mat::default();
        imgproc::remap(
            gray,
            &mut image,
            &map,
            &cv::no_array(),
            imgproc::INTER_LINEAR,
            cv::BORDER_CONSTANT,
            Scalar::all(0.0),
        )?;
        Ok(Rectified {
            image,
            top: rows.start,
            map: &group.map,
            cell: RECTIFIED_SIDE / group.inked_cells() as f64,
        })
    }

    /// Points ringed like a tag, the clearest first (at most `budget`), each with its grid's
    /// turn and squared up on its border — but those on a tag already found (within
    /// [`MIN_SIDE`] of its centre in the camera's picture: on a table where the detector finds
    /// the 14–20 px tags, most rings are theirs, and reading a ring's turn and squaring it up
    /// is what a candidate costs).
    fn candidates(
        &self,
        taken: &[PixelPoint],
        budget: usize,
    ) -> Result<Vec<Candidate>, VisionError> {
        let view = GrayView::new(&self.image)
            .ok_or_else(|| VisionError::Image("the rectified table is empty".into()))?;
        let (cols, rows) = (self.image.cols() as usize, self.image.rows() as usize);
        let gate = QuickRing::new(cols);
        let pixels = self.image.data_bytes()?;
        let reach = gate.reach;
        let mut ringed = Vec::new();
        // Every other pixel: a tag's ring is judged from anywhere within a pixel of its centre.
        for row in (reach..rows.saturating_sub(reach)).step_by(2) {
            let sources = self.map.at_row::<cv::Vec2f>((self.top + row) as i32)?;
            for col in (reach..cols.saturating_sub(reach)).step_by(2) {
                let index = row * cols + col;
                let searched = sources[col][0] >= 0.0;
                if !searched || gate.contrast(pixels, index) < MIN_CONTRAST {
                    continue;
                }
                let (x, y) = (col as f64, row as f64);
                if self.on_a_tag_found(x, y, taken)? {
                    continue;
                }
                if let Some(contrast) = ring_contrast(&view, x, y).filter(|c| *c >= MIN_CONTRAST) {
                    ringed.push((contrast, x, y));
                }
            }
        }
        // The clearest first; one candidate within a third of a tag of another (looked up in a
        // grid of cells that wide: a busy strip rings at tens of thousands of points).
        ringed.sort_by(|a, b| b.0.total_cmp(&a.0));
        let apart = RECTIFIED_SIDE / 3.0;
        let mut kept: Vec<(f64, f64)> = Vec::new();
        let mut near: HashMap<(i64, i64), Vec<(f64, f64)>> = HashMap::new();
        let cell = |v: f64| (v / apart).floor() as i64;
        for (_, x, y) in ringed {
            if kept.len() == budget {
                break;
            }
            let (cx, cy) = (cell(x), cell(y));
            let crowded = (cx - 1..=cx + 1).any(|i| {
                (cy - 1..=cy + 1).any(|j| {
                    near.get(&(i, j)).is_some_and(|points| {
                        points.iter().any(|(kx, ky)| (kx - x).hypot(ky - y) < apart)
                    })
                })
            });
            if !crowded {
                kept.push((x, y));
                near.entry((cx, cy)).or_default().push((x, y));
            }
        }
        Ok(kept
            .into_iter()
            .filter_map(|(x, y)| {
                let turn = grid_turn(&view, x, y)?;
                let (x, y) = square_up(&view, x, y, turn, self.cell);
                Some(Candidate { x, y, turn })
            })
            .collect())
    }
}

/// Every [`Nodes::STEP`]th pixel's source in the camera's picture, read between them bilinearly.
struct Nodes {
    values: Vec<Option<[f32; 2]>>,
    columns: usize,
}

impl Nodes {
    const STEP: usize = 4;

    fn new(cols: usize, rows: usize, source: impl Fn(f64, f64) -> Option<[f32; 2]>) -> Nodes {
        let columns = cols / Self::STEP + 2;
        let values = (0..(rows / Self::STEP + 2) * columns)
            .map(|k| {
                let (col, row) = ((k % columns) * Self::STEP, (k / columns) * Self::STEP);
                source(col as f64, row as f64)
            })
            .collect();
        Nodes { values, columns }
    }

    fn at(&self, col: usize, row: usize) -> Option<[f32; 2]> {
        let (i, j) = (col / Self::STEP, row / Self::STEP);
        let step = Self::STEP as f32;
        let (fx, fy) = (
            (col % Self::STEP) as f32 / step,
            (row % Self::STEP) as f32 / step,
        );
        let node = |di: usize, dj: usize| {
            self.values
                .get((j + dj) * self.columns + i + di)
                .copied()
                .flatten()
        };
        let (a, b, c, d) = (node(0, 0)?, node(1, 0)?, node(0, 1)?, node(1, 1)?);
        let blend = |k: usize| {
            (a[k] * (1.0 - fx) + b[k] * fx) * (1.0 - fy) + (c[k] * (1.0 - fx) + d[k] * fx) * fy
        };
        Some([blend(0), blend(1)])
    }
}

/// Where on the table tags of one size would be between [`MIN_SIDE`] and [`MAX_SIDE`] pixels,
/// judged an inch square at a time.
struct SearchedBand {
    inside: Vec<bool>,
    columns: usize,
}

impl SearchedBand {
    fn new(camera: &Camera, table: TableSize, size: Inches, height: Inches) -> SearchedBand {
        let columns = table.width.ceil() as usize;
        let rows = table.depth.ceil() as usize;
        let inside = (0..rows * columns)
            .map(|k| {
                let point = TablePoint::new((k % columns) as f64 + 0.5, (k / columns) as f64 + 0.5);
                camera
                    .inches_per_pixel(&point, height)
                    .is_some_and(|per_pixel| (MIN_SIDE..=MAX_SIDE).contains(&(size.0 / per_pixel)))
            })
            .collect();
        SearchedBand { inside, columns }
    }

    fn contains(&self, point: &TablePoint) -> bool {
        let (col, row) = (point.x.floor(), point.y.floor());
        col >= 0.0
            && row >= 0.0
            && (col as usize) < self.columns
            && self
                .inside
                .get(row as usize * self.columns + col as usize)
                .copied()
                .unwrap_or(false)
    }
}

/// A first, cheap look at [`ring_contrast`], made at every other pixel of the band: eight rays,
/// whole pixels, the paper read anywhere along the ray (so it is never stricter than the full
/// measure on the same ray, give or take the rounding).
struct QuickRing {
    /// Each ray's offsets into the picture: where the border can be, where the paper can be.
    rays: Vec<(Vec<isize>, Vec<isize>)>,
    /// How far the rays reach, pixels.
    reach: usize,
}

impl QuickRing {
    const RAYS: usize = 8;

    fn new(stride: usize) -> QuickRing {
        let offsets = |dx: f64, dy: f64, from: f64, to: f64| -> Vec<isize> {
            let steps = ((to - from) * RECTIFIED_SIDE).ceil() as usize;
            (0..=steps)
                .map(|s| (from + (to - from) * s as f64 / steps as f64) * RECTIFIED_SIDE)
                .map(|r| (dy * r).round() as isize * stride as isize + (dx * r).round() as isize)
                .collect()
        };
        let rays = (0..Self::RAYS)
            .map(|k| {
                let angle = std::f64::consts::TAU * k as f64 / Self::RAYS as f64;
                let (dx, dy) = (angle.cos(), angle.sin());
                (
                    offsets(dx, dy, RING_BORDER.0, RING_BORDER.1),
                    offsets(dx, dy, RING_BORDER.0, RING_PAPER),
                )
            })
            .collect();
        QuickRing {
            rays,
            reach: (RING_PAPER * RECTIFIED_SIDE).ceil() as usize + 1,
        }
    }

    /// The median over the rays of lightest less darkest, round the pixel at `index`, which
    /// must be [`QuickRing::reach`] pixels clear of the picture's edges.
    fn contrast(&self, pixels: &[u8], index: usize) -> f64 {
        let at = |offset: isize| pixels[index.wrapping_add_signed(offset)];
        let mut contrasts = [0u8; Self::RAYS];
        for (contrast, (border, paper)) in contrasts.iter_mut().zip(&self.rays) {
            let dark = border.iter().map(|&o| at(o)).min().unwrap_or(0);
            let light = paper.iter().map(|&o| at(o)).max().unwrap_or(0);
            *contrast = light.saturating_sub(dark);
        }
        contrasts.sort_unstable();
        f64::from(contrasts[Self::RAYS / 2])
    }
}

/// Along a ray from a tag's centre, its black border lies between 3/8 and 1/2 of the side when
/// the ray meets the border square-on, and up to √2 times that on a diagonal (fractions of the
/// side)...
const RING_BORDER: (f64, f64) = (0.35, 0.72);
/// ...and its paper a cell further out.
const RING_PAPER: f64 = 0.9;

/// How clearly a tag's black border and paper ring surround (`x`, `y`), whatever the tag's turn
/// and whatever its data cells: along each of sixteen rays, the darkest level where the border
/// can be and the lightest beyond it where the paper can be; the median of their differences.
fn ring_contrast(view: &GrayView, x: f64, y: f64) -> Option<f64> {
    const RAYS: usize = 16;
    let samples = |from: f64, to: f64| {
        let steps = ((to - from) * RECTIFIED_SIDE).ceil().max(1.0);
        (0..=steps as usize).map(move |s| (from + (to - from) * s as f64 / steps) * RECTIFIED_SIDE)
    };
    let mut contrasts = [0.0; RAYS];
    for (contrast, (dx, dy)) in contrasts.iter_mut().zip(ray_directions::<RAYS>()) {
        let at = |r: f64| view.at(x + r * dx, y + r * dy);
        let mut darkest = (f64::INFINITY, 0.0);
        for r in samples(RING_BORDER.0, RING_BORDER.1) {
            let level = at(r)?;
            if level < darkest.0 {
                darkest = (level, r);
            }
        }
        let mut lightest = 0.0_f64;
        for r in samples(darkest.1 / RECTIFIED_SIDE, RING_PAPER) {
            lightest = lightest.max(at(r)?);
        }
        *contrast = lightest - darkest.0;
    }
    contrasts.sort_by(f64::total_cmp);
    Some(contrasts[RAYS / 2])
}

/// `N` unit directions round the circle, from +x.
fn ray_directions<const N: usize>() -> [(f64, f64); N] {
    std::array::from_fn(|k| {
        let angle = std::f64::consts::TAU * k as f64 / N as f64;
        (angle.cos(), angle.sin())
    })
}

/// The turn of the square grid of edges round (`x`, `y`) (the border's and the cells'), modulo a
/// quarter: the mean of four times each gradient's direction, weighted by its strength.
fn grid_turn(view: &GrayView, x: f64, y: f64) -> Option<f64> {
    let reach = 0.8 * RECTIFIED_SIDE;
    let (mut c, mut s) = (0.0, 0.0);
    let steps = reach.ceil() as i32;
    for j in -steps..=steps {
        for i in -steps..=steps {
            let (dx, dy) = (f64::from(i), f64::from(j));
            if dx * dx + dy * dy > reach * reach {
                continue;
            }
            let (px, py) = (x + dx, y + dy);
            let gx = (view.at(px + 1.0, py)? - view.at(px - 1.0, py)?) / 2.0;
            let gy = (view.at(px, py + 1.0)? - view.at(px, py - 1.0)?) / 2.0;
            // The gradient's strength |g|² times its direction taken four times round, without
            // trigonometry: (gx + i gy)⁴ / |g|².
            let strength = gx * gx + gy * gy;
            if strength > 0.0 {
                let (re2, im2) = (gx * gx - gy * gy, 2.0 * gx * gy);
                let (re4, im4) = (re2 * re2 - im2 * im2, 2.0 * re2 * im2);
                (c, s) = (c + re4 / strength, s + im4 / strength);
            }
        }
    }
    (c * c + s * s > 0.0).then(|| s.atan2(c) / 4.0)
}

/// The centre near (`x`, `y`) where a square of a tag's side, turned by `turn`, has its edges
/// on the strongest dark-to-light crossings: the darkest patch's middle is pulled about by the
/// data cells, the border's edges are not. `cell` is the side of one of the family's cells: the
/// reads need only be about a cell either side of the edge.
fn square_up(view: &GrayView, x: f64, y: f64, turn: f64, cell: f64) -> (f64, f64) {
    let (cos, sin) = (turn.cos(), turn.sin());
    let half = RECTIFIED_SIDE / 2.0;
    let score = |cx: f64, cy: f64| -> f64 {
        let mut total = 0.0;
        for (nx, ny) in [(cos, sin), (-sin, cos), (-cos, -sin), (sin, -cos)] {
            // Along the edge with outward normal (nx, ny).
            for t in -4..=4 {
                let along = f64::from(t) / 4.0 * 0.8 * half;
                let (ex, ey) = (cx + nx * half - ny * along, cy + ny * half + nx * along);
                let out = view.at(ex + nx * 0.6 * cell, ey + ny * 0.6 * cell);
                let inside = view.at(ex - nx * 0.6 * cell, ey - ny * 0.6 * cell);
                if let (Some(o), Some(i)) = (out, inside) {
                    total += o - i;
                }
            }
        }
        total
    };
    // A whole-pixel search over a quarter of the side, then half a pixel round the best; the
    // start is kept unless somewhere scores strictly better.
    let best_near = |(x, y): (f64, f64), step: f64, reach: i32| {
        let offsets = (-reach..=reach).flat_map(|j| (-reach..=reach).map(move |i| (i, j)));
        offsets
            .map(|(i, j)| (x + step * f64::from(i), y + step * f64::from(j)))
            .map(|(cx, cy)| (score(cx, cy), cx, cy))
            .fold((score(x, y), x, y), |a, b| if b.0 > a.0 { b } else { a })
    };
    let coarse = best_near((x, y), 1.0, (RECTIFIED_SIDE / 4.0).round() as i32);
    let fine = best_near((coarse.1, coarse.2), 0.5, 1);
    (fine.1, fine.2)
}

/// A candidate's border fitted near the square predicted flat on its stand's plane: first as a
/// flat tag (its edges within the follower's search), then as one on a slope, foreshortened
/// along the line of sight by up to a third, its edges up to a sixth of its side off. Trying the
/// slope first would let a flat tag's edge jump to a row of its data cells.
fn fit_flat_or_on_a_slope(
    view: &GrayView,
    predicted: &[PixelPoint; 4],
    size: Pixels,
) -> Option<[PixelPoint; 4]> {
    let flat = follow_search(size, Pixels(0.0));
    fit_square(view, predicted, flat, SideRatio::FOLLOWED).or_else(|| {
        let sloped = Pixels(flat.0.max(size.0 / 4.0));
        fit_square(view, predicted, sloped, SideRatio::ON_A_SLOPE)
    })
}

/// The tag a candidate's predicted square holds, and its border: fitted whole and told by all
/// its pattern, or else seen in part.
fn identified(
    picture: Picture,
    predicted: &[PixelPoint; 4],
    size: Pixels,
    patterns: &[(u32, &TagTexture)],
) -> Option<([PixelPoint; 4], u32, usize)> {
    let view = picture.view;
    let whole = fit_flat_or_on_a_slope(view, predicted, size).and_then(|fitted| {
        likeness::identify(view, patterns, &fitted).map(|(id, quarter)| (fitted, id, quarter))
    });
    let search = follow_search(size, Pixels(0.0));
    whole.or_else(|| covered::identify(view, picture.paint, predicted, search, patterns))
}

/// A frame's pixels as the search reads them: grey, and where the picture has colour, whether
/// each is painted.
#[derive(Clone, Copy)]
pub(crate) struct Picture<'v, 'g> {
    pub(crate) view: &'v GrayView<'g>,
    pub(crate) paint: Option<&'v Paint<'g>>,
}

#[cfg(test)]
mod tests {
    use super::Strip;

    #[test]
    fn every_row_lies_in_the_strip_said_to_hold_it() {
        for rows in [1, 11, 576, 1000] {
            for count in [1, 5, 12] {
                for row in 0..rows {
                    let strip = Strip::holding(row, rows, count);
                    assert!(
                        strip.index < count,
                        "{rows} rows, {count} strips: row {row}"
                    );
                    assert!(strip.rows(rows).contains(&row), "{rows}/{count}: row {row}");
                }
            }
        }
    }
}
