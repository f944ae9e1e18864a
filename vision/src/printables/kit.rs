//! The anchor kit (one big tag per table anchor, labelled with where it goes) and the
//! calibration board, printed to match `calibration::Board` exactly.

use calibration::{Anchor, AnchorLayout, Board};
use rules::units::{Degrees, Inches};

use super::page::{Stroke, TagPrint};
use super::tag_sheet::{MARGIN, tags_line};
use super::{Mm, Page, PagePoint, Paper, PrintError, family_ids, trim};

/// Where on the table an anchor lies, in words: "south-west corner".
fn position_name(anchor: &Anchor, layout: &AnchorLayout) -> String {
    let third = |v: f64, whole: f64| {
        if v < whole / 3.0 {
            0
        } else if v > 2.0 * whole / 3.0 {
            2
        } else {
            1
        }
    };
    let across = third(anchor.center.x, layout.table.width);
    let up = third(anchor.center.y, layout.table.depth);
    let ns = ["south", "", "north"][up];
    let ew = ["west", "", "east"][across];
    match (ns, ew) {
        ("", "") => "middle of the table".into(),
        ("", ew) => format!("middle of the {ew} edge"),
        (ns, "") => format!("middle of the {ns} edge"),
        (ns, ew) => format!("{ns}-{ew} corner"),
    }
}

/// Which way the tag's top points, in words.
fn facing_name(facing: f64) -> String {
    match facing.rem_euclid(360.0) {
        90.0 => "its top towards the north (far) edge".into(),
        270.0 => "its top towards the south (near) edge".into(),
        0.0 => "its top towards the east edge".into(),
        180.0 => "its top towards the west edge".into(),
        f => format!("its top {f}° counter-clockwise from east"),
    }
}

/// The anchor kit: each anchor's tag at its size with its id, where it goes and which way up,
/// and for a tag facing north, the table edges it is measured from drawn as dashed lines to
/// line up with the table's edges.
pub fn anchor_kit(layout: &AnchorLayout, paper: Paper) -> Result<Vec<Page>, PrintError> {
    let count = family_ids(&layout.family)?;
    let mut pages = Vec::new();
    let mut page: Option<(Page, Vec<u32>, f64)> = None;
    let top = MARGIN.0 + 12.0;
    let bottom = paper.height.0 - MARGIN.0 - 10.0;
    for anchor in &layout.anchors {
        if anchor.id >= count {
            return Err(PrintError::NoSuchTag {
                id: anchor.id,
                family: layout.family.clone(),
                last: count - 1,
            });
        }
        let size = Mm::from_inches(Inches(anchor.size));
        let square = size.0 * 10.0 / 8.0;
        let height = square + 18.0;
        if square > paper.width.0 - 2.0 * MARGIN.0 - 40.0 || height > bottom - top {
            return Err(PrintError::DoesNotFit(format!(
                "anchor {}: a {size} tag does not fit on the paper",
                anchor.id
            )));
        }
        let full = page.as_ref().is_some_and(|(_, _, y)| y + height > bottom);
        if page.is_none() || full {
            if let Some(done) = page.take() {
                pages.push(done);
            }
            let mut fresh = Page::new(paper);
            header(
                &mut fresh,
                &format!(
                    "Vedette anchor kit — {}, table {}\" × {}\"",
                    layout.family,
                    trim(layout.table.width),
                    trim(layout.table.depth)
                ),
            );
            page = Some((fresh, Vec::new(), top));
        }
        if let Some((p, ids, y)) = page.as_mut() {
            draw_anchor(p, layout, anchor, PagePoint::new(MARGIN.0 + 20.0, *y))?;
            ids.push(anchor.id);
            *y += height + 6.0;
        }
    }
    pages.extend(page);
    Ok(pages
        .into_iter()
        .map(|(mut p, ids, _)| {
            p.tags_line = tags_line(&layout.family, &ids);
            p
        })
        .collect())
}

fn header(page: &mut Page, title: &str) {
    page.text(PagePoint::new(MARGIN.0, MARGIN.0 + 4.0), Mm(4.2), title);
    let bar = PagePoint::new(MARGIN.0, page.paper.height.0 - MARGIN.0 - 5.0);
    page.scale_bar(bar);
}

fn draw_anchor(
    page: &mut Page,
    layout: &AnchorLayout,
    anchor: &Anchor,
    at: PagePoint,
) -> Result<(), PrintError> {
    let size = Mm::from_inches(Inches(anchor.size));
    let square = size.0 * 10.0 / 8.0;
    let center = PagePoint::new(at.x.0 + square / 2.0, at.y.0 + square / 2.0);
    // The page's top is the tag's top; the table turns under it.
    page.tag(
        &layout.family,
        anchor.id,
        TagPrint {
            center,
            size,
            turn: Degrees(0.0),
        },
    )?;
    page.rect(at, Mm(square), Mm(square), Stroke::Cut);
    if anchor.facing.rem_euclid(360.0) == 90.0 {
        edge_guides(page, layout, anchor, center, square);
    }
    let text_x = at.x.0 + square + 8.0;
    let mut line = at.y.0 + 6.0;
    let mut say = |page: &mut Page, size: f64, text: String| {
        page.text(PagePoint::new(text_x, line), Mm(size), text);
        line += size + 2.0;
    };
    say(page, 4.2, format!("anchor {}", anchor.id));
    say(
        page,
        3.0,
        format!("goes at the {}", position_name(anchor, layout)),
    );
    let (x, y) = (anchor.center.x, anchor.center.y);
    say(
        page,
        3.0,
        format!(
            "centre {}\" from the west edge, {}\" from the south edge",
            trim(x),
            trim(y)
        ),
    );
    say(page, 3.0, facing_name(anchor.facing));
    say(page, 3.0, format!("black square {size}"));
    Ok(())
}

