//! The table from its anchors: which anchor sightings to trust, the lens when it is not known,
//! and the camera's pose over the table.
//!
//! Decisions:
//! - Anchors, not corners, are the unit of consensus. A covered anchor is simply missing; a
//!   moved or mis-read anchor is wrong as a whole, so RANSAC draws pairs of anchors, fits the
//!   table plane's homography to their eight corners and counts the anchors that agree (through
//!   a known lens, straightened first). The homography knows nothing of an unmeasured lens's
//!   bend, so the anchors it leaves out within its widest tolerance are taken back, and the
//!   camera model judges them all.
//! - An anchor is moved only when it is off by more than its own corners' noise and the fit's
//!   residual allow AND by more than matters on the table ([`MOVED_ANCHOR`]): a false alarm
//!   costs the fourth anchor, which is what catches the next mistake. Which anchor has moved is
//!   the one without which the others agree best (a moved anchor pulls the camera, and the
//!   others off, towards itself); it is dropped so long as three remain.
//! - Without a measured lens, one view of a plane gives one focal length (Zhang's constraints on
//!   the homography, principal point at the image centre, square pixels, no distortion), then
//!   refined with the pose by OpenCV. Looking almost straight down the focal length cannot be
//!   measured from a plane; a typical webcam's is assumed and the calibration says so.

use std::collections::BTreeSet;

use nalgebra::Matrix3;
use rules::units::{Degrees, Inches};

use crate::anchors::{Anchor, AnchorLayout, MIN_ANCHORS_SEEN, TableSize};
use crate::camera::{Camera, Intrinsics, TablePoint3};
use crate::cv::{self, CvError};
use crate::error::CalibrationError;
use crate::pixels::{ImageSize, PixelPoint, Pixels, root_mean_square};
use crate::table::{AnchorFit, LensSource, Quality, RejectedAnchor, TableCalibration};
use crate::tag::{TagPlacement, TagSighting};

/// The horizontal field of view assumed when the anchors cannot measure the lens.
pub const TYPICAL_FIELD_OF_VIEW: Degrees = Degrees(65.0);

/// How to calibrate.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The lens, if already measured (by the board, or a previous calibration).
    pub intrinsics: Option<Intrinsics>,
    /// An anchor no further than this from where the other anchors put it is never called
    /// moved, whatever else is said of it: before the lens is measured, a wide lens bends the
    /// anchors at the picture's corners by tens of pixels. Past it, an anchor is moved when it
    /// is off by more than its own corners' noise allows and by more than matters on the
    /// table (see [`MOVED_ANCHOR`]).
    pub anchor_tolerance: Pixels,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            intrinsics: None,
            anchor_tolerance: Pixels(0.0),
        }
    }
}

/// An anchor off by less than this on the table is kept, however sure the fit is that it is
/// off: a tenth of an inch is about the least a player reads off a tape measure and the least
/// a ruling turns on, and an anchor a little off still places stands better than the three
/// others alone, which catch no mistake at all.
pub const MOVED_ANCHOR: Inches = Inches(0.1);

/// How far (RMS) a corner lies from the truth where the detector finds it on a sharp tag:
/// 0.1–0.4 px on a webcam's picture (refined corners do better; the larger figure keeps an
/// anchor rather than calls it moved).
const CORNER_NOISE: Pixels = Pixels(0.3);

/// A tag narrower than this many pixels is blurred across its cells, and its corners scatter
/// more, in proportion as it narrows.
const SHARP_SIDE: f64 = 16.0;

/// The consensus's widest tolerance, a share of the picture's diagonal: more than a wide
/// webcam bends the picture's corners, less than an anchor moved by inches is off.
pub(crate) const WIDE_CONSENSUS: f64 = 0.06;

/// How many times its expected error an anchor must be off to be called moved. An anchor where
/// its file says is this far out (an RMS over four corners) all but never by chance; the
/// expected error itself is rough, hence the margin.
const MOVED_SIGMAS: f64 = 4.0;

/// One anchor sighting paired with its layout entry.
#[derive(Clone, Copy)]
struct Candidate<'a> {
    anchor: &'a Anchor,
    sighting: &'a TagSighting,
}

