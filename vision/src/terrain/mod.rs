//! Terrain seen, not typed: every piece of terrain on the table from one calibrated picture, in
//! the scene format, each with how sure the finder is of it.
//!
//! The flow: the picture is rectified onto the table ([`plan`]); the cloth's colour is learnt
//! from the plan itself ([`cloth`]); what differs from the cloth near it is gathered into regions
//! ([`regions`]), stands and anchors kept out, and hills in the cloth's own colour are found by
//! their flanks' light ([`relief`]); each region is judged a kind ([`kinds`]), what stands up is
//! taken back to its footprint ([`lean`]), and each is written as the scene format writes its
//! kind: an area's outline, a wall's or hedge's centre line. Found hills may take their rise
//! from the stands resting on them ([`rise`]); [`draw`] shows what was found on the picture and
//! [`score`] holds it against the truth.
//!
//! Decisions:
//! - OpenCV's own tools (remap, Lab, median, morphology, connected components, contours,
//!   distance transform) and no learned model: nothing to download, it runs in well under a
//!   second on two cores, and every decision can be read and explained to a player
//!   (ARCHITECTURE.md says more).
//! - Stands, figures and anchors are never terrain: the caller names where they are
//!   ([`Keepout`]), from the tags it found, and regions the size of a stand are dropped.
//! - A piece the finder is unsure of is proposed, not used: [`FoundPiece::proposed`].

pub mod cloth;
pub mod draw;
pub mod kinds;
pub mod lean;
pub mod plan;
pub mod regions;
pub mod relief;
pub mod rise;
pub mod score;

use calibration::{Camera, TableSize, TagSighting};
use rules::geometry::TablePoint;
use rules::scene::{TerrainDoc, TerrainKind};
use rules::units::Inches;

use crate::VisionError;
use cloth::Cloth;
use plan::{PER_INCH, Plan};

/// A piece of terrain found in a picture.
#[derive(Clone, Debug)]
pub struct FoundPiece {
    /// The piece as a scene file writes it.
    pub doc: TerrainDoc,
    /// How sure the finder is of it, 0–1.
    pub confidence: f64,
    /// Why it is this kind, in words.
    pub why: String,
}

impl FoundPiece {
    /// Whether it is only proposed: the players confirm it before it is ruled on.
    pub fn proposed(&self) -> bool {
        self.confidence < kinds::SURE
    }
}

/// Everything found in one picture.
#[derive(Clone, Debug)]
pub struct TerrainSurvey {
    /// The pieces, surest first.
    pub pieces: Vec<FoundPiece>,
    /// The share of the table the camera saw.
    pub seen: f64,
}

/// How far round a tag seen nothing is terrain, in the tag's sides: a stand's base with its
/// figures, whichever way the tag is turned on it.
pub const TAG_KEEPOUT: f64 = 1.6;

/// Where something that is not terrain stands: a stand, a commander, an anchor card.
#[derive(Clone, Debug)]
pub struct Keepout(pub Vec<TablePoint>);

impl Keepout {
    /// A disc of `radius` round `centre`.
    pub fn round(centre: TablePoint, radius: Inches) -> Keepout {
        let radius = radius.0;
        Keepout(
            (0..16)
                .map(|k| {
                    let a = std::f64::consts::TAU * k as f64 / 16.0;
                    TablePoint::new(centre.x + radius * a.cos(), centre.y + radius * a.sin())
                })
                .collect(),
        )
    }

    /// A stand's base, `margin` wider all round.
    pub fn base(base: &rules::geometry::OrientedRect, margin: Inches) -> Keepout {
        let grown = rules::geometry::OrientedRect::from_center(
            base.center(),
            base.facing(),
            base.width() + margin * 2.0,
            base.depth() + margin * 2.0,
        );
        Keepout(grown.corners().to_vec())
    }

    /// Round a tag seen in the picture: a disc `reach` times the tag's side round its centre,
    /// where its corners meet the cloth (a stand's tag stands a fraction of an inch above it).
    pub fn round_tag(sighting: &TagSighting, camera: &Camera, reach: f64) -> Option<Keepout> {
        let corners: Vec<TablePoint> = sighting
            .corners
            .iter()
            .map(|c| camera.unproject_at(c, Inches::ZERO))
            .collect::<Option<_>>()?;
        let centre = corners
            .iter()
            .fold(TablePoint::origin(), |s, p| s + p.coords / 4.0);
        let side = (corners[0] - corners[2]).norm() / std::f64::consts::SQRT_2;
        Some(Keepout::round(centre, Inches(reach * side)))
    }
}

/// The stands kept clear of terrain by their tags: those `detected`, and those of `stand_tags`
/// the detector missed, found where the calibrated camera would see them.
pub fn stands_kept_clear(
    picture: &opencv::core::Mat,
    calibration: &calibration::TableCalibration,
    detected: &[TagSighting],
    stand_tags: &std::collections::HashMap<u32, calibration::StandTagSpec>,
) -> Result<Vec<Keepout>, VisionError> {
    let mut seen = detected.to_vec();
    let search = crate::MissingTagSearch::new(calibration, stand_tags)?;
    seen.extend(search.find_in(picture, detected)?);
    Ok(seen
        .iter()
        .filter_map(|s| Keepout::round_tag(s, &calibration.camera, TAG_KEEPOUT))
        .collect())
}

