//! [`Bitboard`]: a set of squares, one bit per square, in a `u128`.
//!
//! Bit `i` stands for the square with [`Square::index`] `i`, so each file's
//! nine squares are nine consecutive bits (file 1 in bits 0-8, rank a first).
//!
//! ```
//! use shogi_core::{Bitboard, Square};
//! let a: Square = "5e".parse()?;
//! let b: Square = "1a".parse()?;
//! let bb = Bitboard::from_square(a) | Bitboard::from_square(b);
//! assert_eq!(bb.count(), 2);
//! assert_eq!(bb.into_iter().collect::<Vec<_>>(), vec![b, a]);
//! # Ok::<_, shogi_core::SquareParseError>(())
//! ```

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::{Color, File, Rank, Square};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u128);

/// Bits 0-80 set: every square.
const ALL_BITS: u128 = (1u128 << 81) - 1;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard(ALL_BITS);

    /// The raw bits (bit i = square index i).
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set with these raw bits; bits above 80 are dropped.
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & ALL_BITS)
    }

    /// The set holding just `sq`.
    #[inline]
    #[must_use]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BIT[sq.index()])
    }

    /// All squares of a file.
    #[inline]
    #[must_use]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x1ffu128 << (file.index() * 9))
    }

    /// All squares of a rank.
    #[inline]
    #[must_use]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(RANK_A_BITS << rank.index())
    }

    /// The promotion zone of `color`: its three far ranks.
    #[inline]
    #[must_use]
    pub const fn zone(color: Color) -> Bitboard {
        match color {
            Color::Sente => Bitboard(RANK_A_BITS * 0b111),
            Color::Gote => Bitboard(RANK_A_BITS * 0b111_000_000),
        }
    }

    /// The `n` (1-9) far ranks of `color`.
    #[inline]
    #[must_use]
    pub const fn far_ranks(color: Color, n: u32) -> Bitboard {
        let mask = (1u128 << n) - 1;
        match color {
            Color::Sente => Bitboard(RANK_A_BITS * mask),
            Color::Gote => Bitboard(RANK_A_BITS * (mask << (9 - n))),
        }
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    #[must_use]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & SQUARE_BIT[sq.index()] != 0
    }

    /// The number of squares.
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether more than one square is set.
    #[inline]
    #[must_use]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest-index square, if any.
    #[inline]
    #[must_use]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::from_index(self.0.trailing_zeros() as usize)
        }
    }

    /// The only square, if exactly one is set.
    #[inline]
    #[must_use]
    pub fn single(self) -> Option<Square> {
        if self.more_than_one() {
            None
        } else {
            self.first()
        }
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= SQUARE_BIT[sq.index()];
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !SQUARE_BIT[sq.index()];
    }

    /// Toggles `sq`.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= SQUARE_BIT[sq.index()];
    }

    /// Every square one step forward for `color` (toward rank a for Sente).
    ///
    /// Squares on the far rank fall off the board.
    #[inline]
    #[must_use]
    pub const fn shift_forward(self, color: Color) -> Bitboard {
        match color {
            Color::Sente => Bitboard((self.0 & !RANK_A_MASK) >> 1),
            Color::Gote => Bitboard((self.0 & !RANK_I_MASK) << 1),
        }
    }

    /// Every file that holds at least one square of the set, filled.
    ///
    /// ```
    /// use shogi_core::{Bitboard, File};
    /// let sq = "3c".parse()?;
    /// assert_eq!(Bitboard::from_square(sq).fill_files(), Bitboard::file(File::new(3).unwrap()));
    /// # Ok::<_, shogi_core::SquareParseError>(())
    /// ```
    #[inline]
    #[must_use]
    pub const fn fill_files(self) -> Bitboard {
        // Per 9-bit group: the high bit becomes 1 iff the group is non-zero.
        let high = ((self.0 & LOW8_OF_EACH_FILE).wrapping_add(LOW8_OF_EACH_FILE) | self.0)
            & HIGH_OF_EACH_FILE;
        let low = high >> 8;
        Bitboard((high - low) | high)
    }

    /// Iterates the squares in index order.
    #[inline]
    #[must_use]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// One bit per square: a table load is cheaper than a variable 128-bit shift.
pub(crate) const SQUARE_BIT: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// Bits of rank a (one per file).
const RANK_A_BITS: u128 = {
    let mut b = 0u128;
    let mut f = 0;
    while f < 9 {
        b |= 1u128 << (f * 9);
        f += 1;
    }
    b
};
const RANK_A_MASK: u128 = RANK_A_BITS;
const RANK_I_MASK: u128 = RANK_A_BITS << 8;
const HIGH_OF_EACH_FILE: u128 = RANK_I_MASK;
const LOW8_OF_EACH_FILE: u128 = RANK_A_BITS * 0xff;

/// Iterator over the squares of a [`Bitboard`].
#[derive(Clone, Debug)]
pub struct BitboardIter(u128);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Square::from_index(i)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.insert(sq);
        }
        b
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the board as Sente sees it: file 9 on the left, rank a on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in Rank::ALL {
            for file in File::ALL.iter().rev() {
                let c = if self.contains(Square::new(*file, rank)) {
                    'X'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
