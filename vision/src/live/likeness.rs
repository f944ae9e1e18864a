//! How much the pixels inside a quad look like a tag's printed pattern: the check that confirms
//! a followed tag when it is too small for its cells to be read one by one.
//!
//! Below about 16 px a cell of tag36h11 is under two pixels across, and a webcam's blur mixes
//! each cell with its neighbours: judging cells one by one against a threshold reads several
//! wrong even at the tag's true corners (2–11 of 64 at 12 px on `bench accuracy`'s tables).
//! Comparing the whole picture of the tag with the pattern as the camera would see it still
//! tells the right tag from any other: on those tables the normalised correlation is at least
//! 0.77 for the right tag at 12 px, and at most 0.74 for the best of 199 other ids or the tag
//! turned, at every size.
//!
//! Decisions:
//! - The model blends each cell into its neighbours (bilinear between cell centres): about
//!   what a webcam's blur does to cells of one or two pixels, the sizes this check is for.
//! - Besides a floor, the right pattern must beat the same pattern turned by a quarter, a half
//!   and three quarters by a clear lead. The turned patterns share the border and the paper and
//!   differ only in the data cells: they are the closest impostors a quad of the right shape
//!   can hold, and a smudge or a patch of cloth that correlates with the border alone correlates
//!   with them as well.

use calibration::PixelPoint;
use nalgebra::{Matrix3, Vector3};

use super::gray::GrayView;
use super::paint::Paint;
use super::square::{Cover, square_to_quad};
use crate::pattern::TagTexture;

/// The least correlation with the pattern that confirms a tag.
const MIN_LIKENESS: f64 = 0.8;
/// How much better the pattern must fit than the best of it turned (and of any other pattern
/// tried).
const MIN_LEAD: f64 = 0.1;

/// Whether the pixels inside `corners` (the detector's order) are tag `pattern` as they stand:
/// the pattern clearly wins against itself turned ([`identify`] with this one pattern).
pub(crate) fn confirms(gray: &GrayView, pattern: &TagTexture, corners: &[PixelPoint; 4]) -> bool {
    identify(gray, &[(0, pattern)], corners) == Some((0, 0))
}

/// Which of `patterns` the pixels inside `corners` show, and turned how: the id and the quarter
/// turns `q` such that corner `k` of the tag is `corners[(k + q) % 4]`. The best must correlate
/// at least [`MIN_LIKENESS`] and lead every other pattern and turn tried by [`MIN_LEAD`].
pub(crate) fn identify(
    gray: &GrayView,
    patterns: &[(u32, &TagTexture)],
    corners: &[PixelPoint; 4],
) -> Option<(u32, usize)> {
    let (_, family) = patterns.first()?;
    let samples = Samples::inside(gray, corners, family, None, None)?;
    let (id, quarter, _) = samples.identify(patterns, &[0.0])?;
    Some((id, quarter))
}

/// [`identify`] for a tag partly hidden: along the edges `cover` names, if any, tried as
/// hidden `depth` cells deep for each of `depths`, and wherever `paint` sees a painted pixel.
/// The pixels left out are the same for every pattern and turn, so that none is judged on
/// pixels of its own choosing (each pattern leaving out the pixels that fit it worst, every
/// pattern would fit well: those are the pixels where the patterns differ). The likeliest tag
/// clearly told at some depth: its id, quarter turns and likeness.
pub(crate) fn identify_in_part(
    gray: &GrayView,
    paint: Option<&Paint>,
    patterns: &[(u32, &TagTexture)],
    corners: &[PixelPoint; 4],
    cover: Option<Cover>,
    depths: &[f64],
) -> Option<(u32, usize, f64)> {
    let (_, family) = patterns.first()?;
    Samples::inside(gray, corners, family, cover, paint)?.identify(patterns, depths)
}

/// The least share of a tag's pixels that must be left, once those hidden are left out, to
/// tell which tag it is.
const LEAST_CLEAR: f64 = 0.4;

