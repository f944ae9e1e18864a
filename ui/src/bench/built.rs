//! The tables people build, beside the flat one, in `vedette bench accuracy`: a camera on a
//! tripod at the table's long side (30–55° from vertical, an ordinary webcam lens, 1080p), a
//! third of the stands standing on hills 1–3" high, two to six figures on every base hiding
//! parts of the tags from the camera.
//!
//! Every figure is measured through the app's own pipeline ([`Processor`]), as a player gets
//! it: calibrated from the anchors and the stand tags, each stand placed on the ground the app
//! knows. The same table is measured four ways:
//! - flat: the table as it was before the hills and the figures, the baseline;
//! - hills given: the hills in the terrain, a still picture (the stands on them enter the
//!   calibration at their true height);
//! - hills learnt: the hills not given, the picture filmed for 30 s: the app learns the ground
//!   under each raised stand at rest;
//! - hills unknown: every frame of that film, where a raised stand is placed on the cloth
//!   below its ray until its ground is learnt, and must be flagged meanwhile.
//!
//! Decisions:
//! - Truth is each stand's block as rendered (its footprint's centre and facing); a stand is
//!   judged by its unit's place in the app's scene (the units have one stand each), in the
//!   frames whose picture placed its tag: a stand whose tag the app did not find that frame is
//!   held and said so, where it was last seen or where the scenario puts it, which is not
//!   the camera's measure.
//! - A stand on a hill placed off its footprint counts as flagged in a frame when a note of
//!   that frame names its tag; the film's frames are counted, stand by stand.
//! - The tags found are the detector's on the picture with figures, against how much of each
//!   tag the figures hide from the camera (rendered truth, [`SyntheticTable::hidden_share`]).
//! - The pipeline's time a frame is measured on the film of each table, against the flat
//!   table's film in the same run (a ratio that holds across machines).

use std::io::Write;
use std::time::{Duration, Instant};

use calibration::{Camera, TagSighting};
use roster::Roster;
use rules::geometry::TablePoint;
use rules::scene::{Scene, TerrainDoc, TerrainKind};
use rules::units::{Degrees, Inches};
use vision::synthetic::{Block, PrintedTag};
use vision::synthetic::{
    Effects, LensClass, MiniatureSettings, Renderer, SyntheticTable, framing_camera_for,
};
use vision::{DetectorSettings, Frame, Mat, TagDetector, TagPose};

use live::pipeline::{Inputs, Processor, TableState};

use super::figures::{at, mean, sorted};
use super::world::{HD, Staged, TABLE, busy, heights, stage, xorshift};

/// How long each built table is filmed for the hills to be learnt, one frame a second.
const FILMED_SECONDS: u64 = 30;
/// Frames of the flat table filmed, for its time a frame.
const FLAT_FRAMES: u64 = 8;

/// The longest a lens fit is waited for between two frames (one takes a second or two).
const LENS_FIT_WAIT: Duration = Duration::from_secs(60);
/// Beyond this, a stand placed off its footprint must be flagged, inches.
const FLAG_BEYOND: f64 = 0.25;
/// The shares hidden by figures the tags found are counted in: name, from, to.
const HIDDEN: [(&str, f64, f64); 4] = [
    ("wholly visible", 0.0, 0.0),
    ("under 25 % hidden", 1e-9, 0.25),
    ("25–50 % hidden", 0.25, 0.5),
    ("over half hidden", 0.5, 1.0),
];

/// One built table: the staged stands, raised and with figures, and which are on hills.
struct Built {
    staged: Staged,
    /// The tags of the stands on hills, with how high each stands.
    raised: Vec<(u32, Inches)>,
    hills: Vec<TerrainDoc>,
}

/// Where the app placed a stand, against the truth: inches off, degrees turned.
#[derive(Default)]
struct Errors {
    place: Vec<f64>,
    facing: Vec<f64>,
}

impl Errors {
    /// The place's median and 95th percentile, and the facing's 95th percentile.
    fn percentiles(&self) -> (f64, f64, f64) {
        let (place, facing) = (sorted(&self.place), sorted(&self.facing));
        (at(&place, 0.5), at(&place, 0.95), at(&facing, 0.95))
    }
}

/// Tags of one share hidden: found by the detector alone, by the app, of all.
#[derive(Clone, Copy, Default)]
struct Found {
    detector: usize,
    app: usize,
    /// Of those the app found, how many it placed within their stated 95 % error bar of where
    /// they lie.
    within_bar: usize,
    all: usize,
}

