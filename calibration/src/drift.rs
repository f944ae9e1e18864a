//! Has the camera been bumped? The anchors tell: where the calibration expects them against
//! where they are seen now.

use serde::Serialize;

use crate::pixels::Pixels;
use crate::table::TableCalibration;
use crate::tag::TagSighting;

/// Anchors further than this from their calibrated place have moved (or the camera has).
pub const DRIFT_TOLERANCE: Pixels = Pixels(2.0);

/// What the anchors in one frame say about the calibration.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "status")]
pub enum AnchorCheck {
    /// The anchors are where they were: the calibration holds.
    Steady {
        /// The largest shift among the anchors seen.
        largest_shift: Pixels,
    },
    /// Most anchors moved together: the camera was bumped. Recalibrate.
    CameraMoved {
        /// The median shift of the anchors seen.
        shift: Pixels,
    },
    /// One anchor moved while the others held: the tag was knocked, not the camera.
    AnchorMoved {
        /// The anchor's id.
        id: u32,
        /// How far it moved.
        shift: Pixels,
    },
    /// Too few anchors in view to tell (a hand, a unit, a sleeve).
    Unknown {
        /// Anchors seen.
        seen: usize,
    },
}

impl AnchorCheck {
    /// A line for the status bar or the log.
    pub fn message(&self) -> String {
        match self {
            AnchorCheck::Steady { largest_shift } => {
                format!("calibration holds (anchors within {largest_shift})")
            }
            AnchorCheck::CameraMoved { shift } => {
                format!("the camera has moved: the anchors shifted by {shift}; recalibrate")
            }
            AnchorCheck::AnchorMoved { id, shift } => format!(
                "anchor tag {id} has moved by {shift} while the others held: put it back, or recalibrate"
            ),
            AnchorCheck::Unknown { seen } => {
                format!("only {seen} anchor(s) in view: the calibration cannot be checked")
            }
        }
    }
}

/// Compare the anchors seen in a frame with the calibration.
pub fn check_anchors(calibration: &TableCalibration, sightings: &[TagSighting]) -> AnchorCheck {
    let mut shifts: Vec<(u32, f64)> = calibration
        .anchors
        .iter()
        .filter_map(|fit| {
            let seen = sightings.iter().find(|s| s.id == fit.anchor.id)?;
            let shift = seen
                .corners
                .iter()
                .zip(&fit.seen)
                .map(|(a, b)| a.distance(b).0)
                .sum::<f64>()
                / 4.0;
            Some((fit.anchor.id, shift))
        })
        .collect();
    if shifts.len() < 2 {
        return AnchorCheck::Unknown { seen: shifts.len() };
    }
    shifts.sort_by(|a, b| a.1.total_cmp(&b.1));
    let median = shifts[shifts.len() / 2].1;
    let (worst_id, worst) = shifts[shifts.len() - 1];
    if median > DRIFT_TOLERANCE.0 {
        AnchorCheck::CameraMoved {
            shift: Pixels(median),
        }
    } else if worst > DRIFT_TOLERANCE.0 && shifts.len() >= 3 {
        AnchorCheck::AnchorMoved {
            id: worst_id,
            shift: Pixels(worst),
        }
    } else if worst > DRIFT_TOLERANCE.0 {
        // Two anchors, one moved: cannot tell which; say the camera, the safe answer.
        AnchorCheck::CameraMoved {
            shift: Pixels(worst),
        }
    } else {
        AnchorCheck::Steady {
            largest_shift: Pixels(worst),
        }
    }
}
