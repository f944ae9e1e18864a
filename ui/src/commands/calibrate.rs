//! `vedette calibrate IMAGE... --anchors ANCHORS.toml [--roster ROSTER.toml] -o CAMERA.toml`:
//! the camera against the table and the lens, from every tag of known size in the pictures —
//! the anchors, the roster's stand tags, and the board in any picture that shows it.

use crate::args::DetectorArgs;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use calibration::TableSize;
use calibration::lens::Coverage;
use calibration::{AnchorLayout, Board, ImageSize, StandTagSpec, TableCalibration, TagSighting};
use roster::Roster;
use rules::Scene;
use rules::ground::Ground;
use vision::refine::{TablePicture, TableTags, calibrate_pictures};
use vision::{DetectorSettings, TagDetector, read_image};

use super::table::{PlayedOn, anchors_for_another_table, parse_table};

/// Say so, before any work, when the table being played (`--table`, or the scenario's) is not
/// the one the anchors file is laid out for: the calibration would measure every place against
/// the file's table, and stands would come out in the wrong places.
fn warn_of_another_table(
    args: &CalibrateCommand,
    layout: &AnchorLayout,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let played = match (args.table.as_deref(), args.scenario.as_deref()) {
        (Some(text), _) => Some((PlayedOn::Told(text), parse_table(text)?)),
        (None, Some(path)) => {
            let scene = Scene::load(path)?;
            let table = TableSize {
                width: scene.table.width.0,
                depth: scene.table.depth.0,
            };
            Some((PlayedOn::Scene(path), table))
        }
        (None, None) => None,
    };
    let Some((played, table)) = played else {
        return Ok(());
    };
    if let Some(mismatch) = anchors_for_another_table(&args.anchors, layout, played, table) {
        writeln!(
            out,
            "warning: {}: the calibration measures every place against the anchors' table, so stands come out in the wrong places (lay the anchors where {} says, or make anchors for this table with `{}` and calibrate with them)",
            mismatch.description,
            args.anchors.display(),
            mismatch.remedy
        )?;
    }
    Ok(())
}

/// The roster's stand tags, less any that are also anchors or board tags (named, not used).
fn stand_tags(
    roster: &Roster,
    layout: &AnchorLayout,
    board: &Board,
    out: &mut dyn Write,
) -> anyhow::Result<HashMap<u32, StandTagSpec>> {
    let mut stands = roster.stand_tags();
    let mut clashes: Vec<u32> = stands
        .keys()
        .copied()
        .filter(|id| layout.anchor(*id).is_some() || board.placement(*id).is_some())
        .collect();
    clashes.sort_unstable();
    for id in clashes {
        stands.remove(&id);
        writeln!(
            out,
            "  ! roster tag {id} is also an anchor or board tag: not used as a stand tag"
        )?;
    }
    Ok(stands)
}

/// Say after each view of the board how much of the picture it has covered; returns how
/// many views show enough of it.
fn board_guidance(
    board: &Board,
    images: &[PathBuf],
    pictures: &[Vec<TagSighting>],
    size: ImageSize,
    out: &mut dyn Write,
) -> anyhow::Result<usize> {
    let mut coverage = Coverage::new();
    let mut views = 0;
    for (path, sightings) in images.iter().zip(pictures) {
        let tags: Vec<&TagSighting> = sightings
            .iter()
            .filter(|t| board.placement(t.id).is_some())
            .collect();
        if tags.len() < calibration::board::MIN_TAGS_PER_VIEW {
            continue;
        }
        views += 1;
        coverage.add(size, tags.iter().flat_map(|t| t.corners));
        let covered = coverage.fraction();
        let advice = if covered >= BOARD_ENOUGH && views >= calibration::board::MIN_VIEWS {
            "enough".to_owned()
        } else {
            format!(
                "not enough yet: hold the board, tilted, where it has not been (the corners and edges) until {:.0} %, in {} views or more",
                100.0 * BOARD_ENOUGH,
                calibration::board::MIN_VIEWS
            )
        };
        writeln!(
            out,
            "board view {views} ({}): {} tags; the board has covered {:.0} % of the picture — {advice}",
            path.display(),
            tags.len(),
            100.0 * covered
        )?;
    }
    Ok(views)
}

