//! One shooter, one target: can it be shot, how far is it, is it a clear target?

use serde::Serialize;

use super::FiringFace;
use super::enfilade::in_enfilade;
use super::overhead::{FiredOver, look_over};
use crate::geometry::{TablePoint, Tape, clip};
use crate::quarter::Quarter;
use crate::ruling::RuleRef;
use crate::scene::{Formation, UnitKind};
use crate::situation::Situation;
use crate::units::Inches;
use crate::visibility::{Obstruction, gap_width_over, sight};

/// Why a target is not a clear target (digest §6.4): −1 to hit, and it may be passed over for
/// a clear one.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum NotClear {
    /// In skirmish order.
    Skirmishers,
    /// Deployed artillery.
    DeployedArtillery,
    /// Less than half of it in the shooter's arc (A7).
    HalfOutOfArc {
        /// Fraction in the arc.
        fraction: f64,
    },
    /// Less than half of it can be seen (A8).
    HalfHidden {
        /// Fraction visible.
        fraction: f64,
    },
    /// In a building or in cover (A31).
    InCover {
        /// The terrain giving cover.
        terrain: String,
    },
    /// Seen only through a gap narrower than the shooter's frontage (A11).
    NarrowGap {
        /// The gap.
        width: Inches,
    },
}

use crate::units::LengthScale;

impl NotClear {
    /// In plain English, lengths in inches.
    pub fn describe(&self) -> String {
        self.describe_in(LengthScale::INCHES)
    }

    /// In plain English, lengths in a ruleset's unit.
    pub fn describe_in(&self, lengths: LengthScale) -> String {
        match self {
            NotClear::Skirmishers => "skirmishers".to_owned(),
            NotClear::DeployedArtillery => "deployed artillery".to_owned(),
            NotClear::HalfOutOfArc { fraction } => {
                format!("only {:.0}% in the arc", fraction * 100.0)
            }
            NotClear::HalfHidden { fraction } => format!("only {:.0}% visible", fraction * 100.0),
            NotClear::InCover { terrain } => format!("in cover ({terrain})"),
            NotClear::NarrowGap { width } => {
                format!(
                    "seen through a gap of {}, narrower than the shooter's frontage",
                    lengths.length(*width)
                )
            }
        }
    }
}

/// Why an enemy cannot be shot at all.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ineligible {
    /// The enemy.
    pub id: String,
    /// Its index in the scene.
    #[serde(skip)]
    pub index: usize,
    /// Why, in plain English.
    pub reason: String,
    /// Within tolerance of the limit that rules it out: players decide.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub borderline: bool,
    /// The face of a square or building that looked at it (A3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face: Option<Quarter>,
    /// The rule that rules it out, when it is not the target priority rule (a sighting
    /// distance is a rule of visibility).
    #[serde(skip)]
    pub rule: Option<RuleRef>,
}

/// The rule of how far anyone sees (BBB §1.8: 800 mm in the open, 200 mm inside woods …), as
/// the engine names it; a ruleset with sighting distances cites its own in its `[rules]`.
pub const SIGHTING_DISTANCE: RuleRef = RuleRef::book("Sighting distances");

impl Ineligible {
    /// Unit `index` ruled out for `reason`.
    pub fn new(situation: &Situation, index: usize, reason: String) -> Ineligible {
        let id = situation.scene.units[index].id.clone();
        Ineligible {
            id,
            index,
            reason,
            borderline: false,
            face: None,
            rule: None,
        }
    }

    /// Out of range by `range` against `limit`, borderline within the margin of the length
    /// (the camera's error bar, when it measured it, else the profile's tolerance).
    fn out_of_range(
        situation: &Situation,
        index: usize,
        what: &str,
        range: Inches,
        plus_minus: Option<Inches>,
        limit: Inches,
    ) -> Ineligible {
        let borderline = range - limit <= situation.margin(plus_minus);
        let note = if borderline {
            " — borderline, players decide"
        } else {
            ""
        };
        let reason = format!(
            "out of range: {} to its {what}, maximum {limit}{note}",
            situation.length_within(range, plus_minus),
            limit = situation.profile.length(limit)
        );
        Ineligible {
            borderline,
            ..Ineligible::new(situation, index, reason)
        }
    }
}

/// Range bands (digest §6.6, §6.12, A14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RangeBand {
    /// Small arms at 6" or less: +1 to hit.
    Close,
    /// Small arms beyond 6".
    Long,
    /// Artillery at 6" or less.
    Short,
    /// Artillery beyond 6", up to half its maximum.
    Medium,
    /// Artillery beyond half its maximum: −1 to hit.
    ArtilleryLong,
}

