//! Sheets of tags for stands and movement trays: each tag in its base's outline (or alone,
//! with a cut line round its white border), its id and unit beside it, a scale bar at the foot.

use rules::units::{Degrees, Inches};

use super::page::{Stroke, TagPrint};
use super::{Mm, Page, PagePoint, Paper, PrintError, family_ids, parse_length, trim};
use roster::{Roster, TagOwner};

/// Paper left blank all round (most printers cannot print closer to the edge).
pub const MARGIN: Mm = Mm(12.0);
/// Between neighbouring tags.
const GAP: f64 = 5.0;
/// Label text height.
const LABEL: f64 = 2.8;
/// The header's height, title and notes.
const HEADER: f64 = 14.0;
/// The footer's height, for the scale bar.
const FOOTER: f64 = 10.0;

/// A stand's or tray's size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Base {
    /// Frontage.
    pub width: Mm,
    /// Depth.
    pub depth: Mm,
}

/// One tag to print.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetItem {
    /// Its id.
    pub id: u32,
    /// What it marks ("45th Foot"), if known.
    pub name: Option<String>,
    /// A second line ("stand 2 of 4"), if any.
    pub detail: Option<String>,
    /// The side of its black square.
    pub size: Mm,
    /// The base it goes on, drawn round it.
    pub base: Option<Base>,
    /// Its centre from the base's centre: to the base's right, to its front.
    pub offset: [Mm; 2],
    /// Its top against the base's front, counter-clockwise.
    pub turn: Degrees,
}

impl SheetItem {
    /// A lone tag.
    pub fn tag(id: u32, size: Mm, base: Option<Base>) -> SheetItem {
        SheetItem {
            id,
            name: None,
            detail: None,
            size,
            base,
            offset: [Mm(0.0); 2],
            turn: Degrees(0.0),
        }
    }

    fn label(&self) -> String {
        match &self.name {
            Some(name) => format!("tag {} · {name}", self.id),
            None => format!("tag {}", self.id),
        }
    }
}

/// The sheet as a whole.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetOptions {
    /// Tag family.
    pub family: String,
    /// Paper.
    pub paper: Paper,
    /// The title printed at the top.
    pub title: String,
}

/// The tags of a roster: one per stand in its base's outline, one per commander.
pub fn roster_items(roster: &Roster) -> Vec<SheetItem> {
    let mut mounts: Vec<_> = roster.mounts().into_iter().collect();
    mounts.sort_by_key(|(_, m)| match m.owner {
        TagOwner::Stand { unit, stand } => (0, unit, stand),
        TagOwner::Commander(i) => (1, i, 0),
    });
    mounts
        .into_iter()
        .map(|(id, mount)| {
            let size = Mm::from_inches(mount.size);
            match mount.owner {
                TagOwner::Stand { unit, stand } => {
                    let u = &roster.units[unit];
                    let s = &u.stands[stand];
                    let base = Base {
                        width: Mm::from_inches(Inches(s.width)),
                        depth: Mm::from_inches(Inches(s.depth)),
                    };
                    let which = if u.stands.len() > 1 {
                        format!("stand {} of {} · ", stand + 1, u.stands.len())
                    } else {
                        String::new()
                    };
                    SheetItem {
                        id,
                        name: Some(u.name.clone().unwrap_or_else(|| u.id.clone())),
                        detail: Some(format!(
                            "{which}base {} × {} mm",
                            trim(base.width.0),
                            trim(base.depth.0)
                        )),
                        size,
                        base: Some(base),
                        offset: [
                            Mm::from_inches(s.tag_offset.right),
                            Mm::from_inches(s.tag_offset.front),
                        ],
                        turn: Degrees(s.tag_turn),
                    }
                }
                TagOwner::Commander(i) => {
                    let c = &roster.commanders[i];
                    SheetItem {
                        name: Some(c.name.clone().unwrap_or_else(|| c.id.clone())),
                        detail: Some("commander: on his base".into()),
                        ..SheetItem::tag(id, size, None)
                    }
                }
            }
        })
        .collect()
}

