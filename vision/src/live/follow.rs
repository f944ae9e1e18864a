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
use nalgebra::Vector3;

use super::gray::GrayView;
use super::roi::side;
use super::square::{SMALL, SideRatio, fit_square, square_to_quad};
use super::{covered, likeness};
use crate::pattern::TagTexture;

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

/// The weakest black–white difference between border and paper that is read as a tag.
const MIN_CONTRAST: f64 = 30.0;
/// How much each cell's reading is pushed away from its four neighbours' (the AprilTag
/// library's default decode sharpening).
const SHARPENING: f64 = 0.25;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synthetic::{Block, Effects, PrintedTag, Renderer, Rgb, Scenery, SyntheticTable};
    use calibration::{ImageSize, TableSize, TagPlacement};
    use opencv::core::Mat;
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
}
