//! A small seeded generator for sensor noise: reproducible frames without a dependency.

/// SplitMix64.
pub struct Noise(u64);

impl Noise {
    pub fn new(seed: u64) -> Noise {
        Noise(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// Move on as if `draws` numbers had been drawn: the generator is a counter, so this
    /// costs nothing, and a picture's rows can draw their noise in parallel.
    pub fn skip(&mut self, draws: u64) {
        self.0 = self
            .0
            .wrapping_add(draws.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1].
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 1.0) / (1u64 << 53) as f64
    }

    /// A standard normal sample (Box–Muller).
    pub fn gaussian(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::Noise;

    #[test]
    fn skipping_lands_where_drawing_would() {
        let mut drawn = Noise::new(7);
        for _ in 0..1001 {
            drawn.uniform();
        }
        let mut skipped = Noise::new(7);
        skipped.skip(1001);
        assert_eq!(drawn.uniform(), skipped.uniform());
    }
}
