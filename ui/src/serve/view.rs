//! What a web page is told of the table: the plan (table, terrain, units coloured by side), each
//! unit's rulings in the app's words, the camera model for the video's overlay — and nothing
//! else of the machine: no file paths, no settings, no error texts that might name a file.
//!
//! Decisions:
//! - Positions are table inches, as the rules hold them; the page converts lengths it prints
//!   itself (the tape) with the ruleset's unit and scale, sent once. The rulings' own sentences
//!   already speak the ruleset's unit.
//! - Pages get the whole view once, then [`Patch`]es: the units and rulings that changed, by
//!   id. Terrain, the table and the camera change rarely: a change there sends the whole view
//!   again.

use std::collections::BTreeMap;

use rules::geometry::TablePoint;
use rules::ruling::{Decision, Ruling, Shape, Topic, to_thousandth};
use rules::scene::{TerrainKind, TerrainShape};
use rules::units::LengthUnit;
use serde::Serialize;

use live::pipeline::{CalibrationStatus, TableState};

pub use super::desk_view::DeskView;
use super::naming::{side_colour, verdict_word};

/// The table as a page shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableView {
    /// The table and its ruleset.
    pub table: TableInfo,
    /// Terrain outlines.
    pub terrain: Vec<TerrainView>,
    /// Units by id.
    pub units: BTreeMap<String, UnitView>,
    /// Each unit's rulings, by unit id.
    pub rulings: BTreeMap<String, Vec<RulingView>>,
    /// The calibrated camera, for drawing on the video.
    pub camera: Option<CameraView>,
    /// How the table is being watched.
    pub status: StatusView,
    /// Units on their way, the latest moves, and the tags that need care.
    pub motion: MotionView,
    /// The remote players' pointers and orders.
    pub remote: DeskView,
}

/// The table in motion, as a page shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MotionView {
    /// Units on their way (in a hand, slid along the cloth), where they are seen: drawn dashed
    /// beside where they rest for the rules.
    pub travelling: Vec<GhostView>,
    /// The latest moves, newest last.
    pub moves: Vec<MoveView>,
    /// Tags whose look calls for a remedy, in words ("tag 34: glare — tilt the lamp or print on
    /// matte paper").
    pub care: Vec<String>,
}

/// A unit on its way.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GhostView {
    /// The unit's id.
    pub unit: String,
    /// Each travelling stand's corners where it is seen, inches.
    pub stands: Vec<[TablePoint; 4]>,
    /// Whether it is in a hand (lifted or tilted off the table).
    pub in_hand: bool,
    /// How high it seems above its stand's height, inches: drawn that high on the video.
    pub lifted_by: f64,
}

/// A move made.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveView {
    /// The unit's id.
    pub unit: String,
    /// Its name.
    pub name: String,
    /// How far its leader went, inches.
    pub straight: f64,
    /// How: `carried`, `slid` or `under a hand`.
    pub how: &'static str,
    /// The check of it (`yes`, `no`, `borderline`): its cost against its allowance, the 12"
    /// rule; `unchecked` when nothing decided it.
    pub verdict: &'static str,
    /// The check's sentences.
    pub checks: Vec<String>,
}

/// The table's size and how it measures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableInfo {
    /// The table's name (`--name`, or the scenario's).
    pub name: String,
    /// The ruleset's id (`black-powder` …).
    pub ruleset: String,
    /// Its name, for people.
    pub ruleset_name: String,
    /// Width, inches.
    pub width: f64,
    /// Depth, inches.
    pub depth: f64,
    /// The unit lengths are printed in (`"`, `cm`, `mm`, `m`).
    pub unit: &'static str,
    /// That unit per table inch.
    pub per_inch: f64,
    /// Decimals lengths are printed with.
    pub decimals: usize,
}

/// A piece of terrain.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TerrainView {
    /// Its id.
    pub id: String,
    /// What it is.
    pub kind: TerrainKind,
    /// An area (closed) or a line.
    pub area: bool,
    /// Its outline, inches.
    pub points: Vec<TablePoint>,
}

