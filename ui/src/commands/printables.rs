//! `vedette tags` and `vedette anchors`: sheets to print.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use calibration::{AnchorKit, AnchorLayout, Board};
use roster::{Roster, TagFamily};
use rules::units::Inches;
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
    family: Option<&str>,
    paper: &str,
    output: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let paper = Paper::parse(paper)?;
    let (items, title, family) = match source {
        TagSource::Ids { ids, size, base } => {
            let size = parse_length(size)?;
            let base = base.map(parse_base).transpose()?;
            let items: Vec<SheetItem> = parse_ids(ids)?
                .into_iter()
                .map(|id| SheetItem::tag(id, size, base))
                .collect();
            let family = family.unwrap_or(TagFamily::default().name()).to_owned();
            (items, format!("Vedette tags {ids}"), family)
        }
        TagSource::Roster(path) => {
            let roster = Roster::load(path)?;
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("roster");
            let family = roster.tags.family.name().to_owned();
            (
                roster_items(&roster),
                format!("Vedette tags for {name}"),
                family,
            )
        }
    };
    let options = SheetOptions {
        family,
        paper,
        title,
    };
    let pages = tag_sheet(&options, &items).context("the tag sheet")?;
    report(&printables::save(&pages, output)?, items.len(), out)
}

/// Make the anchor kit (from a layout) or the calibration board, and write it.
pub fn anchors(
    sheet: AnchorSheet,
    paper: &str,
    output: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let paper = Paper::parse(paper)?;
    let layout = match sheet {
        AnchorSheet::Layout(path) => Some((AnchorLayout::load(path)?, path.display().to_string())),
        AnchorSheet::Kit { kit, table, save } => {
            let layout = standard_kit(kit, table)?;
            if let Some(path) = save {
                layout.save(path)?;
                writeln!(out, "{}", path.display())?;
            }
            Some((layout, format!("the {kit}-anchor kit")))
        }
        AnchorSheet::Board => None,
    };
    let (pages, count) = match layout {
        Some((layout, name)) => {
            let pages =
                anchor_kit(&layout, paper).with_context(|| format!("the anchor kit of {name}"))?;
            (pages, layout.anchors.len())
        }
        None => {
            let board = Board::default();
            (vec![board_sheet(&board, paper)?], board.ids().len())
        }
    };
    report(&printables::save(&pages, output)?, count, out)
}

/// Which anchor sheet to print.
pub enum AnchorSheet<'a> {
    /// The anchors of a layout file.
    Layout(&'a Path),
    /// A standard kit: "4", "6" or "8" anchors, for a table `72x48in`, its layout saved if asked.
    Kit {
        /// How many anchors.
        kit: &'a str,
        /// The table, width x depth.
        table: &'a str,
        /// Where to save the layout.
        save: Option<&'a Path>,
    },
    /// The calibration board.
    Board,
}

/// The standard kit of 2" anchors, 1.5" in from the edges, for a table given as `72x48in`.
fn standard_kit(kit: &str, table: &str) -> anyhow::Result<AnchorLayout> {
    let kit = match kit {
        "4" => AnchorKit::Corners,
        "6" => AnchorKit::Six,
        "8" => AnchorKit::Eight,
        other => anyhow::bail!("--kit {other}: the kits have 4, 6 or 8 anchors"),
    };
    let table = super::table::parse_table(table)?;
    Ok(AnchorLayout::kit(kit, table, Inches(2.0), Inches(1.5)))
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
