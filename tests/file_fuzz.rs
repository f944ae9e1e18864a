//! Every file the app and the commands read — rosters, anchor layouts, calibrations, profiles
//! and the app's stored settings — mutated at random never panics Vedette: each either loads and
//! is usable, or fails with an error that names the file. (Scenes: `scene_fuzz.rs`.)

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use calibration::{AnchorLayout, PixelPoint, TableCalibration};
use proptest::prelude::*;
use rules::units::Inches;
use rules::{Profile, RulesetId, Scene};
use toml::Value;
use vedette_tests::{vedette, workspace_root};

/// Any TOML value a careless edit leaves, numbers that are not numbers included.
fn any_toml() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Boolean),
        any::<i64>().prop_map(Value::Integer),
        prop_oneof![
            any::<f64>(),
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(-1.0),
            Just(0.0),
            Just(1e300),
            -100.0..100.0f64
        ]
        .prop_map(Value::Float),
        "[a-z0-9 .-]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_-]{1,10}", inner, 0..4)
                .prop_map(|m| Value::Table(m.into_iter().collect())),
        ]
    })
}

/// Replace the value at a random path of `node`.
fn mutate(node: &mut Value, choices: &[usize], replacement: Value) {
    let Some((&choice, rest)) = choices.split_first() else {
        *node = replacement;
        return;
    };
    match node {
        Value::Table(table) if !table.is_empty() => {
            let key = table
                .keys()
                .nth(choice % table.len())
                .cloned()
                .expect("key");
            mutate(table.get_mut(&key).expect("child"), rest, replacement);
        }
        Value::Array(items) if !items.is_empty() => {
            let len = items.len();
            mutate(&mut items[choice % len], rest, replacement);
        }
        _ => *node = replacement,
    }
}

/// The kinds of file, each with a sample and what a user's program does with it once loaded.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Roster,
    Anchors,
    Calibration,
    Profile,
}

const KINDS: [Kind; 4] = [
    Kind::Roster,
    Kind::Anchors,
    Kind::Calibration,
    Kind::Profile,
];

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vedette-file-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// A calibration of the sample picture, made once, as `vedette calibrate` writes it.
fn calibration_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let root = workspace_root();
        let output = scratch().join("camera.toml");
        let _ = std::fs::remove_file(&output);
        let camera = root.join("samples/camera");
        let args = [
            "calibrate".to_owned(),
            camera.join("two-lines.jpg").display().to_string(),
            "--anchors".to_owned(),
            camera.join("anchors.toml").display().to_string(),
            "-o".to_owned(),
            output.display().to_string(),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        vedette(&args).expect("the sample calibrates");
        std::fs::read_to_string(&output).expect("calibration written")
    })
}

impl Kind {
    fn sample(self) -> String {
        let read = |relative: &str| {
            std::fs::read_to_string(workspace_root().join(relative)).expect("sample file")
        };
        match self {
            Kind::Roster => read("samples/rosters/crimea-river.toml"),
            Kind::Anchors => read("samples/camera/anchors.toml"),
            Kind::Calibration => calibration_text().to_owned(),
            Kind::Profile => Profile::builtin_text(RulesetId::BlackPowder).to_owned(),
        }
    }

    /// Load the file and use it; an error must name the file.
    fn load_and_use(self, path: &Path) {
        let named = |error: String| {
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            assert!(
                error.contains(&name),
                "{self:?}: an error without the file: {error}"
            );
        };
        match self {
            Kind::Roster => match roster::Roster::load(path) {
                Ok(roster) => {
                    let _ = roster.stand_tags();
                    let _ = roster.mounts();
                }
                Err(error) => named(error.to_string()),
            },
            Kind::Anchors => match AnchorLayout::load(path) {
                Ok(layout) => {
                    for anchor in &layout.anchors {
                        assert!(anchor.size > 0.0 && anchor.size.is_finite(), "{anchor:?}");
                        assert!(anchor.center.iter().all(|c| c.is_finite()), "{anchor:?}");
                    }
                    assert!(layout.anchors.len() >= 3, "checked on loading");
                }
                Err(error) => named(error.to_string()),
            },
            Kind::Calibration => match TableCalibration::load(path) {
                Ok(calibration) => {
                    let size = calibration.camera.intrinsics.image_size;
                    let middle =
                        PixelPoint::new(f64::from(size.width) / 2.0, f64::from(size.height) / 2.0);
                    if let Some(point) = calibration.camera.unproject_at(&middle, Inches(0.1)) {
                        let _ = calibration.camera.project_at(&point, Inches(0.1));
                    }
                }
                Err(error) => named(error.to_string()),
            },
            Kind::Profile => match Profile::load(path) {
                Ok(profile) => {
                    let scene =
                        Scene::load(&workspace_root().join("samples/scenes/two-lines.json"))
                            .expect("sample scene");
                    let report = rules::rulings::rulings_with(&scene, &scene.scaled(&profile));
                    assert_eq!(report.units.len(), scene.units.len());
                }
                Err(error) => named(error.to_string()),
            },
        }
    }
}