/// A unit on the plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitView {
    /// Its name.
    pub name: String,
    /// Its side's id.
    pub side: String,
    /// Its side's name for people (the id when the scene names none).
    pub army: String,
    /// Its side's colour, `#rrggbb`, as the app draws it.
    pub colour: String,
    /// Infantry, cavalry, artillery …
    pub kind: String,
    /// Its formation.
    pub formation: String,
    /// Each stand's corners, inches (front-right, front-left, rear-left, rear-right).
    pub stands: Vec<[TablePoint; 4]>,
    /// Its leader (the front edge's middle).
    pub leader: TablePoint,
    /// Facing, degrees counter-clockwise from +x.
    pub facing: f64,
    /// Whether the camera sees it now: `seen`, `held` (placed from where it was last seen) or
    /// `partial` (seen by some of its stands only).
    pub sighting: &'static str,
}

/// One ruling, as the app's inspector shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RulingView {
    /// Shooting, charge, command …
    pub topic: Topic,
    /// Must, may, cannot, yes, no, borderline, penalty, test (docs/guide/rulesets.md: "What a
    /// decision means").
    pub decision: Decision,
    /// The verdict's colour class and mark: `yes` ✔, `penalty` ➖, `test` 🎲, `no` ✖,
    /// `borderline` ?.
    pub verdict: &'static str,
    /// The other unit, if the ruling is about two.
    pub other: Option<String>,
    /// The rule, with the reading applied (`Pick a Target (§6.4), A12`).
    pub rule: String,
    /// The sentence.
    pub explanation: String,
    /// What to draw, inches.
    pub shapes: Vec<Shape>,
}

/// The camera model, for projecting the plan's shapes onto the video in the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CameraView {
    /// Picture size, pixels.
    pub width: u32,
    /// Picture size, pixels.
    pub height: u32,
    /// Focal lengths and principal point, pixels.
    pub fx: f64,
    /// Focal length along y.
    pub fy: f64,
    /// Principal point x.
    pub cx: f64,
    /// Principal point y.
    pub cy: f64,
    /// OpenCV's distortion `[k1, k2, p1, p2, k3]`.
    pub distortion: [f64; 5],
    /// Squared normalised radius beyond which the lens folds back (nothing there is seen).
    pub fold: Option<f64>,
    /// Table-to-camera rotation, row-major.
    pub rotation: [[f64; 3]; 3],
    /// Table-to-camera translation, inches.
    pub translation: [f64; 3],
    /// Height of the tops of the bases, inches: outlines are drawn there.
    pub stand_height: f64,
}

/// How the table is being watched.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatusView {
    /// The frame's index in its source.
    pub frame: u64,
    /// Whether the camera is calibrated to the table.
    pub calibrated: bool,
    /// Whether a camera picture is there to show.
    pub picture: bool,
    /// Units on the table, and how many are placed from where they were last seen.
    pub held: usize,
    /// Whether the source is failing (a lost camera): the page says the table is not live.
    pub failing: bool,
    /// Whether the umpire has frozen the view.
    pub frozen: bool,
    /// The turns the umpire has marked (0: none).
    pub turn: u32,
    /// With several cameras over the table, each one's name and state ("live", "late",
    /// "lost", "waiting"); empty with one.
    pub cameras: Vec<RigCameraView>,
    /// The units no camera sees now, by name.
    pub unseen: Vec<String>,
}

/// One camera of several, as pages are told of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RigCameraView {
    /// Its name.
    pub name: String,
    /// "live", "late", "lost" or "waiting".
    pub state: &'static str,
}

/// What changed since the view a page holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Patch {
    /// Units new or changed.
    pub units: BTreeMap<String, UnitView>,
    /// Units gone.
    pub gone: Vec<String>,
    /// Rulings changed, by unit.
    pub rulings: BTreeMap<String, Vec<RulingView>>,
    /// The status, when it changed.
    pub status: Option<StatusView>,
    /// The table in motion, when it changed.
    pub motion: Option<MotionView>,
    /// The remote players' pointers and orders, when they changed.
    pub remote: Option<DeskView>,
}

