//! The bundle adjustment: the lens, each view's camera pose and each stand tag's place on the
//! table, fitted together to every tag corner seen, as one least-squares problem for the
//! Levenberg–Marquardt solver of the `levenberg-marquardt` crate (MINPACK's algorithm).
//!
//! Parameters, in order: the lens numbers the model frees; per view a small rotation (applied
//! before the view's starting rotation, so the solver never meets the rotation vector's wrap at
//! 180°, where a camera looking straight down sits) and a translation; per stand tag its
//! centre's x and y on the table and its turn. Residuals: per tag corner, the pixel the model
//! puts it at less the pixel it was seen at, times the corner's robust weight.
//!
//! The Jacobian is by central differences, block by block: a lens number moves every corner, a
//! pose only its view's corners, a stand's place only its own four. That keeps it cheap without
//! hand-derived derivatives of the distortion model that could drift from [`crate::camera`].

use levenberg_marquardt::LeastSquaresProblem;
use nalgebra::{DMatrix, DVector, Dyn, Owned, Rotation3, Vector3};
use rules::geometry::TablePoint;
use rules::units::Degrees;

use super::model::{LensModel, LensParam};
use super::view::{LensView, StandTag};
use crate::camera::{Camera, CameraPose, Intrinsics, TablePoint3};
use crate::pixels::PixelPoint;
use crate::tag::TagPlacement;

/// A corner that falls behind the camera during a trial step is this far off, so the solver
/// backs away from the step instead of failing.
const BEHIND_CAMERA: f64 = 1e4;

/// Central-difference steps, in each parameter's own units.
const LENS_STEP: f64 = 1e-6;
const ROTATION_STEP: f64 = 1e-7;
const TRANSLATION_STEP: f64 = 1e-5;
const STAND_STEP: [f64; 3] = [1e-5, 1e-5, 1e-6];

/// The problem's state: where the solver is, and everything to turn that into residuals.
#[derive(Clone)]
pub(crate) struct Bundle<'a> {
    views: &'a [LensView],
    free: &'static [LensParam],
    lens: Intrinsics,
    base_rotations: Vec<Rotation3<f64>>,
    poses: Vec<CameraPose>,
    /// Per view, per stand tag: x, y (inches) and turn (radians, from +x).
    stands: Vec<Vec<[f64; 3]>>,
    /// Per view, per tag (known tags first, then stands), per corner: the square root of its
    /// robust weight.
    weights: Vec<Vec<[f64; 4]>>,
    params: DVector<f64>,
}