impl RangeBand {
    /// In the ruleset's own words.
    pub fn describe(self, words: &crate::profile::BandWords) -> &str {
        match self {
            RangeBand::Close => &words.close,
            RangeBand::Long => &words.long,
            RangeBand::Short => &words.short,
            RangeBand::Medium => &words.medium,
            RangeBand::ArtilleryLong => &words.artillery_long,
        }
    }
}

/// Everything about one shooter and one enemy that shooting rules need.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assessment {
    /// The enemy.
    pub id: String,
    /// Its index in the scene.
    #[serde(skip)]
    pub index: usize,
    /// Range from the leader to the closest visible part in the arc (A5), or from the front
    /// edge to the closest part in the arc where a ruleset measures between the units.
    pub range: Inches,
    /// That range, from where it is measured to where.
    #[serde(skip)]
    pub tape: Tape,
    /// How far the camera may have the range off, 95 % either way, when it placed both units.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plus_minus: Option<Inches>,
    /// Fraction of the enemy in the arc.
    pub arc_fraction: f64,
    /// How far the camera may have that fraction off, 95 % either way, when it placed both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arc_plus_minus: Option<f64>,
    /// Fraction of the enemy in view.
    pub visible_fraction: f64,
    /// Why it is not a clear target (empty: clear).
    pub not_clear: Vec<NotClear>,
    /// Its range band.
    pub band: RangeBand,
    /// The shooter's leader is in its enfilade corridor: double dice.
    pub enfilade: bool,
    /// The units the shot passes over (guns only, A40).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overhead: Vec<FiredOver>,
    /// The face of a square or building that shoots at it, from its own midpoint (A3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face: Option<Quarter>,
}

impl Assessment {
    /// A clear target.
    pub fn is_clear(&self) -> bool {
        self.not_clear.is_empty()
    }
}

fn band(situation: &Situation, artillery: bool, range: Inches, max: Inches) -> RangeBand {
    let profile = situation.profile;
    // Small arms' close band ends at half their range in some rulesets (BBB's +2 beyond it,
    // BPT Commander's +1 die within it), at a fixed distance in others.
    let close = if profile.band_words().close_at_half_range && !artillery {
        max / 2.0
    } else {
        profile.distances().close_range
    };
    match (artillery, range <= close) {
        (false, true) => RangeBand::Close,
        (false, false) => RangeBand::Long,
        (true, true) => RangeBand::Short,
        (true, false) if range <= max / 2.0 => RangeBand::Medium,
        (true, false) => RangeBand::ArtilleryLong,
    }
}

/// The shortest sight that ground sets between `eye` and `target` (BBB §1.8: 200 mm inside
/// open woods, 50 mm looking into them, 300 mm in rough ground), with the piece that sets it.
fn terrain_sight_cap<'s>(
    situation: &'s Situation,
    eye: &TablePoint,
    target: usize,
) -> Option<(Inches, &'s str)> {
    let profile = situation.profile;
    let centre = situation.scene.units[target].footprint.frame().center();
    situation
        .terrain
        .pieces()
        .iter()
        .filter_map(|piece| {
            let inside = piece.rules.sight_inside?;
            let (eye_in, target_in) = (piece.contains(eye), piece.contains(&centre));
            let limit = match (eye_in, target_in) {
                (false, false) => return None,
                (false, true) => piece.rules.sight_into.unwrap_or(inside),
                _ => inside,
            };
            Some((profile.scaled(limit), piece.id.as_str()))
        })
        .min_by(|a, b| a.0.0.total_cmp(&b.0.0))
}

fn describe_obstruction(situation: &Situation, obstruction: &Obstruction) -> String {
    match obstruction {
        Obstruction::Unit(index) => situation.scene.units[*index].name.clone(),
        Obstruction::Terrain(id) => id.clone(),
    }
}

/// An enemy that passed the cheap tests: not engaged, partly in the arc, and with the part in
/// the arc within range. Its `bound` (the range to the part in the arc, seen or not) is never
/// more than the range to the part that can be seen, so candidates can be looked at nearest
/// bound first and the rest skipped once the priority rule is decided.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The enemy (index in the scene).
    pub index: usize,
    /// Fraction of it in the arc.
    pub arc_fraction: f64,
    /// The shortest tape from the shooter to the part of it in the arc.
    pub in_arc: Tape,
}

impl Candidate {
    /// A lower bound of the range to its visible part.
    pub fn bound(&self) -> Inches {
        self.in_arc.length
    }

    /// The closest point of it in the arc from `face`'s eye, when its tape was measured from
    /// there (not from a range edge).
    fn nearest_to_eye(&self, face: &FiringFace) -> Option<(TablePoint, Inches)> {
        face.range_edge
            .is_none()
            .then_some((self.in_arc.to, self.in_arc.length))
    }
}

