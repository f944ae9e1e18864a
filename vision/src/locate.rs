//! From tag corners in pixels to tags, stands and units in table inches.

use std::collections::HashMap;

use calibration::{PixelPoint, Pixels, TableCalibration, TagSighting};
use rules::Scene;
use rules::geometry::{TablePoint, TableVector, facing_of};
use rules::ground::Ground;
use rules::scene::{CommanderDoc, SceneDoc, SceneError, StandDoc, TableDoc, TerrainDoc};
use rules::units::{Degrees, Inches};
use serde::{Deserialize, Serialize};

use crate::partial::{self, PartialUnit};
use crate::scatter::Scatter;
use crate::uncertainty::{
    Placed, TagUncertainty, shape_misfit, size_rise, stand_sd, tag_uncertainty,
};
use roster::{Roster, TagMount, TagOwner};

/// Tags whose centre lies further than this outside the table are not trusted.
pub const TABLE_MARGIN: Inches = Inches(1.0);

/// A tag placed on the table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TagPose {
    /// Its id.
    pub id: u32,
    /// Its centre, table inches.
    pub center: TablePoint,
    /// Where its top points, degrees counter-clockwise from +x.
    pub facing: Degrees,
    /// The height it was placed at.
    pub height: Inches,
    /// Its side as measured on the table: a check on the size and height the roster gives.
    pub measured_size: Inches,
    /// Its side in the image.
    pub pixels: Pixels,
    /// How far it may be off (one standard deviation; its height taken as stated).
    #[serde(rename = "sd")]
    pub uncertainty: TagUncertainty,
}

/// Place a tag seen in the image at `height` above the table: each corner where its pixel ray
/// crosses that height, the centre their mean, the facing from the two pairs of sides.
pub fn tag_pose(
    calibration: &TableCalibration,
    sighting: &TagSighting,
    height: Inches,
) -> Option<TagPose> {
    let camera = &calibration.camera;
    let mut corners = [TablePoint::origin(); 4];
    for (out, pixel) in corners.iter_mut().zip(&sighting.corners) {
        *out = camera.unproject_at(pixel, height)?;
    }
    let [bl, br, tr, tl] = corners;
    let up = ((tl - bl) + (tr - br)) / 2.0;
    let right = ((br - bl) + (tr - tl)) / 2.0;
    // Two estimates of the facing: the tag's sides, and its top and bottom turned a quarter
    // left. A side's direction on the table is spoiled by corner noise across it; under an
    // oblique camera, noise across the sides is magnified when the top and bottom are
    // foreshortened, and the other way round. So the sides' estimate weighs by the top and
    // bottom's squared length in pixels, and the ends' by the sides' (p95 facing error on the
    // accuracy benchmark: 0.51° for a plain mean, 0.44° weighted).
    let [pbl, pbr, ptr, ptl] = sighting.corners;
    let up_pixels = (pbl.distance(&ptl).0 + pbr.distance(&ptr).0) / 2.0;
    let right_pixels = (pbl.distance(&pbr).0 + ptl.distance(&ptr).0) / 2.0;
    let from_sides = facing_of(up);
    let from_ends = facing_of(TableVector::new(-right.y, right.x));
    let (sides_weight, ends_weight) = (right_pixels * right_pixels, up_pixels * up_pixels);
    let apart = from_sides.turn_to(from_ends).0;
    let facing = Degrees(
        (from_sides.0 + apart * ends_weight / (sides_weight + ends_weight)).rem_euclid(360.0),
    );
    let center = TablePoint::from((bl.coords + br.coords + tr.coords + tl.coords) / 4.0);
    let placed = Placed {
        sighting,
        corners,
        height,
        ends_share: ends_weight / (sides_weight + ends_weight),
    };
    Some(TagPose {
        id: sighting.id,
        center,
        facing,
        height,
        measured_size: Inches((up.norm() + right.norm()) / 2.0),
        pixels: Pixels(sighting.side()),
        uncertainty: tag_uncertainty(calibration, &placed)?,
    })
}

/// How far down a tag's ray is walked at a time looking for the ground it meets first, inches
/// of height (at 55° from vertical, 0.14" across the table: a hill is crossed in many steps).
const GROUND_STEP: Inches = Inches(0.1);
/// Halvings of the last step once the ray has passed into the ground.
const GROUND_HALVINGS: usize = 12;

