//! The cloth's colour, learnt from the picture itself: the commonest chroma of the table's
//! plan, and how much the mat's own mottling spreads round it.
//!
//! Decisions:
//! - The cloth is the mode of chroma (a, b), not the mean: terrain may cover a third of the
//!   table and would pull a mean towards itself.
//! - Lightness is judged against the cloth's brightness near each point ([`Cloth::local`]), not
//!   one value: a lamp lights one end of a real table more than the other.

use super::plan::{PER_INCH, Plan};

/// The cloth as the plan shows it.
#[derive(Clone, Debug)]
pub struct Cloth {
    /// Its chroma, a and b.
    pub chroma: [f32; 2],
    /// How far its own pixels' chroma spreads (median distance from `chroma`).
    pub chroma_spread: f32,
    /// How far its lightness spreads against the local lightness (median absolute deviation).
    pub light_spread: f32,
    /// The cloth's lightness near each plan pixel (a wide average over cloth pixels only).
    pub local: Vec<f32>,
}

/// Chroma histogram bins, Lab units.
const BIN: f32 = 2.0;
/// How far from the cloth's chroma a pixel still counts as cloth when learning it.
const NEAR: f32 = 5.0;
/// How wide the local lightness is averaged, inches: wider than most pieces.
const LIGHT_REACH: f64 = 14.0;
/// Lighter or darker than the cloth around by this share, a pixel is not counted as cloth when
/// the cloth's lightness is learnt.
const LIGHT_OFF: f32 = 0.06;

impl Cloth {
    /// Learn the cloth from the plan's pixels that are seen and not kept out.
    pub fn learn(plan: &Plan, usable: &[bool]) -> Option<Cloth> {
        let bins = (256.0 / BIN) as usize;
        let mut histogram = vec![0u32; bins * bins];
        let bin = |v: f32| ((v / BIN) as usize).min(bins - 1);
        for (p, ok) in plan.smooth.iter().zip(usable) {
            if *ok {
                histogram[bin(p[1]) * bins + bin(p[2])] += 1;
            }
        }
        // The peak of the histogram summed over 3×3 bins: one bin is too noisy a peak.
        let mut best = (0u32, 0usize, 0usize);
        for i in 1..bins - 1 {
            for j in 1..bins - 1 {
                let sum: u32 = (i - 1..=i + 1)
                    .flat_map(|a| (j - 1..=j + 1).map(move |b| (a, b)))
                    .map(|(a, b)| histogram[a * bins + b])
                    .sum();
                if sum > best.0 {
                    best = (sum, i, j);
                }
            }
        }
        if best.0 == 0 {
            return None;
        }
        let peak = [(best.1 as f32 + 0.5) * BIN, (best.2 as f32 + 0.5) * BIN];
        let near: Vec<usize> = (0..plan.smooth.len())
            .filter(|&k| usable[k] && chroma_distance(&plan.smooth[k], peak) < NEAR)
            .collect();
        let chroma = [
            median(near.iter().map(|&k| plan.smooth[k][1]).collect()),
            median(near.iter().map(|&k| plan.smooth[k][2]).collect()),
        ];
        let chroma_spread = median(
            near.iter()
                .map(|&k| chroma_distance(&plan.smooth[k], chroma))
                .collect(),
        );
        let mut is_cloth: Vec<bool> = (0..plan.smooth.len())
            .map(|k| usable[k] && chroma_distance(&plan.smooth[k], chroma) < NEAR)
            .collect();
        // Twice: the first pass counts a hill piece flocked like the mat as cloth; the second
        // leaves out what the first found lighter or darker than the cloth around it.
        let first = local_lightness(plan, &is_cloth)?;
        for (k, cloth) in is_cloth.iter_mut().enumerate() {
            *cloth &= (plan.smooth[k][0] / first[k].max(1.0) - 1.0).abs() < LIGHT_OFF;
        }
        let local = local_lightness(plan, &is_cloth)?;
        let light_spread = median(
            near.iter()
                .map(|&k| (plan.smooth[k][0] - local[k]).abs())
                .collect(),
        );
        Some(Cloth {
            chroma,
            chroma_spread,
            light_spread,
            local,
        })
    }

    /// How far a pixel's chroma is from the cloth's.
    pub fn chroma_off(&self, p: &[f32; 3]) -> f32 {
        chroma_distance(p, self.chroma)
    }

    /// How far a pixel's chroma is from the cloth's as lit or shaded as the pixel is: a flank
    /// in shade is the cloth's colour, darker, and Lab's chroma falls with lightness.
    pub fn shaded_chroma_off(&self, k: usize, p: &[f32; 3]) -> f32 {
        let shade = self.light_ratio(k, p).clamp(0.5, 1.5);
        let (a, b) = (
            128.0 + (self.chroma[0] - 128.0) * shade,
            128.0 + (self.chroma[1] - 128.0) * shade,
        );
        (p[1] - a).hypot(p[2] - b)
    }

    /// How much lighter (> 1) or darker (< 1) a pixel is than the cloth near it.
    pub fn light_ratio(&self, k: usize, p: &[f32; 3]) -> f32 {
        p[0] / self.local[k].max(1.0)
    }
}

fn chroma_distance(p: &[f32; 3], chroma: [f32; 2]) -> f32 {
    (p[1] - chroma[0]).hypot(p[2] - chroma[1])
}

fn median(mut values: Vec<f32>) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    let middle = values.len() / 2;
    *values.select_nth_unstable_by(middle, f32::total_cmp).1
}

/// The cloth's lightness near every pixel: a box average over cloth pixels only (normalised:
/// the sum of cloth lightness over the count of cloth pixels in the box), by summed-area tables.
fn local_lightness(plan: &Plan, is_cloth: &[bool]) -> Option<Vec<f32>> {
    let (w, h) = (plan.columns, plan.rows);
    let mut sum = vec![0f64; (w + 1) * (h + 1)];
    let mut count = vec![0f64; (w + 1) * (h + 1)];
    for j in 0..h {
        for i in 0..w {
            let k = j * w + i;
            let (s, c) = if is_cloth[k] {
                (f64::from(plan.smooth[k][0]), 1.0)
            } else {
                (0.0, 0.0)
            };
            let at = (j + 1) * (w + 1) + i + 1;
            sum[at] = s + sum[at - 1] + sum[at - (w + 1)] - sum[at - (w + 1) - 1];
            count[at] = c + count[at - 1] + count[at - (w + 1)] - count[at - (w + 1) - 1];
        }
    }
    let total = count[(w + 1) * (h + 1) - 1];
    if total < 1.0 {
        return None;
    }
    let overall = sum[(w + 1) * (h + 1) - 1] / total;
    let reach = (LIGHT_REACH * PER_INCH / 2.0) as usize;
    let boxed = |table: &[f64], i0: usize, j0: usize, i1: usize, j1: usize| {
        table[j1 * (w + 1) + i1] - table[j0 * (w + 1) + i1] - table[j1 * (w + 1) + i0]
            + table[j0 * (w + 1) + i0]
    };
    Some(
        (0..w * h)
            .map(|k| {
                let (i, j) = (k % w, k / w);
                let (i0, j0) = (i.saturating_sub(reach), j.saturating_sub(reach));
                let (i1, j1) = ((i + reach + 1).min(w), (j + reach + 1).min(h));
                let c = boxed(&count, i0, j0, i1, j1);
                // Too little cloth nearby (inside a large piece): the table's overall lightness.
                let light = if c > 25.0 {
                    boxed(&sum, i0, j0, i1, j1) / c
                } else {
                    overall
                };
                light as f32
            })
            .collect(),
    )
}
