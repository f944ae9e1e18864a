//! eRules Napoleonic situations from its digest (shared/rulesets/erules.md): scale metres
//! through the figure scale, the ±30° fire, the 50 m reaction-test zone, and momentum.

mod common;

use common::{block, must_shoot, of, rule, ruling_on, scene_in, text_of, towards};
use rules::measure::measure_pair;
use rules::movement::check_moves;
use rules::ruling::{Decision, FigureUnit, Topic, Verdict};
use rules::scene::Format;
use rules::{Profile, RulesetId, Scene};
use serde_json::{Value, json};

/// Scale metres as table inches for figures taking `mm_per_metre` table mm a metre.
fn metres(value: f64, mm_per_metre: f64) -> f64 {
    value * mm_per_metre / 25.4
}

/// A battalion line (100 m × 15 m at 6 mm) of muskets at (30, 10) facing north.
fn battalion(k: f64) -> Value {
    block(
        "ligne",
        "blue",
        [30.0, 10.0],
        90.0,
        [metres(100.0, k), metres(15.0, k)],
    )
}

fn enemy_ahead(gap_m: f64, k: f64) -> Value {
    block(
        "foot",
        "red",
        [30.0, 10.0 + metres(gap_m, k)],
        270.0,
        [metres(100.0, k), metres(15.0, k)],
    )
}

#[test]
fn a_musket_reaches_200_scale_metres_whatever_the_figures() {
    // §1.1, §4: 6 mm figures 1 mm a metre (stated), 15 mm 2.4 (derived).
    let six = Profile::builtin(RulesetId::Erules);
    let musket = |p: &Profile| p.weapon("musket").and_then(|w| w.range()).map(|r| r.0);
    assert!((musket(six).unwrap_or(0.0) - 200.0 / 25.4).abs() < 1e-9);
    let fifteen = six.with_figure_scale(15).expect("a known scale");
    assert!((musket(&fifteen).unwrap_or(0.0) - 480.0 / 25.4).abs() < 1e-9);

    for (gap, in_range) in [(180.0, true), (230.0, false)] {
        let scene = scene_in(
            "erules",
            vec![battalion(2.4), enemy_ahead(gap, 2.4)],
            vec![],
            json!({ "figure_scale": 15 }),
        );
        let report = rule(&scene);
        let text = text_of(&report, "ligne");
        assert!(text.contains("shoots up to 200 m"), "{text}");
        assert_eq!(
            !must_shoot(&report, "ligne").is_empty(),
            in_range,
            "{gap} m: {text}"
        );
    }
}

#[test]
fn a_figure_scale_the_ruleset_does_not_know_is_refused() {
    let doc = json!({ "ruleset": "erules", "figure_scale": 20, "table": { "width": 72, "depth": 48 },
                      "units": [battalion(1.0)] });
    let error = Scene::parse(&doc.to_string(), Format::Json, "bad.json").expect_err("refused");
    let message = error.to_string();
    assert!(message.contains("20 mm"), "{message}");
    let bp = json!({ "ruleset": "black-powder", "figure_scale": 15, "table": { "width": 72, "depth": 48 },
                     "units": [] });
    let error = Scene::parse(&bp.to_string(), Format::Json, "bp.json").expect_err("refused");
    assert!(error.to_string().contains("distance_scale"), "{error}");
}

fn in_arc(off: f64) -> bool {
    let corner = [30.0 + metres(50.0, 1.0), 10.0];
    let centre = towards(corner, 90.0 - off, metres(120.0, 1.0));
    let target = block(
        "foot",
        "red",
        [centre[0], centre[1] - 0.1],
        90.0,
        [0.2, 0.2],
    );
    let scene = scene_in("erules", vec![battalion(1.0), target], vec![], json!({}));
    measure_pair(&scene.units[0], &scene.units[1], &scene.profile())
        .range_in_arc
        .is_some()
}

#[test]
fn troops_fire_within_30_degrees_of_straight_ahead() {
    // §1.9 (§31b.1): a ±30° cone per firing element, so rays splayed 30° from the line's ends.
    assert!(in_arc(20.0));
    assert!(!in_arc(40.0));
}

/// `id`'s ruling on the 50 m zone round formed enemy.
fn proximity_of<'r>(report: &'r rules::rulings::Rulings, id: &str) -> &'r rules::ruling::Ruling {
    of(report, id)
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Proximity)
        .expect("a proximity ruling")
}