/// Place a tag on a stand standing on `ground`: `height` above the ground under it. The tag is
/// where its ray, walked down from above the highest ground, first comes within `height` of
/// the ground under it: the first ground the camera's line of sight meets, as the tag in the
/// picture is. (Settling on the ground under the tag's place on the cloth, and again under
/// that, can settle on the cloth beyond a hill: a tag 3" up seen from 55° lies 4.3" from where
/// its ray meets the cloth, past a hill's foot.) The tag is taken as level at the ground's
/// height under its centre: on a 17° slope a 1" tag's edges are 0.15" above and below it,
/// which moves its corners, not its centre, to first order.
pub fn tag_pose_on(
    calibration: &TableCalibration,
    sighting: &TagSighting,
    height: Inches,
    ground: &Ground,
) -> Option<TagPose> {
    if ground.is_flat() {
        return tag_pose(calibration, sighting, height);
    }
    let under = ground_met(calibration, sighting, height, ground)?;
    let mut pose = tag_pose(calibration, sighting, height + under)?;
    // Ground learnt from a stand is as uncertain as that stand's height was: the error bar
    // carries it along the tag's ray.
    let unsure = ground.height_sd_at(&pose.center);
    if unsure > Inches::ZERO {
        pose.uncertainty.covariance = pose.uncertainty.with_height(unsure);
    }
    Some(pose)
}

/// The ground's height under a tag `height` above it, where its ray first meets it. The point
/// of a ray at a height moves in a straight line with the height (the mean of the corners'
/// rays, each a line), so two unprojections give all of it.
fn ground_met(
    calibration: &TableCalibration,
    sighting: &TagSighting,
    height: Inches,
    ground: &Ground,
) -> Option<Inches> {
    let centre_at = |at: Inches| -> Option<TableVector> {
        let mut sum = TableVector::zeros();
        for pixel in &sighting.corners {
            sum += calibration.camera.unproject_at(pixel, at)?.coords;
        }
        Some(sum / 4.0)
    };
    let low = centre_at(height)?;
    let per_inch = centre_at(height + Inches(1.0))? - low;
    // The ground under the ray where it is `up` inches above the tag's height over the cloth.
    let ground_under = |up: f64| ground.height_at(&TablePoint::from(low + per_inch * up)).0;
    let clear = |up: f64| up > ground_under(up);
    let mut up = ground.highest().0;
    let mut last_clear = up + GROUND_STEP.0;
    while up > 0.0 && clear(up) {
        last_clear = up;
        up -= GROUND_STEP.0;
    }
    let mut below = up.max(0.0);
    for _ in 0..GROUND_HALVINGS {
        let middle = (below + last_clear) / 2.0;
        if clear(middle) {
            last_clear = middle;
        } else {
            below = middle;
        }
    }
    Some(Inches(ground_under(below)))
}

/// What a tag in view is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "role")]
pub enum TagRole {
    /// One of the table's anchors.
    Anchor,
    /// On a stand of a unit.
    Stand {
        /// The unit's id.
        unit: String,
        /// 1-based stand number.
        stand: usize,
    },
    /// On a commander's base.
    Commander {
        /// His id.
        commander: String,
    },
    /// Not in the roster (or no roster given).
    Unknown,
}

/// A tag seen in a frame, placed and identified.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LocatedTag {
    /// Where it is.
    #[serde(flatten)]
    pub pose: TagPose,
    /// What it is.
    #[serde(flatten)]
    pub role: TagRole,
}

/// Something about the tags in view that the player should know.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "problem")]
pub enum TagProblem {
    /// A tag the roster does not list.
    Unknown {
        /// Its id.
        id: u32,
        /// Where it was seen.
        at: TablePoint,
    },
    /// The same id seen more than once: neither sighting is trusted.
    Duplicate {
        /// Its id.
        id: u32,
        /// Where each was seen.
        at: Vec<TablePoint>,
    },
    /// A tag whose centre is off the table.
    OffTable {
        /// Its id.
        id: u32,
        /// Where it was seen.
        at: TablePoint,
    },
    /// A tag whose ray never comes down to its height (seen above the horizon).
    Unplaceable {
        /// Its id.
        id: u32,
    },
}

