//! A game in motion on the synthetic table, for the live detector's tests and benchmark:
//! stands in a grid, some of them moving at a player's pace and turning as they go, and a hand
//! that now and then reaches over the table and covers some tags.
//!
//! Moving stands drive round small circles inside their own grid cell, so no two stands ever
//! overlap and every tag's truth is simply its placement.

use calibration::{
    AnchorLayout, Camera, PixelPoint, StandTagSpec, TablePoint3, TableSize, TagPlacement,
};
use rules::geometry::{OrientedRect, TablePoint};
use rules::units::{Degrees, Inches};

use super::colour::Rgb;
use super::scenery::Scenery;
use super::world::{Block, PrintedTag, SyntheticTable};
use roster::TagFamily;

/// What the game looks like.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameSettings {
    /// The table.
    pub table: TableSize,
    /// Stands, each with one tag (anchors come on top).
    pub stands: usize,
    /// Side of the tags' black squares.
    pub tag_size: Inches,
    /// Share of the stands that move.
    pub moving_share: f64,
    /// How fast a moving stand goes, inches per second (each picks between half and all of it).
    pub speed: f64,
    /// Frames per second of the video.
    pub fps: f64,
    /// Frames between hands reaching over the table (0 = no hands).
    pub hand_every: u64,
    /// Frames a hand stays.
    pub hand_frames: u64,
    /// Seed of the layout.
    pub seed: u64,
    /// How busy the mat and the stands look.
    pub scenery: Scenery,
    /// The family every tag (anchors included) is printed in; see
    /// [`MovingGame::most_stands`].
    pub family: TagFamily,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            table: TableSize {
                width: 72.0,
                depth: 48.0,
            },
            stands: 64,
            tag_size: Inches(1.0),
            moving_share: 0.5,
            speed: 4.0,
            fps: 30.0,
            hand_every: 90,
            hand_frames: 45,
            seed: 1,
            scenery: Scenery::Plain,
            family: TagFamily::Tag36h11,
        }
    }
}

/// A stand's path: a circle of `radius` around `center`, at `rate` radians a second.
#[derive(Clone, Copy, Debug)]
struct Path {
    id: u32,
    center: TablePoint,
    radius: f64,
    phase: f64,
    rate: f64,
    facing: f64,
}

/// The hand's box: skin-coloured, tall enough to hide what is under and behind it.
const HAND: (Inches, Inches, Inches) = (Inches(3.5), Inches(4.5), Inches(2.5));
const SKIN: Rgb = Rgb(214, 164, 132);
const STAND_HEIGHT: Inches = Inches(0.16);

/// A game in motion (see the module's documentation).
#[derive(Clone, Debug)]
pub struct MovingGame {
    settings: GameSettings,
    anchors: AnchorLayout,
    paths: Vec<Path>,
}

/// The stands' tags are this and up, after the anchors'.
const FIRST_STAND_TAG: u32 = 10;

impl MovingGame {
    /// The most stands a game in `family` has tags for (20 in tag16h5, 25 in tag25h9).
    pub fn most_stands(family: TagFamily) -> usize {
        family.ids().saturating_sub(FIRST_STAND_TAG) as usize
    }

