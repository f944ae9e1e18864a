//! The game's timeline under the video: look back at any moment of a recorded game, step move
//! by move and turn by turn, jump to a bookmark, pin a moment to compare the next ones with.

use std::time::Duration;

use egui::{Color32, RichText, Sense, Stroke};
use record::{GameRecord, GameTime, MarkKind};

use crate::app::{AppState, DIM};
use live::replay::Replay;

/// How often a game still being played is read again while looking back at it.
const REFRESH_EVERY: Duration = Duration::from_secs(2);

/// The colour of a bookmark of each kind.
pub fn mark_colour(kind: MarkKind) -> Color32 {
    match kind {
        MarkKind::Turn => Color32::from_gray(235),
        MarkKind::Case => Color32::from_rgb(240, 200, 60),
        MarkKind::Contact => Color32::from_rgb(240, 90, 80),
        MarkKind::ChargeReach => Color32::from_rgb(250, 150, 60),
        MarkKind::InRange => Color32::from_rgb(120, 170, 250),
        MarkKind::Note => Color32::from_rgb(180, 140, 250),
        MarkKind::Order => Color32::from_rgb(120, 220, 200),
    }
}

/// The timeline bar: for a live game, the way into its record; while looking back, the
/// cursor, the steps and the bookmarks.
pub fn timeline_bar(ui: &mut egui::Ui, state: &mut AppState) {
    ui.horizontal(|ui| {
        if state.replay.is_none() {
            look_back_button(ui, state);
            games_menu(ui, state);
            return;
        }
        keep_live_record_fresh(ui, state);
        let moved = state
            .replay
            .as_mut()
            .and_then(|replay| steps_and_cursor(ui, replay));
        if let Some(at) = moved {
            state.seek(at);
        }
        pin_and_live(ui, state);
    });
}

/// "Look back" on a live, recorded game.
fn look_back_button(ui: &mut egui::Ui, state: &mut AppState) {
    // Nothing is said before the pipeline's first word: a game being started is recorded
    // from its first frame, and "not recorded" would be false until then.
    let Some(table) = &state.table else {
        return;
    };
    let Some(recorder) = table.recorder.clone() else {
        ui.label(
            RichText::new("This game is not recorded: there is nothing to look back at.")
                .color(DIM),
        );
        return;
    };
    let clicked = ui
        .button("⏪ Look back")
        .on_hover_text("Scrub back through this game: the table, the rulings and the camera's pictures as they were at any moment. The game goes on being recorded meanwhile.")
        .clicked();
    ui.label(RichText::new(format!("recorded up to {}", recorder.until())).color(DIM));
    if clicked {
        recorder.flush();
        match GameRecord::open(recorder.path()) {
            Ok(record) => {
                let until = record.until();
                state.look_back(Replay::new(record, true), until);
            }
            Err(e) => state.message = Some(e.to_string()),
        }
    }
}

/// The games kept in the games folder, newest first: a click replays one.
fn games_menu(ui: &mut egui::Ui, state: &mut AppState) {
    const LISTED: usize = 30;
    ui.menu_button("📂 Games", |ui| {
        let games = record::place::games_folder()
            .map(|f| record::place::games_in(&f))
            .unwrap_or_default();
        if games.is_empty() {
            ui.label(RichText::new("No game recorded yet.").color(DIM));
        }
        for path in games.iter().take(LISTED) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if ui
                .button(name)
                .on_hover_text(path.display().to_string())
                .clicked()
            {
                match record::open_game(path) {
                    Ok(record) => {
                        let begins = record.begins();
                        state.look_back(Replay::new(record, false), begins);
                    }
                    Err(e) => state.message = Some(e.to_string()),
                }
                ui.close();
            }
        }
        if games.len() > LISTED {
            ui.label(
                RichText::new(format!(
                    "and {} older: vedette replay FILE",
                    games.len() - LISTED
                ))
                .color(DIM),
            );
        }
    });
}

