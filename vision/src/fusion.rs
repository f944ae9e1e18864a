//! One table from several cameras: each camera's placed tags of a moment fused into one pose
//! per tag, in the one table frame every camera was calibrated into from the shared anchors.
//!
//! Decisions:
//! - A tag seen by several cameras is placed from all of them, each reading weighed by how
//!   sure it is: the inverse of its covariance (corner noise through that camera, and that
//!   camera's calibration). Its stated height's error is common to every reading of the tag,
//!   so it is not part of the weights; it is carried through them: cameras on either side of a
//!   tag see a wrong height shift it opposite ways, and the fused pose is shifted by the
//!   weighted sum of their shifts (much less than either when they face each other).
//! - Near the edge of its picture a camera's weight fades to nothing ([`FADE`]): a stand
//!   carried out of one view into the next slides from one camera's reading to the other's
//!   instead of jumping by the cameras' small disagreement, as photographs stitched into a
//!   panorama are feathered across their overlap. The fused covariance is that of the weighted
//!   mean actually taken, not of the ideal one.
//! - A camera's calibration is pinned by the anchors it saw; beyond them it extrapolates, and
//!   its error there grows in a way its error bars do not hold (a webcam over one share of a
//!   long table sees tags far into the next share, 0.1"–0.2" off). So its weight also fades
//!   to nothing over [`BEYOND_ANCHORS`] outside the box its anchors span; a tag no other
//!   camera sees is still placed by it.
//! - Two readings of one tag further apart than both error bars allow (beyond 99.9 %) and than
//!   a misread would put them ([`CONFLICT_PLACE`]: a tag read as another's id lies on another
//!   stand, a tag's width away or more; or [`CONFLICT_FACING`]) are a conflict: the tag is
//!   named with every camera's reading and left out of the table, never guessed between.
//! - Cameras disagree a little near their seams (each calibration's own small error, each
//!   camera's view of a wrong stated height). While several cameras see a tag, each camera's
//!   offset from their consensus there is learnt ([`Agreement`]: a running mean over its last
//!   [`AGREEMENT_FRAMES`] readings); every reading is corrected by its camera's offset before
//!   it is weighed, so when one camera stops seeing the tag (a hand over it in that view) the
//!   others still put it where the consensus had it instead of jumping by the disagreement.
//!   An offset holds only within [`AGREEMENT_RADIUS`] of where it was learnt.
//! - When a camera comes to see a tag the others already place (plugged back in, or its
//!   tracker has just settled the tag), their mean with it may lie some hundredths from their
//!   mean without it, and nothing is learnt yet of how it differs. The tag glides there: it
//!   is shown where the cameras that saw it before place it now, then a share
//!   ([`GLIDE_SHARE`]) of what is left is closed each moment ([`Glide`]). The gap is taken
//!   within one moment's readings, so a stand moving as the camera comes is not held back.
//!   A camera whose offset there is learnt already agrees with the others and is not glided
//!   in: a tag it sees every other frame (small, at its picture's edge) does not pile glide
//!   on glide.
//! - A camera that does not see a tag now (a hand over it, or the stand carried out of its
//!   view) may still hold where it last lay. A held reading counts only when no camera sees the
//!   tag now: a stand carried from one view into the next is where the camera that sees it
//!   says, not in conflict with where the other last saw it.

use std::collections::{BTreeMap, HashMap};

use calibration::TableCalibration;
use nalgebra::{Matrix3, Vector3};
use rules::geometry::{TablePoint, TableVector};
use rules::units::{Degrees, Inches};
use serde::Serialize;

use crate::locate::{LocatedTag, TagPose};
use crate::uncertainty::TagUncertainty;

/// The share of the picture's shorter side over which a camera's weight fades out at its
/// edges: about 86 px of a 1080p picture, four or five tag widths.
pub const FADE: f64 = 0.08;

/// Over this distance outside its anchors' box a camera's weight fades out, table inches.
pub const BEYOND_ANCHORS: Inches = Inches(12.0);

/// Readings of one tag nearer than this, table inches, never conflict, however sure: two
/// cameras' calibrations may disagree by a few tenths far from their anchors.
pub const CONFLICT_PLACE: Inches = Inches(0.5);

