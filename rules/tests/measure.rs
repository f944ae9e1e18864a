//! `measure` on small scenes a player would recognise, including the digest's edge cases
//! A1 (points on a ray), A2 (leader inside an overlapping footprint), A3 (leader point),
//! A4 (edge-to-edge distance, touching bases), A7 (fraction in the arc).

mod common;

use common::{line, scene};
use rules::Scene;
use rules::measure::{BorderlineKind, Measurements, PairMeasurement, measure};
use rules::quarter::Quarter;
use rules::scene::Format;
use serde_json::json;

fn pair<'a>(m: &'a Measurements, from: &str, to: &str) -> &'a PairMeasurement {
    m.pairs
        .iter()
        .find(|p| p.from == from && p.to == to)
        .expect("pair measured")
}

#[test]
fn two_lines_facing_each_other_are_in_range_and_in_each_others_front() {
    let m = measure(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 20.0], 270.0),
    ]));
    let p = pair(&m, "45th", "3e");
    assert_eq!(p.edge_distance.0, 8.0);
    assert_eq!(p.range.0, 8.0);
    assert_eq!(p.range_in_arc.map(|r| r.0), Some(8.0));
    assert_eq!(p.target_quarter, Quarter::Front);
    assert_eq!(p.arc_fraction, 1.0);
    assert!(p.in_range);
    assert!(p.borderline.is_empty());
}

#[test]
fn only_enemy_pairs_are_measured_in_both_directions() {
    let m = measure(&scene(vec![
        line("a", "red", [10.0, 10.0], 90.0),
        line("b", "red", [25.0, 10.0], 90.0),
        line("c", "blue", [20.0, 30.0], 270.0),
    ]));
    let mut names: Vec<(String, String)> = m
        .pairs
        .iter()
        .map(|p| (p.from.clone(), p.to.clone()))
        .collect();
    names.sort();
    let expected: Vec<(String, String)> = [("a", "c"), ("b", "c"), ("c", "a"), ("c", "b")]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(names, expected);
}

#[test]
fn a_unit_out_of_range_by_a_little_is_out_and_borderline() {
    // Front edges 18.3" apart: muskets reach 18".
    let m = measure(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 30.3], 270.0),
    ]));
    let p = pair(&m, "45th", "3e");
    assert!(!p.in_range);
    let range = p
        .borderline
        .iter()
        .find(|b| b.kind == BorderlineKind::Range)
        .expect("borderline");
    assert!((range.margin.0 - 0.3).abs() < 1e-9);
    assert!(range.explanation.contains("players decide"));
}

#[test]
fn touching_bases_are_zero_apart() {
    // The 3e Ligne's front edge lies along the 45th's front edge.
    let m = measure(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 12.0], 270.0),
    ]));
    let p = pair(&m, "45th", "3e");
    assert_eq!(p.edge_distance.0, 0.0);
    assert_eq!(p.range.0, 0.0);
}

#[test]
fn overlapping_footprints_are_zero_apart_and_the_quarter_is_borderline() {
    // A2: the chargers' leader ended up inside the target's bases.
    let m = measure(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 11.5], 270.0),
    ]));
    let p = pair(&m, "3e", "45th");
    assert_eq!(p.edge_distance.0, 0.0);
    assert_eq!(p.target_quarter, Quarter::Front);
    assert!(
        p.borderline
            .iter()
            .any(|b| b.kind == BorderlineKind::Quarter && b.explanation.contains("inside"))
    );
}

#[test]
fn a_flank_attacker_stands_in_the_flank_quarter() {
    // Hussars level with the 45th's left end, facing it: in its left flank quarter.
    let hussars = json!({ "id": "hussars", "side": "blue", "kind": "cavalry",
        "front_center": [18.0, 11.0], "facing": 0.0, "width": 5.9, "depth": 3.9 });
    let m = measure(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        hussars,
    ]));
    assert_eq!(
        pair(&m, "hussars", "45th").target_quarter,
        Quarter::LeftFlank
    );
    // And the 45th cannot shoot them: no part of the hussars is in its front quarter.
    let p = pair(&m, "45th", "hussars");
    assert_eq!(p.arc_fraction, 0.0);
    assert!(p.range_in_arc.is_none());
    assert!(!p.in_range);
}

