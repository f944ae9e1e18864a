//! `vedette render SCENE`: a synthetic camera picture of a scene, with its tags — to try the
//! camera commands without a camera, or to see how big tags look from where the camera stands.

use super::args::within;
use std::io::Write;
use std::path::{Path, PathBuf};

use calibration::{AnchorLayout, ImageSize, Intrinsics, TableSize};
use roster::Roster;
use roster::TagDefaults;
use rules::Scene;
use rules::units::{Degrees, Inches};
use vision::synthetic::{Effects, LensClass, Renderer, SyntheticTable, framing_camera_for};

use super::table::PlayedOn;

/// The kinds of lens `--lens` names.
pub fn lens_class(name: &str) -> anyhow::Result<Option<LensClass>> {
    Ok(match name {
        "none" => None,
        "ordinary" => Some(LensClass::Ordinary),
        "pincushion" => Some(LensClass::Pincushion),
        "wide" => Some(LensClass::Wide),
        other => anyhow::bail!("--lens {other}: the kinds are none, ordinary, pincushion and wide"),
    })
}

/// Say how many tags will be too small in the picture for the detector to find.
fn warn_small_tags(
    world: &SyntheticTable,
    camera: &calibration::Camera,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let sides: Vec<(u32, f64)> = world
        .tags()
        .filter_map(|tag| Some((tag.id, tag.as_seen(camera)?.side())))
        .collect();
    let findable = vision::sight::FINDABLE.0;
    let mut small: Vec<&(u32, f64)> = sides.iter().filter(|(_, side)| *side < findable).collect();
    if small.is_empty() {
        return Ok(());
    }
    small.sort_by(|a, b| a.1.total_cmp(&b.1));
    let named: Vec<String> = small
        .iter()
        .take(8)
        .map(|(id, side)| format!("{id} ({side:.1} px)"))
        .collect();
    writeln!(
        out,
        "warning: {} of {} tags will be under {findable:.0} px across, too small for the detector to find: {}{} — print bigger tags, raise the camera, or render a larger picture",
        small.len(),
        sides.len(),
        named.join(", "),
        if small.len() > named.len() {
            ", …"
        } else {
            ""
        }
    )
}

/// The arguments of `vedette render` (its help is the `Command` variant's).
#[derive(Debug, clap::Args)]
pub struct RenderCommand {
    /// The scene (JSON or TOML).
    pub scene: PathBuf,
    /// The picture to write (PNG or JPEG).
    #[arg(short, long, value_name = "OUT.png")]
    pub output: PathBuf,
    /// The roster giving each stand's tag; without one, tags are numbered from 10.
    #[arg(long, value_name = "ROSTER.toml")]
    pub roster: Option<PathBuf>,
    /// Save the roster used (to give to `locate` and `analyze`).
    #[arg(long, value_name = "ROSTER.toml")]
    pub save_roster: Option<PathBuf>,
    /// The anchor layout; four 2" anchors in the corners, 1.5" in, by default.
    #[arg(long, value_name = "ANCHORS.toml")]
    pub anchors: Option<PathBuf>,
    /// Image width, pixels (16 to 16384, at most 64 megapixels in all).
    #[arg(long, default_value_t = 1920, value_parser = clap::value_parser!(u32).range(16..=16384))]
    pub width: u32,
    /// Image height, pixels (16 to 16384).
    #[arg(long, default_value_t = 1080, value_parser = clap::value_parser!(u32).range(16..=16384))]
    pub height: u32,
    /// Camera angle from vertical, degrees (0 straight down to 80: beyond, the camera
    /// looks along the table rather than at it).
    #[arg(long, default_value_t = 40.0, value_parser = within(0.0, 80.0))]
    pub tilt: f64,
    /// Horizontal field of view of the lens, degrees (20 to 120, as webcams have).
    #[arg(long, default_value_t = 70.0, value_parser = within(20.0, 120.0))]
    pub fov: f64,
    /// A real webcam's kind of lens: none (ideal), ordinary, pincushion or wide (80–90°,
    /// strong barrel distortion); it brings its own field of view.
    #[arg(long, default_value = "none")]
    pub lens: String,
    /// Which lens of its kind (each seed draws another within the kind's ranges).
    #[arg(long, default_value_t = 1)]
    pub lens_seed: u64,
    /// A perfect camera: no blur, noise or JPEG.
    #[arg(long)]
    pub ideal: bool,
    /// Replace the picture (and the saved roster) if they exist.
    #[arg(long)]
    pub force: bool,
}

