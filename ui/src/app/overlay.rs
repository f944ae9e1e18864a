//! Drawing the table — units, terrain, ruling shapes — through a table→screen transform. The
//! live view and the plan view draw the very same shapes; only the transform differs: the
//! calibrated camera's perspective for the video, a pan-and-zoom plan for the map.

use calibration::{Camera, ImageSize, PixelPoint};
use egui::epaint::PathStroke;
use egui::{Align2, Color32, FontId, Id, Painter, Pos2, Rect, Shape as EguiShape, Stroke, Vec2};
use rules::Scene;
use rules::geometry::{OrientedRect, TablePoint};
use rules::ruling::{Shape, ShapeRole, Verdict};
use rules::scene::{Terrain, TerrainKind, TerrainShape, Unit};
use rules::units::Inches;

/// Maps table inches to screen points and back.
pub trait TableToScreen {
    /// Where a point of the table at `height` above the cloth is on screen; `None` if it cannot
    /// be seen (behind the camera).
    fn to_screen_at(&self, point: &TablePoint, height: Inches) -> Option<Pos2>;

    /// The table point under a screen position (at cloth level).
    fn to_table(&self, pos: Pos2) -> Option<TablePoint>;

    /// Where a point of the cloth is on screen.
    fn to_screen(&self, point: &TablePoint) -> Option<Pos2> {
        self.to_screen_at(point, Inches::ZERO)
    }

    /// How many points an edge is cut into: lens distortion bends straight table lines on the
    /// video, so long edges are drawn as short pieces there.
    fn pieces_per_inch(&self) -> f64 {
        0.0
    }

    /// Screen points per table inch around a point (for hit tolerances and text placement).
    fn scale_at(&self, point: &TablePoint) -> f32 {
        match (
            self.to_screen(point),
            self.to_screen(&TablePoint::new(point.x + 1.0, point.y)),
        ) {
            (Some(a), Some(b)) => a.distance(b),
            _ => 1.0,
        }
    }
}

/// The video's transform: the calibrated camera, then the picture's place and scale on screen.
#[derive(Clone, Copy, Debug)]
pub struct LiveTransform {
    /// The calibrated camera.
    pub camera: Camera,
    /// The picture's size in pixels.
    pub image_size: ImageSize,
    /// Where the picture is drawn.
    pub rect: Rect,
}

impl LiveTransform {
    /// Screen points per image pixel.
    fn scale(&self) -> Vec2 {
        Vec2::new(
            self.rect.width() / self.image_size.width as f32,
            self.rect.height() / self.image_size.height as f32,
        )
    }

    /// The screen position of an image pixel coordinate. Pixel centres are at whole numbers in
    /// the camera model (pixel 0 spans −0.5…0.5), while a texel spans 0…1 on screen: hence ½.
    pub fn pixel_to_screen(&self, pixel: &PixelPoint) -> Pos2 {
        let s = self.scale();
        self.rect.min + Vec2::new((pixel.x as f32 + 0.5) * s.x, (pixel.y as f32 + 0.5) * s.y)
    }

    /// The image pixel coordinate under a screen position.
    pub fn screen_to_pixel(&self, pos: Pos2) -> PixelPoint {
        let s = self.scale();
        let d = pos - self.rect.min;
        PixelPoint::new(f64::from(d.x / s.x) - 0.5, f64::from(d.y / s.y) - 0.5)
    }
}

impl TableToScreen for LiveTransform {
    fn to_screen_at(&self, point: &TablePoint, height: Inches) -> Option<Pos2> {
        let pixel = self.camera.project_at(point, height)?;
        pixel.is_finite().then(|| self.pixel_to_screen(&pixel))
    }

    fn to_table(&self, pos: Pos2) -> Option<TablePoint> {
        self.camera
            .unproject_at(&self.screen_to_pixel(pos), Inches::ZERO)
    }

    fn pieces_per_inch(&self) -> f64 {
        0.5
    }
}

/// The plan's transform: the table from above, `y` up, panned and zoomed.
#[derive(Clone, Copy, Debug)]
pub struct PlanTransform {
    /// The screen area of the plan.
    pub rect: Rect,
    /// The table point at the centre of `rect`.
    pub center: TablePoint,
    /// Screen points per inch.
    pub zoom: f32,
}

impl TableToScreen for PlanTransform {
    fn to_screen_at(&self, point: &TablePoint, _height: Inches) -> Option<Pos2> {
        let dx = (point.x - self.center.x) as f32 * self.zoom;
        let dy = (point.y - self.center.y) as f32 * self.zoom;
        Some(self.rect.center() + Vec2::new(dx, -dy))
    }

