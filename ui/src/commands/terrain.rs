//! `vedette terrain PICTURE --calibration CAL`: the terrain on the table, found in one picture,
//! written as a scene file `rulings`, `locate --terrain`, `calibrate --scenario` and the app read.
//!
//! Decisions:
//! - Pieces the finder is sure of go in the file; pieces it only proposes are listed with why,
//!   and go in only with `--all`: a piece nobody confirmed is never ruled on silently.
//! - The file is a whole scene (the reference ruleset, the calibration's table, the terrain, no
//!   units), so each reader takes it as it is.
//! - Stands are never terrain: every tag found is kept clear, and with `--roster` every stand's
//!   base as `locate` places it (its tags too small for the detector looked for where the
//!   camera would see them).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::bail;
use calibration::TableCalibration;
use rules::scene::{SceneDoc, TableDoc};
use rules::units::Inches;
use vision::DetectorSettings;
use vision::terrain::{FoundPiece, Keepout, TAG_KEEPOUT, TerrainSurvey, find_terrain};

use super::locate::LocateArgs;
use vision::terrain::rise;

/// How much wider than a roster's stand base nothing is terrain: its figures, and the camera's
/// doubt of where it is.
const BASE_MARGIN: Inches = Inches(0.4);
/// The height of tags the roster does not list (as `locate` takes it).
const TAG_HEIGHT: f64 = 0.16;

/// The arguments of `vedette terrain` (its help is the `Command` variant's).
#[derive(Debug, clap::Args)]
pub struct TerrainCommand {
    /// The picture (PNG or JPEG), taken by the calibrated camera.
    pub image: PathBuf,
    /// The camera's calibration (from `vedette calibrate`).
    #[arg(long, value_name = "CAL.json")]
    pub calibration: PathBuf,
    /// The roster: its stands' tags too small for the detector are looked for too, so that no
    /// stand is taken for terrain.
    #[arg(long, value_name = "ROSTER.toml")]
    pub roster: Option<PathBuf>,
    /// Write the terrain to this scene file.
    #[arg(short, long, value_name = "TERRAIN.json")]
    pub output: Option<PathBuf>,
    /// Put the proposed pieces in the file too, not only those the finder is sure of.
    #[arg(long)]
    pub all: bool,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
    /// Print JSON: every piece with its confidence and why.
    #[arg(long)]
    pub json: bool,
    /// Write the picture with every piece drawn on it (sure in white, proposed in yellow).
    #[arg(long, value_name = "OUT.png")]
    pub annotate: Option<PathBuf>,
}

