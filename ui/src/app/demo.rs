//! The built-in demo table: a Black Powder scenario from `samples/`, its armies advancing over a
//! few turns, rendered by the synthetic camera — so the app is alive on a machine with no
//! camera, and every frame goes through the real pipeline (detection, calibration from the
//! anchors, tracking, rulings).

use anyhow::Context;
use calibration::{AnchorLayout, Camera, ImageSize, TableSize};
use rules::Scene;
use rules::geometry::{OrientedRect, TableVector, heading};
use rules::scene::{Format, SceneDoc};
use rules::units::{Degrees, Inches};
use vision::Roster;
use vision::roster::TagDefaults;
use vision::source::SyntheticSource;
use vision::synthetic::{Effects, SyntheticTable, framing_camera};

use super::pipeline::Inputs;

/// The scenario the demo plays: the Crimea, two lines of battle closing across a river.
const SCENARIO: &str = include_str!("../../../samples/scenarios/crimea-river.json");
/// Its name in the status bar.
const NAME: &str = "demo table: Crimea River (samples/scenarios/crimea-river.json)";
/// Turns played before the demo starts again.
pub const TURNS: usize = 4;
/// Frames each turn is shown for, at [`FPS`].
const FRAMES_PER_TURN: u64 = 60;
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

impl Demo {
    /// Build the demo (cheap: frames are rendered when first shown).
    pub fn new() -> anyhow::Result<Demo> {
        let opening = Scene::parse(SCENARIO, Format::Json, "crimea-river.json")
            .context("the demo scenario")?;
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
        let mut turns = vec![opening];
        for _ in 1..TURNS {
            let last = turns.last().context("the opening positions")?;
            turns.push(advance(last)?);
        }
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
        }
    }

    /// The table at `turn`, staged for the renderer.
    pub fn stage(&self, turn: usize) -> SyntheticTable {
        let scene = &self.turns[turn.min(self.turns.len() - 1)];
        SyntheticTable::stage(scene, &self.roster, &self.anchors)
    }

    /// The frames: each turn for a few seconds, in a loop.
    pub fn source(&self) -> SyntheticSource {
        let states = (0..self.turns.len())
            .map(|t| (self.stage(t), FRAMES_PER_TURN))
            .collect();
        SyntheticSource::new(NAME, self.camera, Effects::WEBCAM, states, FPS, true)
    }
}

/// The next turn: every unit that can advances a move straight ahead, unless that takes it
/// off the table, onto a friend, or within an inch of an enemy (the demo shows a battle closing,
/// not one resolved).
fn advance(scene: &Scene) -> anyhow::Result<Scene> {
    let profile = scene.profile();
    let mut doc = SceneDoc::from(scene);
    let mut placed: Vec<Vec<OrientedRect>> = scene
        .units
        .iter()
        .map(|u| u.footprint.stands().to_vec())
        .collect();
    for (i, unit) in scene.units.iter().enumerate() {
        let step = heading(unit.footprint.facing()) * profile.unit_move(unit).0;
        let moved: Vec<OrientedRect> = placed[i].iter().map(|s| shifted(s, step)).collect();
        let clear = scene.units.iter().enumerate().all(|(j, other)| {
            let room = if other.side == unit.side { 0.25 } else { 1.0 };
            j == i
                || moved
                    .iter()
                    .all(|a| placed[j].iter().all(|b| a.gap_to(b).0 >= room))
        });
        let on_table = moved.iter().flat_map(|s| s.corners()).all(|c| {
            c.x > 3.0
                && c.y > 3.0
                && c.x < scene.table.width.0 - 3.0
                && c.y < scene.table.depth.0 - 3.0
        });
        if !(clear && on_table) {
            continue;
        }
        placed[i] = moved;
        let unit_doc = &mut doc.units[i];
        if let Some(front) = unit_doc.front_center.as_mut() {
            front[0] += step.x;
            front[1] += step.y;
        }
        for stand in unit_doc.stands.iter_mut().flatten() {
            stand.center[0] += step.x;
            stand.center[1] += step.y;
        }
    }
    Ok(Scene::from_doc(doc, "demo table")?)
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
        for (unit, roster) in last.units.iter().zip(&demo.roster.units) {
            assert_eq!(unit.id, roster.id);
        }
    }
}