    fn to_table(&self, pos: Pos2) -> Option<TablePoint> {
        let d = pos - self.rect.center();
        Some(TablePoint::new(
            self.center.x + f64::from(d.x / self.zoom),
            self.center.y - f64::from(d.y / self.zoom),
        ))
    }
}

/// The colour of a side, by its order in the scene.
pub fn side_colour(scene: &Scene, side: &str) -> Color32 {
    let [r, g, b] = live::look::side_rgb(scene, side);
    Color32::from_rgb(r, g, b)
}

/// Colour for a verdict: ✔ green, ✖ red, ? amber, and a penalty (violet) and a test (blue)
/// far from all three, so that neither reads as a refusal nor as "players decide".
pub fn verdict_colour(verdict: Verdict) -> Color32 {
    match verdict {
        Verdict::Yes => Color32::from_rgb(90, 220, 110),
        Verdict::Penalty => Color32::from_rgb(190, 140, 255),
        Verdict::Test => Color32::from_rgb(90, 170, 255),
        Verdict::Borderline => Color32::from_rgb(255, 190, 40),
        Verdict::No => Color32::from_rgb(240, 90, 80),
    }
}

pub use live::look::{marks_legend, verdict_mark};

/// Table points along a closed or open outline, with long edges cut into pieces.
fn trace(
    xf: &dyn TableToScreen,
    points: &[TablePoint],
    closed: bool,
    height: Inches,
) -> Option<Vec<Pos2>> {
    let per_inch = xf.pieces_per_inch();
    let mut out = Vec::new();
    let count = if closed {
        points.len()
    } else {
        points.len().saturating_sub(1)
    };
    for i in 0..count {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        let pieces = ((b - a).norm() * per_inch).ceil().max(1.0) as usize;
        for k in 0..pieces {
            let t = k as f64 / pieces as f64;
            out.push(xf.to_screen_at(&(a + (b - a) * t), height)?);
        }
    }
    if !closed && let Some(last) = points.last() {
        out.push(xf.to_screen_at(last, height)?);
    }
    Some(out)
}

/// A filled, outlined polygon of the table.
pub fn polygon(
    painter: &Painter,
    xf: &dyn TableToScreen,
    points: &[TablePoint],
    height: Inches,
    fill: Color32,
    stroke: Stroke,
) {
    if points.len() < 3 {
        return;
    }
    let Some(screen) = trace(xf, points, true, height) else {
        return;
    };
    painter.add(EguiShape::convex_polygon(screen, fill, stroke));
}

/// An outline only (for shapes that may not be convex: terrain).
pub fn outline(
    painter: &Painter,
    xf: &dyn TableToScreen,
    points: &[TablePoint],
    closed: bool,
    stroke: Stroke,
) {
    let Some(screen) = trace(xf, points, closed, Inches::ZERO) else {
        return;
    };
    let path = if closed {
        EguiShape::closed_line(screen, stroke)
    } else {
        EguiShape::line(screen, stroke)
    };
    painter.add(path);
}

/// A line on the table, with an optional label at its middle.
pub fn segment(
    painter: &Painter,
    xf: &dyn TableToScreen,
    from: &TablePoint,
    to: &TablePoint,
    stroke: Stroke,
    dashed: bool,
    label: Option<(&str, f32)>,
) {
    let Some(screen) = trace(xf, &[*from, *to], false, Inches::ZERO) else {
        return;
    };
    if dashed {
        painter.extend(EguiShape::dashed_line(&screen, stroke, 8.0, 5.0));
    } else {
        painter.add(EguiShape::line(screen.clone(), PathStroke::from(stroke)));
    }
    if let Some((text, size)) = label {
        // Two thirds of the way along: labels of lines fanning out from one leader spread out.
        let along = screen[(screen.len() * 2 / 3).min(screen.len() - 1)];
        text_with_halo(
            painter,
            along + Vec2::new(0.0, -2.0),
            Align2::CENTER_BOTTOM,
            text,
            size,
            stroke.color,
        );
    }
}

/// Whether a label must be drawn even where it covers another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// Always drawn, stepping aside as far as it can (the selection, rulings, measurements).
    Always,
    /// Drawn only where it covers no label already drawn (the names of other units: on a
    /// crowded table, or in a melee, a name that cannot be read is worse than none — it is
    /// in the unit list and the hover readout).
    IfRoom,
}

/// Text with a dark outline, readable on cloth, terrain and figures alike.
pub fn text_with_halo(
    painter: &Painter,
    at: Pos2,
    anchor: Align2,
    text: &str,
    size: f32,
    colour: Color32,
) {
    label(painter, at, anchor, text, size, colour, Priority::Always);
}

