//! A recorded game shown again: the table as it stood at any moment — the plan, the rulings,
//! the moves made so far, and the camera's nearest kept picture with the overlay drawn
//! through that moment's calibration — as the same [`TableState`] the live pipeline makes, so
//! every view draws a moment of the past as it draws the present.

use std::sync::Arc;

use record::{Carriage, GameRecord, GameTime, RecordError, RecordedMove};
use rules::Scene;
use rules::rulings::{Rulings, rulings};
use rules::scene::SceneDoc;
use rules::units::Inches;
use vision::MoveEvent;
use vision::moves::Placed;

use crate::pipeline::{
    CalibrationStatus, MOVES_KEPT, MoveJudgement, MoveRecord, TableState, WITHIN_ALLOWANCE,
};
use rules::ruling::Verdict;

/// The table as it stood at `at`, ruled afresh (the record's test shows fresh rulings of a
/// recorded table are the rulings it recorded).
pub fn state_at(record: &GameRecord, at: GameTime) -> Result<TableState, RecordError> {
    Reading::default().state_at(record, at, true)
}

/// [`state_at`] without the camera's picture (a web page fetches it apart): no JPEG decoded.
pub fn table_at(record: &GameRecord, at: GameTime) -> Result<TableState, RecordError> {
    Reading::default().state_at(record, at, false)
}

/// A kept JPEG as the views' picture.
pub fn picture(jpeg: &[u8]) -> Option<crate::Picture> {
    let rgba = image::load_from_memory(jpeg).ok()?.to_rgba8();
    let size = [rgba.width() as usize, rgba.height() as usize];
    crate::Picture::from_rgba(size, rgba.into_raw())
}

/// A recorded move as the moves panel lists it.
fn move_record(made: &RecordedMove) -> MoveRecord {
    let placed = |p: &record::Place| Placed {
        leader: p.leader,
        facing: p.facing,
    };
    MoveRecord {
        event: MoveEvent {
            unit: made.unit.clone(),
            from: placed(&made.from),
            to: placed(&made.to),
            path: Inches(made.path),
            started: made.started.elapsed(),
            ended: made.ended.elapsed(),
            lifted: made.carriage == Carriage::Carried,
            unseen: made.carriage == Carriage::Unseen,
        },
        name: made.name.clone(),
        check: made.check.clone().map(|words| MoveJudgement::Recorded {
            verdict: made.verdict.or(recorded_within(&words)),
            words,
        }),
    }
}

/// A record made before verdicts were kept says a move within its allowance in
/// [`WITHIN_ALLOWANCE`]; any other words are a ruling against it whose verdict it did not keep.
fn recorded_within(words: &str) -> Option<Verdict> {
    (words == WITHIN_ALLOWANCE).then_some(Verdict::Yes)
}

/// A recorded game being looked at: the moment shown, a moment pinned beside it, and what was
/// read for the last moment (a scrub reads only what changed: the table's rulings are made
/// again only when the table differs, a picture decoded again only when another is nearest).
pub struct Replay {
    record: GameRecord,
    /// The moment shown.
    at: GameTime,
    /// The table shown at `at`.
    shown: Option<Arc<TableState>>,
    /// A moment pinned to compare with: its time and its table.
    pinned: Option<(GameTime, Arc<TableState>)>,
    /// Whether the game is still being played (its record grows: read again now and then).
    live: bool,
    /// What was read for the last moment.
    reading: Reading,
    /// What went wrong reading the last moment.
    problem: Option<String>,
}

impl Replay {
    /// Look at `record`, from the first moment its table was seen; `live` for a game still
    /// being recorded.
    pub fn new(record: GameRecord, live: bool) -> Replay {
        let mut replay = Replay {
            record,
            at: GameTime::START,
            shown: None,
            pinned: None,
            live,
            reading: Reading::default(),
            problem: None,
        };
        replay.seek(replay.record.begins());
        replay
    }

    /// The record.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The moment shown.
    pub fn at(&self) -> GameTime {
        self.at
    }

