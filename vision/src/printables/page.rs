//! A page of marks in millimetres, y downwards from the top-left corner, and its SVG.

use std::fmt::Write as _;

use rules::units::Degrees;

use super::{Mm, Paper, PrintError};
use crate::pattern::TagTexture;

/// A point on the page, millimetres from the top-left corner, y downwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PagePoint {
    /// From the left edge.
    pub x: Mm,
    /// From the top edge.
    pub y: Mm,
}

impl PagePoint {
    /// The point (`x`, `y`) mm.
    pub fn new(x: f64, y: f64) -> PagePoint {
        PagePoint { x: Mm(x), y: Mm(y) }
    }
}

/// How a line is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stroke {
    /// Thin solid grey: outlines of bases.
    Outline,
    /// Thin dashed grey: where to cut.
    Cut,
    /// Black, for the scale bar.
    Rule,
}

/// Something drawn on a page.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// Black quadrilaterals filled together (a tag's cells: one fill, so no seams between
    /// neighbouring cells).
    Ink(Vec<[PagePoint; 4]>),
    /// A polyline, closed or not.
    Line {
        /// Its points.
        points: Vec<PagePoint>,
        /// Back to the first point.
        closed: bool,
        /// How.
        stroke: Stroke,
    },
    /// Left-aligned text, `at` on its baseline.
    Text {
        /// Start of the baseline.
        at: PagePoint,
        /// Height of the font.
        size: Mm,
        /// What it says.
        text: String,
    },
}

/// One printed page.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// The paper.
    pub paper: Paper,
    /// What is on it, in drawing order.
    pub marks: Vec<Mark>,
    /// A machine-readable line naming the printed tags (`vedette-tags family=… ids=…`), kept
    /// in the SVG's metadata and the PDF so `vedette roster check --sheet` can read it back.
    pub tags_line: String,
}

/// Where a printed tag goes and how big it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TagPrint {
    /// The centre of its black square.
    pub center: PagePoint,
    /// The side of its black square.
    pub size: Mm,
    /// Its top against the page's top, degrees counter-clockwise.
    pub turn: Degrees,
}

impl Page {
    /// An empty page.
    pub fn new(paper: Paper) -> Page {
        Page {
            paper,
            marks: Vec::new(),
            tags_line: String::new(),
        }
    }

    /// Text at `at`.
    pub fn text(&mut self, at: PagePoint, size: Mm, text: impl Into<String>) {
        self.marks.push(Mark::Text {
            at,
            size,
            text: text.into(),
        });
    }

    /// An axis-aligned rectangle's outline.
    pub fn rect(&mut self, top_left: PagePoint, width: Mm, height: Mm, stroke: Stroke) {
        let (x, y) = (top_left.x.0, top_left.y.0);
        let points = vec![
            PagePoint::new(x, y),
            PagePoint::new(x + width.0, y),
            PagePoint::new(x + width.0, y + height.0),
            PagePoint::new(x, y + height.0),
        ];
        self.marks.push(Mark::Line {
            points,
            closed: true,
            stroke,
        });
    }

    /// A straight line.
    pub fn line(&mut self, from: PagePoint, to: PagePoint, stroke: Stroke) {
        self.marks.push(Mark::Line {
            points: vec![from, to],
            closed: false,
            stroke,
        });
    }

    /// Tag `id` of `family`: its black square and the one-cell white quiet zone, turned.
    pub fn tag(&mut self, family: &str, id: u32, print: TagPrint) -> Result<(), PrintError> {
        let texture = TagTexture::new(family, id)?;
        let cell = print.size.0 / texture.inked_cells() as f64;
        let half = texture.cells as f64 / 2.0;
        let (sin, cos) = print.turn.0.to_radians().sin_cos();
        // Cell coordinates (from the texture's top-left, y down) to the page: turning
        // counter-clockwise on a y-down page is a clockwise matrix.
        let place = |col: f64, row: f64| {
            let (u, v) = ((col - half) * cell, (row - half) * cell);
            PagePoint::new(
                print.center.x.0 + u * cos + v * sin,
                print.center.y.0 - u * sin + v * cos,
            )
        };
        let mut quads = Vec::new();
        for row in 0..texture.cells as i64 {
            // Runs of black cells along the row: fewer, longer quads.
            let mut col = 0;
            while col < texture.cells as i64 {
                if !texture.is_black(col, row) {
                    col += 1;
                    continue;
                }
                let start = col;
                while texture.is_black(col, row) {
                    col += 1;
                }
                let (a, b, r) = (start as f64, col as f64, row as f64);
                quads.push([
                    place(a, r),
                    place(b, r),
                    place(b, r + 1.0),
                    place(a, r + 1.0),
                ]);
            }
        }
        self.marks.push(Mark::Ink(quads));
        Ok(())
    }

    /// The 50 mm scale bar with its check, its left end at `at` (the bar's top).
    pub fn scale_bar(&mut self, at: PagePoint) {
        let (x, y) = (at.x.0, at.y.0);
        self.line(at, PagePoint::new(x + 50.0, y), Stroke::Rule);
        for tick in 0..=5 {
            let tx = x + f64::from(tick) * 10.0;
            let length = if tick % 5 == 0 { 3.0 } else { 1.5 };
            self.line(
                PagePoint::new(tx, y),
                PagePoint::new(tx, y + length),
                Stroke::Rule,
            );
        }
        self.text(
            PagePoint::new(x + 54.0, y + 2.5),
            Mm(2.8),
            "this bar should measure 50 mm: if not, print again at 100 % (actual size, no fit to page)",
        );
    }

    /// The page as an SVG document, one user unit a millimetre.
    pub fn svg(&self) -> String {
        let (w, h) = (self.paper.width.0, self.paper.height.0);
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">"#
        );
        let _ = writeln!(s, "<metadata>{}</metadata>", escape(&self.tags_line));
        let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        for mark in &self.marks {
            write_mark(&mut s, mark);
        }
        s.push_str("</svg>\n");
        s
    }
}

fn write_mark(s: &mut String, mark: &Mark) {
    match mark {
        Mark::Ink(quads) => {
            let mut d = String::new();
            for quad in quads {
                for (i, p) in quad.iter().enumerate() {
                    let op = if i == 0 { 'M' } else { 'L' };
                    let _ = write!(d, "{op}{:.4} {:.4} ", p.x.0, p.y.0);
                }
                d.push('Z');
            }
            let _ = writeln!(s, r#"<path d="{d}" fill="black" fill-rule="nonzero"/>"#);
        }
        Mark::Line {
            points,
            closed,
            stroke,
        } => {
            let list: Vec<String> = points
                .iter()
                .map(|p| format!("{:.3},{:.3}", p.x.0, p.y.0))
                .collect();
            let element = if *closed { "polygon" } else { "polyline" };
            let style = match stroke {
                Stroke::Outline => r##"stroke="#777" stroke-width="0.25""##,
                Stroke::Cut => r##"stroke="#777" stroke-width="0.2" stroke-dasharray="1.5 1""##,
                Stroke::Rule => r#"stroke="black" stroke-width="0.3""#,
            };
            let _ = writeln!(
                s,
                r#"<{element} points="{}" fill="none" {style}/>"#,
                list.join(" ")
            );
        }
        Mark::Text { at, size, text } => {
            let _ = writeln!(
                s,
                r#"<text x="{:.3}" y="{:.3}" font-family="Helvetica, Arial, DejaVu Sans, sans-serif" font-size="{:.2}">{}</text>"#,
                at.x.0,
                at.y.0,
                size.0,
                escape(text)
            );
        }
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
