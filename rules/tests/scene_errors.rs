//! Malformed scenes: every error names the file, the unit or terrain and what is wrong.

use rules::Scene;
use rules::scene::{Format, SceneError, Subject};
use serde_json::{Value, json};

fn valid() -> Value {
    json!({
        "ruleset": "black-powder",
        "table": { "width": 72, "depth": 48 },
        "terrain": [ { "id": "wood-1", "kind": "wood", "polygon": [[10,10],[20,10],[20,18],[10,18]] } ],
        "units": [
            { "id": "45th-foot", "name": "45th Foot", "side": "red", "kind": "infantry", "formation": "line",
              "front_center": [30.0, 12.0], "facing": 90.0, "width": 9.4, "depth": 1.6,
              "weapon": "smoothbore-musket" },
            { "id": "3e-ligne", "side": "blue", "kind": "infantry",
              "front_center": [30.0, 20.0], "facing": 270.0, "width": 9.4, "depth": 1.6 }
        ]
    })
}

fn error_of(doc: &Value) -> SceneError {
    let text = serde_json::to_string_pretty(doc).expect("json");
    Scene::parse(&text, Format::Json, "army.json").expect_err("should be rejected")
}

fn message_of(doc: &Value) -> String {
    error_of(doc).to_string()
}

#[test]
fn the_valid_scene_loads() {
    let scene = Scene::parse(&valid().to_string(), Format::Json, "army.json").expect("valid");
    assert_eq!(scene.units.len(), 2);
    assert_eq!(
        scene.units[1].name, "3e-ligne",
        "the name defaults to the id"
    );
}

#[test]
fn a_negative_width_names_the_unit_and_the_value() {
    let mut doc = valid();
    doc["units"][0]["width"] = json!(-9.4);
    let message = message_of(&doc);
    assert!(message.starts_with("army.json: "), "{message}");
    assert!(message.contains("unit '45th-foot'"), "{message}");
    assert!(
        message.contains("`width`: must be greater than 0, got -9.4"),
        "{message}"
    );
}

#[test]
fn an_unknown_ruleset_lists_the_known_ones() {
    let mut doc = valid();
    doc["ruleset"] = json!("warhammer");
    let message = message_of(&doc);
    assert!(message.contains("unknown variant `warhammer`"), "{message}");
    assert!(message.contains("black-powder"), "{message}");
    assert!(message.contains("`ruleset`"), "{message}");
}

#[test]
fn a_duplicate_id_names_both_places() {
    let mut doc = valid();
    doc["units"][1]["id"] = json!("45th-foot");
    let message = message_of(&doc);
    assert!(
        message.contains("duplicate id '45th-foot': already used by units[0]"),
        "{message}"
    );
    // Terrain and units share one namespace.
    let mut doc = valid();
    doc["units"][1]["id"] = json!("wood-1");
    assert!(message_of(&doc).contains("already used by terrain[0]"));
}

#[test]
fn a_facing_that_is_not_a_number_names_the_unit_field_and_line() {
    let mut doc = valid();
    doc["units"][1]["facing"] = json!("north");
    let error = error_of(&doc);
    let problem = &error.problems()[0];
    assert_eq!(
        problem.subject,
        Subject::Unit {
            index: 1,
            id: Some("3e-ligne".into())
        }
    );
    assert_eq!(problem.field.as_deref(), Some("facing"));
    assert!(problem.line.is_some());
    assert!(
        problem.message.contains("invalid type: string \"north\""),
        "{}",
        problem.message
    );
}

#[test]
fn a_polygon_with_two_points_is_rejected() {
    let mut doc = valid();
    doc["terrain"][0]["polygon"] = json!([[0, 0], [1, 1]]);
    let message = message_of(&doc);
    assert!(message.contains("terrain 'wood-1'"), "{message}");
    assert!(
        message.contains("needs at least 3 points, got 2"),
        "{message}"
    );
}

#[test]
fn a_self_crossing_or_flat_polygon_is_rejected() {
    let mut doc = valid();
    doc["terrain"][0]["polygon"] = json!([[0, 0], [10, 10], [10, 0], [0, 6]]);
    assert!(message_of(&doc).contains("not a simple polygon"));
    doc["terrain"][0]["polygon"] = json!([[0, 0], [5, 5], [10, 10]]);
    assert!(message_of(&doc).contains("has no area"));
}

#[test]
fn every_problem_is_reported_at_once() {
    let mut doc = valid();
    doc["units"][0]["width"] = json!(0);
    doc["units"][1]["depth"] = json!(-1);
    doc["table"]["width"] = json!(-72);
    let error = error_of(&doc);
    assert_eq!(error.problems().len(), 3, "{error}");
    assert!(error.to_string().contains("3 problems"));
}

#[test]
fn a_typo_in_a_field_name_is_not_silently_ignored() {
    let mut doc = valid();
    doc["units"][0]["facng"] = json!(90);
    let message = message_of(&doc);
    assert!(message.contains("unknown field `facng`"), "{message}");
    assert!(message.contains("unit '45th-foot'"), "{message}");
}

