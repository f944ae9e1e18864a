//! Traversing fire (digest §6.11, A25): may a unit that was not charged shoot at an enemy
//! charging across its front? Only if the charger's path came within 12" and inside the unit's
//! front quarter while crossing at least half the unit's frontage. Squares and units in
//! buildings fire with the face that was crossed (A3); guns use their own small frontage.
//!
//! The path is the charger's leader going straight from where it stood to where it ends: two
//! scenes (before and after the charge), or the contact position Vedette suggests. How much of
//! the front it crossed is its leader's path projected onto the front edge (the digest's
//! reading), or — as a profile reading — the union of its footprint's projections.

use serde::Serialize;

use crate::fire_arc::{FiringFace, firing_faces};
use crate::geometry::{ConvexRegion, OrientedRect, TablePoint, fraction_inside};
use crate::profile::{Profile, TraversingReading};
use crate::quarter::Quarter;
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::Scene;
use crate::situation::Situation;
use crate::units::Inches;
use crate::vocabulary::Face;

const TRAVERSING: RuleRef = RuleRef::read_as("Traversing Targets (§6.11)", "A25");

/// Points along a charge path looked at: finer than a tape over any charge on the table.
const STEPS: usize = 400;

/// A charger crossing a unit's front (the `traversing` entries of `vedette check-move --json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraversingFire {
    /// The unit that may shoot.
    pub firer: String,
    /// The charger.
    pub charger: String,
    /// The face of a square or building that was crossed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face: Option<Quarter>,
    /// How much of the front (or face) the charge crossed within 12" and in the front quarter.
    pub crossed: Inches,
    /// The frontage (or face length).
    pub frontage: Inches,
    /// It may shoot.
    pub may_shoot: bool,
    /// Within tolerance of 12" or of half the frontage: players decide.
    pub borderline: bool,
    /// Fraction of the charger's end position still in the front quarter.
    pub end_in_front: f64,
    /// The ruling.
    pub ruling: Ruling,
}

/// A charge seen from one firing face.
struct Crossing<'a> {
    situation: &'a Situation<'a>,
    firer: usize,
    face: FiringFace,
    edge: Face,
    /// The charger's leader, from and to.
    path: (TablePoint, TablePoint),
    /// The charger's frame where it started.
    body: &'a OrientedRect,
    reading: TraversingReading,
}

/// How one face saw the charge.
struct Crossed {
    /// The stretch of the edge crossed, from and to (inches along the edge).
    from: Inches,
    to: Inches,
    /// The stretch of the leader's path within reach and in the arc.
    first: TablePoint,
    last: TablePoint,
}

impl Crossed {
    fn length(&self) -> Inches {
        self.to - self.from
    }
}

impl Crossing<'_> {
    /// The stretch of the edge that the charge crossed within `reach` and inside the arc.
    fn at(&self, reach: Inches) -> Option<Crossed> {
        crossed(self, reach)
    }
}

fn crossed(crossing: &Crossing, reach: Inches) -> Option<Crossed> {
    let Crossing {
        situation,
        firer,
        face,
        edge,
        path,
        body,
        reading,
    } = crossing;
    let footprint = &situation.scene.units[*firer].footprint;
    let (start, end) = *path;
    let offset_of = |point: &TablePoint| point - start;
    let kept: Vec<TablePoint> = (0..=STEPS)
        .map(|i| start + (end - start) * (i as f64 / STEPS as f64))
        .filter(|p| {
            let inside = match &face.arc {
                ConvexRegion::Everywhere => true,
                ConvexRegion::Wedge(wedge) => wedge.contains(p),
            };
            inside && footprint.closest_point(p).1 <= reach
        })
        .collect();
    let (first, last) = (*kept.first()?, *kept.last()?);
    let reading = *reading;
    let positions: Vec<f64> = match reading {
        TraversingReading::LeaderPath => {
            vec![edge.position_of(&first).0, edge.position_of(&last).0]
        }
        TraversingReading::FootprintUnion => kept
            .iter()
            .flat_map(|p| {
                body.corners()
                    .map(|c| edge.position_of(&(c + offset_of(p))).0)
            })
            .collect(),
    };
    let lo = positions
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        .max(0.0);
    let hi = positions
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max)
        .min(edge.length().0);
    Some(Crossed {
        from: Inches(lo),
        to: Inches(hi.max(lo)),
        first,
        last,
    })
}

/// The edge a firing face projects onto: the unit's front, or the face of a square.
fn edge_of(frame: &OrientedRect, face: &FiringFace) -> Face {
    Face::of(frame, face.face.unwrap_or(Quarter::Front))
}

