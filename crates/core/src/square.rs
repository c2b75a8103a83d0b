//! Files, ranks and squares.
//!
//! Files are numbered 1-9 from right to left as Sente sees the board; ranks are
//! lettered a-i (or numbered 1-9) from top (Gote's side) to bottom. A square is
//! written file then rank, as in USI: `7g` is file 7, rank g.
//!
//! Internally square index = (file - 1) * 9 + (rank - 1), so a file's nine
//! squares are consecutive bits of a [`Bitboard`](crate::Bitboard).
//!
//! ```
//! use shogi_core::{File, Rank, Square};
//! let sq: Square = "7g".parse()?;
//! assert_eq!(sq.file(), File::new(7).unwrap());
//! assert_eq!(sq.rank(), Rank::new(7).unwrap());
//! assert_eq!(sq.to_string(), "7g");
//! # Ok::<_, shogi_core::SquareParseError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A file (column), 1-9, right to left from Sente's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank (row), 1-9 (a-i), top to bottom from Sente's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl File {
    /// The file with this number, if it is 1-9.
    #[must_use]
    pub const fn new(number: u8) -> Option<File> {
        if number >= 1 && number <= 9 {
            Some(File(number - 1))
        } else {
            None
        }
    }
    /// The file number, 1-9.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }
    /// Zero-based index, 0-8 (file 1 is 0).
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// All nine files, file 1 first.
    pub const ALL: [File; 9] = [
        File(0),
        File(1),
        File(2),
        File(3),
        File(4),
        File(5),
        File(6),
        File(7),
        File(8),
    ];
}

impl Rank {
    /// The rank with this number (1 = a), if it is 1-9.
    #[must_use]
    pub const fn new(number: u8) -> Option<Rank> {
        if number >= 1 && number <= 9 {
            Some(Rank(number - 1))
        } else {
            None
        }
    }
    /// The rank number, 1-9 (1 = a).
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }
    /// The rank letter, a-i.
    #[must_use]
    pub const fn letter(self) -> char {
        (b'a' + self.0) as char
    }
    /// The rank with this letter, a-i.
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Rank> {
        if c >= 'a' && c <= 'i' {
            Some(Rank(c as u8 - b'a'))
        } else {
            None
        }
    }
    /// Zero-based index, 0-8 (rank a is 0).
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The rank as seen by `color`: 1 is the far rank (a for Sente, i for Gote).
    #[must_use]
    pub const fn relative(self, color: Color) -> u8 {
        match color {
            Color::Sente => self.0 + 1,
            Color::Gote => 9 - self.0,
        }
    }
    /// All nine ranks, rank a first.
    pub const ALL: [Rank; 9] = [
        Rank(0),
        Rank(1),
        Rank(2),
        Rank(3),
        Rank(4),
        Rank(5),
        Rank(6),
        Rank(7),
        Rank(8),
    ];
}

/// One of the 81 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` and `rank`.
    #[inline]
    #[must_use]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(file.0 * 9 + rank.0)
    }

    /// The square with this index (0-80), if valid.
    #[inline]
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square from file and rank numbers (1-9 each).
    #[must_use]
    pub const fn from_numbers(file: u8, rank: u8) -> Option<Square> {
        match (File::new(file), Rank::new(rank)) {
            (Some(f), Some(r)) => Some(Square::new(f, r)),
            _ => None,
        }
    }

    /// Index 0-80: (file - 1) * 9 + (rank - 1).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file.
    #[inline]
    #[must_use]
    pub const fn file(self) -> File {
        File(self.0 / 9)
    }

    /// The square's rank.
    #[inline]
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank(self.0 % 9)
    }

    /// The same square seen from the other side (180° rotation).
    #[must_use]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// The square `df` files and `dr` ranks away (rank grows toward Sente), if on the board.
    #[must_use]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self.0 / 9) as i8 + df;
        let r = (self.0 % 9) as i8 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 9 {
            Some(Square((f * 9 + r) as u8))
        } else {
            None
        }
    }

    /// All 81 squares in index order (1a, 1b, ... 9i).
    pub fn all() -> impl Iterator<Item = Square> {
        (0u8..81).map(Square)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().number(), self.rank().letter())
    }
}

/// A square written wrongly.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad square {0:?}: expected a file 1-9 and a rank a-i, like 7g")]
pub struct SquareParseError(pub String);

impl FromStr for Square {
    type Err = SquareParseError;
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let b = s.as_bytes();
        if b.len() == 2 {
            if let (Some(f), Some(r)) = (
                File::new(b[0].wrapping_sub(b'0')),
                Rank::from_letter(b[1] as char),
            ) {
                return Ok(Square::new(f, r));
            }
        }
        Err(SquareParseError(s.to_string()))
    }
}
