//! `vedette bench accuracy`: how exactly stands are placed, through the lenses people really
//! have, by each way of calibrating — side by side in one run, on synthetic tables whose truth
//! is known exactly.
//!
//! Every table is seen through a lens drawn from its kind ([`LensClass`]), rendered busy (a
//! flocked mat, painted figures) with a webcam's blur, noise, uneven light and JPEG. The same
//! picture is then calibrated five ways and its stands located with each calibration:
//! - anchors only: the four corner anchors, the lens's focal length alone (no distortion);
//! - one picture: the anchors and every stand tag the roster lists (bundle adjustment);
//! - after 30 s of play: the live learner given ten more pictures, one every 3 s, in which the
//!   stands have moved as they do in a game;
//! - board: four views of the printed board, filling the picture, and the table picture, as
//!   `vedette calibrate board-1.jpg … table.jpg --anchors` takes them (no stand tags);
//! - true lens: the lens the picture was rendered through, given.

use std::collections::HashMap;
use std::io::Write;
use std::time::Instant;

use calibration::lens::LensLearner;
use calibration::{
    Board, Camera, ImageSize, Intrinsics, LensSource, Settings, TableCalibration, TableSize,
    TagSighting, calibrate, calibrate_from_tags,
};
use rules::geometry::{angle_between, heading};
use rules::units::{Degrees, Inches};
use vision::synthetic::{
    Block, Effects, LensClass, Renderer, Rgb, Scenery, SyntheticTable, framing_camera_for,
    framing_camera_from,
};
use vision::{DetectorSettings, TagDetector};

use super::bench::progress;
use super::bench_vision::{Staged, TABLE, build, stage, xorshift};

const HD: ImageSize = ImageSize {
    width: 1920,
    height: 1080,
};

/// Pictures of play after the first, one every [`PLAY_INTERVAL`] seconds.
const PLAY_PICTURES: u64 = 10;
const PLAY_INTERVAL: f64 = 3.0;
/// How far a stand may have moved from its place in the first picture, inches.
const PLAY_SPREAD: f64 = 2.5;
/// Views of the board.
const BOARD_VIEWS: usize = 4;

/// Tag size classes for recall, by the side of the black square in pixels.
const SIZE_CLASSES: [(f64, f64); CLASSES] = [
    (0.0, 11.0),
    (11.0, 14.0),
    (14.0, 16.0),
    (16.0, 20.0),
    (20.0, 24.0),
    (24.0, f64::INFINITY),
];
const CLASSES: usize = 6;

/// The ways of calibrating compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Way {
    AnchorsOnly,
    OnePicture,
    AfterPlay,
    Board,
    TrueLens,
}

impl Way {
    const ALL: [Way; 5] = [
        Way::AnchorsOnly,
        Way::OnePicture,
        Way::AfterPlay,
        Way::Board,
        Way::TrueLens,
    ];

    fn name(self) -> &'static str {
        match self {
            Way::AnchorsOnly => "anchors only",
            Way::OnePicture => "one picture",
            Way::AfterPlay => "after 30 s play",
            Way::Board => "board",
            Way::TrueLens => "true lens",
        }
    }
}

/// The figures of one lens kind calibrated one way.
#[derive(Default)]
struct Score {
    position: Vec<f64>,
    facing: Vec<f64>,
    anchor_rms: Vec<f64>,
    seconds: Vec<f64>,
    models: HashMap<String, usize>,
    failures: Vec<String>,
}

/// Recall of one lens kind.
#[derive(Default)]
struct Recall {
    seen: [usize; CLASSES],
    /// Found again by following from a prediction a frame late.
    followed: [usize; CLASSES],
    total: [usize; CLASSES],
    false_tags: usize,
    /// Another tag's pattern confirmed where a tag lies.
    false_follows: usize,
    /// Found by the detector or by the small-tag search with the one-picture calibration.
    searched: [usize; CLASSES],
    /// Tags the search reported where no such tag lies.
    false_searched: usize,
    /// Position errors of tags of 11–16 px, found either way, located with the one-picture
    /// calibration, inches.
    small_positions: Vec<f64>,
    /// Seconds the small-tag search took on each picture.
    search_seconds: Vec<f64>,
}

