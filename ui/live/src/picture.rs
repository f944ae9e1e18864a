//! A camera picture as the faces show it: 8-bit RGBA, row by row, shared between the threads
//! that show, serve and record it.

/// A picture's pixels, RGBA, opaque.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Width and height in pixels.
    pub size: [usize; 2],
    /// Four bytes a pixel (red, green, blue, alpha), row after row.
    pub rgba: Vec<u8>,
}

impl Picture {
    /// A picture of `size` from its RGBA bytes; `None` when there are not four a pixel.
    pub fn from_rgba(size: [usize; 2], rgba: Vec<u8>) -> Option<Picture> {
        (rgba.len() == size[0] * size[1] * 4).then_some(Picture { size, rgba })
    }

    /// Its red, green and blue bytes, row after row (for JPEG).
    pub fn rgb(&self) -> Vec<u8> {
        self.rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_holds_four_bytes_a_pixel() {
        assert!(Picture::from_rgba([2, 1], vec![0; 8]).is_some());
        assert!(Picture::from_rgba([2, 1], vec![0; 7]).is_none());
        let picture = Picture::from_rgba([1, 1], vec![1, 2, 3, 255]).expect("one pixel");
        assert_eq!(picture.rgb(), vec![1, 2, 3]);
    }
}
