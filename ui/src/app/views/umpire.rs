//! The umpire's panel: freeze the frame, settle a dispute between two units with every number
//! and rule, save the case, and mark turns so each move is checked against its allowance.

use egui::RichText;

use super::inspector::ruling_row;
use crate::app::{AppState, DIM};
use live::umpire::{dispute, save_case};

/// The umpire's panel.
pub fn umpire_panel(ui: &mut egui::Ui, state: &mut AppState) {
    ui.heading("⚖ Umpire");
    ui.horizontal(|ui| {
        let label = if state.frozen {
            "❄ Frozen — resume"
        } else {
            "❄ Freeze frame"
        };
        if ui.selectable_label(state.frozen, label).clicked() {
            state.frozen = !state.frozen;
        }
        if ui.button("Clear dispute").clicked() {
            state.dispute = Default::default();
        }
    });
    let Some(table) = state.table.clone() else {
        return;
    };
    let (Some(scene), Some(rulings)) = (table.scene.as_deref(), table.rulings.as_deref()) else {
        ui.label(RichText::new("No units on the table.").color(DIM));
        return;
    };
    match state.dispute.units() {
        None => {
            ui.label(
                RichText::new("Click the two units in dispute (in either view or the list).")
                    .color(DIM),
            );
        }
        Some((a, b)) => match dispute(scene, rulings, a, b) {
            None => {
                ui.label(RichText::new("One of the two is no longer on the table.").color(DIM));
            }
            Some(case) => {
                let name = |id: &str| scene.unit(id).map_or(id.to_owned(), |u| u.name.clone());
                ui.label(
                    RichText::new(format!("{} vs {}", name(a), name(b)))
                        .strong()
                        .size(17.0),
                );
                let units = state.settings.units.for_scene(scene);
                let profile = scene.profile();
                for m in &case.measurements {
                    let origin = scene
                        .unit(&m.from)
                        .map_or("leader", |u| profile.range_origin_words(u));
                    ui.label(format!(
                        "{} to {}: edge {}, range from {origin} {}{}, leader in the {} quarter, {:.0}% in arc",
                        name(&m.from),
                        name(&m.to),
                        units.format(m.edge_distance),
                        units.format(m.range),
                        m.range_in_arc.map_or_else(String::new, |r| format!(" ({} in arc)", units.format(r))),
                        m.target_quarter.describe(),
                        m.arc_fraction * 100.0
                    ));
                }
                if case.rulings.is_empty() {
                    ui.label(RichText::new("No rule reaches between them.").color(DIM));
                }
                for ruling in &case.rulings {
                    ruling_row(ui, ruling);
                }
                ui.horizontal(|ui| {
                    ui.label("Note:");
                    ui.text_edit_singleline(&mut state.case_note);
                });
                ui.horizontal(|ui| {
                    ui.label("Folder:");
                    let mut folder = state.settings.case_folder.display().to_string();
                    if ui.text_edit_singleline(&mut folder).changed() {
                        state.settings.case_folder = folder.into();
                    }
                });
                if ui.button("💾 Save case").clicked() {
                    state.message = Some(
                        match save_case(
                            &state.settings.case_folder,
                            &table,
                            &case,
                            &state.case_note,
                        ) {
                            Ok(files) => format!("case saved: {}", files.json.display()),
                            Err(e) => format!("the case could not be saved: {e:#}"),
                        },
                    );
                }
            }
        },
    }
    ui.separator();
    ui.horizontal(|ui| {
        if ui
            .button(format!("⏱ Mark turn {}", state.turn.turn + 1))
            .on_hover_text("Record where every unit stands now; moves are checked from here")
            .clicked()
            && let Some(scene) = table.scene.clone()
        {
            state.turn.mark(scene);
            live::umpire::record_turn(&table, state.turn.turn);
        }
        if state.turn.start.is_some() {
            ui.label(format!("turn {} marked", state.turn.turn));
        }
    });
    if state.turn.start.is_some() {
        for check in state.turn.moves(scene) {
            if check.distance.0 > 0.05 {
                for ruling in &check.rulings {
                    ruling_row(ui, ruling);
                }
            }
        }
    }
}
