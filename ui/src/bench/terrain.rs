//! `vedette bench terrain`: the terrain finder on battlefields it was not drawn for.
//!
//! Each table is a [`Battlefield`] from its own seed (cloth, pieces, colours, shapes and stands
//! all drawn afresh), seen at 1080p through an ordinary webcam lens from two places: nearly
//! overhead, and from the long side 30–55° from vertical. As a player runs `vedette calibrate`
//! then `vedette terrain --roster`, the camera is calibrated from the picture's four anchors,
//! and the stands are kept clear of terrain by their tags: those the detector finds and those
//! the roster's search finds where the camera would see them.
//!
//! Figures, per camera: pieces found (IoU ≥ 0.3 with the true footprint), the median IoU, the
//! kinds right, the boundary's p95 distance, false pieces a table, proposed pieces, found hills'
//! rise from the stands resting on them (gauged from their tags' patterns) against the truth,
//! and seconds a picture (rectifying and finding; the detector's own time is `bench vision`'s).

use std::io::Write;
use std::time::Instant;

use rules::scene::{TerrainDoc, TerrainKind};
use rules::units::Degrees;
use vision::synthetic::{Battlefield, Effects, LensClass, Renderer, framing_camera_from};
use vision::terrain::score::{TableScore, same_kind, score};
use vision::terrain::{FoundPiece, find_terrain, rise, stands_kept_clear};
use vision::{DetectorSettings, TagDetector};

use super::figures::{at, median, sorted};
use super::world::{HD, TABLE, calibrate_from_picture};

/// One camera's figures over every table.
#[derive(Default)]
struct Tally {
    truths: usize,
    found: usize,
    kind_right: usize,
    ious: Vec<f64>,
    boundary: Vec<f64>,
    false_pieces: Vec<usize>,
    proposed: usize,
    pieces: usize,
    seconds: Vec<f64>,
    missed: Vec<String>,
    wrong: Vec<String>,
    /// Found hills' rise against the truth, inches; hills found without one.
    rise_errors: Vec<f64>,
    hills_without_rise: usize,
}

impl Tally {
    fn add(&mut self, table: u64, score: &TableScore, found: &[FoundPiece], seconds: f64) {
        for piece in &score.pieces {
            self.truths += 1;
            match &piece.found {
                Some((id, kind, iou)) => {
                    self.found += 1;
                    self.ious.push(*iou);
                    self.boundary.extend(&piece.boundary);
                    if same_kind(*kind, piece.truth.1) {
                        self.kind_right += 1;
                    } else {
                        self.wrong
                            .push(format!("table {table}: {} found as {id}", piece.truth.0));
                    }
                }
                None => self
                    .missed
                    .push(format!("table {table}: {}", piece.truth.0)),
            }
        }
        self.false_pieces.push(score.false_pieces.len());
        self.proposed += found.iter().filter(|p| p.proposed()).count();
        self.pieces += found.len();
        self.seconds.push(seconds);
    }

    /// Each found hill's rise against its true hill's.
    fn add_rises(&mut self, score: &TableScore, truth: &[TerrainDoc], found: &[FoundPiece]) {
        for piece in score
            .pieces
            .iter()
            .filter(|p| p.truth.1 == TerrainKind::Hill)
        {
            let Some((id, TerrainKind::Hill, _)) = &piece.found else {
                continue;
            };
            let true_rise = truth
                .iter()
                .find(|t| t.id == piece.truth.0)
                .and_then(|t| t.rise);
            let found_rise = found
                .iter()
                .find(|f| &f.doc.id == id)
                .and_then(|f| f.doc.rise);
            match (true_rise, found_rise) {
                (Some(t), Some(f)) => self.rise_errors.push((t - f).abs()),
                _ => self.hills_without_rise += 1,
            }
        }
    }

