//! `vedette locate` and `vedette analyze`: from a picture to tags, stands and rulings.

use crate::args::{DetectorArgs, LocateInputs};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use calibration::{AnchorCheck, TableCalibration, check_anchors};
use roster::Roster;
use rules::Scene;
use rules::ground::Ground;
use rules::rulings::rulings_with;
use rules::units::Inches;
use vision::{
    DetectorSettings, FrameTags, Mat, MissingTagSearch, TagDetector, annotate::annotate,
    locate_tags_on, read_image, scene_on_table,
};

/// What `locate` and `analyze` read.
pub struct LocateArgs<'a> {
    /// The picture.
    pub image: &'a Path,
    /// The calibration file.
    pub calibration: &'a Path,
    /// The roster, if any.
    pub roster: Option<&'a Path>,
    /// A scene whose terrain is on the table.
    pub terrain: Option<&'a Path>,
    /// The height of tags the roster does not know.
    pub tag_height: Inches,
}

/// One picture understood.
pub struct Located {
    image: Mat,
    calibration: TableCalibration,
    sightings: Vec<calibration::TagSighting>,
    tags: FrameTags,
    check: AnchorCheck,
    roster: Option<Roster>,
    scene: Option<(Scene, vision::locate::Sighted)>,
}

impl Located {
    /// The picture.
    pub fn image(&self) -> &Mat {
        &self.image
    }

    /// The calibration it was placed through.
    pub fn calibration(&self) -> &TableCalibration {
        &self.calibration
    }

    /// Its tags, placed.
    pub fn tags(&self) -> &FrameTags {
        &self.tags
    }

    /// Its tags as seen, their corners refined for placing.
    pub fn sightings(&self) -> &[calibration::TagSighting] {
        &self.sightings
    }

    /// The roster, when one was given.
    pub fn roster(&self) -> Option<&Roster> {
        self.roster.as_ref()
    }

    /// The scene, when a roster was given.
    pub fn scene(&self) -> Option<&Scene> {
        self.scene.as_ref().map(|(scene, _)| scene)
    }
}

impl LocateInputs {
    /// The inputs as `locate` and `analyze` take them.
    pub fn args(&self) -> LocateArgs<'_> {
        LocateArgs {
            image: &self.image,
            calibration: &self.calibration,
            roster: self.roster.as_deref(),
            terrain: self.terrain.as_deref(),
            tag_height: rules::units::Inches(self.tag_height),
        }
    }
}

/// Detect, place and assemble.
pub fn locate(args: &LocateArgs, detector: DetectorSettings) -> anyhow::Result<Located> {
    let calibration = TableCalibration::load(args.calibration)?;
    let roster = args
        .roster
        .map(|path| {
            let anchors: Vec<u32> = calibration.anchors.iter().map(|a| a.anchor.id).collect();
            super::roster_for_table(path, &calibration.family, &anchors, args.calibration)
        })
        .transpose()?;
    let image = read_image(args.image)?;
    let size = vision::image_size(&image);
    if size != calibration.camera.intrinsics.image_size {
        anyhow::bail!(
            "{} is {size} but {} was made at {}: recalibrate at this resolution",
            args.image.display(),
            args.calibration.display(),
            calibration.camera.intrinsics.image_size
        );
    }
    let mut detector = TagDetector::new(DetectorSettings {
        family: calibration.family.clone(),
        ..detector
    })?;
    let mut sightings = detector.detect(&image)?.sightings();
    if let Some(roster) = &roster {
        // The roster's tags too small for the detector, where the camera says they would be.
        let search = MissingTagSearch::new(&calibration, &roster.stand_tags())?;
        let small = search.find_in(&image, &sightings)?;
        tracing::info!(found = small.len(), "small tags found by their likeness");
        sightings.extend(small);
    }
    vision::refine::for_placing(&image, &calibration, &mut sightings)?;
    let check = check_anchors(&calibration, &sightings);
    let terrain = match args.terrain {
        Some(path) => rules::scene::SceneDoc::from(&Scene::load(path)?).terrain,
        None => Vec::new(),
    };
    // Stands on a hill whose rise is known are placed on it, not on the cloth below.
    let ground = Ground::of_docs(&terrain);
    let tags = locate_tags_on(
        &calibration,
        roster.as_ref(),
        &sightings,
        args.tag_height,
        &ground,
    );
    let scene = match &roster {
        Some(roster) => {
            let source = args.image.display().to_string();
            let poses = tags.tags.iter().map(|t| &t.pose);
            Some(
                scene_on_table(roster, &calibration, poses, terrain, &source)
                    .with_context(|| format!("the scene seen in {source}"))?,
            )
        }
        None => None,
    };
    Ok(Located {
        image,
        calibration,
        sightings,
        tags,
        check,
        roster,
        scene,
    })
}

