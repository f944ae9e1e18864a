//! Random and mutated scene documents never panic: they either load and measure to finite
//! numbers, or fail with an error that names the file.

use proptest::prelude::*;
use rules::Scene;
use rules::measure::measure;
use rules::rulings::rulings;
use rules::scene::Format;
use serde_json::{Map, Value, json};
use vedette_tests::{sample_scenes, vedette};

/// Any JSON value, a few levels deep, with the numbers players get wrong.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        prop_oneof![
            any::<f64>().prop_filter("finite", |f| f.is_finite()),
            Just(0.0),
            Just(-1.0),
            Just(1e308),
            Just(-1e-308),
            -100.0..100.0f64
        ]
        .prop_map(|f| json!(f)),
        any::<i64>().prop_map(|i| json!(i)),
        "[a-z0-9 -]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,12}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// The sample scenes as JSON values.
fn samples() -> Vec<Value> {
    sample_scenes()
        .iter()
        .map(|p| {
            let scene = Scene::load(p).unwrap_or_else(|e| panic!("{e}"));
            serde_json::from_str(&scene.to_json()).expect("json")
        })
        .collect()
}

/// Replace the value at a random path in `node` with `replacement`.
fn mutate(node: &mut Value, choices: &[usize], replacement: Value) {
    let Some((&choice, rest)) = choices.split_first() else {
        *node = replacement;
        return;
    };
    match node {
        Value::Object(map) if !map.is_empty() => {
            let key = map.keys().nth(choice % map.len()).cloned().expect("key");
            mutate(map.get_mut(&key).expect("child"), rest, replacement);
        }
        Value::Array(items) if !items.is_empty() => {
            let len = items.len();
            mutate(&mut items[choice % len], rest, replacement);
        }
        _ => *node = replacement,
    }
}

fn check_never_panics(text: &str, format: Format) {
    match Scene::parse(text, format, "fuzz.json") {
        Ok(scene) => {
            let m = measure(&scene);
            for pair in &m.pairs {
                assert!(pair.edge_distance.0.is_finite() && pair.range.0.is_finite());
                assert!((0.0..=1.0).contains(&pair.arc_fraction));
            }
            let report = rulings(&scene);
            assert_eq!(report.units.len(), scene.units.len());
            for unit in &report.units {
                assert!(unit.rulings.iter().all(|r| !r.explanation.is_empty()));
            }
        }
        Err(error) => assert!(error.to_string().starts_with("fuzz.json"), "{error}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_documents_never_panic(doc in any_json()) {
        check_never_panics(&doc.to_string(), Format::Json);
        if let Ok(toml_text) = toml::to_string(&doc) {
            check_never_panics(&toml_text, Format::Toml);
        }
    }

    #[test]
    fn mutated_samples_never_panic(
        which in 0usize..16,
        choices in prop::collection::vec(0usize..64, 1..6),
        replacement in any_json(),
    ) {
        let samples = samples();
        let mut doc = samples[which % samples.len()].clone();
        mutate(&mut doc, &choices, replacement);
        check_never_panics(&doc.to_string(), Format::Json);
    }

    #[test]
    fn random_bytes_never_panic(text in ".{0,200}") {
        check_never_panics(&text, Format::Json);
        check_never_panics(&text, Format::Toml);
    }
}

#[test]
fn the_cli_reports_a_malformed_scene_without_panicking() {
    let dir = std::env::temp_dir().join(format!("vedette-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("bad.json");
    std::fs::write(
        &path,
        r#"{"ruleset": "black-powder", "table": {"width": 72, "depth": 48},
        "units": [{"id": "x", "side": "a", "kind": "infantry", "front_center": [1, 1],
                   "facing": 0, "width": -3, "depth": 1}]}"#,
    )
    .expect("write");
    let error = vedette(&["measure", path.to_str().expect("utf-8")]).expect_err("invalid");
    assert!(
        error.contains("bad.json") && error.contains("unit 'x'") && error.contains("width"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