/// A label with a halo, placed clear of the labels already drawn and of the units, inside the
/// view; one moved away from its place gets a thin line back to it. Returns whether it was
/// drawn.
pub fn label(
    painter: &Painter,
    at: Pos2,
    anchor: Align2,
    text: &str,
    size: f32,
    colour: Color32,
    priority: Priority,
) -> bool {
    // What is not in the view is not labelled on it: a unit behind another camera's picture
    // would otherwise have its name slid in along this picture's edge, far from where it is.
    if !painter.clip_rect().expand(size).contains(at) {
        return false;
    }
    let font = FontId::proportional(size);
    let galley = painter.layout_no_wrap(text.to_owned(), font, colour);
    let wanted = anchor.anchor_size(at, galley.size()).expand(2.0);
    let Some(rect) = free_place(painter, wanted, priority) else {
        return false;
    };
    if rect.distance_to_pos(at) > rect.height() {
        let line = Stroke::new(1.0, colour.gamma_multiply(0.7));
        painter.line_segment([at, rect.clamp(at)], line);
    }
    painter.rect_filled(rect, 3.0, Color32::from_black_alpha(170));
    painter.galley(rect.min + Vec2::splat(2.0), galley, colour);
    true
}

/// A readout in a fixed corner of the view (the hover readout): wrapped to the view's width,
/// never moved for the labels, which it is drawn over.
pub fn readout(painter: &Painter, left_top: Pos2, text: &str, size: f32) {
    let width = (painter.clip_rect().max.x - left_top.x - 6.0).max(size * 8.0);
    let galley = painter.layout(
        text.to_owned(),
        FontId::proportional(size),
        Color32::WHITE,
        width,
    );
    let rect = Rect::from_min_size(left_top, galley.size()).expand(2.0);
    painter.rect_filled(rect, 3.0, Color32::from_black_alpha(200));
    painter.galley(left_top, galley, Color32::WHITE);
}

/// Keep labels off this part of the view (a unit's stands, on screen).
pub fn keep_clear(painter: &Painter, rect: Rect) {
    with_placed(painter, |placed| placed.clear.push(rect));
}

/// A label drawn in the last pass: where it was put, and the view it was drawn in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacedLabel {
    /// Its box, background included.
    pub rect: Rect,
    /// Its painter's clip rect.
    pub view: Rect,
    /// Its layer: labels of different layers (the plan, the video) may cross.
    pub layer: egui::LayerId,
}

/// Every label drawn in the last pass, on every layer (tests look at a crowded table with it).
pub fn placed_labels(ctx: &egui::Context) -> Vec<PlacedLabel> {
    ctx.data(|data| {
        data.get_temp::<(u64, Vec<PlacedLabel>)>(Id::unique(LABEL_LOG))
            .map(|(_, labels)| labels)
            .unwrap_or_default()
    })
}

const LABEL_LOG: &str = "vedette-label-log";

/// Note a label drawn in this pass.
fn log_label(painter: &Painter, rect: Rect) {
    let ctx = painter.ctx();
    let pass = ctx.cumulative_pass_nr();
    let label = PlacedLabel {
        rect,
        view: painter.clip_rect(),
        layer: painter.layer_id(),
    };
    ctx.data_mut(|data| {
        let log = data.get_temp_mut_or_default::<(u64, Vec<PlacedLabel>)>(Id::unique(LABEL_LOG));
        if log.0 != pass {
            *log = (pass, Vec::new());
        }
        log.1.push(label);
    });
}

/// A label's rect moved the least that keeps it within the view (a label at the picture's
/// edge is slid in, not cut off), when it fits at all.
fn inside(rect: Rect, view: Rect) -> Rect {
    let dx = (view.min.x - rect.min.x).max(0.0) + (view.max.x - rect.max.x).min(0.0);
    let dy = (view.min.y - rect.min.y).max(0.0) + (view.max.y - rect.max.y).min(0.0);
    if rect.width() > view.width() || rect.height() > view.height() {
        return rect;
    }
    rect.translate(Vec2::new(dx, dy))
}

/// What labels must not cover on one painter's layer in this pass: the labels already drawn,
/// and (where there is room) the units.
#[derive(Clone, Default)]
struct PlacedLabels {
    pass: u64,
    rects: Vec<Rect>,
    clear: Vec<Rect>,
}

/// Run `work` on this pass's placed labels of the painter's layer.
fn with_placed<R>(painter: &Painter, work: impl FnOnce(&mut PlacedLabels) -> R) -> R {
    let ctx = painter.ctx();
    let pass = ctx.cumulative_pass_nr();
    let id = Id::unique(("vedette-labels", painter.layer_id()));
    ctx.data_mut(|data| {
        let placed = data.get_temp_mut_or_default::<PlacedLabels>(id);
        if placed.pass != pass {
            *placed = PlacedLabels {
                pass,
                ..PlacedLabels::default()
            };
        }
        work(placed)
    })
}

