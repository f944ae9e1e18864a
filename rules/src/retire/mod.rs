//! Retiring and evading (digest §7.6, §8.2, §8.3, A28, A29, A36): where a unit goes when a break
//! test or combat result makes it retire, or when it evades a charge — or whether it is
//! destroyed at the table edge, breaks for want of room, or (squares and buildings) holds.
//!
//! - [`direction`] answers "which way": the rear quarter, or the quarter opposite the only face
//!   it fights or was charged on.
//! - [`path`] answers "can it go there": one straight move, swept footprint clear of enemies,
//!   ending on no friend, no impassable ground and on the table.
//! - [`retire`] and [`evade`] search one full move, then two, straight into the quarter and up
//!   to 40° either side of straight, and say what happens.

mod direction;
mod path;

pub use direction::{evade_quarter, opposite, retire_quarter, straight_into};

use serde::Serialize;

use crate::geometry::{OrientedRect, TablePoint, TableVector};
use crate::quarter::{Quarter, QuarterScheme};
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic, to_thousandth};
use crate::scene::{Formation, Unit, UnitKind};
use crate::situation::Situation;
use crate::units::{Degrees, Inches};
use path::{Attempt, attempt, full_moves};

const RETIRING: RuleRef = RuleRef::read_as("Retiring Units (§8.3)", "A28");
const EVADING: RuleRef = RuleRef::read_as("Evade (§7.6)", "A28");
const HOLDING: RuleRef = RuleRef::book("Break Test Results (§8.2): squares and buildings");

/// The directions tried, in degrees off straight into the quarter: straight first, then wider.
/// 40° keeps the whole move inside a 45° quarter.
const VEERS: [f64; 9] = [0.0, -10.0, 10.0, -20.0, 20.0, -30.0, 30.0, -40.0, 40.0];

/// Why the unit moves away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WithdrawalKind {
    /// A break-test or combat result: a full move (or two) back.
    Retire,
    /// A charge response: one full move away from the charger.
    Evade,
}

/// What happens to the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// It moves to `position`.
    Moves,
    /// Its move crosses the table edge: destroyed (§8.3, A36).
    Destroyed,
    /// It cannot move away: it breaks (§8.3).
    Breaks,
    /// Squares and units in buildings ignore retire results (§8.2).
    Holds,
}

/// Where a unit would retire or evade to (the `retire` object of `vedette rulings --json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Withdrawal {
    /// Retire or evade.
    pub kind: WithdrawalKind,
    /// The quarter it moves into.
    pub quarter: Quarter,
    /// What happens.
    pub outcome: Outcome,
    /// Full moves made (0 unless it moves).
    pub moves: u32,
    /// How far its leader goes.
    pub distance: Inches,
    /// Degrees off straight into the quarter (positive: counter-clockwise on the table).
    pub veer: Degrees,
    /// Its frame at the end, corners front-right, front-left, rear-left, rear-right.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::geometry::xy::written_corners"
    )]
    pub position: Option<[TablePoint; 4]>,
    /// Within tolerance of an enemy, a friend or the table edge: players decide.
    pub borderline: bool,
    /// Why it cannot move, when it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Its frame at the end.
    #[serde(skip)]
    pub end: Option<OrientedRect>,
}

/// The direction `veer` degrees off `straight`, counter-clockwise.
fn turned(straight: TableVector, veer: f64) -> TableVector {
    let (sin, cos) = veer.to_radians().sin_cos();
    TableVector::new(
        straight.x * cos - straight.y * sin,
        straight.x * sin + straight.y * cos,
    )
}

