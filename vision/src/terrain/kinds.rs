//! What kind of terrain a region is, from how it looks: its shape first (a wall is thin, a road
//! or a river a long band, a building a rectangle), then its colour and texture (a wood's
//! canopies dark and busy, rough ground busy with rocks, a hill smooth and near the cloth's
//! colour).
//!
//! Decisions:
//! - Each kind has a score from the region's measures; the best is taken and the gap to the
//!   second is the confidence. A piece whose confidence is under [`SURE`] is proposed to the
//!   players, not ruled on.
//! - River or road is told by blue: water on a table is painted blue-grey or blue-green, roads
//!   are brown, tan or grey. A band with neither is a borderline case the players decide.

use rules::geometry::TablePoint;
use rules::scene::TerrainKind;

use super::regions::Region;

/// A piece this sure of its kind is used at once; below, it is proposed.
pub const SURE: f64 = 0.7;

/// A region's kind, how sure, and why.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The kind.
    pub kind: TerrainKind,
    /// How sure, 0–1.
    pub confidence: f64,
    /// What decided it, in words.
    pub why: String,
}

/// What the camera's lean does to a region's shape.
#[derive(Clone, Copy, Debug)]
pub struct Leaning {
    /// How far (inches an inch of height) what stands up in it leans across its length.
    pub across: f64,
    /// Its area over the smallest rectangle round it, once the lean of walls the picture shows
    /// is taken back (as [`Region::rectangular`] when it shows none).
    pub rectangular: f32,
    /// How steady a band of wall it shows below a roof ([`super::lean::Walls::steady`]), if
    /// it shows one.
    pub walls: Option<f64>,
    /// Whether the camera sees it enough from the side that walls would show.
    pub from_the_side: bool,
}

/// Judge a region against the cloth's chroma `cloth` (Lab a, b).
pub fn judge(region: &Region, cloth: [f32; 2], leaning: Leaning) -> Judged {
    let lean_across = leaning.across;
    let rectangular = leaning.rectangular.max(region.rectangular);
    // Seen from the side, a steady band of wall says it stands up; none, that it lies flat.
    let (stands_up, lies_flat) = match (leaning.walls, leaning.from_the_side) {
        (Some(steady), _) => (ramp(0.3, 0.6, steady), ramp(0.75, 0.45, steady)),
        (None, true) => (0.3, 1.0),
        (None, false) => (1.0, 1.0),
    };
    let blue = f64::from(128.0 - region.colour[2]);
    let chroma_off = (region.colour[1] - cloth[0]).hypot(region.colour[2] - cloth[1]);
    let elongation = region.elongation();
    let width = region.width;
    // Were it a wall or hedge about as high as wide, its own width and length to width.
    let run_width = width / (1.0 + lean_across);
    let run_elongation = region.area / (width * run_width).max(1e-9);
    let scores = [
        (
            TerrainKind::Obstacle,
            ramp(1.5, 1.0, run_width) * ramp(4.0, 8.0, run_elongation),
            format!("{run_width:.1}\" wide and {run_elongation:.0} times as long"),
        ),
        (
            TerrainKind::River,
            band(width, elongation) * ramp(-2.0, 6.0, blue) * lies_flat,
            format!("a band {width:.1}\" wide, blue {blue:.0}"),
        ),
        (
            TerrainKind::Road,
            band(width, elongation) * ramp(2.0, -6.0, blue) * lies_flat,
            format!("a band {width:.1}\" wide, not blue ({blue:.0})"),
        ),
        (
            TerrainKind::Wood,
            ramp(0.15, 0.45, f64::from(region.dark_green))
                * ramp(8.0, 5.0, elongation)
                * ramp(0.4, 1.0, f64::from(region.texture)),
            format!(
                "{:.0} % dark green, busy {:.1}",
                100.0 * region.dark_green,
                region.texture
            ),
        ),
        (
            TerrainKind::Building,
            stands_up
                * ramp(0.78, 0.9, f64::from(rectangular))
                * ramp(45.0, 30.0, region.area)
                * ramp(0.5, 0.25, f64::from(region.dark_green))
                * ramp(6.0, 4.0, elongation),
            format!(
                "a rectangle ({:.0} % filled), {:.0} sq in",
                100.0 * rectangular,
                region.area
            ),
        ),
        (
            TerrainKind::Rough,
            lies_flat
                * ramp(1.2, 2.5, f64::from(region.texture))
                * ramp(0.5, 0.25, f64::from(region.dark_green))
                * ramp(8.0, 5.0, elongation)
                * ramp(0.88, 0.75, f64::from(rectangular)),
            format!(
                "busy {:.1} (rocks), {:.0} sq in",
                region.texture, region.area
            ),
        ),
        (
            TerrainKind::Hill,
            lies_flat
                * ramp(2.2, 1.2, f64::from(region.texture))
                * ramp(22.0, 8.0, f64::from(chroma_off))
                * ramp(15.0, 30.0, region.area)
                * ramp(8.0, 5.0, elongation)
                * ramp(0.92, 0.85, f64::from(rectangular)),
            format!(
                "smooth, near the cloth's colour ({chroma_off:.0} off), {:.0} sq in",
                region.area
            ),
        ),
    ];
    let mut ranked: Vec<&(TerrainKind, f64, String)> = scores.iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (best, second) = (ranked[0], ranked[1]);
    let confidence = if best.1 <= 0.0 {
        0.0
    } else {
        (best.1 * (1.0 - 0.6 * second.1 / best.1)).clamp(0.0, 1.0)
    };
    Judged {
        kind: best.0,
        confidence,
        why: best.2.clone(),
    }
}

