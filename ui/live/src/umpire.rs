//! Umpire mode's work: the rulings that settle a dispute between two units, the case file that
//! keeps it (annotated picture + JSON of scene and rulings), and the turn marker that checks
//! each unit's move against its allowance.

use std::path::{Path, PathBuf};

use rules::Scene;
use rules::measure::{PairMeasurement, measure_pair};
use rules::movement::{MoveCheck, check_moves};
use rules::ruling::{Ruling, Topic};
use rules::rulings::Rulings;

use crate::pipeline::TableState;

/// Everything the rules say between two units.
#[derive(Clone, Debug)]
pub struct Dispute {
    /// The first unit's id.
    pub a: String,
    /// The second unit's id.
    pub b: String,
    /// Measured from each side: a → b, then b → a.
    pub measurements: Vec<PairMeasurement>,
    /// Contact, charges, shooting, support between them.
    pub rulings: Vec<Ruling>,
}

/// The dispute between units `a` and `b`, if both are on the table.
pub fn dispute(scene: &Scene, rulings: &Rulings, a: &str, b: &str) -> Option<Dispute> {
    let (ua, ub) = (scene.unit(a)?, scene.unit(b)?);
    let profile = scene.profile();
    let between = |r: &&Ruling| {
        let other = r.other.as_deref();
        (r.unit == a && other == Some(b)) || (r.unit == b && other == Some(a))
    };
    let mut found: Vec<Ruling> = rulings
        .general
        .iter()
        .chain(rulings.units.iter().flat_map(|u| &u.rulings))
        .filter(between)
        .cloned()
        .collect();
    // Contact first: it is what most disputes are about; then charges, then the rest.
    found.sort_by_key(|r| match r.topic {
        Topic::Contact => 0,
        Topic::Charge => 1,
        Topic::Shooting => 2,
        _ => 3,
    });
    Some(Dispute {
        a: a.to_owned(),
        b: b.to_owned(),
        measurements: vec![
            measure_pair(ua, ub, &profile),
            measure_pair(ub, ua, &profile),
        ],
        rulings: found,
    })
}

/// The files of a saved case.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseFiles {
    /// The annotated picture (or the plan if there is no picture).
    pub picture: Option<PathBuf>,
    /// Scene, rulings and the dispute.
    pub json: PathBuf,
}

