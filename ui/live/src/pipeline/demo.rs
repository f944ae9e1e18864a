//! The built-in demo table: a Black Powder scenario from `samples/`, its armies advancing over a
//! few turns, rendered by the synthetic camera — so the app is alive on a machine with no
//! camera, and every frame goes through the real pipeline (detection, calibration from the
//! anchors, tracking, rulings).

use calibration::{AnchorLayout, Camera, ImageSize, TableSize};
use roster::Roster;
use roster::TagDefaults;
use rules::Scene;
use rules::geometry::{OrientedRect, TablePoint, TableVector, heading};
use rules::scene::{Format, Formation, SceneDoc};
use rules::units::{Degrees, Inches};
use vision::source::SyntheticSource;
use vision::synthetic::{Effects, HandHold, SyntheticTable, framing_camera, held_in_hand};

use super::setup::Inputs;

/// The scenario the demo plays: the Crimea, two lines of battle closing across a river.
const SCENARIO: &str = include_str!("../../../../samples/scenarios/crimea-river.json");
/// Its name in the status bar.
const NAME: &str = "demo table: Crimea River (samples/scenarios/crimea-river.json)";
/// Turns played before the demo starts again.
pub const TURNS: usize = 4;
/// Frames each turn is shown for, at [`FPS`].
const FRAMES_PER_TURN: u64 = 60;
/// Frames each turn's moves take, at `FPS`: the units slid along the cloth together, one of
/// them carried through the air in a hand.
pub const FRAMES_PER_MOVE: u64 = 15;
/// The unit (in the roster's order) whose first stand's tag was printed faded.
const FADED_UNIT: usize = 2;
/// Its ink.
const FADED_INK: vision::synthetic::Rgb = vision::synthetic::Rgb(125, 122, 120);
/// How high the carried unit is lifted, and how far tilted, at the top of its arc.
const LIFT: Inches = Inches(2.0);
const LIFT_TILT: Degrees = Degrees(15.0);
/// The replay's frame rate.
const FPS: f64 = 10.0;
/// The demo camera: 1080p, 30° from vertical, a 70° lens — 1.3" tags are read to the far edge.
pub const IMAGE_SIZE: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};
const TILT: Degrees = Degrees(30.0);
const LENS: Degrees = Degrees(70.0);

/// The demo: the scenario at each turn, with the roster, anchors and camera that film it.
pub struct Demo {
    /// The table at each turn, the opening positions first.
    pub turns: Vec<Scene>,
    /// One tag per stand.
    pub roster: Roster,
    /// Four anchors in the corners.
    pub anchors: AnchorLayout,
    /// The camera the renderer films through (the truth the pipeline's calibration estimates).
    pub camera: Camera,
}

