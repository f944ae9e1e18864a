//! Whether one straight retire or evade move is possible (digest A28, A36, A37): the ground it
//! sweeps stays in its start footprint and the chosen quarter and touches no enemy, it ends on
//! no friend and no impassable ground, and it stays on the table.

use parry2d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry2d_f64::math::Isometry;
use parry2d_f64::shape::{ConvexPolygon, Cuboid};

use crate::geometry::{OrientedRect, TablePoint, TableVector};
use crate::quarter::{Quarter, classify};
use crate::situation::Situation;
use crate::units::Inches;

/// How far into an enemy already touching a retiring unit may slide along it (it may not move
/// into it), and how far into a friend it may end (A37).
const OVERLAP: Inches = Inches(0.1);

/// What became of one attempt.
#[derive(Clone, Debug, PartialEq)]
pub enum Attempt {
    /// The unit ends with its frame here; its closest pass to an enemy, and to the table edge.
    Clear {
        /// The frame at the end.
        frame: OrientedRect,
        /// The smallest gap to an enemy along the way.
        enemy_clearance: Inches,
        /// How far the nearest stand centre is inside the table edge.
        edge_clearance: Inches,
    },
    /// A stand ends with its centre beyond the table edge (A36).
    OffTable {
        /// How far beyond.
        beyond: Inches,
    },
    /// Something is in the way.
    Blocked(String),
}

fn moved(rect: &OrientedRect, by: TableVector) -> OrientedRect {
    OrientedRect::new(
        rect.front_center() + by,
        rect.facing(),
        rect.width(),
        rect.depth(),
    )
}

/// The ground a base sweeps moving by `by`, from a hair after the start (so bases it leaves are
/// not counted as touched).
fn swept(rect: &OrientedRect, by: TableVector) -> Option<ConvexPolygon> {
    let start = by
        .try_normalize(1e-12)
        .map_or(TableVector::zeros(), |d| d * 0.05);
    let points: Vec<TablePoint> = rect
        .corners()
        .iter()
        .flat_map(|c| [c + start, c + by])
        .collect();
    ConvexPolygon::from_convex_hull(&points)
}

fn gap(shape: &ConvexPolygon, rect: &OrientedRect) -> Inches {
    let (pose, cuboid): (Isometry<f64>, Cuboid) = rect.to_parry();
    Inches(
        parry2d_f64::query::distance(&Isometry::identity(), shape, &pose, &cuboid)
            .unwrap_or(f64::INFINITY),
    )
}

/// Whether every corner of `after` lies in `start` or in its `quarter`.
fn within_quarter(start: &OrientedRect, quarter: Quarter, after: &OrientedRect) -> bool {
    after.corners().iter().all(|corner| {
        let reading = classify(start, corner);
        reading.inside_footprint || reading.face == quarter || reading.margin.distance.0 < 1e-6
    })
}

/// Try moving unit `index` by `by` (no turning) into `quarter`.
pub fn attempt(situation: &Situation, index: usize, quarter: Quarter, by: TableVector) -> Attempt {
    let unit = &situation.scene.units[index];
    let profile = situation.profile;
    let contact = profile.distances().contact;
    let frame = unit.footprint.frame();
    if !within_quarter(frame, quarter, &moved(frame, by)) {
        return Attempt::Blocked(format!("it would leave its {} quarter", quarter.describe()));
    }
    let stands = unit.footprint.stands();
    let sweeps: Vec<ConvexPolygon> = stands.iter().filter_map(|s| swept(s, by)).collect();
    let touching: Vec<usize> = situation.in_contact_with(index).collect();
    // Only units near the ground swept can be in the way: a box query, not the whole army.
    let swept_box = Aabb::from_points(
        stands
            .iter()
            .flat_map(|s| s.corners())
            .flat_map(|c| [c, c + by]),
    )
    .loosened(profile.tolerance().distance.0 + contact.0);
    let side = situation.units[index].side;
    let nearby = || situation.units_in(swept_box).filter(|v| v.index != index);
    let mut enemy_clearance = Inches(f64::INFINITY);
    for enemy in nearby().filter(|v| v.side != side) {
        let already = touching.contains(&enemy.index);
        for base in enemy.unit.footprint.stands() {
            // An enemy it already touches may be slid along but not moved into.
            let (base, limit) = if already {
                (base.shrunk(OVERLAP), Inches(1e-9))
            } else {
                (*base, contact)
            };
            for sweep in &sweeps {
                let g = gap(sweep, &base);
                if g <= limit {
                    return Attempt::Blocked(format!("{} is in the way", enemy.unit.name));
                }
                if !already {
                    enemy_clearance = enemy_clearance.min(g);
                }
            }
        }
    }
    let table = situation.scene.table;
    let ends: Vec<OrientedRect> = stands.iter().map(|s| moved(s, by)).collect();
    let edge_clearance = ends
        .iter()
        .map(|s| {
            let c = s.center();
            c.x.min(c.y)
                .min(table.width.0 - c.x)
                .min(table.depth.0 - c.y)
        })
        .fold(f64::INFINITY, f64::min);
    if edge_clearance < 0.0 {
        return Attempt::OffTable {
            beyond: Inches(-edge_clearance),
        };
    }
    for friend in nearby().filter(|v| v.side == side) {
        for base in friend.unit.footprint.stands() {
            if ends
                .iter()
                .any(|end| end.shrunk(OVERLAP / 2.0).gap_to(base) <= Inches(1e-9))
            {
                return Attempt::Blocked(format!("it would end on {}", friend.unit.name));
            }
        }
    }
    for corner in frame.corners() {
        let cost = situation
            .terrain
            .move_cost(unit, &corner, &(corner + by), profile);
        if let Some(terrain) = cost.forbidden_by {
            return Attempt::Blocked(format!("it may not enter {terrain}"));
        }
    }
    Attempt::Clear {
        frame: moved(frame, by),
        enemy_clearance,
        edge_clearance: Inches(edge_clearance),
    }
}

/// How far a unit goes in `moves` full moves straight along `direction` from its leader:
/// terrain that costs more shortens the distance (a retire is a normal move, §8.3).
pub fn full_moves(
    situation: &Situation,
    index: usize,
    direction: TableVector,
    moves: u32,
) -> Inches {
    let unit = &situation.scene.units[index];
    let profile = situation.profile;
    let budget = profile.unit_move(unit) * f64::from(moves);
    let leader = unit.footprint.leader();
    let cost = |d: f64| {
        situation
            .terrain
            .move_cost(unit, &leader, &(leader + direction * d), profile)
            .cost
    };
    if cost(budget.0) <= budget {
        return budget;
    }
    // The cost grows with the distance: halve the interval until it is finer than a tape (or
    // 64 times, whatever the interval: an absurd allowance must not loop for ever).
    let (mut lo, mut hi) = (0.0, budget.0);
    for _ in 0..64 {
        if hi - lo <= 0.01 {
            break;
        }
        let mid = (lo + hi) / 2.0;
        if cost(mid) <= budget {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Inches(lo)
}
