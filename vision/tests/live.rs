//! The live detector against the full-frame detector and the synthetic game's truth.

use calibration::{Camera, ImageSize, PixelPoint};
use rules::units::{Degrees, Inches};
use vision::live::schedule::{FullReason, Plan, ScheduleSettings};
use vision::synthetic::{Effects, GameSettings, MovingGame, Renderer, framing_camera};
use vision::{Detections, DetectorSettings, LiveDetector, LiveSettings, Mat, TagDetector};

const SIZE: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};

fn camera(game: &MovingGame) -> Camera {
    framing_camera(game.settings().table, SIZE, Degrees(40.0), Degrees(70.0))
}

fn render(game: &MovingGame, frame: u64, renderer: &mut Renderer) -> Mat {
    let effects = Effects {
        supersample: 2,
        ..Effects::WEBCAM
    };
    renderer
        .render(&game.table_at(frame), &camera(game), &effects)
        .expect("renders")
}

fn live(schedule: ScheduleSettings) -> LiveDetector {
    LiveDetector::new(LiveSettings {
        schedule,
        ..LiveSettings::default()
    })
    .expect("detector")
}

fn ids(d: &Detections) -> Vec<u32> {
    d.tags.iter().map(|t| t.sighting.id).collect()
}

fn plan(detector: &LiveDetector) -> Plan {
    detector.last_pass().expect("a frame was seen").plan
}

/// No band pass and no regular full pass: only the regions can find tags.
const REGIONS_ONLY: ScheduleSettings = ScheduleSettings {
    full_every: 10_000,
    full_gap: 10_000,
    bands: 0,
    band_decimate: 2.0,
    found_share: 0.0,
};

#[test]
fn regions_find_the_same_tags_with_the_same_corners_as_a_full_frame_pass() {
    let game = MovingGame::new(GameSettings::default());
    let image = render(&game, 0, &mut Renderer::new());
    let full = TagDetector::new(DetectorSettings::default())
        .expect("detector")
        .detect(&image)
        .expect("detects");
    let mut detector = live(REGIONS_ONLY);
    let first = detector.detect(&image).expect("detects");
    assert_eq!(plan(&detector), Plan::Full(FullReason::NothingKnown));
    assert_eq!(ids(&first), ids(&full));
    let tracked = detector.detect(&image).expect("detects");
    let report = detector.last_pass().expect("report");
    assert_eq!(report.plan, Plan::Tracking { band: None });
    assert!(report.region_pixels < SIZE.width as usize * SIZE.height as usize / 4);
    assert!(full.tags.len() >= 50, "{} tags", full.tags.len());
    assert_eq!(ids(&tracked), ids(&full));
    for (a, b) in tracked.tags.iter().zip(&full.tags) {
        for (p, q) in a.sighting.corners.iter().zip(b.sighting.corners) {
            assert!(p.distance(&q).0 < 0.05, "tag {}: {p} vs {q}", a.sighting.id);
        }
    }
}

#[test]
fn moving_tags_stay_tracked_by_their_regions_alone() {
    let game = MovingGame::new(GameSettings {
        moving_share: 1.0,
        speed: 6.0,
        hand_every: 0,
        ..GameSettings::default()
    });
    let camera = camera(&game);
    let mut renderer = Renderer::new();
    let mut full = TagDetector::new(DetectorSettings::default()).expect("detector");
    let mut detector = live(REGIONS_ONLY);
    let first = detector
        .detect(&render(&game, 0, &mut renderer))
        .expect("detects");
    assert!(first.tags.len() >= 50, "{} tags", first.tags.len());
    for frame in 1..6 {
        let image = render(&game, frame, &mut renderer);
        let found = detector.detect(&image).expect("detects");
        assert_eq!(plan(&detector), Plan::Tracking { band: None });
        let truth = game.visible_tags(frame, &camera);
        // Every tag known since the first frame that a full-frame pass finds in this frame.
        let expected = ids(&full.detect(&image).expect("detects"));
        for id in ids(&first).into_iter().filter(|id| expected.contains(id)) {
            let seen = found
                .tags
                .iter()
                .find(|t| t.sighting.id == id)
                .unwrap_or_else(|| panic!("frame {frame}: tag {id} lost"));
            let (_, corners) = truth.iter().find(|(t, _)| *t == id).expect("in view");
            let error =
                PixelPoint::mean(&seen.sighting.corners).distance(&PixelPoint::mean(corners));
            assert!(error.0 < 1.0, "frame {frame}: tag {id} {error} off");
        }
    }
}

#[test]
fn a_new_tag_is_found_by_the_band_pass_within_its_turn() {
    let game = MovingGame::new(GameSettings {
        moving_share: 0.0,
        hand_every: 0,
        stands: 20,
        tag_size: Inches(2.0),
        ..GameSettings::default()
    });
    let mut renderer = Renderer::new();
    let whole = render(&game, 0, &mut renderer);
    // The same table with one stand's tag missing from the start.
    let newcomer = 10 + 2;
    let mut without = game.table_at(0);
    for block in &mut without.blocks {
        block.tags.retain(|t| t.id != newcomer);
    }
    let effects = Effects {
        supersample: 2,
        ..Effects::WEBCAM
    };
    let before = renderer
        .render(&without, &camera(&game), &effects)
        .expect("renders");
    let decimated = TagDetector::new(DetectorSettings {
        decimate: 2.0,
        ..DetectorSettings::default()
    })
    .expect("detector")
    .detect(&whole)
    .expect("detects");
    assert!(
        ids(&decimated).contains(&newcomer),
        "big enough to be found decimated"
    );
    let bands = 3;
    let mut detector = live(ScheduleSettings {
        bands,
        full_every: 10_000,
        ..REGIONS_ONLY
    });
    let first = detector.detect(&before).expect("detects");
    assert!(!ids(&first).contains(&newcomer));
    let found_at = (0..bands).find(|_| {
        let found = detector.detect(&whole).expect("detects");
        assert!(matches!(plan(&detector), Plan::Tracking { .. }));
        ids(&found).contains(&newcomer)
    });
    assert!(found_at.is_some(), "not found in {bands} frames");
}

#[test]
fn a_covered_tag_asks_for_a_full_pass_but_not_on_every_frame() {
    let settings = GameSettings {
        moving_share: 0.0,
        hand_every: 2,
        hand_frames: 1,
        ..GameSettings::default()
    };
    let game = MovingGame::new(settings);
    let mut renderer = Renderer::new();
    // Frame 1 has the hand over the table, frame 2 not.
    let (covered, clear) = (
        render(&game, 1, &mut renderer),
        render(&game, 2, &mut renderer),
    );
    let camera = camera(&game);
    assert!(game.visible_tags(1, &camera).len() < game.visible_tags(2, &camera).len());
    let gap = 4;
    let mut detector = live(ScheduleSettings {
        full_gap: gap,
        ..REGIONS_ONLY
    });
    let mut full_frames = Vec::new();
    for frame in 0..13u32 {
        // The hand comes and goes on every other frame: tags go missing again and again.
        let image = if frame % 2 == 1 { &covered } else { &clear };
        detector.detect(image).expect("detects");
        if let Plan::Full(reason) = plan(&detector) {
            full_frames.push((frame, reason));
        }
    }
    assert_eq!(
        full_frames,
        vec![
            (0, FullReason::NothingKnown),
            (4, FullReason::Missing),
            (8, FullReason::Missing),
            (12, FullReason::Missing),
        ]
    );
}
