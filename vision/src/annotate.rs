//! Drawing what Vedette understood onto the camera's picture: each tag's outline and id, each
//! unit's stands in perspective at their height, and what was not trusted.

use calibration::{Camera, PixelPoint, TableCalibration};
use opencv::core::{Mat, Point, Scalar, Vector};
use opencv::imgproc;
use rules::Scene;
use rules::ruling::{Shape, ShapeRole};
use rules::units::Inches;

use crate::error::VisionError;
use crate::locate::{FrameTags, TagRole};

const GREEN: (f64, f64, f64) = (60.0, 220.0, 60.0);
const YELLOW: (f64, f64, f64) = (0.0, 220.0, 255.0);
const RED: (f64, f64, f64) = (40.0, 40.0, 230.0);
const SIDES: [(f64, f64, f64); 4] = [
    (60.0, 60.0, 230.0),
    (230.0, 140.0, 40.0),
    (40.0, 200.0, 230.0),
    (200.0, 200.0, 200.0),
];

fn colour((b, g, r): (f64, f64, f64)) -> Scalar {
    Scalar::new(b, g, r, 0.0)
}

fn point(p: PixelPoint) -> Point {
    Point::new(p.x.round() as i32, p.y.round() as i32)
}

/// A copy of `image` with the tags, stands and problems drawn on it. Stands are drawn at
/// `stand_height` (the tag height of the roster), so outlines sit on the bases, not under them.
pub fn annotate(
    image: &Mat,
    calibration: &TableCalibration,
    tags: &FrameTags,
    scene: Option<&Scene>,
    stand_height: Inches,
) -> Result<Mat, VisionError> {
    let mut out = image.clone();
    let camera = &calibration.camera;
    if let Some(scene) = scene {
        let mut sides: Vec<&str> = Vec::new();
        for unit in &scene.units {
            let side = sides
                .iter()
                .position(|s| *s == unit.side)
                .unwrap_or_else(|| {
                    sides.push(&unit.side);
                    sides.len() - 1
                });
            let c = colour(SIDES[side % SIDES.len()]);
            for stand in unit.footprint.stands() {
                let corners: Option<Vec<Point>> = stand
                    .corners()
                    .iter()
                    .map(|p| camera.project_at(p, stand_height).map(point))
                    .collect();
                if let Some(corners) = corners {
                    let polygon: Vector<Vector<Point>> =
                        Vector::from_iter([Vector::from_iter(corners)]);
                    imgproc::polylines(&mut out, &polygon, true, c, 2, imgproc::LINE_AA, 0)?;
                }
            }
            if let Some(at) = camera.project_at(&unit.footprint.leader(), stand_height) {
                label(&mut out, &unit.name, point(at) + Point::new(4, -6), c)?;
            }
        }
    }
    for tag in &tags.tags {
        let Some(corners) = tag_outline(calibration, &tag.pose) else {
            continue;
        };
        let c = match tag.role {
            TagRole::Anchor => colour(YELLOW),
            TagRole::Unknown => colour(RED),
            _ => colour(GREEN),
        };
        let polygon: Vector<Vector<Point>> =
            Vector::from_iter([Vector::from_iter(corners.clone())]);
        imgproc::polylines(&mut out, &polygon, true, c, 1, imgproc::LINE_AA, 0)?;
        label(
            &mut out,
            &tag.pose.id.to_string(),
            corners[3] + Point::new(0, -3),
            c,
        )?;
    }
    let mut line = 24;
    for problem in &tags.problems {
        let text = problem.to_string();
        label(&mut out, &text, Point::new(12, line), colour(RED))?;
        line += 22;
    }
    Ok(out)
}

/// Draw the shapes of rulings (table inches, at table level) onto a picture through the camera:
/// measured lines with their labels, arcs, zones and placements, as an umpire's case file shows
/// them.
pub fn draw_shapes(image: &mut Mat, camera: &Camera, shapes: &[Shape]) -> Result<(), VisionError> {
    let at = |p: &[f64; 2]| {
        camera
            .project_at(&rules::geometry::TablePoint::new(p[0], p[1]), Inches::ZERO)
            .map(point)
    };
    for shape in shapes {
        match shape {
            Shape::Segment {
                role,
                from,
                to,
                label: text,
            } => {
                let (Some(a), Some(b)) = (at(from), at(to)) else {
                    continue;
                };
                let c = colour(role_colour(*role));
                imgproc::line(image, a, b, c, 2, imgproc::LINE_AA, 0)?;
                let middle = Point::new((a.x + b.x) / 2 + 6, (a.y + b.y) / 2 - 6);
                label(image, text, middle, c)?;
            }
            Shape::Polygon { role, points } => {
                let corners: Option<Vec<Point>> = points.iter().map(at).collect();
                let Some(corners) = corners else {
                    continue;
                };
                let polygon: Vector<Vector<Point>> =
                    Vector::from_iter([Vector::from_iter(corners)]);
                let c = colour(role_colour(*role));
                imgproc::polylines(image, &polygon, true, c, 2, imgproc::LINE_AA, 0)?;
            }
        }
    }
    Ok(())
}

fn role_colour(role: ShapeRole) -> (f64, f64, f64) {
    match role {
        ShapeRole::Measure | ShapeRole::Sight => (0.0, 230.0, 255.0),
        ShapeRole::Blocked => RED,
        ShapeRole::Arc | ShapeRole::Zone => (255.0, 200.0, 120.0),
        ShapeRole::Quarter => (200.0, 200.0, 200.0),
        ShapeRole::Placement => GREEN,
    }
}

fn tag_outline(
    calibration: &TableCalibration,
    pose: &crate::locate::TagPose,
) -> Option<Vec<Point>> {
    let placement = calibration::TagPlacement {
        center: pose.center,
        facing: pose.facing,
        size: pose.measured_size,
        height: pose.height,
    };
    placement
        .corners()
        .iter()
        .map(|c| calibration.camera.project(c).map(point))
        .collect()
}

fn label(image: &mut Mat, text: &str, at: Point, c: Scalar) -> Result<(), VisionError> {
    let text = &ascii(text);
    let font = imgproc::FONT_HERSHEY_SIMPLEX;
    imgproc::put_text(
        image,
        text,
        at,
        font,
        0.5,
        colour((0.0, 0.0, 0.0)),
        3,
        imgproc::LINE_AA,
        false,
    )?;
    imgproc::put_text(image, text, at, font, 0.5, c, 1, imgproc::LINE_AA, false)?;
    Ok(())
}

/// OpenCV's built-in fonts are ASCII only: "1er Léger" is written "1er Leger".
fn ascii(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ä' | 'ã' | 'å' => 'a',
            'ç' => 'c',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ñ' => 'n',
            'ò' | 'ó' | 'ô' | 'ö' | 'õ' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'É' | 'È' => 'E',
            c if c.is_ascii() => c,
            _ => '?',
        })
        .collect()
}
