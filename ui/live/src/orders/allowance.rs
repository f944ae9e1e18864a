//! How often one player may point or order: a bucket that refills at a steady rate, so a
//! burst of taps goes through and a page that floods is held to the rate.

use std::collections::HashMap;
use std::hash::Hash;
use std::time::Instant;

/// A bucket of `burst` goes, refilled at `per_second`.
#[derive(Clone, Debug)]
pub struct Allowance {
    per_second: f64,
    burst: f64,
    left: f64,
    last: Instant,
}

impl Allowance {
    /// A full bucket.
    pub fn new(per_second: f64, burst: f64) -> Allowance {
        Allowance {
            per_second,
            burst,
            left: burst,
            last: Instant::now(),
        }
    }

    /// Take one go at `now`, if one is left.
    pub fn take(&mut self, now: Instant) -> bool {
        let refilled = now.saturating_duration_since(self.last).as_secs_f64() * self.per_second;
        self.left = (self.left + refilled).min(self.burst);
        self.last = now;
        if self.left >= 1.0 {
            self.left -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Allowances kept by key (a seat, or a seat and what it asks), each full when first used.
#[derive(Debug)]
pub struct Allowances<K>(HashMap<K, Allowance>);

impl<K> Default for Allowances<K> {
    fn default() -> Allowances<K> {
        Allowances(HashMap::new())
    }
}

impl<K: Hash + Eq> Allowances<K> {
    /// Take one of `key`'s goes at `now`, from a bucket of `burst` refilled at `per_second`.
    pub fn take(&mut self, key: K, per_second: f64, burst: f64, now: Instant) -> bool {
        (self.0.entry(key))
            .or_insert_with(|| Allowance::new(per_second, burst))
            .take(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_goes_through_then_the_rate_holds() {
        let start = Instant::now();
        let mut allowance = Allowance::new(2.0, 3.0);
        let taken = (0..10).filter(|_| allowance.take(start)).count();
        assert_eq!(taken, 3);
        assert!(!allowance.take(start + Duration::from_millis(100)));
        assert!(allowance.take(start + Duration::from_millis(600)));
    }
}
