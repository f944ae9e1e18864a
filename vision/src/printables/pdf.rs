//! Pages as a PDF, written by hand: vector marks, Helvetica (one of the fonts every PDF reader
//! has, so nothing is embedded), one page object per page.

use std::fmt::Write as _;

use super::page::{Mark, Page, PagePoint, Stroke};

/// The pages as one PDF document.
pub fn write_pdf(pages: &[Page]) -> Vec<u8> {
    let mut out: Vec<u8> = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    let mut object = |out: &mut Vec<u8>, body: &[u8]| {
        offsets.push(out.len());
        let number = offsets.len();
        out.extend_from_slice(format!("{number} 0 obj\n").as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    };
    // Objects: 1 catalog, 2 page tree, 3 font, 4 info, then a page and its contents per page.
    let kids: Vec<String> = (0..pages.len())
        .map(|i| format!("{} 0 R", 5 + 2 * i))
        .collect();
    object(&mut out, b"<< /Type /Catalog /Pages 2 0 R >>");
    object(
        &mut out,
        format!(
            "<< /Type /Pages /Kids [{}] /Count {} >>",
            kids.join(" "),
            pages.len()
        )
        .as_bytes(),
    );
    object(
        &mut out,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    );
    let tags = pages.first().map(|p| p.tags_line.as_str()).unwrap_or("");
    let mut info = b"<< /Producer (vedette) /Subject ".to_vec();
    info.extend(pdf_string(tags));
    info.extend_from_slice(b" >>");
    object(&mut out, &info);
    for (i, page) in pages.iter().enumerate() {
        let (w, h) = (page.paper.width.points(), page.paper.height.points());
        object(
            &mut out,
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w:.2} {h:.2}] /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
                6 + 2 * i
            )
            .as_bytes(),
        );
        let content = contents(page);
        let mut body = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
        body.extend(content);
        body.extend_from_slice(b"\nendstream");
        object(&mut out, &body);
    }
    let xref = out.len();
    let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1);
    for offset in &offsets {
        let _ = writeln!(table, "{offset:010} 00000 n ");
    }
    let _ = write!(
        table,
        "trailer\n<< /Size {} /Root 1 0 R /Info 4 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        offsets.len() + 1
    );
    out.extend_from_slice(table.as_bytes());
    out
}

/// The content stream of a page: millimetres from the top to points from the bottom.
fn contents(page: &Page) -> Vec<u8> {
    let height = page.paper.height.points();
    let xy = |p: &PagePoint| (p.x.points(), height - p.y.points());
    let mut s: Vec<u8> = format!("% {}\n", page.tags_line).into_bytes();
    for mark in &page.marks {
        match mark {
            Mark::Ink(quads) => {
                let mut ops = String::from("0 g\n");
                for quad in quads {
                    for (i, p) in quad.iter().enumerate() {
                        let (x, y) = xy(p);
                        let op = if i == 0 { "m" } else { "l" };
                        let _ = writeln!(ops, "{x:.3} {y:.3} {op}");
                    }
                    ops.push_str("h\n");
                }
                ops.push_str("f\n");
                s.extend(ops.into_bytes());
            }
            Mark::Line {
                points,
                closed,
                stroke,
            } => {
                let style = match stroke {
                    Stroke::Outline => "0.47 G 0.71 w [] 0 d",
                    Stroke::Cut => "0.47 G 0.57 w [4.25 2.83] 0 d",
                    Stroke::Rule => "0 G 0.85 w [] 0 d",
                };
                let mut ops = format!("{style}\n");
                for (i, p) in points.iter().enumerate() {
                    let (x, y) = xy(p);
                    let op = if i == 0 { "m" } else { "l" };
                    let _ = writeln!(ops, "{x:.3} {y:.3} {op}");
                }
                ops.push_str(if *closed { "s\n" } else { "S\n" });
                s.extend(ops.into_bytes());
            }
            Mark::Text { at, size, text } => {
                let (x, y) = xy(at);
                s.extend(
                    format!("0 g BT /F1 {:.2} Tf {x:.3} {y:.3} Td ", size.points()).into_bytes(),
                );
                s.extend(pdf_string(text));
                s.extend_from_slice(b" Tj ET\n");
            }
        }
    }
    s
}

/// A literal string in WinAnsi encoding: Latin-1 and a few typographic marks; anything else
/// becomes "?".
fn pdf_string(text: &str) -> Vec<u8> {
    let mut bytes = vec![b'('];
    for c in text.chars() {
        let byte = match c {
            '(' | ')' | '\\' => {
                bytes.push(b'\\');
                c as u8
            }
            '–' => 0x96,
            '—' => 0x97,
            '‘' => 0x91,
            '’' => 0x92,
            '“' => 0x93,
            '”' => 0x94,
            '•' => 0x95,
            c if (c as u32) < 0x80 || (0xA0..=0xFF).contains(&(c as u32)) => c as u32 as u8,
            _ => b'?',
        };
        bytes.push(byte);
    }
    bytes.push(b')');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::printables::{Mm, Paper};

    #[test]
    fn the_cross_reference_table_points_at_every_object() {
        let mut page = Page::new(Paper::A4);
        page.text(PagePoint::new(10.0, 10.0), Mm(3.0), "45th (Foot) — 2×1 in");
        page.tags_line = "vedette-tags family=tag36h11 ids=1".into();
        let pdf = write_pdf(&[page.clone(), page]);
        let text = String::from_utf8_lossy(&pdf);
        let start: usize = text
            .rsplit("startxref\n")
            .next()
            .and_then(|t| t.lines().next())
            .and_then(|n| n.parse().ok())
            .expect("startxref");
        let table = String::from_utf8_lossy(&pdf[start..]);
        assert!(table.starts_with("xref\n0 9\n"), "{table}");
        for (number, line) in table.lines().skip(3).take(8).enumerate() {
            let offset: usize = line[..10].parse().expect("offset");
            let expected = format!("{} 0 obj", number + 1);
            assert!(
                pdf[offset..].starts_with(expected.as_bytes()),
                "object {expected}"
            );
        }
        assert!(text.contains("(45th \\(Foot\\) \u{fffd} 2\u{fffd}1 in) Tj"));
        assert!(text.contains("% vedette-tags family=tag36h11 ids=1"));
    }
}
