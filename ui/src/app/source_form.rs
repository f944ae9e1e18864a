//! The source chooser's fields as typed (the Sources menu draws them): what the app turns into
//! a [`Setup`] when the player opens it.

use std::path::PathBuf;

use live::pipeline::{CameraChoice, Recording, Setup, SourceChoice, check_rig};

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
