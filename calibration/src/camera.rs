//! The pinhole camera with lens distortion, and where it stands over the table.
//!
//! Frames: the table frame has its origin at a table corner, `x` along the width, `y` along the
//! depth and `z` up, in inches (the scene format's conventions plus height). The camera frame
//! is OpenCV's: `x` right, `y` down, `z` out of the lens. A table point `X` is seen at
//! `R·X + t` in the camera frame. Distortion is OpenCV's five-coefficient model, written out
//! here so that the synthetic renderer and the pipeline share exactly one model.

use nalgebra::{Point3, Rotation3, Vector3};
use rules::geometry::TablePoint;
use rules::units::{Degrees, Inches};
use serde::{Deserialize, Serialize};

use crate::pixels::{ImageSize, PixelPoint, Pixels};

/// A point in the table frame with its height above the table, in inches.
pub type TablePoint3 = Point3<f64>;

/// Lens distortion: radial `k1 k2 k3` and tangential `p1 p2`, as OpenCV orders them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Distortion {
    /// Radial, r².
    pub k1: f64,
    /// Radial, r⁴.
    pub k2: f64,
    /// Tangential.
    pub p1: f64,
    /// Tangential.
    pub p2: f64,
    /// Radial, r⁶.
    pub k3: f64,
}

impl Distortion {
    /// OpenCV's coefficient vector `[k1, k2, p1, p2, k3]`.
    pub fn coefficients(&self) -> [f64; 5] {
        [self.k1, self.k2, self.p1, self.p2, self.k3]
    }

    /// From OpenCV's coefficient vector (missing entries are zero).
    pub fn from_coefficients(c: &[f64]) -> Distortion {
        let at = |i: usize| c.get(i).copied().unwrap_or(0.0);
        Distortion {
            k1: at(0),
            k2: at(1),
            p1: at(2),
            p2: at(3),
            k3: at(4),
        }
    }

