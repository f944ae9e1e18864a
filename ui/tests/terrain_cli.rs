//! `vedette terrain` as a player runs it: the demo table rendered, calibrated from its anchors,
//! its terrain found, and the file it writes read by `rulings` and `locate --terrain`.

mod common;

use std::process::Output;

use common::vedette;
use rules::scene::{Format, Scene, SceneDoc, TerrainKind};
use rules::units::Inches;
use vision::terrain::score::score;

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The demo's scenario (the test runs in `ui/`, the binary at the workspace root).
const DEMO: &str = "samples/scenarios/crimea-river.json";

#[test]
fn the_demo_tables_terrain_is_found_and_its_file_is_read_by_rulings_and_locate() {
    let dir = common::scratch("terrain-cli-demo");
    let path = |name: &str| dir.join(name).display().to_string();
    // Four 2" anchors in the corners of the demo's 9' × 5' table, 1.5" in, as `render` lays
    // them.
    let anchors = path("anchors.toml");
    let table = calibration::TableSize {
        width: 108.0,
        depth: 60.0,
    };
    calibration::AnchorLayout::corners(table, Inches(2.0), Inches(1.5))
        .save(std::path::Path::new(&anchors))
        .expect("anchors");
    let run = |args: &[&str]| {
        let output = vedette(args);
        let (out, err) = text(&output);
        assert!(output.status.success(), "{args:?}: {out}{err}");
        out
    };
    let (picture, roster, camera, terrain) = (
        path("demo.png"),
        path("roster.toml"),
        path("camera.json"),
        path("terrain.json"),
    );
    run(&[
        "render",
        DEMO,
        "--anchors",
        &anchors,
        "-o",
        &picture,
        "--save-roster",
        &roster,
    ]);
    run(&["calibrate", &picture, "--anchors", &anchors, "-o", &camera]);
    let said = run(&[
        "terrain",
        &picture,
        "--calibration",
        &camera,
        "--roster",
        &roster,
        "-o",
        &terrain,
        "--all",
    ]);
    assert!(said.contains("piece(s) of terrain found"), "{said}");
    assert!(said.contains(&format!("{terrain}: ")), "{said}");

    // Every area piece the demo draws is found where it lies (its walls, given as lines, are
    // not drawn by `render`); hills and buildings as what they are. (`render` draws the
    // buildings flat, so seen from 40° they show no walls and are only proposed: `--all`.)
    let truth = Scene::load(std::path::Path::new(&format!("../{DEMO}"))).expect("demo");
    let truth: Vec<_> = SceneDoc::from(&truth)
        .terrain
        .into_iter()
        .filter(|t| t.polygon.is_some())
        .collect();
    let written = std::fs::read_to_string(&terrain).expect("terrain written");
    let found = Scene::parse(&written, Format::Json, &terrain).expect("the file is a scene");
    let found = SceneDoc::from(&found).terrain;
    let scored = score(&truth, &found);
    for piece in &scored.pieces {
        let Some((id, kind, iou)) = &piece.found else {
            panic!("{} not found: {said}", piece.truth.0);
        };
        assert!(
            *iou >= 0.6,
            "{} found as {id} with IoU {iou:.2}: {said}",
            piece.truth.0
        );
        if matches!(piece.truth.1, TerrainKind::Hill | TerrainKind::Building) {
            assert_eq!(
                *kind, piece.truth.1,
                "{} found as {id}: {said}",
                piece.truth.0
            );
        }
    }
    assert!(
        scored.false_pieces.len() <= 1,
        "{:?}: {said}",
        scored.false_pieces
    );

    // The file is read as it is.
    let ruled = run(&["rulings", &terrain]);
    assert!(!ruled.is_empty());
    let located = run(&[
        "locate",
        &picture,
        "--calibration",
        &camera,
        "--roster",
        &roster,
        "--terrain",
        &terrain,
    ]);
    assert!(located.contains("scene:"), "{located}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_inputs_to_terrain_are_named() {
    let dir = common::scratch("terrain-cli-bad");
    let path = |name: &str| dir.join(name).display().to_string();
    let refused = |args: &[&str], expected: &str| {
        let output = vedette(args);
        let (_, err) = text(&output);
        assert!(!output.status.success(), "{args:?} was taken");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    refused(
        &[
            "terrain",
            "samples/camera/two-lines.jpg",
            "--calibration",
            &path("missing.json"),
        ],
        "missing.json",
    );
    refused(
        &[
            "terrain",
            "samples/camera/two-lines.jpg",
            "--calibration",
            &path("c.json"),
            "-o",
            &path("terrain.toml"),
        ],
        "name it TERRAIN.json",
    );
    std::fs::remove_dir_all(&dir).ok();
}
