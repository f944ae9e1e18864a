//! Webcam lenses as people really have them, for the synthetic camera: the kinds of lens, and a
//! random one of each kind within the ranges real webcams show (horizontal field of view 60–90°,
//! k1 from −0.35 to +0.15, k2 from −0.1 to +0.15, small tangential terms, the principal point up
//! to 2 % off centre).

use calibration::{Distortion, ImageSize, Intrinsics, PixelPoint};
use rules::units::Degrees;

use super::noise::Noise;

/// A kind of webcam lens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LensClass {
    /// An ideal 70° lens: the camera the benchmarks had before lenses were modelled.
    DistortionFree,
    /// An ordinary webcam, 60–72° across, mild barrel distortion or a little pincushion.
    Ordinary,
    /// A 60–70° lens with pincushion distortion (straight lines bow inwards).
    Pincushion,
    /// A wide webcam clamped over a big table, 80–90° across, with strong barrel distortion
    /// (tens of pixels at the picture's corners).
    Wide,
}

/// Ranges of one kind of lens: (low, high) for each number.
struct Ranges {
    field_of_view: (f64, f64),
    k1: (f64, f64),
    k2: (f64, f64),
    k3: (f64, f64),
    tangential: f64,
    off_centre: f64,
}

impl LensClass {
    /// Every kind, the ideal lens first.
    pub const ALL: [LensClass; 4] = [
        LensClass::DistortionFree,
        LensClass::Ordinary,
        LensClass::Pincushion,
        LensClass::Wide,
    ];

    /// The kind's name, as the benchmarks print it.
    pub fn name(self) -> &'static str {
        match self {
            LensClass::DistortionFree => "distortion-free 70°",
            LensClass::Ordinary => "ordinary 60–72°",
            LensClass::Pincushion => "pincushion 60–70°",
            LensClass::Wide => "wide 80–90°",
        }
    }

    fn ranges(self) -> Ranges {
        match self {
            LensClass::DistortionFree => Ranges {
                field_of_view: (70.0, 70.0),
                k1: (0.0, 0.0),
                k2: (0.0, 0.0),
                k3: (0.0, 0.0),
                tangential: 0.0,
                off_centre: 0.0,
            },
            LensClass::Ordinary => Ranges {
                field_of_view: (60.0, 72.0),
                k1: (-0.15, 0.05),
                k2: (-0.05, 0.10),
                k3: (0.0, 0.0),
                tangential: 0.001,
                off_centre: 0.01,
            },
            LensClass::Pincushion => Ranges {
                field_of_view: (60.0, 70.0),
                k1: (0.05, 0.15),
                k2: (-0.10, 0.0),
                k3: (0.0, 0.0),
                tangential: 0.001,
                off_centre: 0.01,
            },
            LensClass::Wide => Ranges {
                field_of_view: (80.0, 90.0),
                k1: (-0.35, -0.20),
                k2: (0.05, 0.15),
                k3: (-0.02, 0.0),
                tangential: 0.002,
                off_centre: 0.02,
            },
        }
    }

    /// A lens of this kind for pictures of `size`, drawn from `seed`. Only lenses that map the
    /// whole picture one to one are drawn (a real lens never shows one direction twice).
    pub fn sample(self, size: ImageSize, seed: u64) -> Intrinsics {
        let ranges = self.ranges();
        let mut noise = Noise::new(seed);
        let mut pick = |(low, high): (f64, f64)| low + (high - low) * noise.uniform();
        loop {
            let fov = pick(ranges.field_of_view);
            let distortion = Distortion {
                k1: pick(ranges.k1),
                k2: pick(ranges.k2),
                k3: pick(ranges.k3),
                p1: pick((-ranges.tangential, ranges.tangential)),
                p2: pick((-ranges.tangential, ranges.tangential)),
            };
            let centre = size.center();
            let shift = |extent: u32, p: f64| p * f64::from(extent) * ranges.off_centre;
            let lens = Intrinsics {
                principal_point: PixelPoint::new(
                    centre.x + shift(size.width, pick((-1.0, 1.0))),
                    centre.y + shift(size.height, pick((-1.0, 1.0))),
                ),
                distortion,
                ..Intrinsics::from_field_of_view(size, Degrees(fov))
            };
            if shows_the_whole_picture(&lens) {
                return lens;
            }
        }
    }
}

/// Whether the lens maps every pixel of its picture one to one (with a margin past the
/// corners).
fn shows_the_whole_picture(lens: &Intrinsics) -> bool {
    let size = lens.image_size;
    let (w, h) = (f64::from(size.width), f64::from(size.height));
    let reach = [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)]
        .iter()
        .map(|&(x, y)| {
            let (nx, ny) = lens.to_normalized(&PixelPoint::new(x, y));
            nx.hypot(ny)
        })
        .fold(0.0, f64::max);
    reach.is_finite() && lens.distortion.is_one_to_one_within(1.1 * reach)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HD: ImageSize = ImageSize {
        width: 1920,
        height: 1080,
    };

    #[test]
    fn every_kind_stays_within_its_ranges_and_maps_the_picture_one_to_one() {
        for class in LensClass::ALL {
            for seed in 0..50 {
                let lens = class.sample(HD, seed);
                let fov = lens.horizontal_field_of_view().0;
                let r = class.ranges();
                assert!(fov >= r.field_of_view.0 - 1e-9 && fov <= r.field_of_view.1 + 1e-9);
                assert!(lens.distortion.k1 >= r.k1.0 && lens.distortion.k1 <= r.k1.1);
                assert!(shows_the_whole_picture(&lens), "{class:?} {seed}");
                let (cx, cy) = (HD.center().x, HD.center().y);
                assert!((lens.principal_point.x - cx).abs() <= 0.02 * 1920.0 + 1e-9);
                assert!((lens.principal_point.y - cy).abs() <= 0.02 * 1080.0 + 1e-9);
            }
        }
    }

    #[test]
    fn a_wide_lens_bends_the_picture_corners_by_tens_of_pixels() {
        let lens = LensClass::Wide.sample(HD, 3);
        let ideal = Intrinsics {
            distortion: Distortion::default(),
            ..lens
        };
        // A point near the picture's corner, through both lenses.
        let (x, y) = ideal.to_normalized(&PixelPoint::new(60.0, 60.0));
        let bent = lens.to_pixel(x, y).distance(&PixelPoint::new(60.0, 60.0)).0;
        assert!(bent > 30.0, "only {bent:.1} px");
    }
}
