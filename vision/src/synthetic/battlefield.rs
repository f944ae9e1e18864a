//! Battlefields for the terrain finder: a table dressed as clubs dress theirs, from a seed, with
//! the truth of every piece in the scene format.
//!
//! Decisions, so that a figure measured here means something on a real table:
//! - Nothing is one colour twice: the cloth is drawn from greens, browns, sands and greys, and
//!   each piece from its own range, some close to the cloth (a rough patch of sand on a sand
//!   cloth, a hill piece flocked like the mat).
//! - What stands up is drawn standing up: canopies over a wood's base and overhanging it, rocks,
//!   roofs beyond walls, hedges, and hills that rise, some under the cloth with only their
//!   shading to show them.
//! - Stands with figures (and their tags) stand among the pieces, on the hills too, and the
//!   anchors' cards lie at the corners: none of them is terrain.

use calibration::{TablePoint3, TableSize, TagPlacement};
use rules::geometry::{OrientedRect, TablePoint};
use rules::ground::Ground;
use rules::scene::{TerrainDoc, TerrainKind};
use rules::units::{Degrees, Inches};

use super::colour::Rgb;
use super::landscape::{Ball, Prism, Relief};
use super::noise::Noise;
use super::scenery::Scenery;
use super::world::{Block, Patch, PrintedTag, SyntheticTable};

/// A dressed table and the truth of its terrain.
pub struct Battlefield {
    /// The table as the camera sees it.
    pub world: SyntheticTable,
    /// Every piece of terrain on it, as a player would type it.
    pub terrain: Vec<TerrainDoc>,
    /// The anchors at its corners.
    pub anchors: calibration::AnchorLayout,
    /// Each stand's tag, as a roster would give it.
    pub stand_tags: std::collections::HashMap<u32, calibration::StandTagSpec>,
}

/// The first id of the stands' tags (the anchors take 0–3).
const FIRST_STAND_TAG: u32 = 10;
/// The anchors' printed size, and how far in from the table's edges their centres are.
const ANCHOR_SIZE: f64 = 2.0;
const ANCHOR_INSET: f64 = 1.5;
/// A stand's height, its tag's above the cloth (on the flat: on a hill, the hill's more).
const STAND_HEIGHT: Inches = Inches(0.2);

struct Draw(Noise);

impl Draw {
    fn range(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.0.uniform()
    }

    fn count(&mut self, low: usize, high: usize) -> usize {
        low + ((high + 1 - low) as f64 * self.0.uniform()) as usize
    }

    fn chance(&mut self, p: f64) -> bool {
        self.0.uniform() < p
    }

    fn colour(&mut self, palette: &[Rgb]) -> Rgb {
        let base = palette[(self.0.uniform() * palette.len() as f64) as usize % palette.len()];
        let mut jitter = |c: u8| (f64::from(c) + self.range(-12.0, 12.0)).clamp(0.0, 255.0) as u8;
        Rgb(jitter(base.0), jitter(base.1), jitter(base.2))
    }
}

const CLOTHS: [Rgb; 5] = [
    Rgb(86, 120, 70),
    Rgb(112, 128, 74),
    Rgb(146, 132, 96),
    Rgb(104, 112, 92),
    Rgb(128, 120, 80),
];
const WOOD_BASES: [Rgb; 3] = [Rgb(70, 60, 40), Rgb(60, 78, 46), Rgb(90, 80, 56)];
const CANOPIES: [Rgb; 4] = [
    Rgb(40, 70, 34),
    Rgb(56, 86, 40),
    Rgb(34, 56, 30),
    Rgb(78, 92, 44),
];
const ROUGH: [Rgb; 3] = [Rgb(150, 136, 104), Rgb(120, 110, 84), Rgb(100, 96, 70)];
const ROCKS: [Rgb; 2] = [Rgb(130, 128, 124), Rgb(104, 100, 96)];
const WATER: [Rgb; 3] = [Rgb(60, 86, 120), Rgb(70, 100, 110), Rgb(52, 74, 92)];
const ROADS: [Rgb; 3] = [Rgb(160, 138, 104), Rgb(128, 110, 86), Rgb(150, 146, 136)];
const WALLS: [Rgb; 3] = [Rgb(200, 196, 184), Rgb(150, 146, 138), Rgb(170, 110, 84)];
const ROOFS: [Rgb; 3] = [Rgb(150, 70, 50), Rgb(84, 86, 96), Rgb(170, 150, 90)];
const STONE: [Rgb; 2] = [Rgb(150, 148, 140), Rgb(120, 116, 108)];
const HEDGES: [Rgb; 2] = [Rgb(44, 72, 36), Rgb(62, 90, 44)];
const STANDS: [Rgb; 3] = [Rgb(168, 42, 38), Rgb(40, 64, 150), Rgb(200, 170, 60)];

