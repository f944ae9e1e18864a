//! Bugles, Bullets and Blades situations from its digest (shared/rulesets/bbb.md): ranges from
//! the stand centre, the 25 mm zone of control, the 200 mm command radius, canister, the
//! visibility cap, the arc of fire (B-01, switchable) and squares without flanks.

mod common;

use common::{
    assert_says, block, charge, mm, must_shoot, of, rule, ruling_on, scene_in, text_of, towards,
};
use rules::measure::measure_pair;
use rules::ruling::{FigureUnit, Topic, Verdict};
use rules::{Profile, Quarter, RulesetId};
use serde_json::{Value, json};

/// A 65 × 50 mm group stand of muskets at (40, 10) facing north.
fn stand() -> Value {
    block("natal", "red", [40.0, 10.0], 90.0, [mm(65.0), mm(50.0)])
}

/// An enemy stand whose front edge is `gap` mm ahead of the shooter's front edge.
fn enemy_ahead(gap: f64) -> Value {
    block(
        "impi",
        "black",
        [40.0, 10.0 + mm(gap)],
        270.0,
        [mm(65.0), mm(50.0)],
    )
}

fn bbb(units: Vec<Value>, commanders: Vec<Value>) -> rules::rulings::Rulings {
    rule(&scene_in("bbb", units, commanders, json!({})))
}

#[test]
fn muskets_range_from_the_stand_centre_to_the_closest_point() {
    // §1.9 (RULE): 140 mm from the front edge is 165 mm from the centre of a 50 mm deep stand,
    // beyond the musket's 150 mm although the front edge is within it.
    let scene = scene_in("bbb", vec![stand(), enemy_ahead(140.0)], vec![], json!({}));
    let pair = measure_pair(&scene.units[0], &scene.units[1], &scene.profile());
    assert!((pair.range.0 - mm(165.0)).abs() < 0.01, "{:?}", pair.range);
    assert!(!pair.in_range);
    let close = bbb(vec![stand(), enemy_ahead(100.0)], vec![]);
    let text = text_of(&close, "natal");
    assert_eq!(
        of(&close, "natal").shooting.may_target,
        vec!["impi"],
        "{text}"
    );
    assert!(
        text.contains("shoots up to 150 mm, measured from the centre of its stand"),
        "{text}"
    );
    // 126 mm from the front edge is 151 mm from the centre: within the 3 mm tolerance.
    let edge = bbb(vec![stand(), enemy_ahead(126.0)], vec![]);
    let text = text_of(&edge, "natal");
    assert!(text.contains("out of range: 151 mm"), "{text}");
    assert!(
        text.contains("maximum 150 mm — borderline, players decide"),
        "{text}"
    );
}

#[test]
fn an_enemy_within_25_mm_may_only_be_approached_by_charging_it() {
    // §1.7, B-21.
    let report = bbb(vec![stand(), enemy_ahead(20.0)], vec![]);
    let ruling = of(&report, "natal")
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Proximity)
        .expect("a zone of control ruling");
    assert_eq!(ruling.verdict(), Verdict::Yes);
    assert_eq!(ruling.rule.reading, Some("B-21"));
    assert!(
        ruling.explanation.contains("without declaring a charge"),
        "{}",
        ruling.explanation
    );
    assert_eq!(ruling.figures[0].unit, FigureUnit::Millimetres);
    assert_eq!(ruling.figures[0].value, 20.0);
    let free = bbb(vec![stand(), enemy_ahead(60.0)], vec![]);
    assert!(text_of(&free, "natal").contains("moves freely"));
}

#[test]
fn a_stand_moves_only_within_200_mm_of_its_leader() {
    // §1.4, B-12: from the leader's base centre to the closest point of the stand.
    let mut unit = stand();
    unit["brigade"] = json!("durnford");
    let rear = 10.0 - mm(50.0);
    for (distance, verdict) in [
        (150.0, Verdict::Yes),
        (250.0, Verdict::No),
        (201.0, Verdict::Borderline),
    ] {
        let leader = json!({ "id": "durnford", "side": "red", "brigade": "durnford",
                             "position": [40.0, rear - mm(distance)] });
        let report = bbb(vec![unit.clone()], vec![leader]);
        let ruling = of(&report, "natal")
            .rulings
            .iter()
            .find(|r| r.topic == Topic::Command)
            .expect("a command ruling");
        assert_eq!(ruling.verdict(), verdict, "{}", ruling.explanation);
        assert!(ruling.explanation.contains("200 mm command radius"));
    }
}

