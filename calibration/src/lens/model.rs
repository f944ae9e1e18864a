//! Which of the lens's numbers a fit may change, and how they are scaled for the solver.
//!
//! A webcam's pixels are square, so one focal length serves both axes. The numbers are handed to
//! the solver in units of the image width (focal length, principal point offset) so that every
//! parameter moves a picture by a comparable amount for a comparable step.

use serde::{Deserialize, Serialize};

use crate::camera::Intrinsics;

/// One number of the lens model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LensParam {
    /// The focal length (square pixels: one for both axes).
    Focal,
    /// The principal point, across.
    CentreX,
    /// The principal point, down.
    CentreY,
    /// Radial distortion, r².
    K1,
    /// Radial distortion, r⁴.
    K2,
    /// Radial distortion, r⁶.
    K3,
    /// Tangential distortion.
    P1,
    /// Tangential distortion.
    P2,
}

impl LensParam {
    /// Every number of the model, in the order the ladder frees them.
    pub const ALL: [LensParam; 8] = [
        LensParam::Focal,
        LensParam::K1,
        LensParam::K2,
        LensParam::CentreX,
        LensParam::CentreY,
        LensParam::K3,
        LensParam::P1,
        LensParam::P2,
    ];

    /// The name a player reads.
    pub fn name(self) -> &'static str {
        match self {
            LensParam::Focal => "focal length",
            LensParam::CentreX | LensParam::CentreY => "principal point",
            LensParam::K1 => "k1",
            LensParam::K2 => "k2",
            LensParam::K3 => "k3",
            LensParam::P1 => "p1",
            LensParam::P2 => "p2",
        }
    }

    /// The value the solver sees.
    pub(crate) fn get(self, lens: &Intrinsics) -> f64 {
        let width = f64::from(lens.image_size.width);
        let centre = lens.image_size.center();
        let d = &lens.distortion;
        match self {
            LensParam::Focal => lens.focal_x.0 / width,
            LensParam::CentreX => (lens.principal_point.x - centre.x) / width,
            LensParam::CentreY => (lens.principal_point.y - centre.y) / width,
            LensParam::K1 => d.k1,
            LensParam::K2 => d.k2,
            LensParam::K3 => d.k3,
            LensParam::P1 => d.p1,
            LensParam::P2 => d.p2,
        }
    }

    /// Set from the value the solver sees.
    pub(crate) fn set(self, lens: &mut Intrinsics, value: f64) {
        let width = f64::from(lens.image_size.width);
        let centre = lens.image_size.center();
        let d = &mut lens.distortion;
        match self {
            LensParam::Focal => {
                lens.focal_x.0 = value * width;
                lens.focal_y.0 = value * width;
            }
            LensParam::CentreX => lens.principal_point.x = centre.x + value * width,
            LensParam::CentreY => lens.principal_point.y = centre.y + value * width,
            LensParam::K1 => d.k1 = value,
            LensParam::K2 => d.k2 = value,
            LensParam::K3 => d.k3 = value,
            LensParam::P1 => d.p1 = value,
            LensParam::P2 => d.p2 = value,
        }
    }
}

/// How much of the lens a fit measures: each step of the ladder frees more numbers, and a fit
/// climbs only as far as the tags in view pin the lens down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LensModel {
    /// Nothing: the lens is given and only the camera's pose and the tags' places are fitted.
    Fixed,
    /// The focal length alone (an ideal lens).
    Focal,
    /// The focal length and the main radial term, k1.
    FocalK1,
    /// Focal length, k1 and k2: what one picture of the table pins down (the principal point
    /// trades off against the camera's tilt in a single view of a plane).
    Radial,
    /// Focal length, k1, k2 and the principal point.
    RadialCentre,
    /// Everything: focal length, principal point, k1 k2 k3, p1 p2.
    Full,
}

impl LensModel {
    /// The models a self-calibration tries, simplest first.
    pub const LADDER: [LensModel; 5] = [
        LensModel::Focal,
        LensModel::FocalK1,
        LensModel::Radial,
        LensModel::RadialCentre,
        LensModel::Full,
    ];

    /// The numbers this model fits.
    pub fn free(self) -> &'static [LensParam] {
        let count = match self {
            LensModel::Fixed => 0,
            LensModel::Focal => 1,
            LensModel::FocalK1 => 2,
            LensModel::Radial => 3,
            LensModel::RadialCentre => 5,
            LensModel::Full => 8,
        };
        &LensParam::ALL[..count]
    }

    /// The numbers this model leaves as they were.
    pub fn held(self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = LensParam::ALL[self.free().len()..]
            .iter()
            .map(|p| p.name())
            .collect();
        names.dedup();
        names
    }

    /// What the model measures, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            LensModel::Fixed => "the lens as given",
            LensModel::Focal => "focal length only",
            LensModel::FocalK1 => "focal length and k1",
            LensModel::Radial => "focal length, k1 and k2",
            LensModel::RadialCentre => "focal length, k1, k2 and principal point",
            LensModel::Full => "focal length, principal point, k1 k2 k3 and p1 p2",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pixels::ImageSize;
    use rules::units::Degrees;

    #[test]
    fn every_number_set_reads_back() {
        let size = ImageSize {
            width: 1920,
            height: 1080,
        };
        let mut lens = Intrinsics::from_field_of_view(size, Degrees(80.0));
        for (k, param) in LensParam::ALL.iter().enumerate() {
            let value = 0.01 * (k as f64 + 1.0);
            param.set(&mut lens, value);
            assert!((param.get(&lens) - value).abs() < 1e-12, "{param:?}");
        }
        assert_eq!(lens.focal_x, lens.focal_y, "square pixels");
    }

    #[test]
    fn the_ladder_frees_more_at_each_step_and_says_what_it_holds() {
        for pair in LensModel::LADDER.windows(2) {
            assert!(pair[0].free().len() < pair[1].free().len());
        }
        assert_eq!(LensModel::Full.held(), Vec::<&str>::new());
        assert_eq!(
            LensModel::FocalK1.held(),
            vec!["k2", "principal point", "k3", "p1", "p2"]
        );
    }
}