/// How far the camera may have the share of unit `target` inside `face`'s arc off, 95 % either
/// way, when it placed both: the target's place relative to the eye, and the shooter's facing
/// turning its arc.
fn arc_share_plus_minus(
    situation: &Situation,
    shooter: usize,
    face: &FiringFace,
    target: usize,
) -> Option<f64> {
    let units = &situation.scene.units;
    let eye = units[shooter].footprint.covariance_at(face.eye)?;
    let turn = units[shooter].footprint.frame_sd()?.facing();
    let bases = &units[target].footprint;
    let relative = eye + bases.frame_sd()?.centre();
    Some(crate::uncertainty::share_plus_minus(
        &face.arc,
        face.eye,
        turn,
        bases.stands(),
        &relative,
    ))
}

/// The cheap tests: engaged, arc, range to the part in the arc.
pub fn screen(
    situation: &Situation,
    (shooter_index, shooter): (usize, &FiringFace),
    target: usize,
    max: Inches,
) -> Result<Candidate, Ineligible> {
    let view = &situation.units[target];
    let out = |reason: String| Ineligible {
        face: shooter.face,
        ..Ineligible::new(situation, target, reason)
    };
    if view.engaged {
        return Err(out(
            "engaged in hand-to-hand combat: never a target (it still blocks sight)".to_owned(),
        ));
    }
    let clipped = clip(&shooter.arc, view.unit.footprint.stands());
    let arc_fraction = clipped.fraction();
    let Some(in_arc) = shooter.tape_to(&clipped).filter(|_| arc_fraction > 1e-9) else {
        return Err(out("not in the arc of fire".to_owned()));
    };
    // The open country's sight, then the ground's (woods, rough ground), where a ruleset
    // caps them.
    let open = situation
        .profile
        .sight_limit()
        .map(|limit| (limit, "in the open".to_owned()));
    let ground = terrain_sight_cap(situation, &shooter.eye, target)
        .map(|(limit, piece)| (limit, format!("in or into {piece}")));
    if let Some((limit, where_)) = [open, ground]
        .into_iter()
        .flatten()
        .find(|(limit, _)| in_arc.length > *limit)
    {
        let profile = situation.profile;
        return Err(Ineligible {
            rule: Some(SIGHTING_DISTANCE),
            ..out(format!(
                "beyond sight: {} away, and no one sees further than {} {where_}",
                profile.length(in_arc.length.rounded()),
                profile.length(limit)
            ))
        });
    }
    if in_arc.length > max {
        let what = "closest part in the arc";
        let within = situation.plus_minus(shooter_index, in_arc.from, target, in_arc.to);
        return Err(Ineligible {
            face: shooter.face,
            ..Ineligible::out_of_range(situation, target, what, in_arc.length, within, max)
        });
    }
    Ok(Candidate {
        index: target,
        arc_fraction,
        in_arc,
    })
}