#[test]
fn a_leader_exactly_on_the_front_ray_counts_as_front_but_borderline() {
    // A1: the 45th's front-left corner is (25.3, 12); its ray runs at 45° up and left.
    let m = measure(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [20.3, 17.0], 315.0),
    ]));
    let p = pair(&m, "3e", "45th");
    assert_eq!(p.target_quarter, Quarter::Front);
    assert!(
        p.borderline
            .iter()
            .any(|b| b.kind == BorderlineKind::Quarter)
    );
}

#[test]
fn the_rear_quarter_of_a_rotated_unit() {
    // A line facing 30°: a point well behind it, along -30°, is in its rear.
    let m = measure(&scene(vec![
        line("45th", "red", [30.0, 20.0], 30.0),
        line("3e", "blue", [30.0 - 10.0 * 0.866, 20.0 - 10.0 * 0.5], 30.0),
    ]));
    assert_eq!(pair(&m, "3e", "45th").target_quarter, Quarter::Rear);
}

#[test]
fn a_thin_march_column_has_its_front_at_the_narrow_end() {
    let column = json!({ "id": "column", "side": "red", "kind": "infantry", "formation": "march-column",
        "front_center": [30.0, 20.0], "facing": 90.0, "width": 1.6, "depth": 9.4,
        "weapon": "smoothbore-musket" });
    let ahead = line("ahead", "blue", [30.0, 30.0], 270.0);
    let beside = json!({ "id": "beside", "side": "blue", "kind": "infantry",
        "front_center": [36.0, 15.0], "facing": 180.0, "width": 4.7, "depth": 1.6 });
    let m = measure(&scene(vec![column, ahead, beside]));
    assert_eq!(pair(&m, "ahead", "column").target_quarter, Quarter::Front);
    assert_eq!(
        pair(&m, "beside", "column").target_quarter,
        Quarter::RightFlank
    );
    assert!(!m.units[0].can_shoot, "march columns cannot shoot");
}

#[test]
fn skirmishers_have_only_a_front_and_squares_four_fronts() {
    let skirmishers = json!({ "id": "voltigeurs", "side": "blue", "kind": "infantry", "formation": "skirmish",
        "front_center": [30.0, 20.0], "facing": 270.0, "width": 6.0, "depth": 1.0 });
    let square = json!({ "id": "square", "side": "blue", "kind": "infantry", "formation": "square",
        "front_center": [50.0, 20.0], "facing": 90.0, "width": 3.2, "depth": 3.2 });
    // The 45th stands straight behind the skirmishers and off the square's left flank.
    let m = measure(&scene(vec![
        line("45th", "red", [30.0, 30.0], 0.0),
        skirmishers,
        square,
    ]));
    let on_skirmishers = pair(&m, "45th", "voltigeurs");
    assert_eq!(on_skirmishers.target_face, Quarter::Rear);
    assert_eq!(on_skirmishers.target_quarter, Quarter::Front);
    let on_square = pair(&m, "45th", "square");
    assert_eq!(on_square.target_face, Quarter::LeftFlank);
    assert_eq!(on_square.target_quarter, Quarter::Front);
}

#[test]
fn half_a_unit_in_the_arc_is_measured_by_area() {
    // A7: the target straddles the right front ray of the 45th. The 45th's front-right corner
    // is (34.7, 12); 10" ahead the ray is at x = 44.7. A 4" wide target centred on it is half in.
    let target = json!({ "id": "target", "side": "blue", "kind": "infantry",
        "front_center": [44.7, 21.0], "facing": 270.0, "width": 4.0, "depth": 2.0 });
    let m = measure(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        target,
    ]));
    let p = pair(&m, "45th", "target");
    assert!(
        (p.arc_fraction - 0.5).abs() < 0.01,
        "fraction {}",
        p.arc_fraction
    );
    // Range is measured to the part in the arc (A5), never nearer than the nearest part.
    assert!(p.range_in_arc.expect("partly in arc").0 >= p.range.0);
}

