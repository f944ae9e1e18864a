//! `vedette detect IMAGE [--json]`: the tags in a picture, in pixels.

use crate::args::DetectorArgs;
use std::io::Write;
use std::path::{Path, PathBuf};

use vision::{DetectorSettings, TagDetector, read_image};

/// Find the tags and print their ids, centres and corners.
pub fn run(
    image: &Path,
    settings: DetectorSettings,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let picture = read_image(image)?;
    let mut detector = TagDetector::new(settings)?;
    let found = detector.detect(&picture)?;
    tracing::info!(tags = found.tags.len(), time = ?found.detect_time, "detected in {}", image.display());
    if json {
        serde_json::to_writer_pretty(&mut *out, &found.tags)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "{}: {} tag(s) ({}, {} ms)",
        image.display(),
        found.tags.len(),
        detector.settings().family,
        found.detect_time.as_millis()
    )?;
    for tag in &found.tags {
        let s = &tag.sighting;
        let corners: Vec<String> = s
            .corners
            .iter()
            .map(|c| format!("({:.2}, {:.2})", c.x, c.y))
            .collect();
        writeln!(
            out,
            "  tag {:>4}  centre {}  side {:.1} px  margin {:.0}  corners {}",
            s.id,
            s.center(),
            s.side(),
            tag.decision_margin,
            corners.join(" ")
        )?;
    }
    Ok(())
}

/// The arguments of `vedette detect` (its help is the `Command` variant's).
#[derive(Debug, clap::Args)]
pub struct DetectCommand {
    /// The picture (PNG, JPEG …).
    pub image: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Tag family.
    #[arg(long, default_value = "tag36h11")]
    pub family: String,
    /// Detector settings.
    #[command(flatten)]
    pub detector: DetectorArgs,
}

impl DetectCommand {
    /// Run it, writing its report to `out`.
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let DetectCommand {
            image,
            json,
            family,
            detector,
        } = self;
        let settings = vision::DetectorSettings {
            family: family.clone(),
            ..detector.settings()
        };
        run(image, settings, *json, out)
    }
}
