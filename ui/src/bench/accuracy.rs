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
//!
//! Every calibration is given the tags' corners refined against their patterns
//! ([`vision::refine`]), as `vedette calibrate` and the app's lens learning give them, the
//! refining counted in each way's time (`--corners detector` gives the detector's instead).
//!
//! With each calibration the stands are then placed as `vedette locate` places them (the
//! detector's corners and the small tags searched for), their error bars stated, and those
//! judged against the truth (`vision::synthetic::Coverage`): twice, once with one height stated
//! for every stand (4 mm; each truly 3–5 mm) and once with each stand's true height said to be
//! exact, the camera's own share. The report ends with how far the detector's corners and the
//! refined ones lie from the truth.

use std::collections::HashMap;
use std::io::Write;
use std::time::Instant;

use calibration::LensLearner;
use calibration::{
    Board, Camera, Intrinsics, LensSource, Settings, TableCalibration, TableSize, TagSighting,
    calibrate, calibrate_from_tags,
};
use rules::geometry::{angle_between, heading};
use rules::units::{Degrees, Inches};
use vision::refine::{
    CornerRefiner, RefineSettings, Refinement, TablePicture, calibrate_through_lens,
};
use vision::synthetic::{
    Block, Coverage, Effects, Figures, LensClass, Renderer, Rendering, Rgb, SyntheticTable,
    TrueStand, framing_camera_for, framing_camera_from,
};
use vision::{DetectorSettings, TagDetector};

use super::figures::{at, mean, median, sorted};
use super::world::{HD, Staged, TABLE, build, busy, heights, stage};
use crate::progress::progress;

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
pub(super) enum Way {
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

    pub(super) fn name(self) -> &'static str {
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

/// Which corners the calibrations are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Corners {
    /// The detector's.
    Detector,
    /// The detector's refined against each tag's printed pattern, as `vedette calibrate` does.
    Refined,
}

