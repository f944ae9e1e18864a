//! BPT Commander situations from its digest (shared/rulesets/bpt-commander.md): the 150°
//! firing cone, the march column shot in the flank, command distance in centimetres, the
//! initiative distance, and the reconstructed constants.

mod common;

use common::{block, cm, of, rule, scene_in, text_of, towards};
use rules::measure::measure_pair;
use rules::ruling::{FigureUnit, Topic, Verdict};
use rules::{Profile, Quarter, RulesetId};
use serde_json::{Value, json};

/// A 10 cm × 1.5 cm line of rifles at (40, 10) facing north.
fn shooter() -> Value {
    let mut unit = block("union", "blue", [40.0, 10.0], 90.0, [cm(10.0), cm(1.5)]);
    unit["weapon"] = json!("rifled-musket");
    unit
}

/// A small target whose centre is `distance` from the shooter's front-right corner, `off`
/// degrees to the right of straight ahead.
fn target_off_axis(off: f64, distance: f64) -> Value {
    let corner = [40.0 + cm(5.0), 10.0];
    let centre = towards(corner, 90.0 - off, distance);
    block(
        "reb",
        "grey",
        [centre[0], centre[1] - 0.2],
        90.0,
        [0.4, 0.4],
    )
}

fn in_arc(ruleset: &str, target: Value) -> bool {
    let scene = scene_in(ruleset, vec![shooter(), target], vec![], json!({}));
    let profile = scene.profile();
    measure_pair(&scene.units[0], &scene.units[1], &profile)
        .range_in_arc
        .is_some()
}

#[test]
fn the_firing_cone_reaches_15_degrees_short_of_the_front_edge_line() {
    // Digest §1.4, ambiguity 1: boundary rays from the ends of the front edge, 75° from ahead.
    let sixty = target_off_axis(60.0, 5.0);
    assert!(
        in_arc("bpt-commander", sixty.clone()),
        "60° off: inside the 150° cone"
    );
    assert!(
        !in_arc("black-powder", sixty),
        "Black Powder's front quarter stops at 45°"
    );
    assert!(
        !in_arc("bpt-commander", target_off_axis(82.0, 8.0)),
        "82° off: in the 15° sliver beside the front edge line, outside the cone"
    );
}

#[test]
fn a_march_column_is_shot_in_the_flank_even_from_ahead() {
    // Digest §1.3: "for targeting purposes the front is considered the flank".
    let mut column = block("column", "grey", [40.0, 20.0], 270.0, [cm(3.0), cm(12.0)]);
    column["formation"] = json!("march-column");
    let scene = scene_in(
        "bpt-commander",
        vec![shooter(), column.clone()],
        vec![],
        json!({}),
    );
    let shot = measure_pair(&scene.units[0], &scene.units[1], &scene.profile());
    assert_eq!(shot.target_face, Quarter::Front, "geometrically, head on");
    assert!(matches!(
        shot.target_quarter,
        Quarter::LeftFlank | Quarter::RightFlank
    ));
    let bp = scene_in("black-powder", vec![shooter(), column], vec![], json!({}));
    let bp_shot = measure_pair(&bp.units[0], &bp.units[1], &bp.profile());
    assert_eq!(bp_shot.target_quarter, Quarter::Front);
}

#[test]
fn command_distance_costs_one_per_full_20_cm_beyond_20() {
    // Digest §1.12: "deduct one for units from 21–40cm, two for 41–60cm".
    let mut unit = shooter();
    unit["brigade"] = json!("iron");
    let rear = 10.0 - cm(1.5);
    let at = |distance: f64| {
        json!({ "id": "meredith", "side": "blue", "brigade": "iron",
                "position": [40.0, rear - cm(distance)] })
    };
    for (distance, penalty) in [(15.0, 0), (30.0, -1), (45.0, -2)] {
        let scene = scene_in(
            "bpt-commander",
            vec![unit.clone()],
            vec![at(distance)],
            json!({}),
        );
        let report = rule(&scene);
        let command = of(&report, "union").command.as_ref().expect("commanded");
        assert_eq!(command.penalty, penalty, "{distance} cm");
        let ruling = of(&report, "union")
            .rulings
            .iter()
            .find(|r| r.topic == Topic::Command)
            .expect("a command ruling");
        assert!(
            ruling.explanation.contains(&format!("{distance:.1} cm")),
            "{}",
            ruling.explanation
        );
        assert_eq!(ruling.figures[0].unit, FigureUnit::Centimetres);
        assert!((ruling.figures[0].value - distance).abs() < 0.1);
    }
}

#[test]
fn the_initiative_distance_is_20_cm() {
    // Digest §1.8, §2 #20: units within the initiative distance of the nearest enemy may act.
    let near = block(
        "reb",
        "grey",
        [40.0, 10.0 + cm(15.0)],
        270.0,
        [cm(10.0), cm(1.5)],
    );
    let far = block(
        "reb",
        "grey",
        [40.0, 10.0 + cm(25.0)],
        270.0,
        [cm(10.0), cm(1.5)],
    );
    let within = rule(&scene_in(
        "bpt-commander",
        vec![shooter(), near],
        vec![],
        json!({}),
    ));
    let text = text_of(&within, "union");
    assert!(text.contains("within 20.0 cm"), "{text}");
    assert!(text.contains("initiative phase"), "{text}");
    let beyond = rule(&scene_in(
        "bpt-commander",
        vec![shooter(), far],
        vec![],
        json!({}),
    ));
    assert!(text_of(&beyond, "union").contains("acts only on orders"));
}

#[test]
fn rifles_reach_20_cm_and_a_range_within_a_centimetre_is_borderline() {
    let target = |distance: f64| {
        block(
            "reb",
            "grey",
            [40.0, 10.0 + cm(distance)],
            270.0,
            [cm(10.0), cm(1.5)],
        )
    };
    let report = rule(&scene_in(
        "bpt-commander",
        vec![shooter(), target(18.0)],
        vec![],
        json!({}),
    ));
    let text = text_of(&report, "union");
    assert!(text.contains("shoots up to 20.0 cm"), "{text}");
    let edge = rule(&scene_in(
        "bpt-commander",
        vec![shooter(), target(20.5)],
        vec![],
        json!({}),
    ));
    let shots: Vec<_> = of(&edge, "union")
        .rulings
        .iter()
        .filter(|r| r.topic == Topic::Shooting && r.other.as_deref() == Some("reb"))
        .collect();
    assert!(
        shots.iter().any(|r| r.verdict == Verdict::Borderline),
        "{shots:#?}"
    );
}

#[test]
fn reconstructed_constants_are_listed_with_their_defaults() {
    let profile = Profile::builtin(RulesetId::BptCommander);
    let settings: Vec<&str> = profile
        .reconstructed()
        .iter()
        .map(|r| r.setting.as_str())
        .collect();
    for expected in [
        "distances.proximity",
        "distances.command-step",
        "specials.front-arc-splay",
    ] {
        assert!(settings.contains(&expected), "{expected} in {settings:?}");
    }
    // The default is the value in force.
    assert!((profile.proximity().0 - cm(20.0)).abs() < 1e-9);
}