#[test]
fn moving_within_50_m_of_formed_enemy_needs_a_reaction_test() {
    // §1.7, §20.2.1, E-12.
    let near = rule(&scene_in(
        "erules",
        vec![battalion(1.0), enemy_ahead(40.0, 1.0)],
        vec![],
        json!({}),
    ));
    let ruling = proximity_of(&near, "ligne");
    // A test to take, not a ban and not a plain "yes": passed, the line comes on.
    assert_eq!(ruling.decision, Decision::Test, "{}", ruling.explanation);
    assert_eq!(ruling.verdict(), Verdict::Test);
    assert!(
        ruling.explanation.contains("reaction test"),
        "{}",
        ruling.explanation
    );
    assert!(
        ruling.explanation.contains("40 m"),
        "{}",
        ruling.explanation
    );
    assert_eq!(ruling.figures[0].unit, FigureUnit::ScaleMetres);
    let far = rule(&scene_in(
        "erules",
        vec![battalion(1.0), enemy_ahead(80.0, 1.0)],
        vec![],
        json!({}),
    ));
    assert!(text_of(&far, "ligne").contains("no reaction test is needed"));
    // The zone is round close-order formed troops: skirmishers 40 m off raise no test.
    let mut skirmishers = enemy_ahead(40.0, 1.0);
    skirmishers["formation"] = json!("skirmish");
    let screen = rule(&scene_in(
        "erules",
        vec![battalion(1.0), skirmishers],
        vec![],
        json!({}),
    ));
    assert!(
        of(&screen, "ligne")
            .rulings
            .iter()
            .all(|r| r.topic != Topic::Proximity || r.decision == Decision::No),
        "{}",
        text_of(&screen, "ligne")
    );
    assert!(!text_of(&screen, "ligne").contains("must pass a reaction test"));
}

#[test]
fn a_battery_or_skirmishers_within_50_m_of_formed_enemy_may_not_move_closer() {
    // §20.2.1: close-order troops test to come closer; a battery or skirmishers may not at all.
    let mut skirmishers = battalion(1.0);
    skirmishers["formation"] = json!("skirmish");
    let near = rule(&scene_in(
        "erules",
        vec![skirmishers, enemy_ahead(40.0, 1.0)],
        vec![],
        json!({}),
    ));
    let ruling = proximity_of(&near, "ligne");
    assert_eq!(ruling.decision, Decision::Cannot, "{}", ruling.explanation);
    assert!(
        ruling.explanation.contains("may not move any closer"),
        "{}",
        ruling.explanation
    );
    assert!(
        !ruling.explanation.contains("reaction test"),
        "{}",
        ruling.explanation
    );
}

fn moved(momentum: Option<(f64, f64)>, step: [f64; 2], cinc: bool) -> rules::ruling::Ruling {
    let mut before = battalion(1.0);
    if let Some((heading, distance)) = momentum {
        before["momentum"] = json!({ "heading": heading, "distance": metres(distance, 1.0) });
    }
    let mut after = battalion(1.0);
    after["front_center"] = json!([30.0 + metres(step[0], 1.0), 10.0 + metres(step[1], 1.0)]);
    let commanders = if cinc {
        vec![
            json!({ "id": "ney", "name": "Ney", "side": "blue", "position": [30.0, 10.0 - metres(16.0, 1.0)] }),
        ]
    } else {
        vec![]
    };
    let before = scene_in("erules", vec![before], commanders.clone(), json!({}));
    let after = scene_in("erules", vec![after], commanders, json!({}));
    let (checks, _) = check_moves(&before, &after, &before.profile());
    checks[0]
        .rulings
        .iter()
        .find(|r| r.rule.rule.starts_with("Momentum"))
        .cloned()
        .expect("a momentum ruling")
}

#[test]
fn momentum_carries_speed_and_direction_over_between_bounds() {
    // §1.3, §10: the unit moved 225 m north last bound.
    let kept = moved(Some((90.0, 225.0)), [0.0, 225.0], false);
    assert_eq!(kept.verdict(), Verdict::Yes, "{}", kept.explanation);
    let slowed = moved(Some((90.0, 225.0)), [0.0, 150.0], false);
    assert_eq!(slowed.verdict(), Verdict::No);
    assert!(
        slowed
            .explanation
            .contains("changed speed: 150 m instead of 225 m"),
        "{}",
        slowed.explanation
    );
    let turned = moved(Some((90.0, 225.0)), [112.5, 194.9], false);
    assert_eq!(turned.verdict(), Verdict::No);
    assert!(
        turned.explanation.contains("changed direction"),
        "{}",
        turned.explanation
    );
    // E-10: halting is a change of speed.
    let halted = moved(Some((90.0, 225.0)), [0.0, 0.0], false);
    assert!(
        halted.explanation.contains("halted"),
        "{}",
        halted.explanation
    );
}

