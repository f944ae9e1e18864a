//! The `[specials]` settings are listed in one place, `rules::rulesets::SPECIALS`, with the code
//! each selects: the list is every setting the profile reader takes, and names files that exist.

use std::collections::BTreeSet;
use std::path::Path;

use rules::rulesets::SPECIALS;
use rules::{Profile, RulesetId};

/// What the profile reader says of Black Powder's profile with a `[specials]` key added.
fn refusal(key: &str) -> String {
    let text = format!(
        "{}\n[specials]\n{key} = {{ not-a-setting = [] }}\n",
        RulesetId::BlackPowder.profile_text()
    );
    Profile::from_toml(&text)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

#[test]
fn the_list_is_every_setting_the_reader_takes() {
    let listed: BTreeSet<&str> = SPECIALS.iter().map(|s| s.key).collect();
    assert_eq!(listed.len(), SPECIALS.len(), "a key listed twice");
    // An unknown key is refused with the list of the known ones.
    let unknown = refusal("no-such-setting");
    let known: BTreeSet<&str> = unknown.split('`').skip(3).step_by(2).collect();
    assert!(!known.is_empty(), "{unknown}");
    assert_eq!(listed, known, "{unknown}");
}

#[test]
fn every_setting_names_code_that_exists() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for special in SPECIALS {
        assert!(!special.code.is_empty(), "{}", special.key);
        for file in special.code {
            assert!(src.join(file).is_file(), "{}: {file}", special.key);
        }
    }
}

#[test]
fn every_setting_a_profile_uses_is_listed() {
    for id in RulesetId::ALL {
        let doc: toml::Table = toml::from_str(id.profile_text()).expect("a profile parses");
        let Some(specials) = doc.get("specials").and_then(|s| s.as_table()) else {
            continue;
        };
        for key in specials.keys() {
            assert!(
                SPECIALS.iter().any(|s| s.key == key),
                "{}: [specials] {key} is not in rulesets::SPECIALS",
                id.as_str()
            );
        }
    }
}
