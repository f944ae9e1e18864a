//! A scene prepared for rulings: everything several rules need about each unit — its bounding
//! box, whether it is engaged, its height level, its cover — worked out once.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use parry2d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry2d_f64::math::Isometry;
use parry2d_f64::shape::Cuboid;

use crate::fire_arc::fire_arc;
use crate::geometry::TablePoint;
use crate::geometry::{ConvexRegion, gap_between};
use crate::profile::{MeasuredBorderline, Profile, WeaponRef};
use crate::quarter::{Quarter, RayMargin, classify};
use crate::scene::{Formation, Scene, Unit};
use crate::terrain::TerrainMap;
use crate::units::Inches;

/// One unit, prepared.
#[derive(Clone, Debug)]
pub struct UnitView<'a> {
    /// The unit.
    pub unit: &'a Unit,
    /// Its index in the scene.
    pub index: usize,
    /// The box around its bases.
    pub aabb: Aabb,
    /// In hand-to-hand combat: as the scene says, or touching an enemy.
    pub engaged: bool,
    /// Height level under its leader (A10).
    pub level: u32,
    /// Fraction of its area in cover terrain (A31).
    pub cover: f64,
    /// The cover piece holding most of it.
    pub cover_piece: Option<String>,
    /// Its stands as parry shapes, for ray casts.
    pub shapes: Vec<(Isometry<f64>, Cuboid)>,
    /// The corners of all its stands.
    pub corners: Vec<crate::geometry::TablePoint>,
    /// Its side, as a number: units with different numbers are enemies.
    pub side: usize,
    /// Its weapon, looked up once (the rules ask for it for every pair).
    pub weapon: Option<WeaponRef<'a>>,
    /// One move, its weapon included.
    pub move_allowance: Inches,
    /// How far its charge reaches (one move, unless the ruleset sets charges apart).
    pub charge_allowance: Inches,
    /// Where it may shoot (asked for every enemy it might shoot or charge).
    pub arc: ConvexRegion,
    /// Whether it blocks sight lines (it always blocks lines of fire: nobody fires through it).
    pub blocks_sight: bool,
}

impl UnitView<'_> {
    /// Its weapon's maximum range, if it shoots.
    pub fn range(&self) -> Option<Inches> {
        self.weapon.and_then(|w| w.range())
    }
}

/// Two enemy units whose bases touch (or nearly: gaps within the borderline tolerance are kept
/// so the contact ruling can say "gap of 0.3"").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// One unit (index in the scene).
    pub a: usize,
    /// The other.
    pub b: usize,
    /// Base edge to base edge.
    pub gap: Inches,
    /// How far the camera may have the gap off, 95 % either way, when it placed both.
    pub plus_minus: Option<Inches>,
}

/// A scene ready for rulings.
#[derive(Clone, Debug)]
pub struct Situation<'a> {
    /// The scene.
    pub scene: &'a Scene,
    /// The ruleset's numbers.
    pub profile: &'a Profile,
    /// Its terrain.
    pub terrain: TerrainMap,
    /// Its units, in scene order.
    pub units: Vec<UnitView<'a>>,
    /// Enemy units touching or nearly touching.
    pub contacts: Vec<Contact>,
    /// Unit boxes and indices sorted by the left edge of the boxes, for [`Situation::units_in`]:
    /// kept side by side so the sweep reads one compact array, not every unit's view.
    by_left_edge: Vec<(Aabb, usize)>,
    /// The widest box, so a query knows how far left to start.
    widest: f64,
}

fn aabb_of(unit: &Unit) -> Aabb {
    unit.footprint
        .stands()
        .iter()
        .map(|s| Aabb::from_points(s.corners()))
        .reduce(|a, b| a.merged(&b))
        .unwrap_or_else(Aabb::new_invalid)
}

/// An enemy by the lower bound of its gap, then its index: the order of a stable sort by bound.
#[derive(Clone, Copy, Debug)]
struct Candidate(Inches, usize);

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.0.total_cmp(&other.0.0).then(self.1.cmp(&other.1))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Candidate {}

