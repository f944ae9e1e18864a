//! Units and scale: the unit a profile's lengths are written in, its ground scale for scale
//! metres, and its distance scale for smaller figures. Lengths are turned into table inches once,
//! on reading; the distance scale is applied as each length is handed out.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::Profile;
use crate::units::{Inches, Length, LengthScale, LengthUnit, MM_PER_INCH};

/// Table millimetres per ground unit for each figure scale (eRules §36, digest §1.1).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GroundScale {
    /// The figure scale (in mm) the profile's numbers are read at.
    pub default_figures: u32,
    /// Figure scale (mm) → table millimetres per unit.
    pub mm_per_unit: BTreeMap<String, f64>,
}

impl GroundScale {
    /// Table millimetres per ground unit for figures of `figures` mm, if the profile lists them.
    pub fn mm_per_unit(&self, figures: u32) -> Option<f64> {
        self.mm_per_unit.get(&figures.to_string()).copied()
    }
}

/// Why a figure scale cannot be used with a profile.
#[derive(Debug, thiserror::Error)]
#[error("{ruleset} has no ground scale for {figures} mm figures (it knows {known})")]
pub struct FigureScaleError {
    /// The ruleset.
    pub ruleset: &'static str,
    /// The figure scale asked for.
    pub figures: u32,
    /// The figure scales it knows.
    pub known: String,
}

impl Profile {
    /// The profile's own distance scale.
    pub fn distance_scale(&self) -> f64 {
        self.distance_scale
    }

    /// The unit the ruleset measures in.
    pub fn length_unit(&self) -> LengthUnit {
        self.length_unit
    }

    /// How the ruleset's unit relates to table inches at this profile's scale. A ground unit
    /// (scale metres) shrinks with the figures; table units do not.
    pub fn length_scale(&self) -> LengthScale {
        let per_inch = if self.length_unit.is_ground() {
            self.unit_per_inch / self.distance_scale
        } else {
            self.unit_per_inch
        };
        LengthScale {
            unit: self.length_unit,
            per_inch,
        }
    }

    /// A table length, printable in the ruleset's unit (`7.43"`, `18.9 cm`, `150 mm`, `200 m`).
    pub fn length(&self, length: Inches) -> Length {
        self.length_scale().length(length)
    }

    /// The ground scale, for rulesets that measure in scale metres.
    pub fn ground_scale(&self) -> Option<&GroundScale> {
        self.ground_scale.as_ref()
    }

    /// The same profile for figures of `figures` mm (ground-scale rulesets only; others are
    /// returned unchanged, their scenes use `distance-scale`).
    pub fn with_figure_scale(&self, figures: u32) -> Result<Self, FigureScaleError> {
        let Some(ground) = &self.ground_scale else {
            return Ok(self.clone());
        };
        let (Some(wanted), Some(base)) = (
            ground.mm_per_unit(figures),
            ground.mm_per_unit(ground.default_figures),
        ) else {
            return Err(FigureScaleError {
                ruleset: self.id.as_str(),
                figures,
                known: ground
                    .mm_per_unit
                    .keys()
                    .map(|k| format!("{k} mm"))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        Ok(self.with_distance_scale(self.distance_scale * wanted / base))
    }

    /// The same profile with every length multiplied by `scale` (0.5 for 15 mm figures).
    pub fn with_distance_scale(&self, scale: f64) -> Self {
        Self {
            distance_scale: scale,
            ..self.clone()
        }
    }

    /// A length the profile states (a move, a trigger's distance), at its distance scale.
    pub fn scaled(&self, length: Inches) -> Inches {
        length * self.distance_scale
    }

    /// How many of the profile's unit make one table inch at distance scale 1.
    pub(super) fn written_unit_per_inch(&self) -> Result<f64, &'static str> {
        let per_inch = match (self.length_unit, &self.ground_scale) {
            (LengthUnit::Inches, _) => 1.0,
            (LengthUnit::Centimetres, _) => MM_PER_INCH / 10.0,
            (LengthUnit::Millimetres, _) => MM_PER_INCH,
            (LengthUnit::ScaleMetres, Some(ground)) => {
                let mm = ground
                    .mm_per_unit(ground.default_figures)
                    .ok_or("ground-scale.mm-per-unit must list ground-scale.default-figures")?;
                MM_PER_INCH / mm
            }
            (LengthUnit::ScaleMetres, None) => {
                return Err("a profile in scale metres needs a [ground-scale] table");
            }
        };
        Ok(per_inch)
    }

    /// Multiply every length the profile holds by `factor` (its unit → inches). Each table
    /// converts its own lengths, so a length added to a table is converted where it is declared.
    pub(super) fn convert_lengths(&mut self, factor: f64) {
        self.tolerance.distance = self.tolerance.distance * factor;
        self.kinds
            .values_mut()
            .for_each(|kind| kind.convert(factor));
        self.formations
            .values_mut()
            .for_each(|formation| formation.convert(factor));
        self.distances.convert(factor);
        self.weapons
            .iter_mut()
            .for_each(|weapon| weapon.convert(factor));
        self.extras.convert(factor);
        self.terrain
            .values_mut()
            .for_each(|ground| ground.convert(factor));
        self.triggers
            .iter_mut()
            .for_each(|trigger| trigger.convert(factor));
    }
}
