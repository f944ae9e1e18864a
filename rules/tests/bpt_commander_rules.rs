//! BPT Commander situations from its digest (shared/rulesets/bpt-commander.md): the 150°
//! firing cone, the march column shot in the flank, command distance in centimetres, the
//! initiative distance, and the reconstructed constants.

mod common;

use common::{assert_says, block, cm, of, rule, scene_in, text_of, towards};
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
        shots.iter().any(|r| r.verdict() == Verdict::Borderline),
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
        "weapons.machine-gun.range",
        "formations.deployed.move",
        "kinds.infantry.charge",
    ] {
        assert!(settings.contains(&expected), "{expected} in {settings:?}");
    }
    // The default is the value in force.
    assert!((profile.proximity().0 - cm(20.0)).abs() < 1e-9);
}

#[test]
fn a_ruling_resting_on_a_reconstructed_number_says_so() {
    // The rifle's 20 cm and the 20 cm initiative distance are the digest's guesses: the rulings
    // that use them say so, with the digest's note.
    let target = block(
        "reb",
        "grey",
        [40.0, 10.0 + cm(12.0)],
        270.0,
        [cm(10.0), cm(1.5)],
    );
    let report = rule(&scene_in(
        "bpt-commander",
        vec![shooter(), target],
        vec![],
        json!({}),
    ));
    let rulings = &of(&report, "union").rulings;
    let said = |topic: Topic, note: &str| {
        rulings.iter().filter(|r| r.topic == topic).all(|r| {
            r.explanation
                .contains("is reconstructed, not printed in the source")
                && r.explanation.contains(note)
        })
    };
    assert!(said(Topic::Shooting, "§4.7 placeholder"), "{rulings:#?}");
    assert!(
        said(Topic::Proximity, "§2 #20 initiative distance"),
        "{rulings:#?}"
    );
    // Black Powder's numbers are the book's: no such words.
    let bp = rule(&scene_in(
        "black-powder",
        vec![shooter()],
        vec![],
        json!({}),
    ));
    assert!(!text_of(&bp, "union").contains("reconstructed"));
}

/// Which quarter of a 10 cm line facing north at (40, 30) a shooter whose leader stands
/// `angle` degrees clockwise from straight ahead of the target's centre, 20 cm out, is in.
fn quarter_struck(ruleset: &str, angle: f64) -> Quarter {
    let target = block("reb", "grey", [40.0, 30.0], 90.0, [cm(10.0), cm(1.5)]);
    let centre = [40.0, 30.0 - cm(0.75)];
    let at = towards(centre, 90.0 - angle, cm(20.0));
    // The shooter faces the target, its leader at `at`.
    let facing = (centre[1] - at[1]).atan2(centre[0] - at[0]).to_degrees();
    let mut shooter = block("union", "blue", at, facing, [cm(4.0), cm(1.5)]);
    shooter["weapon"] = json!("rifled-musket");
    let scene = scene_in(ruleset, vec![shooter, target], vec![], json!({}));
    measure_pair(&scene.units[0], &scene.units[1], &scene.profile()).target_quarter
}

#[test]
fn outside_the_firing_cone_is_flank_and_the_rear_is_45_degrees_either_side_of_behind() {
    // Digest §1.4 (R2/R3): the front is the 150° cone, the rear ±45° about straight behind,
    // the flanks the rest. Black Powder's front stops at its 45° corner rays.
    assert_eq!(quarter_struck("bpt-commander", 60.0), Quarter::Front);
    assert_eq!(quarter_struck("black-powder", 60.0), Quarter::RightFlank);
    assert_eq!(quarter_struck("bpt-commander", 100.0), Quarter::RightFlank);
    assert_eq!(quarter_struck("bpt-commander", -120.0), Quarter::LeftFlank);
    assert_eq!(quarter_struck("bpt-commander", 150.0), Quarter::Rear);
    assert_eq!(quarter_struck("bpt-commander", 180.0), Quarter::Rear);
}

#[test]
fn the_rear_sector_is_a_setting() {
    let text = Profile::builtin_text(RulesetId::BptCommander);
    assert!(text.contains("[specials.quarter-rays]"));
    // A club reading the garbled "18 degrees" as a narrow rear: 18° either side of behind.
    let narrow = text.replace("rear = 45.0", "rear = 18.0");
    let profile = Profile::from_toml(&narrow).expect("a valid profile");
    assert_eq!(profile.quarter_rays().rear, rules::units::Degrees(18.0));
    assert!(
        Profile::builtin(RulesetId::BptCommander)
            .reconstructed()
            .iter()
            .any(|r| r.setting == "specials.quarter-rays.rear")
    );
}

#[test]
fn within_half_the_range_a_unit_rolls_an_extra_die() {
    // §1.9: rifles reach 20 cm; within 10 cm, +1 die.
    for (distance, band) in [
        (cm(6.0), "within half range (+1 die)"),
        (cm(14.0), "beyond half range"),
    ] {
        let scene = scene_in(
            "bpt-commander",
            vec![shooter(), target_off_axis(0.0, distance)],
            vec![],
            json!({}),
        );
        let text = text_of(&rule(&scene), "union");
        assert!(text.contains(band), "{distance:.1}\": {text}");
    }
}

