//! What the pipeline starts from: the source, and the table's files, loaded (problems loading
//! them are notes for the status bar, never a crash).

use super::*;

/// Where frames come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SourceChoice {
    /// The built-in demo table: a scenario played by the synthetic renderer.
    Demo,
    /// A webcam, by nokhwa's index, at a resolution.
    Webcam {
        /// Device index.
        index: u32,
        /// Width asked for, pixels.
        width: u32,
        /// Height asked for, pixels.
        height: u32,
    },
    /// A video file (played in a loop, so a convention table never runs dry).
    Video(PathBuf),
    /// One picture.
    Image(PathBuf),
    /// Several cameras over one table, fused into one table state (see `rig.rs`).
    Cameras(Vec<CameraChoice>),
    /// A camera on another machine, sending its tags over MQTT (`vedette camera --mqtt`): the
    /// broker's address, `mqtt://host[:port]/table`. A camera of a rig only.
    Remote(String),
}

impl std::fmt::Display for SourceChoice {
    /// What the source is called until it has opened and named itself.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceChoice::Demo => write!(f, "demo table"),
            SourceChoice::Webcam { index, .. } => write!(f, "webcam {index}"),
            SourceChoice::Video(path) | SourceChoice::Image(path) => {
                write!(f, "{}", path.display())
            }
            SourceChoice::Cameras(cameras) => {
                let names: Vec<&str> = cameras.iter().map(|c| c.name.as_str()).collect();
                write!(f, "{} cameras ({})", cameras.len(), names.join(", "))
            }
            SourceChoice::Remote(broker) => write!(f, "a remote camera at {broker}"),
        }
    }
}

/// Everything the pipeline needs to start: the source and the files that describe the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The frame source.
    pub source: SourceChoice,
    /// A calibration made by `vedette calibrate`.
    pub calibration: Option<PathBuf>,
    /// The anchor layout: lets the app calibrate (and recalibrate) by itself.
    pub anchors: Option<PathBuf>,
    /// Which tag is on which stand.
    pub roster: Option<PathBuf>,
    /// A scene file whose terrain is on the table.
    pub terrain: Option<PathBuf>,
    /// The ruleset to rule by; `None` plays the roster's (the scenario's on the demo table).
    #[serde(default)]
    pub ruleset: Option<RulesetId>,
    /// Where the game is recorded: chosen for each run (`--record`, `--no-record`), never
    /// kept between runs.
    #[serde(skip)]
    pub record: Recording,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            source: SourceChoice::Demo,
            calibration: None,
            anchors: None,
            roster: None,
            terrain: None,
            ruleset: None,
            record: Recording::Kept,
        }
    }
}

/// The table files, loaded. Problems loading them are notes for the status bar, never a crash.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// The calibration, if given and readable.
    pub calibration: Option<TableCalibration>,
    /// The anchors, if given: the processor calibrates from them when needed.
    pub anchors: Option<AnchorLayout>,
    /// The roster.
    pub roster: Option<Roster>,
    /// Terrain on the table.
    pub terrain: Vec<TerrainDoc>,
    /// What went wrong loading them.
    pub notes: Vec<String>,
    /// The ruleset chosen in the app over the roster's.
    pub ruleset: Option<RulesetId>,
    /// Where lenses learnt in play are kept between sessions (`None`: not kept).
    pub lens_folder: Option<PathBuf>,
    /// The source is one still picture: it is calibrated as `vedette calibrate` would
    /// calibrate it (the lens measured from its own tags), since no later frame teaches more.
    pub still: bool,
}

impl Inputs {
    /// Load the files a setup names.
    pub fn load(setup: &Setup) -> Inputs {
        let mut inputs = Inputs {
            ruleset: setup.ruleset,
            lens_folder: crate::lens::app_folder(),
            still: matches!(setup.source, SourceChoice::Image(_)),
            ..Inputs::default()
        };
        let note = |notes: &mut Vec<String>, e: &dyn std::fmt::Display| notes.push(e.to_string());
        if let Some(path) = &setup.calibration {
            match TableCalibration::load(path) {
                Ok(c) => inputs.calibration = Some(c),
                Err(e) => note(&mut inputs.notes, &e),
            }
        }
        if let Some(path) = &setup.anchors {
            match AnchorLayout::load(path) {
                Ok(a) => inputs.anchors = Some(a),
                Err(e) => note(&mut inputs.notes, &e),
            }
        }
        if let Some(path) = &setup.roster {
            match Roster::load(path) {
                Ok(r) => inputs.roster = Some(r),
                Err(e) => note(&mut inputs.notes, &e),
            }
        }
        let table_family = inputs
            .calibration
            .as_ref()
            .map(|c| c.family.as_str())
            .or_else(|| inputs.anchors.as_ref().map(|a| a.family.as_str()));
        if let (Some(roster), Some(family), Some(path)) =
            (&inputs.roster, table_family, &setup.roster)
            && let Some(clash) = roster.family_clash(family)
        {
            inputs.notes.push(format!("{}: {clash}", path.display()));
        }
        let anchor_ids: Vec<u32> = match (&inputs.calibration, &inputs.anchors) {
            (Some(calibration), _) => calibration.anchors.iter().map(|a| a.anchor.id).collect(),
            (None, Some(layout)) => layout.anchors.iter().map(|a| a.id).collect(),
            (None, None) => Vec::new(),
        };
        if let (Some(roster), Some(path)) = (&inputs.roster, &setup.roster) {
            for (id, owner) in roster.anchor_clashes(anchor_ids) {
                inputs.notes.push(format!(
                    "{}: tag {id} on {} is also an anchor of the table: give the stand another tag",
                    path.display(),
                    roster.describe(owner)
                ));
            }
        }
        if let Some(path) = &setup.terrain {
            match Scene::load(path) {
                Ok(scene) => inputs.terrain = rules::scene::SceneDoc::from(&scene).terrain,
                Err(e) => note(&mut inputs.notes, &e),
            }
        }
        inputs
    }
}

/// One camera of a rig over the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CameraChoice {
    /// Its name in the status bar and the plan ("west", "webcam 2", "far end").
    pub name: String,
    /// Where its frames (or, for a remote camera, its tags) come from.
    pub source: SourceChoice,
    /// Its own calibration; without one it calibrates itself from the table's anchors.
    pub calibration: Option<PathBuf>,
}

impl CameraChoice {
    /// Webcams by index, each calibrating itself from the anchors.
    pub fn webcams(indices: &[u32]) -> Vec<CameraChoice> {
        indices
            .iter()
            .map(|&index| CameraChoice {
                name: format!("webcam {index}"),
                source: SourceChoice::Webcam {
                    index,
                    width: 1920,
                    height: 1080,
                },
                calibration: None,
            })
            .collect()
    }
}