    /// Where the lens moves an ideal normalised image point `(x, y)`.
    pub fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        let r2 = x * x + y * y;
        let radial = 1.0 + r2 * (self.k1 + r2 * (self.k2 + r2 * self.k3));
        (
            x * radial + 2.0 * self.p1 * x * y + self.p2 * (r2 + 2.0 * x * x),
            y * radial + self.p1 * (r2 + 2.0 * y * y) + 2.0 * self.p2 * x * y,
        )
    }

    /// The ideal normalised point the lens moved to `(xd, yd)`: the inverse of
    /// [`apply`](Self::apply) by Newton's method. (OpenCV's `undistortPoints` iterates a fixed
    /// point instead, which diverges towards the corners of a wide lens with k1 near −0.35.)
    pub fn remove(&self, xd: f64, yd: f64) -> (f64, f64) {
        if *self == Distortion::default() {
            return (xd, yd);
        }
        let (mut x, mut y) = (xd, yd);
        for _ in 0..50 {
            let (fx, fy) = self.apply(x, y);
            let (ex, ey) = (fx - xd, fy - yd);
            if ex.abs() + ey.abs() < 1e-15 {
                break;
            }
            let [[a, b], [c, d]] = self.jacobian(x, y);
            let det = a * d - b * c;
            if !det.is_finite() || det.abs() < 1e-12 {
                break;
            }
            x -= (d * ex - b * ey) / det;
            y -= (a * ey - c * ex) / det;
        }
        (x, y)
    }

    /// The derivative of [`apply`](Self::apply): `[[∂xd/∂x, ∂xd/∂y], [∂yd/∂x, ∂yd/∂y]]`.
    fn jacobian(&self, x: f64, y: f64) -> [[f64; 2]; 2] {
        let r2 = x * x + y * y;
        let radial = 1.0 + r2 * (self.k1 + r2 * (self.k2 + r2 * self.k3));
        let slope = self.k1 + r2 * (2.0 * self.k2 + 3.0 * r2 * self.k3);
        let cross = 2.0 * x * y * slope + 2.0 * self.p1 * x + 2.0 * self.p2 * y;
        [
            [
                radial + 2.0 * x * x * slope + 2.0 * self.p1 * y + 6.0 * self.p2 * x,
                cross,
            ],
            [
                cross,
                radial + 2.0 * y * y * slope + 6.0 * self.p1 * y + 2.0 * self.p2 * x,
            ],
        ]
    }

    /// Whether the lens maps the ideal image out to normalised radius `reach` one to one: past
    /// the radius where a strong barrel lens folds back, a pixel shows two directions and the
    /// model no longer describes a real lens.
    pub fn is_one_to_one_within(&self, reach: f64) -> bool {
        self.fold().is_none_or(|fold| fold > reach * reach)
    }

    /// The squared normalised radius where the radial part of the model folds back (where
    /// d(r·radial)/dr reaches zero), if it does within r = 4: nothing past it can be seen.
    pub fn fold(&self) -> Option<f64> {
        if self.unfolded_to(FOLD_REACH) {
            return None;
        }
        // Unfolded up to the fold and not past it: halve the bracket down to a float's width.
        let (mut inside, mut outside) = (0.0, FOLD_REACH);
        for _ in 0..64 {
            let middle = 0.5 * (inside + outside);
            if self.unfolded_to(middle) {
                inside = middle;
            } else {
                outside = middle;
            }
        }
        Some(outside)
    }

    /// Whether an ideal normalised point lies inside the fold, where the lens can show it.
    /// Every projection asks, so it is answered without finding the fold itself.
    pub fn shows(&self, x: f64, y: f64) -> bool {
        self.unfolded_to((x * x + y * y).min(FOLD_REACH))
    }

    /// Whether d(r·radial)/dr stays positive for every squared radius up to `reach`. As a
    /// function of the squared radius it is a cubic worth 1 at the centre, so it is enough that
    /// it is positive at `reach` and at its turning points before it.
    fn unfolded_to(&self, reach: f64) -> bool {
        if self.k1 >= 0.0 && self.k2 >= 0.0 && self.k3 >= 0.0 {
            return true;
        }
        self.radial_slope(reach) > 0.0
            && self
                .slope_turning_points()
                .into_iter()
                .flatten()
                .filter(|&s| s > 0.0 && s < reach)
                .all(|s| self.radial_slope(s) > 0.0)
    }

    /// d(r·radial)/dr at squared radius `s`.
    fn radial_slope(&self, s: f64) -> f64 {
        1.0 + s * (3.0 * self.k1 + s * (5.0 * self.k2 + 7.0 * s * self.k3))
    }

    /// The squared radii where [`radial_slope`](Self::radial_slope) turns: the roots of
    /// `3·k1 + 10·k2·s + 21·k3·s²`, by the form that stays exact when k3 is tiny or zero.
    fn slope_turning_points(&self) -> [Option<f64>; 2] {
        let (a, b, c) = (21.0 * self.k3, 10.0 * self.k2, 3.0 * self.k1);
        let discriminant = b * b - 4.0 * a * c;
        if discriminant < 0.0 {
            return [None, None];
        }
        let q = -0.5 * (b + b.signum() * discriminant.sqrt());
        let root = |n: f64, d: f64| (d != 0.0).then(|| n / d);
        [root(q, a), root(c, q)]
    }
}

/// The squared normalised radius (r = 4, about 150° across) beyond which the fold is not sought.
const FOLD_REACH: f64 = 16.0;

/// What the lens and sensor do: focal lengths, principal point and distortion, for one image size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Intrinsics {
    /// The image size these intrinsics were measured at.
    pub image_size: ImageSize,
    /// Focal length along x.
    pub focal_x: Pixels,
    /// Focal length along y.
    pub focal_y: Pixels,
    /// Where the optical axis meets the image.
    pub principal_point: PixelPoint,
    /// The lens's distortion.
    #[serde(default)]
    pub distortion: Distortion,
}

impl Intrinsics {
    /// An ideal lens with the given horizontal field of view, its axis through the image centre.
    pub fn from_field_of_view(image_size: ImageSize, horizontal: Degrees) -> Intrinsics {
        let focal = f64::from(image_size.width) / 2.0 / (horizontal.0.to_radians() / 2.0).tan();
        Intrinsics {
            image_size,
            focal_x: Pixels(focal),
            focal_y: Pixels(focal),
            principal_point: image_size.center(),
            distortion: Distortion::default(),
        }
    }

    /// The horizontal field of view.
    pub fn horizontal_field_of_view(&self) -> Degrees {
        let half = f64::from(self.image_size.width) / 2.0 / self.focal_x.0;
        Degrees(2.0 * half.atan().to_degrees())
    }

    /// The pixel an ideal normalised image point lands on (distortion applied).
    pub fn to_pixel(&self, x: f64, y: f64) -> PixelPoint {
        let (xd, yd) = self.distortion.apply(x, y);
        self.through_matrix(xd, yd)
    }

    /// The ideal normalised image point a pixel shows (distortion removed).
    pub fn to_normalized(&self, p: &PixelPoint) -> (f64, f64) {
        let (xd, yd) = self.off_matrix(p);
        self.distortion.remove(xd, yd)
    }

