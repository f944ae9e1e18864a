//! The toolbar: modes, tools, the ruleset and its choices, sources, sharing.

use rules::RulesetId;
use rules::profile::Profile;

use super::share::share_button;
use super::sources::sources_menu;
use crate::app::measure::LengthUnit;
use crate::app::{AppState, Mode, Tool};

/// The toolbar: mode, tool, source, units.
pub fn toolbar(ui: &mut egui::Ui, state: &mut AppState) {
    ui.horizontal(|ui| {
        ui.heading("Vedette");
        ui.separator();
        let ctx = ui.ctx().clone();
        for (mode, label) in [
            (Mode::Play, "▶ Play"),
            (Mode::Umpire, "⚖ Umpire"),
            (Mode::Convention, "🎪 Convention (F11)"),
        ] {
            if ui.selectable_label(state.mode == mode, label).clicked() {
                state.set_mode(&ctx, mode);
            }
        }
        ui.separator();
        let measuring = state.tool == Tool::Measure;
        if ui
            .selectable_label(measuring, "📏 Measure")
            .on_hover_text("Click two units, or two points, in either view")
            .clicked()
        {
            state.tool = if measuring {
                Tool::Select
            } else {
                Tool::Measure
            };
            state.measure = Default::default();
        }
        ui.separator();
        // Open until a click outside it or Open: a table's cameras are added one by one.
        let stays_open = egui::containers::menu::MenuConfig::new()
            .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
        egui::containers::menu::MenuButton::new("📷 Source")
            .config(stays_open)
            .ui(ui, |ui| sources_menu(ui, state));
        ruleset_choice(ui, state);
        if ui
            .selectable_label(state.roster.open, "🏷 Roster")
            .on_hover_text("Edit the roster and teach Vedette your tags")
            .clicked()
        {
            state.roster.open = !state.roster.open;
        }
        share_button(ui, state);
        ui.separator();
        let units = &mut state.settings.units;
        ui.selectable_value(units, LengthUnit::Ruleset, "ruleset's unit");
        ui.selectable_value(units, LengthUnit::Inches, "inches");
        ui.selectable_value(units, LengthUnit::Centimetres, "cm");
    });
}

/// Which ruleset the table is ruled by: the roster's, or one chosen here (kept between runs).
fn ruleset_choice(ui: &mut egui::Ui, state: &mut AppState) {
    let chosen = state.settings.setup.ruleset;
    let name = |id: RulesetId| Profile::builtin(id).name().to_owned();
    let in_play = state
        .table
        .as_ref()
        .and_then(|t| t.scene.as_ref())
        .map(|s| s.ruleset);
    let shown = match (chosen, in_play) {
        (Some(id), _) => name(id),
        (None, Some(id)) => format!("{} (the roster's)", name(id)),
        (None, None) => "the roster's ruleset".to_owned(),
    };
    let mut pick = chosen;
    egui::ComboBox::from_label("ruleset")
        .selected_text(format!("📖 {shown}"))
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut pick, None, "The roster's ruleset");
            for id in RulesetId::ALL {
                ui.selectable_value(&mut pick, Some(id), name(id));
            }
        });
    if pick != chosen {
        state.settings.setup.ruleset = pick;
        state.commands.push(live::pipeline::Command::Ruleset(pick));
    }
    if let Some(id) = pick.or(in_play) {
        reconstructions(ui, Profile::builtin(id));
    }
}

/// A warning when the ruleset's book lost numbers that its profile reconstructs, listing them
/// on hover, so players know which values to check against their own copy.
fn reconstructions(ui: &mut egui::Ui, profile: &Profile) {
    let guessed = profile.reconstructed();
    if guessed.is_empty() {
        return;
    }
    let list: Vec<String> = guessed
        .iter()
        .map(|r| format!("{} = {} — {}", r.setting, r.value, r.note))
        .collect();
    ui.label(
        egui::RichText::new(format!("⚠ {} reconstructed values", guessed.len()))
            .color(egui::Color32::from_rgb(220, 160, 40)),
    )
    .on_hover_text(format!(
        "{} lost these numbers in its source; Vedette uses the digest's reconstruction of each. \
         Check them against your copy (a profile file with `--profile` or `vedette profile` changes them):\n{}",
        profile.name(),
        list.join("\n")
    ));
}
