//! The tests' random numbers: a xorshift64 generator, so that the random
//! games a test plays are the same on every run.

/// Each call the next number of the xorshift64 sequence (13, 7, 17) that
/// `seed` (not 0) starts.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
