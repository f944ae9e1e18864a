//! Paint told from print. A printed tag is grey: black ink on white paper, whatever colour the
//! light over the table gives them both. The figures standing over it, the base's flock and the
//! hills round it are painted. A pixel coloured against the tag's own paper is not the tag's,
//! whatever its grey level: what a figure hides of a tag can be left out of telling which tag
//! it is, the same pixels for every pattern tried, without guessing the figure's shape.
//!
//! Decisions:
//! - Colour is judged against the tag's paper (the lightest tenth of the pixels round it), so
//!   that a lamp's warm light, which tints the paper as much as anything, paints nothing.
//! - A pixel is judged by the mean colour of it and its eight neighbours: a webcam's colour
//!   noise is a few levels a pixel, the dull paint of a figure seen through a webcam's blur
//!   (olive, brown, a dark blue coat) about a dozen, and steady over its pixels.
//! - A figure painted black, white or grey is not told so, and is left to the covers along the
//!   tag's edges ([`super::covered`]). A grey picture (one channel) has no paint to tell.

use opencv::core::{Mat, MatTraitConst, MatTraitConstManual};

/// The least difference between a pixel's colour channels, once the tag's paper is made grey,
/// that says it is painted, not printed (levels of 255).
const PAINTED: f64 = 10.0;

/// A colour picture's pixels, asked whether each is painted.
pub(crate) struct Paint<'a> {
    data: &'a [u8],
    width: usize,
    height: usize,
    channels: usize,
}

/// The colour of a tag's paper under the table's light: what grey looks like there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Paper([f64; 3]);

impl<'a> Paint<'a> {
    /// A view of a BGR or BGRA picture; `None` for a grey one, or one whose pixels are not one
    /// block.
    pub(crate) fn new(image: &'a Mat) -> Option<Paint<'a>> {
        let channels = usize::try_from(image.channels()).ok()?;
        if channels < 3 || !image.is_continuous() {
            return None;
        }
        let data = image.data_bytes().ok()?;
        let (width, height) = (image.cols() as usize, image.rows() as usize);
        (data.len() >= width * height * channels).then_some(Paint {
            data,
            width,
            height,
            channels,
        })
    }

    /// The paper's colour among the pixels from `low` to `high` (column, row; inclusive): the
    /// mean of their lightest tenth.
    pub(crate) fn paper(&self, low: (i64, i64), high: (i64, i64)) -> Option<Paper> {
        let mut pixels: Vec<[f64; 3]> = (low.1..=high.1)
            .flat_map(|y| (low.0..=high.0).map(move |x| (x, y)))
            .filter_map(|(x, y)| self.pixel(x, y))
            .collect();
        pixels.sort_by(|a, b| lightness(b).total_cmp(&lightness(a)));
        let lightest = &pixels[..pixels.len().div_ceil(10)];
        let mean = mean(lightest)?;
        mean.iter().all(|c| *c > 0.0).then_some(Paper(mean))
    }

    /// Whether the pixel at column `x`, row `y` is painted, judged against `paper`: the mean
    /// colour of it and its neighbours, each channel scaled so that the paper is grey, has
    /// channels [`PAINTED`] apart or more. Outside the picture: not.
    pub(crate) fn painted(&self, x: i64, y: i64, paper: Paper) -> bool {
        let around: Vec<[f64; 3]> = (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| (x + dx, y + dy)))
            .filter_map(|(x, y)| self.pixel(x, y))
            .collect();
        let Some(colour) = mean(&around) else {
            return false;
        };
        let grey = lightness(&paper.0);
        let balanced = std::array::from_fn::<f64, 3, _>(|c| colour[c] * grey / paper.0[c]);
        let (low, high) = balanced
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), c| {
                (l.min(*c), h.max(*c))
            });
        high - low >= PAINTED
    }

    fn pixel(&self, x: i64, y: i64) -> Option<[f64; 3]> {
        let (x, y) = (usize::try_from(x).ok()?, usize::try_from(y).ok()?);
        if x >= self.width || y >= self.height {
            return None;
        }
        let at = (y * self.width + x) * self.channels;
        Some(std::array::from_fn(|c| f64::from(self.data[at + c])))
    }
}

fn lightness(colour: &[f64; 3]) -> f64 {
    colour.iter().sum::<f64>() / 3.0
}

fn mean(colours: &[[f64; 3]]) -> Option<[f64; 3]> {
    let n = colours.len() as f64;
    (n > 0.0).then(|| std::array::from_fn(|c| colours.iter().map(|p| p[c]).sum::<f64>() / n))
}

#[cfg(test)]
mod tests {
    use opencv::core::{CV_8UC1, CV_8UC3, Mat, Rect, Scalar};
    use opencv::prelude::*;

    use super::Paint;

    /// A 20 × 20 picture of paper under a lamp's warm light (BGR), with black ink over its left
    /// half and a dull olive figure over the bottom right.
    fn warm_paper_inked_with_a_figure() -> Mat {
        let mut image =
            Mat::new_rows_cols_with_default(20, 20, CV_8UC3, Scalar::new(170.0, 205.0, 240.0, 0.0))
                .expect("a picture");
        let mut fill = |rect: Rect, colour: Scalar| {
            Mat::roi_mut(&mut image, rect)
                .expect("inside")
                .set_to_def(&colour)
                .expect("filled");
        };
        fill(Rect::new(0, 0, 10, 20), Scalar::new(20.0, 24.0, 28.0, 0.0));
        fill(Rect::new(13, 13, 7, 7), Scalar::new(40.0, 66.0, 55.0, 0.0));
        image
    }

    #[test]
    fn a_dull_figure_is_painted_and_warm_lit_print_is_not() {
        let image = warm_paper_inked_with_a_figure();
        let paint = Paint::new(&image).expect("a colour picture");
        let paper = paint.paper((0, 0), (19, 19)).expect("paper");
        assert!(!paint.painted(15, 4, paper), "the paper");
        assert!(!paint.painted(4, 10, paper), "the ink");
        assert!(paint.painted(16, 16, paper), "the figure");
        // Judged against white light instead, the warm paper itself would be painted.
        let white = super::Paper([200.0, 200.0, 200.0]);
        assert!(paint.painted(15, 4, white));
    }

    #[test]
    fn a_grey_picture_has_no_paint_to_tell() {
        let grey =
            Mat::new_rows_cols_with_default(8, 8, CV_8UC1, Scalar::all(128.0)).expect("a picture");
        assert!(Paint::new(&grey).is_none());
    }
}
