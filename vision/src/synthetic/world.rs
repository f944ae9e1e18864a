//! What is on the synthetic table.

use calibration::{Camera, TablePoint3, TableSize, TagPlacement, TagSighting};
use nalgebra::{Isometry3, Translation3, Unit, UnitQuaternion, Vector3};
use rules::geometry::{OrientedRect, TablePoint};
use rules::units::{Degrees, Inches};

use super::colour::Rgb;
use super::landscape::Landscape;
use super::print::Sheet;
use super::scenery::Scenery;

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
    /// Where it is when it is not lying still on its footprint: lifted, tilted and carried in a
    /// hand, or slid along the cloth. `None`: lying still on its footprint.
    pub motion: Option<BlockMotion>,
}

/// A block away from its footprint on the cloth: the rigid motion that takes the block as it
/// would lie there to where it is when the camera's shutter opens, and to where it is when it
/// closes. Rays sampled in between see it in between, so a carried stand is blurred along its
/// path as a webcam's long indoor exposure blurs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlockMotion {
    /// The pose when the shutter opens (table inches, z up from the cloth).
    pub opens: Isometry3<f64>,
    /// The pose when it closes.
    pub closes: Isometry3<f64>,
}

impl BlockMotion {
    /// A block held still in this pose.
    pub fn still(pose: Isometry3<f64>) -> BlockMotion {
        BlockMotion {
            opens: pose,
            closes: pose,
        }
    }

    /// The pose at `share` of the exposure (0 when the shutter opens, 1 when it closes).
    pub fn at(&self, share: f64) -> Isometry3<f64> {
        self.opens.lerp_slerp(&self.closes, share)
    }

    /// The pose half way through the exposure: where the truth says the block is.
    pub fn middle(&self) -> Isometry3<f64> {
        self.at(0.5)
    }
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
            motion: None,
        }
    }

    /// Its box, for ray tests.
    pub(super) fn slab(&self) -> Slab {
        let (r, f) = (self.footprint.right(), self.footprint.forward());
        Slab {
            center: self.footprint.center(),
            right: (r.x, r.y),
            forward: (f.x, f.y),
            half: (
                self.footprint.width().0 / 2.0,
                self.footprint.depth().0 / 2.0,
            ),
            height: self.height.0,
        }
    }

    /// How far along a ray from `eye` the block is first met, half way through the exposure.
    pub fn hit(&self, eye: &TablePoint3, direction: &Vector3<f64>) -> Option<f64> {
        let slab = self.slab();
        match &self.motion {
            Some(motion) => {
                let inverse = motion.middle().inverse();
                slab.enter(&(inverse * eye), &(inverse * direction))
            }
            None => slab.enter(eye, direction),
        }
        .map(|(t, _)| t)
    }

    /// Where a point of the block as it would lie on its footprint is, half way through the
    /// exposure.
    pub fn carry(&self, point: TablePoint3) -> TablePoint3 {
        match &self.motion {
            Some(motion) => motion.middle() * point,
            None => point,
        }
    }

    /// The corners of one of its tags where they are, half way through the exposure, in
    /// AprilTag order.
    pub fn tag_corners(&self, tag: &PrintedTag) -> [TablePoint3; 4] {
        tag.placement.corners().map(|c| self.carry(c))
    }

    /// Where one of its tags' corners are in a camera's picture: the truth a detection is
    /// held against. `None` when a corner is behind the camera.
    pub fn tag_as_seen(&self, tag: &PrintedTag, camera: &Camera) -> Option<TagSighting> {
        let corners: Vec<_> = self
            .tag_corners(tag)
            .iter()
            .filter_map(|c| camera.project(c))
            .collect();
        Some(TagSighting {
            id: tag.id,
            corners: corners.try_into().ok()?,
        })
    }
}

/// A block's box as it lies on its footprint, in the form a ray test wants.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slab {
    center: TablePoint,
    right: (f64, f64),
    forward: (f64, f64),
    half: (f64, f64),
    height: f64,
}

