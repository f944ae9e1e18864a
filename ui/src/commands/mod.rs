//! One module per subcommand.

pub mod calibrate;
pub mod check_move;
pub mod detect;
pub mod locate;
pub mod measure;
pub mod output;
pub mod printables;
pub mod render;
pub mod roster;
pub mod rulings;
pub mod table;
pub mod tag_advice;
pub mod terrain;

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};
use rules::{Profile, RulesetId, Scene};

/// The `--profile` file, read, when one is given.
pub fn given_profile(path: Option<&Path>) -> anyhow::Result<Option<Profile>> {
    Ok(path.map(Profile::load).transpose()?)
}

/// The profile a command uses for `scene`: the `--profile` file's if given, else the built-in
/// one; either way at the scene's distance scale.
pub fn profile_for(scene: &Scene, given: Option<&Profile>) -> Profile {
    match given {
        Some(profile) => scene.scaled(profile),
        None => scene.profile(),
    }
}

/// The roster at `path`, for a table whose anchors are printed in `family`: refused, naming
/// the file, when its tags are of another family (the detector would never see them).
pub fn roster_for_table(
    path: &Path,
    family: &str,
    anchors: &[u32],
    anchors_from: &Path,
) -> anyhow::Result<::roster::Roster> {
    let text = calibration::files::read_text(path)?;
    let roster = ::roster::Roster::parse(&text, path)?;
    if let Some(clash) = roster.family_clash(family) {
        bail!("{}: {clash}", path.display());
    }
    if let Some(&(id, owner)) = roster.anchor_clashes(anchors.iter().copied()).first() {
        let line = roster
            .tag_lines(&text)
            .get(&id)
            .map_or_else(String::new, |line| format!(":{line}"));
        bail!(
            "{}{line}: tag {id} on {} is also an anchor of the table ({}): a stand wearing it would be put at the anchor's place; give the stand another tag (`vedette roster check --anchors` lists every clash)",
            path.display(),
            roster.describe(owner),
            anchors_from.display()
        );
    }
    Ok(roster)
}

/// `vedette profile RULESET`: print a built-in profile.
pub fn print_profile(ruleset: &str, out: &mut dyn Write) -> anyhow::Result<()> {
    let id: RulesetId = serde_json::from_value(serde_json::Value::String(ruleset.to_owned()))
        .with_context(|| format!("no built-in profile for ruleset '{ruleset}'"))?;
    out.write_all(Profile::builtin_text(id).as_bytes())?;
    Ok(())
}