#[test]
fn the_commander_in_chief_in_contact_permits_a_change_and_the_first_bound_is_free() {
    // §10.2 and §9.
    let led = moved(Some((90.0, 225.0)), [0.0, 100.0], true);
    assert_eq!(led.verdict(), Verdict::Yes, "{}", led.explanation);
    assert!(led.explanation.contains("Ney"));
    let first = moved(None, [50.0, 10.0], false);
    assert_eq!(first.verdict(), Verdict::Yes);
    assert!(first.explanation.contains("first bound"));
}

#[test]
fn erules_has_no_command_distance() {
    let mut unit = battalion(1.0);
    unit["brigade"] = json!("first");
    let commander =
        json!({ "id": "d", "side": "blue", "brigade": "first", "position": [5.0, 5.0] });
    let report = rule(&scene_in("erules", vec![unit], vec![commander], json!({})));
    assert!(of(&report, "ligne").command.is_none());
}

/// A 6–7 pdr battery, 60 m wide, at (30, 2) facing north (6 mm figures: 1 mm a metre).
fn battery() -> Value {
    json!({ "id": "guns", "side": "blue", "kind": "artillery", "formation": "deployed",
            "front_center": [30.0, 2.0], "facing": 90.0,
            "width": metres(60.0, 1.0), "depth": metres(30.0, 1.0), "weapon": "6-pdr" })
}

/// A red battalion whose front is `gap_m` metres straight ahead of the battery, `aside_m` to
/// the right of its line of fire.
fn foe(id: &str, side: &str, gap_m: f64, aside_m: f64) -> Value {
    block(
        id,
        side,
        [30.0 + metres(aside_m, 1.0), 2.0 + metres(gap_m, 1.0)],
        270.0,
        [metres(100.0, 1.0), metres(15.0, 1.0)],
    )
}

fn beaten_zone(report: &rules::rulings::Rulings) -> Option<&rules::ruling::Ruling> {
    of(report, "guns")
        .rulings
        .iter()
        .find(|r| r.rule.rule.starts_with("Round shot: the beaten zone"))
}

fn figure(ruling: &rules::ruling::Ruling, name: &str) -> f64 {
    ruling
        .figures
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no figure {name}"))
        .value
}

#[test]
fn round_shot_beats_a_strip_the_battery_wide_to_maximum_range_and_tests_friends_too() {
    // §1.9, fn17, §28, E-13: the first target, a second battalion further down the line of
    // fire, a friendly battalion beyond both (flagged), and one well off the line (not hit).
    let units = vec![
        battery(),
        foe("first", "red", 400.0, 0.0),
        foe("second", "red", 800.0, 30.0),
        foe("ours", "blue", 950.0, -20.0),
        foe("aside", "red", 600.0, 400.0),
    ];
    let scene = scene_in("erules", units, vec![], json!({}));
    let report = rule(&scene);
    let zone = beaten_zone(&report).expect("a beaten zone");
    assert_eq!(zone.other.as_deref(), Some("first"));
    assert_eq!(zone.verdict(), Verdict::Yes);
    assert_eq!(figure(zone, "zone width"), 60.0);
    assert_eq!(figure(zone, "zone length"), 1050.0);
    assert_eq!(figure(zone, "units in the zone"), 3.0);
    assert_eq!(figure(zone, "friends in the zone"), 1.0);
    let text = &zone.explanation;
    assert!(text.contains("FRIENDLY unit: confirm (E-13b)"), "{text}");
    assert!(!text.contains("aside"), "{text}");
    assert!(!zone.shapes.is_empty());
}

#[test]
fn the_strip_over_a_hill_is_borderline_for_the_players() {
    // fn17, E-13e: over a slope the zone is only 100 m about the point of aim.
    let hill = json!({ "id": "hill-1", "kind": "hill",
                       "polygon": [[25.0, 30.0], [35.0, 30.0], [35.0, 36.0], [25.0, 36.0]] });
    let scene = {
        let doc = json!({ "ruleset": "erules", "table": { "width": 72, "depth": 48 },
                          "terrain": [hill], "units": [battery(), foe("first", "red", 400.0, 0.0)] });
        Scene::parse(&doc.to_string(), Format::Json, "hill").unwrap_or_else(|e| panic!("{e}"))
    };
    let zone = beaten_zone(&rule(&scene)).cloned().expect("a beaten zone");
    assert_eq!(zone.verdict(), Verdict::Borderline);
    assert!(zone.explanation.contains("hill-1"), "{}", zone.explanation);
}

