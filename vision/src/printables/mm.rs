//! Printed lengths, in millimetres.

use std::fmt;

use rules::units::Inches;

/// A printed length, millimetres.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Mm(pub f64);

impl Mm {
    /// Millimetres in an inch.
    pub const PER_INCH: f64 = 25.4;

    /// The same length from inches.
    pub fn from_inches(inches: Inches) -> Mm {
        Mm(inches.0 * Mm::PER_INCH)
    }

    /// The same length in inches.
    pub fn inches(self) -> Inches {
        Inches(self.0 / Mm::PER_INCH)
    }

    /// In PDF points (1/72").
    pub fn points(self) -> f64 {
        self.0 * 72.0 / Mm::PER_INCH
    }
}

impl fmt::Display for Mm {
    /// "25 mm (0.98 in)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} mm ({:.2} in)", trim(self.0), self.inches().0)
    }
}

/// A number with at most one decimal, without a trailing ".0".
pub(crate) fn trim(value: f64) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").unwrap_or(&text).to_owned()
}