#[test]
fn guns_fire_canister_at_200_mm_or_less() {
    // §1.11: canister at ≤ 200 mm.
    let gun = |id: &str| {
        json!({ "id": id, "side": "red", "kind": "artillery", "formation": "deployed",
                "front_center": [40.0, 10.0], "facing": 90.0, "width": mm(40.0), "depth": mm(50.0),
                "weapon": "smoothbore-artillery" })
    };
    let near = bbb(vec![gun("gun"), enemy_ahead(180.0)], vec![]);
    assert_says(&near, "gun", "it may fire canister");
    let far = bbb(vec![gun("gun"), enemy_ahead(400.0)], vec![]);
    assert!(text_of(&far, "gun").contains("too far for canister"));
    // §1.8: no one sees further than 800 mm in open temperate country, even a heavy gun.
    let mut heavy = gun("heavy");
    heavy["weapon"] = json!("heavy-gun");
    let beyond = bbb(vec![heavy, enemy_ahead(900.0)], vec![]);
    assert_says(&beyond, "heavy", "beyond sight");
}

fn in_arc(profile: &Profile, off: f64) -> bool {
    let corner = [40.0 + mm(32.5), 10.0];
    let centre = towards(corner, 90.0 - off, mm(100.0));
    let target = block(
        "impi",
        "black",
        [centre[0], centre[1] - mm(5.0)],
        90.0,
        [mm(10.0), mm(10.0)],
    );
    let scene = scene_in("bbb", vec![stand(), target], vec![], json!({}));
    let profile = scene.scaled(profile);
    measure_pair(&scene.units[0], &scene.units[1], &profile)
        .range_in_arc
        .is_some()
}

#[test]
fn the_arc_of_fire_is_45_degrees_either_side_from_the_front_corners_or_narrower() {
    // B-01: ±45° from straight ahead, bounded by lines from the front corners; 22.5° by config.
    let adopted = Profile::builtin(RulesetId::Bbb);
    assert!(in_arc(adopted, 35.0));
    assert!(!in_arc(adopted, 55.0));
    let narrow = Profile::from_toml(
        &Profile::builtin_text(RulesetId::Bbb)
            .replace("front-arc-splay = 45.0", "front-arc-splay = 22.5"),
    )
    .expect("parses");
    assert!(!in_arc(&narrow, 35.0));
    assert!(in_arc(&narrow, 10.0));
}

#[test]
fn squares_have_no_flanks_or_rear() {
    // §1.2: "no flanks or rear even if the arrangement of stands apparently exposes such flanks".
    let mut square = block("square", "red", [40.0, 30.0], 90.0, [mm(65.0), mm(65.0)]);
    square["formation"] = json!("square");
    let behind = block(
        "impi",
        "black",
        [40.0, 30.0 - mm(65.0) - mm(50.0)],
        90.0,
        [mm(65.0), mm(20.0)],
    );
    let scene = scene_in("bbb", vec![behind, square], vec![], json!({}));
    let shot = measure_pair(&scene.units[0], &scene.units[1], &scene.profile());
    assert_eq!(shot.target_face, Quarter::Rear);
    assert_eq!(shot.target_quarter, Quarter::Front);
}

#[test]
fn beyond_half_a_weapons_range_the_score_needed_rises_by_two() {
    // §1.9 (L371): muskets reach 150 mm from the stand centre; half is 75 mm. A front edge 40 mm
    // away is 65 mm from the centre, one 90 mm away 115 mm.
    for (gap, band) in [
        (40.0, "(within half range)"),
        (90.0, "(over half range (+2 to the score needed))"),
    ] {
        let text = text_of(&bbb(vec![stand(), enemy_ahead(gap)], vec![]), "natal");
        assert!(text.contains(band), "{gap} mm: {text}");
    }
}

#[test]
fn a_gun_over_half_its_range_needs_two_more_and_fires_canister_within_200_mm() {
    // §1.9 (L371) holds for guns as for muskets: a light gun reaches 400 mm from its muzzle, so
    // +2 beyond 200 mm; canister at 200 mm or less (§1.11, L435).
    let mut gun = block("gun", "red", [40.0, 10.0], 90.0, [mm(40.0), mm(60.0)]);
    gun["kind"] = json!("artillery");
    gun["formation"] = json!("deployed");
    gun["weapon"] = json!("light-gun");
    for (gap, band) in [
        (150.0, "(canister range)"),
        (250.0, "(over half range (+2 to the score needed))"),
        (390.0, "(over half range (+2 to the score needed))"),
    ] {
        let text = text_of(&bbb(vec![gun.clone(), enemy_ahead(gap)], vec![]), "gun");
        assert!(text.contains(band), "{gap} mm: {text}");
        assert!(!text.contains("long range (−1 to hit)"), "{text}");
    }
}

#[test]
fn a_stand_nominates_any_visible_target_in_range_not_the_nearest() {
    // §1.9 (L355), B-27: no nearest-target priority — the farther enemy is as good a target.
    let mut far = enemy_ahead(90.0);
    far["id"] = json!("far");
    far["front_center"] = json!([40.0 + mm(110.0), 10.0 + mm(90.0)]);
    let report = bbb(vec![stand(), enemy_ahead(60.0), far], vec![]);
    let shooting = &of(&report, "natal").shooting;
    assert!(must_shoot(&report, "natal").is_empty());
    let mut may = shooting.may_target.clone();
    may.sort();
    assert_eq!(may, vec!["far", "impi"], "{}", text_of(&report, "natal"));
    assert!(text_of(&report, "natal").contains("may pick any visible enemy in range"));
}