/// What one item takes on the page.
struct Cell {
    /// The drawn box: the base outline, or the tag's white square.
    width: f64,
    height: f64,
    /// Whether the base is drawn (false: too big for the paper, or none given).
    outline: bool,
    /// With the labels.
    total_width: f64,
    total_height: f64,
}

/// The cut square round a tag: its black square and the white border of one cell.
fn sticker(item: &SheetItem) -> f64 {
    item.size.0 * 10.0 / 8.0
}

fn cell_of(item: &SheetItem, usable: (f64, f64)) -> Result<Cell, PrintError> {
    let square = sticker(item);
    let label_width = |text: &str| text.chars().count() as f64 * LABEL * 0.55;
    let labels = 1 + usize::from(item.detail.is_some());
    let (width, height, outline) = match item.base {
        Some(b) if b.width.0 <= usable.0 && b.depth.0 + 8.0 <= usable.1 => {
            check_fits(item, b)?;
            (b.width.0, b.depth.0, true)
        }
        _ => (square, square, false),
    };
    let mut text_width = label_width(&item.label());
    if let Some(detail) = &item.detail {
        text_width = text_width.max(label_width(detail));
    }
    let total_width = width.max(text_width.min(usable.0));
    let total_height = height + 1.5 + labels as f64 * (LABEL + 1.0);
    if square > usable.0 || total_height > usable.1 {
        return Err(PrintError::DoesNotFit(format!(
            "{}: a {} tag does not fit on the paper",
            item.label(),
            item.size
        )));
    }
    Ok(Cell {
        width,
        height,
        outline,
        total_width,
        total_height,
    })
}

/// The tag and its white border must lie on the base.
fn check_fits(item: &SheetItem, base: Base) -> Result<(), PrintError> {
    let (sin, cos) = item.turn.0.to_radians().sin_cos();
    let half = sticker(item) / 2.0 * (sin.abs() + cos.abs());
    let x = item.offset[0].0;
    let y = item.offset[1].0;
    let slack = 0.01;
    if x.abs() + half > base.width.0 / 2.0 + slack || y.abs() + half > base.depth.0 / 2.0 + slack {
        return Err(PrintError::DoesNotFit(format!(
            "{}: a {} tag with its white border ({} mm) does not fit on its {} × {} mm base at that offset: print smaller tags (--size)",
            item.label(),
            item.size,
            trim(sticker(item)),
            trim(base.width.0),
            trim(base.depth.0)
        )));
    }
    Ok(())
}

/// The `vedette-tags` line naming what a page prints.
pub fn tags_line(family: &str, ids: &[u32]) -> String {
    let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
    format!("vedette-tags family={family} ids={}", ids.join(","))
}

/// Lay the items out on as many pages as they need.
pub fn tag_sheet(options: &SheetOptions, items: &[SheetItem]) -> Result<Vec<Page>, PrintError> {
    let count = family_ids(&options.family)?;
    let mut seen = std::collections::HashSet::new();
    for item in items {
        if item.id >= count {
            return Err(PrintError::NoSuchTag {
                id: item.id,
                family: options.family.clone(),
                last: count - 1,
            });
        }
        if !seen.insert(item.id) {
            return Err(PrintError::Duplicate(item.id));
        }
    }
    let paper = options.paper;
    let left = MARGIN.0;
    let right = paper.width.0 - MARGIN.0;
    let top = MARGIN.0 + HEADER;
    let bottom = paper.height.0 - MARGIN.0 - FOOTER;
    let usable = (right - left, bottom - top);
    let mut pages: Vec<(Page, Vec<u32>)> = Vec::new();
    let (mut x, mut y, mut row) = (left, top, 0.0_f64);
    for item in items {
        let cell = cell_of(item, usable)?;
        if x + cell.total_width > right + 1e-9 {
            (x, y, row) = (left, y + row + GAP, 0.0);
        }
        if pages.is_empty() || y + cell.total_height > bottom + 1e-9 {
            pages.push((new_page(options, pages.len() + 1), Vec::new()));
            (x, y, row) = (left, top, 0.0);
        }
        let Some((page, ids)) = pages.last_mut() else {
            continue;
        };
        draw_item(page, &options.family, item, &cell, PagePoint::new(x, y))?;
        ids.push(item.id);
        x += cell.total_width + GAP;
        row = row.max(cell.total_height);
    }
    Ok(pages
        .into_iter()
        .map(|(mut page, ids)| {
            page.tags_line = tags_line(&options.family, &ids);
            page
        })
        .collect())
}

