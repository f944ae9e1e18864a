//! The full lens calibration on rendered pictures: a distorted lens shows the printed board at
//! several angles; the board's tags are found and the lens measured back.

use calibration::{
    Board, Camera, CameraPose, Distortion, ImageSize, Intrinsics, TablePoint3, TableSize,
    calibrate_lens,
};
use nalgebra::Vector3;
use rules::geometry::OrientedRect;
use rules::units::{Degrees, Inches};
use vision::synthetic::{Block, Effects, PrintedTag, Renderer, Rgb, SyntheticTable};
use vision::{TagDetector, image_size};

fn board_on_the_table(board: &Board) -> SyntheticTable {
    let pitch = board.tag_size + board.gap;
    let (w, h) = (
        pitch * f64::from(board.columns),
        pitch * f64::from(board.rows),
    );
    let mut world = SyntheticTable::new(TableSize {
        width: 30.0,
        depth: 30.0,
    });
    let tags = board
        .ids()
        .filter_map(|id| {
            Some(PrintedTag {
                id,
                placement: board.placement(id)?,
            })
        })
        .collect();
    let center = rules::geometry::TablePoint::new(w / 2.0, h / 2.0);
    world.blocks.push(Block {
        footprint: OrientedRect::from_center(
            center,
            Degrees(90.0),
            Inches(w + 0.6),
            Inches(h + 0.6),
        ),
        height: Inches::ZERO,
        colour: Rgb::PAPER,
        tags,
        figures: false,
        motion: None,
    });
    world
}

#[test]
fn a_distorted_lens_is_measured_from_rendered_views_of_the_board() {
    let size = ImageSize {
        width: 1280,
        height: 720,
    };
    let mut lens = Intrinsics::from_field_of_view(size, Degrees(75.0));
    lens.distortion = Distortion {
        k1: -0.18,
        k2: 0.06,
        p1: 0.0,
        p2: 0.0,
        k3: 0.0,
    };
    let board = Board::default();
    let world = board_on_the_table(&board);
    let centre = TablePoint3::new(3.75, 5.25, 0.0);
    let mut renderer = Renderer::new();
    let mut detector = TagDetector::new(Default::default()).expect("detector");
    let views: Vec<Vec<calibration::TagSighting>> = [
        (-7.0, -5.0, 12.0),
        (8.0, 3.0, 11.0),
        (2.0, -9.0, 13.0),
        (-4.0, 7.0, 11.0),
        (0.0, 0.0, 10.0),
    ]
    .iter()
    .map(|&(x, y, z)| {
        let camera = Camera {
            intrinsics: lens,
            pose: CameraPose::looking_at(centre + Vector3::new(x, y, z), centre, Vector3::y()),
        };
        let image = renderer
            .render(&world, &camera, &Effects::WEBCAM)
            .expect("renders");
        assert_eq!(image_size(&image), size);
        detector.detect(&image).expect("detects").sightings()
    })
    .collect();
    assert!(
        views.iter().all(|v| v.len() >= 20),
        "{:?}",
        views.iter().map(Vec::len).collect::<Vec<_>>()
    );
    let measured = calibrate_lens(&board, &views, size).expect("calibrates");
    let focal_error = measured.intrinsics.focal_x.0 / lens.focal_x.0 - 1.0;
    assert!(measured.rms.0 < 0.3, "RMS {}", measured.rms);
    assert!(
        focal_error.abs() < 0.01,
        "focal {:.1} vs {:.1}",
        measured.intrinsics.focal_x.0,
        lens.focal_x.0
    );
    assert!(
        (measured.intrinsics.distortion.k1 - lens.distortion.k1).abs() < 0.03,
        "{:?}",
        measured.intrinsics.distortion
    );
    // What matters: the measured lens puts an image point where the true one does.
    for (x, y) in [(0.0, 0.0), (0.5, 0.3), (-0.6, -0.3)] {
        let (a, b) = (measured.intrinsics.to_pixel(x, y), lens.to_pixel(x, y));
        assert!(a.distance(&b).0 < 1.5, "({x}, {y}): {a} vs {b}");
    }
}
