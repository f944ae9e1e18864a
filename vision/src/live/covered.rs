//! A tag partly covered (figures on its base, seen from the side; a finger): its square from
//! the edges in sight and its known size, and which tag it is from its pixels clear of what
//! covers it. Used by the search for the roster's missing tags and by the follower, which
//! keeps a tag it knows through the cover.
//!
//! Decisions:
//! - A cover is tried only as what figures make: an edge, or a corner, hidden from the paper
//!   inwards ([`Cover`]). The pixels left out are the same for every pattern tried; letting
//!   each pattern leave out the pixels it fits worst named wrong tags at a quarter of the
//!   candidates (on `bench accuracy`'s built tables).
//! - A figure seen from the side hides a band of the tag rising from its base, across the
//!   tag's middle as often as along an edge. Where the picture has colour, its painted pixels
//!   ([`super::paint`]) are left out as well, again the same for every pattern: on four seeds
//!   of `bench accuracy`'s built tables, 72 of 143 tags a quarter to half hidden found (67
//!   without), no false tag. Each cover is also told without the paint left out, which a grey
//!   figure would otherwise cost; tags under [`SMALL`] are told by their grey alone (a
//!   stranger's 13 px tag on a coloured base, the paint left out, was named one of the
//!   roster's: `vision/tests/small_tags.rs`).
//! - Only families as large as tag36h11 are looked for so: in tag16h5 a covered row leaves too
//!   few bits to tell one tag from another.

use calibration::{PixelPoint, Pixels};

use super::gray::GrayView;
use super::likeness;
use super::paint::Paint;
use super::roi::side;
use super::square::{Cover, SMALL, SideRatio, fit_square, fit_square_but};
use crate::pattern::TagTexture;

/// Which of `patterns` a tag predicted at `predicted` is, with part of it covered, and its
/// corners: fitted whole, and with an edge or a corner covered, each in turn (its edges searched
/// for up to `search` pixels either side of the predicted ones); told by its pixels clear of the
/// cover, and again with those `paint` sees painted left out too; the likeliest of those found.
/// Returns the corners, the id and the quarter turns as [`likeness::identify`] does.
pub(crate) fn identify(
    view: &GrayView,
    paint: Option<&Paint>,
    predicted: &[PixelPoint; 4],
    search: Pixels,
    patterns: &[(u32, &TagTexture)],
) -> Option<([PixelPoint; 4], u32, usize)> {
    let (_, family) = patterns.first()?;
    if family.inked_cells() < COVERABLE_INKED_CELLS {
        return None;
    }
    // Below a cell of two pixels the base's colour blurs into the tag's outer cells: what the
    // paint leaves is too little to tell a stranger's tag from the roster's.
    let paint = paint.filter(|_| side(predicted).0 >= SMALL);
    let fit = |cover: Option<Cover>| match cover {
        Some(cover) => fit_square_but(view, predicted, search, SideRatio::FOLLOWED, cover),
        None => fit_square(view, predicted, search, SideRatio::FOLLOWED),
    };
    // The whole square is the caller's to have tried without the paint left out.
    let whole = paint.is_some().then_some(None);
    let fits = whole
        .into_iter()
        .chain(Cover::ALL.map(Some))
        .filter_map(|cover| Some((cover, fit(cover)?)));
    let mut likeliest: Option<(f64, [PixelPoint; 4], u32, usize)> = None;
    for (cover, fitted) in fits {
        let depths = cover.map_or(&[0.0][..], covered_depths);
        let paints = [cover.is_some().then_some(None), paint.map(Some)];
        for paint in paints.into_iter().flatten() {
            let Some((id, quarter, value)) =
                likeness::identify_in_part(view, paint, patterns, &fitted, cover, depths)
            else {
                continue;
            };
            if likeliest.is_none_or(|(best, ..)| value > best) {
                likeliest = Some((value, fitted, id, quarter));
            }
        }
    }
    likeliest.map(|(_, fitted, id, quarter)| (fitted, id, quarter))
}

/// The smallest family whose tags are told apart with part of them covered: tag36h11 (8 inked
/// cells across, its 36 data bits at least 11 apart). With a row of tag16h5's 16 bits covered
/// the rest names the wrong tag.
const COVERABLE_INKED_CELLS: usize = 8;

