//! A verdict as pages name it: the word their styles and marks go by.

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
