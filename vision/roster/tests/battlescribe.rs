//! Importing BattleScribe rosters: the hand-made fixture in samples/battlescribe/ (written
//! after the public roster schema), and malformed files rejected with the element at fault.

use std::path::{Path, PathBuf};

use roster::battlescribe::{ImportError, ImportOptions, import_file, import_xml};
use rules::scene::UnitKind;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../samples/battlescribe")
        .join(name)
}

fn fixture_text() -> String {
    std::fs::read_to_string(fixture("peninsula.ros")).expect("fixture")
}

#[test]
fn the_zipped_roster_imports_units_stat_lines_rules_brigades_and_commanders() {
    let roster = import_file(&fixture("peninsula.rosz"), ImportOptions::default()).expect("import");
    let ids: Vec<&str> = roster.units.iter().map(|u| u.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "45th-foot",
            "95th-rifles",
            "95th-rifles-2",
            "ross-s-troop-rha"
        ]
    );
    let foot = &roster.units[0];
    let stats = foot.stats.as_ref().expect("stat line");
    assert_eq!(
        (
            stats.hand_to_hand,
            stats.shooting.as_str(),
            stats.morale.as_str(),
            stats.stamina
        ),
        (6, "3", "4+", 3)
    );
    assert_eq!(stats.unit_type, "Regular Infantry");
    assert_eq!(stats.armament, "Smoothbore Muskets");
    assert_eq!(stats.special, ["First Fire", "Reliable", "Steady"]);
    assert_eq!(foot.brigade.as_deref(), Some("craufurd-s-brigade"));
    assert_eq!(foot.side, "british-peninsula");
    let guns = &roster.units[3];
    assert_eq!(guns.kind, UnitKind::Artillery);
    assert_eq!(guns.brigade, None);
    assert_eq!(
        guns.stats.as_ref().map(|s| s.shooting.as_str()),
        Some("3-2-1")
    );
    assert!(guns.stats.as_ref().is_some_and(|s| s.special.is_empty()));
    let staff: Vec<(&str, Option<u8>, Option<&str>)> = roster
        .commanders
        .iter()
        .map(|c| (c.id.as_str(), c.staff_rating, c.brigade.as_deref()))
        .collect();
    assert_eq!(
        staff,
        [
            ("general-sir-arthur-wellesley", Some(9), None),
            (
                "brigadier-robert-craufurd",
                Some(8),
                Some("craufurd-s-brigade")
            )
        ]
    );
    // Tags handed out in file order from 10, one a stand, none twice.
    let mut tags: Vec<u32> = roster.mounts().into_keys().collect();
    tags.sort_unstable();
    assert_eq!(tags, (10..16).collect::<Vec<_>>());
}

#[test]
fn the_imported_roster_saves_and_loads_as_a_vedette_roster() {
    let roster = import_file(&fixture("peninsula.ros"), ImportOptions::default()).expect("import");
    let dir = std::env::temp_dir().join(format!("vedette-bs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("army.toml");
    roster.save(&path).expect("save");
    let loaded = roster::Roster::load(&path).expect("load");
    assert_eq!(loaded, roster);
    std::fs::remove_dir_all(&dir).ok();
}

fn error_of(xml: &str) -> String {
    import_xml(xml, Path::new("army.ros"), ImportOptions::default())
        .expect_err("malformed")
        .to_string()
}

#[test]
fn a_missing_characteristic_names_the_profile_and_its_line() {
    let text = fixture_text().replace(
        r#"<characteristic name="Stamina" typeId="v-st">2</characteristic>
                    <characteristic name="Special" typeId="v-sp">Marksmen"#,
        r#"<characteristic name="Special" typeId="v-sp">Marksmen"#,
    );
    let line = text
        .lines()
        .position(|l| l.contains(r#"<profile id="v-p5""#))
        .expect("profile")
        + 1;
    assert_eq!(
        error_of(&text),
        format!(
            r#"army.ros: line {line}: <profile name="95th Rifles">: no <characteristic name="Stamina">"#
        )
    );
}

#[test]
fn a_value_that_is_not_a_number_names_the_characteristic() {
    let text = fixture_text().replace(
        r#"<characteristic name="Hand-to-Hand" typeId="v-hth">6</characteristic>"#,
        r#"<characteristic name="Hand-to-Hand" typeId="v-hth">six</characteristic>"#,
    );
    let message = error_of(&text);
    assert!(
        message.contains(r#"<characteristic name="Hand-to-Hand">: "six" is not a whole number"#),
        "{message}"
    );
}

#[test]
fn broken_xml_a_wrong_root_and_a_bad_zip_are_rejected() {
    let broken = fixture_text().replace("</forces>", "");
    let message = error_of(&broken);
    assert!(
        message.starts_with("army.ros: not well-formed XML: "),
        "{message}"
    );
    let message = error_of(r#"<gameSystem id="x" name="Black Powder"/>"#);
    assert!(
        message.contains(r#"<gameSystem name="Black Powder">: the root element must be <roster>"#),
        "{message}"
    );
    let dir = std::env::temp_dir().join(format!("vedette-bs-zip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("bad.rosz");
    std::fs::write(&bad, fixture_text()).expect("write");
    let error = import_file(&bad, ImportOptions::default()).expect_err("not a zip");
    assert!(matches!(error, ImportError::Zip { .. }), "{error}");
    assert!(
        error
            .to_string()
            .contains("bad.rosz: not a BattleScribe .rosz"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
