//! The terrain finder on battlefields dressed from seeds: most pieces found, of the right kind,
//! where they lie, from above and from the side, and no stand taken for terrain.
//! (`vedette bench terrain` measures the same over more tables, calibrated from the anchors;
//! this keeps the finder from getting worse on every `make test`.) Set
//! `VEDETTE_TERRAIN_PICTURES=DIR` to see each picture with what was found drawn on it.

use calibration::{ImageSize, TableSize};
use rules::units::Degrees;
use vision::refine::{TablePicture, TableTags, calibrate_pictures};
use vision::synthetic::{Battlefield, Effects, LensClass, Renderer, framing_camera_from};
use vision::terrain::score::{same_kind, score};
use vision::terrain::{find_terrain, stands_kept_clear};
use vision::{DetectorSettings, TagDetector};

const TABLE: TableSize = TableSize {
    width: 72.0,
    depth: 48.0,
};
const PICTURE: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};

/// What was found over some tables.
#[derive(Default)]
struct Tally {
    truths: usize,
    found: usize,
    kind_right: usize,
    ious: Vec<f64>,
    false_pieces: usize,
}

impl Tally {
    fn median_iou(&mut self) -> f64 {
        self.ious.sort_by(f64::total_cmp);
        self.ious.get(self.ious.len() / 2).copied().unwrap_or(0.0)
    }
}

/// The finder on these seeds' battlefields, seen from `tilt` off vertical.
fn survey(seeds: std::ops::Range<u64>, tilt: f64) -> Tally {
    let mut renderer = Renderer::new();
    let mut detector = TagDetector::new(DetectorSettings::default()).expect("a detector");
    let mut tally = Tally::default();
    for seed in seeds {
        let field = Battlefield::generate(seed, TABLE);
        let lens = LensClass::Ordinary.sample(PICTURE, seed);
        let camera = framing_camera_from(TABLE, lens, Degrees(tilt), Degrees(-90.0));
        let effects = Effects {
            seed,
            supersample: 1,
            ..Effects::WEBCAM
        };
        let picture = renderer
            .render(&field.world, &camera, &effects)
            .expect("rendered");
        // As a player runs `calibrate` then `terrain --roster`: the camera from the anchors,
        // the stands kept clear by their tags, found or looked for.
        let detected = detector.detect(&picture).expect("detected").sightings();
        let tags = TableTags {
            anchors: &field.anchors,
            stands: &Default::default(),
            board: None,
            previous: None,
            ground: None,
        };
        let pictures = [TablePicture {
            image: &picture,
            detected: &detected,
        }];
        let calibrated = calibrate_pictures(tags, &pictures, PICTURE)
            .expect("calibrated")
            .calibration
            .expect("a calibration from the anchors");
        let keepout = stands_kept_clear(&picture, &calibrated, &detected, &field.stand_tags)
            .expect("stands kept clear");
        let camera = calibrated.camera;
        let survey = find_terrain(&picture, &camera, TABLE, &keepout).expect("surveyed");
        if let Ok(dir) = std::env::var("VEDETTE_TERRAIN_PICTURES") {
            let drawn =
                vision::terrain::draw::draw(&picture, &camera, &survey.pieces).expect("drawn");
            let path = format!("{dir}/battlefield-{seed}-{tilt:.0}.png");
            vision::write_image(std::path::Path::new(&path), &drawn).expect("written");
        }
        let docs: Vec<_> = survey.pieces.iter().map(|p| p.doc.clone()).collect();
        let scored = score(&field.terrain, &docs);
        for piece in &scored.pieces {
            tally.truths += 1;
            match &piece.found {
                Some((id, kind, iou)) => {
                    tally.found += 1;
                    tally.ious.push(*iou);
                    tally.kind_right += usize::from(same_kind(*kind, piece.truth.1));
                    let why = survey
                        .pieces
                        .iter()
                        .find(|p| &p.doc.id == id)
                        .map_or("", |p| p.why.as_str());
                    eprintln!(
                        "seed {seed}: {} → {id}, IoU {iou:.2} ({why})",
                        piece.truth.0
                    );
                }
                None => eprintln!("seed {seed}: {} missed", piece.truth.0),
            }
        }
        tally.false_pieces += scored.false_pieces.len();
    }
    tally
}

#[test]
fn most_pieces_are_found_from_above_of_their_kind_and_where_they_lie() {
    let mut tally = survey(1..3, 8.0);
    let median = tally.median_iou();
    eprintln!(
        "{} of {} found, {} kinds right, median IoU {median:.2}, {} false",
        tally.found, tally.truths, tally.kind_right, tally.false_pieces
    );
    assert!(tally.found * 10 >= tally.truths * 8, "found too few");
    assert!(tally.kind_right * 10 >= tally.found * 8, "kinds wrong");
    assert!(median >= 0.65, "median IoU {median:.2}");
    assert!(
        tally.false_pieces <= 2,
        "{} false pieces",
        tally.false_pieces
    );
}

#[test]
fn most_pieces_are_found_from_the_side() {
    let mut tally = survey(3..5, 45.0);
    let median = tally.median_iou();
    eprintln!(
        "{} of {} found, {} kinds right, median IoU {median:.2}, {} false",
        tally.found, tally.truths, tally.kind_right, tally.false_pieces
    );
    assert!(tally.found * 10 >= tally.truths * 7, "found too few");
    assert!(tally.kind_right * 2 >= tally.found, "kinds wrong");
    assert!(median >= 0.6, "median IoU {median:.2}");
    assert!(
        tally.false_pieces <= 4,
        "{} false pieces",
        tally.false_pieces
    );
}
