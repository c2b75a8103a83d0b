//! Rule predicates in one place: promotion zone, optional and forced
//! promotion, where a piece may be dropped.
//!
//! ```
//! use shogi_core::rules;
//! use shogi_core::{Color, PieceKind, Square};
//! let sq1a: Square = "1a".parse()?;
//! let sq1c: Square = "1c".parse()?;
//! assert!(rules::must_promote(Color::Sente, PieceKind::Pawn, sq1a));
//! assert!(!rules::must_promote(Color::Sente, PieceKind::Pawn, sq1c));
//! assert!(rules::must_promote(Color::Sente, PieceKind::Knight, "1b".parse()?));
//! assert!(rules::in_zone(Color::Gote, "5g".parse()?));
//! # Ok::<_, shogi_core::SquareParseError>(())
//! ```

use crate::{Bitboard, Color, HandKind, PieceKind, Square};

/// Whether `sq` is in `color`'s promotion zone (its three far ranks).
#[inline]
#[must_use]
pub fn in_zone(color: Color, sq: Square) -> bool {
    sq.rank().relative(color) <= 3
}

/// Whether a piece of `kind` moving from `from` to `to` may promote.
#[inline]
#[must_use]
pub fn can_promote(color: Color, kind: PieceKind, from: Square, to: Square) -> bool {
    kind.can_promote() && (in_zone(color, from) || in_zone(color, to))
}

/// How many far ranks a piece of `kind` could never move from (unpromoted):
/// 1 for pawn and lance, 2 for knight, 0 otherwise.
#[inline]
#[must_use]
pub const fn dead_ranks(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        _ => 0,
    }
}

/// Whether an unpromoted `kind` of `color` on `sq` could never move again,
/// so that arriving there it must promote (and may not be dropped there).
#[inline]
#[must_use]
pub fn must_promote(color: Color, kind: PieceKind, sq: Square) -> bool {
    sq.rank().relative(color) <= dead_ranks(kind)
}

/// The squares where `color` may drop `kind` on an empty board (every square
/// but the dead ranks; nifu and pawn-drop mate depend on the position).
#[inline]
#[must_use]
pub fn drop_zone(color: Color, kind: HandKind) -> Bitboard {
    match dead_ranks(kind.piece_kind()) {
        0 => Bitboard::FULL,
        n => !Bitboard::far_ranks(color, u32::from(n)),
    }
}

/// Impasse (jishogi) point value: 5 for rook, bishop and their promotions, 1
/// for every other piece but the king (0).
#[inline]
#[must_use]
pub const fn impasse_points(kind: PieceKind) -> u32 {
    match kind.unpromote() {
        PieceKind::Rook | PieceKind::Bishop => 5,
        PieceKind::King => 0,
        _ => 1,
    }
}
