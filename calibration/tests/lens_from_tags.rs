//! The lens measured from the table's own tags, against cameras whose lens we chose: strong
//! barrel and pincushion lenses, corners seen with the detector's noise, stand tags of known
//! size at unknown places. The wrong lens must put stands in the wrong places, and the fitted
//! one in the right ones.

use std::collections::HashMap;

use calibration::lens::LensModel;
use calibration::{
    AnchorKit, AnchorLayout, Camera, CameraPose, Distortion, ImageSize, Intrinsics, LensSource,
    PixelPoint, Settings, StandTagSpec, TableCalibration, TablePoint3, TableSize, TagPlacement,
    TagSighting, calibrate, calibrate_from_tags,
};
use nalgebra::Vector3;
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};

const HD: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};
const TABLE: TableSize = TableSize {
    width: 72.0,
    depth: 48.0,
};
const TAG_HEIGHT: Inches = Inches(0.16);

/// A wide webcam (86° across) with strong barrel distortion, its axis off centre.
fn wide_barrel() -> Intrinsics {
    Intrinsics {
        principal_point: PixelPoint::new(975.0, 528.0),
        distortion: Distortion {
            k1: -0.32,
            k2: 0.11,
            p1: 0.0015,
            p2: -0.001,
            k3: -0.01,
        },
        ..Intrinsics::from_field_of_view(HD, Degrees(86.0))
    }
}

/// An ordinary webcam (62°) with pincushion distortion.
fn pincushion() -> Intrinsics {
    Intrinsics {
        distortion: Distortion {
            k1: 0.14,
            k2: -0.08,
            ..Distortion::default()
        },
        ..Intrinsics::from_field_of_view(HD, Degrees(62.0))
    }
}

/// The camera south of the table, 40° from vertical, as close as the whole table allows.
fn camera(lens: Intrinsics) -> Camera {
    side_camera(lens, 40.0)
}

/// A small deterministic generator of uniform and normal numbers.
struct Random(u64);

