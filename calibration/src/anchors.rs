//! The anchor layout: which tags mark the table, and exactly where each one lies.
//!
//! ```toml
//! family = "tag36h11"            # optional; the default
//! [table]
//! width = 72                     # inches
//! depth = 48
//! [[anchors]]
//! id = 0
//! center = [1.5, 1.5]            # the tag's centre, table inches
//! size = 2.0                     # the side of the black square, inches
//! facing = 90                    # where the tag's top points; 90 (towards +y) by default
//! height = 0.0                   # above the cloth, inches; 0 by default
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::files::{self, FileError};
use crate::tag::TagPlacement;

/// The fewest anchors a layout may list: with four, one covered by a hand still leaves three.
pub const MIN_ANCHORS: usize = 4;

/// Calibration needs at least this many anchors in view.
pub const MIN_ANCHORS_SEEN: usize = 3;

/// How far a player's anchor may lie from where the layout says, one standard deviation: set
/// down by hand against a tape, a card sits within a millimetre or so. The anchors' own misfit
/// adds to it when they disagree with each other (one knocked), beyond it (see
/// [`crate::uncertainty`]). Here, below the fit and the calibration that both use it.
pub const ANCHOR_PLACED: Inches = Inches(0.75 / 25.4);

/// The printed anchor kits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnchorKit {
    /// One anchor in each corner.
    Corners,
    /// The corners and the middles of the long edges.
    Six,
    /// The corners and the middles of all four edges.
    Eight,
}

impl AnchorKit {
    /// How many anchors the kit has.
    pub fn count(self) -> usize {
        match self {
            AnchorKit::Corners => 4,
            AnchorKit::Six => 6,
            AnchorKit::Eight => 8,
        }
    }
}

/// The table and its anchor tags.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnchorLayout {
    /// The tag family of the anchors.
    #[serde(default = "default_family")]
    pub family: String,
    /// The playing area, inches.
    pub table: TableSize,
    /// The anchors.
    pub anchors: Vec<Anchor>,
}

fn default_family() -> String {
    "tag36h11".to_owned()
}

/// The playing area.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSize {
    /// Along x, inches.
    pub width: f64,
    /// Along y, inches.
    pub depth: f64,
}

impl TableSize {
    /// Whether a point lies on the table, `margin` inches of slack allowed all round.
    pub fn contains(&self, p: &TablePoint, margin: Inches) -> bool {
        p.x >= -margin.0
            && p.y >= -margin.0
            && p.x <= self.width + margin.0
            && p.y <= self.depth + margin.0
    }
}

/// One anchor tag.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Anchor {
    /// The tag id.
    pub id: u32,
    /// The tag's centre, table inches.
    #[serde(with = "rules::geometry::xy")]
    pub center: TablePoint,
    /// The side of the black square, inches.
    pub size: f64,
    /// Where the tag's top points, degrees counter-clockwise from +x.
    #[serde(default = "default_facing")]
    pub facing: f64,
    /// Height of the printed face above the cloth, inches.
    #[serde(default)]
    pub height: f64,
}

fn default_facing() -> f64 {
    90.0
}

impl Anchor {
    /// Where this anchor lies.
    pub fn placement(&self) -> TagPlacement {
        TagPlacement {
            center: self.center,
            facing: Degrees(self.facing),
            size: Inches(self.size),
            height: Inches(self.height),
        }
    }
}

/// Just enough of the file to find the line of each anchor's id.
#[derive(Deserialize)]
struct IdLines {
    #[serde(default)]
    anchors: Vec<IdLine>,
}

#[derive(Deserialize)]
struct IdLine {
    id: Spanned<u32>,
}

impl AnchorLayout {
    /// Read and check an anchors file.
    pub fn load(path: &Path) -> Result<AnchorLayout, FileError> {
        AnchorLayout::parse(&files::read_text(path)?, path)
    }

