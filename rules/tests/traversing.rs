//! Traversing fire (digest §6.11; A3, A25): a unit that was not charged may shoot at a charger
//! crossing its front, judged from the scenes before and after the charge.

mod common;

use common::{line, scene, unit};
use rules::quarter::Quarter;
use rules::ruling::Verdict;
use rules::shooting::{TraversingFire, traversing_fire_in};
use rules::{Profile, RulesetId};
use serde_json::{Value, json};

fn hussars(front: [f64; 2], facing: f64) -> Value {
    unit(
        json!({ "id": "hussars", "name": "2e Hussards", "side": "blue", "kind": "cavalry",
        "front_center": front, "facing": facing, "width": 5.9, "depth": 3.9, "weapon": "sabres" }),
    )
}

/// The 95th faces west with its front edge at x = 40; the hussars charge it from (22, 20),
/// crossing the front of the 45th (a line facing north with its leader at `firer`).
fn charge_across(firer: Value) -> Vec<TraversingFire> {
    let before = scene(vec![
        firer.clone(),
        line("95th", "red", [40.0, 20.0], 180.0),
        hussars([22.0, 20.0], 0.0),
    ]);
    let after = scene(vec![
        firer,
        line("95th", "red", [40.0, 20.0], 180.0),
        hussars([40.0, 20.0], 0.0),
    ]);
    let profile = Profile::builtin(RulesetId::BlackPowder);
    traversing_fire_in(&before, &after, profile)
}

#[test]
fn a_line_may_shoot_at_cavalry_charging_right_across_its_front() {
    let fires = charge_across(line("45th", "red", [30.0, 12.0], 90.0));
    assert_eq!(fires.len(), 1, "the charged 95th does not traverse-fire");
    let fire = &fires[0];
    assert_eq!(
        (fire.firer.as_str(), fire.charger.as_str()),
        ("45th", "hussars")
    );
    assert!(fire.may_shoot);
    assert!((fire.crossed.0 - 9.4).abs() < 0.05, "{}", fire.crossed);
    assert_eq!(fire.ruling.verdict(), Verdict::Yes);
    assert!(
        fire.ruling
            .explanation
            .contains("45th may shoot at 2e Hussards as it charges across its front")
    );
}

#[test]
fn a_charge_clipping_the_end_of_a_line_gives_no_traversing_fire() {
    // The 45th's front runs from x = 39.8 to 49.2: the charge ends at x = 40.
    let fires = charge_across(line("45th", "red", [44.5, 12.0], 90.0));
    let fire = &fires[0];
    assert!(!fire.may_shoot);
    assert!(fire.crossed.0 < 0.5);
    assert_eq!(fire.ruling.verdict(), Verdict::No);
}

#[test]
fn a_charge_crossing_just_over_half_the_front_is_borderline() {
    // The front runs from x = 35.1 to 44.5: 4.9" of it crossed, half is 4.7".
    let fires = charge_across(line("45th", "red", [39.8, 12.0], 90.0));
    let fire = &fires[0];
    assert!(fire.may_shoot && fire.borderline);
    assert_eq!(fire.ruling.verdict(), Verdict::Borderline);
}

#[test]
fn a_charge_beyond_twelve_inches_is_not_traversing() {
    let fires = charge_across(line("45th", "red", [30.0, 2.0], 90.0));
    assert!(fires.iter().all(|f| !f.may_shoot), "{fires:?}");
}

#[test]
fn only_the_crossed_face_of_a_square_fires() {
    // The hussars ride north past the square's left face (x = 27, y 6 to 12).
    let square = unit(json!({ "id": "45th", "side": "red", "kind": "infantry",
        "formation": "square", "front_center": [30.0, 12.0], "facing": 90.0, "width": 6.0,
        "depth": 6.0, "weapon": "smoothbore-musket" }));
    let target = line("95th", "red", [20.0, 19.0], 270.0);
    let before = scene(vec![
        square.clone(),
        target.clone(),
        hussars([20.0, 4.5], 90.0),
    ]);
    let after = scene(vec![square, target, hussars([20.0, 19.0], 90.0)]);
    let fires = traversing_fire_in(&before, &after, Profile::builtin(RulesetId::BlackPowder));
    let fire = fires
        .iter()
        .find(|f| f.firer == "45th")
        .expect("the square");
    assert_eq!(fire.face, Some(Quarter::LeftFlank));
    assert!(fire.may_shoot);
    assert!(
        fire.ruling
            .explanation
            .starts_with("45th's left face may shoot")
    );
}

#[test]
fn the_footprint_union_reading_counts_the_chargers_width() {
    // Hussars charge straight up the 45th's front: their leader's path projects onto a point of
    // the front, their 5.9" frontage onto more than half of it.
    let before = scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("95th", "red", [31.0, 32.0], 270.0),
        hussars([31.0, 18.0], 90.0),
    ]);
    let after = scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("95th", "red", [31.0, 32.0], 270.0),
        hussars([31.0, 32.0], 90.0),
    ]);
    let leader = Profile::builtin(RulesetId::BlackPowder);
    let fire = &traversing_fire_in(&before, &after, leader)[0];
    assert!(!fire.may_shoot, "by the leader's path: {}", fire.crossed);
    let text = Profile::builtin_text(RulesetId::BlackPowder).replace(
        "traversing-fire = \"leader-path\"",
        "traversing-fire = \"footprint-union\"",
    );
    let union = Profile::from_toml(&text).expect("a valid profile");
    let fire = &traversing_fire_in(&before, &after, &union)[0];
    assert!(fire.may_shoot, "by the footprint: {}", fire.crossed);
    assert!((fire.crossed.0 - 5.9).abs() < 0.05);
}