/// `vedette locate`: print each tag's place, and the scene if there is a roster.
pub fn run_locate(
    args: &LocateArgs,
    detector: DetectorSettings,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let located = locate(args, detector)?;
    // Why the error bars are wider than the camera's model alone says.
    let mut doubts = located.calibration.doubts();
    doubts.extend(located.tags.doubts());
    if json {
        let value = serde_json::json!({
            "tags": located.tags.tags,
            "doubts": doubts,
            "problems": located.tags.problems,
            "problem_messages": located.tags.problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "calibration": located.check,
            "scene": located.scene.as_ref().map(|(s, _)| s),
            "unseen": located.scene.as_ref().map(|(_, s)| &s.unseen),
            "partial": located.scene.as_ref().map(|(_, s)| partial_json(s)),
        });
        serde_json::to_writer_pretty(&mut *out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    write_tags(&located, out)?;
    for doubt in &doubts {
        writeln!(out, "± widened: {doubt}")?;
    }
    if let Some((scene, sighted)) = &located.scene {
        writeln!(
            out,
            "\nscene: {} unit(s), {} commander(s) on the table",
            scene.units.len(),
            scene.commanders.len()
        )?;
        for unit in &scene.units {
            let leader = unit.footprint.leader();
            writeln!(
                out,
                "  {:<20} leader ({:.2}, {:.2})  facing {:.1}°  {} stand(s)",
                unit.id,
                leader.x,
                leader.y,
                unit.footprint.facing().0,
                unit.footprint.stands().len()
            )?;
        }
        write_sighted(sighted, located.roster.as_ref(), out)?;
    }
    Ok(())
}

/// The units not seen (as the roster names them), and those seen only in part.
fn write_sighted(
    sighted: &vision::locate::Sighted,
    roster: Option<&Roster>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    if !sighted.unseen.is_empty() {
        let named: Vec<String> = sighted
            .unseen
            .iter()
            .map(|id| roster.map_or_else(|| id.clone(), |r| r.named_id(id)))
            .collect();
        writeln!(out, "  not seen: {}", named.join(", "))?;
    }
    for partial in &sighted.partial {
        writeln!(out, "  ⚠ partly seen: {partial}")?;
    }
    Ok(())
}

/// The partly seen units for JSON: each with its sentence.
fn partial_json(sighted: &vision::locate::Sighted) -> serde_json::Value {
    sighted
        .partial
        .iter()
        .map(|p| {
            serde_json::json!({
                "unit": p.unit,
                "unseen_stands": p.unseen_stands,
                "placed": p.placed.is_ok(),
                "message": p.to_string(),
            })
        })
        .collect()
}

fn write_tags(located: &Located, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{}", located.check.message())?;
    for tag in &located.tags.tags {
        let p = &tag.pose;
        let what = match &tag.role {
            vision::TagRole::Anchor => "anchor".to_owned(),
            vision::TagRole::Stand { unit, stand } => format!("{unit}, stand {stand}"),
            vision::TagRole::Commander { commander } => format!("commander {commander}"),
            vision::TagRole::Unknown => "unknown".to_owned(),
        };
        writeln!(
            out,
            "  tag {:>4}  ({:>6.2}, {:>6.2})  facing {:>6.1}°  at {}  {:.0} px  {what}",
            p.id, p.center.x, p.center.y, p.facing.0, p.height, p.pixels.0
        )?;
    }
    for problem in &located.tags.problems {
        writeln!(out, "  ! {problem}")?;
    }
    Ok(())
}

/// `vedette analyze`: the whole pipeline to rulings, with an annotated picture.
pub fn run_analyze(
    args: &LocateArgs,
    detector: DetectorSettings,
    json: bool,
    annotate_to: Option<&Path>,
    force: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if let Some(path) = annotate_to {
        let inputs: Vec<&Path> = [
            Some(args.image),
            Some(args.calibration),
            args.roster,
            args.terrain,
        ]
        .into_iter()
        .flatten()
        .collect();
        super::output::claim_picture(path, &inputs, force)?;
    }
    let located = locate(args, detector)?;
    let (scene, sighted) = located
        .scene
        .as_ref()
        .context("analyze needs --roster: it names the units the tags are on")?;
    let report = rulings_with(scene, &scene.profile());
    let annotated = match annotate_to {
        Some(path) => {
            let height = located
                .roster
                .as_ref()
                .map_or(args.tag_height, |r| Inches(r.tags.height));
            let annotated = annotate(
                &located.image,
                &located.calibration,
                &located.tags,
                Some(scene),
                height,
                &[],
            )?;
            super::output::write_picture(path, &annotated.picture)?;
            Some((path, annotated))
        }
        None => None,
    };
    if json {
        let value = serde_json::json!({
            "tags": located.tags.tags,
            "problems": located.tags.problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "calibration": located.check,
            "unseen": sighted.unseen,
            "partial": partial_json(sighted),
            "scene": scene,
            "rulings": report,
            "annotated": annotated.as_ref().map(|(path, a)| annotated_json(path, a)),
        });
        serde_json::to_writer_pretty(&mut *out, &value)?;
        writeln!(out)?;
        return Ok(());
    }
    write_tags(&located, out)?;
    write_sighted(sighted, located.roster.as_ref(), out)?;
    writeln!(out)?;
    super::rulings::write_report(scene, &report, out)?;
    if let Some((path, annotated)) = &annotated {
        writeln!(out, "annotated picture: {}", path.display())?;
        if !annotated.left_out.is_empty() {
            writeln!(
                out,
                "  {} label(s) left out, no room beside what they name: {}",
                annotated.left_out.len(),
                annotated.left_out.join(", ")
            )?;
        }
    }
    Ok(())
}

/// Where the annotated picture's labels went, for tools that read `--json`.
fn annotated_json(path: &Path, annotated: &vision::annotate::Annotated) -> serde_json::Value {
    let labels: Vec<serde_json::Value> = annotated
        .labels
        .iter()
        .map(|l| {
            serde_json::json!({
                "text": l.text,
                "box": [l.area.x, l.area.y, l.area.width, l.area.height],
                "moved": l.moved,
            })
        })
        .collect();
    serde_json::json!({
        "picture": path,
        "labels": labels,
        "left_out": annotated.left_out,
    })
}

/// The arguments of `vedette locate` (its help is the `Command` variant's).
#[derive(Debug, clap::Args)]
pub struct LocateCommand {
    /// What to read.
    #[command(flatten)]
    pub inputs: LocateInputs,
    /// Print JSON (with the scene in the scene format).
    #[arg(long)]
    pub json: bool,
    /// Write the scene located (it needs `--roster`) to this file, in the scene format that
    /// `rulings`, `render` and `--terrain` read.
    #[arg(short, long, value_name = "SCENE.json")]
    pub output: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
    /// Detector settings.
    #[command(flatten)]
    pub detector: DetectorArgs,
}

impl LocateCommand {
    /// Run it, writing its report to `out`.
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let args = self.inputs.args();
        let Some(output) = &self.output else {
            return run_locate(&args, self.detector.settings(), self.json, out);
        };
        if self.inputs.roster.is_none() {
            bail!(
                "{}: the scene is made from the roster's tags: give --roster ROSTER.toml",
                output.display()
            );
        }
        if output.extension().and_then(|e| e.to_str()) != Some("json") {
            bail!(
                "{}: a located scene is written as JSON: name it SCENE.json",
                output.display()
            );
        }
        let inputs: Vec<&Path> = [
            Some(self.inputs.image.as_path()),
            Some(self.inputs.calibration.as_path()),
            self.inputs.roster.as_deref(),
            self.inputs.terrain.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect();
        super::output::claim(output, &inputs, self.force)?;
        let located = locate(&args, self.detector.settings())?;
        let Some((scene, _)) = &located.scene else {
            bail!("{}: no scene was located", self.inputs.image.display());
        };
        calibration::files::write_whole(output, |temporary| {
            std::fs::write(temporary, scene.to_json() + "\n")
        })?;
        writeln!(
            out,
            "{}: {} unit(s), {} commander(s) as the camera placed them",
            output.display(),
            scene.units.len(),
            scene.commanders.len()
        )?;
        Ok(())
    }
}

/// The arguments of `vedette analyze` (its help is the `Command` variant's).
#[derive(Debug, clap::Args)]
pub struct AnalyzeCommand {
    /// What to read.
    #[command(flatten)]
    pub inputs: LocateInputs,
    /// Print JSON: tags, scene and rulings.
    #[arg(long)]
    pub json: bool,
    /// Write the picture with tags, stands and units drawn on it.
    #[arg(long, value_name = "OUT.png")]
    pub annotate: Option<PathBuf>,
    /// Replace the annotated picture if it exists.
    #[arg(long)]
    pub force: bool,
    /// Detector settings.
    #[command(flatten)]
    pub detector: DetectorArgs,
}

impl AnalyzeCommand {
    /// Run it, writing its report to `out`.
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let AnalyzeCommand {
            inputs,
            json,
            annotate,
            force,
            detector,
        } = self;
        run_analyze(
            &inputs.args(),
            detector.settings(),
            *json,
            annotate.as_deref(),
            *force,
            out,
        )
    }
}
