//! The small-base families, tag25h9 and tag16h5: bigger cells for the same printed size, fewer
//! ids, and codes closer together. On a busy table through a wide lens, small tags of each are
//! found near and far with their ids and corners, and neither the cloth, the figures nor a
//! stranger's tag is read as a roster tag.

use std::collections::HashMap;

use calibration::{Camera, ImageSize, PixelPoint, Settings, StandTagSpec, TagSighting, calibrate};
use roster::TagFamily;
use rules::units::{Degrees, Inches};
use vision::synthetic::{
    Effects, GameSettings, LensClass, MovingGame, Renderer, Scenery, Sheet, framing_camera,
    framing_camera_for,
};
use vision::{DetectorSettings, Mat, MissingTagSearch, TagDetector};

const SIZE: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};

const SMALL_FAMILIES: [TagFamily; 2] = [TagFamily::Tag25h9, TagFamily::Tag16h5];

/// As many stands as the family has ids for, with 0.6" tags: 8–20 px through the wide lens.
fn game(family: TagFamily) -> MovingGame {
    MovingGame::new(GameSettings {
        stands: MovingGame::most_stands(family),
        tag_size: Inches(0.6),
        hand_every: 0,
        scenery: Scenery::Busy { seed: 9 },
        family,
        ..GameSettings::default()
    })
}

fn camera(game: &MovingGame) -> Camera {
    let lens = LensClass::Wide.sample(SIZE, 4);
    framing_camera_for(game.settings().table, lens, Degrees(50.0))
}

fn picture(game: &MovingGame, camera: &Camera, seed: u64) -> Mat {
    let effects = Effects {
        seed,
        ..Effects::WEBCAM
    };
    Renderer::new()
        .render(&game.table_at(0), camera, &effects)
        .expect("renders")
}

/// The detector's tags, then the search's for the `roster`'s, as `vedette locate` does.
fn detect_then_search(
    game: &MovingGame,
    camera: &Camera,
    image: &Mat,
    roster: &HashMap<u32, StandTagSpec>,
) -> (Vec<TagSighting>, Vec<TagSighting>) {
    let settings = DetectorSettings {
        family: game.settings().family.name().into(),
        ..DetectorSettings::default()
    };
    let sightings = TagDetector::new(settings)
        .expect("detector")
        .detect(image)
        .expect("detects")
        .sightings();
    let calibration = calibrate(
        game.anchors(),
        &sightings,
        SIZE,
        &Settings {
            intrinsics: Some(camera.intrinsics),
            ..Settings::default()
        },
    )
    .expect("calibrates");
    let found = MissingTagSearch::new(&calibration, roster)
        .expect("search")
        .find_in(image, &sightings)
        .expect("searches");
    (sightings, found)
}

fn mean_corner_error(a: &[PixelPoint; 4], b: &[PixelPoint; 4]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p.distance(q).0).sum::<f64>() / 4.0
}

/// How far a sighting may be from the truth: a pixel, or for a big anchor bent by the wide lens
/// (its edges curve; the detector fits straight ones), a tenth of its side.
fn tolerance(corners: &[PixelPoint; 4]) -> f64 {
    (0.1 * side(corners)).max(1.0)
}

fn side(corners: &[PixelPoint; 4]) -> f64 {
    vision::live::roi::side(corners).0
}

#[test]
fn small_tags_of_the_small_families_are_found_with_their_ids_and_corners() {
    for family in SMALL_FAMILIES {
        let game = game(family);
        let camera = camera(&game);
        let image = picture(&game, &camera, 3);
        let (sightings, found) = detect_then_search(&game, &camera, &image, &game.stand_tags());
        let truth: HashMap<u32, [PixelPoint; 4]> =
            game.visible_tags(0, &camera).into_iter().collect();
        for tag in sightings.iter().chain(&found) {
            let true_corners = truth
                .get(&tag.id)
                .unwrap_or_else(|| panic!("{family}: tag {} is on no tag in view", tag.id));
            let error = mean_corner_error(&tag.corners, true_corners);
            assert!(
                error < tolerance(true_corners),
                "{family}: tag {} is {error:.2} px off",
                tag.id
            );
        }
        let wanted: Vec<u32> = game
            .stand_tags()
            .into_keys()
            .filter(|id| truth.get(id).is_some_and(|c| side(c) >= 11.0))
            .collect();
        let smallest = wanted
            .iter()
            .map(|id| side(&truth[id]))
            .fold(f64::INFINITY, f64::min);
        assert!(
            smallest < 14.0,
            "{family}: the far tags must be small ({smallest:.1} px)"
        );
        let seen = wanted
            .iter()
            .filter(|id| sightings.iter().chain(&found).any(|t| t.id == **id))
            .count();
        assert!(
            seen as f64 >= 0.9 * wanted.len() as f64,
            "{family}: {seen} of {} stands of 11 px and more seen",
            wanted.len()
        );
    }
}

