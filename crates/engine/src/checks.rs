//! Whether a move gives check, decided without playing it.
//!
//! ```
//! use shogi_engine::checks::gives_check;
//! let pos = shogi_core::sfen::parse_position("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")?;
//! assert!(gives_check(&pos, "G*5b".parse()?));
//! assert!(!gives_check(&pos, "G*1b".parse()?));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::attacks;
use shogi_core::{Move, PieceKind, Position};

/// Whether the legal move `m` checks the opponent's king (directly or by
/// uncovering a slider). Always `false` when the opponent has no king.
#[must_use]
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let them = us.opponent();
    let Some(k) = pos.king(them) else {
        return false;
    };
    match m {
        Move::Drop { kind, to } => {
            let occ = pos.occupancy().with_toggled(to);
            attacks::piece(us, kind.piece_kind(), to, &occ).contains(k)
        }
        Move::Board { from, to, promote } => {
            let Some(piece) = pos.piece_at(from) else {
                return false;
            };
            let kind = if promote {
                piece.kind.promote().unwrap_or(piece.kind)
            } else {
                piece.kind
            };
            let mut occ = pos.occupancy().with_toggled(from);
            if pos.piece_at(to).is_none() {
                occ.toggle(to);
            }
            if attacks::piece(us, kind, to, &occ).contains(k) {
                return true;
            }
            // Only a piece on a line with the king can uncover a check.
            if !(attacks::rook_pseudo(k) | attacks::bishop_pseudo(k)).contains(from) {
                return false;
            }
            let rooks = pos.pieces(us, PieceKind::Rook) | pos.pieces(us, PieceKind::Dragon);
            let bishops = pos.pieces(us, PieceKind::Bishop) | pos.pieces(us, PieceKind::Horse);
            let lances = pos.pieces(us, PieceKind::Lance);
            let sliders = (attacks::rook(k, &occ) & rooks)
                | (attacks::bishop(k, &occ) & bishops)
                | (attacks::lance(them, k, &occ) & lances);
            let mut sliders = sliders;
            sliders.remove(from);
            sliders.any()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_playing_the_move() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/4P4/9/9/9/9/9/4K4 b GSNLPrb 1",
            "l3k3l/4g4/4s4/4N4/4L4/9/4R4/4B4/4K4 b P 1",
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
            "7k1/9/6B2/9/4L4/9/9/9/K3R4 b GSNLP 1",
        ];
        for s in sfens {
            let pos = shogi_core::sfen::parse_position(s).unwrap();
            for m in pos.legal_moves() {
                let mut p = pos.clone();
                p.make_move(m);
                assert_eq!(gives_check(&pos, m), p.in_check(), "{s} {m}");
            }
        }
    }
}
