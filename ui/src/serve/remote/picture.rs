//! The camera's picture for remote players: a few a second, each within a size a home
//! connection carries — the JPEG's quality, then its width, follow what the last picture
//! weighed, so a busy table is sent a little softer rather than late.

use std::sync::Arc;
use std::time::Duration;

use live::pipeline::TableState;

use super::super::shared::Shared;
use super::sender::{RemoteStatus, Sender};

use super::super::frame::encode;

/// Pictures sent a second at most, while remote pages are there.
const PICTURES_PER_SECOND: f64 = 3.0;

/// The most a picture may weigh, bytes.
pub const BUDGET: usize = 100_000;
/// The widest picture sent, pixels: more than a laptop's half screen needs.
const WIDEST: u32 = 1600;
/// The narrowest it is let down to.
const NARROWEST: u32 = 480;
const BEST: u8 = 80;
const WORST: u8 = 35;

/// The next pictures' width and quality, and the frame last sent.
#[derive(Debug)]
pub struct Pictures {
    width: u32,
    quality: u8,
    last_frame: Option<u64>,
}

impl Default for Pictures {
    fn default() -> Pictures {
        Pictures {
            width: WIDEST,
            quality: 70,
            last_frame: None,
        }
    }
}

impl Pictures {
    /// The state's picture as JPEG within [`BUDGET`], unless it was sent already or there is
    /// none.
    pub async fn next(&mut self, state: &Arc<TableState>) -> Option<Vec<u8>> {
        let full = u32::try_from(state.frame.as_ref()?.size[0]).ok()?;
        if self.last_frame == Some(state.frame_index) {
            return None;
        }
        self.last_frame = Some(state.frame_index);
        // A picture over the budget is made again smaller at once: none is sent over it.
        for _ in 0..4 {
            let (width, quality) = (self.width.min(full), self.quality);
            let source = state.clone();
            let jpeg = tokio::task::spawn_blocking(move || encode(&source, width, quality))
                .await
                .ok()
                .flatten()?;
            let fits = self.learn(jpeg.len());
            if fits {
                return Some(jpeg);
            }
        }
        tracing::debug!("the picture does not fit {BUDGET} bytes: none sent");
        None
    }

    /// Follow a picture's weight: softer or narrower after a heavy one, sharper after a light
    /// one. Whether it was within the budget.
    fn learn(&mut self, bytes: usize) -> bool {
        if bytes > BUDGET {
            if self.quality > WORST {
                self.quality = self.quality.saturating_sub(10).max(WORST);
            } else {
                self.width = (self.width * 4 / 5).max(NARROWEST);
            }
            false
        } else {
            if bytes < BUDGET * 6 / 10 && self.quality < BEST {
                self.quality += 5;
            }
            true
        }
    }
}

/// Send the newest picture a few times a second while remote pages are there to see it.
pub(super) async fn send_pictures(
    sender: Sender,
    topic: String,
    shared: Arc<Shared>,
    status: Arc<RemoteStatus>,
) {
    let mut pictures = Pictures::default();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / PICTURES_PER_SECOND));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        if status.pages() == 0 {
            continue;
        }
        let Some(snapshot) = shared.feed.snapshot() else {
            continue;
        };
        if let Some(jpeg) = pictures.next(&snapshot.state).await {
            sender.send(&topic, &jpeg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heavy_pictures_soften_then_narrow_and_light_ones_sharpen() {
        let mut pictures = Pictures::default();
        assert!(!pictures.learn(BUDGET + 1));
        assert_eq!(pictures.quality, 60);
        for _ in 0..5 {
            pictures.learn(BUDGET * 2);
        }
        assert_eq!(pictures.quality, WORST);
        assert!(pictures.width < WIDEST);
        assert!(pictures.learn(BUDGET / 4));
        assert_eq!(pictures.quality, WORST + 5);
    }
}
