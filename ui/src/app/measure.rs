//! The tape measure: two units, a unit and a point, or two points, measured as the rules
//! measure them — edge to edge, range from the leader, the quarter and the arc — by the rules
//! crate's own functions, so the tape and the rulings cannot disagree.

use rules::geometry::{TablePoint, distance};
use rules::measure::measure_pair;
use rules::quarter::classify;
use rules::units::Inches;
use rules::{Profile, Scene};
use serde::{Deserialize, Serialize};

/// One end of the tape.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    /// A unit, by id.
    Unit(String),
    /// A point of the table.
    Point(TablePoint),
}

/// Two picks, filled in turn: a third click starts again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picks {
    /// The first end.
    pub first: Option<Pick>,
    /// The second end.
    pub second: Option<Pick>,
}

impl Picks {
    /// Take a click.
    pub fn push(&mut self, pick: Pick) {
        if self.first.is_none() || self.second.is_some() {
            self.first = Some(pick);
            self.second = None;
        } else {
            self.second = Some(pick);
        }
    }

    /// Both ends, when there are two.
    pub fn both(&self) -> Option<(&Pick, &Pick)> {
        Some((self.first.as_ref()?, self.second.as_ref()?))
    }

    /// The two units, when both ends are units.
    pub fn units(&self) -> Option<(&str, &str)> {
        match self.both()? {
            (Pick::Unit(a), Pick::Unit(b)) => Some((a, b)),
            _ => None,
        }
    }

    /// Whether a unit is one of the ends.
    pub fn has_unit(&self, id: &str) -> bool {
        [&self.first, &self.second]
            .into_iter()
            .any(|p| matches!(p, Some(Pick::Unit(u)) if u == id))
    }
}

/// Lengths for people: the ruleset's own unit (inches for Black Powder, centimetres, millimetres
/// or scale metres for the others), or inches or centimetres whatever the ruleset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LengthUnit {
    /// As the scene's ruleset measures.
    #[default]
    Ruleset,
    /// Inches.
    Inches,
    /// Centimetres.
    Centimetres,
}

impl LengthUnit {
    /// Lengths of a scene, in this unit.
    pub fn for_scene(self, scene: &Scene) -> Lengths {
        self.for_profile(&scene.profile())
    }

    /// Lengths of the scene on the table, if any (inches when there is none yet).
    pub fn for_table(self, scene: Option<&Scene>) -> Lengths {
        match scene {
            Some(scene) => self.for_scene(scene),
            None => Lengths {
                unit: self,
                ruleset: rules::units::LengthScale::INCHES,
            },
        }
    }

    /// Lengths under a profile, in this unit.
    pub fn for_profile(self, profile: &Profile) -> Lengths {
        Lengths {
            unit: self,
            ruleset: profile.length_scale(),
        }
    }
}

/// Writes lengths in the chosen unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lengths {
    unit: LengthUnit,
    ruleset: rules::units::LengthScale,
}

impl Lengths {
    /// The unit and how many of it make a table inch.
    pub fn scale(&self) -> rules::units::LengthScale {
        use rules::units::{LengthScale, LengthUnit as Unit};
        match self.unit {
            LengthUnit::Ruleset => self.ruleset,
            LengthUnit::Inches => LengthScale::INCHES,
            LengthUnit::Centimetres => LengthScale {
                unit: Unit::Centimetres,
                per_inch: 2.54,
            },
        }
    }

    /// The plan's grid in this unit: a line every `minor`, labelled every `major` — 6" and
    /// 12" in inches, else the round number (1, 2 or 5 times a power of ten) nearest below 6",
    /// labelled every fifth.
    pub fn grid(&self) -> Grid {
        let scale = self.scale();
        if scale.unit == rules::units::LengthUnit::Inches {
            return Grid {
                minor: 6.0,
                major: 12.0,
            };
        }
        let about = 6.0 * scale.per_inch;
        let power = 10f64.powf(about.log10().floor());
        let minor = [5.0, 2.0, 1.0]
            .into_iter()
            .map(|m| m * power)
            .find(|step| *step <= about)
            .unwrap_or(power);
        Grid {
            minor,
            major: minor * 5.0,
        }
    }

    /// A length written in the unit: `8.00"`, `20.3 cm`, `150 mm`, `200 m`.
    pub fn format(&self, length: Inches) -> String {
        self.scale().length(length).to_string()
    }
}

/// The plan's grid, in the unit lengths are shown in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// A faint line every this many units.
    pub minor: f64,
    /// A stronger, labelled line every this many.
    pub major: f64,
}

/// What the tape reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Tape {
    /// Where the drawn tape starts…
    pub from: TablePoint,
    /// … and ends (the closest points for edge-to-edge).
    pub to: TablePoint,
    /// The length drawn.
    pub length: Inches,
    /// The readings, one a line.
    pub lines: Vec<String>,
}

