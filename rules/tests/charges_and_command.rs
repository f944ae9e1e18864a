//! Charges, contact, supports, command and movement (digest §4, §5, §7; A15–A23, A27).

mod common;

use common::{assert_says, line, of, rule, scene, scene_with, text_of, unit};
use rules::movement::check_moves;
use rules::quarter::Quarter;
use rules::ruling::{Decision, Topic, Verdict};
use serde_json::json;

fn charge_of<'r>(
    report: &'r rules::rulings::Rulings,
    from: &str,
    to: &str,
) -> &'r rules::charge::ChargeAssessment {
    common::charge(report, from, to).unwrap_or_else(|| panic!("no charge {from} → {to}"))
}

fn hussars(id: &str, side: &str, front: [f64; 2], facing: f64) -> serde_json::Value {
    unit(
        json!({ "id": id, "side": side, "kind": "cavalry", "front_center": front, "facing": facing,
        "width": 5.9, "depth": 3.9, "weapon": "sabres" }),
    )
}

#[test]
fn a_flank_charge_from_a_unit_that_started_in_the_flank_quarter() {
    // A21: the hussars' leader is in the 45th's left quarter, so they hit its left flank, and
    // the 45th cannot give closing fire (only when charged to its front, A26).
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        hussars("hussars", "blue", [16.0, 11.0], 0.0),
    ]));
    let charge = charge_of(&report, "hussars", "45th");
    assert!(charge.reachable);
    assert_eq!(charge.face, Quarter::LeftFlank);
    assert!(!charge.closing_fire);
    assert!(text_of(&report, "hussars").contains("can charge 45th in its left flank"));
}

#[test]
fn a_frontal_charge_draws_closing_fire() {
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 20.0], 270.0),
    ]));
    let charge = charge_of(&report, "3e", "45th");
    assert!(charge.reachable && charge.face == Quarter::Front && charge.closing_fire);
    assert!((charge.cost.0 - 8.0).abs() < 1e-6);
}

#[test]
fn skirmishers_and_warbands_give_no_closing_fire() {
    // §6.10: "Warbands, skirmishers and march columns cannot" — charged to their front by a
    // line, the line's charge is offered with no closing fire against them.
    for formation in ["skirmish", "warband"] {
        let mut charged = line("3e", "blue", [30.0, 20.0], 270.0);
        charged["formation"] = json!(formation);
        charged["width"] = json!(if formation == "warband" { 6.0 } else { 9.4 });
        charged["depth"] = json!(if formation == "warband" { 4.0 } else { 1.6 });
        let report = rule(&scene(vec![
            line("45th", "red", [30.0, 12.0], 90.0),
            charged,
        ]));
        let charge = charge_of(&report, "45th", "3e");
        assert!(
            charge.face == Quarter::Front && !charge.closing_fire,
            "{formation}: {charge:?}"
        );
        assert!(
            !text_of(&report, "45th").contains("closing fire"),
            "{formation}: {}",
            text_of(&report, "45th")
        );
    }
}

#[test]
fn form_square_infantry_charged_by_cavalry_to_its_front_tries_to_form_square_instead_of_firing() {
    // §9.1: a unit with the Form Square rule, charged to its front by cavalry, must try to form
    // square and gives no closing fire; charged by infantry it fires as ever.
    let mut line_45th = line("45th", "red", [30.0, 12.0], 90.0);
    line_45th["stats"] = json!({ "type": "Infantry", "armament": "Muskets", "hand_to_hand": 6,
        "shooting": 3, "morale": "4+", "stamina": 3, "special": ["Form Square"] });
    let report = rule(&scene(vec![
        line_45th,
        hussars("hussars", "blue", [30.0, 22.0], 270.0),
        line("3e", "blue", [42.0, 20.0], 270.0),
    ]));
    let by_cavalry = charge_of(&report, "hussars", "45th");
    assert!(by_cavalry.reachable && by_cavalry.forms_square && !by_cavalry.closing_fire);
    let text = text_of(&report, "hussars");
    assert!(
        text.contains("45th must try to form square") && !text.contains("closing fire."),
        "{text}"
    );
    let by_infantry = charge_of(&report, "3e", "45th");
    assert!(
        by_infantry.closing_fire && !by_infantry.forms_square,
        "{by_infantry:?}"
    );
}

#[test]
fn a_charge_beyond_one_move_does_not_reach_and_one_just_short_is_borderline() {
    let far = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 24.3], 270.0),
    ]));
    let charge = charge_of(&far, "3e", "45th");
    assert!(!charge.reachable, "12.3\" is more than a 12\" move");
    assert!(charge.borderline, "but within 0.5\": players decide");
}

#[test]
fn a_borderline_face_asks_for_the_books_die_roll() {
    // The charger's leader is on the 45th's front-left ray.
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [20.3, 17.0], 315.0),
    ]));
    let charge = charge_of(&report, "3e", "45th");
    assert!(charge.face_borderline);
    assert_says(&report, "3e", "roll a D6, 1–3 front, 4–6 left flank");
}

