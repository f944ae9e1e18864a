//! The corners of the sightings the learner keeps, refined beside the pipeline: a frame's offer
//! goes to a thread of its own with a copy of the picture and comes back a frame or two later.
//! Refining costs a few milliseconds a tag, and a frame that brings new stand places could
//! hold the pipeline up for a tenth of a second (`vedette bench app` measured it); the camera
//! would then skip frames while the stands move. Only one offer is refined at a time: the
//! stands a busy frame brings are still new on the next.
//!
//! A tag whose pattern the pixels do not match even with what covers it left out (a figure
//! over most of it, a hand) is not offered at all: its detector's corners are pulled by the
//! cover by a few tenths of a pixel, and enough of them, on a table of figures, bend the lens.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::time::Duration;

use calibration::{Intrinsics, TagSighting};
use vision::Mat;
use vision::refine::{CornerRefiner, Kept, RefineSettings, Refinement};

/// One offer to refine.
struct Job {
    image: Mat,
    offered: Vec<TagSighting>,
    lens: Intrinsics,
}

/// What came back: the offer refined, less the tags whose pixels are not their pattern (see the
/// module's documentation); or as the detector gave it, with why it could not be.
pub type Refined = Result<Vec<TagSighting>, (String, Vec<TagSighting>)>;

/// Whether a tag's refinement failed for its pixels not being its pattern's (see the module's
/// documentation); a tag too near the picture's edge or too small keeps its detector's corners.
fn covered(outcome: &Refinement) -> bool {
    matches!(
        outcome,
        Refinement::Kept(Kept::Misfit | Kept::TooFar | Kept::Unsettled)
    )
}

/// The refining thread, as the pipeline holds it.
pub struct Refining {
    jobs: Sender<Job>,
    refined: Receiver<Refined>,
    busy: bool,
}

impl Refining {
    /// A refining thread for tags of `family`; `None` when the family has no patterns to
    /// refine against or no thread can be started.
    pub fn start(family: &str) -> Option<Refining> {
        let mut refiner = CornerRefiner::new(family, RefineSettings::leaving_out_covers()).ok()?;
        let (jobs, incoming) = channel::<Job>();
        let (done, refined) = channel();
        let spawned = std::thread::Builder::new()
            .name("lens corners".into())
            .spawn(move || {
                // Ends when the pipeline drops its `Refining` (a new family, a moved camera).
                for job in incoming {
                    let mut refined = job.offered.clone();
                    let result = match refiner.refine(&job.image, Some(&job.lens), &mut refined) {
                        Ok(report) => Ok(refined
                            .into_iter()
                            .zip(report.outcomes)
                            .filter(|(_, outcome)| !covered(outcome))
                            .map(|(sighting, _)| sighting)
                            .collect()),
                        Err(e) => Err((e.to_string(), job.offered)),
                    };
                    if done.send(result).is_err() {
                        return;
                    }
                }
            });
        if let Err(e) = spawned {
            tracing::warn!("could not start refining the lens's corners: {e}");
            return None;
        }
        Some(Refining {
            jobs,
            refined,
            busy: false,
        })
    }

    /// Whether an offer is being refined.
    pub fn busy(&self) -> bool {
        self.busy
    }

    /// Send an offer, with a copy of its picture; gives the offer back when it cannot be sent.
    pub fn send(
        &mut self,
        image: &Mat,
        offered: Vec<TagSighting>,
        lens: Intrinsics,
    ) -> Result<(), Vec<TagSighting>> {
        let Ok(image) = vision::copy_image(image) else {
            return Err(offered);
        };
        match self.jobs.send(Job {
            image,
            offered,
            lens,
        }) {
            Ok(()) => {
                self.busy = true;
                Ok(())
            }
            Err(refused) => Err(refused.0.offered),
        }
    }

    /// The offer refined, once it is.
    pub fn take(&mut self) -> Option<Refined> {
        let received = self.refined.try_recv();
        self.finish(received.map_err(|e| e == TryRecvError::Disconnected))
    }

