//! Frame sources: files, sequences, video, the synthetic table, and a webcam that is not there.

use std::path::PathBuf;

use calibration::{ImageSize, TableSize};
use opencv::core::{MatTraitConst, Size};
use opencv::prelude::VideoWriterTrait;
use opencv::videoio::VideoWriter;
use rules::units::Degrees;
use vision::source::{
    ImageFile, ImageSequence, SyntheticSource, VideoFile, Webcam, WebcamRequest, list_cameras,
};
use vision::synthetic::{Effects, SyntheticTable, framing_camera};
use vision::{FrameSource, SourceError, write_image};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vedette-sources-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn demo_source(frames_each: u64, looping: bool) -> SyntheticSource {
    let table = TableSize {
        width: 48.0,
        depth: 32.0,
    };
    let size = ImageSize {
        width: 320,
        height: 180,
    };
    let camera = framing_camera(table, size, Degrees(30.0), Degrees(70.0));
    let mut other = SyntheticTable::new(table);
    other.cloth = vision::synthetic::Rgb(200, 200, 200);
    let states = vec![
        (SyntheticTable::new(table), frames_each),
        (other, frames_each),
    ];
    SyntheticSource::new("demo", camera, Effects::IDEAL, states, 10.0, looping)
}

#[test]
fn the_synthetic_source_shows_each_state_for_its_frames_then_loops() {
    let mut source = demo_source(2, true);
    let states: Vec<Option<usize>> = (0..6).map(|i| source.state_at(i)).collect();
    assert_eq!(
        states,
        [Some(0), Some(0), Some(1), Some(1), Some(0), Some(0)]
    );
    let first = source.next_frame().expect("frame").expect("some");
    assert_eq!((first.image.cols(), first.image.rows()), (320, 180));
    let mut once = demo_source(1, false);
    assert!(
        once.next_frame().expect("frame").is_some() && once.next_frame().expect("frame").is_some()
    );
    assert!(once.next_frame().expect("end").is_none());
}

#[test]
fn image_files_sequences_and_videos_deliver_their_frames() {
    let dir = temp("files");
    let mut source = demo_source(1, false);
    let mut writer = VideoWriter::new(
        dir.join("game.avi"),
        VideoWriter::fourcc('M', 'J', 'P', 'G').expect("fourcc"),
        10.0,
        Size::new(320, 180),
        true,
    )
    .expect("writer");
    for i in 0..2 {
        let frame = source.next_frame().expect("frame").expect("some");
        write_image(&dir.join(format!("frame-{i}.png")), &frame.image).expect("png");
        writer.write(&frame.image).expect("video frame");
    }
    writer.release().expect("closed");

    let mut single = ImageFile::new(&dir.join("frame-0.png"));
    assert!(single.next_frame().expect("frame").is_some());
    assert!(single.next_frame().expect("end").is_none());

    let mut sequence = ImageSequence::folder(&dir, 5.0).expect("sequence");
    let times: Vec<f64> = std::iter::from_fn(|| sequence.next_frame().expect("frame"))
        .map(|f| f.time.as_secs_f64())
        .collect();
    assert_eq!(times, [0.0, 0.2]);

    let mut video = VideoFile::open(&dir.join("game.avi")).expect("video");
    let count = std::iter::from_fn(|| video.next_frame().expect("frame")).count();
    assert_eq!(count, 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn missing_and_broken_files_are_named_in_the_error() {
    let dir = temp("broken");
    let missing = VideoFile::open(&dir.join("nothing.mp4"))
        .err()
        .expect("missing video")
        .to_string();
    assert!(
        missing.contains("nothing.mp4") && missing.contains("no such file"),
        "{missing}"
    );
    std::fs::write(dir.join("bad.png"), b"garbage").expect("write");
    let mut broken = ImageFile::new(&dir.join("bad.png"));
    let error = broken.next_frame().expect_err("broken image").to_string();
    assert!(error.contains("bad.png"), "{error}");
    let empty = temp("empty");
    let none = ImageSequence::folder(&empty, 5.0)
        .err()
        .expect("empty folder")
        .to_string();
    assert!(none.contains("no PNG, JPEG"), "{none}");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&empty).ok();
}

#[test]
fn a_machine_without_cameras_lists_none_and_says_why_a_webcam_cannot_open() {
    let cameras = list_cameras();
    if cameras.is_empty() {
        let error = Webcam::open(WebcamRequest::default())
            .err()
            .expect("no camera here");
        assert!(matches!(error, SourceError::Open { .. }));
        assert!(
            error.to_string().starts_with("webcam 0: cannot open"),
            "{error}"
        );
    }
}
