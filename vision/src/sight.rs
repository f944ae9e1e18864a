//! What the camera can see of the table: the smallest tag found at each place, and why a stand
//! that was seen is not seen now.
//!
//! Decisions:
//! - A tag is findable when its black square is at least [`FINDABLE`] pixels across: the
//!   side above which the small-tag search finds nine in ten tags or more through every lens
//!   `vedette bench accuracy` tries (the detector alone needs about 16 px). Below it, a tag
//!   found earlier may still be followed, but none is found afresh.
//! - The map is made per cell of the table at the stands' height, from the calibrated camera
//!   alone: it says what this camera could find there, whatever lies on the table now.
//! - A stand missing now is "covered" only when its tag would be findable where it was last
//!   seen; otherwise the camera could not have seen it there, and that is the reason given.

use calibration::{Camera, PixelPoint, Pixels, TagPlacement};
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};

use crate::live::roi::side;

/// The smallest side, in pixels, at which a tag is found afresh (see the module's notes).
pub const FINDABLE: Pixels = Pixels(11.0);

/// The smallest tag found at each place of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct SightMap {
    /// The side of a cell.
    pub cell: Inches,
    /// Cells across the table's width.
    pub columns: usize,
    /// Cells across its depth.
    pub rows: usize,
    /// Per cell, row by row from y = 0: the smallest printed side found at its centre, or
    /// `None` where the place is outside the picture.
    smallest: Vec<Option<Inches>>,
}

impl SightMap {
    /// The map of a table `width` × `depth` inches seen by `camera`, for tags `height` above
    /// the cloth, in cells of `cell`.
    pub fn of(camera: &Camera, width: Inches, depth: Inches, height: Inches, cell: Inches) -> Self {
        let cell = Inches(cell.0.max(0.25));
        // Bounded, whatever a table file says (a NaN makes one cell).
        let cells =
            |length: Inches| ((length.0 / cell.0).ceil().clamp(1.0, 2048.0) as usize).max(1);
        let (columns, rows) = (cells(width), cells(depth));
        let smallest = (0..rows)
            .flat_map(|row| (0..columns).map(move |column| (column, row)))
            .map(|(column, row)| {
                let centre =
                    TablePoint::new((column as f64 + 0.5) * cell.0, (row as f64 + 0.5) * cell.0);
                smallest_tag_at(camera, centre, height)
            })
            .collect();
        SightMap {
            cell,
            columns,
            rows,
            smallest,
        }
    }

    /// The smallest tag found in a cell; `None` outside the map or the picture.
    pub fn smallest(&self, column: usize, row: usize) -> Option<Inches> {
        if column >= self.columns || row >= self.rows {
            return None;
        }
        self.smallest[row * self.columns + column]
    }

    /// The smallest tag found at a place; `None` off the table or outside the picture.
    pub fn at(&self, point: &TablePoint) -> Option<Inches> {
        if point.x < 0.0 || point.y < 0.0 {
            return None;
        }
        self.smallest(
            (point.x / self.cell.0) as usize,
            (point.y / self.cell.0) as usize,
        )
    }
}

impl SightMap {
    /// The map of a rig: at each place the smallest tag the best of `maps` finds there. Maps
    /// of another grid than the first (another table, another cell) are left out.
    pub fn best_of<'m>(maps: impl IntoIterator<Item = &'m SightMap>) -> Option<SightMap> {
        let mut maps = maps.into_iter();
        let mut best = maps.next()?.clone();
        for map in maps {
            if (map.cell, map.columns, map.rows) != (best.cell, best.columns, best.rows) {
                continue;
            }
            for (kept, other) in best.smallest.iter_mut().zip(&map.smallest) {
                *kept = match (*kept, *other) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
        }
        Some(best)
    }
}

/// Pixels along each side of the picture where its outline on the table is taken.
const OUTLINE_STEPS: usize = 12;

/// The part of the table a camera's picture shows, at `height` above the cloth: its edges
/// traced around, a point every twelfth of a side (a lens bends them). Edge pixels whose rays
/// miss that height are left out.
pub fn picture_outline(camera: &Camera, height: Inches) -> Vec<TablePoint> {
    let size = camera.intrinsics.image_size;
    let (w, h) = (f64::from(size.width), f64::from(size.height));
    let steps = OUTLINE_STEPS as f64;
    let along = |i: usize| i as f64 / steps;
    let edge = (0..OUTLINE_STEPS)
        .map(|i| (along(i) * w, 0.0))
        .chain((0..OUTLINE_STEPS).map(|i| (w, along(i) * h)))
        .chain((0..OUTLINE_STEPS).map(|i| ((1.0 - along(i)) * w, h)))
        .chain((0..OUTLINE_STEPS).map(|i| (0.0, (1.0 - along(i)) * h)));
    edge.filter_map(|(x, y)| camera.unproject_at(&PixelPoint::new(x, y), height))
        .collect()
}

/// The smallest printed tag found at `point`, `height` above the cloth: [`FINDABLE`] pixels
/// over the pixels an inch-wide tag takes there; `None` when the place is outside the picture.
pub fn smallest_tag_at(camera: &Camera, point: TablePoint, height: Inches) -> Option<Inches> {
    let inch = TagPlacement {
        center: point,
        facing: Degrees(90.0),
        size: Inches(1.0),
        height,
    };
    let side = side_in_picture(camera, &inch)?;
    Some(Inches(FINDABLE.0 / side.0))
}

/// Why a stand's tag, last seen at `last`, is not seen now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unseen {
    /// The place is outside the picture (or at its very edge).
    OutsidePicture,
    /// The tag would be too small there to be found.
    TooSmall {
        /// How big it would look.
        side: Pixels,
        /// The smallest tag found there.
        smallest: Inches,
    },
    /// It would be found there: something is over it (a hand, a figure, another stand).
    Covered,
}

