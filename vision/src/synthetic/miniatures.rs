//! The miniatures on the stands: two to six painted figures standing up from every base, beside
//! and in front of its tag, as real tables have them. From overhead they hide nothing; from a
//! camera at the table's side, the figures between a tag and the camera hide part of its edge,
//! its quiet zone, or more.
//!
//! Decisions:
//! - A figure is a box standing on its base (a 15–28 mm figure seen from a webcam is a blob:
//!   its silhouette, not its shape, is what hides a tag). It never stands on the tag itself:
//!   players keep the printed square clear, not its surroundings.
//! - How much of a tag is hidden is the share of its printed square and its one-cell quiet zone
//!   whose rays to the camera meet another block first: what the detector needs to see.

use rules::geometry::{OrientedRect, TablePoint};
use rules::units::{Degrees, Inches};

use calibration::{Camera, TablePoint3};

use super::colour::Rgb;
use super::noise::Noise;
use super::world::{Block, PrintedTag, SyntheticTable};

/// How the figures on the stands are made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MiniatureSettings {
    /// Figures on a base: from, to (inclusive).
    pub per_base: (usize, usize),
    /// How tall a figure stands above its base: from, to.
    pub height: (Inches, Inches),
    /// How wide a figure is (its base's side, or a horse's length over two): from, to.
    pub width: (Inches, Inches),
}

impl Default for MiniatureSettings {
    /// 15–28 mm figures: 0.6–1.1" tall, 0.25–0.45" wide, two to six a base.
    fn default() -> MiniatureSettings {
        MiniatureSettings {
            per_base: (2, 6),
            height: (Inches(0.6), Inches(1.1)),
            width: (Inches(0.25), Inches(0.45)),
        }
    }
}

/// Painted coats, facings and horses.
const PAINT: [Rgb; 5] = [
    Rgb(150, 30, 30),
    Rgb(40, 50, 110),
    Rgb(200, 190, 160),
    Rgb(90, 60, 40),
    Rgb(60, 70, 50),
];

/// Tries at a free spot for each figure before it is left off its base.
const TRIES: usize = 40;

impl SyntheticTable {
    /// Stand figures on every base that carries a tag (not on anchor cards), at random free
    /// spots off the tag's square; returns how many were stood.
    pub fn stand_miniatures(&mut self, settings: &MiniatureSettings, seed: u64) -> usize {
        let mut noise = Noise::new(seed);
        let mut figures = Vec::new();
        for block in self
            .blocks
            .iter()
            .filter(|b| b.figures && b.motion.is_none())
        {
            let Some(tag) = block.tags.first() else {
                continue;
            };
            let count = settings.per_base.0
                + (noise.uniform() * (settings.per_base.1 - settings.per_base.0 + 1) as f64)
                    as usize;
            let mut stood: Vec<OrientedRect> = Vec::new();
            for _ in 0..count.min(settings.per_base.1) {
                if let Some(figure) = free_spot(block, tag, &stood, settings, &mut noise) {
                    stood.push(figure.footprint);
                    figures.push(figure);
                }
            }
        }
        let count = figures.len();
        self.blocks.extend(figures);
        count
    }

    /// The share (0 to 1) of tag `id`'s printed square and quiet zone that the camera cannot
    /// see for other blocks in front of it; `None` when no block carries the tag.
    pub fn hidden_share(&self, id: u32, camera: &Camera) -> Option<f64> {
        let (index, block, tag) = self
            .blocks
            .iter()
            .enumerate()
            .find_map(|(i, b)| Some((i, b, b.tags.iter().find(|t| t.id == id)?)))?;
        let eye = camera.pose.eye();
        const SAMPLES: usize = 12;
        let mut hidden = 0;
        for i in 0..SAMPLES {
            for j in 0..SAMPLES {
                let point = block.carry(on_tag(tag, i, j, SAMPLES));
                let to = point - eye;
                let covered = self.blocks.iter().enumerate().any(|(other, b)| {
                    other != index && b.hit(&eye, &to).is_some_and(|t| t < 1.0 - 1e-9)
                });
                hidden += usize::from(covered);
            }
        }
        Some(hidden as f64 / (SAMPLES * SAMPLES) as f64)
    }
}

/// Sample `(i, j)` of an `n`×`n` grid over a tag's printed square and its quiet zone (one
/// cell of the tag36h11 family's eight all round), on its plane.
fn on_tag(tag: &PrintedTag, i: usize, j: usize, n: usize) -> TablePoint3 {
    let p = &tag.placement;
    let outer = p.size.0 * 10.0 / 8.0;
    let across = |k: usize| ((k as f64 + 0.5) / n as f64 - 0.5) * outer;
    let turn = (p.facing.0 - 90.0).to_radians();
    let (x, y) = (across(i), across(j));
    TablePoint3::new(
        p.center.x + x * turn.cos() - y * turn.sin(),
        p.center.y + x * turn.sin() + y * turn.cos(),
        p.height.0,
    )
}

/// A figure at a random spot on `block`'s top, off its tag's square (and a small margin) and
/// off the figures already there; `None` when none was found.
fn free_spot(
    block: &Block,
    tag: &PrintedTag,
    stood: &[OrientedRect],
    settings: &MiniatureSettings,
    noise: &mut Noise,
) -> Option<Block> {
    let between = |(low, high): (Inches, Inches), noise: &mut Noise| {
        Inches(low.0 + noise.uniform() * (high.0 - low.0))
    };
    let width = between(settings.width, noise);
    let height = between(settings.height, noise);
    let base = block.footprint;
    let keep_clear = OrientedRect::from_center(
        tag.placement.center,
        tag.placement.facing - Degrees(90.0),
        tag.placement.size * 1.1,
        tag.placement.size * 1.1,
    );
    for _ in 0..TRIES {
        let (u, v) = (noise.uniform() - 0.5, noise.uniform() - 0.5);
        let half = width.0 / 2.0;
        let (across, along) = (base.width().0 - width.0, base.depth().0 - width.0);
        if across <= 0.0 || along <= 0.0 {
            return None;
        }
        let at: TablePoint =
            base.center() + base.right() * (u * across) + base.forward() * (v * along);
        let footprint =
            OrientedRect::from_center(at, base.facing(), Inches(2.0 * half), Inches(2.0 * half));
        let apart = |other: &OrientedRect| footprint.gap_to(other).0 > 0.0;
        let clear = apart(&keep_clear) && stood.iter().all(apart);
        if clear {
            let paint = PAINT[(noise.uniform() * PAINT.len() as f64) as usize % PAINT.len()];
            return Some(Block {
                footprint,
                height: block.height + height,
                colour: paint,
                tags: Vec::new(),
                figures: false,
                motion: None,
            });
        }
    }
    None
}