impl Candidate<'_> {
    fn table_corners(&self) -> [TablePoint3; 4] {
        self.anchor.placement().corners()
    }
}

/// The table from the anchors seen, as [`calibrate`] finds it, without weighing a lens it did
/// not measure.
pub(crate) fn solve(
    layout: &AnchorLayout,
    sightings: &[TagSighting],
    image_size: ImageSize,
    settings: &Settings,
) -> Result<TableCalibration, CalibrationError> {
    let candidates: Vec<Candidate> = sightings
        .iter()
        .filter_map(|s| {
            layout.anchor(s.id).map(|anchor| Candidate {
                anchor,
                sighting: s,
            })
        })
        .collect();
    let seen: BTreeSet<u32> = candidates.iter().map(|c| c.anchor.id).collect();
    let missing: Vec<u32> = layout
        .anchors
        .iter()
        .map(|a| a.id)
        .filter(|id| !seen.contains(id))
        .collect();
    let seen: Vec<u32> = seen.into_iter().collect();
    if seen.len() < MIN_ANCHORS_SEEN {
        return Err(CalibrationError::TooFewAnchors {
            seen,
            missing,
            layout: layout.anchors.len(),
        });
    }
    let intrinsics = match settings.intrinsics {
        Some(lens) if lens.image_size == image_size => Some(lens),
        Some(lens) => {
            return Err(CalibrationError::SizeMismatch {
                image: image_size,
                lens: lens.image_size,
            });
        }
        None => None,
    };
    // Through a known lens the anchors are compared straightened: the consensus's tolerance is
    // then for anchors moved, not for the lens's bend.
    let straight: Vec<TagSighting> = candidates
        .iter()
        .map(|c| TagSighting {
            id: c.sighting.id,
            corners: match intrinsics {
                Some(lens) => c.sighting.corners.map(|p| lens.undistort(&p)),
                None => c.sighting.corners,
            },
        })
        .collect();
    let straight: Vec<Candidate> = candidates
        .iter()
        .zip(&straight)
        .map(|(c, sighting)| Candidate {
            anchor: c.anchor,
            sighting,
        })
        .collect();
    let consensus = consensus(&straight, image_size)?
        .ok_or_else(|| CalibrationError::NoConsensus { seen: seen.clone() })?;
    let mut trusted: Vec<Candidate> = consensus.iter().map(|&i| candidates[i]).collect();
    let mut warnings = Vec::new();
    let (mut camera, mut lens) = fit_camera(&trusted, image_size, intrinsics, &mut warnings)?;
    // The consensus compares anchors through a homography, which an unmeasured lens's bend
    // defeats: the anchors it left out are taken back, then judged with the camera model.
    if readmit(&candidates, &mut trusted, &camera, image_size) {
        warnings.clear();
        (camera, lens) = fit_camera(&trusted, image_size, intrinsics, &mut warnings)?;
    }
    // Drop the anchor the others show to be moved, while one is and three would remain.
    while trusted.len() > MIN_ANCHORS_SEEN {
        let Some(moved) = most_moved(&trusted, &camera, image_size, intrinsics, settings) else {
            break;
        };
        trusted.remove(moved);
        warnings.clear();
        (camera, lens) = fit_camera(&trusted, image_size, intrinsics, &mut warnings)?;
    }
    let rejected = candidates
        .iter()
        .filter(|c| !trusted.iter().any(|t| std::ptr::eq(t.sighting, c.sighting)))
        .map(|c| {
            let offset = Offset::of(&camera, c, agreement(&camera, &trusted));
            RejectedAnchor {
                id: c.anchor.id,
                seen_at: c.sighting.center(),
                off_by: offset.pixels,
                off_on_table: offset.inches,
            }
        })
        .collect::<Vec<_>>();
    for r in &rejected {
        warnings.push(format!("anchor tag {} seen at {} is {} ({}) from where the other anchors put it: ignored (moved, or a stray tag with its id?)", r.id, r.seen_at, r.off_by, r.off_on_table));
    }
    if trusted.len() == MIN_ANCHORS_SEEN {
        warnings.push("only three anchors trusted: a moved or mis-read anchor could not be caught; keep all four in view when calibrating".into());
    }
    let anchors: Vec<AnchorFit> = trusted.iter().map(|c| fit_of(&camera, c)).collect();
    let quality = quality(&camera, &anchors, layout.table);
    Ok(TableCalibration {
        family: layout.family.clone(),
        table: layout.table,
        camera,
        lens,
        quality,
        anchors,
        rejected,
        missing,
        warnings,
        promise: None,
        unmeasured_lens: None,
        lens_report: None,
    })
}

