//! Following a known tag from one frame to the next without the AprilTag detector.
//!
//! When a tag's id and its corners in the last frame are known, finding it again is a much
//! smaller problem than detecting it: its four outer edges are near their predicted lines. Each
//! edge is found by sliding the predicted line along its normal to where the whole line crosses
//! from the black border to the white paper most strongly, then fitting a line through the
//! strongest crossing along each of its normals (sub-pixel, outliers dropped); the corners are
//! where the lines meet. The tag is then checked cell by cell against its known pattern (a tag
//! too small for that, by its likeness to the pattern: [`super::likeness`]), so a wrong edge (a
//! row of data cells, a figure's painted belt) is refused, never reported.
//!
//! Decisions:
//! - The whole line is placed first, then each point: a single normal can cross a data cell's
//!   edge or the clutter beyond the paper, but only the border's edge runs the whole way along.
//! - A tag that cannot be followed (covered, blurred, turned too far in one frame) is not
//!   guessed at: the caller searches its region with the AprilTag detector.
//! - Costs a few thousand pixel reads a tag, against the detector's clusters and quad fits over
//!   every busy pixel of a region.

use calibration::{PixelPoint, Pixels};
use nalgebra::{Matrix3, SMatrix, SVector, Vector3};
use opencv::core::{Mat, MatTraitConst, MatTraitConstManual};

use super::roi::side;
use super::{covered, likeness};
use crate::pattern::TagTexture;

/// A grey frame's pixels, read with bilinear interpolation.
pub(crate) struct GrayView<'a> {
    data: &'a [u8],
    width: usize,
    height: usize,
    stride: usize,
}

impl<'a> GrayView<'a> {
    /// A view of a grey Mat; `None` if its pixels are not one block (the caller copies it).
    pub fn new(gray: &'a Mat) -> Option<GrayView<'a>> {
        let data = gray.data_bytes().ok()?;
        let (width, height) = (gray.cols() as usize, gray.rows() as usize);
        (width > 1 && height > 1 && data.len() >= width * height).then_some(GrayView {
            data,
            width,
            height,
            stride: width,
        })
    }

    /// The grey level at a point (pixel centres at whole numbers); `None` outside the frame.
    pub(crate) fn at(&self, x: f64, y: f64) -> Option<f64> {
        if !(x >= 0.0 && y >= 0.0) {
            return None;
        }
        let (i, j) = (x.floor() as usize, y.floor() as usize);
        if i + 1 >= self.width || j + 1 >= self.height {
            return None;
        }
        let (fx, fy) = (x - i as f64, y - j as f64);
        let p = |di: usize, dj: usize| f64::from(self.data[(j + dj) * self.stride + i + di]);
        let top = p(0, 0) * (1.0 - fx) + p(1, 0) * fx;
        let bottom = p(0, 1) * (1.0 - fx) + p(1, 1) * fx;
        Some(top * (1.0 - fy) + bottom * fy)
    }
}

/// A tag found again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Followed {
    /// Its outer corners, in the same order as the detector gives them.
    pub corners: [PixelPoint; 4],
    /// Cells that read differently from the tag's pattern.
    pub wrong_cells: u32,
    /// Mean distance of the cells' grey levels from the black–white threshold, in grey levels.
    pub margin: f32,
}

/// What following needs to know beyond the pixels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FollowSettings {
    /// Cells that may read wrong (of the inked square, border included) before the tag is
    /// refused.
    pub max_wrong_cells: u32,
    /// Whether the tag may be followed with part of it covered ([`follow_in_part`]): only a
    /// tag lying still. One on the move is in a hand, whose fingers over it would be fitted as
    /// its edges, and its size read from them would say it was lifted.
    pub through_cover: bool,
}

/// The weakest mean crossing along an edge that counts as the border's edge, grey levels a
/// pixel: a printed tag under any usable light crosses far more steeply.
const MIN_EDGE_GRADIENT: f64 = 12.0;
/// The weakest black–white difference between border and paper that is read as a tag.
const MIN_CONTRAST: f64 = 30.0;
/// How much each cell's reading is pushed away from its four neighbours' (the AprilTag
/// library's default decode sharpening).
const SHARPENING: f64 = 0.25;
/// Steps of the searches along the normals, pixels.
const STEP: f64 = 0.5;

