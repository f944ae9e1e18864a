//! The black-and-white cells of a printed tag: what the synthetic renderer draws, the tag
//! sheets print, and the live detector checks a followed tag against.
//!
//! The bit patterns come from OpenCV's AprilTag dictionaries, which carry the AprilTag
//! library's codes but draw each tag turned by 180° from the library's own printables; the
//! texture turns it back, so a tag printed from here and one printed from the AprilTag
//! project's images face the same way (a test checks tag 0 cell by cell).

use opencv::aruco;
use opencv::core::{Mat, MatTraitConst};

use crate::error::VisionError;

/// A tag's cells, paper border included, row by row from the top as printed.
#[derive(Clone, Debug, PartialEq)]
pub struct TagTexture {
    /// Cells across the printed square, white border included (10 for tag36h11).
    pub cells: usize,
    /// `true` where the cell is black.
    pub black: Vec<bool>,
}

impl TagTexture {
    /// The pattern of tag `id` of `family`.
    pub fn new(family: &str, id: u32) -> Result<TagTexture, VisionError> {
        let (dictionary, data_bits) = match family {
            "tag36h11" => (aruco::DICT_APRILTAG_36h11, 6),
            "tag25h9" => (aruco::DICT_APRILTAG_25h9, 5),
            "tag16h5" => (aruco::DICT_APRILTAG_16h5, 4),
            other => return Err(VisionError::UnknownFamily(other.to_owned())),
        };
        let dictionary = aruco::get_predefined_dictionary_i32(dictionary)?;
        let inked = data_bits + 2;
        let mut marker = Mat::default();
        let id = i32::try_from(id)
            .map_err(|_| VisionError::Image(format!("tag id {id} is too large")))?;
        aruco::draw_marker(&dictionary, id, inked, &mut marker, 1)?;
        let cells = inked as usize + 2;
        let mut black = vec![false; cells * cells];
        for row in 0..inked {
            for col in 0..inked {
                // Turned by 180°: see the module's note.
                let value = *marker.at_2d::<u8>(inked - 1 - row, inked - 1 - col)?;
                black[(row as usize + 1) * cells + col as usize + 1] = value < 128;
            }
        }
        Ok(TagTexture { cells, black })
    }

    /// Cells across the black square (the tag's printed size spans these).
    pub fn inked_cells(&self) -> usize {
        self.cells - 2
    }

    /// Whether the cell at (`col`, `row`) from the top-left is black; outside is paper.
    pub fn is_black(&self, col: i64, row: i64) -> bool {
        let n = self.cells as i64;
        (0..n).contains(&col) && (0..n).contains(&row) && self.black[(row * n + col) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::TagTexture;

    /// Tag 0 of tag36h11 as the AprilTag library's own `apriltag_to_image` draws it (the
    /// official printable), rows from the top; `#` is ink.
    const OFFICIAL_36H11_0: [&str; 10] = [
        "..........",
        ".########.",
        ".#..#.#.#.",
        ".##...#.#.",
        ".##..####.",
        ".#.#.####.",
        ".##.#..##.",
        ".####.###.",
        ".########.",
        "..........",
    ];

    #[test]
    fn tag_zero_is_printed_as_the_apriltag_library_prints_it() {
        let texture = TagTexture::new("tag36h11", 0).expect("texture");
        let drawn: Vec<String> = (0..10)
            .map(|row| {
                (0..10)
                    .map(|col| if texture.is_black(col, row) { '#' } else { '.' })
                    .collect()
            })
            .collect();
        assert_eq!(drawn, OFFICIAL_36H11_0);
    }
}
