//! Error bars (issue 35): a length the camera measured is borderline when its threshold lies
//! inside its 95 % interval, and decided when it is well clear, however near; a scene no
//! camera measured reads as it always has.

mod common;

use common::{decision, rule, ruling_on};
use rules::Scene;
use rules::ruling::{Decision, Topic};
use rules::scene::Format;
use serde_json::{Value, json};

/// A line of two 4.7" stands facing `facing`, its front edge's middle at `front`, each stand
/// placed by the camera with `sd` inches either way (none: drawn by hand).
fn line(id: &str, side: &str, front: [f64; 2], facing: f64, sd: Option<f64>) -> Value {
    let ahead = facing.to_radians();
    let (fx, fy) = (ahead.cos(), ahead.sin());
    let (rx, ry) = (fy, -fx);
    let stands: Vec<Value> = [-2.35, 2.35]
        .iter()
        .map(|across| {
            let centre = [
                front[0] + rx * across - fx * 0.8,
                front[1] + ry * across - fy * 0.8,
            ];
            let mut stand =
                json!({ "center": centre, "facing": facing, "width": 4.7, "depth": 1.6 });
            if let Some(sd) = sd {
                stand["sd"] = json!({ "x": sd, "y": sd, "facing": 0.1 });
            }
            stand
        })
        .collect();
    json!({ "id": id, "side": side, "kind": "infantry", "formation": "line",
            "weapon": "smoothbore-musket", "stands": stands })
}

/// The 45th and the 3e facing each other, their fronts `gap` apart, seen with `sd`.
fn facing_lines(gap: f64, sd: Option<f64>) -> Scene {
    let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
        "units": [
            line("45th", "red", [30.0, 12.0], 90.0, sd),
            line("3e", "blue", [30.0, 12.0 + gap], 270.0, sd),
        ] });
    Scene::parse(&doc.to_string(), Format::Json, "seen.json").expect("scene")
}

fn shooting_decision(scene: &Scene, profile: Option<&rules::Profile>) -> (Decision, String) {
    let report = match profile {
        Some(profile) => rules::rulings::rulings_with(scene, profile),
        None => rule(scene),
    };
    let ruling = ruling_on(&report, "45th", Topic::Shooting, "3e").clone();
    (ruling.decision, ruling.explanation)
}

#[test]
fn a_range_the_camera_measures_tightly_is_decided_near_its_limit() {
    // Muskets reach 18". At 17.8" a hand-made scene is borderline (within the 0.5" tolerance);
    // seen by a camera to ±0.03" it is decided: the camera can tell.
    let (by_hand, words) = shooting_decision(&facing_lines(17.8, None), None);
    assert_eq!(by_hand, Decision::Borderline, "{words}");
    let (tight, words) = shooting_decision(&facing_lines(17.8, Some(0.01)), None);
    assert_eq!(tight, Decision::Must, "{words}");
    assert!(words.contains("17.80\" ± 0.03\""), "{words}");
}

#[test]
fn a_range_whose_interval_holds_the_limit_is_borderline_and_says_why() {
    // Each end ±0.15" (1 σ): the range's 95 % interval is about ±0.42", holding the 18" limit.
    let (wide, words) = shooting_decision(&facing_lines(17.8, Some(0.15)), None);
    assert_eq!(wide, Decision::Borderline, "{words}");
    assert!(words.contains("the camera cannot tell within"), "{words}");
    // Well inside range, the same camera decides.
    let (clear, words) = shooting_decision(&facing_lines(12.0, Some(0.15)), None);
    assert_eq!(clear, Decision::Must, "{words}");
}

#[test]
fn the_tape_measures_habits_may_be_kept_on_a_measured_table() {
    let text = rules::Profile::builtin_text(rules::RulesetId::BlackPowder)
        .replace("angle = 3.0\n", "angle = 3.0\nmeasured = \"either\"\n");
    let profile = rules::Profile::from_toml(&text).expect("profile");
    let (either, words) = shooting_decision(&facing_lines(17.8, Some(0.01)), Some(&profile));
    assert_eq!(either, Decision::Borderline, "{words}");
}

