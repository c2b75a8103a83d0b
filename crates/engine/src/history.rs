//! Move-ordering memory kept during a search: killer moves per ply, a
//! history score per (side, origin or dropped kind, destination), a
//! continuation history per (earlier move, this move) pair with both moves
//! written as (piece after the move, destination), and a countermove per
//! (piece, destination) of the move answered.
//!
//! ```
//! use shogi_engine::history::History;
//! use shogi_core::Color;
//! let mut h = History::new();
//! let m = "7g7f".parse()?;
//! h.reward(Color::Sente, m, 4);
//! assert!(h.score(Color::Sente, m) > 0);
//! h.add_killer(3, m);
//! assert_eq!(h.killers(3)[0], Some(m));
//! # Ok::<_, shogi_core::UsiMoveError>(())
//! ```

use shogi_core::{Color, Move, Position};

/// The largest magnitude a history score reaches.
pub const HISTORY_MAX: i32 = 16384;

/// The deepest ply killers are kept for.
pub const MAX_PLY: usize = 256;

/// How many (piece, destination) pairs there are: 2 colours × 14 kinds × 81 squares.
pub const PIECE_TO: usize = 2 * 14 * 81;

/// The (piece after the move, destination) index of `m`, a legal move of
/// `pos` not yet played: the key of the continuation history and the
/// countermoves.
#[inline]
#[must_use]
pub fn piece_to(pos: &Position, m: Move) -> usize {
    let us = pos.side_to_move();
    let kind = match m {
        Move::Board { from, promote, .. } => pos.piece_at(from).map_or(0, |p| {
            if promote {
                p.kind.promoted_or_self().index()
            } else {
                p.kind.index()
            }
        }),
        Move::Drop { kind, .. } => kind.piece_kind().index(),
    };
    (us.index() * 14 + kind) * 81 + m.to().index()
}

/// Killer moves, history scores, continuation history and countermoves.
#[derive(Clone, Debug)]
pub struct History {
    table: Vec<i32>,
    killers: Vec<[Option<Move>; 2]>,
    /// `[earlier piece_to][this piece_to]`, the same table for one and two plies back.
    continuation: Vec<i16>,
    counters: Vec<Option<Move>>,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

fn index(color: Color, m: Move) -> usize {
    color.index() * 16384 + usize::from(m.to_u16() & 0x3fff)
}

impl History {
    /// Empty tables.
    #[must_use]
    pub fn new() -> History {
        History {
            table: vec![0; 2 * 16384],
            killers: vec![[None; 2]; MAX_PLY + 1],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            counters: vec![None; PIECE_TO],
        }
    }

    /// The continuation score of a move with index `this` (see [`piece_to`])
    /// played after the move with index `earlier` (one or two plies back).
    #[inline]
    #[must_use]
    pub fn continuation(&self, earlier: usize, this: usize) -> i32 {
        self.continuation
            .get(earlier * PIECE_TO + this)
            .map_or(0, |&v| i32::from(v))
    }

    /// Moves the continuation score of (`earlier`, `this`) towards the sign
    /// of `bonus` (a reward when positive, a penalty when negative).
    pub fn update_continuation(&mut self, earlier: usize, this: usize, bonus: i32) {
        if let Some(e) = self.continuation.get_mut(earlier * PIECE_TO + this) {
            let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
            let v = i32::from(*e);
            let v = v + bonus - v * bonus.abs() / HISTORY_MAX;
            *e = i16::try_from(v.clamp(-HISTORY_MAX, HISTORY_MAX)).unwrap_or(0);
        }
    }

    /// The quiet move that last refuted the move with index `earlier`.
    #[inline]
    #[must_use]
    pub fn countermove(&self, earlier: usize) -> Option<Move> {
        self.counters.get(earlier).copied().flatten()
    }

    /// Records `m` as the refutation of the move with index `earlier`.
    pub fn set_countermove(&mut self, earlier: usize, m: Move) {
        if let Some(c) = self.counters.get_mut(earlier) {
            *c = Some(m);
        }
    }