/// How deep, in cells from the paper's edge, what covers a tag may reach and the rest still
/// tell it: past its quiet zone and border (2), a row of data cells (3) or two (4) along one
/// edge; along two edges, a corner, one row at most — beyond that what is left is too little
/// to tell one tag from another (on the built tables of `bench accuracy`, wrong tags were
/// named there).
fn covered_depths(cover: Cover) -> &'static [f64] {
    match cover {
        Cover::Edge(_) => &[2.0, 3.0, 4.0],
        Cover::Corner(_) => &[2.0, 3.0],
    }
}

#[cfg(test)]
mod tests {
    use calibration::{ImageSize, PixelPoint, Pixels, TableSize, TagPlacement};
    use opencv::core::Mat;
    use rules::geometry::{OrientedRect, TablePoint};
    use rules::units::{Degrees, Inches};

    use super::{identify, likeness};
    use crate::live::gray::GrayView;
    use crate::live::paint::Paint;
    use crate::pattern::TagTexture;
    use crate::synthetic::{Block, Effects, PrintedTag, Renderer, Rgb, SyntheticTable};

    /// Tag 5 on a base seen from 45° from vertical at about 20 px, a dull olive figure standing
    /// on the base in front of the tag's middle, hiding a band of it from its near edge up;
    /// and the tag's true corners.
    fn tag_behind_a_figure() -> (Mat, [PixelPoint; 4]) {
        let table = TableSize {
            width: 30.0,
            depth: 20.0,
        };
        let mut world = SyntheticTable::new(table);
        let center = TablePoint::new(15.0, 10.0);
        let placement = TagPlacement {
            center,
            facing: Degrees(90.0),
            size: Inches(1.0),
            height: Inches(0.16),
        };
        let base = |center: TablePoint, width: f64, depth: f64, height: f64, colour: Rgb| Block {
            footprint: OrientedRect::from_center(
                center,
                Degrees(90.0),
                Inches(width),
                Inches(depth),
            ),
            height: Inches(height),
            colour,
            tags: Vec::new(),
            figures: false,
            motion: None,
        };
        let mut stand = base(center, 2.0, 2.0, 0.16, Rgb(150, 120, 80));
        stand.tags.push(PrintedTag { id: 5, placement });
        world.blocks.push(stand);
        // The camera looks from the table's edge at y = 0: the figure stands nearer it.
        let figure = TablePoint::new(center.x + 0.1, center.y - 0.75);
        world
            .blocks
            .push(base(figure, 0.45, 0.3, 0.8, Rgb(78, 92, 52)));
        let size = ImageSize {
            width: 800,
            height: 600,
        };
        let camera = crate::synthetic::framing_camera(table, size, Degrees(45.0), Degrees(70.0));
        let image = Renderer::new()
            .render(&world, &camera, &Effects::WEBCAM)
            .expect("render");
        let truth = placement
            .corners()
            .map(|c| camera.project(&c).expect("in view"));
        (image, truth)
    }

    #[test]
    fn a_tag_with_a_painted_figure_across_its_middle_is_told_by_the_rest() {
        let (image, truth) = tag_behind_a_figure();
        let gray = crate::detect::as_gray(&image).expect("grey").into_owned();
        let view = GrayView::new(&gray).expect("continuous");
        let paint = Paint::new(&image).expect("colour");
        let textures: Vec<(u32, TagTexture)> = (0..40)
            .map(|id| (id, TagTexture::new("tag36h11", id).expect("pattern")))
            .collect();
        let patterns: Vec<(u32, &TagTexture)> = textures.iter().map(|(id, t)| (*id, t)).collect();
        let predicted = truth.map(|p| PixelPoint::new(p.x + 1.0, p.y - 1.0));
        let search = Pixels(3.0);
        let (found, id, quarter) =
            identify(&view, Some(&paint), &predicted, search, &patterns).expect("found");
        assert_eq!((id, quarter), (5, 0));
        let off = found
            .iter()
            .zip(&truth)
            .map(|(a, b)| a.distance(b).0)
            .fold(0.0, f64::max);
        assert!(off < 1.0, "corners {off:.2} px off");
        // At its true corners the figure's band spoils the whole pattern's likeness: the tag is
        // told by a part of it. (Its grey alone, with an edge covered, tells this one too; what
        // leaving the paint out adds over many tables is measured by `bench accuracy`.)
        assert_eq!(likeness::identify(&view, &patterns, &truth), None);
    }
}