/// Measure, per lens kind and way of calibrating, how far stands are placed from the truth,
/// through the lens kinds `lenses` (all of them when empty), with the corners `corners`.
pub fn accuracy(
    tables: usize,
    seed: u64,
    lenses: &[LensClass],
    corners: Corners,
    settings: DetectorSettings,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if tables == 0 {
        return Ok(());
    }
    let classes = chosen(LensClass::ALL, lenses);
    let mut scores: HashMap<(LensClass, Way), Score> = HashMap::new();
    let mut recalls: HashMap<LensClass, Recall> = HashMap::new();
    let mut corner_errors: HashMap<LensClass, CornerErrors> = HashMap::new();
    let mut coverages: HashMap<(LensClass, Way, Heights), Coverage> = HashMap::new();
    let mut bench = Bench::new(&settings, corners == Corners::Refined)?;
    let bar = progress(tables * classes.len(), "table");
    for &class in &classes {
        for i in 0..tables {
            let (table_seed, camera, staged) = table_of(class, (i, tables), seed)?;
            let tilt = camera.pose.tilt().0;
            let image = bench.render(&staged, &camera, (table_seed, table_seed))?;
            let (detected, refined) = bench.both(&image)?;
            let truth = Truth::of(&staged, &camera);
            corner_errors
                .entry(class)
                .or_default()
                .add(&staged, &camera, &detected, &refined);
            let (sightings, refine_seconds) = if bench.refine {
                (refined.sightings, refined.seconds)
            } else {
                (detected.clone(), 0.0)
            };
            let picture = Picture {
                image: &image,
                detected: &detected,
                sightings: &sightings,
            };
            let recall = recalls.entry(class).or_default();
            truth.recall(&sightings, recall);
            truth.follow(&image, &settings.family, recall)?;
            for way in Way::ALL {
                let started = Instant::now();
                let calibration = bench.calibrate(way, &staged, &camera, table_seed, &picture)?;
                // The ways that take the table picture's refined corners as they are count their
                // refining; the others refine (twice) themselves.
                let refined_before = matches!(way, Way::AnchorsOnly | Way::TrueLens);
                let seconds = started.elapsed().as_secs_f64()
                    + if refined_before { refine_seconds } else { 0.0 };
                let score = scores.entry((class, way)).or_default();
                match calibration {
                    Ok(calibration) => {
                        if way == Way::OnePicture {
                            let recall = recalls.entry(class).or_default();
                            truth.search(&image, &calibration, &staged, &sightings, recall)?;
                        }
                        for heights in Heights::ALL {
                            let judged = coverages.entry((class, way, heights)).or_default();
                            truth.coverage(
                                &image,
                                &calibration,
                                &staged,
                                &picture,
                                (heights, Placing::Film),
                                judged,
                            )?;
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
    report(tables, &settings, corners, &scores, &recalls, out)?;
    report_coverage(&coverages, out)?;
    report_corners(&corner_errors, out)
}

/// How a picture's tags are placed for the error bars' coverage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Placing {
    /// As the app places a film's frames: the detector's corners.
    Film,
    /// As `vedette locate` and the app's still picture do: the corners refined against each
    /// tag's pattern, the pixels figures cover left out.
    Still,
}

impl Placing {
    pub(super) const ALL: [Placing; 2] = [Placing::Film, Placing::Still];

    pub(super) fn name(self) -> &'static str {
        match self {
            Placing::Film => "film",
            Placing::Still => "still",
        }
    }
}

/// Those of `all` that are `wanted`, in `all`'s order; every one when none is named.
pub(super) fn chosen<T: PartialEq>(all: impl IntoIterator<Item = T>, wanted: &[T]) -> Vec<T> {
    all.into_iter()
        .filter(|item| wanted.is_empty() || wanted.contains(item))
        .collect()
}

/// Table `i` of `tables` of a lens kind, the first seeded `seed`: its seed, its camera (a lens
/// drawn from the kind, tilted from 30° on the first table to 50° on the last) and its stands.
pub(super) fn table_of(
    class: LensClass,
    (i, tables): (usize, usize),
    seed: u64,
) -> anyhow::Result<(u64, Camera, Staged)> {
    let table_seed = seed + i as u64;
    let lens = class.sample(HD, table_seed);
    let tilt = 30.0 + 20.0 * i as f64 / (tables - 1).max(1) as f64;
    let camera = framing_camera_for(TABLE, lens, Degrees(tilt));
    let staged = busy(stage(table_seed, 1.0, &mut heights(table_seed))?);
    Ok((table_seed, camera, staged))
}

/// What the roster says of the stands' heights, for the error bars' coverage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Heights {
    /// One height for every stand (4 mm, each truly 3–5 mm), off by the roster's default.
    Stated,
    /// Each stand's true height, said to be exact: the camera's own share of the error.
    Known,
}

impl Heights {
    const ALL: [Heights; 2] = [Heights::Stated, Heights::Known];

    fn name(self) -> &'static str {
        match self {
            Heights::Stated => "stated 4 mm",
            Heights::Known => "known",
        }
    }

    /// The roster the stands are placed with.
    fn roster(self, staged: &Staged) -> roster::Roster {
        let mut roster = staged.roster.clone();
        match self {
            Heights::Stated => {
                for stand in roster.units.iter_mut().flat_map(|u| u.stands.iter_mut()) {
                    stand.tag_height = None;
                }
            }
            Heights::Known => roster.tags.height_sd = 0.0,
        }
        roster
    }
}

/// A table picture: its pixels, its tags as detected, and as the calibrations are given them.
pub(super) struct Picture<'a> {
    pub(super) image: &'a vision::Mat,
    pub(super) detected: &'a [TagSighting],
    pub(super) sightings: &'a [TagSighting],
}

impl Picture<'_> {
    fn table(&self) -> TablePicture<'_> {
        TablePicture {
            image: self.image,
            detected: self.detected,
        }
    }
}

/// A calibration, or the calibration's own error (counted, not fatal).
type Calibrated = Result<TableCalibration, calibration::CalibrationError>;