impl<'a> Bundle<'a> {
    /// A problem starting from a lens, one pose per view and each stand tag's place.
    pub(crate) fn new(
        views: &'a [LensView],
        model: LensModel,
        lens: Intrinsics,
        poses: Vec<CameraPose>,
        stands: Vec<Vec<TagPlacement>>,
    ) -> Bundle<'a> {
        let stands: Vec<Vec<[f64; 3]>> = stands
            .iter()
            .map(|view| {
                view.iter()
                    .map(|p| [p.center.x, p.center.y, p.facing.0.to_radians()])
                    .collect()
            })
            .collect();
        let weights = views
            .iter()
            .map(|v| vec![[1.0; 4]; v.tag_count()])
            .collect();
        let mut bundle = Bundle {
            views,
            free: model.free(),
            lens,
            base_rotations: poses.iter().map(|p| p.rotation).collect(),
            poses,
            stands,
            weights,
            params: DVector::zeros(0),
        };
        bundle.params = bundle.pack();
        bundle
    }

    fn pack(&self) -> DVector<f64> {
        let mut values: Vec<f64> = self.free.iter().map(|p| p.get(&self.lens)).collect();
        for pose in &self.poses {
            values.extend([0.0, 0.0, 0.0]);
            values.extend(pose.translation.iter());
        }
        for view in &self.stands {
            for stand in view {
                values.extend(stand);
            }
        }
        DVector::from_vec(values)
    }

    /// Start the next solve from here: the rotations found become the new starting ones.
    pub(crate) fn rebase(&mut self, model: LensModel) {
        self.free = model.free();
        self.base_rotations = self.poses.iter().map(|p| p.rotation).collect();
        self.params = self.pack();
    }

    pub(crate) fn lens(&self) -> Intrinsics {
        self.lens
    }

    pub(crate) fn poses(&self) -> &[CameraPose] {
        &self.poses
    }

    pub(crate) fn free(&self) -> &'static [LensParam] {
        self.free
    }

    pub(crate) fn views(&self) -> &'a [LensView] {
        self.views
    }

    /// The parameter columns of a view's pose.
    pub(crate) fn pose_columns(&self, v: usize) -> std::ops::Range<usize> {
        self.pose_offset(v)..self.pose_offset(v) + 6
    }

    /// The central-difference step of a parameter.
    pub(crate) fn step(&self, index: usize) -> f64 {
        let lens = self.free.len();
        let poses = lens + 6 * self.views.len();
        match index {
            i if i < lens => LENS_STEP,
            i if i < poses && (i - lens) % 6 < 3 => ROTATION_STEP,
            i if i < poses => TRANSLATION_STEP,
            i => STAND_STEP[(i - poses) % 3],
        }
    }

    /// Where the fit puts each stand tag.
    pub(crate) fn stand_placements(&self) -> Vec<Vec<TagPlacement>> {
        self.views
            .iter()
            .zip(&self.stands)
            .map(|(view, places)| {
                view.stands
                    .iter()
                    .zip(places)
                    .map(|(tag, place)| placement(tag, place))
                    .collect()
            })
            .collect()
    }

    pub(crate) fn set_weights(&mut self, weights: Vec<Vec<[f64; 4]>>) {
        self.weights = weights;
    }

    /// The camera of one view.
    pub(crate) fn camera(&self, view: usize) -> Camera {
        Camera {
            intrinsics: self.lens,
            pose: self.poses[view],
        }
    }

    /// Each tag's corners where the model puts them, per view, known tags first.
    pub(crate) fn projected(&self) -> Vec<Vec<[PixelPoint; 4]>> {
        (0..self.views.len())
            .map(|v| {
                let camera = self.camera(v);
                self.object_corners(v)
                    .iter()
                    .map(|corners| corners.map(|c| project(&camera, &c)))
                    .collect()
            })
            .collect()
    }

    /// Every tag's corners in its view's object frame (the table or the board).
    fn object_corners(&self, v: usize) -> Vec<[TablePoint3; 4]> {
        let view = &self.views[v];
        let known = view.known.iter().map(|k| k.placement.corners());
        let stands = view
            .stands
            .iter()
            .zip(&self.stands[v])
            .map(|(tag, place)| placement(tag, place).corners());
        known.chain(stands).collect()
    }

    fn pose_offset(&self, v: usize) -> usize {
        self.free.len() + 6 * v
    }

    fn stand_offset(&self, v: usize, s: usize) -> usize {
        let before: usize = self.stands[..v].iter().map(Vec::len).sum();
        self.free.len() + 6 * self.views.len() + 3 * (before + s)
    }

    fn row_offsets(&self) -> Vec<usize> {
        let mut offsets = Vec::with_capacity(self.views.len() + 1);
        let mut row = 0;
        for view in self.views {
            offsets.push(row);
            row += 8 * view.tag_count();
        }
        offsets.push(row);
        offsets
    }

    fn tag_residuals(&self, v: usize, tag: usize, corners: &[TablePoint3; 4], out: &mut [f64]) {
        let camera = self.camera(v);
        let seen = &self.views[v].sighting(tag).corners;
        let weights = &self.weights[v][tag];
        for k in 0..4 {
            let p = project(&camera, &corners[k]);
            out[2 * k] = (p.x - seen[k].x) * weights[k];
            out[2 * k + 1] = (p.y - seen[k].y) * weights[k];
        }
    }

    fn view_residuals(&self, v: usize, out: &mut [f64]) {
        for (tag, corners) in self.object_corners(v).iter().enumerate() {
            self.tag_residuals(v, tag, corners, &mut out[8 * tag..8 * tag + 8]);
        }
    }

    fn all_residuals(&self) -> DVector<f64> {
        let offsets = self.row_offsets();
        let mut out = DVector::zeros(offsets[self.views.len()]);
        for v in 0..self.views.len() {
            self.view_residuals(v, &mut out.as_mut_slice()[offsets[v]..offsets[v + 1]]);
        }
        out
    }

    /// A copy moved by `step` along parameter `index`.
    pub(crate) fn nudged(&self, index: usize, step: f64) -> Bundle<'a> {
        let mut moved = self.clone();
        let mut params = self.params.clone();
        params[index] += step;
        moved.set_params(&params);
        moved
    }
}

/// Where a stand tag lies, given its fitted x, y and turn.
fn placement(tag: &StandTag, place: &[f64; 3]) -> TagPlacement {
    TagPlacement {
        center: TablePoint::new(place[0], place[1]),
        facing: Degrees(place[2].to_degrees()),
        size: tag.size,
        height: tag.height,
    }
}