impl std::fmt::Display for TagProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let xy = |p: &TablePoint| format!("({:.2}, {:.2})", p.x, p.y);
        match self {
            TagProblem::Unknown { id, at } => {
                write!(f, "tag {id} at {} is not in the roster", xy(at))
            }
            TagProblem::Duplicate { id, at } => {
                let places: Vec<String> = at.iter().map(xy).collect();
                write!(
                    f,
                    "tag {id} is in view {} times (at {}): every stand needs its own tag, so neither is used",
                    at.len(),
                    places.join(" and ")
                )
            }
            TagProblem::OffTable { id, at } => {
                write!(f, "tag {id} at {} is off the table: ignored", xy(at))
            }
            TagProblem::Unplaceable { id } => {
                write!(f, "tag {id} cannot be placed on the table from this view")
            }
        }
    }
}

/// The tags of one frame, placed and sorted out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameTags {
    /// Tags trusted, with what they are.
    pub tags: Vec<LocatedTag>,
    /// Tags not trusted, and why.
    pub problems: Vec<TagProblem>,
    /// How far the tags' corners scatter against the noise model; their error bars are widened
    /// by it.
    pub scatter: Scatter,
    /// Stand tags whose size in the picture says they stand higher than the roster states, and
    /// by how much (their bars carry it).
    pub raised: Vec<(u32, Inches)>,
}

impl FrameTags {
    /// Why these tags' error bars are wider than the camera's model alone says, in words.
    pub fn doubts(&self) -> Vec<String> {
        let mut doubts: Vec<String> = self.scatter.describe().into_iter().collect();
        if !self.raised.is_empty() {
            let named: Vec<String> = self
                .raised
                .iter()
                .take(4)
                .map(|(id, rise)| format!("tag {id} by {:.1}\"", rise.0))
                .collect();
            doubts.push(format!(
                "{} stand tag(s) look higher than the roster says ({}): on ground Vedette does not know? — their error bars carry it",
                self.raised.len(),
                named.join(", ")
            ));
        }
        doubts
    }
}

/// Place every tag of a frame on flat cloth. Anchors are placed at their own height, roster
/// tags at theirs, and anything else at `default_height`.
pub fn locate_tags(
    calibration: &TableCalibration,
    roster: Option<&Roster>,
    sightings: &[TagSighting],
    default_height: Inches,
) -> FrameTags {
    locate_tags_on(
        calibration,
        roster,
        sightings,
        default_height,
        &Ground::flat(),
    )
}

/// Place every tag of a frame as [`locate_tags`] does, each but the anchors on the ground
/// under it (the hills whose rise is known: see [`rules::ground`]).
pub fn locate_tags_on(
    calibration: &TableCalibration,
    roster: Option<&Roster>,
    sightings: &[TagSighting],
    default_height: Inches,
    ground: &Ground,
) -> FrameTags {
    let mounts: HashMap<u32, TagMount> = roster.map(Roster::mounts).unwrap_or_default();
    let anchors: HashMap<u32, Inches> = calibration
        .anchors
        .iter()
        .map(|a| (a.anchor.id, Inches(a.anchor.height)))
        .collect();
    let mut by_id: HashMap<u32, Vec<&TagSighting>> = HashMap::new();
    for s in sightings {
        by_id.entry(s.id).or_default().push(s);
    }
    let mut ids: Vec<u32> = by_id.keys().copied().collect();
    ids.sort_unstable();
    let mut out = FrameTags {
        tags: Vec::new(),
        problems: Vec::new(),
        scatter: Scatter::none(calibration.camera.intrinsics.image_size),
        raised: Vec::new(),
    };
    for id in ids {
        let (height, role) = match (anchors.get(&id), mounts.get(&id), roster) {
            (Some(&h), _, _) => (h, TagRole::Anchor),
            (None, Some(mount), Some(roster)) => (mount.height, role_of(roster, mount.owner)),
            _ => (default_height, TagRole::Unknown),
        };
        // Anchors lie where their file says, whatever the ground.
        let ground = if role == TagRole::Anchor {
            &Ground::flat()
        } else {
            ground
        };
        let poses: Vec<TagPose> = by_id[&id]
            .iter()
            .filter_map(|s| tag_pose_on(calibration, s, height, ground))
            .collect();
        match poses.as_slice() {
            [] => out.problems.push(TagProblem::Unplaceable { id }),
            [pose] if !calibration.table.contains(&pose.center, TABLE_MARGIN) => {
                out.problems.push(TagProblem::OffTable {
                    id,
                    at: pose.center,
                })
            }
            [pose] => {
                if role == TagRole::Unknown && roster.is_some() {
                    out.problems.push(TagProblem::Unknown {
                        id,
                        at: pose.center,
                    });
                }
                out.tags.push(LocatedTag { pose: *pose, role });
            }
            many => out.problems.push(TagProblem::Duplicate {
                id,
                at: many.iter().map(|p| p.center).collect(),
            }),
        }
    }
    scale_by_scatter(calibration, &by_id, ground, &mut out);
    widen_raised(calibration, &mounts, &mut out);
    out
}

