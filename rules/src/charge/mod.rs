//! Charges (digest §7.1–§7.4, A20–A23, A26): who may charge whom, whether the leader reaches,
//! which face is hit, whether the target may give closing fire, whether there is room on the
//! face, where the charger would stand — and whether two units seen on the table are in contact.

mod contact;

pub use crate::vocabulary::Face;
pub use contact::contact_rulings;

use parry2d_f64::bounding_volume::BoundingVolume;
use serde::Serialize;

use crate::geometry::{OrientedRect, TablePoint, Tape, facing_of};
use crate::profile::ChargesNearEnemy;
use crate::quarter::{Quarter, QuarterScheme, classify};
use crate::retire::{Outcome, Withdrawal, evade, may_evade};
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::scene::{Formation, Unit, UnitKind};
use crate::situation::Situation;
use crate::units::Inches;
use crate::visibility::{can_see, can_see_past};
use crate::vocabulary::TerrainKind;

const MEASURING: RuleRef = RuleRef::read_as("Measuring the Charge (§7.2)", "A20");
const WHICH_FACE: RuleRef = RuleRef::read_as("Position the Charging Unit (§7.3)", "A21");
const FORBIDDEN: RuleRef = RuleRef::book("Troops Forbidden from Charging (§7.1)");
const TERRAIN: RuleRef = RuleRef::book("Terrain (§4.5)");
const SECOND_CHARGER: RuleRef = RuleRef::read_as("How many Units can Contact? (§7.4)", "A23");
const NEAR_ENEMY: RuleRef = RuleRef::read_as("Proximity of Enemy (§4.2)", "A18");

/// A charge from one unit at one enemy (the `charge` object of a pair in `vedette rulings`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChargeAssessment {
    /// Whether the charge can be made and reaches.
    pub reachable: bool,
    /// The face it would hit (A21).
    pub face: Quarter,
    /// The move it costs: leader to the closest point (front edge to the closest point where
    /// the ruleset measures between the units), with terrain (A20).
    pub cost: Inches,
    /// The charger's move.
    pub allowance: Inches,
    /// The straight distance the charge covers, before terrain.
    pub length: Inches,
    /// Where that distance is measured from and to.
    #[serde(skip)]
    pub tape: Tape,
    /// How far the camera may have the charge's cost off, 95 % either way, when it placed
    /// both units (the tape's error bar, scaled by the ground's multiplier).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plus_minus: Option<Inches>,
    /// What the terrain added to it ("2.10" in wood-1 at ×2").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<String>,
    /// The target may answer with closing fire (A26).
    pub closing_fire: bool,
    /// The target must try to form square instead (the Form Square rule, §9.1).
    pub forms_square: bool,
    /// Within tolerance of the allowance, or of a quarter ray: players decide.
    pub borderline: bool,
    /// The charger's leader is within tolerance of a ray of the target's quarters (A21).
    pub face_borderline: bool,
    /// Why it cannot be made, if it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The rule that bars it, when it cannot be made: the prohibitions, the leader's sight
    /// (measuring the charge), terrain, or a face already fought.
    #[serde(skip)]
    pub barred_by: Option<RuleRef>,
    /// Where the charger would stand in contact (A22).
    #[serde(skip)]
    pub placement: Option<OrientedRect>,
    /// Where the target would go if it evades, when it may (§7.6, A28).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evade: Option<Withdrawal>,
    /// The 12" rule's word on it (§4.2, A18), when the charger is within 12" of an enemy and
    /// the target lies wholly in its flank quarter: barred, or borderline under the reading
    /// `charges-near-enemy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub near_enemy: Option<String>,
}

