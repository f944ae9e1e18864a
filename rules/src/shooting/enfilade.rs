//! Enfilade (digest §6.8, A24): shooting along a unit's length from beyond its side.

use crate::geometry::TablePoint;
use crate::scene::{Formation, Unit};
use crate::units::Inches;

/// Whether `eye` lies in `target`'s enfilade corridor, with the margin to the corridor's edge.
///
/// Lines (extended too), attack columns and warbands (and mixed formations, by their main body) are enfiladed
/// from the band between their front- and rear-edge lines extended, beyond a side edge; a march
/// column from the band between its side edges extended, beyond its front or rear. Never
/// skirmishers, squares, artillery or units in buildings.
pub fn in_enfilade(target: &Unit, eye: &TablePoint) -> Option<Inches> {
    let frame = target.footprint.frame();
    let local = frame.to_local(eye);
    let (x, y) = (local.across.0, local.ahead.0);
    let (half, depth) = (frame.width().0 / 2.0, frame.depth().0);
    let margin = match target.formation {
        Formation::Line
        | Formation::ExtendedLine
        | Formation::AttackColumn
        | Formation::Warband
        | Formation::Mixed => {
            let beyond_side = x.abs() - half;
            (beyond_side > 0.0 && y < 0.0 && y > -depth).then(|| (-y).min(y + depth))
        }
        Formation::MarchColumn => {
            let beyond_end = y > 0.0 || y < -depth;
            (beyond_end && x.abs() < half).then(|| half - x.abs())
        }
        _ => None,
    };
    margin.map(Inches)
}
