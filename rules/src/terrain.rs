//! Terrain as the rules see it: how much of a straight line runs through each piece, whether a
//! sight line is blocked (A9, A10), what a move along a line costs (A19, A20), and how much of a
//! unit is in cover (A31).
//!
//! Where a line meets a piece's outline is found with parry ray casts against the outline's
//! edges; whether the stretches between those hits are inside is asked of geo.

use geo::{Area, BooleanOps, ConvexHull, Intersects};
use parry2d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry2d_f64::math::Isometry;
use parry2d_f64::query::{PointQuery, Ray, RayCast};
use parry2d_f64::shape::Segment;
use smallvec::SmallVec;

use crate::geometry::{OrientedRect, TablePoint};
use crate::profile::{Entry, Profile, SightRule, TerrainRules};
use crate::scene::{Formation, Scene, TerrainKind, TerrainShape, Unit, UnitKind};
use crate::units::Inches;

/// One piece of terrain, ready for queries.
#[derive(Clone, Debug)]
pub struct Piece {
    /// Its id in the scene.
    pub id: String,
    /// What it is.
    pub kind: TerrainKind,
    /// How it affects the rules.
    pub rules: TerrainRules,
    /// Height level (hills).
    pub height: u32,
    outline: Vec<TablePoint>,
    edges: Vec<Segment>,
    area: Option<geo::Polygon<f64>>,
    aabb: Aabb,
}

/// How a straight line meets one piece.
#[derive(Clone, Debug)]
pub struct Passage<'a> {
    /// The piece.
    pub piece: &'a Piece,
    /// Length of the line inside it (areas).
    pub inside: Inches,
    /// How many times the line crosses its outline.
    pub crossings: usize,
}

/// What a move along a straight line costs.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveCost {
    /// The length moved.
    pub length: Inches,
    /// The cost, with terrain multipliers and obstacle penalties.
    pub cost: Inches,
    /// The terrain that forbids the move, if any.
    pub forbidden_by: Option<String>,
    /// What added to the cost, for the explanation ("2.1" in wood-1 at ×2").
    pub notes: Vec<String>,
}

/// How far a sight line may pass through terrain and still see.
#[derive(Clone, Copy, Debug)]
pub struct SightAllowances {
    /// The A9 allowance: a line may run this far through a wood and still see.
    pub wood_edge: Inches,
    /// The scene's distance scale, for a wood's own sight distance inside it.
    pub scale: f64,
    /// An end this near a linear obstacle touches it, and sees over it.
    pub touching: Inches,
}

/// All the terrain of a scene.
#[derive(Clone, Debug, Default)]
pub struct TerrainMap {
    pieces: Vec<Piece>,
}

/// A closed outline as a geo polygon, for clipping.
pub(crate) fn to_geo(points: &[TablePoint]) -> geo::Polygon<f64> {
    geo::Polygon::new(
        points.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>().into(),
        vec![],
    )
}

fn geo_point(p: &TablePoint) -> geo::Point<f64> {
    geo::Point::new(p.x, p.y)
}

impl Piece {
    fn new(terrain: &crate::scene::Terrain, profile: &Profile) -> Piece {
        let (points, closed) = match &terrain.shape {
            TerrainShape::Area(points) => (points.clone(), true),
            TerrainShape::Line(points) => (points.clone(), false),
        };
        let mut edges: Vec<Segment> = points
            .windows(2)
            .map(|w| Segment::new(w[0], w[1]))
            .collect();
        if closed && let (Some(first), Some(last)) = (points.first(), points.last()) {
            edges.push(Segment::new(*last, *first));
        }
        Piece {
            id: terrain.id.clone(),
            kind: terrain.kind,
            rules: profile.terrain_rules(terrain.kind),
            height: terrain.height.unwrap_or(1),
            area: closed.then(|| to_geo(&points)),
            aabb: Aabb::from_points(points.iter().copied()),
            edges,
            outline: points,
        }
    }

    /// The corners (areas) or points (lines) of its outline.
    pub fn outline(&self) -> &[TablePoint] {
        &self.outline
    }

    /// How far a point is from its outline (a line piece's line).
    fn distance_to_outline(&self, point: &TablePoint) -> Inches {
        Inches(
            self.edges
                .iter()
                .map(|edge| edge.distance_to_point(&Isometry::identity(), point, true))
                .fold(f64::INFINITY, f64::min),
        )
    }

