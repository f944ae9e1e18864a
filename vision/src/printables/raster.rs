//! Pages as pictures, through resvg: PNG previews and the round-trip tests' input.

use std::sync::{Arc, OnceLock};

use opencv::core::Mat;
use resvg::{tiny_skia, usvg};

use super::{Mm, Page, PrintError};

/// Fonts for the labels: the system's, loaded once (without any, labels are left out but
/// the tags, lines and scale bar are drawn). The battle report's pages use them too.
pub fn svg_options() -> usvg::Options<'static> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    let fonts = FONTS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        Arc::new(db)
    });
    usvg::Options {
        fontdb: Arc::clone(fonts),
        ..usvg::Options::default()
    }
}

/// A rasterised page.
pub struct Raster {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// RGBA, row by row, opaque.
    pub rgba: Vec<u8>,
}

impl Raster {
    /// The page as an OpenCV picture (BGR), for the detector.
    pub fn to_mat(&self) -> Result<Mat, PrintError> {
        Ok(crate::from_rgba(self.width, self.height, &self.rgba)?)
    }
}

/// Draw a page at `dpi` dots per inch.
pub fn rasterise(page: &Page, dpi: f64) -> Result<Raster, PrintError> {
    let tree = usvg::Tree::from_str(&page.svg(), &svg_options())
        .map_err(|e| PrintError::Raster(e.to_string()))?;
    let pixels = |length: Mm| (length.inches().0 * dpi).round() as u32;
    let (width, height) = (pixels(page.paper.width), pixels(page.paper.height));
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| PrintError::Raster(format!("a {width}×{height} picture")))?;
    // The tree is in CSS pixels (96 a inch).
    let scale = (dpi / 96.0) as f32;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(Raster {
        width,
        height,
        rgba: pixmap.take(),
    })
}

/// A page as PNG bytes.
pub fn png(page: &Page, dpi: f64) -> Result<Vec<u8>, PrintError> {
    let raster = rasterise(page, dpi)?;
    let pixmap = tiny_skia::Pixmap::from_vec(
        raster.rgba,
        tiny_skia::IntSize::from_wh(raster.width, raster.height)
            .ok_or_else(|| PrintError::Raster("an empty picture".into()))?,
    )
    .ok_or_else(|| PrintError::Raster("a picture of the wrong size".into()))?;
    pixmap
        .encode_png()
        .map_err(|e| PrintError::Raster(e.to_string()))
}
