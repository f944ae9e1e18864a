//! Property tests of the geometry invariants, with geo as an independent oracle for parry.

use geo::{Area, BooleanOps, Distance, Euclidean, Polygon};
use proptest::prelude::*;
use rules::geometry::{
    ConvexRegion, OrientedRect, TablePoint, closest_part_inside, fraction_inside,
};
use rules::quarter::{Quarter, classify};
use rules::units::{Degrees, Inches};

fn rect() -> impl Strategy<Value = OrientedRect> {
    (
        0.0..72.0f64,
        0.0..48.0f64,
        0.0..360.0f64,
        0.2..15.0f64,
        0.2..10.0f64,
    )
        .prop_map(|(x, y, f, w, d)| {
            OrientedRect::new(TablePoint::new(x, y), Degrees(f), Inches(w), Inches(d))
        })
}

fn point() -> impl Strategy<Value = TablePoint> {
    (-20.0..92.0f64, -20.0..68.0f64).prop_map(|(x, y)| TablePoint::new(x, y))
}

fn to_geo(points: &[TablePoint]) -> Polygon<f64> {
    Polygon::new(
        points.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>().into(),
        vec![],
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn gap_is_symmetric_and_matches_geo(a in rect(), b in rect()) {
        let ab = a.gap_to(&b).0;
        let ba = b.gap_to(&a).0;
        let oracle = Euclidean.distance(&to_geo(&a.corners()), &to_geo(&b.corners()));
        prop_assert!((ab - ba).abs() < 1e-6, "{ab} vs {ba}");
        prop_assert!((ab - oracle).abs() < 1e-6, "parry {ab} vs geo {oracle}");
    }

    #[test]
    fn a_point_is_in_exactly_one_quarter_outside_the_footprint(frame in rect(), p in point()) {
        let reading = classify(&frame, &p);
        if !reading.inside_footprint && reading.margin.distance.0 > 1e-6 {
            let containing: Vec<Quarter> = Quarter::ALL
                .into_iter()
                .filter(|q| q.region(&frame).contains(&p))
                .collect();
            prop_assert_eq!(containing, vec![reading.face]);
        }
    }

    #[test]
    fn mirroring_across_the_centre_line_swaps_the_flanks(frame in rect(), p in point()) {
        let local = frame.to_local(&p);
        let mirrored = frame.from_local(rules::geometry::LocalPoint { across: -local.across, ahead: local.ahead });
        let (a, b) = (classify(&frame, &p), classify(&frame, &mirrored));
        let swap = |q: Quarter| match q {
            Quarter::LeftFlank => Quarter::RightFlank,
            Quarter::RightFlank => Quarter::LeftFlank,
            other => other,
        };
        if local.across.0.abs() > 1e-6 {
            prop_assert_eq!(a.face, swap(b.face));
        }
    }

    #[test]
    fn moving_and_turning_the_table_changes_no_quarter(
        frame in rect(), p in point(), turn in 0.0..360.0f64, dx in -30.0..30.0f64, dy in -30.0..30.0f64,
    ) {
        let motion = nalgebra::Isometry2::new(nalgebra::Vector2::new(dx, dy), turn.to_radians());
        let moved_frame = OrientedRect::new(
            motion * frame.front_center(),
            frame.facing() + Degrees(turn),
            frame.width(),
            frame.depth(),
        );
        let before = classify(&frame, &p);
        let after = classify(&moved_frame, &(motion * p));
        prop_assert!((before.margin.distance.0 - after.margin.distance.0).abs() < 1e-6);
        if before.margin.distance.0 > 1e-6 {
            prop_assert_eq!(before.face, after.face);
        }
    }

    #[test]
    fn arc_fraction_matches_geo_clipping(shooter in rect(), targets in prop::collection::vec(rect(), 1..4)) {
        let wedge = Quarter::Front.region(&shooter);
        let fraction = fraction_inside(&ConvexRegion::Wedge(wedge), &targets);
        let region = to_geo(&wedge.polygon(Inches(500.0)));
        let inside: f64 = targets
            .iter()
            .map(|t| region.intersection(&to_geo(&t.corners())).unsigned_area())
            .sum();
        let total: f64 = targets.iter().map(OrientedRect::area).sum();
        // geo's overlay snaps to a fixed-precision grid over the 1000" clipping wedge, so it is
        // only good to about 1e-5 here; parry clips exactly.
        prop_assert!((fraction - inside / total).abs() < 1e-4, "parry {fraction} vs geo {}", inside / total);
    }

    #[test]
    fn the_range_in_the_arc_is_never_shorter_than_the_range(shooter in rect(), target in rect()) {
        let leader = shooter.front_center();
        let wedge = ConvexRegion::Wedge(Quarter::Front.region(&shooter));
        let (_, range) = target.closest_point(&leader);
        if let Some((point, in_arc)) = closest_part_inside(&leader, &wedge, &[target]) {
            prop_assert!(in_arc.0 >= range.0 - 1e-9);
            // The point reported lies on the target, in the arc.
            prop_assert!(target.closest_point(&point).1.0 < 1e-6);
            prop_assert!(classify(&shooter, &point).face == Quarter::Front
                || classify(&shooter, &point).margin.distance.0 < 1e-6);
        }
    }
}