/// The gap between two boxes (0 if they overlap): a cheap lower bound of the gap between units.
pub fn aabb_gap(a: &Aabb, b: &Aabb) -> Inches {
    let dx = (a.mins.x - b.maxs.x).max(b.mins.x - a.maxs.x).max(0.0);
    let dy = (a.mins.y - b.maxs.y).max(b.mins.y - a.maxs.y).max(0.0);
    // A plain square root: hypot's care for overflow is not needed at table sizes.
    Inches((dx * dx + dy * dy).sqrt())
}

impl Situation<'_> {
    /// How far the camera may have the length from `from` (a point of unit `a`) to `to` (a
    /// point of unit `b`) off, 95 % either way, when it placed both units.
    pub fn plus_minus(
        &self,
        a: usize,
        from: TablePoint,
        b: usize,
        to: TablePoint,
    ) -> Option<Inches> {
        let units = &self.scene.units;
        units[a]
            .footprint
            .plus_minus_to(from, &units[b].footprint, to, self.scene.length_sd)
    }

    /// How far the camera may have the gap between units `a` and `b` off, 95 % either way,
    /// when it placed both (nothing is measured for a scene drawn by hand).
    pub fn gap_plus_minus(&self, a: usize, b: usize) -> Option<Inches> {
        let units = &self.scene.units;
        units[a]
            .footprint
            .gap_plus_minus(&units[b].footprint, self.scene.length_sd)
    }

    /// How far the camera may have the distance of unit `a`'s point `at` from the ray that
    /// divides unit `b`'s quarters off, 95 % either way, when it placed both: the point's own
    /// error and `b`'s frame's, and `b`'s facing swinging the ray at the point's distance.
    pub fn quarter_plus_minus(&self, a: usize, at: TablePoint, b: usize) -> Option<Inches> {
        let units = &self.scene.units;
        let point = units[a].footprint.covariance_at(at)?;
        let frame = units[b].footprint.frame_sd()?;
        let arm = at - units[b].footprint.frame().center();
        // Which way the ray runs is the reading's own business: the error is taken as the same
        // in every direction, the mean of each covariance's two axes.
        let across = (point.trace() + frame.covariance_at(arm).trace()) / 2.0;
        Some(Inches(crate::uncertainty::Z95 * across.max(0.0).sqrt()))
    }

    /// Whether a point's place among a unit's quarters is for the players: within the
    /// profile's tolerance of a dividing ray (distance or angle) when no camera measured it;
    /// when one did, inside its error bar (or either, under `[tolerance] measured = "either"`).
    pub fn quarter_undecided(&self, margin: &RayMargin, plus_minus: Option<Inches>) -> bool {
        let tolerance = self.profile.tolerance();
        let by_tolerance = margin.distance <= tolerance.distance || margin.angle <= tolerance.angle;
        match (plus_minus, tolerance.measured) {
            (None, _) => by_tolerance,
            (Some(within), MeasuredBorderline::Interval) => margin.distance <= within,
            (Some(within), MeasuredBorderline::Either) => margin.distance <= within || by_tolerance,
        }
    }

    /// How near its threshold a length must be to be borderline ([`Tolerance::margin`]).
    pub fn margin(&self, plus_minus: Option<Inches>) -> Inches {
        self.profile.tolerance().margin(plus_minus)
    }

    /// How a length near its threshold is near it, in a sentence "… is {} 6"": within the tape's
    /// tolerance for one drawn by hand, too near to tell for one the camera measured.
    pub fn near_words(plus_minus: Option<Inches>) -> &'static str {
        match plus_minus {
            Some(_) => "too near to tell from",
            None => "within tolerance of",
        }
    }

    /// Why a length near its threshold is for the players: "the camera cannot tell within
    /// 0.42\"" for a measured one, plain "borderline" for one drawn by hand.
    pub fn undecided(&self, plus_minus: Option<Inches>) -> String {
        match plus_minus {
            Some(within) => format!(
                "the camera cannot tell within {}",
                self.profile.length(within.rounded_up())
            ),
            None => "borderline".to_owned(),
        }
    }

    /// A length as the ruleset writes it, with its error bar when the camera measured it:
    /// `6.04" ± 0.03"`.
    pub fn length_within(&self, length: Inches, plus_minus: Option<Inches>) -> String {
        let profile = self.profile;
        match plus_minus {
            Some(within) => format!(
                "{} ± {}",
                profile.length(length.rounded()),
                profile.length(within.rounded_up())
            ),
            None => profile.length(length.rounded()).to_string(),
        }
    }
}