/// A picture's tags refined: their sightings, the seconds it took, and what became of each.
pub(super) struct RefinedTags {
    pub(super) sightings: Vec<TagSighting>,
    seconds: f64,
    outcomes: Vec<Refinement>,
}

/// What stays between tables: the renderer's caches, the detector and the corner refiner.
pub(super) struct Bench {
    /// How the pictures of play are rendered.
    pub(super) rendering: Rendering,
    pub(super) renderer: Renderer,
    pub(super) detector: TagDetector,
    pub(super) refiner: CornerRefiner,
    /// Whether the calibrations are given refined corners.
    pub(super) refine: bool,
}

impl Bench {
    /// A bench rendering Vedette's own way, detecting with `settings`, its calibrations given
    /// refined corners when `refine`.
    pub(super) fn new(settings: &DetectorSettings, refine: bool) -> anyhow::Result<Bench> {
        Ok(Bench {
            rendering: Rendering::Own,
            renderer: Renderer::new(),
            detector: TagDetector::new(settings.clone())?,
            refiner: CornerRefiner::new(&settings.family, RefineSettings::default())?,
            refine,
        })
    }

    /// A picture's tags as detected, and refined.
    pub(super) fn both(
        &mut self,
        image: &vision::Mat,
    ) -> anyhow::Result<(Vec<TagSighting>, RefinedTags)> {
        let detected = self.detector.detect(image)?.sightings();
        let mut sightings = detected.clone();
        let report = self.refiner.refine(image, None, &mut sightings)?;
        let refined = RefinedTags {
            sightings,
            seconds: report.time.as_secs_f64(),
            outcomes: report.outcomes,
        };
        Ok((detected, refined))
    }

    /// Calibrate one way; the outer error is the benchmark's own failure, the inner one the
    /// calibration's (counted, not fatal).
    pub(super) fn calibrate(
        &mut self,
        way: Way,
        staged: &Staged,
        camera: &Camera,
        seed: u64,
        picture: &Picture,
    ) -> anyhow::Result<Result<TableCalibration, calibration::CalibrationError>> {
        let anchors = &staged.anchors;
        let sightings = picture.sightings;
        let with_lens = |lens: Intrinsics| {
            let settings = Settings {
                intrinsics: Some(lens),
                ..Settings::default()
            };
            calibrate(anchors, sightings, HD, &settings)
        };
        Ok(match way {
            Way::AnchorsOnly => calibrate(anchors, sightings, HD, &Settings::default()),
            Way::OnePicture => self.one_picture(staged, picture)?,
            Way::AfterPlay => {
                // The app starts from the lens `vedette calibrate` fitted from one picture.
                let start = self.one_picture(staged, picture)?.ok();
                let lens = start.as_ref().map(|c| c.camera.intrinsics);
                let learned = self.play(staged, camera, seed, picture, lens.as_ref())?;
                learned.fit(anchors, start.as_ref())
            }
            Way::Board => {
                // As `vedette calibrate board-1.jpg … table.jpg --anchors` does it.
                let views = self.board_views(&camera.intrinsics)?;
                let mut pictures: Vec<TablePicture> = views
                    .iter()
                    .map(|(image, detected)| TablePicture { image, detected })
                    .collect();
                pictures.push(picture.table());
                let board = Board::default();
                self.calibrate_refined(&pictures, |pictures| {
                    calibrate_from_tags(anchors, pictures, &HashMap::new(), Some(&board), HD, None)
                })?
            }
            Way::TrueLens => with_lens(camera.intrinsics),
        })
    }

    /// As `vedette calibrate table.jpg --roster` does it: from the table picture's anchors and
    /// stand tags, their corners refined, and refined again through the lens first fitted.
    fn one_picture(&mut self, staged: &Staged, picture: &Picture) -> anyhow::Result<Calibrated> {
        let stands = staged.roster.stand_tags();
        self.calibrate_refined(&[picture.table()], |pictures| {
            calibrate_from_tags(&staged.anchors, pictures, &stands, None, HD, None)
        })
    }

