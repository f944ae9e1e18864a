//! A unit whose stands are only partly seen (a hand, a figure or a wood over some tags).
//!
//! Decisions:
//! - A unit placed from some of its stands alone is the wrong shape and in the wrong place (a
//!   line of four seen by one stand is a quarter of its frontage, its centre inches off), so it
//!   is placed only when its formation says where the unseen stands are: a line stands abreast,
//!   touching, left to right in the roster's order; a march column one behind another, front to
//!   back. The seen stands must agree with that (within [`AGREEMENT`] and [`TURN_AGREEMENT`]), or
//!   the unit has been re-formed and nothing is guessed.
//! - Any other formation, or a unit whose seen stands disagree, is left off the table and named,
//!   with its unseen stands, rather than placed wrong without a word.
//! - A stand filled in is as uncertain as the stand it is placed from, that stand's facing
//!   swinging it at the length of the arm between them, and more by how loosely a real unit
//!   keeps its formation (at least [`FORMATION_SLACK`] a stand, or what its seen stands show).

use nalgebra::Matrix2;
use rules::geometry::{TableVector, angle_between, heading};
use rules::scene::{Formation, StandDoc};
use rules::uncertainty::PlaceSd;
use rules::units::{Degrees, Inches};
use serde::Serialize;

use roster::{RosterStand, RosterUnit};

/// How far a seen stand may be from where its formation puts it, inches (the rules' half-inch
/// tolerance).
const AGREEMENT: f64 = 0.5;
/// How far a seen stand may be turned from its formation's facing, degrees.
const TURN_AGREEMENT: f64 = 5.0;

/// A unit seen by some of its stands' tags and not others.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartialUnit {
    /// The unit.
    pub unit: String,
    /// The stands not seen: their place in the roster (from 1) and their tag.
    pub unseen_stands: Vec<(usize, u32)>,
    /// Whether the unit was placed, its unseen stands filled in from its formation; if not,
    /// why not.
    pub placed: Result<Formation, String>,
}

impl std::fmt::Display for PartialUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let stands: Vec<String> = self
            .unseen_stands
            .iter()
            .map(|(place, tag)| format!("{place} (tag {tag})"))
            .collect();
        write!(f, "{}: stand(s) {} not seen", self.unit, stands.join(", "))?;
        match &self.placed {
            Ok(formation) => write!(
                f,
                "; filled in from its {} — its rulings rest on a partial sighting",
                formation.as_str()
            ),
            Err(why) => write!(f, "; left off the table: {why}"),
        }
    }
}

/// The unit's stands, the unseen ones filled in from its formation (which is returned too),
/// given the seen ones by their place in the roster; or why that cannot soundly be done.
pub fn fill_in(
    unit: &RosterUnit,
    seen: &[(usize, StandDoc)],
) -> Result<(Vec<StandDoc>, Formation), String> {
    let formation = unit
        .formation
        .ok_or("its formation is not given in the roster, so where the others stand is unknown")?;
    let step: fn(&RosterStand, &RosterStand) -> (f64, f64) = match formation {
        // Abreast: the next stand's centre is half of each frontage to the right.
        Formation::Line => |a, b| ((a.width + b.width) / 2.0, 0.0),
        // One behind another: half of each depth to the rear.
        Formation::MarchColumn => |a, b| (0.0, -(a.depth + b.depth) / 2.0),
        other => {
            return Err(format!(
                "in {} its stands have no set places to fill in from",
                other.as_str()
            ));
        }
    };
    let (first, reference) = seen.first().ok_or("none of its stands was seen")?;
    // Each stand's offset from the first stand's centre, in its own frame (right, front).
    let mut offsets = vec![(0.0, 0.0); unit.stands.len()];
    for i in 1..unit.stands.len() {
        let (right, front) = step(&unit.stands[i - 1], &unit.stands[i]);
        offsets[i] = (offsets[i - 1].0 + right, offsets[i - 1].1 + front);
    }
    let facing = Degrees(reference.facing);
    let (forward, origin) = (heading(facing), reference.center);
    let right = rules::geometry::TableVector::new(forward.y, -forward.x);
    let place = |i: usize| {
        let (dx, dy) = (
            offsets[i].0 - offsets[*first].0,
            offsets[i].1 - offsets[*first].1,
        );
        origin + right * dx + forward * dy
    };
    let mut slack = Slack::default();
    for (i, stand) in seen {
        let off = (stand.center - place(*i)).norm();
        let turn = angle_between(heading(Degrees(stand.facing)), forward).0;
        if off > AGREEMENT || turn > TURN_AGREEMENT {
            return Err(format!(
                "stand {} is {off:.1}\" and {turn:.0}° from where its {} puts it: the unit has been re-formed",
                i + 1,
                formation.as_str()
            ));
        }
        slack.add(i.abs_diff(*first), off, turn);
    }
    let from = reference.sd.as_ref().map(PlaceSd::from_doc);
    let stands = (0..unit.stands.len())
        .map(|i| match seen.iter().find(|(j, _)| *j == i) {
            Some((_, stand)) => stand.clone(),
            None => {
                let at = place(i);
                StandDoc {
                    center: at,
                    facing: facing.0,
                    width: unit.stands[i].width,
                    depth: unit.stands[i].depth,
                    sd: from.map(|sd| slack.filled(&sd, at - origin, i.abs_diff(*first)).to_doc()),
                }
            }
        })
        .collect();
    Ok((stands, formation))
}