/// Find tag `pattern` near its predicted `corners`, searching up to `search` pixels either side
/// of each predicted edge.
pub(crate) fn follow(
    gray: &GrayView,
    pattern: &TagTexture,
    corners: &[PixelPoint; 4],
    search: Pixels,
    settings: FollowSettings,
) -> Option<Followed> {
    let whole = || {
        let found = fit_square(gray, corners, search, SideRatio::FOLLOWED)?;
        let (wrong_cells, margin) = read_cells(gray, pattern, &found)?;
        let read = wrong_cells <= settings.max_wrong_cells;
        // Cells too small to read one by one: the whole pattern's likeness confirms the tag.
        let confirmed = || side(&found).0 < SMALL && likeness::confirms(gray, pattern, &found);
        (read || confirmed()).then_some(Followed {
            corners: found,
            wrong_cells,
            margin,
        })
    };
    whole().or_else(|| {
        settings
            .through_cover
            .then(|| follow_in_part(gray, pattern, corners, search))
            .flatten()
    })
}

/// Tag `pattern` near its predicted `corners` with part of it covered (figures on its base seen
/// from the side, a finger): fitted from the edges in sight and told by the rest of its
/// pattern ([`covered`]), unturned; its cells read as they are, the covered ones wrong.
fn follow_in_part(
    gray: &GrayView,
    pattern: &TagTexture,
    corners: &[PixelPoint; 4],
    search: Pixels,
) -> Option<Followed> {
    let (found, _, quarter) = covered::identify(gray, None, corners, search, &[(0, pattern)])?;
    let (wrong_cells, margin) = read_cells(gray, pattern, &found)?;
    (quarter == 0).then_some(Followed {
        corners: found,
        wrong_cells,
        margin,
    })
}

/// How far a found tag's sides may differ from the predicted ones', as a share of each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SideRatio {
    pub least: f64,
    pub most: f64,
}

impl SideRatio {
    /// A tag followed from the last frame: its shape barely changes, give or take a fifth.
    pub const FOLLOWED: SideRatio = SideRatio {
        least: 0.8,
        most: 1.25,
    };
    /// A tag predicted flat on its stand's plane that may lie on a slope: tilted 16° towards
    /// or away from a camera 55° from vertical, its side along the line of sight is 1.35 or
    /// 0.57 of a flat tag's (the sines of the ray's angles to it, 51° and 19°, over 35°).
    pub const ON_A_SLOPE: SideRatio = SideRatio {
        least: 0.55,
        most: 1.4,
    };
}

/// The border's outer corners near the `predicted` ones, searching up to `search` pixels either
/// side of each predicted edge; `None` unless all four edges are found and make the predicted
/// shape, each side within `ratio` of the predicted one's. Whose pattern lies inside is for
/// the caller to judge.
pub(crate) fn fit_square(
    gray: &GrayView,
    predicted: &[PixelPoint; 4],
    search: Pixels,
    ratio: SideRatio,
) -> Option<[PixelPoint; 4]> {
    let center = PixelPoint::mean(predicted);
    let mut lines = [Line::default(); 4];
    for (k, line) in lines.iter_mut().enumerate() {
        *line = fit_edge(gray, predicted[k], predicted[(k + 1) % 4], center, search)?;
    }
    // Corner k starts edge k and ends edge k − 1.
    let mut found = [PixelPoint::default(); 4];
    for (k, corner) in found.iter_mut().enumerate() {
        *corner = lines[(k + 3) % 4].meet(&lines[k])?;
    }
    same_shape(predicted, &found, ratio).then_some(found)
}

/// What covers part of a tag's border, as a square's edges are numbered (edge `k` from corner
/// `k` to the next).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cover {
    /// One edge.
    Edge(usize),
    /// A corner: edge `k` and the one after it.
    Corner(usize),
}

