//! Convention mode: the video and the plan full screen, in large type, with the interesting
//! rulings of the table shown in turn, unattended. Nothing accumulates from frame to frame (one
//! texture, reused; the newest table state only), so it runs for hours at a steady size.

use egui::{Color32, RichText};
use rules::ruling::{Topic, Verdict};
use rules::rulings::Rulings;

use crate::app::overlay::{verdict_colour, verdict_mark};
use crate::app::{AppState, DIM, Mode};

/// How long each ruling stays on screen.
pub const SECONDS_PER_RULING: f64 = 8.0;

/// The rulings worth showing a visitor, most striking first: borderline calls, charges that
/// can go in, who must shoot whom, contacts.
pub fn interesting(rulings: &Rulings) -> Vec<(String, usize)> {
    let mut found: Vec<(u8, String, usize)> = Vec::new();
    for unit in &rulings.units {
        for (i, r) in unit.rulings.iter().enumerate() {
            let rank = match (r.topic, r.verdict()) {
                (_, Verdict::Borderline) if !r.shapes.is_empty() => 0,
                (Topic::Charge, Verdict::Yes) => 1,
                (Topic::Shooting, Verdict::Yes) if r.other.is_some() => 2,
                (Topic::Support | Topic::Retire, Verdict::Yes) => 3,
                _ => continue,
            };
            found.push((rank, unit.summary.id.clone(), i));
        }
    }
    found.sort_by_key(|(rank, _, _)| *rank);
    found.into_iter().map(|(_, unit, i)| (unit, i)).collect()
}

/// Move the tour on when its time is up (or the ruling shown has gone).
fn advance(state: &mut AppState, now: f64) {
    let Some(rulings) = state.table.as_ref().and_then(|t| t.rulings.clone()) else {
        state.tour.shown = None;
        return;
    };
    let list = interesting(&rulings);
    let expired = now - state.tour.since >= SECONDS_PER_RULING;
    let gone = state.tour.shown.as_ref().is_some_and(|s| !list.contains(s));
    if state.tour.shown.is_none() || expired || gone {
        state.tour.shown = if list.is_empty() {
            None
        } else {
            Some(list[state.tour.step % list.len()].clone())
        };
        state.tour.step += 1;
        state.tour.since = now;
        state.selected = state.tour.shown.as_ref().map(|(unit, _)| unit.clone());
    }
}

/// Convention mode, full window.
pub fn convention(ui: &mut egui::Ui, state: &mut AppState) {
    let now = ui.input(|i| i.time);
    advance(state, now);
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_secs(1));
    egui::Panel::bottom("caption").show(ui, |ui| {
        ui.add_space(6.0);
        caption(ui, state);
        ui.horizontal(|ui| {
            if let Some(status) = state.status() {
                let note = status.error.clone().unwrap_or_else(|| {
                    format!("{} — {:.0} frames/s", status.source, status.pipeline_fps)
                });
                ui.label(RichText::new(note).color(DIM));
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("Leave convention mode (Esc)").clicked() {
                    let ctx = ui.ctx().clone();
                    state.set_mode(&ctx, Mode::Play);
                }
            });
        });
        ui.add_space(4.0);
    });
    egui::Panel::right("convention-plan")
        .default_size(ui.available_width() * 0.34)
        .show(ui, |ui| {
            let _ = super::plan_view::plan_view(ui, state);
        });
    egui::CentralPanel::default().show(ui, |ui| {
        let _ = super::live_view::live_view(ui, state);
    });
}

fn caption(ui: &mut egui::Ui, state: &AppState) {
    let table = state.table.as_deref();
    let ruling = state.tour.shown.as_ref().and_then(|(unit, i)| {
        table?
            .rulings
            .as_deref()?
            .units
            .iter()
            .find(|u| &u.summary.id == unit)?
            .rulings
            .get(*i)
    });
    match ruling {
        Some(r) => {
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new(verdict_mark(r.verdict()))
                        .size(34.0)
                        .color(verdict_colour(r.verdict())),
                );
                ui.label(
                    RichText::new(&r.explanation)
                        .size(26.0)
                        .color(Color32::WHITE),
                );
            });
            ui.label(RichText::new(r.rule.rule).size(18.0).color(DIM));
        }
        None => {
            ui.label(
                RichText::new("Vedette reads the table: move a unit and watch the rules answer.")
                    .size(26.0),
            );
        }
    }
}
