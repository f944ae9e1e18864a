//! From a parsed document to a scene, checking everything a document can get wrong and
//! collecting every problem (not only the first) so a player fixes them in one pass.

use std::collections::HashMap;

use super::doc::{CommanderDoc, SceneDoc, StandDoc, TerrainDoc, UnitDoc};
use super::{
    Commander, Footprint, Problem, Scene, StatLine, Subject, Table, Terrain, TerrainShape, Unit,
    UnitKind, UnitState,
};
use crate::geometry::{OrientedRect, TablePoint};
use crate::profile::Profile;
use crate::uncertainty::{PlaceSd, PlaceSdDoc};
use crate::units::{Degrees, Inches};

/// No table is larger than this (about 250 m); bigger numbers are typos, and would overflow
/// the geometry.
const LARGEST: f64 = 10_000.0;

/// Collects problems about one subject.
struct Checker<'a> {
    subject: Subject,
    problems: &'a mut Vec<Problem>,
}

impl Checker<'_> {
    fn report(&mut self, field: &str, message: impl Into<String>) {
        self.problems
            .push(Problem::new(self.subject.clone(), Some(field), message));
    }

    fn finite(&mut self, field: &str, value: f64) -> Option<f64> {
        if !value.is_finite() {
            self.report(field, format!("must be a finite number, got {value}"));
            None
        } else if value.abs() > LARGEST {
            self.report(
                field,
                format!("{value} is out of bounds (at most {LARGEST} either way)"),
            );
            None
        } else {
            Some(value)
        }
    }

    /// A stand's `sd`: deviations finite and not negative, the correlation within ±1.
    fn place_sd(&mut self, sd: &PlaceSdDoc) -> Option<PlaceSd> {
        let spreads = [("sd.x", sd.x), ("sd.y", sd.y), ("sd.facing", sd.facing)];
        let mut fine = true;
        for (field, value) in spreads {
            if !(value.is_finite() && (0.0..=LARGEST).contains(&value)) {
                self.report(
                    field,
                    format!("must be a finite number, 0 or more, got {value}"),
                );
                fine = false;
            }
        }
        if !(sd.r.is_finite() && sd.r.abs() <= 1.0) {
            self.report(
                "sd.r",
                format!("must be a correlation from -1 to 1, got {}", sd.r),
            );
            fine = false;
        }
        fine.then(|| PlaceSd::from_doc(sd))
    }

    fn positive(&mut self, field: &str, value: f64) -> Option<Inches> {
        let value = self.finite(field, value)?;
        if value > 0.0 {
            Some(Inches(value))
        } else {
            self.report(field, format!("must be greater than 0, got {value}"));
            None
        }
    }

    fn point(&mut self, field: &str, point: TablePoint) -> Option<TablePoint> {
        let (x, y) = (point.x, point.y);
        if x.is_finite() && y.is_finite() && x.abs() <= LARGEST && y.abs() <= LARGEST {
            Some(point)
        } else {
            self.report(
                field,
                format!("must be two finite numbers within ±{LARGEST}, got [{x}, {y}]"),
            );
            None
        }
    }

    fn required<T: Copy>(&mut self, field: &str, value: Option<T>) -> Option<T> {
        if value.is_none() {
            self.report(
                field,
                "is missing (give front_center, facing, width and depth, or stands)",
            );
        }
        value
    }
}

