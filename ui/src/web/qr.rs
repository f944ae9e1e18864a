//! The table's link as a QR code: modules to draw in the app, and text for a terminal.

use qrcode::{Color, EcLevel, QrCode};

/// A QR code's modules, row by row (`true`: dark), with its side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modules {
    /// Modules a side.
    pub side: usize,
    /// Row-major, `side × side`.
    pub dark: Vec<bool>,
}

impl Modules {
    /// Whether the module at `row`, `column` is dark.
    pub fn is_dark(&self, row: usize, column: usize) -> bool {
        row < self.side && column < self.side && self.dark[row * self.side + column]
    }
}

/// The QR code of `link`: medium error correction, which a phone reads off a screen across a
/// table. `None` if the link is too long for a QR code (it never is: links are under 80 bytes).
pub fn modules(link: &str) -> Option<Modules> {
    let code = QrCode::with_error_correction_level(link.as_bytes(), EcLevel::M).ok()?;
    Some(Modules {
        side: code.width(),
        dark: code
            .to_colors()
            .into_iter()
            .map(|c| c == Color::Dark)
            .collect(),
    })
}

/// The QR code as text for a terminal: two rows of modules to a line (`▀ ▄ █`), dark on a light
/// background with the quiet zone a reader needs.
pub fn terminal(link: &str) -> Option<String> {
    let modules = modules(link)?;
    let quiet = 2;
    let side = modules.side + 2 * quiet;
    let dark = |row: usize, column: usize| {
        row >= quiet && column >= quiet && modules.is_dark(row - quiet, column - quiet)
    };
    let mut text = String::new();
    for row in (0..side).step_by(2) {
        for column in 0..side {
            // Printed light on dark terminals: a dark module is a space, a light one a block.
            let glyph = match (dark(row, column), dark(row + 1, column)) {
                (true, true) => ' ',
                (true, false) => '▄',
                (false, true) => '▀',
                (false, false) => '█',
            };
            text.push(glyph);
        }
        text.push('\n');
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_makes_a_square_code_with_finder_patterns() {
        let link = "http://192.168.1.20:8765/t/abcdefghijkmnpqrstuvwxyz23/";
        let code = modules(link).expect("a QR code");
        assert_eq!(code.dark.len(), code.side * code.side);
        // The finder patterns' corners are dark, the module inside their ring light.
        for (row, column) in [(0, 0), (0, code.side - 1), (code.side - 1, 0)] {
            assert!(code.is_dark(row, column), "{row},{column}");
        }
        assert!(!code.is_dark(1, 1));
        let text = terminal(link).expect("text");
        assert_eq!(text.lines().count(), (code.side + 4).div_ceil(2));
    }
}