fn new_page(options: &SheetOptions, number: usize) -> Page {
    let mut page = Page::new(options.paper);
    let left = MARGIN.0;
    page.text(
        PagePoint::new(left, MARGIN.0 + 4.0),
        Mm(4.2),
        format!("{} — page {number}", options.title),
    );
    page.text(
        PagePoint::new(left, MARGIN.0 + 9.0),
        Mm(2.8),
        format!(
            "{}: a tag's size is its black square; keep its white border. Each base's front is at the top.",
            options.family
        ),
    );
    page.scale_bar(PagePoint::new(
        left,
        options.paper.height.0 - MARGIN.0 - 5.0,
    ));
    page
}

fn draw_item(
    page: &mut Page,
    family: &str,
    item: &SheetItem,
    cell: &Cell,
    at: PagePoint,
) -> Result<(), PrintError> {
    let (x, y) = (at.x.0, at.y.0);
    let centre = PagePoint::new(x + cell.width / 2.0, y + cell.height / 2.0);
    let square = sticker(item);
    let center = if cell.outline {
        page.rect(at, Mm(cell.width), Mm(cell.height), Stroke::Outline);
        // Offsets are to the base's right and front; the front is the page's top.
        PagePoint::new(centre.x.0 + item.offset[0].0, centre.y.0 - item.offset[1].0)
    } else {
        centre
    };
    page.tag(
        family,
        item.id,
        TagPrint {
            center,
            size: item.size,
            turn: item.turn,
        },
    )?;
    if !cell.outline || item.turn.0.rem_euclid(90.0) == 0.0 {
        let (sin, cos) = item.turn.0.to_radians().sin_cos();
        let half = square / 2.0 * (sin.abs() + cos.abs());
        if !cell.outline
            || (cell.width - 2.0 * half).abs() > 0.1
            || (cell.height - 2.0 * half).abs() > 0.1
        {
            page.rect(
                PagePoint::new(center.x.0 - half, center.y.0 - half),
                Mm(2.0 * half),
                Mm(2.0 * half),
                Stroke::Cut,
            );
        }
    }
    let mut baseline = y + cell.height + 1.5 + LABEL;
    page.text(PagePoint::new(x, baseline), Mm(LABEL), item.label());
    if let Some(detail) = &item.detail {
        baseline += LABEL + 1.0;
        page.text(PagePoint::new(x, baseline), Mm(LABEL), detail.clone());
    }
    Ok(())
}

/// Read a base size: `40x20mm`, `40×20 mm`, `2x1in` (frontage × depth).
pub fn parse_base(text: &str) -> Result<Base, PrintError> {
    let bad = || PrintError::BadBase(text.to_owned());
    let t = text.trim().replace('×', "x");
    let (width, rest) = t.split_once(['x', 'X']).ok_or_else(bad)?;
    let unit_at = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(bad)?;
    let unit = &rest[unit_at..];
    let width = parse_length(&format!("{}{unit}", width.trim())).map_err(|_| bad())?;
    let depth = parse_length(rest).map_err(|_| bad())?;
    Ok(Base { width, depth })
}
