//! Quantities that carry their unit.
//!
//! Everything in `rules` is measured on the table, so lengths are [`Inches`] and angles are
//! [`Degrees`]; pixels never reach this crate. A bare `f64` in a public signature is a ratio or
//! a count, never a length or an angle.

use std::cell::Cell;
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

use serde::{Deserialize, Serialize, Serializer};

/// A length on the table, in inches (the unit Black Powder measures in). It is written out in
/// inches, or in a ruleset's unit inside [`written_in`].
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Deserialize)]
#[serde(transparent)]
pub struct Inches(pub f64);

impl Serialize for Inches {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(written(self.0))
    }
}

thread_local! {
    /// The unit a report is being written in (see [`written_in`]); `None` outside one.
    static WRITTEN_IN: Cell<Option<LengthScale>> = const { Cell::new(None) };
}

/// Run `write` with every [`Inches`] and table position (see `geometry::xy`) serialized in
/// `scale`'s unit, to the hundredth, the precision Vedette reports: a report under a
/// millimetre ruleset speaks millimetres throughout. Elsewhere (calibrations, rosters) lengths
/// are written in exact inches, and reading is unaffected.
pub fn written_in<T>(scale: LengthScale, write: impl FnOnce() -> T) -> T {
    /// Puts the unit back however `write` ends.
    struct Restore(Option<LengthScale>);
    impl Drop for Restore {
        fn drop(&mut self) {
            WRITTEN_IN.set(self.0);
        }
    }
    let _restore = Restore(WRITTEN_IN.replace(Some(scale)));
    write()
}

/// A number of table inches as it is written: exact, or in a report's unit to the hundredth.
pub(crate) fn written(inches: f64) -> f64 {
    match WRITTEN_IN.get() {
        None => inches,
        Some(scale) => (inches * scale.per_inch * 100.0).round() / 100.0,
    }
}

impl Inches {
    /// Zero inches.
    pub const ZERO: Inches = Inches(0.0);

    /// The absolute length.
    pub fn abs(self) -> Inches {
        Inches(self.0.abs())
    }

    /// The smaller of two lengths.
    pub fn min(self, other: Inches) -> Inches {
        Inches(self.0.min(other.0))
    }

    /// The larger of two lengths.
    pub fn max(self, other: Inches) -> Inches {
        Inches(self.0.max(other.0))
    }

    /// Rounded to the hundredth of an inch, the precision Vedette reports.
    pub fn rounded(self) -> Inches {
        Inches((self.0 * 100.0).round() / 100.0)
    }

    /// Rounded up to a hundredth: an error bar is never printed smaller than it is (0.003"
    /// prints as 0.01", not 0.00").
    pub fn rounded_up(self) -> Inches {
        Inches((self.0 * 100.0 - 1e-9).ceil() / 100.0)
    }
}

impl fmt::Display for Inches {
    /// Two decimals and the inch mark, as a player writes it: `7.43"`. Written as whole
    /// hundredths through integer formatting: rulings print thousands of these.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hundredths = (self.0 * 100.0).round();
        if !hundredths.is_finite() || hundredths.abs() >= 1e15 {
            return write!(f, "{:.2}\"", self.0);
        }
        let hundredths = hundredths as i64;
        let sign = if hundredths < 0 { "-" } else { "" };
        let magnitude = hundredths.unsigned_abs();
        write!(f, "{sign}{}.{:02}\"", magnitude / 100, magnitude % 100)
    }
}

impl Add for Inches {
    type Output = Inches;
    fn add(self, rhs: Inches) -> Inches {
        Inches(self.0 + rhs.0)
    }
}

impl Sub for Inches {
    type Output = Inches;
    fn sub(self, rhs: Inches) -> Inches {
        Inches(self.0 - rhs.0)
    }
}

impl Neg for Inches {
    type Output = Inches;
    fn neg(self) -> Inches {
        Inches(-self.0)
    }
}

impl Mul<f64> for Inches {
    type Output = Inches;
    fn mul(self, factor: f64) -> Inches {
        Inches(self.0 * factor)
    }
}

impl Div<f64> for Inches {
    type Output = Inches;
    fn div(self, divisor: f64) -> Inches {
        Inches(self.0 / divisor)
    }
}

/// The unit a ruleset measures in: what its profile's numbers are written in and what its
/// rulings print. Internally every length stays [`Inches`]; this is only for reading and writing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LengthUnit {
    /// Table inches (Black Powder).
    #[default]
    Inches,
    /// Table centimetres (BPT Commander).
    Centimetres,
    /// Table millimetres (Bugles, Bullets and Blades).
    Millimetres,
    /// Metres on the ground the table represents (eRules): how many table millimetres one scale
    /// metre takes depends on the figure scale, so the conversion carries it.
    ScaleMetres,
}

/// Millimetres in an inch, exactly.
pub const MM_PER_INCH: f64 = 25.4;

impl LengthUnit {
    /// The unit's symbol as rulings print it.
    pub fn symbol(self) -> &'static str {
        match self {
            LengthUnit::Inches => "\"",
            LengthUnit::Centimetres => " cm",
            LengthUnit::Millimetres => " mm",
            LengthUnit::ScaleMetres => " m",
        }
    }

    /// The unit's name for people.
    pub fn name(self) -> &'static str {
        match self {
            LengthUnit::Inches => "inches",
            LengthUnit::Centimetres => "centimetres",
            LengthUnit::Millimetres => "millimetres",
            LengthUnit::ScaleMetres => "scale metres",
        }
    }

    /// Whether lengths in this unit are ground lengths, which a figure or distance scale does
    /// not change (100 scale metres are 100 m whatever the figures), rather than table lengths.
    pub fn is_ground(self) -> bool {
        self == LengthUnit::ScaleMetres
    }
}

