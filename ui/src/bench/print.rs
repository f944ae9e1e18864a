//! `vedette bench print`: sheets of print (rules, army lists, reference cards) lying on a busy
//! 1080p table among the stands, read by the detector in one family. It counts the false tags
//! the print gives at the family's decision-margin floor, and sets the strongest false decode
//! against the weakest true tag: the evidence for the floor in `vision::detect`.

use std::io::Write;

use calibration::{PixelPoint, TagSighting};
use roster::TagFamily;
use rules::units::{Degrees, Inches};
use vision::synthetic::{
    Effects, GameSettings, MovingGame, Renderer, Scenery, Sheet, TEXT_SIZES, framing_camera,
};
use vision::{DetectorSettings, TagDetector};

use super::world::HD;
use crate::progress::progress;

/// What `vedette bench print` lays out.
#[derive(Clone, Copy, Debug)]
pub struct PrintBench {
    /// Pictures, each its own table.
    pub pictures: usize,
    /// The first picture's seed.
    pub seed: u64,
    /// The tags' family.
    pub family: TagFamily,
    /// Sheets of print on each table.
    pub sheets: usize,
}

/// Stands on each table, one 1" tag each (the anchors come on top).
const STANDS: usize = 12;
/// A decode within this of a true tag's corners, with its id, is that tag.
const MATCH_PIXELS: f64 = 3.0;

/// The true tags decoded, at any margin.
struct Genuine {
    decoded: usize,
    /// The weakest decision margin among them.
    weakest: f32,
    /// How many the floor drops.
    lost: usize,
}

/// A decode that is no tag of the table.
struct FalseTag {
    margin: f32,
    /// The print size of the sheet it lies on, if it lies on one.
    on: Option<Inches>,
}

/// Run the benchmark and print its figures.
pub fn run(bench: PrintBench, out: &mut dyn Write) -> anyhow::Result<()> {
    let settings = DetectorSettings {
        family: bench.family.name().into(),
        ..DetectorSettings::default()
    };
    let floor = settings.decision_margin();
    let mut detector = TagDetector::new(settings.clone())?;
    let mut renderer = Renderer::new();
    let (mut genuine, mut weakest, mut lost) = (0usize, f32::INFINITY, 0usize);
    let mut false_tags: Vec<FalseTag> = Vec::new();
    let bar = progress(bench.pictures, "picture");
    for k in 0..bench.pictures {
        let seed = bench.seed + k as u64;
        let game = MovingGame::new(GameSettings {
            stands: STANDS.min(MovingGame::most_stands(bench.family)),
            scenery: Scenery::Busy { seed },
            family: bench.family,
            hand_every: 0,
            seed,
            ..GameSettings::default()
        });
        let mut world = game.table_at(0);
        world.sheets = Sheet::scatter(world.table, bench.sheets, seed)?;
        let tilt = Degrees(30.0 + 10.0 * (k % 3) as f64);
        let camera = framing_camera(world.table, HD, tilt, Degrees(70.0));
        let effects = Effects {
            seed,
            ..Effects::WEBCAM
        };
        let image = renderer.render(&world, &camera, &effects)?;
        let truth: Vec<TagSighting> = world.tags().filter_map(|t| t.as_seen(&camera)).collect();
        for decode in detector.detect_unscreened(&image)? {
            let seen = decode.sighting;
            if truth
                .iter()
                .any(|t| t.id == seen.id && near(&t.corners, &seen.corners))
            {
                genuine += 1;
                weakest = weakest.min(decode.decision_margin);
                if decode.decision_margin < floor {
                    lost += 1;
                }
                continue;
            }
            let middle = PixelPoint::new(
                seen.corners.iter().map(|c| c.x).sum::<f64>() / 4.0,
                seen.corners.iter().map(|c| c.y).sum::<f64>() / 4.0,
            );
            let on = camera
                .unproject_at(&middle, Inches::ZERO)
                .and_then(|p| world.sheets.iter().find(|s| s.colour_at(&p).is_some()))
                .map(|s| s.text);
            false_tags.push(FalseTag {
                margin: decode.decision_margin,
                on,
            });
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let genuine = Genuine {
        decoded: genuine,
        weakest,
        lost,
    };
    report(&bench, floor, &settings, &genuine, &false_tags, out)
}

fn near(a: &[PixelPoint; 4], b: &[PixelPoint; 4]) -> bool {
    a.iter()
        .zip(b)
        .all(|(p, q)| p.distance(q).0 <= MATCH_PIXELS)
}

fn report(
    bench: &PrintBench,
    floor: f32,
    settings: &DetectorSettings,
    genuine: &Genuine,
    false_tags: &[FalseTag],
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "print: {} pictures {HD} of a busy 72\"×48\" table, {STANDS} stands with 1\" tags and 4 anchors in {}, {} sheets of print on each (capitals {}\"–{}\"), camera 30°–50° from vertical",
        bench.pictures,
        bench.family.name(),
        bench.sheets,
        TEXT_SIZES[0].0,
        TEXT_SIZES[TEXT_SIZES.len() - 1].0
    )?;
    writeln!(out, "detector: {settings}")?;
    writeln!(
        out,
        "true tags decoded: {}, the weakest with a decision margin of {:.0}; {} under the floor",
        genuine.decoded, genuine.weakest, genuine.lost
    )?;
    let strongest = false_tags
        .iter()
        .map(|f| f.margin)
        .fold(f32::NEG_INFINITY, f32::max);
    let by_size: Vec<String> = TEXT_SIZES
        .iter()
        .map(|size| {
            let n = false_tags.iter().filter(|f| f.on == Some(*size)).count();
            format!("{}\": {n}", size.0)
        })
        .chain(std::iter::once(format!(
            "off the print: {}",
            false_tags.iter().filter(|f| f.on.is_none()).count()
        )))
        .collect();
    if false_tags.is_empty() {
        writeln!(out, "false decodes, any margin: none")?;
    } else {
        writeln!(
            out,
            "false decodes, any margin: {} (the strongest {strongest:.0}) — by print size {}",
            false_tags.len(),
            by_size.join(", ")
        )?;
    }
    let kept = false_tags.iter().filter(|f| f.margin >= floor).count();
    writeln!(
        out,
        "false tags kept at the floor (margin ≥ {floor:.0}): {kept} in {} pictures ({:.2} a picture)",
        bench.pictures,
        kept as f64 / bench.pictures.max(1) as f64
    )?;
    Ok(())
}