    /// Where a pixel would be through this lens without its distortion (the same focal length
    /// and centre): the picture's points straightened.
    pub fn undistort(&self, p: &PixelPoint) -> PixelPoint {
        let (x, y) = self.to_normalized(p);
        self.through_matrix(x, y)
    }

    /// Where this lens puts a point of the straightened picture: [`Self::undistort`] undone.
    pub fn distort(&self, p: &PixelPoint) -> PixelPoint {
        let (x, y) = self.off_matrix(p);
        self.to_pixel(x, y)
    }

    /// A normalised point through the camera matrix alone.
    fn through_matrix(&self, x: f64, y: f64) -> PixelPoint {
        PixelPoint::new(
            self.focal_x.0 * x + self.principal_point.x,
            self.focal_y.0 * y + self.principal_point.y,
        )
    }

    /// A pixel back through the camera matrix alone.
    fn off_matrix(&self, p: &PixelPoint) -> (f64, f64) {
        (
            (p.x - self.principal_point.x) / self.focal_x.0,
            (p.y - self.principal_point.y) / self.focal_y.0,
        )
    }

    /// OpenCV's 3×3 camera matrix, row-major.
    pub fn matrix(&self) -> [[f64; 3]; 3] {
        [
            [self.focal_x.0, 0.0, self.principal_point.x],
            [0.0, self.focal_y.0, self.principal_point.y],
            [0.0, 0.0, 1.0],
        ]
    }

    /// These intrinsics for another image size of the same sensor (a camera switched from
    /// 1080p to 720p keeps its lens: everything scales).
    pub fn scaled_to(&self, size: ImageSize) -> Intrinsics {
        let sx = f64::from(size.width) / f64::from(self.image_size.width);
        let sy = f64::from(size.height) / f64::from(self.image_size.height);
        let centre = |c: f64, s: f64| (c + 0.5) * s - 0.5;
        Intrinsics {
            image_size: size,
            focal_x: Pixels(self.focal_x.0 * sx),
            focal_y: Pixels(self.focal_y.0 * sy),
            principal_point: PixelPoint::new(
                centre(self.principal_point.x, sx),
                centre(self.principal_point.y, sy),
            ),
            distortion: self.distortion,
        }
    }
}

/// Where the camera is: the rigid motion from the table frame to the camera frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "PoseDoc", into = "PoseDoc")]
pub struct CameraPose {
    /// Turns table directions into camera directions.
    pub rotation: Rotation3<f64>,
    /// The table origin in the camera frame, inches.
    pub translation: Vector3<f64>,
}

/// The pose as written in files: OpenCV's Rodrigues vector and translation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PoseDoc {
    /// Rotation axis times angle in radians.
    rotation: [f64; 3],
    /// Inches.
    translation: [f64; 3],
}

impl From<PoseDoc> for CameraPose {
    fn from(doc: PoseDoc) -> CameraPose {
        CameraPose {
            rotation: Rotation3::from_scaled_axis(Vector3::from(doc.rotation)),
            translation: Vector3::from(doc.translation),
        }
    }
}

impl From<CameraPose> for PoseDoc {
    fn from(pose: CameraPose) -> PoseDoc {
        PoseDoc {
            rotation: pose.rotation.scaled_axis().into(),
            translation: pose.translation.into(),
        }
    }
}

impl CameraPose {
    /// A camera at `eye` (table frame, inches) looking at `target`, its image's up direction
    /// towards `up` as well as it can be.
    pub fn looking_at(eye: TablePoint3, target: TablePoint3, up: Vector3<f64>) -> CameraPose {
        let forward = (target - eye).normalize();
        let right = forward.cross(&up).normalize();
        let down = forward.cross(&right);
        // Rows are the camera axes expressed in the table frame.
        let rotation = Rotation3::from_matrix_unchecked(nalgebra::Matrix3::from_rows(&[
            right.transpose(),
            down.transpose(),
            forward.transpose(),
        ]));
        CameraPose {
            rotation,
            translation: -(rotation * eye.coords),
        }
    }

    /// The lens's centre in the table frame.
    pub fn eye(&self) -> TablePoint3 {
        TablePoint3::from(-(self.rotation.inverse() * self.translation))
    }

    /// The angle between the optical axis and straight down.
    pub fn tilt(&self) -> Degrees {
        let axis = self.rotation.inverse() * Vector3::z();
        Degrees(axis.angle(&-Vector3::z()).to_degrees())
    }
}

/// A calibrated camera: its lens and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Camera {
    /// Lens and sensor.
    pub intrinsics: Intrinsics,
    /// Position and orientation over the table.
    pub pose: CameraPose,
}

