//! A game recorded and read back: every moment as it was, its rulings as fresh rulings of it,
//! its notation read back, and damaged files read as far as they are sound, never a crash.

use std::path::PathBuf;
use std::sync::Arc;

use record::{
    Carriage, GameInfo, GameRecord, GameTime, Mark, MarkKind, Moment, Place, RecordedMove,
    Recorder, rulings_as_read,
};
use rules::Scene;
use rules::rulings::rulings;
use rules::scene::{SceneDoc, UnitDoc};
use rules::units::Degrees;

fn scratch(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("vedette-record-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a scratch folder");
    let path = folder.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn info() -> GameInfo {
    GameInfo {
        table: "a synthetic battle".into(),
        source: "tests".into(),
        started_unix_ms: 1_795_240_810_000,
        recorded_by: "tests".into(),
    }
}

/// Move a unit `by` inches along +x.
fn shifted(unit: &mut UnitDoc, by: f64) {
    if let Some(stands) = &mut unit.stands {
        for stand in stands {
            stand.center.x += by;
        }
    }
    if let Some(front) = &mut unit.front_center {
        front.x += by;
    }
}

fn place_of(scene: &Scene, id: &str) -> Place {
    let unit = scene.unit(id).expect("the unit");
    Place {
        leader: unit.footprint.leader(),
        facing: Degrees(unit.footprint.facing().0),
    }
}

/// A game of `moves` moves, one every 10 s, a turn mark every 4: the tables it went through.
fn play(path: &std::path::Path, moves: usize) -> Vec<(GameTime, SceneDoc)> {
    play_on(path, moves).0
}

/// [`play`], the recorder still writing: its game not yet closed.
fn play_on(path: &std::path::Path, moves: usize) -> (Vec<(GameTime, SceneDoc)>, Recorder) {
    let recorder = Recorder::create(path, &info()).expect("a new record");
    let mut doc = SceneDoc::from(&rules::synthetic::battle(16, 3, 7));
    let mut tables = Vec::new();
    for step in 0..=moves {
        let at = GameTime::from_millis(10_000 * step as u64);
        let before = Scene::from_doc(doc.clone(), "before").expect("a valid scene");
        let mut made = Vec::new();
        if step > 0 {
            let index = step % doc.units.len();
            shifted(&mut doc.units[index], 1.5);
        }
        let scene = Arc::new(Scene::from_doc(doc.clone(), "game").expect("a valid scene"));
        if step > 0 {
            let id = doc.units[step % doc.units.len()].id.clone();
            made.push(RecordedMove {
                unit: id.clone(),
                name: scene.unit(&id).map(|u| u.name.clone()).unwrap_or_default(),
                from: place_of(&before, &id),
                to: place_of(&scene, &id),
                path: 1.5,
                started: GameTime::from_millis(at.millis() - 2_000),
                ended: at,
                carriage: Carriage::Carried,
                check: Some("within its move".into()),
                verdict: Some(rules::ruling::Verdict::Yes),
            });
        }
        if step % 4 == 0 {
            recorder.mark(Mark {
                at,
                kind: MarkKind::Turn,
                label: format!("Turn {}", step / 4 + 1),
                units: Vec::new(),
                case: None,
            });
        }
        let picture = recorder.wants_picture(at).then(|| {
            Box::new(|| {
                Some(image::RgbImage::from_pixel(
                    64,
                    48,
                    image::Rgb([90, 120, 60]),
                ))
            }) as record::Picture
        });
        tables.push((at, SceneDoc::from(&*scene)));
        recorder.observe(Moment {
            at,
            rulings: Some(Arc::new(rulings(&scene))),
            scene: Some(scene),
            calibration: None,
            moves: made,
            picture,
        });
    }
    recorder.flush();
    (tables, recorder)
}

/// A game closed is one file: copied alone, it holds every move. A game whose writer is still
/// at it (or was killed) has the rest in its log: its file copied alone says so.
#[test]
fn a_closed_game_is_one_file_and_a_copy_without_its_log_says_what_is_missing() {
    let path = scratch("one-file.sqlite");
    play(&path, 12);
    let log = record::log_of(&path);
    assert!(
        std::fs::metadata(&log).map_or(true, |m| m.len() == 0),
        "the closed game's log is folded into the file"
    );
    let copy = scratch("one-file-copy.sqlite");
    std::fs::copy(&path, &copy).expect("copied");
    let alone = GameRecord::open(&copy).expect("the copy opens");
    assert!(alone.damage().is_empty(), "{:?}", alone.damage());
    assert_eq!(alone.moves().len(), 12);

    let path = scratch("still-writing.sqlite");
    let (_, recorder) = play_on(&path, 12);
    let copy = scratch("still-writing-copy.sqlite");
    std::fs::copy(&path, &copy).expect("copied");
    let alone = GameRecord::open(&copy).expect("the copy opens");
    let said = alone.damage().join("\n");
    assert!(
        said.contains("still-writing-copy.sqlite-wal") && said.contains("is not beside it"),
        "{said}"
    );
    assert!(alone.moves().len() < 12, "{} moves", alone.moves().len());
    // With its log beside it, the same game reads whole.
    let both = GameRecord::open(&path).expect("opens");
    assert!(both.damage().is_empty(), "{:?}", both.damage());
    assert_eq!(both.moves().len(), 12);
    drop(recorder);
}

/// Where two tables' JSON first differ, for a failure's message.
fn difference(a: &SceneDoc, b: &SceneDoc) -> String {
    let text = |doc| serde_json::to_string(doc).expect("json");
    let (a, b) = (text(a), text(b));
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(0);
    let around = |s: &str| {
        s.get(at.saturating_sub(80)..(at + 40).min(s.len()))
            .unwrap_or("")
            .to_owned()
    };
    format!("…{}… is kept as …{}…", around(&b), around(&a))
}

#[test]
fn every_moment_reads_back_as_it_was_and_its_rulings_as_fresh_rulings() {
    let path = scratch("game.sqlite");
    let tables = play(&path, 12);
    let record = GameRecord::open(&path).expect("the record opens");
    assert!(record.damage().is_empty(), "{:?}", record.damage());
    assert_eq!(record.moves().len(), 12);
    assert_eq!(record.until(), tables.last().expect("tables").0);
    let turns = record
        .marks()
        .iter()
        .filter(|m| m.kind == MarkKind::Turn)
        .count();
    assert_eq!(turns, 4);
    for (at, doc) in &tables {
        // Half-way to the next move, the table is still as it was.
        for moment in [*at, GameTime::from_millis(at.millis() + 5_000)] {
            let kept = record
                .scene_doc_at(moment)
                .expect("readable")
                .expect("a table");
            assert!(
                &kept == doc,
                "the table at {moment}: {}",
                difference(&kept, doc)
            );
            let scene = record.scene_at(moment).expect("readable").expect("a table");
            let fresh = rulings_as_read(&rulings(&scene));
            assert_eq!(
                record.rulings_at(moment).expect("readable"),
                fresh,
                "rulings at {moment}"
            );
        }
    }
    let keyframe = record
        .keyframe_at(GameTime::from_millis(45_000))
        .expect("readable");
    let keyframe = keyframe.expect("a picture");
    assert!(keyframe.at <= GameTime::from_millis(45_000));
    assert!(image::load_from_memory(&keyframe.jpeg).is_ok());
}

#[test]
fn the_notation_reads_back_into_the_same_game() {
    let path = scratch("notation.sqlite");
    let tables = play(&path, 9);
    let record = GameRecord::open(&path).expect("the record opens");
    let text = record::notation::write(&record).expect("written");
    assert_eq!(
        text.lines().filter(|l| l.contains(" -> ")).count(),
        9,
        "{text}"
    );
    let read = record::notation::read(&PathBuf::from("game.txt"), &text).expect("read back");
    assert_eq!(read.moves().len(), 9);
    for (a, b) in read.moves().iter().zip(record.moves()) {
        assert_eq!(
            (&a.unit, a.ended, a.carriage, &a.check),
            (&b.unit, b.ended, b.carriage, &b.check)
        );
        assert!((a.to.leader - b.to.leader).norm() < 0.01);
    }
    let last = tables.last().expect("tables");
    let kept = read.scene_doc_at(last.0).expect("readable");
    assert!(
        kept.as_ref() == Some(&last.1),
        "the last table is not as it was"
    );
    let turns = |r: &GameRecord| {
        r.marks()
            .iter()
            .filter(|m| m.kind == MarkKind::Turn)
            .count()
    };
    assert_eq!(turns(&read), turns(&record));
    // And written again, it is the same text.
    assert_eq!(record::notation::write(&read).expect("written"), text);
}

#[test]
fn a_notation_with_a_bad_line_is_refused_by_its_line() {
    let path = scratch("bad-notation.sqlite");
    play(&path, 3);
    let text = record::notation::write(&GameRecord::open(&path).expect("opens")).expect("written");
    let broken = text.replacen(" -> ", " => ", 1);
    let line = broken
        .lines()
        .position(|l| l.contains(" => "))
        .expect("the line")
        + 1;
    let error = record::notation::read(&PathBuf::from("game.txt"), &broken)
        .err()
        .expect("refused");
    assert!(
        error.to_string().starts_with(&format!("game.txt:{line}: ")),
        "{error}"
    );
}

#[test]
fn what_is_not_a_record_is_refused_by_name() {
    let path = scratch("not-a-record.sqlite");
    std::fs::write(&path, "roster = true\n").expect("written");
    let error = GameRecord::open(&path).err().expect("refused");
    assert!(error.to_string().contains("not-a-record.sqlite"), "{error}");
    let missing = scratch("missing.sqlite");
    assert!(GameRecord::open(&missing).is_err());
}

/// Read everything a record offers; whatever it is, no panic.
fn read_everything(record: &GameRecord) -> usize {
    let mut read = 0;
    for step in 0..=10 {
        let at = GameTime::from_millis(step * 12_000);
        read += usize::from(matches!(record.scene_at(at), Ok(Some(_))));
        read += record.rulings_at(at).map_or(0, |r| r.len().min(1));
        read += usize::from(matches!(record.keyframe_at(at), Ok(Some(_))));
        let _ = record.calibration_at(at);
    }
    read + record.moves().len()
}

#[test]
fn a_truncated_or_overwritten_record_is_read_as_far_as_it_is_sound_never_a_crash() {
    let path = scratch("sound.sqlite");
    play(&path, 10);
    // A record as a copy of its file alone carries what was checkpointed; fold the WAL in.
    drop(GameRecord::open(&path).expect("opens"));
    let whole = std::fs::read(&path).expect("the file");
    let wal = std::fs::read(path.with_extension("sqlite-wal")).unwrap_or_default();
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |below: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % below.max(1) as u64) as usize
    };
    let (mut refused, mut partial) = (0, 0);
    for trial in 0..120 {
        let damaged = scratch(&format!("damaged-{trial}.sqlite"));
        let mut bytes = whole.clone();
        let mut wal_bytes = wal.clone();
        match trial % 3 {
            0 => bytes.truncate(next(bytes.len())),
            1 => {
                for _ in 0..1 + next(40) {
                    let at = next(bytes.len());
                    bytes[at] = next(256) as u8;
                }
            }
            _ => wal_bytes.truncate(next(wal_bytes.len())),
        }
        std::fs::write(&damaged, &bytes).expect("written");
        if !wal_bytes.is_empty() {
            std::fs::write(damaged.with_extension("sqlite-wal"), &wal_bytes).expect("written");
        }
        match GameRecord::open(&damaged) {
            Ok(record) => {
                partial += usize::from(!record.damage().is_empty());
                read_everything(&record);
            }
            Err(error) => {
                refused += 1;
                assert!(
                    error
                        .to_string()
                        .contains(&format!("damaged-{trial}.sqlite")),
                    "{error}"
                );
            }
        }
    }
    assert!(refused > 0, "some damage is refused outright");
    eprintln!("{refused} refused, {partial} read in part");
}

#[test]
fn the_figures_a_unit_has_left_are_kept() {
    // eRules' tallies and BBB's stands (a scene's `figures`) are part of the table.
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/scenes");
    for file in ["erules-figures-lost.json", "bbb-figures.json"] {
        let scene = Scene::load(&samples.join(file)).unwrap_or_else(|e| panic!("{e}"));
        assert!(scene.units.iter().any(|u| u.figures.is_some()), "{file}");
        let path = scratch(&format!("{file}.sqlite"));
        let recorder = Recorder::create(&path, &info()).expect("a new record");
        let at = GameTime::from_millis(0);
        recorder.observe(Moment {
            at,
            rulings: Some(Arc::new(rulings(&scene))),
            scene: Some(Arc::new(scene.clone())),
            calibration: None,
            moves: Vec::new(),
            picture: None,
        });
        recorder.flush();
        let record = GameRecord::open(&path).expect("the record opens");
        let kept = record.scene_at(at).expect("readable").expect("a table");
        assert_eq!(kept, scene, "{file}");
    }
}