    /// Lay out the stands, pick the movers.
    pub fn new(settings: GameSettings) -> MovingGame {
        let mut state = settings.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 10_000) as f64 / 10_000.0
        };
        let table = settings.table;
        let count = settings.stands.max(1);
        // Columns and rows in the table's proportions, inside a 6" border clear of the anchors.
        let (inner_w, inner_d) = (table.width - 12.0, table.depth - 12.0);
        let cols = ((count as f64 * inner_w / inner_d).sqrt().ceil() as usize).max(1);
        let rows = count.div_ceil(cols);
        let dx = inner_w / (cols.max(2) - 1) as f64;
        let dy = inner_d / (rows.max(2) - 1) as f64;
        // The circle leaves room for the stand's diagonal before the next cell.
        let (w, d) = stand_size(settings.tag_size);
        let radius = ((dx.min(dy) - w.0.hypot(d.0) - 0.1) / 2.0).clamp(0.0, 2.0);
        let paths = (0..count)
            .map(|i| {
                let (col, row) = (i % cols, i / cols);
                let moving = next() < settings.moving_share;
                let speed = settings.speed * (0.5 + 0.5 * next());
                let turn = if next() < 0.5 { -1.0 } else { 1.0 };
                Path {
                    id: FIRST_STAND_TAG + i as u32,
                    center: TablePoint::new(6.0 + dx * col as f64, 6.0 + dy * row as f64),
                    radius: if moving { radius } else { 0.0 },
                    phase: next() * std::f64::consts::TAU,
                    rate: if moving && radius > 0.0 {
                        turn * speed / radius
                    } else {
                        0.0
                    },
                    facing: next() * 360.0,
                }
            })
            .collect();
        MovingGame {
            settings,
            anchors: AnchorLayout {
                family: settings.family.name().into(),
                ..AnchorLayout::corners(table, Inches(2.0), Inches(1.5))
            },
            paths,
        }
    }

    /// The anchors at the table's corners.
    pub fn anchors(&self) -> &AnchorLayout {
        &self.anchors
    }

    /// Each stand's tag as a roster lists it: its size and its height above the cloth.
    pub fn stand_tags(&self) -> std::collections::HashMap<u32, StandTagSpec> {
        let spec = StandTagSpec {
            size: self.settings.tag_size,
            height: STAND_HEIGHT,
        };
        self.paths.iter().map(|p| (p.id, spec)).collect()
    }

    /// The settings.
    pub fn settings(&self) -> &GameSettings {
        &self.settings
    }

    /// The table at frame `frame`.
    pub fn table_at(&self, frame: u64) -> SyntheticTable {
        let mut world = SyntheticTable::new(self.settings.table);
        world.family = self.anchors.family.clone();
        world.scenery = self.settings.scenery;
        let t = frame as f64 / self.settings.fps.max(1.0);
        for path in &self.paths {
            let angle = path.phase + path.rate * t;
            let center = TablePoint::new(
                path.center.x + path.radius * angle.cos(),
                path.center.y + path.radius * angle.sin(),
            );
            // A moving stand faces the way it goes; a still one keeps its facing.
            let facing = Degrees(path.facing + path.rate.signum() * angle.to_degrees());
            let (w, d) = stand_size(self.settings.tag_size);
            world.blocks.push(Block {
                footprint: OrientedRect::from_center(center, facing, w, d),
                height: STAND_HEIGHT,
                colour: if path.id % 2 == 0 {
                    Rgb(168, 42, 38)
                } else {
                    Rgb(40, 64, 150)
                },
                tags: vec![PrintedTag {
                    id: path.id,
                    placement: TagPlacement {
                        center,
                        facing,
                        size: self.settings.tag_size,
                        height: STAND_HEIGHT,
                    },
                }],
                figures: true,
                motion: None,
            });
        }
        for anchor in &self.anchors.anchors {
            world
                .blocks
                .push(Block::card(anchor.id, anchor.placement()));
        }
        if let Some(hand) = self.hand_at(frame) {
            world.blocks.push(Block {
                footprint: hand,
                height: HAND.2,
                colour: SKIN,
                tags: Vec::new(),
                figures: false,
                motion: None,
            });
        }
        world
    }

    /// Where the hand is at frame `frame`, if one is over the table: it reaches in from the
    /// near edge over a stand and drifts slowly while it stays.
    fn hand_at(&self, frame: u64) -> Option<OrientedRect> {
        let every = self.settings.hand_every;
        if every == 0 || frame < every / 2 {
            return None;
        }
        let visit = (frame - every / 2) / every;
        let into = (frame - every / 2) % every;
        if into >= self.settings.hand_frames {
            return None;
        }
        let path = self
            .paths
            .get((visit as usize * 7 + 3) % self.paths.len().max(1))?;
        let drift = into as f64 / self.settings.fps.max(1.0);
        let center = TablePoint::new(path.center.x + drift, path.center.y - 0.5);
        Some(OrientedRect::from_center(
            center,
            Degrees(90.0),
            HAND.0,
            HAND.1,
        ))
    }

    /// Tags the camera sees whole at frame `frame` (none hidden by the hand), with their
    /// corners in pixels.
    pub fn visible_tags(&self, frame: u64, camera: &Camera) -> Vec<(u32, [PixelPoint; 4])> {
        let world = self.table_at(frame);
        let hand = self.hand_at(frame).and_then(|h| hand_outline(&h, camera));
        world
            .tags()
            .filter_map(|tag| {
                let corners = tag.placement.corners();
                let pixels = [
                    camera.project(&corners[0])?,
                    camera.project(&corners[1])?,
                    camera.project(&corners[2])?,
                    camera.project(&corners[3])?,
                ];
                let hidden = hand
                    .as_ref()
                    .is_some_and(|outline| pixels.iter().any(|p| inside(outline, *p)));
                (!hidden).then_some((tag.id, pixels))
            })
            .collect()
    }
}

