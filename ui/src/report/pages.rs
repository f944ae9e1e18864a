//! The report as pictures, one a turn, to post where a page cannot go (a chat, a forum that
//! takes images): the turn's title, its plan and what the rules said, drawn as one SVG page
//! and rasterised by resvg with the system's fonts, as the printable sheets are.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use resvg::{tiny_skia, usvg};

use super::markup::escape;
use super::model::{Report, ReportError, TurnReport};
use super::palette::{CHARGE, INK, MOVE, QUIET};

/// The page's width in pixels: a forum shows it whole, a phone zooms in.
const WIDTH: f64 = 1680.0;
const MARGIN: f64 = 48.0;
/// The plan's width; the rulings take the rest.
const PLAN_WIDTH: f64 = 1120.0;
const COLUMN_X: f64 = MARGIN + PLAN_WIDTH + 44.0;
/// Where the column's text begins, after its symbols.
const TEXT_X: f64 = COLUMN_X + 28.0;
/// Characters a line of the rulings' column holds at its size (16 px, 390 px wide).
const COLUMN_CHARS: usize = 40;
/// What a moment's time (set smaller, before the text) takes of its first line.
const TIME_CHARS: usize = 7;
const FONTS: &str = "DejaVu Sans, Helvetica, Arial, sans-serif";

/// Where turn `number`'s picture goes: `report.png` → `report-3.png`.
pub fn path_of(output: &Path, number: usize) -> PathBuf {
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report".into());
    output.with_file_name(format!("{stem}-{number}.png"))
}

/// Turn `turn`'s page as PNG.
pub fn png(report: &Report, turn: &TurnReport) -> Result<Vec<u8>, ReportError> {
    let failed = |why: String| ReportError::Draw {
        turn: turn.turn.title.clone(),
        why,
    };
    let tree = usvg::Tree::from_str(
        &svg(report, turn),
        &vision::printables::raster::svg_options(),
    )
    .map_err(|e| failed(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| failed(format!("a {}×{} picture", size.width(), size.height())))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| failed(e.to_string()))
}

/// Turn `turn`'s page as SVG: title, plan and key on the left, the rulings on the right.
pub fn svg(report: &Report, turn: &TurnReport) -> String {
    let mut body = String::new();
    let _ = write!(
        body,
        r#"<text x="{MARGIN}" y="78" font-size="38" font-weight="bold" fill="{INK}">{}</text><text x="{MARGIN}" y="112" font-size="19" fill="{QUIET}">{} · {}</text>"#,
        escape(&turn.turn.title),
        escape(&report.title()),
        escape(&turn.summary())
    );
    let plan_top = 136.0;
    let plan_height = PLAN_WIDTH / turn.plan_aspect();
    body.push_str(&turn.plan(&format!(
        r#"x="{MARGIN}" y="{plan_top}" width="{PLAN_WIDTH}" height="{plan_height:.1}""#
    )));
    let key_bottom = key(&mut body, report, plan_top + plan_height + 34.0);
    let column_bottom = column(&mut body, turn, plan_top);
    let height = key_bottom.max(column_bottom) + 54.0;
    let _ = write!(
        body,
        r#"<text x="{:.0}" y="{:.0}" font-size="14" text-anchor="end" fill="{QUIET}">Vedette battle report · {}</text>"#,
        WIDTH - MARGIN,
        height - 22.0,
        escape(&report.date())
    );
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0}" viewBox="0 0 {WIDTH} {height:.0}" font-family="{FONTS}"><rect width="100%" height="100%" fill="white"/>{body}</svg>"#
    )
}

