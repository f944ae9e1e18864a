//! The bundle adjustment: the lens, each view's camera pose and each stand tag's place on the
//! table, fitted together to every tag corner seen, with the Levenberg–Marquardt solver of the
//! `levenberg-marquardt` crate (MINPACK's algorithm).
//!
//! The stands are projected out (variable projection): the solver sees only the lens numbers
//! the model frees, the detector's edge bias (below), and per view a small rotation (applied
//! before the view's starting rotation, so the solver never meets the rotation vector's wrap at
//! 180°, where a camera looking straight down sits) and a translation. Each stand tag's x, y
//! and turn is solved to its best for every value of those — a small problem of its own for
//! the same solver — and the Jacobian is projected past each stand's three numbers: the Schur
//! complement of bundle adjustment. A dense solve over every stand's numbers costs the cube of
//! their count (90 s for 180 sightings); this costs milliseconds a step, and the covariance of
//! what remains is the same. Residuals: per tag corner, the pixel the model puts it at less the
//! pixel it was seen at, times the corner's robust weight.
//!
//! The detector is modelled, not assumed ideal: it puts a tag's edges inside the black
//! square's by an amount that grows as the tag narrows across the edge (measured against the
//! truth on the synthetic camera: 0.05 px at 28 px across, 0.15 px at 13 px), and through a
//! bending lens it fits straight lines to bent edges (see [`EdgeBias`]). A fit that took the
//! stand tags' printed size as seen would bend the lens to explain both, so the bias's numbers
//! are fitted with the rest, the stand tags' apart from the known tags'.
//!
//! The Jacobian is by central differences, block by block: a lens number moves every corner, a
//! pose only its view's corners, a stand's place only its own four. That keeps it cheap without
//! hand-derived derivatives of the distortion model that could drift from [`crate::camera`].

use levenberg_marquardt::{LeastSquaresProblem, LevenbergMarquardt};
use nalgebra::{DMatrix, DVector, Dyn, Owned, Rotation3, SMatrix, Vector3};
use rules::geometry::TablePoint;
use rules::units::Degrees;

use super::model::{LensModel, LensParam};
use super::view::{LensView, StandTag, Surface};
use crate::camera::{Camera, CameraPose, Intrinsics, TablePoint3};
use crate::pixels::PixelPoint;
use crate::tag::TagPlacement;

/// Stands solved on one thread at least: fewer are not worth a thread's start.
const STANDS_PER_THREAD: usize = 8;

/// A corner that falls behind the camera during a trial step is this far off, so the solver
/// backs away from the step instead of failing.
const BEHIND_CAMERA: f64 = 1e4;

/// Central-difference steps, in each parameter's own units.
const LENS_STEP: f64 = 1e-6;
const ROTATION_STEP: f64 = 1e-7;
const TRANSLATION_STEP: f64 = 1e-5;
const STAND_STEP: [f64; 3] = [1e-5, 1e-5, 1e-6];
const EDGE_STEP: f64 = 1e-4;

/// The prior's spreads (one standard deviation): the principal point's offset from the middle,
/// in picture widths, the tangential terms and the edge biases' numbers (pixels); and a
/// corner's noise, pixels, which turns them into residuals commensurate with the corners'.
const CENTRE_SPREAD: f64 = 0.02;
const TANGENTIAL_SPREAD: f64 = 0.005;
const EDGE_SPREAD: f64 = 1.0;
pub(super) const CORNER_NOISE: f64 = 0.15;

