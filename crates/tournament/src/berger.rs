//! FIDE's Berger tables (Handbook C.05, Annex 1): who meets whom in each
//! round of a round robin, and with which colour.

/// The pairings of round `round` (1-based) of a round robin of `n` players
/// numbered 1..=n, as FIDE's table prints them: `(first, second)`, the
/// first-named player taking the first move (Sente). An odd `n` is played
/// as `n + 1` with the last number the bye; that pair is left out.
#[must_use]
pub fn table(n: usize, round: usize) -> Vec<(usize, usize)> {
    let _ = (n, round);
    todo!("helper P1")
}