    /// The table at the moment shown.
    pub fn shown(&self) -> Option<&Arc<TableState>> {
        self.shown.as_ref()
    }

    /// The moment pinned beside it.
    pub fn pinned(&self) -> Option<&(GameTime, Arc<TableState>)> {
        self.pinned.as_ref()
    }

    /// When the camera's picture shown was taken (the nearest kept to the moment shown).
    pub fn picture_taken(&self) -> Option<GameTime> {
        self.reading.picture.as_ref().map(|(taken, _)| *taken)
    }

    /// Whether the game is still being played.
    pub fn is_live(&self) -> bool {
        self.live
    }

    /// What went wrong reading the last moment, or the record's damage.
    pub fn problem(&self) -> Option<String> {
        self.problem
            .clone()
            .or_else(|| self.record.damage().first().cloned())
    }

    /// Read the record again: a game being played has gone on.
    pub fn refresh(&mut self) {
        self.record.refresh();
    }

    /// Show the moment `at` (within the record).
    pub fn seek(&mut self, at: GameTime) {
        let at = at.min(self.record.until());
        match self.reading.state_at(&self.record, at, true) {
            Ok(state) => {
                self.at = at;
                self.shown = Some(Arc::new(state));
                self.problem = None;
            }
            Err(e) => self.problem = Some(e.to_string()),
        }
    }

    /// Pin the moment shown, to compare the next ones with it; pin nothing with `false`.
    pub fn pin(&mut self, pin: bool) {
        self.pinned = match (&self.shown, pin) {
            (Some(shown), true) => Some((self.at, shown.clone())),
            _ => None,
        };
    }

    /// The moves between the pinned moment and the one shown, each checked against its
    /// allowance as `vedette check-move` checks them (earlier table first).
    pub fn checks_between(&self) -> Vec<rules::movement::MoveCheck> {
        let (Some((pinned_at, pinned)), Some(shown)) = (&self.pinned, &self.shown) else {
            return Vec::new();
        };
        let (before, after) = if *pinned_at <= self.at {
            (pinned, shown)
        } else {
            (shown, pinned)
        };
        match (&before.scene, &after.scene) {
            (Some(before), Some(after)) => {
                rules::movement::check_moves(before, after, &before.profile()).0
            }
            _ => Vec::new(),
        }
    }

    /// The end of the next move after the moment shown.
    pub fn next_move(&self) -> Option<GameTime> {
        self.record
            .moves()
            .iter()
            .map(|m| m.ended)
            .find(|t| *t > self.at)
    }

    /// The end of the move before the moment shown; before the first move, the table as it
    /// was first seen.
    pub fn previous_move(&self) -> Option<GameTime> {
        let ends = self.record.moves().iter().map(|m| m.ended);
        let begins = Some(self.record.begins()).filter(|b| *b < self.at);
        ends.filter(|t| *t < self.at).last().or(begins)
    }

    /// The next turn mark after the moment shown.
    pub fn next_turn(&self) -> Option<GameTime> {
        self.turns().find(|t| *t > self.at)
    }

    /// The turn mark before the moment shown.
    pub fn previous_turn(&self) -> Option<GameTime> {
        self.turns().filter(|t| *t < self.at).last()
    }

    fn turns(&self) -> impl Iterator<Item = GameTime> + '_ {
        let marks = self.record.marks().iter();
        marks
            .filter(|m| m.kind == record::MarkKind::Turn)
            .map(|m| m.at)
    }
}

/// What was read for the last moment, to read only what changed for the next: the table's
/// rulings are made again only when the table differs, a picture decoded again only when
/// another is nearest.
#[derive(Default)]
struct Reading {
    /// The last table read, as scene and ruled.
    ruled: Option<(SceneDoc, Arc<Scene>, Arc<Rulings>)>,
    /// The last picture decoded, by when it was taken.
    picture: Option<(GameTime, Arc<crate::Picture>)>,
}

