//! One table, four rulesets: each gives its own rulings — its own ranges, units, arcs and
//! rules — from the same scene.

mod common;

use common::{block, charge, must_shoot, rule, scene_in, text_of};
use rules::ruling::Topic;
use rules::{Profile, RulesetId};
use serde_json::json;

fn rulings_under(ruleset: RulesetId) -> rules::rulings::Rulings {
    // Two musket lines 4" (about 10 cm, 100 mm, 100 m at 6 mm) apart, one slightly oblique.
    let ours = block("ours", "blue", [30.0, 10.0], 90.0, [6.0, 1.0]);
    let theirs = block("theirs", "red", [33.0, 14.0], 250.0, [6.0, 1.0]);
    rule(&scene_in(
        ruleset.as_str(),
        vec![ours, theirs],
        vec![],
        json!({}),
    ))
}

#[test]
fn every_ruleset_rules_on_the_same_scene_in_its_own_terms() {
    let expected = [
        (
            RulesetId::BlackPowder,
            "shoots up to 18.00\"",
            "Proximity of Enemy",
        ),
        (
            RulesetId::BptCommander,
            "shoots up to 10.0 cm",
            "Initiative Phase",
        ),
        (RulesetId::Bbb, "shoots up to 150 mm", "Zones of Control"),
        (RulesetId::Erules, "shoots up to 200 m", "Reaction tests"),
    ];
    let mut explanations = Vec::new();
    for (ruleset, range, proximity_rule) in expected {
        let report = rulings_under(ruleset);
        assert_eq!(report.ruleset, ruleset);
        let text = text_of(&report, "ours");
        assert!(text.contains(range), "{ruleset:?}: {text}");
        let proximity = report.units[0]
            .rulings
            .iter()
            .find(|r| r.topic == Topic::Proximity)
            .expect("a proximity ruling");
        assert!(
            proximity.rule.rule.starts_with(proximity_rule),
            "{ruleset:?}: {}",
            proximity.rule.rule
        );
        explanations.push(text);
    }
    // No two rulesets say the same thing about the same unit.
    for (i, a) in explanations.iter().enumerate() {
        for b in &explanations[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn black_powder_and_bbb_disagree_on_whether_the_enemy_is_in_range() {
    // 7" (178 mm) apart: within Black Powder's 18" muskets, beyond BBB's 150 mm.
    let ours = block("ours", "blue", [30.0, 10.0], 90.0, [6.0, 1.0]);
    let theirs = block("theirs", "red", [30.0, 17.0], 270.0, [6.0, 1.0]);
    let bp = rule(&scene_in(
        "black-powder",
        vec![ours.clone(), theirs.clone()],
        vec![],
        json!({}),
    ));
    let bbb = rule(&scene_in("bbb", vec![ours, theirs], vec![], json!({})));
    assert_eq!(must_shoot(&bp, "ours"), vec!["theirs"]);
    assert!(
        must_shoot(&bbb, "ours").is_empty(),
        "{}",
        text_of(&bbb, "ours")
    );
    assert!(bp.pairs[0].measurement.in_range);
    assert!(!bbb.pairs[0].measurement.in_range);
}

#[test]
fn every_built_in_profile_parses_and_names_its_unit() {
    let units: Vec<&str> = RulesetId::ALL
        .iter()
        .map(|&id| Profile::builtin(id).length_unit().name())
        .collect();
    assert_eq!(
        units,
        ["inches", "centimetres", "millimetres", "scale metres"]
    );
}

#[test]
fn the_sample_scenes_of_each_ruleset_load_and_rule_in_its_unit() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    for (file, unit) in [
        ("scenes/bpt-commander-cone.json", " cm"),
        ("scenes/bpt-commander-square.json", " cm"),
        ("scenes/bbb-zone-of-control.json", " mm"),
        ("scenes/bbb-figures.json", " mm"),
        ("scenes/erules-musketry.json", " m"),
        ("scenes/erules-round-shot.json", " m"),
        ("scenes/erules-figures-lost.json", " m"),
        ("moves/erules-momentum-before.json", " m"),
        ("moves/erules-momentum-after.json", " m"),
    ] {
        let scene = rules::Scene::load(&root.join(file)).unwrap_or_else(|e| panic!("{e}"));
        let report = rule(&scene);
        let text = text_of(&report, &scene.units[0].id);
        assert!(text.contains(unit), "{file}: {text}");
        assert!(!text.contains('"'), "{file} prints inches: {text}");
    }
}

#[test]
fn each_ruleset_judges_a_charge_by_its_own_charge_distance() {
    // A foot unit with an enemy straight ahead, farther than one move: Black Powder charges a
    // move (12"); eRules by its charge column (335 m, not the 225 m move), BPT Commander its
    // 20 cm charge distance whatever the 10 cm move, BBB its dice doubled (480 mm).
    let cases = [
        ("black-powder", 15.0, false),
        ("erules", 280.0 / 25.4, true),
        ("bpt-commander", 15.0 / 2.54, true),
        ("bbb", 360.0 / 25.4, true),
    ];
    for (ruleset, gap, reaches) in cases {
        let ours = block("ours", "blue", [30.0, 5.0], 90.0, [4.0, 0.6]);
        let theirs = block("theirs", "red", [30.0, 5.0 + gap], 270.0, [4.0, 0.6]);
        let report = rule(&scene_in(ruleset, vec![ours, theirs], vec![], json!({})));
        let assessed = charge(&report, "ours", "theirs");
        assert_eq!(
            assessed.is_some_and(|c| c.reachable),
            reaches,
            "{ruleset}: {assessed:?}\n{}",
            text_of(&report, "ours")
        );
        if reaches {
            assert!(
                text_of(&report, "ours").contains("charge distance"),
                "{ruleset}: {}",
                text_of(&report, "ours")
            );
        }
    }
}

#[test]
fn rulings_speak_their_own_rulesets_words() {
    // Black Powder's "closing fire" is its own step: BPT Commander answers a charge with
    // counter-initiative, BBB with defensive fire, eRules through its reaction tests. And every
    // eRules ruling cites its own book, none "as in Black Powder".
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/scenes");
    let mut seen = 0;
    for entry in std::fs::read_dir(&root).expect("samples") {
        let path = entry.expect("entry").path();
        let Ok(scene) = rules::Scene::load(&path) else {
            continue;
        };
        if scene.ruleset == RulesetId::BlackPowder {
            continue;
        }
        seen += 1;
        let report = rule(&scene);
        let all = report
            .units
            .iter()
            .flat_map(|u| u.rulings.iter())
            .chain(report.general.iter());
        for ruling in all {
            assert!(
                !ruling.explanation.contains("closing fire"),
                "{}: {}",
                path.display(),
                ruling.explanation
            );
            if scene.ruleset == RulesetId::Erules {
                assert_ne!(
                    ruling.rule.reading,
                    Some("as in Black Powder"),
                    "{}: {ruling:?}",
                    path.display()
                );
            }
        }
    }
    assert!(seen >= 3, "only {seen} sample scenes of other rulesets");
}

#[test]
fn cover_is_said_in_each_rulesets_own_terms() {
    // Black Powder: a target in cover is not a clear target (§6.4, −1 to hit). BPT Commander
    // hits it on 5+ instead of 4+ (§3.2); BBB adds 1 to the score needed (scores to hit). Neither
    // has Black Powder's clear target.
    let ours = block("ours", "blue", [30.0, 10.0], 90.0, [4.0, 0.6]);
    let theirs = block("theirs", "red", [30.0, 13.0], 270.0, [2.0, 0.6]);
    // A wall the target lines (in base contact: a BPT Commander wall hides what does not touch
    // it): cover behind it, and nothing blocks the view.
    let wall = json!({ "id": "wall", "kind": "obstacle", "line": [[27.0, 12.95], [33.0, 12.95]] });
    let expected = [
        (
            RulesetId::BlackPowder,
            "not a clear target (in cover (wall)): −1 to hit",
        ),
        (
            RulesetId::BptCommander,
            "in cover (wall): hit on 5+ in soft cover",
        ),
        (
            RulesetId::Bbb,
            "in cover (wall): +1 to the score needed in soft cover",
        ),
    ];
    for (ruleset, words) in expected {
        let report = rule(&scene_in(
            ruleset.as_str(),
            vec![ours.clone(), theirs.clone()],
            vec![],
            json!({ "terrain": [wall.clone()] }),
        ));
        let text = text_of(&report, "ours");
        assert!(text.contains(words), "{ruleset:?}: {text}");
        if ruleset != RulesetId::BlackPowder {
            assert!(!text.contains("clear target"), "{ruleset:?}: {text}");
            assert!(!text.contains("to hit"), "{ruleset:?}: {text}");
        }
    }
}

#[test]
fn only_black_powder_doubles_the_dice_of_fire_down_a_flank() {
    // §6.9: a line firing down an enemy line's length from its flank has double dice. BPT
    // Commander (a die more, §1.9), BBB and eRules (modifiers only) have no such rule.
    // Their line runs north–south (facing east) from y = 14 to 18; our leader stands 6" south
    // of its end, in line with it: in its enfilade corridor.
    let shooter = block("ours", "blue", [26.7, 8.0], 90.0, [4.0, 0.6]);
    let flank = block("theirs", "red", [27.0, 16.0], 0.0, [4.0, 0.6]);
    for ruleset in RulesetId::ALL {
        let report = rule(&scene_in(
            ruleset.as_str(),
            vec![shooter.clone(), flank.clone()],
            vec![],
            json!({}),
        ));
        let text = text_of(&report, "ours");
        assert_eq!(
            text.contains("double dice"),
            ruleset == RulesetId::BlackPowder,
            "{ruleset:?}: {text}"
        );
    }
}

#[test]
fn skirmishers_charge_in_black_powder_alone() {
    // Black Powder §7.1 lets skirmishers charge a flank of a unit engaged to its front; BPT
    // Commander's chargers "must be in line or attack column" (§1.11), BBB's skirmishers never
    // charge (L479-487), nor eRules' troops not in close order (§20.2.1, E-05).
    let mut skirmishers = block("ours", "blue", [30.0, 10.0], 90.0, [4.0, 0.6]);
    skirmishers["formation"] = json!("skirmish");
    let mut target = block("theirs", "red", [30.0, 13.0], 270.0, [2.0, 0.6]);
    target["formation"] = json!("skirmish");
    for ruleset in RulesetId::ALL {
        let report = rule(&scene_in(
            ruleset.as_str(),
            vec![skirmishers.clone(), target.clone()],
            vec![],
            json!({}),
        ));
        let reason = charge(&report, "ours", "theirs").and_then(|c| c.reason.clone());
        assert_eq!(
            reason.is_none(),
            ruleset == RulesetId::BlackPowder,
            "{ruleset:?}: {reason:?}"
        );
    }
}
