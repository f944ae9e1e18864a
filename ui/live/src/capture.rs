//! The capture thread: it owns the frame source, reads it at the source's own pace and hands
//! each frame to the processing thread through a one-frame queue ([`vision::live::queue`]).
//!
//! Decisions:
//! - A live source (a webcam, the demo table, a replay played in real time) is never made to
//!   wait: when the processing thread is still busy with the last frame, the new one is dropped
//!   and counted. The picture stays current and the camera's driver never stalls.
//! - A scripted source (tests, a caller's driver) waits for the processing thread instead, so
//!   every frame it delivers is seen.
//! - A paced source (a video, the demo) read slower than its own clock (a slow machine drawing
//!   or decoding its frames) lets its clock slip rather than race its late frames through to
//!   catch up: a race shows the processing thread a game played fast, and a unit's rest
//!   between two moves falls in the frames dropped, so the two moves are seen as one.
//! - Messages (opened, failed) are never dropped.
//! - The source is opened on the capture thread itself: a webcam cannot move between threads.

use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use vision::live::queue::{Counts, DropSender, Offer, dropping};
use vision::{Frame, FrameSource, SourceError};

/// What the capture thread hands over.
pub enum Captured {
    /// The source opened, under this name.
    Opened(String),
    /// The next frame.
    Frame(Frame),
    /// The source started again from its beginning (a looping video, the demo): what follows
    /// is a new game.
    Restarted,
    /// The source failed: could not open, lost its camera, could not read.
    Failed(String),
}

/// Opens the source on the capture thread (again at the end of a looping video).
pub type OpenSource = Box<dyn FnMut() -> Result<Box<dyn FrameSource>, String> + Send>;

/// How the capture thread reads its source.
pub struct SourcePlan {
    /// Opens the source.
    pub open: OpenSource,
    /// Deliver frames no faster than their timestamps (a replay plays in real time).
    pub paced: bool,
    /// Drop a frame when the processing thread is busy (a live source), rather than wait.
    pub live: bool,
    /// Open the source again at its end (a video on a convention table plays all day).
    pub looped: bool,
}

/// A running capture thread and its end of the queue.
pub struct Capture {
    /// Frames and messages, in order.
    pub received: Receiver<Captured>,
    /// Frames handed over and dropped.
    pub counts: Arc<Counts>,
    thread: Option<JoinHandle<()>>,
}

