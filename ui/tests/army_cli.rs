//! Getting an army ready from the command line, as a club would: print tags and the anchor
//! kit, make a roster from a scenario or a BattleScribe file, and check it against the sheets.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::vedette;

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("army-{name}"))
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temp path")
}

#[test]
fn a_tag_sheet_is_printed_as_pdf_and_svg() {
    let dir = scratch("sheet");
    let pdf = dir.join("tags.pdf");
    let out = vedette(&[
        "tags",
        "--ids",
        "10-27",
        "--size",
        "20mm",
        "--base",
        "40x40mm",
        "-o",
        path(&pdf),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let bytes = std::fs::read(&pdf).expect("the PDF");
    assert!(bytes.starts_with(b"%PDF-"), "a PDF file");
    assert!(text(&out).contains("18 tag(s)"), "{}", text(&out));

    let svg = dir.join("tags.svg");
    let out = vedette(&["tags", "--ids", "3,5", "-o", path(&svg)]);
    assert!(out.status.success(), "{}", text(&out));
    let page = std::fs::read_to_string(&svg).expect("the SVG");
    assert!(page.contains("<svg") && page.contains("50 mm"), "{page}");
}

#[test]
fn a_tag_too_big_for_its_base_is_refused_naming_the_tag() {
    let dir = scratch("too-big");
    let out = vedette(&[
        "tags",
        "--ids",
        "7",
        "--size",
        "25mm",
        "--base",
        "40x20mm",
        "-o",
        path(&dir.join("x.pdf")),
    ]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("tag 7") && said.contains("40 × 20 mm"),
        "{said}"
    );
    assert!(!dir.join("x.pdf").exists(), "nothing half-written");
}

#[test]
fn the_anchor_kit_and_the_calibration_board_print() {
    let dir = scratch("kit");
    for args in [
        vec!["anchors", "--layout", "samples/camera/anchors.toml"],
        vec!["anchors", "--board"],
    ] {
        let out_file = dir.join(format!("{}.pdf", args.len()));
        let mut args = args.clone();
        args.extend(["-o", path(&out_file)]);
        let out = vedette(&args);
        assert!(out.status.success(), "{}", text(&out));
        let bytes = std::fs::read(&out_file).expect("the PDF");
        assert!(bytes.starts_with(b"%PDF-"));
    }
}

#[test]
fn every_sample_scenario_has_a_roster_that_checks_against_its_sheets() {
    let scenarios = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/scenarios"))
        .expect("samples/scenarios");
    let mut checked = 0;
    for entry in scenarios {
        let scenario = entry.expect("an entry").path();
        let name = scenario
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a name");
        let roster = format!("samples/rosters/{name}.toml");
        let sheet = format!("samples/rosters/{name}-tags.pdf");
        let out = vedette(&["roster", "check", &roster, "--sheet", &sheet]);
        assert!(out.status.success(), "{roster}: {}", text(&out));
        assert!(text(&out).contains(": ok"), "{}", text(&out));
        checked += 1;
    }
    assert_eq!(checked, 7, "the seven Black Powder scenarios");
}

#[test]
fn a_roster_made_from_a_scenario_checks_and_a_duplicate_tag_is_named_with_its_lines() {
    let dir = scratch("new");
    let roster = dir.join("el-teb.toml");
    let new = || {
        vedette(&[
            "roster",
            "new",
            "--scenario",
            "samples/scenarios/el-teb.json",
            "-o",
            path(&roster),
        ])
    };
    let out = new();
    assert!(out.status.success(), "{}", text(&out));
    let out = vedette(&["roster", "check", path(&roster)]);
    assert!(out.status.success(), "{}", text(&out));

    let written = std::fs::read_to_string(&roster).expect("the roster");
    let broken = written.replacen("tag = 11\n", "tag = 10\n", 1);
    assert_ne!(broken, written);
    std::fs::write(&roster, broken).expect("written");
    let out = vedette(&["roster", "check", path(&roster)]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("tag 10") && said.contains("el-teb.toml:") && said.contains("(line "),
        "{said}"
    );

    let again = new();
    assert!(
        !again.status.success(),
        "an existing roster is not overwritten"
    );
}

/// The size a roster says every tag is, and the stands' own smaller sizes, as written.
fn written_sizes(roster: &str) -> (String, Vec<String>) {
    let value = |line: &str| line.split('=').nth(1).unwrap_or("").trim().to_owned();
    let size = roster
        .lines()
        .find(|l| l.starts_with("size = ") && !l.contains('"'))
        .map(value)
        .expect("the tags' size");
    let stands = roster
        .lines()
        .filter(|l| l.starts_with("tag_size = "))
        .map(value)
        .collect();
    (size, stands)
}

#[test]
fn a_roster_from_a_scenario_has_tags_the_camera_finds_and_names_the_stands_too_small() {
    let dir = scratch("tag-size");
    // Ntombi: an 8' × 6' table, skirmishers on 0.8" bases.
    let roster = dir.join("ntombi.toml");
    let out = vedette(&[
        "roster",
        "new",
        "--scenario",
        "samples/scenarios/ntombi.json",
        "-o",
        path(&roster),
        "--force",
    ]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let written = std::fs::read_to_string(&roster).expect("the roster");
    let (size, stands) = written_sizes(&written);
    // Bigger than the 1" that 14 of 44 tags were too small at, and said with its reason.
    let suggested: f64 = size.parse().expect("a number");
    assert!(suggested > 1.0 && suggested <= 2.0, "{size}");
    assert!(
        said.contains(&format!(
            "tags of {size}\": the smallest found everywhere on the 96\" × 72\" table"
        )) && said.contains("assumed 1920×1080 webcam"),
        "{said}"
    );
    // Sizes as people write them (0.6, never 0.6400000000000001), each named with its unit.
    assert!(!stands.is_empty());
    for stand in &stands {
        assert!(stand.len() <= 4, "tag_size = {stand}");
    }
    assert!(
        said.contains("Chest, 1st Skirmishers")
            && said.contains("its bases hold a 0.6\" tag at most"),
        "{said}"
    );
    // And `vedette tags` prints every one of them on its base.
    let sheet = dir.join("tags.pdf");
    let out = vedette(&["tags", "--roster", path(&roster), "-o", path(&sheet)]);
    assert!(out.status.success(), "{}", text(&out));

    // A size asked for that the far side does not find: said, with the share that does.
    let out = vedette(&[
        "roster",
        "new",
        "--scenario",
        "samples/scenarios/ntombi.json",
        "--tag-size",
        "0.8",
        "-o",
        path(&roster),
        "--force",
    ]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("tags of 0.8\" are found on")
            && said.contains(&format!("{size}\" are found everywhere")),
        "{said}"
    );
    assert_eq!(
        written_sizes(&std::fs::read_to_string(&roster).expect("roster")).0,
        "0.8"
    );
    let out = vedette(&[
        "roster",
        "new",
        "--scenario",
        "samples/scenarios/ntombi.json",
        "--tag-size",
        "9",
        "-o",
        path(&roster),
        "--force",
    ]);
    assert!(
        !out.status.success() && text(&out).contains("0.3\" to 6\""),
        "{}",
        text(&out)
    );
}

#[test]
fn a_battlescribe_roster_imports_and_a_broken_one_names_the_fault() {
    let dir = scratch("import");
    let roster = dir.join("peninsula.toml");
    let out = vedette(&[
        "roster",
        "import",
        "samples/battlescribe/peninsula.rosz",
        "-o",
        path(&roster),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let out = vedette(&["roster", "check", path(&roster)]);
    assert!(out.status.success(), "{}", text(&out));

    let broken = dir.join("broken.ros");
    let xml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../samples/battlescribe/peninsula.ros"
    ))
    .expect("the sample .ros");
    let cut = &xml[..xml.len() / 2];
    std::fs::write(&broken, cut).expect("written");
    let nowhere = dir.join("broken.toml");
    let out = vedette(&["roster", "import", path(&broken), "-o", path(&nowhere)]);
    assert!(!out.status.success());
    assert!(text(&out).contains("broken.ros"), "{}", text(&out));
    assert!(!nowhere.exists(), "no roster from a broken file");
}

#[test]
fn an_empty_roster_is_not_ok() {
    let dir = scratch("empty-roster");
    let empty = dir.join("empty.toml");
    std::fs::write(&empty, "ruleset = \"black-powder\"\n").expect("write");
    let output = vedette(&["roster", "check", path(&empty)]);
    assert!(!output.status.success());
    let said = text(&output);
    assert!(
        said.contains("empty.toml") && said.contains("lists no units and no commanders"),
        "{said}"
    );
}