#[test]
fn only_rulesets_whose_round_shot_beats_a_strip_draw_one() {
    let units = vec![battery(), foe("first", "red", 400.0, 0.0)];
    let erules = scene_in("erules", units, vec![], json!({}));
    assert!(beaten_zone(&rule(&erules)).is_some());
    // Muskets have no beaten zone; nor has Black Powder's artillery.
    assert!(
        of(&rule(&erules), "first")
            .rulings
            .iter()
            .all(|r| !r.rule.rule.starts_with("Round shot"))
    );
    let mut bp_guns = battery();
    bp_guns["weapon"] = json!("smoothbore-artillery");
    let black_powder = scene_in(
        "black-powder",
        vec![bp_guns, foe("first", "red", 400.0, 0.0)],
        vec![],
        json!({}),
    );
    assert!(text_of(&rule(&black_powder), "guns").contains("must shoot at"));
    assert!(beaten_zone(&rule(&black_powder)).is_none());
}

#[test]
fn guns_may_not_fire_from_a_wood_or_a_slope() {
    // fn9, §27.1, E-28: artillery fires only from level ground, never in woods.
    for kind in ["wood", "hill"] {
        let ground = json!({ "id": "ground", "kind": kind,
            "polygon": [[26.0, 0.5], [34.0, 0.5], [34.0, 4.0], [26.0, 4.0]] });
        let scene = scene_in(
            "erules",
            vec![battery(), foe("first", "red", 400.0, 0.0)],
            vec![],
            json!({ "terrain": [ground] }),
        );
        let report = rule(&scene);
        let shooting = &of(&report, "guns").shooting;
        assert!(
            !shooting.can_shoot && shooting.must_target.is_empty(),
            "{kind}: {}",
            text_of(&report, "guns")
        );
        assert!(
            text_of(&report, "guns").contains("stands in ground, ground guns may not fire from"),
            "{kind}: {}",
            text_of(&report, "guns")
        );
    }
    let open = rule(&scene_in(
        "erules",
        vec![battery(), foe("first", "red", 400.0, 0.0)],
        vec![],
        json!({}),
    ));
    assert!(of(&open, "guns").shooting.can_shoot);
    // Its target is picked by the guns' standing orders, not the infantry's.
    let cited = of(&open, "guns")
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Shooting && r.other.as_deref() == Some("first"))
        .map(|r| r.rule.rule);
    assert_eq!(cited, Some("Standing orders: artillery firing (§19.3)"));
}

#[test]
fn guns_fire_canister_to_250_m_long_canister_to_500_m_and_round_shot_beyond() {
    // fn21, E-07 (long canister configurable, default 500 m).
    for (gap, said) in [
        (200.0, "it may fire canister"),
        (400.0, "within long canister (to 500 m, E-07)"),
        (700.0, "round shot only"),
    ] {
        let scene = scene_in(
            "erules",
            vec![battery(), foe("first", "red", gap, 0.0)],
            vec![],
            json!({}),
        );
        let text = text_of(&rule(&scene), "guns");
        assert!(text.contains(said), "{gap} m: {text}");
    }
}

#[test]
fn musket_fire_is_in_the_short_band_to_75_m_and_the_long_band_to_200_m() {
    // fn18, fn21: the bands in the ruleset's own words and metres.
    for (gap, band) in [
        (50.0, "short range, 0–75 m"),
        (150.0, "long range, 75–200 m"),
    ] {
        let scene = scene_in(
            "erules",
            vec![battalion(1.0), enemy_ahead(gap, 1.0)],
            vec![],
            json!({}),
        );
        let text = text_of(&rule(&scene), "ligne");
        assert!(text.contains(band), "{gap} m: {text}");
    }
}

/// A red cavalry regiment `gap_m` metres ahead of the battalion's front.
fn cavalry_ahead(gap_m: f64, k: f64) -> Value {
    let mut horse = enemy_ahead(gap_m, k);
    horse["id"] = json!("hussars");
    horse["kind"] = json!("cavalry");
    horse
}

fn triggered<'r>(
    report: &'r rules::rulings::Rulings,
    id: &str,
    rule: &str,
) -> Option<&'r rules::ruling::Ruling> {
    of(report, id)
        .rulings
        .iter()
        .find(|r| r.rule.rule.starts_with(rule))
}