#[test]
fn bbbs_own_list_of_who_may_not_charge_whom() {
    // §1.12 (L479-487, L499): foot may charge mounted only when these are disordered; mounted
    // may charge a square (a front like any other); skirmishers never charge. Black Powder's
    // list says otherwise on all three.
    let mut horse = enemy_ahead(150.0);
    horse["kind"] = json!("cavalry");
    let steady = bbb(vec![stand(), horse.clone()], vec![]);
    let foot_at_horse = charge(&steady, "natal", "impi").expect("looked at");
    assert!(
        !foot_at_horse.reachable
            && foot_at_horse.reason.as_deref()
                == Some("foot cannot charge mounted troops unless they are disordered"),
        "{foot_at_horse:?}"
    );
    let cited = of(&steady, "natal")
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Charge)
        .map(|r| r.rule.rule);
    assert_eq!(cited, Some("Eligibility to charge (L479-487)"));
    horse["disordered"] = json!(true);
    let shaken_horse = bbb(vec![stand(), horse.clone()], vec![]);
    assert!(charge(&shaken_horse, "natal", "impi").is_some_and(|c| c.reachable));

    let mut square = stand();
    square["formation"] = json!("square");
    horse["disordered"] = json!(false);
    let into_square = bbb(vec![square, horse], vec![]);
    assert!(
        charge(&into_square, "impi", "natal").is_some_and(|c| c.reachable),
        "{}",
        text_of(&into_square, "impi")
    );

    let mut skirmishers = stand();
    skirmishers["formation"] = json!("skirmish");
    let mut guns = enemy_ahead(150.0);
    guns["kind"] = json!("artillery");
    guns["formation"] = json!("deployed");
    let screen = bbb(vec![skirmishers, guns], vec![]);
    assert!(
        charge(&screen, "natal", "impi").is_some_and(
            |c| !c.reachable && c.reason.as_deref() == Some("skirmishers cannot charge")
        ),
        "{}",
        text_of(&screen, "natal")
    );
}

#[test]
fn two_units_inside_the_same_wood_see_each_other_up_to_its_sight_distance() {
    // §1.8: inside open woods one sees 200 mm. The natal stand and the impi 145 mm ahead both
    // stand inside the copse: the natal sees it and may charge it (and shoot it, nearer than
    // its musket's range); 250 mm apart, the wood hides it.
    let wood = json!({ "id": "copse", "kind": "wood", "polygon": [
        [40.0 - mm(100.0), 10.0 - mm(80.0)], [40.0 + mm(100.0), 10.0 - mm(80.0)],
        [40.0 + mm(100.0), 10.0 + mm(330.0)], [40.0 - mm(100.0), 10.0 + mm(330.0)]] });
    let in_the_copse = |gap: f64| {
        rule(&scene_in(
            "bbb",
            vec![stand(), enemy_ahead(gap)],
            vec![],
            json!({ "terrain": [wood.clone()] }),
        ))
    };
    let near = in_the_copse(145.0);
    let text = text_of(&near, "natal");
    assert!(text.contains("natal can charge impi"), "{text}");
    assert!(!text.contains("hidden"), "{text}");
    // Within its 150 mm musket range (from the stand's centre) it shoots it, too.
    let nearer = in_the_copse(100.0);
    let text = text_of(&nearer, "natal");
    assert!(text.contains("natal may shoot at impi"), "{text}");
    let far = in_the_copse(250.0);
    assert_says(
        &far,
        "natal",
        "natal cannot charge impi: its leader cannot see the target",
    );
}