/// 0 at `from`, 1 at `to`, straight between (either way round).
fn ramp(from: f64, to: f64, value: f64) -> f64 {
    ((value - from) / (to - from)).clamp(0.0, 1.0)
}

/// How much a region looks like a river's or road's band.
fn band(width: f64, elongation: f64) -> f64 {
    ramp(1.1, 1.6, width) * ramp(7.0, 5.0, width) * ramp(4.0, 7.0, elongation)
}

/// The centre line of a thin region (a wall, a hedge) from its outline: the two points of the
/// outline farthest apart are its ends; the outline's two sides between them, resampled to the
/// same number of points and averaged, are its centre; that is simplified to its corners.
pub fn centre_line(outline: &[TablePoint], width: f64) -> Vec<TablePoint> {
    let n = outline.len();
    if n < 3 {
        return outline.to_vec();
    }
    let (mut a, mut b, mut far) = (0, 0, 0.0);
    for i in 0..n {
        for j in i + 1..n {
            let d = (outline[i] - outline[j]).norm();
            if d > far {
                (a, b, far) = (i, j, d);
            }
        }
    }
    let one: Vec<TablePoint> = (a..=b).map(|k| outline[k]).collect();
    let other: Vec<TablePoint> = (b..=a + n).rev().map(|k| outline[k % n]).collect();
    let samples = ((far / 0.25).ceil() as usize).max(2);
    let (one, other) = (resample(&one, samples), resample(&other, samples));
    let centre: Vec<TablePoint> = one
        .iter()
        .zip(&other)
        .map(|(p, q)| TablePoint::new((p.x + q.x) / 2.0, (p.y + q.y) / 2.0))
        .collect();
    simplify(&centre, (width / 2.0).max(0.3))
}

/// `count` points evenly spaced along a polyline.
fn resample(line: &[TablePoint], count: usize) -> Vec<TablePoint> {
    let lengths: Vec<f64> = line.windows(2).map(|w| (w[1] - w[0]).norm()).collect();
    let total: f64 = lengths.iter().sum();
    let mut out = Vec::with_capacity(count);
    let (mut segment, mut walked) = (0, 0.0);
    for k in 0..count {
        let at = total * k as f64 / (count - 1) as f64;
        while segment + 1 < lengths.len() && walked + lengths[segment] < at {
            walked += lengths[segment];
            segment += 1;
        }
        let share = if lengths.get(segment).copied().unwrap_or(0.0) > 0.0 {
            ((at - walked) / lengths[segment]).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (p, q) = (line[segment], line[(segment + 1).min(line.len() - 1)]);
        out.push(p + (q - p) * share);
    }
    out
}

/// A polyline simplified by geo's Ramer–Douglas–Peucker to within `tolerance`.
fn simplify(line: &[TablePoint], tolerance: f64) -> Vec<TablePoint> {
    use geo::Simplify;
    let string: geo::LineString<f64> = line.iter().map(|p| (p.x, p.y)).collect();
    string
        .simplify(tolerance)
        .points()
        .map(|p| TablePoint::new(p.x(), p.y()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bent_wall_outline_gives_its_centre_line_and_corner() {
        // An L of wall 0.5" thick: along x from (0,0) to (10,0), then up to (10,6).
        let outline = vec![
            TablePoint::new(0.0, -0.25),
            TablePoint::new(10.25, -0.25),
            TablePoint::new(10.25, 6.0),
            TablePoint::new(9.75, 6.0),
            TablePoint::new(9.75, 0.25),
            TablePoint::new(0.0, 0.25),
        ];
        let line = centre_line(&outline, 0.5);
        assert_eq!(line.len(), 3, "{line:?}");
        assert!(
            (line[0] - TablePoint::new(0.0, 0.0)).norm() < 0.3,
            "{line:?}"
        );
        assert!(
            (line[1] - TablePoint::new(10.0, 0.0)).norm() < 0.5,
            "{line:?}"
        );
        assert!(
            (line[2] - TablePoint::new(10.0, 6.0)).norm() < 0.3,
            "{line:?}"
        );
    }
}
