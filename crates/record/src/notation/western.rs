//! Western (Hodges) move text: `P-7f`, `Bx2b+`, `P*5e`, `S-4h=`, and the numeric
//! variant `P-76`.
//!
//! A piece letter (`P L N S G B R K`, promoted `+P +L +N +S +B +R`), the origin
//! square only when another piece of the same kind could make the same move,
//! `-` for a move, `x` for a capture, `*` for a drop, the destination, then `+`
//! for a promotion or `=` for a declined one.
//!
//! ```
//! use shogi_core::Position;
//! use shogi_record::notation::western::{write, Squares};
//! let pos = Position::startpos();
//! assert_eq!(write(&pos, "7g7f".parse()?, Squares::Letters), "P-7f");
//! assert_eq!(write(&pos, "6i5h".parse()?, Squares::Letters), "G6i-5h");
//! assert_eq!(write(&pos, "6i5h".parse()?, Squares::Numbers), "G69-58");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{rules, Move, PieceKind, Position, Square};

/// How squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Squares {
    /// File digit and rank letter: `7f`.
    Letters,
    /// File and rank digits: `76`.
    Numbers,
}

/// The Western letter of `kind` (`P`, `+R`, ...).
#[must_use]
pub fn piece_letter(kind: PieceKind) -> &'static str {
    kind.sfen()
}

pub(crate) fn square(sq: Square, style: Squares) -> String {
    match style {
        Squares::Letters => sq.to_string(),
        Squares::Numbers => format!("{}{}", sq.file().number(), sq.rank().number()),
    }
}

/// Whether another piece of the same kind could also make a move to `to` (same promotion choice).
pub(crate) fn ambiguous(pos: &Position, from: Square, to: Square, promote: bool) -> bool {
    let kind = pos.piece_at(from).map(|p| p.kind);
    pos.legal_moves().iter().any(|&m| match m {
        Move::Board {
            from: f,
            to: t,
            promote: p,
        } => f != from && t == to && p == promote && pos.piece_at(f).map(|pc| pc.kind) == kind,
        Move::Drop { .. } => false,
    })
}

/// The Western text of legal move `mv` in `pos`.
#[must_use]
pub fn write(pos: &Position, mv: Move, style: Squares) -> String {
    match mv {
        Move::Drop { kind, to } => {
            format!("{}*{}", piece_letter(kind.piece_kind()), square(to, style))
        }
        Move::Board { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            let mut s = piece_letter(kind).to_string();
            if ambiguous(pos, from, to, promote) {
                s.push_str(&square(from, style));
            }
            s.push(if pos.piece_at(to).is_some() { 'x' } else { '-' });
            s.push_str(&square(to, style));
            if promote {
                s.push('+');
            } else if rules::can_promote(pos.side_to_move(), kind, from, to) {
                s.push('=');
            }
            s
        }
    }
}