#[test]
fn woods_and_rough_ground_cap_how_far_anyone_sees() {
    // §1.8: 50 mm looking into woods from outside, 300 mm in rough ground — however far the
    // weapon reaches.
    let wood = json!({ "id": "copse", "kind": "wood", "polygon": [
        [40.0 - mm(60.0), 10.0 + mm(80.0)], [40.0 + mm(60.0), 10.0 + mm(80.0)],
        [40.0 + mm(60.0), 10.0 + mm(200.0)], [40.0 - mm(60.0), 10.0 + mm(200.0)]] });
    let mut in_wood = enemy_ahead(100.0);
    in_wood["formation"] = json!("skirmish");
    let report = rule(&scene_in(
        "bbb",
        vec![stand(), in_wood],
        vec![],
        json!({ "terrain": [wood] }),
    ));
    assert_says(
        &report,
        "natal",
        "no one sees further than 50 mm in or into copse",
    );
    // Ruled out by the ruleset's visibility rule, not by how it picks a target.
    let hidden = of(&report, "natal")
        .rulings
        .iter()
        .find(|r| r.explanation.contains("no one sees further than 50 mm"))
        .expect("the wood's ruling");
    assert_eq!(hidden.rule.rule, "Visibility (L311-313)");
    let rough = json!({ "id": "boulders", "kind": "rough", "polygon": [
        [40.0 - mm(100.0), 10.0 - mm(100.0)], [40.0 + mm(100.0), 10.0 - mm(100.0)],
        [40.0 + mm(100.0), 10.0 + mm(20.0)], [40.0 - mm(100.0), 10.0 + mm(20.0)]] });
    let mut rifles = stand();
    rifles["weapon"] = json!("improved-rifle");
    let far = rule(&scene_in(
        "bbb",
        vec![rifles.clone(), enemy_ahead(360.0)],
        vec![],
        json!({ "terrain": [rough.clone()] }),
    ));
    assert_says(
        &far,
        "natal",
        "no one sees further than 300 mm in or into boulders",
    );
    let near = rule(&scene_in(
        "bbb",
        vec![rifles, enemy_ahead(200.0)],
        vec![],
        json!({ "terrain": [rough] }),
    ));
    assert!(
        !of(&near, "natal").shooting.may_target.is_empty(),
        "{}",
        text_of(&near, "natal")
    );
}

#[test]
fn its_json_gives_every_length_in_millimetres_and_says_so() {
    // A report under BBB speaks its millimetres: the stand's 150 mm musket, its 65 mm frontage,
    // the gap to the enemy and the positions of the shapes, with the unit named at the top.
    let scene = scene_in("bbb", vec![stand(), enemy_ahead(90.0)], vec![], json!({}));
    let report = serde_json::to_value(rule(&scene)).expect("json");
    assert_eq!(report["length_unit"], "millimetres");
    let natal = &report["units"][0];
    assert_eq!(natal["weapon_range"], 150.0, "{natal:#}");
    assert_eq!(natal["frontage"], 65.0);
    assert_eq!(natal["proximity"]["gap"], 90.0);
    let leader = &natal["leader"];
    assert_eq!(
        leader[0],
        (40.0 * 25.4 * 100.0f64).round() / 100.0,
        "{leader}"
    );
    let measured = serde_json::to_value(rules::measure::measure(&scene)).expect("json");
    assert_eq!(measured["length_unit"], "millimetres");
    assert_eq!(measured["pairs"][0]["edge_distance"], 90.0);
    // Black Powder's stay in inches, and say so.
    let bp = scene_in(
        "black-powder",
        vec![stand(), enemy_ahead(90.0)],
        vec![],
        json!({}),
    );
    assert_eq!(
        serde_json::to_value(rule(&bp)).expect("json")["length_unit"],
        "inches"
    );
}

#[test]
fn a_guns_shot_penetrates_a_third_of_its_remaining_range_and_stops_at_woods() {
    // L439-441, B-31: a heavy gun (1000 mm) firing at a stand 250 mm off penetrates a third of
    // the 750 mm left, 250 mm beyond the point it hit: a friend of the gun 100 mm behind the
    // target is touched (and rolled for), an enemy 350 mm behind is not. A wood between them
    // and the target stops the line.
    let mut gun = block("gun", "red", [40.0, 10.0], 90.0, [mm(40.0), mm(60.0)]);
    gun["kind"] = json!("artillery");
    gun["formation"] = json!("deployed");
    gun["weapon"] = json!("heavy-gun");
    let behind = |id: &str, side: &str, at: f64| {
        block(id, side, [40.0, 10.0 + mm(at)], 270.0, [mm(65.0), mm(20.0)])
    };
    let units = vec![
        gun,
        enemy_ahead(250.0),
        behind("friend", "red", 350.0),
        behind("beyond", "black", 600.0),
    ];
    let penetration = |terrain: Value| {
        let report = rule(&scene_in(
            "bbb",
            units.clone(),
            vec![],
            json!({ "terrain": terrain }),
        ));
        of(&report, "gun")
            .rulings
            .iter()
            .find(|r| r.rule.rule.starts_with("Artillery penetration zones"))
            .cloned()
            .expect("a penetration ruling")
    };
    let open = penetration(json!([]));
    assert!(
        open.explanation.contains("penetrates 250 mm beyond it"),
        "{}",
        open.explanation
    );
    assert!(
        open.explanation.contains("friend (a FRIENDLY unit)"),
        "{}",
        open.explanation
    );
    assert!(!open.explanation.contains("beyond (") && !open.explanation.contains(", beyond"));
    let wood = json!([{ "id": "copse", "kind": "wood", "polygon": [
        [38.0, 10.0 + mm(320.0)], [42.0, 10.0 + mm(320.0)],
        [42.0, 10.0 + mm(335.0)], [38.0, 10.0 + mm(335.0)]] }]);
    // A river given as a line stops the shot only where the line itself is crossed: this one
    // turns back beyond the end of the penetration, so the shot reaches the friend.
    let river = json!([{ "id": "brook", "kind": "river", "line": [
        [37.0, 10.0 + mm(330.0)], [37.0, 35.0], [43.0, 35.0], [43.0, 10.0 + mm(330.0)]] }]);
    let past = penetration(river);
    assert!(
        !past.explanation.contains("stops at"),
        "{}",
        past.explanation
    );
    assert!(
        past.explanation.contains("friend (a FRIENDLY unit)"),
        "{}",
        past.explanation
    );
    let stopped = penetration(wood);
    assert!(
        stopped.explanation.contains("The line stops at copse."),
        "{}",
        stopped.explanation
    );
    assert!(
        stopped.explanation.contains("it touches no other unit"),
        "{}",
        stopped.explanation
    );
}

