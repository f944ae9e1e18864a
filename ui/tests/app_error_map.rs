//! Where the camera measures worst, as the player sees it: the plan's ± map on the demo table,
//! its legend and its words, and what it says without a calibration.

use std::path::Path;
use std::sync::Arc;

use calibration::LensSource;
use egui_kittest::kittest::Queryable;
use live::demo::Demo;
use live::pipeline::TableState;
use rules::Scene;
use rules::geometry::TablePoint;
use rules::units::Inches;
use vedette_ui::app::headless::{demo_state, harness_on};
use vedette_ui::app::views::error_map::colour_of;
use vision::ErrorMap;
use vision::error_map::Source;

type Harness = egui_kittest::Harness<'static, vedette_ui::app::VedetteApp>;

fn has_text(harness: &Harness, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
}

/// Pixels of the plan's area within a few levels of `colour`.
fn pixels_like(harness: &mut Harness, colour: egui::Color32) -> usize {
    let plan = harness
        .state()
        .state
        .plan_transform
        .expect("the plan is drawn")
        .rect;
    let image = harness.render().expect("renders");
    let near = |a: u8, b: u8| a.abs_diff(b) <= 4;
    image
        .enumerate_pixels()
        .filter(|(x, y, _)| plan.contains(egui::pos2(*x as f32, *y as f32)))
        .filter(|(_, _, p)| {
            near(p[0], colour.r()) && near(p[1], colour.g()) && near(p[2], colour.b())
        })
        .count()
}

/// The words the plan says under the map.
fn summary(harness: &Harness) -> String {
    harness
        .query_all_by_label_contains("Where the camera measures worst:")
        .next()
        .expect("the summary")
        .value()
        .unwrap_or_default()
}

/// The app rendered, kept for a look.
fn keep(harness: &mut Harness, name: &str) {
    let shot = std::env::temp_dir().join(name);
    let image = harness.render().expect("renders");
    image.save(&shot).expect("saves");
    eprintln!("the plan's ± map: {}", shot.display());
}

#[test]
fn the_plan_shows_where_the_demo_camera_measures_worst() {
    let demo = Demo::new().expect("the demo");
    let mut state = demo_state(&demo, 0).expect("a frame through the pipeline");
    // Its first frame: calibrated from the anchors alone. The demo's lens bends nothing and
    // its anchors fit an unbent lens as closely as their corners allow, so the lens is not
    // what is worst (through a bent one it is: vision's error_map tests).
    let first = state.error_map.clone().expect("made once calibrated");
    assert_ne!(first.worst_source(), Some(Source::Calibration));

    // The lens learnt (here: the demo camera's own), the map shows the camera's reach.
    let mut learnt = state.calibration.clone().expect("calibrated");
    learnt.camera = demo.camera;
    learnt.lens = LensSource::Given;
    let map = ErrorMap::over(&learnt, &demo.roster.tags, Inches(6.0));
    state.calibration = Some(learnt);
    state.error_map = Some(Arc::new(map.clone()));
    let (worst_at, worst) = map.worst.expect("the camera sees the table");
    // The demo's camera stands off one long edge: the far half is measured worst.
    let camera_y = demo.camera.pose.eye().y;
    let depth = map.depth.0;
    assert!(
        (worst_at.y - camera_y).abs() > depth / 2.0,
        "worst at {worst_at}, camera at y = {camera_y:.1}"
    );
    let centre = map.centre.expect("the centre is seen");
    let near_y = if camera_y < depth / 2.0 {
        1.0
    } else {
        depth - 1.0
    };
    let near = map
        .at(&TablePoint::new(map.width.0 / 2.0, near_y))
        .expect("seen");
    assert!(
        near.plus_minus < centre.plus_minus && centre.plus_minus < worst.plus_minus,
        "near {near:?} centre {centre:?} worst {worst:?}"
    );
    // Knowing the lens adds nothing the anchors had not shown.
    let first_worst = first.worst.expect("seen").1.plus_minus.0;
    assert!(
        (worst.plus_minus.0 - first_worst).abs() < 0.2 * first_worst,
        "{worst:?} known, {first_worst} from the anchors"
    );

    let mut harness = harness_on(state, None);
    harness.run_steps(2);
    let (good, poor) = (
        colour_of(Inches(0.0)).to_opaque(),
        colour_of(Inches(1.0)).to_opaque(),
    );
    assert_eq!(
        pixels_like(&mut harness, poor),
        0,
        "red before the map is on"
    );
    assert!(!has_text(&harness, "Where the camera measures worst"));
    harness.get_by_label("± map").click();
    harness.run_steps(3);
    assert!(harness.state().state.show_error_map);
    // The legend's swatches: green for the best, red for the worst.
    let (greens, reds) = (
        pixels_like(&mut harness, good),
        pixels_like(&mut harness, poor),
    );
    assert!(
        greens >= 100 && reds >= 100,
        "green {greens} red {reds} pixels"
    );
    // Its words: the worst figure and the centre's, and what would tighten it.
    let said = summary(&harness);
    let figure = |e: Inches| format!("±{}", e.rounded_up());
    assert!(said.contains(&figure(worst.plus_minus)), "{said}");
    assert!(
        said.contains(&format!("{} at the centre", figure(centre.plus_minus))),
        "{said}"
    );
    assert!(said.contains(worst.shares.largest().advice()), "{said}");
    keep(&mut harness, "vedette-error-map.png");
}

#[test]
fn without_a_calibration_the_map_says_so() {
    let samples = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../samples"));
    let scene = Scene::load(&samples.join("scenes/two-lines.json")).expect("a scene");
    let mut state = TableState::message("a scene file", None);
    state.scene = Some(Arc::new(scene));
    let mut harness = harness_on(state, None);
    harness.get_by_label("± map").click();
    harness.run_steps(3);
    assert!(has_text(
        &harness,
        "Where the camera measures worst: not calibrated"
    ));
}
