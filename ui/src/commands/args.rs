//! Arguments several commands share, and the parsers of the command line's values.

use std::path::PathBuf;

/// Detector settings shared by the camera commands.
#[derive(Debug, Clone, clap::Args)]
pub struct DetectorArgs {
    /// Find quads on an image this many times smaller: faster, but small tags are lost
    /// (1 finds 1" tags across a 6' table at 1080p; 2 needs about 2" tags).
    #[arg(long, default_value_t = 1.0, value_name = "FACTOR", value_parser = within(1.0_f32, 8.0))]
    pub decimate: f32,
    /// Detector threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
    pub threads: Option<u8>,
}

impl DetectorArgs {
    /// The detector settings these arguments ask for.
    pub fn settings(&self) -> vision::DetectorSettings {
        let defaults = vision::DetectorSettings::default();
        vision::DetectorSettings {
            decimate: self.decimate,
            threads: self.threads.unwrap_or(defaults.threads),
            ..defaults
        }
    }
}

/// Where `locate` and `analyze` read from.
#[derive(Debug, Clone, clap::Args)]
pub struct LocateInputs {
    /// The picture (PNG, JPEG …).
    pub image: PathBuf,
    /// The calibration made by `vedette calibrate`.
    #[arg(long, value_name = "CAMERA.toml")]
    pub calibration: PathBuf,
    /// The roster: which tag is on which stand of which unit.
    #[arg(long, value_name = "ROSTER.toml")]
    pub roster: Option<PathBuf>,
    /// A scene file whose terrain is on the table (the camera sees only tags).
    #[arg(long, value_name = "SCENE")]
    pub terrain: Option<PathBuf>,
    /// Height of tags the roster does not list, inches above the cloth.
    #[arg(long, default_value_t = 0.16, value_name = "INCHES")]
    pub tag_height: f64,
}

impl LocateInputs {
    /// The inputs as `locate` and `analyze` take them.
    pub fn args(&self) -> super::locate::LocateArgs<'_> {
        super::locate::LocateArgs {
            image: &self.image,
            calibration: &self.calibration,
            roster: self.roster.as_deref(),
            terrain: self.terrain.as_deref(),
            tag_height: rules::units::Inches(self.tag_height),
        }
    }
}

/// A kind of lens by the first word of its name.
pub(crate) fn parse_lens(text: &str) -> Result<vision::synthetic::LensClass, String> {
    vision::synthetic::LensClass::ALL
        .into_iter()
        .find(|lens| lens.name().split_whitespace().next() == Some(text))
        .ok_or_else(|| format!("{text}: use distortion-free, ordinary, pincushion or wide"))
}

/// A synthetic rendering by its name (`bench accuracy --rendering`).
pub(crate) fn parse_rendering(text: &str) -> Result<vision::synthetic::Rendering, String> {
    vision::synthetic::Rendering::named(text).ok_or_else(|| {
        let names: Vec<&str> = vision::synthetic::Rendering::ALL
            .iter()
            .map(|r| r.name())
            .collect();
        format!("{text}: use {}", names.join(", "))
    })
}

/// A tag family by its AprilTag name.
pub(crate) fn parse_family(text: &str) -> Result<roster::TagFamily, String> {
    roster::TagFamily::ALL
        .into_iter()
        .find(|f| f.name() == text)
        .ok_or_else(|| format!("{text}: use tag36h11, tag25h9 or tag16h5"))
}

/// A parser of a number from `low` to `high`, saying the range when it is not in it.
pub(crate) fn within<T>(low: T, high: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        let value: T = text
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a number"))?;
        if low <= value && value <= high {
            Ok(value)
        } else {
            Err(format!("{text} is out of range: use {low} to {high}"))
        }
    }
}