/// Turn a parsed document into a scene, checked against `profile` (its ruleset's built-in one,
/// or a `--profile` file's, whose weapons and formations are the ones a scene may use), or list
/// everything wrong with it.
pub fn validate(doc: SceneDoc, profile: &Profile) -> Result<Scene, Vec<Problem>> {
    let mut problems = Vec::new();
    if profile.id() != doc.ruleset {
        problems.push(Problem::new(
            Subject::Document,
            Some("ruleset"),
            format!(
                "is {}, but the profile given is for {}",
                doc.ruleset.as_str(),
                profile.id().as_str()
            ),
        ));
    }
    let table = check_table(&doc, &mut problems);
    let terrain: Vec<Option<Terrain>> = doc
        .terrain
        .iter()
        .enumerate()
        .map(|(index, t)| check_terrain(index, t, &mut problems))
        .collect();
    let units: Vec<Option<Unit>> = doc
        .units
        .iter()
        .enumerate()
        .map(|(index, u)| check_unit(index, u, profile, &mut problems))
        .collect();
    let commanders: Vec<Option<Commander>> = doc
        .commanders
        .iter()
        .enumerate()
        .map(|(index, c)| check_commander(index, c, &mut problems))
        .collect();
    check_unique_ids(&doc, &mut problems);
    check_sides(&doc, &mut problems);
    check_figure_scale(&doc, profile, &mut problems);
    check_length_sd(&doc, &mut problems);
    check_frame_sd(&doc, &mut problems);

    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Scene {
        ruleset: doc.ruleset,
        table: table.ok_or_else(Vec::new)?,
        terrain: terrain.into_iter().flatten().collect(),
        units: units.into_iter().flatten().collect(),
        commanders: commanders.into_iter().flatten().collect(),
        sides: doc.sides,
        scenario: doc.scenario,
        distance_scale: doc.distance_scale.unwrap_or(1.0),
        figure_scale: doc.figure_scale,
        length_sd: doc.length_sd,
        frame_sd: doc.frame_sd.map(Inches),
    })
}

/// The relative error of lengths is a small non-negative fraction.
fn check_length_sd(doc: &SceneDoc, problems: &mut Vec<Problem>) {
    let Some(sd) = doc.length_sd else {
        return;
    };
    if !(sd.is_finite() && (0.0..0.5).contains(&sd)) {
        problems.push(Problem::new(
            Subject::Document,
            Some("length_sd"),
            format!("must be a fraction from 0 to 0.5 (0.001 is 0.1 %), got {sd}"),
        ));
    }
}

/// The table's own doubt is a length: finite, and not negative (a calibration gone badly wrong
/// may state a wide one, and its scene must still load).
fn check_frame_sd(doc: &SceneDoc, problems: &mut Vec<Problem>) {
    let Some(sd) = doc.frame_sd else {
        return;
    };
    if !(sd.is_finite() && sd >= 0.0) {
        problems.push(Problem::new(
            Subject::Document,
            Some("frame_sd"),
            format!("must be inches, 0 or more, got {sd}"),
        ));
    }
}

/// A figure scale must be one the ruleset has a ground scale for.
fn check_figure_scale(doc: &SceneDoc, profile: &Profile, problems: &mut Vec<Problem>) {
    let Some(figures) = doc.figure_scale else {
        return;
    };
    if profile.ground_scale().is_none() {
        problems.push(Problem::new(
            Subject::Document,
            Some("figure_scale"),
            format!(
                "{} measures table lengths, not scale metres: use distance_scale instead",
                doc.ruleset.as_str()
            ),
        ));
    } else if let Err(error) = profile.with_figure_scale(figures) {
        problems.push(Problem::new(
            Subject::Document,
            Some("figure_scale"),
            error.to_string(),
        ));
    }
}

/// Staff ratings run from 5 (Fool) to 10 (Military Genius) (digest §1.4).
fn check_staff_rating(check: &mut Checker, rating: Option<u8>) {
    if let Some(rating) = rating
        && !(5..=10).contains(&rating)
    {
        check.report(
            "staff_rating",
            format!("must be between 5 and 10, got {rating}"),
        );
    }
}

fn check_sides(doc: &SceneDoc, problems: &mut Vec<Problem>) {
    for (index, side) in doc.sides.iter().enumerate() {
        let mut check = Checker {
            subject: Subject::Side {
                index,
                id: Some(side.id.clone()),
            },
            problems,
        };
        check_staff_rating(&mut check, side.staff_rating);
    }
    if doc.sides.is_empty() {
        return;
    }
    let known: Vec<&str> = doc.sides.iter().map(|s| s.id.as_str()).collect();
    let users = doc
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            (
                Subject::Unit {
                    index: i,
                    id: Some(u.id.clone()),
                },
                &u.side,
            )
        })
        .chain(doc.commanders.iter().enumerate().map(|(i, c)| {
            (
                Subject::Commander {
                    index: i,
                    id: Some(c.id.clone()),
                },
                &c.side,
            )
        }));
    for (subject, side) in users {
        if !known.contains(&side.as_str()) {
            problems.push(Problem::new(
                subject,
                Some("side"),
                format!(
                    "side '{side}' is not in the scene's sides ({})",
                    known.join(", ")
                ),
            ));
        }
    }
}

