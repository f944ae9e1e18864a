//! The lens learnt while people play: the demo's battle filmed through a wide webcam. The
//! pipeline calibrates from the anchors, learns the lens from the stands as they advance, takes
//! it, places the stands closer to the truth for it, and keeps it when the camera is knocked.

use std::time::Duration;

use calibration::LensSource;
use live::demo::{Demo, IMAGE_SIZE};
use live::lens::LensStatus;
use live::pipeline::{Processor, TableState};
use rules::Scene;
use rules::units::Degrees;
use vision::FrameSource;
use vision::source::SyntheticSource;
use vision::synthetic::{Effects, LensClass, framing_camera_for};

/// Frames filmed of each turn: enough for the live detector to find the stands that moved, and
/// for them to lie still long enough to be ruled where they now are (the tracker's settle
/// time, 0.4 s, after two sightings away from where they were: 0.7 s at 10 frames a second).
const FRAMES_PER_TURN: u64 = 8;

/// Film a turn's table for a few frames; the last frame's state.
fn film(
    processor: &mut Processor,
    camera: calibration::Camera,
    demo: &Demo,
    turn: usize,
    frames: u64,
) -> TableState {
    let mut source = SyntheticSource::new(
        "wide webcam",
        camera,
        Effects::WEBCAM,
        vec![(demo.stage(turn), frames)],
        10.0,
        false,
    );
    let mut last = None;
    for k in 0..frames {
        let mut frame = source.next_frame().expect("renders").expect("a frame");
        frame.index = turn as u64 * FRAMES_PER_TURN + k;
        frame.time = Duration::from_millis(100 * frame.index);
        last = Some(processor.process(&frame, "wide webcam"));
    }
    last.expect("frames")
}

/// The worst distance between where the pipeline put a unit seen in the frame and where it is
/// (units held at their last place are not measured).
fn worst_unit(state: &TableState, truth: &Scene) -> f64 {
    let scene = state.scene.as_ref().expect("a scene");
    scene
        .units
        .iter()
        .filter(|unit| !state.held_units.contains_key(&unit.id))
        .filter_map(|unit| {
            let real = truth.units.iter().find(|u| u.id == unit.id)?;
            Some((unit.footprint.frame().center() - real.footprint.frame().center()).norm())
        })
        .fold(0.0, f64::max)
}

#[test]
fn a_wide_lens_is_learnt_in_play_used_and_kept_when_the_camera_is_knocked() {
    let demo = Demo::new().expect("the demo");
    let lens = LensClass::Wide.sample(IMAGE_SIZE, 5);
    let table = demo.anchors.table;
    let camera = framing_camera_for(table, lens, Degrees(30.0));
    let mut processor = Processor::new(demo.inputs());
    let first = film(&mut processor, camera, &demo, 0, 1);
    let before = worst_unit(&first, &demo.turns[0]);
    assert!(
        matches!(first.status.lens, LensStatus::Learning { .. }),
        "{:?}",
        first.status.lens
    );
    // The battle goes on while the lens is fitted beside the pipeline.
    let mut last = first;
    for turn in 1..demo.turns.len() {
        processor.finish_lens_fit(Duration::from_secs(120));
        last = film(&mut processor, camera, &demo, turn, FRAMES_PER_TURN);
    }
    processor.finish_lens_fit(Duration::from_secs(120));
    let turn = demo.turns.len() - 1;
    let state = film(&mut processor, camera, &demo, turn, FRAMES_PER_TURN);
    let LensStatus::Fitted { rms, .. } = state.status.lens else {
        panic!(
            "not fitted: {:?} after {:?}",
            state.status.lens, last.status.lens
        )
    };
    assert!(rms.0 < 0.5, "{rms}");
    let calibration = processor.calibration().expect("calibrated");
    assert!(
        matches!(calibration.lens, LensSource::Tags(_)),
        "{}",
        calibration.lens
    );
    let after = worst_unit(&state, &demo.turns[turn]);
    // The battle lines only reached the middle of the table in the last turn, so the lens is
    // least certain there: still five times better than the anchors' focal length alone.
    assert!(
        after < before / 5.0,
        "worst unit {before:.3}\" through the anchors' lens, {after:.3}\" through the learnt one"
    );
    // Knocked: the table is found again, through the same lens.
    let learnt = calibration.camera.intrinsics;
    processor.recalibrate();
    let again = film(&mut processor, camera, &demo, turn, FRAMES_PER_TURN);
    let calibration = processor.calibration().expect("calibrated again");
    assert_eq!(calibration.camera.intrinsics.distortion, learnt.distortion);
    assert!(worst_unit(&again, &demo.turns[turn]) < before / 5.0);
}
