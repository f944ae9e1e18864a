//! `vedette bench record`: a whole evening's game recorded as the app records it, then opened
//! and scrubbed as an umpire would.
//!
//! The game is the synthetic evening of `bench play` (hands carrying and sliding units, far
//! busier than a real game: every unit moves every few minutes), played for hours at 30
//! frames a second. Every frame is handed to the record as the ruling thread hands it, and
//! that hand-over is what is timed; the camera's pictures the record asks for are rendered
//! through the evening's webcam (MJPEG, glare, exposure swings, hands) untimed, as the camera
//! makes them. Rulings are made afresh whenever a unit comes to rest, untimed, as the app's
//! ruling thread makes them.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use calibration::TableCalibration;
use std::collections::VecDeque;

use record::{GameRecord, GameTime, Mark, MarkKind, Recorder};
use rules::Scene;
use rules::geometry::OrientedRect;
use rules::rulings::rulings;
use rules::scene::{SceneDoc, StandDoc, TableDoc, UnitDoc};
use rules::units::{Degrees, Inches};
use vision::synthetic::{Evening, EveningSettings, LensClass, Renderer, framing_camera_for};
use vision::{MoveEvent, Placed};

use super::figures::{ms, percentile, sorted_times};
use super::world::{HD, calibrate_from_picture};
use crate::progress::progress;
use live::pipeline::{Keeper, MOVES_KEPT, MoveRecord, TableState};

/// What `vedette bench record` plays.
#[derive(Debug, clap::Args)]
pub struct RecordBench {
    /// Hours of play.
    #[arg(long, default_value_t = 4.0)]
    pub hours: f64,
    /// Units on the table.
    #[arg(long, default_value_t = 60)]
    pub units: usize,
    /// The evening's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Minutes between turn marks.
    #[arg(long, default_value_t = 20.0)]
    pub turn_minutes: f64,
    /// Umpire's cases an hour.
    #[arg(long, default_value_t = 2)]
    pub cases_per_hour: u32,
    /// Moments the opened record is scrubbed to.
    #[arg(long, default_value_t = 200)]
    pub scrubs: usize,
    /// Keep the record here instead of a file in the temporary folder that is removed after.
    #[arg(long, value_name = "FILE")]
    pub keep: Option<PathBuf>,
}

const FPS: f64 = 30.0;
/// Record the game, open it, scrub it, print the figures.
pub fn run(bench: &RecordBench, out: &mut dyn Write) -> anyhow::Result<()> {
    let seconds = (bench.hours * 3600.0).max(60.0);
    let evening = Evening::new(EveningSettings {
        units: bench.units.max(2),
        seconds,
        seed: bench.seed,
        supersample: 1,
        ..EveningSettings::default()
    });
    let camera = framing_camera_for(
        evening.settings().table,
        LensClass::Ordinary.sample(HD, bench.seed),
        Degrees(40.0),
    );
    let path = bench.keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!(
            "vedette-bench-record-{}.sqlite",
            std::process::id()
        ))
    });
    let _ = std::fs::remove_file(&path);
    writeln!(
        out,
        "A {:.1}-hour game, {} units, {} moves by hand, {:.0} frames a second; turn marks every {} min, {} cases an hour; pictures every 30 s and at each mark; 1920×1080 webcam (MJPEG, glare, hands)",
        seconds / 3600.0,
        evening.roster().units.len(),
        evening.moves().len(),
        FPS,
        bench.turn_minutes,
        bench.cases_per_hour
    )?;
    let mut game = Game::new(&evening, &camera)?;
    let recorder = Recorder::create(&path, &game.info())?;
    let played = game.play(&recorder, bench, seconds)?;
    let caught_up = Instant::now();
    drop(recorder);
    let writer_tail = caught_up.elapsed();
    report_recording(&played, writer_tail, &path, seconds, out)?;
    report_replay(&path, bench.scrubs, bench.seed, out)?;
    if bench.keep.is_none() {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
    Ok(())
}

/// Where a unit came to rest: when, and its stands there.
type Rest = (Duration, Vec<OrientedRect>);