impl Camera {
    /// The pixel showing a table point, or `None` if it is behind the camera or beyond the
    /// lens's field (past the radius where its distortion folds back).
    pub fn project(&self, point: &TablePoint3) -> Option<PixelPoint> {
        let p = self.pose.rotation * point.coords + self.pose.translation;
        let (x, y) = (p.x / p.z, p.y / p.z);
        (p.z > 1e-9 && self.intrinsics.distortion.shows(x, y))
            .then(|| self.intrinsics.to_pixel(x, y))
    }

    /// The pixel showing a point of the table plane raised by `height`.
    pub fn project_at(&self, point: &TablePoint, height: Inches) -> Option<PixelPoint> {
        self.project(&TablePoint3::new(point.x, point.y, height.0))
    }

    /// The point at `height` above the table that a pixel shows: where the pixel's ray meets the
    /// plane `z = height`. This is the tag-height correction: a tag on a 4 mm base is found
    /// where its ray crosses 4 mm, not where it would hit the cloth. `None` when the ray does
    /// not come down to that plane.
    pub fn unproject_at(&self, pixel: &PixelPoint, height: Inches) -> Option<TablePoint> {
        let (x, y) = self.intrinsics.to_normalized(pixel);
        let inverse = self.pose.rotation.inverse();
        let direction = inverse * Vector3::new(x, y, 1.0);
        let eye = self.pose.eye();
        if direction.z.abs() < 1e-12 {
            return None;
        }
        let along = (height.0 - eye.z) / direction.z;
        (along > 0.0).then(|| {
            let hit = eye + direction * along;
            TablePoint::new(hit.x, hit.y)
        })
    }