/// A 65 × 50 mm stand of command group `group` whose front edge's centre is at `front`.
fn group_stand(id: &str, side: &str, group: &str, front: [f64; 2], facing: f64) -> Value {
    let mut stand = block(id, side, front, facing, [mm(65.0), mm(50.0)]);
    stand["brigade"] = json!(group);
    stand
}

#[test]
fn a_stand_behind_a_friend_in_its_rank_holds_its_fire() {
    // L351, B-25: the second stand of a column stands directly behind the first, touching it
    // across its whole frontage: it may not fire. One shifted by more than half its frontage
    // still fires past its neighbour.
    let enemy = block(
        "impi",
        "black",
        [40.0, 10.0 + mm(150.0)],
        270.0,
        [mm(65.0), mm(50.0)],
    );
    let front = group_stand("front", "red", "natal", [40.0, 10.0], 90.0);
    let behind = group_stand("behind", "red", "natal", [40.0, 10.0 - mm(50.0)], 90.0);
    let report = bbb(vec![front.clone(), behind, enemy.clone()], vec![]);
    let ruling = of(&report, "behind")
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Shooting && r.other.is_none())
        .expect("a ruling on whether it may shoot");
    assert_eq!(ruling.decision, rules::ruling::Decision::Cannot);
    assert_eq!(ruling.rule.rule, "Figures eligible to fire (L351)");
    assert_eq!(ruling.rule.reading, Some("B-25"));
    assert_says(&report, "behind", "stands in a rear rank, behind front");
    assert!(!of(&report, "behind").shooting.can_shoot);
    assert!(of(&report, "front").shooting.can_shoot);
    let shifted = group_stand(
        "behind",
        "red",
        "natal",
        [40.0 + mm(40.0), 10.0 - mm(50.0)],
        90.0,
    );
    let report = bbb(vec![front, shifted, enemy], vec![]);
    assert!(of(&report, "behind").shooting.can_shoot);
}

#[test]
fn a_command_groups_stands_are_one_target_and_a_deep_stand_is_easier_to_hit() {
    // L355, B-27: two impi stands abreast and one behind the left: a stand of the group cannot
    // be picked alone, the group is one target. L379, B-28: the left stand, with one behind it,
    // is more than one stand deep (the one behind is out of range and hidden by it). A lone
    // stand of another group is a target by itself.
    let y = 10.0 + mm(100.0);
    let impi = vec![
        group_stand("left", "black", "umcijo", [40.0 - mm(32.5), y], 270.0),
        group_stand("right", "black", "umcijo", [40.0 + mm(32.5), y], 270.0),
        group_stand(
            "rear",
            "black",
            "umcijo",
            [40.0 - mm(32.5), y + mm(50.0)],
            270.0,
        ),
        group_stand(
            "lone",
            "black",
            "ingobamakhosi",
            [40.0 + mm(110.0), y - mm(20.0)],
            270.0,
        ),
    ];
    let mut units = vec![stand()];
    units.extend(impi);
    let report = bbb(units, vec![]);
    let shooting: Vec<_> = of(&report, "natal")
        .rulings
        .iter()
        .filter(|r| r.topic == Topic::Shooting && r.other.is_some())
        .collect();
    let group: Vec<_> = shooting
        .iter()
        .filter(|r| r.explanation.contains("command group umcijo"))
        .collect();
    assert_eq!(
        group.len(),
        1,
        "one ruling for the whole group: {shooting:#?}"
    );
    let group = group[0];
    assert_eq!(group.decision, rules::ruling::Decision::May);
    assert!(
        group.explanation.contains("(left, right, rear)")
            && group.explanation.contains("is not a target on its own"),
        "{}",
        group.explanation
    );
    assert!(
        group
            .explanation
            .contains("left is more than one stand deep (rear touches it front or rear): −2"),
        "{}",
        group.explanation
    );
    assert!(
        !group
            .explanation
            .contains("right is more than one stand deep"),
        "{}",
        group.explanation
    );
    let count = |name: &str| {
        group
            .figures
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.value)
    };
    assert_eq!(count("stands in the group"), Some(3.0));
    assert!(shooting.iter().any(|r| {
        r.other.as_deref() == Some("lone")
            && r.explanation
                .contains("may pick any visible enemy in range")
    }));
    // Every stand in reach is still a target the unit may shoot.
    let may = &of(&report, "natal").shooting.may_target;
    assert!(may.contains(&"left".to_owned()) && may.contains(&"lone".to_owned()));
}

