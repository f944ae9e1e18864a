//! The plan view: the table from above in inches, with a grid, the terrain, the units and the
//! same overlays as the live view. Drag to pan, scroll to zoom, double-click to see it all;
//! hover to read any distance.

use egui::{Align2, Color32, Rect, Sense, Stroke, Vec2};
use rules::geometry::{TablePoint, distance};
use rules::units::Inches;

use super::error_map;
use super::table::{TextSizes, draw_table, placeholder};
use crate::app::measure::Lengths;
use crate::app::overlay::{self, PlanTransform, TableToScreen};
use crate::app::{AppState, Click};
use live::pipeline::TableState;
use vision::SightMap;

/// The table's size, from the calibration or the scene.
fn table_size(table: &TableState) -> Option<(f64, f64)> {
    if let Some(c) = &table.calibration {
        return Some((c.table.width, c.table.depth));
    }
    table
        .scene
        .as_deref()
        .map(|s| (s.table.width.0, s.table.depth.0))
}

/// The plan's transform for an area of the screen.
pub fn transform(rect: Rect, size: (f64, f64), camera: &crate::app::PlanCamera) -> PlanTransform {
    let margin = 16.0;
    let fit = ((rect.width() - 2.0 * margin) / size.0 as f32)
        .min((rect.height() - 2.0 * margin) / size.1 as f32)
        .max(0.5);
    PlanTransform {
        rect,
        center: camera
            .center
            .unwrap_or_else(|| TablePoint::new(size.0 / 2.0, size.1 / 2.0)),
        zoom: fit * camera.zoom,
    }
}

/// The plan view. Returns a click on the table, if any.
pub fn plan_view(ui: &mut egui::Ui, state: &mut AppState) -> Option<Click> {
    // Room under the plan for the words of the map of where the camera measures worst.
    let words = if state.show_error_map {
        error_map::SUMMARY_HEIGHT
    } else {
        0.0
    };
    let size = ui.available_size() - Vec2::new(0.0, words);
    let (response, painter) = ui.allocate_painter(size, Sense::click_and_drag());
    let rect = response.rect;
    painter.rect_filled(rect, 0.0, Color32::from_gray(24));
    let Some(table) = state.table.clone() else {
        placeholder(&painter, rect, "The plan appears with the first frame.");
        return None;
    };
    let Some(size) = table_size(&table) else {
        placeholder(
            &painter,
            rect,
            "The plan needs a calibration (it knows the table's size).",
        );
        return None;
    };
    let xf = transform(rect, size, &state.plan);
    navigate(ui, &response, &xf, state);
    let xf = transform(rect, size, &state.plan);
    state.plan_transform = Some(xf);
    let painter = painter.with_clip_rect(rect);
    let lengths = state.settings.units.for_table(table.scene.as_deref());
    cloth_and_grid(&painter, &xf, size, &lengths);
    if state.show_sight
        && let Some((map, tag_size)) = &table.sight
    {
        sight(&painter, &xf, map, *tag_size);
        let legend = format!(
            "sight: green, the roster's {:.2}\" tags are found; amber, only bigger tags; grey, outside the picture",
            tag_size.0
        );
        let at = Rect::from_min_size(
            rect.left_bottom() + Vec2::new(6.0, -24.0),
            Vec2::new(rect.width() - 12.0, 18.0),
        );
        ui.put(
            at,
            egui::Label::new(
                egui::RichText::new(legend)
                    .size(12.0)
                    .color(Color32::WHITE)
                    .background_color(Color32::from_black_alpha(170)),
            ),
        );
    }
    coverage(&painter, &xf, &table.coverage);
    let error_map = table.error_map.as_deref().filter(|_| state.show_error_map);
    if let Some(map) = error_map {
        error_map::cells(&painter, &xf, map);
    }
    if let Some(scene) = table.scene.as_deref() {
        for piece in &scene.terrain {
            overlay::terrain(&painter, &xf, piece, 0.6);
        }
    }
    let sizes = TextSizes {
        units: 12.0,
        lines: 12.0,
    };
    draw_table(&painter, &xf, state, &table, sizes);
    if state.show_error_map {
        if error_map.is_some() {
            error_map::legend(&painter, rect, &lengths);
        }
        error_map::summary(ui, rect, &table, &lengths);
    }
    error_map::toggle(ui, rect, state);
    if let Some(pos) = response.hover_pos()
        && let Some(at) = xf.to_table(pos)
    {
        state.hover = Some(at);
        hover_readout(&painter, rect, state, &table, at);
    }
    if !response.clicked() {
        return None;
    }
    let at = xf.to_table(response.interact_pointer_pos()?)?;
    let tolerance = Inches(f64::from(6.0 / xf.zoom).max(0.2));
    let unit = table
        .scene
        .as_deref()
        .and_then(|s| overlay::unit_at(s, &at, tolerance))
        .map(|u| u.id.clone());
    Some(Click { at, unit })
}

