//! Reading profiles: the built-in ones compiled in, a file's, and the TOML text itself, whose
//! lengths are turned into table inches here, once.

use std::sync::OnceLock;

use super::Profile;
use crate::vocabulary::RulesetId;

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
        let mut profile: Profile = toml::from_str(text)?;
        check_numbers(text)?;
        profile.unit_per_inch = profile
            .written_unit_per_inch()
            .map_err(serde::de::Error::custom)?;
        profile.keep_citations();
        if profile.unit_per_inch != 1.0 {
            profile.convert_lengths(1.0 / profile.unit_per_inch);
        }
        Ok(profile)
    }
}

/// Every number of a profile is a length, an angle, a count or a scale: finite, never below
/// zero (a negative range once panicked the shooting rules) and never absurd (a move of 1e300
/// once made a retiring unit's path search loop for ever). The first that is not is refused by
/// its line and field.
fn check_numbers(text: &str) -> Result<(), toml::de::Error> {
    const LARGEST_NUMBER: f64 = 100_000.0;
    let in_range = |n: f64| (0.0..=LARGEST_NUMBER).contains(&n);
    if let Some((field, span)) = crate::toml_numbers::first_number_where(text, &|n| !in_range(n)) {
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
    Ok(())
}
