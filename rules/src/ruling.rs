//! Rulings as plain data: what was decided, the numbers behind it, the rule applied, a sentence
//! a player can read, and the shapes to draw. The command line and the app render the same
//! ruling the same way, because they render this.

use serde::{Deserialize, Serialize};

use crate::geometry::TablePoint;
use crate::units::{LengthScale, LengthUnit};
pub use crate::vocabulary::RuleRef;

/// The answer to the question a ruling asks, as a mark and a colour show it.
///
/// A penalty and a test are neither yes nor no: the unit still acts — under command at a cost
/// to its order, or if it passes a roll — so they have verdicts of their own, and the views
/// that read no as a refusal (a target ruled out, a charge not drawn) never count them as one.
/// The order runs from the best news to the worst, so the worst of several is their maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Yes: in range, may charge, supports …
    Yes,
    /// Yes, at a cost: a command distance penalty (−1, −2 …) to the order.
    Penalty,
    /// Only if a test is passed: eRules' reaction test to come within 50 m of formed troops.
    Test,
    /// Too close to call: players decide.
    Borderline,
    /// No.
    No,
}

/// What a ruling decides, typed, so that the app and the tests never read it from the English:
/// a permission or an obligation for rulings about what a unit does (shoot, charge, move), a
/// plain yes or no for rulings about how things stand (in range, in contact, supported), and
/// a penalty or a test where the unit acts at a cost or on a roll. "What a decision means" in
/// docs/guide/rulesets.md says what each means for each topic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// The rules require it: must shoot at this target.
    Must,
    /// The rules allow it: may charge, may shoot at this target instead.
    May,
    /// The rules forbid it.
    Cannot,
    /// It is so: in contact, within command distance, supported.
    Yes,
    /// It is not so.
    No,
    /// Too close to call: players decide.
    Borderline,
    /// The unit is under command, with a penalty to its order (the "penalty" figure: −1 per
    /// full 12" beyond 12" in Black Powder). Not a refusal: it may still be ordered.
    Penalty,
    /// The unit must take a test to do it (eRules §20.2.1: a reaction test to come within
    /// 50 m of close-order formed troops). Not a ban: passed, it goes on.
    Test,
}

impl Decision {
    /// The outcome of a question of fact, borderline within tolerance of its threshold.
    pub fn judge(yes: bool, borderline: bool) -> Decision {
        Decision::either(yes, borderline, Decision::Yes, Decision::No)
    }

    /// The outcome of a permission: may or cannot, borderline within tolerance.
    pub fn permit(allowed: bool, borderline: bool) -> Decision {
        Decision::either(allowed, borderline, Decision::May, Decision::Cannot)
    }

    /// `yes` when `so`, else `no`; borderline whenever the numbers are within tolerance of the
    /// threshold, whatever side they fall.
    fn either(so: bool, borderline: bool, yes: Decision, no: Decision) -> Decision {
        match (borderline, so) {
            (true, _) => Decision::Borderline,
            (false, true) => yes,
            (false, false) => no,
        }
    }

    /// The answer as marked: yes (must, may, yes), no (cannot, no), borderline, and a
    /// penalty and a test each their own.
    pub fn verdict(self) -> Verdict {
        match self {
            Decision::Must | Decision::May | Decision::Yes => Verdict::Yes,
            Decision::Cannot | Decision::No => Verdict::No,
            Decision::Borderline => Verdict::Borderline,
            Decision::Penalty => Verdict::Penalty,
            Decision::Test => Verdict::Test,
        }
    }
}

/// What a figure measures, so it prints with its unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FigureUnit {
    /// Table inches.
    Inches,
    /// Table centimetres.
    Centimetres,
    /// Table millimetres.
    Millimetres,
    /// Scale metres on the ground.
    ScaleMetres,
    /// Degrees.
    Degrees,
    /// A fraction from 0 to 1.
    Fraction,
    /// A count or a modifier.
    Count,
}

/// A number behind a ruling: "range 14.2"", "visible 0.62".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figure {
    /// What it is: "range", "visible", "penalty" …
    pub name: &'static str,
    /// Its value (inches, degrees, fraction or count, per `unit`).
    pub value: f64,
    /// Its unit.
    pub unit: FigureUnit,
    /// How far it may be off, 95 % either way, in its unit: for a length the camera measured
    /// (see [`crate::uncertainty`]); absent for a scene no camera measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plus_minus: Option<f64>,
}

impl Figure {
    /// The same share, with how far the camera may have it off (95 %), if it measured it.
    pub fn within_share(mut self, plus_minus: Option<f64>) -> Figure {
        self.plus_minus = plus_minus.map(|pm| round(pm, 1000.0));
        self
    }

    /// The same length, with how far the camera may have it off (95 %), if it measured it.
    pub fn within(mut self, plus_minus: Option<crate::units::Inches>) -> Figure {
        self.plus_minus = plus_minus.map(|pm| round(pm.0, 1000.0));
        self
    }

    /// A length.
    pub fn inches(name: &'static str, value: crate::units::Inches) -> Figure {
        Figure {
            name,
            value: round(value.0, 100.0),
            unit: FigureUnit::Inches,
            plus_minus: None,
        }
    }

