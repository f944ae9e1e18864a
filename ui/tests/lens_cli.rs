//! The lens measured from the table's own tags, as a player runs it: a table filmed through a
//! wide webcam (`render --lens wide`), calibrated from the anchors alone and then with the
//! roster's stand tags, and every unit located with each calibration against the scene's truth.

mod common;

use common::{scratch, vedette};

const SCENE: &str = "samples/scenes/two-lines.json";

fn run(args: &[&str]) -> String {
    let output = vedette(args);
    assert!(
        output.status.success(),
        "vedette {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Each unit's centre in a scene document: from its stands, or its front edge's centre.
fn centres(scene: &serde_json::Value) -> Vec<(String, [f64; 2])> {
    let units = scene["units"].as_array().expect("units");
    units
        .iter()
        .map(|unit| {
            let id = unit["id"].as_str().expect("id").to_owned();
            if let Some(stands) = unit["stands"].as_array() {
                let n = stands.len() as f64;
                let sum = stands.iter().fold([0.0, 0.0], |s, stand| {
                    [
                        s[0] + stand["center"][0].as_f64().expect("x"),
                        s[1] + stand["center"][1].as_f64().expect("y"),
                    ]
                });
                return (id, [sum[0] / n, sum[1] / n]);
            }
            let front = &unit["front_center"];
            let facing = unit["facing"].as_f64().expect("facing").to_radians();
            let back = unit["depth"].as_f64().expect("depth") / 2.0;
            let (x, y) = (front[0].as_f64().expect("x"), front[1].as_f64().expect("y"));
            (id, [x - back * facing.cos(), y - back * facing.sin()])
        })
        .collect()
}

/// The worst distance from where `locate` puts a unit to where the scene has it.
fn worst(located: &str, truth: &[(String, [f64; 2])]) -> f64 {
    let located: serde_json::Value = serde_json::from_str(located).expect("json");
    centres(&located["scene"])
        .iter()
        .map(|(id, at)| {
            let (_, real) = truth
                .iter()
                .find(|(t, _)| t == id)
                .expect("a unit of the scene");
            (at[0] - real[0]).hypot(at[1] - real[1])
        })
        .fold(0.0, f64::max)
}

#[test]
fn a_wide_webcams_lens_is_measured_from_the_stand_tags_and_puts_units_right() {
    let dir = scratch("lens-cli");
    let path = |name: &str| dir.join(name).display().to_string();
    let (picture, roster, anchors) = (path("wide.png"), path("roster.toml"), path("anchors.toml"));
    let rendered = run(&[
        "render",
        SCENE,
        "-o",
        &picture,
        "--lens",
        "wide",
        "--lens-seed",
        "3",
        "--save-roster",
        &roster,
    ]);
    assert!(rendered.contains("lens: wide 80–90°"), "{rendered}");
    run(&[
        "anchors",
        "--kit",
        "4",
        "--table",
        "72x48in",
        "--save-layout",
        &anchors,
        "-o",
        &path("kit.pdf"),
    ]);
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("../{SCENE}")).expect("scene"))
            .expect("json");
    let truth = centres(&truth);

    let anchors_only = path("anchors-only.toml");
    let from_anchors = run(&[
        "calibrate",
        &picture,
        "--anchors",
        &anchors,
        "-o",
        &anchors_only,
    ]);
    // It says what it can promise, and what would tighten it.
    assert!(
        from_anchors.contains("promise: stands placed within ±")
            && from_anchors.contains("(95 %) at the worst place on the table")
            && from_anchors.contains("`--roster`"),
        "{from_anchors}"
    );
    let alone = worst(
        &run(&[
            "locate",
            &picture,
            "--calibration",
            &anchors_only,
            "--roster",
            &roster,
            "--json",
        ]),
        &truth,
    );

    let measured = path("measured.toml");
    let printed = run(&[
        "calibrate",
        &picture,
        "--anchors",
        &anchors,
        "--roster",
        &roster,
        "-o",
        &measured,
    ]);
    assert!(
        printed.contains("lens: measured from 1 picture(s)"),
        "{printed}"
    );
    assert!(!printed.contains("focal length only"), "{printed}");
    assert!(
        printed.contains("residuals across the picture"),
        "{printed}"
    );
    let right = worst(
        &run(&[
            "locate",
            &picture,
            "--calibration",
            &measured,
            "--roster",
            &roster,
            "--json",
        ]),
        &truth,
    );
    // The four anchors alone bend the lens too (their corners sit where it bends most, and
    // what webcams are like settles the rest); the stand tags measure it from more of the
    // picture. Either way no unit is off by a tenth.
    assert!(
        right < 0.06 && alone < 0.1,
        "worst unit {alone:.3}\" through the anchors' lens, {right:.3}\" through the stand tags'"
    );
    // The promise, saved with each, covers every unit without being wildly wide, and the
    // stand tags tighten it.
    let promise = |file: &str| {
        calibration::TableCalibration::load(std::path::Path::new(file))
            .expect("calibration")
            .promise
            .expect("a promise")
            .within
            .0
    };
    let (loose, tight) = (promise(&anchors_only), promise(&measured));
    assert!(
        loose >= alone && loose < 0.5 && tight >= right && tight < loose,
        "±{loose:.3}\" promised from the anchors (worst unit {alone:.3}\"), ±{tight:.3}\" with the stand tags (worst unit {right:.3}\")"
    );
    // The measured lens is kept in the calibration file, with what it was measured from.
    let tags = |file: &str| match calibration::TableCalibration::load(std::path::Path::new(file))
        .expect("calibration")
        .lens
    {
        calibration::LensSource::Tags(lens) => lens.tags,
        other => panic!("{file}: lens from {other:?}"),
    };
    assert!(tags(&measured) > tags(&anchors_only));
}

#[test]
fn the_anchor_kits_have_four_six_or_eight_anchors() {
    let dir = scratch("lens-cli-kits");
    for (kit, ids) in [("4", 4), ("6", 6), ("8", 8)] {
        let layout = dir.join(format!("anchors-{kit}.toml"));
        let layout = layout.display().to_string();
        let pdf = dir.join(format!("kit-{kit}.pdf")).display().to_string();
        run(&[
            "anchors",
            "--kit",
            kit,
            "--save-layout",
            &layout,
            "-o",
            &pdf,
        ]);
        let text = std::fs::read_to_string(&layout).expect("layout");
        assert_eq!(text.matches("[[anchors]]").count(), ids, "{text}");
        if kit == "8" {
            assert!(text.contains("center = [36.0, 1.5]"), "{text}");
            assert!(text.contains("center = [1.5, 24.0]"), "{text}");
        }
    }
    let refused = vedette(&["anchors", "--kit", "5", "-o", "x.pdf"]);
    assert!(!refused.status.success());
    let refused = vedette(&["anchors", "--kit", "4", "--table", "10x48in", "-o", "x.pdf"]);
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("--table 10x48in"), "{message}");
}