#[test]
fn the_initiative_looks_at_the_nearest_enemy_in_the_180_degree_line_of_sight() {
    // §1.4 (R1): units see only ahead of their front edge's line. An enemy 5 cm behind is out
    // of sight; the one 15 cm ahead is the nearest visible enemy.
    let behind = block(
        "behind",
        "grey",
        [40.0, 10.0 - cm(1.5) - cm(5.0)],
        270.0,
        [cm(10.0), cm(1.5)],
    );
    let ahead = block(
        "ahead",
        "grey",
        [40.0, 10.0 + cm(15.0)],
        270.0,
        [cm(10.0), cm(1.5)],
    );
    let nearest_named = |ruleset: &str| {
        let scene = scene_in(
            ruleset,
            vec![shooter(), behind.clone(), ahead.clone()],
            vec![],
            json!({}),
        );
        let report = rule(&scene);
        let unit = of(&report, "union");
        let proximity = unit.proximity.as_ref().map(|p| p.id.clone());
        let unseen: Vec<String> = unit
            .rulings
            .iter()
            .filter(|r| r.rule.rule.starts_with("Line of sight: a 180° arc"))
            .filter_map(|r| r.other.clone())
            .collect();
        (proximity, unseen)
    };
    assert_eq!(
        nearest_named("bpt-commander"),
        (Some("ahead".to_owned()), vec!["behind".to_owned()])
    );
    assert_eq!(
        nearest_named("black-powder"),
        (Some("behind".to_owned()), vec![])
    );
}

#[test]
fn ordered_fire_may_pick_any_visible_enemy_in_range() {
    // §1.9: no nearest-first priority — the farther enemy may be shot as well as the nearer.
    let near = block(
        "near",
        "grey",
        [40.0, 10.0 + cm(8.0)],
        270.0,
        [cm(4.0), cm(1.5)],
    );
    let far = block(
        "far",
        "grey",
        [40.0 + cm(8.0), 10.0 + cm(14.0)],
        270.0,
        [cm(4.0), cm(1.5)],
    );
    let report = rule(&scene_in(
        "bpt-commander",
        vec![shooter(), near, far],
        vec![],
        json!({}),
    ));
    let shooting = &of(&report, "union").shooting;
    assert!(
        shooting.must_target.is_empty(),
        "{}",
        text_of(&report, "union")
    );
    let mut may = shooting.may_target.clone();
    may.sort();
    assert_eq!(may, vec!["far", "near"], "{}", text_of(&report, "union"));
}

#[test]
fn the_initiative_looks_past_an_enemy_hidden_in_a_wood() {
    // §1.4, §1.5: the initiative goes by the nearest *visible* enemy. An enemy 8 cm ahead
    // beyond a wood is not seen; the one farther off to the side is.
    let hidden = block(
        "hidden",
        "grey",
        [40.0, 10.0 + cm(8.0)],
        270.0,
        [cm(4.0), cm(1.5)],
    );
    let seen = block(
        "seen",
        "grey",
        [40.0 + cm(12.0), 10.0 + cm(15.0)],
        270.0,
        [cm(4.0), cm(1.5)],
    );
    // 6.5 cm of wood across the sight line: more than the 5 cm one may see into or out of.
    let wood = json!({ "id": "copse", "kind": "wood", "polygon": [
        [40.0 - cm(4.0), 10.0 + cm(1.0)], [40.0 + cm(3.0), 10.0 + cm(1.0)],
        [40.0 + cm(3.0), 10.0 + cm(7.5)], [40.0 - cm(4.0), 10.0 + cm(7.5)]] });
    let report = rule(&scene_in(
        "bpt-commander",
        vec![shooter(), hidden, seen],
        vec![],
        json!({ "terrain": [wood] }),
    ));
    let unit = of(&report, "union");
    assert_eq!(
        unit.proximity.as_ref().map(|p| p.id.as_str()),
        Some("seen"),
        "{}",
        text_of(&report, "union")
    );
    assert_says(&report, "union", "hidden from its sight by copse");
}