/// Why `charger` may not charge `target` at all (digest §7.1), if it may not.
fn forbidden(
    situation: &Situation,
    charger: usize,
    target: usize,
    face: Quarter,
) -> Option<String> {
    let unit = &situation.scene.units[charger];
    let enemy = &situation.scene.units[target];
    let target_engaged_front = situation.engaged_faces(target).contains(&Quarter::Front);
    let limits = &situation.profile.specials().charge_limits;
    let skirmishing = unit.formation == Formation::Skirmish;
    let steady = |u: &Unit| !u.state.disordered && !u.state.shaken;
    match () {
        _ if situation.units[charger].engaged => {
            Some("it is engaged in hand-to-hand combat".into())
        }
        _ if unit.state.shaken => Some("shaken units cannot charge".into()),
        // Disordered units cannot be ordered nor move on initiative (§6.8; BBB's list too).
        _ if unit.state.disordered => Some("disordered units cannot charge".into()),
        _ if unit.formation == Formation::MarchColumn => Some("march columns cannot charge".into()),
        _ if unit.kind == UnitKind::Artillery => Some("artillery cannot charge".into()),
        _ if unit.formation == Formation::Square => Some("squares cannot charge".into()),
        _ if !situation.profile.formation_charges(unit.formation) => Some(format!(
            "units in {} cannot charge",
            unit.formation.as_str().replace('-', " ")
        )),
        _ if skirmishing && limits.skirmishers_never => Some("skirmishers cannot charge".into()),
        _ if skirmishing
            && matches!(
                enemy.formation,
                Formation::Line
                    | Formation::ExtendedLine
                    | Formation::AttackColumn
                    | Formation::Warband
                    | Formation::Mixed
                    | Formation::Square
            )
            && !(target_engaged_front
                && matches!(
                    face,
                    Quarter::LeftFlank | Quarter::RightFlank | Quarter::Rear
                )) =>
        {
            Some(format!(
                "skirmishers cannot charge a {} unless it is already engaged to its front and they hit its flank or rear",
                enemy.formation.as_str()
            ))
        }
        _ if limits.foot_not_into_steady_horse
            && unit.kind == UnitKind::Infantry
            && enemy.kind == UnitKind::Cavalry
            && steady(enemy) =>
        {
            Some("foot cannot charge mounted troops unless they are disordered".into())
        }
        _ if limits.horse_charges_horse_first
            && unit.kind == UnitKind::Cavalry
            && enemy.kind != UnitKind::Cavalry
            && let Some(horse) = horse_in_reach(situation, charger) =>
        {
            Some(format!(
                "cavalry must charge the enemy cavalry it sees within its charge distance first ({}), unless a leader rides with the charge",
                situation.scene.units[horse].name
            ))
        }
        _ if unit.kind == UnitKind::Cavalry
            && enemy.formation == Formation::Square
            && !limits.cavalry_into_steady_square
            && steady(enemy) =>
        {
            Some(format!(
                "cavalry cannot charge a steady square: it halts {} away",
                situation
                    .profile
                    .length(situation.profile.distances().cavalry_square_halt)
            ))
        }
        _ => None,
    }
}

/// The nearest enemy cavalry `charger` sees within its charge distance, if any.
fn horse_in_reach(situation: &Situation, charger: usize) -> Option<usize> {
    let view = &situation.units[charger];
    let leader = view.unit.footprint.leader();
    let reach = view.charge_allowance;
    situation
        .enemies_of(charger)
        .filter(|e| e.unit.kind == UnitKind::Cavalry)
        .map(|e| (e.index, situation.gap(charger, e.index)))
        .filter(|(_, gap)| *gap <= reach)
        .filter(|(e, _)| can_see(situation, charger, &leader, *e).is_ok())
        .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
        .map(|(e, _)| e)
}

/// The quarter on the other side of the ray nearest to `point` (for "roll a D6" prompts).
fn neighbouring_quarter(frame: &OrientedRect, point: &TablePoint, face: Quarter) -> Quarter {
    let local = frame.to_local(point);
    match face {
        Quarter::Front | Quarter::Rear if local.across.0 < 0.0 => Quarter::LeftFlank,
        Quarter::Front | Quarter::Rear => Quarter::RightFlank,
        _ if local.ahead.0 > -frame.depth().0 / 2.0 => Quarter::Front,
        _ => Quarter::Rear,
    }
}

