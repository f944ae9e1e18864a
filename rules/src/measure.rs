//! The basic measurements behind `vedette measure`: for every unit, where it is and how far it
//! moves and shoots; for every ordered pair of enemies, how far apart they are, where the first
//! stands relative to the second, how much of the second lies in the first's fire arc, and
//! whether it is in range. Nothing within the profile's tolerance of a threshold is decided
//! silently: such cases are listed as [`Borderline`].

use serde::Serialize;

use crate::fire_arc::{fire_arc, one_front};
use crate::geometry::{ConvexRegion, TablePoint, clip};
use crate::profile::{Profile, RulesetId, WeaponRef};
use crate::quarter::{Quarter, QuarterReading, QuarterScheme, classify_with};
use crate::scene::{Formation, Scene, Unit, UnitKind};
use crate::text::possessive;
use crate::units::{Degrees, Inches, LengthScale, written_in};

/// Everything `vedette measure` reports for a scene. Serialized, every length and table
/// position is in the ruleset's unit, named once at the top (`length_unit`).
#[derive(Clone, Debug)]
pub struct Measurements {
    /// The ruleset the numbers follow.
    pub ruleset: RulesetId,
    /// Its unit, which the serialized report speaks.
    pub lengths: LengthScale,
    /// One summary per unit, in scene order.
    pub units: Vec<UnitSummary>,
    /// One entry per ordered pair of units on different sides.
    pub pairs: Vec<PairMeasurement>,
}

impl Serialize for Measurements {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        written_in(self.lengths, || {
            let mut report = serializer.serialize_struct("Measurements", 4)?;
            report.serialize_field("ruleset", &self.ruleset)?;
            report.serialize_field("length_unit", &self.lengths.unit)?;
            report.serialize_field("units", &self.units)?;
            report.serialize_field("pairs", &self.pairs)?;
            report.end()
        })
    }
}

/// A unit's position and reach.
#[derive(Clone, Debug, Serialize)]
pub struct UnitSummary {
    /// Unit id.
    pub id: String,
    /// Unit name.
    pub name: String,
    /// Its side.
    pub side: String,
    /// Infantry, cavalry, artillery.
    pub kind: UnitKind,
    /// Its formation.
    pub formation: Formation,
    /// The leader point (front-edge midpoint), table inches (written in the report's unit).
    #[serde(serialize_with = "crate::geometry::xy::written_point")]
    pub leader: TablePoint,
    /// Facing, degrees counter-clockwise from +x.
    pub facing: Degrees,
    /// Width of the quarter frame.
    pub frontage: Inches,
    /// Depth of the quarter frame.
    pub depth: Inches,
    /// One move.
    pub move_allowance: Inches,
    /// Weapon id, if any.
    pub weapon: Option<String>,
    /// Maximum range of the weapon, if it shoots.
    pub weapon_range: Option<Inches>,
    /// Whether the formation may shoot (march columns and limbered guns may not).
    pub can_shoot: bool,
    /// The closest enemy, base edge to base edge.
    pub nearest_enemy: Option<NearestEnemy>,
}

/// The closest enemy unit.
#[derive(Clone, Debug, Serialize)]
pub struct NearestEnemy {
    /// Its id.
    pub id: String,
    /// Base edge to base edge.
    pub edge_distance: Inches,
}

/// How one unit (`from`) stands relative to an enemy (`to`).
#[derive(Clone, Debug, Serialize)]
pub struct PairMeasurement {
    /// The measuring unit.
    pub from: String,
    /// The unit measured to.
    pub to: String,
    /// Closest base edge to base edge; 0 when touching (digest A4).
    pub edge_distance: Inches,
    /// From `from`'s leader point to the closest point of `to` (from its front edge where the
    /// ruleset measures between the units: then the edge distance).
    pub range: Inches,
    /// From where `from`'s ranges are measured (its leader, or its front edge) to the closest
    /// point of `to` inside `from`'s fire arc (digest A5); absent when no part of `to` is in
    /// the arc.
    pub range_in_arc: Option<Inches>,
    /// The quarter of `to` in which `from`'s leader stands, as the rules see it (skirmishers
    /// have only a front, squares four fronts).
    pub target_quarter: Quarter,
    /// The geometric side of `to` the leader stands on (differs from `target_quarter` only for
    /// skirmishers and squares).
    pub target_face: Quarter,
    /// Fraction of `to`'s base area inside `from`'s fire arc (digest A7).
    pub arc_fraction: f64,
    /// `from`'s weapon range, if it has one.
    pub weapon_range: Option<Inches>,
    /// Whether some part of `to` in the arc is within the weapon's range (and not inside its
    /// minimum range).
    pub in_range: bool,
    /// The answers above that are too close to call.
    pub borderline: Vec<Borderline>,
}