#[test]
fn range_is_the_shortest_distance_between_the_units_not_from_the_leader() {
    // Digest §1.9: "measure the shortest distance between the firing unit and the enemy unit".
    // A 20 cm line; a 2 cm target stands 18 cm straight ahead of its right end, so its nearest
    // corner is 20.1 cm from the middle of the line's front edge: beyond the rifles' 20 cm from
    // the leader, within it from the edge.
    let mut line = block("union", "blue", [40.0, 10.0], 90.0, [cm(20.0), cm(1.5)]);
    line["weapon"] = json!("rifled-musket");
    let right_end = [40.0 + cm(10.0), 10.0];
    let target = block(
        "reb",
        "grey",
        [right_end[0], 10.0 + cm(18.0)],
        270.0,
        [cm(2.0), cm(1.5)],
    );
    let scene = scene_in("bpt-commander", vec![line, target], vec![], json!({}));
    let report = rule(&scene);
    let shot = of(&report, "union")
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Shooting && r.other.as_deref() == Some("reb"))
        .expect("a ruling on the target");
    assert_eq!(shot.verdict(), Verdict::Yes, "{shot:#?}");
    let range = shot
        .figures
        .iter()
        .find(|f| f.name == "range")
        .expect("range");
    assert!((range.value - 18.0).abs() < 0.05, "{range:?}");
    // The tape drawn starts on the front edge, not at the leader.
    let rules::ruling::Shape::Segment { from, .. } = &shot.shapes[0] else {
        panic!("a measured line: {shot:#?}");
    };
    assert!(
        (from[1] - 10.0).abs() < 1e-6 && from[0] > 40.0 + cm(5.0),
        "{from:?}"
    );
    let pair = measure_pair(&scene.units[0], &scene.units[1], &scene.profile());
    let in_arc = pair.range_in_arc.expect("in the cone");
    assert!((in_arc.0 - cm(18.0)).abs() < 0.01, "{in_arc:?}");
    assert_says(&report, "union", "shortest distance between the units");
    // Black Powder measures from the leader: the same shot is out of range by its numbers.
    let bp = Profile::builtin(RulesetId::BlackPowder);
    let leader_range = measure_pair(&scene.units[0], &scene.units[1], bp).range_in_arc;
    assert!(leader_range.expect("in the arc").0 > cm(20.0));
}

#[test]
fn skirmishers_and_unlimbered_guns_do_not_block_sight_but_are_never_fired_over() {
    // §1.5: units block line of sight "except command units, infantry skirmishers and
    // unlimbered guns"; §1.9: troops may not fire over other units. A friendly screen 4 cm
    // ahead of the rifles, the enemy 12 cm ahead: seen (so it is the nearest visible enemy for
    // the initiative), but not fired at.
    let enemy = block(
        "reb",
        "grey",
        [40.0, 10.0 + cm(12.0)],
        270.0,
        [cm(6.0), cm(1.5)],
    );
    let screen = |formation: &str, kind: &str| {
        let mut unit = block(
            "screen",
            "blue",
            [40.0, 10.0 + cm(5.5)],
            90.0,
            [cm(14.0), cm(1.5)],
        );
        unit["formation"] = json!(formation);
        unit["kind"] = json!(kind);
        unit
    };
    for (formation, kind) in [("skirmish", "infantry"), ("deployed", "artillery")] {
        for ruleset in ["bpt-commander", "black-powder"] {
            let report = rule(&scene_in(
                ruleset,
                vec![shooter(), screen(formation, kind), enemy.clone()],
                vec![],
                json!({}),
            ));
            let text = text_of(&report, "union");
            let shot = of(&report, "union")
                .rulings
                .iter()
                .find(|r| r.topic == Topic::Shooting && r.other.as_deref() == Some("reb"));
            assert!(
                shot.is_some_and(|r| r.verdict() == Verdict::No),
                "{ruleset}, {formation}: never fired over: {text}"
            );
            if ruleset == "bpt-commander" {
                assert!(text.contains("stands in the line of fire"), "{text}");
                assert_eq!(
                    of(&report, "union")
                        .proximity
                        .as_ref()
                        .map(|p| p.id.as_str()),
                    Some("reb"),
                    "{formation}: seen through: {text}"
                );
            } else {
                assert!(text.contains("cannot be seen: blocked by"), "{text}");
            }
        }
    }
    // A formed line hides the enemy from the initiative too.
    let report = rule(&scene_in(
        "bpt-commander",
        vec![shooter(), screen("line", "infantry"), enemy],
        vec![],
        json!({}),
    ));
    assert!(
        of(&report, "union")
            .proximity
            .as_ref()
            .is_none_or(|p| p.id != "reb"),
        "{}",
        text_of(&report, "union")
    );
    assert_says(&report, "union", "hidden from its sight by");
}

#[test]
fn friends_within_10_cm_of_a_charged_unit_may_answer_with_counter_initiative() {
    // §1.11 #6: "units under charge and units opposing within 10 cm of a unit under charge may
    // fire at or evade the chargers" (10 cm reconstructed, R3). A friend 4 cm beside the
    // charged line may answer; one 35 cm off may not. Black Powder has no such step.
    let line = |id: &str, x: f64| block(id, "grey", [x, 14.0], 270.0, [4.0, 0.6]);
    let charger = block("union", "blue", [40.0, 10.0], 90.0, [4.0, 0.6]);
    let units = vec![
        charger,
        line("reb", 40.0),
        line("beside", 45.5),
        line("far", 58.0),
    ];
    let report = rule(&scene_in("bpt-commander", units.clone(), vec![], json!({})));
    let ruling = of(&report, "union")
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Charge && r.other.as_deref() == Some("reb"))
        .expect("a charge ruling");
    assert!(
        ruling
            .explanation
            .contains("So may beside, within 10.0 cm of reb and seeing the charger."),
        "{}",
        ruling.explanation
    );
    assert!(
        !ruling.explanation.contains("far,"),
        "{}",
        ruling.explanation
    );
    assert!(ruling.explanation.contains("10 cm is reconstructed"));
    let bp = rule(&scene_in("black-powder", units, vec![], json!({})));
    assert!(!text_of(&bp, "union").contains("So may"));
}