/// Why a case could not be saved; each names the file or folder at fault.
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    /// The case folder could not be made.
    #[error("cannot make the case folder {}: {source}", folder.display())]
    Folder {
        /// The folder.
        folder: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The case's picture could not be drawn or written.
    #[error("cannot save the case's picture: {source}")]
    Picture {
        /// Why.
        source: vision::VisionError,
    },
    /// The case could not be put in words.
    #[error("cannot write the case as JSON: {0}")]
    Json(serde_json::Error),
    /// The case's file could not be written.
    #[error("cannot write {}: {source}", file.display())]
    Write {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Save a case to `folder`: `case-<time>-<a>-vs-<b>.png` (the frame with tags, stands and the
/// dispute's lines drawn) and `.json` (the scene, every ruling, the dispute and the note).
pub fn save_case(
    folder: &Path,
    table: &TableState,
    dispute: &Dispute,
    note: &str,
) -> Result<CaseFiles, CaseError> {
    std::fs::create_dir_all(folder).map_err(|source| CaseError::Folder {
        folder: folder.to_owned(),
        source,
    })?;
    // Named by the local time (`2026-11-25_14h03m27`): sorts in time order, reads as a time,
    // and holds no character a file system refuses.
    let now = jiff::Zoned::now();
    let stem = format!(
        "case-{}-{}-vs-{}",
        now.strftime("%Y-%m-%d_%Hh%Mm%S"),
        dispute.a,
        dispute.b
    );
    let json = folder.join(format!("{stem}.json"));
    let picture = match (&table.frame, &table.calibration) {
        (Some(frame), Some(calibration)) => {
            let path = folder.join(format!("{stem}.png"));
            write_picture(&path, frame, table, calibration, dispute)
                .map_err(|source| CaseError::Picture { source })?;
            Some(path)
        }
        _ => None,
    };
    let value = serde_json::json!({
        "case": {
            "units": [dispute.a, dispute.b],
            "note": note,
            "saved_at": now.timestamp().to_string(),
            "saved_at_unix": now.timestamp().as_second(),
            "source": table.status.source,
            "frame": table.frame_index,
            "picture": picture.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy()),
        },
        "dispute": {
            "measurements": dispute.measurements,
            "rulings": dispute.rulings,
        },
        "scene": table.scene.as_deref(),
        "rulings": table.rulings.as_deref(),
        "calibration": table.calibration.as_ref().map(|c| c.quality),
        "tags": table.tags,
    });
    let text = serde_json::to_string_pretty(&value).map_err(CaseError::Json)?;
    std::fs::write(&json, text).map_err(|source| CaseError::Write {
        file: json.clone(),
        source,
    })?;
    record_case(table, dispute, note);
    tracing::info!("case saved: {}", json.display());
    Ok(CaseFiles { picture, json })
}

fn write_picture(
    path: &Path,
    frame: &crate::Picture,
    table: &TableState,
    calibration: &calibration::TableCalibration,
    dispute: &Dispute,
) -> Result<(), vision::VisionError> {
    let [w, h] = frame.size;
    let image = vision::from_rgba(w as u32, h as u32, &frame.rgba)?;
    let empty = vision::FrameTags {
        tags: Vec::new(),
        problems: Vec::new(),
        scatter: vision::scatter::Scatter::none(calibration::ImageSize {
            width: w as u32,
            height: h as u32,
        }),
        raised: Vec::new(),
    };
    let shapes: Vec<_> = dispute
        .rulings
        .iter()
        .flat_map(|r| r.shapes.iter().cloned())
        .collect();
    let annotated = vision::annotate::annotate(
        &image,
        calibration,
        table.tags.as_ref().unwrap_or(&empty),
        table.scene.as_deref(),
        table.stand_height,
        &shapes,
    )?;
    vision::write_image(path, &annotated.picture)?;
    Ok(())
}

/// Keep a case in the game's record, with the rulings between the two units in words.
fn record_case(table: &TableState, dispute: &Dispute, note: &str) {
    let Some(recorder) = &table.recorder else {
        return;
    };
    let name = |id: &str| {
        let scene = table.scene.as_deref();
        scene
            .and_then(|s| s.unit(id))
            .map_or_else(|| id.to_owned(), |u| u.name.clone())
    };
    let units = [dispute.a.clone(), dispute.b.clone()];
    recorder.mark(record::Mark {
        at: recorder.now(),
        kind: record::MarkKind::Case,
        label: format!("Case: {} and {}", name(&dispute.a), name(&dispute.b)),
        units: units.to_vec(),
        case: Some(record::Case {
            units,
            note: note.to_owned(),
            rulings: dispute
                .rulings
                .iter()
                .map(|r| r.explanation.clone())
                .collect(),
        }),
    });
}

/// Mark the start of turn `turn` in the game's record.
pub fn record_turn(table: &TableState, turn: u32) {
    if let Some(recorder) = &table.recorder {
        recorder.mark(record::Mark {
            at: recorder.now(),
            kind: record::MarkKind::Turn,
            label: format!("Turn {turn}"),
            units: Vec::new(),
            case: None,
        });
    }
}

/// The turn marker: where every unit stood when the turn began.
#[derive(Clone, Debug, Default)]
pub struct TurnMarker {
    /// Turns marked so far.
    pub turn: u32,
    /// The table at the start of this turn.
    pub start: Option<std::sync::Arc<Scene>>,
}

impl TurnMarker {
    /// A new turn begins with the table as it is now.
    pub fn mark(&mut self, scene: std::sync::Arc<Scene>) {
        self.turn += 1;
        self.start = Some(scene);
    }

    /// Every unit's move since the turn began, checked against its allowance.
    pub fn moves(&self, now: &Scene) -> Vec<MoveCheck> {
        match &self.start {
            Some(start) => check_moves(start, now, &start.profile()).0,
            None => Vec::new(),
        }
    }
}
