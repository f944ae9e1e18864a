//! The camera commands as a player runs them, on the sample picture of `samples/camera/` and on
//! the bad inputs a table produces.

mod common;

use std::path::PathBuf;
use std::process::Output;

use common::vedette;

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    common::scratch(&format!("camera-cli-{name}"))
}

const PICTURE: &str = "samples/camera/two-lines.jpg";
const ANCHORS: &str = "samples/camera/anchors.toml";
const ROSTER: &str = "samples/camera/two-lines-roster.toml";

/// A sample file's text (the test runs in `ui/`, the binary at the workspace root).
fn sample(relative: &str) -> String {
    std::fs::read_to_string(format!("{}/../{relative}", env!("CARGO_MANIFEST_DIR")))
        .expect("sample file")
}

fn calibrated(dir: &std::path::Path) -> String {
    let camera = dir.join("camera.toml").display().to_string();
    let output = vedette(&["calibrate", PICTURE, "--anchors", ANCHORS, "-o", &camera]);
    let (out, err) = text(&output);
    assert!(output.status.success(), "{err}");
    assert!(
        out.contains("4 anchors used") && out.contains("reprojection: RMS"),
        "{out}"
    );
    camera
}

#[test]
fn detect_lists_every_tag_of_the_sample_picture() {
    let output = vedette(&["detect", "--json", PICTURE]);
    let (out, err) = text(&output);
    assert!(output.status.success(), "{err}");
    let tags: serde_json::Value = serde_json::from_str(&out).expect("json");
    let ids: Vec<u64> = tags
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|t| t["id"].as_u64())
        .collect();
    for anchor in 0..4 {
        assert!(ids.contains(&anchor), "anchor {anchor} not found: {ids:?}");
    }
    assert!(ids.len() >= 14, "{ids:?}");
    assert!(tags[0]["corners"].as_array().is_some_and(|c| c.len() == 4));
}