impl Battlefield {
    /// A table `table` in size dressed from `seed`.
    pub fn generate(seed: u64, table: TableSize) -> Battlefield {
        let mut draw = Draw(Noise::new(seed));
        let mut world = SyntheticTable::new(table);
        world.cloth = draw.colour(&CLOTHS);
        world.scenery = Scenery::Busy { seed };
        let mut dressing = Dressing {
            draw,
            table,
            world,
            terrain: Vec::new(),
            taken: Vec::new(),
        };
        dressing.lay_lines();
        dressing.lay_pieces();
        dressing.raise_hills();
        dressing.stand_stands();
        let anchors =
            calibration::AnchorLayout::corners(table, Inches(ANCHOR_SIZE), Inches(ANCHOR_INSET));
        for anchor in &anchors.anchors {
            dressing
                .world
                .blocks
                .push(Block::card(anchor.id, anchor.placement()));
        }
        let stand_tags = dressing
            .world
            .tags()
            .filter(|t| t.id >= FIRST_STAND_TAG)
            .map(|t| {
                let spec = calibration::StandTagSpec {
                    size: t.placement.size,
                    height: STAND_HEIGHT,
                };
                (t.id, spec)
            })
            .collect();
        Battlefield {
            world: dressing.world,
            terrain: dressing.terrain,
            anchors,
            stand_tags,
        }
    }
}

/// A table being dressed.
struct Dressing {
    draw: Draw,
    table: TableSize,
    world: SyntheticTable,
    terrain: Vec<TerrainDoc>,
    /// Ground already used: outlines the next pieces keep clear of.
    taken: Vec<Vec<TablePoint>>,
}

/// How far apart two pieces keep, inches.
const CLEARANCE: f64 = 1.5;

impl Dressing {
    fn id(&self, kind: &str) -> String {
        format!("{kind}-{}", self.terrain.len() + 1)
    }

    /// A river and a road across part of the table, each only on some tables.
    fn lay_lines(&mut self) {
        if self.draw.chance(0.7) {
            let width = self.draw.range(1.8, 3.5);
            let colour = self.draw.colour(&WATER);
            self.lay_band(TerrainKind::River, "river", width, colour);
        }
        if self.draw.chance(0.7) {
            let width = self.draw.range(1.2, 2.4);
            let colour = self.draw.colour(&ROADS);
            self.lay_band(TerrainKind::Road, "road", width, colour);
        }
    }

    /// A band from one edge of the table towards the other, wandering, running off the edge
    /// it starts from (its truth is clipped to the table).
    fn lay_band(&mut self, kind: TerrainKind, name: &str, width: f64, colour: Rgb) {
        let (w, d) = (self.table.width, self.table.depth);
        let across = self.draw.chance(0.5);
        // Along the table's depth, or across its width.
        let (long, short) = if across { (w, d) } else { (d, w) };
        for _ in 0..40 {
            let a0 = self.draw.range(0.15 * short, 0.85 * short);
            let a1 =
                (a0 + self.draw.range(-0.3 * short, 0.3 * short)).clamp(0.1 * short, 0.9 * short);
            let reach = self.draw.range(0.5, 1.0);
            let count = 5;
            let line: Vec<TablePoint> = (0..count)
                .map(|k| {
                    let s = k as f64 / (count - 1) as f64;
                    let wander = if k == 0 || k == count - 1 {
                        0.0
                    } else {
                        self.draw.range(-4.0, 4.0)
                    };
                    let (along, off) =
                        (-2.0 + (long * reach + 2.0) * s, a0 + (a1 - a0) * s + wander);
                    if across {
                        TablePoint::new(along, off)
                    } else {
                        TablePoint::new(off, along)
                    }
                })
                .collect();
            let Some(outline) = on_table(&band(&line, width), self.table) else {
                continue;
            };
            if self.clear(&outline, 0.0) {
                self.world.patches.push(Patch {
                    polygon: outline.clone(),
                    colour,
                });
                self.terrain
                    .push(area(self.id(name), kind, outline.clone()));
                self.taken.push(outline);
                return;
            }
        }
    }

