//! Found terrain drawn on the picture it was found in, for a player to check at a glance: each
//! piece's outline (or line) where it lies on the cloth, with its id; pieces the finder is sure
//! of in solid white, proposed ones in yellow.

use calibration::{Camera, TablePoint3};
use opencv::core::{Mat, Point, Scalar, Vector};
use opencv::imgproc;
use opencv::prelude::*;
use rules::geometry::TablePoint;

use super::FoundPiece;
use crate::VisionError;

/// Sure pieces, BGR.
const SURE: (f64, f64, f64) = (240.0, 240.0, 240.0);
/// Proposed pieces, BGR.
const PROPOSED: (f64, f64, f64) = (40.0, 220.0, 250.0);

/// A copy of `picture` with `pieces` drawn on it through `camera`.
pub fn draw(picture: &Mat, camera: &Camera, pieces: &[FoundPiece]) -> Result<Mat, VisionError> {
    let mut out = picture.clone();
    let thickness = (picture.cols().max(picture.rows()) / 800).max(1) + 1;
    for piece in pieces {
        let (points, closed) = match (&piece.doc.polygon, &piece.doc.line) {
            (Some(polygon), _) => (polygon, true),
            (None, Some(line)) => (line, false),
            _ => continue,
        };
        let pixels = projected(camera, points);
        if pixels.len() < 2 {
            continue;
        }
        let (b, g, r) = if piece.proposed() { PROPOSED } else { SURE };
        let colour = Scalar::new(b, g, r, 0.0);
        let mut rings: Vector<Vector<Point>> = Vector::new();
        rings.push(pixels.iter().copied().collect());
        imgproc::polylines(
            &mut out,
            &rings,
            closed,
            colour,
            thickness,
            imgproc::LINE_AA,
            0,
        )?;
        let label = if piece.proposed() {
            format!("{}?", piece.doc.id)
        } else {
            piece.doc.id.clone()
        };
        let at = pixels[0];
        imgproc::put_text(
            &mut out,
            &label,
            Point::new(at.x + 4, at.y - 4),
            imgproc::FONT_HERSHEY_SIMPLEX,
            0.45 * f64::from(thickness - 1),
            colour,
            thickness,
            imgproc::LINE_AA,
            false,
        )?;
    }
    Ok(out)
}

/// A copy of `picture` with the true terrain `docs` drawn on it in green, thin: what a bench
/// holds found terrain against.
pub fn truth(
    picture: &Mat,
    camera: &Camera,
    docs: &[rules::scene::TerrainDoc],
) -> Result<Mat, VisionError> {
    let mut out = picture.clone();
    for doc in docs {
        let (points, closed) = match (&doc.polygon, &doc.line) {
            (Some(polygon), _) => (polygon, true),
            (None, Some(line)) => (line, false),
            _ => continue,
        };
        let mut rings: Vector<Vector<Point>> = Vector::new();
        rings.push(projected(camera, points).into_iter().collect());
        let green = Scalar::new(60.0, 220.0, 60.0, 0.0);
        imgproc::polylines(&mut out, &rings, closed, green, 1, imgproc::LINE_AA, 0)?;
    }
    Ok(out)
}

/// Table points on the cloth as the picture's pixels (those behind the camera left out).
fn projected(camera: &Camera, points: &[TablePoint]) -> Vec<Point> {
    points
        .iter()
        .filter_map(|p| camera.project(&TablePoint3::new(p.x, p.y, 0.0)))
        .map(|p| Point::new(p.x.round() as i32, p.y.round() as i32))
        .collect()
}