    /// A fraction.
    pub fn fraction(name: &'static str, value: f64) -> Figure {
        Figure {
            name,
            value: round(value, 1000.0),
            unit: FigureUnit::Fraction,
            plus_minus: None,
        }
    }

    /// A count or modifier.
    pub fn count(name: &'static str, value: i64) -> Figure {
        Figure {
            name,
            value: value as f64,
            unit: FigureUnit::Count,
            plus_minus: None,
        }
    }
}

impl FigureUnit {
    /// The figure unit of a ruleset's length unit.
    pub fn of(unit: LengthUnit) -> FigureUnit {
        match unit {
            LengthUnit::Inches => FigureUnit::Inches,
            LengthUnit::Centimetres => FigureUnit::Centimetres,
            LengthUnit::Millimetres => FigureUnit::Millimetres,
            LengthUnit::ScaleMetres => FigureUnit::ScaleMetres,
        }
    }
}

/// Rewrite the lengths among `rulings`' figures, computed in inches, in the ruleset's unit
/// (rounded as the unit is printed: a tenth of a centimetre, a whole millimetre or metre).
/// Black Powder's figures, in inches already, are left untouched.
pub fn figures_in(rulings: &mut [Ruling], scale: LengthScale) {
    if scale.unit == LengthUnit::Inches {
        return;
    }
    let per = match scale.unit {
        LengthUnit::Centimetres => 10.0,
        _ => 1.0,
    };
    for figure in rulings.iter_mut().flat_map(|r| r.figures.iter_mut()) {
        if figure.unit == FigureUnit::Inches {
            figure.value = round(figure.value * scale.per_inch, per);
            figure.plus_minus = figure
                .plus_minus
                .map(|pm| round(pm * scale.per_inch, per * 10.0));
            figure.unit = FigureUnit::of(scale.unit);
        }
    }
}

fn round(value: f64, per: f64) -> f64 {
    (value * per).round() / per + 0.0
}

/// What a shape shows, so both views style it the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShapeRole {
    /// A fire arc clipped to the weapon's range.
    Arc,
    /// A measured line: range, charge path, command distance.
    Measure,
    /// A sight line that is clear.
    Sight,
    /// A sight line that is blocked.
    Blocked,
    /// A quarter of a unit.
    Quarter,
    /// Where a unit would stand (a suggested contact position).
    Placement,
    /// A zone a rule looks into (support zone, enfilade corridor).
    Zone,
}

/// A shape to draw on the table, in table inches.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "shape", rename_all = "kebab-case")]
pub enum Shape {
    /// A line from one point to another, with its label ("14.2"").
    Segment {
        /// Its role.
        role: ShapeRole,
        /// Start.
        #[serde(serialize_with = "crate::geometry::xy::written_point")]
        from: TablePoint,
        /// End.
        #[serde(serialize_with = "crate::geometry::xy::written_point")]
        to: TablePoint,
        /// Text to write along it.
        label: String,
    },
    /// A closed polygon.
    Polygon {
        /// Its role.
        role: ShapeRole,
        /// Corners, in order.
        #[serde(serialize_with = "crate::geometry::xy::written_points")]
        points: Vec<TablePoint>,
    },
}

/// A table point rounded to a thousandth of an inch, so that reports print clean numbers.
pub fn to_thousandth(point: &TablePoint) -> TablePoint {
    TablePoint::new(round(point.x, 1000.0), round(point.y, 1000.0))
}

impl Shape {
    /// A labelled segment.
    pub fn segment(
        role: ShapeRole,
        from: &TablePoint,
        to: &TablePoint,
        label: impl Into<String>,
    ) -> Shape {
        Shape::Segment {
            role,
            from: to_thousandth(from),
            to: to_thousandth(to),
            label: label.into(),
        }
    }

    /// A polygon.
    pub fn polygon(role: ShapeRole, points: &[TablePoint]) -> Shape {
        Shape::Polygon {
            role,
            points: points.iter().map(to_thousandth).collect(),
        }
    }
}

/// Which family of rules a ruling belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Topic {
    /// Who may shoot whom.
    Shooting,
    /// Who may charge whom, on which face.
    Charge,
    /// Whether two units are in contact.
    Contact,
    /// Flank and rear supports.
    Support,
    /// Command distance, initiative, brigade cohesion.
    Command,
    /// The 12" proximity rule.
    Proximity,
    /// Moves checked against allowances.
    Movement,
    /// Where a unit retires or evades to.
    Retire,
}

impl Ruling {
    /// The answer as marked, for colours and marks.
    pub fn verdict(&self) -> Verdict {
        self.decision.verdict()
    }
}

/// One decision about one unit (and possibly another), with everything needed to check it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ruling {
    /// The family of rules.
    pub topic: Topic,
    /// The unit (or commander) the ruling is about.
    pub unit: String,
    /// The other unit, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other: Option<String>,
    /// What it decides.
    pub decision: Decision,
    /// The rule applied.
    pub rule: RuleRef,
    /// The numbers behind it.
    pub figures: Vec<Figure>,
    /// In plain English.
    pub explanation: String,
    /// What to draw.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<Shape>,
}
