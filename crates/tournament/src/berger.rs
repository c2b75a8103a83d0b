//! FIDE's Berger tables (Handbook C.05, Annex 1): who meets whom in each
//! round of a round robin, and with which colour.
//!
//! The tables follow one rule. Seat the players of an even field of `n` on
//! `n / 2` boards: round 1 is `1-n, 2-(n-1), …, (n/2)-(n/2+1)`. Players
//! `1..n` stand on a circle of `n - 1` places; from one round to the next
//! every one of them moves `n / 2` places on, so that in round `r` the pairs
//! are the `i`, `j` with `i + j ≡ r + 1 (mod n - 1)`. Player `n` stays on
//! board 1 and meets the one player left over (the `i` with
//! `2i ≡ r + 1`), taking the second move in odd rounds and the first in even
//! rounds. On the other boards the player first in circle order (board 2's
//! first seat is the place after board 1's) moves first.
//!
//! ```
//! use shogi_tournament::berger;
//! assert_eq!(berger::table(4, 1), vec![(1, 4), (2, 3)]);
//! assert_eq!(berger::table(4, 2), vec![(4, 3), (1, 2)]);
//! // Five players play as six; 6 is the bye, so its pair is left out.
//! assert_eq!(berger::table(5, 2), vec![(5, 3), (1, 2)]);
//! assert_eq!(berger::rounds(5), 5);
//! ```

/// The number of rounds of a single round robin of `n` players: `n - 1`
/// for an even field, `n` for an odd one (everyone sits out once). Zero
/// for fewer than two players.
#[must_use]
pub fn rounds(n: usize) -> usize {
    match n {
        0 | 1 => 0,
        n if n % 2 == 0 => n - 1,
        n => n,
    }
}

/// The pairings of round `round` (1-based) of a round robin of `n` players
/// numbered 1..=n, as FIDE's table prints them: `(first, second)`, the
/// first-named player taking the first move (Sente). An odd `n` is played
/// as `n + 1` with the last number the bye; that pair is left out.
///
/// A round outside `1..=rounds(n)` has no pairs (an empty list).
#[must_use]
pub fn table(n: usize, round: usize) -> Vec<(usize, usize)> {
    if round == 0 || round > rounds(n) {
        return Vec::new();
    }
    let even = n + n % 2;
    let places = even - 1;
    let half = even / 2;
    // The place of board 1's opponent of `even`; the rest follow it.
    let shift = (round - 1) * half % places;
    let mut pairs = Vec::with_capacity(half);
    let first = shift + 1;
    pairs.push(if round % 2 == 1 {
        (first, even)
    } else {
        (even, first)
    });
    for board in 2..=half {
        let sente = (shift + board - 1) % places + 1;
        let gote = match (round + 1 + 2 * places - sente) % places {
            0 => places,
            g => g,
        };
        pairs.push((sente, gote));
    }
    if even != n {
        pairs.retain(|&(a, b)| a != even && b != even);
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn everyone_meets_everyone_once_for_any_field() {
        for n in 2..=41 {
            let mut met = HashSet::new();
            for round in 1..=rounds(n) {
                let mut seen = HashSet::new();
                for (a, b) in table(n, round) {
                    assert!(a != b && (1..=n).contains(&a) && (1..=n).contains(&b));
                    assert!(seen.insert(a) && seen.insert(b), "n {n} round {round}");
                    assert!(met.insert((a.min(b), a.max(b))), "n {n}: {a}-{b} twice");
                }
                assert_eq!(seen.len(), n - n % 2, "n {n} round {round}");
            }
            assert_eq!(met.len(), n * (n - 1) / 2);
        }
    }

    #[test]
    fn colours_balance_within_one() {
        for n in (2..=40).step_by(2) {
            let mut firsts = vec![0usize; n + 1];
            for round in 1..=rounds(n) {
                for (a, _) in table(n, round) {
                    firsts[a] += 1;
                }
            }
            for &f in &firsts[1..] {
                assert!(f == n / 2 || f + 1 == n / 2, "n {n}: {firsts:?}");
            }
        }
    }

    #[test]
    fn out_of_range_rounds_are_empty() {
        assert!(table(6, 0).is_empty());
        assert!(table(6, 6).is_empty());
        assert!(table(1, 1).is_empty());
        assert!(table(0, 1).is_empty());
    }
}
