//! Quantities that carry their unit.
//!
//! Everything in `rules` is measured on the table, so lengths are [`Inches`] and angles are
//! [`Degrees`]; pixels never reach this crate. A bare `f64` in a public signature is a ratio or
//! a count, never a length or an angle.

use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

use serde::{Deserialize, Serialize};

/// A length on the table, in inches (the unit Black Powder measures in).
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Inches(pub f64);

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
    fn inches_print_like_a_tape_measure() {
        assert_eq!(Inches(7.434).to_string(), "7.43\"");
        assert_eq!(Inches(0.0).to_string(), "0.00\"");
        assert_eq!(Inches(-0.504).to_string(), "-0.50\"");
        assert_eq!(Inches(12.0).to_string(), "12.00\"");
        assert_eq!(Inches(f64::INFINITY).to_string(), "inf\"");
        assert_eq!(Inches(7.436).rounded(), Inches(7.44));
    }

    #[test]
    fn degrees_normalize_into_one_turn() {
        assert_eq!(Degrees(-90.0).normalized(), Degrees(270.0));
        assert_eq!(Degrees(720.0).normalized(), Degrees(0.0));
        assert_eq!(Degrees(-1e-18).normalized(), Degrees(0.0));
    }
}
