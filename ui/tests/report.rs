//! `vedette report`: a small recorded game (a move before the first turn, three turns, a case,
//! a charge, camera pictures) written as each kind of report and looked at — the notation read
//! back, the page in a real chromium driven through chromedriver, the PDF rendered by
//! pdftoppm, the pictures decoded. `make test` installs chromium, chromium-driver and
//! poppler-utils (`.ci/system-deps.sh --tests`); without them these tests fail, saying so.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::browser::{Browser, CHROMIUM, Setup};
use record::{
    Carriage, Case, GameInfo, GameRecord, GameTime, Mark, MarkKind, Moment, Place, RecordedMove,
    Recorder,
};
use rules::Scene;
use rules::ruling::Verdict;
use rules::rulings::rulings;
use rules::scene::{SceneDoc, UnitDoc};
use rules::units::Degrees;
use serde_json::Value;

const PATIENCE: Duration = Duration::from_secs(90);
const PDFTOPPM: &str = "/usr/bin/pdftoppm";

/// The game every test reports: how many sections its report has and how many moves.
const TURNS: usize = 4;
const MOVES: usize = 7;
/// The move (counted from 0) the game ruled against, and its words.
const RULED_AGAINST: usize = 3;
const TOO_FAR: &str = "4 moves of 12.00\", more than the 3 an order can give";

/// A program a test needs: missing, the test fails naming the package that brings it.
fn needed(program: &str, package: &str) {
    assert!(
        Path::new(program).exists(),
        "{program} is missing: `make test` installs {package} (.ci/system-deps.sh --tests)"
    );
}

fn info() -> GameInfo {
    GameInfo {
        table: "Skirmish at the ford".into(),
        source: "tests".into(),
        started_unix_ms: 1_795_240_810_000,
        recorded_by: "tests".into(),
    }
}

/// Move a unit `by` inches along y (towards the enemy for red, away for blue).
fn shifted(unit: &mut UnitDoc, by: f64) {
    if let Some(stands) = &mut unit.stands {
        for stand in stands {
            stand.center.y += by;
        }
    }
    if let Some(front) = &mut unit.front_center {
        front.y += by;
    }
}

fn place_of(scene: &Scene, id: &str) -> Place {
    let unit = scene.unit(id).expect("the unit");
    Place {
        leader: unit.footprint.leader(),
        facing: Degrees(unit.footprint.facing().0),
    }
}

/// A picture of the table as a camera would keep it: a gradient, so its JPEG is not trivial.
fn picture() -> record::Picture {
    Box::new(|| {
        Some(image::RgbImage::from_fn(320, 240, |x, y| {
            image::Rgb([(x / 2) as u8, (y / 2) as u8, 90])
        }))
    })
}

