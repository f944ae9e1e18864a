//! Every sample scene loads and measures, end to end through the command line.

use serde_json::Value;
use vedette_tests::{sample_scenes, scenarios, vedette};

/// The fields of a pair that `vedette measure --json` promises (and `vedette rulings` keeps).
const PAIR_FIELDS: [&str; 7] = [
    "from",
    "to",
    "edge_distance",
    "range",
    "target_quarter",
    "arc_fraction",
    "in_range",
];

#[test]
fn there_are_sample_scenes_in_json_and_toml() {
    let scenes = sample_scenes();
    assert!(
        scenes
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "json"))
    );
    assert!(
        scenes
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "toml"))
    );
}

#[test]
fn every_sample_measures_as_text_and_json() {
    for scene in sample_scenes() {
        let path = scene.to_str().expect("utf-8 path");
        let text = vedette(&["measure", path]).unwrap_or_else(|e| panic!("{path}: {e}"));
        // Every report opens with its ruleset's name (four rulesets share the engine).
        let rulesets = [
            "Black Powder",
            "Bugles, Bullets and Blades",
            "eRules Napoleonic Wars",
        ];
        assert!(rulesets.iter().any(|r| text.contains(r)), "{path}: {text}");
        let json = vedette(&["measure", "--json", path]).unwrap_or_else(|e| panic!("{path}: {e}"));
        let report: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{path}: {e}"));
        let pairs = report["pairs"].as_array().expect("pairs");
        let mut sides: Vec<&str> = report["units"]
            .as_array()
            .expect("units")
            .iter()
            .filter_map(|u| u["side"].as_str())
            .collect();
        sides.sort_unstable();
        sides.dedup();
        assert_eq!(
            pairs.is_empty(),
            sides.len() < 2,
            "{path}: pairs exactly when two sides are on the table"
        );
        for pair in pairs {
            for field in PAIR_FIELDS {
                assert!(
                    pair.get(field).is_some(),
                    "{path}: pair without {field}: {pair}"
                );
            }
            let quarter = pair["target_quarter"].as_str().expect("quarter");
            assert!(["front", "left", "right", "rear"].contains(&quarter));
            let fraction = pair["arc_fraction"].as_f64().expect("fraction");
            assert!((0.0..=1.0).contains(&fraction));
            assert!(
                pair["edge_distance"].as_f64().expect("edge")
                    <= pair["range"].as_f64().expect("range") + 0.011,
                "{path}: the leader is on the unit, so the range is never shorter than the edge distance: {pair}"
            );
        }
    }
}

#[test]
fn the_two_lines_sample_gives_the_numbers_a_tape_would() {
    let root = vedette_tests::workspace_root();
    let path = root.join("samples/scenes/two-lines.json");
    let json = vedette(&["measure", "--json", path.to_str().expect("utf-8")]).expect("measures");
    let report: Value = serde_json::from_str(&json).expect("json");
    let pair = report["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .find(|p| p["from"] == "45th-foot" && p["to"] == "3e-ligne")
        .expect("pair");
    // Front edges at y = 12 and y = 20; the 3e Ligne's front spans x 26.3..35.7 ahead of the leader.
    assert_eq!(pair["edge_distance"], 8.0);
    assert_eq!(pair["range"], 8.0);
    assert_eq!(pair["target_quarter"], "front");
    assert_eq!(pair["arc_fraction"], 1.0);
    assert_eq!(pair["in_range"], true);
}

#[test]
fn the_flank_ray_sample_is_reported_as_borderline() {
    let root = vedette_tests::workspace_root();
    let path = root.join("samples/scenes/flank-ray.toml");
    let text = vedette(&["measure", path.to_str().expect("utf-8")]).expect("measures");
    assert!(text.contains("borderline — players decide"), "{text}");
}

#[test]
fn the_seven_book_scenarios_are_there_with_armies_and_commanders() {
    let names: Vec<String> = scenarios()
        .iter()
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_owned))
        .collect();
    for expected in [
        "freemans-farm",
        "el-perez",
        "san-miguel",
        "crimea-river",
        "hangmans-creek",
        "ntombi",
        "el-teb",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "missing scenario {expected}: {names:?}"
        );
    }
    for path in scenarios() {
        let scene = rules::Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let where_ = path.display();
        assert!(scene.scenario.is_some(), "{where_}: scenario info");
        assert!(scene.sides.len() >= 2, "{where_}: two armies");
        assert!(!scene.commanders.is_empty(), "{where_}: commanders");
        assert!(
            scene.units.iter().all(|u| u.stats.is_some()),
            "{where_}: every unit has its stat line"
        );
        for unit in &scene.units {
            let c = unit.footprint.frame().center();
            assert!(
                c.x > 0.0 && c.y > 0.0 && c.x < scene.table.width.0 && c.y < scene.table.depth.0,
                "{where_}: {} on the table",
                unit.id
            );
        }
    }
}

#[test]
fn every_sample_gets_rulings_in_text_and_json() {
    for scene in sample_scenes() {
        let path = scene.to_str().expect("utf-8 path");
        let text = vedette(&["rulings", path]).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            text.contains("Shooting") || text.contains("Command"),
            "{path}"
        );
        let json = vedette(&["rulings", "--json", path]).unwrap_or_else(|e| panic!("{path}: {e}"));
        let report: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{path}: {e}"));
        for unit in report["units"].as_array().expect("units") {
            let shooting = &unit["shooting"];
            for field in ["must_target", "may_target", "ineligible"] {
                assert!(shooting[field].is_array(), "{path}: shooting.{field}");
            }
        }
        for pair in report["pairs"].as_array().expect("pairs") {
            assert!(
                pair.get("visible_fraction").is_some() && pair.get("charge").is_some(),
                "{path}: {pair}"
            );
            for field in PAIR_FIELDS {
                assert!(
                    pair.get(field).is_some(),
                    "{path}: pair keeps measure's {field}"
                );
            }
        }
    }
}

#[test]
fn the_release_binary_sheds_its_debug_information() {
    // 212 MB with line tables, 42 MB without: what `make run` builds and a user installs.
    let manifest: toml::Table = toml::from_str(
        &std::fs::read_to_string(vedette_tests::workspace_root().join("Cargo.toml"))
            .expect("the workspace manifest"),
    )
    .expect("TOML");
    let release = &manifest["profile"]["release"];
    assert_eq!(
        release.get("strip").and_then(|s| s.as_str()),
        Some("debuginfo")
    );
    assert!(
        release
            .get("debug")
            .is_none_or(|d| d.as_bool() == Some(false)),
        "{release:?}"
    );
}