impl TableCalibration {
    /// Put the camera somewhere else (a pose found with more tags than the anchors) and work
    /// out the anchors' fit and the figures again.
    pub(crate) fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
        for fit in &mut self.anchors {
            let candidate = Candidate {
                anchor: &fit.anchor,
                sighting: &TagSighting {
                    id: fit.anchor.id,
                    corners: fit.seen,
                },
            };
            *fit = fit_of(&camera, &candidate);
        }
        self.quality = quality(&camera, &self.anchors, self.table);
    }
}

/// The largest set of anchor sightings that agree on one table plane (indices into
/// `candidates`), by exhaustive RANSAC over pairs: layouts have a handful of anchors.
fn consensus(
    candidates: &[Candidate],
    image_size: ImageSize,
) -> Result<Option<Vec<usize>>, CvError> {
    // The homography ignores lens distortion and anchor heights: be generous (2 % of the
    // image diagonal); the camera model then judges the anchors. A wide webcam bends the
    // corners of the picture by more than that, so the search is made again at 6 %, and taken
    // when more anchors agree there: an anchor moved by inches is still far outside it.
    let diagonal = image_size.diagonal();
    // Pairs of anchors first (a moved anchor spoils few samples); at the wider tolerance, the
    // homography of three anchors spread over the table, which a bent picture fits better.
    let mut best: Option<Vec<usize>> = None;
    for (share, sample) in [(0.02, 2), (WIDE_CONSENSUS, 3)] {
        if let Some(members) = consensus_within(candidates, share * diagonal, sample)?
            && best.as_ref().is_none_or(|b| members.len() > b.len())
        {
            best = Some(members);
        }
    }
    Ok(best)
}

fn consensus_within(
    candidates: &[Candidate],
    tolerance: f64,
    sample: usize,
) -> Result<Option<Vec<usize>>, CvError> {
    let mut best: Option<(Vec<usize>, f64)> = None;
    for drawn in subsets(candidates.len(), sample) {
        let chosen: Vec<Candidate> = drawn.iter().map(|&i| candidates[i]).collect();
        let ids: BTreeSet<u32> = chosen.iter().map(|c| c.anchor.id).collect();
        if ids.len() < sample {
            continue;
        }
        let Some(h) = plane_homography(&chosen)? else {
            continue;
        };
        let mut members = Vec::new();
        let mut total = 0.0;
        for (k, c) in candidates.iter().enumerate() {
            let error = homography_rms(&h, c);
            let duplicate = members
                .iter()
                .any(|&m: &usize| candidates[m].anchor.id == c.anchor.id);
            if error < tolerance && !duplicate {
                members.push(k);
                total += error;
            }
        }
        let better = match &best {
            None => true,
            Some((b, e)) => members.len() > b.len() || (members.len() == b.len() && total < *e),
        };
        if better && members.len() >= 2 {
            best = Some((members, total));
        }
    }
    Ok(best
        .filter(|(m, _)| m.len() >= MIN_ANCHORS_SEEN)
        .map(|(m, _)| m))
}

/// Every set of `k` indices below `n`, in increasing order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    (k - 1..n)
        .flat_map(|last| {
            subsets(last, k - 1).into_iter().map(move |mut s| {
                s.push(last);
                s
            })
        })
        .collect()
}

fn plane_homography(candidates: &[Candidate]) -> Result<Option<Matrix3<f64>>, CvError> {
    let plan: Vec<(f64, f64)> = candidates
        .iter()
        .flat_map(|c| c.table_corners().map(|p| (p.x, p.y)))
        .collect();
    let pixels: Vec<PixelPoint> = candidates.iter().flat_map(|c| c.sighting.corners).collect();
    cv::homography(&plan, &pixels)
}