/// Write a game into `path`: one move before the first turn mark (at 0:05), then two moves in
/// each of three turns (marked at 0:05, 0:35 and 1:05); the last move ends in contact (a
/// charge); a case in the last turn. With `turns` false, no turn is marked and the moves are
/// spread over twenty minutes instead.
fn game(path: &Path, turns: bool) {
    let _ = std::fs::remove_file(path);
    let recorder = Recorder::create(path, &info()).expect("a new record");
    let mut doc = SceneDoc::from(&rules::synthetic::battle(16, 3, 11));
    let ends_s: [u64; MOVES] = if turns {
        [2, 15, 25, 45, 55, 75, 85]
    } else {
        [60, 180, 420, 660, 700, 900, 1100]
    };
    let first = Scene::from_doc(doc.clone(), "setup").expect("a valid scene");
    recorder.observe(Moment {
        at: GameTime::START,
        rulings: Some(Arc::new(rulings(&first))),
        scene: Some(Arc::new(first)),
        calibration: None,
        moves: Vec::new(),
        picture: recorder.wants_picture(GameTime::START).then(picture),
    });
    let marks = if turns {
        vec![(5, "Turn 1"), (35, "Turn 2"), (65, "Turn 3")]
    } else {
        Vec::new()
    };
    let mut marked = marks.iter().peekable();
    let mut last_unit = String::new();
    for (step, end_s) in ends_s.iter().enumerate() {
        let at = GameTime::from_millis(end_s * 1000);
        while let Some((mark_s, label)) = marked.next_if(|(s, _)| *s <= *end_s) {
            let mark_at = GameTime::from_millis(mark_s * 1000);
            recorder.mark(Mark {
                at: mark_at,
                kind: MarkKind::Turn,
                label: (*label).into(),
                units: Vec::new(),
                case: None,
            });
            recorder.observe(Moment {
                at: mark_at,
                picture: recorder.wants_picture(mark_at).then(picture),
                ..Moment::default()
            });
        }
        let before = Scene::from_doc(doc.clone(), "before").expect("a valid scene");
        // Red units (the first eight) step north, blue ones south: 2", never into contact.
        let index = (step * 5) % doc.units.len();
        let by = if doc.units[index].side == "red" {
            2.0
        } else {
            -2.0
        };
        shifted(&mut doc.units[index], by);
        let scene = Arc::new(Scene::from_doc(doc.clone(), "game").expect("a valid scene"));
        let id = doc.units[index].id.clone();
        // The fourth move was ruled against, as a game rules a unit moved too far.
        let (check, verdict) = if step == RULED_AGAINST {
            (TOO_FAR.to_owned(), Verdict::No)
        } else {
            ("within its allowance".to_owned(), Verdict::Yes)
        };
        let made = RecordedMove {
            unit: id.clone(),
            name: scene.unit(&id).map(|u| u.name.clone()).unwrap_or_default(),
            from: place_of(&before, &id),
            to: place_of(&scene, &id),
            path: 2.0,
            started: GameTime::from_millis(at.millis() - 1_500),
            ended: at,
            carriage: Carriage::Slid,
            check: Some(check),
            verdict: Some(verdict),
        };
        recorder.observe(Moment {
            at,
            rulings: Some(Arc::new(rulings(&scene))),
            scene: Some(scene),
            calibration: None,
            moves: vec![made],
            picture: recorder.wants_picture(at).then(picture),
        });
        last_unit = id;
    }
    // The last mover's nearest enemy (by their leaders).
    let last_scene = Scene::from_doc(doc.clone(), "end").expect("a valid scene");
    let mover = last_scene.unit(&last_unit).expect("the last mover");
    let enemy = last_scene
        .units
        .iter()
        .filter(|u| u.side != mover.side)
        .min_by(|a, b| {
            let away =
                |u: &rules::scene::Unit| (u.footprint.leader() - mover.footprint.leader()).norm();
            away(a).total_cmp(&away(b))
        })
        .expect("an enemy");
    let (mover_name, enemy_name) = (mover.name.clone(), enemy.name.clone());
    let enemy = enemy.id.clone();
    let last = GameTime::from_millis(ends_s[MOVES - 1] * 1000);
    recorder.mark(Mark {
        at: GameTime::from_millis(last.millis() - 5_000),
        kind: MarkKind::Case,
        label: "Case".into(),
        units: vec![last_unit.clone(), enemy.clone()],
        case: Some(Case {
            units: [last_unit.clone(), enemy.clone()],
            note: "was the charge in the flank?".into(),
            rulings: vec!["It strikes the front: the charger is in its front quarter.".into()],
        }),
    });
    recorder.mark(Mark {
        at: last,
        kind: MarkKind::Contact,
        label: format!("{mover_name} in contact with {enemy_name}"),
        units: vec![last_unit, enemy],
        case: None,
    });
    recorder.flush();
}

/// A recorded game of its own for each test (tests run side by side).
fn recorded(name: &str, turns: bool) -> (PathBuf, PathBuf) {
    let folder = common::scratch(&format!("report-{name}"));
    let path = folder.join("game.sqlite");
    game(&path, turns);
    (folder, path)
}

/// `vedette report GAME -o OUT`, which must succeed; what it printed.
fn report(game: &Path, output: &Path) -> String {
    let done = common::vedette(&[
        "report",
        &game.to_string_lossy(),
        "-o",
        &output.to_string_lossy(),
    ]);
    let printed = String::from_utf8_lossy(&done.stdout).into_owned();
    assert!(
        done.status.success(),
        "vedette report failed: {printed}{}",
        String::from_utf8_lossy(&done.stderr)
    );
    printed
}

fn occurrences(text: &str, what: &str) -> usize {
    text.matches(what).count()
}

