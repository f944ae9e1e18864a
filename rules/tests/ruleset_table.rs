//! The ruleset table: every profile file in `rules/profiles/` is a ruleset, every ruleset has
//! its file, and each built-in profile is the ruleset it is filed as.

use std::collections::BTreeSet;
use std::path::Path;

use rules::{Profile, RulesetId};

#[test]
fn every_profile_file_is_a_ruleset_and_every_ruleset_has_one() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("profiles");
    let files: BTreeSet<String> = std::fs::read_dir(&dir)
        .expect("rules/profiles reads")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| {
            p.file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let known: BTreeSet<String> = RulesetId::ALL
        .iter()
        .map(|r| r.as_str().to_owned())
        .collect();
    assert_eq!(files, known);
}

#[test]
fn each_builtin_profile_is_the_ruleset_it_is_filed_as() {
    for (i, id) in RulesetId::ALL.into_iter().enumerate() {
        assert_eq!(id.index(), i);
        assert_eq!(Profile::builtin(id).id(), id, "{}", id.as_str());
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("profiles")
            .join(format!("{}.toml", id.as_str()));
        let text = std::fs::read_to_string(file).expect("its file");
        assert_eq!(text, id.profile_text(), "{}", id.as_str());
        let named: RulesetId =
            serde_json::from_value(serde_json::json!(id.as_str())).expect("its name parses");
        assert_eq!(named, id);
    }
}
