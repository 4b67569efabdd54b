//! What the tablebase tests and examples share: a small seeded generator for drawing
//! sample positions, so a run with the same seed draws the same positions.

/// A 64-bit linear congruential generator (Knuth's MMIX constants), seeded by its state.
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in `0..n`, from the generator's high bits.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}
