//! Printed paper lying on the table: a rules sheet, an army list, a quick-reference card.
//!
//! Print is the busiest thing on a table for a tag detector: every letter is a small dark
//! shape, its counters and the gaps between letters small light ones, lined up in rows. A
//! family with few, big cells (tag16h5 has 4×4) can read a tag off a word where tag36h11 never
//! would. The detector's floors for the small families are measured against these sheets
//! (`vedette bench print`).

use std::sync::Arc;

use opencv::core::{CV_8UC1, Mat, MatTraitConstManual, Point, Scalar};
use opencv::imgproc;
use rules::geometry::{OrientedRect, TablePoint};
use rules::units::{Degrees, Inches};

use super::colour::Rgb;
use crate::error::VisionError;

/// Print resolution, texels per inch: finer than a 1080p or 4K camera sees a table.
const DPI: f64 = 150.0;
/// The paper's margin, inches.
const MARGIN: f64 = 0.5;

/// The sizes of print on the sheets [`Sheet::scatter`] lays out, the height of a capital
/// letter: a rules sheet's small print (0.08", about 8 pt) to a quick-reference card's headings
/// (0.5"), whose letters are as big in the picture as a 1" tag's cells.
pub const TEXT_SIZES: [Inches; 6] = [
    Inches(0.08),
    Inches(0.12),
    Inches(0.18),
    Inches(0.25),
    Inches(0.35),
    Inches(0.5),
];

/// A sheet of printed text lying flat on the cloth.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Where it lies: its "front" is the top of the page.
    pub footprint: OrientedRect,
    /// The height of a capital letter of its paragraphs (its heading's are twice that).
    pub text: Inches,
    raster: Arc<Raster>,
}

/// What is printed: one grey level a texel, rows from the top of the page.
#[derive(Debug, PartialEq)]
struct Raster {
    width: usize,
    height: usize,
    grey: Vec<u8>,
}

impl Sheet {
    /// A sheet `width` × `length` inches lying centred on `center`, the top of the page towards
    /// `facing`, printed with a heading at twice `text`'s size and paragraphs of words in `text`
    /// (the height of a capital letter), the words drawn from `seed`.
    pub fn text(
        center: TablePoint,
        facing: Degrees,
        (width, length): (Inches, Inches),
        text: Inches,
        seed: u64,
    ) -> Result<Sheet, VisionError> {
        let texels = |inches: f64| (inches * DPI).round() as i32;
        let (w, h) = (texels(width.0).max(1), texels(length.0).max(1));
        let mut page =
            Mat::new_rows_cols_with_default(h, w, CV_8UC1, Scalar::all(f64::from(Rgb::PAPER.0)))?;
        let mut words = Words::new(seed);
        let ink = Scalar::all(f64::from(Rgb::INK.0));
        let mut y = texels(MARGIN);
        let mut first = true;
        while y < h - texels(MARGIN) {
            // A heading first, then paragraphs of three to eight lines.
            let (size, lines) = if first {
                (text * 2.0, 1)
            } else {
                (text, 3 + words.below(6))
            };
            first = false;
            let font = FONTS[words.below(FONTS.len())];
            // Hershey fonts' capitals are about 22 units high at scale 1.
            let scale = size.0 * DPI / 22.0;
            let thickness =
                ((scale * if words.below(4) == 0 { 2.5 } else { 1.4 }).round() as i32).max(1);
            let line_height = texels(size.0 * 1.7).max(2);
            for _ in 0..lines {
                y += line_height;
                if y >= h - texels(MARGIN) {
                    break;
                }
                let line = words.line(((width.0 - 2.0 * MARGIN) / (size.0 * 0.8)) as usize);
                imgproc::put_text(
                    &mut page,
                    &line,
                    Point::new(texels(MARGIN), y),
                    font,
                    scale,
                    ink,
                    thickness,
                    imgproc::LINE_AA,
                    false,
                )?;
            }
            y += line_height;
        }
        // Words that run past the right margin are cut there, as a line would end.
        let right = texels(width.0 - MARGIN).max(0);
        let mut grey = page.data_bytes()?.to_vec();
        for row in grey.chunks_mut(w as usize) {
            for texel in row.iter_mut().skip(right as usize) {
                *texel = Rgb::PAPER.0;
            }
        }
        Ok(Sheet {
            footprint: OrientedRect::from_center(center, facing, width, length),
            text,
            raster: Arc::new(Raster {
                width: w as usize,
                height: h as usize,
                grey,
            }),
        })
    }