#[test]
fn the_notation_report_reads_back_with_every_move() {
    let (folder, game) = recorded("txt", true);
    let out = folder.join("game.txt");
    let printed = report(&game, &out);
    assert!(
        printed.contains(&format!("{TURNS} turns, {MOVES} moves")),
        "{printed}"
    );
    let text = std::fs::read_to_string(&out).expect("the notation");
    let read = record::notation::read(&out, &text).expect("it reads back");
    assert_eq!(read.moves().len(), MOVES);
    let record = GameRecord::open(&game).expect("the record");
    assert_eq!(read.moves().len(), record.moves().len());
    let verdicts = |r: &GameRecord| r.moves().iter().map(|m| m.verdict).collect::<Vec<_>>();
    assert_eq!(verdicts(&read), verdicts(&record), "verdicts read back");
    assert_eq!(occurrences(&text, "verdict=no"), 1, "{text}");
}

/// An umpire replaying a dispute is told what the game ruled: the move ruled against is
/// marked ✖ in the app's Moves panel and on the page's view, never ✔.
#[test]
fn a_replayed_move_is_marked_as_the_game_ruled_it() {
    let (_, game) = recorded("replay-marks", true);
    let record = GameRecord::open(&game).expect("the record");
    let against = record.moves()[RULED_AGAINST].clone();
    let state = live::replay::state_at(&record, against.ended).expect("the moment");
    let replayed = state.moves.last().expect("the move replayed");
    assert_eq!(replayed.event.unit, against.unit);
    assert_eq!(replayed.verdict(), Some(Verdict::No));
    assert_eq!(
        replayed.checks(),
        vec![(Some(Verdict::No), TOO_FAR.to_owned())]
    );
    assert!(
        state
            .moves
            .iter()
            .rev()
            .skip(1)
            .all(|m| m.verdict() == Some(Verdict::Yes)),
        "the moves before it were within their allowance"
    );
    // In the app, as the umpire sees it.
    let replay = live::replay::Replay::new(record, false);
    let mut harness = egui_kittest::Harness::builder()
        .with_size(vedette_ui::app::headless::WINDOW)
        .with_max_steps(16)
        .wgpu()
        .build_eframe(move |cc| {
            let mut app = vedette_ui::app::VedetteApp::without_pipeline(
                &cc.egui_ctx,
                vedette_ui::app::Settings::default(),
            );
            app.state.look_back(replay, against.ended);
            app
        });
    harness.run_steps(4);
    use egui_kittest::kittest::Queryable;
    let marked = |mark: &str| {
        harness
            .query_all_by_label_contains(&format!("{mark} {} ", against.name))
            .count()
    };
    assert!(marked("✖") >= 1, "the move ruled against is marked ✖");
    assert_eq!(marked("✔"), 0, "no move of {} is marked ✔", against.name);
}