#[test]
fn charging_through_a_wood_or_over_a_wall() {
    // A20: formed infantry may not enter woods (a strip thin enough to see through, A9); an
    // obstacle costs 6" of the move.
    let wood = json!({ "id": "copse", "kind": "wood", "polygon": [[20, 15.6], [40, 15.6], [40, 16.4], [20, 16.4]] });
    let through_wood = rule(&scene_with(
        vec![
            line("45th", "red", [30.0, 12.0], 90.0),
            line("3e", "blue", [30.0, 20.0], 270.0),
        ],
        vec![wood],
        vec![],
    ));
    let charge = charge_of(&through_wood, "3e", "45th");
    assert!(!charge.reachable);
    assert!(
        charge
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("may not enter copse")),
        "{charge:?}"
    );
    let wall = json!({ "id": "wall", "kind": "obstacle", "line": [[20, 16], [40, 16]] });
    let over_wall = rule(&scene_with(
        vec![
            line("45th", "red", [30.0, 12.0], 90.0),
            line("3e", "blue", [30.0, 20.0], 270.0),
        ],
        vec![wall],
        vec![],
    ));
    let charge = charge_of(&over_wall, "3e", "45th");
    assert!(
        (charge.cost.0 - 14.0).abs() < 1e-6,
        "8\" plus 6\" for the wall: {charge:?}"
    );
    assert!(!charge.reachable);
    // The ruling says what the cost is made of, not just its total.
    let text = text_of(&over_wall, "3e");
    assert!(
        text.contains("the charge costs 14.00\" (8.00\" to the target; ") && text.contains("wall"),
        "{text}"
    );
}

#[test]
fn cavalry_cannot_charge_a_steady_square_but_can_a_disordered_one() {
    let square = |disordered: bool| {
        unit(
            json!({ "id": "square", "side": "red", "kind": "infantry", "formation": "square",
        "front_center": [30.0, 14.0], "facing": 90.0, "width": 3.2, "depth": 3.2, "disordered": disordered }),
        )
    };
    let steady = rule(&scene(vec![
        square(false),
        hussars("cuirassiers", "blue", [30.0, 22.0], 270.0),
    ]));
    let charge = charge_of(&steady, "cuirassiers", "square");
    assert!(
        !charge.reachable
            && charge
                .reason
                .as_deref()
                .is_some_and(|r| r.contains("halts 3.00\" away"))
    );
    let shaken = rule(&scene(vec![
        square(true),
        hussars("cuirassiers", "blue", [30.0, 22.0], 270.0),
    ]));
    assert!(charge_of(&shaken, "cuirassiers", "square").reachable);
}

#[test]
fn skirmishers_may_not_charge_formed_infantry_in_front() {
    let skirmishers = unit(
        json!({ "id": "voltigeurs", "side": "blue", "kind": "infantry", "formation": "skirmish",
        "front_center": [30.0, 18.0], "facing": 270.0, "width": 3.0, "depth": 0.8 }),
    );
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        skirmishers,
    ]));
    let charge = charge_of(&report, "voltigeurs", "45th");
    assert!(
        !charge.reachable
            && charge
                .reason
                .as_deref()
                .is_some_and(|r| r.contains("skirmishers cannot charge"))
    );
}

#[test]
fn skirmishers_may_charge_a_gun_but_not_one_beside_a_line() {
    // §7.1: skirmishers may charge artillery, "but not if the charge would also engage an
    // adjacent unit they are forbidden to charge": placed in contact with the gun, 6" wide,
    // they would also touch the line's front.
    let gun = unit(
        json!({ "id": "gun", "side": "red", "kind": "artillery", "formation": "deployed",
        "front_center": [30.0, 20.0], "facing": 270.0, "width": 1.6, "depth": 1.5,
        "weapon": "smoothbore-artillery" }),
    );
    let skirmishers = unit(
        json!({ "id": "voltigeurs", "side": "blue", "kind": "infantry", "formation": "skirmish",
        "front_center": [30.0, 12.0], "facing": 90.0, "width": 6.0, "depth": 1.0,
        "weapon": "smoothbore-musket" }),
    );
    let alone = rule(&scene(vec![gun.clone(), skirmishers.clone()]));
    assert!(charge_of(&alone, "voltigeurs", "gun").reachable);
    let beside = rule(&scene(vec![
        gun,
        line("45th", "red", [36.0, 20.0], 270.0),
        skirmishers,
    ]));
    let charge = charge_of(&beside, "voltigeurs", "gun");
    assert!(!charge.reachable, "{charge:?}");
    assert!(
        charge
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("would also engage 45th beside it")),
        "{charge:?}"
    );
}

#[test]
fn a_second_charger_needs_half_the_face_free() {
    // A23: the 3e already fights most of the 45th's front; the 4e cannot join on that face.
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [31.0, 12.0], 270.0),
        unit(
            json!({ "id": "4e", "side": "blue", "kind": "infantry", "front_center": [24.0, 18.0], "facing": 270.0,
            "width": 4.7, "depth": 1.6 }),
        ),
    ]));
    let charge = charge_of(&report, "4e", "45th");
    assert!(!charge.reachable);
    assert!(
        charge
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("friends already fight that face")),
        "{charge:?}"
    );
}

