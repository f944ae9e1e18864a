//! The plan of a turn: the table from above as the turn left it — terrain, each unit's stands
//! in its army's colour with its front edge drawn heavy, names small — and each move of the
//! turn as an arrow from where its leader stood to where it came to rest, charges in orange
//! with a ⚔. North (`y` = depth) is up, as in the app's plan view.

use std::fmt::Write as _;

use record::RecordedMove;
use rules::Scene;
use rules::geometry::TablePoint;
use rules::scene::{TerrainShape, Unit};

use super::markup::escape;
use super::palette::{self, CHARGE, CLOTH, EDGE, INK, MOVE};

/// Inches of cloth-coloured margin around the table, so edge units and arrows are not cut.
const MARGIN: f64 = 2.0;
/// Names are set this high, in table inches: readable with a 6' table across a screen.
const NAME_SIZE: f64 = 0.95;
/// Names longer than this go on two lines, to keep to their own unit.
const NAME_WRAP: usize = 14;

/// A move drawn on the plan.
#[derive(Clone, Copy, Debug)]
pub struct PlanMove<'a> {
    /// The move.
    pub made: &'a RecordedMove,
    /// Whether it was a charge (its unit came into contact during the turn).
    pub charge: bool,
}

/// The drawing's extent, in table inches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extent {
    /// The table's width (along x).
    pub width: f64,
    /// The table's depth (along y).
    pub depth: f64,
}

impl Extent {
    /// The table of `scene`, or (without one) the usual 6'×4' stretched to hold the moves.
    pub fn of(scene: Option<&Scene>, moves: &[PlanMove]) -> Extent {
        if let Some(scene) = scene {
            return Extent {
                width: scene.table.width.0.max(1.0),
                depth: scene.table.depth.0.max(1.0),
            };
        }
        let points = moves
            .iter()
            .flat_map(|m| [m.made.from.leader, m.made.to.leader]);
        points.fold(
            Extent {
                width: 72.0,
                depth: 48.0,
            },
            |e, p| Extent {
                width: e.width.max(p.x + 1.0),
                depth: e.depth.max(p.y + 1.0),
            },
        )
    }

    /// The SVG viewBox, margin included.
    pub fn view_box(&self) -> String {
        format!(
            "{} {} {} {}",
            -MARGIN,
            -MARGIN,
            self.width + 2.0 * MARGIN,
            self.depth + 2.0 * MARGIN
        )
    }

    /// Width over height of the drawing, margin included.
    pub fn aspect(&self) -> f64 {
        (self.width + 2.0 * MARGIN) / (self.depth + 2.0 * MARGIN)
    }

    /// A table point in the drawing: `y` flipped, so north is up.
    fn at(&self, point: &TablePoint) -> (f64, f64) {
        (point.x, self.depth - point.y)
    }

    fn points(&self, points: &[TablePoint]) -> String {
        let mut out = String::new();
        for point in points {
            let (x, y) = self.at(point);
            let _ = write!(out, "{x:.2},{y:.2} ");
        }
        out.trim_end().to_owned()
    }
}

/// The plan as an `<svg class="plan">` element; `id` keeps its arrowheads apart from other
/// plans' on the same page, `attributes` places it (`width`, `x`, …).
pub fn svg(scene: Option<&Scene>, moves: &[PlanMove], id: &str, attributes: &str) -> String {
    let extent = Extent::of(scene, moves);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg class="plan" xmlns="http://www.w3.org/2000/svg" viewBox="{}" {attributes} font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#,
        extent.view_box()
    );
    heads(&mut out, id);
    cloth(&mut out, &extent);
    match scene {
        Some(scene) => {
            terrain(&mut out, &extent, scene);
            for unit in &scene.units {
                stands(&mut out, &extent, scene, unit);
            }
            for commander in &scene.commanders {
                let (fill, outline) = palette::side(scene, &commander.side);
                let (x, y) = extent.at(&commander.position);
                let _ = write!(
                    out,
                    r#"<circle class="commander" cx="{x:.2}" cy="{y:.2}" r="0.45" fill="{fill}" stroke="{outline}" stroke-width="0.1"/>"#
                );
            }
        }
        None => {
            let _ = write!(
                out,
                r#"<text x="{:.2}" y="{:.2}" font-size="2" text-anchor="middle" fill="{EDGE}">The camera had not seen the table yet</text>"#,
                extent.width / 2.0,
                extent.depth / 2.0
            );
        }
    }
    for made in moves {
        arrow(&mut out, &extent, made, id);
    }
    if let Some(scene) = scene {
        for unit in &scene.units {
            let moved = moves.iter().any(|m| m.made.unit == unit.id);
            name(&mut out, &extent, unit, moved);
        }
    }
    out.push_str("</svg>");
    out
}

