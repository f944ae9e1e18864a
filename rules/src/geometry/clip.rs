//! Clipping targets against convex regions: how much of a unit lies in an arc, and which of its
//! parts in the arc is nearest the shooter. Bases and wedges are convex, so parry's convex
//! polygon intersection answers both questions without a general polygon clipper.

use parry2d_f64::math::Isometry;
use parry2d_f64::query::details::closest_points_support_map_support_map;
use parry2d_f64::query::{ClosestPoints, PointQuery};
use parry2d_f64::shape::{ConvexPolygon, Segment};
use parry2d_f64::transformation::convex_polygons_intersection_points;
use smallvec::SmallVec;

use super::{OrientedRect, TablePoint, Tape, Wedge};
use crate::units::Inches;

/// Where a shooter may place its shot: a wedge, or everywhere (skirmishers, squares).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConvexRegion {
    /// The whole table.
    Everywhere,
    /// A quarter or a fire cone.
    Wedge(Wedge),
}

/// The area of a simple polygon, by the shoelace formula.
fn polygon_area(points: &[TablePoint]) -> f64 {
    let n = points.len();
    let twice: f64 = (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.x * b.y - a.y * b.x
        })
        .sum();
    twice.abs() / 2.0
}

/// How far the clipping polygon must reach to cover `bases` as seen from the region's apex.
fn extent_for(wedge: &Wedge, bases: &[OrientedRect]) -> Inches {
    let farthest = bases
        .iter()
        .flat_map(|b| b.corners())
        .flat_map(|c| wedge.apexes().map(|apex| nalgebra::distance(&c, &apex)))
        .fold(0.0, f64::max);
    Inches(farthest + 1.0)
}

/// What of one base lies inside a wedge.
#[derive(Clone, Debug)]
enum Part<'b> {
    /// All of it (the common case, found without clipping).
    Whole(&'b OrientedRect),
    /// A piece, clipped: its convex outline, and the base it comes from.
    Piece(Vec<TablePoint>, &'b OrientedRect),
}

/// The parts of a unit's bases in a region: on the stack for the usual handful of bases, as
/// every shooter clips every enemy near it.
type Parts<'b> = SmallVec<[Part<'b>; 4]>;

/// The parts of each base inside the wedge. Most bases are plainly all in or all out of an arc;
/// only those straddling a ray are clipped.
fn parts_inside<'b>(wedge: &Wedge, bases: &'b [OrientedRect]) -> Parts<'b> {
    let mut region: Option<Vec<TablePoint>> = None;
    let mut parts = Parts::new();
    for base in bases {
        let corners = base.corners();
        if wedge.surely_misses(&corners) {
            continue;
        }
        if corners.iter().all(|c| wedge.contains(c)) {
            parts.push(Part::Whole(base));
            continue;
        }
        let region = region.get_or_insert_with(|| wedge.polygon(extent_for(wedge, bases)));
        let mut piece = Vec::new();
        convex_polygons_intersection_points(&corners, region, &mut piece);
        if piece.len() >= 3 && polygon_area(&piece) > 1e-9 {
            parts.push(Part::Piece(piece, base));
        }
    }
    parts
}

/// Bases clipped to a region once, to ask both how much lies inside and which point inside is
/// nearest.
#[derive(Clone, Debug)]
pub struct Clipped<'b> {
    bases: &'b [OrientedRect],
    everywhere: bool,
    parts: Parts<'b>,
    wedge: Option<Wedge>,
}

/// Clip `bases` to `region`.
pub fn clip<'b>(region: &ConvexRegion, bases: &'b [OrientedRect]) -> Clipped<'b> {
    match region {
        ConvexRegion::Everywhere => Clipped {
            bases,
            everywhere: true,
            parts: Parts::new(),
            wedge: None,
        },
        ConvexRegion::Wedge(wedge) => Clipped {
            bases,
            everywhere: false,
            parts: parts_inside(wedge, bases),
            wedge: Some(*wedge),
        },
    }
}