/// How much of `rect` the `others` cover.
fn covered(others: &[Rect], rect: &Rect) -> f32 {
    others
        .iter()
        .map(|r| r.intersect(*rect))
        .filter(|i| i.is_positive())
        .map(|i| i.area())
        .sum()
}

/// Where a label goes: the nearest place inside the view (see [`label_tries`]) that covers
/// neither a label nor a unit. When there is none, a label drawn [`Priority::Always`] takes
/// the place that covers the least of the labels, then of the units, and one drawn
/// [`Priority::IfRoom`] gets none (a crowded table otherwise stacks names on names).
fn free_place(painter: &Painter, wanted: Rect, priority: Priority) -> Option<Rect> {
    let view = painter.clip_rect();
    with_placed(painter, |placed| {
        let cost = |rect: &Rect| (covered(&placed.rects, rect), covered(&placed.clear, rect));
        let tries: Vec<Rect> = label_tries(wanted)
            .into_iter()
            .map(|r| inside(r, view))
            .collect();
        let free = tries.iter().find(|r| cost(r) == (0.0, 0.0)).copied();
        let best = match (free, priority) {
            (Some(rect), _) => rect,
            (None, Priority::IfRoom) => return None,
            (None, Priority::Always) => tries
                .iter()
                .copied()
                .min_by(|a, b| {
                    let (a, b) = (cost(a), cost(b));
                    a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))
                })
                .unwrap_or(wanted),
        };
        placed.rects.push(best);
        Some(best)
    })
    .inspect(|rect| log_label(painter, *rect))
}

/// Lines up or down, and half widths aside, a label is tried at.
const TRIED_LINES: i32 = 6;
const TRIED_WIDTHS: [f32; 5] = [0.0, 0.5, -0.5, 1.0, -1.0];

/// The places tried for a label, nearest first: a line or more above or below, half its width
/// or a whole one aside.
fn label_tries(wanted: Rect) -> Vec<Rect> {
    let (dx, dy) = (wanted.width(), wanted.height() + 1.0);
    let mut tries: Vec<Vec2> = (-TRIED_LINES..=TRIED_LINES)
        .flat_map(|line| TRIED_WIDTHS.map(|k| Vec2::new(k * dx, line as f32 * dy)))
        .collect();
    // Nearest first; ties go up before down, which is where a name reads as its unit's.
    tries.sort_by(|a, b| a.length().total_cmp(&b.length()).then(a.y.total_cmp(&b.y)));
    tries
        .into_iter()
        .map(|step| wanted.translate(step))
        .collect()
}

/// The style of a ruling shape by its role.
pub fn role_style(role: ShapeRole, colour: Color32) -> (Color32, Stroke) {
    match role {
        ShapeRole::Arc => (
            colour.gamma_multiply(0.14),
            Stroke::new(1.5, colour.gamma_multiply(0.8)),
        ),
        ShapeRole::Quarter | ShapeRole::Zone => (
            colour.gamma_multiply(0.08),
            Stroke::new(1.0, colour.gamma_multiply(0.6)),
        ),
        ShapeRole::Placement => (Color32::TRANSPARENT, Stroke::new(1.5, colour)),
        ShapeRole::Measure | ShapeRole::Sight | ShapeRole::Blocked => {
            (Color32::TRANSPARENT, Stroke::new(2.0, colour))
        }
    }
}

/// Draw one shape of a ruling.
pub fn ruling_shape(
    painter: &Painter,
    xf: &dyn TableToScreen,
    shape: &Shape,
    colour: Color32,
    text_size: f32,
) {
    match shape {
        Shape::Segment {
            role,
            from,
            to,
            label,
        } => {
            let (_, stroke) = role_style(*role, colour);
            let label = (!label.is_empty()).then_some((label.as_str(), text_size));
            segment(
                painter,
                xf,
                from,
                to,
                stroke,
                *role == ShapeRole::Blocked,
                label,
            );
        }
        Shape::Polygon { role, points } => {
            let (fill, stroke) = role_style(*role, colour);
            if *role == ShapeRole::Placement {
                outline(painter, xf, points, true, stroke);
            } else {
                polygon(painter, xf, points, Inches::ZERO, fill, stroke);
            }
        }
    }
}

/// Colours of the terrain, by kind.
fn terrain_colour(kind: TerrainKind) -> Color32 {
    match kind {
        TerrainKind::Wood => Color32::from_rgb(40, 110, 50),
        TerrainKind::Rough | TerrainKind::VeryRough | TerrainKind::ExtremelyRough => {
            Color32::from_rgb(140, 120, 80)
        }
        TerrainKind::Obstacle => Color32::from_rgb(170, 150, 120),
        TerrainKind::Building => Color32::from_rgb(150, 100, 80),
        TerrainKind::Hill => Color32::from_rgb(120, 140, 70),
        TerrainKind::Impassable => Color32::from_rgb(90, 90, 90),
        TerrainKind::River => Color32::from_rgb(70, 120, 200),
        TerrainKind::Road => Color32::from_rgb(170, 150, 110),
        TerrainKind::Decorative => Color32::from_rgb(100, 100, 100),
    }
}