/// Search one full move, then two, into `quarter`.
fn search(
    situation: &Situation,
    index: usize,
    kind: WithdrawalKind,
    quarter: Quarter,
) -> Withdrawal {
    let tolerance = situation.profile.tolerance().distance;
    let frame = situation.scene.units[index].footprint.frame();
    let straight = straight_into(frame, quarter);
    let most = match kind {
        WithdrawalKind::Retire => 2,
        WithdrawalKind::Evade => 1,
    };
    let mut first_reason: Option<String> = None;
    let mut off_table: Option<Inches> = None;
    for moves in 1..=most {
        for veer in VEERS {
            let direction = turned(straight, veer);
            let distance = full_moves(situation, index, direction, moves);
            match attempt(situation, index, quarter, direction * distance.0) {
                Attempt::Clear {
                    frame: end,
                    enemy_clearance,
                    edge_clearance,
                } => {
                    return Withdrawal {
                        kind,
                        quarter,
                        outcome: Outcome::Moves,
                        moves,
                        distance,
                        veer: Degrees(veer),
                        position: Some(end.corners().map(|c| to_thousandth(&c))),
                        borderline: enemy_clearance <= tolerance || edge_clearance <= tolerance,
                        reason: first_reason,
                        end: Some(end),
                    };
                }
                Attempt::OffTable { beyond } => {
                    off_table = Some(off_table.map_or(beyond, |b: Inches| b.min(beyond)));
                }
                Attempt::Blocked(reason) => {
                    first_reason.get_or_insert(reason);
                }
            }
        }
    }
    let (outcome, borderline) = match off_table {
        Some(beyond) => (Outcome::Destroyed, beyond <= tolerance),
        None => (Outcome::Breaks, false),
    };
    Withdrawal {
        kind,
        quarter,
        outcome,
        moves: 0,
        distance: Inches::ZERO,
        veer: Degrees(0.0),
        position: None,
        borderline,
        reason: first_reason,
        end: None,
    }
}

fn holds(unit: &Unit, situation: &Situation) -> bool {
    situation.profile.quarter_scheme(unit.formation) == QuarterScheme::FourFronts
}

/// Where unit `index` goes if it must retire (a break test's "retire", cavalry losing or
/// drawing a combat), fighting the faces its enemies in contact are on.
pub fn retire(situation: &Situation, index: usize) -> (Withdrawal, Ruling) {
    let unit = &situation.scene.units[index];
    let faces = situation.engaged_faces(index);
    let quarter = retire_quarter(&faces);
    let withdrawal = if holds(unit, situation) {
        Withdrawal {
            outcome: Outcome::Holds,
            ..stay(WithdrawalKind::Retire, quarter)
        }
    } else if unit.kind == UnitKind::Artillery {
        Withdrawal {
            outcome: Outcome::Breaks,
            reason: Some("artillery never retires".to_owned()),
            ..stay(WithdrawalKind::Retire, quarter)
        }
    } else {
        search(situation, index, WithdrawalKind::Retire, quarter)
    };
    let ruling = ruling(situation, index, None, &withdrawal);
    (withdrawal, ruling)
}

/// Where unit `index` goes if it evades a charge on its `face` (the geometric face, §7.6).
pub fn evade(
    situation: &Situation,
    index: usize,
    charger: usize,
    face: Quarter,
) -> (Withdrawal, Ruling) {
    let withdrawal = search(situation, index, WithdrawalKind::Evade, evade_quarter(face));
    let ruling = ruling(situation, index, Some(charger), &withdrawal);
    (withdrawal, ruling)
}

fn stay(kind: WithdrawalKind, quarter: Quarter) -> Withdrawal {
    Withdrawal {
        kind,
        quarter,
        outcome: Outcome::Holds,
        moves: 0,
        distance: Inches::ZERO,
        veer: Degrees(0.0),
        position: None,
        borderline: false,
        reason: None,
        end: None,
    }
}

