//! `vedette render SCENE`: a synthetic camera picture of a scene, with its tags — to try the
//! camera commands without a camera, or to see how big tags look from where the camera stands.

use crate::args::within;
use std::io::Write;
use std::path::{Path, PathBuf};

use calibration::{AnchorLayout, ImageSize, Intrinsics, TableSize};
use roster::Roster;
use roster::TagDefaults;
use rules::Scene;
use rules::units::{Degrees, Inches};
use vision::synthetic::{
    Effects, LensClass, Renderer, SyntheticTable, framing_camera_for, rig_cameras,
};

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

/// Say how many tags will be too small for the detector to find in every picture that shows
/// them, or in none.
fn warn_small_tags(
    world: &SyntheticTable,
    cameras: &[calibration::Camera],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut best: std::collections::BTreeMap<u32, f64> =
        world.tags().map(|t| (t.id, 0.0)).collect();
    for camera in cameras {
        for (id, corners) in world.tags_in_view(camera) {
            let side = calibration::TagSighting { id, corners }.side();
            best.entry(id).and_modify(|b| *b = b.max(side));
        }
    }
    let findable = vision::sight::FINDABLE.0;
    let mut small: Vec<(u32, f64)> = best
        .iter()
        .filter(|(_, side)| **side < findable)
        .map(|(id, side)| (*id, *side))
        .collect();
    if small.is_empty() {
        return Ok(());
    }
    small.sort_by(|a, b| a.1.total_cmp(&b.1));
    let named: Vec<String> = small
        .iter()
        .take(8)
        .map(|(id, side)| match side {
            0.0 => format!("{id} (in no picture)"),
            side => format!("{id} ({side:.1} px)"),
        })
        .collect();
    writeln!(
        out,
        "warning: {} of {} tags will be under {findable:.0} px across, too small for the detector to find: {}{} — print bigger tags, raise the camera, or render a larger picture",
        small.len(),
        best.len(),
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
    /// Several cameras over one long table (2 to 4, each over its share with 4" of overlap):
    /// one picture each (`OUT-1.png` …), a cameras file listing them (`OUT.cameras.toml`)
    /// and, unless --anchors is given, the long table's anchors (`OUT.anchors.toml`): a pair
    /// at each end, each seam and the middle of each share.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=4))]
    pub cameras: Option<u32>,
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
        if self.cameras.is_none() {
            super::output::claim_picture(&self.output, &inputs, self.force)?;
        }
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
        let anchors = match (&self.anchors, self.cameras) {
            (Some(path), _) => AnchorLayout::load(path)?,
            (None, Some(n)) => {
                AnchorLayout::long_table(table, n as usize, Inches(2.0), Inches(1.5))
            }
            (None, None) => AnchorLayout::corners(table, Inches(2.0), Inches(1.5)),
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
        for spot in roster.tags_on_one_spot(&scene) {
            writeln!(out, "warning: {spot}")?;
        }
        if let Some(path) = &self.save_roster {
            roster.save(path)?;
            writeln!(out, "roster: {}", path.display())?;
        }
        let lens = match lens_class {
            Some(class) => class.sample(size, self.lens_seed),
            None => Intrinsics::from_field_of_view(size, Degrees(self.fov)),
        };
        let world = SyntheticTable::stage(&scene, &roster, &anchors);
        let effects = if self.ideal {
            Effects::IDEAL
        } else {
            Effects::WEBCAM
        };
        if let Some(n) = self.cameras {
            let lenses = vec![lens; n as usize];
            let cameras = rig_cameras(anchors.table, &lenses, Inches(4.0), tilt);
            return self.render_rig(&world, &cameras, &effects, &anchors, out);
        }
        let camera = framing_camera_for(anchors.table, lens, tilt);
        let image = Renderer::new().render(&world, &camera, &effects)?;
        warn_small_tags(&world, std::slice::from_ref(&camera), out)?;
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

    /// One picture per camera of a rig, and the cameras file (and anchors) to play them.
    fn render_rig(
        &self,
        world: &SyntheticTable,
        cameras: &[calibration::Camera],
        effects: &Effects,
        anchors: &AnchorLayout,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let beside = |suffix: &str| {
            let stem = self.output.with_extension("");
            PathBuf::from(format!("{}{suffix}", stem.display()))
        };
        let mut file = String::new();
        let mut renderer = Renderer::new();
        for (k, camera) in (1..).zip(cameras) {
            let path = beside(&format!("-{k}.png"));
            super::output::claim_picture(&path, &[self.scene.as_path()], self.force)?;
            let image = renderer.render(world, camera, effects)?;
            super::output::write_picture(&path, &image)?;
            writeln!(out, "camera {k}: {}", path.display())?;
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            file.push_str(&format!(
                "[[camera]]\nname = \"camera {k}\"\nimage = {:?}\n\n",
                name.unwrap_or_default()
            ));
        }
        warn_small_tags(world, cameras, out)?;
        let cameras_file = beside(".cameras.toml");
        super::output::claim(&cameras_file, &[self.scene.as_path()], self.force)?;
        std::fs::write(&cameras_file, file)?;
        writeln!(out, "cameras file: {}", cameras_file.display())?;
        if self.anchors.is_none() {
            let path = beside(".anchors.toml");
            super::output::claim(&path, &[self.scene.as_path()], self.force)?;
            anchors.save(&path)?;
            writeln!(
                out,
                "anchors: {} ({} anchors)",
                path.display(),
                anchors.anchors.len()
            )?;
        }
        Ok(())
    }
}
