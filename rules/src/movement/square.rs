//! A square's own limits on moving (digest §9.1, A38): it may not move at all with enemy
//! cavalry near, nor disordered where the ruleset says so, and it moves only towards its own
//! lines — the home edge the scene gives its side. Which formations are held to these is the
//! profile's (`halts-near-cavalry`, `still-when-disordered`, `towards-home-only`).

use crate::geometry::TablePoint;
use crate::ruling::{Decision, Figure, Ruling, Topic};
use crate::scene::{Scene, TableEdge, Unit};
use crate::situation::Situation;
use crate::units::Inches;

use crate::command::SQUARES;

/// The rulings on a move of `index` (to `after`) that a formation held to these limits made.
pub(super) fn square_rulings(situation: &Situation, index: usize, after: &Unit) -> Vec<Ruling> {
    let before = &situation.scene.units[index];
    let tolerance = situation.profile.tolerance().distance;
    let moved = crate::geometry::distance(&before.footprint.leader(), &after.footprint.leader());
    if moved <= tolerance {
        return Vec::new();
    }
    let mut rulings = Vec::new();
    rulings.extend(disordered_still(situation, before));
    rulings.extend(crate::command::held_by_cavalry(situation, index));
    rulings.extend(away_from_home(situation, before, after));
    rulings
}

/// A disordered unit of a formation that may then not move at all (BBB's square, L279).
fn disordered_still(situation: &Situation, before: &Unit) -> Option<Ruling> {
    (before.state.disordered && situation.profile.still_when_disordered(before.formation)).then(
        || Ruling {
            topic: Topic::Movement,
            unit: before.id.clone(),
            other: None,
            decision: Decision::Cannot,
            rule: SQUARES,
            figures: Vec::new(),
            explanation: format!(
                "{} is a disordered {}, which cannot move.",
                before.name,
                before.formation.as_str()
            ),
            shapes: Vec::new(),
        },
    )
}

/// A move that takes the leader further from its side's home edge (A38); said, not judged,
/// when the scene gives no home edge.
fn away_from_home(situation: &Situation, before: &Unit, after: &Unit) -> Option<Ruling> {
    let profile = situation.profile;
    if !profile.towards_home_only(before.formation) {
        return None;
    }
    let scene = situation.scene;
    let home = scene
        .sides
        .iter()
        .find(|s| s.id == before.side)
        .and_then(|s| s.home_edge);
    let ruling = |decision, explanation| Ruling {
        topic: Topic::Movement,
        unit: before.id.clone(),
        other: None,
        decision,
        rule: SQUARES,
        figures: Vec::new(),
        explanation,
        shapes: Vec::new(),
    };
    let Some(edge) = home else {
        return Some(ruling(
            Decision::Borderline,
            format!(
                "{} may move only towards its own lines, and the scene gives no home edge for side {}: players decide.",
                before.name, before.side
            ),
        ));
    };
    let was = to_edge(scene, edge, &before.footprint.leader());
    let is = to_edge(scene, edge, &after.footprint.leader());
    let tolerance = profile.tolerance().distance;
    if is <= was + tolerance {
        return None;
    }
    let mut decided = ruling(
        Decision::Cannot,
        format!(
            "{} may move only towards its own lines (the {} edge), but its leader went {} further from it.",
            before.name,
            edge.as_str(),
            profile.length((is - was).rounded())
        ),
    );
    decided.figures = vec![Figure::inches("away from home", is - was)];
    Some(decided)
}

/// How far a point is from a table edge.
fn to_edge(scene: &Scene, edge: TableEdge, point: &TablePoint) -> Inches {
    Inches(match edge {
        TableEdge::South => point.y,
        TableEdge::North => scene.table.depth.0 - point.y,
        TableEdge::West => point.x,
        TableEdge::East => scene.table.width.0 - point.x,
    })
}
