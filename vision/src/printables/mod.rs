//! Printables: tag sheets for stands and trays, the anchor kit and the calibration board.
//!
//! Every sheet is first laid out as [`Page`]s of simple marks in millimetres (filled tag cells,
//! thin lines, text); the same pages are then written as SVG ([`Page::svg`]), as PDF
//! ([`pdf::write_pdf`], written by hand: Helvetica needs no embedded font and the files stay
//! small) or rasterised ([`raster`]) for previews and the round-trip tests.
//!
//! Conventions, as in the roster: a tag's *size* is the side of its black square (the quiet
//! zone, one white cell all round, is extra and printed too). Tags are drawn as the AprilTag
//! project prints them (see [`crate::synthetic::texture`]). On a stand's outline the page's top
//! is the stand's front.

pub mod kit;
mod mm;
pub mod page;
pub mod pdf;
pub mod raster;
mod save;
pub mod tag_sheet;

use std::path::PathBuf;

pub use kit::{anchor_kit, board_sheet};
pub use mm::Mm;
pub(crate) use mm::trim;
pub use page::{Mark, Page, PagePoint};
pub use save::{PREVIEW_DPI, read_sheet_tags, save};
pub use tag_sheet::{Base, SheetItem, SheetOptions, parse_base, roster_items, tag_sheet};

/// Read a printed length: `25mm`, `2.5cm`, `1in`, `1"` or `0.75 in`.
pub fn parse_length(text: &str) -> Result<Mm, PrintError> {
    let bad = || PrintError::BadLength(text.to_owned());
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(bad)?;
    let (number, unit) = t.split_at(split);
    let value: f64 = number.parse().map_err(|_| bad())?;
    let mm = match unit.trim() {
        "mm" => value,
        "cm" => value * 10.0,
        "in" | "\"" | "inch" | "inches" => value * Mm::PER_INCH,
        _ => return Err(bad()),
    };
    if !(mm.is_finite() && mm > 0.0) {
        return Err(bad());
    }
    Ok(Mm(mm))
}

/// A sheet of paper.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paper {
    /// Across.
    pub width: Mm,
    /// Down.
    pub height: Mm,
}

impl Paper {
    /// ISO A4, 210 × 297 mm.
    pub const A4: Paper = Paper {
        width: Mm(210.0),
        height: Mm(297.0),
    };
    /// US Letter, 8.5 × 11 in.
    pub const LETTER: Paper = Paper {
        width: Mm(215.9),
        height: Mm(279.4),
    };

    /// `a4` or `letter`.
    pub fn parse(name: &str) -> Result<Paper, PrintError> {
        match name.to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" | "us-letter" => Ok(Paper::LETTER),
            _ => Err(PrintError::UnknownPaper(name.to_owned())),
        }
    }
}

/// The number of ids of a printable family (see [`roster::TAG_FAMILIES`]).
pub fn family_ids(family: &str) -> Result<u32, PrintError> {
    roster::family_ids(family).ok_or_else(|| PrintError::Family(family.to_owned()))
}

/// Read a list of ids: `1-40,55`.
pub fn parse_ids(text: &str) -> Result<Vec<u32>, PrintError> {
    let bad = |part: &str| PrintError::BadIds(part.to_owned());
    let mut ids = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let a: u32 = a.trim().parse().map_err(|_| bad(part))?;
                let b: u32 = b.trim().parse().map_err(|_| bad(part))?;
                if b < a {
                    return Err(bad(part));
                }
                ids.extend(a..=b);
            }
            None => ids.push(part.parse().map_err(|_| bad(part))?),
        }
    }
    if ids.is_empty() {
        return Err(bad(text));
    }
    Ok(ids)
}

/// What can go wrong making a printable.
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    /// A family the sheets cannot draw.
    #[error(
        "tag family {0:?} cannot be printed: printable families are tag36h11 (the default), tag25h9 and tag16h5"
    )]
    Family(String),
    /// An id past the family's end.
    #[error("tag {id} is not in {family} (its ids are 0–{last})")]
    NoSuchTag {
        /// The id.
        id: u32,
        /// The family.
        family: String,
        /// Its last id.
        last: u32,
    },
    /// A tag asked for twice.
    #[error("tag {0} is asked for twice: every stand needs its own tag")]
    Duplicate(u32),
    /// A length that is not `25mm`, `1in` …
    #[error("{0:?} is not a length: write e.g. 25mm, 2.5cm, 1in")]
    BadLength(String),
    /// A base that is not `40x20mm` …
    #[error("{0:?} is not a base size: write frontage x depth, e.g. 40x20mm or 2x1in")]
    BadBase(String),
    /// An id list that is not `1-40,55`.
    #[error("{0:?} is not a list of tag ids: write e.g. 1-40,55")]
    BadIds(String),
    /// Unknown paper.
    #[error("unknown paper {0:?}: use a4 or letter")]
    UnknownPaper(String),
    /// Something too big for the paper or its base.
    #[error("{0}")]
    DoesNotFit(String),
    /// Drawing a tag's pattern failed.
    #[error(transparent)]
    Texture(#[from] crate::VisionError),
    /// Rasterising failed.
    #[error("rasterising the sheet: {0}")]
    Raster(String),
    /// A file could not be written.
    #[error("{}: cannot write: {reason}", file.display())]
    Write {
        /// The file.
        file: PathBuf,
        /// Why.
        reason: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_bases_and_ids_read_as_players_write_them() {
        assert_eq!(parse_length("25mm").ok(), Some(Mm(25.0)));
        assert_eq!(parse_length("1in").ok(), Some(Mm(25.4)));
        assert_eq!(parse_length("0.5\"").ok(), Some(Mm(12.7)));
        assert!(parse_length("25").is_err());
        assert!(parse_length("0mm").is_err());
        let base = parse_base("40x20mm").expect("base");
        assert_eq!((base.width, base.depth), (Mm(40.0), Mm(20.0)));
        let base = parse_base("2×1in").expect("base");
        assert_eq!((base.width, base.depth), (Mm(50.8), Mm(25.4)));
        assert!(parse_base("40mm").is_err());
        assert_eq!(parse_ids("1-3,55").ok(), Some(vec![1, 2, 3, 55]));
        assert!(matches!(parse_ids("5-2"), Err(PrintError::BadIds(p)) if p == "5-2"));
        assert!(family_ids("tagCircle21h7").is_err());
    }
}