#[test]
fn a_gun_shoots_in_a_45_degree_cone_from_its_barrel() {
    let gun = json!({ "id": "gun", "side": "red", "kind": "artillery", "formation": "deployed",
        "front_center": [30.0, 10.0], "facing": 90.0, "width": 1.6, "depth": 3.0,
        "weapon": "smoothbore-artillery" });
    // 20" ahead the cone from the barrel tip reaches x = 50; the front quarter of the gun model,
    // drawn from its corners, would reach x = 50.8. This thin target sits between the two.
    let sliver = json!({ "id": "sliver", "side": "blue", "kind": "infantry",
        "front_center": [50.45, 30.0], "facing": 270.0, "width": 0.4, "depth": 0.2 });
    let m = measure(&scene(vec![
        gun,
        sliver,
        line("ahead", "blue", [30.0, 40.0], 270.0),
    ]));
    assert!(pair(&m, "gun", "ahead").in_range);
    let p = pair(&m, "gun", "sliver");
    assert_eq!(p.arc_fraction, 0.0);
    assert!(!p.in_range);
}

#[test]
fn a_howitzer_cannot_reach_inside_its_minimum_range() {
    let howitzer = json!({ "id": "howitzer", "side": "red", "kind": "artillery",
        "front_center": [30.0, 10.0], "facing": 90.0, "width": 1.6, "depth": 3.0,
        "weapon": "field-howitzer" });
    let m = measure(&scene(vec![
        howitzer,
        line("close", "blue", [30.0, 14.0], 270.0),
    ]));
    let p = pair(&m, "howitzer", "close");
    assert_eq!(p.range_in_arc.map(|r| r.0), Some(4.0));
    assert!(!p.in_range);
}

#[test]
fn units_given_as_stands_are_measured_to_the_stands_and_quartered_by_their_bounds() {
    // Two stands with a gap between them: the gap is not part of the unit for distances.
    let stands = json!({ "id": "gapped", "side": "blue", "kind": "infantry", "facing": 270.0, "stands": [
        { "center": [26.0, 21.0], "facing": 270.0, "width": 2.0, "depth": 2.0 },
        { "center": [34.0, 21.0], "facing": 270.0, "width": 2.0, "depth": 2.0 } ] });
    let m = measure(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        stands,
    ]));
    let summary = m.units.iter().find(|u| u.id == "gapped").expect("unit");
    assert!((summary.frontage.0 - 10.0).abs() < 1e-9);
    assert!((summary.leader[0] - 30.0).abs() < 1e-9 && (summary.leader[1] - 20.0).abs() < 1e-9);
    let p = pair(&m, "45th", "gapped");
    // Straight ahead of the 45th's leader is the gap; the nearest stand corner is at (27, 20).
    let expected = (3.0f64.powi(2) + 8.0f64.powi(2)).sqrt();
    assert!((p.range.0 - expected).abs() < 1e-9);
    assert_eq!(p.edge_distance.0, 8.0);
}

#[test]
fn turning_the_whole_table_changes_no_measurement() {
    let units = |turn: f64| {
        let (s, c) = turn.to_radians().sin_cos();
        let at = |x: f64, y: f64| [c * x - s * y + 100.0, s * x + c * y + 100.0];
        vec![
            line("45th", "red", at(30.0, 12.0), 90.0 + turn),
            line("3e", "blue", at(22.0, 25.0), 300.0 + turn),
            json!({ "id": "hussars", "side": "blue", "kind": "cavalry",
                "front_center": at(18.0, 11.0), "facing": 10.0 + turn, "width": 5.9, "depth": 3.9 }),
        ]
    };
    let doc = |turn: f64| json!({ "ruleset": "black-powder", "table": { "width": 300, "depth": 300 }, "units": units(turn) });
    let a = measure(&Scene::parse(&doc(0.0).to_string(), Format::Json, "a").expect("valid"));
    let b = measure(&Scene::parse(&doc(137.0).to_string(), Format::Json, "b").expect("valid"));
    for (p, q) in a.pairs.iter().zip(&b.pairs) {
        assert_eq!(p.target_quarter, q.target_quarter);
        assert!((p.edge_distance.0 - q.edge_distance.0).abs() <= 0.011);
        assert!((p.range.0 - q.range.0).abs() <= 0.011);
        assert!((p.arc_fraction - q.arc_fraction).abs() <= 0.0011);
        assert_eq!(p.in_range, q.in_range);
    }
}
