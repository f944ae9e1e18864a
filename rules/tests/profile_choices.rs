//! No silent inheritance: every engine choice whose default is Black Powder's
//! (`rules::rulesets::engine_choices`) is stated by every built-in profile other than Black
//! Powder's — by a setting of its own, or named in its `as-black-powder` list — nothing is both
//! set and said to be Black Powder's, and every profile gives each terrain kind rules of its
//! own.

use rules::rulesets::{TERRAIN_KINDS, engine_choices};
use rules::{Profile, RulesetId};

/// Whether the profile's TOML sets the dotted `path`.
fn states(doc: &toml::Value, path: &str) -> bool {
    let mut at = doc;
    for key in path.split('.') {
        match at.get(key) {
            Some(next) => at = next,
            None => return false,
        }
    }
    true
}

/// What a profile's text leaves unsaid or says twice: engine choices neither set nor said to
/// be Black Powder's, entries of `as-black-powder` that are no choice or are set too, and
/// terrain kinds without a table.
fn faults(text: &str) -> Vec<String> {
    let doc: toml::Value = toml::from_str(text).expect("the profile parses");
    let profile = Profile::from_toml(text).expect("the profile reads");
    let choices = engine_choices();
    let said = profile.as_black_powder();
    let unsaid = choices
        .iter()
        .filter(|c| !states(&doc, c) && !said.contains(c))
        .map(|c| format!("{c}: unsaid"));
    let twice = said
        .iter()
        .filter(|c| !choices.contains(c) || states(&doc, c))
        .map(|c| format!("{c}: no choice, or set and said to be Black Powder's"));
    let terrain = TERRAIN_KINDS
        .iter()
        .filter(|kind| !states(&doc, &format!("terrain.{kind}")))
        .map(|kind| format!("terrain.{kind}: no rules of its own"));
    unsaid.chain(twice).chain(terrain).collect()
}

#[test]
fn every_profile_states_every_engine_choice() {
    for id in RulesetId::ALL {
        if Profile::builtin(id).cites_engine_rules() {
            continue;
        }
        let faults = faults(id.profile_text());
        assert!(faults.is_empty(), "{}: {faults:#?}", id.as_str());
    }
}

#[test]
fn a_choice_left_unsaid_or_said_twice_is_caught() {
    let bbb = RulesetId::Bbb.profile_text();
    let unsaid = bbb.replace("mounted-hold-fire = true\n", "");
    assert_eq!(faults(&unsaid), vec!["specials.mounted-hold-fire: unsaid"]);
    let twice = bbb.replace(
        "as-black-powder = [",
        "as-black-powder = [\"specials.mounted-hold-fire\", ",
    );
    assert_eq!(
        faults(&twice),
        vec!["specials.mounted-hold-fire: no choice, or set and said to be Black Powder's"]
    );
}

/// The keys the profile reader takes in a table (from its refusal of an unknown one).
fn keys_taken(table: &str) -> Vec<String> {
    let profile = RulesetId::BlackPowder.profile_text();
    let header = format!("[{table}]\n");
    let text = if profile.contains(&header) {
        profile.replacen(&header, &format!("{header}not-a-key = 1\n"), 1)
    } else {
        format!("{profile}\n{header}not-a-key = 1\n")
    };
    let refusal = Profile::from_toml(&text)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    let mut keys: Vec<String> = refusal
        .split('`')
        .skip(3)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    keys.sort();
    keys
}

#[test]
fn the_choices_are_every_charge_limit_and_reading_the_reader_takes() {
    for table in ["specials.charge-limits", "readings"] {
        let prefix = format!("{table}.");
        let mut listed: Vec<String> = engine_choices()
            .iter()
            .filter_map(|c| c.strip_prefix(&prefix).map(str::to_owned))
            .collect();
        listed.sort();
        assert_eq!(listed, keys_taken(table), "{table}");
    }
}

#[test]
fn the_guide_compares_the_rulesets_choice_by_choice_from_their_profiles() {
    // The guide's table is the profiles' own: a profile changed without it fails here
    // (`VEDETTE_BLESS=1 cargo test -p vedette-rules --test profile_choices` writes it again).
    let (start, end) = ("<!-- choices:start -->\n", "<!-- choices:end -->");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/guide/rulesets.md");
    let guide = std::fs::read_to_string(&path).expect("the guide's rulesets chapter reads");
    let from = guide.find(start).expect("the chapter marks its table") + start.len();
    let to = guide[from..].find(end).expect("the table's end") + from;
    let table = rules::rulesets::choices_table();
    if std::env::var_os("VEDETTE_BLESS").is_some() {
        let written = format!("{}{table}{}", &guide[..from], &guide[to..]);
        std::fs::write(&path, written).expect("the chapter writes");
        return;
    }
    assert_eq!(guide[from..to], table, "the guide's choices table is stale");
}
