//! [`Move`]: a board move (with or without promotion) or a drop, and its USI text.
//!
//! A `Move` is only syntax: it names squares and kinds that exist. Whether it
//! is legal in a position is a second question, answered by
//! [`Position::check_move`](crate::Position::check_move).
//!
//! ```
//! use shogi_core::{HandKind, Move};
//! let m: Move = "8h2b+".parse()?;
//! assert!(matches!(m, Move::Board { promote: true, .. }));
//! let d: Move = "P*5e".parse()?;
//! assert!(matches!(d, Move::Drop { kind: HandKind::Pawn, .. }));
//! assert_eq!(d.to_string(), "P*5e");
//! # Ok::<_, shogi_core::UsiMoveError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;

use crate::{HandKind, PieceKind, Square};

/// A move: a piece moving on the board, or a piece dropped from hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moves from `from` to `to`, promoting if `promote`.
    Board {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
        /// Whether the piece promotes on this move.
        promote: bool,
    },
    /// A piece of `kind` is dropped from hand onto `to`.
    Drop {
        /// The kind dropped.
        kind: HandKind,
        /// Destination square.
        to: Square,
    },
}

impl Move {
    /// The destination square.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        match self {
            Move::Board { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The origin square of a board move.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Board { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// Whether this is a promoting board move.
    #[inline]
    #[must_use]
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Board { promote: true, .. })
    }

    /// Whether this is a drop.
    #[inline]
    #[must_use]
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// A 16-bit code: destination in bits 0-6, origin (or 81 + hand kind for a
    /// drop) in bits 7-13, promotion in bit 14. Never zero.
    #[must_use]
    pub const fn to_u16(self) -> u16 {
        match self {
            Move::Board { from, to, promote } => {
                to.index() as u16 | (from.index() as u16) << 7 | (promote as u16) << 14
            }
            Move::Drop { kind, to } => to.index() as u16 | (81 + kind as u16) << 7,
        }
    }

    /// Decodes [`Move::to_u16`]; `None` for codes it never produces.
    #[must_use]
    pub fn from_u16(code: u16) -> Option<Move> {
        let to = Square::from_index(usize::from(code & 0x7f))?;
        let src = usize::from((code >> 7) & 0x7f);
        let promote = code & (1 << 14) != 0;
        if code >> 15 != 0 {
            return None;
        }
        if src < 81 {
            let from = Square::from_index(src)?;
            (from != to).then_some(Move::Board { from, to, promote })
        } else if !promote {
            Some(Move::Drop {
                kind: HandKind::from_index(src - 81)?,
                to,
            })
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    /// USI text: `7g7f`, `8h2b+`, `P*5e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Board { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            Move::Drop { kind, to } => write!(f, "{}*{to}", kind.piece_kind().sfen()),
        }
    }
}

/// USI move text that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiMoveError {
    /// The text has the wrong shape.
    #[error("bad USI move {0:?}: expected a board move like 7g7f or 8h2b+, or a drop like P*5e")]
    Syntax(String),
    /// A drop names a piece that cannot be dropped.
    #[error("bad USI move {0:?}: only P, L, N, S, G, B, R can be dropped")]
    DropKind(String),
    /// A board move whose origin equals its destination.
    #[error("bad USI move {0:?}: origin and destination are the same square")]
    NullMove(String),
}

impl FromStr for Move {
    type Err = UsiMoveError;
    fn from_str(s: &str) -> Result<Move, UsiMoveError> {
        let b = s.as_bytes();
        let syntax = || UsiMoveError::Syntax(s.to_string());
        let square = |i: usize| -> Result<Square, UsiMoveError> {
            b.get(i..i + 2)
                .and_then(|t| std::str::from_utf8(t).ok())
                .and_then(|t| t.parse().ok())
                .ok_or_else(syntax)
        };
        match b.len() {
            4 if b[1] == b'*' => {
                let kind = PieceKind::from_sfen_letter(b[0] as char)
                    .ok_or_else(syntax)?
                    .hand_kind()
                    .filter(|k| k.piece_kind() != PieceKind::King)
                    .ok_or_else(|| UsiMoveError::DropKind(s.to_string()))?;
                if b[0] == b'K' {
                    return Err(UsiMoveError::DropKind(s.to_string()));
                }
                Ok(Move::Drop {
                    kind,
                    to: square(2)?,
                })
            }
            4 | 5 => {
                let promote = match b.get(4) {
                    None => false,
                    Some(b'+') => true,
                    Some(_) => return Err(syntax()),
                };
                let (from, to) = (square(0)?, square(2)?);
                if from == to {
                    return Err(UsiMoveError::NullMove(s.to_string()));
                }
                Ok(Move::Board { from, to, promote })
            }
            _ => Err(syntax()),
        }
    }
}

/// The most legal moves any shogi position has is 593; this leaves room.
pub const MAX_MOVES: usize = 600;

/// A list of moves without heap allocation.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
