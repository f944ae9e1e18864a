//! Where the camera measures worst: the error bar a stand would carry at each place of the
//! table, and what would tighten it most.
//!
//! Decisions:
//! - Each cell is judged by a tag of the roster's size, at its stands' height, placed at the
//!   cell's centre, seen exactly where the calibrated camera puts its corners and placed back
//!   through [`tag_pose`]: the very path, and error model, of every real tag
//!   ([`crate::uncertainty`]). It says what this camera and calibration can do there, whatever
//!   lies on the table now.
//! - A tag's corner noise turns it more one way than another; of a square tag, facings 0° and
//!   45° are the two extremes of how its corners lie to the camera, and the worse is kept.
//! - A cell's figure is the 95 % half-width a stand there adds to any distance measured from
//!   it, along its worst direction: 1.96 × the square root of the larger eigenvalue of its
//!   centre's covariance, its height's error included. The relative error of every length the
//!   calibration also carries (`length_sd`) belongs to a distance, not to a place, and is not
//!   in the map.
//! - That variance along the worst direction is split into its sources, which add: the tag's
//!   corners (its pixels: the tag's size, the camera's distance and resolution), its height
//!   off what the roster states (growing away from the camera's foot) and the calibration's
//!   own error (a lens not measured). The largest at the worst place says what to improve.
//! - A cell whose tag is not wholly in the picture, or whose ray never comes down to the
//!   table, is unseen: no figure.

use calibration::{TableCalibration, TagPlacement, TagSighting};
use nalgebra::Vector2;
use roster::TagDefaults;
use rules::geometry::TablePoint;
use rules::uncertainty::Z95;
use rules::units::{Degrees, Inches};

use crate::locate::tag_pose;
use crate::sight::corners_in_picture;

/// The facings a cell's tag is tried at (see the module's decisions).
const FACINGS: [Degrees; 2] = [Degrees(0.0), Degrees(45.0)];

/// The most cells along either side of the table, whatever the cell size asked for.
const MOST_CELLS: usize = 64;

/// How far a stand at one place may be off, 95 %, along its worst direction, and from what.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaceError {
    /// The half-width it adds to a distance measured from it: the three shares together.
    pub plus_minus: Inches,
    /// Each source's share, as a half-width of its own; they add in quadrature.
    pub shares: Shares,
}

/// The sources of a place's error, each as the 95 % half-width it alone would give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shares {
    /// The tag's corners in the picture.
    pub corners: Inches,
    /// The tag's height off what the roster states.
    pub height: Inches,
    /// The calibration's own error (the lens and the camera's pose).
    pub calibration: Inches,
}

/// What a place's error mostly comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The tag covers too few pixels.
    Corners,
    /// The tags' heights are not known well enough, seen from too low.
    Height,
    /// The lens is not measured well enough.
    Calibration,
}

impl Shares {
    /// The largest share.
    pub fn largest(&self) -> Source {
        let mut sources = [
            (self.corners, Source::Corners),
            (self.height, Source::Height),
            (self.calibration, Source::Calibration),
        ];
        sources.sort_by(|a, b| b.0.0.total_cmp(&a.0.0));
        sources[0].1
    }
}

impl Source {
    /// What would tighten an error that mostly comes from here.
    pub fn advice(self) -> &'static str {
        match self {
            Source::Corners => "larger tags, or a camera nearer or higher-resolution",
            Source::Height => {
                "a higher camera (more nearly overhead), or measure the stands' heights (tags.height_sd)"
            }
            Source::Calibration => {
                "let the lens learn further (a minute of play) or `vedette calibrate --roster`"
            }
        }
    }

    /// A word or two for what it is.
    pub fn name(self) -> &'static str {
        match self {
            Source::Corners => "the tags' corners",
            Source::Height => "the stands' heights",
            Source::Calibration => "the lens",
        }
    }
}

/// The error bar of a stand at each place of the table (see the module's decisions).
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorMap {
    /// The table's width.
    pub width: Inches,
    /// Its depth.
    pub depth: Inches,
    /// Cells across its width.
    pub columns: usize,
    /// Cells across its depth.
    pub rows: usize,
    /// Per cell, row by row from y = 0; `None` where the camera does not see it.
    cells: Vec<Option<PlaceError>>,
    /// The worst cell's centre and figure.
    pub worst: Option<(TablePoint, PlaceError)>,
    /// The figure at the table's centre.
    pub centre: Option<PlaceError>,
}