fn project(camera: &Camera, point: &TablePoint3) -> PixelPoint {
    camera
        .project(point)
        .unwrap_or(PixelPoint::new(BEHIND_CAMERA, BEHIND_CAMERA))
}

impl LeastSquaresProblem<f64, Dyn, Dyn> for Bundle<'_> {
    type ResidualStorage = Owned<f64, Dyn>;
    type JacobianStorage = Owned<f64, Dyn, Dyn>;
    type ParameterStorage = Owned<f64, Dyn>;

    fn set_params(&mut self, x: &DVector<f64>) {
        self.params.copy_from(x);
        for (i, param) in self.free.iter().enumerate() {
            param.set(&mut self.lens, x[i]);
        }
        for v in 0..self.views.len() {
            let o = self.pose_offset(v);
            let turn = Rotation3::new(Vector3::new(x[o], x[o + 1], x[o + 2]));
            self.poses[v] = CameraPose {
                rotation: turn * self.base_rotations[v],
                translation: Vector3::new(x[o + 3], x[o + 4], x[o + 5]),
            };
            for s in 0..self.stands[v].len() {
                let o = self.stand_offset(v, s);
                self.stands[v][s] = [x[o], x[o + 1], x[o + 2]];
            }
        }
    }

    fn params(&self) -> DVector<f64> {
        self.params.clone()
    }

    fn residuals(&self) -> Option<DVector<f64>> {
        Some(self.all_residuals())
    }

    fn jacobian(&self) -> Option<DMatrix<f64>> {
        let offsets = self.row_offsets();
        let rows = offsets[self.views.len()];
        let mut jacobian = DMatrix::zeros(rows, self.params.len());
        for i in 0..self.free.len() {
            let column = i;
            let (ahead, behind) = (
                self.nudged(column, LENS_STEP).all_residuals(),
                self.nudged(column, -LENS_STEP).all_residuals(),
            );
            jacobian.set_column(column, &((ahead - behind) / (2.0 * LENS_STEP)));
        }
        for v in 0..self.views.len() {
            let (start, end) = (offsets[v], offsets[v + 1]);
            let mut ahead = vec![0.0; end - start];
            let mut behind = vec![0.0; end - start];
            for k in 0..6 {
                let column = self.pose_offset(v) + k;
                let step = if k < 3 {
                    ROTATION_STEP
                } else {
                    TRANSLATION_STEP
                };
                self.nudged(column, step).view_residuals(v, &mut ahead);
                self.nudged(column, -step).view_residuals(v, &mut behind);
                for r in 0..end - start {
                    jacobian[(start + r, column)] = (ahead[r] - behind[r]) / (2.0 * step);
                }
            }
            let known = self.views[v].known.len();
            for (s, tag) in self.views[v].stands.iter().enumerate() {
                let row = start + 8 * (known + s);
                for (k, step) in STAND_STEP.iter().enumerate() {
                    let column = self.stand_offset(v, s) + k;
                    let (mut ahead, mut behind) = ([0.0; 8], [0.0; 8]);
                    let mut place = self.stands[v][s];
                    place[k] += step;
                    self.tag_residuals(v, known + s, &placement(tag, &place).corners(), &mut ahead);
                    place[k] -= 2.0 * step;
                    self.tag_residuals(
                        v,
                        known + s,
                        &placement(tag, &place).corners(),
                        &mut behind,
                    );
                    for r in 0..8 {
                        jacobian[(row + r, column)] = (ahead[r] - behind[r]) / (2.0 * step);
                    }
                }
            }
        }
        Some(jacobian)
    }
}

/// Where a stand tag seen by a camera lies, if it sits at its height: its centre where the ray
/// through the sighting's centre meets that height, its turn from its bottom edge's middle to
/// its top edge's middle.
pub(crate) fn stand_from_camera(camera: &Camera, tag: &StandTag) -> Option<TagPlacement> {
    let c = tag.sighting.corners;
    let on_table = |p: &PixelPoint| camera.unproject_at(p, tag.height);
    let centre = on_table(&tag.sighting.center())?;
    let mid = |a: PixelPoint, b: PixelPoint| PixelPoint::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
    let bottom = on_table(&mid(c[0], c[1]))?;
    let top = on_table(&mid(c[3], c[2]))?;
    let up = top - bottom;
    Some(TagPlacement {
        center: centre,
        facing: Degrees(up.y.atan2(up.x).to_degrees()),
        size: tag.size,
        height: tag.height,
    })
}