/// What the run measured, over its tables.
#[derive(Default)]
struct Figures {
    flat_table: Errors,
    flat_stands: Errors,
    /// The flat stands at the end of the film with the hills unknown: what the stands on hills
    /// do to the calibration the app learns in play.
    flat_stands_filmed: Errors,
    given: Errors,
    learnt: Errors,
    /// Frames of stands on hills off by more than [`FLAG_BEYOND`] with the hills unknown, stand
    /// by stand; how many of those stood on ground learnt from them with the truth inside their
    /// stated 95 % error bar (the ground drawn dashed, its doubt in the bar); and how many of
    /// the rest no note named.
    far_off: usize,
    learnt_within_bar: usize,
    unflagged: usize,
    /// Frames of flat stands placed within [`FLAG_BEYOND`], how many of those a note said were
    /// above the ground (the flags' false alarms), and how many it said might be (a tag too
    /// hidden to tell).
    flat_placed: usize,
    flat_said_raised: usize,
    flat_said_unsure: usize,
    /// Per share hidden: tags found by the detector alone, by the app, and tags.
    found: [Found; HIDDEN.len()],
    /// Per share hidden: how far the app places each tag it found from where it lies, inches.
    tag_place: [Vec<f64>; HIDDEN.len()],
    /// Tags the app reports that the table does not hold there: an id not on it, or placed
    /// more than half a tag from its own.
    false_tags: usize,
    /// The pipeline's seconds a frame: flat film, built film.
    flat_seconds: Vec<f64>,
    built_seconds: Vec<f64>,
}

/// Measure `tables` built tables from `seed` and write their figures beside the flat ones.
pub(super) fn built_tables(
    tables: usize,
    seed: u64,
    settings: &DetectorSettings,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if tables == 0 {
        return Ok(());
    }
    let mut figures = Figures::default();
    let mut renderer = Renderer::new();
    let mut detector = TagDetector::new(settings.clone())?;
    let bar = crate::progress::progress(tables, "built table");
    for i in 0..tables {
        let table_seed = seed + 100 + i as u64;
        let tilt = 30.0 + 25.0 * i as f64 / (tables - 1).max(1) as f64;
        let camera = framing_camera_for(
            TABLE,
            LensClass::Ordinary.sample(HD, table_seed),
            Degrees(tilt),
        );
        let effects = Effects {
            seed: table_seed,
            ..Effects::WEBCAM
        };
        let flat = flat_table(table_seed)?;
        let image = renderer.render(&flat.world, &camera, &effects)?;
        let (state, seconds) = film(&flat, &image, FLAT_FRAMES);
        judge(&flat, &state, |_| true, &mut figures.flat_table);
        figures.flat_seconds.extend(seconds);

        let built = build_table(flat_table(table_seed)?, table_seed);
        let image = renderer.render(&built.staged.world, &camera, &effects)?;
        let on_hill = |tag: u32| built.raised.iter().any(|(id, _)| *id == tag);
        let given = still(&built.staged, &built.hills, &image);
        let detected = detector.detect(&image)?.sightings();
        count_found(
            (&built.staged.world, height_sd(&built.staged.roster)),
            &camera,
            &detected,
            &given,
            &mut figures,
        );
        judge(&built.staged, &given, on_hill, &mut figures.given);
        judge(
            &built.staged,
            &given,
            |t| !on_hill(t),
            &mut figures.flat_stands,
        );
        let mut processor = processor(&built.staged, &[], false);
        let mut last = processor.process(&frame(&image, 0), "built table");
        count_flags(&built, &last, &mut figures);
        for index in 1..=FILMED_SECONDS {
            // As on the flat table (`film`): a second of play lets the lens learning catch up.
            processor.finish_lens_fit(LENS_FIT_WAIT);
            let started = Instant::now();
            last = processor.process(&frame(&image, index), "built table");
            figures.built_seconds.push(started.elapsed().as_secs_f64());
            count_flags(&built, &last, &mut figures);
        }
        judge(&built.staged, &last, on_hill, &mut figures.learnt);
        judge(
            &built.staged,
            &last,
            |t| !on_hill(t),
            &mut figures.flat_stands_filmed,
        );
        tracing::info!(table = i, tilt, "built table measured");
        bar.inc(1);
    }
    bar.finish_and_clear();
    report(tables, &figures, out)
}

/// The flat table of `seed`: the accuracy bench's stands on a flocked mat.
fn flat_table(seed: u64) -> anyhow::Result<Staged> {
    Ok(busy(stage(seed, 1.0, &mut heights(seed))?))
}

