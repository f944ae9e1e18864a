//! # Vedette calibration
//!
//! Maps the camera's pixels to table inches: camera intrinsics and lens distortion, the table
//! plane from anchor tags of known position, and the correction for a tag's height above the
//! table. Calibrations are saved and loaded with serde.
//!
//! This crate sits between `vision` (which finds tags in pixels) and `rules` (which works in
//! table inches); it depends on `rules` only for the table's units and types.
//!
//! Status: the camera half of Vedette is built by a later issue; the crate exists now so that
//! the dependency direction `ui → vision → calibration → rules` holds from the start.
