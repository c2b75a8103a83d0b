//! Static exchange evaluation: the material balance of the capture sequence
//! on one square, each side recapturing with its least valuable attacker.
//!
//! Pins are ignored; sliders behind the capturing pieces are found by
//! recomputing attacks with the pieces that left the square removed.
//!
//! ```
//! use shogi_engine::see::see;
//! // A rook takes a pawn defended by a gold: it loses the rook for a pawn.
//! let pos = shogi_core::sfen::parse_position("4k4/4g4/4p4/9/9/9/9/4R4/4K4 b - 1")?;
//! assert!(see(&pos, "5h5c".parse()?) < 0);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{Bitboard, Move, PieceKind, Position};

use crate::eval::{capture_value, piece_value};

/// Kinds from least to most valuable, for picking the next attacker.
const ORDER: [PieceKind; 14] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::Silver,
    PieceKind::ProSilver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Dragon,
    PieceKind::King,
];

/// The exchange value of legal move `m` for the side to move (0 for a
/// drop or a quiet move that cannot be taken back at a profit).
#[must_use]
pub fn see(pos: &Position, m: Move) -> i32 {
    let to = m.to();
    let (mover, first_gain, promo_gain) = match m {
        Move::Drop { kind, .. } => (kind.piece_kind(), 0, 0),
        Move::Board { from, promote, .. } => {
            let Some(p) = pos.piece_at(from) else {
                return 0;
            };
            let captured = pos.piece_at(to).map_or(0, |c| capture_value(c.kind));
            if promote {
                let pk = p.kind.promote().unwrap_or(p.kind);
                (pk, captured, piece_value(pk) - piece_value(p.kind))
            } else {
                (p.kind, captured, 0)
            }
        }
    };
    let mut occ = *pos.occupancy();
    if let Some(from) = m.from() {
        occ.toggle(from);
    }
    if pos.piece_at(to).is_none() {
        occ.toggle(to);
    }
    let mut gains = [0i32; 40];
    gains[0] = first_gain + promo_gain;
    let mut on_square = mover;
    let mut side = pos.side_to_move().opponent();
    let mut n = 1;
    let mut used = Bitboard::EMPTY;
    if let Some(from) = m.from() {
        used.insert(from);
    }
    while n < gains.len() {
        let attackers = pos.attackers_to(to, side, &occ) & occ.bitboard() & !used;
        let Some((sq, kind)) = ORDER
            .iter()
            .find_map(|&k| (attackers & pos.pieces(side, k)).first().map(|s| (s, k)))
        else {
            break;
        };
        if kind == PieceKind::King {
            // The king may only take if nothing can take it back.
            let defenders = pos.attackers_to(to, side.opponent(), &occ.with_toggled(sq))
                & occ.bitboard()
                & !used;
            if defenders.any() {
                break;
            }
        }
        gains[n] = capture_value(on_square) - gains[n - 1];
        on_square = kind;
        used.insert(sq);
        occ.toggle(sq);
        side = side.opponent();
        n += 1;
    }
    while n > 1 {
        n -= 1;
        gains[n - 1] = -((-gains[n - 1]).max(gains[n]));
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_exchanges() {
        let pos = shogi_core::sfen::parse_position("4k4/9/4p4/9/9/9/9/4R4/4K4 b - 1").unwrap();
        assert_eq!(
            see(&pos, "5h5c".parse().unwrap()),
            capture_value(PieceKind::Pawn)
        );
        let pos = shogi_core::sfen::parse_position("4k4/4g4/4p4/4P4/9/9/9/4R4/4K4 b - 1").unwrap();
        // Pawn takes pawn, gold takes pawn, rook takes gold, ...: wins material.
        assert!(see(&pos, "5d5c".parse().unwrap()) > 0);
    }
}
