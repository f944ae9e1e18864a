//! The real `vedette` binary: exit codes and messages as a shell user sees them.

mod common;

use std::process::Output;

use common::vedette;

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn measure_prints_a_report_and_exits_zero() {
    let output = vedette(&["measure", "samples/scenes/two-lines.json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("45th-foot → 3e-ligne"), "{text}");
}

#[test]
fn a_malformed_scene_exits_non_zero_with_the_problem_named() {
    let dir = common::scratch("cli");
    let path = dir.join("typo.json");
    std::fs::write(
        &path,
        r#"{"ruleset": "black-powder", "table": {"width": 72, "depth": 48},
  "units": [{"id": "45th", "side": "red", "kind": "infantry", "front_center": [1, 1],
             "facing": "north", "width": 9.4, "depth": 1.6}]}"#,
    )
    .expect("write");
    let output = vedette(&["measure", path.to_str().expect("utf-8")]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(message.starts_with("vedette: error: "), "{message}");
    assert!(
        message.contains("typo.json: line 3: unit '45th' (units[0]), `facing`: invalid type"),
        "{message}"
    );
    assert!(!message.contains("panicked"), "{message}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_missing_scene_file_is_named() {
    let output = vedette(&["measure", "samples/scenes/nowhere.json"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("samples/scenes/nowhere.json: cannot read the scene"));
}

#[test]
fn json_output_is_valid_json() {
    let output = vedette(&["measure", "--json", "samples/scenes/flank-ray.toml"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(report["ruleset"], "black-powder");
}

#[test]
fn logs_stay_quiet_by_default_and_speak_with_v() {
    let quiet = vedette(&["measure", "samples/scenes/two-lines.json"]);
    assert!(stderr(&quiet).is_empty(), "{}", stderr(&quiet));
    let verbose = vedette(&["-v", "measure", "samples/scenes/two-lines.json"]);
    assert!(
        stderr(&verbose).contains("loaded samples/scenes/two-lines.json"),
        "{}",
        stderr(&verbose)
    );
    // Piped (as here), the log is plain text: no terminal colour codes.
    assert!(
        !stderr(&verbose).contains('\u{1b}'),
        "{:?}",
        stderr(&verbose)
    );
}

#[test]
fn rulings_prints_every_units_rulings_and_filters_by_unit() {
    let output = vedette(&["rulings", "samples/scenes/two-lines.json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("45th Foot must shoot at 3e Ligne — 8.00\""),
        "{text}"
    );
    assert!(text.contains("borderline — players decide"), "{text}");
    let one = vedette(&[
        "rulings",
        "--unit",
        "2e-hussards",
        "samples/scenes/two-lines.json",
    ]);
    let text = String::from_utf8_lossy(&one.stdout);
    assert!(
        text.contains("2e Hussards can charge 45th Foot in its left flank"),
        "{text}"
    );
    assert!(!text.contains("45th Foot must shoot"), "{text}");
}

#[test]
fn rulings_json_has_the_shooting_lists_and_pair_charges() {
    let output = vedette(&["rulings", "--json", "samples/scenes/two-lines.json"]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let foot = report["units"]
        .as_array()
        .expect("units")
        .iter()
        .find(|u| u["id"] == "45th-foot")
        .expect("45th");
    assert_eq!(
        foot["shooting"]["must_target"],
        serde_json::json!(["3e-ligne"])
    );
    let pair = report["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .find(|p| p["from"] == "2e-hussards" && p["to"] == "45th-foot")
        .expect("pair");
    assert_eq!(pair["charge"]["reachable"], true);
    assert_eq!(pair["charge"]["face"], "left");
}

#[test]
fn an_unknown_unit_is_named_with_the_known_ones() {
    let output = vedette(&[
        "rulings",
        "--unit",
        "old-guard",
        "samples/scenes/two-lines.json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("no unit 'old-guard'") && message.contains("45th-foot"),
        "{message}"
    );
}

#[test]
fn check_move_reports_allowances_and_the_twelve_inch_rule() {
    let output = vedette(&[
        "check-move",
        "samples/moves/two-lines-before.json",
        "samples/moves/two-lines-after.json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("2e Hussards moved 27.80\", costing 27.80\": 2 moves of 18.00\""),
        "{text}"
    );
    assert!(
        text.contains("3e Ligne started 8.00\" from 45th Foot"),
        "{text}"
    );
}

#[test]
fn check_move_reports_brigades_commanders_and_traversing_fire() {
    let output = vedette(&[
        "check-move",
        "samples/moves/charge-across-before.json",
        "samples/moves/charge-across-after.json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("Brigade lasalle was one group before the move but not after it: 2e Hussards' move breaks it"),
        "{text}"
    );
    assert!(
        text.contains("Lasalle moved 20.00\", within his 48.00\" move"),
        "{text}"
    );
    assert!(
        text.contains("45th Foot may shoot at 2e Hussards as it charges across its front"),
        "{text}"
    );
    let json = vedette(&[
        "check-move",
        "--json",
        "samples/moves/charge-across-before.json",
        "samples/moves/charge-across-after.json",
    ]);
    let report: serde_json::Value =
        serde_json::from_slice(&json.stdout).expect("check-move --json prints JSON");
    for field in [
        "moves",
        "missing",
        "new",
        "brigades",
        "commanders",
        "traversing",
    ] {
        assert!(report.get(field).is_some(), "no {field} in {report}");
    }
    assert_eq!(
        report["traversing"][0]["may_shoot"],
        serde_json::json!(true)
    );
}

#[test]
fn rulings_say_where_an_engaged_unit_would_retire() {
    let output = vedette(&["rulings", "samples/moves/charge-across-after.json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains(
            "If 95th Rifles must retire, it makes one full move (12.00\") into its rear quarter"
        ),
        "{text}"
    );
    let json = vedette(&[
        "rulings",
        "--json",
        "samples/moves/charge-across-after.json",
    ]);
    let report: serde_json::Value =
        serde_json::from_slice(&json.stdout).expect("rulings --json prints JSON");
    let hussars = report["units"]
        .as_array()
        .and_then(|units| units.iter().find(|u| u["id"] == "2e-hussards"))
        .expect("the hussars");
    assert_eq!(hussars["retire"]["outcome"], serde_json::json!("moves"));
}

#[test]
fn bench_rules_prints_its_figures() {
    let output = vedette(&[
        "bench",
        "rules",
        "--units",
        "40",
        "--terrain",
        "4",
        "--iterations",
        "3",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("40 units, 4 terrain pieces") && text.contains("median"),
        "{text}"
    );
}

/// The tables people build beside their flat selves: one table, through the app's pipeline.
/// The flat table is the baseline the built one is judged against: it must be placed well.
#[test]
fn bench_accuracy_measures_a_built_table_beside_its_flat_self() {
    let output = vedette(&[
        "bench",
        "accuracy",
        "--tables",
        "0",
        "--rendered-tables",
        "0",
        "--built-tables",
        "1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    let rows: Vec<&str> = text.lines().collect();
    let row = |name: &str| {
        rows.iter()
            .find(|line| line.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no row {name:?} in:\n{text}"))
            .to_string()
    };
    let flat = row("flat table");
    let p95: f64 = flat
        .split_whitespace()
        .find_map(|word| word.strip_suffix('"')?.parse().ok())
        .unwrap_or_else(|| panic!("no p95 in {flat:?}"));
    assert!(p95 < 0.05, "the flat baseline: {flat}");
    for name in [
        "built: flat stands",
        "built: stands on hills, hills given",
        "built: stands on hills, learnt",
        "hills unknown",
        "tags found with figures",
        "under 25 % hidden",
        "the app's pipeline a frame",
    ] {
        row(name);
    }
    // The search for the roster's tags names none where it is not.
    assert_eq!(row("false tags").trim(), "false tags 0");
}

/// The error bars judged on another rendering than Vedette's own: a soft picture's corners
/// scatter, its bars widen by as much, and the figures are printed per rendering.
#[test]
fn bench_accuracy_judges_the_error_bars_on_other_renderings() {
    let output = vedette(&[
        "bench",
        "accuracy",
        "--tables",
        "0",
        "--built-tables",
        "0",
        "--rendered-tables",
        "1",
        "--lens",
        "distortion-free",
        "--rendering",
        "own",
        "--rendering",
        "soft",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    for row in ["own ", "soft "] {
        let rows = text
            .lines()
            .filter(|line| line.starts_with(row) && line.contains("distortion-free"))
            .count();
        // Two ways of calibrating, each placed as a film and as a still.
        assert_eq!(rows, 4, "{row:?} rows in:\n{text}");
    }
    assert!(text.contains("per rendering"), "{text}");
    let factor = |name: &str| -> f64 {
        let scatter = text
            .lines()
            .find(|line| line.contains("corners' scatter"))
            .unwrap_or_else(|| panic!("no scatter line in:\n{text}"));
        scatter
            .split(&format!("{name} "))
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("no {name:?} factor in {scatter:?}"))
    };
    assert!(factor("own film") < 1.3, "{text}");
    assert!(factor("soft film") > 1.5, "{text}");
}

#[test]
fn bench_live_plays_through_every_lens_and_prints_each_in_its_summary() {
    let output = vedette(&[
        "bench",
        "live",
        "--frames",
        "2",
        "--tags",
        "6",
        "--samples",
        "1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    let summary = text
        .split("live (tracking) through every lens")
        .nth(1)
        .unwrap_or_else(|| panic!("no summary in:\n{text}"));
    for lens in ["distortion-free", "ordinary", "pincushion", "wide"] {
        assert!(
            summary.lines().any(|line| line.starts_with(lens)),
            "{lens} missing from the summary:\n{summary}"
        );
    }
}

#[test]
fn a_custom_profile_changes_the_rulings_and_a_bad_one_is_named() {
    let dir = common::scratch("profile");
    let builtin = vedette(&["profile", "black-powder"]);
    assert!(builtin.status.success());
    let text = String::from_utf8_lossy(&builtin.stdout).replace(
        "id = \"smoothbore-musket\"\nname = \"Smoothbore muskets\"\nrange = 18.0",
        "id = \"smoothbore-musket\"\nname = \"Smoothbore muskets\"\nrange = 6.0",
    );
    let short = dir.join("short-muskets.toml");
    std::fs::write(&short, text).expect("write");
    let output = vedette(&[
        "--profile",
        short.to_str().expect("utf-8"),
        "rulings",
        "--unit",
        "45th-foot",
        "samples/scenes/two-lines.json",
    ]);
    let rulings = String::from_utf8_lossy(&output.stdout);
    assert!(rulings.contains("shoots up to 6.00\""), "{rulings}");
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "id = \"black-powder\"\nname = 3\n").expect("write");
    let output = vedette(&[
        "--profile",
        broken.to_str().expect("utf-8"),
        "measure",
        "samples/scenes/two-lines.json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("broken.toml: not a valid profile"),
        "{}",
        stderr(&output)
    );
    let unknown = vedette(&["profile", "warhammer"]);
    assert!(stderr(&unknown).contains("no built-in profile for ruleset 'warhammer'"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_weapon_a_custom_profile_adds_is_one_its_scenes_may_use() {
    let dir = common::scratch("profile-weapon");
    let builtin = vedette(&["profile", "black-powder"]);
    assert!(builtin.status.success());
    let mut text = String::from_utf8_lossy(&builtin.stdout).into_owned();
    text.push_str("\n[[weapons]]\nid = \"jezail\"\nname = \"Jezails\"\nrange = 30.0\n");
    let jezails = dir.join("jezails.toml");
    std::fs::write(&jezails, text).expect("write");
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../samples/scenes/two-lines.json"
    );
    let scene = std::fs::read_to_string(sample)
        .expect("the sample")
        .replacen("\"smoothbore-musket\"", "\"jezail\"", 1);
    let path = dir.join("jezail-scene.json");
    std::fs::write(&path, scene).expect("write");
    let with = vedette(&[
        "--profile",
        jezails.to_str().expect("utf-8"),
        "rulings",
        "--unit",
        "45th-foot",
        path.to_str().expect("utf-8"),
    ]);
    assert!(with.status.success(), "{}", stderr(&with));
    let rulings = String::from_utf8_lossy(&with.stdout);
    assert!(rulings.contains("shoots up to 30.00\""), "{rulings}");
    // Without the profile the scene names a weapon its ruleset does not have.
    let without = vedette(&["rulings", path.to_str().expect("utf-8")]);
    assert_eq!(without.status.code(), Some(1));
    assert!(stderr(&without).contains("jezail"), "{}", stderr(&without));
    // A profile of another ruleset is refused by the scene's ruleset field.
    let other = vedette(&["profile", "bbb"]);
    let bbb = dir.join("bbb.toml");
    std::fs::write(&bbb, &other.stdout).expect("write");
    let refused = vedette(&[
        "--profile",
        bbb.to_str().expect("utf-8"),
        "measure",
        "samples/scenes/two-lines.json",
    ]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("is black-powder, but the profile given is for bbb"),
        "{}",
        stderr(&refused)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_app_reports_ui_time_and_memory() {
    let out = vedette(&["bench", "app", "--seconds", "2", "--convention"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("convention mode"), "{text}");
    assert!(text.contains("UI frame"), "{text}");
    assert!(text.contains("memory: "), "{text}");
}

/// Every part of `bench serve` runs: the app's Share button starts its server and pages
/// connect (it once opened an app with no server to start), and the hall's tables go live.
#[test]
fn bench_serve_shares_the_app_to_its_pages_and_fills_the_hall() {
    let out = vedette(&[
        "bench",
        "serve",
        "--seconds",
        "2",
        "--viewers",
        "2",
        "--tables",
        "2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let with_pages = (text.lines())
        .find(|l| l.trim_start().starts_with("with pages"))
        .unwrap_or_default();
    assert!(
        with_pages.contains(" page(s) connected") && !with_pages.contains("; 0 page(s)"),
        "{text}"
    );
    assert!(text.contains("live at once: 2 of 2"), "{text}");
}

#[test]
fn out_of_range_options_are_refused_with_their_range_before_any_work() {
    let scene = "samples/scenes/two-lines.json";
    let picture = "samples/camera/two-lines.jpg";
    let cases: [(&[&str], &str); 8] = [
        (
            &["render", scene, "-o", "never.png", "--width", "0"],
            "16..=16384",
        ),
        (
            &["render", scene, "-o", "never.png", "--tilt", "95"],
            "use 0 to 80",
        ),
        (
            &["render", scene, "-o", "never.png", "--fov", "0"],
            "use 20 to 120",
        ),
        (
            &[
                "render",
                scene,
                "-o",
                "never.png",
                "--width",
                "16000",
                "--height",
                "16000",
            ],
            "up to 64 megapixels",
        ),
        (&["detect", picture, "--decimate", "0"], "use 1 to 8"),
        (&["detect", picture, "--threads", "0"], "--threads"),
        (
            &["screenshot", "--demo", "never.png", "--turn", "99"],
            "the demo has turns 1 to",
        ),
        (
            &["screenshot", "--demo", "never.png", "--select", "nobody"],
            "no such unit; the demo's are 95th-rifles",
        ),
    ];
    for (args, wanted) in cases {
        let output = vedette(args);
        let err = stderr(&output);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert!(err.contains(wanted), "{args:?}: {err}");
    }
    assert!(
        !std::path::Path::new("../never.png").exists(),
        "nothing was written"
    );
}

/// On CI, in cron or over ssh there is no desktop session: XDG_RUNTIME_DIR is unset. A
/// screenshot then works as anywhere else and says nothing of it (Mesa's Vulkan device
/// selection printed "error: XDG_RUNTIME_DIR is invalid or not set" twice a run).
#[test]
fn a_screenshot_without_a_session_says_nothing_of_xdg_runtime_dir() {
    let dir = std::env::temp_dir().join(format!("vedette-no-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let picture = dir.join("app.png");
    let run = |args: &[&std::ffi::OsStr]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_vedette"))
            .args(args)
            .env_remove("XDG_RUNTIME_DIR")
            .env_remove("NODEVICE_SELECT")
            .env("HOME", &dir)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .output()
            .expect("the vedette binary runs")
    };
    let output = run(&[
        "screenshot".as_ref(),
        "--demo".as_ref(),
        picture.as_os_str(),
    ]);
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(!err.contains("XDG_RUNTIME_DIR"), "{err}");
    let image = vision::read_image(&picture).expect("the screenshot");
    assert_eq!(
        vision::image_size(&image),
        calibration::ImageSize {
            width: 1600,
            height: 900
        }
    );
    // A command that fails still fails, with its own message.
    let output = run(&[
        "screenshot".as_ref(),
        "--demo".as_ref(),
        picture.as_os_str(),
        "--turn".as_ref(),
        "9".as_ref(),
    ]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("the demo has turns 1 to 4") && !err.contains("XDG_RUNTIME_DIR"));
    std::fs::remove_dir_all(&dir).ok();
}