impl Slab {
    /// A table point in the box's own frame: to its right and forward of its centre.
    pub(super) fn local(&self, p: &TablePoint) -> (f64, f64) {
        let (dx, dy) = (p.x - self.center.x, p.y - self.center.y);
        (
            dx * self.right.0 + dy * self.right.1,
            dx * self.forward.0 + dy * self.forward.1,
        )
    }

    /// Where a ray enters the box (the slab test in its own frame), and whether through its
    /// top; `None` when it misses, or starts inside.
    pub(super) fn enter(&self, eye: &TablePoint3, d: &Vector3<f64>) -> Option<(f64, bool)> {
        let (ox, oy) = self.local(&TablePoint::new(eye.x, eye.y));
        let local_o = [ox, oy, eye.z];
        let local_d = [
            d.x * self.right.0 + d.y * self.right.1,
            d.x * self.forward.0 + d.y * self.forward.1,
            d.z,
        ];
        let low = [-self.half.0, -self.half.1, 0.0];
        let high = [self.half.0, self.half.1, self.height];
        let (mut enter, mut exit, mut axis) = (f64::NEG_INFINITY, f64::INFINITY, 2);
        for k in 0..3 {
            if local_d[k].abs() < 1e-15 {
                if local_o[k] < low[k] || local_o[k] > high[k] {
                    return None;
                }
                continue;
            }
            let (mut t0, mut t1) = (
                (low[k] - local_o[k]) / local_d[k],
                (high[k] - local_o[k]) / local_d[k],
            );
            if t0 > t1 {
                std::mem::swap(&mut t0, &mut t1);
            }
            if t0 > enter {
                enter = t0;
                axis = k;
            }
            exit = exit.min(t1);
        }
        (enter <= exit + 1e-12 && enter > 0.0).then_some((enter, axis == 2))
    }
}

/// Where a hand holds a block: the centre of its footprint taken to `to`, the block turned
/// about the vertical, raised and tilted out of the table's plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandHold {
    /// Where the footprint's centre is, seen from above.
    pub to: TablePoint,
    /// How far the block has turned (counter-clockwise).
    pub turn: Degrees,
    /// How far its bottom is raised above the cloth.
    pub rise: Inches,
    /// How far it is tilted out of the table's plane …
    pub tilt: Degrees,
    /// … its top leaning towards this direction on the table.
    pub toward: Degrees,
}

impl HandHold {
    /// Lying on the cloth at `to`, turned by `turn`: slid there, not lifted.
    pub fn on_cloth(to: TablePoint, turn: Degrees) -> HandHold {
        HandHold {
            to,
            turn,
            rise: Inches::ZERO,
            tilt: Degrees(0.0),
            toward: Degrees(0.0),
        }
    }

    /// The rigid motion from the block lying with its footprint's centre at `rest`.
    pub fn pose(&self, rest: TablePoint) -> Isometry3<f64> {
        let a = self.toward.0.to_radians();
        let axis = Unit::new_normalize(Vector3::new(-a.sin(), a.cos(), 0.0));
        let rotation = UnitQuaternion::from_axis_angle(&axis, self.tilt.0.to_radians())
            * UnitQuaternion::from_axis_angle(&Vector3::z_axis(), self.turn.0.to_radians());
        Isometry3::from_parts(
            Translation3::new(self.to.x, self.to.y, self.rise.0),
            rotation,
        ) * Isometry3::translation(-rest.x, -rest.y, 0.0)
    }
}

/// A lamp's reflection on glossy tops (printed labels, varnished figures; not the cloth): light
/// added to every block's top under it, most at its centre, falling off as a Gaussian.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glare {
    /// Where it is brightest.
    pub center: TablePoint,
    /// Its radius (one standard deviation of the fall-off).
    pub radius: Inches,
    /// Grey levels added at its centre (255 clips even black ink to white).
    pub strength: f64,
}