/// Which measurement is too close to call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BorderlineKind {
    /// The leader is within tolerance of a quarter boundary ray.
    Quarter,
    /// The range in the arc is within tolerance of the weapon's maximum or minimum range.
    Range,
}

/// A measurement within tolerance of its threshold: "borderline — players decide".
#[derive(Clone, Debug, Serialize)]
pub struct Borderline {
    /// What is borderline.
    pub kind: BorderlineKind,
    /// How far from the threshold (inches).
    pub margin: Inches,
    /// In plain English.
    pub explanation: String,
}

/// Measure a scene with its ruleset's built-in profile at the scene's distance scale.
pub fn measure(scene: &Scene) -> Measurements {
    measure_with(scene, &scene.profile())
}

/// Measure a scene with a given profile (e.g. one with a distance scale).
pub fn measure_with(scene: &Scene, profile: &Profile) -> Measurements {
    let units = scene
        .units
        .iter()
        .map(|u| summarize(u, profile, nearest_enemy(scene, u)))
        .collect();
    let pairs = scene
        .units
        .iter()
        .flat_map(|from| {
            scene
                .units
                .iter()
                .filter(move |to| to.side != from.side)
                .map(move |to| measure_pair(from, to, profile))
        })
        .collect();
    Measurements {
        ruleset: profile.id(),
        lengths: profile.length_scale(),
        units,
        pairs,
    }
}

/// The closest enemy of a unit, by brute force (the rulings use a pruned search).
fn nearest_enemy<'s>(scene: &'s Scene, unit: &Unit) -> Option<(&'s Unit, Inches)> {
    scene
        .units
        .iter()
        .filter(|other| other.side != unit.side)
        .map(|other| (other, unit.footprint.gap_to(&other.footprint)))
        .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
}

pub(crate) fn summarize(
    unit: &Unit,
    profile: &Profile,
    nearest: Option<(&Unit, Inches)>,
) -> UnitSummary {
    let frame = unit.footprint.frame();
    let leader = unit.footprint.leader();
    let weapon = profile.unit_weapon(unit);
    let nearest_enemy = nearest.map(|(other, gap)| NearestEnemy {
        id: other.id.clone(),
        edge_distance: gap,
    });
    UnitSummary {
        id: unit.id.clone(),
        name: unit.name.clone(),
        side: unit.side.clone(),
        kind: unit.kind,
        formation: unit.formation,
        leader,
        facing: Degrees(round(frame.facing().0)),
        frontage: frame.width(),
        depth: frame.depth(),
        move_allowance: profile.unit_move(unit),
        weapon: unit.weapon.clone(),
        weapon_range: weapon.as_ref().and_then(|w| w.range()),
        can_shoot: weapon.as_ref().is_some_and(|w| w.range().is_some())
            && profile.formation_shoots(unit.formation),
        nearest_enemy,
    }
}

fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// How much of `to` lies in `from`'s fire arc, and the range to the nearest part of it there.
pub(crate) struct InArc {
    /// Fraction of the base area in the arc.
    pub fraction: f64,
    /// Range to the nearest part in the arc, from where the unit's ranges are measured.
    pub range: Option<Inches>,
}

/// How much of `to` lies in `arc`, `from`'s fire arc.
pub(crate) fn in_arc(from: &Unit, to: &Unit, arc: &ConvexRegion, profile: &Profile) -> InArc {
    let clipped = clip(arc, to.footprint.stands());
    InArc {
        fraction: clipped.fraction(),
        range: one_front(from, profile, *arc)
            .tape_to(&clipped)
            .map(|tape| tape.length),
    }
}

