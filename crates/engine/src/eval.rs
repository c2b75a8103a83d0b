//! Static evaluation: material (board and hand), piece placement relative to
//! both kings, and a simple king-safety term, behind the [`Evaluator`] trait
//! so that another evaluation (a network) can replace it.
//!
//! Scores are in centipawn-like units from the side to move's point of view.
//!
//! ```
//! use shogi_engine::eval::{ClassicEval, Evaluator};
//! let pos = shogi_core::Position::startpos();
//! let score = ClassicEval.evaluate(&pos);
//! assert!(score.abs() < 100);
//! ```

use shogi_core::{Color, HandKind, PieceKind, Position, Square};

/// A static evaluation function.
pub trait Evaluator: Send + Sync {
    /// The score of `pos` for the side to move.
    fn evaluate(&self, pos: &Position) -> i32;
}

/// The value of a piece of `kind` on the board.
#[must_use]
pub const fn piece_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => 90,
        PieceKind::Lance => 315,
        PieceKind::Knight => 405,
        PieceKind::Silver => 495,
        PieceKind::Gold => 540,
        PieceKind::Bishop => 855,
        PieceKind::Rook => 990,
        PieceKind::King => 15000,
        PieceKind::ProPawn => 540,
        PieceKind::ProLance => 540,
        PieceKind::ProKnight => 540,
        PieceKind::ProSilver => 540,
        PieceKind::Horse => 945,
        PieceKind::Dragon => 1395,
    }
}

/// The value of a piece of `kind` held in hand (a little more than on the
/// board: it can be dropped anywhere).
#[must_use]
pub const fn hand_value(kind: HandKind) -> i32 {
    match kind {
        HandKind::Pawn => 100,
        HandKind::Lance => 350,
        HandKind::Knight => 450,
        HandKind::Silver => 550,
        HandKind::Gold => 600,
        HandKind::Bishop => 950,
        HandKind::Rook => 1100,
    }
}

/// What a capture of a piece of `kind` is worth: it leaves the board and
/// enters the capturer's hand.
#[must_use]
pub fn capture_value(kind: PieceKind) -> i32 {
    piece_value(kind) + kind.hand_kind().map_or(0, hand_value)
}

/// The hand-written evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClassicEval;

/// Chebyshev distance between two squares.
fn distance(a: Square, b: Square) -> usize {
    let df = a.file().index().abs_diff(b.file().index());
    let dr = a.rank().index().abs_diff(b.rank().index());
    df.max(dr)
}

/// Bonus by distance to the enemy king, per kind class.
const ATTACK: [[i32; 9]; 6] = [
    [0, 30, 20, 10, 4, 0, 0, 0, 0],   // pawn
    [0, 40, 35, 20, 8, 0, 0, 0, 0],   // lance, knight
    [0, 60, 45, 25, 10, 0, 0, 0, 0],  // silver
    [0, 70, 50, 25, 10, 0, 0, 0, 0],  // gold and promoted minors
    [0, 60, 40, 25, 15, 8, 4, 0, 0],  // bishop, horse
    [0, 70, 50, 30, 20, 10, 5, 0, 0], // rook, dragon
];

/// Bonus by distance to the own king, per kind class.
const DEFEND: [[i32; 9]; 6] = [
    [0, 10, 5, 0, 0, 0, 0, 0, 0],
    [0, 5, 5, 0, 0, 0, 0, 0, 0],
    [0, 50, 35, 10, 0, -5, -10, -10, -15],
    [0, 60, 40, 15, 0, -5, -10, -15, -20],
    [0, 20, 10, 5, 0, 0, 0, 0, 0],
    [0, 10, 5, 0, 0, 0, 0, 0, 0],
];

fn class(kind: PieceKind) -> usize {
    match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance | PieceKind::Knight => 1,
        PieceKind::Silver => 2,
        PieceKind::Bishop | PieceKind::Horse => 4,
        PieceKind::Rook | PieceKind::Dragon => 5,
        _ => 3,
    }
}

impl ClassicEval {
    /// The score of `pos` for Sente.
    #[must_use]
    pub fn evaluate_sente(&self, pos: &Position) -> i32 {
        let mut score = [0i32; 2];
        let kings = [pos.king(Color::Sente), pos.king(Color::Gote)];
        for color in Color::ALL {
            let c = color.index();
            let own_king = kings[c];
            let enemy_king = kings[1 - c];
            let hand = pos.hand(color);
            for k in HandKind::ALL {
                score[c] += i32::from(hand.count(k)) * hand_value(k);
            }
            // Pieces in hand threaten the enemy king more when it is exposed.
            let hand_pieces = hand.total() as i32 - i32::from(hand.count(HandKind::Pawn));
            for sq in pos.color_bb(color) {
                let Some(piece) = pos.piece_at(sq) else {
                    continue;
                };
                if piece.kind == PieceKind::King {
                    // Staying in the own camp is safer in the middle game.
                    if sq.rank().relative(color) >= 7 {
                        score[c] += 30;
                    }
                    continue;
                }
                score[c] += piece_value(piece.kind);
                let cl = class(piece.kind);
                if let Some(ek) = enemy_king {
                    score[c] += ATTACK[cl][distance(sq, ek)];
                }
                if let Some(ok) = own_king {
                    score[c] += DEFEND[cl][distance(sq, ok)];
                }
            }
            // King safety: the opponent's pieces close to our king, and our
            // hand pieces near theirs.
            if let Some(ok) = own_king {
                let near = shogi_core::attacks::king(ok);
                // Only generals guard; pawns in front of the king are in the tables.
                let generals = pos.pieces(color, PieceKind::Gold)
                    | pos.pieces(color, PieceKind::Silver)
                    | pos.pieces(color, PieceKind::ProPawn)
                    | pos.pieces(color, PieceKind::ProSilver);
                let guards = (near & generals).count() as i32;
                let mut attackers = 0;
                for sq in pos.color_bb(color.opponent()) {
                    if distance(sq, ok) <= 2 {
                        attackers += 1;
                    }
                }
                score[c] += 8 * guards - 25 * attackers;
            }
            if enemy_king.is_some() {
                score[c] += 10 * hand_pieces;
            }
        }
        score[0] - score[1]
    }
}

impl Evaluator for ClassicEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        let s = self.evaluate_sente(pos);
        let tempo = 20;
        match pos.side_to_move() {
            Color::Sente => s + tempo,
            Color::Gote => -s + tempo,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric() {
        let pos = shogi_core::sfen::parse_position(
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
        )
        .unwrap();
        let e = ClassicEval;
        let flipped = {
            let mut s = pos.to_setup();
            let mut board = [None; 81];
            for sq in Square::all() {
                if let Some(p) = s.board[sq.index()] {
                    board[sq.flip().index()] =
                        Some(shogi_core::Piece::new(p.color.opponent(), p.kind));
                }
            }
            s.board = board;
            std::mem::swap(&mut s.hands.sente, &mut s.hands.gote);
            s.side_to_move = s.side_to_move.opponent();
            shogi_core::Position::from_setup(s).unwrap()
        };
        assert_eq!(e.evaluate(&pos), e.evaluate(&flipped));
    }

    #[test]
    fn material_counts() {
        let up = shogi_core::sfen::parse_position("4k4/9/9/9/9/9/9/9/4K4 b R 1").unwrap();
        assert!(ClassicEval.evaluate(&up) > 800);
    }
}