/// The problem's state: where the solver is, and everything to turn that into residuals.
#[derive(Clone)]
pub(crate) struct Bundle<'a> {
    views: &'a [LensView],
    free: &'static [LensParam],
    lens: Intrinsics,
    /// The detector's edge biases, the known tags' and the stand tags' (see [`EdgeBias`]).
    edge: [EdgeBias; 2],
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
            edge: [EdgeBias::default(); 2],
            base_rotations: poses.iter().map(|p| p.rotation).collect(),
            poses,
            stands,
            weights,
            params: DVector::zeros(0),
        };
        bundle.params = bundle.pack();
        bundle.solve_stands();
        bundle
    }

    fn pack(&self) -> DVector<f64> {
        let mut values: Vec<f64> = self.free.iter().map(|p| p.get(&self.lens)).collect();
        values.extend(self.edge.iter().flat_map(|e| e.0));
        for pose in &self.poses {
            values.extend([0.0, 0.0, 0.0]);
            values.extend(pose.translation.iter());
        }
        DVector::from_vec(values)
    }

    /// Start the next solve from here: the rotations found become the new starting ones.
    pub(crate) fn rebase(&mut self, model: LensModel) {
        self.free = model.free();
        self.base_rotations = self.poses.iter().map(|p| p.rotation).collect();
        self.params = self.pack();
        self.solve_stands();
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
        match index {
            i if i < lens => LENS_STEP,
            i if i < lens + EDGE_NUMBERS => EDGE_STEP,
            i if (i - self.globals()) % 6 < 3 => ROTATION_STEP,
            _ => TRANSLATION_STEP,
        }
    }

    /// How the residuals move as each anchor (a known tag of a table view; one anchor, one
    /// place, in every view that sees it) moves an inch along the table's x, then its y: one
    /// vector each, the corners' weights applied, nought in every other row.
    pub(crate) fn anchor_shifts(&self) -> Vec<DVector<f64>> {
        const STEP: f64 = 1e-3;
        let offsets = self.row_offsets();
        let rows = offsets[self.views.len()] + self.prior_residuals().len();
        let table_views = || {
            self.views
                .iter()
                .enumerate()
                .filter(|(_, view)| view.surface == Surface::Table)
        };
        let mut ids: Vec<u32> = table_views()
            .flat_map(|(_, view)| view.known.iter().map(|k| k.sighting.id))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let mut shifts = Vec::with_capacity(2 * ids.len());
        for id in ids {
            for axis in [Vector3::x(), Vector3::y()] {
                let mut moved = DVector::zeros(rows);
                for (v, view) in table_views() {
                    for (k, known) in view.known.iter().enumerate() {
                        if known.sighting.id != id {
                            continue;
                        }
                        let corners = known.placement.corners();
                        let (mut ahead, mut behind) = ([0.0; 8], [0.0; 8]);
                        self.tag_residuals(v, k, &corners.map(|c| c + axis * STEP), &mut ahead);
                        self.tag_residuals(v, k, &corners.map(|c| c - axis * STEP), &mut behind);
                        for r in 0..8 {
                            moved[offsets[v] + 8 * k + r] = (ahead[r] - behind[r]) / (2.0 * STEP);
                        }
                    }
                }
                shifts.push(moved);
            }
        }
        shifts
    }

    /// How many numbers the fit finds, the stands' included (for degrees of freedom and the
    /// information criterion).
    pub(crate) fn parameter_count(&self) -> usize {
        self.params.len() + 3 * self.stands.iter().map(Vec::len).sum::<usize>()
    }

    /// Solve each stand tag's place for the lens and poses as they are. Each stand's corners
    /// depend on its own place alone, so the stands are solved side by side on the machine's
    /// cores: this runs at every step the solver tries, and is most of a fit's time.
    fn solve_stands(&mut self) {
        let jobs: Vec<(usize, usize)> = (0..self.views.len())
            .flat_map(|v| (0..self.stands[v].len()).map(move |s| (v, s)))
            .collect();
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 8);
        if threads == 1 || jobs.len() < 2 * STANDS_PER_THREAD {
            for &(v, s) in &jobs {
                self.stands[v][s] = self.solve_stand(v, s);
            }
            return;
        }
        let per_thread = jobs.len().div_ceil(threads).max(STANDS_PER_THREAD);
        let this = &*self;
        let solved: Vec<Vec<[f64; 3]>> = std::thread::scope(|scope| {
            let running: Vec<_> = jobs
                .chunks(per_thread)
                .map(|chunk| {
                    let thread = scope.spawn(move || {
                        chunk
                            .iter()
                            .map(|&(v, s)| this.solve_stand(v, s))
                            .collect::<Vec<_>>()
                    });
                    (chunk, thread)
                })
                .collect();
            running
                .into_iter()
                .map(|(chunk, thread)| {
                    // A solve that panicked (it never should) leaves its stands where they were.
                    thread
                        .join()
                        .unwrap_or_else(|_| chunk.iter().map(|&(v, s)| this.stands[v][s]).collect())
                })
                .collect()
        });
        for (&(v, s), place) in jobs.iter().zip(solved.into_iter().flatten()) {
            self.stands[v][s] = place;
        }
    }

    /// One stand tag's best x, y and turn, from where it is now.
    fn solve_stand(&self, v: usize, s: usize) -> [f64; 3] {
        let problem = StandFit {
            bundle: self,
            view: v,
            stand: s,
            place: DVector::from_row_slice(&self.stands[v][s]),
        };
        let (solved, report) = LevenbergMarquardt::new()
            .with_tol(1e-9)
            .with_patience(20)
            .minimize(problem);
        let p = &solved.place;
        if report.termination.was_usage_issue() || !p.iter().all(|x| x.is_finite()) {
            return self.stands[v][s];
        }
        [p[0], p[1], p[2]]
    }

    /// A stand tag's 8 weighted residuals with it at `place`.
    fn stand_residuals(&self, v: usize, s: usize, place: &[f64; 3], out: &mut [f64]) {
        let tag = &self.views[v].stands[s];
        let index = self.views[v].known.len() + s;
        self.tag_residuals(v, index, &placement(tag, place).corners(), out);
    }

    /// A stand tag's 8 × 3 Jacobian at a place.
    fn stand_jacobian(&self, v: usize, s: usize, place: &[f64; 3]) -> SMatrix<f64, 8, 3> {
        let mut jacobian = SMatrix::<f64, 8, 3>::zeros();
        for (k, step) in STAND_STEP.iter().enumerate() {
            let (mut ahead, mut behind) = ([0.0; 8], [0.0; 8]);
            let mut moved = *place;
            moved[k] += step;
            self.stand_residuals(v, s, &moved, &mut ahead);
            moved[k] -= 2.0 * step;
            self.stand_residuals(v, s, &moved, &mut behind);
            for r in 0..8 {
                jacobian[(r, k)] = (ahead[r] - behind[r]) / (2.0 * step);
            }
        }
        jacobian
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

    /// New robust weights; the stands are solved again under them.
    pub(crate) fn set_weights(&mut self, weights: Vec<Vec<[f64; 4]>>) {
        self.weights = weights;
        self.solve_stands();
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
                    .enumerate()
                    .map(|(tag, corners)| self.edge_of(v, tag).seen(&camera, corners))
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

    /// Parameters every corner depends on: the lens's free numbers and the edge bias.
    fn globals(&self) -> usize {
        self.free.len() + EDGE_NUMBERS
    }

    /// The detector's edge bias found.
    pub(crate) fn edge(&self) -> [EdgeBias; 2] {
        self.edge
    }

    /// The edge bias of a view's tag: the known tags' (anchors, the board) or the stand tags'
    /// — printed on other sheets and seen against other surroundings, they are biased apart.
    fn edge_of(&self, v: usize, tag: usize) -> EdgeBias {
        self.edge[usize::from(tag >= self.views[v].known.len())]
    }

    fn pose_offset(&self, v: usize) -> usize {
        self.globals() + 6 * v
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
        let seen_at = self.edge_of(v, tag).seen(&camera, corners);
        for k in 0..4 {
            out[2 * k] = (seen_at[k].x - seen[k].x) * weights[k];
            out[2 * k + 1] = (seen_at[k].y - seen[k].y) * weights[k];
        }
    }

    fn view_residuals(&self, v: usize, out: &mut [f64]) {
        for (tag, corners) in self.object_corners(v).iter().enumerate() {
            self.tag_residuals(v, tag, corners, &mut out[8 * tag..8 * tag + 8]);
        }
    }

    fn all_residuals(&self) -> DVector<f64> {
        let offsets = self.row_offsets();
        let corners = offsets[self.views.len()];
        let prior = self.prior_residuals();
        let mut out = DVector::zeros(corners + prior.len());
        for v in 0..self.views.len() {
            self.view_residuals(v, &mut out.as_mut_slice()[offsets[v]..offsets[v + 1]]);
        }
        out.as_mut_slice()[corners..].copy_from_slice(&prior);
        out
    }

    /// What is known of webcams before any tag is seen, as residuals beside the corners': the
    /// principal point lies near the middle and the tangential terms are small. One picture of
    /// a flat table barely tells a principal point a little off from a camera turned a little;
    /// the prior settles that trade where real lenses are, and many tags outweigh it.
    /// And the detector's edge biases are within a pixel: a picture without stand tags (the
    /// board's) leaves theirs at nought rather than undetermined.
    fn prior_residuals(&self) -> Vec<f64> {
        let lens = self.free.iter().filter_map(|param| {
            let spread = match param {
                LensParam::CentreX | LensParam::CentreY => CENTRE_SPREAD,
                LensParam::P1 | LensParam::P2 => TANGENTIAL_SPREAD,
                _ => return None,
            };
            Some(CORNER_NOISE * param.get(&self.lens) / spread)
        });
        let edges = self
            .edge
            .iter()
            .flat_map(|e| e.0)
            .map(|e| CORNER_NOISE * e / EDGE_SPREAD);
        lens.chain(edges).collect()
    }

    /// A copy moved by `step` along parameter `index`, the stands left where they are.
    pub(crate) fn nudged(&self, index: usize, step: f64) -> Bundle<'a> {
        let mut moved = self.clone();
        let mut params = self.params.clone();
        params[index] += step;
        moved.set_outer(&params);
        moved
    }

    /// Set the lens, edge and poses, leaving the stands where they are.
    fn set_outer(&mut self, x: &DVector<f64>) {
        self.params.copy_from(x);
        for (i, param) in self.free.iter().enumerate() {
            param.set(&mut self.lens, x[i]);
        }
        let lens = self.free.len();
        self.edge = [
            EdgeBias([x[lens], x[lens + 1]]),
            EdgeBias([x[lens + 2], x[lens + 3]]),
        ];
        for v in 0..self.views.len() {
            let o = self.pose_offset(v);
            let turn = Rotation3::new(Vector3::new(x[o], x[o + 1], x[o + 2]));
            self.poses[v] = CameraPose {
                rotation: turn * self.base_rotations[v],
                translation: Vector3::new(x[o + 3], x[o + 4], x[o + 5]),
            };
        }
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

/// A tag's corners, given on the table, where the detector finds them through a camera's lens:
/// where the straight lines it fits to the bent edges meet (see `EdgeBias::apply`), without
/// any edge bias. `None` when a corner is behind the camera. The truth a corner finder's
/// output is held against through a bending lens.
pub fn as_detected(camera: &Camera, corners: &[TablePoint3; 4]) -> Option<[PixelPoint; 4]> {
    let in_front = corners.iter().all(|c| camera.project(c).is_some());
    in_front.then(|| EdgeBias::default().seen(camera, corners))
}

/// A tag's corners as a detector that fits a straight line to each of its edges finds them,
/// from the pixels of its true corners and of its edges' middles (edge k runs from corner k to
/// corner k + 1): the convention of every corner the calibration takes (see
/// `EdgeBias::apply`), for a corner refiner that sees the edges bend to report its corners in.
pub fn straight_edge_corners(
    corners: [PixelPoint; 4],
    middles: [PixelPoint; 4],
) -> [PixelPoint; 4] {
    EdgeBias::default().apply(corners, middles)
}

/// The detector's edge bias: how far outwards of the black square's true edge it puts a tag's
/// edge, in pixels, `.0[0] + .0[1] × REFERENCE_WIDTH / across` where the tag is `across` pixels
/// at right angles to the edge.
/// The steady part is the detector's own; the part that grows as the tag narrows comes of the
/// blur, which spreads a small tag's narrow border cells into their neighbours (without it, a
/// blurred picture's small far tags look smaller than its near ones and the lens bends to
/// explain that: a k1 of 0.007 through a lens without distortion).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct EdgeBias(pub(crate) [f64; EDGE_TERMS]);

/// Where the detector's straight line through a bent edge lies, from the chord (0) to the arc's
/// middle (1).
const LINE_FIT_SHARE: f64 = 2.0 / 3.0;

/// The numbers of the edge bias.
const EDGE_TERMS: usize = 2;
/// The edge biases' numbers, the known tags' and the stand tags'.
const EDGE_NUMBERS: usize = 2 * EDGE_TERMS;
/// The width across, pixels, at which the shrinking part is its coefficient.
pub(crate) const REFERENCE_WIDTH: f64 = 16.0;

impl EdgeBias {
    /// The bias on an edge of a tag this many pixels across at right angles to it.
    pub(crate) fn at(self, across: f64) -> f64 {
        self.0[0] + self.0[1] * REFERENCE_WIDTH / across.max(1.0)
    }

    /// A tag's corners, given on the table, as the detector sees them through a camera: each
    /// edge moved outwards by its bias and by the bend the lens gives it, each corner where its
    /// two moved edges meet.
    fn seen(self, camera: &Camera, corners: &[TablePoint3; 4]) -> [PixelPoint; 4] {
        let pixels = corners.map(|c| project(camera, &c));
        let middles: [PixelPoint; 4] = std::array::from_fn(|k| {
            project(
                camera,
                &nalgebra::center(&corners[k], &corners[(k + 1) % 4]),
            )
        });
        self.apply(pixels, middles)
    }

    /// A tag's corners as the detector sees them, from the pixels of its corners and of its
    /// edges' middles.
    ///
    /// The detector fits a straight line to each edge; through a bending lens the edge is an
    /// arc, and the line fitted to its whole length lies two thirds of the way from the chord
    /// to the arc's middle (the least-squares line through a parabola's evenly spaced points).
    /// Through a wide lens that is a few hundredths of a pixel on a stand tag and a tenth on an
    /// anchor in the picture's corner: small, but the same way every time, and a fit that
    /// ignored it would bend the lens further to explain it.
    fn apply(self, corners: [PixelPoint; 4], middles: [PixelPoint; 4]) -> [PixelPoint; 4] {
        let centre = PixelPoint::mean(&corners);
        // Edge k runs from corner k to corner k + 1: its outward normal, and its bias from how
        // far across the tag is at right angles to it (its border cells' width, foreshortened).
        let edges: [((f64, f64), f64); 4] = std::array::from_fn(|k| {
            let (a, b) = (corners[k], corners[(k + 1) % 4]);
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let length = dx.hypot(dy).max(1e-9);
            let (nx, ny) = (dy / length, -dx / length);
            let outwards =
                nx * ((a.x + b.x) / 2.0 - centre.x) + ny * ((a.y + b.y) / 2.0 - centre.y);
            let normal = if outwards >= 0.0 {
                (nx, ny)
            } else {
                (-nx, -ny)
            };
            let middle = middles[k];
            let bulge = normal.0 * (middle.x - (a.x + b.x) / 2.0)
                + normal.1 * (middle.y - (a.y + b.y) / 2.0);
            (
                normal,
                self.at(2.0 * outwards.abs()) + LINE_FIT_SHARE * bulge,
            )
        });
        std::array::from_fn(|k| {
            let ((a, sa), (b, sb)) = (edges[(k + 3) % 4], edges[k]);
            // The shift d with d·a = sa and d·b = sb.
            let det = a.0 * b.1 - a.1 * b.0;
            if det.abs() < 1e-6 {
                return corners[k];
            }
            PixelPoint::new(
                corners[k].x + (sa * b.1 - sb * a.1) / det,
                corners[k].y + (a.0 * sb - b.0 * sa) / det,
            )
        })
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
        self.set_outer(x);
        self.solve_stands();
    }

    fn params(&self) -> DVector<f64> {
        self.params.clone()
    }

    fn residuals(&self) -> Option<DVector<f64>> {
        Some(self.all_residuals())
    }

    fn jacobian(&self) -> Option<DMatrix<f64>> {
        let offsets = self.row_offsets();
        let rows = offsets[self.views.len()] + self.prior_residuals().len();
        let mut jacobian = DMatrix::zeros(rows, self.params.len());
        for column in 0..self.globals() {
            let step = self.step(column);
            let (ahead, behind) = (
                self.nudged(column, step).all_residuals(),
                self.nudged(column, -step).all_residuals(),
            );
            jacobian.set_column(column, &((ahead - behind) / (2.0 * step)));
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
            // Project each stand's rows past its own three numbers: what is left is how the
            // corners move when the lens or pose moves and the stand follows to its best.
            let known = self.views[v].known.len();
            for s in 0..self.views[v].stands.len() {
                let rows = start + 8 * (known + s);
                let own = self.stand_jacobian(v, s, &self.stands[v][s]);
                let Some(inverse) = (own.transpose() * own).try_inverse() else {
                    continue;
                };
                let block = jacobian.rows(rows, 8).into_owned();
                let projected = &block - own * (inverse * (own.transpose() * &block));
                jacobian.rows_mut(rows, 8).copy_from(&projected);
            }
        }
        Some(jacobian)
    }
}

/// One stand tag's place, the lens and pose held: the inner problem of the projection.
struct StandFit<'b, 'a> {
    bundle: &'b Bundle<'a>,
    view: usize,
    stand: usize,
    place: DVector<f64>,
}

impl StandFit<'_, '_> {
    fn at(&self) -> [f64; 3] {
        [self.place[0], self.place[1], self.place[2]]
    }
}

impl LeastSquaresProblem<f64, Dyn, Dyn> for StandFit<'_, '_> {
    type ResidualStorage = Owned<f64, Dyn>;
    type JacobianStorage = Owned<f64, Dyn, Dyn>;
    type ParameterStorage = Owned<f64, Dyn>;

    fn set_params(&mut self, x: &DVector<f64>) {
        self.place.copy_from(x);
    }

    fn params(&self) -> DVector<f64> {
        self.place.clone()
    }

    fn residuals(&self) -> Option<DVector<f64>> {
        let mut out = [0.0; 8];
        self.bundle
            .stand_residuals(self.view, self.stand, &self.at(), &mut out);
        Some(DVector::from_row_slice(&out))
    }

    fn jacobian(&self) -> Option<DMatrix<f64>> {
        let own = self
            .bundle
            .stand_jacobian(self.view, self.stand, &self.at());
        Some(DMatrix::from_column_slice(8, 3, own.as_slice()))
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

/// The first table picture, or the first picture when there is none.
pub(super) fn table_view(bundle: &Bundle) -> Option<usize> {
    let views = bundle.views();
    views
        .iter()
        .position(|view| view.surface == Surface::Table)
        .or((!views.is_empty()).then_some(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::Distortion;
    use crate::pixels::ImageSize;

    /// A wide barrel lens looking down at a 2" tag that lands in the picture's corner.
    fn corner_tag() -> (Camera, [TablePoint3; 4]) {
        let size = ImageSize {
            width: 1920,
            height: 1080,
        };
        let intrinsics = Intrinsics {
            distortion: Distortion {
                k1: -0.32,
                k2: 0.11,
                ..Distortion::default()
            },
            ..Intrinsics::from_field_of_view(size, Degrees(86.0))
        };
        let eye = TablePoint3::new(0.0, 0.0, 30.0);
        let pose = CameraPose::looking_at(eye, TablePoint3::new(0.0, 0.0, 0.0), Vector3::y());
        let camera = Camera { intrinsics, pose };
        // Near the picture's corner, where the lens bends most.
        let (x, y) = (25.0, 13.0);
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(dx, dy)| TablePoint3::new(x + dx, y + dy, 0.0));
        (camera, corners)
    }

    /// The least-squares line through many pixels of the bent edge from `a` to `b`: a point on
    /// it and its direction.
    fn line_through(camera: &Camera, a: &TablePoint3, b: &TablePoint3) -> (PixelPoint, [f64; 2]) {
        let points: Vec<PixelPoint> = (0..=40)
            .map(|i| project(camera, &(a + (b - a) * (f64::from(i) / 40.0))))
            .collect();
        let mean = PixelPoint::mean(&points);
        let (mut xx, mut xy, mut yy) = (0.0, 0.0, 0.0);
        for p in &points {
            let (dx, dy) = (p.x - mean.x, p.y - mean.y);
            (xx, xy, yy) = (xx + dx * dx, xy + dx * dy, yy + dy * dy);
        }
        let angle = 0.5 * (2.0 * xy).atan2(xx - yy);
        (mean, [angle.cos(), angle.sin()])
    }

    #[test]
    fn the_detector_model_puts_corners_where_straight_lines_through_bent_edges_meet() {
        let (camera, corners) = corner_tag();
        let lines: Vec<_> = (0..4)
            .map(|k| line_through(&camera, &corners[k], &corners[(k + 1) % 4]))
            .collect();
        let detected = as_detected(&camera, &corners).expect("in view");
        let (mut largest_bend, mut worst): (f64, f64) = (0.0, 0.0);
        for k in 0..4 {
            let ((p, u), (q, v)) = (lines[(k + 3) % 4], lines[k]);
            let det = u[0] * v[1] - u[1] * v[0];
            let t = ((q.x - p.x) * v[1] - (q.y - p.y) * v[0]) / det;
            let fitted = PixelPoint::new(p.x + t * u[0], p.y + t * u[1]);
            let plain = project(&camera, &corners[k]);
            largest_bend = largest_bend.max(plain.distance(&fitted).0);
            worst = worst.max(detected[k].distance(&fitted).0);
        }
        assert!(
            worst < 0.01,
            "a corner {worst:.4} px from the lines' meeting"
        );
        // The bend is worth modelling: the plain projection is off by far more.
        assert!(
            largest_bend > 5.0 * worst && largest_bend > 0.05,
            "the bend moves corners only {largest_bend:.3} px"
        );
    }

    #[test]
    fn a_tag_seen_narrower_across_an_edge_is_biased_more_there() {
        let bias = EdgeBias([0.03, -0.15]);
        assert!(bias.at(12.0) < bias.at(24.0));
        // A square tag 20 px across, no lens bend: every edge moves by the same amount.
        let square = [(0.0, 0.0), (20.0, 0.0), (20.0, 20.0), (0.0, 20.0)]
            .map(|(x, y)| PixelPoint::new(x, y));
        let middles: [PixelPoint; 4] = std::array::from_fn(|k| {
            let (a, b) = (square[k], square[(k + 1) % 4]);
            PixelPoint::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0)
        });
        let seen = bias.apply(square, middles);
        let shift = bias.at(20.0);
        assert!((seen[0].x - (0.0 - shift)).abs() < 1e-9 && (seen[0].y + shift).abs() < 1e-9);
        assert!((seen[2].x - (20.0 + shift)).abs() < 1e-9);
    }
}