/// The arrowheads: one for moves, one for charges.
fn heads(out: &mut String, id: &str) {
    out.push_str("<defs>");
    for (name, colour) in [("move", MOVE), ("charge", CHARGE)] {
        let _ = write!(
            out,
            r#"<marker id="{id}-{name}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="3.6" markerHeight="3.6" orient="auto" markerUnits="strokeWidth"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>"#
        );
    }
    out.push_str("</defs>");
}

/// The cloth, its edge and a foot grid (for judging distances by eye).
fn cloth(out: &mut String, extent: &Extent) {
    let (w, d) = (extent.width, extent.depth);
    let _ = write!(
        out,
        r#"<rect class="table" x="0" y="0" width="{w:.2}" height="{d:.2}" fill="{CLOTH}" stroke="{EDGE}" stroke-width="0.2"/>"#
    );
    let _ = write!(
        out,
        r#"<g stroke="{EDGE}" stroke-opacity="0.18" stroke-width="0.08">"#
    );
    let mut x = 12.0;
    while x < w - 0.5 {
        let _ = write!(out, r#"<line x1="{x:.2}" y1="0" x2="{x:.2}" y2="{d:.2}"/>"#);
        x += 12.0;
    }
    let mut y = 12.0;
    while y < d - 0.5 {
        let _ = write!(
            out,
            r#"<line x1="0" y1="{:.2}" x2="{w:.2}" y2="{:.2}"/>"#,
            d - y,
            d - y
        );
        y += 12.0;
    }
    out.push_str("</g>");
}

fn terrain(out: &mut String, extent: &Extent, scene: &Scene) {
    for piece in &scene.terrain {
        let (colour, opacity) = palette::terrain(piece.kind);
        let kind = palette::terrain_name(piece.kind);
        match &piece.shape {
            TerrainShape::Area(points) => {
                let _ = write!(
                    out,
                    r#"<polygon class="terrain" points="{}" fill="{colour}" fill-opacity="{opacity}" stroke="{colour}" stroke-width="0.12"><title>{}</title></polygon>"#,
                    extent.points(points),
                    escape(kind)
                );
            }
            TerrainShape::Line(points) => {
                let width = match piece.kind {
                    rules::scene::TerrainKind::River => 1.0,
                    rules::scene::TerrainKind::Road => 0.8,
                    _ => 0.35,
                };
                let _ = write!(
                    out,
                    r#"<polyline class="terrain" points="{}" fill="none" stroke="{colour}" stroke-opacity="{opacity}" stroke-width="{width}" stroke-linecap="round" stroke-linejoin="round"><title>{}</title></polyline>"#,
                    extent.points(points),
                    escape(kind)
                );
            }
        }
    }
}

/// A unit's stands in its army's colour, its front edge heavy so its facing reads.
fn stands(out: &mut String, extent: &Extent, scene: &Scene, unit: &Unit) {
    let (fill, outline) = palette::side(scene, &unit.side);
    let _ = write!(
        out,
        r#"<g class="unit" data-unit="{}" fill="{fill}" stroke="{outline}" stroke-width="0.08"><title>{}</title>"#,
        escape(&unit.id),
        escape(&unit.name)
    );
    for stand in unit.footprint.stands() {
        let _ = write!(
            out,
            r#"<polygon points="{}"/>"#,
            extent.points(&stand.corners())
        );
    }
    let frame = unit.footprint.frame();
    let ((x1, y1), (x2, y2)) = (
        extent.at(&frame.front_left()),
        extent.at(&frame.front_right()),
    );
    let _ = write!(
        out,
        r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="{INK}" stroke-width="0.22" stroke-linecap="round"/></g>"#
    );
}

/// A move's arrow, leader to leader, over a pale halo so it reads on any terrain; a charge's
/// in orange with a ⚔ half-way. A unit that only turned on the spot gets a ring.
fn arrow(out: &mut String, extent: &Extent, made: &PlanMove, id: &str) {
    let (kind, colour, width) = if made.charge {
        ("charge", CHARGE, 0.32)
    } else {
        ("move", MOVE, 0.22)
    };
    let class = if made.charge { "move charge" } else { "move" };
    let (x1, y1) = extent.at(&made.made.from.leader);
    let (x2, y2) = extent.at(&made.made.to.leader);
    let _ = write!(
        out,
        r#"<g class="{class}" data-unit="{}"><title>{}</title>"#,
        escape(&made.made.unit),
        escape(&made.made.name)
    );
    if made.made.straight() < 0.1 {
        let _ = write!(
            out,
            r#"<circle cx="{x2:.2}" cy="{y2:.2}" r="0.6" fill="none" stroke="{colour}" stroke-width="{width}"/>"#
        );
    } else {
        let _ = write!(
            out,
            r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="white" stroke-opacity="0.7" stroke-width="{:.2}" stroke-linecap="round"/><circle cx="{x1:.2}" cy="{y1:.2}" r="{:.2}" fill="{colour}"/><line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="{colour}" stroke-width="{width}" stroke-linecap="round" marker-end="url(#{id}-{kind})"/>"#,
            width * 2.6,
            width * 1.2,
        );
    }
    if made.charge {
        // Half-way along a long charge; behind the start of a short one, not to hide it.
        let length = made.made.straight();
        let (x, y) = if length > 4.0 {
            ((x1 + x2) / 2.0, (y1 + y2) / 2.0)
        } else if length > 0.1 {
            let back = 1.4 / length;
            (x1 - (x2 - x1) * back, y1 - (y2 - y1) * back)
        } else {
            (x2, y2 - 1.6)
        };
        let _ = write!(
            out,
            r#"<circle cx="{x:.2}" cy="{y:.2}" r="0.9" fill="white" stroke="{CHARGE}" stroke-width="0.16"/><text class="charge-mark" x="{x:.2}" y="{:.2}" font-size="1.2" text-anchor="middle" fill="{CHARGE}">⚔</text>"#,
            y + 0.42
        );
    }
    out.push_str("</g>");
}

/// A unit's name, small, just behind it (where its own arrow does not go) or, when that is
/// off the drawing (a unit at the table's edge), just in front; on two lines when long; bold
/// when it moved this turn.
fn name(out: &mut String, extent: &Extent, unit: &Unit, moved: bool) {
    let frame = unit.footprint.frame();
    let lines = wrap(&unit.name);
    let behind = frame.center() - frame.forward() * (frame.depth().0 / 2.0 + 0.4);
    let ahead = frame.front_center() + frame.forward() * 0.4;
    // Behind is below on the drawing for a unit facing north: the lines grow away from it.
    let facing_north = frame.forward().y >= 0.0;
    let (x_behind, y_behind) = extent.at(&behind);
    let (x_ahead, y_ahead) = extent.at(&ahead);
    let fits =
        |(top, bottom): (f64, f64)| top >= 0.1 - MARGIN && bottom <= extent.depth + MARGIN - 0.1;
    let behind_block = block(y_behind, facing_north, lines.len());
    let (x, (first, _, _)) = if fits((behind_block.1, behind_block.2)) {
        (x_behind, behind_block)
    } else {
        (x_ahead, block(y_ahead, !facing_north, lines.len()))
    };
    let weight = if moved { "bold" } else { "normal" };
    let _ = write!(
        out,
        r#"<text class="name" x="{x:.2}" y="{first:.2}" font-size="{NAME_SIZE}" font-weight="{weight}" text-anchor="middle" fill="{INK}" stroke="white" stroke-opacity="0.8" stroke-width="0.22" stroke-linejoin="round" paint-order="stroke">"#
    );
    for (k, line) in lines.iter().enumerate() {
        let dy = if k == 0 { 0.0 } else { NAME_SIZE * 1.1 };
        let _ = write!(
            out,
            r#"<tspan x="{x:.2}" dy="{dy:.2}">{}</tspan>"#,
            escape(line)
        );
    }
    out.push_str("</text>");
}

/// A block of `lines` names hung from `y` on the drawing, growing down or up: its first
/// baseline, its top and its bottom.
fn block(y: f64, down: bool, lines: usize) -> (f64, f64, f64) {
    let between = NAME_SIZE * 1.1 * (lines.max(1) - 1) as f64;
    if down {
        let first = y + NAME_SIZE * 0.8;
        (first, y, first + between + 0.2 * NAME_SIZE)
    } else {
        let first = y - between - 0.25 * NAME_SIZE;
        (first, first - 0.8 * NAME_SIZE, y)
    }
}

/// A name on one line, or two split at the space nearest its middle when long.
fn wrap(name: &str) -> Vec<String> {
    let name = name.trim();
    if name.chars().count() <= NAME_WRAP {
        return vec![name.to_owned()];
    }
    let middle = name.len() / 2;
    let split = name
        .match_indices(' ')
        .map(|(i, _)| i)
        .min_by_key(|i| i.abs_diff(middle));
    match split {
        Some(i) => vec![name[..i].trim().to_owned(), name[i..].trim().to_owned()],
        None => vec![name.to_owned()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_split_near_their_middle() {
        assert_eq!(wrap("95th Rifles"), vec!["95th Rifles"]);
        assert_eq!(
            wrap("Kazan Regiment, 1st Bn"),
            vec!["Kazan Regiment,", "1st Bn"]
        );
        assert_eq!(
            wrap("Grenzinfanterieregiment"),
            vec!["Grenzinfanterieregiment"]
        );
    }
}
