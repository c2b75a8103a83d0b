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

    /// This hand's part of an SFEN hand field, in the canonical order R B G S N L P,
    /// upper case for Sente (`upper = true`), lower case for Gote.
    #[must_use]
    pub fn to_sfen_part(&self, upper: bool) -> String {
        let mut s = String::new();
        for k in HandKind::SFEN_ORDER {
            let n = self.count(k);
            if n == 0 {
                continue;
            }
            if n > 1 {
                s.push_str(&n.to_string());
            }
            let c = k.piece_kind().sfen().chars().next().unwrap_or('?');
            s.push(if upper { c } else { c.to_ascii_lowercase() });
        }
        s
    }
}