#[test]
fn a_column_fires_only_its_front_stands() {
    // §1.3: a line fires with all its stands, an attack column with its two front stands, a
    // march column with the one to the front.
    for (formation, said) in [
        ("line", None),
        (
            "attack-column",
            Some("In attack column only its front 2 stands fire."),
        ),
        (
            "march-column",
            Some("In march column only its front stand fires."),
        ),
    ] {
        let mut unit = shooter();
        unit["formation"] = json!(formation);
        let report = rule(&scene_in("bpt-commander", vec![unit], vec![], json!({})));
        let arc = of(&report, "union")
            .rulings
            .iter()
            .find(|r| r.topic == Topic::Shooting && r.other.is_none())
            .expect("its arc");
        let firing = arc.figures.iter().find(|f| f.name == "stands firing");
        match said {
            Some(words) => {
                assert!(arc.explanation.contains(words), "{}", arc.explanation);
                assert!(firing.is_some(), "{arc:?}");
            }
            None => assert!(firing.is_none() && !arc.explanation.contains("only its front")),
        }
    }
}

/// The shooting ruling of `shooter` on `target`, if any.
fn shot_at<'r>(
    report: &'r rules::rulings::Rulings,
    shooter: &str,
    target: &str,
) -> Option<&'r rules::ruling::Ruling> {
    of(report, shooter)
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Shooting && r.other.as_deref() == Some(target))
}

#[test]
fn a_target_18_cm_from_the_front_edge_is_in_range_however_far_from_the_front_centre() {
    // §1.4: in_range(S, T, r) = min_distance(firing stands of S, footprint(T) ∩ cone(S)) <= r.
    // Each unit's nearest point of the target in its cone is 18 cm from its front edge, and
    // more than its range plus the tolerance from the middle of that edge: by the book, in
    // range. A 30 cm line of foot and one of horse, both with 20 cm rifles, see a target 18 cm
    // straight ahead of their right end (23.4 cm from the middle); a 16 cm battery of 40 cm
    // field guns sees one 38 cm out, 60° right of ahead of its right end (over 41 cm from the
    // middle).
    let right_end = |width: f64| [40.0 + cm(width / 2.0), 10.0];
    let cases = [
        ("infantry", "line", "rifled-musket", 30.0, 0.0, 18.0),
        ("cavalry", "line", "rifled-musket", 30.0, 0.0, 18.0),
        (
            "artillery",
            "deployed",
            "smoothbore-artillery",
            16.0,
            60.0,
            38.0,
        ),
    ];
    for (kind, formation, weapon, width, off, distance) in cases {
        let mut unit = block("union", "blue", [40.0, 10.0], 90.0, [cm(width), cm(3.0)]);
        unit["kind"] = json!(kind);
        unit["formation"] = json!(formation);
        unit["weapon"] = json!(weapon);
        // The target's nearest corner at `distance` from the right end, `off` degrees right.
        let corner = towards(right_end(width), 90.0 - off, cm(distance));
        let target = block(
            "reb",
            "grey",
            [corner[0] + cm(1.0), corner[1]],
            270.0,
            [cm(2.0), cm(1.5)],
        );
        let scene = scene_in("bpt-commander", vec![unit, target], vec![], json!({}));
        let from_centre = nalgebra::distance(
            &scene.units[0].footprint.leader(),
            &scene.units[1]
                .footprint
                .closest_point(&scene.units[0].footprint.leader())
                .0,
        );
        let limit = scene
            .profile()
            .unit_weapon(&scene.units[0])
            .and_then(|w| w.range());
        assert!(
            from_centre > limit.expect("a range").0 + cm(1.0),
            "{kind}: {from_centre} from the centre"
        );
        let report = rule(&scene);
        let shot = shot_at(&report, "union", "reb").unwrap_or_else(|| {
            panic!(
                "{kind}: a ruling on the target: {}",
                text_of(&report, "union")
            )
        });
        assert_eq!(shot.verdict(), Verdict::Yes, "{kind}: {shot:#?}");
        let range = shot
            .figures
            .iter()
            .find(|f| f.name == "range")
            .expect("range");
        assert!((range.value - distance).abs() < 0.05, "{kind}: {range:?}");
    }
}