#[test]
fn the_suggested_contact_puts_the_front_edge_flush_on_the_face() {
    // A22: a narrower charger centres on its own line of approach, flush with the face.
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        unit(
            json!({ "id": "4e", "side": "blue", "kind": "infantry", "front_center": [28.0, 18.0], "facing": 270.0,
            "width": 4.7, "depth": 1.6 }),
        ),
    ]));
    let place = charge_of(&report, "4e", "45th")
        .placement
        .expect("placement");
    assert!(
        (place.front_center().y - 12.0).abs() < 1e-9
            && (place.front_center().x - 28.0).abs() < 1e-9
    );
    assert!((place.facing().0 - 270.0).abs() < 1e-9);
}

#[test]
fn contact_is_reported_with_the_gap_and_the_face_covered() {
    let touching = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 12.0], 270.0),
    ]));
    let contact = touching
        .general
        .iter()
        .find(|r| r.topic == Topic::Contact)
        .expect("contact ruling");
    assert_eq!(contact.verdict(), Verdict::Yes);
    assert!(contact.explanation.contains("covers 100%"));
    let gap = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 12.3], 270.0),
    ]));
    let contact = gap
        .general
        .iter()
        .find(|r| r.topic == Topic::Contact)
        .expect("contact ruling");
    assert_eq!(contact.verdict(), Verdict::Borderline);
    assert!(contact.explanation.contains("0.30\" apart"));
    let corner = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [37.5, 12.0], 270.0),
    ]));
    let contact = corner
        .general
        .iter()
        .find(|r| r.topic == Topic::Contact)
        .expect("contact ruling");
    assert!(
        contact.explanation.contains("less than half"),
        "{}",
        contact.explanation
    );
}

#[test]
fn supports_in_flank_and_rear_and_the_borderline_one() {
    // The 45th fights the 3e to its front; the 52nd stands 2" behind (rear support) and the
    // 95th 6.5" off its left flank: borderline.
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 12.0], 270.0),
        line("52nd", "red", [30.0, 8.4], 90.0),
        unit(
            json!({ "id": "95th", "side": "red", "kind": "infantry", "front_center": [18.8, 11.2], "facing": 0.0,
            "width": 4.7, "depth": 1.6 }),
        ),
    ]));
    let supports = of(&report, "45th").supports.as_ref().expect("engaged");
    assert_eq!(supports.bonus, 2, "{supports:?}");
    let zones: Vec<Quarter> = supports.supporters.iter().map(|(q, _, _)| *q).collect();
    assert!(zones.contains(&Quarter::Rear) && zones.contains(&Quarter::LeftFlank));
    let borderline = of(&report, "95th")
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Support)
        .expect("support ruling");
    assert_eq!(borderline.verdict(), Verdict::Borderline);
    // 6.5" is beyond 6": the ruling never says "within".
    assert!(
        borderline
            .explanation
            .contains("(6.50\" away, just beyond 6.00\")"),
        "{}",
        borderline.explanation
    );
}

/// The 45th's own ruling on its supports.
fn own_support_ruling(report: &rules::rulings::Rulings) -> &rules::ruling::Ruling {
    of(report, "45th")
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Support && r.other.is_none())
        .unwrap_or_else(|| panic!("its own support ruling: {}", text_of(report, "45th")))
}

#[test]
fn an_engaged_unit_is_told_its_own_support_bonus() {
    // A27: the 45th fights the 3e to its front. Its own rulings say what its supports give it,
    // not only the supporters' rulings: none; the 52nd behind it (+1); and the 95th 6.5" off
    // its left flank, just beyond 6" (+2 only if the players agree).
    let fight = || {
        vec![
            line("45th", "red", [30.0, 12.0], 90.0),
            line("3e", "blue", [30.0, 12.0], 270.0),
        ]
    };
    let alone = rule(&scene(fight()));
    let ruling = own_support_ruling(&alone);
    assert_eq!(ruling.decision, Decision::No);
    assert!(
        ruling.explanation.starts_with("45th has no supports")
            && ruling.explanation.ends_with("+0."),
        "{}",
        ruling.explanation
    );
    let mut backed = fight();
    backed.push(line("52nd", "red", [30.0, 8.4], 90.0));
    let report = rule(&scene(backed.clone()));
    let ruling = own_support_ruling(&report);
    assert_eq!(ruling.decision, Decision::Yes);
    assert_eq!(
        ruling.explanation,
        "45th is supported by 52nd in its rear: +1."
    );
    backed.push(unit(
        json!({ "id": "95th", "side": "red", "kind": "infantry", "front_center": [18.8, 11.2],
                "facing": 0.0, "width": 4.7, "depth": 1.6 }),
    ));
    let report = rule(&scene(backed));
    let ruling = own_support_ruling(&report);
    assert_eq!(ruling.verdict(), Verdict::Borderline);
    assert!(
        ruling.explanation.starts_with(
            "45th is supported by 52nd in its rear, and by 95th in its left flank if the players agree (just beyond 6.00\"): +1, or +2 if they do."
        ),
        "{}",
        ruling.explanation
    );
    let bonus = ruling.figures.iter().find(|f| f.name == "support bonus");
    assert_eq!(bonus.map(|f| f.value), Some(1.0));
}