impl Capture {
    /// Start reading a source on its own thread.
    pub fn start(plan: SourcePlan) -> Capture {
        let (sender, received, counts) = dropping(1);
        let thread = std::thread::Builder::new()
            .name("vedette-capture".into())
            .spawn(move || capture(plan, &sender))
            .map_err(|e| tracing::error!("cannot start the capture thread: {e}"))
            .ok();
        Capture {
            received,
            counts,
            thread,
        }
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        // Closing the queue stops the thread at its next hand-over; wait for it, so a camera
        // is released before it is opened again.
        let (_, dead) = std::sync::mpsc::sync_channel(1);
        drop(std::mem::replace(&mut self.received, dead));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Time to wait after a failed read before the next: a lost camera is retried by its driver.
const AFTER_LOST: Duration = Duration::from_millis(250);
const AFTER_FAILURE: Duration = Duration::from_millis(500);

/// When a paced source's frames are due: at their timestamp after the start, the start slipping
/// whenever a frame comes late (see the module's decisions).
struct PacedClock {
    started: Instant,
}

impl PacedClock {
    fn start(now: Instant) -> PacedClock {
        PacedClock { started: now }
    }

    /// How long to wait before handing over the frame stamped `time`; none if it is due, and
    /// if it is late the clock slips by its lateness.
    fn wait(&mut self, time: Duration, now: Instant) -> Option<Duration> {
        let due = self.started + time;
        let wait = due.checked_duration_since(now);
        if wait.is_none() {
            self.started = now.checked_sub(time).unwrap_or(self.started);
        }
        wait.filter(|w| !w.is_zero())
    }
}

fn capture(mut plan: SourcePlan, out: &DropSender<Captured>) {
    let Some(mut source) = open(&mut plan, out) else {
        return;
    };
    let mut clock = PacedClock::start(Instant::now());
    let mut pass = source.pass();
    loop {
        match source.next_frame() {
            Ok(Some(frame)) => {
                if source.pass() != pass {
                    pass = source.pass();
                    if out.deliver(Captured::Restarted) == Offer::Closed {
                        return;
                    }
                }
                if plan.paced
                    && let Some(wait) = clock.wait(frame.time, Instant::now())
                {
                    std::thread::sleep(wait.min(Duration::from_secs(1)));
                }
                let handed = if plan.live {
                    out.offer(Captured::Frame(frame))
                } else {
                    out.deliver(Captured::Frame(frame))
                };
                if handed == Offer::Closed {
                    return;
                }
            }
            Ok(None) if plan.looped => {
                let Some(again) = open(&mut plan, out) else {
                    return;
                };
                (source, clock) = (again, PacedClock::start(Instant::now()));
                pass = source.pass();
                if out.deliver(Captured::Restarted) == Offer::Closed {
                    return;
                }
            }
            Ok(None) => return,
            Err(e) => {
                let pause = if matches!(e, SourceError::Lost { .. }) {
                    AFTER_LOST
                } else {
                    AFTER_FAILURE
                };
                if out.deliver(Captured::Failed(e.to_string())) == Offer::Closed {
                    return;
                }
                std::thread::sleep(pause);
            }
        }
    }
}

/// Open the source and say so; `None` if it cannot be opened (said too) or nobody listens.
fn open(plan: &mut SourcePlan, out: &DropSender<Captured>) -> Option<Box<dyn FrameSource>> {
    match (plan.open)() {
        Ok(source) => {
            (out.deliver(Captured::Opened(source.name())) == Offer::Queued).then_some(source)
        }
        Err(message) => {
            out.deliver(Captured::Failed(message));
            None
        }
    }
}

/// A camera picture size by its everyday name.
pub fn parse_resolution(name: &str) -> Result<calibration::ImageSize, String> {
    let (width, height) = match name.to_ascii_lowercase().as_str() {
        "720p" => (1280, 720),
        "1080p" => (1920, 1080),
        "4k" | "2160p" => (3840, 2160),
        other => return Err(format!("{other:?}: use 720p, 1080p or 4k")),
    };
    Ok(calibration::ImageSize { width, height })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vision::Mat;

    /// A source read slowly for a while (its frames drawn on a slow machine) is then paced
    /// from where it is: its late frames are not raced through.
    #[test]
    fn a_paced_source_read_late_slips_its_clock_instead_of_racing() {
        let start = Instant::now();
        let mut clock = PacedClock::start(start);
        let tenth = Duration::from_millis(100);
        assert_eq!(clock.wait(Duration::ZERO, start), None);
        assert_eq!(clock.wait(tenth, start), Some(tenth));
        // Frame 2 read 1.5 s after the start, 1.3 s late: handed over at once...
        let late = start + Duration::from_millis(1_500);
        assert_eq!(clock.wait(tenth * 2, late), None);
        // ...and frame 3 a tenth of a second after it, not at once with the rest of the 1.3 s.
        assert_eq!(clock.wait(tenth * 3, late), Some(tenth));
        assert_eq!(clock.wait(tenth * 3, late + tenth), None);
        assert_eq!(clock.wait(tenth * 4, late + tenth), Some(tenth));
    }

    /// Frames as fast as asked, `count` of them.
    struct Counter {
        next: u64,
        count: u64,
    }

    impl FrameSource for Counter {
        fn name(&self) -> String {
            "counter".into()
        }

        fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
            if self.next == self.count {
                return Ok(None);
            }
            self.next += 1;
            Ok(Some(Frame {
                image: Mat::default(),
                index: self.next - 1,
                time: Duration::ZERO,
            }))
        }
    }

    fn counter(count: u64, live: bool) -> Capture {
        Capture::start(SourcePlan {
            open: Box::new(
                move || Ok(Box::new(Counter { next: 0, count }) as Box<dyn FrameSource>),
            ),
            paced: false,
            live,
            looped: false,
        })
    }

    fn frames(capture: &Capture) -> Vec<u64> {
        capture
            .received
            .iter()
            .filter_map(|c| match c {
                Captured::Frame(f) => Some(f.index),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_scripted_source_hands_over_every_frame_in_order() {
        let capture = counter(50, false);
        assert_eq!(frames(&capture), (0..50).collect::<Vec<_>>());
        assert_eq!(capture.counts.dropped(), 0);
    }

    #[test]
    fn a_live_source_drops_what_a_busy_processor_cannot_take_and_is_never_held_up() {
        let capture = counter(500, true);
        // The processing thread is busy until the source has delivered everything.
        let Some(Captured::Opened(name)) = capture.received.recv().ok() else {
            panic!("opened first");
        };
        assert_eq!(name, "counter");
        while capture.counts.queued() + capture.counts.dropped() < 1 + 500 {
            std::thread::yield_now();
        }
        let seen = frames(&capture);
        assert_eq!(seen.len() as u64 + capture.counts.dropped(), 500);
        assert!(
            capture.counts.dropped() >= 498,
            "{} dropped",
            capture.counts.dropped()
        );
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
    }

    /// A source that loops by itself (the demo) and one opened again at its end (a video):
    /// each start after the first is said before its first frame.
    #[test]
    fn a_source_started_again_says_so_before_its_first_frame() {
        struct Looping(u64);
        impl FrameSource for Looping {
            fn name(&self) -> String {
                "looping".into()
            }
            fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
                self.0 += 1;
                Ok((self.0 <= 7).then(|| Frame {
                    image: Mat::default(),
                    index: self.0 - 1,
                    time: Duration::ZERO,
                }))
            }
            fn pass(&self) -> u64 {
                self.0.saturating_sub(1) / 3
            }
        }
        let said = |looped: bool, count: u64| {
            let capture = Capture::start(SourcePlan {
                open: Box::new(move || {
                    if looped {
                        Ok(Box::new(Counter { next: 0, count }) as Box<dyn FrameSource>)
                    } else {
                        Ok(Box::new(Looping(0)) as Box<dyn FrameSource>)
                    }
                }),
                paced: false,
                live: false,
                looped,
            });
            let mut said = String::new();
            for captured in capture.received.iter().take(12) {
                said.push(match captured {
                    Captured::Frame(_) => 'f',
                    Captured::Restarted => 'R',
                    Captured::Opened(_) => 'o',
                    Captured::Failed(_) => '!',
                });
            }
            said
        };
        assert_eq!(said(false, 0), "offfRfffRf");
        assert_eq!(said(true, 3), "offfoRfffoRf");
    }

    #[test]
    fn a_source_that_cannot_open_says_why_and_ends() {
        let capture = Capture::start(SourcePlan {
            open: Box::new(|| Err("no camera 3".to_owned())),
            paced: false,
            live: true,
            looped: false,
        });
        let said: Vec<String> = capture
            .received
            .iter()
            .map(|c| match c {
                Captured::Failed(m) => m,
                _ => "something else".into(),
            })
            .collect();
        assert_eq!(said, ["no camera 3"]);
    }
}