/// A game still being played: read its record again now and then.
fn keep_live_record_fresh(ui: &egui::Ui, state: &mut AppState) {
    let Some(replay) = &mut state.replay else {
        return;
    };
    if !replay.is_live() {
        return;
    }
    let now = ui.input(|i| i.time);
    if now - state.timeline_read >= REFRESH_EVERY.as_secs_f64() {
        replay.refresh();
        state.timeline_read = now;
    }
    ui.ctx().request_repaint_after(REFRESH_EVERY);
}

/// ⏮ ◀ [timeline] ▶ ⏭ and the time: the moment to go to, if one was asked for.
fn steps_and_cursor(ui: &mut egui::Ui, replay: &mut Replay) -> Option<GameTime> {
    let mut go = None;
    let step = |ui: &mut egui::Ui, label: &str, hint: &str, to: Option<GameTime>| {
        let clicked = ui
            .add_enabled(to.is_some(), egui::Button::new(label))
            .on_hover_text(hint)
            .clicked();
        to.filter(|_| clicked)
    };
    go = go.or(step(ui, "⏮", "The turn before", replay.previous_turn()));
    go = go.or(step(ui, "◀", "The move before", replay.previous_move()));
    // Room on the right for the steps, the clocks, the bookmarks and the pin.
    let width = (ui.available_width() - 560.0).max(120.0);
    go = go.or(cursor(ui, replay, width));
    go = go.or(step(ui, "▶", "The next move", replay.next_move()));
    go = go.or(step(ui, "⏭", "The next turn", replay.next_turn()));
    ui.label(RichText::new(format!("{} / {}", replay.at(), replay.record().until())).monospace());
    if let Some(taken) = replay.picture_taken().filter(|t| *t != replay.at()) {
        ui.label(RichText::new(format!("📷 {taken}")).color(DIM))
            .on_hover_text("The camera's picture kept nearest this moment (one every 30 s, at each turn mark and case): the units are drawn where they stood at the moment shown");
    }
    go.or_else(|| bookmarks_menu(ui, replay))
}

/// The timeline itself: moves as small ticks, bookmarks as coloured ones, the moment shown as
/// a white line, a pinned moment as a blue one. Click or drag to go anywhere.
fn cursor(ui: &mut egui::Ui, replay: &Replay, width: f32) -> Option<GameTime> {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 26.0), Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, Color32::from_gray(40));
    let until = replay.record().until().millis().max(1) as f32;
    let x_of = |t: GameTime| rect.left() + rect.width() * (t.millis() as f32 / until).min(1.0);
    let time_of = |x: f32| {
        GameTime::from_millis((((x - rect.left()) / rect.width()).clamp(0.0, 1.0) * until) as u64)
    };
    for made in replay.record().moves() {
        let x = x_of(made.ended);
        painter.line_segment(
            [
                egui::pos2(x, rect.bottom() - 7.0),
                egui::pos2(x, rect.bottom()),
            ],
            Stroke::new(1.0, DIM),
        );
    }
    for mark in replay.record().marks() {
        let x = x_of(mark.at);
        let top = if mark.kind == MarkKind::Turn {
            rect.top()
        } else {
            rect.top() + 6.0
        };
        painter.line_segment(
            [egui::pos2(x, top), egui::pos2(x, rect.bottom() - 8.0)],
            Stroke::new(1.5, mark_colour(mark.kind)),
        );
    }
    if let Some((pinned, _)) = replay.pinned() {
        let x = x_of(*pinned);
        painter.line_segment(
            [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
            Stroke::new(2.5, Color32::from_rgb(90, 160, 255)),
        );
    }
    let x = x_of(replay.at());
    painter.line_segment(
        [
            egui::pos2(x, rect.top() - 2.0),
            egui::pos2(x, rect.bottom() + 2.0),
        ],
        Stroke::new(2.5, Color32::WHITE),
    );
    let response = response.on_hover_ui_at_pointer(|ui| {
        if let Some(pointer) = ui.ctx().pointer_hover_pos() {
            let at = time_of(pointer.x);
            let near = replay
                .record()
                .marks()
                .iter()
                .filter(|m| (x_of(m.at) - pointer.x).abs() <= 4.0);
            let lines: Vec<String> = near
                .take(6)
                .map(|m| format!("{} {}", m.kind.symbol(), m.label))
                .collect();
            ui.label(format!("{at}\n{}", lines.join("\n")));
        }
    });
    let pointer = response.interact_pointer_pos()?;
    (response.clicked() || response.dragged()).then(|| time_of(pointer.x))
}