/// The full assessment of a screened candidate: sight, range to the visible part, the gap it
/// is seen through, and whether it is a clear target. `Err` says why it cannot be shot.
pub fn assess(
    situation: &Situation,
    shooter: usize,
    face: &FiringFace,
    candidate: &Candidate,
    max: Inches,
) -> Result<Assessment, Ineligible> {
    let profile = situation.profile;
    let shooter_unit = &situation.scene.units[shooter];
    let target = candidate.index;
    let target_unit = situation.units[target].unit;
    let out = |reason: String| Ineligible {
        face: face.face,
        ..Ineligible::new(situation, target, reason)
    };
    let eye = face.eye;
    let nearest_to_eye = candidate.nearest_to_eye(face);
    let seen = sight(situation, shooter, &eye, target, &face.arc, nearest_to_eye);
    let looked = look_over(situation, shooter, face, target, nearest_to_eye, seen);
    let seen = looked.sight;
    if seen.visible_fraction <= 0.0 {
        // Units sight passes through (BPT Commander's skirmishers and unlimbered guns) still
        // stand in the line of fire.
        let (in_line, blocking): (Vec<&Obstruction>, Vec<&Obstruction>) =
            seen.obstructions.iter().partition(|o| match o {
                Obstruction::Unit(index) => !situation.units[*index].blocks_sight,
                Obstruction::Terrain(_) => false,
            });
        let names = |of: &[&Obstruction]| -> String {
            of.iter()
                .map(|o| describe_obstruction(situation, o))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if blocking.is_empty() && !in_line.is_empty() {
            return Err(out(format!(
                "in sight, but {} stands in the line of fire, and no one fires over other units",
                names(&in_line)
            )));
        }
        // A gun that could have fired over them but for the dead ground (A40) or their kind
        // says so.
        let dead: Vec<&super::Refused> = looked.refused.iter().filter(|r| r.but_for).collect();
        let why = dead
            .iter()
            .map(|r| format!("; {}", r.reason))
            .collect::<String>();
        let borderline = dead.iter().any(|r| r.borderline);
        let note = if borderline {
            " — borderline, players decide"
        } else {
            ""
        };
        return Err(Ineligible {
            borderline,
            ..out(format!(
                "cannot be seen: blocked by {}{why}{note}",
                names(&blocking)
            ))
        });
    }
    let Some((aim, range)) = seen.closest_visible else {
        return Err(out("no part of it in view is in the arc".to_owned()));
    };
    // Measured between the units (BPT Commander), the range is the tape to the part in the
    // arc, seen or not; otherwise to the closest part in view.
    let tape = match face.range_edge {
        Some(_) => candidate.in_arc,
        None => Tape {
            from: eye,
            to: aim,
            length: range,
        },
    };
    let range = tape.length;
    let plus_minus = situation.plus_minus(shooter, tape.from, target, tape.to);
    if range > max {
        let what = "closest visible part";
        return Err(Ineligible {
            face: face.face,
            ..Ineligible::out_of_range(situation, target, what, range, plus_minus, max)
        });
    }
    if let Some(minimum) = situation.units[shooter].weapon.and_then(|w| w.minimum())
        && range < minimum
    {
        return Err(out(format!(
            "inside minimum range: {} (minimum {minimum})",
            situation.profile.length(range.rounded()),
            minimum = situation.profile.length(minimum)
        )));
    }
    let artillery = shooter_unit.kind == UnitKind::Artillery;
    let mut not_clear = Vec::new();
    let distances = profile.distances();
    let minimum_gap = if artillery {
        distances.cannon_gap
    } else {
        distances.gap
    };
    let frontage = face.frontage;
    let gap_band = minimum_gap.max(frontage);
    let over: Vec<usize> = looked.over.iter().map(|o| o.index).collect();
    if let Some((width, _)) =
        gap_width_over(situation, shooter, &eye, target, &aim, gap_band, &over)
    {
        if width < minimum_gap {
            return Err(out(format!(
                "the gap it is seen through is {}, narrower than {minimum_gap}",
                situation.profile.length(width.rounded()),
                minimum_gap = situation.profile.length(minimum_gap)
            )));
        }
        if shooter_unit.formation != Formation::Skirmish && width < frontage {
            not_clear.push(NotClear::NarrowGap {
                width: width.rounded(),
            });
        }
    }
    not_clear.extend(target_state(
        situation,
        target,
        candidate.arc_fraction,
        seen.visible_fraction,
        &eye,
        &aim,
    ));
    Ok(Assessment {
        id: target_unit.id.clone(),
        index: target,
        range,
        tape,
        plus_minus,
        arc_fraction: candidate.arc_fraction,
        // Found only for the targets ruled on: it costs six clippings of the target.
        arc_plus_minus: arc_share_plus_minus(situation, shooter, face, target),
        visible_fraction: seen.visible_fraction,
        band: band(situation, artillery, range, max),
        enfilade: situation
            .profile
            .formation_enfilades(shooter_unit.formation)
            && in_enfilade(target_unit, &eye).is_some(),
        not_clear,
        overhead: looked.over,
        face: face.face,
    })
}

/// The not-clear reasons that come from the target itself and how it is seen.
fn target_state(
    situation: &Situation,
    target: usize,
    arc: f64,
    visible: f64,
    eye: &TablePoint,
    aim: &TablePoint,
) -> Vec<NotClear> {
    let view = &situation.units[target];
    let unit = view.unit;
    let mut reasons = Vec::new();
    if unit.formation == Formation::Skirmish {
        reasons.push(NotClear::Skirmishers);
    }
    if unit.kind == UnitKind::Artillery && unit.formation == Formation::Deployed {
        reasons.push(NotClear::DeployedArtillery);
    }
    if arc < 0.5 {
        reasons.push(NotClear::HalfOutOfArc { fraction: arc });
    }
    if visible < 0.5 {
        reasons.push(NotClear::HalfHidden { fraction: visible });
    }
    if view.cover >= 0.5 {
        let terrain = view
            .cover_piece
            .clone()
            .unwrap_or_else(|| "a building".to_owned());
        reasons.push(NotClear::InCover { terrain });
    } else if let Some(piece) = situation.terrain.cover_behind(
        eye,
        unit.footprint.stands(),
        aim,
        situation.profile.distances().cover_behind,
    ) {
        reasons.push(NotClear::InCover {
            terrain: piece.id.clone(),
        });
    }
    reasons
}