/// The armies' colours and the arrows' meaning, under the plan; where it ends.
fn key(out: &mut String, report: &Report, top: f64) -> f64 {
    let mut x = MARGIN;
    for side in &report.sides {
        let _ = write!(
            out,
            r#"<rect x="{x:.0}" y="{:.0}" width="18" height="18" rx="3" fill="{}" stroke="{INK}" stroke-opacity="0.4"/><text x="{:.0}" y="{top:.0}" font-size="17" fill="{INK}">{}</text>"#,
            top - 15.0,
            side.fill,
            x + 26.0,
            escape(&side.name)
        );
        x += 26.0 + 10.0 * side.name.chars().count() as f64 + 30.0;
    }
    for (colour, words) in [(MOVE, "a move"), (CHARGE, "a charge ⚔")] {
        let y = top - 6.0;
        let _ = write!(
            out,
            r#"<line x1="{x:.0}" y1="{y:.0}" x2="{:.0}" y2="{y:.0}" stroke="{colour}" stroke-width="4"/><path d="M{:.0},{:.0} L{:.0},{y:.0} L{:.0},{:.0} z" fill="{colour}"/><text x="{:.0}" y="{top:.0}" font-size="17" fill="{INK}">{words}</text>"#,
            x + 26.0,
            x + 24.0,
            y - 7.0,
            x + 38.0,
            x + 24.0,
            y + 7.0,
            x + 46.0,
        );
        x += 46.0 + 10.0 * words.chars().count() as f64 + 30.0;
    }
    top
}

/// The column of what the rules said; where it ends.
fn column(out: &mut String, turn: &TurnReport, top: f64) -> f64 {
    let mut y = top + 24.0;
    let _ = write!(
        out,
        r#"<text x="{COLUMN_X}" y="{y:.0}" font-size="22" font-weight="bold" fill="{INK}">What the rules said</text>"#
    );
    y += 38.0;
    if turn.notables.is_empty() {
        let _ = write!(
            out,
            r#"<text x="{COLUMN_X}" y="{y:.0}" font-size="16" fill="{QUIET}">No contact, charge reach or case this turn.</text>"#
        );
        return y;
    }
    for notable in &turn.notables.listed {
        let colour = if notable.kind == record::MarkKind::Contact {
            CHARGE
        } else {
            INK
        };
        let _ = write!(
            out,
            r#"<text x="{COLUMN_X}" y="{y:.0}" font-size="16" fill="{colour}">{}</text>"#,
            notable.symbol(),
        );
        let lines = wrap(&notable.text, COLUMN_CHARS - TIME_CHARS, COLUMN_CHARS);
        for (k, line) in lines.iter().enumerate() {
            let time = if k == 0 {
                format!(
                    r#"<tspan font-size="13" fill="{QUIET}">{}</tspan> "#,
                    escape(&notable.at)
                )
            } else {
                String::new()
            };
            let _ = write!(
                out,
                r#"<text x="{TEXT_X}" y="{y:.0}" font-size="16" fill="{colour}" xml:space="preserve">{time}{}</text>"#,
                escape(line)
            );
            y += 22.0;
        }
        for ruling in &notable.rulings {
            let lines = wrap(ruling, COLUMN_CHARS, COLUMN_CHARS + 2);
            for (k, line) in lines.iter().enumerate() {
                let bullet = if k == 0 { "– " } else { "  " };
                let _ = write!(
                    out,
                    r#"<text x="{:.0}" y="{y:.0}" font-size="14" fill="{QUIET}" xml:space="preserve">{bullet}{}</text>"#,
                    TEXT_X + 12.0,
                    escape(line)
                );
                y += 19.0;
            }
        }
        y += 8.0;
    }
    for more in turn.notables.more_lines() {
        let _ = write!(
            out,
            r#"<text x="{TEXT_X}" y="{y:.0}" font-size="15" font-style="italic" fill="{QUIET}">{}</text>"#,
            escape(&more)
        );
        y += 22.0;
    }
    y
}

/// Text cut into lines at spaces, the first of at most `first` characters, the others
/// `width` (a longer word stands alone).
fn wrap(text: &str, first: usize, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let room = if lines.is_empty() { first } else { width };
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > room {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_turn_has_its_own_picture_beside_the_report() {
        assert_eq!(
            path_of(Path::new("out/game.png"), 3),
            PathBuf::from("out/game-3.png")
        );
    }

    #[test]
    fn text_wraps_at_spaces() {
        assert_eq!(
            wrap("Kazan Regiment in 93rd Highlanders's range and arc", 20, 20),
            vec!["Kazan Regiment in", "93rd Highlanders's", "range and arc"]
        );
    }
}
