//! Firing over other units' heads (digest §6.12–§6.15, A10, A40): a cannon may, when the gun
//! or its target stands higher than the unit fired over and that unit is more than 6" from the
//! gun and more than 6" from the target (the dead ground); howitzers, mortars and rockets lob
//! their shot over their own side's units; small arms and machine guns never fire overhead.

use serde::Serialize;

use super::FiringFace;
use crate::geometry::TablePoint;
use crate::profile::Overhead;
use crate::scene::UnitKind;
use crate::situation::Situation;
use crate::units::Inches;
use crate::visibility::{Obstruction, Sight, sight_over};

/// A unit a shot passes over.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FiredOver {
    /// The unit fired over.
    pub id: String,
    /// Its index in the scene.
    #[serde(skip)]
    pub index: usize,
    /// Base edge to base edge, from the gun (cannon only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gun_gap: Option<Inches>,
    /// Base edge to base edge, from the target (cannon only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_gap: Option<Inches>,
    /// A gap within tolerance of the dead ground: players decide.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub borderline: bool,
}

/// A unit a shot may not pass over, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    /// The unit in the way.
    pub index: usize,
    /// Why the shot may not pass over it.
    pub reason: String,
    /// A gap within tolerance of the dead ground: players decide.
    pub borderline: bool,
    /// Refused although the gun fires over heads and stands high enough: for the dead ground
    /// or the unit's kind. The target's reason says so.
    pub but_for: bool,
}

/// What looking over heads found: the sight with the units fired over ignored.
#[derive(Clone, Debug, PartialEq)]
pub struct OverheadSight {
    /// The sight, with the units fired over taken out.
    pub sight: Sight,
    /// The units fired over.
    pub over: Vec<FiredOver>,
    /// The units in the way that may not be fired over.
    pub refused: Vec<Refused>,
}

/// Whether a shot by `shooter` at `target` may pass over unit `unit`.
fn pass_over(
    situation: &Situation,
    shooter: usize,
    target: usize,
    unit: usize,
    overhead: Overhead,
) -> Result<FiredOver, Refused> {
    let view = &situation.units[unit];
    let refuse = |reason: String, borderline: bool| Refused {
        index: unit,
        reason,
        borderline,
        but_for: false,
    };
    let name = &view.unit.name;
    match overhead {
        Overhead::Never => Err(refuse(
            format!("{name} is in the way and this weapon never fires overhead"),
            false,
        )),
        Overhead::OverFriends if view.side == situation.units[shooter].side => Ok(FiredOver {
            id: view.unit.id.clone(),
            index: unit,
            gun_gap: None,
            target_gap: None,
            borderline: false,
        }),
        Overhead::OverFriends => Err(refuse(
            format!("{name} is in the way, and only friends can be fired over"),
            false,
        )),
        Overhead::FromHigherGround
            if situation.profile.specials().only_infantry_fired_over
                && view.unit.kind != UnitKind::Infantry =>
        {
            Err(Refused {
                but_for: true,
                ..refuse(
                    format!("the gun cannot fire over {name}: only infantry can be fired over"),
                    false,
                )
            })
        }
        Overhead::FromHigherGround => {
            let level = situation.units[shooter]
                .level
                .max(situation.units[target].level);
            if level <= view.level {
                return Err(refuse(
                    format!(
                        "{name} is in the way, and neither the gun nor the target stands higher than it, so the gun cannot fire over it"
                    ),
                    false,
                ));
            }
            let profile = situation.profile;
            let dead = profile.distances().dead_ground;
            let tolerance = profile.tolerance().distance;
            let gun_gap = situation.gap(shooter, unit);
            let target_gap = situation.gap(unit, target);
            // No dead ground (BPT Commander has none): nothing to be near.
            let borderline = dead > Inches::ZERO
                && ((gun_gap - dead).abs() <= tolerance || (target_gap - dead).abs() <= tolerance);
            let too_close = [(gun_gap, "the gun"), (target_gap, "the target")]
                .into_iter()
                .filter(|(gap, _)| dead > Inches::ZERO && *gap <= dead)
                .map(|(gap, from)| {
                    format!("{} from {from}", situation.profile.length(gap.rounded()))
                })
                .collect::<Vec<_>>();
            if too_close.is_empty() {
                Ok(FiredOver {
                    id: view.unit.id.clone(),
                    index: unit,
                    gun_gap: Some(gun_gap.rounded()),
                    target_gap: Some(target_gap.rounded()),
                    borderline,
                })
            } else {
                Err(Refused {
                    but_for: true,
                    ..refuse(
                        format!(
                            "the gun cannot fire over {name}: it is {}, in the dead ground (it must be more than {dead} from both)",
                            too_close.join(" and "),
                            dead = profile.length(dead)
                        ),
                        borderline,
                    )
                })
            }
        }
    }
}

/// Look again at a target, over the heads of the units in the way that the shooter's weapon
/// may fire over. `first` is the ordinary sight (units block it as bases, A8).
pub fn look_over(
    situation: &Situation,
    shooter: usize,
    face: &FiringFace,
    target: usize,
    nearest_in_arc: Option<(TablePoint, Inches)>,
    first: Sight,
) -> OverheadSight {
    let overhead = situation
        .profile
        .unit_weapon(&situation.scene.units[shooter])
        .map_or(Overhead::Never, |w| w.overhead());
    let mut result = OverheadSight {
        sight: first,
        over: Vec::new(),
        refused: Vec::new(),
    };
    if overhead == Overhead::Never {
        return result;
    }
    // Each look may reveal units further along that the nearer ones hid: a few rounds suffice.
    for _ in 0..8 {
        let fresh: Vec<usize> = result
            .sight
            .obstructions
            .iter()
            .filter_map(|o| match o {
                Obstruction::Unit(index) => Some(*index),
                Obstruction::Terrain(_) => None,
            })
            .filter(|i| {
                !result.over.iter().any(|o| o.index == *i)
                    && !result.refused.iter().any(|r| r.index == *i)
            })
            .collect();
        let mut passed = false;
        for unit in fresh {
            match pass_over(situation, shooter, target, unit, overhead) {
                Ok(over) => {
                    result.over.push(over);
                    passed = true;
                }
                Err(refused) => result.refused.push(refused),
            }
        }
        if !passed {
            break;
        }
        let over: Vec<usize> = result.over.iter().map(|o| o.index).collect();
        result.sight = sight_over(
            situation,
            shooter,
            &face.eye,
            target,
            &face.arc,
            nearest_in_arc,
            &over,
        );
    }
    result
}