/// Whether a polygon is convex (egui fills only convex ones directly).
fn convex(points: &[TablePoint]) -> bool {
    let n = points.len();
    let mut sign = 0.0f64;
    for i in 0..n {
        let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
        let cross = (b - a).perp(&(c - b));
        if cross.abs() < 1e-9 {
            continue;
        }
        if sign == 0.0 {
            sign = cross.signum();
        } else if cross.signum() != sign {
            return false;
        }
    }
    true
}

/// One piece of terrain, filled at `fill` opacity where egui can fill it (convex areas).
pub fn terrain(painter: &Painter, xf: &dyn TableToScreen, piece: &Terrain, fill: f32) {
    let colour = terrain_colour(piece.kind);
    match &piece.shape {
        TerrainShape::Area(points) => {
            if convex(points) {
                polygon(
                    painter,
                    xf,
                    points,
                    Inches::ZERO,
                    colour.gamma_multiply(fill),
                    Stroke::new(1.5, colour),
                );
            } else {
                outline(painter, xf, points, true, Stroke::new(2.0, colour));
            }
            if let Some(rise) = &piece.rise {
                hill_top(painter, xf, rise, colour);
            }
        }
        TerrainShape::Line(points) => {
            let width = if piece.kind == TerrainKind::River {
                5.0
            } else {
                3.0
            };
            outline(painter, xf, points, false, Stroke::new(width, colour));
        }
    }
}

/// A hill's crest, dashed at its height (so that on the video it lies on the modelled hill).
fn hill_top(painter: &Painter, xf: &dyn TableToScreen, rise: &rules::scene::Rise, colour: Color32) {
    let stroke = Stroke::new(1.5, colour.gamma_multiply(1.6));
    if let Some(crest) = &rise.crest
        && let Some(screen) = trace(xf, crest, true, rise.top)
    {
        painter.extend(EguiShape::dashed_line(&screen, stroke, 6.0, 4.0));
    }
}

/// Ground learnt from a stand that rested above the ground known there: dashed round the
/// stand's place at its height, with how high it is (after the units, where there is room).
pub fn learnt_rise(painter: &Painter, xf: &dyn TableToScreen, rise: &rules::ground::LearntRise) {
    let colour = terrain_colour(TerrainKind::Hill).gamma_multiply(1.6);
    let round: Vec<TablePoint> = (0..24)
        .map(|k| {
            let turn = f64::from(k) * std::f64::consts::TAU / 24.0;
            let out = rules::ground::LearntRise::TOP.0;
            rise.at + nalgebra::Vector2::new(out * turn.cos(), out * turn.sin())
        })
        .collect();
    if let Some(screen) = trace(xf, &round, true, rise.height) {
        painter.extend(EguiShape::dashed_line(
            &screen,
            Stroke::new(1.5, colour),
            5.0,
            4.0,
        ));
        let lowest = screen.iter().map(|p| p.y).reduce(f32::max);
        if let (Some(at), Some(y)) = (xf.to_screen_at(&rise.at, rise.height), lowest) {
            label(
                painter,
                Pos2::new(at.x, y + 2.0),
                Align2::CENTER_TOP,
                &format!("learnt {:.1}\" up", rise.height.0),
                11.0,
                colour,
                Priority::IfRoom,
            );
        }
    }
}

/// How high a hill rises, above its crest's outline: drawn after the units, where there is
/// room (the stands on it come first).
pub fn hill_label(painter: &Painter, xf: &dyn TableToScreen, piece: &Terrain) {
    let (Some(rise), TerrainShape::Area(foot)) = (&piece.rise, &piece.shape) else {
        return;
    };
    let top = rise.crest.as_deref().unwrap_or(foot);
    let Some(middle) = centre_of_points(top) else {
        return;
    };
    let highest = trace(xf, top, true, rise.top)
        .and_then(|outline| outline.iter().map(|p| p.y).reduce(f32::min));
    if let (Some(at), Some(y)) = (xf.to_screen_at(&middle, rise.top), highest) {
        label(
            painter,
            Pos2::new(at.x, y - 2.0),
            Align2::CENTER_BOTTOM,
            &format!("{} {:.1}\" up", piece.id, rise.top.0),
            11.0,
            terrain_colour(piece.kind).gamma_multiply(1.6),
            Priority::IfRoom,
        );
    }
}

