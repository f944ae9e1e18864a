//! The status bar: frames per second, detection time, UI frame time, calibration quality, tags
//! unknown and covered, and what is wrong in words.

use egui::{Color32, RichText};

use crate::app::{AppState, DIM, WARN};
use live::lens::LensStatus;
use live::pipeline::{CalibrationStatus, CameraStatus, Status};
use vision::rig::CameraState;

const BAD: Color32 = Color32::from_rgb(240, 90, 80);
const GOOD: Color32 = Color32::from_rgb(90, 220, 110);

const LEARNT_IN_PLAY: &str = "The lens is measured from the tags in play: every stand that moves to a new part of the picture teaches it more. It is kept for the next session.";
const FROM_THE_PICTURE: &str = "A still picture teaches nothing more than itself: the lens is measured once, from its anchors and the roster's stand tags, as `vedette calibrate` measures it. Without a roster (or with few stand tags in view) only the focal length is measured, and every distance carries a wider error bar.";

/// Where the lens stands; its button shades the live view by what the lens has been shown.
fn lens_status(ui: &mut egui::Ui, state: &mut AppState, lens: &LensStatus) {
    if *lens == LensStatus::Idle {
        return;
    }
    let (colour, why) = match lens {
        LensStatus::Fitted { .. } => (GOOD, LEARNT_IN_PLAY),
        LensStatus::OnePicture(Some(_)) => (GOOD, FROM_THE_PICTURE),
        LensStatus::OnePicture(None) => (WARN, FROM_THE_PICTURE),
        _ => (DIM, LEARNT_IN_PLAY),
    };
    ui.label(RichText::new(lens.to_string()).color(colour))
        .on_hover_text(why);
    if matches!(lens, LensStatus::OnePicture(_)) {
        return;
    }
    let toggle = ui
        .selectable_label(state.show_lens_coverage, "coverage")
        .on_hover_text("Show on the live view which parts of the picture the lens has seen tags in (green) and which not yet (amber)");
    if toggle.clicked() {
        state.show_lens_coverage = !state.show_lens_coverage;
    }
}

/// The button that shades the plan by the smallest tag the camera finds at each place.
fn sight_toggle(ui: &mut egui::Ui, state: &mut AppState) {
    if state.table.as_ref().is_none_or(|t| t.sight.is_none()) {
        return;
    }
    let toggle = ui
        .selectable_label(state.show_sight, "sight")
        .on_hover_text("Shade the plan by what the camera can see: green where the roster's tags are found, amber where only bigger tags are, grey outside the picture. Hover the plan for the smallest tag found there.");
    if toggle.clicked() {
        state.show_sight = !state.show_sight;
    }
}

/// Where the game is being kept, or why it is not.
fn recording(ui: &mut egui::Ui, recorder: Option<&record::Recorder>) {
    let Some(recorder) = recorder else {
        ui.label(RichText::new("not recorded").color(DIM))
            .on_hover_text(
                "This game is not recorded (--no-record, or it could not be: see the notes)",
            );
        return;
    };
    let name = recorder
        .path()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match recorder.problem() {
        Some(problem) => {
            ui.label(RichText::new(format!("⏺ recording failing: {problem}")).color(BAD));
        }
        None => {
            ui.label(RichText::new(format!("⏺ {name}")).color(GOOD))
                .on_hover_text(format!(
                    "The game is recorded in {}\nReplay it with: vedette replay \"{}\"",
                    recorder.path().display(),
                    recorder.path().display()
                ));
        }
    }
}

/// Each camera of several over the table: live, late or lost.
fn cameras(ui: &mut egui::Ui, cameras: &[CameraStatus]) {
    for camera in cameras {
        let colour = match camera.report.state {
            CameraState::Live => GOOD,
            CameraState::Late { .. } | CameraState::Waiting => WARN,
            CameraState::Lost { .. } => BAD,
        };
        let short = match camera.report.state {
            CameraState::Live => format!("📷 {} {:.0}/s", camera.report.name, camera.fps),
            CameraState::Late { .. } => format!("📷 {} late", camera.report.name),
            CameraState::Lost { .. } => format!("📷 {} LOST", camera.report.name),
            CameraState::Waiting => format!("📷 {} waiting", camera.report.name),
        };
        ui.label(RichText::new(short).color(colour).strong())
            .on_hover_text(camera.to_string());
    }
}

/// Why the error bars are wider than the camera's model alone says: the first reason in short,
/// every reason in full on hover.
fn doubts(ui: &mut egui::Ui, doubts: &[String]) {
    let Some(first) = doubts.first() else {
        return;
    };
    let short = first.split(" — ").next().unwrap_or(first);
    let more = match doubts.len() {
        1 => String::new(),
        n => format!(" (+{} more)", n - 1),
    };
    ui.label(RichText::new(format!("± widened: {short}{more}")).color(WARN))
        .on_hover_text(format!(
            "The error bars are wider than the camera's model alone says, because:\n• {}",
            doubts.join("\n• ")
        ));
}

