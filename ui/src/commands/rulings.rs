//! `vedette rulings SCENE [--unit ID] [--json]`.

use live::look::heading;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::bail;
use rules::ruling::{Ruling, Topic, Verdict};
use rules::rulings::{Rulings, rulings_with};
use rules::{Profile, Scene};

/// Load the scene, rule on it, and print every ruling (or those about one unit).
pub fn run(
    scene_path: &Path,
    profile: Option<&Path>,
    unit: Option<&str>,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let given = super::given_profile(profile)?;
    let scene = Scene::load_against(scene_path, given.as_ref())?;
    if let Some(id) = unit
        && scene.unit(id).is_none()
    {
        let known: Vec<&str> = scene.units.iter().map(|u| u.id.as_str()).collect();
        bail!(
            "{}: no unit '{id}' (units: {})",
            scene_path.display(),
            known.join(", ")
        );
    }
    let started = std::time::Instant::now();
    let profile = super::profile_for(&scene, given.as_ref());
    let mut report = rulings_with(&scene, &profile);
    tracing::info!(units = scene.units.len(), elapsed = ?started.elapsed(), "ruled on {}", scene_path.display());
    if let Some(id) = unit {
        report.units.retain(|u| u.summary.id == id);
        report.pairs.retain(|p| p.measurement.from == id);
        report
            .general
            .retain(|r| r.unit == id || r.other.as_deref() == Some(id));
    }
    if json {
        serde_json::to_writer_pretty(&mut *out, &report)?;
        writeln!(out)?;
    } else {
        write_report(&scene, &report, out)?;
    }
    Ok(())
}

/// A mark a player reads at a glance: the app's, but for no the terminal's ballot ✘.
pub fn mark(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::No => "✘",
        other => live::look::verdict_mark(other),
    }
}

/// Print rulings grouped by topic, each with its mark, rule and explanation.
pub fn write_rulings(
    rulings: &[Ruling],
    profile: &Profile,
    indent: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let topics = [
        Topic::Shooting,
        Topic::Charge,
        Topic::Support,
        Topic::Command,
        Topic::Proximity,
        Topic::Contact,
        Topic::Retire,
        Topic::Movement,
    ];
    for topic in topics {
        let group: Vec<&Ruling> = rulings.iter().filter(|r| r.topic == topic).collect();
        if group.is_empty() {
            continue;
        }
        writeln!(out, "{indent}{}", heading(topic, profile))?;
        for ruling in group {
            let reading = ruling
                .rule
                .reading
                .map(|r| format!(", {r}"))
                .unwrap_or_default();
            writeln!(
                out,
                "{indent}  {} {}  [{}{reading}]",
                mark(ruling.verdict()),
                ruling.explanation,
                ruling.rule.rule
            )?;
        }
    }
    Ok(())
}

/// Print a rulings report grouped by unit, then the general rulings and the legend.
pub fn write_report(scene: &Scene, report: &Rulings, out: &mut dyn Write) -> std::io::Result<()> {
    let profile = scene.profile();
    let title = scene
        .scenario
        .as_ref()
        .map(|s| format!(" — {}", s.name))
        .unwrap_or_default();
    writeln!(
        out,
        "{}{title}: {} units",
        profile.name(),
        scene.units.len()
    )?;
    for unit in &report.units {
        let state = if unit.engaged { ", engaged" } else { "" };
        writeln!(
            out,
            "\n{} ({}), {}: {} {}{state}",
            unit.summary.name,
            unit.summary.id,
            unit.summary.side,
            unit.summary.kind.as_str(),
            unit.summary.formation.as_str()
        )?;
        write_rulings(&unit.rulings, &profile, "  ", out)?;
    }
    if !report.general.is_empty() {
        writeln!(out, "\nThe table")?;
        write_rulings(&report.general, &profile, "  ", out)?;
    }
    writeln!(
        out,
        "\n✔ yes   ➖ penalty   🎲 test   ✘ no   ? borderline — players decide"
    )?;
    Ok(())
}

/// The arguments of `vedette rulings` (its help is the `Command` variant's).
#[derive(Debug, clap::Args)]
pub struct RulingsCommand {
    /// The scene file (JSON or TOML).
    pub scene: PathBuf,
    /// Only the rulings about this unit (its id).
    #[arg(long)]
    pub unit: Option<String>,
    /// Print JSON: the fields of `measure` plus shooting, visibility and charges.
    #[arg(long)]
    pub json: bool,
}

impl RulingsCommand {
    /// Run it, writing its report to `out`.
    pub fn run(&self, profile: Option<&Path>, out: &mut dyn Write) -> anyhow::Result<()> {
        let RulingsCommand { scene, unit, json } = self;
        run(scene, profile, unit.as_deref(), *json, out)
    }
}
