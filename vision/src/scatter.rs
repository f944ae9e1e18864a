//! How far a picture's tag corners scatter against the noise the error bars assume: the
//! a-posteriori variance factor of photogrammetry, per picture and per part of it.
//!
//! Decisions:
//! - Each tag placed says how far its four corners stray from a square of their own
//!   ([`crate::uncertainty::shape_misfit`]): four degrees of freedom of pure corner noise,
//!   free of the tag's place, turn, size and height. What a blur, a compression or a sensor's
//!   grain does to corners that no model of this camera foresaw shows there first.
//! - The factor is the median misfit per degree of freedom over the tags, against the median
//!   Vedette's own synthetic camera gives ([`OWN_MISFIT`], measured by `vedette bench
//!   accuracy`): the median, because a tag under a hand or a figure strays for its own reasons
//!   and is judged apart (see `crate::health`). Corners tighter than the model's (a still
//!   picture's, refined against their patterns) narrow the bars, to no less than
//!   [`NARROWEST`] of the model's with [`NARROWING_TAGS`] tags or more to say so: what no
//!   residual sees (the print, the refinement's bias, errors every corner of a tag shares)
//!   keeps a third of the model's bar. Measured: at that floor a still picture's facings on
//!   the own rendering hold 95–100 % of the truth (at half, 100 % at twice their errors).
//! - The picture is cut into a 3 × 3 grid; a part with [`REGION_TAGS`] tags or more has a
//!   factor of its own (a lens soft at its edges, a light's glare in one corner), the others
//!   the whole picture's. A part never counts below the whole picture.
//! - A tag whose own corners stray further than its part's widens its own bar by the mean of
//!   the two (in variance): aliased or blurred edges spoil some tags far more than others,
//!   and a part's median says nothing of which.

use calibration::{ImageSize, PixelPoint};
use serde::Serialize;

/// The median misfit per degree of freedom of tags in Vedette's own synthetic pictures (its
/// webcam's blur, noise and JPEG): the scatter the corner noise model was fitted to. Measured
/// by `vedette bench accuracy --rendering own --rendered-tables 1` (seed 1, 30° from
/// vertical, where the model's constants were fitted): 1.41 as a spread over the noise model's
/// per-corner figure, 1.30–1.52 from picture to picture across the four lens kinds. Over
/// 30°–50° (`--rendered-tables 2`) the own pictures read 0.92–1.32 against it, median 1.18:
/// the steeper views' smaller tags stray a little more than the model says, and are widened
/// for it.
pub const OWN_MISFIT: f64 = 2.0;

/// The least factor: corners tighter than the model's narrow the bars to no less than this.
pub const NARROWEST: f64 = 0.35;

/// Tags a picture needs before its corners may narrow the bars.
pub const NARROWING_TAGS: usize = 12;

/// A factor from which the player is told (see [`Scatter::describe`]).
pub const TOLD: f64 = 1.5;

/// Tags a part of the picture needs for a factor of its own: the median of fewer strays too far
/// by chance (of four tags' as noisy as the model, one part in twenty reads half as wide again).
pub const REGION_TAGS: usize = 8;

/// The parts of the picture along each side.
const GRID: usize = 3;

/// Degrees of freedom of one tag's misfit: eight coordinates less a square's four numbers.
const TAG_FREEDOM: f64 = 4.0;

/// How far a picture's corners scatter against the model (see the module's decisions).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scatter {
    /// The whole picture's factor.
    picture: f64,
    /// Each part's, row by row; `None` where too few tags were.
    parts: [Option<f64>; GRID * GRID],
    #[serde(skip)]
    size: ImageSize,
}

impl Scatter {
    /// No evidence: every factor 1.
    pub fn none(size: ImageSize) -> Scatter {
        Scatter {
            picture: 1.0,
            parts: [None; GRID * GRID],
            size,
        }
    }

    /// From the tags of one picture: where each lies, and its misfit.
    pub fn of(size: ImageSize, tags: &[(PixelPoint, f64)]) -> Scatter {
        let all: Vec<f64> = tags.iter().map(|(_, misfit)| *misfit).collect();
        let Some(picture) = factor(&all) else {
            return Scatter::none(size);
        };
        let mut parts = [None; GRID * GRID];
        for (index, part) in parts.iter_mut().enumerate() {
            let here: Vec<f64> = tags
                .iter()
                .filter(|(at, misfit)| misfit.is_finite() && part_of(size, at) == index)
                .map(|(_, misfit)| *misfit)
                .collect();
            if here.len() >= REGION_TAGS {
                *part = factor(&here).map(|f| f.max(picture));
            }
        }
        Scatter {
            picture,
            parts,
            size,
        }
    }

    /// The whole picture's factor.
    pub fn picture(&self) -> f64 {
        self.picture
    }

    /// The factor for a tag at `at` in the picture.
    pub fn at(&self, at: &PixelPoint) -> f64 {
        self.parts[part_of(self.size, at)].unwrap_or(self.picture)
    }

    /// The factor for a tag at `at` whose own corners strayed by `misfit` (see
    /// [`crate::uncertainty::shape_misfit`]): its part's, or more where the tag itself strays
    /// further. One tag's four degrees of freedom say little alone (its misfit over four
    /// scatters by a factor of two), so its own evidence is weighed equally with its part's.
    pub fn for_tag(&self, at: &PixelPoint, misfit: f64) -> f64 {
        let part = self.at(at).powi(2);
        let own = misfit / TAG_FREEDOM / OWN_MISFIT;
        if !own.is_finite() {
            return part.sqrt();
        }
        part.max((own + part) / 2.0).sqrt()
    }

