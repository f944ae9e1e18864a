//! The live view: the camera's picture with the table drawn on it in perspective, through the
//! calibrated camera — outlines sit on the bases, ranges lie on the cloth.

use egui::{Align2, Color32, Pos2, Rect, Sense, Vec2};
use rules::units::Inches;

use super::table::{TextSizes, draw_table, placeholder};
use crate::app::overlay::{self, LiveTransform, TableToScreen};
use crate::app::{AppState, Click};

/// The picture's place in the space available: as large as fits, centred, its shape kept.
pub fn fit(available: Rect, image: [usize; 2]) -> Rect {
    let aspect = image[0] as f32 / image[1].max(1) as f32;
    let mut size = available.size();
    if size.x / size.y.max(1.0) > aspect {
        size.x = size.y * aspect;
    } else {
        size.y = size.x / aspect;
    }
    Rect::from_center_size(available.center(), size)
}

/// The live view. Returns a click on the table, if any.
pub fn live_view(ui: &mut egui::Ui, state: &mut AppState) -> Option<Click> {
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click());
    let area = response.rect;
    painter.rect_filled(area, 0.0, Color32::from_gray(18));
    let Some(table) = state.table.clone() else {
        placeholder(&painter, area, "Waiting for the first frame…");
        return None;
    };
    let Some(frame) = &table.frame else {
        let text = table
            .status
            .error
            .as_deref()
            .unwrap_or("No picture from the source.");
        placeholder(&painter, area, text);
        return None;
    };
    let texture = state.texture(ui.ctx(), frame);
    let rect = fit(area, frame.size);
    let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
    painter.image(texture.id(), rect, uv, Color32::WHITE);
    if state.show_lens_coverage
        && let Some(coverage) = &table.lens_coverage
    {
        lens_coverage(&painter, rect, coverage);
    }
    let Some(calibration) = &table.calibration else {
        let why = match &table.status.calibration {
            live::pipeline::CalibrationStatus::Missing(why) => why.as_str(),
            live::pipeline::CalibrationStatus::Ready { .. } => "",
        };
        overlay::text_with_halo(
            &painter,
            rect.center_top() + Vec2::new(0.0, 12.0),
            Align2::CENTER_TOP,
            &format!("Not calibrated — nothing can be drawn on the table. {why}"),
            16.0,
            Color32::from_rgb(255, 190, 40),
        );
        return None;
    };
    let xf = LiveTransform {
        camera: calibration.camera,
        image_size: calibration.camera.intrinsics.image_size,
        rect,
    };
    let painter = painter.with_clip_rect(rect);
    let sizes = TextSizes {
        units: 13.0,
        lines: 13.0,
    };
    if let Some(scene) = table.scene.as_deref() {
        // The camera shows the terrain itself: a faint fill and its outline say where the rules
        // take it to be.
        for piece in &scene.terrain {
            overlay::terrain(&painter, &xf, piece, 0.18);
        }
    }
    draw_table(&painter, &xf, state, &table, sizes);
    if let Some(tags) = &table.tags
        && table.scene.is_none()
    {
        // No roster: show the tags found, so the player sees the camera works.
        for tag in &tags.tags {
            if let Some(at) = xf.to_screen_at(&tag.pose.center, tag.pose.height) {
                painter.circle_stroke(
                    at,
                    6.0,
                    egui::Stroke::new(2.0, Color32::from_rgb(80, 230, 80)),
                );
                overlay::text_with_halo(
                    &painter,
                    at + Vec2::new(8.0, 0.0),
                    Align2::LEFT_CENTER,
                    &tag.pose.id.to_string(),
                    12.0,
                    Color32::WHITE,
                );
            }
        }
    }
    let hovered = response.hover_pos().filter(|p| rect.contains(*p));
    if let Some(pos) = hovered
        && let Some(at) = xf.to_table(pos)
    {
        state.hover = Some(at);
        super::plan_view::hover_readout(&painter, rect, state, &table, at);
    }
    let pos = response
        .interact_pointer_pos()
        .filter(|_| response.clicked())?;
    let at = xf.to_table(pos)?;
    let tolerance = Inches(f64::from(8.0 / xf.scale_at(&at).max(0.1)).max(0.3));
    let unit = table
        .scene
        .as_deref()
        .and_then(|s| overlay::unit_at(s, &at, tolerance))
        .map(|u| u.id.clone());
    Some(Click { at, unit })
}

/// The picture shaded by the lens's coverage: green where tags have been seen, amber where the
/// table shows but no tag has been yet.
fn lens_coverage(painter: &egui::Painter, rect: Rect, coverage: &calibration::lens::Coverage) {
    let cell = Vec2::new(
        rect.width() / coverage.columns as f32,
        rect.height() / coverage.rows as f32,
    );
    for row in 0..coverage.rows {
        for column in 0..coverage.columns {
            let colour = match coverage.covered(column, row) {
                Some(true) => Color32::from_rgba_unmultiplied(60, 200, 90, 40),
                Some(false) if coverage.reachable[row * coverage.columns + column] => {
                    Color32::from_rgba_unmultiplied(255, 170, 40, 50)
                }
                _ => continue,
            };
            let min = rect.min + Vec2::new(column as f32 * cell.x, row as f32 * cell.y);
            painter.rect_filled(Rect::from_min_size(min, cell).shrink(1.0), 0.0, colour);
        }
    }
}