/// A ruling's figure by name, if it gives one.
fn figure(ruling: &rules::ruling::Ruling, name: &str) -> Option<f64> {
    ruling
        .figures
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.value)
}

#[test]
fn a_stand_that_has_lost_figures_needs_more_to_hit() {
    // L351: all the figures of a front-rank stand fire; §2.9.2 (L359-383): +1 to the score
    // needed for each 2 figures lost from the stand, so 4 of 6 left is +1 and 2 left is +2;
    // one figure lost adds nothing. A stand without `figures` is full and says nothing.
    for (left, added, says) in [
        (
            4,
            1.0,
            "natal has 4 of its 6 figures left: +1 to the score needed (+1 for each 2 figures lost, L359-383).",
        ),
        (
            2,
            2.0,
            "natal has 2 of its 6 figures left: +2 to the score needed",
        ),
        (
            5,
            0.0,
            "natal has 5 of its 6 figures left: nothing added to the score needed",
        ),
    ] {
        let mut firer = stand();
        firer["figures"] = json!(left);
        let report = bbb(vec![firer, enemy_ahead(60.0)], vec![]);
        let ruling = ruling_on(&report, "natal", Topic::Shooting, "impi");
        assert_eq!(figure(ruling, "figures left"), Some(f64::from(left)));
        assert_eq!(figure(ruling, "added to the score needed"), Some(added));
        assert!(ruling.explanation.contains(says), "{}", ruling.explanation);
    }
    let full = bbb(vec![stand(), enemy_ahead(60.0)], vec![]);
    let ruling = ruling_on(&full, "natal", Topic::Shooting, "impi");
    assert_eq!(figure(ruling, "figures left"), None);
    assert!(
        !ruling.explanation.contains("figures left"),
        "{}",
        ruling.explanation
    );
}

#[test]
fn a_gun_or_machine_gun_needs_one_more_for_each_crew_figure_lost() {
    // §2.9.2 (L359-383, L423): a gun's crew is 4, a machine gun's 3; each crew figure lost is
    // +1 to the score needed.
    let piece = |weapon: &str, crew: u32| {
        let mut gun = block("gun", "red", [40.0, 10.0], 90.0, [mm(40.0), mm(60.0)]);
        gun["kind"] = json!("artillery");
        gun["formation"] = json!("deployed");
        gun["weapon"] = json!(weapon);
        gun["figures"] = json!(crew);
        gun
    };
    for (weapon, crew, says) in [
        (
            "light-gun",
            2,
            "gun has 2 of its 4 crew left: +2 to the score needed (+1 for each crew figure lost, L359-383).",
        ),
        (
            "gatling",
            2,
            "gun has 2 of its 3 crew left: +1 to the score needed",
        ),
    ] {
        let report = bbb(vec![piece(weapon, crew), enemy_ahead(150.0)], vec![]);
        assert_says(&report, "gun", says);
    }
}

#[test]
fn a_stand_with_more_figures_than_a_full_one_or_none_is_refused_by_name() {
    let refusal = |unit: Value| {
        let doc = json!({ "ruleset": "bbb", "table": { "width": 72, "depth": 48 },
                          "units": [unit] });
        rules::Scene::parse(&doc.to_string(), rules::scene::Format::Json, "zulu.json")
            .expect_err("refused")
            .to_string()
    };
    let mut seven = stand();
    seven["figures"] = json!(7);
    let message = refusal(seven);
    assert!(
        message.contains(
            "unit 'natal' (units[0]), `figures`: 7 is more than a full stand: an infantry stand has 6 figures in Bugles, Bullets and Blades"
        ),
        "{message}"
    );
    let mut maxim = block("maxim", "red", [40.0, 10.0], 90.0, [mm(40.0), mm(60.0)]);
    maxim["kind"] = json!("artillery");
    maxim["formation"] = json!("deployed");
    maxim["weapon"] = json!("maxim");
    maxim["figures"] = json!(4);
    let message = refusal(maxim);
    assert!(
        message.contains("`figures`: 4 is more than a full crew: this gun has 3"),
        "{message}"
    );
    let mut gone = stand();
    gone["figures"] = json!(0);
    assert!(
        refusal(gone).contains("`figures`: must be at least 1"),
        "a stand with no figures has gone"
    );
}

