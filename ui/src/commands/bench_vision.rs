//! `vedette bench vision`: the camera pipeline's speed on synthetic tables, and the staged
//! battle that `bench accuracy` also uses.

use std::collections::HashMap;
use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Context;
use calibration::{AnchorLayout, ImageSize, Settings, TableSize, calibrate};
use roster::Roster;
use roster::TagDefaults;
use rules::Scene;
use rules::scene::TableDoc;
use rules::units::{Degrees, Inches};
use vision::synthetic::{Effects, Renderer, SyntheticTable, framing_camera};
use vision::{DetectorSettings, TagDetector, TagPose, build_scene, locate_tags};

use super::bench::{percentile, progress};

pub(super) const TABLE: TableSize = TableSize {
    width: 72.0,
    depth: 48.0,
};

/// A battle staged on the synthetic table, with the anchors and roster that go with it.
pub(super) struct Staged {
    pub(super) roster: Roster,
    pub(super) anchors: AnchorLayout,
    pub(super) world: SyntheticTable,
}

/// Stands of 2"×1.5" with 1" tags, in a 9×5 grid over the whole table, each moved up to
/// `spread` inches from its grid point, at random facings (the far edge included, where tags
/// are smallest), each at its own height.
pub(super) fn stage(
    seed: u64,
    spread: f64,
    heights: &mut dyn FnMut() -> f64,
) -> anyhow::Result<Staged> {
    let mut random = xorshift(seed);
    let mut next = move || (random() % 10_000) as f64 / 10_000.0;
    let mut units = Vec::new();
    for row in 0..5 {
        for col in 0..9 {
            let center = rules::geometry::TablePoint::new(
                6.0 + 7.5 * f64::from(col) + spread * (next() * 2.0 - 1.0),
                6.0 + 9.0 * f64::from(row) + spread * (next() * 2.0 - 1.0),
            );
            let stand = rules::scene::StandDoc {
                center,
                facing: next() * 360.0,
                width: 2.0,
                depth: 1.5,
                sd: None,
            };
            let mut unit: rules::scene::UnitDoc = serde_json::from_value(serde_json::json!({
                "id": format!("stand-{row}-{col}"), "side": if col % 2 == 0 { "red" } else { "blue" }, "kind": "infantry",
                // Muskets, so that the error bars' coverage has shooting rulings to judge.
                "formation": "line", "weapon": "smoothbore-musket"
            }))?;
            unit.stands = Some(vec![stand]);
            units.push(unit);
        }
    }
    let table = TableDoc {
        width: TABLE.width,
        depth: TABLE.depth,
    };
    let doc = rules::scene::SceneDoc::units_on(rules::RulesetId::BlackPowder, table, units);
    let scene = Scene::from_doc(doc, "benchmark table")?;
    let mut roster = Roster::for_scene(
        &scene,
        TagDefaults {
            size: 1.0,
            height: 0.16,
            ..TagDefaults::default()
        },
        10,
    );
    for stand in roster.units.iter_mut().flat_map(|u| u.stands.iter_mut()) {
        stand.tag_height = Some(heights());
    }
    let anchors = AnchorLayout::corners(TABLE, Inches(2.0), Inches(1.5));
    let world = SyntheticTable::stage(&scene, &roster, &anchors);
    Ok(Staged {
        roster,
        anchors,
        world,
    })
}

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

/// A small deterministic generator of the benchmarks' layouts (xorshift), seeded.
pub(super) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

pub(super) fn build() -> &'static str {
    if cfg!(debug_assertions) {
        "debug build (use --release for real figures)"
    } else {
        "release build"
    }
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