fn check_commander(
    index: usize,
    doc: &CommanderDoc,
    problems: &mut Vec<Problem>,
) -> Option<Commander> {
    let mut check = Checker {
        subject: Subject::Commander {
            index,
            id: Some(doc.id.clone()),
        },
        problems,
    };
    if doc.id.trim().is_empty() {
        check.report("id", "must not be empty");
    }
    if doc.side.trim().is_empty() {
        check.report("side", "must not be empty");
    }
    check_staff_rating(&mut check, doc.staff_rating);
    let position = check.point("position", doc.position)?;
    let sd = match &doc.sd {
        Some(sd) => Some(check.place_sd(sd)?),
        None => None,
    };
    Some(Commander {
        id: doc.id.clone(),
        name: doc.name.clone().unwrap_or_else(|| doc.id.clone()),
        side: doc.side.clone(),
        brigade: doc.brigade.clone(),
        position,
        mounted: doc.mounted.unwrap_or(true),
        staff_rating: doc.staff_rating,
        sd,
    })
}

/// Shooting is "3", "3-2-1", "-" or "Special"; morale "4+" or "0" (digest §1.1).
fn check_stats(check: &mut Checker, stats: &StatLine) {
    let shooting = stats.shooting.trim();
    let numbers = |text: &str| {
        text.split('-')
            .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    let shooting_ok = shooting == "-"
        || shooting == "–"
        || shooting.eq_ignore_ascii_case("special")
        || (numbers(shooting) && [1, 3].contains(&shooting.split('-').count()));
    if !shooting_ok {
        check.report(
            "stats.shooting",
            format!(
                "must be a number, three numbers like 3-2-1, '-' or 'Special', got '{shooting}'"
            ),
        );
    }
    let morale = stats.morale.trim();
    let morale_ok = morale == "0"
        || (morale.len() == 2
            && morale.ends_with('+')
            && ('2'..='6').contains(&morale.chars().next().unwrap_or('x')));
    if !morale_ok {
        check.report(
            "stats.morale",
            format!("must be 2+ to 6+, or 0 for no save, got '{morale}'"),
        );
    }
}

fn check_table(doc: &SceneDoc, problems: &mut Vec<Problem>) -> Option<Table> {
    let mut check = Checker {
        subject: Subject::Table,
        problems,
    };
    let width = check.positive("width", doc.table.width);
    let depth = check.positive("depth", doc.table.depth);
    Some(Table {
        width: width?,
        depth: depth?,
    })
}

fn check_unique_ids(doc: &SceneDoc, problems: &mut Vec<Problem>) {
    let mut seen: HashMap<&str, String> = HashMap::new();
    let named = |list: &str, i: usize| format!("{list}[{i}]");
    let terrain = doc.terrain.iter().enumerate().map(|(i, t)| {
        let subject = Subject::Terrain {
            index: i,
            id: Some(t.id.clone()),
        };
        (t.id.as_str(), named("terrain", i), subject)
    });
    let units = doc.units.iter().enumerate().map(|(i, u)| {
        let subject = Subject::Unit {
            index: i,
            id: Some(u.id.clone()),
        };
        (u.id.as_str(), named("units", i), subject)
    });
    let commanders = doc.commanders.iter().enumerate().map(|(i, c)| {
        let subject = Subject::Commander {
            index: i,
            id: Some(c.id.clone()),
        };
        (c.id.as_str(), named("commanders", i), subject)
    });
    let ids = terrain.chain(units).chain(commanders);
    for (id, place, subject) in ids {
        if id.is_empty() {
            continue; // reported by the subject's own check
        }
        match seen.get(id) {
            Some(first) => problems.push(Problem::new(
                subject,
                Some("id"),
                format!("duplicate id '{id}': already used by {first}"),
            )),
            None => {
                seen.insert(id, place);
            }
        }
    }
}

fn check_terrain(index: usize, doc: &TerrainDoc, problems: &mut Vec<Problem>) -> Option<Terrain> {
    let subject = Subject::Terrain {
        index,
        id: Some(doc.id.clone()),
    };
    let mut check = Checker { subject, problems };
    if doc.id.trim().is_empty() {
        check.report("id", "must not be empty");
    }
    let shape = match (&doc.polygon, &doc.line) {
        (Some(polygon), None) => check_polygon(&mut check, polygon).map(TerrainShape::Area),
        (None, Some(line)) if doc.kind.may_be_linear() => {
            check_line(&mut check, line).map(TerrainShape::Line)
        }
        (None, Some(_)) => {
            check.report(
                "line",
                "only obstacles, roads and rivers may be lines; give a polygon",
            );
            None
        }
        (Some(_), Some(_)) => {
            check.report("polygon", "give either a polygon or a line, not both");
            None
        }
        (None, None) => {
            check.report("polygon", "is missing");
            None
        }
    };
    if doc.height.is_some() && doc.kind != super::TerrainKind::Hill {
        check.report("height", "only hills have a height level");
    }
    let rise = check_rise(&mut check, doc, shape.as_ref());
    Some(Terrain {
        id: doc.id.clone(),
        kind: doc.kind,
        shape: shape?,
        height: doc.height,
        rise,
    })
}

/// Tallest hill a table holds, inches: a typo (a rise in millimetres) is caught.
const TALLEST_RISE: f64 = 12.0;

/// A hill's real height and crest: a rise from 0 to 12", a crest of at least three corners
/// inside its foot.
fn check_rise(
    check: &mut Checker,
    doc: &TerrainDoc,
    shape: Option<&TerrainShape>,
) -> Option<super::Rise> {
    if doc.crest.is_some() && doc.rise.is_none() {
        check.report(
            "crest",
            "a crest needs the hill's rise (inches above the cloth)",
        );
    }
    let top = doc.rise?;
    if doc.kind != super::TerrainKind::Hill {
        check.report("rise", "only hills rise");
        return None;
    }
    if !(top > 0.0 && top <= TALLEST_RISE) {
        check.report(
            "rise",
            format!("{top}: a hill's top is above the cloth and at most {TALLEST_RISE}\" high"),
        );
        return None;
    }
    let crest = match &doc.crest {
        Some(raw) => {
            let crest = check_polygon(check, raw)?;
            let foot = match shape {
                Some(TerrainShape::Area(foot)) => geo::Polygon::new(
                    foot.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>().into(),
                    vec![],
                ),
                _ => return None,
            };
            use geo::Contains;
            if crest
                .iter()
                .any(|p| !foot.contains(&geo::Point::new(p.x, p.y)))
            {
                check.report("crest", "must lie inside the hill's polygon");
                return None;
            }
            Some(crest)
        }
        None => None,
    };
    Some(super::Rise {
        top: crate::units::Inches(top),
        crest,
    })
}

fn points(check: &mut Checker, field: &str, raw: &[TablePoint]) -> Option<Vec<TablePoint>> {
    let points: Vec<Option<TablePoint>> = raw
        .iter()
        .enumerate()
        .map(|(i, p)| check.point(&format!("{field}[{i}]"), *p))
        .collect();
    points.into_iter().collect()
}

fn check_polygon(check: &mut Checker, raw: &[TablePoint]) -> Option<Vec<TablePoint>> {
    if raw.len() < 3 {
        check.report(
            "polygon",
            format!("needs at least 3 points, got {}", raw.len()),
        );
        return None;
    }
    let polygon = points(check, "polygon", raw)?;
    let geo_polygon = geo::Polygon::new(
        geo::LineString::from(polygon.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>()),
        vec![],
    );
    use geo::{Area, Validation};
    if geo_polygon.unsigned_area() < 1e-6 {
        check.report(
            "polygon",
            "has no area (its points are on one line or repeated)",
        );
        return None;
    }
    if let Err(invalid) = geo_polygon.check_validation() {
        check.report("polygon", format!("is not a simple polygon: {invalid}"));
        return None;
    }
    Some(polygon)
}

fn check_line(check: &mut Checker, raw: &[TablePoint]) -> Option<Vec<TablePoint>> {
    if raw.len() < 2 {
        check.report(
            "line",
            format!("needs at least 2 points, got {}", raw.len()),
        );
        return None;
    }
    points(check, "line", raw)
}

fn check_unit(
    index: usize,
    doc: &UnitDoc,
    profile: &Profile,
    problems: &mut Vec<Problem>,
) -> Option<Unit> {
    let subject = Subject::Unit {
        index,
        id: Some(doc.id.clone()),
    };
    let mut check = Checker { subject, problems };
    if doc.id.trim().is_empty() {
        check.report("id", "must not be empty");
    }
    if doc.side.trim().is_empty() {
        check.report("side", "must not be empty");
    }
    let formation = doc
        .formation
        .unwrap_or_else(|| profile.default_formation(doc.kind));
    if !profile.formations_of(doc.kind).contains(&formation) {
        let allowed: Vec<&str> = profile
            .formations_of(doc.kind)
            .iter()
            .map(|f| f.as_str())
            .collect();
        check.report(
            "formation",
            format!(
                "{} cannot be in {} formation in {} (allowed: {})",
                doc.kind.as_str(),
                formation.as_str(),
                profile.name(),
                allowed.join(", ")
            ),
        );
    }
    if let Some(stats) = &doc.stats {
        check_stats(&mut check, stats);
    }
    let weapon = match (&doc.weapon, &doc.stats) {
        (Some(name), _) => check_weapon(&mut check, profile, name, "weapon"),
        (None, Some(stats)) => check_weapon(&mut check, profile, &stats.armament, "stats.armament"),
        (None, None) => None,
    };
    let footprint = check_footprint(&mut check, doc, index);
    let figures = check_figures(&mut check, doc, weapon.as_deref(), profile);
    Some(Unit {
        id: doc.id.clone(),
        name: doc.name.clone().unwrap_or_else(|| doc.id.clone()),
        side: doc.side.clone(),
        kind: doc.kind,
        formation,
        weapon,
        brigade: doc.brigade.clone(),
        footprint: footprint?,
        size: doc.size.unwrap_or_default(),
        stats: doc.stats.clone(),
        state: UnitState {
            engaged: doc.engaged,
            disordered: doc.disordered.unwrap_or(false),
            shaken: doc.shaken.unwrap_or(false),
        },
        momentum: check_momentum(&mut check, doc.momentum),
        figures,
    })
}

/// A unit's figures left: only where the ruleset counts figures, at least one (a unit with
/// none has gone), and no more than a full stand where the ruleset knows one.
fn check_figures(
    check: &mut Checker,
    doc: &UnitDoc,
    weapon: Option<&str>,
    profile: &Profile,
) -> Option<u32> {
    let left = doc.figures?;
    if !profile.counts_figures() {
        check.report(
            "figures",
            format!(
                "{} does not count a unit's figures: leave `figures` out",
                profile.name()
            ),
        );
        return None;
    }
    if left == 0 {
        check.report(
            "figures",
            "must be at least 1: a unit with no figures left has gone from the table",
        );
        return None;
    }
    let Some(standard) = profile.stand_figures() else {
        return Some(left);
    };
    let crew = weapon
        .and_then(|w| profile.weapon(w))
        .and_then(|w| w.crew());
    let full = standard.full(doc.kind, crew);
    if left <= full {
        return Some(left);
    }
    let message = if doc.kind == UnitKind::Artillery {
        format!(
            "{left} is more than a full crew: this gun has {full} in {} (for extra gunners, raise `artillery` under `[specials.stand-figures]` in a profile file)",
            profile.name()
        )
    } else {
        format!(
            "{left} is more than a full stand: {} {} stand has {full} figures in {}",
            if doc.kind == UnitKind::Infantry {
                "an"
            } else {
                "a"
            },
            doc.kind.as_str(),
            profile.name()
        )
    };
    check.report("figures", message);
    None
}

/// A momentum must be finite, its distance not negative.
fn check_momentum(
    check: &mut Checker,
    momentum: Option<super::Momentum>,
) -> Option<super::Momentum> {
    let momentum = momentum?;
    let heading = check.finite("momentum.heading", momentum.heading)?;
    let distance = check.finite("momentum.distance", momentum.distance)?;
    if distance < 0.0 {
        check.report(
            "momentum.distance",
            format!("must be 0 or more, got {distance}"),
        );
        return None;
    }
    Some(super::Momentum { heading, distance })
}

fn check_weapon(check: &mut Checker, profile: &Profile, name: &str, field: &str) -> Option<String> {
    if let Some(weapon) = profile.weapon(name) {
        return Some(weapon.id().to_owned());
    }
    let first_word = name.trim().to_lowercase();
    let first_word = first_word.split([' ', '-', '_']).next().unwrap_or("");
    let similar: Vec<&str> = profile
        .weapon_ids()
        .filter(|id| !first_word.is_empty() && id.contains(first_word))
        .collect();
    let known: Vec<&str> = if similar.is_empty() {
        profile.weapon_ids().collect()
    } else {
        similar
    };
    let hint = if field == "weapon" {
        ""
    } else {
        " (or give the unit a `weapon`)"
    };
    check.report(
        field,
        format!(
            "unknown weapon '{name}' in {}; did you mean one of: {}{hint}",
            profile.name(),
            known.join(", ")
        ),
    );
    None
}

fn check_footprint(check: &mut Checker, doc: &UnitDoc, index: usize) -> Option<Footprint> {
    let facing = doc
        .facing
        .and_then(|f| check.finite("facing", f))
        .map(Degrees);
    if let Some(stands) = &doc.stands {
        if doc.front_center.is_some() || doc.width.is_some() || doc.depth.is_some() {
            check.report(
                "stands",
                "give either stands or front_center/width/depth, not both",
            );
            return None;
        }
        return check_stands(check, stands, facing, index, &doc.id);
    }
    let front_center = check.required("front_center", doc.front_center);
    let facing_given = check.required("facing", doc.facing);
    let width = check.required("width", doc.width);
    let depth = check.required("depth", doc.depth);
    let front_center = check.point("front_center", front_center?);
    let width = check.positive("width", width?);
    let depth = check.positive("depth", depth?);
    facing_given?;
    Some(Footprint::block(OrientedRect::new(
        front_center?,
        facing?,
        width?,
        depth?,
    )))
}

fn check_stands(
    check: &mut Checker,
    stands: &[StandDoc],
    facing: Option<Degrees>,
    unit: usize,
    unit_id: &str,
) -> Option<Footprint> {
    if stands.is_empty() {
        check.report("stands", "must list at least one stand");
        return None;
    }
    let rects: Vec<Option<(OrientedRect, Option<PlaceSd>)>> = stands
        .iter()
        .enumerate()
        .map(|(index, stand)| {
            let mut stand_check = Checker {
                subject: Subject::Stand {
                    unit,
                    unit_id: Some(unit_id.to_owned()),
                    index,
                },
                problems: check.problems,
            };
            let center = stand_check.point("center", stand.center);
            let facing = stand_check.finite("facing", stand.facing);
            let width = stand_check.positive("width", stand.width);
            let depth = stand_check.positive("depth", stand.depth);
            // A bad `sd` is reported, and the scene refused with it.
            let sd = stand.sd.and_then(|sd| stand_check.place_sd(&sd));
            let rect = OrientedRect::from_center(center?, Degrees(facing?), width?, depth?);
            Some((rect, sd))
        })
        .collect();
    let stands: Option<Vec<(OrientedRect, Option<PlaceSd>)>> = rects.into_iter().collect();
    let (rects, sd): (Vec<OrientedRect>, Vec<Option<PlaceSd>>) = stands?.into_iter().unzip();
    let footprint = Footprint::from_stands(rects, facing);
    // Every stand measured, or none: a unit measured in part reads as not measured.
    Some(match sd.into_iter().collect::<Option<Vec<PlaceSd>>>() {
        Some(sd) => footprint.with_sd(sd),
        None => footprint,
    })
}