impl TerrainCommand {
    /// Run it, writing its report to `out`.
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        if let Some(output) = &self.output {
            if output.extension().and_then(|e| e.to_str()) != Some("json") {
                bail!(
                    "{}: terrain is written as a JSON scene file: name it TERRAIN.json",
                    output.display()
                );
            }
            let inputs: Vec<&Path> = [Some(self.image.as_path()), Some(&self.calibration)]
                .into_iter()
                .chain([self.roster.as_deref()])
                .flatten()
                .collect();
            super::output::claim(output, &inputs, self.force)?;
        }
        if let Some(annotate) = &self.annotate {
            let inputs = [self.image.as_path(), self.calibration.as_path()];
            super::output::claim_picture(annotate, &inputs, self.force)?;
        }
        let (survey, seconds, located) = self.survey(DetectorSettings::default())?;
        let calibration = located.calibration();
        let chosen: Vec<&FoundPiece> = survey
            .pieces
            .iter()
            .filter(|p| self.all || !p.proposed())
            .collect();
        if self.json {
            let pieces: Vec<serde_json::Value> = survey.pieces.iter().map(piece_json).collect();
            let value = serde_json::json!({
                "pieces": pieces,
                "seen": survey.seen,
                "seconds": seconds,
            });
            serde_json::to_writer_pretty(&mut *out, &value)?;
            writeln!(out)?;
        } else {
            report(&survey, seconds, out)?;
        }
        if let Some(annotate) = &self.annotate {
            let drawn =
                vision::terrain::draw::draw(located.image(), &calibration.camera, &survey.pieces)?;
            super::output::write_picture(annotate, &drawn)?;
        }
        if let Some(output) = &self.output {
            let doc = scene_of(calibration, &chosen);
            let text = serde_json::to_string_pretty(&doc)? + "\n";
            calibration::files::write_whole(output, |temporary| std::fs::write(temporary, &text))?;
            if !self.json {
                writeln!(
                    out,
                    "{}: {} piece(s) written{}",
                    output.display(),
                    chosen.len(),
                    match survey.pieces.len() - chosen.len() {
                        0 => String::new(),
                        left => format!("; {left} proposed piece(s) left out (--all takes them)"),
                    }
                )?;
            }
        }
        Ok(())
    }

    /// Read the picture, keep the stands clear, and find the terrain.
    fn survey(
        &self,
        detector: DetectorSettings,
    ) -> anyhow::Result<(TerrainSurvey, f64, super::locate::Located)> {
        let located = super::locate::locate(
            &LocateArgs {
                image: &self.image,
                calibration: &self.calibration,
                roster: self.roster.as_deref(),
                terrain: None,
                tag_height: Inches(TAG_HEIGHT),
            },
            detector,
        )?;
        let calibration = located.calibration();
        let mut keepout: Vec<Keepout> = located
            .tags()
            .tags
            .iter()
            .map(|t| Keepout::round(t.pose.center, t.pose.measured_size * TAG_KEEPOUT))
            .collect();
        if let Some(scene) = located.scene() {
            let bases = scene.units.iter().flat_map(|u| u.footprint.stands());
            keepout.extend(bases.map(|base| Keepout::base(base, BASE_MARGIN)));
        }
        let started = std::time::Instant::now();
        let mut survey = find_terrain(
            located.image(),
            &calibration.camera,
            calibration.table,
            &keepout,
        )?;
        let seconds = started.elapsed().as_secs_f64();
        if let Some(roster) = located.roster() {
            let rests = rise::resting_stands(
                located.image(),
                &calibration.camera,
                &calibration.family,
                located.sightings(),
                &roster.stand_tags(),
            )?;
            rise::give_rise(&mut survey.pieces, &rests);
        }
        Ok((survey, seconds, located))
    }
}

/// The scene file of the chosen pieces.
fn scene_of(calibration: &TableCalibration, pieces: &[&FoundPiece]) -> SceneDoc {
    SceneDoc {
        ruleset: rules::vocabulary::RulesetId::BlackPowder,
        table: TableDoc {
            width: calibration.table.width,
            depth: calibration.table.depth,
        },
        distance_scale: None,
        figure_scale: None,
        length_sd: None,
        frame_sd: None,
        scenario: None,
        sides: Vec::new(),
        terrain: pieces.iter().map(|p| p.doc.clone()).collect(),
        units: Vec::new(),
        commanders: Vec::new(),
    }
}

fn piece_json(piece: &FoundPiece) -> serde_json::Value {
    serde_json::json!({
        "piece": piece.doc,
        "confidence": piece.confidence,
        "proposed": piece.proposed(),
        "why": piece.why,
    })
}

/// The pieces as a player reads them.
fn report(survey: &TerrainSurvey, seconds: f64, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{} piece(s) of terrain found in {seconds:.2} s ({:.0} % of the table seen):",
        survey.pieces.len(),
        100.0 * survey.seen
    )?;
    for piece in &survey.pieces {
        let mark = if piece.proposed() { "? " } else { "  " };
        writeln!(
            out,
            "{mark}{:<12} {:>3.0} % sure — {}",
            piece.doc.id,
            100.0 * piece.confidence,
            piece.why
        )?;
    }
    if survey.pieces.iter().any(FoundPiece::proposed) {
        writeln!(
            out,
            "? proposed: not sure enough to be ruled on until a player confirms it (--all writes it too)"
        )?;
    }
    let flat_hills = survey
        .pieces
        .iter()
        .filter(|p| p.doc.kind == rules::scene::TerrainKind::Hill && p.doc.rise.is_none())
        .count();
    if flat_hills > 0 {
        writeln!(
            out,
            "{flat_hills} hill(s) without their height (no stand rests on them surely raised): give each its \"rise\" (inches) for stands on it to be placed on it"
        )?;
    }
    Ok(())
}