impl Glare {
    /// The grey levels added at `p`.
    pub fn at(&self, p: &TablePoint) -> f64 {
        let r2 = (p - self.center).norm_squared() / (self.radius.0 * self.radius.0).max(1e-12);
        self.strength * (-0.5 * r2).exp()
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
    /// What stands up from the cloth: hills' ground, trees, rocks, buildings, walls.
    pub landscape: Landscape,
    /// How busy the cloth and the stands' tops look.
    pub scenery: Scenery,
    /// Stands, trays and cards.
    pub blocks: Vec<Block>,
    /// Printed paper lying on the cloth (rules, army lists), under any block.
    pub sheets: Vec<Sheet>,
    /// Lamps' reflections on the printed labels.
    pub glare: Vec<Glare>,
    /// Tags printed with faded ink, and the ink's colour.
    pub faded: Vec<(u32, Rgb)>,
}

impl SyntheticTable {
    /// An empty table of this size.
    pub fn new(table: TableSize) -> SyntheticTable {
        SyntheticTable {
            family: "tag36h11".into(),
            table,
            cloth: Rgb::CLOTH,
            patches: Vec::new(),
            landscape: Landscape::default(),
            scenery: Scenery::Plain,
            blocks: Vec::new(),
            sheets: Vec::new(),
            glare: Vec::new(),
            faded: Vec::new(),
        }
    }

    /// Stand the blocks carrying these tags on a flat-topped rise `by` high: each block as
    /// much taller, its tags as much higher (the rise's own slopes are not drawn: the blocks
    /// stand on a plinth of their own footprint).
    pub fn raise(&mut self, tags: &[u32], by: Inches) {
        for block in &mut self.blocks {
            if block.tags.iter().any(|t| tags.contains(&t.id)) {
                block.height = block.height + by;
                for tag in &mut block.tags {
                    tag.placement.height = tag.placement.height + by;
                }
            }
        }
    }

    /// Every printed tag, with its placement on its block as the block would lie on its
    /// footprint (see [`Block::tag_corners`] for where a carried block's tags are).
    pub fn tags(&self) -> impl Iterator<Item = &PrintedTag> {
        self.blocks.iter().flat_map(|b| b.tags.iter())
    }

    /// Every tag whose printed square the camera sees whole (inside the picture, no other
    /// block in front of any corner or its centre), with its corners in pixels where they are
    /// half way through the exposure: the truth recall is counted against.
    pub fn tags_in_view(&self, camera: &Camera) -> Vec<(u32, [calibration::PixelPoint; 4])> {
        let size = camera.intrinsics.image_size;
        let inside = |p: &calibration::PixelPoint| {
            (0.0..f64::from(size.width)).contains(&p.x)
                && (0.0..f64::from(size.height)).contains(&p.y)
        };
        let eye = camera.pose.eye();
        self.blocks
            .iter()
            .enumerate()
            .flat_map(|(index, block)| block.tags.iter().map(move |tag| (index, block, tag)))
            .filter_map(|(index, block, tag)| {
                let corners = block.tag_corners(tag);
                let centre = TablePoint3::from(
                    corners.iter().fold(Vector3::zeros(), |s, c| s + c.coords) / 4.0,
                );
                let hidden = corners.iter().chain([&centre]).any(|point| {
                    let to = point - eye;
                    self.blocks.iter().enumerate().any(|(other, b)| {
                        other != index && b.hit(&eye, &to).is_some_and(|t| t < 1.0 - 1e-9)
                    })
                });
                let pixels = block.tag_as_seen(tag, camera)?.corners;
                (!hidden && pixels.iter().all(inside)).then_some((tag.id, pixels))
            })
            .collect()
    }

    /// Every printed tag with its block.
    pub fn tags_on_blocks(&self) -> impl Iterator<Item = (&Block, &PrintedTag)> {
        self.blocks
            .iter()
            .flat_map(|b| b.tags.iter().map(move |t| (b, t)))
    }
}