fn centre_of_points(points: &[TablePoint]) -> Option<TablePoint> {
    let sum = points
        .iter()
        .fold(nalgebra::Vector2::zeros(), |s, p| s + p.coords);
    (!points.is_empty()).then(|| TablePoint::from(sum / points.len() as f64))
}

/// How a unit is drawn.
#[derive(Clone, Copy, Debug)]
pub struct UnitLook {
    /// Its side's colour.
    pub colour: Color32,
    /// Selected (or picked by a tool): drawn bold.
    pub highlighted: bool,
    /// Placed from held tags, not seen now (and why): drawn faint.
    pub held: Option<vision::Unseen>,
    /// Height of the tops of its bases.
    pub height: Inches,
    /// Label size; 0 for none.
    pub text_size: f32,
}

/// A unit's stands and its front edge.
pub fn unit(painter: &Painter, xf: &dyn TableToScreen, unit: &Unit, look: UnitLook) {
    let alpha = if look.held.is_some() { 0.35 } else { 1.0 };
    let colour = look.colour.gamma_multiply(alpha);
    let width = if look.highlighted { 3.0 } else { 1.8 };
    for stand in unit.footprint.stands() {
        polygon(
            painter,
            xf,
            &stand.corners(),
            look.height,
            colour.gamma_multiply(if look.highlighted { 0.45 } else { 0.25 }),
            Stroke::new(width, colour),
        );
        if let Some(outline) = trace(xf, &stand.corners(), true, look.height) {
            keep_clear(painter, Rect::from_points(&outline));
        }
    }
    front_edge(
        painter,
        xf,
        unit.footprint.frame(),
        look.height,
        Stroke::new(width + 1.5, Color32::WHITE.gamma_multiply(alpha)),
    );
}

/// A unit on its way — in a hand, or slid along the cloth — drawn where it is seen: dashed,
/// raised as high as it is lifted (so that it sits on the stand in the hand on the video), with
/// a dashed line back to where it rests for the rules, and a label saying so.
pub fn ghost(
    painter: &Painter,
    xf: &dyn TableToScreen,
    travelling: &vision::Travelling,
    resting: Option<&Unit>,
    look: UnitLook,
) {
    let colour = look
        .colour
        .gamma_multiply(if travelling.seen { 0.9 } else { 0.4 });
    let height = look.height + travelling.lifted_by.max(Inches::ZERO);
    let stroke = Stroke::new(2.0, colour);
    for stand in &travelling.stands {
        if let Some(mut screen) = trace(xf, &stand.corners(), true, height) {
            screen.push(screen[0]);
            painter.extend(EguiShape::dashed_line(&screen, stroke, 6.0, 4.0));
        }
    }
    let Some(centre) = centre_of(&travelling.stands) else {
        return;
    };
    if let Some(rest) = resting {
        let from = rest.footprint.frame().center();
        if let (Some(a), Some(b)) = (
            xf.to_screen_at(&from, look.height),
            xf.to_screen_at(&centre, height),
        ) {
            painter.extend(EguiShape::dashed_line(
                &[a, b],
                Stroke::new(1.2, colour.gamma_multiply(0.7)),
                4.0,
                4.0,
            ));
        }
    }
    // A unit sliding is plain from its dashes beside its own label; one in a hand says so.
    if look.text_size > 0.0
        && travelling.in_hand
        && let Some(at) = xf.to_screen_at(&centre, height)
    {
        let name = resting.map_or(travelling.unit.as_str(), |u| u.name.as_str());
        label(
            painter,
            at + Vec2::new(0.0, -6.0),
            Align2::CENTER_BOTTOM,
            &format!("{name} — in hand"),
            look.text_size,
            colour,
            Priority::Always,
        );
    }
}

/// The middle of some stands.
fn centre_of(stands: &[OrientedRect]) -> Option<TablePoint> {
    let n = stands.len();
    (n > 0).then(|| {
        TablePoint::from(
            stands
                .iter()
                .fold(nalgebra::Vector2::zeros(), |s, r| s + r.center().coords)
                / n as f64,
        )
    })
}

/// A unit's name above its centre: always for a highlighted unit, where there is room for the
/// others.
pub fn unit_name(painter: &Painter, xf: &dyn TableToScreen, unit: &Unit, look: UnitLook) {
    if look.text_size <= 0.0 {
        return;
    }
    let centre = unit.footprint.frame().center();
    let Some(centre) = xf.to_screen_at(&centre, look.height) else {
        return;
    };
    // Above its stands, not on them: the name is what the eye looks for, the stands what it
    // names.
    let top = unit
        .footprint
        .stands()
        .iter()
        .filter_map(|stand| trace(xf, &stand.corners(), true, look.height))
        .flatten()
        .map(|p| p.y)
        .fold(centre.y, f32::min);
    let at = Pos2::new(centre.x, top);
    let name = match look.held {
        Some(why) => format!("{} ({})", unit.name, why.brief()),
        None => unit.name.clone(),
    };
    let alpha = if look.held.is_some() { 0.35 } else { 1.0 };
    let priority = if look.highlighted {
        Priority::Always
    } else {
        Priority::IfRoom
    };
    label(
        painter,
        at + Vec2::new(0.0, -2.0),
        Align2::CENTER_BOTTOM,
        &name,
        look.text_size,
        look.colour.gamma_multiply(alpha),
        priority,
    );
}