#[test]
fn a_charge_is_measured_from_the_front_edge_as_the_initiative_is() {
    // §1.9, §1.11: BPT measures the shortest distance between the units. A 30 cm line and a
    // target 18 cm straight ahead of its right end (23.4 cm from the middle of its front): the
    // initiative says 18 cm, and so does the charge, well within the 20 cm charge distance.
    let mut line = block("union", "blue", [40.0, 10.0], 90.0, [cm(30.0), cm(3.0)]);
    line["weapon"] = json!("rifled-musket");
    let right_end = 40.0 + cm(15.0);
    let target = block(
        "reb",
        "grey",
        [right_end + cm(1.0), 10.0 + cm(18.0)],
        270.0,
        [cm(2.0), cm(1.5)],
    );
    let units = vec![line, target];
    let report = rule(&scene_in("bpt-commander", units.clone(), vec![], json!({})));
    assert_says(
        &report,
        "union",
        "union is 18.0 cm from reb, within 20.0 cm",
    );
    let charge = of(&report, "union")
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Charge && r.other.as_deref() == Some("reb"))
        .expect("a charge ruling");
    assert_eq!(charge.verdict(), Verdict::Yes, "{charge:#?}");
    assert!(
        charge
            .explanation
            .contains("the charge costs 18.0 cm of its 20.0 cm charge distance"),
        "{}",
        charge.explanation
    );
    // The tape starts on the front edge, at its right end.
    let rules::ruling::Shape::Segment { from, .. } = &charge.shapes[0] else {
        panic!("a measured line: {charge:#?}");
    };
    assert!(
        (from[1] - 10.0).abs() < 1e-3 && (from[0] - right_end).abs() < 1e-3,
        "{from:?}"
    );
    // Black Powder measures its charges from the leader.
    let bp = rule(&scene_in("black-powder", units, vec![], json!({})));
    let cost = common::charge(&bp, "union", "reb").expect("a charge").cost;
    assert!((cost.0 - cm(23.43)).abs() < 0.01, "{cost:?}");
}

#[test]
fn measure_says_a_borderline_range_is_from_the_front_edge() {
    // `vedette measure` names the point BPT measures from: the front edge, not the leader.
    let target = block(
        "reb",
        "grey",
        [40.0, 10.0 + cm(20.5)],
        270.0,
        [cm(10.0), cm(1.5)],
    );
    let scene = scene_in("bpt-commander", vec![shooter(), target], vec![], json!({}));
    let pair = measure_pair(&scene.units[0], &scene.units[1], &scene.profile());
    let range = pair
        .borderline
        .iter()
        .find(|b| b.explanation.contains("maximum range"))
        .expect("a borderline range");
    assert!(
        range
            .explanation
            .starts_with("reb is 20.5 cm from union's front edge"),
        "{}",
        range.explanation
    );
}

/// A stand `width` × `depth` cm centred at (`x`, `y`) cm, facing `facing`.
fn stand_cm(x: f64, y: f64, facing: f64, width: f64, depth: f64) -> Value {
    json!({ "center": [cm(x), cm(y)], "facing": facing, "width": cm(width), "depth": cm(depth) })
}

/// The 28th in square around (90, 50) cm: four 4 × 2 cm stands facing out, their outline 8 cm
/// square from (86, 46) to (94, 54), and a command stand in the middle facing north.
fn square_of_stands() -> Value {
    json!({ "id": "28th", "side": "british", "kind": "infantry", "formation": "square",
            "facing": 90.0, "weapon": "smoothbore-musket", "stands": [
                stand_cm(90.0, 53.0, 90.0, 4.0, 2.0), stand_cm(87.0, 50.0, 180.0, 4.0, 2.0),
                stand_cm(93.0, 50.0, 0.0, 4.0, 2.0), stand_cm(90.0, 47.0, 270.0, 4.0, 2.0),
                stand_cm(90.0, 50.0, 90.0, 2.0, 2.0)] })
}

/// A 2 cm block of French foot centred on (`x`, `y`) cm.
fn french_at(x: f64, y: f64) -> Value {
    block(
        "french",
        "grey",
        [cm(x), cm(y - 1.0)],
        270.0,
        [cm(2.0), cm(2.0)],
    )
}

/// The arc rulings of `id`: one per part of it that fires on its own.
fn arcs<'r>(report: &'r rules::rulings::Rulings, id: &str) -> Vec<&'r rules::ruling::Ruling> {
    of(report, id)
        .rulings
        .iter()
        .filter(|r| r.topic == Topic::Shooting && r.other.is_none())
        .collect()
}

