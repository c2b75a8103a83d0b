//! [`Hand`]: the pieces a player holds, as a count per [`HandKind`].
//!
//! ```
//! use shogi_core::{Hand, HandKind};
//! let mut h = Hand::default();
//! h.add(HandKind::Pawn);
//! h.add(HandKind::Pawn);
//! h.add(HandKind::Rook);
//! assert_eq!(h.count(HandKind::Pawn), 2);
//! assert_eq!(h.to_sfen_part(true), "R2P");
//! ```

use crate::HandKind;

/// Counts of the pieces in one player's hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    counts: [u8; 7],
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; 7] };

    /// How many of `kind` are held.
    #[inline]
    #[must_use]
    pub const fn count(&self, kind: HandKind) -> u8 {
        self.counts[kind as usize]
    }

    /// Sets the count of `kind`.
    #[inline]
    pub fn set(&mut self, kind: HandKind, n: u8) {
        self.counts[kind as usize] = n;
    }

    /// Adds one `kind`.
    #[inline]
    pub fn add(&mut self, kind: HandKind) {
        self.counts[kind as usize] += 1;
    }

    /// Removes one `kind`.
    ///
    /// # Panics
    /// In debug builds, if none is held.
    #[inline]
    pub fn remove(&mut self, kind: HandKind) {
        self.counts[kind as usize] -= 1;
    }

    /// Whether nothing is held.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 7]
    }

    /// The total number of pieces held.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    /// The kinds held at least once, pawn first.
    pub fn kinds(&self) -> impl Iterator<Item = HandKind> + '_ {
        HandKind::ALL.into_iter().filter(|&k| self.count(k) > 0)
    }

    /// Whether this hand holds at least as many of every kind as `other`
    /// (a superset, counting pieces).
    ///
    /// ```
    /// use shogi_core::{Hand, HandKind};
    /// let mut big = Hand::default();
    /// big.set(HandKind::Gold, 2);
    /// big.set(HandKind::Pawn, 1);
    /// let mut small = Hand::default();
    /// small.set(HandKind::Gold, 1);
    /// assert!(big.covers(&small));
    /// assert!(!small.covers(&big));
    /// assert!(small.covers(&Hand::EMPTY));
    /// ```
    #[inline]
    #[must_use]
    pub fn covers(&self, other: &Hand) -> bool {
        self.counts.iter().zip(&other.counts).all(|(a, b)| a >= b)
    }

    /// The fewer of each kind of the two hands (what both hold).
    #[inline]
    #[must_use]
    pub fn min_per_kind(&self, other: &Hand) -> Hand {
        Hand {
            counts: std::array::from_fn(|i| self.counts[i].min(other.counts[i])),
        }
    }

    /// The more of each kind of the two hands (what either holds).
    #[inline]
    #[must_use]
    pub fn max_per_kind(&self, other: &Hand) -> Hand {
        Hand {
            counts: std::array::from_fn(|i| self.counts[i].max(other.counts[i])),
        }
    }

    /// This hand's part of an SFEN hand field, in the canonical order R B G S N L P,
    /// upper case for Sente (`upper = true`), lower case for Gote.
    #[must_use]
    pub fn to_sfen_part(&self, upper: bool) -> String {
        let mut s = String::new();
        self.write_sfen_part(&mut s, upper);
        s
    }

    /// Appends [`Hand::to_sfen_part`] to `out` (no allocation beyond `out`'s).
    pub fn write_sfen_part(&self, out: &mut String, upper: bool) {
        for k in HandKind::SFEN_ORDER {
            let n = self.count(k);
            if n == 0 {
                continue;
            }
            if n > 1 {
                push_count(out, n);
            }
            let c = k.piece_kind().sfen().chars().next().unwrap_or('?');
            out.push(if upper { c } else { c.to_ascii_lowercase() });
        }
    }
}

/// Appends `n` in decimal.
fn push_count(out: &mut String, n: u8) {
    if n >= 100 {
        out.push(char::from(b'0' + n / 100));
    }
    if n >= 10 {
        out.push(char::from(b'0' + n / 10 % 10));
    }
    out.push(char::from(b'0' + n % 10));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_written_in_decimal() {
        for n in [2u8, 9, 10, 18, 99, 100, 255] {
            let mut s = String::new();
            push_count(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }

    fn hand(counts: [(HandKind, u8); 2]) -> Hand {
        let mut h = Hand::EMPTY;
        for (k, n) in counts {
            h.set(k, n);
        }
        h
    }

    #[test]
    fn covers_needs_every_kind() {
        let a = hand([(HandKind::Gold, 2), (HandKind::Pawn, 3)]);
        let b = hand([(HandKind::Gold, 2), (HandKind::Pawn, 1)]);
        let c = hand([(HandKind::Gold, 1), (HandKind::Rook, 1)]);
        assert!(a.covers(&b));
        assert!(!b.covers(&a));
        assert!(a.covers(&a));
        // More golds, but no rook.
        assert!(!a.covers(&c));
        assert!(c.covers(&Hand::EMPTY));
        assert!(!Hand::EMPTY.covers(&c));
    }

    #[test]
    fn min_and_max_per_kind_bound_both_hands() {
        let a = hand([(HandKind::Gold, 2), (HandKind::Pawn, 3)]);
        let b = hand([(HandKind::Gold, 1), (HandKind::Rook, 1)]);
        let lo = a.min_per_kind(&b);
        let hi = a.max_per_kind(&b);
        assert_eq!(lo, hand([(HandKind::Gold, 1), (HandKind::Pawn, 0)]));
        let mut want = hand([(HandKind::Gold, 2), (HandKind::Pawn, 3)]);
        want.set(HandKind::Rook, 1);
        assert_eq!(hi, want);
        for h in [a, b] {
            assert!(h.covers(&lo));
            assert!(hi.covers(&h));
        }
    }
}
