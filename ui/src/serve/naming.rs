//! What pages call a verdict and a side: the word their styles and marks go by, the colour
//! their CSS draws a side in.

use live::look::side_rgb;
use rules::Scene;
use rules::ruling::Verdict;

/// A verdict as the page's styles name it.
pub fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Yes => "yes",
        Verdict::Penalty => "penalty",
        Verdict::Test => "test",
        Verdict::Borderline => "borderline",
        Verdict::No => "no",
    }
}

/// `side`'s colour in `scene`, as CSS writes it (`#rrggbb`).
pub fn side_colour(scene: &Scene, side: &str) -> String {
    let [r, g, b] = side_rgb(scene, side);
    format!("#{r:02x}{g:02x}{b:02x}")
}