/// The §17.1 standing-order ruling on the battalion with cavalry `gap_m` metres ahead, figures
/// taking `k` mm a metre (`figure_scale` in `extra`).
fn square_order(gap_m: f64, k: f64, extra: Value) -> Option<rules::ruling::Ruling> {
    let scene = scene_in(
        "erules",
        vec![battalion(k), cavalry_ahead(gap_m, k)],
        vec![],
        extra,
    );
    triggered(
        &rule(&scene),
        "ligne",
        "Standing orders: infantry sighting cavalry",
    )
    .cloned()
}

#[test]
fn infantry_sighting_cavalry_within_its_charge_distance_forms_square() {
    // §17.1, §34b: regular cavalry charge 750 m, irregular 850 m — the camera cannot tell them
    // apart, so between the two is borderline.
    for (gap, verdict) in [
        (600.0, Some(Verdict::Yes)),
        (800.0, Some(Verdict::Borderline)),
        (950.0, None),
    ] {
        let square = square_order(gap, 1.0, json!({}));
        assert_eq!(square.as_ref().map(|r| r.verdict()), verdict, "{gap} m");
        if let Some(r) = square {
            assert!(r.explanation.contains("forms square"), "{}", r.explanation);
            assert_eq!(r.rule.reading, None, "cited from its own book");
        }
    }
}

#[test]
fn trigger_distances_are_ground_metres_at_every_figure_scale() {
    // §17.1 is 750 m of ground whatever the figures: with 15 mm figures (2.4 mm a metre) the
    // cavalry 600 m off is 1440 mm away on the table, and still within it; 950 m is not.
    for (gap, verdict) in [(600.0, Some(Verdict::Yes)), (950.0, None)] {
        let square = square_order(gap, 2.4, json!({ "figure_scale": 15 }));
        assert_eq!(square.as_ref().map(|r| r.verdict()), verdict, "{gap} m");
        if let Some(r) = square {
            assert!(r.explanation.contains("750 m"), "{}", r.explanation);
        }
    }
}

#[test]
fn guns_approached_by_cavalry_test_and_within_200_m_may_stand() {
    // §20.2.3 and §26.
    let mut guns = battery();
    guns["front_center"] = json!([30.0, 10.0]);
    let scene = scene_in(
        "erules",
        vec![guns, cavalry_ahead(150.0, 1.0)],
        vec![],
        json!({}),
    );
    let report = rule(&scene);
    assert!(
        triggered(
            &report,
            "guns",
            "Reaction tests: artillery approached by cavalry"
        )
        .is_some()
    );
    let close =
        triggered(&report, "guns", "Artillery approached within 200 m").expect("within 200 m");
    assert_eq!(close.verdict(), Verdict::Yes);
    // Black Powder has no such triggers.
    let mut bp_guns = battery();
    bp_guns["weapon"] = json!("smoothbore-artillery");
    let mut horse = cavalry_ahead(150.0, 1.0);
    horse["weapon"] = json!("melee");
    let bp = scene_in("black-powder", vec![bp_guns, horse], vec![], json!({}));
    assert!(triggered(&rule(&bp), "guns", "Artillery approached").is_none());
}

#[test]
fn a_unit_that_marched_through_the_zone_suffers_for_the_share_of_the_bound_it_spent_there() {
    // §30, from its momentum (the last bound's move): the second battalion marched 300 m
    // westward to end on the line of fire.
    let mut crossing = foe("second", "red", 800.0, 0.0);
    crossing["momentum"] = json!({ "heading": 180.0, "distance": metres(300.0, 1.0) });
    let units = vec![battery(), foe("first", "red", 400.0, 0.0), crossing];
    let report = rule(&scene_in("erules", units, vec![], json!({})));
    let zone = beaten_zone(&report).expect("a beaten zone");
    let text = &zone.explanation;
    assert!(text.contains("§30"), "{text}");
    // Moving west along −x, it entered the strip (30 m either side of the line of fire) only
    // in the last 30 m of its 300: about a tenth of the bound.
    let share = text
        .split("there for ")
        .nth(1)
        .and_then(|rest| rest.split(" %").next())
        .and_then(|n| n.parse::<f64>().ok())
        .expect("a share of the bound");
    assert!((5.0..=15.0).contains(&share), "{share} % — {text}");
    // The first battalion did not move: it was there the whole bound, and no share is given.
    assert_eq!(text.matches("there for").count(), 1, "{text}");
}

/// Front-rank figures firing at close and long range.
fn firing(ruling: &rules::ruling::Ruling) -> (f64, f64) {
    (
        figure(ruling, "figures at close range"),
        figure(ruling, "figures at long range"),
    )
}

