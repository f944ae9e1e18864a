//! The unit list, the inspector (a unit's stats, formation and every ruling about it) and the
//! tape measure's readings.

use egui::{Color32, RichText};
use rules::ruling::{Ruling, Verdict};
use rules::scene::Unit;

use crate::app::measure::tape;
use crate::app::overlay::{marks_legend, side_colour, verdict_colour, verdict_mark};
use crate::app::{AppState, DIM, WARN};

/// Every unit on the table, by side; click one to select it.
pub fn unit_list(ui: &mut egui::Ui, state: &mut AppState) {
    ui.heading("Units");
    let Some(table) = state.table.clone() else {
        ui.label(RichText::new("No table yet.").color(DIM));
        return;
    };
    let Some(scene) = table.scene.as_deref() else {
        ui.label(RichText::new("No units: the table needs a calibration and a roster.").color(DIM));
        return;
    };
    let mut sides: Vec<&str> = Vec::new();
    for unit in &scene.units {
        if !sides.contains(&unit.side.as_str()) {
            sides.push(&unit.side);
        }
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        for side in sides {
            let name = scene
                .side(side)
                .and_then(|s| s.name.as_deref())
                .unwrap_or(side);
            ui.label(RichText::new(name).strong().color(side_colour(scene, side)));
            for unit in scene.units.iter().filter(|u| u.side == side) {
                let selected = state.selected.as_deref() == Some(unit.id.as_str());
                let mut text = RichText::new(&unit.name);
                if table.held_units.contains_key(&unit.id) {
                    text = text.italics().color(DIM);
                }
                let response = ui.selectable_label(selected, text);
                if response.clicked() {
                    state.selected = Some(unit.id.clone());
                    if state.mode == crate::app::Mode::Umpire {
                        state
                            .dispute
                            .push(crate::app::measure::Pick::Unit(unit.id.clone()));
                    }
                }
            }
            ui.add_space(6.0);
        }
        if let Some(status) = state.status() {
            if !status.partial.is_empty() {
                ui.label(RichText::new("Partly seen").strong().color(DIM));
                for partial in &status.partial {
                    ui.label(RichText::new(partial.to_string()).color(DIM));
                }
            }
            if !status.unseen.is_empty() {
                ui.label(RichText::new("Not seen").strong().color(DIM));
                for unit in &status.unseen {
                    ui.label(RichText::new(&unit.name).color(DIM))
                        .on_hover_text(&unit.id);
                }
            }
        }
    });
}

/// A ruling as a row: its mark, its sentence, its rule; borderline ones say so.
pub fn ruling_row(ui: &mut egui::Ui, ruling: &Ruling) {
    ui.horizontal_wrapped(|ui| {
        let colour = verdict_colour(ruling.verdict());
        ui.label(
            RichText::new(verdict_mark(ruling.verdict()))
                .color(colour)
                .strong(),
        );
        ui.label(&ruling.explanation);
        if ruling.verdict() == Verdict::Borderline {
            ui.label(
                RichText::new("BORDERLINE — players decide")
                    .color(Color32::BLACK)
                    .background_color(colour)
                    .strong(),
            );
        }
        let rule = match ruling.rule.reading {
            Some(reading) => format!("[{}, {reading}]", ruling.rule.rule),
            None => format!("[{}]", ruling.rule.rule),
        };
        ui.label(RichText::new(rule).small().color(DIM));
    });
}

fn stats(ui: &mut egui::Ui, unit: &Unit, state: &AppState, table: &live::pipeline::TableState) {
    let units = state.settings.units.for_table(table.scene.as_deref());
    let frame = unit.footprint.frame();
    let summary = table
        .rulings
        .as_deref()
        .and_then(|r| r.units.iter().find(|u| u.summary.id == unit.id))
        .map(|u| &u.summary);
    egui::Grid::new("unit-stats")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            let mut row = |name: &str, value: String| {
                ui.label(RichText::new(name).color(DIM));
                ui.label(value);
                ui.end_row();
            };
            row("side", unit.side.clone());
            row(
                "kind",
                format!("{} in {}", unit.kind.as_str(), unit.formation.as_str()),
            );
            if let Some(brigade) = &unit.brigade {
                row("brigade", brigade.clone());
            }
            row(
                "frontage × depth",
                format!(
                    "{} × {}",
                    units.format(frame.width()),
                    units.format(frame.depth())
                ),
            );
            let leader = unit.footprint.leader();
            row(
                "leader",
                format!(
                    "({:.2}, {:.2}), facing {:.1}°",
                    leader.x,
                    leader.y,
                    frame.facing().0
                ),
            );
            if let Some(s) = summary {
                row("move", units.format(s.move_allowance));
                let weapon = s.weapon.clone().unwrap_or_else(|| "none".into());
                let range = s
                    .weapon_range
                    .map_or_else(|| "no range".to_owned(), |r| units.format(r));
                row(
                    "weapon",
                    format!(
                        "{weapon}, {range}{}",
                        if s.can_shoot {
                            ""
                        } else {
                            " (cannot shoot in this formation)"
                        }
                    ),
                );
                if let Some(near) = &s.nearest_enemy {
                    row(
                        "nearest enemy",
                        format!("{} at {}", near.id, units.format(near.edge_distance)),
                    );
                }
            }
            if let Some(line) = &unit.stats {
                row("type", line.unit_type.clone());
                row("armament", line.armament.clone());
                row(
                    "hand-to-hand · shooting · morale · stamina",
                    format!(
                        "{} · {} · {} · {}",
                        line.hand_to_hand, line.shooting, line.morale, line.stamina
                    ),
                );
                if !line.special.is_empty() {
                    row("special", line.special.join(", "));
                }
            }
            let s = &unit.state;
            let flags: Vec<&str> = [
                (s.engaged == Some(true), "engaged"),
                (s.disordered, "disordered"),
                (s.shaken, "shaken"),
            ]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect();
            if !flags.is_empty() {
                row("state", flags.join(", "));
            }
        });
}

