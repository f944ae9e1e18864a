//! "Moved 11.6" this turn": each unit's movement from the scenes the camera builds.

use std::path::Path;

use rules::Scene;
use rules::scene::SceneDoc;
use rules::units::Inches;
use vision::MoveLog;

fn scene_with_45th_at(x: f64, y: f64) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/scenes/two-lines.json");
    let mut doc = SceneDoc::from(&Scene::load(&path).expect("sample"));
    let unit = doc
        .units
        .iter_mut()
        .find(|u| u.id == "45th-foot")
        .expect("45th");
    unit.front_center = Some(rules::geometry::TablePoint::new(x, y));
    Scene::from_doc(doc, "test").expect("valid")
}

#[test]
fn a_unit_pushed_forward_in_steps_reports_its_move_and_wobble_is_not_counted() {
    let mut log = MoveLog::new(Inches(0.05));
    let start = scene_with_45th_at(30.0, 12.0);
    log.mark_turn(&start);
    // Camera wobble, then a move in two pushes: 4" forward, then 3" to the side.
    for (x, y) in [(30.02, 12.0), (29.99, 12.01), (30.0, 16.0), (33.0, 16.0)] {
        log.observe(&scene_with_45th_at(x, y));
    }
    let now = scene_with_45th_at(33.0, 16.0);
    let moved = log.movement(&now, "45th-foot").expect("tracked");
    assert!(
        (moved.straight.0 - 5.0).abs() < 1e-9,
        "{:?}",
        moved.straight
    );
    assert!((moved.path.0 - 7.0).abs() < 0.05, "{:?}", moved.path);
    let still = log.movement(&now, "3e-ligne").expect("tracked");
    assert_eq!(still.straight, Inches(0.0));
    log.mark_turn(&now);
    assert_eq!(
        log.movement(&now, "45th-foot").expect("tracked").path,
        Inches(0.0)
    );
}
