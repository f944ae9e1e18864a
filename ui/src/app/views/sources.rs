//! The source chooser: the demo table, a webcam (from the cameras found, at a resolution), a
//! video file or a picture, with the table's files — switched without a restart.

use std::path::PathBuf;

use egui::RichText;

use crate::app::pipeline::{Command, Recording, Setup, SourceChoice};
use crate::app::{AppState, DIM};

/// Resolutions offered for webcams.
const RESOLUTIONS: [(u32, u32); 3] = [(1280, 720), (1920, 1080), (3840, 2160)];

/// Which kind of source the form is set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The demo table.
    Demo,
    /// A webcam.
    Webcam,
    /// A video file.
    Video,
    /// A picture.
    Image,
}

/// The chooser's fields, as typed.
#[derive(Clone, Debug)]
pub struct SourceForm {
    /// Source kind.
    pub kind: Kind,
    /// Webcam index.
    pub camera: u32,
    /// Webcam resolution.
    pub resolution: (u32, u32),
    /// Video or picture path.
    pub path: String,
    /// Calibration file.
    pub calibration: String,
    /// Anchors file.
    pub anchors: String,
    /// Roster file.
    pub roster: String,
    /// Terrain (scene) file.
    pub terrain: String,
    /// Cameras found by the last search: (index, name).
    pub cameras: Option<Vec<(u32, String)>>,
}

fn text(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

fn path(text: &str) -> Option<PathBuf> {
    let text = text.trim();
    (!text.is_empty()).then(|| PathBuf::from(text))
}

impl SourceForm {
    /// The form showing a setup.
    pub fn from_setup(setup: &Setup) -> SourceForm {
        let (kind, camera, resolution, file) = match &setup.source {
            SourceChoice::Demo => (Kind::Demo, 0, (1920, 1080), String::new()),
            SourceChoice::Webcam {
                index,
                width,
                height,
            } => (Kind::Webcam, *index, (*width, *height), String::new()),
            SourceChoice::Video(p) => (Kind::Video, 0, (1920, 1080), p.display().to_string()),
            SourceChoice::Image(p) => (Kind::Image, 0, (1920, 1080), p.display().to_string()),
        };
        SourceForm {
            kind,
            camera,
            resolution,
            path: file,
            calibration: text(&setup.calibration),
            anchors: text(&setup.anchors),
            roster: text(&setup.roster),
            terrain: text(&setup.terrain),
            cameras: None,
        }
    }

    /// The setup the form describes.
    pub fn setup(&self) -> Setup {
        let source = match self.kind {
            Kind::Demo => SourceChoice::Demo,
            Kind::Webcam => SourceChoice::Webcam {
                index: self.camera,
                width: self.resolution.0,
                height: self.resolution.1,
            },
            Kind::Video => SourceChoice::Video(PathBuf::from(self.path.trim())),
            Kind::Image => SourceChoice::Image(PathBuf::from(self.path.trim())),
        };
        Setup {
            source,
            calibration: path(&self.calibration),
            anchors: path(&self.anchors),
            roster: path(&self.roster),
            terrain: path(&self.terrain),
            ruleset: None,
            record: Recording::Kept,
        }
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
    }
    if form.kind != Kind::Demo {
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