fn homography_rms(h: &Matrix3<f64>, c: &Candidate) -> f64 {
    let squares: f64 = c
        .table_corners()
        .iter()
        .zip(&c.sighting.corners)
        .map(|(t, seen)| {
            let p = h * nalgebra::Vector3::new(t.x, t.y, 1.0);
            if p.z.abs() < 1e-12 {
                return f64::INFINITY;
            }
            (p.x / p.z - seen.x).powi(2) + (p.y / p.z - seen.y).powi(2)
        })
        .sum();
    (squares / 4.0).sqrt()
}

/// Each corner's error: how far (pixels) the camera model puts the corner from where it was
/// seen, and how far (inches) the seen corner lands on the table from where it truly lies.
fn corner_errors(
    camera: &Camera,
    placement: &TagPlacement,
    seen: &[PixelPoint; 4],
) -> [(f64, f64); 4] {
    let corners = placement.corners();
    let detected = crate::lens::as_detected(camera, &corners);
    std::array::from_fn(|i| {
        let (truth, seen) = (&corners[i], &seen[i]);
        let pixels = detected.map_or(f64::INFINITY, |d| d[i].distance(seen).0);
        let inches = camera
            .unproject_at(seen, placement.height)
            .map_or(f64::INFINITY, |p| (p.x - truth.x).hypot(p.y - truth.y));
        (pixels, inches)
    })
}

fn corner_rms(camera: &Camera, c: &Candidate) -> f64 {
    let errors = corner_errors(camera, &c.anchor.placement(), &c.sighting.corners);
    root_mean_square(errors.iter().map(|e| e.0))
}

/// How far an anchor lies from where a camera puts it, against what is expected of an anchor
/// where its file says.
#[derive(Clone, Copy, Debug)]
struct Offset {
    /// RMS over its corners.
    pixels: Pixels,
    /// The same on the table, where it lies.
    inches: Inches,
    /// The RMS expected of it: its corners' noise, and how well the camera fits anchors that
    /// have not moved.
    expected: Pixels,
}

impl Offset {
    /// How far anchor `c` lies from where `camera` puts it; `agreement` is how well the camera
    /// fits anchors that have not moved (see [`agreement`]).
    fn of(camera: &Camera, c: &Candidate, agreement: Pixels) -> Offset {
        let pixels = corner_rms(camera, c);
        let placement = c.anchor.placement();
        let inches = camera
            .inches_per_pixel(&placement.center, placement.height)
            .map_or(f64::INFINITY, |per_pixel| pixels * per_pixel);
        // A narrow tag's corners scatter more; the anchors' 2" tags seldom are narrow.
        let noise = CORNER_NOISE.0 * (SHARP_SIDE / c.sighting.side()).max(1.0);
        Offset {
            pixels: Pixels(pixels),
            inches: Inches(inches),
            expected: Pixels(noise.hypot(agreement.0)),
        }
    }

    /// Whether the anchor is off by more than `floor`, by more than its expected error allows,
    /// and by more than matters on the table. A false alarm costs the fourth anchor, the one
    /// that catches the next mistake; an anchor a little off costs less.
    fn too_far(&self, floor: Pixels) -> bool {
        self.pixels > floor
            && self.pixels.0 > MOVED_SIGMAS * self.expected.0
            && self.inches > MOVED_ANCHOR
    }
}

/// How well a camera fits some anchors: RMS over their corners (0 for none).
fn agreement(camera: &Camera, anchors: &[Candidate]) -> Pixels {
    let rms = root_mean_square(anchors.iter().flat_map(|c| {
        corner_errors(camera, &c.anchor.placement(), &c.sighting.corners).map(|e| e.0)
    }));
    Pixels(if rms.is_finite() { rms } else { 0.0 })
}

