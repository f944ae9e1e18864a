//! The table in motion: the latest moves, each checked as `vedette check-move` checks it, and
//! the tags whose look calls for a remedy.

use egui::RichText;
use rules::units::Inches;

use crate::app::overlay::{verdict_colour, verdict_mark};
use crate::app::pipeline::MoveRecord;
use crate::app::{AppState, DIM, WARN};

/// Moves listed at most, newest first.
const MOVES_SHOWN: usize = 12;

/// The latest moves, newest first; a click selects the unit.
pub fn moves_panel(ui: &mut egui::Ui, state: &mut AppState) {
    let Some(table) = state.table.clone() else {
        return;
    };
    let Some(scene) = table.scene.as_deref() else {
        return;
    };
    let lengths = state.settings.units.for_scene(scene);
    egui::CollapsingHeader::new(format!("🔀 Moves ({})", table.moves.len()))
        .default_open(true)
        .show(ui, |ui| {
            if table.moves.is_empty() {
                ui.label(RichText::new("No move yet: each unit picked up or slid and left lies here once it is still.").color(DIM));
            }
            for record in table.moves.iter().rev().take(MOVES_SHOWN) {
                let verdict = record.verdict();
                let text = format!(
                    "{} {} {} {}",
                    verdict_mark(verdict),
                    record.name,
                    lengths.format(record.event.straight()),
                    record.how()
                );
                let row = ui
                    .selectable_label(
                        state.selected.as_deref() == Some(record.event.unit.as_str()),
                        RichText::new(text).color(verdict_colour(verdict)),
                    )
                    .on_hover_text(details(record, &|l| lengths.format(l)));
                if row.clicked() {
                    state.selected = Some(record.event.unit.clone());
                }
            }
        });
}

/// A move in full, for its hover: where from and to, the way it went, when, and its check.
fn details(record: &MoveRecord, format: &dyn Fn(Inches) -> String) -> String {
    let event = &record.event;
    let mut lines = vec![
        format!(
            "from ({:.1}, {:.1}) to ({:.1}, {:.1}), turned {:.0}°",
            event.from.leader.x,
            event.from.leader.y,
            event.to.leader.x,
            event.to.leader.y,
            event.turned().0
        ),
        format!(
            "{} along its way, from {:.1} s to {:.1} s",
            format(event.path),
            event.started.as_secs_f64(),
            event.ended.as_secs_f64()
        ),
    ];
    if let Some(check) = &record.check {
        lines.extend(
            check
                .rulings
                .iter()
                .map(|r| format!("{} {}", verdict_mark(r.verdict()), r.explanation)),
        );
    }
    lines.join("\n")
}

/// The tags that need care, in the status bar: the first remedy in words, every one on hover.
pub fn tag_care(ui: &mut egui::Ui, state: &AppState) {
    let Some(table) = &state.table else {
        return;
    };
    let Some(first) = table.health.first() else {
        return;
    };
    let more = table.health.len() - 1;
    let text = if more == 0 {
        format!("⚠ {first}")
    } else {
        format!("⚠ {first} (+{more} more)")
    };
    let all: Vec<String> = table
        .health
        .iter()
        .map(|r| {
            format!(
                "{r} (blur {:.1} px, ink {:.0} % of the paper, fit {:.2})",
                r.look.blur.0,
                100.0 * r.look.ink,
                r.look.fit
            )
        })
        .collect();
    ui.label(RichText::new(text).color(WARN))
        .on_hover_text(all.join("\n"));
}