#[test]
fn a_unit_engaged_to_its_flank_cannot_be_supported() {
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        hussars("hussars", "blue", [25.3, 11.2], 0.0),
        line("52nd", "red", [30.0, 8.4], 90.0),
    ]));
    assert!(
        text_of(&report, "45th").contains("cannot be supported: it is engaged to its left flank")
    );
}

#[test]
fn command_distance_penalties_follow_the_books_examples() {
    // A15: 19" → −1; marauders ignore the penalty.
    let commander =
        json!({ "id": "craufurd", "side": "red", "brigade": "light", "position": [30.0, -7.0] });
    let mut light = line("45th", "red", [30.0, 12.0], 90.0);
    light["brigade"] = json!("light");
    let report = rule(&scene_with(
        vec![light.clone(), line("3e", "blue", [30.0, 40.0], 270.0)],
        vec![],
        vec![commander.clone()],
    ));
    let command = of(&report, "45th").command.as_ref().expect("commander");
    assert_eq!(command.penalty, -1);
    assert!((command.distance.0 - 17.4).abs() < 0.01, "{command:?}");
    light["stats"] = json!({ "type": "Infantry", "armament": "Rifles", "hand_to_hand": 4, "shooting": 2,
        "morale": "4+", "stamina": 2, "special": ["Marauders"] });
    light["weapon"] = json!("rifled-musket");
    let marauders = rule(&scene_with(
        vec![light, line("3e", "blue", [30.0, 40.0], 270.0)],
        vec![],
        vec![commander],
    ));
    assert_eq!(
        of(&marauders, "45th").command.as_ref().map(|c| c.penalty),
        Some(0)
    );
}

/// The 45th's command ruling under Craufurd, who stands `behind` inches behind its rear edge.
fn command_ruling(behind: f64) -> rules::ruling::Ruling {
    let commander = json!({ "id": "craufurd", "side": "red", "brigade": "light",
                            "position": [30.0, 12.0 - 1.6 - behind] });
    let mut light = line("45th", "red", [30.0, 12.0], 90.0);
    light["brigade"] = json!("light");
    let report = rule(&scene_with(
        vec![light, line("3e", "blue", [30.0, 40.0], 270.0)],
        vec![],
        vec![commander],
    ));
    of(&report, "45th")
        .rulings
        .iter()
        .find(|r| r.topic == Topic::Command && r.other.as_deref() == Some("craufurd"))
        .cloned()
        .expect("a command ruling")
}

#[test]
fn a_unit_beyond_its_command_distance_is_under_command_at_a_penalty() {
    // A15: 19" from its commander costs −1 to the order; the unit may still be ordered, so the
    // ruling is a penalty, not a refusal.
    let far = command_ruling(19.0);
    assert_eq!(far.decision, Decision::Penalty, "{}", far.explanation);
    assert_eq!(far.verdict(), Verdict::Penalty);
    let penalty = far.figures.iter().find(|f| f.name == "penalty");
    assert_eq!(penalty.map(|f| f.value), Some(-1.0), "{:?}", far.figures);
    assert!(
        far.explanation.contains("-1 to its order"),
        "{}",
        far.explanation
    );
    // Within 12" there is no penalty: yes.
    let near = command_ruling(6.0);
    assert_eq!(near.decision, Decision::Yes, "{}", near.explanation);
    assert!(
        near.explanation.contains("no distance penalty"),
        "{}",
        near.explanation
    );
    // At a step's edge it is borderline — players decide — whichever side it falls.
    assert_eq!(command_ruling(24.05).decision, Decision::Borderline);
}

/// The cohesion ruling of a brigade of three lines, 1st, 2nd and 3rd, abreast at these x.
fn guards_cohesion(x: [f64; 3]) -> rules::ruling::Ruling {
    let mut units: Vec<_> = ["1st", "2nd", "3rd"]
        .into_iter()
        .zip(x)
        .map(|(id, x)| line(id, "red", [x, 10.0], 90.0))
        .collect();
    for u in &mut units {
        u["brigade"] = json!("guards");
    }
    let report = rule(&scene(units));
    report
        .general
        .into_iter()
        .find(|r| r.topic == Topic::Command)
        .expect("cohesion ruling")
}

#[test]
fn a_brigade_out_of_touch_names_the_unit_that_breaks_it() {
    // A16: units within 6" of each other form a chain; the third is 8" from the nearest.
    let cohesion = guards_cohesion([10.0, 22.0, 40.0]);
    assert_eq!(cohesion.verdict(), Verdict::No);
    assert!(
        cohesion.explanation.contains("3rd is 8.60\" from 2nd"),
        "{}",
        cohesion.explanation
    );
    // The ruling is about the unit cut off, and names the one it is out of touch with.
    assert_eq!(cohesion.unit, "3rd");
    assert_eq!(cohesion.other.as_deref(), Some("2nd"));
}