impl ErrorMap {
    /// The map of `calibration`'s table for stands with `tags` (their size, height and how
    /// far the heights may be off), in cells about `cell` across that fit the table exactly.
    pub fn over(calibration: &TableCalibration, tags: &TagDefaults, cell: Inches) -> ErrorMap {
        let (width, depth) = (
            Inches(calibration.table.width),
            Inches(calibration.table.depth),
        );
        // Bounded, whatever a table file says (a NaN makes one cell).
        let count =
            |length: Inches| ((length.0 / cell.0.max(0.25)).round() as usize).clamp(1, MOST_CELLS);
        let (columns, rows) = (count(width), count(depth));
        let centre_of = |column: usize, row: usize| {
            TablePoint::new(
                (column as f64 + 0.5) * width.0 / columns as f64,
                (row as f64 + 0.5) * depth.0 / rows as f64,
            )
        };
        let cells: Vec<Option<PlaceError>> = (0..rows)
            .flat_map(|row| (0..columns).map(move |column| (column, row)))
            .map(|(column, row)| place_error(calibration, tags, centre_of(column, row)))
            .collect();
        let worst = cells
            .iter()
            .enumerate()
            .filter_map(|(i, e)| Some((centre_of(i % columns, i / columns), (*e)?)))
            .max_by(|a, b| a.1.plus_minus.0.total_cmp(&b.1.plus_minus.0));
        let middle = TablePoint::new(width.0 / 2.0, depth.0 / 2.0);
        ErrorMap {
            width,
            depth,
            columns,
            rows,
            cells,
            worst,
            centre: place_error(calibration, tags, middle),
        }
    }

    /// A cell's figure; `None` outside the map or where the camera does not see.
    pub fn cell(&self, column: usize, row: usize) -> Option<PlaceError> {
        if column >= self.columns || row >= self.rows {
            return None;
        }
        self.cells[row * self.columns + column]
    }

    /// The figure of the cell a place lies in; `None` off the table or where the camera does
    /// not see.
    pub fn at(&self, point: &TablePoint) -> Option<PlaceError> {
        let inside = |v: f64, length: Inches| (0.0..=length.0).contains(&v);
        if !inside(point.x, self.width) || !inside(point.y, self.depth) {
            return None;
        }
        let index = |v: f64, length: Inches, count: usize| {
            ((v / length.0 * count as f64) as usize).min(count - 1)
        };
        self.cell(
            index(point.x, self.width, self.columns),
            index(point.y, self.depth, self.rows),
        )
    }

    /// What the worst place's error mostly comes from; `None` when the camera sees no cell.
    pub fn worst_source(&self) -> Option<Source> {
        self.worst.map(|(_, error)| error.shares.largest())
    }
}

/// How far a stand with `tags` at `at` may be off (see the module's decisions); `None` where
/// the camera does not see its tag.
pub fn place_error(
    calibration: &TableCalibration,
    tags: &TagDefaults,
    at: TablePoint,
) -> Option<PlaceError> {
    let (height, height_sd) = (Inches(tags.height), Inches(tags.height_sd));
    let own = calibration.uncertainty().place.0;
    let judged = |facing: Degrees| {
        let tag = TagPlacement {
            center: at,
            facing,
            size: Inches(tags.size),
            height,
        };
        let corners = corners_in_picture(&calibration.camera, &tag)?;
        let pose = tag_pose(calibration, &TagSighting { id: 0, corners }, height)?;
        let centre = pose
            .uncertainty
            .with_height(height_sd)
            .fixed_view::<2, 2>(0, 0)
            .into_owned();
        let eigen = centre.symmetric_eigen();
        let k = eigen.eigenvalues.imax();
        let (largest, worst): (f64, Vector2<f64>) = (
            eigen.eigenvalues[k],
            eigen.eigenvectors.column(k).into_owned(),
        );
        // Along the worst direction: the height's shift seen along it, the calibration's error
        // the same every way, and the corners' the rest (the tag's covariance is theirs plus
        // the calibration's, see `tag_uncertainty`).
        let per_height = pose.uncertainty.per_height;
        let from_height = (per_height.x * worst.x + per_height.y * worst.y) * height_sd.0;
        let (height_var, calibration_var) = (from_height * from_height, own * own);
        let corners_var = (largest - height_var - calibration_var).max(0.0);
        let half_width = |variance: f64| Inches(Z95 * variance.max(0.0).sqrt());
        Some(PlaceError {
            plus_minus: half_width(largest),
            shares: Shares {
                corners: half_width(corners_var),
                height: half_width(height_var),
                calibration: half_width(calibration_var),
            },
        })
    };
    FACINGS
        .iter()
        .filter_map(|&facing| judged(facing))
        .filter(|e| e.plus_minus.0.is_finite())
        .max_by(|a, b| a.plus_minus.0.total_cmp(&b.plus_minus.0))
}