#[test]
fn the_range_figure_carries_its_error_bar_only_when_measured() {
    let figure = |scene: &Scene| {
        let report = rule(scene);
        let ruling = ruling_on(&report, "45th", Topic::Shooting, "3e").clone();
        ruling
            .figures
            .iter()
            .find(|f| f.name == "range")
            .expect("range figure")
            .plus_minus
    };
    assert_eq!(figure(&facing_lines(10.0, None)), None);
    // The tape drawn on the video and the plan says it too.
    let report = rule(&facing_lines(10.0, Some(0.01)));
    let labels: Vec<String> = ruling_on(&report, "45th", Topic::Shooting, "3e")
        .shapes
        .iter()
        .filter_map(|shape| match shape {
            rules::ruling::Shape::Segment { label, .. } => Some(label.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(labels, vec!["10.00\" ± 0.03\"".to_owned()]);
    let within = figure(&facing_lines(10.0, Some(0.01))).expect("an error bar");
    // Two ends of 0.01" each along the line, and the facing's swing at the stands' edges.
    assert!((0.027..0.035).contains(&within), "{within}");
    assert_eq!(
        decision(
            &rule(&facing_lines(10.0, Some(0.01))),
            "45th",
            Topic::Shooting,
            "3e"
        ),
        Some(Decision::Must)
    );
}

#[test]
fn a_charge_the_camera_measures_is_borderline_only_when_it_cannot_tell() {
    // Foot move 12": at 11.8" a hand-made charge is within tolerance of the move.
    let charge = |sd: Option<f64>| {
        let report = rule(&facing_lines(11.8, sd));
        let ruling = ruling_on(&report, "45th", Topic::Charge, "3e").clone();
        (ruling.decision, ruling.explanation)
    };
    let (by_hand, words) = charge(None);
    assert_eq!(by_hand, Decision::Borderline, "{words}");
    let (tight, words) = charge(Some(0.01));
    assert_eq!(tight, Decision::May, "{words}");
    assert!(words.contains("11.80\" ± 0.03\""), "{words}");
    let (wide, words) = charge(Some(0.15));
    assert_eq!(wide, Decision::Borderline, "{words}");
    assert!(words.contains("The camera cannot tell within"), "{words}");
}

#[test]
fn the_twelve_inch_rule_measured_by_the_camera_is_decided_when_it_can_tell() {
    let proximity = |gap: f64, sd: Option<f64>| {
        let report = rule(&facing_lines(gap, sd));
        let ruling = ruling_on(&report, "45th", Topic::Proximity, "3e").clone();
        (ruling.decision, ruling.explanation)
    };
    let (by_hand, words) = proximity(12.3, None);
    assert_eq!(by_hand, Decision::Borderline, "{words}");
    let (tight, words) = proximity(12.3, Some(0.01));
    assert_eq!(tight, Decision::No, "{words}");
    assert!(words.contains("12.30\" ± 0.03\""), "{words}");
    let (wide, words) = proximity(12.3, Some(0.2));
    assert_eq!(wide, Decision::Borderline, "{words}");
    assert!(words.contains("The camera cannot tell within"), "{words}");
}

#[test]
fn a_command_distance_the_camera_measured_is_decided_off_its_step() {
    // The 45th is 24.2" from its brigadier: by hand within 0.5" of the 24" step, borderline;
    // measured to ±0.03", a −2 penalty.
    let distance = |sd: Option<f64>| {
        let mut unit = line("45th", "red", [30.0, 12.0], 90.0, sd);
        unit["brigade"] = json!("picton");
        let mut brigadier = json!({ "id": "picton", "side": "red", "brigade": "picton",
            "position": [30.0, 12.0 - 1.6 - 24.2] });
        if let Some(sd) = sd {
            brigadier["sd"] = json!({ "x": sd, "y": sd, "facing": 0.1 });
        }
        let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
            "units": [unit, line("3e", "blue", [30.0, 40.0], 270.0, sd)],
            "commanders": [brigadier] });
        let scene = Scene::parse(&doc.to_string(), Format::Json, "seen.json").expect("scene");
        let ruling = ruling_on(&rule(&scene), "45th", Topic::Command, "picton").clone();
        (ruling.decision, ruling.explanation)
    };
    let (by_hand, words) = distance(None);
    assert_eq!(by_hand, Decision::Borderline, "{words}");
    let (tight, words) = distance(Some(0.01));
    assert_eq!(tight, Decision::Penalty, "{words}");
    assert!(words.contains("24.20\" ± 0.03\""), "{words}");
    let (wide, words) = distance(Some(0.2));
    assert_eq!(wide, Decision::Borderline, "{words}");
    assert!(words.contains("the camera cannot tell within"), "{words}");
}

#[test]
fn the_face_a_charge_strikes_is_decided_when_the_camera_can_tell() {
    // The 3e faces south, its front corners at x 25.3 and 34.7; the ray from its eastern front
    // corner runs south-east. The 45th's leader stands 0.3" off that ray: within Black Powder's
    // 0.5" by hand, so which face it strikes is borderline; measured to a few hundredths it is
    // not.
    let off_ray = 0.3 / 2f64.sqrt();
    let leader = [34.7 + 5.0 + off_ray, 25.0 + off_ray];
    let charge = |sd: Option<f64>| {
        let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
            "units": [
                line("45th", "red", leader, 150.0, sd),
                line("3e", "blue", [30.0, 30.0], 270.0, sd),
            ] });
        let scene = Scene::parse(&doc.to_string(), Format::Json, "seen.json").expect("scene");
        let ruling = ruling_on(&rule(&scene), "45th", Topic::Charge, "3e").clone();
        (ruling.decision, ruling.explanation)
    };
    let (by_hand, words) = charge(None);
    assert_eq!(by_hand, Decision::Borderline, "{words}");
    assert!(words.contains("Which face is borderline"), "{words}");
    let (tight, words) = charge(Some(0.01));
    assert_eq!(tight, Decision::May, "{words}");
    let (wide, words) = charge(Some(0.25));
    assert_eq!(wide, Decision::Borderline, "{words}");
}