/// A stand 2"×1.5", or larger to carry a larger tag whole.
fn stand_size(tag: Inches) -> (Inches, Inches) {
    (
        Inches(2.0f64.max(tag.0 + 0.5)),
        Inches(1.5f64.max(tag.0 + 0.5)),
    )
}

/// The hand's box as the camera sees it: the convex hull of its eight corners, in pixels.
fn hand_outline(hand: &OrientedRect, camera: &Camera) -> Option<Vec<PixelPoint>> {
    let mut points = Vec::with_capacity(8);
    for corner in hand.corners() {
        for z in [0.0, HAND.2.0] {
            points.push(camera.project(&TablePoint3::new(corner.x, corner.y, z))?);
        }
    }
    Some(convex_hull(points))
}

/// Andrew's monotone chain, counter-clockwise in the image's axes.
fn convex_hull(mut points: Vec<PixelPoint>) -> Vec<PixelPoint> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let cross = |o: &PixelPoint, a: &PixelPoint, b: &PixelPoint| {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    };
    let mut hull: Vec<PixelPoint> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &PixelPoint>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for p in ordered {
            while hull.len() >= start + 2
                && cross(&hull[hull.len() - 2], &hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(*p);
        }
        hull.pop();
    }
    hull
}

/// Whether a point is inside a convex polygon (either winding).
fn inside(polygon: &[PixelPoint], p: PixelPoint) -> bool {
    let n = polygon.len();
    if n < 3 {
        return false;
    }
    let sides: Vec<f64> = (0..n)
        .map(|k| {
            let (a, b) = (polygon[k], polygon[(k + 1) % n]);
            (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
        })
        .collect();
    sides.iter().all(|s| *s >= 0.0) || sides.iter().all(|s| *s <= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_holds_its_inside_and_not_its_outside() {
        let square = convex_hull(vec![
            PixelPoint::new(0.0, 0.0),
            PixelPoint::new(10.0, 0.0),
            PixelPoint::new(5.0, 5.0),
            PixelPoint::new(10.0, 10.0),
            PixelPoint::new(0.0, 10.0),
        ]);
        assert_eq!(square.len(), 4);
        assert!(inside(&square, PixelPoint::new(5.0, 5.0)));
        assert!(!inside(&square, PixelPoint::new(11.0, 5.0)));
    }

    #[test]
    fn movers_move_at_their_pace_and_stands_never_overlap() {
        let game = MovingGame::new(GameSettings::default());
        let (a, b) = (game.table_at(0), game.table_at(1));
        let step: Vec<f64> = a
            .tags()
            .zip(b.tags())
            .map(|(x, y)| (x.placement.center - y.placement.center).norm())
            .collect();
        let fastest = step.iter().copied().fold(0.0, f64::max) * 30.0;
        assert!(fastest > 2.0 && fastest <= 4.0 + 1e-9, "{fastest} in/s");
        let centers: Vec<TablePoint> = a.tags().map(|t| t.placement.center).collect();
        for (i, p) in centers.iter().enumerate() {
            for q in &centers[i + 1..] {
                assert!((p - q).norm() > 2.5, "{p:?} {q:?}");
            }
        }
        assert!(a.tags().count() >= 64);
    }
}
