//! Numbers a ruling rests on that the source lost and the digest reconstructed (BPT
//! Commander's printed "∅"): every ruling that uses one says so, with the digest's note, so
//! that players know which numbers are guesses and can set their own.
//!
//! A ruling does not record which settings it read, so the settings are found by its topic
//! and its unit: a shooting ruling rests on the unit's weapon range (and its arc on the fire
//! cone), a charge on its kind's charge distance, a move on its kind's and formation's move,
//! the proximity, support and command rulings on their distances.

use crate::profile::Profile;
use crate::ruling::{Ruling, Topic};
use crate::scene::Unit;

/// Add to each of `rulings` about `unit` the reconstructed settings it rests on.
pub fn say_reconstructed(rulings: &mut [Ruling], unit: &Unit, profile: &Profile) {
    if profile.reconstructed().is_empty() {
        return;
    }
    for ruling in rulings.iter_mut() {
        for setting in settings_of(ruling, unit, profile) {
            let Some(guess) = profile
                .reconstructed()
                .iter()
                .find(|r| r.setting == setting)
            else {
                continue;
            };
            ruling.explanation.push_str(&format!(
                " {} is reconstructed, not printed in the source: {}.",
                guess.value, guess.note
            ));
        }
    }
}

/// The profile settings a ruling about `unit` rests on.
fn settings_of(ruling: &Ruling, unit: &Unit, profile: &Profile) -> Vec<String> {
    let kind = unit.kind.as_str();
    let formation = unit.formation.as_str();
    match ruling.topic {
        Topic::Shooting => {
            let mut settings: Vec<String> = profile
                .unit_weapon(unit)
                .map(|w| format!("weapons.{}.range", w.id()))
                .into_iter()
                .collect();
            if ruling.other.is_none() {
                settings.push("specials.front-arc-splay".into());
            }
            settings
        }
        Topic::Charge => {
            let mut settings = vec![format!("kinds.{kind}.charge")];
            if ruling
                .figures
                .iter()
                .any(|f| f.name == crate::charge::RESPONDERS_WITHIN)
            {
                settings.push("specials.responders-within".into());
            }
            settings
        }
        Topic::Movement => vec![
            format!("kinds.{kind}.move"),
            format!("formations.{formation}.move"),
        ],
        Topic::Proximity => vec!["distances.proximity".into()],
        Topic::Support => vec!["distances.support".into()],
        Topic::Command => vec!["distances.command-step".into()],
        Topic::Contact | Topic::Retire => Vec::new(),
    }
}