#[test]
fn the_share_of_a_target_in_the_arc_carries_its_error_bar() {
    // The 3e straddles the ray bounding the 45th's arc on its right, about half in the arc.
    let share = |front: [f64; 2], sd: Option<f64>| {
        let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
            "units": [
                line("45th", "red", [30.0, 12.0], 90.0, sd),
                line("3e", "blue", front, 270.0, sd),
            ] });
        let scene = Scene::parse(&doc.to_string(), Format::Json, "seen.json").expect("scene");
        let ruling = ruling_on(&rule(&scene), "45th", Topic::Shooting, "3e").clone();
        let figure = ruling
            .figures
            .iter()
            .find(|f| f.name == "in arc")
            .expect("the share in the arc")
            .clone();
        (figure.value, figure.plus_minus)
    };
    let (half, by_hand) = share([42.7, 20.0], None);
    assert!((0.3..0.7).contains(&half), "{half}");
    assert_eq!(by_hand, None);
    let (_, straddling) = share([42.7, 20.0], Some(0.02));
    let straddling = straddling.expect("an error bar");
    assert!((0.005..0.05).contains(&straddling), "{straddling}");
    // Squarely in front, the camera's few hundredths change nothing of its share.
    let (whole, inside) = share([30.0, 22.0], Some(0.02));
    assert_eq!((whole, inside), (1.0, Some(0.0)));
}