/// Facings nearer than this never conflict, however sure.
pub const CONFLICT_FACING: Degrees = Degrees(5.0);

/// A camera's offset from the consensus at a tag is the mean of this many of its last
/// readings, at most.
pub const AGREEMENT_FRAMES: f64 = 30.0;

/// A camera's offset at a tag holds within this of where it was learnt, table inches.
pub const AGREEMENT_RADIUS: Inches = Inches(1.0);

/// The share of what is left between where a tag is shown and where its cameras now place
/// it closed each moment, as it glides (see the module's decisions): a tenth, so a camera
/// joining 0.09" off moves the tag under 0.01" a moment, and it is there in about a second.
pub const GLIDE_SHARE: f64 = 0.1;

/// Beyond this squared Mahalanobis distance two readings are not of one pose: 99.9 % of the
/// chi-squared distribution with 3 degrees of freedom (x, y, facing).
const CHI2_3_999: f64 = 16.266;

/// One camera's tags of one moment.
#[derive(Clone, Copy, Debug)]
pub struct CameraTags<'a> {
    /// The camera's name, as the player gave it ("north", "webcam 2").
    pub camera: &'a str,
    /// Its calibration into the table's frame.
    pub calibration: &'a TableCalibration,
    /// The tags it sees now, placed.
    pub tags: &'a [LocatedTag],
    /// The tags it saw and holds where they last lay, not in view now.
    pub held: &'a [LocatedTag],
}

/// A tag placed from every camera that read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FusedTag {
    /// Where it is and what it is.
    #[serde(flatten)]
    pub tag: LocatedTag,
    /// The cameras that read it, most trusted first.
    pub seen_by: Vec<String>,
}

/// One camera's reading of a tag that another camera read elsewhere.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reading {
    /// The camera.
    pub camera: String,
    /// Where it placed the tag.
    pub at: TablePoint,
    /// Which way it read the tag's top.
    pub facing: Degrees,
}

/// A tag two cameras read differently: named, left out of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Conflict {
    /// The tag.
    pub id: u32,
    /// Every camera's reading of it.
    pub readings: Vec<Reading>,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let readings: Vec<String> = self
            .readings
            .iter()
            .map(|r| {
                format!(
                    "{} at ({:.2}, {:.2}) facing {:.0}°",
                    r.camera, r.at.x, r.at.y, r.facing.0
                )
            })
            .collect();
        write!(
            f,
            "tag {} is read in different places by the cameras ({}): left off the table until they agree",
            self.id,
            readings.join("; ")
        )
    }
}

/// Every tag of a moment, from all the cameras.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FusedTags {
    /// The tags placed, by id.
    pub tags: Vec<FusedTag>,
    /// The tags the cameras disagree on.
    pub conflicts: Vec<Conflict>,
}

impl FusedTags {
    /// The fused poses, as one camera's would be given to [`crate::scene_on_table`].
    pub fn poses(&self) -> impl Iterator<Item = &TagPose> {
        self.tags.iter().map(|t| &t.tag.pose)
    }
}

/// What each camera's readings of each tag have differed from the cameras' consensus, and
/// how each tag glides after a camera came to see it (see the module's decisions): kept from
/// moment to moment by whoever fuses a live table.
#[derive(Clone, Debug, Default)]
pub struct Agreement {
    /// By camera, then by tag.
    offsets: HashMap<String, HashMap<u32, Offset>>,
    /// How each tag glides, by tag.
    glides: HashMap<u32, Glide>,
}

/// Which cameras last placed a tag, and how far it was shown from their mean.
#[derive(Clone, Debug)]
struct Glide {
    cameras: Vec<String>,
    left: TableVector,
}

/// One camera's offset at one tag.
#[derive(Clone, Copy, Debug)]
struct Offset {
    by: TableVector,
    /// Where the consensus was when it was last learnt.
    at: TablePoint,
    /// Readings learnt from.
    count: f64,
}

impl Agreement {
    /// How far `camera`'s reading of tag `id` at `at` is off the consensus, as learnt.
    fn offset(&self, id: u32, camera: &str, at: TablePoint) -> TableVector {
        self.learnt(id, camera, at)
            .map_or(TableVector::zeros(), |o| o.by)
    }