impl<'a> Situation<'a> {
    /// Prepare a scene with its ruleset's profile.
    pub fn new(scene: &'a Scene, profile: &'a Profile) -> Situation<'a> {
        let terrain = TerrainMap::new(scene, profile);
        let tolerance = profile.tolerance();
        let contact = profile.distances().contact;
        let boxes: Vec<Aabb> = scene.units.iter().map(aabb_of).collect();
        let mut sides: Vec<&str> = scene.units.iter().map(|u| u.side.as_str()).collect();
        sides.sort_unstable();
        sides.dedup();
        // Sides as numbers: every pair of units is looked at below, and comparing numbers is
        // cheaper than comparing names.
        let side_of: Vec<usize> = scene
            .units
            .iter()
            .map(|unit| {
                sides
                    .iter()
                    .position(|s| *s == unit.side.as_str())
                    .unwrap_or(0)
            })
            .collect();
        let worst: Vec<Inches> = scene
            .units
            .iter()
            .map(|u| u.footprint.worst_plus_minus())
            .collect();
        let mut contacts = Vec::new();
        for (a, unit_a) in scene.units.iter().enumerate() {
            for (b, unit_b) in scene.units.iter().enumerate().skip(a + 1) {
                // No pair further apart than this can be near enough to touch, whatever decides.
                let near = contact + tolerance.distance.max(worst[a] + worst[b]);
                if side_of[a] == side_of[b] || aabb_gap(&boxes[a], &boxes[b]) > near {
                    continue;
                }
                let gap = unit_a.footprint.gap_to(&unit_b.footprint);
                if gap > near {
                    continue;
                }
                let plus_minus = unit_a
                    .footprint
                    .gap_plus_minus(&unit_b.footprint, scene.length_sd);
                if gap <= contact + tolerance.margin(plus_minus) {
                    contacts.push(Contact {
                        a,
                        b,
                        gap,
                        plus_minus,
                    });
                }
            }
        }
        let units: Vec<UnitView> = scene
            .units
            .iter()
            .enumerate()
            .map(|(index, unit)| {
                let touching = contacts
                    .iter()
                    .any(|c| (c.a == index || c.b == index) && c.gap <= contact);
                let (cover, piece) = terrain.cover(unit.footprint.stands());
                UnitView {
                    unit,
                    index,
                    aabb: boxes[index],
                    engaged: unit.state.engaged.unwrap_or(touching),
                    level: terrain.level_at(&unit.footprint.leader()),
                    cover: if unit.formation == Formation::Building {
                        1.0
                    } else {
                        cover
                    },
                    cover_piece: piece.map(|p| p.id.clone()),
                    shapes: unit
                        .footprint
                        .stands()
                        .iter()
                        .map(|s| s.to_parry())
                        .collect(),
                    corners: unit
                        .footprint
                        .stands()
                        .iter()
                        .flat_map(|s| s.corners())
                        .collect(),
                    side: side_of[index],
                    weapon: profile.unit_weapon(unit),
                    move_allowance: profile.unit_move(unit),
                    charge_allowance: profile.unit_charge(unit),
                    blocks_sight: profile.formation_blocks_sight(unit.formation),
                    arc: fire_arc(unit, profile),
                }
            })
            .collect();
        let mut by_left_edge: Vec<(Aabb, usize)> = boxes.iter().copied().zip(0..).collect();
        // Stable, so units with equal left edges stay in scene order.
        by_left_edge.sort_by(|a, b| a.0.mins.x.total_cmp(&b.0.mins.x));
        let widest = boxes
            .iter()
            .map(|b| b.maxs.x - b.mins.x)
            .fold(0.0, f64::max);
        Situation {
            scene,
            profile,
            terrain,
            units,
            contacts,
            by_left_edge,
            widest,
        }
    }

    /// The gap between two units' bases, from their cached shapes (digest A4).
    pub fn gap(&self, a: usize, b: usize) -> Inches {
        let (first, second) = (&self.units[a].shapes, &self.units[b].shapes);
        first
            .iter()
            .flat_map(|a| second.iter().map(move |b| gap_between(a, b)))
            .fold(Inches(f64::INFINITY), Inches::min)
    }

    /// The units whose boxes meet `bounds`: a sweep over the units sorted by their left edge,
    /// so a query near one end of the table does not look at the whole army.
    pub fn units_in(&self, bounds: Aabb) -> impl Iterator<Item = &UnitView<'a>> + '_ {
        let left = bounds.mins.x - self.widest;
        let start = self
            .by_left_edge
            .partition_point(|(aabb, _)| aabb.mins.x < left);
        self.by_left_edge[start..]
            .iter()
            .take_while(move |(aabb, _)| aabb.mins.x <= bounds.maxs.x)
            .filter(move |(aabb, _)| aabb.intersects(&bounds))
            .map(|&(_, i)| &self.units[i])
    }

    /// The units of other sides than `index`'s.
    pub fn enemies_of(&self, index: usize) -> impl Iterator<Item = &UnitView<'a>> {
        let side = self.units[index].side;
        self.units.iter().filter(move |v| v.side != side)
    }

    /// The closest enemy of `index` that `which` picks (a kind of troops, close order), base
    /// edge to base edge, and the gap to it.
    pub fn nearest_enemy_where(
        &self,
        index: usize,
        which: impl Fn(&UnitView) -> bool,
    ) -> Option<(usize, Inches)> {
        self.enemies_of(index)
            .filter(|e| which(e))
            .map(|e| (e.index, self.gap(index, e.index)))
            .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
    }

    /// The other units of `index`'s side.
    pub fn friends_of(&self, index: usize) -> impl Iterator<Item = &UnitView<'a>> {
        let side = self.units[index].side;
        self.units
            .iter()
            .filter(move |v| v.side == side && v.index != index)
    }

    /// The closest enemy of `index`, base edge to base edge. Boxes give a lower bound on the gap,
    /// so only enemies whose box is nearer than the best gap so far are measured exactly.
    pub fn nearest_enemy(&self, index: usize) -> Option<(usize, Inches)> {
        let view = &self.units[index];
        // Usually only the first few are measured: a heap hands them out nearest first (ties in
        // scene order) without sorting the whole army.
        let mut candidates: BinaryHeap<Reverse<Candidate>> = self
            .enemies_of(index)
            .map(|e| Reverse(Candidate(aabb_gap(&view.aabb, &e.aabb), e.index)))
            .collect();
        let mut best: Option<(usize, Inches)> = None;
        while let Some(Reverse(Candidate(bound, enemy))) = candidates.pop() {
            if best.is_some_and(|(_, gap)| bound > gap) {
                break;
            }
            let gap = self.gap(index, enemy);
            if best.is_none_or(|(_, b)| gap < b) {
                best = Some((enemy, gap));
            }
        }
        best
    }

    /// The enemies touching `index` (gap within the contact distance).
    pub fn in_contact_with(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        let contact = self.profile.distances().contact;
        self.contacts
            .iter()
            .filter(move |c| c.gap <= contact)
            .filter_map(move |c| {
                if c.a == index {
                    Some(c.b)
                } else if c.b == index {
                    Some(c.a)
                } else {
                    None
                }
            })
    }

    /// The faces of `index` that enemies in contact are fighting (by the quarter their leader
    /// is in, A2).
    pub fn engaged_faces(&self, index: usize) -> Vec<Quarter> {
        let frame = self.scene.units[index].footprint.frame();
        self.in_contact_with(index)
            .map(|enemy| classify(frame, &self.scene.units[enemy].footprint.leader()).face)
            .collect()
    }
}