impl RenderCommand {
    /// Render and save, writing its report to `out`.
    pub fn run(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let size = ImageSize {
            width: self.width,
            height: self.height,
        };
        let tilt = Degrees(self.tilt);
        let lens_class = lens_class(&self.lens)?;
        vision::check_picture_size(size)?;
        let inputs: Vec<&Path> = [
            Some(self.scene.as_path()),
            self.roster.as_deref(),
            self.anchors.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect();
        super::output::claim_picture(&self.output, &inputs, self.force)?;
        if let Some(path) = &self.save_roster {
            if *path == self.output {
                anyhow::bail!(
                    "{}: the picture and the roster cannot both be written to it",
                    path.display()
                );
            }
            super::output::claim(path, &inputs, self.force)?;
        }
        let scene = Scene::load(&self.scene)?;
        let table = TableSize {
            width: scene.table.width.0,
            depth: scene.table.depth.0,
        };
        let anchors = match &self.anchors {
            Some(path) => AnchorLayout::load(path)?,
            None => AnchorLayout::corners(table, Inches(2.0), Inches(1.5)),
        };
        if let Some(path) = &self.anchors
            && let Some(mismatch) = super::table::anchors_for_another_table(
                path,
                &anchors,
                PlayedOn::Scene(&self.scene),
                table,
            )
        {
            writeln!(
                out,
                "warning: {}: the camera frames the anchors' table, and the units beyond it are off the picture (make anchors for it with `{}`, or leave --anchors out)",
                mismatch.description, mismatch.remedy
            )?;
        }
        let roster = match &self.roster {
            Some(path) => Roster::load(path)?,
            None => Roster::for_scene(&scene, TagDefaults::default(), 10),
        };
        if let Some(path) = &self.save_roster {
            roster.save(path)?;
            writeln!(out, "roster: {}", path.display())?;
        }
        let lens = match lens_class {
            Some(class) => class.sample(size, self.lens_seed),
            None => Intrinsics::from_field_of_view(size, Degrees(self.fov)),
        };
        let camera = framing_camera_for(anchors.table, lens, tilt);
        let world = SyntheticTable::stage(&scene, &roster, &anchors);
        let effects = if self.ideal {
            Effects::IDEAL
        } else {
            Effects::WEBCAM
        };
        let image = Renderer::new().render(&world, &camera, &effects)?;
        warn_small_tags(&world, &camera, out)?;
        super::output::write_picture(&self.output, &image)?;
        let eye = camera.pose.eye();
        writeln!(
            out,
            "{}: {} tags, {} seen {:.0}° from vertical from {:.0}\" up, lens {:.0}° wide",
            self.output.display(),
            world.tags().count(),
            size,
            tilt.0,
            eye.z,
            lens.horizontal_field_of_view().0
        )?;
        if let Some(class) = lens_class {
            let d = lens.distortion;
            writeln!(
                out,
                "lens: {} — focal length {:.1} px, principal point {}, k1 {:.4} k2 {:.4} k3 {:.4} p1 {:.5} p2 {:.5} (compare with what `calibrate --roster` measures)",
                class.name(),
                lens.focal_x.0,
                lens.principal_point,
                d.k1,
                d.k2,
                d.k3,
                d.p1,
                d.p2
            )?;
        }
        Ok(())
    }
}