    /// What is learnt of `camera`'s readings of tag `id` near `at`, if anything.
    fn learnt(&self, id: u32, camera: &str, at: TablePoint) -> Option<&Offset> {
        self.offsets
            .get(camera)
            .and_then(|tags| tags.get(&id))
            .filter(|o| (o.at - at).norm() <= AGREEMENT_RADIUS.0)
    }

    /// Where to show `tag`, fused from `readings`, so that it glides when a camera comes to
    /// see it (see the module's decisions).
    fn glide(&mut self, readings: &[Weighed], tag: &mut FusedTag) {
        let id = tag.tag.pose.id;
        let (left, same_cameras) = self.glides.get(&id).map_or_else(
            || (TableVector::zeros(), false),
            |last| {
                let saw = |r: &Weighed| last.cameras.iter().any(|c| c == r.camera);
                // A camera whose offset here is learnt already agrees with the others: it is
                // not glided in, or a tag it sees every other frame would pile glide on glide.
                let agrees =
                    |r: &Weighed| saw(r) || self.learnt(id, r.camera, r.tag.pose.center).is_some();
                let came = readings.iter().any(|r| !agrees(r));
                let kept: Vec<Weighed> = if came {
                    readings.iter().filter(|r| agrees(r)).cloned().collect()
                } else {
                    Vec::new()
                };
                let gap = weighted_mean(&kept).map_or(TableVector::zeros(), |before| {
                    before.tag.pose.center - tag.tag.pose.center
                });
                let same = readings.len() == last.cameras.len() && readings.iter().all(saw);
                (last.left * (1.0 - GLIDE_SHARE) + gap, same)
            },
        );
        tag.tag.pose.center += left;
        match self.glides.get_mut(&id) {
            Some(glide) if same_cameras => glide.left = left,
            _ => {
                let cameras = readings.iter().map(|r| r.camera.to_owned()).collect();
                self.glides.insert(id, Glide { cameras, left });
            }
        }
    }

    /// Learn from readings (already corrected) that fused into `consensus`.
    fn learn(&mut self, id: u32, readings: &[Weighed], consensus: TablePoint) {
        let fresh = Offset {
            by: TableVector::zeros(),
            at: consensus,
            count: 0.0,
        };
        for reading in readings {
            if !self.offsets.contains_key(reading.camera) {
                self.offsets
                    .insert(reading.camera.to_owned(), HashMap::new());
            }
            let Some(tags) = self.offsets.get_mut(reading.camera) else {
                continue;
            };
            let residual = reading.tag.pose.center - consensus;
            let offset = tags.entry(id).or_insert(fresh);
            // Learnt where the stand lay before it moved: start again.
            if (offset.at - consensus).norm() > AGREEMENT_RADIUS.0 {
                *offset = fresh;
            }
            offset.count = (offset.count + 1.0).min(AGREEMENT_FRAMES);
            offset.by += residual / offset.count;
            offset.at = consensus;
        }
    }
}

/// One camera's reading, ready to weigh: its place corrected by its camera's offset there.
#[derive(Clone)]
struct Weighed<'a> {
    camera: &'a str,
    tag: LocatedTag,
    /// Its covariance with its stated height taken as true (x, y, facing in radians).
    covariance: Matrix3<f64>,
    /// How far the edge of the picture fades it, 0 to 1.
    fade: f64,
}

/// Fuse the cameras' tags of one moment, with nothing learnt of how they agree; `height_sd`
/// is how far stated heights may be off (the roster's), which decides how far apart two
/// cameras may read one tag.
pub fn fuse(cameras: &[CameraTags], height_sd: Inches) -> FusedTags {
    fuse_agreeing(cameras, height_sd, &mut Agreement::default())
}