    /// Parse and check an anchors file's text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<AnchorLayout, FileError> {
        let layout: AnchorLayout = files::parse_toml(text, path)?;
        let lines: Vec<usize> = toml::from_str::<IdLines>(text)
            .map(|l| {
                l.anchors
                    .iter()
                    .map(|a| files::line_of(text, a.id.span().start))
                    .collect()
            })
            .unwrap_or_default();
        layout.check(path, &lines)?;
        Ok(layout)
    }

    /// Save as TOML.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        files::write_toml(self, path)
    }

    /// The standard layout: four anchors of `size` inches, one in each corner of the table,
    /// their centres `inset` inches in from both edges, tops towards the far edge. Ids 0–3 go
    /// round from the origin corner: south-west, south-east, north-east, north-west.
    pub fn corners(table: TableSize, size: Inches, inset: Inches) -> AnchorLayout {
        AnchorLayout::kit(AnchorKit::Corners, table, size, inset)
    }

    /// A printed kit's layout: the four corners, and for the larger kits the middles of the
    /// long edges (ids 4 and 5, near then far) and of the short edges (6 and 7, west then
    /// east). Mid-edge anchors pin the middle of the table, which four corners leave to the lens.
    pub fn kit(kit: AnchorKit, table: TableSize, size: Inches, inset: Inches) -> AnchorLayout {
        let (w, d, i) = (table.width, table.depth, inset.0);
        let places = [
            (i, i),
            (w - i, i),
            (w - i, d - i),
            (i, d - i),
            (w / 2.0, i),
            (w / 2.0, d - i),
            (i, d / 2.0),
            (w - i, d / 2.0),
        ];
        AnchorLayout::at(table, size, places[..kit.count()].iter().copied())
    }

    /// A long table's layout for `cameras` cameras side by side along it, each over an equal
    /// share: a pair of anchors (near and far edge) at both ends of the table, at every seam
    /// between two cameras' shares and in the middle of every share, so each camera sees six
    /// and neighbours share the pair at their seam. Ids go pair by pair from the west end,
    /// near edge first.
    pub fn long_table(
        table: TableSize,
        cameras: usize,
        size: Inches,
        inset: Inches,
    ) -> AnchorLayout {
        let columns = 2 * cameras.max(1);
        let share = table.width / columns as f64;
        let i = inset.0;
        let places = (0..=columns)
            .map(|k| (share * k as f64).clamp(i, table.width - i))
            .flat_map(|x| [(x, i), (x, table.depth - i)]);
        AnchorLayout::at(table, size, places)
    }

    /// Anchors of `size` at these places, ids from 0 in order, tops towards the far edge.
    fn at(
        table: TableSize,
        size: Inches,
        places: impl Iterator<Item = (f64, f64)>,
    ) -> AnchorLayout {
        let anchors = places
            .zip(0..)
            .map(|((x, y), id)| Anchor {
                id,
                center: TablePoint::new(x, y),
                size: size.0,
                facing: default_facing(),
                height: 0.0,
            })
            .collect();
        AnchorLayout {
            family: default_family(),
            table,
            anchors,
        }
    }

    /// The anchor with this id.
    pub fn anchor(&self, id: u32) -> Option<&Anchor> {
        self.anchors.iter().find(|a| a.id == id)
    }

    fn check(&self, path: &Path, lines: &[usize]) -> Result<(), FileError> {
        let invalid = |line: Option<usize>, message: String| FileError::Invalid {
            file: PathBuf::from(path),
            line,
            message,
        };
        let table = self.table;
        if !(table.width > 0.0
            && table.depth > 0.0
            && table.width.is_finite()
            && table.depth.is_finite())
        {
            return Err(invalid(
                None,
                format!(
                    "table: width and depth must be positive inches, not {} × {}",
                    table.width, table.depth
                ),
            ));
        }
        if self.anchors.len() < MIN_ANCHORS {
            return Err(invalid(
                None,
                format!(
                    "{} anchor(s) listed; at least {MIN_ANCHORS} are needed (one in each corner), so that the table is still found when a hand covers one",
                    self.anchors.len()
                ),
            ));
        }
        let mut seen: HashMap<u32, usize> = HashMap::new();
        for (i, anchor) in self.anchors.iter().enumerate() {
            let line = lines.get(i).copied();
            if let Some(first) = seen.insert(anchor.id, i) {
                let first_line = lines
                    .get(first)
                    .map(|l| format!(" (line {l})"))
                    .unwrap_or_default();
                return Err(invalid(
                    line,
                    format!(
                        "anchor tag {} is listed twice; the first is anchor {}{first_line}",
                        anchor.id,
                        first + 1
                    ),
                ));
            }
            let numbers = [
                anchor.center.x,
                anchor.center.y,
                anchor.size,
                anchor.facing,
                anchor.height,
            ];
            if numbers.iter().any(|n| !n.is_finite()) {
                return Err(invalid(
                    line,
                    format!("anchor tag {}: every number must be finite", anchor.id),
                ));
            }
            if anchor.size <= 0.0 {
                return Err(invalid(
                    line,
                    format!(
                        "anchor tag {}: size must be positive inches, not {}",
                        anchor.id, anchor.size
                    ),
                ));
            }
            if !table.contains(&anchor.center, Inches(anchor.size)) {
                return Err(invalid(
                    line,
                    format!(
                        "anchor tag {}: its centre ({}, {}) is off the {} × {} table",
                        anchor.id, anchor.center.x, anchor.center.y, table.width, table.depth
                    ),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<AnchorLayout, FileError> {
        AnchorLayout::parse(text, Path::new("anchors.toml"))
    }

    const FOUR: &str = r#"
[table]
width = 72
depth = 48
[[anchors]]
id = 0
center = [1.5, 1.5]
size = 2
[[anchors]]
id = 1
center = [70.5, 1.5]
size = 2
[[anchors]]
id = 2
center = [70.5, 46.5]
size = 2
[[anchors]]
id = 3
center = [1.5, 46.5]
size = 2
"#;

    #[test]
    fn four_corner_anchors_load_with_their_defaults() {
        let layout = parse(FOUR).expect("valid");
        assert_eq!(layout.family, "tag36h11");
        assert_eq!(layout.anchors.len(), 4);
        assert_eq!(layout.anchor(2).map(|a| a.facing), Some(90.0));
        assert_eq!(
            layout,
            AnchorLayout::corners(layout.table, Inches(2.0), Inches(1.5))
        );
    }

    #[test]
    fn three_anchors_are_refused_with_the_reason() {
        let three = FOUR
            .rsplit_once("[[anchors]]")
            .map(|(head, _)| head)
            .unwrap_or(FOUR);
        let error = parse(three).expect_err("three anchors").to_string();
        assert!(
            error.contains("anchors.toml") && error.contains("3 anchor(s)"),
            "{error}"
        );
    }

    #[test]
    fn a_tag_listed_twice_names_its_line() {
        let twice = FOUR.replace("id = 3", "id = 1");
        let error = parse(&twice).expect_err("duplicate").to_string();
        let line = twice
            .lines()
            .position(|l| l.contains("id = 1"))
            .map(|i| i + 1);
        let second = twice
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("id = 1"))
            .nth(1)
            .map(|(i, _)| i + 1);
        assert!(line.is_some());
        assert!(
            error.contains(&format!("anchors.toml:{}:", second.unwrap_or(0))),
            "{error}"
        );
        assert!(error.contains("anchor tag 1 is listed twice"), "{error}");
    }

    #[test]
    fn a_misspelt_field_names_the_field_and_line() {
        let error = parse(&FOUR.replacen("size = 2", "sise = 2", 1))
            .expect_err("unknown field")
            .to_string();
        assert!(
            error.contains("anchors.toml:") && error.contains("sise"),
            "{error}"
        );
    }

    #[test]
    fn an_anchor_off_the_table_is_refused() {
        let error = parse(&FOUR.replace("[70.5, 46.5]", "[170.5, 46.5]"))
            .expect_err("off table")
            .to_string();
        assert!(
            error.contains("anchor tag 2") && error.contains("off the"),
            "{error}"
        );
    }
}