/// Take back the anchors the consensus left out (its homography knows nothing of an unmeasured
/// lens's bend) that `camera`, fitted without them, puts within the consensus's widest
/// tolerance; whether any was. Of two sightings of one id, one at most. Whether one taken back
/// has moved after all is judged with the others (see [`most_moved`]).
fn readmit<'a>(
    candidates: &[Candidate<'a>],
    trusted: &mut Vec<Candidate<'a>>,
    camera: &Camera,
    image_size: ImageSize,
) -> bool {
    let before = trusted.len();
    let widest = WIDE_CONSENSUS * image_size.diagonal();
    for c in candidates {
        let taken = trusted.iter().any(|t| t.anchor.id == c.anchor.id);
        if !taken && corner_rms(camera, c) < widest {
            trusted.push(*c);
        }
    }
    trusted.len() > before
}

/// The anchor that has moved, if one has. The suspect is the anchor without which the others
/// agree best: a moved anchor left in pulls the camera towards itself, and puts the others off
/// instead, so its own offset may be the smaller. One has moved when some anchor of the fit
/// (`camera`, fitted to all of `trusted`) is too far off for the agreement the others reach
/// without the suspect, and the suspect lies too far from where they put it (see
/// [`Offset::too_far`]). A suspect whose others cannot be fitted is not judged.
fn most_moved(
    trusted: &[Candidate],
    camera: &Camera,
    image_size: ImageSize,
    given: Option<Intrinsics>,
    settings: &Settings,
) -> Option<usize> {
    let (suspect, agreed, alone) = (0..trusted.len())
        .filter_map(|i| {
            let mut others = trusted.to_vec();
            let suspect = others.remove(i);
            let (without, _) = fit_camera(&others, image_size, given, &mut Vec::new()).ok()?;
            let agreed = agreement(&without, &others);
            Some((i, agreed, Offset::of(&without, &suspect, agreed)))
        })
        .min_by(|a, b| a.1.0.total_cmp(&b.1.0))?;
    let floor = settings.anchor_tolerance;
    let something_moved = trusted
        .iter()
        .any(|c| Offset::of(camera, c, agreed).too_far(floor));
    (something_moved && alone.too_far(floor)).then_some(suspect)
}

/// The camera from trusted anchors: the lens if not given, then the pose.
fn fit_camera(
    trusted: &[Candidate],
    image_size: ImageSize,
    given: Option<Intrinsics>,
    warnings: &mut Vec<String>,
) -> Result<(Camera, LensSource), CvError> {
    let table: Vec<TablePoint3> = trusted.iter().flat_map(|c| c.table_corners()).collect();
    let pixels: Vec<PixelPoint> = trusted.iter().flat_map(|c| c.sighting.corners).collect();
    if let Some(intrinsics) = given {
        let pose = cv::solve_pose(&table, &pixels, &intrinsics)?;
        let camera = Camera { intrinsics, pose };
        // Through a bending lens the detector's corners lie off the true ones (it fits
        // straight lines to bent edges: a tenth of a pixel or more on a large anchor in the
        // picture's corner); take that off and solve again.
        let Some(straightened) = straightened(&camera, trusted) else {
            return Ok((camera, LensSource::Given));
        };
        let pose = cv::solve_pose(&table, &straightened, &intrinsics)?;
        return Ok((Camera { intrinsics, pose }, LensSource::Given));
    }
    let guess = match plane_homography(trusted)?.and_then(|h| focal_from_homography(&h, image_size))
    {
        Some(focal) => Intrinsics {
            focal_x: Pixels(focal),
            focal_y: Pixels(focal),
            ..Intrinsics::from_field_of_view(image_size, TYPICAL_FIELD_OF_VIEW)
        },
        None => {
            warnings.push(format!(
                "the camera looks almost straight down, so the anchors cannot measure its lens: a {}° field of view is assumed; for the most exact tag-height correction, calibrate the lens with the board",
                TYPICAL_FIELD_OF_VIEW.0
            ));
            let intrinsics = Intrinsics::from_field_of_view(image_size, TYPICAL_FIELD_OF_VIEW);
            let pose = cv::solve_pose(&table, &pixels, &intrinsics)?;
            return Ok((Camera { intrinsics, pose }, LensSource::Assumed));
        }
    };
    let (intrinsics, poses, _) = cv::calibrate_focal(&[(table, pixels)], &guess)?;
    let pose = poses
        .first()
        .copied()
        .ok_or_else(|| CvError::from(opencv::Error::new(0, "no pose")))?;
    Ok((Camera { intrinsics, pose }, LensSource::Anchors))
}

