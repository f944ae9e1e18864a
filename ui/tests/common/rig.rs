//! A table for several cameras: twelve units on a 6'×4' table, its anchors and roster, and a
//! rendered webcam picture from each of two cameras hung over its halves.

use std::path::{Path, PathBuf};

use calibration::{AnchorLayout, Intrinsics, TableSize};
use rules::units::{Degrees, Inches};
use vision::synthetic::{Effects, Renderer, SyntheticTable, rig_cameras};

/// The table.
pub const TABLE: TableSize = TableSize {
    width: 72.0,
    depth: 48.0,
};

/// Twelve units in two lines across the table, the truth.
pub fn battle() -> rules::Scene {
    let units: Vec<serde_json::Value> = (0..12)
        .map(|i| {
            let x = 6.0 + 5.5 * f64::from(i);
            let y = if i % 2 == 0 { 14.0 } else { 34.0 };
            serde_json::json!({"id": format!("unit-{i}"), "name": format!("Unit {i}"),
                "side": if i % 2 == 0 { "red" } else { "blue" }, "kind": "infantry",
                "formation": "line", "stands": [{"center": [x, y],
                "facing": if i % 2 == 0 { 90.0 } else { 270.0 }, "width": 3.0, "depth": 1.5}]})
        })
        .collect();
    let doc = serde_json::json!({"ruleset": "black-powder",
        "table": {"width": TABLE.width, "depth": TABLE.depth}, "units": units});
    rules::Scene::from_doc(serde_json::from_value(doc).expect("a scene"), "test").expect("valid")
}

/// The table's files and each camera's picture, written into `folder`.
pub struct Table {
    /// Where every unit stands.
    pub truth: rules::Scene,
    /// The anchors file.
    pub anchors: PathBuf,
    /// The roster file.
    pub roster: PathBuf,
    /// Each camera's picture: west, east.
    pub pictures: Vec<PathBuf>,
}

pub fn table(folder: &Path) -> Table {
    let truth = battle();
    let roster = roster::Roster::for_scene(&truth, roster::TagDefaults::default(), 20);
    let layout = AnchorLayout::long_table(TABLE, 2, Inches(2.0), Inches(1.5));
    let world = SyntheticTable::stage(&truth, &roster, &layout);
    let size = calibration::ImageSize {
        width: 1920,
        height: 1080,
    };
    let lenses = vec![Intrinsics::from_field_of_view(size, Degrees(70.0)); 2];
    let mut renderer = Renderer::new();
    let pictures = rig_cameras(TABLE, &lenses, Inches(4.0), Degrees(25.0))
        .iter()
        .zip(["west", "east"])
        .enumerate()
        .map(|(k, (camera, name))| {
            let effects = Effects {
                seed: 40 + k as u64,
                ..Effects::WEBCAM
            };
            let image = renderer.render(&world, camera, &effects).expect("renders");
            let path = folder.join(format!("{name}.png"));
            vision::write_image(&path, &image).expect("written");
            path
        })
        .collect();
    let (anchors, roster_path) = (folder.join("anchors.toml"), folder.join("roster.toml"));
    layout.save(&anchors).expect("anchors saved");
    roster.save(&roster_path).expect("roster saved");
    Table {
        truth,
        anchors,
        roster: roster_path,
        pictures,
    }
}

/// A scratch folder of the test's own.
pub fn folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("vedette-{name}-{}", super::this_run()));
    std::fs::create_dir_all(&folder).expect("a folder");
    folder
}

/// `vedette serve` on the table's anchors and roster, with `cameras` (each a name and its
/// picture's file name in `folder`) listed in a cameras file written there.
pub fn serve_cameras(
    folder: &Path,
    table: &Table,
    cameras: &[(&str, &str)],
) -> super::served::Served {
    let listed: String = cameras
        .iter()
        .map(|(name, image)| format!("[[camera]]\nname = {name:?}\nimage = {image:?}\n\n"))
        .collect();
    let file = folder.join("cameras.toml");
    std::fs::write(&file, listed).expect("written");
    let arg = |path: &Path| path.display().to_string();
    let (file, anchors, roster) = (arg(&file), arg(&table.anchors), arg(&table.roster));
    super::served::Served::start(
        &[
            "serve",
            "--cameras",
            &file,
            "--anchors",
            &anchors,
            "--roster",
            &roster,
            "--listen",
            "127.0.0.1:0",
            "--no-record",
        ],
        &["table", "umpire"],
    )
}