/// The same table as people build it: every third stand raised 1–3" on a hill of its own (its
/// crest just round the stand, its foot 2" further), figures on every base.
fn build_table(mut staged: Staged, seed: u64) -> Built {
    let mut random = xorshift(seed ^ 0x5EED);
    let mut raised = Vec::new();
    let mut hills = Vec::new();
    // Stands only: an anchor card is never on a hill.
    let stands: Vec<(u32, TablePoint)> = staged
        .world
        .tags_on_blocks()
        .filter(|(block, _)| block.figures)
        .map(|(block, tag)| (tag.id, block.footprint.center()))
        .collect();
    for (k, (tag, center)) in stands.into_iter().enumerate().filter(|(k, _)| k % 3 == 0) {
        let rise = Inches(1.0 + 2.0 * (random() % 1000) as f64 / 1000.0);
        staged.world.raise(&[tag], rise);
        raised.push((tag, rise));
        hills.push(hill(k, center, rise));
    }
    staged
        .world
        .stand_miniatures(&MiniatureSettings::default(), seed);
    Built {
        staged,
        raised,
        hills,
    }
}

/// A hill under a stand at `center`: a square crest 1.5" each way of it, its foot 2" beyond.
fn hill(k: usize, center: TablePoint, rise: Inches) -> TerrainDoc {
    let square = |r: f64| {
        vec![
            TablePoint::new(center.x - r, center.y - r),
            TablePoint::new(center.x + r, center.y - r),
            TablePoint::new(center.x + r, center.y + r),
            TablePoint::new(center.x - r, center.y + r),
        ]
    };
    TerrainDoc {
        id: format!("hill-{k}"),
        kind: TerrainKind::Hill,
        polygon: Some(square(4.5)),
        line: None,
        height: Some(1),
        rise: Some(rise.0),
        crest: Some(square(2.5)),
    }
}

fn processor(staged: &Staged, terrain: &[TerrainDoc], still: bool) -> Processor {
    Processor::new(Inputs {
        anchors: Some(staged.anchors.clone()),
        roster: Some(staged.roster.clone()),
        terrain: terrain.to_vec(),
        still,
        ..Inputs::default()
    })
}

fn frame(image: &Mat, second: u64) -> Frame {
    Frame {
        image: image.clone(),
        index: second,
        time: Duration::from_secs(second),
    }
}

/// The app on the picture as a still, with `terrain`.
fn still(staged: &Staged, terrain: &[TerrainDoc], image: &Mat) -> TableState {
    processor(staged, terrain, true).process(&frame(image, 0), "built table")
}

/// The app filming the picture (no terrain) for `frames` frames a second apart: the last
/// state, and the time of each frame after the first. The lens learning is let catch up
/// between frames, as a second of play lets it: how far it got must not hang on how fast
/// this machine processed the frames.
fn film(staged: &Staged, image: &Mat, frames: u64) -> (TableState, Vec<f64>) {
    let mut processor = processor(staged, &[], false);
    let mut state = processor.process(&frame(image, 0), "flat table");
    let mut seconds = Vec::new();
    for index in 1..frames {
        processor.finish_lens_fit(LENS_FIT_WAIT);
        let started = Instant::now();
        state = processor.process(&frame(image, index), "flat table");
        seconds.push(started.elapsed().as_secs_f64());
    }
    (state, seconds)
}

/// Judge the stands whose tag `counted` takes: where the app's scene puts each, against its
/// block.
fn judge(staged: &Staged, state: &TableState, counted: impl Fn(u32) -> bool, errors: &mut Errors) {
    let Some(scene) = &state.scene else {
        return;
    };
    for (block, tag) in staged.world.tags_on_blocks().filter(|(_, t)| counted(t.id)) {
        if !located(state, tag.id) {
            continue;
        }
        let Some((place, facing)) = placed(scene, &staged.roster, tag.id) else {
            continue;
        };
        errors.place.push((place - block.footprint.center()).norm());
        errors
            .facing
            .push(block.footprint.facing().turn_to(facing).0.abs());
    }
}

/// Whether the app placed tag `tag` from this frame's picture. A stand it did not (its tag
/// covered in the film) is held where it was last seen, or where the scenario puts it, and
/// said so ("held"): its place is not the camera's.
fn located(state: &TableState, tag: u32) -> bool {
    state
        .tags
        .iter()
        .any(|tags| tags.tags.iter().any(|t| t.pose.id == tag))
}

/// Where the app's scene puts the stand with tag `tag`: its unit's centre and facing.
fn placed(scene: &Scene, roster: &Roster, tag: u32) -> Option<(TablePoint, Degrees)> {
    let unit = roster
        .units
        .iter()
        .find(|u| u.stands.iter().any(|s| s.tag == tag))?;
    let footprint = &scene.unit(&unit.id)?.footprint;
    Some((footprint.frame().center(), footprint.facing()))
}

