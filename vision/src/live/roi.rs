//! Regions of interest: where a known tag should be in the next frame, as a rectangle of whole
//! pixels to search at full resolution.
//!
//! Decisions:
//! - Regions start and end on multiples of 4 pixels. The AprilTag detector thresholds the image
//!   in 4×4 tiles counted from the image's corner; a crop aligned to 4 sees the same tiles as the
//!   whole frame, so a tag inside it gives the same corners as a full-frame pass.
//! - The margin around a prediction grows with the tag's size (its own border and the quiet zone
//!   the detector needs), its speed (a push accelerates) and the frames it has been missing.

use calibration::{PixelPoint, PixelVector, Pixels};

/// Regions are aligned to this many pixels (the detector's threshold tile).
pub const ALIGN: usize = 4;

/// A rectangle of whole pixels in a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// First column.
    pub left: usize,
    /// First row.
    pub top: usize,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl Region {
    /// One past the last column.
    pub fn right(&self) -> usize {
        self.left + self.width
    }

    /// One past the last row.
    pub fn bottom(&self) -> usize {
        self.top + self.height
    }

    /// Pixels covered.
    pub fn area(&self) -> usize {
        self.width * self.height
    }

    /// The aligned region holding `points` with `margin` all round, clipped to a frame of
    /// `frame_width` × `frame_height`; `None` when nothing of it is in the frame.
    pub fn around(
        points: &[PixelPoint],
        margin: Pixels,
        frame_width: usize,
        frame_height: usize,
    ) -> Option<Region> {
        let finite = points.iter().filter(|p| p.is_finite());
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for p in finite {
            (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
        }
        if x0 > x1 {
            return None;
        }
        let m = margin.0.max(0.0);
        let clip = |v: f64, limit: usize| v.clamp(0.0, limit as f64) as usize;
        let left = clip((x0 - m).floor(), frame_width) / ALIGN * ALIGN;
        let top = clip((y0 - m).floor(), frame_height) / ALIGN * ALIGN;
        let right =
            (clip((x1 + m).ceil() + 1.0, frame_width).div_ceil(ALIGN) * ALIGN).min(frame_width);
        let bottom =
            (clip((y1 + m).ceil() + 1.0, frame_height).div_ceil(ALIGN) * ALIGN).min(frame_height);
        (right > left && bottom > top).then_some(Region {
            left,
            top,
            width: right - left,
            height: bottom - top,
        })
    }

    /// Whether a point lies inside.
    pub fn contains(&self, p: PixelPoint) -> bool {
        p.x >= self.left as f64
            && p.y >= self.top as f64
            && p.x < self.right() as f64
            && p.y < self.bottom() as f64
    }

    /// Whether the two overlap or come within `gap` pixels of each other.
    fn near(&self, other: &Region, gap: usize) -> bool {
        self.left <= other.right() + gap
            && other.left <= self.right() + gap
            && self.top <= other.bottom() + gap
            && other.top <= self.bottom() + gap
    }

    /// Whether searching the two as one costs at most [`MERGE_GROWTH`] times their pixels.
    fn worth_merging(&self, other: &Region) -> bool {
        self.near(other, MERGE_GAP)
            && self.union(other).area() as f64 <= MERGE_GROWTH * (self.area() + other.area()) as f64
    }

    /// The smallest region holding both.
    fn union(&self, other: &Region) -> Region {
        let (left, top) = (self.left.min(other.left), self.top.min(other.top));
        Region {
            left,
            top,
            width: self.right().max(other.right()) - left,
            height: self.bottom().max(other.bottom()) - top,
        }
    }
}

/// Regions closer than this may be searched as one: two overlapping crops would find the same
/// tag twice and pay twice for the pixels they share.
const MERGE_GAP: usize = 8;

/// Two regions are searched as one only if the rectangle holding both is at most this much
/// larger than the two: chains of neighbouring stands must not grow into a crop of half the
/// table. Regions left overlapping may find a tag twice; the caller keeps one sighting.
const MERGE_GROWTH: f64 = 1.25;

/// Merge regions that nearly touch when their union costs little more than they do, until no
/// more can be.
pub fn merge(mut regions: Vec<Region>) -> Vec<Region> {
    let mut merged = true;
    while merged {
        merged = false;
        let mut out: Vec<Region> = Vec::with_capacity(regions.len());
        for region in regions {
            match out.iter_mut().find(|r| r.worth_merging(&region)) {
                Some(r) => {
                    *r = r.union(&region);
                    merged = true;
                }
                None => out.push(region),
            }
        }
        regions = out;
    }
    regions
}

/// A tag's mean side, from its four corners.
pub fn side(corners: &[PixelPoint; 4]) -> Pixels {
    Pixels(
        (0..4)
            .map(|k| corners[k].distance(&corners[(k + 1) % 4]).0)
            .sum::<f64>()
            / 4.0,
    )
}

/// A tag's corners `frames` frames on, each corner moving at its own `velocity` pixels a frame.
pub fn predict(
    corners: &[PixelPoint; 4],
    velocity: &[PixelVector; 4],
    frames: f64,
) -> [PixelPoint; 4] {
    std::array::from_fn(|k| corners[k] + velocity[k] * frames)
}

/// How far either side of a predicted edge a tag of side `side` moving `speed` pixels a frame
/// is looked for when following it: at least a pixel and a half, more for a fast tag, never
/// more than a fifth of its side (beyond that a data cell's edge could pass for the border's).
pub fn follow_search(side: Pixels, speed: Pixels) -> Pixels {
    Pixels((1.5 + 0.5 * speed.0).min(0.2 * side.0).max(1.5))
}

/// The margin searched around a predicted tag of side `side` moving `speed` pixels a frame,
/// missing for `missed` frames.
///
/// The detector needs the tag's white border (one cell, an eighth of the side) and a few
/// threshold tiles of context round it; the rest covers what the prediction cannot know (a push
/// speeding up or turning), which grows with speed and, a little, with frames missed. It is
/// kept small on purpose: every pixel of margin is paid on every frame, and a tag that escapes
/// its region is found again by the band and full passes.
pub fn margin(side: Pixels, speed: Pixels, missed: u32) -> Pixels {
    let growth = 1.0 + 0.1 * f64::from(missed.min(5));
    Pixels((0.35 * side.0 + 1.5 * speed.0 + 8.0) * growth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turning_tag_is_predicted_corner_by_corner() {
        let corners = [
            PixelPoint::new(10.0, 10.0),
            PixelPoint::new(20.0, 10.0),
            PixelPoint::new(20.0, 20.0),
            PixelPoint::new(10.0, 20.0),
        ];
        // Turning about its centre: opposite corners move opposite ways.
        let velocity = [
            PixelVector::new(1.0, -1.0),
            PixelVector::new(1.0, 1.0),
            PixelVector::new(-1.0, 1.0),
            PixelVector::new(-1.0, -1.0),
        ];
        let ahead = predict(&corners, &velocity, 2.5);
        assert_eq!(ahead[0], PixelPoint::new(12.5, 7.5));
        assert_eq!(ahead[2], PixelPoint::new(17.5, 22.5));
        assert_eq!(ahead[1] - corners[1], PixelVector::new(2.5, 2.5));
    }

    #[test]
    fn regions_are_aligned_clipped_and_hold_their_points() {
        let points = [PixelPoint::new(5.3, 7.9), PixelPoint::new(21.2, 30.1)];
        let r = Region::around(&points, Pixels(6.0), 30, 100).expect("in frame");
        assert_eq!((r.left % ALIGN, r.top % ALIGN), (0, 0));
        assert_eq!(r.right(), 30, "clipped to the frame's width");
        assert!(points.iter().all(|p| r.contains(*p)));
        assert!(Region::around(&[PixelPoint::new(-50.0, -50.0)], Pixels(3.0), 30, 30).is_none());
    }

    #[test]
    fn overlapping_regions_merge_and_distant_ones_do_not() {
        let at = |left, top| Region {
            left,
            top,
            width: 20,
            height: 20,
        };
        let merged = merge(vec![at(0, 0), at(500, 500), at(4, 4)]);
        assert_eq!(merged.len(), 2);
        assert!(merged.contains(&Region {
            left: 0,
            top: 0,
            width: 24,
            height: 24
        }));
    }

    #[test]
    fn a_diagonal_chain_of_neighbours_is_not_merged_into_one_large_crop() {
        let at = |left, top| Region {
            left,
            top,
            width: 20,
            height: 20,
        };
        let chain = vec![at(0, 0), at(24, 24), at(48, 48), at(72, 72)];
        let merged = merge(chain.clone());
        assert_eq!(
            merged, chain,
            "each union would search far more than the two"
        );
        let pixels: usize = merged.iter().map(Region::area).sum();
        assert_eq!(pixels, 4 * 400);
    }
}