#[test]
fn the_cloth_figures_and_strangers_tags_never_become_the_rosters_tags_in_the_small_families() {
    for family in SMALL_FAMILIES {
        let game = game(family);
        let camera = camera(&game);
        // The roster lists the even tags; the odd ones are strangers' on the same table.
        let mut roster = game.stand_tags();
        roster.retain(|id, _| id % 2 == 0);
        for seed in [5, 6] {
            let image = picture(&game, &camera, seed);
            let (sightings, found) = detect_then_search(&game, &camera, &image, &roster);
            let truth: HashMap<u32, [PixelPoint; 4]> =
                game.visible_tags(0, &camera).into_iter().collect();
            for tag in &sightings {
                let near = |c: &[PixelPoint; 4]| mean_corner_error(c, &tag.corners) < tolerance(c);
                assert!(
                    truth.get(&tag.id).is_some_and(near),
                    "{family}: the detector read tag {} where it is not",
                    tag.id
                );
            }
            for tag in &found {
                assert!(
                    roster.contains_key(&tag.id),
                    "{family}: searched for a stranger"
                );
                let error = mean_corner_error(&truth[&tag.id], &tag.corners);
                assert!(error < 1.0, "{family}: tag {} invented", tag.id);
            }
        }
    }
}

/// A rules sheet or an army list on the table: twelve sheets of print, capitals 0.08"–0.5",
/// among a tag16h5 army on a busy mat, seen 50° from vertical. With a decision-margin floor of
/// 30 the detector read a tag off a word of 0.25" print on this table (margin 32, the only
/// false decode in 84 pictures of `vedette bench print`).
#[test]
fn printed_text_is_never_read_as_a_tag16h5_tag() {
    let family = TagFamily::Tag16h5;
    let seed = 120;
    let game = MovingGame::new(GameSettings {
        stands: 12,
        scenery: Scenery::Busy { seed },
        family,
        hand_every: 0,
        seed,
        ..GameSettings::default()
    });
    let mut world = game.table_at(0);
    world.sheets = Sheet::scatter(world.table, 12, seed).expect("sheets printed");
    let camera = framing_camera(world.table, SIZE, Degrees(50.0), Degrees(70.0));
    let effects = Effects {
        seed,
        ..Effects::WEBCAM
    };
    let image = Renderer::new()
        .render(&world, &camera, &effects)
        .expect("renders");
    let settings = DetectorSettings {
        family: family.name().into(),
        ..DetectorSettings::default()
    };
    let mut detector = TagDetector::new(settings).expect("detector");
    let found = detector.detect(&image).expect("detects").sightings();
    let truth: HashMap<u32, [PixelPoint; 4]> = game.visible_tags(0, &camera).into_iter().collect();
    let genuine = |id: u32, corners: &[PixelPoint; 4]| {
        truth
            .get(&id)
            .is_some_and(|c| mean_corner_error(c, corners) < tolerance(c))
    };
    for tag in &found {
        assert!(
            genuine(tag.id, &tag.corners),
            "tag {} read where there is none (print?)",
            tag.id
        );
    }
    // The floor costs the army nothing: every true tag the library decodes at all is kept.
    let decoded = detector.detect_unscreened(&image).expect("decodes");
    let true_decodes: Vec<u32> = decoded
        .iter()
        .filter(|d| genuine(d.sighting.id, &d.sighting.corners))
        .map(|d| d.sighting.id)
        .collect();
    assert!(true_decodes.len() >= 12, "{true_decodes:?}");
    for id in true_decodes {
        assert!(found.iter().any(|t| t.id == id), "true tag {id} dropped");
    }
}