impl Patch {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
            && self.gone.is_empty()
            && self.rulings.is_empty()
            && self.status.is_none()
            && self.motion.is_none()
            && self.remote.is_none()
    }
}

impl TableView {
    /// The view of a table state; `None` until the state holds a scene.
    pub fn of(state: &TableState, name: &str) -> Option<TableView> {
        let scene = state.scene.as_deref()?;
        let profile = scene.profile();
        let lengths = profile.length_scale();
        let table = TableInfo {
            name: name.to_owned(),
            ruleset: scene.ruleset.as_str().to_owned(),
            ruleset_name: profile.name().to_owned(),
            width: scene.table.width.0,
            depth: scene.table.depth.0,
            unit: lengths.unit.symbol().trim(),
            per_inch: lengths.per_inch,
            decimals: decimals(lengths.unit),
        };
        let terrain = scene.terrain.iter().map(terrain_view).collect();
        let units = scene
            .units
            .iter()
            .map(|unit| {
                let sighting = if state.held_units.contains_key(&unit.id) {
                    "held"
                } else if state.status.partial.iter().any(|p| p.unit == unit.id) {
                    "partial"
                } else {
                    "seen"
                };
                (unit.id.clone(), unit_view(scene, unit, sighting))
            })
            .collect();
        let rulings = state
            .rulings
            .as_deref()
            .map(|r| {
                r.units
                    .iter()
                    .map(|u| {
                        let views = u.rulings.iter().map(ruling_view).collect();
                        (u.summary.id.clone(), views)
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(TableView {
            table,
            terrain,
            units,
            rulings,
            camera: camera_view(state),
            status: status_view(state),
            motion: motion_view(state),
            remote: DeskView::default(),
        })
    }

    /// What changed from `before` to this view, or `None` if a page must be sent the whole
    /// view (the table, terrain or camera changed).
    pub fn patch_from(&self, before: &TableView) -> Option<Patch> {
        if self.table != before.table
            || self.terrain != before.terrain
            || self.camera != before.camera
        {
            return None;
        }
        let units = changed(&self.units, &before.units);
        let rulings = changed(&self.rulings, &before.rulings);
        let gone = before
            .units
            .keys()
            .filter(|id| !self.units.contains_key(*id))
            .cloned()
            .collect();
        Some(Patch {
            units,
            gone,
            rulings,
            status: (self.status != before.status).then(|| self.status.clone()),
            motion: (self.motion != before.motion).then(|| self.motion.clone()),
            remote: (self.remote != before.remote).then(|| self.remote.clone()),
        })
    }
}

/// The decimals a length is printed with, as [`rules::units::Length`] prints it.
fn decimals(unit: LengthUnit) -> usize {
    match unit {
        LengthUnit::Inches => 2,
        LengthUnit::Centimetres => 1,
        LengthUnit::Millimetres | LengthUnit::ScaleMetres => 0,
    }
}

/// The entries of `now` that are new or differ from `before`.
fn changed<T: Clone + PartialEq>(
    now: &BTreeMap<String, T>,
    before: &BTreeMap<String, T>,
) -> BTreeMap<String, T> {
    now.iter()
        .filter(|(id, value)| before.get(*id) != Some(value))
        .map(|(id, value)| (id.clone(), value.clone()))
        .collect()
}

fn terrain_view(piece: &rules::scene::Terrain) -> TerrainView {
    let (area, points) = match &piece.shape {
        TerrainShape::Area(points) => (true, points),
        TerrainShape::Line(points) => (false, points),
    };
    TerrainView {
        id: piece.id.clone(),
        kind: piece.kind,
        area,
        points: points.iter().map(to_thousandth).collect(),
    }
}

fn unit_view(scene: &rules::Scene, unit: &rules::scene::Unit, sighting: &'static str) -> UnitView {
    UnitView {
        name: unit.name.clone(),
        side: unit.side.clone(),
        army: scene
            .side(&unit.side)
            .and_then(|s| s.name.clone())
            .unwrap_or_else(|| unit.side.clone()),
        colour: side_colour(scene, &unit.side),
        kind: unit.kind.as_str().to_owned(),
        formation: unit.formation.as_str().to_owned(),
        stands: unit
            .footprint
            .stands()
            .iter()
            .map(|s| s.corners().map(|c| to_thousandth(&c)))
            .collect(),
        leader: to_thousandth(&unit.footprint.leader()),
        facing: unit.footprint.facing().0,
        sighting,
    }
}

/// A ruling in the app's terms: the verdict, the sentence and the rule cited.
pub fn ruling_view(ruling: &Ruling) -> RulingView {
    let rule = match ruling.rule.reading {
        Some(reading) => format!("{}, {reading}", ruling.rule.rule),
        None => ruling.rule.rule.to_owned(),
    };
    RulingView {
        topic: ruling.topic,
        decision: ruling.decision,
        verdict: verdict_word(ruling.verdict()),
        other: ruling.other.clone(),
        rule,
        explanation: ruling.explanation.clone(),
        shapes: ruling.shapes.clone(),
    }
}

fn camera_view(state: &TableState) -> Option<CameraView> {
    let camera = state.calibration.as_ref()?.camera;
    let intrinsics = camera.intrinsics;
    let rotation = camera.pose.rotation.matrix();
    Some(CameraView {
        width: intrinsics.image_size.width,
        height: intrinsics.image_size.height,
        fx: intrinsics.focal_x.0,
        fy: intrinsics.focal_y.0,
        cx: intrinsics.principal_point.x,
        cy: intrinsics.principal_point.y,
        distortion: intrinsics.distortion.coefficients(),
        fold: intrinsics.distortion.fold(),
        rotation: [0, 1, 2].map(|r| [0, 1, 2].map(|c| rotation[(r, c)])),
        translation: camera.pose.translation.into(),
        stand_height: state.stand_height.0,
    })
}

fn motion_view(state: &TableState) -> MotionView {
    let travelling = state
        .travelling
        .iter()
        .map(|t| GhostView {
            unit: t.unit.clone(),
            stands: t
                .stands
                .iter()
                .map(|s| s.corners().map(|c| to_thousandth(&c)))
                .collect(),
            in_hand: t.in_hand,
            lifted_by: t.lifted_by.0.max(0.0),
        })
        .collect();
    let moves = state
        .moves
        .iter()
        .rev()
        .take(MOVES_SENT)
        .rev()
        .map(|record| move_view(record))
        .collect();
    MotionView {
        travelling,
        moves,
        care: state.health.iter().map(ToString::to_string).collect(),
    }
}

/// The latest moves a page is sent.
const MOVES_SENT: usize = 12;

fn move_view(record: &live::pipeline::MoveRecord) -> MoveView {
    let event = &record.event;
    MoveView {
        unit: event.unit.clone(),
        name: record.name.clone(),
        straight: (event.straight().0 * 1000.0).round() / 1000.0,
        how: record.how(),
        verdict: record.verdict().map_or("unchecked", verdict_word),
        checks: record
            .checks()
            .into_iter()
            .map(|(_, words)| words)
            .collect(),
    }
}

fn status_view(state: &TableState) -> StatusView {
    StatusView {
        frame: state.frame_index,
        calibrated: matches!(
            state.status.calibration,
            CalibrationStatus::Ready { stale: false, .. }
        ),
        picture: state.frame.is_some(),
        held: state.held_units.len(),
        failing: state.status.error.is_some(),
        frozen: false,
        turn: 0,
        cameras: state
            .status
            .cameras
            .iter()
            .map(|camera| RigCameraView {
                name: camera.report.name.clone(),
                state: match camera.report.state {
                    vision::rig::CameraState::Live => "live",
                    vision::rig::CameraState::Late { .. } => "late",
                    vision::rig::CameraState::Lost { .. } => "lost",
                    vision::rig::CameraState::Waiting => "waiting",
                },
            })
            .collect(),
        unseen: state.status.unseen.iter().map(|u| u.name.clone()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rules::Scene;
    use rules::ruling::Verdict;
    use rules::rulings::rulings;

    use super::*;

    fn state(scene: Scene) -> TableState {
        let mut state = TableState::message("test", None);
        state.rulings = Some(Arc::new(rulings(&scene)));
        state.scene = Some(Arc::new(scene));
        state
    }

    fn sample() -> Scene {
        sample_at("scenes/two-lines.json")
    }

    /// A sample scene or scenario, by its path under `samples/`.
    fn sample_at(path: &str) -> Scene {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../samples")
            .join(path);
        Scene::load(&path).expect("the sample loads")
    }

    #[test]
    fn a_patch_carries_only_what_changed() {
        let scene = sample();
        let before = TableView::of(&state(scene.clone()), "t").expect("a view");
        assert!(before.units.len() >= 2 && !before.rulings.is_empty());
        assert_eq!(before.patch_from(&before), Some(Patch::default()));

        // One unit steps forward: it changes, and so do rulings about it; nothing is gone.
        let mut moved = scene.clone();
        let id = moved.units[0].id.clone();
        let unit = &mut moved.units[0];
        let frame = unit.footprint.frame();
        let ahead = frame.front_center() + frame.forward() * 0.5;
        unit.footprint = rules::scene::Footprint::block(rules::geometry::OrientedRect::new(
            ahead,
            frame.facing(),
            frame.width(),
            frame.depth(),
        ));
        let after = TableView::of(&state(moved), "t").expect("a view");
        let patch = after
            .patch_from(&before)
            .expect("a patch, not the whole view");
        assert_eq!(patch.units.keys().collect::<Vec<_>>(), [&id]);
        assert!(patch.rulings.contains_key(&id));
        assert!(patch.gone.is_empty() && patch.status.is_none());

        // A unit taken off the table is gone.
        let mut fewer = scene.clone();
        let removed = fewer.units.pop().expect("a unit").id;
        let after = TableView::of(&state(fewer), "t").expect("a view");
        assert_eq!(
            after.patch_from(&before).map(|p| p.gone),
            Some(vec![removed])
        );

        // A new table name or terrain sends the whole view again.
        let renamed = TableView::of(&state(scene), "u").expect("a view");
        assert_eq!(renamed.patch_from(&before), None);
    }

    #[test]
    fn a_ruling_reads_as_the_app_shows_it() {
        let view = TableView::of(&state(sample()), "t").expect("a view");
        let ruling = view.rulings.values().flatten().next().expect("a ruling");
        assert!(!ruling.explanation.is_empty());
        assert!(matches!(ruling.verdict, "yes" | "no" | "borderline"));
        assert!(!ruling.rule.is_empty());
        assert_eq!(view.table.unit, "\"");
        assert_eq!(view.table.ruleset, "black-powder");
    }

    #[test]
    fn a_command_penalty_is_sent_as_a_penalty_not_a_refusal() {
        // Crimea River: the Guards' second battery stands 20.2" from Bentinck, −1 to its order.
        let view =
            TableView::of(&state(sample_at("scenarios/crimea-river.json")), "t").expect("a view");
        let battery = view
            .rulings
            .get("guards-battery-2")
            .and_then(|r| r.iter().find(|r| r.topic == Topic::Command))
            .expect("the battery's command ruling");
        assert_eq!(
            battery.decision,
            Decision::Penalty,
            "{}",
            battery.explanation
        );
        assert_eq!(battery.verdict, "penalty");
        let json = serde_json::to_value(battery).expect("it serializes");
        assert_eq!(json["decision"], "penalty");
        assert_eq!(json["verdict"], "penalty");
        // A test is its own word too, and no word stands for two verdicts.
        assert_eq!(verdict_word(Verdict::Test), "test");
        let words = [
            Verdict::Yes,
            Verdict::Penalty,
            Verdict::Test,
            Verdict::Borderline,
            Verdict::No,
        ]
        .map(verdict_word);
        let distinct: std::collections::BTreeSet<_> = words.iter().collect();
        assert_eq!(distinct.len(), words.len(), "{words:?}");
    }
}