/// The share of the picture the board should have covered.
const BOARD_ENOUGH: f64 = 0.7;

/// The name of the picture the table is found in (see [`calibration::table_picture`]).
fn table_picture(
    layout: &AnchorLayout,
    images: &[PathBuf],
    pictures: &[Vec<TagSighting>],
) -> String {
    calibration::table_picture(layout, pictures)
        .map(|i| images[i].display().to_string())
        .unwrap_or_default()
}

/// The lens fit's figures: what was measured, from what, and how far to trust it.
fn write_lens(result: &TableCalibration, out: &mut dyn Write) -> std::io::Result<()> {
    let Some(report) = &result.lens_report else {
        return writeln!(out, "lens: {:?}", result.lens);
    };
    writeln!(
        out,
        "lens: measured from {} picture(s), {} tags — {}: RMS {}, tags placed within {:.3}\" by the lens (1σ, worst place)",
        report.pictures,
        report.tags,
        report.model.describe(),
        report.rms,
        report.pinned.0
    )?;
    writeln!(
        out,
        "  coverage: {:.0} % of the table's part of the picture; the detector's edges sit {:+.2} px from the printed squares'",
        100.0 * report.coverage.fraction(),
        report.edge.0
    )?;
    writeln!(
        out,
        "  residuals across the picture (RMS px, top row first):"
    )?;
    for line in report.residuals.lines() {
        writeln!(out, "    {line}")?;
    }
    Ok(())
}

/// What the calibration promises a player, and what would tighten it. `stands` is whether the
/// roster's stand tags were in the fit.
fn write_promise(
    result: &TableCalibration,
    stands: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let Some(promise) = result.promise else {
        return writeln!(
            out,
            "  promise: none worked out — the lens was not fitted from these pictures"
        );
    };
    writeln!(
        out,
        "  promise: stands placed within ±{:.2}\" (95 %) at the worst place on the table, near ({:.0}, {:.0})",
        promise.within.0, promise.at.x, promise.at.y
    )?;
    let tighter = if stands {
        "more pictures with the stands moved, or a minute of play (the app learns the lens), tighten it"
    } else {
        "from the anchors alone the lens's bend between them is not measured: `--roster` (the stand tags in the fit) or a minute of play (the app learns the lens) tightens it"
    };
    writeln!(out, "    {tighter}")
}

/// The calibration's figures; `stands` is whether the roster's stand tags were in the fit.
fn write_figures(
    result: &TableCalibration,
    stands: bool,
    image: &str,
    output: &Path,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let q = &result.quality;
    let lens = &result.camera.intrinsics;
    let eye = result.camera.pose.eye();
    writeln!(
        out,
        "table from {}: {} anchors used",
        image,
        result.anchors.len()
    )?;
    writeln!(out, "  reprojection: RMS {}, worst {}", q.rms, q.max)?;
    writeln!(
        out,
        "  on the table: RMS {}, worst {}",
        q.rms_on_table, q.max_on_table
    )?;
    write_promise(result, stands, out)?;
    writeln!(
        out,
        "  camera: {:.1}° from vertical, {:.0}\" above the table at ({:.1}, {:.1}); lens {:.0}° wide ({})",
        q.tilt.0,
        eye.z,
        eye.x,
        eye.y,
        lens.horizontal_field_of_view().0,
        result.lens
    )?;
    writeln!(
        out,
        "  resolution: {:.1} pixels per inch at the table's centre",
        1.0 / q.inches_per_pixel
    )?;
    for fit in &result.anchors {
        writeln!(
            out,
            "  anchor {:>3}: off by {} ({})",
            fit.anchor.id, fit.error, fit.error_on_table
        )?;
    }
    for id in &result.missing {
        writeln!(out, "  anchor {id:>3}: not seen")?;
    }
    for warning in &result.warnings {
        writeln!(out, "  ! {warning}")?;
    }
    writeln!(out, "saved {}", output.display())
}