/// Find the terrain on `table` in `picture`, seen through `camera`, never where `keepout` says
/// something else stands.
pub fn find_terrain(
    picture: &opencv::core::Mat,
    camera: &Camera,
    table: TableSize,
    keepout: &[Keepout],
) -> Result<TerrainSurvey, VisionError> {
    let plan = Plan::of(picture, camera, table)?;
    let usable = usable(&plan, keepout);
    let seen = plan.seen.iter().filter(|s| **s).count() as f64 / plan.seen.len().max(1) as f64;
    let cloth = Cloth::learn(&plan, &usable).ok_or_else(|| {
        VisionError::Image("the camera sees none of the table: no cloth to learn".into())
    })?;
    let found: Vec<regions::Region> = regions::regions(&plan, &cloth, &usable)?
        .into_iter()
        .filter(|region| !looks_like_a_stand(region))
        .collect();
    let hills = relief::shaded_hills(&plan, &cloth, &usable, &found)?;
    // A flank found by its shade alone is part of its hill, not a piece of its own.
    let within_hill = |region: &regions::Region| {
        relief::cloth_like(region, &plan, &cloth)
            && hills
                .iter()
                .any(|(hill, _)| share_inside(&region.pixels, &hill.pixels) > 0.6)
    };
    let mut pieces: Vec<FoundPiece> = found
        .iter()
        .filter(|region| !within_hill(region))
        .map(|region| piece(&plan, region, &cloth, camera))
        .collect::<Result<_, _>>()?;
    for (hill, confidence) in hills {
        pieces.push(FoundPiece {
            doc: area_doc(TerrainKind::Hill, hill.outline),
            confidence: (confidence * 100.0).round() / 100.0,
            why: "its flanks lit and shaded as a hill's, in the cloth's own colour".into(),
        });
    }
    pieces.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    name_pieces(&mut pieces);
    Ok(TerrainSurvey { pieces, seen })
}

/// A camera whose lean at a piece is this many plan pixels an inch of height sees its walls
/// (some 17° from vertical).
const SIDE_LEAN: f64 = 3.0;

/// The largest stand with figures, as the plan shows it from the side, square inches.
const LARGEST_STAND: f64 = 7.0;
/// A region showing this much of a tag's paper and of its ink is a stand whose tag the
/// detector could not read (too small, hidden in part), not a piece of terrain.
const PRINTED: f32 = 0.02;

/// The share of `pixels` among `of` (both sorted, as regions keep them).
fn share_inside(pixels: &[usize], of: &[usize]) -> f64 {
    let inside = pixels
        .iter()
        .filter(|k| of.binary_search(k).is_ok())
        .count();
    inside as f64 / pixels.len().max(1) as f64
}

/// Whether a region is a stand the detector missed: stand-sized, with a tag's print on it.
fn looks_like_a_stand(region: &regions::Region) -> bool {
    region.area <= LARGEST_STAND && region.printed >= PRINTED
}

/// The plan's pixels the finder may use: seen, and clear of every keep-out.
fn usable(plan: &Plan, keepout: &[Keepout]) -> Vec<bool> {
    use geo::Contains;
    let mut usable = plan.seen.clone();
    for zone in keepout {
        let polygon = geo::Polygon::new(
            zone.0.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>().into(),
            vec![],
        );
        let (mut lo, mut hi) = (
            TablePoint::new(f64::MAX, f64::MAX),
            TablePoint::new(f64::MIN, f64::MIN),
        );
        for p in &zone.0 {
            (lo.x, lo.y, hi.x, hi.y) = (lo.x.min(p.x), lo.y.min(p.y), hi.x.max(p.x), hi.y.max(p.y));
        }
        let clamp = |v: f64, n: usize| ((v * PER_INCH).max(0.0) as usize).min(n);
        for j in clamp(lo.y, plan.rows)..clamp(hi.y + 0.1, plan.rows) {
            for i in clamp(lo.x, plan.columns)..clamp(hi.x + 0.1, plan.columns) {
                let c = Plan::centre(i, j);
                if polygon.contains(&geo::Point::new(c.x, c.y)) {
                    usable[j * plan.columns + i] = false;
                }
            }
        }
    }
    usable
}

