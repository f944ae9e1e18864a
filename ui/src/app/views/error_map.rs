//! The plan's map of where the camera measures worst: each place of the table shaded by the ±
//! a stand there adds to a distance, a legend, the worst place and the centre's figure in
//! words, and what would tighten it. The map is made by the pipeline when the calibration or
//! the roster changes (`vision::ErrorMap`); this only draws it.

use egui::{Align2, Color32, Rect, Stroke, Vec2};
use rules::geometry::TablePoint;
use rules::units::Inches;
use vision::ErrorMap;

use crate::app::AppState;
use crate::app::measure::Lengths;
use crate::app::overlay::{self, PlanTransform};
use live::pipeline::TableState;

/// A figure at or under this is drawn green ...
const GOOD: Inches = Inches(0.02);
/// ... at or over this, red; between, through amber.
const POOR: Inches = Inches(0.10);
/// The legend's steps.
const LEGEND: [Inches; 5] = [
    Inches(0.02),
    Inches(0.04),
    Inches(0.06),
    Inches(0.08),
    Inches(0.10),
];
/// How opaque the cells are: the cloth and the units show through.
const CELL_ALPHA: u8 = 130;

/// The height of the words under the plan: two lines.
pub const SUMMARY_HEIGHT: f32 = 36.0;

/// The colour of a cell whose stands are placed within ± `figure`.
pub fn colour_of(figure: Inches) -> Color32 {
    let t = ((figure.0 - GOOD.0) / (POOR.0 - GOOD.0)).clamp(0.0, 1.0) as f32;
    let (green, amber, red) = (
        [60.0, 200.0, 90.0],
        [240.0, 200.0, 50.0],
        [230.0, 60.0, 50.0],
    );
    let (from, to, s) = if t < 0.5 {
        (green, amber, t * 2.0)
    } else {
        (amber, red, t * 2.0 - 1.0)
    };
    let mix = |k: usize| (from[k] + (to[k] - from[k]) * s).round() as u8;
    Color32::from_rgba_unmultiplied(mix(0), mix(1), mix(2), CELL_ALPHA)
}

/// The button that turns the map on and off, at the plan's top right corner.
pub fn toggle(ui: &mut egui::Ui, rect: Rect, state: &mut AppState) {
    let at = Rect::from_min_size(
        rect.right_top() + Vec2::new(-84.0, 6.0),
        Vec2::new(78.0, 20.0),
    );
    let button = ui
        .put(at, egui::Button::selectable(state.show_error_map, "± map"))
        .on_hover_text(
            "Where the camera measures worst: shade the plan by the ± (95 %) a stand at each place \
             adds to any distance measured from it, for the stand height in use, and say what \
             would tighten it most. Hover the plan for the figure there.",
        );
    if button.clicked() {
        state.show_error_map = !state.show_error_map;
    }
}

/// The map's cells over the table, the worst one outlined.
pub fn cells(painter: &egui::Painter, xf: &PlanTransform, map: &ErrorMap) {
    let (w, d) = (
        map.width.0 / map.columns as f64,
        map.depth.0 / map.rows as f64,
    );
    let square = |column: usize, row: usize| {
        let (x, y) = (column as f64 * w, row as f64 * d);
        [
            TablePoint::new(x, y),
            TablePoint::new(x + w, y),
            TablePoint::new(x + w, y + d),
            TablePoint::new(x, y + d),
        ]
    };
    for row in 0..map.rows {
        for column in 0..map.columns {
            let colour = match map.cell(column, row) {
                Some(error) => colour_of(error.plus_minus),
                None => Color32::from_rgba_unmultiplied(20, 20, 20, 150),
            };
            let corners = square(column, row);
            overlay::polygon(painter, xf, &corners, Inches::ZERO, colour, Stroke::NONE);
        }
    }
    if let Some((at, _)) = map.worst {
        let (column, row) = ((at.x / w) as usize, (at.y / d) as usize);
        let corners = square(column, row);
        let outline = Stroke::new(2.0, Color32::WHITE);
        overlay::polygon(
            painter,
            xf,
            &corners,
            Inches::ZERO,
            Color32::TRANSPARENT,
            outline,
        );
    }
}

/// The legend, under the toggle: a swatch for each step, in the unit lengths are shown in.
pub fn legend(painter: &egui::Painter, rect: Rect, lengths: &Lengths) {
    let swatch = Vec2::new(16.0, 12.0);
    let top = rect.right_top() + Vec2::new(-84.0, 32.0);
    let height = 16.0 * LEGEND.len() as f32 + 4.0;
    painter.rect_filled(
        Rect::from_min_size(top - Vec2::new(4.0, 2.0), Vec2::new(82.0, height)),
        3.0,
        Color32::from_black_alpha(170),
    );
    for (i, step) in LEGEND.iter().enumerate() {
        let at = top + Vec2::new(0.0, 16.0 * i as f32);
        let colour = colour_of(*step).to_opaque();
        painter.rect_filled(Rect::from_min_size(at, swatch), 2.0, colour);
        let bound = match i {
            0 => "≤ ",
            i if i + 1 == LEGEND.len() => "≥ ",
            _ => "",
        };
        painter.text(
            at + Vec2::new(swatch.x + 6.0, swatch.y / 2.0),
            Align2::LEFT_CENTER,
            format!("{bound}±{}", lengths.format(*step)),
            egui::FontId::proportional(11.0),
            Color32::WHITE,
        );
    }
}

/// What the map says in words, under the plan drawn in `plan` (in the [`SUMMARY_HEIGHT`] kept
/// for it): the worst ± and where, the centre's, and what would tighten the worst.
pub fn summary(ui: &mut egui::Ui, plan: Rect, table: &TableState, lengths: &Lengths) {
    let text = words(table, lengths);
    let at = Rect::from_min_size(
        plan.left_bottom() + Vec2::new(6.0, 2.0),
        Vec2::new(plan.width() - 12.0, SUMMARY_HEIGHT - 2.0),
    );
    ui.scope_builder(egui::UiBuilder::new().max_rect(at), |ui| {
        ui.add(egui::Label::new(egui::RichText::new(text).size(12.0).color(Color32::WHITE)).wrap());
    });
}

/// The summary's words.
pub fn words(table: &TableState, lengths: &Lengths) -> String {
    const TITLE: &str = "Where the camera measures worst";
    let Some(map) = table.error_map.as_deref() else {
        return if table.calibration.is_some() {
            format!("{TITLE}: no map for this moment (it is made for the live camera and roster)")
        } else {
            format!("{TITLE}: not calibrated")
        };
    };
    let Some((at, worst)) = map.worst else {
        return format!("{TITLE}: the camera sees none of the table");
    };
    let scale = lengths.scale();
    let figure = |e: Inches| format!("±{}", lengths.format(e.rounded_up()));
    let centre = map.centre.map_or_else(
        || "the centre is not seen".to_owned(),
        |c| format!("{} at the centre", figure(c.plus_minus)),
    );
    let source = worst.shares.largest();
    format!(
        "{TITLE}: {} at ({:.0}, {:.0}){} (outlined); {centre} (what a stand there adds to any \
         distance, 95 %). Mostly from {}; to tighten it: {}.",
        figure(worst.plus_minus),
        scale.value_of(Inches(at.x)),
        scale.value_of(Inches(at.y)),
        scale.unit.symbol(),
        source.name(),
        source.advice()
    )
}