/// Why the demo table could not be built: its scenario, shipped in the binary, or a turn made
/// from it did not load as a scene.
#[derive(Debug, thiserror::Error)]
#[error("the demo table: {0}")]
pub struct DemoError(#[from] rules::scene::SceneError);

impl Demo {
    /// Build the demo (cheap: frames are rendered when first shown).
    pub fn new() -> Result<Demo, DemoError> {
        let opening = Scene::parse(SCENARIO, Format::Json, "crimea-river.json")?;
        let table = TableSize {
            width: opening.table.width.0,
            depth: opening.table.depth.0,
        };
        let roster = Roster::for_scene(
            &opening,
            TagDefaults {
                size: 1.5,
                height: 0.16,
                ..TagDefaults::default()
            },
            10,
        );
        let anchors = AnchorLayout::corners(table, Inches(2.5), Inches(1.75));
        let camera = framing_camera(table, IMAGE_SIZE, TILT, LENS);
        let mut turns = Vec::with_capacity(TURNS);
        let mut turn = opening;
        for _ in 1..TURNS {
            let next = advance(&turn)?;
            turns.push(std::mem::replace(&mut turn, next));
        }
        turns.push(turn);
        Ok(Demo {
            turns,
            roster,
            anchors,
            camera,
        })
    }

    /// What the pipeline needs besides frames: roster, anchors (it calibrates from them, as a
    /// player's table would), terrain.
    pub fn inputs(&self) -> Inputs {
        Inputs {
            calibration: None,
            anchors: Some(self.anchors.clone()),
            roster: Some(self.roster.clone()),
            terrain: SceneDoc::from(&self.turns[0]).terrain,
            notes: Vec::new(),
            ruleset: None,
            // The demo's lens is the synthetic camera's: never kept for a real webcam.
            lens_folder: None,
            still: false,
        }
    }

    /// The table at `turn`, staged for the renderer.
    pub fn stage(&self, turn: usize) -> SyntheticTable {
        let scene = &self.turns[turn.min(self.turns.len() - 1)];
        self.printed(SyntheticTable::stage(scene, &self.roster, &self.anchors))
    }

    /// The tag printed long ago, its ink gone grey: the app says to reprint it.
    pub fn faded_tag(&self) -> Option<u32> {
        self.roster
            .units
            .get(FADED_UNIT)
            .and_then(|u| u.stands.first())
            .map(|s| s.tag)
    }

    /// A staged table with the demo's tags as they were printed.
    fn printed(&self, mut world: SyntheticTable) -> SyntheticTable {
        if let Some(tag) = self.faded_tag() {
            world.faded.push((tag, FADED_INK));
        }
        world
    }

    /// The frames: each turn for a few seconds, then its moves being made, in a loop.
    pub fn source(&self) -> SyntheticSource {
        let mut states = Vec::new();
        for turn in 0..self.turns.len() {
            states.push((self.stage(turn), FRAMES_PER_TURN));
            if turn + 1 < self.turns.len() {
                states.extend(self.making_moves(turn, FRAMES_PER_MOVE - 1));
            }
        }
        SyntheticSource::new(NAME, self.camera, Effects::WEBCAM, states, FPS, true)
    }

    /// The first `frames` frames of the moves after turn `turn`, a state a frame (of
    /// [`FRAMES_PER_MOVE`]; the table of the next turn is the last).
    pub fn making_moves(
        &self,
        turn: usize,
        frames: u64,
    ) -> impl Iterator<Item = (SyntheticTable, u64)> + '_ {
        (1..=frames).map(move |k| {
            let share = k as f64 / FRAMES_PER_MOVE as f64;
            (self.moving(turn, share), 1)
        })
    }

    /// The table `share` of the way through the moves after turn `turn`: every unit slid that
    /// far along the cloth towards where it ends the move, but the first to move on a base of
    /// its own, carried there through the air (lifted, tilted, a hand gripping it).
    pub fn moving(&self, turn: usize, share: f64) -> SyntheticTable {
        let (from, to) = (
            &self.turns[turn],
            &self.turns[(turn + 1).min(self.turns.len() - 1)],
        );
        let carried = from.units.iter().zip(&to.units).position(|(a, b)| {
            a.footprint.stands().len() == 1 && a.footprint.leader() != b.footprint.leader()
        });
        let mut doc = SceneDoc::from(from);
        for (index, (unit, (a, b))) in doc
            .units
            .iter_mut()
            .zip(from.units.iter().zip(&to.units))
            .enumerate()
        {
            // The carried unit is posed in the air below; it leaves its place as it lay.
            let along = if Some(index) == carried { 0.0 } else { share };
            let shift = (b.footprint.leader() - a.footprint.leader()) * along;
            for stand in unit.stands.iter_mut().flatten() {
                stand.center += shift;
            }
            if let Some(front) = unit.front_center.as_mut() {
                *front += shift;
            }
        }
        let between = Scene::from_doc(doc, "demo table").unwrap_or_else(|_| from.clone());
        let mut world = self.printed(SyntheticTable::stage(&between, &self.roster, &self.anchors));
        if let Some(index) = carried {
            self.carry(&mut world, &from.units[index], &to.units[index], share);
        }
        world
    }

    /// Lift unit `was`'s blocks off the staged table and pose them `share` of the way to
    /// `will`, in a hand reaching from its side's edge of the table.
    fn carry(
        &self,
        world: &mut SyntheticTable,
        was: &rules::scene::Unit,
        will: &rules::scene::Unit,
        share: f64,
    ) {
        let frame = *was.footprint.frame();
        let (start, end) = (frame.center(), will.footprint.frame().center());
        let arc = (share * std::f64::consts::PI).sin();
        let hold = HandHold {
            to: start + (end - start) * share,
            turn: Degrees(0.0),
            rise: LIFT * arc,
            tilt: Degrees(LIFT_TILT.0 * arc),
            toward: was.footprint.facing(),
        };
        let out = if start.y < world.table.depth / 2.0 {
            TableVector::new(0.0, -1.0)
        } else {
            TableVector::new(0.0, 1.0)
        };
        let on_it = |block: &vision::synthetic::Block| {
            block.figures
                && was
                    .footprint
                    .stands()
                    .iter()
                    .any(|s| s.center() == block.footprint.center())
        };
        let (mut lifted, lying): (Vec<_>, Vec<_>) = world.blocks.drain(..).partition(on_it);
        let hand = held_in_hand(&mut lifted, &frame, out, Inches(0.3), hold);
        world.blocks = lying;
        world.blocks.extend(lifted);
        world.blocks.extend(hand);
    }
}