/// In this frame, with the hills unknown: the stands on hills placed more than
/// [`FLAG_BEYOND`] off, and those no note names; the flat stands placed well, and those a note
/// says are above the ground.
fn count_flags(built: &Built, state: &TableState, figures: &mut Figures) {
    let Some(scene) = &state.scene else {
        return;
    };
    for (block, tag) in built.staged.world.tags_on_blocks() {
        if !located(state, tag.id) {
            continue;
        }
        let Some((place, _)) = placed(scene, &built.staged.roster, tag.id) else {
            continue;
        };
        let named = format!("(tag {})", tag.id);
        let well = (place - block.footprint.center()).norm() <= FLAG_BEYOND;
        if !built.raised.iter().any(|(id, _)| *id == tag.id) {
            if well {
                figures.flat_placed += 1;
                let said = |what: &str| {
                    let said = |n: &String| n.contains(&named) && n.contains(what);
                    state.status.notes.iter().any(said) as usize
                };
                figures.flat_said_raised += said("seems");
                figures.flat_said_unsure += said("may stand");
            }
            continue;
        }
        if well {
            continue;
        }
        figures.far_off += 1;
        if learnt_within_bar(state, block, tag, height_sd(&built.staged.roster)) {
            figures.learnt_within_bar += 1;
        } else if !state.status.notes.iter().any(|n| n.contains(&named)) {
            figures.unflagged += 1;
        }
    }
}

/// Whether the ground under `tag` was learnt from it, and where the app places the tag is
/// within its stated 95 % error bar of where it lies.
fn learnt_within_bar(
    state: &TableState,
    block: &Block,
    tag: &PrintedTag,
    height_sd: Inches,
) -> bool {
    let learnt = state.learnt_ground.iter().any(|rise| rise.tag == tag.id);
    let pose = state
        .tags
        .iter()
        .flat_map(|tags| &tags.tags)
        .find(|t| t.pose.id == tag.id);
    learnt && pose.is_some_and(|t| within_bar(&t.pose, lies_at(block, tag), height_sd))
}

/// How far the roster says its tags' heights may be off.
fn height_sd(roster: &Roster) -> Inches {
    Inches(roster.tags.height_sd)
}

/// Whether a tag placed at `pose` lies within its stated 95 % error bar of `lies`, its height
/// as doubtful as the roster says (`height_sd`), as the app draws it.
fn within_bar(pose: &TagPose, lies: TablePoint, height_sd: Inches) -> bool {
    /// Chi-square's 95th percentile with two degrees of freedom.
    const WITHIN_95: f64 = 5.991;
    let off = pose.center - lies;
    let spread = pose
        .uncertainty
        .with_height(height_sd)
        .fixed_view::<2, 2>(0, 0)
        .into_owned();
    spread
        .try_inverse()
        .is_some_and(|inverse| (off.transpose() * inverse * off)[(0, 0)] <= WITHIN_95)
}

/// The tags found on the picture with figures, by how much of each the figures hide: by the
/// detector alone (`detected`), and by the app (`state`, the still picture with the hills
/// given), with how far the app places each from where it lies.
fn count_found(
    (world, height_sd): (&SyntheticTable, Inches),
    camera: &Camera,
    detected: &[TagSighting],
    state: &TableState,
    figures: &mut Figures,
) {
    let placed: Vec<&TagPose> = state
        .tags
        .iter()
        .flat_map(|tags| tags.tags.iter().map(|t| &t.pose))
        .collect();
    for (block, tag) in world.tags_on_blocks().filter(|(block, _)| block.figures) {
        if block.tag_as_seen(tag, camera).is_none() {
            continue;
        }
        let Some(hidden) = world.hidden_share(tag.id, camera) else {
            continue;
        };
        let bucket = HIDDEN
            .iter()
            .position(|(_, low, high)| (*low..=*high).contains(&hidden))
            .unwrap_or(HIDDEN.len() - 1);
        let found = &mut figures.found[bucket];
        found.all += 1;
        found.detector += usize::from(detected.iter().any(|s| s.id == tag.id));
        if let Some(pose) = placed.iter().find(|p| p.id == tag.id) {
            found.app += 1;
            found.within_bar += usize::from(within_bar(pose, lies_at(block, tag), height_sd));
            let off = (pose.center - lies_at(block, tag)).norm();
            figures.tag_place[bucket].push(off);
        }
    }
    figures.false_tags += placed
        .iter()
        .filter(|pose| {
            let truth = world.tags_on_blocks().find(|(_, tag)| tag.id == pose.id);
            let lies = truth.map(|(block, tag)| (lies_at(block, tag), tag.placement.size.0));
            let false_tag = lies.is_none_or(|(at, size)| (pose.center - at).norm() > size / 2.0);
            if false_tag {
                let lies = lies.map(|(at, _)| at);
                tracing::warn!(tag = pose.id, placed = ?pose.center, ?lies, "a false tag");
            }
            false_tag
        })
        .count();
}