/// Whether `target` may evade a charge by `charger` (§7.6): cavalry charged by infantry,
/// skirmishers charged by formed troops of their own arm, horse artillery as cavalry; never
/// when disordered.
pub fn may_evade(situation: &Situation, charger: &Unit, target: &Unit) -> bool {
    let skirmishing = |u: &Unit| u.formation == Formation::Skirmish;
    let horse_artillery = target.kind == UnitKind::Artillery
        && situation
            .profile
            .unit_weapon(target)
            .is_some_and(|w| w.is_horse_artillery());
    !target.state.disordered
        && match (target.kind, charger.kind) {
            (UnitKind::Cavalry, UnitKind::Infantry) => true,
            (UnitKind::Infantry, UnitKind::Infantry) | (UnitKind::Cavalry, UnitKind::Cavalry) => {
                skirmishing(target) && !skirmishing(charger)
            }
            (UnitKind::Artillery, UnitKind::Infantry) => horse_artillery,
            _ => false,
        }
}

fn ruling(situation: &Situation, index: usize, charger: Option<usize>, w: &Withdrawal) -> Ruling {
    let unit = &situation.scene.units[index];
    let name = &unit.name;
    let into = format!("its {} quarter", w.quarter.describe());
    let (lead, rule) = match w.kind {
        WithdrawalKind::Retire => (format!("If {name} must retire"), RETIRING),
        WithdrawalKind::Evade => (format!("If {name} evades"), EVADING),
    };
    let veer = if w.veer.0.abs() < 1e-9 {
        "straight".to_owned()
    } else {
        format!("{:.0}° off straight", w.veer.0.abs())
    };
    let mut explanation = match w.outcome {
        Outcome::Holds => format!(
            "{name} is in {}: it ignores retire results and holds its ground without disorder.",
            if unit.formation == Formation::Building {
                "a building"
            } else {
                "square"
            }
        ),
        Outcome::Moves => {
            let count = if w.moves == 1 {
                "one full move"
            } else {
                "two full moves"
            };
            let mut text = format!(
                "{lead}, it makes {count} ({}) into {into}, {veer}, without turning, to the position shown",
                situation.profile.length(w.distance.rounded())
            );
            if let Some(reason) = &w.reason {
                text.push_str(&format!(" (the straight way is barred: {reason})"));
            }
            text.push('.');
            text.push_str(match (w.kind, w.moves) {
                (WithdrawalKind::Retire, _) => " It is then disordered (A29).",
                (WithdrawalKind::Evade, 1) => " An evade does not disorder (A29).",
                (WithdrawalKind::Evade, _) => " Two moves: it is disordered (A29).",
            });
            text
        }
        Outcome::Destroyed => {
            format!("{lead}, its move into {into} crosses the table edge: it is destroyed (A36).")
        }
        Outcome::Breaks => format!(
            "{lead}, it cannot: {}; it breaks.",
            w.reason.as_deref().unwrap_or("there is no room")
        ),
    };
    if w.borderline {
        explanation.push_str(
            " Within tolerance of an enemy or the table edge: borderline — players decide.",
        );
    }
    let mut shapes = vec![Shape::polygon(
        ShapeRole::Quarter,
        &w.quarter
            .region(unit.footprint.frame())
            .polygon(situation.profile.unit_move(unit) * 2.0),
    )];
    if let Some(end) = &w.end {
        shapes.push(Shape::segment(
            ShapeRole::Measure,
            &unit.footprint.leader(),
            &end.front_center(),
            situation.profile.length(w.distance.rounded()).to_string(),
        ));
        shapes.push(Shape::polygon(ShapeRole::Placement, &end.corners()));
    }
    Ruling {
        topic: Topic::Retire,
        unit: unit.id.clone(),
        other: charger.map(|c| situation.scene.units[c].id.clone()),
        decision: Decision::judge(
            matches!(w.outcome, Outcome::Moves | Outcome::Holds),
            w.borderline,
        ),
        rule: if w.outcome == Outcome::Holds {
            HOLDING
        } else {
            rule
        },
        figures: vec![
            Figure::count("moves", i64::from(w.moves)),
            Figure::inches("distance", w.distance),
        ],
        explanation,
        shapes,
    }
}