/// Measure between two picks.
pub fn tape(
    scene: &Scene,
    profile: &Profile,
    a: &Pick,
    b: &Pick,
    unit: LengthUnit,
) -> Option<Tape> {
    let lengths = unit.for_profile(profile);
    let f = |d: Inches| lengths.format(d);
    match (a, b) {
        (Pick::Unit(a), Pick::Unit(b)) => {
            let (a, b) = (scene.unit(a)?, scene.unit(b)?);
            let (from, to) = a
                .footprint
                .nearest_points_to(&b.footprint)
                .unwrap_or((a.footprint.leader(), b.footprint.leader()));
            let ab = measure_pair(a, b, profile);
            let ba = measure_pair(b, a, profile);
            // The camera's error bar on the gap, when it placed both units.
            let within = a
                .footprint
                .plus_minus_to(from, &b.footprint, to, scene.length_sd)
                .map(|pm| format!(" ± {}", f(pm.rounded_up())))
                .unwrap_or_default();
            let mut lines = vec![format!(
                "{} ↔ {}: edge to edge {}{within}",
                a.name,
                b.name,
                f(ab.edge_distance)
            )];
            for (m, x, y) in [(&ab, a, b), (&ba, b, a)] {
                lines.push(format!(
                    "from {}'s {}: {} to {}{}",
                    x.name,
                    profile.range_origin_words(x),
                    f(m.range),
                    y.name,
                    m.range_in_arc.map_or_else(
                        || ", none of it in the arc".to_owned(),
                        |r| format!(", {} in the arc", f(r))
                    )
                ));
                lines.push(format!(
                    "{}'s leader is in {}'s {} quarter; {:.0}% of {} in {}'s arc{}",
                    x.name,
                    y.name,
                    m.target_quarter.describe(),
                    m.arc_fraction * 100.0,
                    y.name,
                    x.name,
                    if m.arc_fraction < 0.5 {
                        " (not clear)"
                    } else {
                        ""
                    }
                ));
                for borderline in &m.borderline {
                    lines.push(format!("? {}", borderline.explanation));
                }
            }
            Some(Tape {
                from,
                to,
                length: ab.edge_distance,
                lines,
            })
        }
        (Pick::Unit(u), Pick::Point(p)) | (Pick::Point(p), Pick::Unit(u)) => {
            let u = scene.unit(u)?;
            let (closest, gap) = u.footprint.closest_point(p);
            let leader = u.footprint.leader();
            let reading = classify(u.footprint.frame(), p);
            Some(Tape {
                from: closest,
                to: *p,
                length: gap,
                lines: vec![
                    format!("{} to the point: {} from its closest edge", u.name, f(gap)),
                    format!("{} from its leader", f(distance(&leader, p))),
                    format!("the point is in its {} quarter", reading.face.describe()),
                ],
            })
        }
        (Pick::Point(a), Pick::Point(b)) => {
            let length = distance(a, b);
            Some(Tape {
                from: *a,
                to: *b,
                length,
                lines: vec![format!("point to point: {}", f(length))],
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{Profile, RulesetId};

    #[test]
    fn the_plans_grid_is_drawn_in_round_numbers_of_the_unit_shown() {
        let grid = |unit: LengthUnit, ruleset: RulesetId| {
            let g = unit.for_profile(Profile::builtin(ruleset)).grid();
            (g.minor, g.major)
        };
        assert_eq!(
            grid(LengthUnit::Ruleset, RulesetId::BlackPowder),
            (6.0, 12.0)
        );
        assert_eq!(grid(LengthUnit::Ruleset, RulesetId::Bbb), (100.0, 500.0));
        assert_eq!(
            grid(LengthUnit::Ruleset, RulesetId::BptCommander),
            (10.0, 50.0)
        );
        assert_eq!(grid(LengthUnit::Inches, RulesetId::Bbb), (6.0, 12.0));
        assert_eq!(
            grid(LengthUnit::Centimetres, RulesetId::BlackPowder),
            (10.0, 50.0)
        );
    }

    #[test]
    fn the_tape_between_two_units_the_camera_placed_gives_its_error_bar() {
        let stand = |x: f64, y: f64, facing: f64, sd: bool| {
            let mut stand = serde_json::json!({ "center": [x, y], "facing": facing, "width": 4.0, "depth": 1.6 });
            if sd {
                stand["sd"] = serde_json::json!({ "x": 0.01, "y": 0.01, "facing": 0.1 });
            }
            stand
        };
        let scene = |sd: bool| {
            let doc = serde_json::json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
                "units": [
                    { "id": "a", "side": "red", "kind": "infantry", "stands": [stand(30.0, 10.0, 90.0, sd)] },
                    { "id": "b", "side": "blue", "kind": "infantry", "stands": [stand(30.0, 21.6, 270.0, sd)] } ] });
            Scene::parse(&doc.to_string(), rules::scene::Format::Json, "seen.json").expect("scene")
        };
        let profile = Profile::builtin(RulesetId::BlackPowder);
        let first_line = |scene: &Scene| {
            let a = Pick::Unit("a".into());
            let b = Pick::Unit("b".into());
            tape(scene, profile, &a, &b, LengthUnit::Ruleset)
                .expect("a tape")
                .lines[0]
                .clone()
        };
        assert_eq!(first_line(&scene(false)), "a ↔ b: edge to edge 10.00\"");
        assert_eq!(
            first_line(&scene(true)),
            "a ↔ b: edge to edge 10.00\" ± 0.03\""
        );
    }
}
