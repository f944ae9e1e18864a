//! Rulings only when something moved: whether a table differs from the one its rulings were
//! made for by more than the camera's wobble.
//!
//! The rulings are recomputed for the whole scene when it has moved (a ruling between two units
//! depends on both, and the whole scene takes a few milliseconds): this decides when.

use rules::Scene;
use rules::geometry::{angle_between, heading};
use rules::units::{Degrees, Inches};

/// How far a stand must move, or turn, to count as moved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveThreshold {
    /// Distance, any stand or commander.
    pub distance: Inches,
    /// Turn, any stand.
    pub turn: Degrees,
}

impl Default for MoveThreshold {
    fn default() -> MoveThreshold {
        MoveThreshold {
            distance: Inches(0.05),
            turn: Degrees(1.0),
        }
    }
}

/// Whether `now` differs from `before` by more than the threshold: a stand or commander moved
/// or turned further, a unit or commander came or went, or anything else changed.
pub fn scene_moved(before: &Scene, now: &Scene, threshold: MoveThreshold) -> bool {
    if before.units.len() != now.units.len() || before.commanders.len() != now.commanders.len() {
        return true;
    }
    let turned = |a: Degrees, b: Degrees| angle_between(heading(a), heading(b)) > threshold.turn;
    let stands_moved = before.units.iter().zip(&now.units).any(|(a, b)| {
        let (sa, sb) = (a.footprint.stands(), b.footprint.stands());
        sa.len() != sb.len()
            || sa.iter().zip(sb).any(|(x, y)| {
                (x.center() - y.center()).norm() > threshold.distance.0
                    || turned(x.facing(), y.facing())
            })
    });
    let commanders_moved = before
        .commanders
        .iter()
        .zip(&now.commanders)
        .any(|(a, b)| (a.position - b.position).norm() > threshold.distance.0);
    if stands_moved || commanders_moved || error_bars_changed(before, now) {
        return true;
    }
    // Every position is within the threshold: anything else that differs (a unit's state,
    // the terrain) still counts.
    let mut aligned = now.clone();
    for (unit, old) in aligned.units.iter_mut().zip(&before.units) {
        unit.footprint = old.footprint.clone();
    }
    for (commander, old) in aligned.commanders.iter_mut().zip(&before.commanders) {
        commander.position = old.position;
    }
    aligned != *before
}

/// Whether a unit's error bar widened or narrowed by more than a twentieth of an inch and a
/// quarter of itself (the ground under it learnt, its tag seen by a second camera): its
/// rulings' figures change though it did not move. The frame-to-frame wander of a bar is far
/// less.
fn error_bars_changed(before: &Scene, now: &Scene) -> bool {
    before.units.iter().zip(&now.units).any(|(a, b)| {
        let (wa, wb) = (
            a.footprint.worst_plus_minus().0,
            b.footprint.worst_plus_minus().0,
        );
        (wa - wb).abs() > 0.05_f64.max(0.25 * wa.max(wb))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::geometry::{OrientedRect, TableVector};
    use rules::scene::Footprint;

    fn shifted(scene: &Scene, unit: usize, by: f64) -> Scene {
        let mut moved = scene.clone();
        let footprint = &mut moved.units[unit].footprint;
        let frame = footprint.frame();
        *footprint = Footprint::block(OrientedRect::from_center(
            frame.center() + TableVector::new(by, 0.0),
            frame.facing(),
            frame.width(),
            frame.depth(),
        ));
        moved
    }

    #[test]
    fn wobble_is_not_a_move_and_a_push_is() {
        let scene = rules::synthetic::battle(6, 0, 3);
        let unit = 2;
        let threshold = MoveThreshold::default();
        assert!(!scene_moved(&scene, &shifted(&scene, unit, 0.0), threshold));
        assert!(!scene_moved(
            &scene,
            &shifted(&scene, unit, 0.02),
            threshold
        ));
        assert!(scene_moved(&scene, &shifted(&scene, unit, 0.5), threshold));
        let mut routed = scene.clone();
        routed.units[0].state.disordered = !routed.units[0].state.disordered;
        assert!(scene_moved(&scene, &routed, threshold));
        let mut moved_commander = scene.clone();
        if let Some(c) = moved_commander.commanders.first_mut() {
            c.position += TableVector::new(1.0, 0.0);
            assert!(scene_moved(&scene, &moved_commander, threshold));
        }
    }

    #[test]
    fn an_error_bar_that_widens_is_a_change_and_its_wander_is_not() {
        use rules::uncertainty::PlaceSd;
        let with_sd = |scene: &Scene, inches: f64| {
            let mut out = scene.clone();
            let footprint = &mut out.units[0].footprint;
            let sd = vec![
                PlaceSd::new(
                    nalgebra::Matrix2::identity() * inches * inches,
                    Degrees(0.5)
                );
                footprint.stands().len()
            ];
            *footprint = footprint.clone().with_sd(sd);
            out
        };
        let scene = rules::synthetic::battle(6, 0, 3);
        let threshold = MoveThreshold::default();
        let (narrow, wander, wide) = (
            with_sd(&scene, 0.1),
            with_sd(&scene, 0.105),
            with_sd(&scene, 0.3),
        );
        assert!(!scene_moved(&narrow, &wander, threshold));
        assert!(scene_moved(&narrow, &wide, threshold));
    }
}
