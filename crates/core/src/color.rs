//! The two players: [`Color::Sente`] (Black, ▲, moves first in even games) and
//! [`Color::Gote`] (White, △, moves first in handicap games).
//!
//! ```
//! use shogi_core::Color;
//! assert_eq!(Color::Sente.opponent(), Color::Gote);
//! assert_eq!(Color::Gote.to_sfen(), 'w');
//! ```

use std::ops::{Index, IndexMut, Not};

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Sente (先手, Black, ▲): the side whose pieces start on ranks g-i.
    Sente = 0,
    /// Gote (後手, White, △): the side whose pieces start on ranks a-c.
    Gote = 1,
}

impl Color {
    /// Both colours, Sente first.
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// 0 for Sente, 1 for Gote.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN letter: `b` for Sente, `w` for Gote.
    #[must_use]
    pub const fn to_sfen(self) -> char {
        match self {
            Color::Sente => 'b',
            Color::Gote => 'w',
        }
    }

    /// Parses the SFEN letter (`b` or `w`).
    #[must_use]
    pub const fn from_sfen(c: char) -> Option<Color> {
        match c {
            'b' => Some(Color::Sente),
            'w' => Some(Color::Gote),
            _ => None,
        }
    }

    /// The record mark: `▲` for Sente, `△` for Gote.
    #[must_use]
    pub const fn mark(self) -> char {
        match self {
            Color::Sente => '▲',
            Color::Gote => '△',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.opponent()
    }
}

/// A pair of values, one per [`Color`], indexed by colour instead of by integer.
///
/// ```
/// use shogi_core::{ByColor, Color};
/// let mut points = ByColor::new(0, 0);
/// points[Color::Gote] += 5;
/// assert_eq!(points[Color::Gote], 5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// Sente's value.
    pub sente: T,
    /// Gote's value.
    pub gote: T,
}

impl<T> ByColor<T> {
    /// Makes a pair from Sente's and Gote's values.
    pub const fn new(sente: T, gote: T) -> Self {
        ByColor { sente, gote }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::Sente => &self.sente,
            Color::Gote => &self.gote,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Sente => &mut self.sente,
            Color::Gote => &mut self.gote,
        }
    }
}
