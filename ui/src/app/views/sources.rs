//! The source chooser: the demo table, a webcam (from the cameras found, at a resolution), a
//! video file or a picture, with the table's files — switched without a restart; or several
//! cameras over one table, added and removed one by one (a remote camera among them), or read
//! from a cameras file.

use std::path::PathBuf;

use egui::RichText;

use crate::app::{AppState, DIM};
use live::pipeline::{
    CameraChoice, Command, MOST_CAMERAS, Recording, Setup, SourceChoice, check_rig, load_cameras,
};

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
    /// A camera on another machine, heard over MQTT.
    Remote,
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
    /// The cameras over the table when there are several (empty: the one source above).
    pub rig: Vec<CameraChoice>,
    /// The name the next camera added takes (empty: one made from its source).
    pub camera_name: String,
    /// A cameras file to read the rig from.
    pub cameras_file: String,
    /// Why the last change to the rig was refused.
    pub rig_error: Option<String>,
    /// The camera of the rig whose picture is shown.
    pub shown: usize,
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
            // The cameras are in the list below; the form above is for the next one added.
            SourceChoice::Cameras(_) => (Kind::Webcam, 0, (1920, 1080), String::new()),
            SourceChoice::Remote(url) => (Kind::Remote, 0, (1920, 1080), url.clone()),
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
            rig: match &setup.source {
                SourceChoice::Cameras(cameras) => cameras.clone(),
                _ => Vec::new(),
            },
            camera_name: String::new(),
            cameras_file: String::new(),
            rig_error: None,
            shown: 0,
        }
    }

    /// The one camera the form describes, as a camera of the rig (the demo is none).
    fn camera(&self) -> Option<CameraChoice> {
        let source = self.source();
        let name = match (self.camera_name.trim(), &source) {
            (_, SourceChoice::Demo | SourceChoice::Cameras(_)) => return None,
            ("", SourceChoice::Webcam { index, .. }) => format!("webcam {index}"),
            ("", SourceChoice::Video(p) | SourceChoice::Image(p)) => p
                .file_stem()
                .map_or("camera".into(), |s| s.to_string_lossy().into_owned()),
            ("", SourceChoice::Remote(_)) => "remote".into(),
            (name, _) => name.to_owned(),
        };
        Some(CameraChoice {
            name,
            source,
            calibration: path(&self.calibration),
        })
    }

    fn source(&self) -> SourceChoice {
        match self.kind {
            Kind::Demo => SourceChoice::Demo,
            Kind::Webcam => SourceChoice::Webcam {
                index: self.camera,
                width: self.resolution.0,
                height: self.resolution.1,
            },
            Kind::Video => SourceChoice::Video(PathBuf::from(self.path.trim())),
            Kind::Image => SourceChoice::Image(PathBuf::from(self.path.trim())),
            Kind::Remote => SourceChoice::Remote(self.path.trim().to_owned()),
        }
    }

    /// Add the camera the form describes to the rig.
    pub fn add_camera(&mut self) {
        let Some(camera) = self.camera() else {
            self.rig_error = Some("the demo table is not a camera: pick a webcam, a video, a picture or a remote camera".into());
            return;
        };
        let mut rig = self.rig.clone();
        rig.push(camera);
        match check_rig(&rig) {
            Ok(()) => (self.rig, self.rig_error) = (rig, None),
            Err(e) => self.rig_error = Some(e),
        }
    }

    /// The setup the form describes: the rig when it has cameras, else the one source (a
    /// remote camera alone is a rig of one).
    pub fn setup(&self) -> Setup {
        let (source, calibration) = match (self.rig.is_empty(), self.kind) {
            (false, _) => (SourceChoice::Cameras(self.rig.clone()), None),
            (true, Kind::Remote) => (
                SourceChoice::Cameras(self.camera().into_iter().collect()),
                None,
            ),
            (true, _) => (self.source(), path(&self.calibration)),
        };
        Setup {
            source,
            calibration,
            anchors: path(&self.anchors),
            roster: path(&self.roster),
            terrain: path(&self.terrain),
            ruleset: None,
            record: Recording::Kept,
        }
    }
}

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
