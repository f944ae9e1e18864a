//! The cameras of a rig, as the command line (`--webcam 0 --webcam 2`) or a cameras file
//! names them.
//!
//! A cameras file (TOML) lists each camera under `[[camera]]`: its `name`, one source —
//! `webcam` (an index, with an optional `resolution`), `video`, `image`, or `mqtt` (a camera
//! on another machine, `mqtt://host[:port]/table`, sending as `vedette camera --name` it) — and
//! optionally its own `calibration` (made by `vedette calibrate` for that camera; without one,
//! it calibrates itself from the table's anchors). Paths are read from the file's folder.

use std::path::Path;

use super::*;

/// The most cameras one table takes: each is a thread detecting 1080p frames.
pub const MOST_CAMERAS: usize = 8;

/// Why a cameras file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CamerasFileError {
    /// It cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// It is not a cameras file (TOML's message names the line).
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: String,
        /// TOML's message.
        message: String,
    },
    /// A camera in it is wrong.
    #[error("{path}: camera {number} ({name}): {problem}")]
    Camera {
        /// The file.
        path: String,
        /// Its place in the file, from 1.
        number: usize,
        /// Its name.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// The cameras as a whole are wrong (none, too many, two of one name).
    #[error("{path}: {problem}")]
    Cameras {
        /// The file.
        path: String,
        /// What is wrong.
        problem: String,
    },
}

/// A camera as the file writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CameraEntry {
    name: Option<String>,
    webcam: Option<u32>,
    resolution: Option<String>,
    video: Option<PathBuf>,
    image: Option<PathBuf>,
    mqtt: Option<String>,
    calibration: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CamerasFile {
    camera: Vec<CameraEntry>,
}

/// Read a cameras file.
pub fn load_cameras(path: &Path) -> Result<Vec<CameraChoice>, CamerasFileError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| CamerasFileError::Read {
        path: shown.clone(),
        source,
    })?;
    let file: CamerasFile = toml::from_str(&text).map_err(|e| CamerasFileError::Parse {
        path: shown.clone(),
        message: e.to_string(),
    })?;
    let folder = path.parent().unwrap_or(Path::new("."));
    let cameras = file
        .camera
        .into_iter()
        .enumerate()
        .map(|(i, entry)| camera(entry, folder, i + 1, &shown))
        .collect::<Result<Vec<_>, _>>()?;
    check_rig(&cameras).map_err(|problem| CamerasFileError::Cameras {
        path: shown,
        problem,
    })?;
    Ok(cameras)
}

/// Whether cameras make a rig: one to [`MOST_CAMERAS`], each named once.
pub fn check_rig(cameras: &[CameraChoice]) -> Result<(), String> {
    if cameras.is_empty() {
        return Err("no camera: list each under [[camera]]".into());
    }
    if cameras.len() > MOST_CAMERAS {
        return Err(format!(
            "{} cameras: one table takes at most {MOST_CAMERAS}",
            cameras.len()
        ));
    }
    for (i, camera) in cameras.iter().enumerate() {
        if cameras[..i].iter().any(|c| c.name == camera.name) {
            return Err(format!(
                "two cameras are named {:?}: give each its own name",
                camera.name
            ));
        }
    }
    Ok(())
}

fn camera(
    entry: CameraEntry,
    folder: &Path,
    number: usize,
    path: &str,
) -> Result<CameraChoice, CamerasFileError> {
    let name = entry
        .name
        .clone()
        .unwrap_or_else(|| format!("camera {number}"));
    let wrong = |problem: String| CamerasFileError::Camera {
        path: path.to_owned(),
        number,
        name: name.clone(),
        problem,
    };
    let size = match &entry.resolution {
        Some(text) => crate::capture::parse_resolution(text).map_err(wrong)?,
        None => calibration::ImageSize {
            width: 1920,
            height: 1080,
        },
    };
    let sources = [
        entry.webcam.map(|index| SourceChoice::Webcam {
            index,
            width: size.width,
            height: size.height,
        }),
        entry.video.map(|p| SourceChoice::Video(folder.join(p))),
        entry.image.map(|p| SourceChoice::Image(folder.join(p))),
        entry.mqtt.map(SourceChoice::Remote),
    ];
    let mut given = sources.into_iter().flatten();
    let (Some(source), None) = (given.next(), given.next()) else {
        return Err(wrong(
            "give it exactly one of webcam, video, image or mqtt".into(),
        ));
    };
    if let SourceChoice::Remote(url) = &source {
        url.parse::<crate::mqtt::Broker>()
            .map_err(|e| wrong(e.to_string()))?;
    }
    Ok(CameraChoice {
        name,
        source,
        calibration: entry.calibration.map(|p| folder.join(p)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Vec<CameraChoice>, CamerasFileError> {
        // A folder of each call's own: the tests run at once.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let folder =
            std::env::temp_dir().join(format!("vedette-cameras-{}-{call}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("temporary folder");
        let path = folder.join("cameras.toml");
        std::fs::write(&path, text).expect("written");
        let loaded = load_cameras(&path);
        let _ = std::fs::remove_dir_all(&folder);
        loaded
    }

    #[test]
    fn a_cameras_file_names_each_camera_and_its_source() {
        let cameras = load(
            "[[camera]]\nname = \"west\"\nwebcam = 0\ncalibration = \"west.toml\"\n\n\
             [[camera]]\nname = \"far end\"\nmqtt = \"mqtt://hall.local/table-7\"\n\n\
             [[camera]]\nimage = \"east.png\"\nresolution = \"4k\"\n",
        )
        .expect("a good file");
        assert_eq!(cameras.len(), 3);
        assert_eq!(cameras[0].name, "west");
        assert!(matches!(
            cameras[0].source,
            SourceChoice::Webcam {
                index: 0,
                width: 1920,
                ..
            }
        ));
        let calibration = cameras[0].calibration.as_deref();
        assert!(calibration.is_some_and(|p| p.ends_with("west.toml")));
        assert_eq!(
            cameras[1].source,
            SourceChoice::Remote("mqtt://hall.local/table-7".into())
        );
        assert_eq!(cameras[2].name, "camera 3");
    }

    #[test]
    fn a_wrong_camera_is_named_with_its_file_and_place() {
        let both = load("[[camera]]\nname = \"west\"\nwebcam = 0\nvideo = \"a.mp4\"\n")
            .expect_err("two sources");
        let text = both.to_string();
        assert!(text.contains("cameras.toml: camera 1 (west)"), "{text}");
        assert!(text.contains("exactly one"), "{text}");
        let twice =
            load("[[camera]]\nname = \"a\"\nwebcam = 0\n[[camera]]\nname = \"a\"\nwebcam = 1\n")
                .expect_err("one name twice");
        assert!(twice.to_string().contains("two cameras are named \"a\""));
        let typo = load("[[camera]]\nwebcan = 0\n").expect_err("unknown field");
        assert!(typo.to_string().contains("line 2"), "{typo}");
        let broker = load("[[camera]]\nmqtt = \"http://x\"\n").expect_err("not mqtt");
        assert!(
            broker.to_string().contains("not an MQTT address"),
            "{broker}"
        );
    }
}