/// How far a real formation's stands stand from where the formation puts them, per stand
/// along it, one standard deviation: stands set touching leave a gap of a millimetre or two, or
/// sit a little forward or back of their neighbour.
const FORMATION_SLACK: Inches = Inches(0.1);
/// How far a stand of a formation is turned from its neighbours, one standard deviation.
const TURN_SLACK: Degrees = Degrees(2.0);

/// How loosely a unit keeps its formation: the least believed of any unit, or what its seen
/// stands show, whichever is more.
#[derive(Default)]
struct Slack {
    /// Σ of the seen stands' squared distance from their place per stand step, per axis.
    place: f64,
    /// Σ of their squared turn, square degrees.
    turn: f64,
    /// How many stands besides the reference were seen.
    count: usize,
}

impl Slack {
    /// A seen stand `steps` stands from the reference, `off` inches and `turn` degrees from where
    /// the formation puts it (the reference itself adds nothing).
    fn add(&mut self, steps: usize, off: f64, turn: f64) {
        if steps > 0 {
            self.place += off * off / (2.0 * steps as f64);
            self.turn += turn * turn;
            self.count += 1;
        }
    }

    /// How far a stand filled in `arm` from the reference's centre, `steps` stands along, may
    /// be off: the reference's place, its facing swinging the arm, and the formation's slack
    /// over each stand between.
    fn filled(&self, reference: &PlaceSd, arm: TableVector, steps: usize) -> PlaceSd {
        let shown = |sum: f64| sum / self.count.max(1) as f64;
        let place = shown(self.place).max(FORMATION_SLACK.0 * FORMATION_SLACK.0);
        let turn = shown(self.turn).max(TURN_SLACK.0 * TURN_SLACK.0);
        let centre = reference.covariance_at(arm) + Matrix2::identity() * (place * steps as f64);
        PlaceSd::new(centre, Degrees(reference.facing().0.hypot(turn.sqrt())))
    }
}

#[cfg(test)]
mod tests {
    use rules::geometry::TablePoint;
    use rules::scene::UnitKind;

    use super::*;

    /// A unit of four 2"×1" stands, in `formation`.
    fn unit(formation: Option<Formation>) -> RosterUnit {
        let stand = |tag| RosterStand {
            tag,
            width: 2.0,
            depth: 1.0,
            tag_offset: roster::TagOffset::CENTRED,
            tag_turn: 0.0,
            tag_size: None,
            tag_height: None,
        };
        RosterUnit {
            id: "45th-foot".into(),
            name: None,
            side: "british".into(),
            kind: UnitKind::Infantry,
            formation,
            weapon: None,
            brigade: None,
            size: None,
            stats: None,
            stands: (10..14).map(stand).collect(),
        }
    }

    /// Stand `i` of a line facing +y whose left stand's centre is at (10, 20).
    fn in_line(i: usize) -> StandDoc {
        StandDoc {
            center: TablePoint::new(10.0 + 2.0 * i as f64, 20.0),
            facing: 90.0,
            width: 2.0,
            depth: 1.0,
            sd: None,
        }
    }

    #[test]
    fn a_line_seen_by_some_stands_is_completed_where_its_other_stands_are() {
        let truth: Vec<StandDoc> = (0..4).map(in_line).collect();
        for seen in [vec![1, 3], vec![2], vec![0, 1, 2]] {
            let seen: Vec<(usize, StandDoc)> =
                seen.iter().map(|&i| (i, truth[i].clone())).collect();
            let (stands, formation) = fill_in(&unit(Some(Formation::Line)), &seen).expect("filled");
            assert_eq!(formation, Formation::Line);
            for (got, want) in stands.iter().zip(&truth) {
                assert!(
                    (got.center - want.center).norm() < 1e-9,
                    "{got:?} vs {want:?}"
                );
                assert!((got.facing - want.facing).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn a_march_column_is_completed_front_to_back() {
        let head = StandDoc {
            center: TablePoint::new(30.0, 30.0),
            facing: 0.0,
            width: 2.0,
            depth: 1.0,
            sd: None,
        };
        let (stands, _) =
            fill_in(&unit(Some(Formation::MarchColumn)), &[(0, head)]).expect("filled");
        // Facing +x: the stands behind lie towards −x, a depth apart.
        let xs: Vec<f64> = stands.iter().map(|s| s.center.x).collect();
        assert_eq!(xs, vec![30.0, 29.0, 28.0, 27.0]);
    }

    #[test]
    fn a_unit_is_not_guessed_when_its_formation_does_not_say_or_its_stands_disagree() {
        let seen = [(0, in_line(0)), (2, in_line(2))];
        for formation in [None, Some(Formation::Skirmish), Some(Formation::Square)] {
            assert!(fill_in(&unit(formation), &seen).is_err(), "{formation:?}");
        }
        let mut moved = in_line(2);
        moved.center.y += 2.0;
        let why = fill_in(&unit(Some(Formation::Line)), &[(0, in_line(0)), (2, moved)])
            .expect_err("re-formed");
        assert!(
            why.contains("stand 3 is 2.0\"") && why.contains("re-formed"),
            "{why}"
        );
    }
}