    /// Table inches per image pixel around a table point (how fine the camera sees there).
    pub fn inches_per_pixel(&self, point: &TablePoint, height: Inches) -> Option<f64> {
        let step = 0.1;
        let a = self.project_at(point, height)?;
        let b = self.project_at(&TablePoint::new(point.x + step, point.y), height)?;
        let c = self.project_at(&TablePoint::new(point.x, point.y + step), height)?;
        let pixels = (a.distance(&b).0 + a.distance(&c).0) / 2.0;
        (pixels > 0.0).then(|| step / pixels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camera() -> Camera {
        let size = ImageSize {
            width: 1920,
            height: 1080,
        };
        let mut intrinsics = Intrinsics::from_field_of_view(size, Degrees(70.0));
        intrinsics.distortion = Distortion {
            k1: -0.12,
            k2: 0.05,
            p1: 0.001,
            p2: -0.0005,
            k3: 0.0,
        };
        Camera {
            intrinsics,
            pose: CameraPose::looking_at(
                TablePoint3::new(36.0, -20.0, 50.0),
                TablePoint3::new(36.0, 24.0, 0.0),
                Vector3::y(),
            ),
        }
    }

    #[test]
    fn a_pixel_unprojects_to_the_point_it_shows_at_any_height() {
        let camera = camera();
        for (x, y, h) in [(10.0, 5.0, 0.0), (60.0, 40.0, 0.2), (36.0, 24.0, 1.5)] {
            let point = TablePoint::new(x, y);
            let pixel = camera.project_at(&point, Inches(h)).expect("in front");
            let back = camera.unproject_at(&pixel, Inches(h)).expect("hits");
            assert!((back - point).norm() < 1e-9, "{point} came back as {back}");
        }
    }

    #[test]
    fn a_raised_tag_read_as_if_on_the_cloth_lands_further_from_the_camera() {
        let camera = camera();
        let tag = TablePoint::new(36.0, 30.0);
        let pixel = camera.project_at(&tag, Inches(0.2)).expect("in front");
        let naive = camera.unproject_at(&pixel, Inches::ZERO).expect("hits");
        // The camera stands south of the table: parallax pushes the naive reading north.
        assert!(naive.y > tag.y + 0.1, "naive {naive} vs true {tag}");
    }

    #[test]
    fn the_camera_tilt_is_the_angle_from_straight_down() {
        let straight_down = CameraPose::looking_at(
            TablePoint3::new(36.0, 24.0, 60.0),
            TablePoint3::new(36.0, 24.0, 0.0),
            Vector3::y(),
        );
        assert!(straight_down.tilt().0.abs() < 1e-9);
        let oblique = camera().pose.tilt().0;
        let expected = (44.0f64 / 50.0).atan().to_degrees();
        assert!((oblique - expected).abs() < 1e-9, "{oblique} vs {expected}");
    }

    #[test]
    fn distortion_removal_inverts_the_lens() {
        let d = camera().intrinsics.distortion;
        for (x, y) in [(0.0, 0.0), (0.5, -0.3), (-0.7, 0.4)] {
            let (xd, yd) = d.apply(x, y);
            let (bx, by) = d.remove(xd, yd);
            assert!((bx - x).abs() < 1e-10 && (by - y).abs() < 1e-10);
        }
    }

    #[test]
    fn a_straightened_pixel_goes_back_where_it_was() {
        let lens = camera().intrinsics;
        let centre = lens.principal_point;
        assert!(lens.undistort(&centre).distance(&centre).0 < 1e-9);
        for (x, y) in [(10.0, 20.0), (1900.0, 1060.0), (640.0, 900.0)] {
            let p = PixelPoint::new(x, y);
            let straight = lens.undistort(&p);
            assert!(lens.distort(&straight).distance(&p).0 < 1e-6, "({x}, {y})");
            // Straightened, it is where the lens without its distortion puts the same ray.
            let plain = Intrinsics {
                distortion: Distortion::default(),
                ..lens
            };
            let (nx, ny) = lens.to_normalized(&p);
            assert!(plain.to_pixel(nx, ny).distance(&straight).0 < 1e-9);
        }
    }

    #[test]
    fn distortion_removal_inverts_a_wide_barrel_lens_out_to_its_corners() {
        // A 90° webcam: the picture's corner is at normalised radius 1.15.
        let wide = Distortion {
            k1: -0.35,
            k2: 0.12,
            p1: 0.002,
            p2: -0.001,
            k3: -0.01,
        };
        assert!(wide.is_one_to_one_within(1.2));
        for i in 0..=20 {
            let (x, y) = (1.0 * f64::from(i) / 20.0, 0.5625 * f64::from(i) / 20.0);
            let (xd, yd) = wide.apply(x, y);
            let (bx, by) = wide.remove(xd, yd);
            assert!(
                (bx - x).abs() < 1e-10 && (by - y).abs() < 1e-10,
                "({x}, {y})"
            );
        }
        let folding = Distortion {
            k1: -0.35,
            ..Distortion::default()
        };
        assert!(!folding.is_one_to_one_within(1.2), "folds back at r ≈ 0.98");
    }

    #[test]
    fn a_point_is_shown_exactly_when_the_lens_has_not_folded_back_before_it() {
        // Lenses across and beyond what webcams are, stepped rather than drawn: against a fine
        // scan of the slope, the fold and `shows` agree on every radius.
        let steps = [-0.6, -0.35, -0.1, 0.0, 0.05, 0.15];
        for k1 in steps {
            for k2 in [-0.2, -0.05, 0.0, 0.12, 0.3] {
                for k3 in [-0.05, -0.01, 0.0, 0.004, 0.05] {
                    let lens = Distortion {
                        k1,
                        k2,
                        k3,
                        ..Distortion::default()
                    };
                    let slope = |s: f64| 1.0 + s * (3.0 * k1 + s * (5.0 * k2 + 7.0 * s * k3));
                    let scanned = (1..=160_000)
                        .map(|i| FOLD_REACH * f64::from(i) / 160_000.0)
                        .find(|&s| slope(s) <= 0.0);
                    match (lens.fold(), scanned) {
                        (None, None) => {}
                        (Some(fold), Some(scan)) => assert!(
                            (fold - scan).abs() <= 1e-4,
                            "{lens:?}: fold {fold}, scan {scan}"
                        ),
                        (fold, scan) => panic!("{lens:?}: fold {fold:?}, scan {scan:?}"),
                    }
                    for i in 0..=200 {
                        let r = 4.0 * f64::from(i) / 200.0;
                        let (x, y) = (0.8 * r, 0.6 * r);
                        let before_fold = lens.fold().is_none_or(|fold| r * r < fold);
                        assert_eq!(lens.shows(x, y), before_fold, "{lens:?} at r = {r}");
                    }
                }
            }
        }
    }

    #[test]
    fn intrinsics_scale_with_the_image() {
        let full = camera().intrinsics;
        let half = full.scaled_to(ImageSize {
            width: 960,
            height: 540,
        });
        let (x, y) = (0.2, -0.1);
        let a = full.to_pixel(x, y);
        let b = half.to_pixel(x, y);
        assert!(((a.x + 0.5) / 2.0 - 0.5 - b.x).abs() < 1e-9);
        assert!(((a.y + 0.5) / 2.0 - 0.5 - b.y).abs() < 1e-9);
    }
}
