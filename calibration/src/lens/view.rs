//! What a lens fit is given: per picture, the tags whose places are known and the stand tags
//! whose sizes and heights are known but whose places are not.

use rules::units::Inches;

use crate::camera::{CameraPose, Intrinsics};
use crate::tag::{TagPlacement, TagSighting};

/// What a picture shows the tags on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// The table: its anchors and the stands on it.
    Table,
    /// The printed calibration board, held anywhere.
    Board,
}

/// A tag whose place on its surface is known: an anchor, or a tag of the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnownTag {
    /// Where it lies on its surface.
    pub placement: TagPlacement,
    /// Where it was seen.
    pub sighting: TagSighting,
}

/// A stand's tag: the roster gives its printed size and its height above the cloth; where it
/// stands and how it is turned are for the fit to find.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StandTag {
    /// Where it was seen.
    pub sighting: TagSighting,
    /// The side of its black square, as the roster lists it.
    pub size: Inches,
    /// Its printed face's height above the cloth.
    pub height: Inches,
}

/// One picture's tags, as the lens fit takes them.
#[derive(Clone, Debug, PartialEq)]
pub struct LensView {
    /// The table or the board.
    pub surface: Surface,
    /// Tags at known places (for a board view, the board's tags in the board's own frame).
    pub known: Vec<KnownTag>,
    /// Stand tags (table views only).
    pub stands: Vec<StandTag>,
}

impl LensView {
    /// The height stand tags sit at in a view (the known tags' when it has no stands).
    pub(crate) fn typical_height(&self) -> Inches {
        let mut heights: Vec<f64> = self.stands.iter().map(|s| s.height.0).collect();
        if heights.is_empty() {
            heights = self.known.iter().map(|k| k.placement.height.0).collect();
        }
        heights.sort_by(f64::total_cmp);
        Inches(heights.get(heights.len() / 2).copied().unwrap_or(0.0))
    }

    /// Known tags and stand tags together.
    pub fn tag_count(&self) -> usize {
        self.known.len() + self.stands.len()
    }

    /// The sighting of tag `index`, known tags first.
    pub fn sighting(&self, index: usize) -> &TagSighting {
        match self.known.get(index) {
            Some(known) => &known.sighting,
            None => &self.stands[index - self.known.len()].sighting,
        }
    }

    /// The camera's pose from the known tags alone, through a starting lens (PnP); `None` when
    /// fewer than three are known or it cannot be solved.
    pub fn initial_pose(&self, lens: &Intrinsics) -> Option<CameraPose> {
        if self.known.len() < 3 {
            return None;
        }
        let places: Vec<_> = self
            .known
            .iter()
            .flat_map(|k| k.placement.corners())
            .collect();
        let pixels: Vec<_> = self.known.iter().flat_map(|k| k.sighting.corners).collect();
        crate::cv::solve_pose(&places, &pixels, lens).ok()
    }

    /// Every sighting, known tags first.
    pub fn sightings(&self) -> impl Iterator<Item = &TagSighting> {
        self.known
            .iter()
            .map(|k| &k.sighting)
            .chain(self.stands.iter().map(|s| &s.sighting))
    }
}