/// Fuse the cameras' tags of one moment, correcting each reading by what `agreement` has
/// learnt of its camera there, and learning from the tags several cameras see.
pub fn fuse_agreeing(
    cameras: &[CameraTags],
    height_sd: Inches,
    agreement: &mut Agreement,
) -> FusedTags {
    let mut by_id: BTreeMap<u32, Vec<Weighed>> = BTreeMap::new();
    let mut held: BTreeMap<u32, Vec<Weighed>> = BTreeMap::new();
    for view in cameras {
        let anchors = AnchorsBox::of(view.calibration);
        let weighed = |tag: &LocatedTag| {
            let mut tag = tag.clone();
            let centre = tag.pose.center;
            tag.pose.center = centre - agreement.offset(tag.pose.id, view.camera, centre);
            Weighed {
                camera: view.camera,
                covariance: tag.pose.uncertainty.covariance,
                fade: edge_fade(view.calibration, &tag.pose) * anchors.fade(tag.pose.center),
                tag,
            }
        };
        for tag in view.tags {
            by_id.entry(tag.pose.id).or_default().push(weighed(tag));
        }
        for tag in view.held {
            held.entry(tag.pose.id).or_default().push(weighed(tag));
        }
    }
    for (id, readings) in held {
        by_id.entry(id).or_insert(readings);
    }
    let mut fused = FusedTags::default();
    for (id, readings) in by_id {
        if let Some(conflict) = conflict(id, &readings, height_sd) {
            tracing::debug!(%conflict, "cameras disagree");
            fused.conflicts.push(conflict);
        } else if let Some(mut tag) = weighted_mean(&readings) {
            let consensus = tag.tag.pose.center;
            // Glided before learning: a camera that comes is glided in on its first moment.
            agreement.glide(&readings, &mut tag);
            if readings.len() > 1 {
                agreement.learn(id, &readings, consensus);
            }
            fused.tags.push(tag);
        }
    }
    fused
}

/// How much a camera's reading counts for being near its picture's edge: nothing at the edge,
/// fully from [`FADE`] of the picture in, smoothly between.
fn edge_fade(calibration: &TableCalibration, pose: &TagPose) -> f64 {
    let camera = &calibration.camera;
    let size = camera.intrinsics.image_size;
    let Some(pixel) = camera.project_at(&pose.center, pose.height) else {
        return 0.0;
    };
    let (width, height) = (f64::from(size.width), f64::from(size.height));
    let inside = pixel
        .x
        .min(pixel.y)
        .min(width - pixel.x)
        .min(height - pixel.y);
    smoothstep(inside / (FADE * width.min(height)))
}

/// The box a camera's anchors span, table inches (none for a calibration without anchors).
struct AnchorsBox(Option<(TablePoint, TablePoint)>);

impl AnchorsBox {
    fn of(calibration: &TableCalibration) -> AnchorsBox {
        AnchorsBox(calibration.anchors.iter().fold(None, |span, fit| {
            let (centre, half) = (fit.anchor.center, fit.anchor.size / 2.0);
            let (low, high) = span.unwrap_or((centre, centre));
            Some((
                TablePoint::new(low.x.min(centre.x - half), low.y.min(centre.y - half)),
                TablePoint::new(high.x.max(centre.x + half), high.y.max(centre.y + half)),
            ))
        }))
    }

    /// How much a camera's reading at `at` counts for lying outside the box: fully inside,
    /// nothing from [`BEYOND_ANCHORS`] out, smoothly between.
    fn fade(&self, at: TablePoint) -> f64 {
        let Some((low, high)) = self.0 else {
            return 1.0;
        };
        let outside = TableVector::new(
            (low.x - at.x).max(at.x - high.x).max(0.0),
            (low.y - at.y).max(at.y - high.y).max(0.0),
        )
        .norm();
        smoothstep(1.0 - outside / BEYOND_ANCHORS.0)
    }
}