impl Reading {
    fn state_at(
        &mut self,
        record: &GameRecord,
        at: GameTime,
        picture: bool,
    ) -> Result<TableState, RecordError> {
        let name = record
            .path()
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_else(|| record.info().table.clone());
        let mut state = TableState::message(&format!("replay of {name} at {at}"), None);
        if let Some(doc) = record.scene_doc_at(at)? {
            let (scene, ruled) = self.ruled(record, at, doc)?;
            state.scene = Some(scene);
            state.rulings = Some(ruled);
        }
        state.calibration = record.calibration_at(at)?;
        if let Some(calibration) = &state.calibration {
            state.status.calibration = CalibrationStatus::Ready {
                rms_pixels: calibration.quality.rms.0,
                rms_inches: calibration.quality.rms_on_table.0,
                check: "as recorded".into(),
                stale: false,
            };
        }
        if picture {
            state.frame = self.picture_at(record, at)?;
        }
        let made: Vec<&RecordedMove> = record.moves().iter().filter(|m| m.ended <= at).collect();
        let shown = &made[made.len().saturating_sub(MOVES_KEPT)..];
        state.moves = shown.iter().map(|m| Arc::new(move_record(m))).collect();
        Ok(state)
    }

    fn ruled(
        &mut self,
        record: &GameRecord,
        at: GameTime,
        doc: SceneDoc,
    ) -> Result<(Arc<Scene>, Arc<Rulings>), RecordError> {
        if let Some((kept, scene, ruled)) = &self.ruled
            && *kept == doc
        {
            return Ok((scene.clone(), ruled.clone()));
        }
        let source = format!("{} at {at}", record.path().display());
        let scene = Scene::from_doc(doc.clone(), &source).map_err(|e| RecordError::Damaged {
            path: record.path().to_owned(),
            what: e.to_string(),
        })?;
        let ruled = Arc::new(rulings(&scene));
        let scene = Arc::new(scene);
        self.ruled = Some((doc, scene.clone(), ruled.clone()));
        Ok((scene, ruled))
    }

    fn picture_at(
        &mut self,
        record: &GameRecord,
        at: GameTime,
    ) -> Result<Option<Arc<crate::Picture>>, RecordError> {
        let Some(keyframe) = record.keyframe_at(at)? else {
            return Ok(None);
        };
        if let Some((taken, kept)) = &self.picture
            && *taken == keyframe.at
        {
            return Ok(Some(kept.clone()));
        }
        let decoded = picture(&keyframe.jpeg).map(Arc::new);
        if let Some(decoded) = &decoded {
            self.picture = Some((keyframe.at, decoded.clone()));
        }
        Ok(decoded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded(check: Option<&str>, verdict: Option<Verdict>) -> RecordedMove {
        let place = record::Place {
            leader: rules::geometry::TablePoint::new(10.0, 10.0),
            facing: rules::units::Degrees(90.0),
        };
        RecordedMove {
            unit: "79th".into(),
            name: "79th Highlanders".into(),
            from: place,
            to: place,
            path: 25.77,
            started: GameTime::START,
            ended: GameTime::from_millis(2_000),
            carriage: Carriage::Slid,
            check: check.map(str::to_owned),
            verdict,
        }
    }

    /// A move is marked as its record says, and never ✔ where the record cannot say it was
    /// allowed: kept verdicts are shown, a record made before verdicts were kept is read by
    /// its words, and a move with no check has no verdict.
    #[test]
    fn a_replayed_move_keeps_its_recorded_verdict_and_is_never_taken_as_allowed() {
        let too_far = "4 moves of 12.00\", more than the 3 an order can give";
        let cases = [
            (Some(too_far), Some(Verdict::No), Some(Verdict::No)),
            (Some(WITHIN_ALLOWANCE), None, Some(Verdict::Yes)),
            (Some(too_far), None, None),
            (None, None, None),
        ];
        for (check, kept, shown) in cases {
            let made = move_record(&recorded(check, kept));
            assert_eq!(made.verdict(), shown, "{check:?} kept as {kept:?}");
        }
    }
}