/// Widen the bar of every stand tag whose size says it stands higher than stated, along its
/// ray, and name it (see [`size_rise`]). The sizes are read against the frame's own: the
/// detector draws a tag's edges in by a share that grows as the tag narrows (about
/// c / side², c the same for every tag of one picture), and a printer scales every tag alike.
fn widen_raised(
    calibration: &TableCalibration,
    mounts: &HashMap<u32, TagMount>,
    out: &mut FrameTags,
) {
    let stand = |tag: &LocatedTag| match tag.role {
        TagRole::Anchor | TagRole::Unknown => None,
        _ => mounts.get(&tag.pose.id).map(|m| m.size),
    };
    let side_squared = |tag: &LocatedTag| tag.pose.pixels.0.powi(2);
    let mut drawn_in: Vec<f64> = out
        .tags
        .iter()
        .filter_map(|tag| {
            let size = stand(tag)?;
            Some((1.0 - tag.pose.measured_size.0 / size.0) * side_squared(tag))
        })
        .collect();
    drawn_in.sort_by(f64::total_cmp);
    // Corners noisier than the model's read sizes as much less surely.
    let scatter = out.scatter.picture().max(1.0);
    let drawn_in = if drawn_in.len() >= SIZES_FOR_BIAS {
        drawn_in[drawn_in.len() / 2]
    } else {
        0.0
    };
    for tag in &mut out.tags {
        let Some(size) = stand(tag) else {
            continue;
        };
        let typical = (1.0 - drawn_in / side_squared(tag).max(1.0)).max(0.5);
        let measured = Inches(tag.pose.measured_size.0 / typical);
        let pose = &mut tag.pose;
        if let Some(rise) = size_rise(
            &calibration.camera,
            size,
            measured,
            pose.height,
            (pose.pixels.0, scatter),
        ) {
            pose.uncertainty.covariance = pose.uncertainty.with_height(rise);
            out.raised.push((pose.id, rise));
        }
    }
}

/// Stand tags a frame needs for its own reading of how far the detector draws edges in.
const SIZES_FOR_BIAS: usize = 5;

/// Scale every placed tag's error bar by how far the picture's corners scatter where it lies,
/// and it strays itself (see [`crate::scatter`]).
fn scale_by_scatter(
    calibration: &TableCalibration,
    sightings: &HashMap<u32, Vec<&TagSighting>>,
    ground: &Ground,
    out: &mut FrameTags,
) {
    let camera = &calibration.camera;
    // Each placed tag's misfit, in order (NaN where it has none: its part's factor serves).
    let misfits: Vec<(PixelPoint, f64)> = out
        .tags
        .iter()
        .map(|tag| {
            let Some(sighting) = sightings.get(&tag.pose.id).and_then(|s| s.first()) else {
                return (PixelPoint::new(f64::NAN, f64::NAN), f64::NAN);
            };
            let misfit = shape_misfit(camera, sighting, tag.pose.height).unwrap_or(f64::NAN);
            (sighting.center(), misfit)
        })
        .collect();
    out.scatter = Scatter::of(camera.intrinsics.image_size, &misfits);
    let own = calibration.uncertainty();
    for (tag, (at, misfit)) in out.tags.iter_mut().zip(&misfits) {
        let factor = out.scatter.for_tag(at, *misfit);
        if factor != 1.0 {
            // The ground's doubt, which `tag_pose_on` carried, is no corner's.
            let ground_sd = match tag.role {
                TagRole::Anchor => Inches::ZERO,
                _ => ground.height_sd_at(&tag.pose.center),
            };
            let widened = tag.pose.uncertainty.scattered(factor, &own, ground_sd);
            tag.pose.uncertainty = widened;
        }
    }
}

fn role_of(roster: &Roster, owner: TagOwner) -> TagRole {
    match owner {
        TagOwner::Stand { unit, stand } => TagRole::Stand {
            unit: roster.units[unit].id.clone(),
            stand: stand + 1,
        },
        TagOwner::Commander(i) => TagRole::Commander {
            commander: roster.commanders[i].id.clone(),
        },
    }
}

