//! `vedette bench vision`: the camera pipeline's speed on synthetic tables, and the staged
//! battle that `bench accuracy` also uses.

use std::collections::HashMap;
use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Context;
use calibration::{ImageSize, Settings, calibrate};
use rules::scene::TableDoc;
use rules::units::{Degrees, Inches};
use vision::synthetic::{Effects, Renderer, framing_camera};
use vision::{DetectorSettings, TagDetector, TagPose, build_scene, locate_tags};

use super::figures::percentile;
use super::world::{TABLE, build, stage};
use crate::progress::progress;

/// What reading a frame's corners' scatter costs: each placed tag's misfit from a square, the
/// work `locate_tags` does to widen the bars by it (see `vision::scatter`).
fn scatter_time(
    calibration: &calibration::TableCalibration,
    tags: &vision::FrameTags,
    sightings: &[calibration::TagSighting],
) -> Duration {
    let started = Instant::now();
    for tag in &tags.tags {
        if let Some(sighting) = sightings.iter().find(|s| s.id == tag.pose.id) {
            std::hint::black_box(vision::uncertainty::shape_misfit(
                &calibration.camera,
                sighting,
                tag.pose.height,
            ));
        }
    }
    started.elapsed()
}

/// Time each stage of the pipeline at 720p and 1080p.
pub fn speed(frames: usize, settings: DetectorSettings, out: &mut dyn Write) -> anyhow::Result<()> {
    let staged = stage(1, 1.0, &mut || 0.16)?;
    writeln!(
        out,
        "camera pipeline, {} frames per resolution, {}",
        frames.max(1),
        build()
    )?;
    writeln!(
        out,
        "table: 72\"×48\", {} stands with 1\" tags and 4 anchors, camera 40° from vertical",
        staged.world.tags().count() - 4
    )?;
    writeln!(out, "detector: {settings}")?;
    for size in [
        ImageSize {
            width: 1280,
            height: 720,
        },
        ImageSize {
            width: 1920,
            height: 1080,
        },
    ] {
        let camera = framing_camera(TABLE, size, Degrees(40.0), Degrees(70.0));
        let image = Renderer::new().render(&staged.world, &camera, &Effects::WEBCAM)?;
        let jpeg = vision::encode_jpeg(&image, 90)?;
        let mut detector = TagDetector::new(settings.clone())?;
        let first = detector.detect(&image)?.sightings();
        let calibration = calibrate(&staged.anchors, &first, size, &Settings::default())
            .context("calibrating the benchmark table")?;
        let bar = progress(frames.max(1), "frame");
        let mut stages: [Vec<Duration>; 5] = Default::default();
        let mut scatter_times = Vec::new();
        let mut found = 0;
        for _ in 0..frames.max(1) {
            let started = Instant::now();
            let decoded = vision::decode_image(&jpeg)?;
            let decode = started.elapsed();
            let detections = detector.detect(&decoded)?;
            let detect = started.elapsed() - decode;
            let tags = locate_tags(
                &calibration,
                Some(&staged.roster),
                &detections.sightings(),
                Inches(0.16),
            );
            let pose = started.elapsed() - decode - detect;
            let poses: HashMap<u32, TagPose> =
                tags.tags.iter().map(|t| (t.pose.id, t.pose)).collect();
            let scene = build_scene(
                &staged.roster,
                &poses,
                TableDoc {
                    width: 72.0,
                    depth: 48.0,
                },
                Vec::new(),
                "bench",
            )?;
            let total = started.elapsed();
            std::hint::black_box(scene);
            scatter_times.push(scatter_time(&calibration, &tags, &detections.sightings()));
            found = detections.tags.len();
            for (list, time) in
                stages
                    .iter_mut()
                    .zip([decode, detect, pose, total - decode - detect - pose, total])
            {
                list.push(time);
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        for list in &mut stages {
            list.sort();
        }
        let ms = |list: &Vec<Duration>| percentile(list, 0.5).as_secs_f64() * 1000.0;
        let total = ms(&stages[4]);
        scatter_times.sort();
        let scatter = ms(&scatter_times);
        writeln!(
            out,
            "{size}: decode {:.1} ms, detect {:.1} ms, pose {:.2} ms (of which the corners' scatter {scatter:.2} ms, {:.1} % of the frame), scene {:.2} ms — total {total:.1} ms (median), {:.1} frames/s; {found} tags found",
            ms(&stages[0]),
            ms(&stages[1]),
            ms(&stages[2]),
            100.0 * scatter / total,
            ms(&stages[3]),
            1000.0 / total
        )?;
    }
    Ok(())
}
