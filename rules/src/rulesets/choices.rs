//! The choices the engine makes that a ruleset's book may make differently, and whose default
//! is Black Powder's: every one a profile other than Black Powder's must state — by a setting
//! of its own, or by naming it in its `as-black-powder` list — so that no ruleset inherits a
//! Black Powder rule unsaid (`rules/tests/profile_choices.rs` checks each built-in profile).
//! Black Powder's own profile is exempt: the engine's defaults are its book
//! (`engine-rules = true`).

use super::SPECIALS;

/// The `[specials.charge-limits]` settings: who may not charge whom.
const CHARGE_LIMITS: [&str; 5] = [
    "skirmishers-never",
    "cavalry-into-steady-square",
    "foot-not-into-steady-horse",
    "horse-charges-horse-first",
    "through-friendly-skirmishers",
];

/// The `[readings]`: where the digest offers a choice of reading.
const READINGS: [&str; 4] = [
    "support-zone",
    "traversing-fire",
    "guns-pass-not-clear",
    "charges-near-enemy",
];

/// The terrain kinds every profile gives rules of its own (a `[terrain.<kind>]` table): a
/// terrain table is never Black Powder's — what it leaves unset does nothing (anyone enters,
/// nothing blocks sight) — so each kind is stated, not inherited.
pub const TERRAIN_KINDS: [&str; 9] = [
    "wood",
    "rough",
    "very-rough",
    "extremely-rough",
    "obstacle",
    "building",
    "hill",
    "impassable",
    "river",
];

/// Every engine choice whose default is Black Powder's, as the dotted path of the profile
/// setting that makes it (`specials.moves-per-order`, `readings.support-zone`,
/// `distances.dead-ground`).
pub fn engine_choices() -> Vec<String> {
    let specials = SPECIALS
        .iter()
        .filter(|s| s.key != "charge-limits")
        .map(|s| format!("specials.{}", s.key));
    let limits = CHARGE_LIMITS
        .iter()
        .map(|k| format!("specials.charge-limits.{k}"));
    let readings = READINGS.iter().map(|k| format!("readings.{k}"));
    specials
        .chain(limits)
        .chain(readings)
        .chain(["distances.dead-ground".to_string()])
        .collect()
}

/// What a terrain kind's table says of each: who may enter, who may charge into it, what it
/// does to sight.
const TERRAIN_FIELDS: [&str; 3] = ["entry", "charge-entry", "sight"];

/// The rulesets' choices side by side, as a Markdown table (the guide's): for each engine
/// choice and each terrain kind's entry, charge entry and sight, what each built-in profile
/// sets — with the book paragraph its line cites — or "as Black Powder" where it says so.
pub fn choices_table() -> String {
    use crate::RulesetId;
    let mut rows = engine_choices();
    rows.extend(TERRAIN_KINDS.iter().flat_map(|kind| {
        TERRAIN_FIELDS
            .iter()
            .map(move |field| format!("terrain.{kind}.{field}"))
    }));
    let names: Vec<&str> = RulesetId::ALL.iter().map(|id| id.as_str()).collect();
    let mut table = format!("| choice | {} |\n|---|", names.join(" | "));
    table.push_str(&"---|".repeat(names.len()));
    table.push('\n');
    let profiles: Vec<(toml::Value, &str)> = RulesetId::ALL
        .iter()
        .map(|id| {
            let text = id.profile_text();
            (
                toml::from_str(text).unwrap_or(toml::Value::Boolean(false)),
                text,
            )
        })
        .collect();
    for row in rows {
        let cells: Vec<String> = profiles
            .iter()
            .map(|(doc, text)| cell(doc, text, &row))
            .collect();
        table.push_str(&format!("| `{row}` | {} |\n", cells.join(" | ")));
    }
    table
}

/// One profile's word on one choice: its value and the comment on its line, "as Black Powder",
/// or "—" (not set: the engine's default, which for a terrain field is no rule at all).
fn cell(doc: &toml::Value, text: &str, path: &str) -> String {
    let said = doc
        .get("as-black-powder")
        .and_then(toml::Value::as_array)
        .is_some_and(|list| list.iter().any(|c| c.as_str() == Some(path)));
    if said {
        return "as Black Powder".into();
    }
    let mut at = doc;
    for key in path.split('.') {
        match at.get(key) {
            Some(next) => at = next,
            None => return "—".into(),
        }
    }
    let value = match at {
        toml::Value::String(s) if s.is_empty() => "none".into(),
        toml::Value::String(s) => s.clone(),
        toml::Value::Table(_) => "set".into(),
        other => other.to_string(),
    };
    match comment_on(text, path) {
        Some(comment) => format!("{value} ({comment})"),
        None => value,
    }
}

/// The book paragraph a profile gives for the line that sets `path`'s last key inside its
/// table: the comment on that line, else the comment lines right above it.
fn comment_on(text: &str, path: &str) -> Option<String> {
    let (table, key) = path.rsplit_once('.')?;
    let header = format!("[{table}]");
    let mut inside = false;
    // The comment lines right above the current line.
    let mut above: Option<String> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('[') {
            inside = line.starts_with('[') && line == header || line.is_empty() && inside;
            above = None;
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            let comment = comment.trim();
            above = Some(match above.take() {
                Some(before) => format!("{before} {comment}"),
                None => comment.to_owned(),
            });
            continue;
        }
        if inside && line.split('=').next().map(str::trim) == Some(key) {
            let inline = line.split_once('#').map(|(_, c)| c.trim().to_owned());
            return inline.or(above).map(|c| c.replace('|', "/"));
        }
        // A comment block speaks for the setting right under it, not those after.
        above = None;
    }
    None
}
