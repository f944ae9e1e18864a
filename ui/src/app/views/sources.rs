//! The source chooser: the demo table, a webcam (from the cameras found, at a resolution), a
//! video file or a picture, with the table's files — switched without a restart; or several
//! cameras over one table, added and removed one by one (a remote camera among them), or read
//! from a cameras file.

use std::path::PathBuf;

use egui::RichText;

use crate::app::source_form::{Kind, SourceForm};
use crate::app::{AppState, DIM};
use live::pipeline::{Command, MOST_CAMERAS, Recording, Setup, load_cameras};

/// Resolutions offered for webcams.
const RESOLUTIONS: [(u32, u32); 3] = [(1280, 720), (1920, 1080), (3840, 2160)];

/// Several cameras over the table: the list, each removable, the picture shown, and the
/// camera above added to it, or a cameras file read.
fn cameras_of_table(ui: &mut egui::Ui, form: &mut SourceForm, commands: &mut Vec<Command>) {
    ui.separator();
    ui.label(RichText::new("Cameras over this table").strong());
    let mut removed = None;
    for (i, camera) in form.rig.iter().enumerate() {
        ui.horizontal(|ui| {
            if ui
                .radio(
                    form.shown == i,
                    format!("{}: {}", camera.name, camera.source),
                )
                .on_hover_text("show this camera's picture")
                .clicked()
            {
                form.shown = i;
                commands.push(Command::ShowCamera(i));
            }
            if ui.small_button("✖").on_hover_text("remove it").clicked() {
                removed = Some(i);
            }
        });
    }
    if let Some(i) = removed {
        form.rig.remove(i);
        form.shown = 0;
    }
    ui.horizontal(|ui| {
        ui.label("Name:");
        ui.add(egui::TextEdit::singleline(&mut form.camera_name).desired_width(120.0));
        let room = form.rig.len() < MOST_CAMERAS;
        if ui
            .add_enabled(room, egui::Button::new("➕ Add the camera above"))
            .clicked()
        {
            form.add_camera();
        }
    });
    ui.horizontal(|ui| {
        ui.label("Cameras file:");
        ui.add(egui::TextEdit::singleline(&mut form.cameras_file).desired_width(200.0));
        if ui.button("Read").clicked() {
            match load_cameras(&PathBuf::from(form.cameras_file.trim())) {
                Ok(rig) => (form.rig, form.rig_error) = (rig, None),
                Err(e) => form.rig_error = Some(e.to_string()),
            }
        }
    });
    if let Some(error) = &form.rig_error {
        ui.colored_label(egui::Color32::LIGHT_RED, error);
    }
    if !form.rig.is_empty() {
        ui.label(
            RichText::new("Open plays every camera of the list, fused into one table; each camera's calibration is the one given when it was added, or made from the anchors.")
                .color(DIM),
        );
    }
}

/// The chooser, in the toolbar's menu.
pub fn sources_menu(ui: &mut egui::Ui, state: &mut AppState) {
    ui.set_min_width(420.0);
    let form = &mut state.source_form;
    ui.horizontal(|ui| {
        ui.selectable_value(&mut form.kind, Kind::Demo, "Demo table");
        ui.selectable_value(&mut form.kind, Kind::Webcam, "Webcam");
        ui.selectable_value(&mut form.kind, Kind::Video, "Video file");
        ui.selectable_value(&mut form.kind, Kind::Image, "Picture");
        ui.selectable_value(&mut form.kind, Kind::Remote, "Remote camera");
    });
    match form.kind {
        Kind::Demo => {
            ui.label(
                RichText::new(
                    "A Black Powder scenario played by the synthetic camera: no camera needed.",
                )
                .color(DIM),
            );
        }
        Kind::Webcam => {
            if ui.button("Find cameras").clicked() {
                form.cameras = Some(
                    vision::source::list_cameras()
                        .into_iter()
                        .map(|c| (c.index, c.name))
                        .collect(),
                );
            }
            match &form.cameras {
                Some(found) if found.is_empty() => {
                    ui.label(RichText::new("No camera found on this machine.").color(DIM));
                }
                Some(found) => {
                    for (index, name) in found {
                        ui.radio_value(&mut form.camera, *index, format!("{index}: {name}"));
                    }
                }
                None => {
                    ui.horizontal(|ui| {
                        ui.label("Camera index:");
                        ui.add(egui::DragValue::new(&mut form.camera).range(0..=16));
                    });
                }
            }
            egui::ComboBox::from_label("resolution")
                .selected_text(format!("{}×{}", form.resolution.0, form.resolution.1))
                .show_ui(ui, |ui| {
                    for r in RESOLUTIONS {
                        ui.selectable_value(&mut form.resolution, r, format!("{}×{}", r.0, r.1));
                    }
                });
        }
        Kind::Video | Kind::Image => {
            ui.horizontal(|ui| {
                ui.label("File:");
                ui.text_edit_singleline(&mut form.path);
            });
        }
        Kind::Remote => {
            ui.horizontal(|ui| {
                ui.label("Broker:");
                ui.text_edit_singleline(&mut form.path)
                    .on_hover_text("mqtt://host[:port]/table — the camera sends as `vedette camera --mqtt … --name NAME`");
            });
        }
    }
    cameras_of_table(ui, form, &mut state.commands);
    if form.kind != Kind::Demo || !form.rig.is_empty() {
        egui::Grid::new("table-files")
            .num_columns(2)
            .show(ui, |ui| {
                for (label, field) in [
                    ("Calibration (vedette calibrate)", &mut form.calibration),
                    ("Anchors (to calibrate here)", &mut form.anchors),
                    ("Roster", &mut form.roster),
                    ("Terrain (a scene file)", &mut form.terrain),
                ] {
                    ui.label(label);
                    ui.text_edit_singleline(field);
                    ui.end_row();
                }
            });
    }
    ui.separator();
    if ui.button("Open").clicked() {
        // Another source is another game: recorded as the first was, unless that one was
        // recorded into a file of the player's choosing, which it has now filled.
        let record = match &state.settings.setup.record {
            Recording::Off => Recording::Off,
            Recording::Kept | Recording::File(_) => Recording::Kept,
        };
        let setup = Setup {
            ruleset: state.settings.setup.ruleset,
            record,
            ..form.setup()
        };
        state.settings.setup = setup.clone();
        state.commands.push(Command::Open(setup));
        state.table = None;
        state.live_status = None;
        state.selected = None;
        ui.close();
    }
}