    /// Woods, rough ground, hills, buildings and walls, as many as fit.
    fn lay_pieces(&mut self) {
        let wanted = self.draw.count(6, 10);
        let mut laid = 0;
        for _ in 0..wanted * 30 {
            if laid == wanted {
                break;
            }
            let pick = self.draw.range(0.0, 1.0);
            let placed = match pick {
                p if p < 0.22 => self.lay_wood(),
                p if p < 0.38 => self.lay_rough(),
                p if p < 0.58 => self.lay_hill(),
                p if p < 0.78 => self.lay_building(),
                _ => self.lay_run(),
            };
            laid += usize::from(placed);
        }
    }

    fn somewhere(&mut self, margin: f64) -> TablePoint {
        TablePoint::new(
            self.draw.range(margin, self.table.width - margin),
            self.draw.range(margin, self.table.depth - margin),
        )
    }

    /// An irregular outline round `centre`, about `radius` across, stretched and turned.
    fn blob(&mut self, centre: TablePoint, radius: f64) -> Vec<TablePoint> {
        let corners = self.draw.count(7, 11);
        let stretch = self.draw.range(0.65, 1.0);
        let turn = self.draw.range(0.0, std::f64::consts::PI);
        (0..corners)
            .map(|k| {
                let a = std::f64::consts::TAU * (k as f64 + self.draw.range(-0.25, 0.25))
                    / corners as f64;
                let r = radius * self.draw.range(0.8, 1.15);
                let (x, y) = (r * a.cos(), r * a.sin() * stretch);
                TablePoint::new(
                    centre.x + x * turn.cos() - y * turn.sin(),
                    centre.y + x * turn.sin() + y * turn.cos(),
                )
            })
            .collect()
    }

    /// Whether `outline` keeps `CLEARANCE` (plus `more`) from everything laid and lies on the
    /// table.
    fn clear(&self, outline: &[TablePoint], more: f64) -> bool {
        let on_table = outline.iter().all(|p| {
            (-0.01..self.table.width + 0.01).contains(&p.x)
                && (-0.01..self.table.depth + 0.01).contains(&p.y)
        });
        on_table
            && self
                .taken
                .iter()
                .all(|other| gap(outline, other) > CLEARANCE + more)
    }

    fn lay_wood(&mut self) -> bool {
        let centre = self.somewhere(7.0);
        let radius = self.draw.range(3.0, 5.5);
        let outline = self.blob(centre, radius);
        if !self.clear(&outline, 1.0) {
            return false;
        }
        let base = self.draw.colour(&WOOD_BASES);
        self.world.patches.push(Patch {
            polygon: outline.clone(),
            colour: base,
        });
        let canopy = self.draw.colour(&CANOPIES);
        // Trees over most of the base, as a modelled wood has them, none nearer its edge than
        // 0.6" (their canopies reach beyond it).
        let wanted = (polygon_area(&outline) / 3.5).ceil() as usize;
        let mut planted: Vec<(TablePoint, f64)> = Vec::new();
        for _ in 0..wanted * 20 {
            if planted.len() == wanted {
                break;
            }
            let at = TablePoint::new(
                centre.x + self.draw.range(-radius, radius),
                centre.y + self.draw.range(-radius, radius),
            );
            let r = self.draw.range(0.7, 1.3);
            let crowded = planted.iter().any(|(p, q)| (p - at).norm() < 0.8 * (r + q));
            if crowded || !inside(&outline, &at) || edge_distance(&outline, &at) < 0.6 {
                continue;
            }
            planted.push((at, r));
        }
        for (at, r) in planted {
            let crown = self.draw.range(1.6, 3.0);
            let trunk = OrientedRect::from_center(at, Degrees(0.0), Inches(0.2), Inches(0.2));
            self.world
                .landscape
                .prisms
                .push(Prism::upright(&trunk, 0.0, crown, Rgb(70, 52, 36)));
            self.world.landscape.balls.push(Ball {
                centre: TablePoint3::new(at.x, at.y, crown),
                radius: r,
                colour: shade_of(&mut self.draw, canopy),
            });
        }
        self.terrain
            .push(area(self.id("wood"), TerrainKind::Wood, outline.clone()));
        self.taken.push(outline);
        true
    }