/// 0 below 0, 1 above 1, and smoothly between.
fn smoothstep(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The readings' poses as vectors (x, y, facing in radians), the facings unwrapped about the
/// first reading's so that 359° and 1° average to 0°.
fn as_vectors(readings: &[Weighed]) -> Vec<Vector3<f64>> {
    let first = readings.first().map_or(0.0, |r| r.tag.pose.facing.0);
    readings
        .iter()
        .map(|r| {
            let pose = &r.tag.pose;
            let turn = Degrees(first).turn_to(pose.facing).0;
            Vector3::new(pose.center.x, pose.center.y, (first + turn).to_radians())
        })
        .collect()
}

/// The shift of a reading for each inch its tag is higher than stated, as a pose vector.
fn height_shift(tag: &LocatedTag) -> Vector3<f64> {
    let per = tag.pose.uncertainty.per_height;
    Vector3::new(per.x, per.y, 0.0)
}

/// A conflict if any two readings are further apart than their error bars and than matters.
fn conflict(id: u32, readings: &[Weighed], height_sd: Inches) -> Option<Conflict> {
    let poses = as_vectors(readings);
    let apart = |i: usize, j: usize| {
        let difference = poses[i] - poses[j];
        let place = difference.xy().norm();
        let facing = difference.z.to_degrees().abs();
        if place <= CONFLICT_PLACE.0 && facing <= CONFLICT_FACING.0 {
            return false;
        }
        let heights =
            (height_shift(&readings[i].tag) - height_shift(&readings[j].tag)) * height_sd.0;
        let spread =
            readings[i].covariance + readings[j].covariance + heights * heights.transpose();
        spread
            .try_inverse()
            .is_none_or(|inverse| difference.dot(&(inverse * difference)) > CHI2_3_999)
    };
    let disagree = (0..readings.len())
        .flat_map(|i| (i + 1..readings.len()).map(move |j| (i, j)))
        .any(|(i, j)| apart(i, j));
    disagree.then(|| Conflict {
        id,
        readings: readings
            .iter()
            .map(|r| Reading {
                camera: r.camera.to_owned(),
                at: r.tag.pose.center,
                facing: r.tag.pose.facing,
            })
            .collect(),
    })
}

/// The readings' weighted mean (see the module's decisions); none if no reading can be
/// weighed.
fn weighted_mean(readings: &[Weighed]) -> Option<FusedTag> {
    let first = readings.first()?;
    if let [only] = readings {
        return Some(FusedTag {
            tag: only.tag.clone(),
            seen_by: vec![only.camera.to_owned()],
        });
    }
    let poses = as_vectors(readings);
    // Each reading's information, faded at its picture's edge (a floor keeps a reading seen
    // only at the very edge of every picture weighable).
    let informations: Vec<Matrix3<f64>> = readings
        .iter()
        .map(|r| r.covariance.try_inverse().map(|i| i * r.fade.max(1e-6)))
        .collect::<Option<_>>()?;
    let total = informations.iter().sum::<Matrix3<f64>>().try_inverse()?;
    let weights: Vec<Matrix3<f64>> = informations.iter().map(|i| total * i).collect();
    let mean: Vector3<f64> = weights.iter().zip(&poses).map(|(w, p)| w * p).sum();
    let covariance: Matrix3<f64> = weights
        .iter()
        .zip(readings)
        .map(|(w, r)| w * r.covariance * w.transpose())
        .sum();
    let shift: Vector3<f64> = weights
        .iter()
        .zip(readings)
        .map(|(w, r)| w * height_shift(&r.tag))
        .sum();
    let mut order: Vec<usize> = (0..readings.len()).collect();
    // Most trusted first: the larger share of the place's information.
    order.sort_by(|&a, &b| weights[b].trace().total_cmp(&weights[a].trace()));
    let pose = &first.tag.pose;
    let fused_pose = TagPose {
        id: pose.id,
        center: TablePoint::new(mean.x, mean.y),
        facing: Degrees(mean.z.to_degrees().rem_euclid(360.0)),
        height: pose.height,
        measured_size: Inches(
            weights
                .iter()
                .zip(readings)
                .map(|(w, r)| w[(0, 0)] * r.tag.pose.measured_size.0)
                .sum(),
        ),
        pixels: readings
            .iter()
            .map(|r| r.tag.pose.pixels)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap_or(pose.pixels),
        uncertainty: TagUncertainty {
            covariance,
            per_height: TableVector::new(shift.x, shift.y),
        },
    };
    Some(FusedTag {
        tag: LocatedTag {
            pose: fused_pose,
            role: first.tag.role.clone(),
        },
        seen_by: order
            .into_iter()
            .map(|i| readings[i].camera.to_owned())
            .collect(),
    })
}
