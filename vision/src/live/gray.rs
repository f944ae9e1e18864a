//! A grey frame's pixels as the follower and the search read them: one block, bilinear.

use opencv::core::{Mat, MatTraitConst, MatTraitConstManual};

use crate::error::VisionError;

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

/// A grey frame whose pixels are one block, as [`GrayView`] reads them (a copy when not).
pub(super) fn one_block(gray: &Mat) -> Result<std::borrow::Cow<'_, Mat>, VisionError> {
    Ok(if gray.is_continuous() {
        std::borrow::Cow::Borrowed(gray)
    } else {
        std::borrow::Cow::Owned(gray.try_clone()?)
    })
}

pub(super) fn gray_view(gray: &Mat) -> Result<GrayView<'_>, VisionError> {
    GrayView::new(gray).ok_or_else(|| VisionError::Image("the image is empty".into()))
}