    /// `count` sheets lying anywhere on a table of `table` inches (a hand's width in from its
    /// edges) at any turn: letter pages and half-page cards, each printed in the next of
    /// [`TEXT_SIZES`], all drawn from `seed`.
    pub fn scatter(
        table: calibration::TableSize,
        count: usize,
        seed: u64,
    ) -> Result<Vec<Sheet>, VisionError> {
        let mut draw = Words::new(seed ^ 0x5EED);
        let mut fraction = move || draw.below(10_000) as f64 / 10_000.0;
        (0..count)
            .map(|k| {
                let size = if k % 2 == 0 {
                    (Inches(8.5), Inches(11.0))
                } else {
                    (Inches(5.5), Inches(8.5))
                };
                let center = TablePoint::new(
                    6.0 + fraction() * (table.width - 12.0),
                    6.0 + fraction() * (table.depth - 12.0),
                );
                let facing = Degrees(fraction() * 360.0);
                let text = TEXT_SIZES[k % TEXT_SIZES.len()];
                Sheet::text(center, facing, size, text, seed.wrapping_add(k as u64))
            })
            .collect()
    }

    /// The sheet's colour at `p`, if `p` is on it.
    pub fn colour_at(&self, p: &TablePoint) -> Option<Rgb> {
        let local = self.footprint.to_local(p);
        let half_w = self.footprint.width().0 / 2.0;
        // The page's top is the footprint's front edge: rows run back from it.
        let (across, down) = (local.across.0, -local.ahead.0);
        if across.abs() > half_w || !(0.0..=self.footprint.depth().0).contains(&down) {
            return None;
        }
        let column = (((across + half_w) * DPI) as usize).min(self.raster.width - 1);
        let row = ((down * DPI) as usize).min(self.raster.height - 1);
        // Printer paper is a neutral white, unlike the creamier card the tags are printed on.
        let grey = self.raster.grey[row * self.raster.width + column];
        Some(Rgb(grey, grey, grey))
    }
}

/// The fonts a printed sheet is set in.
const FONTS: [i32; 4] = [
    imgproc::FONT_HERSHEY_SIMPLEX,
    imgproc::FONT_HERSHEY_DUPLEX,
    imgproc::FONT_HERSHEY_COMPLEX,
    imgproc::FONT_HERSHEY_TRIPLEX,
];

/// Made-up words, as many letters as English ones have, with capitals, figures and stops.
struct Words {
    state: u64,
}

impl Words {
    fn new(seed: u64) -> Words {
        Words {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        }
    }

    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        (self.state % n.max(1) as u64) as usize
    }

    /// A line of about `letters` letters.
    fn line(&mut self, letters: usize) -> String {
        const LETTERS: &[u8] = b"etaoinshrdlcumwfgypbvkjxqz";
        let mut line = String::new();
        while line.len() < letters {
            if !line.is_empty() {
                line.push(' ');
            }
            let length = 1 + self.below(9);
            match self.below(12) {
                0 => line.push_str(&(1 + self.below(999)).to_string()),
                kind => {
                    for k in 0..length {
                        // Frequent letters more often: the square of a uniform draw.
                        let i = self.below(LETTERS.len());
                        let letter = LETTERS[i * i / LETTERS.len()] as char;
                        let capital = k == 0 && kind == 1;
                        line.push(if capital {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        });
                    }
                    if self.below(8) == 0 {
                        line.push([',', '.', ':', ';'][self.below(4)]);
                    }
                }
            }
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheet_is_paper_with_ink_on_it_and_nothing_off_it() {
        let sheet = Sheet::text(
            TablePoint::new(20.0, 10.0),
            Degrees(90.0),
            (Inches(8.0), Inches(10.0)),
            Inches(0.12),
            3,
        )
        .expect("prints");
        let mut ink = 0;
        let mut paper = 0;
        for i in 0..80 {
            for j in 0..100 {
                let p = TablePoint::new(16.05 + i as f64 * 0.1, 5.05 + j as f64 * 0.1);
                match sheet.colour_at(&p).expect("on the sheet") {
                    Rgb(grey, _, _) if grey == Rgb::PAPER.0 => paper += 1,
                    _ => ink += 1,
                }
            }
        }
        assert!(ink > 200 && paper > 4 * ink, "{ink} inked, {paper} bare");
        assert_eq!(sheet.colour_at(&TablePoint::new(25.0, 10.0)), None);
        assert_eq!(sheet.colour_at(&TablePoint::new(20.0, 15.5)), None);
    }
}