impl Cover {
    /// Every edge, then every corner.
    pub(crate) const ALL: [Cover; 8] = [
        Cover::Edge(0),
        Cover::Edge(1),
        Cover::Edge(2),
        Cover::Edge(3),
        Cover::Corner(0),
        Cover::Corner(1),
        Cover::Corner(2),
        Cover::Corner(3),
    ];

    /// How far a point `from_edges` (its distance from each edge of the square, in any unit)
    /// is from the nearest covered edge.
    pub(crate) fn distance(self, from_edges: [f64; 4]) -> f64 {
        match self {
            Cover::Edge(k) => from_edges[k % 4],
            Cover::Corner(k) => from_edges[k % 4].min(from_edges[(k + 1) % 4]),
        }
    }
}

/// The border's outer corners from the edges `cover` leaves in sight, their length known from
/// the predicted square. One edge covered: its two corners lie along the edges either side of
/// it, as far from the corners seen as predicted, scaled as the edge opposite it is to its
/// prediction. A corner covered: the two edges seen meet at the corner opposite, the corners
/// at their far ends lie at the predicted distances, and the fourth makes a parallelogram of
/// them (a small tag's perspective is slight). `None` unless the edges in sight are found
/// and make the predicted shape within `ratio`.
pub(crate) fn fit_square_but(
    gray: &GrayView,
    predicted: &[PixelPoint; 4],
    search: Pixels,
    ratio: SideRatio,
    cover: Cover,
) -> Option<[PixelPoint; 4]> {
    let center = PixelPoint::mean(predicted);
    let at = |k: usize| predicted[k % 4];
    // An edge beside what covers the tag is seen along part of its length.
    let edge = |k: usize| fit_edge_along(gray, (at(k), at(k + 1)), center, search, BESIDE_COVER);
    let mut found = [PixelPoint::default(); 4];
    match cover {
        Cover::Edge(k) => {
            let (after, opposite, before) = (k + 1, k + 2, k + 3);
            let (after_line, before_line) = (edge(after)?, edge(before)?);
            let opposite_line = fit_edge(gray, at(opposite), at(opposite + 1), center, search)?;
            found[opposite % 4] = after_line.meet(&opposite_line)?;
            found[before % 4] = opposite_line.meet(&before_line)?;
            let scale = found[opposite % 4].distance(&found[before % 4]).0
                / at(opposite).distance(&at(before)).0.max(1e-9);
            // Corner k ends edge `before`; corner `after` starts edge `after`.
            found[k % 4] = before_line.reach(found[before % 4], at(before), at(k), scale);
            found[after % 4] =
                after_line.reach(found[opposite % 4], at(opposite), at(after), scale);
        }
        Cover::Corner(k) => {
            let (first, second) = (k + 2, k + 3);
            let (first_line, second_line) = (edge(first)?, edge(second)?);
            let seen = first_line.meet(&second_line)?;
            // Corner `first` starts edge `first`; corner k ends edge `second`.
            let start = first_line.reach(seen, at(second), at(first), 1.0);
            let end = second_line.reach(seen, at(second), at(k), 1.0);
            found[second % 4] = seen;
            found[first % 4] = start;
            found[k % 4] = end;
            found[(k + 1) % 4] =
                PixelPoint::new(start.x + end.x - seen.x, start.y + end.y - seen.y);
        }
    }
    same_shape(predicted, &found, ratio).then_some(found)
}

/// The share of its length along which an edge beside a cover must be found.
const BESIDE_COVER: f64 = 0.3;

/// Below this side, in pixels, a tag whose cells do not all read right may still be confirmed
/// by its likeness to the pattern ([`likeness`]); above it cells are two pixels or more and
/// read reliably, and wrong ones mean something is over the tag.
pub(crate) const SMALL: f64 = 16.0;

/// A straight line `normal · p = offset`, `normal` of unit length.
#[derive(Clone, Copy, Debug, Default)]
struct Line {
    normal: [f64; 2],
    offset: f64,
}

