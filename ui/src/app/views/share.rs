//! The Share button: serve the table to phones on the local network (as `vedette serve` does),
//! with a QR code to scan across the table.

use std::net::SocketAddr;

use egui::{Color32, RichText, Sense, Vec2};

use crate::app::{AppState, DIM, WARN};
use crate::serve::qr::{self, Modules};
use crate::serve::{ServeOptions, Server, States};

/// The port tried first; another is taken if it is busy.
const PORT: u16 = 8765;

/// The table's server, while it runs.
#[derive(Default)]
pub struct Share {
    /// The server and its link's QR code.
    running: Option<(Server, Option<Modules>)>,
    /// Why the last start failed.
    error: Option<String>,
    /// Asked from the UI: start (`true`) or stop; done by the app, which holds the pipeline.
    pub requested: Option<bool>,
    /// Whether the umpire's link is shown.
    show_umpire: bool,
}

impl Share {
    /// Whether the table is being served.
    pub fn is_on(&self) -> bool {
        self.running.is_some()
    }

    /// Pages connected now (0 when not shared).
    pub fn viewers(&self) -> usize {
        self.running
            .as_ref()
            .map_or(0, |(server, _)| server.viewers())
    }

    /// The links, while the table is shared.
    pub fn links(&self) -> Option<&crate::serve::Links> {
        self.running.as_ref().map(|(server, _)| server.links())
    }

    /// Start serving `states` (or stop).
    pub fn switch(&mut self, on: bool, states: Option<States>) {
        self.error = None;
        if !on {
            self.running = None;
            return;
        }
        let Some(states) = states else {
            self.error = Some("no live table to share".into());
            return;
        };
        let options = |port: u16| ServeOptions {
            listen: SocketAddr::from(([0, 0, 0, 0], port)),
            ..ServeOptions::default()
        };
        let started = Server::start(options(PORT), states.clone())
            .or_else(|_| Server::start(options(0), states));
        match started {
            Ok(server) => {
                let code = qr::modules(&server.links().viewer);
                self.running = Some((server, code));
            }
            Err(e) => {
                tracing::error!("cannot share the table: {e}");
                self.error = Some(e.to_string());
            }
        }
    }
}

/// The toolbar's button.
pub fn share_button(ui: &mut egui::Ui, state: &mut AppState) {
    let on = state.share.is_on();
    let label = if on { "📱 Shared" } else { "📱 Share" };
    if ui
        .selectable_label(on, label)
        .on_hover_text("Show the table on phones and tablets on this network (a QR code to scan)")
        .clicked()
    {
        state.share.requested = Some(!on);
    }
}

/// The window with the link and its QR code, while the table is shared.
pub fn share_window(ctx: &egui::Context, state: &mut AppState) {
    let share = &mut state.share;
    if let Some(error) = share.error.clone() {
        let mut open = true;
        egui::Window::new("Share the table")
            .open(&mut open)
            .show(ctx, |ui| {
                ui.colored_label(WARN, format!("Cannot share the table: {error}"));
            });
        if !open {
            share.error = None;
        }
        return;
    }
    let Some((server, code)) = &share.running else {
        return;
    };
    let mut open = true;
    let mut show_umpire = share.show_umpire;
    egui::Window::new("Share the table")
        .open(&mut open)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label("Scan with a phone on the same network:");
            if let Some(code) = code {
                qr_code(ui, code, 200.0);
            }
            let links = server.links();
            ui.label(RichText::new(&links.viewer).monospace());
            ui.label(RichText::new(format!("{} page(s) watching", server.viewers())).color(DIM));
            ui.checkbox(&mut show_umpire, "Show the umpire's link");
            if show_umpire {
                ui.label(RichText::new(&links.umpire).monospace());
                ui.label(
                    RichText::new("It can freeze the view and save cases: keep it to yourself.")
                        .color(WARN),
                );
            }
        });
    share.show_umpire = show_umpire;
    if !open {
        share.requested = Some(false);
    }
}

/// A QR code, black on white with its quiet zone, `side` points wide.
fn qr_code(ui: &mut egui::Ui, code: &Modules, side: f32) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::WHITE);
    let quiet = 2.0;
    let module = side / (code.side as f32 + 2.0 * quiet);
    for row in 0..code.side {
        for column in 0..code.side {
            if code.is_dark(row, column) {
                let min = rect.min
                    + Vec2::new(
                        (column as f32 + quiet) * module,
                        (row as f32 + quiet) * module,
                    );
                painter.rect_filled(
                    egui::Rect::from_min_size(min, Vec2::splat(module)),
                    0.0,
                    Color32::BLACK,
                );
            }
        }
    }
}