/// May `firer` shoot at `charger` charging from where it stands in `situation` to `end`?
/// `None` when the charge never came within reach in front of it.
pub fn traversing_fire(
    situation: &Situation,
    firer: usize,
    charger: usize,
    end: &OrientedRect,
) -> Option<TraversingFire> {
    let profile = situation.profile;
    let firer_unit = &situation.scene.units[firer];
    let charger_unit = &situation.scene.units[charger];
    let reach = profile.distances().traversing;
    let tolerance = profile.tolerance().distance;
    let reading = profile.readings().traversing_fire;
    let frame = firer_unit.footprint.frame();
    let path = (charger_unit.footprint.leader(), end.front_center());
    let body = charger_unit.footprint.frame();
    // Each face that shoots on its own is looked at; the one crossed the most fires.
    let (crossing, seen) = firing_faces(firer_unit, profile)
        .into_iter()
        .filter_map(|face| {
            let crossing = Crossing {
                situation,
                firer,
                edge: edge_of(frame, &face),
                face,
                path,
                body,
                reading,
            };
            let seen = crossing.at(reach)?;
            Some((crossing, seen))
        })
        .max_by(|a, b| a.1.length().0.total_cmp(&b.1.length().0))?;
    let covered = seen.length();
    let need = crossing.face.frontage / 2.0;
    let enough = |r: Inches| crossing.at(r).is_some_and(|c| c.length() >= need);
    let borderline = (covered - need).abs() <= tolerance
        || enough(reach - tolerance) != enough(reach + tolerance);
    let may_shoot = covered >= need;
    let (face, edge) = (&crossing.face, &crossing.edge);
    let Crossed {
        from,
        to,
        first,
        last,
    } = seen;
    let front = match &face.arc {
        ConvexRegion::Everywhere => ConvexRegion::Wedge(Quarter::Front.region(frame)),
        arc => *arc,
    };
    let end_in_front = fraction_inside(&front, std::slice::from_ref(end));
    let shoots = profile
        .unit_weapon(firer_unit)
        .is_some_and(|w| w.range().is_some())
        && profile.formation_shoots(firer_unit.formation);
    let engaged = situation.units[firer].engaged;
    let may_shoot = may_shoot && shoots && !engaged;
    let who = face.who(firer_unit);
    let frontage = face.frontage;
    let mut explanation = if !shoots {
        format!(
            "{who} cannot shoot, so it has no traversing fire at {}.",
            charger_unit.name
        )
    } else if engaged {
        format!("{who} is engaged in hand-to-hand combat: no traversing fire.")
    } else if may_shoot {
        format!(
            "{who} may shoot at {} as it charges across its front: {} of its {} frontage crossed within {reach} and in its front quarter (half is {}). It uses up its closing fire this turn; +1 only if the charger is within {}.",
            charger_unit.name,
            profile.length(covered.rounded()),
            profile.length(frontage.rounded()),
            profile.length((frontage / 2.0).rounded()),
            profile.length(profile.distances().close_range),
            reach = profile.length(reach)
        )
    } else {
        format!(
            "{who} may not shoot at {} as it charges: only {} of its {} frontage crossed within {reach} and in its front quarter (it needs half, {}).",
            charger_unit.name,
            profile.length(covered.rounded()),
            profile.length(frontage.rounded()),
            profile.length((frontage / 2.0).rounded()),
            reach = profile.length(reach)
        )
    };
    if may_shoot && end_in_front < 0.5 {
        explanation.push_str(
            " The charger ends mostly outside its front quarter: the shots are resolved at the end of its move, and it counts as in the flank where most of it lies.",
        );
    }
    if borderline && shoots && !engaged {
        explanation.push_str(
            " Within tolerance of 12\" or of half the frontage: borderline — players decide.",
        );
    }
    let ruling = Ruling {
        topic: Topic::Shooting,
        unit: firer_unit.id.clone(),
        other: Some(charger_unit.id.clone()),
        decision: Decision::permit(may_shoot, borderline && shoots && !engaged),
        rule: TRAVERSING,
        figures: vec![
            Figure::inches("crossed", covered),
            Figure::inches("frontage", frontage),
            Figure::fraction("end in front", end_in_front),
        ],
        explanation,
        shapes: vec![
            Shape::segment(
                ShapeRole::Measure,
                &first,
                &last,
                situation.profile.length(covered.rounded()).to_string(),
            ),
            Shape::segment(
                ShapeRole::Zone,
                &edge.point_at(from),
                &edge.point_at(to),
                "crossed",
            ),
        ],
    };
    Some(TraversingFire {
        firer: firer_unit.id.clone(),
        charger: charger_unit.id.clone(),
        face: face.face,
        crossed: covered.rounded(),
        frontage,
        may_shoot,
        borderline: borderline && shoots && !engaged,
        end_in_front: (end_in_front * 1000.0).round() / 1000.0,
        ruling,
    })
}

/// Every traversing fire in a move from `before` to `after`: a charger is a unit that ends
/// touching an enemy it was not touching; every other enemy whose front it crossed may fire.
pub fn traversing_fire_in(before: &Scene, after: &Scene, profile: &Profile) -> Vec<TraversingFire> {
    let was = Situation::new(before, profile);
    let now = Situation::new(after, profile);
    let mut fires = Vec::new();
    for (charger, unit) in before.units.iter().enumerate() {
        let Some(moved) = after.units.iter().position(|u| u.id == unit.id) else {
            continue;
        };
        let touching_before: Vec<&str> = was
            .in_contact_with(charger)
            .map(|e| before.units[e].id.as_str())
            .collect();
        let targets: Vec<&str> = now
            .in_contact_with(moved)
            .map(|e| after.units[e].id.as_str())
            .filter(|id| !touching_before.contains(id))
            .collect();
        if targets.is_empty() {
            continue;
        }
        let end = *after.units[moved].footprint.frame();
        for firer in was.enemies_of(charger) {
            if targets.contains(&firer.unit.id.as_str()) {
                continue;
            }
            if let Some(fire) = traversing_fire(&was, firer.index, charger, &end) {
                fires.push(fire);
            }
        }
    }
    fires
}
