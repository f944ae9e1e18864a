//! The Share button: serve the table to phones on the local network (as `vedette serve` does),
//! with a QR code to scan across the table.

use egui::{Color32, RichText, Sense, Vec2};

use crate::app::{AppState, DIM, WARN};
use crate::web::qr::Modules;

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
            remote_links(ui, server.as_ref());
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

/// The remote players' links, each side's and the umpire's, and whether the broker is reached.
fn remote_links(ui: &mut egui::Ui, server: &dyn crate::web::share::Served) {
    let Some((connected, pages)) = server.remote() else {
        return;
    };
    ui.separator();
    let state = if connected {
        RichText::new(format!(
            "Remote players: the broker is reached, {pages} remote page(s)"
        ))
    } else {
        RichText::new("Remote players: the broker cannot be reached — retrying").color(WARN)
    };
    ui.label(state);
    for (seat, link) in server.remote_links() {
        let who = seat
            .side()
            .map_or("the umpire".to_owned(), |side| format!("{side}'s player"));
        ui.label(RichText::new(who).color(DIM));
        ui.label(RichText::new(link).monospace().small());
    }
    ui.separator();
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
