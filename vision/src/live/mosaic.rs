//! Many regions, one detector call: the regions of a frame are copied side by side into one
//! small image, searched at once (the detector spreads the work over its threads), and the
//! tags found are moved back to the frame's coordinates.

use apriltag::Image;
use calibration::{PixelPoint, Pixels};
use opencv::core::{Mat, MatTraitConstManual};

use super::roi::{ALIGN, Region, side};
use crate::detect::Detection;
use crate::error::VisionError;

/// Empty pixels between regions, so no tag straddles two. A multiple of [`ALIGN`], so each
/// region keeps its alignment.
const GAP: usize = 2 * ALIGN;

/// Mid grey: flat, so the detector finds no edges between the regions.
const FILL: u8 = 128;

/// Regions of a frame packed into one image.
pub(crate) struct Mosaic {
    /// The packed pixels.
    pub image: Image,
    /// Each region and where its top-left pixel is in the mosaic.
    placed: Vec<(Region, [usize; 2])>,
}

impl Mosaic {
    /// Pack the regions of a grey frame in shelves, tallest first.
    pub fn build(gray: &Mat, regions: &[Region]) -> Result<Option<Mosaic>, VisionError> {
        if regions.is_empty() {
            return Ok(None);
        }
        let area: usize = regions
            .iter()
            .map(|r| (r.width + GAP) * (r.height + GAP))
            .sum();
        let widest = regions.iter().map(|r| r.width).max().unwrap_or(0);
        let shelf_width = widest.max(((area as f64).sqrt() * 1.2) as usize);
        let mut order: Vec<&Region> = regions.iter().collect();
        order.sort_by_key(|r| std::cmp::Reverse(r.height));
        let mut placed = Vec::with_capacity(regions.len());
        let (mut x, mut y, mut shelf) = (GAP, GAP, 0);
        for region in order {
            if x + region.width + GAP > shelf_width + 2 * GAP {
                (x, y, shelf) = (GAP, y + shelf + GAP, 0);
            }
            placed.push((*region, [x, y]));
            x += region.width + GAP;
            shelf = shelf.max(region.height);
        }
        let width = placed
            .iter()
            .map(|(r, [x, _])| x + r.width + GAP)
            .max()
            .unwrap_or(GAP);
        let height = y + shelf + GAP;
        let mut image = Image::zeros_with_alignment(width, height, 96)
            .map_err(|e| VisionError::Detector(e.to_string()))?;
        let stride = image.stride();
        let target = image.as_slice_mut();
        target.fill(FILL);
        for (region, [x, y]) in &placed {
            for row in 0..region.height {
                let source = gray.at_row::<u8>((region.top + row) as i32)?;
                let start = (y + row) * stride + x;
                target[start..start + region.width]
                    .copy_from_slice(&source[region.left..region.right()]);
            }
        }
        Ok(Some(Mosaic { image, placed }))
    }

    /// Paint over the tags already found (corners in the frame), border and paper included, so
    /// a pass looking for new tags does not pay to find them again.
    pub fn blank(&mut self, tags: &[[PixelPoint; 4]]) {
        let stride = self.image.stride();
        let pixels = self.image.as_slice_mut();
        for corners in tags {
            let side = side(corners).0;
            let Some(tag) =
                Region::around(corners, Pixels(side / 4.0 + 2.0), usize::MAX, usize::MAX)
            else {
                continue;
            };
            for (region, [x, y]) in &self.placed {
                let left = tag.left.max(region.left);
                let right = tag.right().min(region.right());
                let top = tag.top.max(region.top);
                let bottom = tag.bottom().min(region.bottom());
                for row in top..bottom.max(top) {
                    let start = (y + row - region.top) * stride + x + left - region.left;
                    if right > left {
                        pixels[start..start + right - left].fill(FILL);
                    }
                }
            }
        }
    }

    /// A tag found in the mosaic, moved back to the frame, with the region it lies in; `None`
    /// for a tag in no region (cannot happen with whole tags).
    pub fn to_frame(&self, mut tag: Detection) -> Option<(Region, Detection)> {
        let center = PixelPoint::mean(&tag.sighting.corners);
        let (region, [x, y]) = self.placed.iter().find(|(r, [x, y])| {
            let (cx, cy) = (center.x - *x as f64, center.y - *y as f64);
            cx >= 0.0 && cy >= 0.0 && cx < r.width as f64 && cy < r.height as f64
        })?;
        let dx = region.left as f64 - *x as f64;
        let dy = region.top as f64 - *y as f64;
        for c in &mut tag.sighting.corners {
            *c = PixelPoint::new(c.x + dx, c.y + dy);
        }
        Some((*region, tag))
    }
}