impl Random {
    fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform().max(1e-12), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// Stand tags of 1" in a jittered grid over the table, at random turns.
fn stands(random: &mut Random) -> Vec<(u32, TagPlacement)> {
    let mut stands = Vec::new();
    for row in 0..5 {
        for column in 0..9 {
            stands.push((
                10 + stands.len() as u32,
                TagPlacement {
                    center: TablePoint::new(
                        6.0 + 7.5 * f64::from(column) + random.uniform() * 2.0 - 1.0,
                        6.0 + 9.0 * f64::from(row) + random.uniform() * 2.0 - 1.0,
                    ),
                    facing: Degrees(random.uniform() * 360.0),
                    size: Inches(1.0),
                    height: TAG_HEIGHT,
                },
            ));
        }
    }
    stands
}

/// What the camera sees, as the detector finds it: a straight line fitted to each edge's pixels
/// (through a bending lens the edge is an arc), the corners where the lines meet, with the
/// detector's noise (σ 0.15 px).
fn seen(camera: &Camera, id: u32, placement: &TagPlacement, random: &mut Random) -> TagSighting {
    let corners = placement.corners();
    let lines: [(PixelPoint, [f64; 2]); 4] =
        std::array::from_fn(|k| fitted_line(camera, &corners[k], &corners[(k + 1) % 4]));
    TagSighting {
        id,
        corners: std::array::from_fn(|k| {
            let p = meet(lines[(k + 3) % 4], lines[k]);
            PixelPoint::new(p.x + 0.15 * random.normal(), p.y + 0.15 * random.normal())
        }),
    }
}

/// The least-squares line through an edge's pixels, evenly spaced along it: a point on it and
/// its direction.
fn fitted_line(camera: &Camera, a: &TablePoint3, b: &TablePoint3) -> (PixelPoint, [f64; 2]) {
    const SAMPLES: usize = 21;
    let points: Vec<PixelPoint> = (0..SAMPLES)
        .map(|i| {
            let t = i as f64 / (SAMPLES - 1) as f64;
            camera.project(&(a + (b - a) * t)).expect("in front")
        })
        .collect();
    let mean = PixelPoint::mean(&points);
    let (mut xx, mut xy, mut yy) = (0.0, 0.0, 0.0);
    for p in &points {
        let (dx, dy) = (p.x - mean.x, p.y - mean.y);
        xx += dx * dx;
        xy += dx * dy;
        yy += dy * dy;
    }
    // The principal direction of the points' spread.
    let angle = 0.5 * (2.0 * xy).atan2(xx - yy);
    (mean, [angle.cos(), angle.sin()])
}

/// Where two lines meet.
fn meet((p, u): (PixelPoint, [f64; 2]), (q, v): (PixelPoint, [f64; 2])) -> PixelPoint {
    let det = u[0] * v[1] - u[1] * v[0];
    let t = ((q.x - p.x) * v[1] - (q.y - p.y) * v[0]) / det;
    PixelPoint::new(p.x + t * u[0], p.y + t * u[1])
}

struct Table {
    layout: AnchorLayout,
    stands: Vec<(u32, TagPlacement)>,
    sightings: Vec<TagSighting>,
    specs: HashMap<u32, StandTagSpec>,
}

impl Table {
    /// The sighting of tag `id`, to spoil.
    fn sighting_mut(&mut self, id: u32) -> &mut TagSighting {
        self.sightings
            .iter_mut()
            .find(|s| s.id == id)
            .expect("seen")
    }
}

fn table(camera: &Camera, seed: u64) -> Table {
    table_with(camera, seed, AnchorKit::Corners)
}

fn table_with(camera: &Camera, seed: u64, kit: AnchorKit) -> Table {
    let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let layout = AnchorLayout::kit(kit, TABLE, Inches(2.0), Inches(1.5));
    let stands = stands(&mut random);
    let mut sightings: Vec<TagSighting> = layout
        .anchors
        .iter()
        .map(|a| seen(camera, a.id, &a.placement(), &mut random))
        .collect();
    sightings.extend(
        stands
            .iter()
            .map(|(id, p)| seen(camera, *id, p, &mut random)),
    );
    let specs = stands
        .iter()
        .map(|(id, p)| {
            (
                *id,
                StandTagSpec {
                    size: p.size,
                    height: p.height,
                },
            )
        })
        .collect();
    Table {
        layout,
        stands,
        sightings,
        specs,
    }
}

/// The 95th percentile of how far a calibration puts the stands' centres from the truth.
fn position_p95(calibration: &TableCalibration, table: &Table) -> f64 {
    let mut errors: Vec<f64> = table
        .stands
        .iter()
        .map(|(id, truth)| {
            let sighting = table.sightings.iter().find(|s| s.id == *id).expect("seen");
            let at = calibration
                .camera
                .unproject_at(&sighting.center(), TAG_HEIGHT)
                .expect("on the table");
            (at - truth.center).norm()
        })
        .collect();
    errors.sort_by(f64::total_cmp);
    errors[(errors.len() as f64 * 0.95) as usize]
}

fn anchors_only(table: &Table) -> TableCalibration {
    calibrate(&table.layout, &table.sightings, HD, &Settings::default()).expect("anchors")
}

/// Calibrate from one picture's tags, starting from `previous` if given.
fn try_from_tags(
    table: &Table,
    previous: Option<&TableCalibration>,
) -> Result<TableCalibration, calibration::CalibrationError> {
    calibrate_from_tags(
        &table.layout,
        std::slice::from_ref(&table.sightings),
        &table.specs,
        None,
        HD,
        previous,
    )
}

fn from_tags(table: &Table) -> TableCalibration {
    try_from_tags(table, None).expect("self-calibration")
}

#[test]
fn a_wide_barrel_lens_is_measured_from_one_picture_of_the_table() {
    let camera = camera(wide_barrel());
    let table = table(&camera, 1);
    let wrong = position_p95(&anchors_only(&table), &table);
    let calibration = from_tags(&table);
    let right = position_p95(&calibration, &table);
    assert!(
        wrong > 0.3,
        "the anchors-only lens should be caught out: {wrong:.3}\""
    );
    // The issue's goal for one picture through a wide webcam: p95 within 0.05".
    assert!(right < 0.05, "stands off by {right:.4}\" (p95)");
    let LensSource::Tags(lens) = calibration.lens else {
        panic!("lens from {:?}", calibration.lens)
    };
    assert!(lens.model >= LensModel::Radial, "{:?}", lens.model);
    assert!(
        calibration.quality.rms.0 < 0.3,
        "{}",
        calibration.quality.rms
    );
    let focal = calibration.camera.intrinsics.focal_x.0 / camera.intrinsics.focal_x.0;
    assert!((focal - 1.0).abs() < 0.03, "focal length off by {focal}");
}

#[test]
fn a_pincushion_lens_is_measured_from_one_picture_of_the_table() {
    let camera = camera(pincushion());
    let table = table(&camera, 2);
    let wrong = position_p95(&anchors_only(&table), &table);
    let right = position_p95(&from_tags(&table), &table);
    assert!(wrong > 0.1, "anchors-only: {wrong:.3}\"");
    assert!(right < 0.03, "stands off by {right:.4}\" (p95)");
}

#[test]
fn a_distortion_free_lens_loses_nothing() {
    let camera = camera(Intrinsics::from_field_of_view(HD, Degrees(70.0)));
    let table = table(&camera, 3);
    let before = position_p95(&anchors_only(&table), &table);
    let after = position_p95(&from_tags(&table), &table);
    assert!(
        after <= before.max(0.01) * 1.2,
        "{before:.4}\" → {after:.4}\""
    );
}

/// The fit's word on stand tag `id`, which it must have left out.
fn outlier(calibration: &TableCalibration, id: u32) -> &calibration::lens::TagOutlier {
    let report = calibration.lens_report.as_ref().expect("a lens fit");
    report
        .outliers
        .iter()
        .find(|o| o.id == id)
        .unwrap_or_else(|| panic!("tag {id} not named: {:?}", report.outliers))
}

#[test]
fn a_tag_printed_smaller_than_the_roster_says_is_named_and_left_out() {
    let camera = camera(wide_barrel());
    let mut table = table(&camera, 4);
    let clean = position_p95(&from_tags(&table), &table);
    // Tag 30 is printed at 20 mm, but the roster still lists 1" (25.4 mm).
    let (id, truth) = table.stands[20];
    let small = TagPlacement {
        size: Inches(20.0 / 25.4),
        ..truth
    };
    let mut random = Random(99);
    *table.sighting_mut(id) = seen(&camera, id, &small, &mut random);
    let calibration = from_tags(&table);
    let named = outlier(&calibration, id);
    let measured = named.measured.expect("its size measured").0 * 25.4;
    assert!((measured - 20.0).abs() < 0.5, "measures {measured:.2} mm");
    assert!(
        calibration
            .warnings
            .iter()
            .any(|w| w.contains(&format!("tag {id} measures"))),
        "{:?}",
        calibration.warnings
    );
    // Left out, it bends nothing: the other stands are placed as well as without it.
    table.stands.remove(20);
    let right = position_p95(&calibration, &table);
    assert!(
        right < clean + 0.005,
        "stands off by {right:.4}\" (p95), {clean:.4}\" without the wrong tag"
    );
}

#[test]
fn a_tag_seen_a_pixel_off_is_left_out_not_bent_into_the_lens() {
    // A figure hides part of tag 30's edge: two of its corners come out 1.6 px off, and with
    // its place fitted the tag is off by a pixel or so — under the 1.5 px floor the detector's
    // corners once needed, far outside refined corners' 0.05 px.
    let camera = camera(wide_barrel());
    let mut table = table(&camera, 5);
    let (id, _) = table.stands[20];
    let corners = &mut table.sighting_mut(id).corners;
    corners[0].x += 1.6;
    corners[1].y -= 1.6;
    let calibration = from_tags(&table);
    let named = outlier(&calibration, id);
    let report = calibration.lens_report.as_ref().expect("a lens fit");
    assert!(
        named.error.0 > 0.6 && named.error.0 < 1.5,
        "{} off",
        named.error
    );
    assert_eq!(report.outliers.len(), 1, "{:?}", report.outliers);
}

#[test]
fn tags_in_a_band_say_where_the_lens_is_not_pinned_down() {
    let camera = camera(wide_barrel());
    let mut table = table(&camera, 5);
    // Only the middle row of stands is on the table.
    let band: Vec<u32> = table
        .stands
        .iter()
        .filter(|(_, p)| (p.center.y - 24.0).abs() > 3.0)
        .map(|(id, _)| *id)
        .collect();
    table.sightings.retain(|s| !band.contains(&s.id));
    table.stands.retain(|(id, _)| !band.contains(id));
    let calibration = from_tags(&table);
    assert!(
        calibration
            .warnings
            .iter()
            .any(|w| w.contains("not pinned down where no tag was seen")),
        "{:?}",
        calibration.warnings
    );
    // Even so, far better than the anchors alone.
    let right = position_p95(&calibration, &table);
    let wrong = position_p95(&anchors_only(&table), &table);
    assert!(
        right < wrong / 3.0,
        "stands in the band off by {right:.4}\" (p95), {wrong:.4}\" through the anchors alone"
    );
}

#[test]
fn a_fitted_lens_is_never_replaced_by_a_worse_one() {
    let camera = camera(wide_barrel());
    let full = table(&camera, 6);
    let good = from_tags(&full);
    // Later, a picture with only the anchors in view (the stands cleared away).
    let mut bare = table(&camera, 7);
    bare.sightings.retain(|s| s.id < 4);
    let later = try_from_tags(&bare, Some(&good)).expect("calibrates");
    assert_eq!(later.lens, good.lens, "the earlier lens is kept");
    assert_eq!(
        later.camera.intrinsics.distortion,
        good.camera.intrinsics.distortion
    );
    assert!(
        later
            .warnings
            .iter()
            .any(|w| w.contains("kept the earlier lens")),
        "{:?}",
        later.warnings
    );
    // The table re-found through the kept lens places stands as well as the fit did.
    let (kept, fitted) = (position_p95(&later, &full), position_p95(&good, &full));
    assert!(
        kept < fitted + 0.01 && kept < 0.1,
        "stands off by {kept:.4}\" (p95) through the kept lens, {fitted:.4}\" as fitted"
    );
}

#[test]
fn one_anchor_in_view_is_refused_by_name() {
    let camera = camera(wide_barrel());
    let mut table = table(&camera, 8);
    table
        .sightings
        .retain(|s| s.id != 1 && s.id != 2 && s.id != 3);
    let error = try_from_tags(&table, None).expect_err("one anchor cannot fix the table");
    let message = error.to_string();
    assert!(message.contains("1 of the 4 anchors"), "{message}");
    assert!(message.contains("missing: 1, 2, 3"), "{message}");
}
#[test]
fn mid_edge_anchors_pin_the_middle_of_the_table() {
    let camera = camera(wide_barrel());
    // Seeds where four corners leave the middle loosest.
    for seed in [4, 5] {
        let corners = table_with(&camera, seed, AnchorKit::Corners);
        let eight = table_with(&camera, seed, AnchorKit::Eight);
        let (four, more) = (
            position_p95(&from_tags(&corners), &corners),
            position_p95(&from_tags(&eight), &eight),
        );
        assert!(
            more < four,
            "seed {seed}: 8 anchors {more:.4}\" vs 4 {four:.4}\""
        );
        assert!(more < 0.05, "seed {seed}: {more:.4}\"");
    }
}

#[test]
fn the_detectors_edge_bias_is_measured_not_bent_into_the_lens() {
    // The AprilTag detector puts edges about 0.07 px inside the printed square's: here every
    // corner is moved in along its diagonal as such a detector would.
    let camera = camera(Intrinsics::from_field_of_view(HD, Degrees(70.0)));
    let mut table = table(&camera, 9);
    let exact = position_p95(&anchors_only(&table), &table);
    for sighting in &mut table.sightings {
        let centre = PixelPoint::mean(&sighting.corners);
        sighting.corners = sighting.corners.map(|c| {
            let (dx, dy) = (c.x - centre.x, c.y - centre.y);
            let length = dx.hypot(dy);
            let inwards = 0.07 * std::f64::consts::SQRT_2 / length;
            PixelPoint::new(c.x - dx * inwards, c.y - dy * inwards)
        });
    }
    let calibration = from_tags(&table);
    let report = calibration.lens_report.as_ref().expect("a lens fit");
    assert!((report.edge.0 + 0.07).abs() < 0.02, "edge {}", report.edge);
    let p95 = position_p95(&calibration, &table);
    assert!(
        p95 < exact.max(0.01) * 1.5,
        "{exact:.4}\" exact, {p95:.4}\" with the bias"
    );
}

#[test]
fn few_noisy_tags_through_a_wide_lens_still_bend_it_and_say_how_unsure_it_is() {
    let camera = camera(wide_barrel());
    let mut table = table(&camera, 6);
    // A sparse opening deployment, one stand in five, seen by a blurred webcam (corners σ 0.3 px).
    let kept: Vec<u32> = table.stands.iter().step_by(5).map(|(id, _)| *id).collect();
    table
        .sightings
        .retain(|s| kept.contains(&s.id) || table.layout.anchor(s.id).is_some());
    table.stands.retain(|(id, _)| kept.contains(id));
    let mut random = Random(99);
    for s in table.sightings.iter_mut().filter(|s| kept.contains(&s.id)) {
        for c in &mut s.corners {
            *c = PixelPoint::new(c.x + 0.3 * random.normal(), c.y + 0.3 * random.normal());
        }
    }
    let calibration = from_tags(&table);
    let right = position_p95(&calibration, &table);
    let wrong = position_p95(&anchors_only(&table), &table);
    let LensSource::Tags(lens) = calibration.lens else {
        panic!("lens from {:?}", calibration.lens)
    };
    assert!(
        right < wrong / 10.0,
        "{right:.4}\" against {wrong:.4}\" through the anchors alone"
    );
    assert!(lens.pinned > Inches(0.1), "{}", lens.pinned);
    assert!(
        calibration.warnings.iter().any(|w| w.contains("uncertain")),
        "{:?}",
        calibration.warnings
    );
}

/// A wide webcam with k1 = −0.30, seen from `tilt` degrees from vertical as close as the whole
/// table allows.
fn strong_barrel(tilt: f64) -> Camera {
    let lens = Intrinsics {
        distortion: Distortion {
            k1: -0.30,
            ..wide_barrel().distortion
        },
        ..wide_barrel()
    };
    let mut camera = camera(lens);
    let target = TablePoint3::new(36.0, 24.0, 0.0);
    let distance = (camera.pose.eye() - target).norm();
    let t = tilt.to_radians();
    let eye = TablePoint3::new(36.0, 24.0 - distance * t.sin(), distance * t.cos());
    camera.pose = CameraPose::looking_at(eye, target, Vector3::y());
    camera
}

/// The table's anchors seen by a blurred webcam's detector: corners σ 0.3 px more.
fn blurred_anchors(table: &mut Table, seed: u64) {
    let mut random = Random(seed + 77);
    for s in table.sightings.iter_mut().filter(|s| s.id < 4) {
        for c in &mut s.corners {
            *c = PixelPoint::new(c.x + 0.3 * random.normal(), c.y + 0.3 * random.normal());
        }
    }
}

fn anchors_of(table: &Table) -> Vec<TagSighting> {
    let anchors = table.sightings.iter().filter(|s| s.id < 4);
    anchors.copied().collect()
}

/// Calibrated as `vedette calibrate` does from the anchors alone: the lens fitted to them.
fn lens_from_anchors(table: &Table) -> TableCalibration {
    calibrate_from_tags(
        &table.layout,
        &[anchors_of(table)],
        &HashMap::new(),
        None,
        HD,
        None,
    )
    .expect("calibrates")
}

fn all_four_used(calibration: &TableCalibration, case: &str) {
    assert!(
        calibration.anchors.len() == 4 && calibration.rejected.is_empty(),
        "{case}: {:?}",
        calibration.warnings
    );
    assert!(
        !calibration
            .warnings
            .iter()
            .any(|w| w.contains("ignored") || w.contains("only three")),
        "{case}: {:?}",
        calibration.warnings
    );
}

#[test]
fn anchors_where_their_file_says_are_all_used_through_a_strong_barrel_lens() {
    // The consensus compares anchors through a homography, which such a lens's bend defeats,
    // and a fit of the lens to three anchors then put the fourth pixels off: it was ignored as
    // moved, and calibration fell back to three anchors.
    for tilt in [30.0, 40.0, 50.0] {
        let camera = strong_barrel(tilt);
        for seed in 1..4 {
            let mut table = table(&camera, seed);
            blurred_anchors(&mut table, seed);
            let alone = lens_from_anchors(&table);
            all_four_used(&alone, &format!("anchors alone, {tilt}°, table {seed}"));
            if seed == 1 {
                let with_stands = from_tags(&table);
                all_four_used(&with_stands, &format!("with stands, {tilt}°"));
            }
        }
    }
}

/// Anchor `id` of `table` seen `by` inches from its place, towards `bearing` (radians).
fn knock(table: &mut Table, camera: &Camera, id: u32, by: f64, bearing: f64) {
    let mut anchor = *table.layout.anchor(id).expect("an anchor");
    anchor.center = TablePoint::new(
        anchor.center.x + by * bearing.cos(),
        anchor.center.y + by * bearing.sin(),
    );
    let mut random = Random(u64::from(id) + 100);
    *table.sighting_mut(id) = seen(camera, id, &anchor.placement(), &mut random);
}

#[test]
fn an_anchor_knocked_half_an_inch_is_caught_and_named_through_a_known_lens() {
    // As `calibrate --lens` and the app with its lens do: the lens known, the pose found.
    let camera = strong_barrel(40.0);
    let settings = Settings {
        intrinsics: Some(camera.intrinsics),
        ..Settings::default()
    };
    let (mut caught, mut knocked) = (0, 0);
    for seed in 1..4u64 {
        for id in 0..4u32 {
            let mut table = table(&camera, seed);
            let bearing = (seed as f64 * 1.3 + f64::from(id)).sin() * std::f64::consts::PI;
            knock(&mut table, &camera, id, 0.5, bearing);
            let calibration =
                calibrate(&table.layout, &table.sightings, HD, &settings).expect("calibrates");
            let rejected: Vec<u32> = calibration.rejected.iter().map(|r| r.id).collect();
            knocked += 1;
            if rejected.is_empty() {
                continue;
            }
            // Never the wrong anchor.
            assert_eq!(rejected, [id], "table {seed}");
            let named = format!("anchor tag {id} seen at");
            assert!(
                calibration.warnings.iter().any(|w| w.starts_with(&named)),
                "{:?}",
                calibration.warnings
            );
            let off = calibration.rejected[0].off_on_table;
            assert!(off.0 > 0.3 && off.0 < 0.8, "{off}");
            caught += 1;
        }
    }
    // A knock along the one way the camera's pose can follow is now and then missed.
    assert!(caught + 1 >= knocked, "{caught} of {knocked} caught");
}

/// How often an anchor where its file says is ignored, and a knocked one caught, calibrating
/// three ways (`cargo test -p vedette-calibration --test lens_from_tags --release -- --ignored
/// moved_anchor_figures --nocapture`; `KNOCK` inches, 0.5 by default).
#[test]
#[ignore]
fn moved_anchor_figures() {
    let by: f64 = std::env::var("KNOCK").map_or(0.5, |v| v.parse().expect("inches"));
    let camera = strong_barrel(40.0);
    let ways = ["lens known", "lens from the anchors", "lens from every tag"];
    let calibrations = |table: &Table| -> [TableCalibration; 3] {
        let known = Settings {
            intrinsics: Some(camera.intrinsics),
            ..Settings::default()
        };
        [
            calibrate(&table.layout, &table.sightings, HD, &known).expect("calibrates"),
            lens_from_anchors(table),
            from_tags(table),
        ]
    };
    let (mut false_alarms, mut caught, mut wrong, mut tables, mut knocks) =
        ([0; 3], [0; 3], [0; 3], 0, 0);
    for seed in 1..7u64 {
        tables += 1;
        for (k, c) in calibrations(&table(&camera, seed)).iter().enumerate() {
            false_alarms[k] += usize::from(!c.rejected.is_empty());
        }
        for id in 0..4u32 {
            let mut table = table(&camera, seed);
            let bearing = (seed as f64 * 1.3 + f64::from(id)).sin() * std::f64::consts::PI;
            knock(&mut table, &camera, id, by, bearing);
            knocks += 1;
            for (k, c) in calibrations(&table).iter().enumerate() {
                let rejected: Vec<u32> = c.rejected.iter().map(|r| r.id).collect();
                caught[k] += usize::from(rejected == [id]);
                wrong[k] += usize::from(!rejected.is_empty() && rejected != [id]);
            }
        }
    }
    for (k, way) in ways.iter().enumerate() {
        println!(
            "{way}: anchors in place ignored on {} of {tables} tables; knocked {by}\": caught {} of {knocks}, the wrong one {}",
            false_alarms[k], caught[k], wrong[k]
        );
    }
}

/// How far from `point` (at `height`) a calibration puts what the true camera shows there.
fn error_at(
    calibration: &TableCalibration,
    truth: &Camera,
    point: TablePoint,
    height: Inches,
) -> f64 {
    let pixel = truth.project_at(&point, height).expect("in view");
    let at = calibration
        .camera
        .unproject_at(&pixel, height)
        .expect("on the table");
    (at - point).norm()
}

#[test]
fn the_promise_covers_where_stands_truly_are_and_the_stand_tags_tighten_it() {
    let camera = camera(wide_barrel());
    for seed in 1..4 {
        let mut table = table(&camera, seed);
        blurred_anchors(&mut table, seed);
        let alone = lens_from_anchors(&table);
        let every = from_tags(&table);
        for (way, calibration) in [("anchors alone", &alone), ("every tag", &every)] {
            let promise = calibration.promise.expect("a promise");
            let p95 = position_p95(calibration, &table);
            let there = error_at(calibration, &camera, promise.at, TAG_HEIGHT);
            let within = promise.within.0;
            assert!(
                within >= p95 && within >= there,
                "table {seed}, {way}: ±{within:.3}\" promised, stands off by {p95:.3}\" (p95), {there:.3}\" at the worst place"
            );
            assert!(
                within < 6.0 * p95,
                "table {seed}, {way}: ±{within:.3}\" promised for {p95:.3}\" (p95)"
            );
        }
        let (loose, tight) = (
            alone.promise.expect("").within,
            every.promise.expect("").within,
        );
        assert!(
            tight.0 < loose.0 / 2.0,
            "{tight} with the stand tags, {loose} without"
        );
        // Every stand's error bar counts what the anchors alone could not measure; with the
        // stand tags in the fit the lens is measured, and the fit's own figures hold.
        let place = |c: &calibration::TableCalibration| c.uncertainty().place.0;
        assert!(
            (place(&alone) - alone.promise.expect("").sd().0).abs() < 1e-12,
            "{} from the anchors alone",
            place(&alone)
        );
        assert!(
            place(&every) < every.promise.expect("").sd().0 / 2.0,
            "{} with the stand tags",
            place(&every)
        );
    }
}

/// The promise, saved with the calibration, reads back; a file written before it had one
/// still loads.
#[test]
fn the_promise_is_saved_and_older_files_still_load() {
    let camera = camera(wide_barrel());
    let calibration = from_tags(&table(&camera, 1));
    let dir = std::env::temp_dir().join(format!("vedette-promise-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let file = dir.join("camera.toml");
    calibration.save(&file).expect("saved");
    let read = TableCalibration::load(&file).expect("loads");
    assert_eq!(read.promise, calibration.promise);
    let text = std::fs::read_to_string(&file).expect("read");
    let start = text.find("[promise]").expect("a [promise] table");
    let end = text[start + 1..]
        .find("\n[")
        .map_or(text.len(), |i| start + 1 + i);
    let older = format!("{}{}", &text[..start], &text[end..]);
    std::fs::write(&file, older).expect("write");
    assert_eq!(TableCalibration::load(&file).expect("loads").promise, None);
    std::fs::remove_dir_all(&dir).ok();
}

/// A lens the anchors alone fit (no bend measured) is as uncertain as the bend its anchors
/// show: through a straight lens next to nothing, through a bent one about what the truth is.
#[test]
fn a_lens_the_anchors_alone_fit_is_as_unsure_as_the_bend_they_show() {
    let bars = |lens: Intrinsics, seed: u64, name: &str| {
        let camera = camera(lens);
        let table = table(&camera, seed);
        let calibration = anchors_only(&table);
        let place = calibration.unmeasured_lens.expect("weighed").0;
        assert_eq!(calibration.uncertainty().place.0, place.max(0.001));
        let p95 = position_p95(&calibration, &table);
        // Its 95 % bar at the worst place holds the stands' p95, and is not uselessly wide.
        assert!(
            1.96 * place >= p95 && place <= 5.0 * p95,
            "{name} {seed}: ±{place:.3}\" (1 σ) for stands off by {p95:.3}\" (p95)"
        );
        place
    };
    let straight = bars(
        Intrinsics::from_field_of_view(HD, Degrees(70.0)),
        3,
        "straight",
    );
    for (lens, name) in [(wide_barrel(), "wide barrel"), (pincushion(), "pincushion")] {
        for seed in 1..3 {
            let bent = bars(lens, seed, name);
            assert!(
                bent > 5.0 * straight,
                "{name} {seed}: {bent:.3}\" for {straight:.3}\""
            );
        }
    }
}

/// An ordinary webcam, 66° across, mild barrel.
fn ordinary() -> Intrinsics {
    Intrinsics {
        principal_point: PixelPoint::new(968.0, 534.0),
        distortion: Distortion {
            k1: -0.12,
            k2: 0.05,
            ..Distortion::default()
        },
        ..Intrinsics::from_field_of_view(HD, Degrees(66.0))
    }
}

/// The camera south of the table (at its long side), `tilt` from vertical, as close as the
/// whole table allows.
fn side_camera(lens: Intrinsics, tilt: f64) -> Camera {
    let target = TablePoint3::new(36.0, 24.0, 0.0);
    let place = |distance: f64| {
        let t = tilt.to_radians();
        let eye = TablePoint3::new(36.0, 24.0 - distance * t.sin(), distance * t.cos());
        Camera {
            intrinsics: lens,
            pose: CameraPose::looking_at(eye, target, Vector3::y()),
        }
    };
    let fits = |c: &Camera| {
        [(0.0, 0.0), (72.0, 0.0), (72.0, 48.0), (0.0, 48.0)]
            .iter()
            .all(|&(x, y)| {
                c.project(&TablePoint3::new(x, y, 0.0))
                    .is_some_and(|p| p.x > 40.0 && p.y > 40.0 && p.x < 1880.0 && p.y < 1040.0)
            })
    };
    (20..400)
        .map(|d| place(f64::from(d)))
        .find(fits)
        .expect("the table fits at some distance")
}

/// A third of the stands stand on hills 1–3" high the roster knows nothing of: seen at their
/// true height, listed at the cloth's. Their ids, with how far each is raised.
fn raise_a_third(table: &mut Table, camera: &Camera, seed: u64) -> Vec<(u32, f64)> {
    let mut random = Random(seed);
    let mut raised = Vec::new();
    for k in (0..table.stands.len()).step_by(3) {
        let (id, truth) = table.stands[k];
        let by = 1.0 + 2.0 * random.uniform();
        let up = TagPlacement {
            height: Inches(truth.height.0 + by),
            ..truth
        };
        *table.sighting_mut(id) = seen(camera, id, &up, &mut random);
        raised.push((id, by));
    }
    raised
}

/// A third of the stands on hills 1–3" high that the roster does not know of, seen by a
/// camera at the table's side: those raised 2" or more are named with how high they sit and
/// left out, no flat one is, and the flat stands are placed as well as on a table with no
/// hills (a single picture's fit scatters by 0.03" from one noise to the next).
#[test]
fn raised_stands_are_named_and_do_not_bend_the_calibration() {
    for (seed, tilt) in [(21, 30.0), (22, 45.0), (23, 55.0)] {
        let camera = side_camera(ordinary(), tilt);
        let mut table = table(&camera, seed);
        let raised = raise_a_third(&mut table, &camera, seed);
        let is_raised = |id: u32| raised.iter().any(|(r, _)| *r == id);
        let calibration = from_tags(&table);
        let report = calibration.lens_report.as_ref().expect("a lens fit");
        for named in &report.outliers {
            let (_, by) = raised
                .iter()
                .find(|(id, _)| *id == named.id)
                .unwrap_or_else(|| panic!("tilt {tilt}: flat tag named: {named}"));
            let said = named.raised.expect("named as raised").0;
            assert!(
                (said - by).abs() < 1.0,
                "tag {}: {said:.2}\" for {by:.2}\"",
                named.id
            );
            assert!(
                calibration.warnings.contains(&named.to_string()),
                "{:?}",
                calibration.warnings
            );
        }
        for (id, by) in &raised {
            assert!(
                *by < 2.0 || report.outliers.iter().any(|o| o.id == *id),
                "tilt {tilt}: tag {id} raised {by:.2}\" not named"
            );
        }
        let mut flat = table_with(&camera, seed, AnchorKit::Corners);
        flat.stands.retain(|(id, _)| !is_raised(*id));
        let p95 = position_p95(&calibration, &flat);
        let clean = position_p95(&from_tags(&flat), &flat);
        let anchors = position_p95(&anchors_only(&table), &flat);
        eprintln!(
            "{tilt}° from vertical: flat stands p95 {p95:.4}\" with a third raised, {clean:.4}\" with none, {anchors:.4}\" from the anchors alone; {} of {} raised named",
            report.outliers.len(),
            raised.len()
        );
        assert!(
            p95 < clean + 0.02,
            "tilt {tilt}: {p95:.4}\" against {clean:.4}\""
        );
    }
}