#[test]
fn mounted_troops_may_not_charge_through_rough_ground_and_foot_may() {
    // L501: "Mounted troops cannot charge through rough terrain".
    let rough = json!({ "id": "scrub", "kind": "rough",
        "polygon": [[36.0, 11.0], [44.0, 11.0], [44.0, 12.5], [36.0, 12.5]] });
    for (kind, barred) in [("cavalry", true), ("infantry", false)] {
        let mut charger = stand();
        charger["kind"] = json!(kind);
        let report = rule(&scene_in(
            "bbb",
            vec![charger, enemy_ahead(100.0)],
            vec![],
            json!({ "terrain": [rough.clone()] }),
        ));
        let reason = charge(&report, "natal", "impi").and_then(|c| c.reason.clone());
        assert_eq!(
            reason.as_deref() == Some("it may not charge into scrub"),
            barred,
            "{kind}: {reason:?}"
        );
        if barred {
            let cited = ruling_on(&report, "natal", Topic::Charge, "impi").rule.rule;
            assert_eq!(cited, "Rough terrain: movement and charges (L206, L501)");
        }
    }
}

#[test]
fn a_stand_ending_its_move_inside_friends_is_disordered_not_refused() {
    // L251-255, B-33: a passage through friends that ends a turn mid-way disorders the unit
    // (Black Powder forbids ending a move inside a friend).
    let friend = block("zulu", "red", [40.0, 16.0], 90.0, [mm(65.0), mm(50.0)]);
    let before = scene_in("bbb", vec![stand(), friend.clone()], vec![], json!({}));
    let mut moved = stand();
    moved["front_center"] = json!([40.0, 15.5]);
    let after = scene_in("bbb", vec![moved, friend], vec![], json!({}));
    let (checks, _) =
        rules::movement::check_moves(&before, &after, Profile::builtin(RulesetId::Bbb));
    let ruling = checks
        .iter()
        .flat_map(|c| &c.rulings)
        .find(|r| r.other.as_deref() == Some("zulu"))
        .expect("a ruling on ending inside the zulu stand");
    assert_eq!(ruling.verdict(), Verdict::Yes);
    assert!(
        ruling.explanation.contains("disorders it"),
        "{}",
        ruling.explanation
    );
    assert_eq!(ruling.rule.rule, "Passage of lines (L251-255)");
}

#[test]
fn a_charge_at_a_target_in_a_wood_or_uphill_is_not_doubled() {
    // L473: the charge dice are doubled "unless the target is uphill or in difficult terrain".
    // Foot charge 480 mm (the dice doubled) across the open; at a target in a wood or on a
    // hill, only their 240 mm move: a target 300 mm off is reached in the open only.
    let far = enemy_ahead(300.0);
    let around = |kind: &str| {
        let mut piece = json!({ "id": "there", "kind": kind, "polygon": [
            [30.0, 10.0 + mm(280.0)], [50.0, 10.0 + mm(280.0)],
            [50.0, 10.0 + mm(400.0)], [30.0, 10.0 + mm(400.0)]] });
        if kind == "hill" {
            piece["height"] = json!(1);
        }
        piece
    };
    let reach = |terrain: Vec<Value>| {
        let report = rule(&scene_in(
            "bbb",
            vec![stand(), far.clone()],
            vec![],
            json!({ "terrain": terrain }),
        ));
        let charge = charge(&report, "natal", "impi").expect("a charge").clone();
        (
            charge.allowance.0,
            charge.reachable,
            text_of(&report, "natal"),
        )
    };
    let (open, reached, text) = reach(vec![]);
    assert!((open - mm(480.0)).abs() < 1e-9 && reached, "{text}");
    for kind in ["wood", "hill"] {
        let (allowance, reached, text) = reach(vec![around(kind)]);
        assert!((allowance - mm(240.0)).abs() < 1e-9, "{kind}: {text}");
        assert!(!reached, "{kind}: {text}");
        assert!(
            text.contains("not doubled: the target is"),
            "{kind}: {text}"
        );
    }
}

#[test]
fn mounted_troops_do_not_fire() {
    // L351: "mounted … cannot fire", but for some native types at under half range.
    let mut horse = stand();
    horse["kind"] = json!("cavalry");
    let report = bbb(vec![horse, enemy_ahead(100.0)], vec![]);
    let shooting = &of(&report, "natal").shooting;
    assert!(!shooting.can_shoot && shooting.targets.is_empty());
    assert_says(&report, "natal", "mounted troops cannot fire");
    let foot = bbb(vec![stand(), enemy_ahead(100.0)], vec![]);
    assert_eq!(of(&foot, "natal").shooting.may_target, vec!["impi"]);
}