#[test]
fn a_brigade_whose_first_unit_is_cut_off_never_names_it_twice() {
    let cohesion = guards_cohesion([10.0, 28.0, 36.0]);
    assert_eq!(cohesion.verdict(), Verdict::No);
    assert_eq!(cohesion.unit, "1st", "{}", cohesion.explanation);
    assert_eq!(cohesion.other.as_deref(), Some("2nd"));
}

#[test]
fn the_twelve_inch_rule_gives_initiative_unless_disordered_or_engaged() {
    let mut disordered = line("3e", "blue", [30.0, 22.0], 270.0);
    disordered["disordered"] = json!(true);
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        disordered,
    ]));
    assert!(
        of(&report, "45th")
            .proximity
            .as_ref()
            .is_some_and(|p| p.within)
    );
    assert!(text_of(&report, "45th").contains("may make an initiative move"));
    assert!(text_of(&report, "3e").contains("no initiative move"));
    // §5.4, §6.8: engaged units fight; the hussars in the 45th's flank are told so, not offered
    // a move.
    let fighting = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        hussars("hussars", "blue", [25.3, 11.2], 0.0),
    ]));
    for id in ["45th", "hussars"] {
        let text = text_of(&fighting, id);
        assert!(
            text.contains("engaged in hand-to-hand combat, so it makes no initiative move")
                && !text.contains("may make an initiative move"),
            "{id}: {text}"
        );
    }
}

#[test]
fn disordered_units_cannot_charge() {
    // §6.8: a disordered unit cannot be ordered nor move on initiative, so it cannot charge.
    let mut disordered = line("3e", "blue", [30.0, 20.0], 270.0);
    disordered["disordered"] = json!(true);
    let report = rule(&scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        disordered,
    ]));
    let charge = charge_of(&report, "3e", "45th");
    assert!(
        !charge.reachable && charge.reason.as_deref() == Some("disordered units cannot charge"),
        "{charge:?}"
    );
    assert_eq!(
        common::decision(&report, "3e", Topic::Charge, "45th"),
        Some(rules::ruling::Decision::Cannot)
    );
    assert!(charge_of(&report, "45th", "3e").reachable);
}

#[test]
fn moves_are_checked_against_the_allowance_with_terrain() {
    let before = scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 40.0], 270.0),
    ]);
    let moved = |y: f64| {
        scene(vec![
            line("45th", "red", [30.0, y], 90.0),
            line("3e", "blue", [30.0, 40.0], 270.0),
        ])
    };
    let profile = rules::Profile::builtin(rules::RulesetId::BlackPowder);
    let (checks, roll) = check_moves(&before, &moved(23.6), profile);
    assert!(roll.missing.is_empty() && roll.new.is_empty());
    let check = checks.iter().find(|c| c.unit == "45th").expect("45th");
    assert_eq!((check.distance.0, check.moves), (11.6, 1));
    let (checks, _) = check_moves(&before, &moved(26.0), profile);
    assert_eq!(
        checks.iter().find(|c| c.unit == "45th").map(|c| c.moves),
        Some(2)
    );
}

#[test]
fn squares_and_manhandled_guns_make_one_move_a_turn() {
    // §4.1, §4.3, §9.1: a square moves at half pace, at most once a turn; a deployed gun is
    // manhandled 6", at most once. Two such moves are refused, one is allowed.
    let square = |y: f64| {
        unit(
            json!({ "id": "square", "side": "red", "kind": "infantry", "formation": "square",
            "front_center": [30.0, y], "facing": 90.0, "width": 3.2, "depth": 3.2 }),
        )
    };
    let gun = |y: f64| {
        unit(
            json!({ "id": "gun", "side": "red", "kind": "artillery", "formation": "deployed",
            "front_center": [50.0, y], "facing": 90.0, "width": 1.6, "depth": 1.5,
            "weapon": "smoothbore-artillery" }),
        )
    };
    let enemy = || line("3e", "blue", [30.0, 46.0], 270.0);
    let profile = rules::Profile::builtin(rules::RulesetId::BlackPowder);
    let before = scene(vec![square(4.0), gun(4.0), enemy()]);
    for (moved, allowed) in [(4.0, true), (10.0, false)] {
        let after = scene(vec![square(4.0 + moved), gun(4.0 + moved), enemy()]);
        let (checks, _) = check_moves(&before, &after, profile);
        for id in ["square", "gun"] {
            let check = checks.iter().find(|c| c.unit == id).expect("checked");
            let decision = check.rulings[0].decision;
            assert_eq!(
                decision == rules::ruling::Decision::May,
                allowed,
                "{id} moved {moved}\": {}",
                check.rulings[0].explanation
            );
            if !allowed {
                assert!(
                    check.rulings[0]
                        .explanation
                        .contains("more than the 1 a unit in")
                );
            }
        }
    }
}

