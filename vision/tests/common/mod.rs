//! What the vision crate's tests share: the table and the picture most of them see.
//!
//! Each test file is a crate of its own and uses only some of this.
#![allow(dead_code)]

use calibration::{ImageSize, TableSize};

/// A 6' × 4' table.
pub const TABLE: TableSize = TableSize {
    width: 72.0,
    depth: 48.0,
};

/// A 1080p webcam's picture.
pub const HD: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};

/// The sample's two lines staged on [`TABLE`] with anchors in its corners, every stand a 1"
/// tag `tag_height` above the cloth: the scene, its roster, the anchors, the synthetic table.
pub fn two_lines_staged(
    tag_height: rules::units::Inches,
) -> (
    rules::Scene,
    roster::Roster,
    calibration::AnchorLayout,
    vision::synthetic::SyntheticTable,
) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/scenes/two-lines.json");
    let scene = rules::Scene::load(&path).expect("the sample scene");
    let tags = roster::TagDefaults {
        size: 1.0,
        height: tag_height.0,
        ..roster::TagDefaults::default()
    };
    let roster = roster::Roster::for_scene(&scene, tags, 10);
    let anchors = calibration::AnchorLayout::corners(
        TABLE,
        rules::units::Inches(2.0),
        rules::units::Inches(1.5),
    );
    let world = vision::synthetic::SyntheticTable::stage(&scene, &roster, &anchors);
    (scene, roster, anchors, world)
}
