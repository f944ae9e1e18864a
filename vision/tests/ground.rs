//! A stand on a hill, seen by a camera at the table's side: placed on the cloth below its
//! tag's ray it lands inches away; placed on the ground the terrain gives, where it stands.
//! The truth is exact: every tag's corners are projected through a known camera.

use calibration::{AnchorLayout, ImageSize, Settings, TableSize, TagPlacement, TagSighting};
use rules::geometry::TablePoint;
use rules::ground::Ground;
use rules::scene::TerrainDoc;
use rules::units::{Degrees, Inches};
use vision::synthetic::framing_camera;
use vision::{locate_tags, locate_tags_on};

const TABLE: TableSize = TableSize {
    width: 72.0,
    depth: 48.0,
};
const TAG_HEIGHT: Inches = Inches(0.16);

fn sighting(camera: &calibration::Camera, id: u32, placement: &TagPlacement) -> TagSighting {
    TagSighting {
        id,
        corners: placement
            .corners()
            .map(|corner| camera.project(&corner).expect("in view")),
    }
}

/// A 2.5" hill with a flat top, its foot 24" × 20" in the middle of the table.
fn hill() -> TerrainDoc {
    let square = |x0: f64, y0: f64, w: f64, d: f64| {
        vec![
            TablePoint::new(x0, y0),
            TablePoint::new(x0 + w, y0),
            TablePoint::new(x0 + w, y0 + d),
            TablePoint::new(x0, y0 + d),
        ]
    };
    TerrainDoc {
        id: "ridge".into(),
        kind: rules::scene::TerrainKind::Hill,
        polygon: Some(square(24.0, 14.0, 24.0, 20.0)),
        line: None,
        height: Some(1),
        rise: Some(2.5),
        crest: Some(square(31.0, 20.0, 10.0, 8.0)),
    }
}

#[test]
fn a_stand_on_a_hill_is_placed_where_it_stands_when_the_hill_is_given() {
    let size = ImageSize {
        width: 1920,
        height: 1080,
    };
    let camera = framing_camera(TABLE, size, Degrees(45.0), Degrees(70.0));
    let anchors = AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5));
    let mut seen: Vec<TagSighting> = anchors
        .anchors
        .iter()
        .map(|a| sighting(&camera, a.id, &a.placement()))
        .collect();
    let calibration =
        calibration::calibrate(&anchors, &seen, size, &Settings::default()).expect("calibrates");
    let ground = Ground::of_docs(&[hill()]);
    // Stands on the crest, on each flank and at the foot, facing every way.
    let stands = [
        (TablePoint::new(36.0, 24.0), 90.0),
        (TablePoint::new(27.5, 24.0), 0.0),
        (TablePoint::new(44.0, 22.0), 200.0),
        (TablePoint::new(36.0, 16.0), 270.0),
        (TablePoint::new(36.0, 32.5), 45.0),
        (TablePoint::new(10.0, 40.0), 120.0),
    ];
    for (k, (at, facing)) in stands.iter().enumerate() {
        let placement = TagPlacement {
            center: *at,
            facing: Degrees(*facing),
            size: Inches(1.0),
            height: ground.height_at(at) + TAG_HEIGHT,
        };
        seen.push(sighting(&camera, 100 + k as u32, &placement));
    }
    let on_cloth = locate_tags(&calibration, None, &seen, TAG_HEIGHT);
    let on_ground = locate_tags_on(&calibration, None, &seen, TAG_HEIGHT, &ground);
    for (k, (at, facing)) in stands.iter().enumerate() {
        let id = 100 + k as u32;
        let pose = |tags: &vision::FrameTags| {
            tags.tags
                .iter()
                .find(|t| t.pose.id == id)
                .map(|t| t.pose)
                .expect("placed")
        };
        let placed = pose(&on_ground);
        let off = (placed.center - at).norm();
        assert!(off < 0.01, "stand {k} at {at:?}: placed {off:.4}\" away");
        assert!(
            Degrees(*facing).turn_to(placed.facing).0.abs() < 0.5,
            "stand {k}: facing {} for {facing}",
            placed.facing.0
        );
        let lift = ground.height_at(at).0;
        let flat_off = (pose(&on_cloth).center - at).norm();
        if lift > 1.0 {
            // What the cloth alone gives a stand raised over an inch: inches away.
            assert!(flat_off > 0.8, "stand {k}: {flat_off:.3}\" on the cloth");
        } else if lift == 0.0 {
            assert!(flat_off < 0.01, "stand {k} off the hill: {flat_off:.4}\"");
        }
    }
}