/// Where a tag's centre lies on the plan.
fn lies_at(block: &Block, tag: &PrintedTag) -> TablePoint {
    let corners = block.tag_corners(tag);
    TablePoint::new(
        corners.iter().map(|c| c.x).sum::<f64>() / 4.0,
        corners.iter().map(|c| c.y).sum::<f64>() / 4.0,
    )
}

fn report(tables: usize, figures: &Figures, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "\ntables as people build them: {tables} table(s), each seen by an ordinary webcam at the \
         table's side 30–55° from vertical at 1080p; built: a third of the stands on hills 1–3\" \
         high, 2–6 figures a base; measured through the app's pipeline"
    )?;
    writeln!(
        out,
        "  {:<44} {:>6} {:>10} {:>10} {:>11}   goal",
        "", "stands", "place p50", "place p95", "facing p95"
    )?;
    let row = |out: &mut dyn Write, name: &str, errors: &Errors, goal: &str| {
        let (median, place, facing) = errors.percentiles();
        writeln!(
            out,
            "  {name:<44} {:>6} {:>9.3}\" {:>9.3}\" {:>10.2}°   {goal}",
            errors.place.len(),
            median,
            place,
            facing
        )
    };
    row(
        out,
        "flat table (before hills and figures)",
        &figures.flat_table,
        "",
    )?;
    row(out, "built: flat stands", &figures.flat_stands, "≤ 0.03\"")?;
    row(
        out,
        "built: stands on hills, hills given",
        &figures.given,
        "≤ 0.05\", ≤ 2°",
    )?;
    row(
        out,
        &format!("built: flat stands, filmed {FILMED_SECONDS} s"),
        &figures.flat_stands_filmed,
        "≤ 0.03\"",
    )?;
    row(
        out,
        &format!("built: stands on hills, learnt in {FILMED_SECONDS} s"),
        &figures.learnt,
        "≤ 0.15\"",
    )?;
    writeln!(
        out,
        "  hills unknown, filmed {FILMED_SECONDS} s: a stand on a hill placed over {FLAG_BEYOND}\" \
         off in {} frame(s): on ground learnt from it, within its stated 95 % error bar, in {}; \
         no note naming it in {} (goal: none)",
        figures.far_off, figures.learnt_within_bar, figures.unflagged
    )?;
    writeln!(
        out,
        "  hills unknown, filmed {FILMED_SECONDS} s: a flat stand placed well in {} frame(s), said \
         to be above the ground in {} of them, said it may be (its tag too hidden to tell) in {}",
        figures.flat_placed, figures.flat_said_raised, figures.flat_said_unsure
    )?;
    writeln!(
        out,
        "  tags found with figures on the bases (goals: 99 %, 95 %, 70 %; no false tags), and how \
         far the app places them:"
    )?;
    for (((name, _, _), found), place) in HIDDEN.iter().zip(&figures.found).zip(&figures.tag_place)
    {
        let share = |n: usize| 100.0 * n as f64 / found.all.max(1) as f64;
        let sorted = sorted(place);
        writeln!(
            out,
            "    {name:<18} by the app {:>3}/{:<3} ({:>3.0} %), the detector alone {:>3} ({:>3.0} %); \
             placed p50 {:.3}\" p95 {:.3}\", within its 95 % error bar {:>3.0} %",
            found.app,
            found.all,
            share(found.app),
            found.detector,
            share(found.detector),
            at(&sorted, 0.5),
            at(&sorted, 0.95),
            100.0 * found.within_bar as f64 / found.app.max(1) as f64,
        )?;
    }
    writeln!(out, "    false tags {}", figures.false_tags)?;
    let (flat, built) = (mean(&figures.flat_seconds), mean(&figures.built_seconds));
    writeln!(
        out,
        "  the app's pipeline a frame: flat {:.1} ms, built {:.1} ms ({:.2}× the flat table's)",
        flat * 1e3,
        built * 1e3,
        built / flat.max(1e-9)
    )?;
    Ok(())
}