    /// Wait up to `limit` for the offer being refined (tests: the pipeline never waits).
    pub fn wait(&mut self, limit: Duration) -> Option<Refined> {
        if !self.busy {
            return None;
        }
        let received = self.refined.recv_timeout(limit);
        self.finish(received.map_err(|e| e == RecvTimeoutError::Disconnected))
    }

    /// What was received, or whether the thread is gone (its offer with it: the stands it
    /// held are still new on a later frame).
    fn finish(&mut self, received: Result<Refined, bool>) -> Option<Refined> {
        match received {
            Ok(refined) => {
                self.busy = false;
                Some(refined)
            }
            Err(stopped) => {
                if stopped && self.busy {
                    tracing::warn!("lens learning: the corner-refining thread stopped");
                    self.busy = false;
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use calibration::PixelVector;
    use vision::synthetic::{Effects, Renderer};

    use super::*;
    use crate::pipeline::demo::Demo;

    /// The mean distance of sightings' corners from the truth, in pixels.
    fn mean_error(sightings: &[TagSighting], truth: &[TagSighting]) -> f64 {
        let pairs = sightings.iter().zip(truth).flat_map(|(s, t)| {
            assert_eq!(s.id, t.id);
            s.corners.iter().zip(&t.corners)
        });
        let distances: Vec<f64> = pairs.map(|(a, b)| a.distance(b).0).collect();
        distances.iter().sum::<f64>() / distances.len() as f64
    }

    /// The demo table's picture and the true sightings of its first `tags` tags.
    fn demo_picture(tags: usize) -> (Demo, Mat, Vec<TagSighting>) {
        let demo = Demo::new().expect("the demo");
        let world = demo.stage(0);
        let image = Renderer::new()
            .render(&world, &demo.camera, &Effects::IDEAL)
            .expect("rendered");
        let truth = world
            .tags()
            .filter_map(|tag| tag.as_seen(&demo.camera))
            .take(tags)
            .collect();
        (demo, image, truth)
    }

    #[test]
    fn an_offer_comes_back_refined_from_its_thread() {
        let (demo, image, truth) = demo_picture(6);
        // As a detector might give them: every corner half a pixel out.
        let offered: Vec<TagSighting> = truth
            .iter()
            .map(|t| TagSighting {
                id: t.id,
                corners: t.corners.map(|c| c + PixelVector::new(0.4, -0.3)),
            })
            .collect();
        let mut refining = Refining::start(&demo.anchors.family).expect("a refining thread");
        assert!(!refining.busy() && refining.take().is_none());
        refining
            .send(&image, offered.clone(), demo.camera.intrinsics)
            .expect("sent");
        assert!(refining.busy());
        let refined = refining
            .wait(Duration::from_secs(120))
            .expect("back")
            .expect("refined");
        assert!(!refining.busy());
        let (before, after) = (mean_error(&offered, &truth), mean_error(&refined, &truth));
        assert!(
            after < before / 4.0,
            "{before:.3} px sent, {after:.3} px back"
        );
    }

    #[test]
    fn a_tag_whose_pixels_are_not_its_pattern_is_not_offered() {
        let (demo, image, truth) = demo_picture(2);
        // The second tag's corners, said to be another id: its pixels are not that pattern,
        // as a tag mostly under a figure's are not its own.
        let stranger = TagSighting {
            id: truth[1].id + 100,
            ..truth[1]
        };
        let mut refining = Refining::start(&demo.anchors.family).expect("a refining thread");
        refining
            .send(&image, vec![truth[0], stranger], demo.camera.intrinsics)
            .expect("sent");
        let refined = refining
            .wait(Duration::from_secs(120))
            .expect("back")
            .expect("refined");
        let ids: Vec<u32> = refined.iter().map(|s| s.id).collect();
        assert_eq!(ids, vec![truth[0].id]);
    }

    #[test]
    fn a_family_without_patterns_has_no_refining_thread() {
        assert!(Refining::start("no-such-family").is_none());
    }
}