/// The units not on the table: with several cameras, named, as no camera sees them.
fn unseen(ui: &mut egui::Ui, status: &Status) {
    let names: Vec<&str> = status.unseen.iter().map(|u| u.name.as_str()).collect();
    if names.is_empty() {
        return;
    }
    let text = if status.cameras.is_empty() {
        format!("{} unit(s) not seen", names.len())
    } else {
        let shown = names.len().min(4);
        let more = match names.len() - shown {
            0 => String::new(),
            more => format!(" and {more} more"),
        };
        format!("no camera sees: {}{more}", names[..shown].join(", "))
    };
    ui.label(RichText::new(text).color(WARN))
        .on_hover_text(names.join("\n"));
}

/// The status bar.
pub fn status_bar(ui: &mut egui::Ui, state: &mut AppState) {
    ui.horizontal_wrapped(|ui| {
        let timing = state.timing;
        let Some(status) = state.status().cloned() else {
            ui.label(RichText::new("Starting the pipeline…").color(DIM));
            return;
        };
        if let Some(error) = &status.error {
            ui.label(RichText::new(format!("⚠ {error}")).color(BAD).strong());
            ui.separator();
        }
        ui.label(RichText::new(&status.source).color(DIM));
        cameras(ui, &status.cameras);
        let live = state.live_table.as_ref().or(state.table.as_ref());
        let recorder = live.and_then(|t| t.recorder.clone());
        match &state.replay {
            Some(replay) if !replay.is_live() => {
                let path = replay.record().path();
                ui.label(RichText::new("⏪ a recorded game").color(GOOD))
                    .on_hover_text(path.display().to_string());
            }
            _ => recording(ui, recorder.as_ref()),
        }
        ui.separator();
        match &status.calibration {
            CalibrationStatus::Missing(why) => {
                ui.label(RichText::new(format!("⚠ {why}")).color(WARN).strong());
            }
            CalibrationStatus::Ready {
                rms_pixels,
                rms_inches,
                check,
                stale,
            } => {
                let colour = if *stale { BAD } else { GOOD };
                let text = if *stale {
                    format!("calibration STALE: {check}")
                } else {
                    format!("calibrated: {rms_pixels:.2} px / {rms_inches:.3}\" — {check}")
                };
                ui.label(RichText::new(text).color(colour));
                if *stale && ui.button("Recalibrate").clicked() {
                    state.commands.push(live::pipeline::Command::Recalibrate);
                }
            }
        }
        doubts(ui, &status.doubts);
        lens_status(ui, state, &status.lens);
        sight_toggle(ui, state);
        ui.separator();
        let tags = format!(
            "tags: {} unknown, {} not seen now",
            status.unknown_tags.len(),
            status.held_tags.len()
        );
        let tag_colour = if status.unknown_tags.is_empty() && status.held_tags.is_empty() {
            DIM
        } else {
            WARN
        };
        let held: Vec<String> = status
            .held_tags
            .iter()
            .map(|(id, why)| format!("{id}: {why}"))
            .collect();
        ui.label(RichText::new(tags).color(tag_colour))
            .on_hover_text(format!(
                "unknown: {:?}\nnot seen now, held at their last place:\n{}",
                status.unknown_tags,
                held.join("\n")
            ));
        unseen(ui, &status);
        if !status.partial.is_empty() {
            let lines: Vec<String> = status.partial.iter().map(ToString::to_string).collect();
            ui.label(
                RichText::new(format!("{} unit(s) partly seen", status.partial.len())).color(WARN),
            )
            .on_hover_text(lines.join("\n"));
        }
        super::motion::tag_care(ui, state);
        for note in status.notes.iter().take(2) {
            ui.label(RichText::new(note).color(WARN));
        }
        if let Some(message) = &state.message {
            ui.separator();
            ui.label(RichText::new(message).color(GOOD));
        }
        if state.frozen {
            ui.separator();
            ui.label(
                RichText::new("❄ FROZEN")
                    .color(Color32::LIGHT_BLUE)
                    .strong(),
            );
        }
        ui.separator();
        pace(ui, &status, timing);
    });
}

/// How fast the pipeline and the UI run. Last in the bar: these figures change width every
/// frame, and the buttons before them must not move under the pointer as they do.
fn pace(ui: &mut egui::Ui, status: &Status, timing: crate::app::UiTiming) {
    // Monospaced in fields of their own width, so that the bar wraps the same from frame to
    // frame and does not grow a line under the pointer.
    let figure = |text: String| RichText::new(text).monospace();
    ui.label(figure(format!(
        "pipeline {:>5.1} frames/s",
        status.pipeline_fps
    )))
    .on_hover_text(
        "Frames the camera pipeline processed per second (detection runs on its own thread)",
    );
    if status.dropped_frames > 0 {
        ui.label(RichText::new(format!("{} camera frames skipped", status.dropped_frames)).color(DIM))
            .on_hover_text("Frames that came while the pipeline was still busy with the one before: skipped, so the picture stays current and the camera never waits");
    }
    ui.label(figure(format!(
        "detect {:>4.0} ms",
        status.detect_time.as_secs_f64() * 1000.0
    )));
    ui.label(figure(format!(
        "UI {:>5.1} ms a frame",
        timing.build.as_secs_f64() * 1000.0
    )))
        .on_hover_text(format!(
            "Time to build the UI for one frame (the UI redraws when a frame arrives or you act; {:.0} ms since the previous one)",
            timing.frame.as_secs_f64() * 1000.0
        ));
}