#[test]
fn each_stand_of_a_square_fires_the_way_it_faces_into_its_own_cone() {
    // §1.3: "each stand fires only in the direction it faces"; §1.4: square → each stand
    // separately, each with its own 150° cone from its own front edge (ambiguity 13). The
    // French at (83, 58) cm are 3 cm beyond the left stand's front edge line, inside its cone
    // (27° off its right ray), but north of the 45° ray from the square's front-left corner:
    // Black Powder's left face would not see them. The stand in the middle does not fire.
    let units = vec![square_of_stands(), french_at(83.0, 59.0)];
    let report = rule(&scene_in("bpt-commander", units.clone(), vec![], json!({})));
    let arcs_said = arcs(&report, "28th");
    assert_eq!(
        arcs_said.len(),
        4,
        "one arc per stand facing out: {arcs_said:#?}"
    );
    for arc in &arcs_said {
        assert!(
            arc.explanation
                .contains("In square each stand fires only the way it faces: 4 stands fire"),
            "{}",
            arc.explanation
        );
        let firing = arc.figures.iter().find(|f| f.name == "stands firing");
        assert_eq!(firing.map(|f| f.value), Some(4.0));
    }
    assert_says(&report, "28th", "28th's left face may shoot at french");
    assert_says(&report, "28th", "28th's front face may shoot at french");
    // The left stand's shot is measured from its own front edge (x = 86 cm, y 48 to 52 cm).
    let left = of(&report, "28th")
        .rulings
        .iter()
        .find(|r| {
            r.explanation
                .starts_with("28th's left face may shoot at french")
        })
        .expect("the left stand's shot");
    let rules::ruling::Shape::Segment { from, .. } = &left.shapes[0] else {
        panic!("a measured line: {left:#?}");
    };
    assert!(
        (from[0] - cm(86.0)).abs() < 1e-3 && (from[1] - cm(52.0)).abs() < 1e-3,
        "{from:?}"
    );
    // Read as Black Powder's faces (`fires-by = "face"`), the left face's quarter misses them.
    let text = Profile::builtin_text(RulesetId::BptCommander)
        .replace("fires-by = \"stand\"", "fires-by = \"face\"");
    let by_face = Profile::from_toml(&text).expect("profile");
    let scene = scene_in("bpt-commander", units, vec![], json!({}));
    let faces = rules::rulings::rulings_with(&scene, &by_face);
    assert!(
        !text_of(&faces, "28th").contains("28th's left face may shoot at french"),
        "{}",
        text_of(&faces, "28th")
    );
}

#[test]
fn a_square_given_as_one_rectangle_fires_from_each_face_into_its_own_cone() {
    // Without its stands, each of the four faces of the square's outline stands for the stand
    // facing that way: the French at 60° off the front face's axis, beyond Black Powder's 45°
    // front quarter, are in the front face's 150° cone.
    let mut square = block(
        "28th",
        "british",
        [cm(90.0), cm(54.0)],
        90.0,
        [cm(8.0), cm(8.0)],
    );
    square["formation"] = json!("square");
    let corner = [cm(94.0), cm(54.0)];
    let at = towards(corner, 30.0, cm(6.0));
    let report = rule(&scene_in(
        "bpt-commander",
        vec![
            square,
            french_at(at[0] / cm(1.0) + 1.0, at[1] / cm(1.0) + 1.0),
        ],
        vec![],
        json!({}),
    ));
    assert_eq!(arcs(&report, "28th").len(), 4);
    assert_says(&report, "28th", "28th's front face may shoot at french");
}

#[test]
fn the_arc_ruling_says_how_many_stands_fire_and_what_extended_line_costs() {
    // §1.3, §1.9: all the stands of a line fire; an attack column's front two; a unit in
    // extended line fires with all its stands but loses one attack die, and (§1.11) may not
    // charge.
    let row = |formation: &str, gap: f64| {
        let stands: Vec<Value> = (0..4)
            .map(|i| stand_cm(40.0 + f64::from(i) * (4.0 + gap), 20.0, 90.0, 4.0, 2.0))
            .collect();
        json!({ "id": "union", "side": "blue", "kind": "infantry", "formation": formation,
                "facing": 90.0, "weapon": "rifled-musket", "stands": stands })
    };
    let column = json!({ "id": "union", "side": "blue", "kind": "infantry",
        "formation": "attack-column", "facing": 90.0, "weapon": "rifled-musket", "stands": [
            stand_cm(40.0, 20.0, 90.0, 4.0, 2.0), stand_cm(44.0, 20.0, 90.0, 4.0, 2.0),
            stand_cm(40.0, 18.0, 90.0, 4.0, 2.0), stand_cm(44.0, 18.0, 90.0, 4.0, 2.0)] });
    let enemy = block(
        "reb",
        "grey",
        [cm(46.0), cm(35.0)],
        270.0,
        [cm(8.0), cm(2.0)],
    );
    for (unit, said, firing, lost) in [
        (
            row("line", 0.0),
            "In line all its 4 stands fire.",
            4.0,
            None,
        ),
        (
            row("extended-line", 1.0),
            "In extended line all its 4 stands fire. It loses one attack die for firing in extended line.",
            4.0,
            Some(1.0),
        ),
        (
            column,
            "In attack column only its front 2 stands fire.",
            2.0,
            None,
        ),
    ] {
        let formation = unit["formation"].clone();
        let report = rule(&scene_in(
            "bpt-commander",
            vec![unit, enemy.clone()],
            vec![],
            json!({}),
        ));
        let arc = arcs(&report, "union")[0];
        assert!(
            arc.explanation.contains(said),
            "{formation}: {}",
            arc.explanation
        );
        let figure = |name: &str| arc.figures.iter().find(|f| f.name == name).map(|f| f.value);
        assert_eq!(figure("stands firing"), Some(firing), "{formation}");
        assert_eq!(figure("attack dice lost"), lost, "{formation}");
        let charge = of(&report, "union")
            .rulings
            .iter()
            .find(|r| r.topic == Topic::Charge)
            .expect("a charge ruling");
        assert_eq!(
            charge.verdict() == Verdict::No,
            formation == "extended-line",
            "{formation}: {}",
            charge.explanation
        );
    }
}