/// Drag to pan, scroll to zoom about the cursor, double-click to reset.
fn navigate(ui: &egui::Ui, response: &egui::Response, xf: &PlanTransform, state: &mut AppState) {
    let mut center = xf.center;
    if response.dragged() {
        let d = response.drag_delta();
        center.x -= f64::from(d.x / xf.zoom);
        center.y += f64::from(d.y / xf.zoom);
        state.plan.center = Some(center);
    }
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            let factor = (scroll * 0.003).exp();
            let new_zoom = (state.plan.zoom * factor).clamp(0.5, 12.0);
            if let Some(pos) = response.hover_pos()
                && let Some(under) = xf.to_table(pos)
            {
                // Keep the point under the cursor where it is.
                let ratio = f64::from(state.plan.zoom / new_zoom);
                center = TablePoint::new(
                    under.x + (center.x - under.x) * ratio,
                    under.y + (center.y - under.y) * ratio,
                );
                state.plan.center = Some(center);
            }
            state.plan.zoom = new_zoom;
        }
    }
    if response.double_clicked() {
        state.plan = crate::app::PlanCamera::default();
    }
}

/// The cloth and a grid: a line every 6", stronger and labelled every 12".
fn cloth_and_grid(
    painter: &egui::Painter,
    xf: &PlanTransform,
    size: (f64, f64),
    lengths: &Lengths,
) {
    let corners = [
        TablePoint::new(0.0, 0.0),
        TablePoint::new(size.0, 0.0),
        TablePoint::new(size.0, size.1),
        TablePoint::new(0.0, size.1),
    ];
    overlay::polygon(
        painter,
        xf,
        &corners,
        Inches::ZERO,
        Color32::from_rgb(52, 74, 44),
        Stroke::new(1.5, Color32::from_gray(140)),
    );
    let line = |a: TablePoint, b: TablePoint, major: bool| {
        let colour = if major {
            Color32::from_white_alpha(40)
        } else {
            Color32::from_white_alpha(16)
        };
        overlay::segment(painter, xf, &a, &b, Stroke::new(1.0, colour), false, None);
    };
    // Lines every `minor` of the shown unit from the corner, labelled every `major`.
    let scale = lengths.scale();
    let grid = lengths.grid();
    let label = |value: f64| format!("{value:.0}{}", scale.unit.symbol().trim_start());
    let steps = |extent: f64| {
        let count = (scale.value_of(Inches(extent)) / grid.minor).ceil() as usize;
        (1..count).map(move |i| {
            let value = i as f64 * grid.minor;
            let major = (value / grid.major).fract().abs() < 1e-9;
            (value, scale.to_inches(value).0, major)
        })
    };
    for (value, x, major) in steps(size.0) {
        line(TablePoint::new(x, 0.0), TablePoint::new(x, size.1), major);
        if major && let Some(at) = xf.to_screen(&TablePoint::new(x, 0.0)) {
            painter.text(
                at + Vec2::new(0.0, 2.0),
                Align2::CENTER_TOP,
                label(value),
                egui::FontId::proportional(10.0),
                Color32::from_gray(150),
            );
        }
    }
    for (value, y, major) in steps(size.1) {
        line(TablePoint::new(0.0, y), TablePoint::new(size.0, y), major);
        if major && let Some(at) = xf.to_screen(&TablePoint::new(0.0, y)) {
            painter.text(
                at + Vec2::new(-3.0, 0.0),
                Align2::RIGHT_CENTER,
                label(value),
                egui::FontId::proportional(10.0),
                Color32::from_gray(150),
            );
        }
    }
}

