//! The AprilTag project's own test photos (NASA Swarmathon, CC BY-SA 2.0: see
//! `tests/data/apriltag-upstream/README.md`) with the corners the reference detector found.

use std::path::{Path, PathBuf};

use calibration::PixelPoint;
use vision::{DetectorSettings, TagDetector, read_gray};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/apriltag-upstream")
}

/// `id, (x y), (x y), (x y), (x y)` per line, in the AprilTag library's pixel convention.
fn reference(path: &Path) -> Vec<(u32, [PixelPoint; 4])> {
    let text = std::fs::read_to_string(path).expect("reference file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (id, rest) = line.split_once(',').expect("id");
            let numbers: Vec<f64> = rest
                .split(|c: char| c == '(' || c == ')' || c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().expect("number"))
                .collect();
            let corner = |i: usize| PixelPoint::new(numbers[2 * i], numbers[2 * i + 1]);
            (
                id.trim().parse().expect("id"),
                [corner(0), corner(1), corner(2), corner(3)],
            )
        })
        .collect()
}

#[test]
fn all_47_tags_of_the_upstream_photos_are_found_within_a_fifth_of_a_pixel() {
    // The reference was made at full resolution, without edge refinement.
    let settings = DetectorSettings {
        decimate: 1.0,
        refine_edges: false,
        ..DetectorSettings::default()
    };
    let mut detector = TagDetector::new(settings).expect("detector");
    let (mut total, mut worst) = (0, 0.0f64);
    let mut photos: Vec<PathBuf> = std::fs::read_dir(data())
        .expect("data")
        .map(|e| e.expect("entry").path())
        .collect();
    photos.retain(|p| p.extension().is_some_and(|e| e == "jpg"));
    photos.sort();
    assert_eq!(photos.len(), 3);
    for photo in photos {
        let expected = reference(&photo.with_extension("txt"));
        let found = detector
            .detect(&read_gray(&photo).expect("photo"))
            .expect("detects");
        assert_eq!(found.tags.len(), expected.len(), "{}", photo.display());
        for (id, corners) in &expected {
            // Our corners put the first pixel's centre at (0, 0); the reference at (0.5, 0.5).
            let error_to = |d: &vision::Detection| {
                d.sighting
                    .corners
                    .iter()
                    .zip(corners)
                    .map(|(a, b)| PixelPoint::new(a.x + 0.5, a.y + 0.5).distance(b).0)
                    .fold(0.0, f64::max)
            };
            let best = found
                .tags
                .iter()
                .filter(|d| d.sighting.id == *id)
                .map(error_to)
                .fold(f64::INFINITY, f64::min);
            assert!(
                best < 0.2,
                "{}: tag {id} at {:?}: nearest detection {best:.3} px off",
                photo.display(),
                corners[0]
            );
            worst = worst.max(best);
            total += 1;
        }
    }
    assert_eq!(total, 47);
    println!("47/47 tags, worst corner {worst:.3} px");
}

#[test]
fn an_unreadable_image_names_the_file() {
    let dir = std::env::temp_dir().join(format!("vedette-unreadable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("frame.jpg");
    std::fs::write(&bad, b"this is not a JPEG").expect("write");
    let error = read_gray(&bad).expect_err("not an image").to_string();
    assert!(
        error.contains("frame.jpg") && error.contains("cannot decode"),
        "{error}"
    );
    let missing = read_gray(&dir.join("missing.png"))
        .expect_err("missing")
        .to_string();
    assert!(
        missing.contains("missing.png") && missing.contains("no such file"),
        "{missing}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
