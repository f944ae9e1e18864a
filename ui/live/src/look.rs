//! How every face shows the table's rulings and armies alike: a mark for each verdict, a
//! heading for each topic in the ruleset's words, a colour for each side. Colours are plain
//! RGB here; each face turns them into its own (egui's, the page's CSS).

use rules::Scene;
use rules::profile::Profile;
use rules::ruling::{Topic, Verdict};

/// The colours of the armies, in the order sides are listed (as the synthetic renderer paints
/// them: red coats first, blue second).
const SIDE_COLOURS: [[u8; 3]; 4] = [
    [235, 80, 70],
    [90, 140, 255],
    [240, 200, 70],
    [200, 200, 200],
];

/// The colour of a side, by its order in the scene.
pub fn side_rgb(scene: &Scene, side: &str) -> [u8; 3] {
    SIDE_COLOURS[scene.side_number(side) % SIDE_COLOURS.len()]
}

/// The mark for a verdict: a penalty is a minus (under command, at a cost to the order), a
/// test a die (a roll to pass). Every mark is in egui's bundled fonts.
pub fn verdict_mark(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Yes => "✔",
        Verdict::Penalty => "➖",
        Verdict::Test => "🎲",
        Verdict::Borderline => "?",
        Verdict::No => "✖",
    }
}

/// What each mark says, for a legend beside the rulings: "✔ yes · ➖ yes, at a cost · …".
pub fn marks_legend() -> String {
    [
        (Verdict::Yes, "yes"),
        (Verdict::Penalty, "yes, at a cost"),
        (Verdict::Test, "on a roll"),
        (Verdict::Borderline, "players decide"),
        (Verdict::No, "no"),
    ]
    .iter()
    .map(|(verdict, words)| format!("{} {words}", verdict_mark(*verdict)))
    .collect::<Vec<_>>()
    .join(" · ")
}

/// The heading of a topic; the proximity rule is named by the ruleset when it has its own
/// (zones of control, initiative distance, reaction tests).
pub fn heading(topic: Topic, profile: &Profile) -> &'static str {
    if topic == Topic::Proximity
        && let Some(rule) = profile.proximity_rule()
    {
        return rule.rule;
    }
    match topic {
        Topic::Shooting => "Shooting",
        Topic::Charge => "Charges",
        Topic::Contact => "Contact",
        Topic::Support => "Supports",
        Topic::Command => "Command",
        Topic::Proximity => "Enemy within 12\"",
        Topic::Movement => "Movement",
        Topic::Retire => "If it must retire or evade",
    }
}
