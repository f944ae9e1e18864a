//! Guns firing over heads (digest §6.12–§6.15; A10, A40) from situations a player knows.

mod common;

use common::{line, of, rule, scene_with, text_of, unit};
use rules::ruling::Verdict;
use serde_json::{Value, json};

/// A gun facing north with its barrel at (30, 6).
fn gun(weapon: &str) -> Value {
    unit(
        json!({ "id": "rha", "name": "Ross's Troop", "side": "red", "kind": "artillery",
        "formation": "deployed", "front_center": [30.0, 6.0], "facing": 90.0, "width": 1.5,
        "depth": 3.0, "weapon": weapon }),
    )
}

/// A hill under the gun, ending 3" in front of its barrel.
fn hill() -> Value {
    json!({ "id": "ridge", "kind": "hill", "height": 1, "polygon": [[20, 0], [40, 0], [40, 9], [20, 9]] })
}

/// The gun, a friendly battalion whose rear edge is `gap` in front of the barrel, and the
/// French 3e Ligne facing them with its front edge at y = 28.
fn table(weapon: &str, gap: f64, on_hill: bool) -> rules::Scene {
    let terrain = if on_hill { vec![hill()] } else { vec![] };
    scene_with(
        vec![
            gun(weapon),
            line("52nd", "red", [30.0, 6.0 + gap + 1.6], 90.0),
            line("3e", "blue", [30.0, 28.0], 270.0),
        ],
        terrain,
        vec![],
    )
}

#[test]
fn a_gun_on_a_hill_fires_over_a_battalion_clear_of_the_dead_ground() {
    // The 52nd is 8.4" from the gun and 12" from the 3e: both more than 6".
    let report = rule(&table("smoothbore-artillery", 8.4, true));
    let shooting = &of(&report, "rha").shooting;
    assert_eq!(shooting.must_target, vec!["3e"]);
    let over = &shooting.targets[0].overhead;
    assert_eq!(over.len(), 1);
    assert_eq!(over[0].id, "52nd");
    assert_eq!(over[0].gun_gap.map(|g| g.0), Some(8.4));
    let text = text_of(&report, "rha");
    assert!(
        text.contains("It fires over 52nd from higher ground"),
        "{text}"
    );
    assert!(text.contains("−1 to hit"), "{text}");
}

#[test]
fn a_gun_on_a_hill_may_not_fire_over_a_battalion_4_inches_in_front_of_it() {
    let report = rule(&table("smoothbore-artillery", 4.0, true));
    let shooting = &of(&report, "rha").shooting;
    assert!(shooting.must_target.is_empty());
    let out = shooting
        .ineligible
        .iter()
        .find(|i| i.id == "3e")
        .expect("the 3e is out");
    assert!(
        out.reason.contains(
            "the gun cannot fire over 52nd: it is 4.00\" from the gun, in the dead ground"
        ),
        "{}",
        out.reason
    );
    assert!(!out.borderline);
}

#[test]
fn a_battalion_6_2_inches_from_the_gun_is_borderline_dead_ground() {
    let report = rule(&table("smoothbore-artillery", 6.2, true));
    let ruling = of(&report, "rha")
        .rulings
        .iter()
        .find(|r| r.other.as_deref() == Some("3e"))
        .expect("a ruling on the 3e");
    assert_eq!(ruling.verdict(), Verdict::Borderline);
    assert!(
        ruling
            .explanation
            .contains("within tolerance of the 6.00\" dead ground")
    );
}

#[test]
fn a_battalion_5_8_inches_from_the_gun_blocks_the_shot_but_is_borderline() {
    let report = rule(&table("smoothbore-artillery", 5.8, true));
    let out = of(&report, "rha")
        .shooting
        .ineligible
        .iter()
        .find(|i| i.id == "3e")
        .cloned()
        .expect("the 3e is out");
    assert!(out.borderline, "{}", out.reason);
}

#[test]
fn a_gun_on_the_flat_cannot_fire_over_heads() {
    let report = rule(&table("smoothbore-artillery", 8.4, false));
    let shooting = &of(&report, "rha").shooting;
    assert!(shooting.must_target.is_empty());
    let out = shooting
        .ineligible
        .iter()
        .find(|i| i.id == "3e")
        .expect("out");
    assert!(
        out.reason.starts_with("cannot be seen: blocked by 52nd"),
        "{}",
        out.reason
    );
    assert!(!out.reason.contains("dead ground"));
}

#[test]
fn a_howitzer_lobs_its_shell_over_friends_close_in_front() {
    // 22" away, beyond half its 36" range: the howitzer may pick it.
    let report = rule(&table("field-howitzer", 4.0, false));
    let shooting = &of(&report, "rha").shooting;
    assert_eq!(shooting.may_target, vec!["3e"]);
    assert!(text_of(&report, "rha").contains("It lobs its shot over 52nd."));
}

#[test]
fn a_machine_gun_never_fires_overhead_even_from_a_hill() {
    let report = rule(&table("machine-gun", 8.4, true));
    let shooting = &of(&report, "rha").shooting;
    assert!(shooting.must_target.is_empty() && shooting.may_target.is_empty());
    let out = shooting
        .ineligible
        .iter()
        .find(|i| i.id == "3e")
        .expect("out");
    assert!(
        out.reason.starts_with("cannot be seen: blocked by 52nd"),
        "{}",
        out.reason
    );
}
