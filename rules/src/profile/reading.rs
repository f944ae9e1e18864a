//! Reading profiles: the built-in ones compiled in, a file's, and the TOML text itself, whose
//! lengths are turned into table inches here, once.

use std::sync::OnceLock;

use super::*;

/// Why a profile file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// The file could not be read.
    #[error("{}: cannot read the profile: {cause}", file.display())]
    Read {
        /// The file.
        file: std::path::PathBuf,
        /// What the system said.
        cause: std::io::Error,
    },
    /// The file is not a valid profile.
    #[error("{}: not a valid profile: {cause}", file.display())]
    Invalid {
        /// The file.
        file: std::path::PathBuf,
        /// What the parser said (with the line).
        cause: toml::de::Error,
    },
}

impl Profile {
    /// The built-in profile of a ruleset.
    pub fn builtin(id: RulesetId) -> &'static Profile {
        static PROFILES: [OnceLock<Profile>; RulesetId::ALL.len()] =
            [const { OnceLock::new() }; RulesetId::ALL.len()];
        PROFILES[id.index()].get_or_init(|| {
            Profile::from_toml(Profile::builtin_text(id))
                .expect("every built-in profile parses (tested)")
        })
    }

    /// The TOML text of a built-in profile, to copy and adjust.
    pub fn builtin_text(id: RulesetId) -> &'static str {
        id.profile_text()
    }

    /// A profile from a TOML file.
    pub fn load(path: &std::path::Path) -> Result<Profile, ProfileError> {
        let text = std::fs::read_to_string(path).map_err(|cause| ProfileError::Read {
            file: path.to_owned(),
            cause,
        })?;
        Profile::from_toml(&text).map_err(|cause| ProfileError::Invalid {
            file: path.to_owned(),
            cause,
        })
    }

    /// A profile from its TOML text. Its lengths, written in its own unit, are turned into
    /// table inches here, once.
    pub fn from_toml(text: &str) -> Result<Profile, toml::de::Error> {
        const LARGEST_NUMBER: f64 = 100_000.0;
        let mut profile: Profile = toml::from_str(text)?;
        // Every number of a profile is a length, an angle, a count or a scale: finite, never
        // below zero (a negative range once panicked the shooting rules) and never absurd (a
        // move of 1e300 once made a retiring unit's path search loop for ever).
        let in_range = |n: f64| (0.0..=LARGEST_NUMBER).contains(&n);
        if let Some((field, span)) =
            crate::toml_numbers::first_number_where(text, &|n| !in_range(n))
        {
            let wanted = match text[span.clone()].parse::<f64>() {
                Ok(n) if n < 0.0 && n.is_finite() => "zero or more",
                Ok(n) if n.is_finite() => {
                    "at most 100,000 (no length, angle or count of a ruleset is larger)"
                }
                _ => "a finite number",
            };
            let line = text[..span.start].matches('\n').count() + 1;
            return Err(serde::de::Error::custom(format!(
                "line {line}: {field}: must be {wanted}, not {}",
                &text[span]
            )));
        }
        let per_inch = match (profile.length_unit, &profile.ground_scale) {
            (LengthUnit::Inches, _) => 1.0,
            (LengthUnit::Centimetres, _) => MM_PER_INCH / 10.0,
            (LengthUnit::Millimetres, _) => MM_PER_INCH,
            (LengthUnit::ScaleMetres, Some(ground)) => {
                let mm = ground.mm_per_unit(ground.default_figures).ok_or_else(|| {
                    serde::de::Error::custom(
                        "ground-scale.mm-per-unit must list ground-scale.default-figures",
                    )
                })?;
                MM_PER_INCH / mm
            }
            (LengthUnit::ScaleMetres, None) => {
                return Err(serde::de::Error::custom(
                    "a profile in scale metres needs a [ground-scale] table",
                ));
            }
        };
        profile.unit_per_inch = per_inch;
        for trigger in &mut profile.triggers {
            trigger.cited = RuleRef {
                rule: keep(&trigger.rule),
                reading: trigger.reading.as_deref().map(keep),
            };
        }
        profile.citations = profile
            .rules
            .iter()
            .map(|(engine, own)| {
                let cited = RuleRef {
                    rule: keep(&own.rule),
                    reading: own.reading.as_deref().map(keep),
                };
                (keep(engine), cited)
            })
            .collect();
        profile.rule_names = RuleNames {
            command: profile
                .extras
                .command_rule
                .as_deref()
                .map(|rule| RuleRef::book(keep(rule))),
            proximity: profile.extras.proximity.as_ref().map(|words| RuleRef {
                rule: keep(&words.rule),
                reading: words.reading.as_deref().map(keep),
            }),
        };
        if per_inch != 1.0 {
            profile.convert_lengths(1.0 / per_inch);
        }
        Ok(profile)
    }

    /// Multiply every length the profile holds by `factor` (its unit → inches).
    fn convert_lengths(&mut self, factor: f64) {
        self.tolerance.distance = self.tolerance.distance * factor;
        for kind in self.kinds.values_mut() {
            kind.move_allowance = kind.move_allowance * factor;
            kind.charge = kind.charge.map(|c| c * factor);
        }
        for formation in self.formations.values_mut() {
            formation.move_allowance = formation.move_allowance.map(|m| m * factor);
            formation.halts_near_cavalry = formation.halts_near_cavalry.map(|d| d * factor);
        }
        self.distances.convert(factor);
        for weapon in &mut self.weapons {
            for length in [
                &mut weapon.range,
                &mut weapon.minimum,
                &mut weapon.limbered_move,
                &mut weapon.canister,
                &mut weapon.canister_long,
            ] {
                *length = length.map(|l| l * factor);
            }
        }
        self.extras.convert(factor);
        for ground in self.terrain.values_mut() {
            ground.sight_inside = ground.sight_inside.map(|d| d * factor);
            ground.sight_into = ground.sight_into.map(|d| d * factor);
        }
        for trigger in &mut self.triggers {
            trigger.within = trigger.within * factor;
            trigger.wider = trigger.wider.map(|w| w * factor);
        }
    }
}