/// The bookmarks, by kind, in a menu: a click goes there.
fn bookmarks_menu(ui: &mut egui::Ui, replay: &Replay) -> Option<GameTime> {
    let marks = replay.record().marks();
    let mut go = None;
    ui.menu_button(format!("🔖 {}", marks.len()), |ui| {
        egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
            for mark in marks {
                let text = RichText::new(format!("{} {}  {}", mark.kind.symbol(), mark.at, mark.label)).color(mark_colour(mark.kind));
                if ui.selectable_label(mark.at == replay.at(), text).clicked() {
                    go = Some(mark.at);
                    ui.close();
                }
            }
            if marks.is_empty() {
                ui.label(RichText::new("No bookmark yet: turns, cases, contacts and enemies come into range are marked as they happen.").color(DIM));
            }
        });
    });
    go
}

/// 📌 pin the moment to compare; ● Live back to the live table, when a camera runs behind.
fn pin_and_live(ui: &mut egui::Ui, state: &mut AppState) {
    let live_behind = state.live_table.is_some();
    let Some(replay) = &mut state.replay else {
        return;
    };
    let pinned = replay.pinned().is_some();
    let label = if pinned { "📌 Unpin" } else { "📌 Pin" };
    if ui
        .selectable_label(pinned, label)
        .on_hover_text("Pin this moment, then go to another: the two plans side by side, and each move between them checked against its allowance (as check-move)")
        .clicked()
    {
        replay.pin(!pinned);
    }
    if let Some(problem) = replay.problem() {
        ui.label(RichText::new(format!("⚠ {problem}")).color(crate::app::WARN));
    }
    if (replay.is_live() || live_behind)
        && ui
            .button("● Live")
            .on_hover_text("Back to the table as it is now")
            .clicked()
    {
        state.back_to_live();
    }
}

/// The plan at the pinned moment beside the plan at the moment shown.
pub fn plans_side_by_side(ui: &mut egui::Ui, state: &mut AppState) -> Option<crate::app::Click> {
    let pinned = state.replay.as_ref().and_then(|r| r.pinned().cloned())?;
    let shown_at = state.replay.as_ref().map(Replay::at).unwrap_or_default();
    let mut click = None;
    ui.columns(2, |columns| {
        columns[0].label(RichText::new(format!("📌 {}", pinned.0)).strong());
        let shown = state.table.replace(pinned.1.clone());
        // The pinned plan is for looking: a click there selects nothing.
        let _ = super::plan_view::plan_view(&mut columns[0], state);
        state.table = shown;
        columns[1].label(RichText::new(format!("{shown_at}")).strong());
        click = super::plan_view::plan_view(&mut columns[1], state);
    });
    click
}

/// Each move between the pinned moment and the one shown, checked against its allowance.
pub fn checks_between(ui: &mut egui::Ui, state: &AppState) {
    let Some(replay) = &state.replay else {
        return;
    };
    let Some((pinned, _)) = replay.pinned() else {
        return;
    };
    let (from, to) = if *pinned <= replay.at() {
        (*pinned, replay.at())
    } else {
        (replay.at(), *pinned)
    };
    ui.heading(format!("↔ Moves from {from} to {to}"));
    let checks = replay.checks_between();
    let moved: Vec<_> = checks.iter().filter(|c| c.distance.0 > 0.05).collect();
    if moved.is_empty() {
        ui.label(RichText::new("No unit moved between the two moments.").color(DIM));
    }
    for check in moved {
        for ruling in &check.rulings {
            super::inspector::ruling_row(ui, ruling);
        }
    }
    ui.separator();
}
