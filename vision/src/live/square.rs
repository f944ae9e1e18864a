//! A tag's square found again from its four edges near where they were predicted: each edge
//! placed whole along its normal, then point by point, the corners where the lines meet; with
//! part of the tag covered, from the edges in sight and its known shape.

use calibration::{PixelPoint, Pixels};
use nalgebra::{Matrix3, SMatrix, SVector};

use super::gray::GrayView;

/// The weakest mean crossing along an edge that counts as the border's edge, grey levels a
/// pixel: a printed tag under any usable light crosses far more steeply.
const MIN_EDGE_GRADIENT: f64 = 12.0;
/// Steps of the searches along the normals, pixels.
const STEP: f64 = 0.5;

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