/// What the tags said of the roster beyond the scene they make.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Sighted {
    /// Units and commanders with no tag in view: left off the table.
    pub unseen: Vec<String>,
    /// Units seen by some of their stands and not others (see [`crate::partial`]).
    pub partial: Vec<PartialUnit>,
}

/// The scene the roster's tags describe on a calibrated table, from the tags' poses: the one
/// step from placed tags to a scene, as the app takes it each frame and `vedette locate` takes
/// it from a picture. An anchor's pose is left out (an anchor's id in a roster is noted
/// elsewhere; its place is the anchor's, never a stand's), and the table is the calibration's;
/// so is the relative error of every length the scene carries (see [`crate::uncertainty`]).
pub fn scene_on_table<'a>(
    roster: &Roster,
    calibration: &TableCalibration,
    poses: impl IntoIterator<Item = &'a TagPose>,
    terrain: Vec<TerrainDoc>,
    source: &str,
) -> Result<(Scene, Sighted), SceneError> {
    let is_anchor = |id: u32| calibration.anchors.iter().any(|a| a.anchor.id == id);
    let poses: HashMap<u32, TagPose> = poses
        .into_iter()
        .filter(|pose| !is_anchor(pose.id))
        .map(|pose| (pose.id, *pose))
        .collect();
    let table = TableDoc {
        width: calibration.table.width,
        depth: calibration.table.depth,
    };
    let (mut scene, sighted) = build_scene(roster, &poses, table, terrain, source)?;
    // Every length the calibration measures shares its scale's error.
    let own = calibration.uncertainty();
    scene.length_sd = Some(own.length);
    scene.frame_sd = Some(own.frame);
    Ok((scene, sighted))
}

/// The scene the roster's tags describe: every unit whose stands were all seen, or enough of
/// them for its formation to say where the others are (see [`crate::partial`]); every
/// commander seen. What was not seen, or only partly, is said in [`Sighted`].
pub fn build_scene(
    roster: &Roster,
    poses: &HashMap<u32, TagPose>,
    table: TableDoc,
    terrain: Vec<TerrainDoc>,
    source: &str,
) -> Result<(Scene, Sighted), SceneError> {
    let mut sighted = Sighted::default();
    let mut units = Vec::new();
    let height_sd = Inches(roster.tags.height_sd);
    for unit in &roster.units {
        let seen: Vec<(usize, StandDoc)> = unit
            .stands
            .iter()
            .enumerate()
            .filter_map(|(i, stand)| {
                let pose = poses.get(&stand.tag)?;
                let (center, facing) = stand.pose_from_tag(pose.center, pose.facing);
                let sd = stand_sd(stand, &pose.uncertainty, facing, height_sd);
                Some((
                    i,
                    StandDoc {
                        center,
                        facing: facing.0,
                        width: stand.width,
                        depth: stand.depth,
                        sd: Some(sd.to_doc()),
                    },
                ))
            })
            .collect();
        if seen.is_empty() {
            sighted.unseen.push(unit.id.clone());
            continue;
        }
        let stands = if seen.len() == unit.stands.len() {
            seen.into_iter().map(|(_, stand)| stand).collect()
        } else {
            let filled = partial::fill_in(unit, &seen);
            let unseen_stands = (0..unit.stands.len())
                .filter(|i| seen.iter().all(|(j, _)| j != i))
                .map(|i| (i + 1, unit.stands[i].tag))
                .collect();
            sighted.partial.push(PartialUnit {
                unit: unit.id.clone(),
                unseen_stands,
                placed: filled
                    .as_ref()
                    .map(|(_, formation)| *formation)
                    .map_err(Clone::clone),
            });
            match filled {
                Ok((stands, _)) => stands,
                Err(_) => continue,
            }
        };
        units.push(unit.on_table(stands));
    }
    let commanders = roster
        .commanders
        .iter()
        .filter_map(|c| {
            let pose = poses.get(&c.tag).or_else(|| {
                sighted.unseen.push(c.id.clone());
                None
            })?;
            Some(CommanderDoc {
                id: c.id.clone(),
                name: c.name.clone(),
                side: c.side.clone(),
                brigade: c.brigade.clone(),
                position: pose.center,
                mounted: c.mounted,
                staff_rating: c.staff_rating,
                sd: None,
            })
        })
        .collect();
    let doc = SceneDoc {
        sides: roster.sides.clone(),
        terrain,
        commanders,
        ..SceneDoc::units_on(roster.ruleset, table, units)
    };
    Ok((Scene::from_doc(doc, source)?, sighted))
}