/// The front edge, so facing reads at a glance.
fn front_edge(
    painter: &Painter,
    xf: &dyn TableToScreen,
    frame: &OrientedRect,
    height: Inches,
    stroke: Stroke,
) {
    let Some(line) = trace(
        xf,
        &[frame.front_left(), frame.front_right()],
        false,
        height,
    ) else {
        return;
    };
    painter.add(EguiShape::line(line, PathStroke::from(stroke)));
}

/// The unit under a table point, if any: inside a stand, or within `tolerance` of one.
pub fn unit_at<'s>(scene: &'s Scene, point: &TablePoint, tolerance: Inches) -> Option<&'s Unit> {
    scene
        .units
        .iter()
        .map(|u| (u, u.footprint.closest_point(point).1))
        .filter(|(_, d)| d.0 <= tolerance.0)
        .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
        .map(|(u, _)| u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_penalty_and_a_test_are_marked_apart_from_a_refusal_and_drawn_from_the_fonts() {
        let all = [
            Verdict::Yes,
            Verdict::Penalty,
            Verdict::Test,
            Verdict::Borderline,
            Verdict::No,
        ];
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(verdict_mark(*a), verdict_mark(*b), "{a:?} and {b:?}");
                assert_ne!(verdict_colour(*a), verdict_colour(*b), "{a:?} and {b:?}");
            }
        }
        assert_ne!(verdict_mark(Verdict::Penalty), "✖");
        assert_ne!(verdict_mark(Verdict::Test), "✖");
        // Each mark is in egui's bundled fonts, so none is drawn as a missing-glyph box.
        let ctx = egui::Context::default();
        let mut output = ctx.run_pass(Default::default(), |_| {});
        output.textures_delta.clear();
        for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
            let font = FontId::new(14.0, family);
            for verdict in all {
                let mark = verdict_mark(verdict);
                assert!(
                    ctx.fonts_mut(|f| f.has_glyphs(&font, mark)),
                    "{mark} ({verdict:?}) in {font:?}"
                );
            }
        }
    }

    /// Ntombi lists its sides Zulu first while its units list the British first: the app,
    /// the pages and the rendered pictures colour each army alike (the British were blue in
    /// the app and red in the pictures).
    #[test]
    fn an_army_has_one_colour_in_the_app_and_in_the_rendered_pictures() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/scenarios");
        for name in ["ntombi", "el-teb", "crimea-river", "san-miguel"] {
            let scene = Scene::load(&folder.join(format!("{name}.json"))).expect("a sample");
            let roster = roster::Roster::for_scene(&scene, roster::TagDefaults::default(), 10);
            let table = calibration::TableSize {
                width: scene.table.width.0,
                depth: scene.table.depth.0,
            };
            let anchors = calibration::AnchorLayout::corners(table, Inches(2.0), Inches(1.0));
            let world = vision::synthetic::SyntheticTable::stage(&scene, &roster, &anchors);
            for unit in &scene.units {
                let stand = unit.footprint.stands()[0];
                let block = world
                    .blocks
                    .iter()
                    .find(|b| b.footprint == stand)
                    .expect("the stand is staged");
                let app = side_colour(&scene, &unit.side);
                let painted = block.colour;
                assert_eq!(
                    painted.0.cmp(&painted.2),
                    app.r().cmp(&app.b()),
                    "{name}: {} ({}) painted {painted:?}, drawn {app:?}",
                    unit.name,
                    unit.side
                );
            }
        }
    }

    #[test]
    fn a_label_at_the_edge_slides_into_the_view() {
        let view = Rect::from_min_max(Pos2::new(0.0, 0.0), Pos2::new(200.0, 100.0));
        let cut = Rect::from_min_size(Pos2::new(-30.0, 95.0), Vec2::new(80.0, 14.0));
        let slid = inside(cut, view);
        assert_eq!(slid.size(), cut.size());
        assert!(view.contains_rect(slid), "{slid:?}");
        assert_eq!(slid.min, Pos2::new(0.0, 86.0));
        let clear = Rect::from_min_size(Pos2::new(20.0, 20.0), Vec2::new(80.0, 14.0));
        assert_eq!(inside(clear, view), clear);
    }

    /// Two cameras over a long table: a unit beyond this camera's picture has its name
    /// drawn nowhere on it (it was slid in along the picture's bottom edge), while one at the
    /// edge of the picture is slid in whole.
    #[test]
    fn a_label_for_what_lies_outside_the_view_is_not_drawn() {
        let ctx = egui::Context::default();
        let mut drawn = Vec::new();
        let mut output = ctx.run_pass(Default::default(), |ctx| {
            let view = Rect::from_min_size(Pos2::ZERO, Vec2::new(640.0, 360.0));
            let painter = ctx
                .layer_painter(egui::LayerId::background())
                .with_clip_rect(view);
            let draw = |at: Pos2| {
                label(
                    &painter,
                    at,
                    Align2::CENTER_BOTTOM,
                    "Glasgow Regiment, 1st Bn",
                    14.0,
                    Color32::WHITE,
                    Priority::Always,
                )
            };
            drawn = vec![
                draw(Pos2::new(320.0, 2400.0)),
                draw(Pos2::new(-900.0, 100.0)),
                draw(Pos2::new(636.0, 358.0)),
                draw(Pos2::new(320.0, 180.0)),
            ];
        });
        output.textures_delta.clear();
        assert_eq!(drawn, [false, false, true, true]);
    }

    #[test]
    fn labels_drawn_at_one_place_are_stacked_not_piled() {
        let ctx = egui::Context::default();
        let mut places = Vec::new();
        let mut output = ctx.run_pass(Default::default(), |ctx| {
            let painter = ctx.layer_painter(egui::LayerId::background());
            let wanted = Rect::from_min_size(Pos2::new(100.0, 100.0), Vec2::new(80.0, 14.0));
            places = (0..3)
                .filter_map(|_| free_place(&painter, wanted, Priority::Always))
                .collect();
        });
        output.textures_delta.clear();
        assert_eq!(
            places[0],
            Rect::from_min_size(Pos2::new(100.0, 100.0), Vec2::new(80.0, 14.0))
        );
        for (i, a) in places.iter().enumerate() {
            for b in &places[i + 1..] {
                assert!(!a.intersects(*b), "{a:?} and {b:?} overlap");
            }
        }
        // A name that would cover the others gives way; one with room is drawn.
        let mut output = ctx.run_pass(Default::default(), |ctx| {
            let painter = ctx.layer_painter(egui::LayerId::background());
            let wanted = Rect::from_min_size(Pos2::new(100.0, 100.0), Vec2::new(80.0, 14.0));
            let tries = label_tries(wanted).len();
            for _ in 0..tries {
                assert!(free_place(&painter, wanted, Priority::Always).is_some());
            }
            assert_eq!(free_place(&painter, wanted, Priority::IfRoom), None);
            assert!(free_place(&painter, wanted, Priority::Always).is_some());
            let elsewhere = wanted.translate(Vec2::new(400.0, 0.0));
            assert_eq!(
                free_place(&painter, elsewhere, Priority::IfRoom),
                Some(elsewhere)
            );
        });
        output.textures_delta.clear();
        // A new pass starts with a clear table.
        let mut output = ctx.run_pass(Default::default(), |ctx| {
            let painter = ctx.layer_painter(egui::LayerId::background());
            let wanted = Rect::from_min_size(Pos2::new(100.0, 100.0), Vec2::new(80.0, 14.0));
            assert_eq!(free_place(&painter, wanted, Priority::Always), Some(wanted));
        });
        output.textures_delta.clear();
    }

    /// A name is put off the stands it names (and any other), inside the view: at the plan's
    /// edge it was cut ("scow Regiment, 1st Bn") when it stepped aside past the edge.
    #[test]
    fn a_label_keeps_off_the_units_and_inside_the_view() {
        let ctx = egui::Context::default();
        let mut output = ctx.run_pass(Default::default(), |ctx| {
            let view = Rect::from_min_size(Pos2::ZERO, Vec2::new(400.0, 200.0));
            let painter = ctx
                .layer_painter(egui::LayerId::background())
                .with_clip_rect(view);
            let stands = Rect::from_min_size(Pos2::new(300.0, 80.0), Vec2::new(100.0, 40.0));
            keep_clear(&painter, stands);
            let wanted = Rect::from_min_size(Pos2::new(320.0, 90.0), Vec2::new(160.0, 16.0));
            for priority in [Priority::IfRoom, Priority::Always] {
                let put = free_place(&painter, wanted, priority).expect("room");
                assert!(!put.intersects(stands), "{put:?} over the stands");
                assert!(view.contains_rect(put), "{put:?} out of the view");
            }
            let placed = placed_labels(ctx);
            assert_eq!(placed.len(), 2);
            assert!(!placed[0].rect.intersects(placed[1].rect), "{placed:?}");
        });
        output.textures_delta.clear();
    }
}