fn try_text(kind: Kind, text: &str, case: &str) {
    let path = scratch().join(format!("{case}-{kind:?}.toml"));
    std::fs::write(&path, text).expect("write");
    kind.load_and_use(&path);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn mutated_files_load_or_are_refused_by_name(
        which in 0usize..4,
        choices in prop::collection::vec(0usize..64, 1..5),
        replacement in any_toml(),
    ) {
        let kind = KINDS[which];
        let mut doc: Value = toml::from_str(&kind.sample()).expect("the sample is TOML");
        mutate(&mut doc, &choices, replacement);
        if let Ok(text) = toml::to_string(&doc) {
            try_text(kind, &text, "mutated");
        }
    }

    #[test]
    fn cut_or_scribbled_files_load_or_are_refused_by_name(
        which in 0usize..4,
        cut in 0.0..1.0f64,
        scribble in prop::collection::vec((0.0..1.0f64, any::<u8>()), 0..4),
    ) {
        let kind = KINDS[which];
        let mut bytes = kind.sample().into_bytes();
        bytes.truncate((cut * bytes.len() as f64) as usize + 1);
        for (at, byte) in scribble {
            let index = ((at * bytes.len() as f64) as usize).min(bytes.len() - 1);
            bytes[index] = byte;
        }
        try_text(kind, &String::from_utf8_lossy(&bytes), "cut");
    }
}

/// eframe's storage, in memory, holding what a damaged settings file would.
struct Stored(String);

impl eframe::Storage for Stored {
    fn get_string(&self, key: &str) -> Option<String> {
        (key == vedette_ui::app::SETTINGS_KEY).then(|| self.0.clone())
    }
    fn set_string(&mut self, _: &str, value: String) {
        self.0 = value;
    }
    fn remove_string(&mut self, _: &str) {}
    fn flush(&mut self) {}
}

/// The app's settings as it stores them, written by the app itself.
fn stored_settings() -> String {
    let mut settings = vedette_ui::app::Settings::default();
    settings.setup.roster = Some(workspace_root().join("samples/rosters/crimea-river.toml"));
    let mut stored = Stored(String::new());
    eframe::set_value(&mut stored, vedette_ui::app::SETTINGS_KEY, &settings);
    assert!(!stored.0.is_empty(), "settings serialise");
    stored.0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn damaged_app_settings_fall_back_to_the_defaults_without_panicking(
        cut in 0.0..1.0f64,
        scribble in prop::collection::vec((0.0..1.0f64, any::<u8>()), 0..4),
    ) {
        let mut bytes = stored_settings().into_bytes();
        bytes.truncate((cut * bytes.len() as f64) as usize + 1);
        for (at, byte) in scribble {
            let index = ((at * bytes.len() as f64) as usize).min(bytes.len() - 1);
            bytes[index] = byte;
        }
        let storage = Stored(String::from_utf8_lossy(&bytes).into_owned());
        let _ = vedette_ui::app::load_settings(Some(&storage));
    }
}

#[test]
fn every_sample_file_loads_as_it_is() {
    for kind in KINDS {
        let path = scratch().join(format!("sample-{kind:?}.toml"));
        std::fs::write(&path, kind.sample()).expect("write");
        kind.load_and_use(&path);
    }
    let settings = vedette_ui::app::load_settings(Some(&Stored(stored_settings())));
    assert!(
        settings.setup.roster.is_some(),
        "the stored settings read back"
    );
}