#[test]
fn an_unknown_weapon_suggests_the_close_ones() {
    let mut doc = valid();
    doc["units"][0]["weapon"] = json!("smoothbore blunderbuss");
    let message = message_of(&doc);
    assert!(
        message.contains("unknown weapon 'smoothbore blunderbuss'"),
        "{message}"
    );
    assert!(message.contains("smoothbore-musket"), "{message}");
}

#[test]
fn a_formation_the_kind_cannot_use_is_rejected() {
    let mut doc = valid();
    doc["units"][1]["kind"] = json!("cavalry");
    doc["units"][1]["formation"] = json!("square");
    let message = message_of(&doc);
    assert!(
        message.contains("cavalry cannot be in square formation"),
        "{message}"
    );
}

#[test]
fn a_unit_needs_a_position() {
    let mut doc = valid();
    doc["units"][0]
        .as_object_mut()
        .expect("object")
        .remove("front_center");
    assert!(message_of(&doc).contains("`front_center`: is missing"));
    let mut doc = valid();
    doc["units"][0]["stands"] = json!([{ "center": [1, 1], "facing": 0, "width": 1, "depth": 1 }]);
    assert!(message_of(&doc).contains("not both"));
    let mut doc = valid();
    for field in ["front_center", "width", "depth"] {
        doc["units"][0]
            .as_object_mut()
            .expect("object")
            .remove(field);
    }
    doc["units"][0]["stands"] = json!([{ "center": [1, 1], "facing": 0, "width": -1, "depth": 1 }]);
    assert!(message_of(&doc).contains("stand 0 of unit '45th-foot' (units[0]), `width`"));
}

#[test]
fn broken_json_names_the_line_and_column() {
    let text = "{\n  \"ruleset\": \"black-powder\",\n  \"table\": { \"width\": 72,, }\n}";
    let error = Scene::parse(text, Format::Json, "army.json").expect_err("broken");
    let message = error.to_string();
    assert!(message.starts_with("army.json:3:"), "{message}");
    assert!(message.contains("not a valid JSON document"), "{message}");
    let trailing =
        Scene::parse(&format!("{} x", valid()), Format::Json, "army.json").expect_err("trailing");
    assert!(matches!(trailing, SceneError::Syntax { .. }));
}

#[test]
fn toml_scenes_report_lines_too() {
    let text = "ruleset = \"black-powder\"\n[table]\nwidth = 72\ndepth = \"deep\"\n";
    let error = Scene::parse(text, Format::Toml, "army.toml").expect_err("bad depth");
    let problem = &error.problems()[0];
    assert_eq!(problem.subject, Subject::Table);
    assert_eq!(problem.line, Some(4));
    let broken = Scene::parse("ruleset = = 3", Format::Toml, "army.toml").expect_err("syntax");
    assert!(broken.to_string().starts_with("army.toml:1:"), "{broken}");
}

#[test]
fn toml_infinities_are_not_numbers_players_meant() {
    let text = "ruleset = \"black-powder\"\n[table]\nwidth = inf\ndepth = nan\n";
    let message = Scene::parse(text, Format::Toml, "army.toml")
        .expect_err("inf")
        .to_string();
    assert!(message.contains("must be a finite number"), "{message}");
}

#[test]
fn absurd_sizes_are_rejected_before_they_reach_the_geometry() {
    let mut doc = valid();
    doc["units"][0]["width"] = json!(1e308);
    doc["units"][1]["front_center"] = json!([1e300, 0]);
    let message = message_of(&doc);
    assert!(message.contains("out of bounds"), "{message}");
    assert!(message.contains("within ±10000"), "{message}");
}

#[test]
fn a_missing_file_is_named() {
    let error = Scene::load(std::path::Path::new("no/such/scene.json")).expect_err("missing");
    assert!(
        error
            .to_string()
            .starts_with("no/such/scene.json: cannot read the scene")
    );
}

#[test]
fn a_scene_survives_a_round_trip_through_json() {
    let scene = Scene::parse(&valid().to_string(), Format::Json, "a").expect("valid");
    let again = Scene::parse(&scene.to_json(), Format::Json, "b").expect("round trip");
    assert_eq!(scene, again);
}

#[test]
fn a_point_of_three_numbers_names_the_unit_the_field_and_the_count() {
    let mut doc = valid();
    doc["units"][1]["front_center"] = json!([30.0, 20.0, 1.0]);
    let message = message_of(&doc);
    assert!(message.contains("unit '3e-ligne'"), "{message}");
    assert!(
        message.contains("`front_center`: invalid length 3, expected a point [x, y]"),
        "{message}"
    );
    assert!(!message.contains("trailing characters"), "{message}");
}