/// How to turn table inches into a ruleset's unit and back: the unit and how many of it make
/// one table inch (1 for inches, 2.54 for centimetres, 25.4 for millimetres, 25.4 ÷ table
/// millimetres per scale metre for scale metres).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LengthScale {
    /// The unit.
    pub unit: LengthUnit,
    /// How many of the unit make one table inch.
    pub per_inch: f64,
}

impl LengthScale {
    /// Table inches, as Black Powder measures.
    pub const INCHES: LengthScale = LengthScale {
        unit: LengthUnit::Inches,
        per_inch: 1.0,
    };

    /// A length in this unit, in table inches.
    pub fn to_inches(self, value: f64) -> Inches {
        Inches(value / self.per_inch)
    }

    /// A table length as a number of this unit.
    pub fn value_of(self, length: Inches) -> f64 {
        length.0 * self.per_inch
    }

    /// A table length, printable in this unit.
    pub fn length(self, length: Inches) -> Length {
        Length {
            inches: length,
            scale: self,
        }
    }
}

/// A table length shown in a ruleset's unit: `7.43"`, `18.9 cm`, `150 mm`, `200 m`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Length {
    /// The length.
    pub inches: Inches,
    /// The unit it prints in.
    pub scale: LengthScale,
}

impl fmt::Display for Length {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = || self.scale.value_of(self.inches);
        match self.scale.unit {
            // Exactly as inches always printed, so Black Powder's rulings do not change.
            LengthUnit::Inches => self.inches.fmt(f),
            LengthUnit::Centimetres => write!(f, "{:.1} cm", value()),
            LengthUnit::Millimetres => write!(f, "{:.0} mm", value()),
            LengthUnit::ScaleMetres => write!(f, "{:.0} m", value()),
        }
    }
}

/// An angle in degrees. Facings are counter-clockwise from the table's +x axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Degrees(pub f64);

impl Degrees {
    /// The angle in radians, for trigonometry.
    pub fn to_radians(self) -> f64 {
        self.0.to_radians()
    }

    /// The angle from radians.
    pub fn from_radians(radians: f64) -> Degrees {
        Degrees(radians.to_degrees())
    }

    /// The same direction expressed in `[0, 360)`.
    pub fn normalized(self) -> Degrees {
        let d = self.0.rem_euclid(360.0);
        // rem_euclid can return 360.0 for tiny negative inputs.
        Degrees(if d >= 360.0 { 0.0 } else { d })
    }

    /// The signed turn from this facing to `to`, the shorter way: in (−180°, 180°].
    pub fn turn_to(self, to: Degrees) -> Degrees {
        let d = (to.0 - self.0).rem_euclid(360.0);
        Degrees(if d > 180.0 { d - 360.0 } else { d })
    }
}

impl fmt::Display for Degrees {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1}°", self.0)
    }
}

impl Add for Degrees {
    type Output = Degrees;
    fn add(self, rhs: Degrees) -> Degrees {
        Degrees(self.0 + rhs.0)
    }
}

impl Sub for Degrees {
    type Output = Degrees;
    fn sub(self, rhs: Degrees) -> Degrees {
        Degrees(self.0 - rhs.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_between_facings_goes_the_shorter_way() {
        assert_eq!(Degrees(10.0).turn_to(Degrees(40.0)), Degrees(30.0));
        assert_eq!(Degrees(350.0).turn_to(Degrees(10.0)), Degrees(20.0));
        assert_eq!(Degrees(10.0).turn_to(Degrees(350.0)), Degrees(-20.0));
        assert_eq!(Degrees(-90.0).turn_to(Degrees(630.0)), Degrees(0.0));
        // Half a turn is one way, whichever facing it starts from.
        assert_eq!(Degrees(0.0).turn_to(Degrees(180.0)), Degrees(180.0));
        assert_eq!(Degrees(180.0).turn_to(Degrees(0.0)), Degrees(180.0));
    }

    #[test]
    fn inches_print_like_a_tape_measure() {
        assert_eq!(Inches(7.434).to_string(), "7.43\"");
        assert_eq!(Inches(0.0).to_string(), "0.00\"");
        assert_eq!(Inches(-0.504).to_string(), "-0.50\"");
        assert_eq!(Inches(12.0).to_string(), "12.00\"");
        assert_eq!(Inches(f64::INFINITY).to_string(), "inf\"");
        assert_eq!(Inches(7.436).rounded(), Inches(7.44));
    }

    #[test]
    fn lengths_print_in_their_rulesets_unit() {
        let cm = LengthScale {
            unit: LengthUnit::Centimetres,
            per_inch: 2.54,
        };
        let mm = LengthScale {
            unit: LengthUnit::Millimetres,
            per_inch: MM_PER_INCH,
        };
        // 15 mm figures: 2.4 table mm per scale metre.
        let metres = LengthScale {
            unit: LengthUnit::ScaleMetres,
            per_inch: MM_PER_INCH / 2.4,
        };
        assert_eq!(
            LengthScale::INCHES.length(Inches(7.434)).to_string(),
            "7.43\""
        );
        assert_eq!(cm.length(Inches(10.0)).to_string(), "25.4 cm");
        assert_eq!(mm.length(Inches(6.0)).to_string(), "152 mm");
        assert_eq!(
            metres.length(Inches(480.0 / MM_PER_INCH)).to_string(),
            "200 m"
        );
        assert!((mm.to_inches(25.4).0 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn degrees_normalize_into_one_turn() {
        assert_eq!(Degrees(-90.0).normalized(), Degrees(270.0));
        assert_eq!(Degrees(720.0).normalized(), Degrees(0.0));
        assert_eq!(Degrees(-1e-18).normalized(), Degrees(0.0));
    }
}