#[test]
fn a_guns_half_range_choice_is_decided_by_the_error_bar() {
    // A gun's half range is 24"; the closest line 23.8" off: by the tape's 0.5" tolerance the
    // gun's choice is open (the farther line borderline), but a camera sure to ±0.03" can tell
    // that the closest is within half range, which the gun must then shoot.
    let gun_and_lines = |sd: Option<f64>| {
        let mut gun = json!({ "center": [30.0, 1.25], "facing": 90.0, "width": 1.6, "depth": 1.5 });
        if let Some(sd) = sd {
            gun["sd"] = json!({ "x": sd, "y": sd, "facing": 0.1 });
        }
        let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
            "units": [
                { "id": "gun", "side": "red", "kind": "artillery", "formation": "deployed",
                  "weapon": "smoothbore-artillery", "stands": [gun] },
                line("near", "blue", [30.0, 25.8], 270.0, sd),
                line("far", "blue", [46.0, 31.0], 270.0, sd),
            ] });
        rule(&Scene::parse(&doc.to_string(), Format::Json, "seen.json").expect("scene"))
    };
    let by_hand = gun_and_lines(None);
    assert_eq!(
        decision(&by_hand, "gun", Topic::Shooting, "far"),
        Some(Decision::Borderline)
    );
    let tight = gun_and_lines(Some(0.01));
    assert_eq!(
        decision(&tight, "gun", Topic::Shooting, "near"),
        Some(Decision::Must)
    );
    assert_eq!(
        decision(&tight, "gun", Topic::Shooting, "far"),
        Some(Decision::Cannot)
    );
    // Seen to ±0.4", the camera cannot tell: the farther line is borderline, and says why.
    let wide = gun_and_lines(Some(0.15));
    let far = ruling_on(&wide, "gun", Topic::Shooting, "far");
    assert_eq!(far.decision, Decision::Borderline, "{}", far.explanation);
    assert!(
        far.explanation
            .contains("too near to tell from half the gun's range")
            && far.explanation.contains(" ± "),
        "{}",
        far.explanation
    );
}

#[test]
fn a_support_the_camera_measured_is_decided_off_its_reach() {
    // The 45th fights the 3e; the 52nd stands 6.3" behind it, 0.3" beyond the 6" reach: by the
    // tape's 0.5" tolerance the players decide, a camera sure to ±0.03" can tell it is beyond.
    let fight = |sd: Option<f64>| {
        let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
            "units": [
                line("45th", "red", [30.0, 12.0], 90.0, sd),
                line("3e", "blue", [30.0, 12.0], 270.0, sd),
                line("52nd", "red", [30.0, 4.1], 90.0, sd),
            ] });
        rule(&Scene::parse(&doc.to_string(), Format::Json, "seen.json").expect("scene"))
    };
    let bonus = |report: &rules::rulings::Rulings| {
        let own = common::of(report, "45th")
            .rulings
            .iter()
            .find(|r| r.topic == Topic::Support && r.other.is_none())
            .expect("its own support ruling");
        (own.decision, own.explanation.clone())
    };
    let (by_hand, words) = bonus(&fight(None));
    assert_eq!(by_hand, Decision::Borderline, "{words}");
    let (tight, words) = bonus(&fight(Some(0.01)));
    assert_eq!(tight, Decision::No, "{words}");
    let wide = fight(Some(0.15));
    let (unsure, words) = bonus(&wide);
    assert_eq!(unsure, Decision::Borderline, "{words}");
    let supporter = ruling_on(&wide, "52nd", Topic::Support, "45th");
    assert!(
        supporter.explanation.contains(" ± ")
            && supporter
                .explanation
                .contains("The camera cannot tell within"),
        "{}",
        supporter.explanation
    );
}

/// The table's general ruling on `topic`, if any.
fn general(scene: &Scene, topic: Topic) -> Option<rules::ruling::Ruling> {
    rule(scene).general.into_iter().find(|r| r.topic == topic)
}

