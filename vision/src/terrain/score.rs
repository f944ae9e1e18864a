//! How well found terrain agrees with the truth: which pieces were found, how well their
//! footprints overlap (IoU), whether their kinds are right, how far their boundaries lie off.
//!
//! Decisions:
//! - A line piece (a wall, a hedge) is compared as the band [`LINE_WIDTH`] wide round its line:
//!   the rules use its line, and a band lets one overlap measure serve both.
//! - A true piece is found when a found piece overlaps it with an IoU of at least
//!   [`MATCHED`]; each found piece matches one true piece at most, best overlaps first.
//! - The boundary error is measured from the true boundary, every tenth of an inch, to the
//!   found one: what a player sees as "the outline is off by …".

use geo::{Area, BooleanOps, Distance, Euclidean};
use rules::geometry::TablePoint;
use rules::scene::{TerrainDoc, TerrainKind};

use crate::synthetic::band;

/// The width a line piece is compared at, inches.
pub const LINE_WIDTH: f64 = 0.6;
/// The least IoU that counts as finding a piece.
pub const MATCHED: f64 = 0.3;

/// One true piece and what was found of it.
#[derive(Clone, Debug)]
pub struct PieceScore {
    /// The true piece's id and kind.
    pub truth: (String, TerrainKind),
    /// The found piece matched to it: its id, kind and IoU.
    pub found: Option<(String, TerrainKind, f64)>,
    /// Distances from the true boundary to the found one, inches.
    pub boundary: Vec<f64>,
}

/// The score of one table.
#[derive(Clone, Debug)]
pub struct TableScore {
    /// Each true piece.
    pub pieces: Vec<PieceScore>,
    /// Found pieces that match no true piece.
    pub false_pieces: Vec<String>,
}

/// A piece's footprint: its polygon, or the band round its line.
pub fn footprint(doc: &TerrainDoc) -> Option<geo::Polygon<f64>> {
    let points = match (&doc.polygon, &doc.line) {
        (Some(p), _) => p.clone(),
        (None, Some(line)) if line.len() >= 2 => band(line, LINE_WIDTH),
        _ => return None,
    };
    Some(geo::Polygon::new(
        points.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>().into(),
        vec![],
    ))
}

/// Intersection over union of two footprints.
pub fn iou(a: &geo::Polygon<f64>, b: &geo::Polygon<f64>) -> f64 {
    let inter = a.intersection(b).unsigned_area();
    let union = a.unsigned_area() + b.unsigned_area() - inter;
    if union <= 0.0 { 0.0 } else { inter / union }
}

/// Score found pieces against the truth.
pub fn score(truth: &[TerrainDoc], found: &[TerrainDoc]) -> TableScore {
    let true_feet: Vec<_> = truth.iter().map(footprint).collect();
    let found_feet: Vec<_> = found.iter().map(footprint).collect();
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (t, tf) in true_feet.iter().enumerate() {
        for (f, ff) in found_feet.iter().enumerate() {
            if let (Some(tf), Some(ff)) = (tf, ff) {
                let overlap = iou(tf, ff);
                if overlap >= MATCHED {
                    pairs.push((overlap, t, f));
                }
            }
        }
    }
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (mut true_taken, mut found_taken) = (vec![None; truth.len()], vec![false; found.len()]);
    for (overlap, t, f) in pairs {
        if true_taken[t].is_none() && !found_taken[f] {
            true_taken[t] = Some((f, overlap));
            found_taken[f] = true;
        }
    }
    let pieces = truth
        .iter()
        .zip(&true_taken)
        .map(|(doc, taken)| {
            let found_doc = taken.map(|(f, _)| &found[f]);
            PieceScore {
                truth: (doc.id.clone(), doc.kind),
                found: taken.map(|(f, overlap)| (found[f].id.clone(), found[f].kind, overlap)),
                boundary: found_doc
                    .map(|f| boundary_error(doc, f))
                    .unwrap_or_default(),
            }
        })
        .collect();
    let false_pieces = found
        .iter()
        .zip(&found_taken)
        .filter(|(_, taken)| !**taken)
        .map(|(doc, _)| doc.id.clone())
        .collect();
    TableScore {
        pieces,
        false_pieces,
    }
}

/// The kinds a player would not tell apart for the rules' sake count as one.
pub fn same_kind(a: TerrainKind, b: TerrainKind) -> bool {
    let rough = |k| {
        matches!(
            k,
            TerrainKind::Rough | TerrainKind::VeryRough | TerrainKind::ExtremelyRough
        )
    };
    a == b || (rough(a) && rough(b))
}

/// Distances from points along the true piece's outline (or line) to the found one's.
fn boundary_error(truth: &TerrainDoc, found: &TerrainDoc) -> Vec<f64> {
    let along = |doc: &TerrainDoc| -> Vec<TablePoint> {
        match (&doc.polygon, &doc.line) {
            (Some(p), _) => {
                let mut ring = p.clone();
                ring.push(p[0]);
                ring
            }
            (None, Some(line)) => line.clone(),
            _ => Vec::new(),
        }
    };
    let (t, f) = (along(truth), along(found));
    if t.len() < 2 || f.len() < 2 {
        return Vec::new();
    }
    let found_line: geo::LineString<f64> = f.iter().map(|p| (p.x, p.y)).collect();
    t.windows(2)
        .flat_map(|w| {
            let steps = ((w[1] - w[0]).norm() / 0.1).ceil().max(1.0) as usize;
            (0..steps).map(move |k| w[0] + (w[1] - w[0]) * (k as f64 / steps as f64))
        })
        .map(|p| Euclidean.distance(&geo::Point::new(p.x, p.y), &found_line))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(id: &str, kind: TerrainKind, x: f64, size: f64) -> TerrainDoc {
        TerrainDoc {
            id: id.into(),
            kind,
            polygon: Some(vec![
                TablePoint::new(x, 0.0),
                TablePoint::new(x + size, 0.0),
                TablePoint::new(x + size, size),
                TablePoint::new(x, size),
            ]),
            line: None,
            height: None,
            rise: None,
            crest: None,
        }
    }

    #[test]
    fn a_piece_shifted_a_tenth_of_its_size_matches_and_a_stray_one_is_false() {
        let truth = [square("wood-1", TerrainKind::Wood, 0.0, 10.0)];
        let found = [
            square("wood-1", TerrainKind::Wood, 1.0, 10.0),
            square("rough-1", TerrainKind::Rough, 40.0, 5.0),
        ];
        let score = score(&truth, &found);
        let (_, kind, overlap) = score.pieces[0].found.clone().expect("matched");
        assert_eq!(kind, TerrainKind::Wood);
        assert!((overlap - 90.0 / 110.0).abs() < 1e-9, "IoU {overlap}");
        assert_eq!(score.false_pieces, vec!["rough-1".to_string()]);
        let worst = score.pieces[0].boundary.iter().copied().fold(0.0, f64::max);
        assert!((worst - 1.0).abs() < 1e-9, "boundary off {worst}");
    }
}
