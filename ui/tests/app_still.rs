//! A still picture opened in the app is calibrated as `vedette calibrate` calibrates it: the
//! same picture gives the same error bars and the same rulings either way, not a wider bar
//! from the anchors' focal length alone.

mod common;

use std::path::Path;
use std::time::Duration;

use calibration::TableCalibration;
use egui_kittest::kittest::Queryable;
use live::demo::{Demo, IMAGE_SIZE};
use live::lens::LensStatus;
use live::pipeline::{Inputs, Processor, TableState};
use rules::units::Degrees;
use vision::source::SyntheticSource;
use vision::synthetic::{Effects, LensClass, framing_camera_for};
use vision::{Frame, FrameSource};

/// Every unit's widest error bar (95 %, inches), by unit id.
fn error_bars(state: &TableState) -> Vec<(String, f64)> {
    let scene = state.scene.as_ref().expect("a scene");
    let mut bars: Vec<(String, f64)> = scene
        .units
        .iter()
        .map(|unit| (unit.id.clone(), unit.footprint.worst_plus_minus().0))
        .collect();
    bars.sort_by(|a, b| a.0.cmp(&b.0));
    bars
}

/// Every decision the rulings make: topic, units and decision.
fn decisions(state: &TableState) -> Vec<String> {
    fn gather(value: &serde_json::Value, found: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(fields) => match fields.get("decision") {
                Some(decision) => found.push(format!(
                    "{} {} {} {decision}",
                    fields["topic"],
                    fields["unit"],
                    fields.get("other").unwrap_or(&"".into())
                )),
                None => fields.values().for_each(|f| gather(f, found)),
            },
            serde_json::Value::Array(items) => items.iter().for_each(|i| gather(i, found)),
            _ => {}
        }
    }
    let rulings = state.rulings.as_ref().expect("rulings");
    let mut found = Vec::new();
    gather(
        &serde_json::to_value(rulings.as_ref()).expect("json"),
        &mut found,
    );
    found
}

/// The sample's two lines staged on a 6' × 4' table with anchors in its corners: the table, the
/// scene, its roster, the anchors and the synthetic table.
fn two_lines() -> (
    calibration::TableSize,
    rules::Scene,
    roster::Roster,
    calibration::AnchorLayout,
    vision::synthetic::SyntheticTable,
) {
    let table = calibration::TableSize {
        width: 72.0,
        depth: 48.0,
    };
    let scene = rules::Scene::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/scenes/two-lines.json"),
    )
    .expect("the sample scene");
    let roster = roster::Roster::for_scene(&scene, roster::TagDefaults::default(), 10);
    let anchors = calibration::AnchorLayout::corners(
        table,
        rules::units::Inches(2.0),
        rules::units::Inches(1.5),
    );
    let world = vision::synthetic::SyntheticTable::stage(&scene, &roster, &anchors);
    (table, scene, roster, anchors, world)
}

fn open(processor: &mut Processor, picture: &Path) -> TableState {
    let frame = Frame {
        image: vision::read_image(picture).expect("the picture"),
        index: 0,
        time: Duration::ZERO,
    };
    processor.process(&frame, "table.png")
}