#[test]
fn cavalry_must_charge_the_enemy_cavalry_in_reach_first() {
    // L505, B-22: cavalry must charge visible enemy cavalry within charge range first, unless
    // a leader personally accompanies the charge.
    let mut lancers = stand();
    lancers["kind"] = json!("cavalry");
    let mut horse = block(
        "horse",
        "black",
        [40.0 + mm(200.0), 10.0 + mm(300.0)],
        270.0,
        [mm(65.0), mm(50.0)],
    );
    horse["kind"] = json!("cavalry");
    let with_horse = bbb(vec![lancers.clone(), enemy_ahead(100.0), horse], vec![]);
    let reason = charge(&with_horse, "natal", "impi").and_then(|c| c.reason.clone());
    assert!(
        reason
            .as_deref()
            .is_some_and(|r| r.starts_with("cavalry must charge the enemy cavalry")),
        "{reason:?}"
    );
    let at_horse = charge(&with_horse, "natal", "horse").expect("a charge at the horse");
    assert_eq!(at_horse.reason, None);
    let alone = bbb(vec![lancers, enemy_ahead(100.0)], vec![]);
    let at_foot = charge(&alone, "natal", "impi").expect("a charge at the impi");
    assert_eq!(at_foot.reason, None);
}

#[test]
fn a_charge_may_pass_through_friendly_skirmishers_but_not_close_order_friends() {
    // L251: "Charges cannot be launched through friendly close-order troops, but may pass
    // through friendly skirmishers."
    let screen = |formation: &str| {
        let mut unit = block(
            "screen",
            "red",
            [40.0, 10.0 + mm(60.0)],
            90.0,
            [mm(65.0), mm(20.0)],
        );
        unit["formation"] = json!(formation);
        unit
    };
    let through = |formation: &str| {
        let report = bbb(vec![stand(), enemy_ahead(150.0), screen(formation)], vec![]);
        charge(&report, "natal", "impi")
            .expect("a charge")
            .reason
            .clone()
    };
    assert_eq!(through("skirmish"), None);
    assert_eq!(
        through("line").as_deref(),
        Some("its leader cannot see the target")
    );
}

#[test]
fn a_disordered_square_cannot_move_and_a_steady_one_may() {
    // L279: "Disordered squares cannot move."
    let square = |y: f64, disordered: bool| {
        let mut unit = block("natal", "red", [40.0, y], 90.0, [mm(65.0), mm(65.0)]);
        unit["formation"] = json!("square");
        unit["disordered"] = json!(disordered);
        unit
    };
    for disordered in [true, false] {
        let before = scene_in("bbb", vec![square(10.0, disordered)], vec![], json!({}));
        let after = scene_in(
            "bbb",
            vec![square(10.0 + mm(60.0), disordered)],
            vec![],
            json!({}),
        );
        let (checks, _) =
            rules::movement::check_moves(&before, &after, Profile::builtin(RulesetId::Bbb));
        let still = checks[0]
            .rulings
            .iter()
            .find(|r| r.explanation.contains("which cannot move"));
        assert_eq!(still.is_some(), disordered, "{:?}", checks[0].rulings);
        if let Some(ruling) = still {
            assert_eq!(ruling.verdict(), Verdict::No);
            assert_eq!(ruling.rule.rule, "Squares (L279)");
        }
    }
}

#[test]
fn guns_fire_over_nobody_and_are_manhandled_a_die_once_deployed() {
    // B-23: "intervening stands, friend or foe, block direct fire" — no firing over heads,
    // even from a hill; L204: a deployed gun is manhandled, 1D6 (120 mm at most).
    let gun = json!({ "id": "gun", "side": "red", "kind": "artillery", "formation": "deployed",
        "front_center": [40.0, 10.0], "facing": 90.0, "width": mm(40.0), "depth": mm(50.0),
        "weapon": "smoothbore-artillery" });
    let hill = json!({ "id": "kop", "kind": "hill", "height": 1,
        "polygon": [[30.0, 0.0], [50.0, 0.0], [50.0, 10.5], [30.0, 10.5]] });
    let friends = block(
        "natal",
        "red",
        [40.0, 10.0 + mm(120.0)],
        90.0,
        [mm(65.0), mm(50.0)],
    );
    let report = rule(&scene_in(
        "bbb",
        vec![gun.clone(), friends, enemy_ahead(400.0)],
        vec![],
        json!({ "terrain": [hill] }),
    ));
    let text = text_of(&report, "gun");
    assert!(of(&report, "gun").shooting.targets.is_empty(), "{text}");
    let moved = |by: f64| {
        let mut after = gun.clone();
        after["front_center"] = json!([40.0, 10.0 + mm(by)]);
        let before = scene_in("bbb", vec![gun.clone()], vec![], json!({}));
        let after = scene_in("bbb", vec![after], vec![], json!({}));
        let (checks, _) =
            rules::movement::check_moves(&before, &after, Profile::builtin(RulesetId::Bbb));
        checks[0].rulings[0].verdict()
    };
    assert_eq!(moved(100.0), Verdict::Yes);
    assert_eq!(moved(200.0), Verdict::No);
}
