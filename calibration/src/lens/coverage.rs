//! How much of the picture the tags have shown the lens, and how well the fit explains each part.
//!
//! A lens is measured only where tags have been seen: distortion grows towards the edges, so a
//! fit from tags in a band across the middle says little about the corners. The picture is cut
//! into cells; a cell is covered once a tag corner has been seen in it.

use serde::{Deserialize, Serialize};

use crate::pixels::{ImageSize, PixelPoint, Pixels};

/// Cells across and down of the coverage grid (16:9, square cells on a 16:9 picture).
const COVERAGE_CELLS: (usize, usize) = (16, 9);
/// Cells across and down of the residual map: coarse, so each cell holds enough corners.
const RESIDUAL_CELLS: (usize, usize) = (3, 3);

/// Which parts of the picture tag corners have been seen in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Coverage {
    /// Cells across.
    pub columns: usize,
    /// Cells down.
    pub rows: usize,
    /// Corners seen per cell, row by row from the top left.
    pub counts: Vec<u32>,
    /// Cells that show the table (or the whole picture when that is not known): only these can
    /// be covered by tags on the table, so only these count.
    pub reachable: Vec<bool>,
}

impl Coverage {
    /// An empty grid over a picture, every cell reachable.
    pub fn new() -> Coverage {
        let (columns, rows) = COVERAGE_CELLS;
        Coverage {
            columns,
            rows,
            counts: vec![0; columns * rows],
            reachable: vec![true; columns * rows],
        }
    }

    /// Count the corners of some sightings.
    pub fn add(&mut self, size: ImageSize, corners: impl IntoIterator<Item = PixelPoint>) {
        for p in corners {
            if let Some(cell) = self.cell(size, &p) {
                self.counts[cell] = self.counts[cell].saturating_add(1);
            }
        }
    }

    /// Only the cells whose centres `shows` says show the table can be covered.
    pub fn restrict(&mut self, size: ImageSize, shows: impl Fn(&PixelPoint) -> bool) {
        for row in 0..self.rows {
            for column in 0..self.columns {
                let centre = PixelPoint::new(
                    (column as f64 + 0.5) * f64::from(size.width) / self.columns as f64,
                    (row as f64 + 0.5) * f64::from(size.height) / self.rows as f64,
                );
                self.reachable[row * self.columns + column] = shows(&centre);
            }
        }
    }

    fn cell(&self, size: ImageSize, p: &PixelPoint) -> Option<usize> {
        let column = (p.x / f64::from(size.width) * self.columns as f64).floor();
        let row = (p.y / f64::from(size.height) * self.rows as f64).floor();
        let inside =
            (0.0..self.columns as f64).contains(&column) && (0.0..self.rows as f64).contains(&row);
        inside.then(|| row as usize * self.columns + column as usize)
    }

    /// The share of the reachable cells that tags have covered, 0 to 1.
    pub fn fraction(&self) -> f64 {
        let reachable = self.reachable.iter().filter(|&&r| r).count();
        let covered = self
            .counts
            .iter()
            .zip(&self.reachable)
            .filter(|&(&n, &r)| r && n > 0)
            .count();
        if reachable == 0 {
            0.0
        } else {
            covered as f64 / reachable as f64
        }
    }

    /// The covered span across and down, each as a share of the grid: tags in a band across the
    /// middle cover the width but not the height.
    pub fn spans(&self) -> (f64, f64) {
        let covered = |i: usize| self.counts[i] > 0;
        let mut columns = (usize::MAX, 0);
        let mut rows = (usize::MAX, 0);
        for i in (0..self.counts.len()).filter(|&i| covered(i)) {
            let (c, r) = (i % self.columns, i / self.columns);
            columns = (columns.0.min(c), columns.1.max(c));
            rows = (rows.0.min(r), rows.1.max(r));
        }
        if columns.0 == usize::MAX {
            return (0.0, 0.0);
        }
        (
            (columns.1 - columns.0 + 1) as f64 / self.columns as f64,
            (rows.1 - rows.0 + 1) as f64 / self.rows as f64,
        )
    }

    /// Whether the reachable cell at (column, row) has been covered.
    pub fn covered(&self, column: usize, row: usize) -> Option<bool> {
        let i = row * self.columns + column;
        self.reachable
            .get(i)
            .map(|&r| r && self.counts.get(i).is_some_and(|&n| n > 0))
    }
}

impl Default for Coverage {
    fn default() -> Coverage {
        Coverage::new()
    }
}

/// How far the fitted model puts tag corners from where they were seen, by part of the picture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResidualMap {
    /// Cells across.
    pub columns: usize,
    /// Cells down.
    pub rows: usize,
    /// RMS per cell, row by row from the top left; `None` where no corner was seen.
    pub rms: Vec<Option<Pixels>>,
}

impl ResidualMap {
    /// The map of some (seen corner, error in pixels) pairs.
    pub fn of(size: ImageSize, errors: impl IntoIterator<Item = (PixelPoint, f64)>) -> ResidualMap {
        let (columns, rows) = RESIDUAL_CELLS;
        let mut sums = vec![(0.0, 0usize); columns * rows];
        for (p, e) in errors {
            let column = ((p.x / f64::from(size.width)) * columns as f64).floor();
            let row = ((p.y / f64::from(size.height)) * rows as f64).floor();
            if (0.0..columns as f64).contains(&column) && (0.0..rows as f64).contains(&row) {
                let cell = &mut sums[row as usize * columns + column as usize];
                *cell = (cell.0 + e * e, cell.1 + 1);
            }
        }
        ResidualMap {
            columns,
            rows,
            rms: sums
                .iter()
                .map(|&(sum, n)| (n > 0).then(|| Pixels((sum / n as f64).sqrt())))
                .collect(),
        }
    }

    /// The map as lines of text, top row first ("—" where no tag was seen).
    pub fn lines(&self) -> Vec<String> {
        self.rms
            .chunks(self.columns)
            .map(|row| {
                row.iter()
                    .map(|cell| match cell {
                        Some(p) => format!("{:>6.2}", p.0),
                        None => format!("{:>6}", "—"),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HD: ImageSize = ImageSize {
        width: 1920,
        height: 1080,
    };

    #[test]
    fn a_band_across_the_middle_covers_the_width_but_not_the_height() {
        let mut coverage = Coverage::new();
        coverage.add(
            HD,
            (0..100).map(|i| PixelPoint::new(19.2 * i as f64 + 5.0, 540.0)),
        );
        let (across, down) = coverage.spans();
        assert_eq!(across, 1.0);
        assert!(down < 0.2, "{down}");
        assert!((coverage.fraction() - 16.0 / 144.0).abs() < 1e-12);
    }

    #[test]
    fn only_cells_that_show_the_table_count() {
        let mut coverage = Coverage::new();
        coverage.restrict(HD, |p| p.y > 540.0);
        coverage.add(HD, [PixelPoint::new(10.0, 1000.0)]);
        let reachable = coverage.reachable.iter().filter(|&&r| r).count();
        assert!((coverage.fraction() - 1.0 / reachable as f64).abs() < 1e-12);
        assert_eq!(coverage.covered(0, 0), Some(false));
    }

    #[test]
    fn points_outside_the_picture_are_ignored() {
        let mut coverage = Coverage::new();
        coverage.add(
            HD,
            [PixelPoint::new(-1.0, 5.0), PixelPoint::new(1920.0, 5.0)],
        );
        assert_eq!(coverage.fraction(), 0.0);
        let map = ResidualMap::of(HD, [(PixelPoint::new(5000.0, 5.0), 1.0)]);
        assert!(map.rms.iter().all(Option::is_none));
    }
}
