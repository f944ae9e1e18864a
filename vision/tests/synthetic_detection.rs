//! The detector against the synthetic renderer's ground truth.

use calibration::{
    Camera, CameraPose, ImageSize, Intrinsics, TablePoint3, TableSize, TagPlacement,
};
use nalgebra::Vector3;
use rules::geometry::{OrientedRect, TablePoint};
use rules::units::{Degrees, Inches};
use vision::synthetic::{Block, Effects, PrintedTag, Renderer, Rgb, SyntheticTable};
use vision::{DetectorSettings, TagDetector};

fn camera(size: ImageSize, tilt: f64) -> Camera {
    let target = TablePoint3::new(36.0, 24.0, 0.0);
    let d = 70.0;
    let eye = TablePoint3::new(
        36.0,
        24.0 - d * tilt.to_radians().sin(),
        d * tilt.to_radians().cos(),
    );
    Camera {
        intrinsics: Intrinsics::from_field_of_view(size, Degrees(62.0)),
        pose: CameraPose::looking_at(eye, target, Vector3::y()),
    }
}

/// A row of stands with 1.5" tags at assorted facings.
fn table() -> SyntheticTable {
    let mut world = SyntheticTable::new(TableSize {
        width: 72.0,
        depth: 48.0,
    });
    for i in 0..12u32 {
        let center = TablePoint::new(8.0 + 5.0 * f64::from(i), 12.0 + 2.0 * f64::from(i % 5));
        let facing = Degrees(f64::from(i) * 37.0);
        let height = Inches(0.15);
        world.blocks.push(Block {
            footprint: OrientedRect::from_center(center, facing, Inches(2.4), Inches(2.0)),
            height,
            colour: Rgb(150, 40, 40),
            tags: vec![PrintedTag {
                id: 10 + i,
                placement: TagPlacement {
                    center,
                    facing,
                    size: Inches(1.5),
                    height,
                },
            }],
            figures: true,
            motion: None,
        });
    }
    world
}

#[test]
fn every_tag_is_found_with_its_corners_where_the_camera_put_them() {
    let size = ImageSize {
        width: 1280,
        height: 720,
    };
    let camera = camera(size, 35.0);
    let world = table();
    let image = Renderer::new()
        .render(&world, &camera, &Effects::IDEAL)
        .expect("renders");
    let mut detector = TagDetector::new(DetectorSettings::default()).expect("detector");
    let found = detector.detect(&image).expect("detects");
    assert_eq!(
        found.tags.len(),
        12,
        "{:?}",
        found.tags.iter().map(|t| t.sighting.id).collect::<Vec<_>>()
    );
    let (mut worst, mut squares): (f64, f64) = (0.0, 0.0);
    for tag in world.tags() {
        let seen = found
            .tags
            .iter()
            .find(|d| d.sighting.id == tag.id)
            .expect("found");
        for (truth, corner) in tag.placement.corners().iter().zip(seen.sighting.corners) {
            let truth = camera.project(truth).expect("in front");
            let error = truth.distance(&corner).0;
            worst = worst.max(error);
            squares += error * error;
        }
    }
    let rms = (squares / 48.0).sqrt();
    assert!(
        rms < 0.15 && worst < 0.4,
        "corners: rms {rms:.3} px, worst {worst:.3} px"
    );
}