/// The game being played: the evening, its camera, and the table as the rules see it.
struct Game<'a> {
    evening: &'a Evening,
    camera: &'a calibration::Camera,
    renderer: Renderer,
    calibration: TableCalibration,
    /// Each unit's rests, in time order, and how many of them have begun.
    rests: HashMap<String, (Vec<Rest>, usize)>,
    /// The moves, in the order they end.
    moves: Vec<&'a vision::synthetic::TrueMove>,
}

/// What playing the game measured.
struct Played {
    /// How long feeding the whole game took (rendering and ruling included).
    fed: Duration,
    frames: u64,
    handover: Vec<Duration>,
    pictures: usize,
    moves: usize,
    rulings_made: usize,
}

impl<'a> Game<'a> {
    fn new(evening: &'a Evening, camera: &'a calibration::Camera) -> anyhow::Result<Game<'a>> {
        let mut renderer = Renderer::new();
        let first = renderer.render(&evening.table_at(0), camera, &evening.effects_at(0))?;
        let mut detector = vision::TagDetector::new(vision::DetectorSettings::default())?;
        let sightings = detector.detect(&first)?.sightings();
        // Untimed: the app calibrates once, when it starts.
        let calibration = calibrate_from_picture(
            &first,
            &sightings,
            evening.anchors(),
            &evening.roster().stand_tags(),
            HD,
        )
        .context("the evening's first picture does not calibrate")?;
        let rests = evening
            .roster()
            .units
            .iter()
            .map(|u| (u.id.clone(), (evening.rests_of(&u.id), 0)))
            .collect();
        let mut moves: Vec<_> = evening.moves().iter().collect();
        moves.sort_by_key(|m| m.put_down);
        Ok(Game {
            evening,
            camera,
            renderer,
            calibration,
            rests,
            moves,
        })
    }

    fn info(&self) -> record::GameInfo {
        record::GameInfo {
            table: "bench record: the synthetic evening".into(),
            source: "synthetic 1920×1080 webcam".into(),
            started_unix_ms: jiff::Timestamp::now().as_millisecond(),
            recorded_by: format!("vedette {}", env!("CARGO_PKG_VERSION")),
        }
    }

    /// Play every frame, handing each to the record as the ruling thread does.
    fn play(
        &mut self,
        recorder: &Recorder,
        bench: &RecordBench,
        seconds: f64,
    ) -> anyhow::Result<Played> {
        let frames = (seconds * FPS) as u64;
        let mut played = Played {
            fed: Duration::ZERO,
            frames,
            handover: Vec::with_capacity(frames as usize),
            pictures: 0,
            moves: 0,
            rulings_made: 0,
        };
        let turn_every = Duration::from_secs_f64(bench.turn_minutes.max(1.0) * 60.0);
        let case_every = Duration::from_secs_f64(3600.0 / f64::from(bench.cases_per_hour.max(1)));
        let (mut next_turn, mut next_case, mut turn) = (Duration::ZERO, case_every / 2, 0);
        let mut ended = 0;
        let mut table = self.table(Duration::ZERO)?;
        let (mut keeper, mut kept, mut picture) = (Keeper::default(), VecDeque::new(), None);
        let fed = Instant::now();
        let calibration = self.calibration.clone();
        let bar = progress(frames as usize, "frame");
        for frame in 0..frames {
            let time = Duration::from_secs_f64(frame as f64 / FPS);
            let at = GameTime::after(time);
            let mut moves = Vec::new();
            while let Some(made) = self.moves.get(ended).filter(|m| m.put_down <= time) {
                moves.push(move_record(made));
                ended += 1;
            }
            if !moves.is_empty() {
                // Untimed: the ruling thread makes the rulings when a unit comes to rest.
                table = self.table(time)?;
                played.rulings_made += 1;
                played.moves += moves.len();
            }
            if time >= next_turn {
                turn += 1;
                recorder.mark(mark(at, MarkKind::Turn, format!("Turn {turn}"), None));
                next_turn += turn_every;
            }
            if time >= next_case {
                recorder.mark(self.case(at, frame));
                next_case += case_every;
            }
            // What the camera gives: untimed, as the camera makes it; a new picture only
            // when the record will keep one (the others would not be looked at).
            if recorder.picture_due(at) {
                picture = Some(Arc::new(self.picture(frame)?));
                played.pictures += 1;
            }
            for made in moves {
                kept.push_back(Arc::new(made));
                while kept.len() > MOVES_KEPT {
                    kept.pop_front();
                }
            }
            // The state the pipeline hands the ruling thread, made untimed as it makes it.
            let mut state = TableState::message("synthetic webcam", None);
            state.scene = Some(table.0.clone());
            state.rulings = Some(table.1.clone());
            state.calibration = Some(calibration.clone());
            state.frame = picture.clone();
            state.moves = kept.iter().cloned().collect();
            state.recorder = Some(recorder.clone());
            // Timed: what the ruling thread does to record it.
            let started = Instant::now();
            keeper.keep_at(&state, Some(&table.0), at);
            played.handover.push(started.elapsed());
            bar.inc(1);
        }
        bar.finish_and_clear();
        played.fed = fed.elapsed();
        Ok(played)
    }

    /// The table at `time`, ruled: every unit where it last came to rest.
    fn table(
        &mut self,
        time: Duration,
    ) -> anyhow::Result<(Arc<Scene>, Arc<rules::rulings::Rulings>)> {
        let units = self
            .evening
            .roster()
            .units
            .iter()
            .filter_map(|unit| {
                let (rests, begun) = self.rests.get_mut(&unit.id)?;
                while rests.get(*begun + 1).is_some_and(|(t, _)| *t <= time) {
                    *begun += 1;
                }
                Some(unit_doc(unit, &rests.get(*begun)?.1))
            })
            .collect();
        let size = self.evening.settings().table;
        let table = TableDoc {
            width: size.width,
            depth: size.depth,
        };
        let doc = SceneDoc::units_on(self.evening.roster().ruleset, table, units);
        let scene = Scene::from_doc(doc, "the evening")?;
        let ruled = rulings(&scene);
        Ok((Arc::new(scene), Arc::new(ruled)))
    }

    /// The webcam's picture of frame `frame`, as the pipeline hands it on.
    fn picture(&mut self, frame: u64) -> anyhow::Result<live::Picture> {
        let image = self.renderer.render(
            &self.evening.table_at(frame),
            self.camera,
            &self.evening.effects_at(frame),
        )?;
        let size = vision::image_size(&image);
        let rgba = vision::to_rgba(&image)?;
        let pixels = [size.width as usize, size.height as usize];
        live::Picture::from_rgba(pixels, rgba).context("a picture of four bytes a pixel")
    }

    /// A case between two units picked by the frame.
    fn case(&self, at: GameTime, frame: u64) -> Mark {
        let units = &self.evening.roster().units;
        let pick = |k: u64| {
            units[(frame.wrapping_mul(2_654_435_761).wrapping_add(k) % units.len() as u64) as usize]
                .id
                .clone()
        };
        let pair = [pick(0), pick(7)];
        let case = record::Case {
            units: pair.clone(),
            note: "was the charge in the flank when it was declared?".into(),
            rulings: vec!["(the rulings between them, in words)".into()],
        };
        mark(
            at,
            MarkKind::Case,
            format!("Case: {} and {}", pair[0], pair[1]),
            Some(case),
        )
    }
}