    /// Whether the point is inside (or on the outline of) an area piece.
    pub fn contains(&self, point: &TablePoint) -> bool {
        self.area
            .as_ref()
            .is_some_and(|a| a.intersects(&geo_point(point)))
    }

    /// The fraction of the rectangles' area inside this piece.
    fn area_fraction(&self, bases: &[OrientedRect]) -> f64 {
        let Some(area) = &self.area else { return 0.0 };
        let total: f64 = bases.iter().map(OrientedRect::area).sum();
        let inside: f64 = bases
            .iter()
            .map(|b| area.intersection(&to_geo(&b.corners())).unsigned_area())
            .sum();
        if total > 0.0 { inside / total } else { 0.0 }
    }

    /// Where the segment from `a` to `b` crosses the outline, as fractions of the way from
    /// `a`, in order. Sight lines are cast thousands of times: the hits stay on the stack.
    fn hits(&self, a: &TablePoint, b: &TablePoint) -> SmallVec<[f64; 16]> {
        let ray = Ray::new(*a, b - a);
        let mut hits: SmallVec<[f64; 16]> = self
            .edges
            .iter()
            .filter_map(|edge| edge.cast_ray(&Isometry::identity(), &ray, 1.0, true))
            .collect();
        hits.sort_by(f64::total_cmp);
        hits.dedup_by(|x, y| (*x - *y).abs() < 1e-9);
        hits
    }

    /// Where the segment from `a` to `b` first meets the piece, as a fraction of the way from
    /// `a`: 0 when `a` is inside it, `None` when it never does.
    pub fn first_meeting(&self, a: &TablePoint, b: &TablePoint) -> Option<f64> {
        if !self.aabb.intersects(&Aabb::from_points([*a, *b])) {
            return None;
        }
        if self.contains(a) {
            return Some(0.0);
        }
        self.hits(a, b).first().copied()
    }

    /// How the segment from `a` to `b` meets this piece, if at all.
    fn passage(&self, a: &TablePoint, b: &TablePoint) -> Option<Passage<'_>> {
        let segment_box = Aabb::from_points([*a, *b]);
        if !self.aabb.intersects(&segment_box) {
            return None;
        }
        let hits = self.hits(a, b);
        let length = nalgebra::distance(a, b);
        let inside = match &self.area {
            None => 0.0,
            Some(_) => {
                // Between consecutive hits the line is either wholly in or wholly out: ask at the middle.
                let stops: SmallVec<[f64; 18]> = std::iter::once(0.0)
                    .chain(hits.iter().copied())
                    .chain(std::iter::once(1.0))
                    .collect();
                stops
                    .windows(2)
                    .filter(|w| self.contains(&(a + (b - a) * ((w[0] + w[1]) / 2.0))))
                    .map(|w| (w[1] - w[0]) * length)
                    .sum()
            }
        };
        if hits.is_empty() && inside == 0.0 {
            return None;
        }
        Some(Passage {
            piece: self,
            inside: Inches(inside),
            crossings: hits.len(),
        })
    }
}

impl TerrainMap {
    /// The terrain of a scene, with the profile's rules for each kind.
    pub fn new(scene: &Scene, profile: &Profile) -> TerrainMap {
        TerrainMap {
            pieces: scene
                .terrain
                .iter()
                .map(|t| Piece::new(t, profile))
                .collect(),
        }
    }