/// The selected unit: stats, formation, its move this turn, and every ruling about it.
pub fn inspector(ui: &mut egui::Ui, state: &mut AppState) {
    let Some(table) = state.table.clone() else {
        return;
    };
    let Some(scene) = table.scene.as_deref() else {
        return;
    };
    let Some(unit) = state.selected.as_deref().and_then(|id| scene.unit(id)) else {
        ui.heading("Inspector");
        ui.label(
            RichText::new("Select a unit: click it in either view or in the list.").color(DIM),
        );
        return;
    };
    ui.heading(
        RichText::new(format!("{} ({})", unit.name, unit.id)).color(side_colour(scene, &unit.side)),
    );
    if let Some(why) = table.held_units.get(&unit.id) {
        ui.label(
            RichText::new(format!(
                "Not seen now ({why}): held where it was last seen."
            ))
            .italics()
            .color(DIM),
        );
    }
    if let Some(partial) = state
        .status()
        .and_then(|s| s.partial.iter().find(|p| p.unit == unit.id))
    {
        ui.label(RichText::new(format!("⚠ {partial}")).color(WARN));
    }
    stats(ui, unit, state, &table);
    if state.turn.start.is_some()
        && let Some(check) = state
            .turn
            .moves(scene)
            .into_iter()
            .find(|c| c.unit == unit.id)
    {
        ui.add_space(4.0);
        ui.label(RichText::new(format!("This turn (turn {})", state.turn.turn)).strong());
        for ruling in &check.rulings {
            ruling_row(ui, ruling);
        }
    }
    let Some(rulings) = table.rulings.as_deref() else {
        return;
    };
    let own = rulings.units.iter().find(|u| u.summary.id == unit.id);
    let mut topics: Vec<rules::ruling::Topic> = Vec::new();
    for r in own.iter().flat_map(|u| &u.rulings) {
        if !topics.contains(&r.topic) {
            topics.push(r.topic);
        }
    }
    let borderline = own
        .iter()
        .flat_map(|u| &u.rulings)
        .filter(|r| r.verdict() == Verdict::Borderline)
        .count();
    ui.add_space(6.0);
    ui.label(
        RichText::new(format!(
            "Rulings: {} ({borderline} borderline)",
            own.map_or(0, |u| u.rulings.len())
        ))
        .strong(),
    );
    ui.label(RichText::new(marks_legend()).small().color(DIM));
    let profile = scene.profile();
    for topic in topics {
        let heading = live::look::heading(topic, &profile);
        ui.label(RichText::new(heading).underline());
        for ruling in own
            .iter()
            .flat_map(|u| &u.rulings)
            .filter(|r| r.topic == topic)
        {
            ruling_row(ui, ruling);
        }
    }
    let about: Vec<&Ruling> = rulings
        .units
        .iter()
        .filter(|u| u.summary.id != unit.id)
        .flat_map(|u| &u.rulings)
        .chain(&rulings.general)
        .filter(|r| {
            r.other.as_deref() == Some(unit.id.as_str())
                || (r.unit == unit.id && r.other.is_some() && rulings.general.contains(r))
        })
        .collect();
    if !about.is_empty() {
        ui.add_space(4.0);
        ui.label(RichText::new("About it, from the others").underline());
        for ruling in about {
            ruling_row(ui, ruling);
        }
    }
}

/// The tape measure's readings.
pub fn tape_panel(ui: &mut egui::Ui, state: &mut AppState) {
    ui.heading("📏 Measure");
    let Some(scene) = state.table.as_ref().and_then(|t| t.scene.clone()) else {
        ui.label(RichText::new("No table to measure.").color(DIM));
        return;
    };
    let Some((a, b)) = state.measure.both() else {
        let hint = if state.measure.first.is_some() {
            "Now click the second unit or point."
        } else {
            "Click a unit or a point in either view, then another."
        };
        ui.label(RichText::new(hint).color(DIM));
        return;
    };
    match tape(&scene, &scene.profile(), a, b, state.settings.units) {
        Some(t) => {
            for (i, line) in t.lines.iter().enumerate() {
                let text = RichText::new(line);
                ui.label(if i == 0 {
                    text.strong().size(17.0)
                } else {
                    text
                });
            }
        }
        None => {
            ui.label(RichText::new("One of the units has left the table.").color(DIM));
        }
    }
    if ui.button("Clear").clicked() {
        state.measure = Default::default();
    }
}