/// How far apart the demo keeps units: an inch from an enemy (Black Powder lets no unit but a
/// charger come closer, and the demo shows a battle closing, not one resolved), a little from a
/// friend so that neighbouring stands stay apart on the picture.
const ROOM_FROM_ENEMY: Inches = Inches(1.0);
const ROOM_FROM_FRIEND: Inches = Inches(0.25);
/// The steps a unit's advance is checked in. Between two steps a stand is never more than an
/// eighth of an inch nearer anything than at the closer step, less than the room kept, so a
/// unit clear at every step touched no one on the way.
const STEP: Inches = Inches(0.25);
/// The table's edge zone a unit never advances into.
const EDGE: Inches = Inches(3.0);

/// The next turn: every unit but deployed guns advances straight ahead up to a move, halting
/// where the next step would take it off the table, too close to another unit (see
/// [`ROOM_FROM_ENEMY`]) or past the front of an enemy ahead of it. The whole path is checked,
/// not only where the unit ends: a 12" move checked only at its end jumped clean over a
/// 6"-deep column in its way.
fn advance(scene: &Scene) -> Result<Scene, DemoError> {
    let profile = scene.profile();
    let mut doc = SceneDoc::from(scene);
    let mut placed: Vec<Vec<OrientedRect>> = scene
        .units
        .iter()
        .map(|u| u.footprint.stands().to_vec())
        .collect();
    for (i, unit) in scene.units.iter().enumerate() {
        // Guns deployed stay to fire (the scenario's redoubt guns may not move at all).
        if unit.formation == Formation::Deployed {
            continue;
        }
        let ahead = heading(unit.footprint.facing());
        let allowance = profile.unit_move(unit);
        let front = unit.footprint.leader();
        // The enemy fronts ahead of this unit's front: it halts short of their line, through
        // a gap in it or not (a limbered battery drove between two columns to behind them).
        let enemy_fronts: Vec<f64> = scene
            .units
            .iter()
            .filter(|e| e.side != unit.side)
            .map(|e| (e.footprint.leader() - front).dot(&ahead))
            .filter(|d| *d > 0.0)
            .collect();
        let margins: Vec<Inches> = placed[i]
            .iter()
            .flat_map(|s| s.corners())
            .map(|c| edge_margin(scene, &c))
            .collect();
        let clear_at = |distance: Inches| {
            let moved: Vec<OrientedRect> = placed[i]
                .iter()
                .map(|s| shifted(s, ahead * distance.0))
                .collect();
            // No corner goes into the edge zone, nor deeper into it than it stood (a unit
            // deployed at its table edge marches out of it).
            let on_table = moved
                .iter()
                .flat_map(|s| s.corners())
                .zip(&margins)
                .all(|(c, was)| edge_margin(scene, &c) >= was.min(EDGE));
            let short_of_their_line = enemy_fronts
                .iter()
                .all(|d| d - distance.0 >= ROOM_FROM_ENEMY.0);
            on_table
                && short_of_their_line
                && scene.units.iter().enumerate().all(|(j, other)| {
                    let room = if other.side == unit.side {
                        ROOM_FROM_FRIEND
                    } else {
                        ROOM_FROM_ENEMY
                    };
                    j == i
                        || moved
                            .iter()
                            .all(|a| placed[j].iter().all(|b| a.gap_to(b).0 >= room.0))
                })
        };
        // The last step of the path that is clear, every step before it clear too.
        let steps = (allowance.0 / STEP.0).floor() as usize;
        let clear_steps = (1..=steps)
            .take_while(|k| clear_at(STEP * *k as f64))
            .count();
        if clear_steps == 0 {
            continue;
        }
        let step = ahead * (STEP * clear_steps as f64).0;
        placed[i] = placed[i].iter().map(|s| shifted(s, step)).collect();
        let unit_doc = &mut doc.units[i];
        if let Some(front) = unit_doc.front_center.as_mut() {
            *front += step;
        }
        for stand in unit_doc.stands.iter_mut().flatten() {
            stand.center += step;
        }
    }
    Ok(Scene::from_doc(doc, "demo table")?)
}

/// How far a point is inside the table, from its nearest edge (negative off the table).
fn edge_margin(scene: &Scene, p: &TablePoint) -> Inches {
    Inches(
        p.x.min(p.y)
            .min(scene.table.width.0 - p.x)
            .min(scene.table.depth.0 - p.y),
    )
}