    fn lay_rough(&mut self) -> bool {
        let centre = self.somewhere(6.0);
        let radius = self.draw.range(2.5, 5.0);
        let outline = self.blob(centre, radius);
        if !self.clear(&outline, 0.0) {
            return false;
        }
        let colour = self.draw.colour(&ROUGH);
        self.world.patches.push(Patch {
            polygon: outline.clone(),
            colour,
        });
        let rocks = self.draw.count(4, 10);
        for _ in 0..rocks * 4 {
            let at = TablePoint::new(
                centre.x + self.draw.range(-radius, radius),
                centre.y + self.draw.range(-radius, radius),
            );
            if !inside(&outline, &at) || edge_distance(&outline, &at) < 0.5 {
                continue;
            }
            let r = self.draw.range(0.25, 0.6);
            self.world.landscape.balls.push(Ball {
                centre: TablePoint3::new(at.x, at.y, -0.35 * r),
                radius: r,
                colour: self.draw.colour(&ROCKS),
            });
        }
        self.terrain
            .push(area(self.id("rough"), TerrainKind::Rough, outline.clone()));
        self.taken.push(outline);
        true
    }

    /// A hill piece (its own flock) or a hill under the cloth (only its shading shows it).
    fn lay_hill(&mut self) -> bool {
        let centre = self.somewhere(9.0);
        let radius = self.draw.range(4.0, 8.0);
        let foot = self.blob(centre, radius);
        if !self.clear(&foot, 0.0) {
            return false;
        }
        let rise = self.draw.range(1.0, 3.0);
        let flank = self.draw.range(1.5, 3.0).min(radius * 0.5);
        let crest: Vec<TablePoint> = foot
            .iter()
            .map(|p| {
                let to = p - centre;
                centre + to * ((to.norm() - flank).max(0.5) / to.norm())
            })
            .collect();
        if self.draw.chance(0.7) {
            let cloth = self.world.cloth;
            let colour = shade_of(&mut self.draw, cloth);
            self.world.patches.push(Patch {
                polygon: foot.clone(),
                colour,
            });
        }
        let mut doc = area(self.id("hill"), TerrainKind::Hill, foot.clone());
        doc.rise = Some((rise * 100.0).round() / 100.0);
        doc.crest = Some(crest);
        self.terrain.push(doc);
        self.taken.push(foot);
        true
    }

    fn lay_building(&mut self) -> bool {
        let centre = self.somewhere(5.0);
        let (w, d) = (self.draw.range(2.5, 5.5), self.draw.range(2.0, 3.5));
        let facing = Degrees(self.draw.range(0.0, 180.0));
        let walls = OrientedRect::from_center(centre, facing, Inches(w), Inches(d));
        let outline = walls.corners().to_vec();
        if !self.clear(&outline, 0.5) {
            return false;
        }
        let eaves = self.draw.range(1.4, 2.6);
        let ridge = eaves + self.draw.range(0.8, 1.6);
        let wall_colour = self.draw.colour(&WALLS);
        let roof_colour = self.draw.colour(&ROOFS);
        let landscape = &mut self.world.landscape;
        landscape
            .prisms
            .push(Prism::upright(&walls, 0.0, eaves, wall_colour));
        // The ridge runs along the building's length (its width across its facing).
        let roof = OrientedRect::from_center(
            centre,
            facing + Degrees(90.0),
            Inches(d + 0.3),
            Inches(w + 0.3),
        );
        landscape
            .prisms
            .push(Prism::roof(&roof, eaves, ridge, roof_colour));
        self.terrain.push(area(
            self.id("building"),
            TerrainKind::Building,
            outline.clone(),
        ));
        self.taken.push(outline);
        true
    }