#[test]
fn a_square_moves_only_towards_its_own_lines_and_not_at_all_near_enemy_cavalry() {
    // §9.1, A38: red's home edge is the south (y = 0). A square may step back towards it, not
    // away; with enemy cavalry within 12" it may not move at all.
    let square = |y: f64| {
        json!({ "id": "square", "side": "red", "kind": "infantry", "formation": "square",
            "front_center": [30.0, y], "facing": 90.0, "width": 3.2, "depth": 3.2 })
    };
    let table = |units: Vec<serde_json::Value>| {
        let doc = json!({ "ruleset": "black-powder", "table": { "width": 72, "depth": 48 },
            "sides": [{ "id": "red", "home_edge": "south" }, { "id": "blue" }],
            "units": units });
        rules::Scene::parse(&doc.to_string(), rules::scene::Format::Json, "test").expect("a scene")
    };
    let profile = rules::Profile::builtin(rules::RulesetId::BlackPowder);
    let far_line = || line("3e", "blue", [30.0, 46.0], 270.0);
    let square_rulings = |before: &rules::Scene, after: &rules::Scene| {
        let (checks, _) = check_moves(before, after, profile);
        let check = checks
            .into_iter()
            .find(|c| c.unit == "square")
            .expect("square");
        check.rulings
    };
    let before = table(vec![square(20.0), far_line()]);
    let back = square_rulings(&before, &table(vec![square(16.0), far_line()]));
    assert!(
        back.iter().all(|r| r.decision == Decision::May),
        "{back:#?}"
    );
    let forward = square_rulings(&before, &table(vec![square(24.0), far_line()]));
    assert!(
        forward.iter().any(|r| r.decision == Decision::Cannot
            && r.explanation
                .contains("only towards its own lines (the south edge)")),
        "{forward:#?}"
    );
    let cavalry = || hussars("hussars", "blue", [40.0, 26.0], 270.0);
    let near_cavalry = table(vec![square(20.0), cavalry()]);
    let stepped_back = square_rulings(&near_cavalry, &table(vec![square(16.0), cavalry()]));
    assert!(
        stepped_back
            .iter()
            .any(|r| r.decision == Decision::Cannot
                && r.explanation.contains("enemy cavalry, hussars")),
        "{stepped_back:#?}"
    );
}

#[test]
fn near_the_enemy_a_unit_must_keep_to_its_front_or_rear_quarter() {
    // A18: 10" from the 3e, the 45th sidesteps 8" to its right: not allowed.
    let before = scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 22.0], 270.0),
    ]);
    let after = scene(vec![
        line("45th", "red", [38.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 22.0], 270.0),
    ]);
    let profile = rules::Profile::builtin(rules::RulesetId::BlackPowder);
    let (checks, _) = check_moves(&before, &after, profile);
    assert!(
        checks
            .iter()
            .any(|c| c.unit == "45th" && c.proximity_breach)
    );
    let forward = scene(vec![
        line("45th", "red", [30.0, 15.0], 90.0),
        line("3e", "blue", [30.0, 22.0], 270.0),
    ]);
    let (checks, _) = check_moves(&before, &forward, profile);
    assert!(checks.iter().all(|c| !c.proximity_breach));
}

#[test]
fn whether_the_twelve_inch_rule_binds_a_charge_is_a_reading() {
    // A18 and charges: 10" from the 3e, the 45th wheels away to its right and ends in contact
    // with the flankers' front — a charge leaving both its front and rear quarters. The book
    // does not say whether A18 binds a charge: borderline by default, a setting either way.
    let flankers = || {
        unit(
            json!({ "id": "flankers", "side": "blue", "kind": "infantry", "front_center": [45.0, 14.0],
            "facing": 180.0, "width": 9.4, "depth": 1.6, "weapon": "smoothbore-musket" }),
        )
    };
    let before = scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 22.0], 270.0),
        flankers(),
    ]);
    let after = scene(vec![
        line("45th", "red", [45.0, 14.0], 0.0),
        line("3e", "blue", [30.0, 22.0], 270.0),
        flankers(),
    ]);
    let twelve_inch_rule = |reading: &str| {
        let text = rules::Profile::builtin_text(rules::RulesetId::BlackPowder).replace(
            "charges-near-enemy = \"borderline\"",
            &format!("charges-near-enemy = \"{reading}\""),
        );
        let profile = rules::Profile::from_toml(&text).expect("profile");
        let (checks, _) = check_moves(&before, &after, &profile);
        let check = checks.into_iter().find(|c| c.unit == "45th").expect("45th");
        check
            .rulings
            .into_iter()
            .find(|r| r.rule.rule.starts_with("Proximity of Enemy"))
            .map(|r| r.decision)
    };
    assert_eq!(twelve_inch_rule("borderline"), Some(Decision::Borderline));
    assert_eq!(twelve_inch_rule("bound"), Some(Decision::Cannot));
    assert_eq!(twelve_inch_rule("free"), None);
}

