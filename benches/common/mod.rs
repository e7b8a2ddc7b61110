//! What the benches share: a small deterministic generator, so every run
//! (and every commit) measures the same data.

/// SplitMix64: tiny, fast and good enough for bench data.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A significand of exactly `digits` decimal digits (1 to 19).
    pub(crate) fn significand(&mut self, digits: u32) -> u64 {
        let lo = 10u64.pow(digits - 1);
        lo + self.below(9 * lo)
    }
}
