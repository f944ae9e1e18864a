//! Reading and writing image files through OpenCV, with errors that name the file.

use std::path::Path;

use opencv::core::{Mat, MatTraitConst, Vector, VectorToVec};
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

/// The size of an image.
pub fn image_size(image: &Mat) -> calibration::ImageSize {
    calibration::ImageSize {
        width: image.cols().max(0) as u32,
        height: image.rows().max(0) as u32,
    }
}

/// An image compressed as JPEG, as a webcam sends it.
pub fn encode_jpeg(image: &Mat, quality: u8) -> Result<Vec<u8>, VisionError> {
    let mut buffer = Vector::<u8>::new();
    let params =
        Vector::from_slice(&[imgcodecs::IMWRITE_JPEG_QUALITY, i32::from(quality.min(100))]);
    imgcodecs::imencode(".jpg", image, &mut buffer, &params)?;
    Ok(buffer.to_vec())
}

/// Decode a compressed image (JPEG, PNG …) held in memory.
pub fn decode_image(bytes: &[u8]) -> Result<Mat, VisionError> {
    let image = imgcodecs::imdecode(&Vector::<u8>::from_slice(bytes), imgcodecs::IMREAD_COLOR)?;
    if image.empty() {
        return Err(VisionError::Image(
            "the compressed frame could not be decoded".into(),
        ));
    }
    Ok(image)
}