#[test]
fn a_wall_blocks_sight_and_charges_unless_a_unit_touches_it() {
    // §1.4 (T): walls, fences and hedges block sight unless the observer or the target is in
    // base contact with them. A wall 4 cm ahead of the union line, the enemy 4 cm beyond it:
    // neither touches it, so the line may neither shoot nor charge; with the enemy lined up
    // against the wall, it may.
    let wall = json!({ "id": "wall", "kind": "obstacle",
        "line": [[40.0 - cm(20.0), 10.0 + cm(4.0)], [40.0 + cm(20.0), 10.0 + cm(4.0)]] });
    let enemy = |gap: f64| {
        let mut unit = block(
            "reb",
            "grey",
            [40.0, 10.0 + cm(gap)],
            270.0,
            [cm(10.0), cm(1.5)],
        );
        unit["weapon"] = json!("rifled-musket");
        unit
    };
    let table = |gap: f64| {
        rule(&scene_in(
            "bpt-commander",
            vec![shooter(), enemy(gap)],
            vec![],
            json!({ "terrain": [wall.clone()] }),
        ))
    };
    let apart = table(8.0);
    let text = text_of(&apart, "union");
    assert!(of(&apart, "union").shooting.targets.is_empty(), "{text}");
    assert!(text.contains("blocked by wall"), "{text}");
    let charge = common::charge(&apart, "union", "reb").expect("a charge");
    assert_eq!(
        charge.reason.as_deref(),
        Some("its leader cannot see the target"),
        "{text}"
    );
    let against = table(4.0);
    let text = text_of(&against, "union");
    assert_eq!(of(&against, "union").shooting.targets.len(), 1, "{text}");
}

#[test]
fn a_gun_on_a_hill_fires_over_its_foot_close_by_but_never_over_horse() {
    // §1.9 (T): "command units and infantry on foot may be fired over by artillery only if the
    // artillery is on higher elevation" — no dead ground (Black Powder's 6" is not BPT's), and
    // no other troops are fired over.
    let gun = json!({ "id": "guns", "side": "blue", "kind": "artillery", "formation": "deployed",
        "front_center": [30.0, 6.0], "facing": 90.0, "width": cm(4.0), "depth": cm(6.0),
        "weapon": "smoothbore-artillery" });
    let hill = json!({ "id": "ridge", "kind": "hill", "height": 1,
        "polygon": [[20.0, 0.0], [40.0, 0.0], [40.0, 6.8], [20.0, 6.8]] });
    let friends = |kind: &str| {
        let mut unit = block(
            "friends",
            "blue",
            [30.0, 7.0 + cm(1.5)],
            90.0,
            [cm(10.0), cm(1.5)],
        );
        unit["kind"] = json!(kind);
        unit
    };
    let enemy = block(
        "reb",
        "grey",
        [30.0, 6.0 + cm(30.0)],
        270.0,
        [cm(10.0), cm(1.5)],
    );
    let report = |kind: &str| {
        rule(&scene_in(
            "bpt-commander",
            vec![gun.clone(), friends(kind), enemy.clone()],
            vec![],
            json!({ "terrain": [hill.clone()] }),
        ))
    };
    // The foot stand 1" (2.5 cm) from the gun: fired over, and not borderline.
    let foot = report("infantry");
    let text = text_of(&foot, "guns");
    let target = of(&foot, "guns")
        .shooting
        .targets
        .iter()
        .find(|t| t.id == "reb")
        .unwrap_or_else(|| panic!("the guns shoot at reb: {text}"));
    assert_eq!(target.overhead.len(), 1, "{text}");
    assert!(!target.overhead[0].borderline, "{text}");
    assert!(!text.contains("dead ground"), "{text}");
    let horse = report("cavalry");
    let text = text_of(&horse, "guns");
    assert!(
        of(&horse, "guns")
            .shooting
            .targets
            .iter()
            .all(|t| t.id != "reb"),
        "{text}"
    );
    assert!(
        text.contains("the gun cannot fire over friends: only infantry can be fired over"),
        "{text}"
    );
}

