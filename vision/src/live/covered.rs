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
//! - Only families as large as tag36h11 are looked for so: in tag16h5 a covered row leaves too
//!   few bits to tell one tag from another.

use calibration::{PixelPoint, Pixels};

use super::follow::{Cover, GrayView, SideRatio, fit_square_but};
use super::likeness;
use crate::pattern::TagTexture;

/// Which of `patterns` a tag predicted at `predicted` is, with part of its border covered, and
/// its corners: fitted with an edge or a corner covered, each in turn (its edges searched for
/// up to `search` pixels either side of the predicted ones), and told by its pixels clear of
/// the cover; the likeliest of those found. Returns the corners, the id and the quarter turns
/// as [`likeness::identify`] does.
pub(crate) fn identify(
    view: &GrayView,
    predicted: &[PixelPoint; 4],
    search: Pixels,
    patterns: &[(u32, &TagTexture)],
) -> Option<([PixelPoint; 4], u32, usize)> {
    let (_, family) = patterns.first()?;
    if family.inked_cells() < COVERABLE_INKED_CELLS {
        return None;
    }
    Cover::ALL
        .into_iter()
        .filter_map(|cover| {
            let fitted = fit_square_but(view, predicted, search, SideRatio::FOLLOWED, cover)?;
            Some((cover, fitted))
        })
        .filter_map(|(cover, fitted)| {
            let (id, quarter, value) =
                likeness::identify_in_part(view, patterns, &fitted, cover, covered_depths(cover))?;
            Some((value, fitted, id, quarter))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, fitted, id, quarter)| (fitted, id, quarter))
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