    /// In words, when the bars are widened by half or more: how far, and the likely causes.
    pub fn describe(&self) -> Option<String> {
        let widest = self.widest();
        if widest < TOLD {
            return None;
        }
        let part = if widest > self.picture * 1.2 {
            format!(", up to {widest:.1}× in one part of the picture")
        } else {
            String::new()
        };
        Some(format!(
            "the tags' corners scatter {:.1}× as far as a sharp picture's{part} (out of focus, heavily compressed or noisy?) — error bars widened as much",
            self.picture
        ))
    }

    /// The widest factor of any part.
    pub fn widest(&self) -> f64 {
        self.parts
            .iter()
            .flatten()
            .fold(self.picture, |a, &b| a.max(b))
    }
}

/// The factor from tags' misfits: their median per degree of freedom against the own camera's,
/// as a spread (the square root), at least [`NARROWEST`] (1 from fewer than
/// [`NARROWING_TAGS`] tags); `None` with no tags.
fn factor(misfits: &[f64]) -> Option<f64> {
    let mut sorted: Vec<f64> = misfits.iter().copied().filter(|m| m.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2] / TAG_FREEDOM;
    let least = if sorted.len() >= NARROWING_TAGS {
        NARROWEST
    } else {
        1.0
    };
    Some((median / OWN_MISFIT).sqrt().max(least))
}

/// The part of the picture a point lies in, row by row.
fn part_of(size: ImageSize, at: &PixelPoint) -> usize {
    let cell = |v: f64, extent: u32| {
        ((v / f64::from(extent.max(1)) * GRID as f64)
            .floor()
            .max(0.0) as usize)
            .min(GRID - 1)
    };
    cell(at.y, size.height) * GRID + cell(at.x, size.width)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HD: ImageSize = ImageSize {
        width: 1920,
        height: 1080,
    };

    fn spread(misfit: f64, count: usize) -> Vec<(PixelPoint, f64)> {
        (0..count)
            .map(|i| {
                let x = 100.0 + 1700.0 * i as f64 / count as f64;
                (PixelPoint::new(x, 200.0 + (i % 5) as f64 * 150.0), misfit)
            })
            .collect()
    }

    #[test]
    fn corners_as_noisy_as_the_model_leave_the_bars_alone() {
        let scatter = Scatter::of(HD, &spread(TAG_FREEDOM * OWN_MISFIT, 30));
        assert_eq!(scatter.picture(), 1.0);
        assert_eq!(scatter.widest(), 1.0);
    }

    #[test]
    fn corners_four_times_as_scattered_double_the_bars_and_tighter_ones_halve_them_at_most() {
        let blurred = Scatter::of(HD, &spread(4.0 * TAG_FREEDOM * OWN_MISFIT, 30));
        assert!((blurred.picture() - 2.0).abs() < 1e-12);
        let tighter = Scatter::of(HD, &spread(0.64 * TAG_FREEDOM * OWN_MISFIT, 30));
        assert!((tighter.picture() - 0.8).abs() < 1e-12);
        let sharp = Scatter::of(HD, &spread(0.01, 30));
        assert_eq!(sharp.picture(), NARROWEST);
        // Too few tags to say the model is too wide.
        let few = Scatter::of(HD, &spread(0.01, NARROWING_TAGS - 1));
        assert_eq!(few.picture(), 1.0);
    }

    #[test]
    fn a_part_of_the_picture_scattering_more_widens_only_its_own_tags() {
        let mut tags = spread(TAG_FREEDOM * OWN_MISFIT, 30);
        // Ten tags in the top left corner, nine times as scattered.
        for i in 0..10 {
            tags.push((
                PixelPoint::new(50.0 + 20.0 * i as f64, 60.0),
                9.0 * TAG_FREEDOM * OWN_MISFIT,
            ));
        }
        let scatter = Scatter::of(HD, &tags);
        assert!((scatter.at(&PixelPoint::new(100.0, 100.0)) - 3.0).abs() < 0.5);
        assert_eq!(
            scatter.at(&PixelPoint::new(1500.0, 900.0)),
            scatter.picture()
        );
        assert!(scatter.picture() < 1.5);
    }

    #[test]
    fn a_tag_straying_alone_widens_its_own_bar_by_half_its_own_evidence() {
        let scatter = Scatter::of(HD, &spread(TAG_FREEDOM * OWN_MISFIT, 30));
        let at = PixelPoint::new(900.0, 500.0);
        assert_eq!(scatter.for_tag(&at, TAG_FREEDOM * OWN_MISFIT), 1.0);
        assert_eq!(scatter.for_tag(&at, 0.0), 1.0);
        // Nine times the model's scatter, weighed with its part's one: five.
        let straying = scatter.for_tag(&at, 9.0 * TAG_FREEDOM * OWN_MISFIT);
        assert!((straying - 5f64.sqrt()).abs() < 1e-12, "{straying}");
        assert_eq!(scatter.for_tag(&at, f64::NAN), 1.0);
    }

    #[test]
    fn a_tag_or_two_under_a_hand_do_not_widen_the_picture() {
        let mut tags = spread(TAG_FREEDOM * OWN_MISFIT, 30);
        tags.push((PixelPoint::new(900.0, 500.0), 1e4));
        tags.push((PixelPoint::new(950.0, 520.0), f64::NAN));
        assert!(Scatter::of(HD, &tags).picture() < 1.1);
    }
}
