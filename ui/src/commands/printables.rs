//! `vedette tags` and `vedette anchors`: sheets to print.

use std::io::Write;
use std::path::{Path, PathBuf};

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

/// The arguments of `vedette tags` (its help is the `Command` variant's).
#[derive(Debug, clap::Args)]
pub struct TagsCommand {
    /// The ids: `1-40,55`.
    #[arg(
        long,
        value_name = "IDS",
        required_unless_present = "roster",
        conflicts_with = "roster"
    )]
    pub ids: Option<String>,
    /// A roster: each stand's tag on its base outline, at its offset and turn, with the
    /// unit's name.
    #[arg(long, value_name = "ROSTER.toml")]
    pub roster: Option<PathBuf>,
    /// The side of each tag's black square: `25mm`, `1in` (with --ids).
    #[arg(long, default_value = "1in", conflicts_with = "roster")]
    pub size: String,
    /// The base each tag goes on, frontage x depth: `40x20mm`, `2x1in` (with --ids).
    #[arg(long, value_name = "WxD", conflicts_with = "roster")]
    pub base: Option<String>,
    /// Tag family: tag36h11 (the default), tag25h9 or tag16h5 (with --ids; a roster names
    /// its own).
    #[arg(long, conflicts_with = "roster")]
    pub family: Option<String>,
    /// Paper: a4 or letter.
    #[arg(long, default_value = "a4")]
    pub paper: String,
    /// The file to write: .pdf (every page), .svg or .png (one file a page).
    #[arg(short, long, value_name = "OUT.pdf")]
    pub output: PathBuf,
}

impl TagsCommand {
    /// Run it, writing its report to `out`.
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let TagsCommand {
            ids,
            roster,
            size,
            base,
            family,
            paper,
            output,
        } = self;
        let source = match (roster, ids) {
            (Some(roster), _) => TagSource::Roster(roster),
            (None, ids) => TagSource::Ids {
                ids: ids.as_deref().unwrap_or_default(),
                size,
                base: base.as_deref(),
            },
        };
        tags(source, family.as_deref(), paper, output, out)
    }
}

/// The arguments of `vedette anchors` (its help is the `Command` variant's).
#[derive(Debug, clap::Args)]
pub struct AnchorsCommand {
    /// The anchor layout: each anchor is printed at its size with where it goes.
    #[arg(
        long,
        value_name = "ANCHORS.toml",
        required_unless_present_any = ["board", "kit"],
        conflicts_with_all = ["board", "kit"]
    )]
    pub layout: Option<PathBuf>,
    /// A standard kit of 2" anchors 1.5" in from the edges: 4, 6 or 8 anchors. Mid-edge
    /// anchors pin the middle of the table (see docs/guide/setting-up.md, "Placing the anchors").
    #[arg(long, value_parser = ["4", "6", "8"], conflicts_with = "board")]
    pub kit: Option<String>,
    /// The playing area for --kit, width x depth: `72x48in`, `180x120cm`.
    #[arg(long, default_value = "72x48in", requires = "kit")]
    pub table: String,
    /// Write the kit's anchors file (for `calibrate --anchors`).
    #[arg(long, value_name = "ANCHORS.toml", requires = "kit")]
    pub save_layout: Option<PathBuf>,
    /// The calibration board instead (5 × 7 tags of 1.2", ids 500–534).
    #[arg(long)]
    pub board: bool,
    /// Paper: a4 or letter.
    #[arg(long, default_value = "a4")]
    pub paper: String,
    /// The file to write: .pdf, .svg or .png.
    #[arg(short, long, value_name = "OUT.pdf")]
    pub output: PathBuf,
}

impl AnchorsCommand {
    /// Run it, writing its report to `out`.
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let AnchorsCommand {
            layout,
            kit,
            table,
            save_layout,
            board: _,
            paper,
            output,
        } = self;
        use AnchorSheet;
        let sheet = match (layout, kit) {
            (Some(path), _) => AnchorSheet::Layout(path),
            (None, Some(kit)) => AnchorSheet::Kit {
                kit,
                table,
                save: save_layout.as_deref(),
            },
            (None, None) => AnchorSheet::Board,
        };
        anchors(sheet, paper, output, out)
    }
}