#[test]
fn a_charge_into_the_flank_quarter_within_12_inches_is_not_offered_as_plain() {
    // The 45th is 10" from the 3e ahead and 5.3" from the flankers (the 12" rule holds it to
    // its front and rear quarters), and the flankers lie wholly in its right flank quarter: charging them leaves both. Under
    // the default reading the charge is borderline and says why; bound, it is refused; free,
    // it is a plain charge. Either way the quarters that decide are drawn.
    let flankers = unit(
        json!({ "id": "flankers", "side": "blue", "kind": "infantry", "front_center": [40.0, 10.0],
        "facing": 180.0, "width": 4.0, "depth": 1.6, "weapon": "smoothbore-musket" }),
    );
    let table = scene(vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 22.0], 270.0),
        flankers,
    ]);
    let charge_under = |reading: &str| {
        let text = rules::Profile::builtin_text(rules::RulesetId::BlackPowder).replace(
            "charges-near-enemy = \"borderline\"",
            &format!("charges-near-enemy = \"{reading}\""),
        );
        let profile = rules::Profile::from_toml(&text).expect("profile");
        let report = rules::rulings::rulings_with(&table, &table.scaled(&profile));
        of(&report, "45th")
            .rulings
            .iter()
            .find(|r| r.topic == Topic::Charge && r.other.as_deref() == Some("flankers"))
            .cloned()
            .expect("a charge ruling on the flankers")
    };
    let borderline = charge_under("borderline");
    assert_eq!(
        borderline.decision,
        Decision::Borderline,
        "{}",
        borderline.explanation
    );
    assert!(
        borderline
            .explanation
            .contains("lies wholly in its flank quarter"),
        "{}",
        borderline.explanation
    );
    let quarters = |r: &rules::ruling::Ruling| {
        r.shapes
            .iter()
            .filter(|s| {
                matches!(
                    s,
                    rules::ruling::Shape::Polygon {
                        role: rules::ruling::ShapeRole::Quarter,
                        ..
                    }
                )
            })
            .count()
    };
    assert_eq!(
        quarters(&borderline),
        2,
        "the front and rear quarters are drawn"
    );
    let bound = charge_under("bound");
    assert_eq!(bound.decision, Decision::Cannot, "{}", bound.explanation);
    assert!(
        bound
            .explanation
            .contains("may move only into its front or rear quarter")
    );
    assert_eq!(bound.rule.rule, "Proximity of Enemy (§4.2)");
    let free = charge_under("free");
    assert_eq!(free.decision, Decision::May, "{}", free.explanation);
    // The 3e, in its front quarter, is a plain charge whatever the reading.
    let report = rule(&table);
    assert_eq!(
        common::decision(&report, "45th", Topic::Charge, "3e"),
        Some(Decision::May)
    );
}

#[test]
fn whether_guns_pass_over_a_not_clear_target_is_a_reading() {
    // §6.12: guns pick "in exactly the same way as for infantry". Half range is 24": the
    // skirmish screen is 17" off, the formed line 27.6" off, beyond half range and visible past
    // the screen. The book passes over the screen to the line; A12's stricter reading only to a
    // clear target within half range; "never" shoots the screen.
    let gun = unit(
        json!({ "id": "gun", "side": "red", "kind": "artillery", "formation": "deployed",
        "front_center": [30.0, 2.0], "facing": 90.0, "width": 1.6, "depth": 1.5,
        "weapon": "smoothbore-artillery" }),
    );
    let screen = unit(
        json!({ "id": "voltigeurs", "side": "blue", "kind": "infantry", "formation": "skirmish",
        "front_center": [30.0, 19.0], "facing": 270.0, "width": 4.0, "depth": 1.0 }),
    );
    let scene = scene(vec![gun, screen, line("3e", "blue", [44.0, 28.0], 270.0)]);
    let rule_with = |reading: &str| {
        let text = rules::Profile::builtin_text(rules::RulesetId::BlackPowder).replace(
            "guns-pass-not-clear = \"book\"",
            &format!("guns-pass-not-clear = {reading}"),
        );
        let profile = rules::Profile::from_toml(&text).expect("profile");
        rules::rulings::rulings_with(&scene, &profile)
    };
    let targets = |report: &rules::rulings::Rulings| {
        let shooting = &of(report, "gun").shooting;
        (shooting.must_target.clone(), shooting.may_target.clone())
    };
    let line_ruling = |report: &rules::rulings::Rulings| {
        let ruling = of(report, "gun")
            .rulings
            .iter()
            .find(|r| r.topic == Topic::Shooting && r.other.as_deref() == Some("3e"))
            .expect("a ruling on the line")
            .clone();
        (ruling.decision, ruling.explanation)
    };
    let screen_only = (vec!["voltigeurs".to_owned()], Vec::<String>::new());
    let book = rule_with("\"book\"");
    assert_eq!(
        targets(&book),
        (vec!["voltigeurs".to_owned()], vec!["3e".to_owned()])
    );
    let (decision, words) = line_ruling(&book);
    assert_eq!(decision, Decision::May, "{words}");
    assert!(words.contains("guns-pass-not-clear = \"book\""), "{words}");
    let strict = rule_with("\"within-half-range\"");
    assert_eq!(targets(&strict), screen_only);
    let (decision, words) = line_ruling(&strict);
    assert_eq!(decision, Decision::Cannot, "{words}");
    // The reason is the reading, not that the skirmishers are closer.
    assert!(
        words.contains("is not a clear target")
            && words.contains("only for a clear one within half its range")
            && !words.contains("is closer"),
        "{words}"
    );
    assert_eq!(targets(&rule_with("\"never\"")), screen_only);
    // Profiles written when the reading was yes or no still load.
    assert_eq!(targets(&rule_with("true")), targets(&book));
    assert_eq!(targets(&rule_with("false")), screen_only);
    let bad = rules::Profile::builtin_text(rules::RulesetId::BlackPowder).replace(
        "guns-pass-not-clear = \"book\"",
        "guns-pass-not-clear = \"sometimes\"",
    );
    let error = rules::Profile::from_toml(&bad).expect_err("an unknown reading");
    assert!(error.to_string().contains("within-half-range"), "{error}");
}

