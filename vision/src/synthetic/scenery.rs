//! How busy the picture is beyond the tags.
//!
//! A plain table (flat cloth, flat-coloured stands) is what most tests want: nothing but the
//! tags has an edge. A real table is busy: flocked mats with grain and tufts, and stands crowded
//! with painted figures. The AprilTag detector pays for every pixel whose tile has contrast
//! (thresholding, union-find, edge clusters, quad fits), so its cost on a plain table says
//! little about its cost at a club. [`Scenery::Busy`] paints that detail, deterministically
//! from a seed, so benchmarks can measure a detector on a table like the real ones.
//!
//! The detail is flat paint: nothing rises above a stand's top, so which tags the camera sees
//! whole is unchanged.

use rules::geometry::TablePoint;

use super::colour::Rgb;

/// How busy the picture is beyond the tags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scenery {
    /// Flat cloth and flat-coloured stands.
    #[default]
    Plain,
    /// A flocked mat (mottling, grain and tufts) and stands painted with ranks of figures.
    Busy {
        /// Seed of the detail.
        seed: u64,
    },
}

/// Size of a flock grain, inches: about a pixel of a 1080p camera over a 6' table.
const GRAIN: f64 = 0.05;
/// Spacing of tuft sites, inches.
const TUFT_CELL: f64 = 0.6;
/// Size of a painted detail on a figure (a hat, a face, a crossbelt), inches.
const FIGURE_DETAIL: f64 = 0.1;

impl Scenery {
    /// The mat's colour at `p`, given the cloth's base colour.
    pub fn ground(self, cloth: Rgb, p: &TablePoint) -> Rgb {
        let Scenery::Busy { seed } = self else {
            return cloth;
        };
        let mottle = 14.0 * value_noise(seed, p, 3.0) + 9.0 * value_noise(seed ^ 1, p, 0.7);
        let grain = 24.0 * (unit(hash(seed ^ 2, cell(p.x, GRAIN), cell(p.y, GRAIN))) - 0.5);
        let tuft = tuft(seed, p);
        shade(cloth, mottle + grain + tuft)
    }

    /// A stand's top at `local` (inches from its centre, across and forward), painted in its
    /// `colour`: a stand of figures when the scenery is busy.
    pub fn stand_top(self, colour: Rgb, local: (f64, f64)) -> Rgb {
        let Scenery::Busy { seed } = self else {
            return colour;
        };
        let (i, j) = (cell(local.0, FIGURE_DETAIL), cell(local.1, FIGURE_DETAIL));
        // Coat colour most of the time; the rest black hats and boots, faces, white belts.
        match hash(seed ^ 3, i, j) % 10 {
            0 | 1 => Rgb(25, 24, 26),
            2 => Rgb(214, 170, 140),
            3 => Rgb(226, 224, 216),
            4 => Rgb(70, 58, 40),
            _ => shade(colour, 30.0 * (unit(hash(seed ^ 4, i, j)) - 0.5)),
        }
    }
}

/// A darker or lighter tuft of grass round some of the sites of a grid.
fn tuft(seed: u64, p: &TablePoint) -> f64 {
    let (i, j) = (cell(p.x, TUFT_CELL), cell(p.y, TUFT_CELL));
    let h = hash(seed ^ 5, i, j);
    if h % 100 >= 18 {
        return 0.0;
    }
    // The tuft's centre somewhere in its cell, a radius of 0.1"–0.2".
    let cx = (i as f64 + 0.2 + 0.6 * unit(h >> 8)) * TUFT_CELL;
    let cy = (j as f64 + 0.2 + 0.6 * unit(h >> 24)) * TUFT_CELL;
    let radius = 0.1 + 0.1 * unit(h >> 40);
    if (p.x - cx).hypot(p.y - cy) > radius {
        return 0.0;
    }
    if h.is_multiple_of(2) { -40.0 } else { 35.0 }
}

/// Smooth noise in [-1, 1] with features of about `scale` inches (bilinear value noise).
fn value_noise(seed: u64, p: &TablePoint, scale: f64) -> f64 {
    let (x, y) = (p.x / scale, p.y / scale);
    let (i, j) = (x.floor(), y.floor());
    let (fx, fy) = (smooth(x - i), smooth(y - j));
    let (i, j) = (i as i64, j as i64);
    let at = |di: i64, dj: i64| 2.0 * unit(hash(seed, i + di, j + dj)) - 1.0;
    let top = at(0, 0) * (1.0 - fx) + at(1, 0) * fx;
    let bottom = at(0, 1) * (1.0 - fx) + at(1, 1) * fx;
    top * (1.0 - fy) + bottom * fy
}

fn smooth(t: f64) -> f64 {
    t * t * (3.0 - 2.0 * t)
}

fn cell(v: f64, size: f64) -> i64 {
    (v / size).floor() as i64
}

/// SplitMix64 of a seed and a lattice cell.
fn hash(seed: u64, i: i64, j: i64) -> u64 {
    let mut z = seed
        .wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add((j as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The low bits of a hash as a number in [0, 1).
fn unit(h: u64) -> f64 {
    (h & 0xFFFF) as f64 / 65_536.0
}

/// A colour made lighter (positive) or darker (negative) by `levels` grey levels.
fn shade(c: Rgb, levels: f64) -> Rgb {
    let add = |v: u8| (f64::from(v) + levels).round().clamp(0.0, 255.0) as u8;
    Rgb(add(c.0), add(c.1), add(c.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread(values: &[f64]) -> f64 {
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64).sqrt()
    }

    fn greens(scenery: Scenery) -> Vec<f64> {
        (0..400)
            .map(|k| {
                let p = TablePoint::new(10.0 + 0.013 * f64::from(k), 20.0 + 0.007 * f64::from(k));
                f64::from(scenery.ground(Rgb(86, 120, 70), &p).1)
            })
            .collect()
    }

    #[test]
    fn a_plain_table_is_flat_and_a_busy_one_has_grain_a_detector_must_look_at() {
        assert_eq!(spread(&greens(Scenery::Plain)), 0.0);
        // Grain well above a detector's minimum black–white difference of 5 levels.
        assert!(spread(&greens(Scenery::Busy { seed: 1 })) > 8.0);
    }

    #[test]
    fn busy_detail_is_the_same_for_the_same_seed_and_differs_between_seeds() {
        let (a, b) = (Scenery::Busy { seed: 1 }, Scenery::Busy { seed: 2 });
        assert_eq!(greens(a), greens(a));
        assert_ne!(greens(a), greens(b));
    }

    #[test]
    fn busy_stands_show_figures_in_several_colours() {
        let busy = Scenery::Busy { seed: 1 };
        let mut colours: Vec<Rgb> = (0..100)
            .map(|k| {
                busy.stand_top(
                    Rgb(168, 42, 38),
                    (0.05 * f64::from(k % 10), 0.1 * f64::from(k / 10)),
                )
            })
            .collect();
        colours.dedup();
        assert!(colours.len() > 20);
        assert_eq!(
            Scenery::Plain.stand_top(Rgb(1, 2, 3), (0.3, 0.4)),
            Rgb(1, 2, 3)
        );
    }
}