#[test]
fn a_battalions_front_rank_figures_fire_each_in_its_own_cone_and_band() {
    // §31b.1, §38, E-24: a 100 m front holds 20 figures of 5 m; all see a wide enemy 50 m
    // ahead in their 30° cones, whatever the figure scale (15 mm: 12 mm a figure, 2.4 mm a m).
    for (k, scale) in [(1.0, 6), (2.4, 15)] {
        let scene = scene_in(
            "erules",
            vec![battalion(k), enemy_ahead(50.0, k)],
            vec![],
            json!({ "figure_scale": scale }),
        );
        let report = rule(&scene);
        let ruling = ruling_on(&report, "ligne", Topic::Shooting, "foot");
        assert_eq!(firing(ruling), (20.0, 0.0), "{}", ruling.explanation);
        assert!(
            ruling
                .explanation
                .contains("Figures firing: 20 at short range, one roll per band"),
            "{}",
            ruling.explanation
        );
    }
    // 150 m ahead: all 20 at long range.
    let scene = scene_in(
        "erules",
        vec![battalion(1.0), enemy_ahead(150.0, 1.0)],
        vec![],
        json!({}),
    );
    assert_eq!(
        firing(ruling_on(&rule(&scene), "ligne", Topic::Shooting, "foot")),
        (0.0, 20.0)
    );
}

#[test]
fn figures_far_along_the_line_fire_long_or_not_at_all_at_a_target_off_to_one_side() {
    // An enemy 60 m ahead whose left end is level with the battalion's right end: the right
    // figures reach it within 75 m, those further left only beyond (its far corner), and the
    // left figures' cones miss it altogether.
    let mut off = enemy_ahead(60.0, 1.0);
    off["front_center"] = json!([30.0 + metres(100.0, 1.0), 10.0 + metres(60.0, 1.0)]);
    let report = rule(&scene_in(
        "erules",
        vec![battalion(1.0), off],
        vec![],
        json!({}),
    ));
    let ruling = ruling_on(&report, "ligne", Topic::Shooting, "foot");
    let (close, long) = firing(ruling);
    assert!(
        close > 0.0 && long > 0.0 && close + long < 20.0,
        "{}",
        ruling.explanation
    );
    assert!(
        ruling
            .explanation
            .contains("more have no part of it in their cone and range"),
        "{}",
        ruling.explanation
    );
}

#[test]
fn guns_count_ten_figures_each_for_canister_and_none_for_round_shot() {
    // §31b.2: a 60 m battery is three gun models of 20 m: 30 figures at canister range, 30 at
    // long canister (E-07), and no figures for round shot.
    for (gap, expected) in [
        (200.0, Some((30.0, 0.0))),
        (400.0, Some((0.0, 30.0))),
        (700.0, None),
    ] {
        let scene = scene_in(
            "erules",
            vec![battery(), foe("first", "red", gap, 0.0)],
            vec![],
            json!({}),
        );
        let report = rule(&scene);
        let ruling = ruling_on(&report, "guns", Topic::Shooting, "first");
        let counted = ruling
            .figures
            .iter()
            .any(|f| f.name == "figures at close range")
            .then(|| firing(ruling));
        assert_eq!(counted, expected, "{gap} m: {}", ruling.explanation);
    }
}

/// A line 120 m wide (24 figures of 5 m at 6 mm) at (30, 10) facing north, with `figures` left.
fn line_of_24(figures: Option<u32>) -> Value {
    let mut line = block(
        "ligne",
        "blue",
        [30.0, 10.0],
        90.0,
        [metres(120.0, 1.0), metres(15.0, 1.0)],
    );
    if let Some(figures) = figures {
        line["figures"] = json!(figures);
    }
    line
}

#[test]
fn a_line_that_has_lost_figures_fires_only_those_it_has_left() {
    // §31b.1, §38, E-24: a 120 m front holds 24 figures, all in their cones of a wide enemy 50 m
    // ahead. One rank of 24 that has lost 6 has 18 left: 18 fire. Two ranks of 24 that have lost
    // 6 have 42 left: the rear rank closes up, and the front still fires 24.
    let mut wide = enemy_ahead(50.0, 1.0);
    wide["width"] = json!(metres(160.0, 1.0));
    for (left, fire, says) in [
        (
            None,
            24.0,
            "as many figures as its frontage holds (E-24, §38; fewer if it has lost figures)",
        ),
        (
            Some(18),
            18.0,
            "its front rank fires the 18 figures it has left, fewer than the 24 its frontage holds, spread along its front (E-24, §38)",
        ),
        (
            Some(42),
            24.0,
            "as many figures as its frontage holds (E-24, §38): it has 42 figures left, enough to fill it",
        ),
    ] {
        let scene = scene_in(
            "erules",
            vec![line_of_24(left), wide.clone()],
            vec![],
            json!({}),
        );
        let report = rule(&scene);
        let ruling = ruling_on(&report, "ligne", Topic::Shooting, "foot");
        assert_eq!(
            firing(ruling),
            (fire, 0.0),
            "{left:?}: {}",
            ruling.explanation
        );
        assert!(ruling.explanation.contains(says), "{}", ruling.explanation);
    }
}

