//! `vedette tags` and `vedette anchors`: sheets to print.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use calibration::{AnchorLayout, Board};
use vision::Roster;
use vision::printables::{
    self, Paper, SheetItem, SheetOptions, anchor_kit, board_sheet, parse_base, parse_ids,
    parse_length, roster_items, tag_sheet,
};

/// Which tags `vedette tags` prints.
pub enum TagSource<'a> {
    /// These ids, all at `size` on `base` (`25mm`, `40x20mm` as typed).
    Ids {
        /// `1-40,55`.
        ids: &'a str,
        /// Black square.
        size: &'a str,
        /// Base outline, if any.
        base: Option<&'a str>,
    },
    /// Every tag of a roster, on its stand's outline.
    Roster(&'a Path),
}

/// Make a tag sheet and write it.
pub fn tags(
    source: TagSource,
    family: &str,
    paper: &str,
    output: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let paper = Paper::parse(paper)?;
    let (items, title) = match source {
        TagSource::Ids { ids, size, base } => {
            let size = parse_length(size)?;
            let base = base.map(parse_base).transpose()?;
            let items: Vec<SheetItem> = parse_ids(ids)?
                .into_iter()
                .map(|id| SheetItem::tag(id, size, base))
                .collect();
            (items, format!("Vedette tags {ids}"))
        }
        TagSource::Roster(path) => {
            let roster = Roster::load(path)?;
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("roster");
            (roster_items(&roster), format!("Vedette tags for {name}"))
        }
    };
    let options = SheetOptions {
        family: family.to_owned(),
        paper,
        title,
    };
    let pages = tag_sheet(&options, &items).context("the tag sheet")?;
    report(&printables::save(&pages, output)?, items.len(), out)
}

/// Make the anchor kit (from a layout) or the calibration board, and write it.
pub fn anchors(
    layout: Option<&Path>,
    paper: &str,
    output: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let paper = Paper::parse(paper)?;
    let (pages, count) = match layout {
        Some(path) => {
            let layout = AnchorLayout::load(path)?;
            let pages = anchor_kit(&layout, paper)
                .with_context(|| format!("the anchor kit of {}", path.display()))?;
            (pages, layout.anchors.len())
        }
        None => {
            let board = Board::default();
            (vec![board_sheet(&board, paper)?], board.ids().len())
        }
    };
    report(&printables::save(&pages, output)?, count, out)
}

fn report(files: &[std::path::PathBuf], tags: usize, out: &mut dyn Write) -> anyhow::Result<()> {
    for file in files {
        writeln!(out, "{}", file.display())?;
    }
    writeln!(
        out,
        "{tags} tag(s). Print at 100 % (actual size) and check the 50 mm scale bar with a ruler."
    )?;
    Ok(())
}