#[test]
fn a_contact_the_camera_measured_is_borderline_only_when_it_cannot_tell() {
    // The 3e's front 0.3" from the 45th's: by hand, within the 0.5" tolerance of touching,
    // borderline; measured to ±0.03", plainly apart (no contact at all); measured to ±0.55",
    // the camera cannot tell.
    let contact = |gap: f64, sd: Option<f64>| general(&facing_lines(gap, sd), Topic::Contact);
    let by_hand = contact(0.3, None).expect("a contact by hand");
    assert_eq!(by_hand.decision, Decision::Borderline);
    assert!(by_hand.figures[0].plus_minus.is_none());
    assert_eq!(contact(0.3, Some(0.01)), None);
    let wide = contact(0.3, Some(0.2)).expect("a contact in doubt");
    assert_eq!(wide.decision, Decision::Borderline, "{}", wide.explanation);
    assert!(
        wide.explanation.contains("the camera cannot tell within"),
        "{}",
        wide.explanation
    );
    // Flush, seen tightly: in contact, with the gap's error bar; the same by hand, as always.
    let flush = contact(0.0, Some(0.01)).expect("a contact");
    assert_eq!(flush.decision, Decision::Yes, "{}", flush.explanation);
    assert!(
        flush.explanation.contains("in contact (0.00\" ± 0.0"),
        "{}",
        flush.explanation
    );
    assert!(flush.figures[0].plus_minus.is_some());
    assert_eq!(contact(0.0, None).map(|c| c.decision), Some(Decision::Yes));
}

/// The 45th moved `by` inches straight ahead between two scenes seen with `sd`.
fn moved_ahead(by: f64, sd: Option<f64>) -> rules::movement::MoveCheck {
    let table = |y: f64| {
        let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
            "units": [
                line("45th", "red", [30.0, y], 90.0, sd),
                line("3e", "blue", [30.0, 46.0], 270.0, sd),
            ] });
        Scene::parse(&doc.to_string(), Format::Json, "seen.json").expect("scene")
    };
    let profile = rules::Profile::builtin(rules::RulesetId::BlackPowder);
    let (checks, _) = rules::movement::check_moves(&table(4.0), &table(4.0 + by), profile);
    checks
        .into_iter()
        .find(|c| c.unit == "45th")
        .expect("the 45th's move")
}

#[test]
fn a_move_the_camera_measured_is_counted_off_its_error_bar() {
    // 12.3" against a 12" move: by hand within the 0.5" tolerance of one move, borderline;
    // measured to ±0.03", two moves, decided; measured to ±0.55", the camera cannot tell.
    let by_hand = moved_ahead(12.3, None);
    assert_eq!(
        (by_hand.moves, by_hand.rulings[0].decision),
        (1, Decision::Borderline)
    );
    let tight = moved_ahead(12.3, Some(0.01));
    let words = &tight.rulings[0].explanation;
    assert_eq!(
        (tight.moves, tight.rulings[0].decision),
        (2, Decision::May),
        "{words}"
    );
    assert!(words.contains("moved 12.30\" ± 0.03\""), "{words}");
    let wide = moved_ahead(12.3, Some(0.2));
    let words = &wide.rulings[0].explanation;
    assert_eq!(
        (wide.moves, wide.rulings[0].decision),
        (1, Decision::Borderline),
        "{words}"
    );
    assert!(words.contains("the camera cannot tell within"), "{words}");
}

/// Two units of Picton's brigade side by side, `gap` apart, seen with `sd`.
fn brigade_apart(gap: f64, sd: Option<f64>) -> Scene {
    let mut left = line("45th", "red", [30.0, 12.0], 90.0, sd);
    let mut right = line("2nd", "red", [30.0 + 9.4 + gap, 12.0], 90.0, sd);
    left["brigade"] = json!("picton");
    right["brigade"] = json!("picton");
    let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
        "units": [left, right, line("3e", "blue", [30.0, 44.0], 270.0, sd)] });
    Scene::parse(&doc.to_string(), Format::Json, "seen.json").expect("scene")
}

fn cohesion(scene: &Scene) -> rules::ruling::Ruling {
    general(scene, Topic::Command).expect("a cohesion ruling")
}

