//! `vedette render SCENE`: a synthetic camera picture of a scene, with its tags — to try the
//! camera commands without a camera, or to see how big tags look from where the camera stands.

use std::io::Write;
use std::path::Path;

use calibration::{AnchorLayout, ImageSize, TableSize};
use rules::Scene;
use rules::units::{Degrees, Inches};
use vision::roster::TagDefaults;
use vision::synthetic::{Effects, Renderer, SyntheticTable, framing_camera};
use vision::{Roster, write_image};

/// What to render and how.
pub struct RenderArgs<'a> {
    /// The scene.
    pub scene: &'a Path,
    /// Its roster; made up (one tag per stand from id 10) if absent.
    pub roster: Option<&'a Path>,
    /// Where to save a made-up roster.
    pub save_roster: Option<&'a Path>,
    /// The anchors; four 2" corner anchors if absent.
    pub anchors: Option<&'a Path>,
    /// The picture to write.
    pub output: &'a Path,
    /// Image size.
    pub size: ImageSize,
    /// Camera angle from vertical.
    pub tilt: Degrees,
    /// Horizontal field of view.
    pub field_of_view: Degrees,
    /// A perfect camera instead of a webcam's blur, noise and JPEG.
    pub ideal: bool,
}

/// Render and save.
pub fn run(args: RenderArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let scene = Scene::load(args.scene)?;
    let table = TableSize {
        width: scene.table.width.0,
        depth: scene.table.depth.0,
    };
    let anchors = match args.anchors {
        Some(path) => AnchorLayout::load(path)?,
        None => AnchorLayout::corners(table, Inches(2.0), Inches(1.5)),
    };
    let roster = match args.roster {
        Some(path) => Roster::load(path)?,
        None => Roster::for_scene(&scene, TagDefaults::default(), 10),
    };
    if let Some(path) = args.save_roster {
        roster.save(path)?;
        writeln!(out, "roster: {}", path.display())?;
    }
    let camera = framing_camera(anchors.table, args.size, args.tilt, args.field_of_view);
    let world = SyntheticTable::stage(&scene, &roster, &anchors);
    let effects = if args.ideal {
        Effects::IDEAL
    } else {
        Effects::WEBCAM
    };
    let image = Renderer::new().render(&world, &camera, &effects)?;
    write_image(args.output, &image)?;
    let eye = camera.pose.eye();
    writeln!(
        out,
        "{}: {} tags, {} seen {:.0}° from vertical from {:.0}\" up, lens {:.0}° wide",
        args.output.display(),
        world.tags().count(),
        args.size,
        args.tilt.0,
        eye.z,
        args.field_of_view.0
    )?;
    Ok(())
}
