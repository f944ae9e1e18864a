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

    /// The smallest tag found wherever the picture shows the table (the largest of the
    /// cells'); `None` when it shows none of it.
    pub fn found_everywhere(&self) -> Option<Inches> {
        self.smallest.iter().flatten().copied().reduce(Inches::max)
    }

    /// The share of the table, 0 to 1, where a tag of `size` is found (none outside the
    /// picture).
    pub fn share_found(&self, size: Inches) -> f64 {
        let found = self
            .smallest
            .iter()
            .flatten()
            .filter(|s| **s <= size)
            .count();
        found as f64 / self.smallest.len().max(1) as f64
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

/// The part of a `width` × `depth` table a camera's picture shows, at `height` above the
/// cloth: the picture's edges traced around (a point every twelfth of a side: a lens bends
/// them) and clipped to the table. Empty when the picture shows none of it. Edge pixels whose
/// rays miss that height (above the horizon) are left out of the trace.
pub fn part_of_table(
    camera: &Camera,
    width: Inches,
    depth: Inches,
    height: Inches,
) -> Vec<TablePoint> {
    use geo::{Area, BooleanOps};
    let size = camera.intrinsics.image_size;
    let (w, h) = (f64::from(size.width), f64::from(size.height));
    let along = |i: usize| i as f64 / OUTLINE_STEPS as f64;
    let edge = (0..OUTLINE_STEPS)
        .map(|i| (along(i) * w, 0.0))
        .chain((0..OUTLINE_STEPS).map(|i| (w, along(i) * h)))
        .chain((0..OUTLINE_STEPS).map(|i| ((1.0 - along(i)) * w, h)))
        .chain((0..OUTLINE_STEPS).map(|i| (0.0, (1.0 - along(i)) * h)));
    let traced: Vec<(f64, f64)> = edge
        .filter_map(|(x, y)| camera.unproject_at(&PixelPoint::new(x, y), height))
        .filter(|p| p.x.is_finite() && p.y.is_finite())
        .map(|p| (p.x, p.y))
        .collect();
    if traced.len() < 3 {
        return Vec::new();
    }
    let picture = geo::Polygon::new(traced.into(), Vec::new());
    let table = geo::Rect::new((0.0, 0.0), (width.0, depth.0)).to_polygon();
    let shown = picture.intersection(&table);
    let largest = shown
        .0
        .iter()
        .max_by(|a, b| a.unsigned_area().total_cmp(&b.unsigned_area()));
    largest.map_or_else(Vec::new, |part| {
        part.exterior()
            .points()
            .map(|p| TablePoint::new(p.x(), p.y()))
            .collect()
    })
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
    fn a_cameras_part_of_the_table_is_its_picture_clipped_to_the_table() {
        // 40" up, 60° across: the picture spans about 46" × 26" around (30, 20), clipped by the
        // 48" × 36" table at y = 0 and x = 48.
        let part = part_of_table(&overhead(40.0), Inches(48.0), Inches(36.0), Inches::ZERO);
        let xs = || part.iter().map(|p| p.x);
        let ys = || part.iter().map(|p| p.y);
        let span = |v: &mut dyn Iterator<Item = f64>| {
            v.fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)))
        };
        let ((x0, x1), (y0, y1)) = (span(&mut xs()), span(&mut ys()));
        let half_width = 40.0 * (30f64).to_radians().tan();
        assert!((x0 - (30.0 - half_width)).abs() < 0.1, "{x0}");
        assert!(
            (x1 - 48.0).abs() < 1e-6,
            "clipped at the table's side: {x1}"
        );
        let half_depth = half_width * 720.0 / 1280.0;
        assert!((y0 - (20.0 - half_depth)).abs() < 0.1 && (y1 - (20.0 + half_depth)).abs() < 0.1);
        let off = part_of_table(&overhead(40.0), Inches(5.0), Inches(5.0), Inches::ZERO);
        assert!(
            off.is_empty(),
            "the picture shows none of a table beside it: {off:?}"
        );
    }

    #[test]
    fn the_best_of_two_cameras_finds_the_smaller_tag_at_each_place() {
        let (near, far) = (overhead(30.0), overhead(60.0));
        let map = |camera: &Camera| {
            SightMap::of(
                camera,
                Inches(60.0),
                Inches(40.0),
                Inches::ZERO,
                Inches(4.0),
            )
        };
        let (near_map, far_map) = (map(&near), map(&far));
        let best = SightMap::best_of([&far_map, &near_map]).expect("two maps");
        let middle = TablePoint::new(30.0, 20.0);
        assert_eq!(best.at(&middle), near_map.at(&middle));
        assert!(best.at(&middle) < far_map.at(&middle));
        // Where only the higher camera sees, it is the best.
        let edge = TablePoint::new(2.0, 20.0);
        assert_eq!(near_map.at(&edge), None);
        assert_eq!(best.at(&edge), far_map.at(&edge));
        assert!(best.at(&edge).is_some());
        let other_grid = SightMap::of(&near, Inches(60.0), Inches(40.0), Inches::ZERO, Inches(2.0));
        let kept = SightMap::best_of([&far_map, &other_grid]).expect("one map");
        assert_eq!(kept, far_map, "a map of another grid is left out");
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