/// The pixels over a tag's inked square and half its paper ring (beyond that, the paper may be
/// short and clutter begins), each with its place in cells from the square's middle and how
/// many cells it lies from the paper's edge along the covered edges, if any are (a painted
/// pixel is covered at every depth).
struct Samples {
    /// Grey level, cells right and down of the middle (unturned), cells clear of the cover.
    points: Vec<(f64, f64, f64, f64)>,
    /// The middle, in cells from the paper's edge.
    middle: f64,
}

impl Samples {
    /// The samples inside `corners`; `None` when they reach outside the frame.
    fn inside(
        gray: &GrayView,
        corners: &[PixelPoint; 4],
        family: &TagTexture,
        cover: Option<Cover>,
        paint: Option<&Paint>,
    ) -> Option<Samples> {
        let to_square = square_to_quad(corners)?.try_inverse()?;
        let inked = family.inked_cells() as f64;
        let cells = family.cells as f64;
        let (low, high) = bounds(corners);
        // Half a cell of paper, in pixels, with a pixel to spare.
        let pad = 0.5 * (high.x - low.x).max(high.y - low.y) / inked + 1.0;
        let middle = cells / 2.0;
        let (first, last) = (
            ((low.x - pad).floor() as i64, (low.y - pad).floor() as i64),
            ((high.x + pad).ceil() as i64, (high.y + pad).ceil() as i64),
        );
        let paint = paint.and_then(|paint| Some((paint, paint.paper(first, last)?)));
        let mut points = Vec::new();
        for j in first.1..=last.1 {
            for i in first.0..=last.0 {
                let (x, y) = (i as f64, j as f64);
                let (u, v) = in_cells(&to_square, inked, x, y);
                let inside = |w: f64| (0.5..=cells - 0.5).contains(&w);
                if inside(u) && inside(v) {
                    // The square's edge 0 is its +v side, then +u, −v and −u (`square_to_quad`).
                    let painted = paint.is_some_and(|(p, paper)| p.painted(i, j, paper));
                    let clear = match cover {
                        _ if painted => f64::NEG_INFINITY,
                        Some(c) => c.distance([cells - v, cells - u, v, u]),
                        None => f64::INFINITY,
                    };
                    points.push((gray.at(x, y)?, u - middle, v - middle, clear));
                }
            }
        }
        Some(Samples { points, middle })
    }

    /// The likeliest of `patterns` and turns clearly told at some depth of `depths` (each
    /// judged on the samples that far clear of the cover): its id, quarter turns and likeness.
    fn identify(
        &self,
        patterns: &[(u32, &TagTexture)],
        depths: &[f64],
    ) -> Option<(u32, usize, f64)> {
        // For each depth, every pattern and turn's likeness.
        let mut ranked: Vec<Vec<(f64, u32, usize)>> = vec![Vec::new(); depths.len()];
        for (id, pattern) in patterns {
            for quarter in 0..4 {
                let likenesses = self.likeness(pattern, quarter, depths);
                for (at_depth, value) in ranked.iter_mut().zip(likenesses) {
                    if let Some(value) = value {
                        at_depth.push((value, *id, quarter));
                    }
                }
            }
        }
        ranked
            .into_iter()
            .filter_map(|mut at_depth| {
                at_depth.sort_by(|a, b| b.0.total_cmp(&a.0));
                let (best, id, quarter) = *at_depth.first()?;
                let runner_up = at_depth.get(1).map_or(f64::NEG_INFINITY, |r| r.0);
                (best >= MIN_LIKENESS && best - runner_up >= MIN_LEAD)
                    .then_some((id, quarter, best))
            })
            .max_by(|a, b| a.2.total_cmp(&b.2))
    }

