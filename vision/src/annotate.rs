//! Drawing what Vedette understood onto the camera's picture: each tag's outline and id, each
//! unit's stands in perspective at their height, what was not trusted, and the shapes of
//! rulings — for `vedette analyze --annotate` and the umpire's case files alike.

use calibration::{Camera, PixelPoint, TableCalibration};
use opencv::core::{Mat, MatTraitConst, Point, Rect, Scalar, Size, Vector};
use opencv::imgproc;
use rules::Scene;
use rules::ruling::{Shape, ShapeRole};
use rules::units::Inches;

use crate::error::VisionError;
use crate::locate::{FrameTags, TagRole};

pub mod labels;

pub use labels::LabelLayout;

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

/// An annotated picture, and where its labels went.
pub struct Annotated {
    /// The picture with everything drawn on it.
    pub picture: Mat,
    /// Every label drawn, in the order they were placed.
    pub labels: Vec<DrawnLabel>,
    /// The labels that found no free spot near what they name, left out rather than written
    /// over another.
    pub left_out: Vec<String>,
}

/// A label written on the picture.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnLabel {
    /// Its text (ASCII: OpenCV's fonts have no accents).
    pub text: String,
    /// Its box, pixels.
    pub area: Rect,
    /// Whether it was moved away from what it names, a leader line joining them.
    pub moved: bool,
}

/// A label waiting for its place: written after every line, so no line crosses a word.
struct Label {
    text: String,
    anchor: Point,
    colour: Scalar,
    /// Rings of spots it may be moved out to (see [`LabelLayout::place`]).
    reach: i32,
}

/// How far a label may be moved from what it names: a unit's name or a measurement a long
/// way, a tag's id hardly (the unit's name says what the tag is on; a long line to every id
/// made a crowded picture unreadable).
const FAR: i32 = 6;
const NEAR: i32 = 1;

/// A copy of `image` with the tags, stands, problems and the rulings' `shapes` (table inches,
/// at table level: measured lines, arcs, zones, as an umpire's case file shows them) drawn on
/// it. Stands are drawn at `stand_height` (the tag height of the roster), so outlines sit on
/// the bases, not under them. Labels are placed so that none covers another (see
/// [`labels`]), the most useful first: problems, the shapes' measurements, units, tag ids.
pub fn annotate(
    image: &Mat,
    calibration: &TableCalibration,
    tags: &FrameTags,
    scene: Option<&Scene>,
    stand_height: Inches,
    shapes: &[Shape],
) -> Result<Annotated, VisionError> {
    let mut out = image.clone();
    let camera = &calibration.camera;
    let mut labels: Vec<Label> = Vec::new();
    for (k, problem) in tags.problems.iter().enumerate() {
        labels.push(Label {
            text: problem.to_string(),
            anchor: Point::new(8, 24 + 22 * k as i32),
            colour: colour(RED),
            reach: FAR,
        });
    }
    labels.extend(draw_shapes(&mut out, camera, shapes)?);
    let mut names = Vec::new();
    if let Some(scene) = scene {
        for unit in &scene.units {
            let c = colour(SIDES[scene.side_number(&unit.side) % SIDES.len()]);
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
                names.push(Label {
                    text: unit.name.clone(),
                    anchor: point(at),
                    colour: c,
                    reach: FAR,
                });
            }
        }
    }
    labels.extend(names);
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
        labels.push(Label {
            text: tag.pose.id.to_string(),
            anchor: corners[3],
            colour: c,
            reach: NEAR,
        });
    }
    write_labels(out, labels)
}

/// Place every label (see [`LabelLayout`]) and write it, with a leader line to what it names
/// when it had to move away. Every line is drawn before any word, so no line crosses a word.
fn write_labels(mut out: Mat, labels: Vec<Label>) -> Result<Annotated, VisionError> {
    let mut layout = LabelLayout::new(out.size()?);
    let mut placed = Vec::new();
    let mut left_out = Vec::new();
    for label in labels {
        let text = ascii(&label.text);
        let mut baseline = 0;
        let extent = imgproc::get_text_size(&text, FONT, SCALE, OUTLINE, &mut baseline)?;
        // The box holds the outline and the descenders, a pixel all round.
        let size = Size::new(extent.width + 2, extent.height + baseline + 2);
        match layout.place(label.anchor, size, label.reach) {
            Some(placement) => placed.push((label, text, extent.height, placement)),
            None => left_out.push(text),
        }
    }
    for (label, _, _, placement) in &placed {
        if placement.moved {
            let end = labels::nearest_point(&placement.area, label.anchor);
            imgproc::line(
                &mut out,
                label.anchor,
                end,
                label.colour,
                1,
                imgproc::LINE_AA,
                0,
            )?;
        }
    }
    let mut drawn = Vec::new();
    for (label, text, height, placement) in placed {
        let area = placement.area;
        let origin = Point::new(area.x + 1, area.y + 1 + height);
        write_text(&mut out, &text, origin, label.colour)?;
        drawn.push(DrawnLabel {
            text,
            area,
            moved: placement.moved,
        });
    }
    Ok(Annotated {
        picture: out,
        labels: drawn,
        left_out,
    })
}

/// Draw the shapes of rulings (table inches, at table level) onto a picture through the camera,
/// and return their labels.
fn draw_shapes(
    image: &mut Mat,
    camera: &Camera,
    shapes: &[Shape],
) -> Result<Vec<Label>, VisionError> {
    let at = |p: &rules::geometry::TablePoint| camera.project_at(p, Inches::ZERO).map(point);
    let mut labels = Vec::new();
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
                labels.push(Label {
                    text: text.clone(),
                    anchor: Point::new((a.x + b.x) / 2, (a.y + b.y) / 2),
                    colour: c,
                    reach: FAR,
                });
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
    Ok(labels)
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

/// The labels' font, its scale, and the thickness of the dark outline that keeps them readable
/// on any background.
const FONT: i32 = imgproc::FONT_HERSHEY_SIMPLEX;
const SCALE: f64 = 0.5;
const OUTLINE: i32 = 3;

fn write_text(image: &mut Mat, text: &str, at: Point, c: Scalar) -> Result<(), VisionError> {
    let dark = colour((0.0, 0.0, 0.0));
    imgproc::put_text(
        image,
        text,
        at,
        FONT,
        SCALE,
        dark,
        OUTLINE,
        imgproc::LINE_AA,
        false,
    )?;
    imgproc::put_text(image, text, at, FONT, SCALE, c, 1, imgproc::LINE_AA, false)?;
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