    /// Every piece.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// How the segment meets each piece it touches.
    pub fn passages(&self, a: &TablePoint, b: &TablePoint) -> Vec<Passage<'_>> {
        self.pieces.iter().filter_map(|p| p.passage(a, b)).collect()
    }

    /// The height level at a point: the highest hill it stands on, 0 on the flat (A10).
    pub fn level_at(&self, point: &TablePoint) -> u32 {
        self.pieces
            .iter()
            .filter(|p| p.rules.sight == SightRule::Height && p.contains(point))
            .map(|p| p.height)
            .max()
            .unwrap_or(0)
    }

    /// The pieces that could block sight inside `bounds` (their indices).
    pub fn sight_blockers_in(&self, bounds: Aabb) -> impl Iterator<Item = usize> + '_ {
        self.pieces
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.rules.sight != SightRule::Clear && p.aabb.intersects(&bounds))
            .map(|(i, _)| i)
    }

    /// Whether one of `candidates` (piece indices) blocks the sight line from `eye` to `target`
    /// (where the line enters the target's footprint). A wood is measured from `leaving`, where
    /// the line leaves the looker's own footprint (A9: the wood outside the footprints of
    /// shooter and target): a skirmish line deep in a wood looks out from its edge, not its
    /// middle.
    pub fn blocks_sight(
        &self,
        candidates: &[usize],
        (eye, leaving): (&TablePoint, &TablePoint),
        target: &TablePoint,
        allowed: SightAllowances,
    ) -> Option<&Piece> {
        let SightAllowances {
            wood_edge,
            scale,
            touching,
        } = allowed;
        if candidates.is_empty() {
            return None;
        }
        // Height levels are point-in-polygon tests on every hill: only asked once a hill is
        // actually in the way.
        let levels = std::cell::OnceCell::new();
        let levels = || *levels.get_or_init(|| (self.level_at(eye), self.level_at(target)));
        candidates
            .iter()
            .filter_map(|&i| self.pieces.get(i))
            .filter_map(|piece| piece.passage(eye, target))
            .find(|passage| {
                let piece = passage.piece;
                let through = passage.inside > Inches(1e-6);
                match piece.rules.sight {
                    SightRule::Clear => false,
                    // Two units inside the same wood of a ruleset that caps sight inside woods
                    // (BBB §1.8: 200 mm) see each other up to that cap; the wood's edge
                    // allowance is for looking into it.
                    SightRule::Wood => {
                        let inside = piece
                            .passage(leaving, target)
                            .map_or(Inches::ZERO, |p| p.inside);
                        match piece.rules.sight_inside {
                            Some(cap) if piece.contains(eye) && piece.contains(target) => {
                                inside > cap * scale
                            }
                            _ => inside > wood_edge,
                        }
                    }
                    SightRule::Solid => through && !piece.contains(eye) && !piece.contains(target),
                    SightRule::Linear => {
                        passage.crossings > 0
                            && piece.distance_to_outline(eye) > touching
                            && piece.distance_to_outline(target) > touching
                    }
                    SightRule::Height => {
                        through && {
                            let (eye_level, target_level) = levels();
                            eye_level < piece.height && target_level < piece.height
                        }
                    }
                }
            })
            .map(|passage| passage.piece)
    }

    /// The cost of moving `unit` in a straight line (A19, A20): inches inside terrain cost the
    /// terrain's multiplier (skirmishers cross rough ground freely), each obstacle crossed and
    /// each building entered adds the profile's penalty, and terrain the unit may not enter
    /// forbids the move.
    pub fn move_cost(
        &self,
        unit: &Unit,
        from: &TablePoint,
        to: &TablePoint,
        profile: &Profile,
    ) -> MoveCost {
        let distances = profile.distances();
        let length = Inches(nalgebra::distance(from, to));
        let mut cost = length;
        let mut forbidden_by = None;
        let mut notes = Vec::new();
        let skirmishing = unit.formation == Formation::Skirmish;
        for passage in self.passages(from, to) {
            let rules = passage.piece.rules;
            let id = &passage.piece.id;
            if passage.inside > Inches(1e-6) && !may_enter(rules.entry, unit) {
                forbidden_by.get_or_insert_with(|| id.clone());
            }
            let multiplier = if skirmishing && rules.skirmishers_free {
                1.0
            } else {
                rules.cost
            };
            if multiplier > 1.0 && passage.inside > Inches(1e-6) {
                cost = cost + passage.inside * (multiplier - 1.0);
                notes.push(format!(
                    "{} in {id} at ×{multiplier}",
                    profile.length(passage.inside.rounded())
                ));
            }
            if rules.crossing && passage.crossings > 0 {
                cost = cost + distances.obstacle * passage.crossings as f64;
                notes.push(format!(
                    "crossing {id} +{}",
                    profile.length(distances.obstacle)
                ));
            }
            if passage.piece.kind == TerrainKind::Building
                && !passage.piece.contains(from)
                && passage.crossings > 0
            {
                cost = cost + distances.building_entry;
                notes.push(format!(
                    "entering {id} +{}",
                    profile.length(distances.building_entry)
                ));
            }
        }
        MoveCost {
            length,
            cost,
            forbidden_by,
            notes,
        }
    }

    /// The fraction of a unit's base area inside cover terrain (woods, buildings), and the
    /// piece holding most of it.
    pub fn cover(&self, bases: &[OrientedRect]) -> (f64, Option<&Piece>) {
        let unit_box = bases
            .iter()
            .map(|b| Aabb::from_points(b.corners()))
            .reduce(|a, b| a.merged(&b));
        let Some(unit_box) = unit_box else {
            return (0.0, None);
        };
        self.pieces
            .iter()
            .filter(|p| p.rules.cover && p.area.is_some() && p.aabb.intersects(&unit_box))
            .map(|p| (p.area_fraction(bases), Some(p)))
            .fold(
                (0.0, None),
                |best, next| if next.0 > best.0 { next } else { best },
            )
    }

    /// The linear cover (walls, hedges) that `line` crosses within `behind` of the target's
    /// bases: the target is behind it (A31).
    pub fn cover_behind(
        &self,
        eye: &TablePoint,
        target: &[OrientedRect],
        aim: &TablePoint,
        behind: Inches,
    ) -> Option<&Piece> {
        self.pieces
            .iter()
            .filter(|p| p.rules.cover && p.area.is_none())
            .find(|p| {
                let crosses = p.passage(eye, aim).is_some_and(|pass| pass.crossings > 0);
                crosses
                    && p.edges.iter().any(|edge| {
                        target.iter().any(|base| {
                            let shape = parry2d_f64::shape::ConvexPolygon::from_convex_polyline(
                                base.corners().to_vec(),
                            );
                            shape.is_some_and(|s| {
                                parry2d_f64::query::distance(
                                    &Isometry::identity(),
                                    edge,
                                    &Isometry::identity(),
                                    &s,
                                )
                                .is_ok_and(|d| d <= behind.0)
                            })
                        })
                    })
            })
    }

    /// The first terrain `unit` may not enter that one of its stands cuts into on its way: the
    /// ground between where the stand was and where it is (their convex hull), not only its
    /// centre's line — a 10 cm line does not pass through a 6 cm gap between rocks.
    pub fn swept_into<'a>(
        &self,
        unit: &Unit,
        mut sweeps: impl Iterator<Item = (&'a OrientedRect, &'a OrientedRect)>,
    ) -> Option<String> {
        let barred: Vec<&Piece> = self
            .pieces
            .iter()
            .filter(|p| p.area.is_some() && !may_enter(p.rules.entry, unit))
            .collect();
        if barred.is_empty() {
            return None;
        }
        sweeps.find_map(|(from, to)| {
            let points: Vec<geo::Point<f64>> = from
                .corners()
                .iter()
                .chain(to.corners().iter())
                .map(geo_point)
                .collect();
            let hull = geo::MultiPoint::from(points).convex_hull();
            barred
                .iter()
                .find(|piece| {
                    piece
                        .area
                        .as_ref()
                        .is_some_and(|area| area.intersection(&hull).unsigned_area() > 1e-6)
                })
                .map(|piece| piece.id.clone())
        })
    }

    /// The terrain at `point` that keeps a charge at a target there from being doubled (see
    /// [`crate::profile::TerrainRules::charges_undoubled`]), if any.
    pub fn undoubling_charges_at(&self, point: &TablePoint) -> Option<&str> {
        self.pieces
            .iter()
            .find(|piece| piece.rules.charges_undoubled && piece.contains(point))
            .map(|piece| piece.id.as_str())
    }

    /// The first terrain on the straight line from `from` to `to` that `unit` may not charge
    /// into or through (see [`crate::profile::TerrainRules::charge_entry`]).
    pub fn charge_barred_by(
        &self,
        unit: &Unit,
        from: &TablePoint,
        to: &TablePoint,
    ) -> Option<String> {
        self.passages(from, to)
            .into_iter()
            .find(|passage| {
                let rules = passage.piece.rules;
                passage.inside > Inches(1e-6)
                    && !may_enter(rules.charge_entry.unwrap_or(rules.entry), unit)
            })
            .map(|passage| passage.piece.id.clone())
    }
}

/// Whether `unit` may enter terrain whose entry is `entry` (and so assault troops in it).
pub(crate) fn may_enter(entry: Entry, unit: &Unit) -> bool {
    match entry {
        Entry::Anyone => true,
        Entry::Nobody => false,
        Entry::Infantry => unit.kind == UnitKind::Infantry,
        Entry::SkirmishingInfantry => {
            unit.kind == UnitKind::Infantry && unit.formation == Formation::Skirmish
        }
    }
}