    /// Calibrate from these pictures' tags: refined twice (see `calibrate_through_lens`) when
    /// the bench refines, as detected when not.
    fn calibrate_refined(
        &mut self,
        pictures: &[TablePicture],
        calibrate: impl Fn(&[Vec<TagSighting>]) -> Calibrated,
    ) -> anyhow::Result<Calibrated> {
        if !self.refine {
            let detected: Vec<Vec<TagSighting>> =
                pictures.iter().map(|p| p.detected.to_vec()).collect();
            return Ok(calibrate(&detected));
        }
        Ok(calibrate_through_lens(&mut self.refiner, pictures, calibrate)?.calibration)
    }

    /// A picture's tags offered to the live learner as the app offers them: those it keeps
    /// with their corners refined through `lens` (when the bench refines), every one at once
    /// (the app refines a few a frame, and a bench picture stands for seconds of frames).
    fn offer(
        &mut self,
        learner: &mut LensLearner,
        image: &vision::Mat,
        detected: &[TagSighting],
        anchors: &calibration::AnchorLayout,
        lens: Option<&Intrinsics>,
    ) -> anyhow::Result<()> {
        if self.refine {
            let offered = self.refiner.offer_to_learner(
                image,
                detected,
                anchors,
                learner,
                lens,
                usize::MAX,
            )?;
            learner.observe(&offered, anchors);
        } else {
            learner.observe(detected, anchors);
        }
        Ok(())
    }

    /// Thirty seconds of play offered to the live learner: the first picture, then one every
    /// few seconds with the stands moved.
    fn play(
        &mut self,
        staged: &Staged,
        camera: &Camera,
        seed: u64,
        first: &Picture,
        lens: Option<&Intrinsics>,
    ) -> anyhow::Result<calibration::LearnedTags> {
        let mut learner = LensLearner::new(HD, staged.roster.stand_tags());
        self.offer(
            &mut learner,
            first.image,
            first.detected,
            &staged.anchors,
            lens,
        )?;
        for k in 1..=PLAY_PICTURES {
            let moved = busy(stage(seed + 1000 * k, PLAY_SPREAD, &mut heights(seed))?);
            let image = self.render(&moved, camera, (seed, seed + 1000 * k))?;
            let seen = self.detector.detect(&image)?.sightings();
            self.offer(&mut learner, &image, &seen, &staged.anchors, lens)?;
        }
        debug_assert!(PLAY_INTERVAL * PLAY_PICTURES as f64 <= 30.0);
        Ok(learner.snapshot())
    }

    /// A picture of table `table_seed` as this bench's rendering has it, seen by `camera`,
    /// its noise from `seed`.
    pub(super) fn render(
        &mut self,
        staged: &Staged,
        camera: &Camera,
        (table_seed, seed): (u64, u64),
    ) -> anyhow::Result<vision::Mat> {
        let anchors: Vec<u32> = staged.anchors.anchors.iter().map(|a| a.id).collect();
        let world = self.rendering.table(&staged.world, &anchors, table_seed);
        let rendered = self
            .renderer
            .render(&world, camera, &self.rendering.effects(seed))?;
        Ok(self.rendering.picture(rendered)?)
    }