fn mark(at: GameTime, kind: MarkKind, label: String, case: Option<record::Case>) -> Mark {
    Mark {
        at,
        kind,
        label,
        units: case.as_ref().map(|c| c.units.to_vec()).unwrap_or_default(),
        case,
    }
}

/// A unit of the roster with its stands where they rest.
fn unit_doc(unit: &roster::RosterUnit, stands: &[OrientedRect]) -> UnitDoc {
    let stands = stands.iter().map(|s| StandDoc {
        center: s.center(),
        facing: s.facing().0,
        width: s.width().0,
        depth: s.depth().0,
        sd: None,
    });
    unit.on_table(stands.collect())
}

/// A true move as the pipeline reports it.
fn move_record(made: &vision::synthetic::TrueMove) -> MoveRecord {
    let place = |p: &vision::synthetic::Pose| Placed {
        leader: p.leader(),
        facing: p.facing,
    };
    MoveRecord {
        event: MoveEvent {
            unit: made.unit.clone(),
            from: place(&made.from),
            to: place(&made.to),
            path: Inches((made.to.leader() - made.from.leader()).norm()),
            started: made.touched,
            ended: made.put_down,
            lifted: made.lifted,
            unseen: made.hidden,
        },
        name: made.unit.clone(),
        check: None,
    }
}

