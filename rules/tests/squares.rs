//! Squares and units in buildings shoot from each face (digest §3, §6.3, §9.1, §9.3; A3).

mod common;

use common::{line, of, rule, scene, text_of, unit};
use rules::quarter::Quarter;
use serde_json::{Value, json};

/// A 6" square of the 45th facing north, its front edge at y = 20 from x = 27 to 33.
fn square(formation: &str) -> Value {
    unit(
        json!({ "id": "45th", "name": "45th Foot", "side": "red", "kind": "infantry",
        "formation": formation, "front_center": [30.0, 20.0], "facing": 90.0,
        "width": 6.0, "depth": 6.0, "weapon": "smoothbore-musket" }),
    )
}

/// Hussars facing east with their front edge at x = `x`, centred on y = 17.
fn hussars_facing_east(x: f64) -> Value {
    unit(
        json!({ "id": "hussars", "name": "2e Hussards", "side": "blue", "kind": "cavalry",
        "front_center": [x, 17.0], "facing": 0.0, "width": 5.9, "depth": 3.9, "weapon": "sabres" }),
    )
}

#[test]
fn a_squares_left_face_fires_at_cavalry_on_its_left_from_the_faces_midpoint() {
    // The left face runs from (27, 14) to (27, 20): its midpoint (27, 17) is 10" from the
    // hussars' front edge; the square's front centre is 13.3" from them.
    let report = rule(&scene(vec![square("square"), hussars_facing_east(17.0)]));
    let shooting = &of(&report, "45th").shooting;
    assert_eq!(shooting.must_target, vec!["hussars"]);
    let target = &shooting.targets[0];
    assert_eq!(target.face, Some(Quarter::LeftFlank));
    assert!((target.range.0 - 10.0).abs() < 1e-6, "{}", target.range);
    let text = text_of(&report, "45th");
    assert!(
        text.contains("45th Foot's left face must shoot at 2e Hussards — 10.00\""),
        "{text}"
    );
    assert!(text.contains("45th Foot's front face shoots up to 18.00\""));
}

#[test]
fn each_face_of_a_square_picks_its_own_target() {
    // Cavalry on the left, a line in front: the left face must shoot the cavalry and the front
    // face the line, though the cavalry is the closer of the two.
    let report = rule(&scene(vec![
        square("square"),
        hussars_facing_east(17.0),
        line("3e", "blue", [30.0, 34.0], 270.0),
    ]));
    let shooting = &of(&report, "45th").shooting;
    let mut must = shooting.must_target.clone();
    must.sort();
    assert_eq!(must, vec!["3e", "hussars"]);
    let faces: Vec<_> = shooting
        .targets
        .iter()
        .map(|t| (t.id.as_str(), t.face))
        .collect();
    assert!(faces.contains(&("3e", Some(Quarter::Front))));
    assert!(faces.contains(&("hussars", Some(Quarter::LeftFlank))));
    // Neither is reported as out of the arc by the faces that do not see it.
    assert!(shooting.ineligible.is_empty(), "{:?}", shooting.ineligible);
}

#[test]
fn a_target_just_out_of_range_of_the_face_that_sees_it_is_borderline() {
    // From the left face's midpoint the hussars are 18.4"; muskets reach 18".
    let report = rule(&scene(vec![square("square"), hussars_facing_east(8.6)]));
    let shooting = &of(&report, "45th").shooting;
    assert!(shooting.must_target.is_empty());
    let out = &shooting.ineligible[0];
    assert_eq!(out.face, Some(Quarter::LeftFlank));
    assert!(out.borderline);
    assert!(
        out.reason.contains("out of range: 18.40\""),
        "{}",
        out.reason
    );
    assert!(text_of(&report, "45th").contains("45th Foot's left face cannot shoot at 2e Hussards"));
}

#[test]
fn a_unit_in_a_building_fires_from_each_facing() {
    let report = rule(&scene(vec![square("building"), hussars_facing_east(17.0)]));
    let target = &of(&report, "45th").shooting.targets[0];
    assert_eq!(target.face, Some(Quarter::LeftFlank));
    assert!((target.range.0 - 10.0).abs() < 1e-6);
}

#[test]
fn a_line_still_shoots_from_its_leader() {
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 22.0], 270.0),
    ]));
    let target = &of(&report, "45th").shooting.targets[0];
    assert_eq!(target.face, None);
    assert!((target.range.0 - 10.0).abs() < 1e-6);
}

#[test]
fn a_square_with_enemy_cavalry_near_is_offered_no_move_at_all() {
    // The hussars are 10" from the square: within 12", so the 12" rule applies — but a square
    // with enemy cavalry that close may neither move nor change formation (§9.1).
    let report = rule(&scene(vec![square("square"), hussars_facing_east(17.0)]));
    let text = text_of(&report, "45th");
    assert!(!text.contains("initiative move"), "{text}");
    assert!(
        text.contains("it may make no move and no change of formation, enemy cavalry being near"),
        "{text}"
    );
    let held = of(&report, "45th")
        .rulings
        .iter()
        .find(|r| r.topic == rules::ruling::Topic::Movement)
        .expect("the square's hold is ruled");
    assert_eq!(held.decision, rules::ruling::Decision::Cannot);
    assert_eq!(held.other.as_deref(), Some("hussars"));
    assert!(
        held.explanation
            .contains("may not move or change formation")
    );
    // A line in the same place is offered its initiative move.
    let report = rule(&scene(vec![square("line"), hussars_facing_east(17.0)]));
    assert!(text_of(&report, "45th").contains("it may make an initiative move"));
}