impl Clipped<'_> {
    /// The fraction (0 to 1) of the bases' total area inside the region: the digest's "less
    /// than half in the arc" test (A7) sums the base areas, as for skirmishers.
    pub fn fraction(&self) -> f64 {
        let total: f64 = self.bases.iter().map(OrientedRect::area).sum();
        if total <= 0.0 {
            return 0.0;
        }
        if self.everywhere {
            return 1.0;
        }
        let inside: f64 = self
            .parts
            .iter()
            .map(|part| match part {
                Part::Whole(base) => base.area(),
                Part::Piece(outline, _) => polygon_area(outline),
            })
            .sum();
        (inside / total).clamp(0.0, 1.0)
    }

    /// The point of the bases inside the region nearest `from`, with its distance; `None` when
    /// no part of any base (of non-zero area) lies inside.
    pub fn closest_to(&self, from: &TablePoint) -> Option<(TablePoint, Inches)> {
        if self.everywhere {
            return self
                .bases
                .iter()
                .map(|b| b.closest_point(from))
                .min_by(|a, b| a.1.0.total_cmp(&b.1.0));
        }
        self.parts
            .iter()
            .filter_map(|part| match part {
                Part::Whole(base) => Some(base.closest_point(from)),
                Part::Piece(outline, base) => {
                    // If the base's own nearest point is in the arc, it is the piece's too.
                    let nearest = base.closest_point(from);
                    if self.wedge.is_some_and(|w| w.contains(&nearest.0)) {
                        return Some(nearest);
                    }
                    let shape = ConvexPolygon::from_convex_polyline(outline.clone())?;
                    let projected = shape.project_point(&Isometry::identity(), from, true);
                    Some((
                        projected.point,
                        Inches(nalgebra::distance(&projected.point, from)),
                    ))
                }
            })
            .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
    }

    /// The outlines of what lies inside the region, counter-clockwise: whole bases or pieces.
    fn outlines(&self) -> impl Iterator<Item = Vec<TablePoint>> + '_ {
        let whole = self
            .everywhere
            .then_some(self.bases)
            .into_iter()
            .flatten()
            .map(|base| base.corners().to_vec());
        let parts = self.parts.iter().map(|part| match part {
            Part::Whole(base) => base.corners().to_vec(),
            Part::Piece(outline, _) => outline.clone(),
        });
        whole.chain(parts)
    }

    /// The shortest tape from `edge` (a firing unit's front edge) to the bases inside the
    /// region; `None` when no part of any base lies inside. Segment and pieces are convex, so
    /// parry's GJK closest points are exact.
    pub fn closest_to_edge(&self, edge: &Segment) -> Option<Tape> {
        self.outlines()
            .filter_map(|outline| {
                let piece = ConvexPolygon::from_convex_polyline(outline)?;
                let identity = Isometry::identity();
                Some(
                    match closest_points_support_map_support_map(&identity, edge, &piece, f64::MAX)
                    {
                        ClosestPoints::WithinMargin(on_edge, on_piece) => {
                            Tape::between(on_edge, on_piece)
                        }
                        // Touching or overlapping the edge: no distance at all.
                        _ => {
                            let middle = nalgebra::center(&edge.a, &edge.b);
                            let on_piece = piece.project_point(&identity, &middle, true).point;
                            Tape {
                                from: on_piece,
                                to: on_piece,
                                length: Inches::ZERO,
                            }
                        }
                    },
                )
            })
            .min_by(|a, b| a.length.0.total_cmp(&b.length.0))
    }
}

/// The fraction (0 to 1) of the bases' total area that lies inside the region (A7).
pub fn fraction_inside(region: &ConvexRegion, bases: &[OrientedRect]) -> f64 {
    clip(region, bases).fraction()
}

/// The point of the bases inside the region that is nearest `from`, with its distance.
pub fn closest_part_inside(
    from: &TablePoint,
    region: &ConvexRegion,
    bases: &[OrientedRect],
) -> Option<(TablePoint, Inches)> {
    clip(region, bases).closest_to(from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::TableVector;
    use crate::units::Degrees;

    fn base(x: f64, y: f64) -> OrientedRect {
        OrientedRect::from_center(
            TablePoint::new(x, y),
            Degrees(0.0),
            Inches(2.0),
            Inches(2.0),
        )
    }

    #[test]
    fn half_a_base_on_the_edge_of_a_cone_is_half_inside() {
        // Cone opening along +x from the origin; its lower ray is the line y = -x.
        let cone = ConvexRegion::Wedge(Wedge::cone(
            TablePoint::origin(),
            TableVector::new(1.0, 1.0),
            Degrees(45.0),
        ));
        // A base centred on the ray y = 0 (the cone spans 0°..90°).
        let fraction = fraction_inside(&cone, &[base(10.0, 0.0)]);
        assert!((fraction - 0.5).abs() < 1e-9, "fraction {fraction}");
    }

    #[test]
    fn the_nearest_part_in_the_arc_is_not_the_nearest_part() {
        let cone = ConvexRegion::Wedge(Wedge::cone(
            TablePoint::origin(),
            TableVector::new(0.0, 1.0),
            Degrees(45.0),
        ));
        // A long base lying along x from x=5 to x=25 at y = 10: its nearest point overall is
        // (5, 10) but the cone only reaches x <= 10 at that height.
        let long = OrientedRect::from_center(
            TablePoint::new(15.0, 10.0),
            Degrees(90.0),
            Inches(20.0),
            Inches(1.0),
        );
        let (point, gap) =
            closest_part_inside(&TablePoint::origin(), &cone, &[long]).expect("in arc");
        assert!(point.x <= 10.0 + 1e-9 && point.x >= 5.0 - 1e-9);
        assert!(gap.0 >= long.closest_point(&TablePoint::origin()).1.0);
    }

    #[test]
    fn a_base_outside_the_arc_has_no_part_in_it() {
        let cone = ConvexRegion::Wedge(Wedge::cone(
            TablePoint::origin(),
            TableVector::new(0.0, 1.0),
            Degrees(45.0),
        ));
        assert!(closest_part_inside(&TablePoint::origin(), &cone, &[base(10.0, -5.0)]).is_none());
        assert_eq!(fraction_inside(&cone, &[base(10.0, -5.0)]), 0.0);
    }
}
