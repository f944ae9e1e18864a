//! The table a command is told of, and whether the anchors are laid out for it.
//!
//! An anchors file gives the size of the table it was made for; a scenario or `--table` gives
//! the table being played. When they differ (one of the book's 8'–12' scenarios with the
//! sample's 6'×4' anchors) the anchors cannot all lie where their file says on the table being
//! played, and everything found from them lands in the wrong place. `render` and `calibrate`
//! say so in the same words, from this one check.

use std::path::Path;

use anyhow::Context;
use calibration::{AnchorLayout, TableSize};
use vision::printables::{self, parse_base};

/// A table given as `72x48in` or `180x120cm`, from 2' to 20' each way, in inches.
pub fn parse_table(text: &str) -> anyhow::Result<TableSize> {
    let size = parse_base(text).with_context(|| format!("--table {text}"))?;
    // Through millimetres and back: round off the last bits so a file reads 48, not 47.99….
    let inches = |mm: printables::Mm| (mm.inches().0 * 1000.0).round() / 1000.0;
    let (width, depth) = (inches(size.width), inches(size.depth));
    if !(24.0..=240.0).contains(&width) || !(24.0..=240.0).contains(&depth) {
        anyhow::bail!(
            "--table {text}: a table from 2' to 20' each way is expected, not {width:.0}\" × {depth:.0}\""
        );
    }
    Ok(TableSize { width, depth })
}

/// Where the size of the table being played comes from.
#[derive(Clone, Copy, Debug)]
pub enum PlayedOn<'a> {
    /// A scene or scenario file.
    Scene(&'a Path),
    /// `--table`, as the player wrote it.
    Told(&'a str),
}

/// The anchors laid out for one table, the game played on another.
#[derive(Clone, Debug, PartialEq)]
pub struct TableMismatch {
    /// What the anchors file and the table being played say, in words.
    pub description: String,
    /// The command that prints anchors for the table being played, with their file.
    pub remedy: String,
}

/// Whether the anchors of `layout` (read from `anchors_file`) are laid out for another table
/// than `table`, the one being played (as `played` says).
pub fn anchors_for_another_table(
    anchors_file: &Path,
    layout: &AnchorLayout,
    played: PlayedOn,
    table: TableSize,
) -> Option<TableMismatch> {
    if same_table(layout.table, table) {
        return None;
    }
    let played = match played {
        PlayedOn::Scene(path) => format!("{} is on", path.display()),
        PlayedOn::Told(text) => format!("--table {text} is"),
    };
    Some(TableMismatch {
        description: format!(
            "{} lays the anchors out for a {}\"×{}\" table, but {played} a {}\"×{}\" table",
            anchors_file.display(),
            inches(layout.table.width),
            inches(layout.table.depth),
            inches(table.width),
            inches(table.depth)
        ),
        remedy: format!(
            "vedette anchors --kit 4 --table {}x{}in --save-layout anchors.toml -o anchors.pdf",
            inches(table.width),
            inches(table.depth)
        ),
    })
}

/// Inches to a tenth, without a trailing ".0": 72, 70.9.
fn inches(value: f64) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").unwrap_or(&text).to_owned()
}

/// Whether two tables are the same size, to a tenth of an inch.
fn same_table(a: TableSize, b: TableSize) -> bool {
    (a.width - b.width).abs() < 0.1 && (a.depth - b.depth).abs() < 0.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::units::Inches;

    #[test]
    fn tables_are_read_in_inches_or_centimetres_and_kept_to_a_sensible_size() {
        let table = parse_table("180x120cm").expect("a table");
        assert!((table.width - 70.866).abs() < 0.001 && (table.depth - 47.244).abs() < 0.001);
        assert!(parse_table("10x10in").is_err());
        assert!(parse_table("wide").is_err());
    }

    #[test]
    fn only_anchors_for_another_table_are_named() {
        let six_by_four = TableSize {
            width: 72.0,
            depth: 48.0,
        };
        let layout = AnchorLayout::corners(six_by_four, Inches(2.0), Inches(1.5));
        let file = Path::new("anchors.toml");
        assert_eq!(
            anchors_for_another_table(file, &layout, PlayedOn::Told("72x48in"), six_by_four),
            None
        );
        let nine_by_five = TableSize {
            width: 108.0,
            depth: 60.0,
        };
        let mismatch =
            anchors_for_another_table(file, &layout, PlayedOn::Told("108x60in"), nine_by_five)
                .expect("another table");
        assert_eq!(
            mismatch.description,
            "anchors.toml lays the anchors out for a 72\"×48\" table, but --table 108x60in is a 108\"×60\" table"
        );
        assert!(mismatch.remedy.contains("--table 108x60in"));
    }
}
