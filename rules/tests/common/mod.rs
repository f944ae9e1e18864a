//! Scenes for the rulings tests, written the way a player would describe the table.

#![allow(dead_code)]

use rules::Scene;
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

/// The text of every ruling about one unit, for assertions on explanations.
pub fn text_of(report: &Rulings, id: &str) -> String {
    of(report, id)
        .rulings
        .iter()
        .map(|r| r.explanation.clone())
        .collect::<Vec<_>>()
        .join("\n")
}