#[test]
fn a_square_cannot_move() {
    // §1.3: a square "cannot move". One shuffled 3 cm is refused, not "did not move".
    let square = |y: f64| {
        let mut unit = block("union", "blue", [40.0, y], 90.0, [cm(6.0), cm(6.0)]);
        unit["formation"] = json!("square");
        unit
    };
    let before = scene_in("bpt-commander", vec![square(10.0)], vec![], json!({}));
    let after = scene_in(
        "bpt-commander",
        vec![square(10.0 + cm(3.0))],
        vec![],
        json!({}),
    );
    let profile = Profile::builtin(RulesetId::BptCommander);
    let (checks, _) = rules::movement::check_moves(&before, &after, profile);
    let moved = checks[0]
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Movement)
        .expect("a movement ruling");
    assert_eq!(moved.verdict(), Verdict::No, "{}", moved.explanation);
    assert!(
        moved.explanation.contains("a unit in square cannot move"),
        "{}",
        moved.explanation
    );
    let (still, _) = rules::movement::check_moves(&before, &before, profile);
    let stood = still[0]
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Movement)
        .expect("a movement ruling");
    assert_eq!(stood.verdict(), Verdict::Yes, "{}", stood.explanation);
}

#[test]
fn only_cavalry_supports_cavalry_and_an_engaged_gun_may_be_supported() {
    // §1.11 (T): "any unit with an attack value … within 10 cm and LOS of a friendly unit in
    // contact may support … only mounted cavalry may support mounted cavalry".
    let fighter = |kind: &str| {
        let mut unit = block("front", "blue", [40.0, 10.0], 90.0, [cm(10.0), cm(3.0)]);
        unit["kind"] = json!(kind);
        if kind == "artillery" {
            unit["formation"] = json!("deployed");
            unit["weapon"] = json!("smoothbore-artillery");
        }
        unit
    };
    let enemy = block("reb", "grey", [40.0, 10.0], 270.0, [cm(10.0), cm(3.0)]);
    let behind = |kind: &str| {
        let mut unit = block(
            "behind",
            "blue",
            [40.0, 10.0 - cm(3.0) - cm(5.0)],
            90.0,
            [cm(10.0), cm(3.0)],
        );
        unit["kind"] = json!(kind);
        unit
    };
    let supported = |front: &str, back: &str| {
        let report = rule(&scene_in(
            "bpt-commander",
            vec![fighter(front), enemy.clone(), behind(back)],
            vec![],
            json!({}),
        ));
        let supports = of(&report, "front")
            .supports
            .clone()
            .unwrap_or_else(|| panic!("front is engaged: {}", text_of(&report, "front")));
        (
            supports.can_be_supported,
            supports.bonus,
            text_of(&report, "front"),
        )
    };
    let (_, bonus, text) = supported("cavalry", "infantry");
    assert_eq!(bonus, 0, "foot does not support horse: {text}");
    let (_, bonus, text) = supported("cavalry", "cavalry");
    assert_eq!(bonus, 1, "{text}");
    let (can, bonus, text) = supported("artillery", "infantry");
    assert!(can && bonus == 1, "an engaged gun is supported: {text}");
}

#[test]
fn a_line_does_not_pass_through_a_gap_narrower_than_its_front() {
    // Two impassable rocks 6 cm apart straight ahead: the line's centre passes between them,
    // its 10 cm front does not. A 4 cm column passes.
    let rock = |id: &str, x0: f64, x1: f64| {
        json!({ "id": id, "kind": "impassable", "polygon": [
            [x0, 10.0 + cm(5.0)], [x1, 10.0 + cm(5.0)],
            [x1, 10.0 + cm(8.0)], [x0, 10.0 + cm(8.0)]] })
    };
    let rocks = vec![
        rock("left rocks", 40.0 - cm(15.0), 40.0 - cm(3.0)),
        rock("right rocks", 40.0 + cm(3.0), 40.0 + cm(15.0)),
    ];
    let unit = |width: f64, y: f64| {
        vec![block(
            "union",
            "blue",
            [40.0, y],
            90.0,
            [cm(width), cm(1.5)],
        )]
    };
    let moved = |width: f64| {
        let scene = |y: f64| {
            scene_in(
                "bpt-commander",
                unit(width, y),
                vec![],
                json!({ "terrain": rocks.clone() }),
            )
        };
        let profile = Profile::builtin(RulesetId::BptCommander);
        let (checks, _) =
            rules::movement::check_moves(&scene(10.0), &scene(10.0 + cm(11.0)), profile);
        checks[0]
            .rulings
            .iter()
            .find(|r| r.topic == Topic::Movement)
            .expect("a movement ruling")
            .clone()
    };
    let line = moved(10.0);
    assert_eq!(line.verdict(), Verdict::No, "{}", line.explanation);
    assert!(
        line.explanation.contains("may not enter"),
        "{}",
        line.explanation
    );
    let column = moved(4.0);
    assert!(
        !column.explanation.contains("may not enter"),
        "{}",
        column.explanation
    );
}
