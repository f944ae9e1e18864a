//! Reading and writing image files through OpenCV, with errors that name the file.

use std::path::Path;

use opencv::core::{Mat, MatTraitConst, Vector};
use opencv::imgcodecs;

use crate::error::VisionError;

/// Read an image file as BGR (PNG, JPEG, TIFF, BMP … whatever OpenCV reads).
pub fn read_image(path: &Path) -> Result<Mat, VisionError> {
    read(path, imgcodecs::IMREAD_COLOR)
}

/// Read an image file as 8-bit grey (the luma of a JPEG, without a round trip through colour).
pub fn read_gray(path: &Path) -> Result<Mat, VisionError> {
    read(path, imgcodecs::IMREAD_GRAYSCALE)
}

fn read(path: &Path, flags: i32) -> Result<Mat, VisionError> {
    let unreadable = |reason: String| VisionError::UnreadableImage {
        file: path.to_owned(),
        reason,
    };
    if !path.is_file() {
        let reason = if path.exists() {
            "not a file"
        } else {
            "no such file"
        };
        return Err(unreadable(reason.into()));
    }
    let image = imgcodecs::imread(path, flags).map_err(|e| unreadable(e.message))?;
    if image.empty() {
        return Err(unreadable(
            "OpenCV cannot decode it as an image (corrupt, truncated, or another kind of file)"
                .into(),
        ));
    }
    Ok(image)
}

/// Write an image; the format follows the extension (`.png`, `.jpg` …).
pub fn write_image(path: &Path, image: &Mat) -> Result<(), VisionError> {
    let unwritable = |reason: String| VisionError::UnwritableImage {
        file: path.to_owned(),
        reason,
    };
    match imgcodecs::imwrite(path, image, &Vector::new()) {
        Ok(true) => Ok(()),
        Ok(false) => Err(unwritable(
            "OpenCV could not write it (unknown extension?)".into(),
        )),
        Err(e) => Err(unwritable(e.message)),
    }
}