#[test]
fn a_brigades_cohesion_the_camera_measured_is_decided_off_its_reach() {
    // 6.2" apart: by hand within tolerance of the 6" reach, borderline; measured to ±0.03", cut
    // off, decided.
    assert_eq!(
        cohesion(&brigade_apart(6.2, None)).decision,
        Decision::Borderline
    );
    let tight = cohesion(&brigade_apart(6.2, Some(0.01)));
    assert_eq!(tight.decision, Decision::No, "{}", tight.explanation);
    assert!(
        tight.explanation.contains("6.20\" ± 0.03\""),
        "{}",
        tight.explanation
    );
    // 5.98" apart: together by hand, as always; measured to ±0.03" the camera cannot tell the
    // gap from the reach, so the players decide; well inside it, decided.
    assert_eq!(cohesion(&brigade_apart(5.98, None)).decision, Decision::Yes);
    let held = cohesion(&brigade_apart(5.98, Some(0.01)));
    assert_eq!(held.decision, Decision::Borderline, "{}", held.explanation);
    assert!(
        held.explanation
            .contains("The camera cannot tell within 0.03\""),
        "{}",
        held.explanation
    );
    assert_eq!(
        cohesion(&brigade_apart(5.0, Some(0.01))).decision,
        Decision::Yes
    );
}

#[test]
fn a_brigade_move_the_camera_measured_is_decided_off_its_reach() {
    // The 2nd steps 0.5" further away, ending 6.2" from the 45th: by hand within tolerance of
    // the reach (borderline); measured to ±0.03", the move plainly breaks the brigade.
    let profile = rules::Profile::builtin(rules::RulesetId::BlackPowder);
    let ruling = |sd: Option<f64>| {
        rules::movement::check_brigades(&brigade_apart(5.7, sd), &brigade_apart(6.2, sd), profile)
            .into_iter()
            .next()
            .expect("a brigade ruling")
    };
    assert_eq!(ruling(None).decision, Decision::Borderline);
    let tight = ruling(Some(0.01));
    assert_eq!(tight.decision, Decision::No, "{}", tight.explanation);
    let wide = ruling(Some(0.2));
    assert_eq!(wide.decision, Decision::Borderline, "{}", wide.explanation);
    assert!(
        wide.explanation.contains("the camera cannot tell within"),
        "{}",
        wide.explanation
    );
}

#[test]
fn a_share_the_camera_cannot_tell_from_half_in_the_arc_is_borderline() {
    // The 3e straddles the 45th's arc, about 57 % in it: clear by hand, and clear seen to
    // ±0.01" (1 σ); seen to ±0.3" the share's interval holds one half, and half in the arc decides
    // whether it is a clear target (A7).
    let shot = |sd: Option<f64>| {
        let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
            "units": [
                line("45th", "red", [30.0, 12.0], 90.0, sd),
                line("3e", "blue", [42.8, 20.0], 270.0, sd),
            ] });
        let scene = Scene::parse(&doc.to_string(), Format::Json, "seen.json").expect("scene");
        ruling_on(&rule(&scene), "45th", Topic::Shooting, "3e").clone()
    };
    let by_hand = shot(None);
    let share = |ruling: &rules::ruling::Ruling| {
        let figure = ruling.figures.iter().find(|f| f.name == "in arc");
        figure.map(|f| (f.value, f.plus_minus)).expect("the share")
    };
    assert!(
        (0.52..0.62).contains(&share(&by_hand).0),
        "{:?}",
        share(&by_hand)
    );
    assert_eq!(by_hand.decision, Decision::Must, "{}", by_hand.explanation);
    let tight = shot(Some(0.01));
    assert_eq!(tight.decision, Decision::Must, "{}", tight.explanation);
    let wide = shot(Some(0.3));
    let (value, within) = share(&wide);
    assert!(
        within.is_some_and(|w| (value - 0.5).abs() <= w),
        "{value} ± {within:?}"
    );
    assert_eq!(wide.decision, Decision::Borderline, "{}", wide.explanation);
    assert!(
        wide.explanation
            .contains("the camera cannot tell whether half is"),
        "{}",
        wide.explanation
    );
}