#[test]
fn a_still_picture_gives_the_app_the_error_bars_and_rulings_of_the_calibrate_command() {
    let demo = Demo::new().expect("the demo");
    let lens = LensClass::Ordinary.sample(IMAGE_SIZE, 3);
    let camera = framing_camera_for(demo.anchors.table, lens, Degrees(30.0));
    let dir = common::scratch("app-still");
    let mut source = SyntheticSource::new(
        "table",
        camera,
        Effects::WEBCAM,
        vec![(demo.stage(0), 1)],
        10.0,
        false,
    );
    let rendered = source.next_frame().expect("renders").expect("a frame");
    let picture = dir.join("table.png");
    vision::write_image(&picture, &rendered.image).expect("write the picture");
    let anchors = dir.join("anchors.toml");
    demo.anchors.save(&anchors).expect("write the anchors");
    let army = dir.join("army.toml");
    demo.roster.save(&army).expect("write the roster");
    let calibrated = dir.join("camera.toml");
    let output = common::vedette(&[
        "calibrate",
        &picture.display().to_string(),
        "--anchors",
        &anchors.display().to_string(),
        "--roster",
        &army.display().to_string(),
        "-o",
        &calibrated.display().to_string(),
        "--force",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // `vedette --image table.png --anchors anchors.toml --roster army.toml`.
    let mut app = Processor::new(Inputs {
        still: true,
        ..demo.inputs()
    });
    let in_the_app = open(&mut app, &picture);
    let LensStatus::OnePicture(Some((rms, _))) = in_the_app.status.lens else {
        panic!("{:?}", in_the_app.status.lens);
    };
    assert!(rms.0 < 0.5, "{rms}");
    // `vedette --image table.png --calibration camera.toml --roster army.toml`.
    let mut through_file = Processor::new(Inputs {
        calibration: Some(TableCalibration::load(&calibrated).expect("the calibration")),
        still: true,
        ..demo.inputs()
    });
    let through_the_file = open(&mut through_file, &picture);
    // The picture played as a live source's first frame: the anchors alone.
    let mut live = Processor::new(demo.inputs());
    let first_frame = open(&mut live, &picture);

    let app_bars = error_bars(&in_the_app);
    let file_bars = error_bars(&through_the_file);
    assert_eq!(app_bars.len(), demo.turns[0].units.len());
    assert_eq!(
        app_bars.iter().map(|b| &b.0).collect::<Vec<_>>(),
        file_bars.iter().map(|b| &b.0).collect::<Vec<_>>()
    );
    for ((unit, app), (_, file)) in app_bars.iter().zip(&file_bars) {
        assert!(
            (app - file).abs() <= 0.002 + 0.01 * file,
            "{unit}: ± {app:.4}\" in the app, ± {file:.4}\" through the calibration file"
        );
    }
    let widest = |bars: &[(String, f64)]| bars.iter().map(|b| b.1).fold(0.0, f64::max);
    let from_anchors = widest(&error_bars(&first_frame));
    assert!(
        widest(&app_bars) * 3.0 < from_anchors,
        "± {:.3}\" from the picture's tags, ± {from_anchors:.3}\" from the anchors alone",
        widest(&app_bars)
    );
    let decided = decisions(&in_the_app);
    assert!(!decided.is_empty());
    assert_eq!(decided, decisions(&through_the_file));
}

/// A unit on a 2" hilltop in a still picture from a camera 45° from vertical: with the hill in
/// the terrain, the app's calibration takes its stands at their true height and places them
/// where they stand; without it, they are placed on the cloth below their rays, inches away.
#[test]
fn a_unit_on_a_known_hill_is_placed_where_it_stands_in_a_still_picture() {
    use calibration::ImageSize;
    use rules::geometry::TablePoint;
    use rules::scene::{TerrainDoc, TerrainKind};
    use rules::units::Inches;
    use vision::synthetic::{Renderer, framing_camera};
    let (table, scene, roster, anchors, mut world) = two_lines();
    let unit = &scene.units[0];
    let raised: Vec<u32> = roster.units[0].stands.iter().map(|s| s.tag).collect();
    world.raise(&raised, Inches(2.0));
    let frame = unit.footprint.frame();
    let (c, half) = (
        frame.center(),
        frame.width().0 / 2.0 + frame.depth().0 / 2.0,
    );
    let square = |r: f64| {
        vec![
            TablePoint::new(c.x - r, c.y - r),
            TablePoint::new(c.x + r, c.y - r),
            TablePoint::new(c.x + r, c.y + r),
            TablePoint::new(c.x - r, c.y + r),
        ]
    };
    let hill = TerrainDoc {
        id: "ridge".into(),
        kind: TerrainKind::Hill,
        // Its foot stops short of the neighbours, which stand on the flat cloth.
        polygon: Some(square(half + 3.0)),
        line: None,
        height: Some(1),
        rise: Some(2.0),
        crest: Some(square(half + 1.0)),
    };
    let size = ImageSize {
        width: 1920,
        height: 1080,
    };
    let camera = framing_camera(table, size, Degrees(45.0), Degrees(70.0));
    let image = Renderer::new()
        .render(&world, &camera, &Effects::WEBCAM)
        .expect("renders");
    let picture = Frame {
        image,
        index: 0,
        time: Duration::ZERO,
    };
    let placed_off = |terrain: Vec<TerrainDoc>| {
        let mut app = Processor::new(Inputs {
            anchors: Some(anchors.clone()),
            roster: Some(roster.clone()),
            terrain,
            still: true,
            ..Inputs::default()
        });
        let state = app.process(&picture, "hill.png");
        let seen = state.scene.as_ref().expect("a scene");
        let placed = seen.unit(&unit.id).expect("the unit on the hill");
        let off = (placed.footprint.frame().center() - c).norm();
        // The units on the flat stay where they are: the hill neither bends the calibration
        // nor lifts its neighbours.
        for other in scene.units.iter().filter(|u| u.id != unit.id) {
            let at = seen.unit(&other.id).expect("a flat unit");
            let flat_off =
                (at.footprint.frame().center() - other.footprint.frame().center()).norm();
            assert!(flat_off < 0.05, "{}: {flat_off:.3}\" off", other.id);
        }
        (off, state)
    };
    let hill_doc = hill.clone();
    let (known, shown) = placed_off(vec![hill]);
    let (unknown, _) = placed_off(Vec::new());
    // The app draws it so: the unit's outline on its stands up the hill, the crest dashed.
    let mut harness = vedette_ui::app::headless::harness_on(shown, Some(unit.id.clone()));
    harness.run_steps(2);
    if let Some(folder) = std::env::var_os("VEDETTE_SHOTS") {
        let image = harness.render().expect("rendered");
        image
            .save(std::path::Path::new(&folder).join("app-hill.png"))
            .expect("saved");
    }
    assert!(known < 0.05, "{known:.3}\" off with the hill given");
    assert!(unknown > 1.0, "{unknown:.3}\" off without it");

    // Filmed without the hill: the unit is placed on the cloth below its rays, and said to
    // seem raised where no hill is known, from the first frame on, by about the hill's rise;
    // no stand on the flat is. Left there for ten seconds, it teaches Vedette the ground
    // under it, and is placed where it stands, without seeming to move.
    let mut blind = Processor::new(Inputs {
        anchors: Some(anchors.clone()),
        roster: Some(roster.clone()),
        ..Inputs::default()
    });
    let notes_saying = |state: &live::pipeline::TableState, what: &str| {
        state
            .status
            .notes
            .iter()
            .filter(|n| n.contains(what))
            .cloned()
            .collect::<Vec<String>>()
    };
    let raised_notes =
        |state: &live::pipeline::TableState| notes_saying(state, "above the ground Vedette knows");
    let learn_after = live::pipeline::LEARN_AFTER;
    let mut learnt_at = None;
    for index in 0..26 {
        let frame = Frame {
            index,
            time: Duration::from_millis(500 * index),
            ..picture.clone()
        };
        let state = blind.process(&frame, "webcam");
        let notes = raised_notes(&state);
        let seen = state.scene.as_ref().expect("a scene");
        let off = (seen
            .unit(&unit.id)
            .expect("the unit")
            .footprint
            .frame()
            .center()
            - c)
            .norm();
        if frame.time < learn_after {
            assert_eq!(notes.len(), 1, "frame {index}: {notes:?}");
            let seems: f64 = notes[0]
                .split("seems ")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .and_then(|n| n.parse().ok())
                .expect("a height");
            assert!(
                notes[0].starts_with("45th Foot") && (1.2..=2.5).contains(&seems),
                "frame {index}: {notes:?}"
            );
            assert!(
                off > 1.0,
                "frame {index}: {off:.3}\" off before the ground is learnt"
            );
        } else if learnt_at.is_none() {
            let learnt = notes_saying(&state, "learnt the ground");
            assert_eq!(
                learnt.len(),
                raised.len(),
                "frame {index}: {:?}",
                state.status.notes
            );
            assert!(learnt.iter().all(|n| n.contains("45th Foot")), "{learnt:?}");
            assert_eq!(
                state.learnt_ground.len(),
                raised.len(),
                "one rise under each stand"
            );
            // One camera tells a tag's height by its size alone: a 2" rise makes a tag of
            // 25 px 0.7 px bigger. The detector's corners sit inside its printed square by
            // their own 0.1–0.3 px (learnt from them, the rise was 0.6" out); its whole
            // pattern fitted to the pixels tells its side within a few hundredths of a pixel.
            for rise in &state.learnt_ground {
                assert!((rise.height.0 - 2.0).abs() < 0.2, "{rise:?}");
            }
            learnt_at = Some(index);
        } else {
            assert!(notes.is_empty(), "frame {index}: {notes:?}");
            assert!(
                off < 0.15,
                "frame {index}: {off:.3}\" off on the learnt ground"
            );
            assert!(
                state.moves.iter().all(|m| m.event.unit != unit.id),
                "frame {index}: learning the ground moved the unit: {:?}",
                state.moves
            );
            for other in scene.units.iter().filter(|u| u.id != unit.id) {
                let at = seen.unit(&other.id).expect("a flat unit");
                let flat_off =
                    (at.footprint.frame().center() - other.footprint.frame().center()).norm();
                assert!(flat_off < 0.05, "{}: {flat_off:.3}\" off", other.id);
            }
        }
    }
    assert!(learnt_at.is_some(), "the ground was never learnt");
    // The app shows it: the status bar says the ground was learnt, and the plan and the video
    // draw the learnt rise under the unit, which stands on it.
    let state = blind.process(
        &Frame {
            index: 26,
            time: Duration::from_millis(500 * 26),
            ..picture.clone()
        },
        "webcam",
    );
    // Its error bar says how unsure the learnt height is (± 0.4" of height, along its ray
    // 45° from vertical); its neighbours' stay as they were.
    let bars = error_bars(&state);
    let bar = |id: &str| bars.iter().find(|b| b.0 == id).map_or(0.0, |b| b.1);
    assert!(bar(&unit.id) > 0.6, "{bars:?}");
    for other in scene.units.iter().filter(|u| u.id != unit.id) {
        assert!(bar(&other.id) < 0.3, "{}: {bars:?}", other.id);
    }
    let mut harness = vedette_ui::app::headless::harness_on(state, Some(unit.id.clone()));
    harness.run_steps(2);
    assert!(
        harness.query_by_label_contains("learnt in play").is_some(),
        "the status bar says the ground was learnt"
    );
    if let Some(folder) = std::env::var_os("VEDETTE_SHOTS") {
        let image = harness.render().expect("rendered");
        image
            .save(std::path::Path::new(&folder).join("app-hill-learnt.png"))
            .expect("saved");
    }
    // Filmed: the stands on the known hill rest there from the first frame (not taken for
    // stands held up in a hand), where they stand.
    let mut live = Processor::new(Inputs {
        anchors: Some(anchors.clone()),
        roster: Some(roster.clone()),
        terrain: vec![hill_doc],
        ..Inputs::default()
    });
    for index in 0..6 {
        let frame = Frame {
            index,
            time: Duration::from_millis(100 * index),
            ..picture.clone()
        };
        let state = live.process(&frame, "webcam");
        assert!(raised_notes(&state).is_empty(), "{:?}", state.status.notes);
        assert!(
            state.travelling.iter().all(|t| t.unit != unit.id),
            "frame {index}: {:?}",
            state.travelling
        );
        let seen = state.scene.as_ref().expect("a scene");
        let placed = seen.unit(&unit.id).expect("the unit on the hill");
        let off = (placed.footprint.frame().center() - c).norm();
        assert!(off < 0.05, "frame {index}: {off:.3}\" off");
    }
}

/// A figure standing over a stand's tag on the camera's side, filmed from a tripod at the
/// table's side: the AprilTag detector loses the tag, the app finds it from the edges in sight
/// and places its unit where it stands, and the status bar names the tag with the remedy.
#[test]
fn a_tag_behind_a_figure_is_found_and_named_with_its_remedy_in_the_status_bar() {
    use calibration::{AnchorLayout, ImageSize, TableSize};
    use rules::geometry::{OrientedRect, TablePoint};
    use rules::units::Inches;
    use vision::synthetic::{Block, Renderer, Rgb, SyntheticTable, framing_camera};
    let table = TableSize {
        width: 72.0,
        depth: 48.0,
    };
    let scene = rules::Scene::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/scenes/two-lines.json"),
    )
    .expect("the sample scene");
    let roster = roster::Roster::for_scene(&scene, roster::TagDefaults::default(), 10);
    let anchors = AnchorLayout::corners(table, Inches(2.0), Inches(1.5));
    let mut world = SyntheticTable::stage(&scene, &roster, &anchors);
    let unit = &scene.units[0];
    let covered = roster.units[0].stands[0].tag;
    let tag = world
        .tags()
        .find(|t| t.id == covered)
        .expect("the tag")
        .placement;
    // A painted figure 0.4" tall over the quiet zone south of the tag, towards the camera.
    let y = tag.center.y - tag.size.0 * 0.625 - 0.02;
    world.blocks.push(Block {
        footprint: OrientedRect::from_center(
            TablePoint::new(tag.center.x, y),
            Degrees(90.0),
            Inches(0.5),
            Inches(0.12),
        ),
        height: Inches(tag.height.0 + 0.4),
        colour: Rgb(150, 30, 30),
        tags: Vec::new(),
        figures: false,
        motion: None,
    });
    let size = ImageSize {
        width: 1920,
        height: 1080,
    };
    let camera = framing_camera(table, size, Degrees(45.0), Degrees(70.0));
    let hidden = world.hidden_share(covered, &camera).expect("the tag");
    assert!(
        hidden > 0.05 && hidden < 0.25,
        "{hidden:.2} of the tag hidden"
    );
    let image = Renderer::new()
        .render(&world, &camera, &Effects::WEBCAM)
        .expect("renders");
    let detected = vision::TagDetector::new(Default::default())
        .expect("a detector")
        .detect(&image)
        .expect("detects")
        .sightings();
    assert!(
        detected.iter().all(|s| s.id != covered),
        "the detector alone finds tag {covered}: nothing to show"
    );
    let mut app = Processor::new(Inputs {
        anchors: Some(anchors.clone()),
        roster: Some(roster.clone()),
        ..Inputs::default()
    });
    // Each tag at rest is looked at in turn, a few a frame, and named once most looks agree.
    let mut states = (0..100).map(|index| {
        let frame = Frame {
            image: image.clone(),
            index,
            time: Duration::from_millis(200 * index),
        };
        app.process(&frame, "webcam")
    });
    let first = states.next().expect("a first frame");
    let state = states.last().expect("frames");
    // Once named, the tag's error bar widens, and its unit's with it.
    let bar = |state: &TableState| {
        error_bars(state)
            .into_iter()
            .find(|b| b.0 == unit.id)
            .map_or(0.0, |b| b.1)
    };
    assert!(
        bar(&state) > 1.5 * bar(&first),
        "{:.3}\" then {:.3}\"",
        bar(&first),
        bar(&state)
    );
    let seen = state.scene.as_ref().expect("a scene");
    let placed = seen.unit(&unit.id).expect("the unit behind the figure");
    let off = (placed.footprint.frame().center() - unit.footprint.frame().center()).norm();
    assert!(off < 0.05, "{off:.3}\" off");
    let remedy = state
        .health
        .iter()
        .find(|r| r.tag == covered)
        .unwrap_or_else(|| panic!("tag {covered} not named: {:?}", state.health));
    let words = remedy.to_string();
    assert!(
        words.contains("partly covered") && words.contains("nearest the camera"),
        "{words}"
    );
    let mut harness = vedette_ui::app::headless::harness_on(state, Some(unit.id.clone()));
    harness.run_steps(2);
    assert!(
        harness.query_all_by_label_contains(&words).next().is_some(),
        "the status bar names it"
    );
    if let Some(folder) = std::env::var_os("VEDETTE_SHOTS") {
        let image = harness.render().expect("rendered");
        image
            .save(Path::new(&folder).join("app-covered-tag.png"))
            .expect("saved");
    }
}

/// A camera out of focus: its tags' corners stray from their squares, the error bars widen,
/// and the status bar says why.
#[test]
fn a_soft_picture_widens_the_bars_and_the_status_bar_says_why() {
    use calibration::ImageSize;
    use vision::synthetic::{Renderer, Rendering, framing_camera};
    let (table, _, roster, anchors, world) = two_lines();
    let size = ImageSize {
        width: 1920,
        height: 1080,
    };
    let camera = framing_camera(table, size, Degrees(35.0), Degrees(60.0));
    let opened = |rendering: Rendering| {
        let image = Renderer::new()
            .render(&world, &camera, &rendering.effects(3))
            .expect("renders");
        let mut app = Processor::new(Inputs {
            anchors: Some(anchors.clone()),
            roster: Some(roster.clone()),
            ..Inputs::default()
        });
        // Filmed: a few frames of the same picture, placed from the detector's corners.
        let mut state = None;
        for index in 0..3 {
            let frame = Frame {
                image: image.clone(),
                index,
                time: Duration::from_millis(100 * index),
            };
            state = Some(app.process(&frame, "webcam"));
        }
        state.expect("frames")
    };
    let (sharp, soft) = (opened(Rendering::Own), opened(Rendering::Soft));
    assert!(sharp.status.doubts.is_empty(), "{:?}", sharp.status.doubts);
    assert!(
        soft.status
            .doubts
            .iter()
            .any(|d| d.contains("corners scatter")),
        "{:?}",
        soft.status.doubts
    );
    let widest = |state: &TableState| error_bars(state).iter().map(|b| b.1).fold(0.0, f64::max);
    assert!(
        widest(&soft) > 1.5 * widest(&sharp),
        "{:.3}\" sharp, {:.3}\" soft",
        widest(&sharp),
        widest(&soft)
    );
    // Its noisier corners read sizes less surely: no flat stand is taken for a raised one.
    assert!(
        !soft.status.doubts.iter().any(|d| d.contains("look higher")),
        "{:?}",
        soft.status.doubts
    );
    let mut harness = vedette_ui::app::headless::harness_on(soft, None);
    harness.run_steps(2);
    assert!(
        harness.query_by_label_contains("± widened").is_some(),
        "the status bar says why"
    );
    if let Some(folder) = std::env::var_os("VEDETTE_SHOTS") {
        let image = harness.render().expect("rendered");
        image
            .save(Path::new(&folder).join("app-bars-widened.png"))
            .expect("saved");
    }
}