#[test]
fn the_figures_left_stand_spread_along_the_front_or_closed_on_its_centre() {
    // The digest does not say which front-rank figures a unit loses. A line of 24 with 12 left
    // fires at a narrow enemy 60 m ahead, 15 m beyond its right end: spread along the front (the
    // profile's reading, as a less densely based unit's figures), figures stand near that end
    // and reach it; closed on the centre (`figures-left = "centre"`), fewer do.
    let mut narrow = enemy_ahead(60.0, 1.0);
    narrow["front_center"] = json!([30.0 + metres(75.0, 1.0), 10.0 + metres(60.0, 1.0)]);
    narrow["width"] = json!(metres(10.0, 1.0));
    let scene = scene_in(
        "erules",
        vec![line_of_24(Some(12)), narrow],
        vec![],
        json!({}),
    );
    let count = |report: &rules::rulings::Rulings| {
        let (close, long) = firing(ruling_on(report, "ligne", Topic::Shooting, "foot"));
        close + long
    };
    let spread = rule(&scene);
    let closed_text = Profile::builtin_text(RulesetId::Erules)
        .replace("figures-left = \"spread\"", "figures-left = \"centre\"");
    let closed_profile = Profile::from_toml(&closed_text).expect("a valid profile");
    let closed = rules::rulings::rulings_with(&scene, &scene.scaled(&closed_profile));
    let ruling = ruling_on(&closed, "ligne", Topic::Shooting, "foot");
    assert!(
        count(&closed) > 0.0 && count(&closed) < count(&spread),
        "spread {}; closed {}",
        ruling_on(&spread, "ligne", Topic::Shooting, "foot").explanation,
        ruling.explanation
    );
    assert!(
        ruling
            .explanation
            .contains("closed on the centre of its front"),
        "{}",
        ruling.explanation
    );
}

#[test]
fn a_batterys_crew_losses_leave_its_canister_figures_as_they_were() {
    // §31b.2: a gun model counts 10 figures for canister; its crew's losses (the battery's
    // `figures`) do not change that.
    let mut guns = battery();
    guns["figures"] = json!(5);
    let scene = scene_in(
        "erules",
        vec![guns, foe("first", "red", 200.0, 0.0)],
        vec![],
        json!({}),
    );
    let report = rule(&scene);
    let ruling = ruling_on(&report, "guns", Topic::Shooting, "first");
    assert_eq!(firing(ruling), (30.0, 0.0), "{}", ruling.explanation);
    assert!(
        ruling
            .explanation
            .contains("its crew's losses do not change that"),
        "{}",
        ruling.explanation
    );
}

/// A charger of `kind` at (30, 10) facing north, and a battalion 2" ahead, in `terrain`.
fn charge_into(kind: &str, enemy_formation: &str, terrain: Vec<Value>) -> Option<String> {
    let mut charger = block("charger", "blue", [30.0, 10.0], 90.0, [3.0, 1.0]);
    charger["kind"] = json!(kind);
    let mut enemy = block("foe", "red", [30.0, 12.0], 270.0, [3.0, 1.0]);
    enemy["formation"] = json!(enemy_formation);
    let report = rule(&scene_in(
        "erules",
        vec![charger, enemy],
        vec![],
        json!({ "terrain": terrain }),
    ));
    common::charge(&report, "charger", "foe")
        .expect("a charge")
        .reason
        .clone()
}

#[test]
fn horse_may_not_charge_into_a_wood_and_foot_may() {
    // §35.3: "Horse may not charge in category 1 or category 6 terrain" (woods, bogs, marsh,
    // rocks, steep slopes) — eRules's own rule, not Black Powder's skirmishers-only woods.
    let wood = json!({ "id": "copse", "kind": "wood",
        "polygon": [[26.0, 11.6], [34.0, 11.6], [34.0, 16.0], [26.0, 16.0]] });
    assert_eq!(
        charge_into("cavalry", "line", vec![wood.clone()]).as_deref(),
        Some("it may not charge into copse")
    );
    assert_eq!(charge_into("infantry", "line", vec![wood]), None);
}