#[test]
fn a_move_through_rough_ground_costs_double() {
    // A19: 4" of the 11" path lies in rough ground: 11 + 4 = 15" of a 12" move, so two moves.
    let rough = json!({ "id": "ploughed", "kind": "rough", "polygon": [[20, 16], [40, 16], [40, 20], [20, 20]] });
    let before = scene_with(
        vec![
            line("45th", "red", [30.0, 12.0], 90.0),
            line("3e", "blue", [30.0, 45.0], 270.0),
        ],
        vec![rough.clone()],
        vec![],
    );
    let after = scene_with(
        vec![
            line("45th", "red", [30.0, 23.0], 90.0),
            line("3e", "blue", [30.0, 45.0], 270.0),
        ],
        vec![rough],
        vec![],
    );
    let profile = rules::Profile::builtin(rules::RulesetId::BlackPowder);
    let (checks, _) = check_moves(&before, &after, profile);
    let check = checks.iter().find(|c| c.unit == "45th").expect("45th");
    assert_eq!(
        (check.distance.0, check.cost.0, check.moves),
        (11.0, 15.0, 2)
    );
    assert!(check.rulings[0].explanation.contains("in ploughed at ×2"));
}

#[test]
fn the_support_zone_reading_is_configurable() {
    // A27: the 95th's leader is just inside the 45th's rear quarter but most of its line is in
    // the left flank quarter. By the leader it supports the rear; by half its footprint, the flank.
    let units = vec![
        line("45th", "red", [30.0, 12.0], 90.0),
        line("3e", "blue", [30.0, 12.0], 270.0),
        // Facing east, front edge 0.3" left of the 45th's rear-left corner (25.3, 10.4); its
        // leader at (25, 9.9) is inside the rear quarter, about 53% of it in the left flank's.
        unit(
            json!({ "id": "95th", "side": "red", "kind": "infantry", "front_center": [25.0, 9.9], "facing": 0.0,
            "width": 6.0, "depth": 1.0 }),
        ),
    ];
    let scene = scene(units);
    let zone_of = |profile: &rules::Profile| {
        let report = rules::rulings::rulings_with(&scene, profile);
        of(&report, "45th")
            .supports
            .as_ref()
            .and_then(|s| s.supporters.first().map(|(q, _, _)| *q))
    };
    let builtin = rules::Profile::builtin(rules::RulesetId::BlackPowder);
    assert_eq!(zone_of(builtin), Some(Quarter::Rear));
    let text = rules::Profile::builtin_text(rules::RulesetId::BlackPowder).replace(
        "support-zone = \"leader\"",
        "support-zone = \"half-footprint\"",
    );
    let by_footprint = rules::Profile::from_toml(&text).expect("profile");
    assert_eq!(zone_of(&by_footprint), Some(Quarter::LeftFlank));
}

#[test]
fn only_infantry_may_assault_a_building() {
    // §4.5: "Only infantry may enter or assault" a building. Hussars 8" from a garrisoned
    // house may not charge it; a line of foot as close may.
    let garrison = unit(
        json!({ "id": "house", "name": "Garrison", "side": "blue", "kind": "infantry",
        "formation": "building", "front_center": [30.0, 20.0], "facing": 270.0,
        "width": 6.0, "depth": 6.0, "weapon": "smoothbore-musket" }),
    );
    let report = rule(&scene(vec![
        garrison.clone(),
        hussars("hussars", "red", [30.0, 12.0], 90.0),
    ]));
    let charge = charge_of(&report, "hussars", "house");
    assert_eq!(
        charge.reason.as_deref(),
        Some("only infantry may assault a building")
    );
    assert!(!charge.reachable);
    let report = rule(&scene(vec![
        garrison,
        line("45th", "red", [30.0, 14.0], 90.0),
    ]));
    let charge = charge_of(&report, "45th", "house");
    assert_eq!(charge.reason, None);
    assert!(charge.reachable);
}
