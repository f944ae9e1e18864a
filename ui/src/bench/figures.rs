//! The figures every bench prints: percentiles of times and of errors, times in milliseconds.

use std::time::Duration;

/// The `p` percentile (0–1) of times already in order ([`sorted_times`]), zero of none.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

/// Some timings, in order, for [`percentile`].
pub fn sorted_times(times: &[Duration]) -> Vec<Duration> {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    sorted
}

/// The `q` quantile of some figures, in any order (`1.0`: the largest), NaN of none.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
        .get(((sorted.len() as f64 - 1.0) * q).round() as usize)
        .copied()
        .unwrap_or(f64::NAN)
}

/// A time in milliseconds, to print.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Some figures in order, for [`at`].
pub fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// The `p` quantile of figures already [`sorted`], NaN of none.
pub fn at(sorted: &[f64], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 - 1.0) * p).round() as usize)
        .copied()
        .unwrap_or(f64::NAN)
}

/// The middle figure, NaN of none.
pub fn median(values: &[f64]) -> f64 {
    at(&sorted(values), 0.5)
}

/// The mean, 0 of none.
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}
