//! What is on the synthetic table.

use calibration::{TableSize, TagPlacement};
use rules::geometry::{OrientedRect, TablePoint};
use rules::units::{Degrees, Inches};

use super::print::Sheet;
use super::scenery::Scenery;

/// A colour, red-green-blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// Green baize.
    pub const CLOTH: Rgb = Rgb(86, 120, 70);
    /// The floor beyond the table.
    pub const FLOOR: Rgb = Rgb(58, 52, 48);
    /// Tag ink.
    pub const INK: Rgb = Rgb(22, 22, 24);
    /// Tag paper.
    pub const PAPER: Rgb = Rgb(236, 234, 228);
}

/// A flat patch of colour on the cloth: a wood, a hill, a field.
#[derive(Clone, Debug, PartialEq)]
pub struct Patch {
    /// Its outline.
    pub polygon: Vec<TablePoint>,
    /// Its colour.
    pub colour: Rgb,
}

/// A tag printed on top of a block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrintedTag {
    /// Its id (in the table's family).
    pub id: u32,
    /// Where it lies; its height should be its block's.
    pub placement: TagPlacement,
}

impl PrintedTag {
    /// Where its printed corners are in a camera's picture, in the detector's order: the
    /// truth a detection is held against. `None` when a corner is behind the camera.
    pub fn as_seen(&self, camera: &calibration::Camera) -> Option<calibration::TagSighting> {
        let corners: Vec<_> = self
            .placement
            .corners()
            .iter()
            .filter_map(|c| camera.project(c))
            .collect();
        Some(calibration::TagSighting {
            id: self.id,
            corners: corners.try_into().ok()?,
        })
    }
}

/// A box standing on the cloth: a stand, a movement tray, an anchor card.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Its footprint.
    pub footprint: OrientedRect,
    /// Its height.
    pub height: Inches,
    /// Its colour.
    pub colour: Rgb,
    /// Tags printed on its top.
    pub tags: Vec<PrintedTag>,
    /// Whether figures stand on it (drawn when the table's scenery is busy): a stand or a
    /// tray, not a card or a hand.
    pub figures: bool,
}

impl Block {
    /// A thin card carrying one tag with a paper margin of one cell all round (an anchor).
    pub fn card(id: u32, placement: TagPlacement) -> Block {
        let side = placement.size * 1.5;
        Block {
            footprint: OrientedRect::from_center(
                placement.center,
                placement.facing - Degrees(90.0),
                side,
                side,
            ),
            height: placement.height,
            colour: Rgb::PAPER,
            tags: vec![PrintedTag { id, placement }],
            figures: false,
        }
    }
}

/// The whole synthetic table.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticTable {
    /// The tag family of every tag on it.
    pub family: String,
    /// The playing area.
    pub table: TableSize,
    /// Cloth colour.
    pub cloth: Rgb,
    /// Terrain drawn flat.
    pub patches: Vec<Patch>,
    /// How busy the cloth and the stands' tops look.
    pub scenery: Scenery,
    /// Stands, trays and cards.
    pub blocks: Vec<Block>,
    /// Printed paper lying on the cloth (rules, army lists), under any block.
    pub sheets: Vec<Sheet>,
}

impl SyntheticTable {
    /// An empty table of this size.
    pub fn new(table: TableSize) -> SyntheticTable {
        SyntheticTable {
            family: "tag36h11".into(),
            table,
            cloth: Rgb::CLOTH,
            patches: Vec::new(),
            scenery: Scenery::Plain,
            blocks: Vec::new(),
            sheets: Vec::new(),
        }
    }

    /// Every printed tag, with its true placement.
    pub fn tags(&self) -> impl Iterator<Item = &PrintedTag> {
        self.blocks.iter().flat_map(|b| b.tags.iter())
    }
}
