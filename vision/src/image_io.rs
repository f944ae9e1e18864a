//! Reading and writing image files through OpenCV, with errors that name the file.

use std::path::Path;

use opencv::core::{Mat, MatTraitConst, MatTraitConstManual, Vector, VectorToVec};
use opencv::imgcodecs;

use crate::error::VisionError;

/// The narrowest picture worked on: the smallest tag the detector finds is about ten pixels
/// across, and the AprilTag library crashes on pictures a pixel or two high.
pub const NARROWEST_PICTURE: u32 = 16;

/// The most pixels a picture may have: 64 megapixels (a phone's 48 MP photo fits). Detection
/// takes about 14 bytes a pixel, so a 20000×20000 picture would want 5.6 GB.
pub const LARGEST_PICTURE: u64 = 64_000_000;

/// Refuse a picture too small to hold a tag or too large to work on, saying why.
pub fn check_picture_size(size: calibration::ImageSize) -> Result<(), VisionError> {
    let why = if size.width.min(size.height) < NARROWEST_PICTURE {
        format!(
            "is too small to hold a tag: Vedette needs at least {NARROWEST_PICTURE}×{NARROWEST_PICTURE} pixels"
        )
    } else if u64::from(size.width) * u64::from(size.height) > LARGEST_PICTURE {
        format!(
            "is too large: Vedette works on pictures of up to {} megapixels; scale it down first (a 4K picture, 3840×2160, is plenty)",
            LARGEST_PICTURE / 1_000_000
        )
    } else {
        return Ok(());
    };
    Err(VisionError::PictureSize { size, why })
}

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
    // The header's size, where the format is known, refuses a huge picture before it is
    // decoded into gigabytes.
    if let Some(size) = header_size(path) {
        check_picture_size(size).map_err(|e| unreadable(e.to_string()))?;
    }
    let image = imgcodecs::imread(path, flags).map_err(|e| unreadable(e.message))?;
    if image.empty() {
        return Err(unreadable(
            "OpenCV cannot decode it as an image (corrupt, truncated, or another kind of file)"
                .into(),
        ));
    }
    check_picture_size(image_size(&image)).map_err(|e| unreadable(e.to_string()))?;
    Ok(image)
}

/// A PNG's or JPEG's size from its header, without decoding it.
fn header_size(path: &Path) -> Option<calibration::ImageSize> {
    let reader = image::ImageReader::open(path)
        .ok()?
        .with_guessed_format()
        .ok()?;
    let (width, height) = reader.into_dimensions().ok()?;
    Some(calibration::ImageSize { width, height })
}

/// Whether a picture can be written under this name: its extension names a format OpenCV
/// writes (`.png`, `.jpg` …).
pub fn writable_picture_name(path: &Path) -> bool {
    path.extension().is_some() && imgcodecs::have_image_writer(path).unwrap_or(false)
}

/// Write an image; the format follows the extension (`.png`, `.jpg` …).
pub fn write_image(path: &Path, image: &Mat) -> Result<(), VisionError> {
    let unwritable = |reason: String| VisionError::UnwritableImage {
        file: path.to_owned(),
        reason,
    };
    if !writable_picture_name(path) {
        return Err(unwritable(
            "not a picture format Vedette writes: name it .png or .jpg".into(),
        ));
    }
    match imgcodecs::imwrite(path, image, &Vector::new()) {
        Ok(true) => Ok(()),
        Ok(false) => Err(unwritable(
            "OpenCV could not write it (unknown extension?)".into(),
        )),
        Err(e) => Err(unwritable(e.message)),
    }
}

/// A copy of an image, to hand to another thread (`Mat`'s `Clone` panics when the copy
/// cannot be made; this says so instead).
pub fn copy_image(image: &Mat) -> Result<Mat, VisionError> {
    Ok(image.try_clone()?)
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

/// The pixels of a BGR (or grey) picture as tightly packed RGBA, for a UI texture: the app
/// shows frames without depending on OpenCV itself.
pub fn to_rgba(image: &Mat) -> Result<Vec<u8>, VisionError> {
    let code = match image.channels() {
        1 => opencv::imgproc::COLOR_GRAY2RGBA,
        3 => opencv::imgproc::COLOR_BGR2RGBA,
        4 => opencv::imgproc::COLOR_BGRA2RGBA,
        n => {
            return Err(VisionError::Image(format!(
                "a picture with {n} channels cannot be shown"
            )));
        }
    };
    let mut rgba = Mat::default();
    opencv::imgproc::cvt_color_def(image, &mut rgba, code)?;
    let rgba = if rgba.is_continuous() {
        rgba
    } else {
        rgba.try_clone()?
    };
    Ok(rgba.data_bytes()?.to_vec())
}

/// A BGR picture from tightly packed RGBA pixels (the inverse of [`to_rgba`]).
pub fn from_rgba(width: u32, height: u32, rgba: &[u8]) -> Result<Mat, VisionError> {
    if rgba.len() != width as usize * height as usize * 4 || width == 0 || height == 0 {
        return Err(VisionError::Image(format!(
            "a {width}×{height} RGBA picture came with {} bytes",
            rgba.len()
        )));
    }
    let flat = Mat::from_slice(rgba)?;
    let shaped = flat.reshape(4, height as i32)?;
    let mut bgr = Mat::default();
    opencv::imgproc::cvt_color_def(&shaped, &mut bgr, opencv::imgproc::COLOR_RGBA2BGR)?;
    Ok(bgr)
}

#[cfg(test)]
mod rgba_tests {
    use super::*;

    #[test]
    fn rgba_round_trips_and_swaps_channels() {
        let rgba: Vec<u8> = [10u8, 20, 30, 255].repeat(6);
        let bgr = from_rgba(3, 2, &rgba).expect("valid size");
        assert_eq!(image_size(&bgr).width, 3);
        let pixel = *bgr
            .at_2d::<opencv::core::Vec3b>(1, 2)
            .expect("inside the picture");
        assert_eq!(pixel.0, [30, 20, 10]);
        assert_eq!(to_rgba(&bgr).expect("BGR converts"), rgba);
        assert!(from_rgba(3, 3, &rgba).is_err());
    }
}