    /// The likeness of the pattern turned by `quarter` (corner `k` of the tag at corner
    /// `k + quarter` of the quad) over the samples at least each of `depths` clear of the cover.
    fn likeness(&self, pattern: &TagTexture, quarter: usize, depths: &[f64]) -> Vec<Option<f64>> {
        let mut sums: Vec<Correlation> = depths.iter().map(|_| Correlation::default()).collect();
        let least = LEAST_CLEAR * self.points.len() as f64;
        for &(level, a, b, clear) in &self.points {
            // Turning the quad's corners by a quarter turns the square under it back by one.
            let (a, b) = (0..quarter).fold((a, b), |(a, b), _| (-b, a));
            let model = blended(pattern, a + self.middle, b + self.middle);
            for (sum, depth) in sums.iter_mut().zip(depths) {
                if clear >= *depth {
                    sum.add(level, model);
                }
            }
        }
        sums.iter()
            .map(|sum| sum.coefficient().filter(|_| sum.n >= least))
            .collect()
    }
}

/// A picture's point in a tag's cell units from the paper's outer edge (the inked square
/// spans 1 to cells − 1), through the map from the picture to the tag's square (−1 to 1 over
/// its `inked` cells).
pub(crate) fn in_cells(to_square: &Matrix3<f64>, inked: f64, x: f64, y: f64) -> (f64, f64) {
    let q = to_square * Vector3::new(x, y, 1.0);
    (
        (q.x / q.z + 1.0) / 2.0 * inked + 1.0,
        (q.y / q.z + 1.0) / 2.0 * inked + 1.0,
    )
}

/// The pattern's lightness (black 0, paper 1) at a point in cell units, blended bilinearly
/// between cell centres.
fn blended(pattern: &TagTexture, u: f64, v: f64) -> f64 {
    let (fu, fv) = (u - 0.5, v - 0.5);
    let (cu, cv) = (fu.floor(), fv.floor());
    let (tu, tv) = (fu - cu, fv - cv);
    let (cu, cv) = (cu as i64, cv as i64);
    let light = |col: i64, row: i64| if pattern.is_black(col, row) { 0.0 } else { 1.0 };
    light(cu, cv) * (1.0 - tu) * (1.0 - tv)
        + light(cu + 1, cv) * tu * (1.0 - tv)
        + light(cu, cv + 1) * (1.0 - tu) * tv
        + light(cu + 1, cv + 1) * tu * tv
}

pub(crate) fn bounds(corners: &[PixelPoint; 4]) -> (PixelPoint, PixelPoint) {
    corners.iter().fold(
        (
            PixelPoint::new(f64::INFINITY, f64::INFINITY),
            PixelPoint::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        ),
        |(low, high), c| {
            (
                PixelPoint::new(low.x.min(c.x), low.y.min(c.y)),
                PixelPoint::new(high.x.max(c.x), high.y.max(c.y)),
            )
        },
    )
}

/// Running sums for a correlation coefficient.
#[derive(Default)]
pub(crate) struct Correlation {
    n: f64,
    x: f64,
    y: f64,
    xx: f64,
    yy: f64,
    xy: f64,
}

impl Correlation {
    pub(crate) fn add(&mut self, x: f64, y: f64) {
        self.n += 1.0;
        self.x += x;
        self.y += y;
        self.xx += x * x;
        self.yy += y * y;
        self.xy += x * y;
    }

    /// The least-squares line `y = a + b x`: `(a, b)`.
    pub(crate) fn line(&self) -> Option<(f64, f64)> {
        let n = self.n;
        let vx = self.xx / n - (self.x / n).powi(2);
        (n > 0.0 && vx > 1e-9).then(|| {
            let b = (self.xy / n - (self.x / n) * (self.y / n)) / vx;
            (self.y / n - b * self.x / n, b)
        })
    }

    pub(crate) fn coefficient(&self) -> Option<f64> {
        let n = self.n;
        let covariance = self.xy / n - (self.x / n) * (self.y / n);
        let (vx, vy) = (
            self.xx / n - (self.x / n).powi(2),
            self.yy / n - (self.y / n).powi(2),
        );
        (n > 0.0 && vx > 1e-9 && vy > 1e-9).then(|| covariance / (vx * vy).sqrt())
    }
}