impl Line {
    /// The point along the line from `start` (on it) that the predicted corners `from` → `to`
    /// say, their distance times `scale`.
    fn reach(&self, start: PixelPoint, from: PixelPoint, to: PixelPoint, scale: f64) -> PixelPoint {
        let mut along = [-self.normal[1], self.normal[0]];
        if along[0] * (to.x - from.x) + along[1] * (to.y - from.y) < 0.0 {
            along = [-along[0], -along[1]];
        }
        let length = from.distance(&to).0 * scale;
        PixelPoint::new(start.x + along[0] * length, start.y + along[1] * length)
    }

    fn meet(&self, other: &Line) -> Option<PixelPoint> {
        let [a, b] = self.normal;
        let [c, d] = other.normal;
        let det = a * d - b * c;
        if det.abs() < 1e-6 {
            return None;
        }
        Some(PixelPoint::new(
            (self.offset * d - b * other.offset) / det,
            (a * other.offset - self.offset * c) / det,
        ))
    }
}

/// The border's edge between predicted corners `a` and `b` of a tag centred at `center`, found
/// along at least half its length.
fn fit_edge(
    gray: &GrayView,
    a: PixelPoint,
    b: PixelPoint,
    center: PixelPoint,
    search: Pixels,
) -> Option<Line> {
    fit_edge_along(gray, (a, b), center, search, 0.5)
}