    /// The board's tags in views held in front of the camera.
    fn board_views(
        &mut self,
        lens: &Intrinsics,
    ) -> anyhow::Result<Vec<(vision::Mat, Vec<TagSighting>)>> {
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
            let detected = self.detector.detect(&image)?.sightings();
            views.push((image, detected));
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
        motion: None,
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
pub(super) struct Truth {
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
    pub(super) fn of(staged: &Staged, camera: &Camera) -> Truth {
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
            vision::MissingTagSearch::new(calibration, &wanted)?.find_in(image, sightings)?;
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

    /// Place the picture's stands as `placing` says (the detector's corners and the small tags
    /// the calibration finds, refined for a still) with the roster `heights` gives, and judge
    /// the error bars of the scene against the truth; the picture's corners' scatter factor
    /// (see `vision::scatter`) is returned.
    pub(super) fn coverage(
        &self,
        image: &vision::Mat,
        calibration: &TableCalibration,
        staged: &Staged,
        picture: &Picture,
        (heights, placing): (Heights, Placing),
        judged: &mut Coverage,
    ) -> anyhow::Result<f64> {
        let roster = heights.roster(staged);
        let mut sightings = picture.detected.to_vec();
        let search = vision::MissingTagSearch::new(calibration, &roster.stand_tags())?;
        sightings.extend(search.find_in(image, &sightings)?);
        if placing == Placing::Still {
            vision::refine::for_placing(image, calibration, &mut sightings)?;
        }
        let located = vision::locate_tags(calibration, Some(&roster), &sightings, Inches(0.16));
        let poses = located.tags.iter().map(|t| &t.pose);
        let (scene, _) = vision::scene_on_table(&roster, calibration, poses, Vec::new(), "bench")?;
        let mut truth = HashMap::new();
        for unit in &roster.units {
            let stands: Option<Vec<TrueStand>> = unit
                .stands
                .iter()
                .map(|stand| {
                    let tag = self.tags.get(&stand.tag)?;
                    let (centre, facing) =
                        stand.pose_from_tag(tag.placement.center, tag.placement.facing);
                    Some(TrueStand {
                        rect: rules::geometry::OrientedRect::from_center(
                            centre,
                            facing,
                            Inches(stand.width),
                            Inches(stand.depth),
                        ),
                        small: tag.side() < SMALL_TAG,
                    })
                })
                .collect();
            if let Some(stands) = stands {
                truth.insert(unit.id.clone(), stands);
            }
        }
        judged.judge(&scene, &truth);
        Ok(located.scatter.picture())
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
    corners: Corners,
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
        "effects: blur σ {}, noise σ {} grey levels, light fall-off {}, JPEG {:?}; detector: {settings}; corners: {}",
        Effects::WEBCAM.blur,
        Effects::WEBCAM.noise,
        Effects::WEBCAM.uneven_light,
        Effects::WEBCAM.jpeg_quality,
        match corners {
            Corners::Detector => "the detector's",
            Corners::Refined =>
                "refined against each tag's pattern, and again through the lens first fitted where it bends them (the time counted in each way's)",
        }
    )?;
    writeln!(
        out,
        "ways: anchors only (focal length from the anchors); one picture (anchors + stand tags, bundle adjustment); after 30 s play (live learner from the one picture's lens, {PLAY_PICTURES} more pictures every {PLAY_INTERVAL} s, stands moved up to {PLAY_SPREAD}\"); board ({BOARD_VIEWS} views and the anchors, no stand tags); true lens (given)"
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

/// Tags under this many pixels across are judged apart as well.
const SMALL_TAG: f64 = 16.0;

/// The error bars' coverage, per lens kind, way of calibrating and what the roster says of the
/// heights.
fn report_coverage(
    coverages: &HashMap<(LensClass, Way, Heights), Coverage>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "error bars: stands placed as `vedette locate` places them (the detector's corners, small tags searched for), each distance between the nearest points of two stands up to {}\" apart, each facing, and each share of a target in a shooter's arc that is neither none nor all (arcs) against the truth; covered: the share within its stated 95 % interval; ±: the median stated half-width; err p95: the true error's 95th percentile (±/p95 their ratio); tags <{SMALL_TAG} px: the distances with such a tag at either end, and their facings",
        vision::synthetic::FARTHEST.0
    )?;
    writeln!(
        out,
        "{:<20} {:<16} {:<12} {:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>5} {:>8} {:>6} | <{SMALL_TAG} px {:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6}",
        "lens",
        "calibration",
        "heights",
        "pairs",
        "covered",
        "±",
        "err p95",
        "facing",
        "±",
        "err p95",
        "arcs",
        "covered",
        "±/p95",
        "pairs",
        "covered",
        "±/p95",
        "facing",
        "±/p95",
        "arcs",
        "±/p95"
    )?;
    for class in LensClass::ALL {
        for way in Way::ALL {
            for heights in Heights::ALL {
                let Some(c) = coverages.get(&(class, way, heights)) else {
                    continue;
                };
                let (all, small) = (c.distances(false), c.distances(true));
                let (turns, small_turns) = (c.facings(false), c.facings(true));
                let (arcs, small_arcs) = (c.arc_shares(false), c.arc_shares(true));
                let ratio = |f: &Figures| f.median_half_width / f.p95_error;
                writeln!(
                    out,
                    "{:<20} {:<16} {:<12} {:>6} {:>7.1}% {:>7.4}\" {:>7.4}\" {:>7.1}% {:>7.3}° {:>7.3}° {:>5} {:>7.1}% {:>6.2} | {:>13} {:>7.1}% {:>8.2} {:>7.1}% {:>8.2} {:>7.1}% {:>6.2}",
                    class.name(),
                    way.name(),
                    heights.name(),
                    all.count,
                    100.0 * all.covered,
                    all.median_half_width,
                    all.p95_error,
                    100.0 * turns.covered,
                    turns.median_half_width,
                    turns.p95_error,
                    arcs.count,
                    100.0 * arcs.covered,
                    ratio(&arcs),
                    small.count,
                    100.0 * small.covered,
                    ratio(&small),
                    100.0 * small_turns.covered,
                    ratio(&small_turns),
                    100.0 * small_arcs.covered,
                    ratio(&small_arcs),
                )?;
            }
        }
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

/// The tag groups corner errors are told apart by: the anchors, then stand tags by side.
const CORNER_GROUPS: [(&str, f64, f64); 6] = [
    ("anchors <30 px", 0.0, 30.0),
    ("anchors ≥30 px", 30.0, f64::INFINITY),
    ("stand tags <16 px", 0.0, 16.0),
    ("16–20 px", 16.0, 20.0),
    ("20–24 px", 20.0, 24.0),
    ("≥24 px", 24.0, f64::INFINITY),
];

/// How far the detector's corners and the refined ones lie from the truth, per group.
#[derive(Default)]
struct CornerErrors {
    /// Per group, per corner: (detector, refined) error outwards along the tag's diagonal, and
    /// the whole error's length, pixels.
    groups: [Vec<([f64; 2], [f64; 2])>; 6],
    /// Per group: Σ error·bend and Σ bend·bend, detector and refined, where the bend is how
    /// far a straight-edge detector's corner lies from the true one through the lens.
    bends: [[f64; 3]; 6],
    /// Per group: the sum of the errors' x and y, detector and refined, pixels.
    shifts: [[f64; 4]; 6],
    refined: usize,
    kept: HashMap<String, usize>,
    seconds: Vec<f64>,
    tags: Vec<usize>,
}

impl CornerErrors {
    fn add(
        &mut self,
        staged: &Staged,
        camera: &Camera,
        detected: &[TagSighting],
        refined: &RefinedTags,
    ) {
        self.seconds.push(refined.seconds);
        self.tags.push(detected.len());
        for outcome in &refined.outcomes {
            match outcome {
                Refinement::Refined { .. } => self.refined += 1,
                Refinement::Kept(why) => *self.kept.entry(format!("{why:?}")).or_default() += 1,
            }
        }
        for (before, after) in detected.iter().zip(&refined.sightings) {
            // Anchors and stand tags alike are printed tags of the staged world.
            let Some(printed) = staged.world.tags().find(|t| t.id == before.id) else {
                continue;
            };
            let Some(true_corners) = printed.as_seen(camera).map(|s| s.corners) else {
                continue;
            };
            let side = calibration::tag::mean_side(&true_corners);
            let group = if staged.anchors.anchor(before.id).is_some() {
                usize::from(side >= 30.0)
            } else {
                (2..CORNER_GROUPS.len())
                    .find(|&g| side >= CORNER_GROUPS[g].1 && side < CORNER_GROUPS[g].2)
                    .unwrap_or(2)
            };
            let centre = calibration::PixelPoint::mean(&true_corners);
            let bent = calibration::lens::as_detected(camera, &printed.placement.corners());
            for k in 0..4 {
                let t = true_corners[k];
                let (ox, oy) = (t.x - centre.x, t.y - centre.y);
                let length = ox.hypot(oy).max(1e-9);
                let error = |p: calibration::PixelPoint| {
                    let (ex, ey) = (p.x - t.x, p.y - t.y);
                    ((ex * ox + ey * oy) / length, ex.hypot(ey))
                };
                let (b, a) = (error(before.corners[k]), error(after.corners[k]));
                self.groups[group].push(([b.0, a.0], [b.1, a.1]));
                let sum = &mut self.shifts[group];
                sum[0] += before.corners[k].x - t.x;
                sum[1] += before.corners[k].y - t.y;
                sum[2] += after.corners[k].x - t.x;
                sum[3] += after.corners[k].y - t.y;
                if let Some(bent) = bent {
                    let (bx, by) = (bent[k].x - t.x, bent[k].y - t.y);
                    let along = |p: calibration::PixelPoint| (p.x - t.x) * bx + (p.y - t.y) * by;
                    self.bends[group][0] += along(before.corners[k]);
                    self.bends[group][1] += along(after.corners[k]);
                    self.bends[group][2] += bx * bx + by * by;
                }
            }
        }
    }
}

/// The corner errors, detector against refined, per lens kind and group.
fn report_corners(
    errors: &HashMap<LensClass, CornerErrors>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "corners against the truth (the first picture of each table), detector → refined with the lens unknown: the mean error outwards along the diagonal; RMS, p95 and max error; the straight-edge share (1: the corner lies where straight lines fitted to the lens-bent edges meet, as the calibration models it); the mean error in x and y"
    )?;
    for class in LensClass::ALL {
        let Some(e) = errors.get(&class) else {
            continue;
        };
        let mut kept: Vec<String> = e.kept.iter().map(|(w, n)| format!("{w} {n}")).collect();
        kept.sort();
        writeln!(
            out,
            "  {:<20} refined {}/{} tags (kept: {}); {:.0} ms a picture median",
            class.name(),
            e.refined,
            e.tags.iter().sum::<usize>(),
            if kept.is_empty() {
                "none".to_owned()
            } else {
                kept.join(", ")
            },
            1000.0 * median(&e.seconds)
        )?;
        for (g, (name, ..)) in CORNER_GROUPS.iter().enumerate() {
            let values = &e.groups[g];
            if values.is_empty() {
                continue;
            }
            let side = |i: usize| {
                let outwards: Vec<f64> = values.iter().map(|v| v.0[i]).collect();
                let lengths = sorted(&values.iter().map(|v| v.1[i]).collect::<Vec<_>>());
                let rms =
                    (lengths.iter().map(|l| l * l).sum::<f64>() / lengths.len() as f64).sqrt();
                (mean(&outwards), rms, at(&lengths, 0.95), at(&lengths, 1.0))
            };
            let (b, a) = (side(0), side(1));
            let bend = e.bends[g];
            let shift = e.shifts[g].map(|v| v / values.len() as f64);
            // The share says nothing where the lens hardly bends a tag's edges.
            let bend_rms = (bend[2] / values.len() as f64).sqrt();
            let share = if bend_rms >= 0.05 {
                format!(
                    "{:.2} → {:.2}",
                    bend[0] / bend[2].max(1e-12),
                    bend[1] / bend[2].max(1e-12)
                )
            } else {
                "–".to_owned()
            };
            writeln!(
                out,
                "  {:<20} {:<18} {:>4} corners: outwards {:+.3} → {:+.3} px, RMS {:.3} → {:.3} px, p95 {:.3} → {:.3} px, max {:.3} → {:.3} px; straight-edge share {share} (lens bend RMS {bend_rms:.3} px); mean (x, y) ({:+.3}, {:+.3}) → ({:+.3}, {:+.3}) px",
                "",
                name,
                values.len(),
                b.0,
                a.0,
                b.1,
                a.1,
                b.2,
                a.2,
                b.3,
                a.3,
                shift[0],
                shift[1],
                shift[2],
                shift[3]
            )?;
        }
    }
    Ok(())
}