/// A region written as the scene format writes its kind, what stands up taken back to its
/// footprint ([`lean`]).
fn piece(
    plan: &Plan,
    region: &regions::Region,
    cloth: &Cloth,
    camera: &Camera,
) -> Result<FoundPiece, VisionError> {
    let lean = lean::lean_at(camera, &regions::centroid(plan, &region.pixels));
    let walls = lean::wall_height(plan, &region.pixels, lean);
    let upright = walls
        .map(|w| lean::erode(plan, &region.pixels, lean, w.height))
        .and_then(|pixels| regions::rectangle(plan, &pixels))
        .map_or(region.rectangular, |(filled, _)| filled as f32);
    let leaning = kinds::Leaning {
        across: lean_across(region, lean),
        rectangular: upright,
        walls: walls.map(|w| w.steady),
        from_the_side: lean.0.hypot(lean.1) >= SIDE_LEAN,
    };
    let judged = kinds::judge(region, cloth.chroma, leaning);
    let mut why = judged.why;
    let shape = match judged.kind {
        TerrainKind::Building => {
            let rectangular = |pixels: &[usize]| regions::rectangle(plan, pixels).map(|r| r.0);
            let height = walls
                .map(|w| w.height)
                .unwrap_or_else(|| lean::building_height(plan, &region.pixels, lean, rectangular));
            let footprint = lean::erode(plan, &region.pixels, lean, height);
            why.push_str(&format!("; walls and roof {height:.1}\" high"));
            match regions::rectangle(plan, &footprint) {
                Some((filled, corners)) if filled > 0.85 => Shape::Area(corners),
                _ => Shape::Area(outline_of(plan, cloth, footprint, &region.outline)?),
            }
        }
        TerrainKind::Wood => {
            let footprint = lean::erode(plan, &region.pixels, lean, lean::CANOPY_TOP);
            why.push_str(&format!(
                "; its canopies taken as {:.0}\" high",
                lean::CANOPY_TOP
            ));
            Shape::Area(outline_of(plan, cloth, footprint, &region.outline)?)
        }
        TerrainKind::Obstacle => Shape::Line(wall_line(region, lean)),
        _ => Shape::Area(region.outline.clone()),
    };
    let doc = match shape {
        Shape::Area(points) => area_doc(judged.kind, points),
        Shape::Line(points) => TerrainDoc {
            polygon: None,
            line: Some(points),
            ..area_doc(judged.kind, Vec::new())
        },
    };
    Ok(FoundPiece {
        doc,
        confidence: (judged.confidence * 100.0).round() / 100.0,
        why,
    })
}

/// An area piece as the scene format writes it, its id given later.
fn area_doc(kind: TerrainKind, outline: Vec<TablePoint>) -> TerrainDoc {
    TerrainDoc {
        id: String::new(),
        kind,
        polygon: Some(outline),
        line: None,
        height: (kind == TerrainKind::Hill).then_some(1),
        rise: None,
        crest: None,
    }
}

enum Shape {
    Area(Vec<TablePoint>),
    Line(Vec<TablePoint>),
}

/// The outline of what is left of a region; the region's own when too little is left.
fn outline_of(
    plan: &Plan,
    cloth: &Cloth,
    pixels: Vec<usize>,
    fallback: &[TablePoint],
) -> Result<Vec<TablePoint>, VisionError> {
    if pixels.len() < 10 {
        return Ok(fallback.to_vec());
    }
    Ok(regions::measure(plan, cloth, pixels)?
        .map(|r| r.outline)
        .unwrap_or_else(|| fallback.to_vec()))
}

/// How far what stands up in a region leans across its length, inches an inch of height: its
/// lean's part square to the line between its outline's two farthest points.
fn lean_across(region: &regions::Region, lean: (f64, f64)) -> f64 {
    let line = kinds::centre_line(&region.outline, region.width);
    let (Some(first), Some(last)) = (line.first(), line.last()) else {
        return 0.0;
    };
    let along = (last - first).try_normalize(1e-9).unwrap_or_default();
    let (ux, uy) = (lean.0 / PER_INCH, lean.1 / PER_INCH);
    (ux * along.y - uy * along.x).abs()
}

/// A wall's or hedge's centre line, taken back by half its lean: a run is taken to be about as
/// high as it is wide, so of the width seen, `1 + lean across it` parts, one is its height.
fn wall_line(region: &regions::Region, lean: (f64, f64)) -> Vec<TablePoint> {
    let line = kinds::centre_line(&region.outline, region.width);
    let (ux, uy) = (lean.0 / PER_INCH, lean.1 / PER_INCH);
    let (Some(first), Some(last)) = (line.first(), line.last()) else {
        return line;
    };
    let along = (last - first).try_normalize(1e-9).unwrap_or_default();
    // The lean's part across the run.
    let across = (
        ux - along.x * (ux * along.x + uy * along.y),
        uy - along.y * (ux * along.x + uy * along.y),
    );
    let reach = across.0.hypot(across.1);
    let height = region.width / (1.0 + reach);
    line.iter()
        .map(|p| TablePoint::new(p.x - across.0 * height / 2.0, p.y - across.1 * height / 2.0))
        .collect()
}

/// Ids as a player would type them: `wood-1`, `hill-2`, numbered by kind.
fn name_pieces(pieces: &mut [FoundPiece]) {
    let mut counts = std::collections::BTreeMap::new();
    for piece in pieces {
        let kind = piece.doc.kind.as_str();
        let n = counts.entry(kind).or_insert(0);
        *n += 1;
        piece.doc.id = format!("{kind}-{n}");
    }
}
