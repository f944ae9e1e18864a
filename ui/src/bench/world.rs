//! The synthetic world the benches share: the home table and its staged battle, the picture
//! size, the stands' heights and the busy club scenery, the generator that lays them out, and
//! the calibration the app would have from one picture of it.

use calibration::{AnchorLayout, ImageSize, TableSize};
use roster::{Roster, TagDefaults};
use rules::Scene;
use rules::scene::TableDoc;
use rules::units::Inches;
use vision::synthetic::{Scenery, SyntheticTable};

/// The pictures the benches take: a 1080p webcam's.
pub const HD: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};

/// Stand heights 3–5 mm (tag included), the same for a table's every picture.
pub fn heights(seed: u64) -> impl FnMut() -> f64 {
    let mut random = xorshift(seed);
    move || (3.0 + 2.0 * (random() % 1000) as f64 / 1000.0) / 25.4
}

/// A club table: a flocked mat, figures on the stands.
pub fn busy(mut staged: Staged) -> Staged {
    staged.world.scenery = Scenery::Busy { seed: 7 };
    staged
}

/// The home table the benches stage their battles on, 6' × 4'.
pub const TABLE: TableSize = TableSize {
    width: 72.0,
    depth: 48.0,
};

/// A battle staged on the synthetic table, with the anchors and roster that go with it.
pub struct Staged {
    /// Which tag is on which stand, at which height.
    pub roster: Roster,
    /// The table's corner anchors.
    pub anchors: AnchorLayout,
    /// The table to render.
    pub world: SyntheticTable,
}

/// Stands of 2"×1.5" with 1" tags, in a 9×5 grid over the whole table, each moved up to
/// `spread` inches from its grid point, at random facings (the far edge included, where tags
/// are smallest), each at its own height.
pub fn stage(seed: u64, spread: f64, heights: &mut dyn FnMut() -> f64) -> anyhow::Result<Staged> {
    let mut random = xorshift(seed);
    let mut next = move || (random() % 10_000) as f64 / 10_000.0;
    let mut units = Vec::new();
    for row in 0..5 {
        for col in 0..9 {
            let center = rules::geometry::TablePoint::new(
                6.0 + 7.5 * f64::from(col) + spread * (next() * 2.0 - 1.0),
                6.0 + 9.0 * f64::from(row) + spread * (next() * 2.0 - 1.0),
            );
            let stand = rules::scene::StandDoc {
                center,
                facing: next() * 360.0,
                width: 2.0,
                depth: 1.5,
                sd: None,
            };
            let mut unit: rules::scene::UnitDoc = serde_json::from_value(serde_json::json!({
                "id": format!("stand-{row}-{col}"), "side": if col % 2 == 0 { "red" } else { "blue" }, "kind": "infantry",
                // Muskets, so that the error bars' coverage has shooting rulings to judge.
                "formation": "line", "weapon": "smoothbore-musket"
            }))?;
            unit.stands = Some(vec![stand]);
            units.push(unit);
        }
    }
    let table = TableDoc {
        width: TABLE.width,
        depth: TABLE.depth,
    };
    let doc = rules::scene::SceneDoc::units_on(rules::RulesetId::BlackPowder, table, units);
    let scene = Scene::from_doc(doc, "benchmark table")?;
    let mut roster = Roster::for_scene(
        &scene,
        TagDefaults {
            size: 1.0,
            height: 0.16,
            ..TagDefaults::default()
        },
        10,
    );
    for stand in roster.units.iter_mut().flat_map(|u| u.stands.iter_mut()) {
        stand.tag_height = Some(heights());
    }
    let anchors = AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5));
    let world = SyntheticTable::stage(&scene, &roster, &anchors);
    Ok(Staged {
        roster,
        anchors,
        world,
    })
}

/// A small deterministic generator of the benchmarks' layouts (xorshift), seeded.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Which build is measured, for the report's header.
pub fn build() -> &'static str {
    if cfg!(debug_assertions) {
        "debug build (use --release for real figures)"
    } else {
        "release build"
    }
}

/// The calibration the app has once it has fitted the lens: from one picture's anchors and
/// the roster's stand tags, their corners refined against their patterns, and again through the
/// lens first fitted where it bends them.
pub fn calibrate_from_picture(
    image: &vision::Mat,
    detected: &[calibration::TagSighting],
    anchors: &calibration::AnchorLayout,
    stands: &std::collections::HashMap<u32, calibration::StandTagSpec>,
    size: calibration::ImageSize,
) -> anyhow::Result<calibration::TableCalibration> {
    use vision::refine::{TablePicture, TableTags, calibrate_pictures};
    let tags = TableTags {
        anchors,
        stands,
        board: None,
        previous: None,
        ground: None,
    };
    let fitted = calibrate_pictures(tags, &[TablePicture { image, detected }], size)?;
    Ok(fitted.calibration?)
}