#[test]
fn figures_left_are_refused_where_the_ruleset_does_not_count_them_and_kept_where_it_does() {
    let mut doc = valid();
    doc["units"][0]["figures"] = json!(18);
    let message = message_of(&doc);
    assert!(
        message.contains(
            "unit '45th-foot' (units[0]), `figures`: Black Powder does not count a unit's figures: leave `figures` out"
        ),
        "{message}"
    );
    // eRules keeps a unit's tally (§38), and a scene written back keeps it too.
    doc["ruleset"] = json!("erules");
    doc["units"][0]["width"] = json!(4.7);
    let scene = Scene::parse(&doc.to_string(), Format::Json, "a").expect("valid");
    assert_eq!(scene.units[0].figures, Some(18));
    assert_eq!(scene.units[1].figures, None);
    let again = Scene::parse(&scene.to_json(), Format::Json, "b").expect("round trip");
    assert_eq!(scene, again);
    assert!(
        scene.to_json().contains("\"figures\": 18"),
        "{}",
        scene.to_json()
    );
}

/// A unit of two stands as a camera places them, each with how far it may be off.
fn measured(first_sd: Value) -> Value {
    let mut doc = valid();
    doc["length_sd"] = json!(0.0008);
    doc["frame_sd"] = json!(0.02);
    doc["units"][0] = json!({ "id": "45th-foot", "side": "red", "kind": "infantry",
        "formation": "line", "weapon": "smoothbore-musket", "stands": [
            { "center": [28.0, 11.2], "facing": 90.0, "width": 4.0, "depth": 1.6, "sd": first_sd },
            { "center": [32.0, 11.2], "facing": 90.0, "width": 4.0, "depth": 1.6,
              "sd": { "x": 0.01, "y": 0.02, "facing": 0.2 } } ] });
    doc
}

#[test]
fn a_camera_placed_scene_keeps_each_stands_error_bar_through_a_round_trip() {
    let doc = measured(json!({ "x": 0.015, "y": 0.01, "r": 0.3, "facing": 0.4 }));
    let scene = Scene::parse(&doc.to_string(), Format::Json, "seen.json").expect("valid");
    let sd = scene.units[0].footprint.sd().expect("measured stands");
    assert!((sd[0].facing().0 - 0.4).abs() < 1e-12);
    assert_eq!(scene.length_sd, Some(0.0008));
    assert_eq!(scene.frame_sd, Some(rules::units::Inches(0.02)));
    // A hand-made unit beside it carries none.
    assert!(scene.units[1].footprint.sd().is_none());
    let again = rules::scene::SceneDoc::from(&scene);
    let text = serde_json::to_string(&again).expect("json");
    let back = Scene::parse(&text, Format::Json, "again.json").expect("reads back");
    assert_eq!(back, scene);
}

#[test]
fn a_bad_error_bar_is_named_by_stand_and_field() {
    let negative = message_of(&measured(json!({ "x": -0.01, "y": 0.01, "facing": 0.2 })));
    assert!(
        negative.contains("stand 0 of unit '45th-foot'") && negative.contains("`sd.x`"),
        "{negative}"
    );
    let correlation = message_of(&measured(
        json!({ "x": 0.01, "y": 0.01, "r": 2.0, "facing": 0.2 }),
    ));
    assert!(correlation.contains("sd.r"), "{correlation}");
    let mut doc = valid();
    doc["length_sd"] = json!(-1.0);
    assert!(
        message_of(&doc).contains("length_sd"),
        "{}",
        message_of(&doc)
    );
    let mut doc = valid();
    doc["frame_sd"] = json!(-0.5);
    assert!(
        message_of(&doc).contains("frame_sd"),
        "{}",
        message_of(&doc)
    );
}

#[test]
fn a_hills_rise_and_crest_are_checked_and_kept() {
    let hill = |rise: Value, crest: Value| {
        let mut doc = valid();
        doc["terrain"] = json!([{ "id": "ridge", "kind": "hill", "height": 1,
            "polygon": [[40,20],[60,20],[60,36],[40,36]], "rise": rise, "crest": crest }]);
        doc
    };
    let inside = json!([[46, 25], [54, 25], [54, 31], [46, 31]]);
    let scene = Scene::parse(
        &hill(json!(2.5), inside.clone()).to_string(),
        Format::Json,
        "army.json",
    )
    .expect("valid");
    let rise = scene.terrain[0].rise.as_ref().expect("a rise");
    assert_eq!(rise.top.0, 2.5);
    assert_eq!(rise.crest.as_ref().map(Vec::len), Some(4));
    // Written back as it was read.
    let again = Scene::parse(&scene.to_json(), Format::Json, "again.json").expect("valid");
    assert_eq!(again.terrain[0].rise, scene.terrain[0].rise);

    let message = message_of(&hill(json!(60), inside));
    assert!(
        message.contains("terrain 'ridge'") && message.contains("`rise`: 60"),
        "{message}"
    );
    let message = message_of(&hill(json!(2), json!([[30, 25], [54, 25], [54, 31]])));
    assert!(
        message.contains("`crest`: must lie inside the hill's polygon"),
        "{message}"
    );
    let mut wood = valid();
    wood["terrain"][0]["rise"] = json!(2);
    assert!(message_of(&wood).contains("`rise`: only hills rise"));
}