/// Measure one ordered pair of units, enemies or friends: what `vedette measure` reports for
/// each enemy pair, and what the app's tape measure shows for any two units.
pub fn measure_pair(from: &Unit, to: &Unit, profile: &Profile) -> PairMeasurement {
    let gap = from.footprint.gap_to(&to.footprint);
    let weapon = profile.unit_weapon(from);
    let arc = in_arc(from, to, &fire_arc(from, profile), profile);
    measure_pair_in_arc(from, to, profile, weapon, arc, gap)
}

/// Measure a pair whose arc clipping is already known; `weapon` is `from`'s.
pub(crate) fn measure_pair_in_arc(
    from: &Unit,
    to: &Unit,
    profile: &Profile,
    weapon: Option<WeaponRef<'_>>,
    arc: InArc,
    gap: Inches,
) -> PairMeasurement {
    let leader = from.footprint.leader();
    let range = if profile.ranges_from_front_edge() {
        gap
    } else {
        to.footprint.closest_point(&profile.range_origin(from)).1
    };
    let range_in_arc = arc.range;
    let reading = classify_with(to.footprint.frame(), &leader, profile.quarter_rays());
    let scheme = profile.quarter_scheme(to.formation);
    let max_range = weapon.and_then(|w| w.range());
    let minimum = weapon
        .as_ref()
        .and_then(|w| w.minimum())
        .unwrap_or(Inches::ZERO);
    let in_range = match (max_range, range_in_arc) {
        (Some(max), Some(r)) => r <= max && r >= minimum,
        _ => false,
    };

    let mut borderline = Vec::new();
    if let Some(b) = quarter_borderline(from, to, &reading, scheme, profile) {
        borderline.push(b);
    }
    if let (Some(max), Some(r)) = (max_range, range_in_arc) {
        borderline.extend(range_borderline(from, to, r, max, minimum, profile));
    }

    PairMeasurement {
        from: from.id.clone(),
        to: to.id.clone(),
        edge_distance: gap,
        range,
        range_in_arc,
        target_quarter: scheme.rule_quarter_at(reading.face, to.footprint.frame(), &leader),
        target_face: reading.face,
        // Adding +0.0 turns a rounded -0.0 into 0.0.
        arc_fraction: (arc.fraction * 1000.0).round() / 1000.0 + 0.0,
        weapon_range: max_range,
        in_range,
        borderline,
    }
}

fn quarter_borderline(
    from: &Unit,
    to: &Unit,
    reading: &QuarterReading,
    scheme: QuarterScheme,
    profile: &Profile,
) -> Option<Borderline> {
    let tolerance = profile.tolerance();
    if scheme == QuarterScheme::AllFront {
        return None;
    }
    if reading.inside_footprint {
        return Some(Borderline {
            kind: BorderlineKind::Quarter,
            margin: reading.margin.distance.abs().rounded(),
            explanation: format!(
                "{} leader is inside {} footprint (the bases overlap); nearest is its {}: borderline — players decide",
                possessive(&from.name),
                possessive(&to.name),
                reading.face.describe()
            ),
        });
    }
    let margin = reading.margin;
    let close = margin.distance <= tolerance.distance || margin.angle <= tolerance.angle;
    close.then(|| Borderline {
        kind: BorderlineKind::Quarter,
        margin: margin.distance.rounded(),
        explanation: format!(
            "{} leader is {} and {:.1}° from the corner ray bounding {} {}: borderline — players decide",
            possessive(&from.name),
            profile.length(margin.distance.rounded()),
            margin.angle.0,
            possessive(&to.name),
            reading.face.describe()
        ),
    })
}

fn range_borderline(
    from: &Unit,
    to: &Unit,
    range: Inches,
    max: Inches,
    minimum: Inches,
    profile: &Profile,
) -> Vec<Borderline> {
    let tolerance = profile.tolerance();
    let limits = [("maximum", max), ("minimum", minimum)];
    limits
        .into_iter()
        .filter(|(_, limit)| *limit > Inches::ZERO)
        .filter(|(_, limit)| (range - *limit).abs() <= tolerance.distance)
        .map(|(which, limit)| Borderline {
            kind: BorderlineKind::Range,
            margin: (range - limit).abs().rounded(),
            explanation: format!(
                "{} is {} from {} {}, within {} of its {which} range of {}: borderline — players decide",
                to.name,
                profile.length(range.rounded()),
                possessive(&from.name),
                profile.range_origin_words(from),
                profile.length(tolerance.distance),
                profile.length(limit)
            ),
        })
        .collect()
}