/// The border's edge between predicted corners `a` and `b`, found along at least the share
/// `least` of its length.
fn fit_edge_along(
    gray: &GrayView,
    (a, b): (PixelPoint, PixelPoint),
    center: PixelPoint,
    search: Pixels,
    least: f64,
) -> Option<Line> {
    let length = a.distance(&b).0;
    if length < 4.0 {
        return None;
    }
    let along = [(b.x - a.x) / length, (b.y - a.y) / length];
    // Outwards: away from the tag's centre.
    let mut out = [along[1], -along[0]];
    let mid = PixelPoint::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
    if out[0] * (mid.x - center.x) + out[1] * (mid.y - center.y) < 0.0 {
        out = [-out[0], -out[1]];
    }
    // Normals at points along the edge, clear of the corners (where the other edges cross).
    let count = ((0.75 * length) as usize).max(6);
    let normals: Vec<Normal> = (0..count)
        .filter_map(|i| {
            let t = 0.15 + 0.7 * (i as f64 + 0.5) / count as f64;
            let p = PixelPoint::new(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
            Normal::read(gray, p, out, search.0)
        })
        .collect();
    if normals.len() < count / 2 {
        return None;
    }
    let shift = best_shift(&normals)?;
    let crossings: Vec<PixelPoint> = normals
        .iter()
        .filter_map(|n| n.strongest_rise(shift).map(|d| n.at(d)))
        .collect();
    fit_line(&crossings, ((count as f64 * least) as usize).max(4))
}

/// The grey levels along one outward normal of an edge, every [`STEP`] pixels, and how they
/// rise from dark to light (outwards the border's edge goes from black to paper).
struct Normal {
    origin: PixelPoint,
    out: [f64; 2],
    /// Offset of the first rise.
    first: f64,
    /// The rise at each step: the level half a pixel further out less that half a pixel in.
    rises: Vec<f64>,
}

/// Steps in half a pixel.
const HALF_PIXEL: usize = (0.5 / STEP) as usize;

impl Normal {
    /// Read the normal at `origin` from `search` pixels in to `search` pixels out; `None` if
    /// it leaves the frame.
    fn read(gray: &GrayView, origin: PixelPoint, out: [f64; 2], search: f64) -> Option<Normal> {
        let reach = search + 1.0;
        let steps = (2.0 * (reach + 0.5) / STEP).ceil() as usize;
        let start = -reach - 0.5;
        let mut levels = Vec::with_capacity(steps + 1);
        for j in 0..=steps {
            let d = start + j as f64 * STEP;
            levels.push(gray.at(origin.x + d * out[0], origin.y + d * out[1])?);
        }
        let rises = (HALF_PIXEL..levels.len() - HALF_PIXEL)
            .map(|j| levels[j + HALF_PIXEL] - levels[j - HALF_PIXEL])
            .collect();
        Some(Normal {
            origin,
            out,
            first: start + HALF_PIXEL as f64 * STEP,
            rises,
        })
    }

    /// The rise at offset `d` (to the nearest step), if read.
    fn rise(&self, d: f64) -> Option<f64> {
        let j = ((d - self.first) / STEP).round();
        (j >= 0.0).then(|| self.rises.get(j as usize).copied())?
    }

    fn at(&self, d: f64) -> PixelPoint {
        PixelPoint::new(
            self.origin.x + d * self.out[0],
            self.origin.y + d * self.out[1],
        )
    }

    /// Where this normal rises most within a pixel of the whole edge's shift, to a fraction of
    /// a step (a parabola through the peak and its neighbours).
    fn strongest_rise(&self, shift: f64) -> Option<f64> {
        let reach = (1.0 / STEP) as i32;
        let offsets = (-reach..=reach).map(|s| shift + f64::from(s) * STEP);
        let values: Vec<f64> = offsets.map(|d| self.rise(d)).collect::<Option<_>>()?;
        let (peak, &top) = values
            .iter()
            .enumerate()
            .max_by(|x, y| x.1.total_cmp(y.1))?;
        if top < MIN_EDGE_GRADIENT || peak == 0 || peak + 1 == values.len() {
            return None;
        }
        let (left, right) = (values[peak - 1], values[peak + 1]);
        let curve = left - 2.0 * top + right;
        let offset = if curve < 0.0 {
            0.5 * (left - right) / curve
        } else {
            0.0
        };
        Some(shift + (peak as f64 - f64::from(reach) + offset) * STEP)
    }
}

/// The shift of the whole predicted edge, along its outward normal, where its normals rise
/// most from dark to light together (searched as far as the normals were read, less the pixel
/// each point may still move).
fn best_shift(normals: &[Normal]) -> Option<f64> {
    let first = normals.first()?;
    let span = first.rises.len() as f64 * STEP;
    let (low, high) = (first.first + 1.0, first.first + span - 1.0);
    let steps = ((high - low) / STEP).round() as i32;
    let (mut best, mut best_sum) = (None, MIN_EDGE_GRADIENT * normals.len() as f64);
    for s in 0..=steps {
        let d = low + f64::from(s) * STEP;
        let sum: f64 = normals.iter().filter_map(|n| n.rise(d)).sum();
        if sum > best_sum {
            (best, best_sum) = (Some(d), sum);
        }
    }
    best
}

/// The line through the points by total least squares, refitted once without the points more
/// than half a pixel off it; `None` with fewer than `min_points` left.
fn fit_line(points: &[PixelPoint], min_points: usize) -> Option<Line> {
    let first = total_least_squares(points)?;
    let kept: Vec<PixelPoint> = points
        .iter()
        .copied()
        .filter(|p| (first.normal[0] * p.x + first.normal[1] * p.y - first.offset).abs() <= 0.5)
        .collect();
    if kept.len() < min_points {
        return None;
    }
    total_least_squares(&kept)
}

fn total_least_squares(points: &[PixelPoint]) -> Option<Line> {
    if points.len() < 2 {
        return None;
    }
    let m = PixelPoint::mean(points);
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for p in points {
        let (dx, dy) = (p.x - m.x, p.y - m.y);
        (sxx, sxy, syy) = (sxx + dx * dx, sxy + dx * dy, syy + dy * dy);
    }
    // The normal is the direction of least spread: the smaller eigenvector of the scatter.
    let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    let normal = [-angle.sin(), angle.cos()];
    Some(Line {
        normal,
        offset: normal[0] * m.x + normal[1] * m.y,
    })
}

/// Whether the found quad is the predicted one moved a little: no side changed by more than a
/// fifth, and it still turns the same way round.
fn same_shape(predicted: &[PixelPoint; 4], found: &[PixelPoint; 4], ratio: SideRatio) -> bool {
    let side = |c: &[PixelPoint; 4], k: usize| c[k].distance(&c[(k + 1) % 4]).0;
    let turn = |c: &[PixelPoint; 4]| {
        (0..4)
            .map(|k| {
                let (p, q) = (c[k], c[(k + 1) % 4]);
                p.x * q.y - q.x * p.y
            })
            .sum::<f64>()
    };
    (0..4).all(|k| {
        let share = side(found, k) / side(predicted, k).max(1e-9);
        (ratio.least..=ratio.most).contains(&share)
    }) && turn(predicted).signum() == turn(found).signum()
}

/// The cells of the tag read through the quad, against its pattern: how many are wrong, and
/// the mean distance of their grey levels from the threshold. `None` if black and white are
/// too close to tell apart.
fn read_cells(
    gray: &GrayView,
    pattern: &TagTexture,
    corners: &[PixelPoint; 4],
) -> Option<(u32, f32)> {
    let h = square_to_quad(corners)?;
    let inked = pattern.inked_cells() as f64;
    // Cell (col, row) of the printed pattern, paper border at 0 and `cells − 1`.
    let read = |col: usize, row: usize| {
        let x = 2.0 * (col as f64 - 0.5) / inked - 1.0;
        let y = 2.0 * (row as f64 - 0.5) / inked - 1.0;
        let p = h * Vector3::new(x, y, 1.0);
        gray.at(p.x / p.z, p.y / p.z)
    };
    let n = pattern.cells;
    let (mut black, mut white) = (Vec::new(), Vec::new());
    let mut cells: Vec<(f64, bool)> = Vec::with_capacity(n * n);
    for row in 0..n {
        for col in 0..n {
            let value = read(col, row)?;
            let ink = pattern.is_black(col as i64, row as i64);
            let ring = row == 1 || col == 1 || row == n - 2 || col == n - 2;
            let paper = row == 0 || col == 0 || row == n - 1 || col == n - 1;
            if ink && ring {
                black.push(value);
            } else if paper {
                white.push(value);
            }
            cells.push((value, ink));
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let (dark, light) = (mean(&black), mean(&white));
    if light - dark < MIN_CONTRAST {
        return None;
    }
    let threshold = (dark + light) / 2.0;
    // Blur bleeds each cell into its neighbours, which matters when a cell is two pixels wide:
    // sharpen the grid of readings (as the detector does) before judging them.
    let value = |row: usize, col: usize| cells[row * n + col].0;
    // The paper ring is outside the tag's square and may touch clutter: only the inked cells
    // are judged.
    let (mut wrong, mut distance, mut count) = (0, 0.0, 0.0);
    for row in 1..n - 1 {
        for col in 1..n - 1 {
            let v = value(row, col);
            let around = value(row - 1, col)
                + value(row + 1, col)
                + value(row, col - 1)
                + value(row, col + 1);
            let sharpened = v + SHARPENING * (4.0 * v - around);
            if (sharpened < threshold) != cells[row * n + col].1 {
                wrong += 1;
            }
            distance += (sharpened - threshold).abs();
            count += 1.0;
        }
    }
    Some((wrong, (distance / count) as f32))
}

/// The homography taking the square (−1, 1), (1, 1), (1, −1), (−1, −1) to the four corners, in
/// the detector's order: in these coordinates x runs along the printed pattern's rows and y
/// down its columns from the top row at −1 (checked against rendered tags by the tests).
pub(crate) fn square_to_quad(corners: &[PixelPoint; 4]) -> Option<Matrix3<f64>> {
    const SQUARE: [(f64, f64); 4] = [(-1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)];
    let mut a = SMatrix::<f64, 8, 8>::zeros();
    let mut b = SVector::<f64, 8>::zeros();
    for (k, ((x, y), p)) in SQUARE.iter().zip(corners).enumerate() {
        let (r, s) = (2 * k, 2 * k + 1);
        a.row_mut(r)
            .copy_from_slice(&[*x, *y, 1.0, 0.0, 0.0, 0.0, -x * p.x, -y * p.x]);
        a.row_mut(s)
            .copy_from_slice(&[0.0, 0.0, 0.0, *x, *y, 1.0, -x * p.y, -y * p.y]);
        b[r] = p.x;
        b[s] = p.y;
    }
    let h = a.lu().solve(&b)?;
    Some(Matrix3::new(
        h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synthetic::{Block, Effects, PrintedTag, Renderer, Rgb, Scenery, SyntheticTable};
    use calibration::{ImageSize, TableSize, TagPlacement};
    use rules::geometry::{OrientedRect, TablePoint};
    use rules::units::{Degrees, Inches};

    const SETTINGS: FollowSettings = FollowSettings {
        max_wrong_cells: 2,
        through_cover: false,
    };

    /// One stand with tag 5 on a busy table, seen from 40° at about 20 px a tag, and the tag's
    /// true corners.
    fn scene(cover: bool) -> (Mat, [PixelPoint; 4]) {
        scene_of(Inches(1.0), cover)
    }

    /// The same with a tag of `size` (0.6" is about 12 px) and a stand to match.
    fn scene_of(size: Inches, cover: bool) -> (Mat, [PixelPoint; 4]) {
        let table = TableSize {
            width: 30.0,
            depth: 20.0,
        };
        let mut world = SyntheticTable::new(table);
        world.scenery = Scenery::Busy { seed: 3 };
        let center = TablePoint::new(15.0, 10.0);
        let placement = TagPlacement {
            center,
            facing: Degrees(23.0),
            size,
            height: Inches(0.16),
        };
        world.blocks.push(Block {
            footprint: OrientedRect::from_center(
                center,
                Degrees(23.0),
                Inches(2.0 * size.0),
                Inches(1.5 * size.0),
            ),
            height: Inches(0.16),
            colour: Rgb(168, 42, 38),
            tags: vec![PrintedTag { id: 5, placement }],
            figures: true,
            motion: None,
        });
        if cover {
            world.blocks.push(Block {
                footprint: OrientedRect::from_center(
                    center,
                    Degrees(0.0),
                    Inches(3.0),
                    Inches(3.0),
                ),
                height: Inches(2.0),
                colour: Rgb(214, 164, 132),
                tags: Vec::new(),
                figures: false,
                motion: None,
            });
        }
        let size = ImageSize {
            width: 800,
            height: 600,
        };
        let camera = crate::synthetic::framing_camera(table, size, Degrees(40.0), Degrees(70.0));
        let image = Renderer::new()
            .render(&world, &camera, &Effects::WEBCAM)
            .expect("render");
        let truth = placement
            .corners()
            .map(|c| camera.project(&c).expect("in view"));
        (image, truth)
    }

    fn gray(image: &Mat) -> Mat {
        crate::detect::as_gray(image).expect("grey").into_owned()
    }

    /// The corners moved by (dx, dy) and turned by `degrees` about their centre.
    fn misplaced(corners: &[PixelPoint; 4], dx: f64, dy: f64, degrees: f64) -> [PixelPoint; 4] {
        let c = PixelPoint::mean(corners);
        let (s, k) = degrees.to_radians().sin_cos();
        corners.map(|p| {
            let (x, y) = (p.x - c.x, p.y - c.y);
            PixelPoint::new(c.x + k * x - s * y + dx, c.y + s * x + k * y + dy)
        })
    }

    fn worst(a: &[PixelPoint; 4], b: &[PixelPoint; 4]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(p, q)| p.distance(q).0)
            .fold(0.0, f64::max)
    }

    #[test]
    fn a_tag_is_followed_from_a_rough_prediction_to_its_true_corners() {
        let (image, truth) = scene(false);
        let gray = gray(&image);
        let view = GrayView::new(&gray).expect("continuous");
        let pattern = TagTexture::new("tag36h11", 5).expect("pattern");
        let side = truth[0].distance(&truth[1]).0;
        assert!((14.0..30.0).contains(&side), "a tag of {side:.1} px");
        for (dx, dy, turn) in [(0.0, 0.0, 0.0), (1.5, -1.0, 3.0), (-2.0, 1.2, -4.0)] {
            let start = misplaced(&truth, dx, dy, turn);
            let found = follow(&view, &pattern, &start, Pixels(3.0), SETTINGS)
                .unwrap_or_else(|| panic!("lost from ({dx}, {dy}, {turn}°)"));
            assert_eq!(found.wrong_cells, 0);
            let error = worst(&found.corners, &truth);
            assert!(error < 0.35, "{error:.3} px from ({dx}, {dy}, {turn}°)");
        }
    }

    #[test]
    fn another_tags_pattern_is_refused_where_this_one_lies() {
        let (image, truth) = scene(false);
        let gray = gray(&image);
        let view = GrayView::new(&gray).expect("continuous");
        for id in [0, 6, 100] {
            let other = TagTexture::new("tag36h11", id).expect("pattern");
            assert!(
                follow(&view, &other, &truth, Pixels(3.0), SETTINGS).is_none(),
                "{id}"
            );
        }
    }

    #[test]
    fn a_tag_too_small_to_read_cell_by_cell_is_followed_by_its_likeness() {
        let (image, truth) = scene_of(Inches(0.6), false);
        let gray = gray(&image);
        let view = GrayView::new(&gray).expect("continuous");
        let side = side(&truth).0;
        assert!((10.0..14.0).contains(&side), "a tag of {side:.1} px");
        let pattern = TagTexture::new("tag36h11", 5).expect("pattern");
        let start = misplaced(&truth, 1.0, -0.7, 2.0);
        let found = follow(&view, &pattern, &start, Pixels(1.5), SETTINGS).expect("followed");
        let error = worst(&found.corners, &truth);
        assert!(error < 0.6, "{error:.3} px");
        for id in [0, 6, 100, 300] {
            let other = TagTexture::new("tag36h11", id).expect("pattern");
            assert!(
                follow(&view, &other, &truth, Pixels(1.5), SETTINGS).is_none(),
                "tag {id} confirmed where tag 5 lies"
            );
        }
    }

    #[test]
    fn a_small_tag_taken_off_the_table_is_not_followed_into_the_cloth() {
        let (image, truth) = scene_of(Inches(0.6), false);
        let (empty, _) = scene_of(Inches(0.6), true);
        let pattern = TagTexture::new("tag36h11", 5).expect("pattern");
        let gray_empty = gray(&empty);
        let view = GrayView::new(&gray_empty).expect("continuous");
        assert!(follow(&view, &pattern, &truth, Pixels(1.5), SETTINGS).is_none());
        // Elsewhere on the busy cloth, at a tag's size and shape: nothing.
        let gray = gray(&image);
        let view = GrayView::new(&gray).expect("continuous");
        for (dx, dy) in [(-60.0, 0.0), (60.0, 20.0), (0.0, -50.0), (-40.0, 45.0)] {
            let start = misplaced(&truth, dx, dy, 0.0);
            assert!(
                follow(&view, &pattern, &start, Pixels(1.5), SETTINGS).is_none(),
                "confirmed on the cloth at ({dx}, {dy})"
            );
        }
    }

    #[test]
    fn a_covered_tag_is_not_followed() {
        let (image, truth) = scene(true);
        let gray = gray(&image);
        let view = GrayView::new(&gray).expect("continuous");
        let pattern = TagTexture::new("tag36h11", 5).expect("pattern");
        assert!(follow(&view, &pattern, &truth, Pixels(3.0), SETTINGS).is_none());
    }

    #[test]
    fn lines_meet_where_they_cross() {
        let across = Line {
            normal: [0.0, 1.0],
            offset: 2.0,
        };
        let down = Line {
            normal: [1.0, 0.0],
            offset: 5.0,
        };
        assert_eq!(across.meet(&down), Some(PixelPoint::new(5.0, 2.0)));
        assert!(across.meet(&across).is_none());
    }
}