    /// A wall or a hedge of one to three runs.
    fn lay_run(&mut self) -> bool {
        let start = self.somewhere(6.0);
        let runs = self.draw.count(1, 3);
        let mut heading = self.draw.range(0.0, std::f64::consts::TAU);
        let mut line = vec![start];
        for _ in 0..runs {
            let length = self.draw.range(5.0, 10.0);
            let last = line[line.len() - 1];
            line.push(TablePoint::new(
                last.x + length * heading.cos(),
                last.y + length * heading.sin(),
            ));
            heading += self.draw.range(-1.7, 1.7);
        }
        let hedge = self.draw.chance(0.5);
        let (width, height, colour) = if hedge {
            let c = self.draw.colour(&HEDGES);
            (self.draw.range(0.6, 0.9), self.draw.range(0.8, 1.2), c)
        } else {
            let c = self.draw.colour(&STONE);
            (self.draw.range(0.35, 0.6), self.draw.range(0.5, 0.9), c)
        };
        let outline = band(&line, width);
        if !self.clear(&outline, 0.0) {
            return false;
        }
        for pair in line.windows(2) {
            self.world
                .landscape
                .prisms
                .push(Prism::run(pair[0], pair[1], width, height, colour));
        }
        let mut doc = area(
            self.id(if hedge { "hedge" } else { "wall" }),
            TerrainKind::Obstacle,
            vec![],
        );
        doc.polygon = None;
        doc.line = Some(line);
        self.terrain.push(doc);
        self.taken.push(outline);
        true
    }

    /// The hills' ground, once every hill is laid.
    fn raise_hills(&mut self) {
        let ground = Ground::of_docs(&self.terrain);
        self.world.landscape.relief = Relief::of(&ground, self.table);
    }

    /// Stands with figures on open ground and on the hills, each with its tag.
    fn stand_stands(&mut self) {
        let ground = Ground::of_docs(&self.terrain);
        let crests: Vec<Vec<TablePoint>> = self
            .terrain
            .iter()
            .filter_map(|t| t.crest.clone())
            .collect();
        let count = self.draw.count(8, 16);
        let mut placed = 0;
        for _ in 0..count * 20 {
            if placed == count {
                break;
            }
            // A third of them on a hill's top, where a unit holding it stands.
            let at = match self.draw.chance(0.35) && !crests.is_empty() {
                true => {
                    let crest = &crests[self.draw.count(0, crests.len() - 1)];
                    let middle = crest.iter().fold(TablePoint::origin(), |s, p| {
                        s + p.coords / crest.len() as f64
                    });
                    let corner = crest[self.draw.count(0, crest.len() - 1)];
                    middle + (corner - middle) * self.draw.range(0.0, 0.6)
                }
                false => self.somewhere(3.0),
            };
            let facing = Degrees(self.draw.range(0.0, 360.0));
            let (w, d) = if self.draw.chance(0.5) {
                (2.0, 1.0)
            } else {
                (1.6, 1.6)
            };
            let stand = OrientedRect::from_center(at, facing, Inches(w), Inches(d));
            let outline = stand.corners().to_vec();
            let on_hill = ground.hill_at(&at).is_some();
            let blocked = self
                .taken
                .iter()
                .zip(&self.terrain_kinds())
                .any(|(other, kind)| {
                    let allowed = *kind == TerrainKind::Hill && on_hill;
                    !allowed && gap(&outline, other) < 0.3
                });
            if blocked {
                continue;
            }
            let height = STAND_HEIGHT + ground.height_at(&at);
            let tag = PrintedTag {
                id: FIRST_STAND_TAG + placed as u32,
                placement: TagPlacement {
                    center: at,
                    facing,
                    size: Inches(0.8),
                    height,
                },
            };
            let colour = self.draw.colour(&STANDS);
            self.world.blocks.push(Block {
                footprint: stand,
                height,
                colour,
                tags: vec![tag],
                figures: true,
                motion: None,
            });
            self.taken.push(outline);
            placed += 1;
        }
    }

    /// The kinds of what is laid, in the order of `taken` (stands count as open ground).
    fn terrain_kinds(&self) -> Vec<TerrainKind> {
        let mut kinds: Vec<TerrainKind> = self.terrain.iter().map(|t| t.kind).collect();
        kinds.resize(self.taken.len(), TerrainKind::Decorative);
        kinds
    }
}

fn area(id: String, kind: TerrainKind, polygon: Vec<TablePoint>) -> TerrainDoc {
    TerrainDoc {
        id,
        kind,
        polygon: Some(polygon),
        line: None,
        height: (kind == TerrainKind::Hill).then_some(1),
        rise: None,
        crest: None,
    }
}