/// Measure, per lens kind and way of calibrating, how far stands are placed from the truth.
pub fn accuracy(
    tables: usize,
    seed: u64,
    settings: DetectorSettings,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let tables = tables.max(1);
    let mut scores: HashMap<(LensClass, Way), Score> = HashMap::new();
    let mut recalls: HashMap<LensClass, Recall> = HashMap::new();
    let mut bench = Bench {
        renderer: Renderer::new(),
        detector: TagDetector::new(settings.clone())?,
    };
    let bar = progress(tables * LensClass::ALL.len(), "table");
    for class in LensClass::ALL {
        for i in 0..tables {
            let table_seed = seed + i as u64;
            let lens = class.sample(HD, table_seed);
            let tilt = 30.0 + 20.0 * i as f64 / (tables - 1).max(1) as f64;
            let camera = framing_camera_for(TABLE, lens, Degrees(tilt));
            let staged = busy(stage(table_seed, 1.0, &mut heights(table_seed))?);
            let effects = Effects {
                seed: table_seed,
                ..Effects::WEBCAM
            };
            let image = bench.renderer.render(&staged.world, &camera, &effects)?;
            let sightings = bench.detector.detect(&image)?.sightings();
            let truth = Truth::of(&staged, &camera);
            let recall = recalls.entry(class).or_default();
            truth.recall(&sightings, recall);
            truth.follow(&image, &settings.family, recall)?;
            for way in Way::ALL {
                let started = Instant::now();
                let calibration = bench.calibrate(way, &staged, &camera, table_seed, &sightings)?;
                let seconds = started.elapsed().as_secs_f64();
                let score = scores.entry((class, way)).or_default();
                match calibration {
                    Ok(calibration) => {
                        if way == Way::OnePicture {
                            let recall = recalls.entry(class).or_default();
                            truth.search(&image, &calibration, &staged, &sightings, recall)?;
                        }
                        score.seconds.push(seconds);
                        let before = score.position.len();
                        truth.score(&calibration, &staged, &sightings, score);
                        let worst = score.position[before..].iter().copied().fold(0.0, f64::max);
                        tracing::info!(lens = class.name(), way = way.name(), table = i, tilt, worst, model = %calibration.lens, "table calibrated");
                    }
                    Err(e) => score.failures.push(format!("table {i}: {e}")),
                }
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    report(tables, &settings, &scores, &recalls, out)
}

/// Stand heights 3–5 mm (tag included), the same for a table's every picture.
fn heights(seed: u64) -> impl FnMut() -> f64 {
    let mut random = xorshift(seed);
    move || (3.0 + 2.0 * (random() % 1000) as f64 / 1000.0) / 25.4
}

/// A club table: a flocked mat, figures on the stands.
fn busy(mut staged: Staged) -> Staged {
    staged.world.scenery = Scenery::Busy { seed: 7 };
    staged
}

/// What stays between tables: the renderer's caches and the detector.
struct Bench {
    renderer: Renderer,
    detector: TagDetector,
}

impl Bench {
    /// Calibrate one way; the outer error is the benchmark's own failure, the inner one the
    /// calibration's (counted, not fatal).
    fn calibrate(
        &mut self,
        way: Way,
        staged: &Staged,
        camera: &Camera,
        seed: u64,
        sightings: &[TagSighting],
    ) -> anyhow::Result<Result<TableCalibration, calibration::CalibrationError>> {
        let anchors = &staged.anchors;
        let with_lens = |lens: Intrinsics| {
            let settings = Settings {
                intrinsics: Some(lens),
                ..Settings::default()
            };
            calibrate(anchors, sightings, HD, &settings)
        };
        Ok(match way {
            Way::AnchorsOnly => calibrate(anchors, sightings, HD, &Settings::default()),
            Way::OnePicture => calibrate_from_tags(
                anchors,
                &[sightings.to_vec()],
                &staged.roster.stand_tags(),
                None,
                HD,
                None,
            ),
            Way::AfterPlay => {
                let learned = self.play(staged, camera, seed, sightings)?;
                learned.fit(anchors, None)
            }
            Way::Board => {
                // As `vedette calibrate board-1.jpg … table.jpg --anchors` does it.
                let mut pictures = self.board_views(&camera.intrinsics)?;
                pictures.push(sightings.to_vec());
                let board = Board::default();
                calibrate_from_tags(anchors, &pictures, &HashMap::new(), Some(&board), HD, None)
            }
            Way::TrueLens => with_lens(camera.intrinsics),
        })
    }

    /// Thirty seconds of play offered to the live learner: the first picture, then one every
    /// few seconds with the stands moved.
    fn play(
        &mut self,
        staged: &Staged,
        camera: &Camera,
        seed: u64,
        first: &[TagSighting],
    ) -> anyhow::Result<calibration::lens::LearnedTags> {
        let mut learner = LensLearner::new(HD, staged.roster.stand_tags());
        learner.observe(first, &staged.anchors);
        for k in 1..=PLAY_PICTURES {
            let moved = busy(stage(seed + 1000 * k, PLAY_SPREAD, &mut heights(seed))?);
            let effects = Effects {
                seed: seed + 1000 * k,
                ..Effects::WEBCAM
            };
            let image = self.renderer.render(&moved.world, camera, &effects)?;
            learner.observe(&self.detector.detect(&image)?.sightings(), &staged.anchors);
        }
        debug_assert!(PLAY_INTERVAL * PLAY_PICTURES as f64 <= 30.0);
        Ok(learner.snapshot())
    }

    /// The board's tags in views held in front of the camera.
    fn board_views(&mut self, lens: &Intrinsics) -> anyhow::Result<Vec<Vec<TagSighting>>> {
        let board = Board::default();
        let world = board_world(&board);
        let mut views = Vec::new();
        for view in 0..BOARD_VIEWS {
            let camera = board_camera(&world.table, *lens, view);
            let effects = Effects {
                seed: 77 + view as u64,
                ..Effects::WEBCAM
            };
            let image = self.renderer.render(&world, &camera, &effects)?;
            views.push(self.detector.detect(&image)?.sightings());
        }
        Ok(views)
    }
}

/// The board as a sheet lying on its own little table.
fn board_world(board: &Board) -> SyntheticTable {
    let pitch = board.tag_size + board.gap;
    let size = TableSize {
        width: pitch * f64::from(board.columns),
        depth: pitch * f64::from(board.rows),
    };
    let mut world = SyntheticTable::new(size);
    let tags: Vec<_> = board
        .ids()
        .filter_map(|id| {
            Some(vision::synthetic::PrintedTag {
                id,
                placement: board.placement(id)?,
            })
        })
        .collect();
    let centre = rules::geometry::TablePoint::new(size.width / 2.0, size.depth / 2.0);
    world.blocks.push(Block {
        footprint: rules::geometry::OrientedRect::from_center(
            centre,
            Degrees(0.0),
            Inches(size.width + 0.6),
            Inches(size.depth + 0.6),
        ),
        height: Inches::ZERO,
        colour: Rgb::PAPER,
        tags,
        figures: false,
    });
    world
}

/// A board view: held 35° from square-on, seen from one of four sides, as close as the whole
/// board allows.
fn board_camera(board: &TableSize, lens: Intrinsics, view: usize) -> Camera {
    let bearing = -90.0 + 90.0 * view as f64;
    framing_camera_from(*board, lens, Degrees(35.0), Degrees(bearing))
}

/// The truth of one table picture.
struct Truth {
    /// Each stand tag's placement and where its corners are in the picture.
    tags: HashMap<u32, TrueTag>,
    /// The anchors' ids.
    anchors: Vec<u32>,
}

/// A stand tag as it truly is.
struct TrueTag {
    placement: calibration::TagPlacement,
    /// Its printed corners in the picture, in the detector's order (`None`: behind the camera).
    seen: Option<TagSighting>,
}

impl TrueTag {
    /// Its side in pixels.
    fn side(&self) -> f64 {
        self.seen.as_ref().map_or(0.0, TagSighting::side)
    }
}

impl Truth {
    fn of(staged: &Staged, camera: &Camera) -> Truth {
        let anchors: Vec<u32> = staged.anchors.anchors.iter().map(|a| a.id).collect();
        let tags = staged
            .world
            .tags()
            .filter(|t| !anchors.contains(&t.id))
            .map(|t| {
                let seen = t.as_seen(camera);
                let tag = TrueTag {
                    placement: t.placement,
                    seen,
                };
                (t.id, tag)
            })
            .collect();
        Truth { tags, anchors }
    }

    fn recall(&self, sightings: &[TagSighting], recall: &mut Recall) {
        for (id, tag) in &self.tags {
            let class = size_class(tag.side());
            recall.total[class] += 1;
            if sightings.iter().any(|s| s.id == *id) {
                recall.seen[class] += 1;
            }
        }
        recall.false_tags += sightings
            .iter()
            .filter(|s| !self.tags.contains_key(&s.id) && !self.anchors.contains(&s.id))
            .count();
    }

    /// Follow every stand tag from a prediction a frame late (its corners 1.2 px off and turned
    /// 2°), as the live detector does; and try another tag's pattern at its true corners, which
    /// must never be confirmed.
    fn follow(&self, image: &vision::Mat, family: &str, recall: &mut Recall) -> anyhow::Result<()> {
        for (id, tag) in &self.tags {
            let Some(seen) = &tag.seen else {
                continue;
            };
            let late = late_prediction(&seen.corners);
            if vision::follow_tag(image, family, *id, &late)?.is_some() {
                recall.followed[size_class(tag.side())] += 1;
            }
            let impostor =
                (id + 1..).find(|i| !self.tags.contains_key(i) && !self.anchors.contains(i));
            if let Some(other) = impostor
                && vision::follow_tag(image, family, other, &seen.corners)?.is_some()
            {
                recall.false_follows += 1;
            }
        }
        Ok(())
    }

    /// Look for the roster's tags the detector did not find, with a calibration (the search
    /// rectified at those tags' mean height), and count what is found, what is false, and how
    /// well the small tags are placed.
    fn search(
        &self,
        image: &vision::Mat,
        calibration: &TableCalibration,
        staged: &Staged,
        sightings: &[TagSighting],
        recall: &mut Recall,
    ) -> anyhow::Result<()> {
        let mut wanted = staged.roster.stand_tags();
        wanted.retain(|id, _| sightings.iter().all(|s| s.id != *id));
        let started = Instant::now();
        let searched =
            vision::SmallTagSearch::new(calibration, &wanted)?.find_in(image, sightings)?;
        recall.search_seconds.push(started.elapsed().as_secs_f64());
        let mut all = sightings.to_vec();
        for found in &searched {
            let truly = self.tags.get(&found.id).and_then(|t| t.seen.as_ref());
            match truly {
                Some(true_tag)
                    if true_tag.center().distance(&found.center()).0 < 0.5 * true_tag.side() =>
                {
                    all.push(*found)
                }
                _ => recall.false_searched += 1,
            }
        }
        for (id, tag) in &self.tags {
            if all.iter().any(|s| s.id == *id) {
                recall.searched[size_class(tag.side())] += 1;
            }
        }
        let located = vision::locate_tags(calibration, Some(&staged.roster), &all, Inches(0.16));
        for tag in &located.tags {
            let Some(true_tag) = self.tags.get(&tag.pose.id) else {
                continue;
            };
            if (11.0..16.0).contains(&true_tag.side()) {
                let error = (tag.pose.center - true_tag.placement.center).norm();
                recall.small_positions.push(error);
            }
        }
        Ok(())
    }

    /// Locate the picture's tags with a calibration and score the tags of 16 px and more.
    fn score(
        &self,
        calibration: &TableCalibration,
        staged: &Staged,
        sightings: &[TagSighting],
        score: &mut Score,
    ) {
        let located =
            vision::locate_tags(calibration, Some(&staged.roster), sightings, Inches(0.16));
        for tag in &located.tags {
            let Some(true_tag) = self.tags.get(&tag.pose.id) else {
                continue;
            };
            if true_tag.side() < 16.0 {
                continue;
            }
            let truth = &true_tag.placement;
            score.position.push((tag.pose.center - truth.center).norm());
            let turn = angle_between(heading(tag.pose.facing), heading(truth.facing));
            score.facing.push(turn.0);
        }
        score.anchor_rms.push(calibration.quality.rms.0);
        let model = match calibration.lens {
            LensSource::Tags(t) => format!("{:?}", t.model),
            LensSource::Anchors => "focal".into(),
            other => format!("{other:?}")
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned(),
        };
        *score.models.entry(model).or_default() += 1;
    }
}

fn report(
    tables: usize,
    settings: &DetectorSettings,
    scores: &HashMap<(LensClass, Way), Score>,
    recalls: &HashMap<LensClass, Recall>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "camera pipeline accuracy through realistic lenses, {tables} synthetic tables per lens kind, {}",
        build()
    )?;
    writeln!(
        out,
        "1920×1080, 72\"×48\" busy table, camera 30°–50° from vertical, 45 stands over the whole table, 1\" tags 3–5 mm above the cloth, 4 corner anchors"
    )?;
    writeln!(
        out,
        "effects: blur σ {}, noise σ {} grey levels, light fall-off {}, JPEG {:?}; detector: {settings}",
        Effects::WEBCAM.blur,
        Effects::WEBCAM.noise,
        Effects::WEBCAM.uneven_light,
        Effects::WEBCAM.jpeg_quality
    )?;
    writeln!(
        out,
        "ways: anchors only (focal length from the anchors); one picture (anchors + stand tags, bundle adjustment); after 30 s play (live learner, {PLAY_PICTURES} more pictures every {PLAY_INTERVAL} s, stands moved up to {PLAY_SPREAD}\"); board ({BOARD_VIEWS} views and the anchors, no stand tags); true lens (given)"
    )?;
    writeln!(
        out,
        "stand tags of 16 px and more; position and facing errors against the truth; anchor RMS is the reprojection of the anchors' corners"
    )?;
    writeln!(
        out,
        "{:<20} {:<16} {:>8} {:>8} {:>8} {:>10} {:>10} {:>8}  lens fitted",
        "lens", "calibration", "pos p50", "pos p95", "pos max", "facing p95", "anchor RMS", "time"
    )?;
    for class in LensClass::ALL {
        for way in Way::ALL {
            let Some(score) = scores.get(&(class, way)) else {
                continue;
            };
            let (position, facing) = (sorted(&score.position), sorted(&score.facing));
            let mut models: Vec<String> = score
                .models
                .iter()
                .map(|(m, n)| format!("{m}×{n}"))
                .collect();
            models.sort();
            writeln!(
                out,
                "{:<20} {:<16} {:>7.4}\" {:>7.4}\" {:>7.4}\" {:>9.3}° {:>7.2} px {:>6.2} s  {}{}",
                class.name(),
                way.name(),
                at(&position, 0.5),
                at(&position, 0.95),
                at(&position, 1.0),
                at(&facing, 0.95),
                mean(&score.anchor_rms),
                median(&score.seconds),
                models.join(" "),
                if score.failures.is_empty() {
                    String::new()
                } else {
                    format!("; {} failed", score.failures.len())
                }
            )?;
            for failure in &score.failures {
                writeln!(out, "    ! {failure}")?;
            }
        }
    }
    writeln!(
        out,
        "recall by tag side (the first picture of each table): found by the detector; followed from a prediction a frame late (1.2 px off, turned 2°), as live"
    )?;
    for class in LensClass::ALL {
        let Some(recall) = recalls.get(&class) else {
            continue;
        };
        let line = |counts: &[usize; CLASSES]| {
            let cells: Vec<String> = SIZE_CLASSES
                .iter()
                .enumerate()
                .map(|(k, (lo, hi))| {
                    let label = if hi.is_finite() {
                        format!("{lo}–{hi} px")
                    } else {
                        format!("≥{lo} px")
                    };
                    let rate = 100.0 * counts[k] as f64 / recall.total[k].max(1) as f64;
                    format!("{label} {}/{} {rate:.0} %", counts[k], recall.total[k])
                })
                .collect();
            cells.join(", ")
        };
        writeln!(
            out,
            "  {:<20} found    {}; false tags {}",
            class.name(),
            line(&recall.seen),
            recall.false_tags
        )?;
        writeln!(
            out,
            "  {:<20} followed {}; another tag's pattern confirmed {} times",
            "",
            line(&recall.followed),
            recall.false_follows
        )?;
        let small = sorted(&recall.small_positions);
        writeln!(
            out,
            "  {:<20} searched {}; false tags {}; 11–16 px placed p95 {:.3}\" ({} tags); search {:.0} ms median",
            "",
            line(&recall.searched),
            recall.false_searched,
            at(&small, 0.95),
            small.len(),
            1000.0 * median(&recall.search_seconds)
        )?;
    }
    Ok(())
}

/// The size class of a tag `side` pixels across.
fn size_class(side: f64) -> usize {
    SIZE_CLASSES
        .iter()
        .position(|(lo, hi)| side >= *lo && side < *hi)
        .unwrap_or(0)
}

/// Where a tracker a frame late would expect a tag: moved by (1.0, −0.7) px and turned 2°.
fn late_prediction(corners: &[calibration::PixelPoint; 4]) -> [calibration::PixelPoint; 4] {
    let centre = calibration::PixelPoint::mean(corners);
    let (sin, cos) = 2f64.to_radians().sin_cos();
    corners.map(|p| {
        let (x, y) = (p.x - centre.x, p.y - centre.y);
        calibration::PixelPoint::new(
            centre.x + cos * x - sin * y + 1.0,
            centre.y + sin * x + cos * y - 0.7,
        )
    })
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

fn at(sorted: &[f64], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 - 1.0) * p).round() as usize)
        .copied()
        .unwrap_or(f64::NAN)
}

fn median(values: &[f64]) -> f64 {
    at(&sorted(values), 0.5)
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}