/// Dashed lines where the nearer table edges run, when they fall within a short reach of
/// the tag (corner anchors): lay them on the table's edges.
fn edge_guides(
    page: &mut Page,
    layout: &AnchorLayout,
    anchor: &Anchor,
    center: PagePoint,
    square: f64,
) {
    let reach = square / 2.0 + 12.0;
    let mm = |v: f64| Mm::from_inches(Inches(v)).0;
    let (x, y) = (mm(anchor.center.x), mm(anchor.center.y));
    let (w, d) = (
        Mm::from_inches(Inches(layout.table.width)).0,
        Mm::from_inches(Inches(layout.table.depth)).0,
    );
    let (cx, cy) = (center.x.0, center.y.0);
    let span = square / 2.0 + 6.0;
    // West / east edges are vertical lines on the page; south / north horizontal ones.
    for dx in [-x, w - x] {
        if dx.abs() <= reach && dx.abs() >= square / 2.0 {
            page.line(
                PagePoint::new(cx + dx, cy - span),
                PagePoint::new(cx + dx, cy + span),
                Stroke::Rule,
            );
        }
    }
    for dy in [y, -(d - y)] {
        if dy.abs() <= reach && dy.abs() >= square / 2.0 {
            page.line(
                PagePoint::new(cx - span, cy + dy),
                PagePoint::new(cx + span, cy + dy),
                Stroke::Rule,
            );
        }
    }
}

/// Where a tag of the board lies on the page: the board centred on the paper, its top at the
/// page's top.
pub fn board_origin(board: &Board, paper: Paper) -> PagePoint {
    let pitch = board.tag_size + board.gap;
    let w = Mm::from_inches(Inches(f64::from(board.columns) * pitch)).0;
    let h = Mm::from_inches(Inches(f64::from(board.rows) * pitch)).0;
    // The board's bottom-left corner (its origin) on the page.
    PagePoint::new((paper.width.0 - w) / 2.0, (paper.height.0 - h) / 2.0 + h)
}

/// The calibration board on one page, every tag where `Board::placement` says.
pub fn board_sheet(board: &Board, paper: Paper) -> Result<Page, PrintError> {
    let count = family_ids(&board.family)?;
    let ids: Vec<u32> = board.ids().collect();
    if let Some(&last) = ids.last().filter(|&&l| l >= count) {
        return Err(PrintError::NoSuchTag {
            id: last,
            family: board.family.clone(),
            last: count - 1,
        });
    }
    let pitch = Mm::from_inches(Inches(board.tag_size + board.gap)).0;
    let (w, h) = (
        pitch * f64::from(board.columns),
        pitch * f64::from(board.rows),
    );
    // The black squares must clear the printer's margins; the board's outer half-gaps may not.
    let gap = Mm::from_inches(Inches(board.gap)).0;
    if w - gap > paper.width.0 - 16.0 || h - gap > paper.height.0 - 16.0 {
        return Err(PrintError::DoesNotFit(format!(
            "the {} × {} board of {}\" tags ({} × {} mm) does not fit on the paper",
            board.columns,
            board.rows,
            board.tag_size,
            trim(w),
            trim(h)
        )));
    }
    let origin = board_origin(board, paper);
    let mut page = Page::new(paper);
    for id in ids.iter().copied() {
        let Some(place) = board.placement(id) else {
            continue;
        };
        let center = PagePoint::new(
            origin.x.0 + Mm::from_inches(Inches(place.center.x)).0,
            origin.y.0 - Mm::from_inches(Inches(place.center.y)).0,
        );
        page.tag(
            &board.family,
            id,
            TagPrint {
                center,
                size: Mm::from_inches(place.size),
                turn: Degrees(place.facing.0 - 90.0),
            },
        )?;
    }
    let top = origin.y.0 - h;
    page.text(
        PagePoint::new(origin.x.0, (top - 2.0).max(4.0)),
        Mm(2.6),
        format!(
            "Vedette calibration board — {} ids {}–{}, {}\" tags, {}\" gaps: print at 100 %, glue flat on card; the bar at the left must measure 50 mm",
            board.family,
            board.first_id,
            board.first_id + board.columns * board.rows - 1,
            board.tag_size,
            board.gap
        ),
    );
    // Upright beside the board: there is no room below it on Letter.
    let bar_x = origin.x.0 - 2.0;
    let bar_top = origin.y.0 - h / 2.0 - 25.0;
    page.line(
        PagePoint::new(bar_x, bar_top),
        PagePoint::new(bar_x, bar_top + 50.0),
        Stroke::Rule,
    );
    for tick in 0..=5 {
        let y = bar_top + f64::from(tick) * 10.0;
        let length = if tick % 5 == 0 { 3.0 } else { 1.5 };
        page.line(
            PagePoint::new(bar_x - length, y),
            PagePoint::new(bar_x, y),
            Stroke::Rule,
        );
    }
    page.tags_line = tags_line(&board.family, &ids);
    Ok(page)
}