#[test]
fn cavalry_may_assault_a_building_as_footnote_23_has_them_try() {
    // fn23: "Cavalry trying to enter buildings … are not counted" in the melee — they may try,
    // unlike Black Powder's "only infantry may enter or assault".
    let house = json!({ "id": "house", "kind": "building",
        "polygon": [[28.0, 11.9], [32.0, 11.9], [32.0, 14.0], [28.0, 14.0]] });
    assert_eq!(charge_into("cavalry", "line", vec![house]), None);
}

#[test]
fn cavalry_hidden_behind_a_wood_or_locked_in_melee_does_not_make_infantry_form_square() {
    // §17.1: regular infantry that *sights* formed enemy cavalry, *not in melee*, within its
    // charge distance forms square. Hussars 600 m ahead: square; behind a wood across the
    // whole line of sight, or fighting a friendly battalion, not.
    let wood = json!({ "id": "wood", "kind": "wood", "polygon": [
        [0.0, 10.0 + metres(200.0, 1.0)], [60.0, 10.0 + metres(200.0, 1.0)],
        [60.0, 10.0 + metres(400.0, 1.0)], [0.0, 10.0 + metres(400.0, 1.0)]] });
    assert_eq!(
        square_order(600.0, 1.0, json!({})).map(|r| r.verdict()),
        Some(Verdict::Yes)
    );
    assert_eq!(
        square_order(600.0, 1.0, json!({ "terrain": [wood] })).map(|r| r.verdict()),
        None,
        "hidden behind the wood"
    );
    let mut hussars = cavalry_ahead(600.0, 1.0);
    hussars["engaged"] = json!(true);
    let scene = scene_in("erules", vec![battalion(1.0), hussars], vec![], json!({}));
    let report = rule(&scene);
    assert!(
        triggered(
            &report,
            "ligne",
            "Standing orders: infantry sighting cavalry"
        )
        .is_none(),
        "{}",
        text_of(&report, "ligne")
    );
}

#[test]
fn a_battery_does_not_fire_over_its_own_troops_at_a_target_on_a_hill() {
    // fn15: "a straight line from barrel to target, which must not pass through any
    // intervening troops" — not Black Powder's fire over heads at a target on higher ground.
    let hill = json!({ "id": "ridge", "kind": "hill", "height": 1, "polygon": [
        [0.0, 2.0 + metres(650.0, 1.0)], [60.0, 2.0 + metres(650.0, 1.0)],
        [60.0, 2.0 + metres(800.0, 1.0)], [0.0, 2.0 + metres(800.0, 1.0)]] });
    let scene = scene_in(
        "erules",
        vec![
            battery(),
            foe("friends", "blue", 300.0, 0.0),
            foe("first", "red", 700.0, 0.0),
        ],
        vec![],
        json!({ "terrain": [hill] }),
    );
    let report = rule(&scene);
    let text = text_of(&report, "guns");
    assert!(
        of(&report, "guns")
            .shooting
            .targets
            .iter()
            .all(|t| t.id != "first"),
        "{text}"
    );
    assert!(
        text.contains("cannot be seen: blocked by friends"),
        "{text}"
    );
}

#[test]
fn cavalry_may_charge_a_steady_square() {
    // §18.3: infantry in square is the last of cavalry's charge priorities, not a halt.
    assert_eq!(charge_into("cavalry", "square", vec![]), None);
}

#[test]
fn foot_moves_through_a_built_up_area_at_half_pace() {
    // Category 7 (built-up areas): ÷2 for foot.
    let town = json!({ "id": "town", "kind": "building",
        "polygon": [[20.0, 11.0], [40.0, 11.0], [40.0, 13.0], [20.0, 13.0]] });
    let foot = |y: f64| block("ligne", "blue", [30.0, y], 90.0, [2.0, 0.5]);
    let before = scene_in(
        "erules",
        vec![foot(10.0)],
        vec![],
        json!({ "terrain": [town.clone()] }),
    );
    let after = scene_in(
        "erules",
        vec![foot(14.0)],
        vec![],
        json!({ "terrain": [town] }),
    );
    let (checks, _) = check_moves(&before, &after, Profile::builtin(RulesetId::Erules));
    // 4" moved, 2" of it inside the town at ×2, and 25 m (0.98") for entering it: 6.98".
    assert!(
        (checks[0].cost.0 - 6.98).abs() < 0.02,
        "{:?}",
        checks[0].cost
    );
}
