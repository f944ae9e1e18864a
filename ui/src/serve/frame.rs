//! The camera picture for pages: JPEG, at the width a page asks for (a phone needs far fewer
//! pixels than the camera gives), encoded once per frame and width and shared by every page.
//! One picture is encoded at a time, off the server's thread: fifty phones asking at once cost
//! one encoding, not fifty.

use std::sync::Arc;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{ImageBuffer, Rgb};

use live::pipeline::TableState;

/// Widths are rounded to a multiple of this, so pages of slightly different sizes share one.
const WIDTH_STEP: u32 = 160;

/// JPEG quality: the tags and the bases read well, the picture stays small.
const QUALITY: u8 = 75;

/// The latest encoded picture.
#[derive(Default)]
pub struct Frames(tokio::sync::Mutex<Option<Encoded>>);

struct Encoded {
    frame: u64,
    width: u32,
    jpeg: Arc<Vec<u8>>,
}

impl Frames {
    /// The state's picture as JPEG, `wanted` pixels wide at most (the camera's width if not
    /// given); `None` if the state has no picture.
    pub async fn jpeg(&self, state: &Arc<TableState>, wanted: Option<u32>) -> Option<Arc<Vec<u8>>> {
        let full = u32::try_from(state.frame.as_ref()?.size[0]).ok()?;
        let width = wanted
            .map(|w| (w.div_ceil(WIDTH_STEP) * WIDTH_STEP).clamp(WIDTH_STEP, full))
            .unwrap_or(full);
        let mut cache = self.0.lock().await;
        if let Some(done) = cache.as_ref()
            && done.frame == state.frame_index
            && done.width == width
        {
            return Some(done.jpeg.clone());
        }
        let source = state.clone();
        let jpeg = tokio::task::spawn_blocking(move || encode(&source, width, QUALITY))
            .await
            .ok()
            .flatten()
            .map(Arc::new)?;
        *cache = Some(Encoded {
            frame: state.frame_index,
            width,
            jpeg: jpeg.clone(),
        });
        Some(jpeg)
    }
}

/// The picture, scaled to `width`, as JPEG of `quality` (1–100).
pub(super) fn encode(state: &TableState, width: u32, quality: u8) -> Option<Vec<u8>> {
    let frame = state.frame.as_ref()?;
    let [w, h] = frame.size;
    let rgb = frame.rgb();
    let picture: ImageBuffer<Rgb<u8>, Vec<u8>> =
        ImageBuffer::from_raw(u32::try_from(w).ok()?, u32::try_from(h).ok()?, rgb)?;
    let picture = if width < picture.width() {
        let height = (u64::from(picture.height()) * u64::from(width) / u64::from(picture.width()))
            .max(1) as u32;
        image::imageops::resize(&picture, width, height, FilterType::Triangle)
    } else {
        picture
    };
    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, quality)
        .encode_image(&picture)
        .map_err(|e| tracing::warn!("cannot encode the picture for pages: {e}"))
        .ok()?;
    Some(jpeg)
}
