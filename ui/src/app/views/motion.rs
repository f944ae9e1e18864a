//! The table in motion: the latest moves, each checked as `vedette check-move` checks it, and
//! the tags whose look calls for a remedy.

use egui::RichText;
use rules::units::Inches;

use crate::app::overlay::{marks_legend, verdict_colour, verdict_mark};
use crate::app::{AppState, DIM, WARN};
use live::pipeline::MoveRecord;

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
            } else {
                ui.label(
                    RichText::new(format!("{} · {UNCHECKED} not checked", marks_legend()))
                        .small()
                        .color(DIM),
                );
            }
            for record in table.moves.iter().rev().take(MOVES_SHOWN) {
                let (mark, colour) = move_mark(record);
                let text = format!(
                    "{mark} {} {} {}",
                    record.name,
                    lengths.format(record.event.straight()),
                    record.how()
                );
                let row = ui
                    .selectable_label(
                        state.selected.as_deref() == Some(record.event.unit.as_str()),
                        RichText::new(text).color(colour),
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
    if record.check.is_none() {
        lines.push(format!(
            "{UNCHECKED} not checked: no table before it to check it against"
        ));
    }
    for (verdict, words) in record.checks() {
        match verdict {
            Some(verdict) => lines.push(format!("{} {words}", verdict_mark(verdict))),
            None => lines.push(format!(
                "{UNCHECKED} {words} (this record, made by an older Vedette, kept no verdict)"
            )),
        }
    }
    lines.join("\n")
}

/// The mark of a move no check decided: never a tick, which would say it was allowed.
pub const UNCHECKED: &str = "•";

/// A move's mark and colour: its check's worst verdict, or [`UNCHECKED`] dimmed.
fn move_mark(record: &MoveRecord) -> (&'static str, egui::Color32) {
    match record.verdict() {
        Some(verdict) => (verdict_mark(verdict), verdict_colour(verdict)),
        None => (UNCHECKED, DIM),
    }
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