    /// The history score of `m` played by `color`.
    #[inline]
    #[must_use]
    pub fn score(&self, color: Color, m: Move) -> i32 {
        self.table[index(color, m)]
    }

    fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let e = &mut self.table[index(color, m)];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += bonus - *e * bonus.abs() / HISTORY_MAX;
    }

    /// The history bonus of a cutoff at `depth` (negated for a penalty).
    #[must_use]
    pub fn bonus(depth: i32) -> i32 {
        depth * depth * 16
    }

    /// Rewards a quiet move that caused a cutoff at `depth`.
    pub fn reward(&mut self, color: Color, m: Move, depth: i32) {
        self.update(color, m, depth * depth * 16);
    }

    /// Penalises a quiet move tried before the cutoff move at `depth`.
    pub fn punish(&mut self, color: Color, m: Move, depth: i32) {
        self.update(color, m, -(depth * depth * 16));
    }

    /// The two killer moves at `ply`.
    #[must_use]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    /// Records `m` as a killer at `ply`.
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
        }
    }

    /// Forgets the killers of the plies below `ply` (a new node's children).
    pub fn clear_killers_from(&mut self, ply: usize) {
        if let Some(k) = self.killers.get_mut(ply) {
            *k = [None; 2];
        }
    }

    /// Halves all history scores (between searches).
    pub fn age(&mut self) {
        for e in &mut self.table {
            *e /= 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::{sfen::parse_position, PieceKind};

    #[test]
    fn piece_to_names_the_piece_after_the_move_and_its_square() {
        let pos = parse_position("4k4/9/9/9/9/9/2P6/9/4K4 b P 1").unwrap();
        let push: Move = "7g7f".parse().unwrap();
        let drop: Move = "P*5e".parse().unwrap();
        let (push_sq, drop_sq) = (push.to().index(), drop.to().index());
        assert_eq!(piece_to(&pos, push), PieceKind::Pawn.index() * 81 + push_sq);
        assert_eq!(piece_to(&pos, drop), PieceKind::Pawn.index() * 81 + drop_sq);
        // A promotion is keyed by the promoted piece; Gote's moves by Gote's pieces.
        let pos = parse_position("4k4/9/9/2P6/9/9/9/9/4K4 b - 1").unwrap();
        let promo: Move = "7d7c+".parse().unwrap();
        let plain: Move = "7d7c".parse().unwrap();
        assert_eq!(
            piece_to(&pos, promo),
            PieceKind::ProPawn.index() * 81 + promo.to().index()
        );
        assert_ne!(piece_to(&pos, promo), piece_to(&pos, plain));
        let pos = parse_position("4k4/9/9/9/9/9/9/9/4K4 w - 1").unwrap();
        let king: Move = "5a5b".parse().unwrap();
        assert_eq!(
            piece_to(&pos, king),
            (14 + PieceKind::King.index()) * 81 + king.to().index()
        );
        assert!(piece_to(&pos, king) < PIECE_TO);
    }

    #[test]
    fn continuation_scores_move_towards_the_bonus_and_stay_bounded() {
        let mut h = History::new();
        assert_eq!(h.continuation(3, 7), 0);
        for _ in 0..1000 {
            h.update_continuation(3, 7, History::bonus(20));
        }
        let v = h.continuation(3, 7);
        assert!(v > HISTORY_MAX / 2 && v <= HISTORY_MAX, "{v}");
        assert_eq!(h.continuation(7, 3), 0, "the pair is ordered");
        h.update_continuation(3, 7, -History::bonus(20));
        assert!(h.continuation(3, 7) < v);
        let m: Move = "7g7f".parse().unwrap();
        assert_eq!(h.countermove(5), None);
        h.set_countermove(5, m);
        assert_eq!(h.countermove(5), Some(m));
        // Out-of-range indices are ignored, not a panic.
        h.set_countermove(PIECE_TO, m);
        assert_eq!(h.continuation(PIECE_TO, 0), 0);
    }
}