/// Whether the target must try to form square (§9.1): infantry with the Form Square rule,
/// charged to its front by cavalry, not engaged, and not in square or a building already.
fn must_try_square(situation: &Situation, charger: usize, target: usize, face: Quarter) -> bool {
    let enemy = situation.units[target].unit;
    situation.scene.units[charger].kind == UnitKind::Cavalry
        && enemy.kind == UnitKind::Infantry
        && face == Quarter::Front
        && !situation.units[target].engaged
        && !matches!(enemy.formation, Formation::Square | Formation::Building)
        && enemy
            .stats
            .as_ref()
            .is_some_and(|stats| stats.has_special("Form Square"))
}

/// Whether the target may answer with closing fire (A26): charged to its front (any face for
/// squares and buildings), able to shoot, not already fighting.
fn may_give_closing_fire(situation: &Situation, target: usize, face: Quarter) -> bool {
    let view = &situation.units[target];
    let unit = view.unit;
    let profile = situation.profile;
    let shoots = view.range().is_some();
    let front = face == Quarter::Front
        || profile.quarter_scheme(unit.formation) == QuarterScheme::FourFronts;
    shoots && front && profile.formation_gives_closing_fire(unit.formation) && !view.engaged
}

/// The longest stretch of `face` not already covered by the charger's friends, as (from, to).
fn free_stretch(
    situation: &Situation,
    charger: usize,
    target: usize,
    face: &Face,
) -> (Inches, Inches, bool) {
    let reach = situation.profile.distances().contact + situation.profile.tolerance().distance;
    // The charger's friends already fighting the target: those of its contacts on his side.
    let side = situation.units[charger].side;
    let mut covered: Vec<(Inches, Inches)> = situation
        .in_contact_with(target)
        .filter(|&f| f != charger && situation.units[f].side == side)
        .filter_map(|f| face.covered_by(situation.scene.units[f].footprint.stands(), reach))
        .collect();
    let occupied = !covered.is_empty();
    covered.sort_by(|a, b| a.0.0.total_cmp(&b.0.0));
    let mut best = (Inches::ZERO, Inches::ZERO);
    let mut cursor = Inches::ZERO;
    for (from, to) in covered
        .iter()
        .copied()
        .chain(std::iter::once((face.length(), face.length())))
    {
        if from - cursor > best.1 - best.0 {
            best = (cursor, from);
        }
        cursor = cursor.max(to);
    }
    (best.0, best.1, occupied)
}

/// Where the charger would stand (A22): front edge flush on the face, as much frontage in touch
/// as the free stretch allows, as little sideways as possible from where its leader is.
fn placement(charger: &Unit, face: &Face, free: (Inches, Inches)) -> OrientedRect {
    let width = charger.footprint.frame().width();
    let room = free.1 - free.0;
    let leader_at = face.position_of(&charger.footprint.leader());
    let centre = if width >= room {
        (free.0 + free.1) / 2.0
    } else {
        let lowest = free.0 + width / 2.0;
        let highest = free.1 - width / 2.0;
        leader_at.max(lowest).min(highest)
    };
    let facing = facing_of(-face.outward());
    OrientedRect::new(
        face.point_at(centre),
        facing,
        width,
        charger.footprint.frame().depth(),
    )
}

/// Why a charge is forbidden because, placed in contact as it must be (maximising contact), the
/// charger would also touch an enemy beside the target that it may not charge — the book's own
/// example: skirmishers may charge a gun, but not one standing beside a line (§7.1).
fn also_engages(
    situation: &Situation,
    charger: usize,
    target: usize,
    placement: &OrientedRect,
) -> Option<String> {
    let contact = situation.profile.distances().contact;
    let profile = situation.profile;
    situation
        .enemies_of(charger)
        .filter(|view| view.index != target)
        .filter(|view| view.unit.footprint.frame().gap_to(placement) <= contact)
        .find_map(|view| {
            let frame = view.unit.footprint.frame();
            let reading = classify(frame, &placement.front_center());
            let face = profile
                .quarter_scheme(view.unit.formation)
                .rule_quarter(reading.face);
            let why = forbidden(situation, charger, view.index, face)?;
            Some(format!(
                "in contact it would also engage {} beside it, and {why}",
                view.unit.name
            ))
        })
}