/// The anchors' seen corners less how far the detector puts them off the true ones through
/// this camera's lens.
fn straightened(camera: &Camera, trusted: &[Candidate]) -> Option<Vec<PixelPoint>> {
    let mut out = Vec::with_capacity(4 * trusted.len());
    for c in trusted {
        let corners = c.table_corners();
        let detected = crate::lens::as_detected(camera, &corners)?;
        for (k, seen) in c.sighting.corners.iter().enumerate() {
            let true_corner = camera.project(&corners[k])?;
            out.push(PixelPoint::new(
                seen.x - (detected[k].x - true_corner.x),
                seen.y - (detected[k].y - true_corner.y),
            ));
        }
    }
    Some(out)
}

/// The focal length a plane's homography implies, with the principal point at the image centre
/// and square pixels (Zhang's two constraints on the rotation's first two columns, solved by
/// least squares in 1/f²). `None` when the view is too square-on to tell, or the answer is not
/// a plausible lens (a field of view between 10° and 150°).
fn focal_from_homography(h: &Matrix3<f64>, image_size: ImageSize) -> Option<f64> {
    let c = image_size.center();
    let shift = Matrix3::new(1.0, 0.0, -c.x, 0.0, 1.0, -c.y, 0.0, 0.0, 1.0);
    let h = shift * h;
    let (h1, h2) = (h.column(0), h.column(1));
    // a·w + b = 0 with w = 1/f².
    let rows = [
        (h1[0] * h2[0] + h1[1] * h2[1], h1[2] * h2[2]),
        (
            h1[0] * h1[0] + h1[1] * h1[1] - h2[0] * h2[0] - h2[1] * h2[1],
            h1[2] * h1[2] - h2[2] * h2[2],
        ),
    ];
    let (aa, ab) = rows
        .iter()
        .fold((0.0, 0.0), |(aa, ab), (a, b)| (aa + a * a, ab + a * b));
    let w = -ab / aa;
    // How strongly perspective shows: |h31|, |h32| against the in-plane scale.
    let perspective = (h1[2].hypot(h2[2])) * f64::from(image_size.width) / (h1[0].hypot(h1[1]));
    if !(w.is_finite() && w > 0.0) || perspective < 0.05 {
        return None;
    }
    let focal = w.sqrt().recip();
    let half_width = f64::from(image_size.width) / 2.0;
    let fov = 2.0 * (half_width / focal).atan().to_degrees();
    (10.0..150.0).contains(&fov).then_some(focal)
}

fn fit_of(camera: &Camera, c: &Candidate) -> AnchorFit {
    let errors = corner_errors(camera, &c.anchor.placement(), &c.sighting.corners);
    AnchorFit {
        anchor: *c.anchor,
        seen: c.sighting.corners,
        error: Pixels(root_mean_square(errors.iter().map(|e| e.0))),
        error_on_table: Inches(root_mean_square(errors.iter().map(|e| e.1))),
    }
}

fn quality(camera: &Camera, anchors: &[AnchorFit], table: TableSize) -> Quality {
    let errors: Vec<(f64, f64)> = anchors
        .iter()
        .flat_map(|fit| corner_errors(camera, &fit.anchor.placement(), &fit.seen))
        .collect();
    let worst = |pick: fn(&(f64, f64)) -> f64| errors.iter().map(pick).fold(0.0, f64::max);
    let centre = rules::geometry::TablePoint::new(table.width / 2.0, table.depth / 2.0);
    Quality {
        rms: Pixels(root_mean_square(errors.iter().map(|e| e.0))),
        max: Pixels(worst(|e| e.0)),
        rms_on_table: Inches(root_mean_square(errors.iter().map(|e| e.1))),
        max_on_table: Inches(worst(|e| e.1)),
        tilt: camera.pose.tilt(),
        inches_per_pixel: camera
            .inches_per_pixel(&centre, Inches::ZERO)
            .unwrap_or(f64::NAN),
    }
}