impl Unseen {
    /// Why a tag last seen at `last` is not seen now, by `camera`.
    pub fn of(camera: &Camera, last: &TagPlacement) -> Unseen {
        let Some(side) = side_in_picture(camera, last) else {
            return Unseen::OutsidePicture;
        };
        if side < FINDABLE {
            Unseen::TooSmall {
                side,
                smallest: Inches(last.size.0 * FINDABLE.0 / side.0),
            }
        } else {
            Unseen::Covered
        }
    }

    /// A word or three for a label on the table.
    pub fn brief(&self) -> &'static str {
        match self {
            Unseen::OutsidePicture => "outside the picture",
            Unseen::TooSmall { .. } => "too small there",
            Unseen::Covered => "covered",
        }
    }
}

impl std::fmt::Display for Unseen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unseen::TooSmall { side, smallest } => write!(
                f,
                "too small there ({:.0} px; tags of {:.2}\" or more are found there)",
                side.0, smallest.0
            ),
            other => f.write_str(other.brief()),
        }
    }
}

/// How many pixels across a tag looks, if all its corners are in the picture.
fn side_in_picture(camera: &Camera, tag: &TagPlacement) -> Option<Pixels> {
    Some(side(&corners_in_picture(camera, tag)?))
}

/// Where a tag's corners fall in the picture, if all of them do.
pub(crate) fn corners_in_picture(camera: &Camera, tag: &TagPlacement) -> Option<[PixelPoint; 4]> {
    let size = camera.intrinsics.image_size;
    let seen = tag
        .corners()
        .map(|c| camera.project(&c).filter(|p| size.contains(p)));
    Some([seen[0]?, seen[1]?, seen[2]?, seen[3]?])
}

#[cfg(test)]
mod tests {
    use super::*;
    use calibration::{CameraPose, ImageSize, Intrinsics};

    /// A camera straight above (30, 20), `up` inches over the cloth, 60° across 1280 px.
    fn overhead(up: f64) -> Camera {
        let size = ImageSize {
            width: 1280,
            height: 720,
        };
        let eye = calibration::TablePoint3::new(30.0, 20.0, up);
        let below = calibration::TablePoint3::new(30.0, 20.0, 0.0);
        Camera {
            intrinsics: Intrinsics::from_field_of_view(size, Degrees(60.0)),
            pose: CameraPose::looking_at(eye, below, nalgebra::Vector3::y()),
        }
    }

    #[test]
    fn the_smallest_tag_found_is_findable_pixels_over_an_inch() {
        let camera = overhead(40.0);
        let inch = camera.intrinsics.focal_x.0 / 40.0;
        let smallest = smallest_tag_at(&camera, TablePoint::new(30.0, 20.0), Inches::ZERO)
            .expect("in the picture");
        assert!(
            (smallest.0 - FINDABLE.0 / inch).abs() < 0.01,
            "{smallest:?}"
        );
        assert_eq!(
            smallest_tag_at(&camera, TablePoint::new(70.0, 20.0), Inches::ZERO),
            None
        );
    }

    #[test]
    fn an_unseen_tag_is_covered_only_where_it_would_be_found() {
        let camera = overhead(40.0);
        let tag = |center: TablePoint, size: f64| TagPlacement {
            center,
            facing: Degrees(90.0),
            size: Inches(size),
            height: Inches::ZERO,
        };
        let here = TablePoint::new(30.0, 20.0);
        assert_eq!(Unseen::of(&camera, &tag(here, 1.0)), Unseen::Covered);
        assert!(matches!(
            Unseen::of(&camera, &tag(here, 0.3)),
            Unseen::TooSmall { .. }
        ));
        assert_eq!(
            Unseen::of(&camera, &tag(TablePoint::new(90.0, 20.0), 1.0)),
            Unseen::OutsidePicture
        );
    }

    #[test]
    fn the_map_covers_the_table_and_needs_bigger_tags_further_away() {
        // Looking obliquely from the near edge, as a camera on a stand at the table's side.
        let eye = calibration::TablePoint3::new(30.0, -15.0, 35.0);
        let target = calibration::TablePoint3::new(30.0, 20.0, 0.0);
        let size = ImageSize {
            width: 1280,
            height: 720,
        };
        let camera = Camera {
            intrinsics: Intrinsics::from_field_of_view(size, Degrees(70.0)),
            pose: CameraPose::looking_at(eye, target, -nalgebra::Vector3::z()),
        };
        let map = SightMap::of(
            &camera,
            Inches(60.0),
            Inches(40.0),
            Inches::ZERO,
            Inches(4.0),
        );
        assert_eq!((map.columns, map.rows), (15, 10));
        let near = map.at(&TablePoint::new(30.0, 10.0)).expect("seen");
        let far = map.at(&TablePoint::new(30.0, 30.0)).expect("seen");
        assert!(far > near, "{far:?} ≤ {near:?}");
        assert_eq!(map.at(&TablePoint::new(30.0, -5.0)), None, "off the table");
    }

    #[test]
    fn a_table_of_no_size_or_endless_size_makes_a_bounded_map() {
        let camera = overhead(40.0);
        let nan = SightMap::of(
            &camera,
            Inches(f64::NAN),
            Inches(10.0),
            Inches::ZERO,
            Inches(2.0),
        );
        assert_eq!((nan.columns, nan.rows), (1, 5));
        let endless = SightMap::of(
            &camera,
            Inches(f64::INFINITY),
            Inches(1.0),
            Inches::ZERO,
            Inches(2.0),
        );
        assert_eq!((endless.columns, endless.rows), (2048, 1));
    }
}