/// The arguments of `vedette calibrate` (its help is the `Command` variant's).
#[derive(Clone, Debug, clap::Args)]
pub struct CalibrateCommand {
    /// Pictures: the table with its anchors in view (several, with the stands moved, pin
    /// the lens down better), and optionally the board.
    #[arg(required_unless_present = "cameras")]
    pub images: Vec<PathBuf>,
    /// Several cameras over one table: calibrate each camera of this cameras file from a
    /// frame of its own (a webcam's first frame, a video's, a picture) into the calibration
    /// file the cameras file names for it. Remote cameras are calibrated on their own machine.
    #[arg(long, value_name = "CAMERAS.toml", conflicts_with_all = ["images", "output", "lens"])]
    pub cameras: Option<PathBuf>,
    /// The anchor layout: where each anchor tag lies on the table.
    #[arg(long, value_name = "ANCHORS.toml")]
    pub anchors: PathBuf,
    /// The roster: every stand tag it lists (its size and height known, its place not)
    /// helps measure the lens.
    #[arg(long, value_name = "ROSTER.toml")]
    pub roster: Option<PathBuf>,
    /// Where to write the calibration.
    #[arg(
        short,
        long,
        value_name = "CAMERA.toml",
        required_unless_present = "cameras"
    )]
    pub output: Option<PathBuf>,
    /// Start from the lens of an earlier calibration; it is kept unless these pictures
    /// measure a better-founded one.
    #[arg(long, value_name = "CAMERA.toml")]
    pub lens: Option<PathBuf>,
    /// The table being played, width x depth (`108x60in`, `180x120cm`): a warning if the
    /// anchors file is laid out for another.
    #[arg(long, value_name = "WxH")]
    pub table: Option<String>,
    /// The scene or scenario being played: a warning if its table is not the one the
    /// anchors file is laid out for; stands on its hills (those given a `rise`) enter the fit
    /// at their true height.
    #[arg(long, value_name = "SCENE", conflicts_with = "table")]
    pub scenario: Option<PathBuf>,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
    /// Detector settings.
    #[command(flatten)]
    pub detector: DetectorArgs,
}

