//! KIF move text: `７六歩(77)`, `同　歩(23)`, `５五角打`, `３二銀成(41)`.
//!
//! The origin square in parentheses makes relative markers unnecessary. A move
//! that could promote but does not is written without `不成` (`２四歩(25)`), as
//! Kifu for Windows does and as other KIF readers (cshogi, tsshogi) expect; the
//! reader accepts `不成` all the same. `同` is always followed by a full-width space
//! (`同　成桂(33)`), which some readers (cshogi) require.
//!
//! ```
//! use shogi_core::{Move, Position};
//! use shogi_record::notation::kif;
//! let pos = Position::startpos();
//! assert_eq!(kif::write(&pos, "7g7f".parse()?, None), "７六歩(77)");
//! assert_eq!(kif::read(&pos, None, "７六歩(77)")?, "7g7f".parse::<Move>()?);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{Move, PieceKind, Position, Square};

use super::japanese::{self, destination, piece_name};
use crate::record::MoveProblem;

/// `同　` when `to` is where the previous move landed, else the square (`７六`).
fn kif_destination(to: Square, last_to: Option<Square>) -> String {
    if last_to == Some(to) {
        "同　".to_string()
    } else {
        destination(to, None, PieceKind::Pawn)
    }
}

/// The KIF text of `mv` in `pos`; `last_to` is where the previous move landed.
#[must_use]
pub fn write(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    match mv {
        Move::Drop { kind, to } => {
            let k = kind.piece_kind();
            format!("{}{}打", kif_destination(to, last_to), piece_name(k))
        }
        Move::Board { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            let suffix = if promote { "成" } else { "" };
            format!(
                "{}{}{}({}{})",
                kif_destination(to, last_to),
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