fn shifted(stand: &OrientedRect, by: TableVector) -> OrientedRect {
    OrientedRect::from_center(
        stand.center() + by,
        stand.facing(),
        stand.width(),
        stand.depth(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_armies_close_over_the_turns() {
        let demo = Demo::new().expect("the demo builds");
        assert_eq!(demo.turns.len(), TURNS);
        let first = &demo.turns[0];
        let last = &demo.turns[TURNS - 1];
        let moved = first
            .units
            .iter()
            .zip(&last.units)
            .filter(|(a, b)| a.footprint.leader() != b.footprint.leader())
            .count();
        assert!(moved >= first.units.len() / 2, "{moved} units moved");
        for side in ["british", "russian"] {
            let advanced = first
                .units
                .iter()
                .zip(&last.units)
                .filter(|(a, b)| a.side == side && a.footprint.leader() != b.footprint.leader())
                .count();
            assert!(advanced >= 4, "{advanced} {side} units advanced");
        }
        for (unit, roster) in last.units.iter().zip(&demo.roster.units) {
            assert_eq!(unit.id, roster.id);
        }
    }

    /// Whether two stands share more than an edge: each is shrunk by a hair first, so stands
    /// in contact (touching fronts) are not counted as overlapping.
    fn overlap(a: &OrientedRect, b: &OrientedRect) -> bool {
        let hair = Inches(0.01);
        let shrunk = |r: &OrientedRect| {
            OrientedRect::from_center(
                r.center(),
                r.facing(),
                r.width() - hair * 2.0,
                r.depth() - hair * 2.0,
            )
        };
        shrunk(a).gap_to(&shrunk(b)).0 == 0.0
    }

    #[test]
    fn no_two_units_of_any_turn_stand_on_each_other() {
        let demo = Demo::new().expect("the demo builds");
        for (turn, scene) in demo.turns.iter().enumerate() {
            for (i, a) in scene.units.iter().enumerate() {
                for b in &scene.units[i + 1..] {
                    let clash = a
                        .footprint
                        .stands()
                        .iter()
                        .any(|s| b.footprint.stands().iter().any(|t| overlap(s, t)));
                    assert!(
                        !clash,
                        "turn {}: {} ({}) and {} ({}) overlap",
                        turn + 1,
                        a.id,
                        a.side,
                        b.id,
                        b.side
                    );
                }
            }
        }
    }

    #[test]
    fn no_unit_goes_through_an_enemy_between_turns() {
        let demo = Demo::new().expect("the demo builds");
        for (turn, pair) in demo.turns.windows(2).enumerate() {
            let (before, after) = (&pair[0], &pair[1]);
            for (was, now) in before.units.iter().zip(&after.units) {
                // Every stand's path, in tenth-of-an-inch steps, against every enemy stand
                // where it stood before and after the turn.
                let path: Vec<OrientedRect> = was
                    .footprint
                    .stands()
                    .iter()
                    .zip(now.footprint.stands())
                    .flat_map(|(from, to)| {
                        let travel = to.center() - from.center();
                        let steps = (travel.norm() / 0.1).ceil().max(1.0) as usize;
                        (0..=steps).map(move |k| shifted(from, travel * (k as f64 / steps as f64)))
                    })
                    .collect();
                let enemies = before
                    .units
                    .iter()
                    .chain(&after.units)
                    .filter(|e| e.side != was.side);
                let ahead = heading(was.footprint.facing());
                for (enemy_was, enemy_now) in before.units.iter().zip(&after.units) {
                    let in_front = |unit: &rules::scene::Unit, enemy: &rules::scene::Unit| {
                        (enemy.footprint.leader() - unit.footprint.leader()).dot(&ahead) > 0.0
                    };
                    if enemy_was.side != was.side && in_front(was, enemy_was) {
                        assert!(
                            in_front(now, enemy_now),
                            "turn {} to {}: {} gets behind the front of {}",
                            turn + 1,
                            turn + 2,
                            was.id,
                            enemy_was.id
                        );
                    }
                }
                for enemy in enemies {
                    let through = path
                        .iter()
                        .any(|s| enemy.footprint.stands().iter().any(|e| overlap(s, e)));
                    assert!(
                        !through,
                        "turn {} to {}: {} goes through {}",
                        turn + 1,
                        turn + 2,
                        was.id,
                        enemy.id
                    );
                }
            }
        }
    }

    #[test]
    fn the_lines_end_close_but_apart() {
        let demo = Demo::new().expect("the demo builds");
        let last = &demo.turns[TURNS - 1];
        let closest = last
            .units
            .iter()
            .flat_map(|a| {
                last.units
                    .iter()
                    .filter(move |b| b.side != a.side)
                    .map(move |b| a.footprint.gap_to(&b.footprint).0)
            })
            .fold(f64::INFINITY, f64::min);
        assert!(
            (ROOM_FROM_ENEMY.0 - 0.01..=3.0).contains(&closest),
            "the closest enemies are {closest:.2}\" apart"
        );
    }
}
