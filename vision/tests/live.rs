//! The live detector against the full-frame detector and the synthetic game's truth.

use calibration::{Camera, ImageSize, PixelPoint};
use rules::units::{Degrees, Inches};
use vision::live::schedule::{FullReason, Plan, ScheduleSettings};
use vision::synthetic::{Effects, GameSettings, MovingGame, Renderer, Scenery, framing_camera};
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

/// No band pass and no regular full pass: only following and the regions can find tags.
const REGIONS_ONLY: ScheduleSettings = ScheduleSettings {
    full_every: 10_000,
    full_gap: 10_000,
    bands: 0,
    band_decimate: 2.0,
    band_min_contrast: 40,
    found_share: 0.0,
};

/// A game on a busy table (a flocked mat, painted figures), like a real one.
fn busy(settings: GameSettings) -> MovingGame {
    MovingGame::new(GameSettings {
        scenery: Scenery::Busy { seed: 4 },
        ..settings
    })
}

#[test]
fn known_tags_are_followed_as_closely_as_a_full_frame_pass_finds_them_without_searching() {
    let game = busy(GameSettings::default());
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
    assert_eq!(report.plan, Plan::REGIONS);
    assert!(full.tags.len() >= 50, "{} tags", full.tags.len());
    assert_eq!(ids(&tracked), ids(&full));
    assert_eq!(report.followed, full.tags.len(), "every tag followed");
    assert_eq!(report.region_pixels, 0, "no region searched");
    // Each tag's corners where the camera put them, as closely as the full-frame pass finds
    // them (mean corner distance).
    let truth = game.visible_tags(0, &camera(&game));
    let error = |corners: &[PixelPoint; 4], id: u32| {
        let (_, true_corners) = truth.iter().find(|(t, _)| *t == id).expect("visible");
        let sum: f64 = corners
            .iter()
            .zip(true_corners)
            .map(|(p, q)| p.distance(q).0)
            .sum();
        sum / 4.0
    };
    let worst = |tags: &[vision::Detection]| {
        tags.iter()
            .map(|t| error(&t.sighting.corners, t.sighting.id))
            .fold(0.0, f64::max)
    };
    let (followed, detected) = (worst(&tracked.tags), worst(&full.tags));
    eprintln!("worst tag: followed {followed:.3} px, detected {detected:.3} px");
    assert!(followed < 0.5, "followed {followed:.3} px off");
    assert!(
        followed <= detected.max(0.3),
        "followed {followed:.3} px vs {detected:.3} px"
    );
}

#[test]
fn a_shoved_stand_too_far_to_follow_is_found_in_its_region() {
    let game = busy(GameSettings {
        moving_share: 0.0,
        hand_every: 0,
        ..GameSettings::default()
    });
    let mut renderer = Renderer::new();
    let camera = camera(&game);
    let before = game.table_at(0);
    // One stand shoved a third of an inch (several pixels) between two frames.
    let shoved = 10 + 20;
    let mut after = before.clone();
    for block in &mut after.blocks {
        if block.tags.iter().any(|t| t.id == shoved) {
            let step = rules::geometry::TableVector::new(0.33, 0.0);
            block.footprint = rules::geometry::OrientedRect::from_center(
                block.footprint.center() + step,
                block.footprint.facing(),
                block.footprint.width(),
                block.footprint.depth(),
            );
            for tag in &mut block.tags {
                tag.placement.center += step;
            }
        }
    }
    let effects = Effects {
        supersample: 2,
        ..Effects::WEBCAM
    };
    let mut detector = live(REGIONS_ONLY);
    let first = detector
        .detect(
            &renderer
                .render(&before, &camera, &effects)
                .expect("renders"),
        )
        .expect("detects");
    assert!(ids(&first).contains(&shoved));
    let found = detector
        .detect(&renderer.render(&after, &camera, &effects).expect("renders"))
        .expect("detects");
    let report = detector.last_pass().expect("report");
    assert_eq!(report.plan, Plan::REGIONS);
    assert_eq!(ids(&found), ids(&first), "every tag still found");
    assert_eq!(
        report.followed,
        first.tags.len() - 1,
        "all but the shoved one followed"
    );
    assert!(report.region_pixels > 0, "the shoved one was searched for");
    let tag = found
        .tags
        .iter()
        .find(|t| t.sighting.id == shoved)
        .expect("found");
    let truth = after
        .tags()
        .find(|t| t.id == shoved)
        .expect("on the table")
        .placement
        .corners()
        .map(|c| camera.project(&c).expect("in view"));
    for (p, q) in tag.sighting.corners.iter().zip(truth) {
        assert!(p.distance(&q).0 < 0.5, "{p} vs {q}");
    }
}

#[test]
fn moving_tags_stay_tracked_by_following_them_and_their_regions_alone() {
    let game = busy(GameSettings {
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
        assert_eq!(plan(&detector), Plan::REGIONS);
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
        if let Some(reason) = plan(&detector).full_look() {
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

/// At 4K the live detector keeps to regions: after the first frame, every moving stand in view
/// is followed from its prediction or found again in its region, none lost, and most of the
/// frame is never searched.
#[test]
fn at_4k_every_moving_stand_is_kept_by_following_and_its_region_alone() {
    const UHD: ImageSize = ImageSize {
        width: 3840,
        height: 2160,
    };
    let game = busy(GameSettings {
        moving_share: 1.0,
        speed: 6.0,
        hand_every: 0,
        ..GameSettings::default()
    });
    let camera = framing_camera(game.settings().table, UHD, Degrees(40.0), Degrees(70.0));
    let effects = Effects {
        supersample: 2,
        ..Effects::WEBCAM
    };
    let mut renderer = Renderer::new();
    let mut picture = |frame: u64| {
        let table = game.table_at(frame);
        let image = renderer.render(&table, &camera, &effects).expect("renders");
        assert_eq!(vision::image_size(&image), UHD);
        image
    };
    let mut detector = live(REGIONS_ONLY);
    let first = detector.detect(&picture(0)).expect("detects");
    let stands = game.visible_tags(0, &camera).len();
    assert_eq!(
        first.tags.len(),
        stands,
        "the first full pass finds every tag"
    );
    for frame in 1..4 {
        let found = detector.detect(&picture(frame)).expect("detects");
        let report = detector.last_pass().expect("report");
        assert_eq!(report.plan, Plan::REGIONS);
        // Followed, or found again in its region: a region is a few tags across.
        let share = report.region_pixels as f64 / f64::from(UHD.width * UHD.height);
        assert!(
            share < 0.25,
            "frame {frame}: {:.0} % of the frame searched",
            100.0 * share
        );
        eprintln!(
            "frame {frame}: {} followed, {:.1} % searched",
            report.followed,
            100.0 * share
        );
        let truth = game.visible_tags(frame, &camera);
        assert_eq!(
            found.tags.len(),
            truth.len(),
            "frame {frame}: every stand kept"
        );
        for tag in &found.tags {
            let (_, corners) = truth
                .iter()
                .find(|(t, _)| *t == tag.sighting.id)
                .expect("in view");
            let error =
                PixelPoint::mean(&tag.sighting.corners).distance(&PixelPoint::mean(corners));
            assert!(
                error.0 < 1.0,
                "frame {frame}: tag {} {error} off",
                tag.sighting.id
            );
        }
    }
}
