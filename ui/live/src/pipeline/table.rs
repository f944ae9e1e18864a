//! The table from tracked tags: units at rest for the rules, units on their way, and the moves
//! finished — the same whether the tags come from one camera or from a rig of them.

use super::*;

/// The latest moves the views are given.
pub const MOVES_KEPT: usize = 50;

/// What one camera says of its frame: its tags as its tracker follows them, placed through
/// its calibration.
#[derive(Clone, Debug)]
pub struct CameraWord {
    /// The calibration the tags were placed through.
    pub calibration: TableCalibration,
    /// Every tag the camera follows: in view now, or held where it rests.
    pub tracked: Vec<vision::TrackedTag>,
    /// The held ones, and why the camera does not see them now.
    pub held: HashMap<u32, Unseen>,
    /// The rests placed again since the last frame (a better lens, ground learnt): they moved
    /// with the way of seeing them, no unit did.
    pub replaced: Vec<Replaced>,
}

/// The units' rests and the latest moves, kept across frames.
#[derive(Default)]
pub(super) struct TableBook {
    watch: MoveWatch,
    /// The latest moves, newest last.
    moves: VecDeque<Arc<MoveRecord>>,
}

impl TableBook {
    /// Forget every rest and move (a new calibration, a new game).
    pub(super) fn clear(&mut self) {
        self.watch.clear();
    }

    /// Forget every rest and every move: a new game.
    pub(super) fn new_game(&mut self) {
        self.watch.clear();
        self.moves.clear();
    }

    /// Build the scene from `word`'s tags into `state`: the units at rest, those on their way,
    /// the moves finished now, and the units placed only from held tags.
    pub(super) fn build(&mut self, inputs: &Inputs, word: &CameraWord, state: &mut TableState) {
        self.watch.rebase(&word.replaced);
        let Some(roster) = inputs.roster.as_ref() else {
            state
                .status
                .notes
                .push("no roster: tags are shown, units are not".into());
            return;
        };
        // An anchor's id in the roster is noted when the inputs are read.
        match self.watch.update(
            roster,
            &word.calibration,
            &word.tracked,
            inputs.terrain.clone(),
            &state.status.source,
        ) {
            Ok(motion) => {
                let mut scene = motion.scene;
                if let Some(ruleset) = inputs.ruleset {
                    scene.ruleset = ruleset;
                }
                let held = &word.held;
                state.held_units = roster
                    .units
                    .iter()
                    .filter(|u| u.stands.iter().all(|s| held.contains_key(&s.tag)))
                    .filter_map(|u| Some((u.id.clone(), held[&u.stands.first()?.tag])))
                    .collect();
                state.status.unseen = (motion.sighted.unseen.iter())
                    .map(|id| UnitName::of(roster, id))
                    .collect();
                state.status.partial = motion.sighted.partial;
                record_moves(
                    &mut self.moves,
                    motion.before.as_deref(),
                    &scene,
                    motion.moves,
                );
                state.travelling = motion.travelling;
                state.scene = Some(Arc::new(scene));
            }
            Err(e) => state.status.notes.push(e.to_string()),
        }
        state.moves = self.moves.iter().cloned().collect();
    }
}

/// Keep the moves finished this frame, each checked as `vedette check-move` checks it against
/// the table as it was before, the latest [`MOVES_KEPT`] of them.
fn record_moves(
    kept: &mut VecDeque<Arc<MoveRecord>>,
    before: Option<&Scene>,
    after: &Scene,
    moves: Vec<vision::MoveEvent>,
) {
    if moves.is_empty() {
        return;
    }
    let checks = before.map(|before| {
        let mut before = before.clone();
        before.ruleset = after.ruleset;
        rules::movement::check_moves(&before, after, &after.profile()).0
    });
    for event in moves {
        let check = checks
            .as_ref()
            .and_then(|c| c.iter().find(|c| c.unit == event.unit).cloned());
        let name = after
            .unit(&event.unit)
            .map(|u| u.name.clone())
            .or_else(|| {
                let commander = after.commanders.iter().find(|c| c.id == event.unit);
                commander.map(|c| c.name.clone())
            })
            .unwrap_or_else(|| event.unit.clone());
        tracing::info!(unit = %event.unit, path = %event.path, "moved");
        kept.push_back(Arc::new(MoveRecord {
            event,
            name,
            check: check.map(MoveJudgement::Checked),
        }));
        while kept.len() > MOVES_KEPT {
            kept.pop_front();
        }
    }
}