impl CalibrateCommand {
    /// Calibrate, save, and print the figures a player checks.
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        if let Some(cameras) = &self.cameras {
            return self.run_cameras(cameras, out);
        }
        let Some(output) = &self.output else {
            bail!("no output given: write the calibration with -o CAMERA.toml");
        };
        if self.images.is_empty() {
            bail!("no images given: show the camera the table with its anchors");
        }
        let mut inputs: Vec<&Path> = self.images.iter().map(PathBuf::as_path).collect();
        inputs.extend(
            [
                Some(self.anchors.as_path()),
                self.roster.as_deref(),
                self.lens.as_deref(),
                self.scenario.as_deref(),
            ]
            .into_iter()
            .flatten(),
        );
        super::output::claim(output, &inputs, self.force)?;
        let layout = AnchorLayout::load(&self.anchors)?;
        warn_of_another_table(self, &layout, out)?;
        let mut detector = TagDetector::new(DetectorSettings {
            family: layout.family.clone(),
            ..self.detector.settings()
        })?;
        let mut images = Vec::with_capacity(self.images.len());
        let mut detected: Vec<Vec<TagSighting>> = Vec::with_capacity(self.images.len());
        let mut size = None;
        for path in &self.images {
            let image = read_image(path)?;
            let this = vision::image_size(&image);
            match size {
                Some(first) if first != this => bail!(
                    "{}: it is {this}, the first image is {first}; calibrate one camera mode at a time",
                    path.display()
                ),
                _ => size = Some(this),
            }
            detected.push(detector.detect(&image)?.sightings());
            images.push(image);
        }
        let size = size.context("no image")?;
        let previous = self
            .lens
            .as_deref()
            .map(TableCalibration::load)
            .transpose()?;
        let board = Board::default();
        let stands = match &self.roster {
            Some(path) => {
                let anchors: Vec<u32> = layout.anchors.iter().map(|a| a.id).collect();
                let roster =
                    super::roster_for_table(path, &layout.family, &anchors, &self.anchors)?;
                stand_tags(&roster, &layout, &board, out)?
            }
            None => HashMap::new(),
        };
        let board_views = board_guidance(&board, &self.images, &detected, size, out)?;
        let pictures: Vec<TablePicture> = images
            .iter()
            .zip(&detected)
            .map(|(image, detected)| TablePicture { image, detected })
            .collect();
        // Stands on the scenario's hills enter the fit at their true height.
        let ground = self
            .scenario
            .as_deref()
            .map(Scene::load)
            .transpose()?
            .map(|scene| Ground::of(&scene.terrain));
        let tags = TableTags {
            anchors: &layout,
            stands: &stands,
            board: (board_views > 0).then_some(&board),
            previous: previous.as_ref(),
            ground: ground.as_ref(),
        };
        let fitted = calibrate_pictures(tags, &pictures, size)?;
        let (result, pictures) = (fitted.calibration, fitted.sightings);
        let result = result.with_context(|| table_picture(&layout, &self.images, &pictures))?;
        result.save(output)?;
        write_lens(&result, out)?;
        write_figures(
            &result,
            !stands.is_empty(),
            &table_picture(&layout, &self.images, &pictures),
            output,
            out,
        )?;
        Ok(())
    }

    /// Calibrate every camera of a cameras file, each from a frame of its own, into the
    /// calibration file it names.
    fn run_cameras(&self, path: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
        let cameras = live::pipeline::load_cameras(path)?;
        let mut done = 0;
        for camera in &cameras {
            writeln!(out, "camera {}:", camera.name)?;
            let Some(output) = &camera.calibration else {
                bail!(
                    "{}: camera {} names no calibration file to write: give it `calibration = \"{}.toml\"`",
                    path.display(),
                    camera.name,
                    live::mqtt::topic_name(&camera.name)
                );
            };
            let Some(picture) = camera_picture(&camera.source, output)? else {
                writeln!(
                    out,
                    "  a remote camera: calibrate it on its own machine (`vedette calibrate` there), and start it with `vedette camera --calibration`"
                )?;
                continue;
            };
            let one = CalibrateCommand {
                images: vec![picture],
                cameras: None,
                output: Some(output.clone()),
                ..self.clone()
            };
            one.run(out)
                .with_context(|| format!("{}: camera {}", path.display(), camera.name))?;
            done += 1;
        }
        writeln!(out, "{done} of {} cameras calibrated", cameras.len())?;
        Ok(())
    }
}

/// The picture a camera of a rig is calibrated from: a picture as it is; a video's or a
/// webcam's first frame, kept beside its calibration (`CAMERA.toml.png`) to show what it was
/// made from. `None` for a remote camera.
fn camera_picture(
    source: &live::pipeline::SourceChoice,
    output: &Path,
) -> anyhow::Result<Option<PathBuf>> {
    use live::pipeline::{SourceChoice, source_plan};
    match source {
        SourceChoice::Image(path) => return Ok(Some(path.clone())),
        SourceChoice::Remote(_) => return Ok(None),
        _ => {}
    }
    // Opened as the app opens it.
    let mut plan = source_plan(source).map_err(anyhow::Error::msg)?;
    let mut frames = (plan.open)().map_err(anyhow::Error::msg)?;
    let frame = frames
        .next_frame()?
        .with_context(|| format!("{source} gave no frame"))?;
    let mut kept = output.as_os_str().to_owned();
    kept.push(".png");
    let kept = PathBuf::from(kept);
    vision::write_image(&kept, &frame.image)?;
    Ok(Some(kept))
}