/// The table shaded by what the camera can see: green where tags of the roster's size are found,
/// amber where only bigger ones are, grey where the picture does not reach.
fn sight(painter: &egui::Painter, xf: &PlanTransform, map: &SightMap, tag_size: Inches) {
    let cell = map.cell.0;
    for row in 0..map.rows {
        for column in 0..map.columns {
            let colour = match map.smallest(column, row) {
                Some(smallest) if smallest <= tag_size => {
                    Color32::from_rgba_unmultiplied(60, 200, 90, 40)
                }
                Some(_) => Color32::from_rgba_unmultiplied(255, 170, 30, 90),
                None => Color32::from_rgba_unmultiplied(20, 20, 20, 150),
            };
            let (x, y) = (column as f64 * cell, row as f64 * cell);
            let corners = [
                TablePoint::new(x, y),
                TablePoint::new(x + cell, y),
                TablePoint::new(x + cell, y + cell),
                TablePoint::new(x, y + cell),
            ];
            overlay::polygon(painter, xf, &corners, Inches::ZERO, colour, Stroke::NONE);
        }
    }
}

/// Colours of the cameras' parts of the table, in the rig's order.
const CAMERA_COLOURS: [Color32; 4] = [
    Color32::from_rgb(90, 170, 255),
    Color32::from_rgb(255, 150, 60),
    Color32::from_rgb(200, 110, 255),
    Color32::from_rgb(80, 220, 200),
];

/// With several cameras, each one's part of the table outlined and named.
fn coverage(painter: &egui::Painter, xf: &PlanTransform, parts: &[live::pipeline::CameraPart]) {
    for (i, part) in parts.iter().enumerate() {
        let colour = CAMERA_COLOURS[i % CAMERA_COLOURS.len()];
        let stroke = Stroke::new(2.0, colour);
        overlay::polygon(
            painter,
            xf,
            &part.outline,
            Inches::ZERO,
            Color32::TRANSPARENT,
            stroke,
        );
        // Named in the middle of its reach along the table, near the near edge, each camera a
        // line above the one before.
        let xs = part.outline.iter().map(|p| p.x);
        let (low, high) = xs.fold((f64::MAX, f64::MIN), |(l, h), x| (l.min(x), h.max(x)));
        let middle = TablePoint::new((low + high) / 2.0, 3.0 + 4.0 * i as f64);
        if let Some(at) = xf.to_screen(&middle).filter(|_| !part.outline.is_empty()) {
            painter.text(
                at,
                egui::Align2::CENTER_CENTER,
                format!("📷 {}", part.name),
                egui::FontId::proportional(13.0),
                colour,
            );
        }
    }
}

/// What the cursor reads: where it is, how far from the selected unit's leader and closest
/// edge, and from the unit under it.
pub fn hover_readout(
    painter: &egui::Painter,
    rect: Rect,
    state: &AppState,
    table: &TableState,
    at: TablePoint,
) {
    let lengths = state.settings.units.for_table(table.scene.as_deref());
    let scale = lengths.scale();
    let mut text = format!(
        "({:.1}, {:.1}){}",
        scale.value_of(Inches(at.x)),
        scale.value_of(Inches(at.y)),
        scale.unit.symbol()
    );
    if let Some((map, _)) = &table.sight
        && table_size(table)
            .is_some_and(|(w, d)| (0.0..=w).contains(&at.x) && (0.0..=d).contains(&at.y))
    {
        match map.at(&at) {
            Some(smallest) => text.push_str(&format!(
                " — tags of {} and more are found here",
                lengths.format(smallest)
            )),
            None => text.push_str(" — outside the picture"),
        }
    }
    if state.show_error_map
        && let Some(map) = &table.error_map
        && let Some(error) = map.at(&at)
    {
        text.push_str(&format!(
            " — a stand here is placed within ±{} (mostly {})",
            lengths.format(error.plus_minus.rounded_up()),
            error.shares.largest().name()
        ));
    }
    if let Some(scene) = table.scene.as_deref() {
        if let Some(unit) = state.selected.as_deref().and_then(|id| scene.unit(id)) {
            let leader = distance(&unit.footprint.leader(), &at);
            let (_, edge) = unit.footprint.closest_point(&at);
            text.push_str(&format!(
                " — {} from {}'s leader, {} from its edge",
                lengths.format(leader),
                unit.name,
                lengths.format(edge)
            ));
        }
        if let Some(under) = overlay::unit_at(scene, &at, Inches(0.05)) {
            text.push_str(&format!(" — over {}", under.name));
        }
    }
    overlay::readout(painter, rect.left_top() + Vec2::new(6.0, 6.0), &text, 13.0);
}