#[test]
fn calibrate_then_locate_places_the_45th_foot_where_the_scene_has_it() {
    let dir = temp("locate");
    let camera = calibrated(&dir);
    let output = vedette(&[
        "locate",
        PICTURE,
        "--calibration",
        &camera,
        "--roster",
        ROSTER,
        "--json",
    ]);
    let (out, err) = text(&output);
    assert!(output.status.success(), "{err}");
    let located: serde_json::Value = serde_json::from_str(&out).expect("json");
    let unit = located["scene"]["units"]
        .as_array()
        .expect("units")
        .iter()
        .find(|u| u["id"] == "45th-foot")
        .cloned()
        .expect("45th");
    let center = &unit["stands"][0]["center"];
    let (x, y) = (
        center[0].as_f64().expect("x"),
        center[1].as_f64().expect("y"),
    );
    // samples/scenes/two-lines.json: front centre (30, 12), 1.6" deep, so the centre is (30, 11.2).
    assert!(
        (x - 30.0).abs() < 0.05 && (y - 11.2).abs() < 0.05,
        "45th Foot at ({x}, {y})"
    );
    assert_eq!(located["calibration"]["status"], "steady");

    // `-o` writes the scene, which the other commands read as any scene file.
    let scene = dir.join("located.json").display().to_string();
    let locate_to = |output: &str| {
        vedette(&[
            "locate",
            PICTURE,
            "--calibration",
            &camera,
            "--roster",
            ROSTER,
            "-o",
            output,
        ])
    };
    let (out, err) = text(&locate_to(&scene));
    assert!(out.contains("located.json: 6 unit(s)"), "{out}{err}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&scene).expect("the scene")).expect("json");
    assert_eq!(written["units"], located["scene"]["units"]);
    let output = vedette(&["rulings", &scene]);
    let (out, err) = text(&output);
    assert!(
        output.status.success() && out.contains("45th Foot"),
        "{out}{err}"
    );
    // Never over a file without --force, nor without a roster to make a scene from.
    let (_, err) = text(&locate_to(&scene));
    assert!(
        err.contains("located.json") && err.contains("--force"),
        "{err}"
    );
    let (_, err) = text(&vedette(&[
        "locate",
        PICTURE,
        "--calibration",
        &camera,
        "-o",
        &scene,
        "--force",
    ]));
    assert!(err.contains("give --roster"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn analyze_rules_on_the_picture_and_draws_it() {
    let dir = temp("analyze");
    let camera = calibrated(&dir);
    let annotated = dir.join("annotated.png").display().to_string();
    let output = vedette(&[
        "analyze",
        PICTURE,
        "--calibration",
        &camera,
        "--roster",
        ROSTER,
        "--annotate",
        &annotated,
    ]);
    let (out, err) = text(&output);
    assert!(output.status.success(), "{err}");
    assert!(out.contains("45th Foot must shoot at 3e Ligne"), "{out}");
    let picture = vision::read_image(std::path::Path::new(&annotated)).expect("annotated picture");
    assert_eq!(
        vision::image_size(&picture),
        calibration::ImageSize {
            width: 1920,
            height: 1080
        }
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Two lines of sixteen long-named units an inch apart across the sample table's middle.
fn crowded_scene() -> String {
    let units: Vec<serde_json::Value> = (0..16)
        .map(|i| {
            let (side, y, facing) = if i < 8 {
                ("red", 23.0, 90.0)
            } else {
                ("blue", 25.0, 270.0)
            };
            serde_json::json!({
                "id": format!("unit-{i}"),
                "name": format!("{} Battalion, {}th Regiment of Foot", i + 1, 20 + i),
                "side": side,
                "kind": "infantry",
                "formation": "line",
                "front_center": [16.0 + 5.0 * f64::from(i % 8), y],
                "facing": facing,
                "width": 4.0,
                "depth": 1.5,
            })
        })
        .collect();
    serde_json::json!({
        "ruleset": "black-powder",
        "table": {"width": 72, "depth": 48},
        "units": units,
    })
    .to_string()
}

#[test]
fn the_labels_of_a_crowded_table_are_all_readable() {
    let dir = temp("crowded");
    let path = |name: &str| dir.join(name).display().to_string();
    let scene = path("crowded.json");
    std::fs::write(&scene, crowded_scene()).expect("scene written");
    let (picture, roster, camera) = (
        path("crowded.png"),
        path("roster.toml"),
        path("camera.toml"),
    );
    let run = |args: &[&str]| {
        let output = vedette(args);
        assert!(output.status.success(), "{args:?}: {}", text(&output).1);
        output
    };
    run(&[
        "render",
        &scene,
        "-o",
        &picture,
        "--save-roster",
        &roster,
        "--width",
        "1280",
        "--height",
        "720",
    ]);
    run(&["calibrate", &picture, "--anchors", ANCHORS, "-o", &camera]);
    let annotated = path("seen.png");
    let output = run(&[
        "analyze",
        &picture,
        "--calibration",
        &camera,
        "--roster",
        &roster,
        "--annotate",
        &annotated,
        "--json",
    ]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let boxes: Vec<(String, [i64; 4])> = value["annotated"]["labels"]
        .as_array()
        .expect("labels")
        .iter()
        .map(|l| {
            let b: Vec<i64> = l["box"]
                .as_array()
                .expect("a box")
                .iter()
                .filter_map(serde_json::Value::as_i64)
                .collect();
            (
                l["text"].as_str().unwrap_or_default().to_owned(),
                [b[0], b[1], b[2], b[3]],
            )
        })
        .collect();
    let names = boxes.iter().filter(|(t, _)| t.contains("Regiment")).count();
    assert_eq!(names, 16, "every unit named: {boxes:?}");
    for (i, (a, [x, y, w, h])) in boxes.iter().enumerate() {
        assert!(
            *x >= 0 && *y >= 0 && x + w <= 1280 && y + h <= 720,
            "{a} leaves the picture"
        );
        for (b, [x2, y2, w2, h2]) in &boxes[i + 1..] {
            let apart = x + w <= *x2 || x2 + w2 <= *x || y + h <= *y2 || y2 + h2 <= *y;
            assert!(apart, "{a} and {b} overlap");
        }
    }
    // What was left out for want of room is said, not silently dropped.
    let left_out = value["annotated"]["left_out"].as_array().expect("left out");
    let output = run(&[
        "analyze",
        &picture,
        "--calibration",
        &camera,
        "--roster",
        &roster,
        "--annotate",
        &annotated,
        "--force",
    ]);
    let (out, _) = text(&output);
    assert_eq!(
        out.contains("label(s) left out"),
        !left_out.is_empty(),
        "{out}"
    );
    let drawn = vision::read_image(std::path::Path::new(&annotated)).expect("annotated picture");
    assert_eq!(vision::image_size(&drawn).width, 1280);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_inputs_are_named_and_nothing_panics() {
    let dir = temp("bad");
    let camera = calibrated(&dir);
    let path = |name: &str| dir.join(name).display().to_string();

    // An unreadable image.
    std::fs::write(path("frame.jpg"), b"not a picture").expect("write");
    let (_, err) = text(&vedette(&["detect", &path("frame.jpg")]));
    assert!(
        err.contains("frame.jpg") && err.contains("cannot decode"),
        "{err}"
    );

    // No anchors in view: a picture of the table with the anchors left off.
    let no_anchors = path("no-anchors.toml");
    std::fs::write(&no_anchors, sample(ANCHORS).replace("id = ", "id = 10")).expect("write");
    let (_, err) = text(&vedette(&[
        "calibrate",
        PICTURE,
        "--anchors",
        &no_anchors,
        "-o",
        &path("x.toml"),
    ]));
    assert!(err.contains("0 of the 4 anchors in view"), "{err}");

    // An anchors file with three anchors.
    let three = path("three.toml");
    let text_anchors = sample(ANCHORS);
    std::fs::write(
        &three,
        &text_anchors[..text_anchors.rfind("[[anchors]]").expect("anchor")],
    )
    .expect("write");
    let (_, err) = text(&vedette(&[
        "calibrate",
        PICTURE,
        "--anchors",
        &three,
        "-o",
        &path("x.toml"),
    ]));
    assert!(
        err.contains("three.toml") && err.contains("3 anchor(s) listed"),
        "{err}"
    );

    // A corrupt calibration file.
    let corrupt = path("corrupt.toml");
    std::fs::write(
        &corrupt,
        std::fs::read_to_string(&camera)
            .expect("camera")
            .replacen("focal_x = ", "focal_x = [", 1),
    )
    .expect("write");
    let (_, err) = text(&vedette(&["locate", PICTURE, "--calibration", &corrupt]));
    assert!(err.contains("corrupt.toml:"), "{err}");

    // A calibration with a number that is not one: TOML allows nan and inf.
    let nan = path("nan.toml");
    let good = std::fs::read_to_string(&camera).expect("camera");
    let at = good.find("rotation = [").expect("rotation") + "rotation = [".len();
    std::fs::write(&nan, format!("{}nan, {}", &good[..at], &good[at..])).expect("write");
    let (_, err) = text(&vedette(&["locate", PICTURE, "--calibration", &nan]));
    assert!(
        err.contains("nan.toml:")
            && err.contains("camera.pose.rotation[0]: must be a finite number"),
        "{err}"
    );

    // A roster naming a tag twice.
    let twice = path("twice.toml");
    std::fs::write(&twice, sample(ROSTER).replacen("tag = 11", "tag = 10", 1)).expect("write");
    let (_, err) = text(&vedette(&[
        "locate",
        PICTURE,
        "--calibration",
        &camera,
        "--roster",
        &twice,
    ]));
    assert!(
        err.contains("twice.toml:") && err.contains("tag 10 is on"),
        "{err}"
    );

    // A roster giving a stand an anchor's tag: it would be put at the table's corner.
    let anchor_tag = path("anchor-tag.toml");
    std::fs::write(
        &anchor_tag,
        sample(ROSTER).replacen("tag = 11", "tag = 2", 1),
    )
    .expect("write");
    for args in [
        vec![
            "locate",
            PICTURE,
            "--calibration",
            &camera,
            "--roster",
            &anchor_tag,
        ],
        vec![
            "calibrate",
            PICTURE,
            "--anchors",
            ANCHORS,
            "--roster",
            &anchor_tag,
            "-o",
            &path("y.toml"),
        ],
    ] {
        let (_, err) = text(&vedette(&args));
        assert!(
            err.contains("anchor-tag.toml:")
                && err.contains("tag 2 on")
                && err.contains("is also an anchor of the table"),
            "{args:?}: {err}"
        );
    }

    // A roster printed in another family than the anchors: refused before any work.
    let other = path("other-family.toml");
    std::fs::write(
        &other,
        sample(ROSTER).replacen("[tags]", "[tags]\nfamily = \"tag25h9\"", 1),
    )
    .expect("write");
    let (_, err) = text(&vedette(&[
        "locate",
        PICTURE,
        "--calibration",
        &camera,
        "--roster",
        &other,
    ]));
    assert!(
        err.contains("other-family.toml") && err.contains("tag25h9 but the anchors are tag36h11"),
        "{err}"
    );
    let (_, err) = text(&vedette(&[
        "calibrate",
        PICTURE,
        "--anchors",
        ANCHORS,
        "--roster",
        &other,
        "-o",
        &path("x.toml"),
    ]));
    assert!(
        err.contains("other-family.toml") && err.contains("tag25h9 but the anchors are tag36h11"),
        "{err}"
    );

    assert!(!err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn pictures_too_small_to_hold_a_tag_or_too_large_to_work_on_are_refused_by_name() {
    let dir = temp("sizes");
    for (width, height) in [(1, 1), (2, 2), (500, 1)] {
        let name = format!("tiny-{width}x{height}.png");
        let file = dir.join(&name);
        image::GrayImage::new(width, height)
            .save(&file)
            .expect("write");
        let file = file.display().to_string();
        let output = dir.join("camera.toml").display().to_string();
        for command in [
            vec!["detect", file.as_str()],
            vec!["calibrate", &file, "--anchors", ANCHORS, "-o", &output],
        ] {
            let output = vedette(&command);
            let (_, err) = text(&output);
            assert_eq!(output.status.code(), Some(1), "{command:?}: {err}");
            assert!(
                err.contains(&name) && err.contains("too small to hold a tag"),
                "{command:?}: {err}"
            );
        }
    }
    // A 20000×20000 picture is refused from its header, before it is decoded into gigabytes.
    let huge = dir.join("huge.png");
    image::GrayImage::new(20_000, 20_000)
        .save(&huge)
        .expect("write");
    let output = vedette(&["detect", &huge.display().to_string()]);
    let (_, err) = text(&output);
    assert!(
        err.contains("huge.png") && err.contains("too large") && err.contains("64 megapixels"),
        "{err}"
    );
}

#[test]
fn no_command_writes_over_its_input_or_an_existing_file_without_force() {
    let dir = temp("outputs");
    let path = |name: &str| dir.join(name).display().to_string();
    let camera = calibrated(&dir);
    // Copies of the inputs, to see that they come through untouched.
    let (photo, anchors) = (path("photo.jpg"), path("anchors.toml"));
    std::fs::copy(format!("../{PICTURE}"), &photo).expect("copy");
    std::fs::write(&anchors, sample(ANCHORS)).expect("write");
    let before = (std::fs::read(&photo).expect("photo"), sample(ANCHORS));
    let refused = |output: Output, wanted: &str| {
        let (_, err) = text(&output);
        assert!(!output.status.success() && err.contains(wanted), "{err}");
    };
    let analyze = |annotate: &str, force: bool| {
        let mut args = vec![
            "analyze",
            &photo,
            "--calibration",
            &camera,
            "--roster",
            ROSTER,
        ];
        args.extend(["--annotate", annotate]);
        if force {
            args.push("--force");
        }
        vedette(&args)
    };

    // The photo as its own annotation, even with --force; the anchors as the calibration.
    refused(analyze(&photo, true), "input of the command");
    let calibrate = |output: &str, force: bool| {
        let mut args = vec!["calibrate", &photo, "--anchors", &anchors, "-o", output];
        if force {
            args.push("--force");
        }
        vedette(&args)
    };
    refused(calibrate(&anchors, true), "input of the command");
    assert_eq!(
        std::fs::read(&photo).expect("photo"),
        before.0,
        "the photo is untouched"
    );
    assert_eq!(
        std::fs::read_to_string(&anchors).expect("anchors"),
        before.1
    );

    // An existing output: refused before any work, replaced with --force.
    refused(
        calibrate(&camera, false),
        "already exists (--force to replace it)",
    );
    assert!(calibrate(&camera, true).status.success());
    let annotated = path("annotated.png");
    assert!(analyze(&annotated, false).status.success());
    refused(analyze(&annotated, false), "already exists");
    assert!(analyze(&annotated, true).status.success());
    let scene = "samples/scenes/two-lines.json";
    refused(
        vedette(&["render", scene, "-o", &annotated]),
        "already exists",
    );
    // Outputs that cannot be written: said plainly, once, before any work.
    refused(
        vedette(&["render", scene, "-o", "/no-such-folder/table.png"]),
        "/no-such-folder/table.png: cannot write: there is no folder /no-such-folder",
    );
    refused(
        vedette(&["render", scene, "-o", &path("table.unknown")]),
        "not a picture format Vedette writes: name it .png or .jpg",
    );
    let (_, err) = text(&vedette(&["roster", "check", &photo]));
    assert_eq!(
        err.matches("valid UTF-8").count(),
        1,
        "the cause said once: {err}"
    );

    // Nothing half-written is left beside the outputs.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_unit_seen_by_only_some_of_its_stands_is_filled_in_from_its_line_or_left_off_and_said() {
    let dir = temp("partial");
    let camera = calibrated(&dir);
    // A second stand on the 45th's line and a fifth skirmisher of the 95th, their tags (40, 41)
    // hidden from the camera: nowhere in the picture.
    let second = "[[units.stands]]\ntag = 40\nwidth = 9.4\ndepth = 1.6\n\n";
    let fifth = "[[units.stands]]\ntag = 41\nwidth = 1.0\ndepth = 1.0\n\n";
    // And a unit none of whose tags is in the picture: named as the roster names it.
    let lost = "[[units]]\nid = \"lost-company\"\nname = \"The Lost Company\"\nside = \"red\"\nkind = \"infantry\"\nformation = \"line\"\nweapon = \"smoothbore-musket\"\n\n[[units.stands]]\ntag = 42\nwidth = 4.0\ndepth = 1.6\n\n";
    let roster = sample(ROSTER)
        .replacen(
            "[[units]]\nid = \"95th-rifles\"",
            &format!("{second}[[units]]\nid = \"95th-rifles\""),
            1,
        )
        .replacen(
            "[[units]]\nid = \"rha-troop\"",
            &format!("{fifth}[[units]]\nid = \"rha-troop\""),
            1,
        )
        .replacen(
            "[[units]]\nid = \"rha-troop\"",
            &format!("{lost}[[units]]\nid = \"rha-troop\""),
            1,
        );
    assert!(
        roster.contains("tag = 40") && roster.contains("tag = 41"),
        "{roster}"
    );
    let roster_path = dir.join("roster.toml").display().to_string();
    std::fs::write(&roster_path, roster).expect("write");

    let output = vedette(&[
        "analyze",
        PICTURE,
        "--calibration",
        &camera,
        "--roster",
        &roster_path,
    ]);
    let (out, err) = text(&output);
    assert!(output.status.success(), "{err}");
    assert!(
        out.contains("⚠ partly seen: 45th-foot: stand(s) 2 (tag 40) not seen; filled in from its line — its rulings rest on a partial sighting"),
        "{out}"
    );
    assert!(
        out.contains("⚠ partly seen: 95th-rifles: stand(s) 5 (tag 41) not seen; left off the table: in skirmish"),
        "{out}"
    );
    assert!(
        out.contains("not seen: The Lost Company (lost-company)"),
        "{out}"
    );
    // The 45th still rules (its line filled in); the 95th, left off, is in no ruling.
    assert!(out.contains("45th Foot must shoot at 3e Ligne"), "{out}");
    assert!(
        !out.contains("95th Rifles may") && !out.contains("95th Rifles must"),
        "{out}"
    );

    // The same in JSON, and the 45th's line is two stands wide.
    let output = vedette(&[
        "locate",
        PICTURE,
        "--calibration",
        &camera,
        "--roster",
        &roster_path,
        "--json",
    ]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let partial = value["partial"].as_array().expect("partial");
    assert_eq!(partial.len(), 2, "{partial:?}");
    assert_eq!(partial[0]["placed"], true);
    assert_eq!(partial[1]["placed"], false);
    let units = value["scene"]["units"].as_array().expect("units");
    let foot = units
        .iter()
        .find(|u| u["id"] == "45th-foot")
        .expect("the 45th placed");
    assert_eq!(foot["stands"].as_array().map(Vec::len), Some(2), "{foot}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn calibrate_says_when_the_anchors_are_for_another_table() {
    let dir = temp("calibrate-table");
    let camera = dir.join("camera.toml").display().to_string();
    let calibrate = |played: &[&str]| {
        let args = [
            &[
                "calibrate",
                PICTURE,
                "--anchors",
                ANCHORS,
                "-o",
                &camera,
                "--force",
            ][..],
            played,
        ]
        .concat();
        let output = vedette(&args);
        let (out, err) = text(&output);
        assert!(output.status.success(), "{played:?}: {err}");
        assert!(out.contains("saved"), "{out}");
        out
    };
    // A book scenario on a 9'×5' table, with the sample's 6'×4' anchors: the same words as
    // render's, then what it does to a calibration.
    let scenario = "samples/scenarios/crimea-river.json";
    let out = calibrate(&["--scenario", scenario]);
    assert!(
        out.starts_with("warning: samples/camera/anchors.toml lays the anchors out for a 72\"×48\" table, but samples/scenarios/crimea-river.json is on a 108\"×60\" table")
            && out.contains("stands come out in the wrong places")
            && out.contains("vedette anchors --kit 4 --table 108x60in"),
        "{out}"
    );
    // The table told in centimetres.
    let out = calibrate(&["--table", "274x152cm"]);
    assert!(
        out.contains("but --table 274x152cm is a 107.9\"×59.8\" table"),
        "{out}"
    );
    // The right table, either way: no warning.
    let out = calibrate(&["--scenario", "samples/scenes/two-lines.json"]);
    assert!(!out.contains("warning"), "{out}");
    let out = calibrate(&["--table", "72x48in"]);
    assert!(!out.contains("warning"), "{out}");
    // A table that cannot be read is refused before any work.
    let output = vedette(&[
        "calibrate",
        PICTURE,
        "--anchors",
        ANCHORS,
        "-o",
        &camera,
        "--force",
        "--table",
        "huge",
    ]);
    let (_, err) = text(&output);
    assert!(
        !output.status.success() && err.contains("--table huge"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn render_says_when_the_anchors_are_for_another_table_or_the_tags_will_be_too_small() {
    let dir = temp("render-warnings");
    let picture = |name: &str| dir.join(name).display().to_string();
    let small = ["--width", "640", "--height", "360"];
    let render = |args: &[&str]| {
        let output = vedette(&[&["render"], args].concat());
        let (out, err) = text(&output);
        assert!(output.status.success(), "{args:?}: {err}");
        out
    };
    // A book scenario on a 9'×5' table with the sample's 6'×4' anchors.
    let crimea = picture("crimea.png");
    let scenario = "samples/scenarios/crimea-river.json";
    let out = render(&[&[scenario, "--anchors", ANCHORS, "-o", &crimea], &small[..]].concat());
    assert!(
        out.contains("lays the anchors out for a 72\"×48\" table")
            && out.contains("crimea-river.json is on a 108\"×60\" table"),
        "{out}"
    );
    // The sample table at 640×360: its 1" tags are a few pixels across.
    let scene = "samples/scenes/two-lines.json";
    let tiny = picture("small.png");
    let out = render(&[&[scene, "-o", &tiny], &small[..]].concat());
    assert!(
        out.contains("tags will be under 11 px across, too small for the detector to find"),
        "{out}"
    );
    assert!(!out.contains("lays the anchors out"), "{out}");
    // At 1080p they are all big enough: no warning.
    let out = render(&[scene, "-o", &picture("hd.png")]);
    assert!(!out.contains("warning:"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