/// Assess a charge by `charger` at `target` (indices in the scene).
/// `seen`: the charger's leader is already known to see the target (from the shooting rules).
pub fn assess_charge(
    situation: &Situation,
    charger: usize,
    target: usize,
    seen: bool,
) -> ChargeAssessment {
    let profile = situation.profile;
    let unit = &situation.scene.units[charger];
    let enemy = &situation.scene.units[target];
    let leader = unit.footprint.leader();
    let reading = classify(enemy.footprint.frame(), &leader);
    let face = profile
        .quarter_scheme(enemy.formation)
        .rule_quarter(reading.face);
    let face_within = situation.quarter_plus_minus(charger, leader, target);
    let face_borderline = profile.quarter_scheme(enemy.formation) != QuarterScheme::AllFront
        && (reading.inside_footprint || situation.quarter_undecided(&reading.margin, face_within));
    let tape = profile.charge_tape(unit, enemy);
    let mut path = situation
        .terrain
        .move_cost(unit, &tape.from, &tape.to, profile);
    let allowance = match undoubled(situation, charger, target) {
        Some(why) => {
            path.notes.push(why);
            situation.units[charger].move_allowance
        }
        None => situation.units[charger].charge_allowance,
    };
    let geometric_face = Face::of(enemy.footprint.frame(), reading.face);
    let (from, to, occupied) = free_stretch(situation, charger, target, &geometric_face);
    let mut reason = forbidden(situation, charger, target, face).map(|why| (why, FORBIDDEN));
    let past = skirmishers_passed(situation, charger);
    if reason.is_none()
        && !seen
        && can_see_past(situation, charger, &leader, target, &past).is_err()
    {
        reason = Some(("its leader cannot see the target".into(), MEASURING));
    }
    if reason.is_none() {
        reason = terrain_bars(situation, charger, target, &path, &tape).map(|why| (why, TERRAIN));
    }
    if reason.is_none() && occupied {
        let face_length = geometric_face.length();
        let width = unit.footprint.frame().width();
        let room = to - from;
        if room < face_length / 2.0 || room.min(width) < width / 2.0 {
            reason = Some((
                format!(
                    "friends already fight that face and only {} of its {} is free (A23 needs half the face and half the charger's frontage)",
                    situation.profile.length(room.rounded()),
                    situation.profile.length(face_length.rounded())
                ),
                SECOND_CHARGER,
            ));
        }
    }
    let near_enemy = reason
        .is_none()
        .then(|| flank_near_enemy(situation, charger, target))
        .flatten();
    let near_borderline = match (&near_enemy, profile.readings().charges_near_enemy) {
        (Some(why), ChargesNearEnemy::Bound) => {
            reason = Some((why.clone(), NEAR_ENEMY));
            false
        }
        (Some(_), ChargesNearEnemy::Borderline) => true,
        _ => false,
    };
    let placement = placement(unit, &geometric_face, (from, to));
    // The book says it of skirmishers (§7.1); other chargers are not held to it.
    if reason.is_none() && unit.formation == Formation::Skirmish {
        reason = also_engages(situation, charger, target, &placement).map(|why| (why, FORBIDDEN));
    }
    let forms_square = must_try_square(situation, charger, target, face);
    let reaches = path.cost <= allowance;
    // Ground that costs double doubles the tape's error too.
    let plus_minus = situation
        .plus_minus(charger, tape.from, target, tape.to)
        .map(|within| within * (path.cost.0 / path.length.0.max(1e-9)).max(1.0));
    let reach_borderline = (path.cost - allowance).abs() <= situation.margin(plus_minus);
    let allowed = reason.is_none();
    let evade = (allowed && (reaches || reach_borderline) && may_evade(situation, unit, enemy))
        .then(|| evade(situation, target, charger, reading.face).0);
    ChargeAssessment {
        reachable: allowed && reaches,
        face,
        cost: path.cost,
        allowance,
        length: path.length,
        tape,
        plus_minus,
        terrain: path.notes.clone(),
        closing_fire: !forms_square && may_give_closing_fire(situation, target, face),
        forms_square,
        borderline: allowed && (face_borderline || reach_borderline || near_borderline),
        face_borderline: allowed && face_borderline,
        barred_by: reason.as_ref().map(|(_, rule)| *rule),
        reason: reason.map(|(why, _)| why),
        placement: Some(placement),
        evade,
        near_enemy,
    }
}

