//! Scenes for the rulings tests, written the way a player would describe the table.

#![allow(dead_code)]

use rules::Scene;
use rules::charge::ChargeAssessment;
use rules::ruling::{Decision, Topic};
use rules::rulings::{Rulings, UnitRulings, rulings};
use rules::scene::Format;
use serde_json::{Value, json};

/// A line of infantry (9.4" × 1.6", muskets) with its leader at `front`.
pub fn line(id: &str, side: &str, front: [f64; 2], facing: f64) -> Value {
    json!({ "id": id, "side": side, "kind": "infantry", "formation": "line",
            "front_center": front, "facing": facing, "width": 9.4, "depth": 1.6,
            "weapon": "smoothbore-musket" })
}

/// A unit with any fields.
pub fn unit(fields: Value) -> Value {
    fields
}

/// A 72" × 48" Black Powder scene.
pub fn scene(units: Vec<Value>) -> Scene {
    scene_with(units, vec![], vec![])
}

/// A scene with terrain and commanders.
pub fn scene_with(units: Vec<Value>, terrain: Vec<Value>, commanders: Vec<Value>) -> Scene {
    let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
                      "terrain": terrain, "units": units, "commanders": commanders });
    Scene::parse(&doc.to_string(), Format::Json, "test").unwrap_or_else(|e| panic!("{e}"))
}

/// Every ruling of a scene.
pub fn rule(scene: &Scene) -> Rulings {
    rulings(scene)
}

/// The rulings about one unit.
pub fn of<'r>(report: &'r Rulings, id: &str) -> &'r UnitRulings {
    report
        .units
        .iter()
        .find(|u| u.summary.id == id)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

/// The charge from `from` at `to`, if the rules looked at one (an enemy within reach).
pub fn charge<'r>(report: &'r Rulings, from: &str, to: &str) -> Option<&'r ChargeAssessment> {
    report
        .pairs
        .iter()
        .find(|p| p.measurement.from == from && p.measurement.to == to)
        .and_then(|p| p.charge.as_ref())
}

/// The ruling about `id` and `other` on one topic; a test that expects one fails naming it.
#[track_caller]
pub fn ruling_on<'r>(
    report: &'r Rulings,
    id: &str,
    topic: Topic,
    other: &str,
) -> &'r rules::ruling::Ruling {
    of(report, id)
        .rulings
        .iter()
        .find(|r| r.topic == topic && r.other.as_deref() == Some(other))
        .unwrap_or_else(|| panic!("no {topic:?} ruling {id} → {other}"))
}

/// What the rulings decide about `id` and `other` on one topic (`None`: no such ruling).
pub fn decision(report: &Rulings, id: &str, topic: Topic, other: &str) -> Option<Decision> {
    of(report, id)
        .rulings
        .iter()
        .find(|r| r.topic == topic && r.other.as_deref() == Some(other))
        .map(|r| r.decision)
}

/// The targets `id` must shoot at, read from the rulings' decisions.
pub fn must_shoot(report: &Rulings, id: &str) -> Vec<String> {
    of(report, id)
        .rulings
        .iter()
        .filter(|r| r.topic == Topic::Shooting && r.decision == Decision::Must)
        .filter_map(|r| r.other.clone())
        .collect()
}

/// The text of every ruling about one unit, for assertions on explanations.
pub fn text_of(report: &Rulings, id: &str) -> String {
    of(report, id)
        .rulings
        .iter()
        .map(|r| r.explanation.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Assert that a ruling about `id` says `phrase`, showing all it says when not.
#[track_caller]
pub fn assert_says(report: &Rulings, id: &str, phrase: &str) {
    let text = text_of(report, id);
    assert!(text.contains(phrase), "{text}");
}

/// A 72" × 48" scene under any ruleset, with extra top-level fields (e.g. `figure-scale`).
pub fn scene_in(ruleset: &str, units: Vec<Value>, commanders: Vec<Value>, extra: Value) -> Scene {
    let mut doc = json!({ "ruleset": ruleset, "table": { "width": 72, "depth": 48 },
                          "units": units, "commanders": commanders });
    if let (Some(doc), Some(extra)) = (doc.as_object_mut(), extra.as_object()) {
        doc.extend(extra.clone());
    }
    Scene::parse(&doc.to_string(), Format::Json, "test").unwrap_or_else(|e| panic!("{e}"))
}

/// Centimetres as scene inches.
pub fn cm(value: f64) -> f64 {
    value / 2.54
}

/// Millimetres as scene inches.
pub fn mm(value: f64) -> f64 {
    value / 25.4
}

/// A point `distance` from `from` in the direction `angle` degrees counter-clockwise of +x.
pub fn towards(from: [f64; 2], angle: f64, distance: f64) -> [f64; 2] {
    let (sin, cos) = angle.to_radians().sin_cos();
    [from[0] + distance * cos, from[1] + distance * sin]
}

/// A small block of troops: `width` × `depth` inches, facing `facing`.
pub fn block(id: &str, side: &str, front: [f64; 2], facing: f64, size: [f64; 2]) -> Value {
    json!({ "id": id, "side": side, "kind": "infantry", "formation": "line",
            "front_center": front, "facing": facing, "width": size[0], "depth": size[1],
            "weapon": "smoothbore-musket" })
}
