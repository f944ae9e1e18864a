//! `vedette bench vision` and `vedette bench accuracy`: the camera pipeline's speed and
//! accuracy on synthetic tables, whose truth is known exactly.

use std::collections::HashMap;
use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Context;
use calibration::{AnchorLayout, ImageSize, Settings, TableCalibration, TableSize, calibrate};
use rules::Scene;
use rules::scene::TableDoc;
use rules::units::{Degrees, Inches};
use vision::roster::TagDefaults;
use vision::synthetic::{Effects, Renderer, SyntheticTable, framing_camera};
use vision::{DetectorSettings, Roster, TagDetector, TagPose, build_scene, locate_tags};

use super::bench::{percentile, progress};

const TABLE: TableSize = TableSize {
    width: 72.0,
    depth: 48.0,
};

/// A battle staged on the synthetic table, with the anchors and roster that go with it.
struct Staged {
    roster: Roster,
    anchors: AnchorLayout,
    world: SyntheticTable,
}

/// Stands of 2"×1.5" with 1" tags, in a jittered 9×5 grid over the whole table at random
/// facings (the far edge included, where tags are smallest), each at its own height.
fn stage(seed: u64, mut heights: impl FnMut() -> f64) -> anyhow::Result<Staged> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 10_000) as f64 / 10_000.0
    };
    let mut units = Vec::new();
    for row in 0..5 {
        for col in 0..9 {
            let center = [
                6.0 + 7.5 * f64::from(col) + next() * 2.0 - 1.0,
                6.0 + 9.0 * f64::from(row) + next() * 2.0 - 1.0,
            ];
            let stand = rules::scene::StandDoc {
                center,
                facing: next() * 360.0,
                width: 2.0,
                depth: 1.5,
            };
            let mut unit: rules::scene::UnitDoc = serde_json::from_value(serde_json::json!({
                "id": format!("stand-{row}-{col}"), "side": if col % 2 == 0 { "red" } else { "blue" }, "kind": "infantry"
            }))?;
            unit.stands = Some(vec![stand]);
            units.push(unit);
        }
    }
    let doc = rules::scene::SceneDoc {
        ruleset: rules::RulesetId::BlackPowder,
        table: TableDoc {
            width: TABLE.width,
            depth: TABLE.depth,
        },
        distance_scale: None,
        figure_scale: None,
        scenario: None,
        sides: Vec::new(),
        terrain: Vec::new(),
        units,
        commanders: Vec::new(),
    };
    let scene = Scene::from_doc(doc, "benchmark table")?;
    let mut roster = Roster::for_scene(
        &scene,
        TagDefaults {
            size: 1.0,
            height: 0.16,
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

fn build() -> &'static str {
    if cfg!(debug_assertions) {
        "debug build (use --release for real figures)"
    } else {
        "release build"
    }
}

/// Time each stage of the pipeline at 720p and 1080p.
pub fn speed(frames: usize, settings: DetectorSettings, out: &mut dyn Write) -> anyhow::Result<()> {
    let staged = stage(1, || 0.16)?;
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
        writeln!(
            out,
            "{size}: decode {:.1} ms, detect {:.1} ms, pose {:.2} ms, scene {:.2} ms — total {total:.1} ms (median), {:.1} frames/s; {found} tags found",
            ms(&stages[0]),
            ms(&stages[1]),
            ms(&stages[2]),
            ms(&stages[3]),
            1000.0 / total
        )?;
    }
    Ok(())
}

/// Tag size classes for recall, by the side of the black square in pixels.
const SIZE_CLASSES: [(f64, f64); 5] = [
    (0.0, 12.0),
    (12.0, 16.0),
    (16.0, 20.0),
    (20.0, 24.0),
    (24.0, f64::INFINITY),
];

#[derive(Default)]
struct Tally {
    position: Vec<f64>,
    facing: Vec<f64>,
    seen: [usize; 5],
    total: [usize; 5],
    false_tags: usize,
    worst: Option<(f64, u32, usize)>,
}

/// Measure position and facing errors and recall over synthetic tables.
pub fn accuracy(
    tables: usize,
    seed: u64,
    settings: DetectorSettings,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let size = ImageSize {
        width: 1920,
        height: 1080,
    };
    let tables = tables.max(1);
    let mut tally = Tally::default();
    let mut renderer = Renderer::new();
    let mut detector = TagDetector::new(settings.clone())?;
    let bar = progress(tables, "table");
    let mut calibrations = Vec::new();
    for i in 0..tables {
        let mut state = seed
            .wrapping_add(i as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            | 1;
        // Stands 3–5 mm high, tag included.
        let staged = stage(seed + i as u64, || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (3.0 + 2.0 * (state % 1000) as f64 / 1000.0) / 25.4
        })?;
        let tilt = 30.0 + 20.0 * i as f64 / (tables - 1).max(1) as f64;
        let camera = framing_camera(TABLE, size, Degrees(tilt), Degrees(70.0));
        let effects = Effects {
            seed: seed + i as u64,
            ..Effects::WEBCAM
        };
        let image = renderer.render(&staged.world, &camera, &effects)?;
        let sightings = detector.detect(&image)?.sightings();
        let calibration = calibrate(&staged.anchors, &sightings, size, &Settings::default())
            .with_context(|| format!("table {i}"))?;
        let located = locate_tags(&calibration, Some(&staged.roster), &sightings, Inches(0.16));
        score(&staged, &camera, &located, i, &mut tally);
        calibrations.push((tilt, calibration));
        bar.inc(1);
    }
    bar.finish_and_clear();
    report(&tally, &calibrations, tables, &settings, out)
}