/// The charger's own skirmishers, which a charge passes through in a ruleset that says so
/// (they neither hide the target nor bar the way).
fn skirmishers_passed(situation: &Situation, charger: usize) -> Vec<usize> {
    if !situation
        .profile
        .specials()
        .charge_limits
        .through_friendly_skirmishers
    {
        return Vec::new();
    }
    situation
        .friends_of(charger)
        .filter(|f| f.unit.formation == Formation::Skirmish)
        .map(|f| f.index)
        .collect()
}

/// Why the ground keeps `charger` from charging `target` along `tape` (whose `path` cost is
/// worked out), if it does: terrain it may not enter, or not charge into, or a building it may
/// not assault.
fn terrain_bars(
    situation: &Situation,
    charger: usize,
    target: usize,
    path: &crate::terrain::MoveCost,
    tape: &Tape,
) -> Option<String> {
    let unit = &situation.scene.units[charger];
    if let Some(terrain) = &path.forbidden_by {
        return Some(format!("it may not enter {terrain}"));
    }
    if let Some(terrain) = situation
        .terrain
        .charge_barred_by(unit, &tape.from, &tape.to)
    {
        return Some(format!("it may not charge into {terrain}"));
    }
    // Assaulting a building is entering it: who may not enter may not assault (§4.5, "only
    // infantry may enter or assault"), though the charge stops at its wall.
    let building = situation.profile.terrain_rules(TerrainKind::Building).entry;
    (situation.scene.units[target].formation == Formation::Building
        && !crate::terrain::may_enter(building, unit))
    .then(|| format!("{} may assault a building", building.who()))
}

/// Why a charge at `target` is not doubled, where the ruleset doubles charges (BBB L473): the
/// target stands in difficult terrain, or uphill of the charger.
fn undoubled(situation: &Situation, charger: usize, target: usize) -> Option<String> {
    let view = &situation.units[charger];
    if view.charge_allowance <= view.move_allowance {
        return None;
    }
    let enemy = &situation.units[target];
    let centre = enemy.unit.footprint.frame().center();
    if let Some(piece) = situation.terrain.undoubling_charges_at(&centre) {
        return Some(format!("not doubled: the target is in {piece}"));
    }
    (situation.profile.specials().charges_uphill_undoubled && enemy.level > view.level)
        .then(|| "not doubled: the target is uphill".to_string())
}

/// The 12" rule (§4.2, A18): a unit within the proximity distance of an enemy may move only
/// into its front or rear quarter, so a target lying wholly in its flank quarter is reached only
/// by leaving both. Why, when it is so. (Rulesets with a proximity rule of their own — a zone,
/// a reaction test — say their own words and are not held to this.)
fn flank_near_enemy(situation: &Situation, charger: usize, target: usize) -> Option<String> {
    let profile = situation.profile;
    if profile.specials().proximity.is_some() {
        return None;
    }
    // The target's place first: it is cheap, and most targets are not in a flank quarter.
    let frame = situation.scene.units[charger].footprint.frame();
    let enemy = &situation.scene.units[target];
    let corners = enemy.footprint.stands().iter().flat_map(|s| s.corners());
    let in_flank = corners
        .map(|c| classify(frame, &c))
        .all(|r| !r.inside_footprint && matches!(r.face, Quarter::LeftFlank | Quarter::RightFlank));
    if !in_flank {
        return None;
    }
    let (nearest, gap) = situation.nearest_enemy(charger)?;
    (gap <= profile.proximity()).then(|| {
        format!(
            "within {} of {} ({} away), it may move only into its front or rear quarter, and {} lies wholly in its flank quarter",
            profile.length(profile.proximity()),
            situation.scene.units[nearest].name,
            profile.length(gap.rounded()),
            enemy.name
        )
    })
}