fn report_recording(
    played: &Played,
    writer_tail: Duration,
    path: &std::path::Path,
    seconds: f64,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let sorted = sorted_times(&played.handover);
    writeln!(
        out,
        "\nRecording ({} frames, {} moves, {} tables ruled, {} pictures)",
        played.frames, played.moves, played.rulings_made, played.pictures
    )?;
    writeln!(
        out,
        "  on the ruling thread, a frame's hand-over: median {:.4} ms, p99 {:.4} ms, max {:.3} ms (goal: p99 ≤ 1 ms; a frame's pipeline work in `bench app` is about 15 ms)",
        ms(percentile(&sorted, 0.5)),
        ms(percentile(&sorted, 0.99)),
        ms(percentile(&sorted, 1.0)),
    )?;
    writeln!(
        out,
        "  the game was fed in {:.0} s, {:.0}× faster than it was played; the writer caught up {:.2} s after the last frame",
        played.fed.as_secs_f64(),
        seconds / played.fed.as_secs_f64().max(1e-9),
        writer_tail.as_secs_f64(),
    )?;
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let hours = seconds / 3600.0;
    writeln!(
        out,
        "  the record: {:.1} MB, {:.1} MB an hour (goal ≤ 100 MB an hour)",
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / hours
    )?;
    let parts = GameRecord::open(path)?.bytes_by_part();
    let parts: Vec<String> = parts
        .iter()
        .map(|(part, b)| format!("{part} {:.1} MB", *b as f64 / 1e6))
        .collect();
    writeln!(out, "  of which {}", parts.join(", "))?;
    Ok(())
}

fn report_replay(
    path: &std::path::Path,
    scrubs: usize,
    seed: u64,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let record = GameRecord::open(path)?;
    let opened = started.elapsed();
    let until = record.until().millis().max(1);
    let mut noise = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut times = Vec::with_capacity(scrubs);
    let mut equal = (0, 0);
    for k in 0..scrubs {
        noise ^= noise << 13;
        noise ^= noise >> 7;
        noise ^= noise << 17;
        let at = GameTime::from_millis(noise % until);
        let started = Instant::now();
        let state = live::replay::state_at(&record, at)?;
        times.push(started.elapsed());
        // A few moments: the rulings recorded then are the fresh rulings of the table then.
        if k % 10 == 0
            && let Some(scene) = &state.scene
        {
            let fresh = record::rulings_as_read(&rulings(scene));
            equal.1 += 1;
            equal.0 += usize::from(record.rulings_at(at)? == fresh);
        }
    }
    let sorted = sorted_times(&times);
    writeln!(
        out,
        "\nReplay ({scrubs} moments drawn at random: the table, fresh rulings, the nearest picture decoded)"
    )?;
    writeln!(
        out,
        "  opening the record: {:.1} ms ({} moves, {} bookmarks, {} pictures read)",
        ms(opened),
        record.moves().len(),
        record.marks().len(),
        record.keyframes().len()
    )?;
    writeln!(
        out,
        "  a moment: median {:.1} ms, p95 {:.1} ms, max {:.1} ms; opening and the first moment {:.1} ms (goal: p95 ≤ 100 ms)",
        ms(percentile(&sorted, 0.5)),
        ms(percentile(&sorted, 0.95)),
        ms(percentile(&sorted, 1.0)),
        ms(opened + times.first().copied().unwrap_or_default()),
    )?;
    writeln!(
        out,
        "  rulings recorded = fresh rulings of the recorded table: {}/{} moments",
        equal.0, equal.1
    )?;
    Ok(())
}