fn score(
    staged: &Staged,
    camera: &calibration::Camera,
    located: &vision::FrameTags,
    table: usize,
    tally: &mut Tally,
) {
    let truth: HashMap<u32, &vision::synthetic::PrintedTag> =
        staged.world.tags().map(|t| (t.id, t)).collect();
    let anchors: Vec<u32> = staged.anchors.anchors.iter().map(|a| a.id).collect();
    for tag in truth.values().filter(|t| !anchors.contains(&t.id)) {
        let corners = tag.placement.corners();
        let side = (0..4)
            .filter_map(|k| {
                Some(
                    camera
                        .project(&corners[k])?
                        .distance(&camera.project(&corners[(k + 1) % 4])?)
                        .0,
                )
            })
            .sum::<f64>()
            / 4.0;
        let class = SIZE_CLASSES
            .iter()
            .position(|(lo, hi)| side >= *lo && side < *hi)
            .unwrap_or(0);
        tally.total[class] += 1;
        let Some(seen) = located.tags.iter().find(|t| t.pose.id == tag.id) else {
            continue;
        };
        tally.seen[class] += 1;
        if side < 16.0 {
            continue;
        }
        let error = (seen.pose.center - tag.placement.center).norm();
        let turn = (seen.pose.facing - tag.placement.facing)
            .0
            .rem_euclid(360.0);
        tally.position.push(error);
        tally.facing.push(turn.min(360.0 - turn));
        if tally.worst.is_none_or(|(w, _, _)| error > w) {
            tally.worst = Some((error, tag.id, table));
        }
    }
    tally.false_tags += located
        .tags
        .iter()
        .filter(|t| !truth.contains_key(&t.pose.id))
        .count();
    tally.false_tags += located
        .tags
        .iter()
        .filter(|t| {
            truth
                .get(&t.pose.id)
                .is_some_and(|tag| (t.pose.center - tag.placement.center).norm() > 0.5)
        })
        .count();
}

fn report(
    tally: &Tally,
    calibrations: &[(f64, TableCalibration)],
    tables: usize,
    settings: &DetectorSettings,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let sorted = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v
    };
    let at = |v: &[f64], p: f64| {
        v.get(((v.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(f64::NAN)
    };
    let (position, facing) = (sorted(&tally.position), sorted(&tally.facing));
    writeln!(
        out,
        "camera pipeline accuracy, {} synthetic tables, {}",
        tables,
        build()
    )?;
    writeln!(
        out,
        "1920×1080, 72\"×48\", camera 30°–50° from vertical, 70° lens, 45 stands a table in a grid over the whole table, 1\" tags 3–5 mm above the cloth"
    )?;
    writeln!(
        out,
        "effects: blur σ {}, noise σ {} grey levels, light fall-off {}, JPEG {:?}",
        Effects::WEBCAM.blur,
        Effects::WEBCAM.noise,
        Effects::WEBCAM.uneven_light,
        Effects::WEBCAM.jpeg_quality
    )?;
    writeln!(
        out,
        "detector: {settings}; calibration from the 4 corner anchors of each frame (lens from the anchors)"
    )?;
    let worst_cal = calibrations
        .iter()
        .map(|(_, c)| c.quality.rms_on_table.0)
        .fold(0.0, f64::max);
    writeln!(
        out,
        "calibration: worst anchor RMS on the table {worst_cal:.4}\""
    )?;
    writeln!(out, "tags of 16 px and more ({} placed):", position.len())?;
    writeln!(
        out,
        "  position error: p50 {:.4}\"  p95 {:.4}\"  max {:.4}\"",
        at(&position, 0.5),
        at(&position, 0.95),
        at(&position, 1.0)
    )?;
    writeln!(
        out,
        "  facing error:   p50 {:.3}°  p95 {:.3}°  max {:.3}°",
        at(&facing, 0.5),
        at(&facing, 0.95),
        at(&facing, 1.0)
    )?;
    if let Some((error, id, table)) = tally.worst {
        writeln!(out, "  worst: tag {id} on table {table}, {error:.4}\"")?;
    }
    writeln!(out, "recall by tag side:")?;
    for (k, (lo, hi)) in SIZE_CLASSES.iter().enumerate() {
        let label = if hi.is_finite() {
            format!("{lo:>2}–{hi:<2} px")
        } else {
            format!("≥{lo} px  ")
        };
        let rate = if tally.total[k] == 0 {
            f64::NAN
        } else {
            100.0 * tally.seen[k] as f64 / tally.total[k] as f64
        };
        writeln!(
            out,
            "  {label}: {:>4}/{:<4} {rate:5.1} %",
            tally.seen[k], tally.total[k]
        )?;
    }
    writeln!(out, "false tags: {}", tally.false_tags)?;
    Ok(())
}
