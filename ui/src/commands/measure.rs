//! `vedette measure SCENE [--json]`.

use std::io::Write;
use std::path::{Path, PathBuf};

use rules::measure::{Measurements, PairMeasurement, UnitSummary, measure_with};
use rules::units::Inches;
use rules::{Profile, Scene};

/// Load the scene, measure it, and print the report.
pub fn run(
    scene_path: &Path,
    profile: Option<&Path>,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let given = super::given_profile(profile)?;
    let scene = Scene::load_against(scene_path, given.as_ref())?;
    let profile = super::profile_for(&scene, given.as_ref());
    tracing::info!(
        units = scene.units.len(),
        terrain = scene.terrain.len(),
        "loaded {}",
        scene_path.display()
    );
    let measurements = measure_with(&scene, &profile);
    if json {
        serde_json::to_writer_pretty(&mut *out, &measurements)?;
        writeln!(out)?;
    } else {
        write_report(&scene, &profile, scene_path, &measurements, out)?;
    }
    Ok(())
}

/// Lengths print in the ruleset's own unit (inches, cm, mm, scale metres).
fn write_report(
    scene: &Scene,
    profile: &Profile,
    path: &Path,
    m: &Measurements,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{} — {} — table {}×{}, {} units, {} terrain pieces",
        profile.name(),
        path.display(),
        profile.length(scene.table.width),
        profile.length(scene.table.depth),
        scene.units.len(),
        scene.terrain.len()
    )?;
    writeln!(out, "\nUnits")?;
    for unit in &m.units {
        write_unit(unit, profile, out)?;
    }
    if m.pairs.is_empty() {
        writeln!(out, "\nNo enemy units face each other.")?;
        return Ok(());
    }
    writeln!(out, "\nEnemy pairs (from the first unit's point of view)")?;
    writeln!(
        out,
        "  {:<34} {:>8} {:>8} {:>9}  {:<24} {:>5}  in range",
        "from → to", "edge", "range", "in arc", "in quarter", "arc"
    )?;
    for pair in &m.pairs {
        write_pair(pair, profile, out)?;
    }
    Ok(())
}

fn write_unit(unit: &UnitSummary, profile: &Profile, out: &mut dyn Write) -> std::io::Result<()> {
    let length = |l| profile.length(l);
    let weapon = match (&unit.weapon, unit.weapon_range) {
        (Some(w), Some(r)) => format!("{w} {}", length(r)),
        (Some(w), None) => format!("{w} (hand-to-hand)"),
        _ => "no weapon".to_owned(),
    };
    let nearest = unit
        .nearest_enemy
        .as_ref()
        .map(|n| format!("nearest enemy {} at {}", n.id, length(n.edge_distance)))
        .unwrap_or_else(|| "no enemy".to_owned());
    writeln!(
        out,
        "  {} ({}), {}: {} {}, leader ({}, {}) facing {}, {}×{}, move {}, {}{}; {}",
        unit.name,
        unit.id,
        unit.side,
        unit.kind.as_str(),
        unit.formation.as_str(),
        // Where it stands, in the ruleset's own unit like every other length here.
        length(Inches(unit.leader.x)),
        length(Inches(unit.leader.y)),
        unit.facing,
        length(unit.frontage),
        length(unit.depth),
        length(unit.move_allowance),
        weapon,
        if unit.can_shoot || unit.weapon_range.is_none() {
            ""
        } else {
            " (cannot shoot in this formation)"
        },
        nearest
    )
}

fn write_pair(
    pair: &PairMeasurement,
    profile: &Profile,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let length = |l| profile.length(l);
    let in_arc = pair
        .range_in_arc
        .map(|r| length(r).to_string())
        .unwrap_or_else(|| "—".to_owned());
    let verdict = match (pair.weapon_range.map(length), pair.in_range) {
        (None, _) => "no ranged weapon".to_owned(),
        (Some(max), true) => format!("yes (max {max})"),
        (Some(max), false) if pair.range_in_arc.is_none() => format!("no: not in arc (max {max})"),
        (Some(max), false) => format!("no (max {max})"),
    };
    let quarter = if pair.target_quarter == pair.target_face {
        pair.target_quarter.describe().to_owned()
    } else {
        format!(
            "{} ({})",
            pair.target_quarter.describe(),
            pair.target_face.describe()
        )
    };
    writeln!(
        out,
        "  {:<34} {:>8} {:>8} {:>9}  {:<24} {:>4.0}%  {}",
        format!("{} → {}", pair.from, pair.to),
        length(pair.edge_distance).to_string(),
        length(pair.range).to_string(),
        in_arc,
        quarter,
        pair.arc_fraction * 100.0,
        verdict
    )?;
    for b in &pair.borderline {
        writeln!(out, "      ! {}", b.explanation)?;
    }
    Ok(())
}

/// The arguments of `vedette measure` (its help is the `Command` variant's).
#[derive(Debug, clap::Args)]
pub struct MeasureCommand {
    /// The scene file (JSON or TOML).
    pub scene: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

impl MeasureCommand {
    /// Run it, writing its report to `out`.
    pub fn run(&self, profile: Option<&Path>, out: &mut dyn Write) -> anyhow::Result<()> {
        let MeasureCommand { scene, json } = self;
        run(scene, profile, *json, out)
    }
}
