//! `vedette calibrate IMAGE... --anchors ANCHORS.toml -o CAMERA.toml`: the camera against the
//! table, and the lens from views of the board when there are enough of them.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use calibration::{
    AnchorLayout, Board, ImageSize, LensSource, Settings, TableCalibration, TagSighting, calibrate,
    calibrate_lens,
};
use vision::{DetectorSettings, TagDetector, read_image};

/// The inputs of a calibration.
pub struct CalibrateArgs<'a> {
    /// Pictures: of the table with its anchors, and optionally of the board.
    pub images: &'a [PathBuf],
    /// The anchor layout.
    pub anchors: &'a Path,
    /// Where to save the calibration.
    pub output: &'a Path,
    /// A previous calibration whose lens to keep.
    pub lens: Option<&'a Path>,
}

/// Calibrate, save, and print the figures a player checks.
pub fn run(
    args: CalibrateArgs,
    detector: DetectorSettings,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if args.images.is_empty() {
        bail!("no images given: show the camera the table with its anchors");
    }
    let layout = AnchorLayout::load(args.anchors)?;
    let mut detector = TagDetector::new(DetectorSettings {
        family: layout.family.clone(),
        ..detector
    })?;
    let board = Board::default();
    let mut views: Vec<(PathBuf, ImageSize, Vec<TagSighting>)> = Vec::new();
    for path in args.images {
        let image = read_image(path)?;
        let size = vision::image_size(&image);
        views.push((path.clone(), size, detector.detect(&image)?.sightings()));
    }
    let size = views[0].1;
    if let Some((path, other, _)) = views.iter().find(|v| v.1 != size) {
        bail!(
            "{}: it is {other}, the first image is {size}; calibrate one camera mode at a time",
            path.display()
        );
    }
    let board_views: Vec<Vec<TagSighting>> = views
        .iter()
        .map(|(_, _, s)| {
            s.iter()
                .filter(|t| board.placement(t.id).is_some())
                .copied()
                .collect::<Vec<_>>()
        })
        .filter(|s| s.len() >= calibration::board::MIN_TAGS_PER_VIEW)
        .collect();
    let mut lens = match args.lens {
        Some(path) => Some(
            TableCalibration::load(path)?
                .camera
                .intrinsics
                .scaled_to(size),
        ),
        None => None,
    };
    let mut board_figures = None;
    if board_views.len() >= calibration::board::MIN_VIEWS {
        let measured = calibrate_lens(&board, &board_views, size)?;
        writeln!(
            out,
            "lens: measured from {} views of the board, RMS {}",
            measured.views, measured.rms
        )?;
        lens = Some(measured.intrinsics);
        board_figures = Some(measured);
    } else if !board_views.is_empty() {
        writeln!(
            out,
            "lens: {} view(s) of the board; {} are needed to measure the lens — using the anchors instead",
            board_views.len(),
            calibration::board::MIN_VIEWS
        )?;
    }
    // The table view: the image showing the most anchors (the last one on a tie).
    let anchors_in = |s: &[TagSighting]| s.iter().filter(|t| layout.anchor(t.id).is_some()).count();
    let (table_image, _, sightings) = views
        .iter()
        .rev()
        .max_by_key(|(_, _, s)| anchors_in(s))
        .context("no image")?;
    let settings = Settings {
        intrinsics: lens,
        ..Settings::default()
    };
    let mut result = calibrate(&layout, sightings, size, &settings)
        .with_context(|| format!("{}", table_image.display()))?;
    if let Some(board) = board_figures {
        result.lens = LensSource::Board {
            views: board.views,
            rms: board.rms,
        };
    }
    result.save(args.output)?;
    write_figures(&result, table_image, args.output, out)?;
    Ok(())
}

fn write_figures(
    result: &TableCalibration,
    image: &Path,
    output: &Path,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let q = &result.quality;
    let lens = &result.camera.intrinsics;
    let eye = result.camera.pose.eye();
    writeln!(
        out,
        "table from {}: {} anchors used",
        image.display(),
        result.anchors.len()
    )?;
    writeln!(out, "  reprojection: RMS {}, worst {}", q.rms, q.max)?;
    writeln!(
        out,
        "  on the table: RMS {}, worst {}",
        q.rms_on_table, q.max_on_table
    )?;
    writeln!(
        out,
        "  camera: {:.1}° from vertical, {:.0}\" above the table at ({:.1}, {:.1}); lens {:.0}° wide ({:?})",
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