#[test]
fn a_report_of_an_unknown_kind_is_refused_naming_the_four() {
    let (folder, game) = recorded("unknown", true);
    let out = folder.join("game.docx");
    let done = common::vedette(&[
        "report",
        &game.to_string_lossy(),
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(!done.status.success());
    let said = String::from_utf8_lossy(&done.stderr);
    for kind in [".html", ".png", ".pdf", ".txt"] {
        assert!(said.contains(kind), "{said}");
    }
    assert!(!out.exists());
}

#[test]
fn a_game_without_turn_marks_is_cut_into_ten_minute_sections() {
    let (folder, game) = recorded("sections", false);
    let out = folder.join("game.html");
    let printed = report(&game, &out);
    assert!(printed.contains("2 ten-minute sections"), "{printed}");
    let page = std::fs::read_to_string(&out).expect("the page");
    assert!(page.contains("sections of 10 minutes"));
    assert_eq!(occurrences(&page, r#"<svg class="plan""#), 2);
    assert!(page.contains("0:00–0:10") && page.contains("0:10–0:20"));
    assert_eq!(occurrences(&page, r#"<g class="move"#), MOVES);
}

#[test]
fn each_turn_has_a_picture_of_its_own() {
    let (folder, game) = recorded("png", true);
    let out = folder.join("battle.png");
    let printed = report(&game, &out);
    for n in 1..=TURNS {
        let path = folder.join(format!("battle-{n}.png"));
        assert!(
            printed.contains(&path.to_string_lossy().into_owned()),
            "{printed}"
        );
        let page = image::open(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .to_luma8();
        assert!(page.width() >= 1000 && page.height() >= 600);
        let dark = page.pixels().filter(|p| p.0[0] < 80).count();
        assert!(dark > 1000, "{}: hardly anything drawn", path.display());
    }
    assert!(!folder.join(format!("battle-{}.png", TURNS + 1)).exists());
    assert!(
        !out.exists(),
        "the pictures are numbered, not the name given"
    );
}

#[test]
fn the_pdf_prints_the_report_on_pages_that_are_not_blank() {
    needed(CHROMIUM, "chromium");
    needed(PDFTOPPM, "poppler-utils");
    let (folder, game) = recorded("pdf", true);
    let out = folder.join("game.pdf");
    report(&game, &out);
    let pages = folder.join("page");
    let done = Command::new(PDFTOPPM)
        .args(["-png", "-r", "50"])
        .arg(&out)
        .arg(&pages)
        .output()
        .expect("pdftoppm runs");
    assert!(
        done.status.success(),
        "pdftoppm: {}",
        String::from_utf8_lossy(&done.stderr)
    );
    let mut rendered: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("the folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("page-"))
        })
        .collect();
    rendered.sort();
    assert!(!rendered.is_empty(), "no page rendered");
    let first = image::open(&rendered[0]).expect("a PNG").to_luma8();
    let dark = first.pixels().filter(|p| p.0[0] < 90).count();
    let light = first.pixels().filter(|p| p.0[0] > 200).count();
    let all = first.pixels().count();
    assert!(
        dark * 200 > all,
        "the first page is almost blank: {dark} dark of {all}"
    );
    assert!(
        light * 4 > all,
        "the first page is almost all dark: {light} light of {all}"
    );
}

/// A desktop window, for the report's page.
const WINDOW: Setup = Setup {
    width: 1280,
    height: 1000,
    emulated: false,
    patience: PATIENCE,
    docs: false,
};

/// What this test asks of the report's page.
impl Browser {
    /// How many elements of the page `selector` matches.
    async fn count(&self, selector: &str) -> u64 {
        self.js(&format!(
            "return document.querySelectorAll('{selector}').length"
        ))
        .await
        .as_u64()
        .expect("a count")
    }
}

#[tokio::test]
async fn the_page_shows_a_plan_a_turn_an_arrow_a_move_and_the_camera_in_a_real_browser() {
    let (folder, game) = recorded("html", true);
    let out = folder.join("game.html");
    let printed = report(&game, &out);
    assert!(
        printed.contains(&out.to_string_lossy().into_owned()),
        "{printed}"
    );
    let page = std::fs::read_to_string(&out).expect("the page");
    assert!(
        !page.contains("src=\"http") && !page.contains("href=\"http"),
        "the page fetches nothing"
    );
    assert!(page.contains("Before Turn 1") && page.contains("Turn 3"));
    assert!(page.contains("was the charge in the flank?"));

    let browser = Browser::open(WINDOW).await;
    let url = format!("file://{}", out.display());
    browser.client.goto(&url).await.expect("the page opens");
    assert_eq!(browser.count("svg.plan").await, TURNS as u64);
    assert_eq!(browser.count("svg.plan g.move").await, MOVES as u64);
    assert_eq!(browser.count("svg.plan g.move.charge").await, 1);
    assert_eq!(browser.count("svg.plan .charge-mark").await, 1);
    assert!(browser.count("svg.plan g.unit").await >= 16 * TURNS as u64);
    // Each plan is drawn at a size, the arrows within it.
    let sized = browser
        .js("return Array.from(document.querySelectorAll('svg.plan')).every(s => { const r = s.getBoundingClientRect(); return r.width > 300 && r.height > 150; })")
        .await;
    assert_eq!(sized, Value::Bool(true));
    // The camera's pictures are shown: decoded, at a size.
    let start = Instant::now();
    loop {
        let shown = browser
            .js("const i = Array.from(document.querySelectorAll('img.camera')); return i.length > 0 && i.every(p => p.complete && p.naturalWidth === 320 && p.getBoundingClientRect().width > 100)")
            .await;
        if shown == Value::Bool(true) {
            break;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the camera's pictures never showed"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(browser.count("img.camera").await, TURNS as u64);
    let case = browser
        .js("return Array.from(document.querySelectorAll('ul.rulings li.case')).map(l => l.textContent).join(' ')")
        .await;
    assert!(case.as_str().is_some_and(|c| c.contains("flank")), "{case}");
    let screenshot = browser.client.screenshot().await.expect("a screenshot");
    std::fs::write(folder.join("report.png"), screenshot).expect("written");
    browser.close().await;
}
