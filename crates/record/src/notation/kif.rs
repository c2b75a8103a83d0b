//! KIF move text: `７六歩(77)`, `同　歩(23)`, `５五角打`, `３二銀成(41)`, `２四歩不成(25)`.
//!
//! The origin square in parentheses makes relative markers unnecessary.
//!
//! ```
//! use shogi_core::{Move, Position};
//! use shogi_record::notation::kif;
//! let pos = Position::startpos();
//! assert_eq!(kif::write(&pos, "7g7f".parse()?, None), "７六歩(77)");
//! assert_eq!(kif::read(&pos, None, "７六歩(77)")?, "7g7f".parse::<Move>()?);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{rules, Move, PieceKind, Position, Square};

use super::japanese::{self, destination, piece_name};
use crate::record::MoveProblem;

/// The KIF text of `mv` in `pos`; `last_to` is where the previous move landed.
#[must_use]
pub fn write(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    match mv {
        Move::Drop { kind, to } => {
            let k = kind.piece_kind();
            format!("{}{}打", destination(to, last_to, k), piece_name(k))
        }
        Move::Board { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            let suffix = if promote {
                "成"
            } else if rules::can_promote(pos.side_to_move(), kind, from, to) {
                "不成"
            } else {
                ""
            };
            format!(
                "{}{}{}({}{})",
                destination(to, last_to, kind),
                piece_name(kind),
                suffix,
                from.file().number(),
                from.rank().number()
            )
        }
    }
}

/// Reads KIF move text in `pos` (Japanese text without an origin is resolved as KI2 would).
///
/// # Errors
/// Why the text is not a legal move.
pub fn read(pos: &Position, last_to: Option<Square>, text: &str) -> Result<Move, MoveProblem> {
    japanese::read(pos, last_to, text)
}
