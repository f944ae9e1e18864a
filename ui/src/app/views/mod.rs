//! One function per panel, each reading the [`AppState`] it shows, and [`show`], which lays
//! them out each frame. `table::draw_table` is what both views have in common: the same units
//! and ruling shapes, through each view's transform.

pub mod convention;
pub mod error_map;
pub mod inspector;
pub mod live_view;
pub mod motion;
pub mod plan_view;
pub mod remote;
pub mod roster;
pub mod share;
pub mod sources;
pub mod status;
pub mod table;
pub mod timeline;
pub mod toolbar;
pub mod umpire;

use std::time::Instant;

use super::measure::Picks;
use super::state::{AppState, Mode, Tool};

/// The app's look: dark, with slightly larger type than egui's default (a table is read from
/// a step back).
pub fn style(ctx: &egui::Context) {
    ctx.set_visuals(egui::Visuals::dark());
    ctx.global_style_mut(|style| {
        for (text_style, font) in style.text_styles.iter_mut() {
            if *text_style != egui::TextStyle::Monospace {
                font.size += 1.0;
            }
        }
    });
}

/// Draw the whole app for one frame.
pub fn show(ui: &mut egui::Ui, state: &mut AppState) {
    let started = Instant::now();
    let now = Instant::now();
    if let Some(last) = state.last_frame.replace(now) {
        state.timing.frame = now - last;
    }
    keys(ui.ctx(), state);
    state.hover = None;
    if state.mode == Mode::Convention {
        convention::convention(ui, state);
    } else {
        egui::Panel::top("toolbar").show(ui, |ui| toolbar::toolbar(ui, state));
        egui::Panel::bottom("status").show(ui, |ui| status::status_bar(ui, state));
        egui::Panel::bottom("timeline").show(ui, |ui| timeline::timeline_bar(ui, state));
        egui::Panel::left("units")
            .resizable(true)
            .default_size(210.0)
            .min_size(180.0)
            .show(ui, |ui| {
                motion::moves_panel(ui, state);
                ui.separator();
                inspector::unit_list(ui, state);
            });
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(380.0)
            .min_size(320.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    timeline::checks_between(ui, state);
                    if state.mode == Mode::Umpire {
                        umpire::umpire_panel(ui, state);
                        ui.separator();
                    }
                    if state.roster.open {
                        roster::roster_panel(ui, state);
                        ui.separator();
                    }
                    if state.tool == Tool::Measure {
                        inspector::tape_panel(ui, state);
                        ui.separator();
                    }
                    inspector::inspector(ui, state);
                });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            let height = ui.available_height();
            let width = ui.available_width();
            let live = egui::Vec2::new(width, (height * 0.56).max(120.0));
            let click = ui
                .allocate_ui(live, |ui| live_view::live_view(ui, state))
                .inner;
            if let Some(click) = click {
                state.click(click);
            }
            ui.separator();
            let comparing = state.replay.as_ref().is_some_and(|r| r.pinned().is_some());
            let click = if comparing {
                timeline::plans_side_by_side(ui, state)
            } else {
                plan_view::plan_view(ui, state)
            };
            if let Some(click) = click {
                state.click(click);
            }
        });
    }
    share::share_window(ui.ctx(), state);
    state.timing.build = started.elapsed();
}

fn keys(ctx: &egui::Context, state: &mut AppState) {
    let (f11, escape) = ctx.input(|i| {
        (
            i.key_pressed(egui::Key::F11),
            i.key_pressed(egui::Key::Escape),
        )
    });
    if f11 {
        let next = if state.mode == Mode::Convention {
            Mode::Play
        } else {
            Mode::Convention
        };
        state.set_mode(ctx, next);
    }
    if escape {
        if state.mode == Mode::Convention {
            state.set_mode(ctx, Mode::Play);
        } else {
            state.tool = Tool::Select;
            state.measure = Picks::default();
        }
    }
}
