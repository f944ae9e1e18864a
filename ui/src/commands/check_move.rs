//! `vedette check-move BEFORE AFTER [--json]`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::bail;
use rules::Scene;
use rules::movement::{check_brigades, check_commanders, check_moves};
use rules::shooting::traversing_fire_in;

/// Compare two scenes of the same units and report each unit's move against its allowance.
pub fn run(
    before_path: &Path,
    after_path: &Path,
    profile: Option<&Path>,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let given = super::given_profile(profile)?;
    let before = Scene::load_against(before_path, given.as_ref())?;
    let after = Scene::load_against(after_path, given.as_ref())?;
    if before.ruleset != after.ruleset {
        bail!(
            "{} is a {} scene but {} is {}: compare scenes of one game",
            before_path.display(),
            before.ruleset.as_str(),
            after_path.display(),
            after.ruleset.as_str()
        );
    }
    let profile = super::profile_for(&before, given.as_ref());
    let (checks, roll) = check_moves(&before, &after, &profile);
    let brigades = check_brigades(&before, &after, &profile);
    let commanders = check_commanders(&before, &after, &profile);
    let traversing = traversing_fire_in(&before, &after, &profile);
    if json {
        let report = serde_json::json!({
            "moves": checks,
            "missing": roll.missing,
            "new": roll.new,
            "brigades": brigades,
            "commanders": commanders,
            "traversing": traversing,
        });
        serde_json::to_writer_pretty(&mut *out, &report)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} — moves from {} to {}",
        profile.name(),
        before_path.display(),
        after_path.display()
    )?;
    for check in &checks {
        for ruling in &check.rulings {
            writeln!(
                out,
                "  {} {}",
                super::rulings::mark(ruling.verdict()),
                ruling.explanation
            )?;
        }
    }
    let others = commanders
        .iter()
        .map(|c| &c.ruling)
        .chain(traversing.iter().map(|t| &t.ruling));
    for ruling in brigades.iter().chain(others) {
        writeln!(
            out,
            "  {} {}",
            super::rulings::mark(ruling.verdict()),
            ruling.explanation
        )?;
    }
    for id in &roll.missing {
        writeln!(
            out,
            "  ! {id} is in {} but not in {}.",
            before_path.display(),
            after_path.display()
        )?;
    }
    for id in &roll.new {
        writeln!(out, "  ! {id} is new in {}.", after_path.display())?;
    }
    Ok(())
}

/// The arguments of `vedette check-move` (its help is the `Command` variant's).
#[derive(Debug, clap::Args)]
pub struct CheckMoveCommand {
    /// The scene before the move.
    pub before: PathBuf,
    /// The scene after the move.
    pub after: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

impl CheckMoveCommand {
    /// Run it, writing its report to `out`.
    pub fn run(&self, profile: Option<&Path>, out: &mut dyn Write) -> anyhow::Result<()> {
        let CheckMoveCommand {
            before,
            after,
            json,
        } = self;
        run(before, after, profile, *json, out)
    }
}