/// What a charge's cost is made of, when terrain added to it: " (8.00\" to the target; 2.10\"
/// in wood-1 at ×2)"; nothing when the cost is the distance.
fn breakdown(situation: &Situation, charge: &ChargeAssessment) -> String {
    if charge.terrain.is_empty() {
        return String::new();
    }
    format!(
        " ({} to the target; {})",
        situation.profile.length(charge.length.rounded()),
        charge.terrain.join("; ")
    )
}

/// "It may evade …", for a target that may evade the charge.
fn evade_sentence(profile: &crate::profile::Profile, name: &str, evade: &Withdrawal) -> String {
    let into = evade.quarter.describe();
    match evade.outcome {
        Outcome::Moves => format!(
            "{name} may evade: one full move ({}) into its {into} quarter, to the position shown.",
            profile.length(evade.distance.rounded())
        ),
        Outcome::Destroyed => format!(
            "{name} may evade, but its move into its {into} quarter would cross the table edge: destroyed."
        ),
        Outcome::Breaks | Outcome::Holds => format!(
            "{name} may evade, but cannot: {}.",
            evade.reason.as_deref().unwrap_or("there is no room")
        ),
    }
}

/// The ruling for a charge assessment, in plain English with its shapes.
pub fn charge_ruling(
    situation: &Situation,
    charger: usize,
    target: usize,
    charge: &ChargeAssessment,
) -> Ruling {
    let unit = &situation.scene.units[charger];
    let enemy = &situation.scene.units[target];
    let leader = unit.footprint.leader();
    let face_name = charge.face.describe();
    // A ruleset whose charges reach further than a move names the charge distance.
    let reach = if charge.allowance == situation.units[charger].move_allowance {
        "move"
    } else {
        "charge distance"
    };
    let mut explanation = match (&charge.reason, charge.reachable) {
        (Some(reason), _) => format!("{} cannot charge {}: {reason}.", unit.name, enemy.name),
        (None, true) => format!(
            "{} can charge {} in its {face_name}: the charge costs {}{} of its {} {reach}.",
            unit.name,
            enemy.name,
            situation.length_within(charge.cost, charge.plus_minus),
            breakdown(situation, charge),
            situation.profile.length(charge.allowance)
        ),
        (None, false) => format!(
            "{} cannot reach {}: the charge costs {}{}, more than its {} {reach}.",
            unit.name,
            enemy.name,
            situation.length_within(charge.cost, charge.plus_minus),
            breakdown(situation, charge),
            situation.profile.length(charge.allowance)
        ),
    };
    let in_play = charge.reachable || charge.borderline;
    let answer = &situation.profile.specials().answer_fire;
    if in_play && charge.closing_fire && !answer.is_empty() {
        explanation.push_str(&format!(" {} {answer}.", enemy.name));
    }
    let mut figures = vec![
        Figure::inches("charge cost", charge.cost).within(charge.plus_minus),
        Figure::inches(reach, charge.allowance),
    ];
    if let Some(within) = situation.profile.responders_within().filter(|_| in_play) {
        let names = responders(situation, charger, target, within);
        if !names.is_empty() && !answer.is_empty() {
            explanation.push_str(&format!(
                " So may {}, within {} of {} and seeing the charger.",
                names.join(", "),
                situation.profile.length(within),
                enemy.name
            ));
            figures.push(Figure::inches(RESPONDERS_WITHIN, within));
        }
    }
    if in_play && charge.forms_square {
        explanation.push_str(&format!(
            " {} must try to form square (Form Square, §9.1), and gives no closing fire: roll 2D6 — a double 6 forms square disordered and the charge goes home, a double 1 leaves it disordered where it stands, anything else forms square.",
            enemy.name
        ));
    }
    if let Some(evade) = charge.evade.as_ref().filter(|_| in_play) {
        explanation.push_str(&format!(
            " {}",
            evade_sentence(situation.profile, &enemy.name, evade)
        ));
    }
    if let Some(why) = charge
        .near_enemy
        .as_ref()
        .filter(|_| charge.reason.is_none())
    {
        explanation.push_str(&format!(
            " But {why}: whether the 12\" rule binds a charge the book does not say — borderline, players decide."
        ));
    }
    let reach_borderline =
        (charge.cost - charge.allowance).abs() <= situation.margin(charge.plus_minus);
    if charge.face_borderline {
        let reading = classify(enemy.footprint.frame(), &leader);
        let other = neighbouring_quarter(enemy.footprint.frame(), &leader, reading.face);
        explanation.push_str(&format!(
            " Which face is borderline — players decide (the book: roll a D6, 1–3 {}, 4–6 {}).",
            charge.face.describe(),
            other.describe()
        ));
    } else if charge.borderline && reach_borderline {
        let why = match charge.plus_minus {
            Some(_) => {
                crate::text::capitalised(&situation.undecided(charge.plus_minus))
                    + " whether it reaches"
            }
            None => format!("Within tolerance of the {reach}: borderline"),
        };
        explanation.push_str(&format!(" {why} — players decide."));
    }
    let mut shapes = vec![Shape::segment(
        ShapeRole::Measure,
        &charge.tape.from,
        &charge.tape.to,
        situation.length_within(charge.cost, charge.plus_minus),
    )];
    if charge.reachable
        && let Some(place) = &charge.placement
    {
        shapes.push(Shape::polygon(ShapeRole::Placement, &place.corners()));
    }
    if let Some(end) = charge.evade.as_ref().and_then(|e| e.end.as_ref()) {
        shapes.push(Shape::polygon(ShapeRole::Placement, &end.corners()));
    }
    if charge.near_enemy.is_some() {
        // The quarters the 12" rule keeps the charger to.
        let frame = unit.footprint.frame();
        for quarter in [Quarter::Front, Quarter::Rear] {
            let region = quarter.region(frame).polygon(Inches(24.0));
            shapes.push(Shape::polygon(ShapeRole::Quarter, &region));
        }
    }
    Ruling {
        topic: Topic::Charge,
        unit: unit.id.clone(),
        other: Some(enemy.id.clone()),
        // `borderline` is never set for a charge that is not allowed at all.
        decision: Decision::permit(charge.reachable, charge.borderline),
        rule: if let Some(rule) = charge.barred_by {
            rule
        } else if charge.face_borderline {
            WHICH_FACE
        } else if charge.near_enemy.is_some() && !reach_borderline {
            // Borderline for the 12" rule alone: that is the rule the players decide on.
            NEAR_ENEMY
        } else {
            MEASURING
        },
        figures,
        explanation,
        shapes,
    }
}

/// The name of the figure a charge ruling gives when the charged unit's friends may answer.
pub const RESPONDERS_WITHIN: &str = "responders within";

/// The friends of a charged unit that may answer the charge with it (BPT Commander's
/// counter-initiative, §1.11): within `within` of it, not fighting, and seeing the charger.
fn responders(situation: &Situation, charger: usize, target: usize, within: Inches) -> Vec<String> {
    let view = &situation.units[target];
    let near = view.aabb.loosened(within.0);
    situation
        .units_in(near)
        .filter(|friend| {
            friend.index != target
                && friend.side == view.side
                && !friend.engaged
                && situation.gap(friend.index, target) <= within
                && can_see(
                    situation,
                    friend.index,
                    &friend.unit.footprint.leader(),
                    charger,
                )
                .is_ok()
        })
        .map(|friend| friend.unit.name.clone())
        .collect()
}