fn shade_of(draw: &mut Draw, colour: Rgb) -> Rgb {
    let k = draw.range(0.8, 1.2);
    let scale = |c: u8| (f64::from(c) * k).clamp(0.0, 255.0) as u8;
    Rgb(scale(colour.0), scale(colour.1), scale(colour.2))
}

/// The outline of a band `width` wide along `line` (mitred corners).
pub fn band(line: &[TablePoint], width: f64) -> Vec<TablePoint> {
    let half = width / 2.0;
    let normal_at = |k: usize| {
        let before = if k > 0 {
            line[k] - line[k - 1]
        } else {
            line[1] - line[0]
        };
        let after = if k + 1 < line.len() {
            line[k + 1] - line[k]
        } else {
            before
        };
        let n = |v: rules::geometry::TableVector| {
            let v = v.normalize();
            rules::geometry::TableVector::new(-v.y, v.x)
        };
        let (a, b) = (n(before), n(after));
        let mid = (a + b).normalize();
        mid / mid.dot(&a).max(0.5)
    };
    let left: Vec<TablePoint> = (0..line.len())
        .map(|k| line[k] + normal_at(k) * half)
        .collect();
    let right: Vec<TablePoint> = (0..line.len())
        .rev()
        .map(|k| line[k] - normal_at(k) * half)
        .collect();
    left.into_iter().chain(right).collect()
}

/// The part of an outline on the table (the largest, should it fall in two).
fn on_table(outline: &[TablePoint], table: TableSize) -> Option<Vec<TablePoint>> {
    use geo::{Area, BooleanOps};
    let edge = to_geo(&[
        TablePoint::new(0.0, 0.0),
        TablePoint::new(table.width, 0.0),
        TablePoint::new(table.width, table.depth),
        TablePoint::new(0.0, table.depth),
    ]);
    let clipped = to_geo(outline).intersection(&edge);
    let largest = clipped
        .0
        .iter()
        .max_by(|a, b| a.unsigned_area().total_cmp(&b.unsigned_area()))?;
    let mut points: Vec<TablePoint> = largest
        .exterior()
        .points()
        .map(|p| TablePoint::new(p.x(), p.y()))
        .collect();
    // geo closes its rings; the scene's polygons are open.
    points.pop();
    (points.len() >= 3).then_some(points)
}

fn to_geo(points: &[TablePoint]) -> geo::Polygon<f64> {
    geo::Polygon::new(
        points.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>().into(),
        vec![],
    )
}

fn gap(a: &[TablePoint], b: &[TablePoint]) -> f64 {
    use geo::{Distance, Euclidean};
    Euclidean.distance(&to_geo(a), &to_geo(b))
}

fn inside(outline: &[TablePoint], p: &TablePoint) -> bool {
    use geo::Contains;
    to_geo(outline).contains(&geo::Point::new(p.x, p.y))
}

fn edge_distance(outline: &[TablePoint], p: &TablePoint) -> f64 {
    use geo::{Distance, Euclidean};
    Euclidean.distance(&geo::Point::new(p.x, p.y), to_geo(outline).exterior())
}

fn polygon_area(outline: &[TablePoint]) -> f64 {
    use geo::Area;
    to_geo(outline).unsigned_area()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_battlefield_has_varied_terrain_and_every_piece_loads_as_a_scene() {
        let table = TableSize {
            width: 72.0,
            depth: 48.0,
        };
        let mut kinds = std::collections::BTreeSet::new();
        let mut cloths = std::collections::BTreeSet::new();
        for seed in 0..12 {
            let field = Battlefield::generate(seed, table);
            assert!(
                field.terrain.len() >= 4,
                "seed {seed}: {} pieces",
                field.terrain.len()
            );
            kinds.extend(field.terrain.iter().map(|t| format!("{:?}", t.kind)));
            cloths.insert(format!("{:?}", field.world.cloth));
            let scene = serde_json::json!({
                "ruleset": "black-powder",
                "table": {"width": 72, "depth": 48},
                "terrain": field.terrain,
                "units": [],
            });
            rules::Scene::parse(
                &scene.to_string(),
                rules::scene::Format::Json,
                "battlefield",
            )
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(field.world.blocks.len() >= 8 + 4);
        }
        assert_eq!(kinds.len(), 7, "kinds drawn: {kinds:?}");
        assert!(cloths.len() >= 10, "cloths: {cloths:?}");
    }
}