    fn print(&self, name: &str, out: &mut dyn Write) -> std::io::Result<()> {
        let share = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
        let boundary = sorted(&self.boundary);
        let seconds = sorted(&self.seconds);
        let false_most = self.false_pieces.iter().copied().max().unwrap_or(0);
        let false_total: usize = self.false_pieces.iter().sum();
        writeln!(out, "  {name}:")?;
        writeln!(
            out,
            "    found {} of {} pieces ({:.0} %) (goal: ≥ 95 %); kind right {} of {} ({:.0} %) (goal: ≥ 90 %)",
            self.found,
            self.truths,
            share(self.found, self.truths),
            self.kind_right,
            self.found,
            share(self.kind_right, self.found),
        )?;
        writeln!(
            out,
            "    IoU median {:.2} (goal: ≥ 0.85); boundary p95 {:.2}\" (goal: ≤ 0.5\")",
            median(&self.ious),
            at(&boundary, 0.95),
        )?;
        writeln!(
            out,
            "    false pieces: {false_total} in {} tables, at most {false_most} on one (goal: ≤ 1); {} of {} found pieces proposed, not sure",
            self.false_pieces.len(),
            self.proposed,
            self.pieces,
        )?;
        let rises = sorted(&self.rise_errors);
        let off = match rises.is_empty() {
            true => "—".to_owned(),
            false => format!(
                "p95 {:.2}\", most {:.2}\"",
                at(&rises, 0.95),
                at(&rises, 1.0)
            ),
        };
        writeln!(
            out,
            "    hills' rise from the stands resting on them: {} of {} hills found given one, off by {off} (goal: p95 ≤ 0.25\")",
            self.rise_errors.len(),
            self.rise_errors.len() + self.hills_without_rise,
        )?;
        writeln!(
            out,
            "    {:.2} s a picture median, {:.2} s the slowest (goal: ≤ 2 s)",
            median(&self.seconds),
            at(&seconds, 1.0),
        )?;
        for line in self.missed.iter().take(6) {
            writeln!(out, "    missed {line}")?;
        }
        for line in self.wrong.iter().take(6) {
            writeln!(out, "    wrong kind {line}")?;
        }
        Ok(())
    }
}

/// Find the terrain of `tables` battlefields from `seed`, from above and from the side.
pub fn terrain(
    tables: usize,
    seed: u64,
    pictures: Option<&std::path::Path>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "Terrain found in one 1080p picture of {tables} battlefields (72\"×48\", each dressed from its own seed), an ordinary webcam lens calibrated from the picture's anchors"
    )?;
    let mut renderer = Renderer::new();
    let mut detector = TagDetector::new(DetectorSettings::default())?;
    let (mut above, mut side) = (Tally::default(), Tally::default());
    let bar = crate::progress::progress(tables * 2, "picture");
    for i in 0..tables {
        let table_seed = seed + i as u64;
        let field = Battlefield::generate(table_seed, TABLE);
        let lens = LensClass::Ordinary.sample(HD, table_seed);
        let bearing = if table_seed.is_multiple_of(2) {
            -90.0
        } else {
            90.0
        };
        let side_tilt = 30.0 + 25.0 * ((table_seed * 7919) % 100) as f64 / 100.0;
        for (tally, tilt) in [(&mut above, 8.0), (&mut side, side_tilt)] {
            let camera = framing_camera_from(TABLE, lens, Degrees(tilt), Degrees(bearing));
            let effects = Effects {
                seed: table_seed,
                ..Effects::WEBCAM
            };
            let picture = renderer.render(&field.world, &camera, &effects)?;
            let seen = detector.detect(&picture)?.sightings();
            let calibrated =
                calibrate_from_picture(&picture, &seen, &field.anchors, &Default::default(), HD)?;
            let keepout = stands_kept_clear(&picture, &calibrated, &seen, &field.stand_tags)?;
            let found_at = Instant::now();
            let mut survey = find_terrain(&picture, &calibrated.camera, TABLE, &keepout)?;
            let seconds = found_at.elapsed().as_secs_f64();
            let rests = rise::resting_stands(
                &picture,
                &calibrated.camera,
                &calibrated.family,
                &seen,
                &field.stand_tags,
            )?;
            rise::give_rise(&mut survey.pieces, &rests);
            let docs: Vec<_> = survey.pieces.iter().map(|p| p.doc.clone()).collect();
            if let Some(dir) = pictures {
                let truth = vision::terrain::draw::truth(&picture, &camera, &field.terrain)?;
                let drawn =
                    vision::terrain::draw::draw(&truth, &calibrated.camera, &survey.pieces)?;
                let name = format!("battlefield-{table_seed}-{tilt:.0}.png");
                vision::write_image(&dir.join(name), &drawn)?;
            }
            let scored = score(&field.terrain, &docs);
            tally.add(table_seed, &scored, &survey.pieces, seconds);
            tally.add_rises(&scored, &field.terrain, &survey.pieces);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    above.print("nearly overhead (8° from vertical)", out)?;
    side.print("from the long side (30–55° from vertical)", out)?;
    Ok(())
}
