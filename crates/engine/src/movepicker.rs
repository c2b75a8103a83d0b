//! Move ordering: legal moves scored once and handed out best first.
//!
//! Order: the transposition-table move, captures that do not lose material
//! (most valuable victim first), killers, the countermove, quiet moves by
//! history plus continuation history, and last the captures that lose
//! material.
//!
//! ```
//! use shogi_engine::history::History;
//! use shogi_engine::movepicker::MovePicker;
//! let pos = shogi_core::Position::startpos();
//! let tt_move = "2g2f".parse().ok();
//! let mut picker = MovePicker::new(&pos, tt_move, &History::new(), 0);
//! assert_eq!(picker.next().map(|(m, _)| m), tt_move);
//! let rest = std::iter::from_fn(|| picker.next()).count();
//! assert_eq!(rest, 29);
//! ```

use shogi_core::{attacks, rules, Move, MoveList, PieceKind, Position, MAX_MOVES};

use crate::eval::{capture_value, piece_value};
use crate::history::{piece_to, History};
use crate::see::see;

/// Score of the transposition-table move.
pub const TT_SCORE: i32 = 1 << 30;
/// Base score of captures that do not lose material.
pub const GOOD_CAPTURE: i32 = 1 << 24;
/// Score of the first killer (the second gets one less).
pub const KILLER: i32 = 1 << 22;
/// Base score of captures that lose material.
pub const BAD_CAPTURE: i32 = -(1 << 22);
/// Score of the countermove (below the killers).
pub const COUNTERMOVE: i32 = KILLER - 2;

/// What a node knows of the moves before it, for ordering quiet moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Context {
    /// The [`piece_to`] indices of the moves one and two plies back (`None`
    /// at the root, after a null move, or with continuation history off).
    pub earlier: [Option<usize>; 2],
    /// The countermove of the move one ply back.
    pub countermove: Option<Move>,
}

impl Context {
    /// The history plus continuation history of quiet move `m` by `pos`'s side to move.
    #[inline]
    #[must_use]
    pub fn quiet_score(&self, pos: &Position, history: &History, m: Move) -> i32 {
        let mut s = history.score(pos.side_to_move(), m);
        if self.earlier[0].is_some() || self.earlier[1].is_some() {
            let this = piece_to(pos, m);
            for e in self.earlier.iter().flatten() {
                s += history.continuation(*e, this);
            }
        }
        s
    }
}

/// Whether `m` captures a piece.
#[inline]
#[must_use]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    matches!(m, Move::Board { to, .. } if pos.piece_at(to).is_some())
}

/// Hands out moves best first.
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl MovePicker {
    /// All legal moves of `pos`, ordered with the TT move, killers of `ply` and `history`.
    #[must_use]
    pub fn new(pos: &Position, tt_move: Option<Move>, history: &History, ply: usize) -> MovePicker {
        MovePicker::with_context(pos, tt_move, history, ply, &Context::default())
    }

    /// As [`MovePicker::new`], with the countermove and continuation history of `context`.
    #[must_use]
    pub fn with_context(
        pos: &Position,
        tt_move: Option<Move>,
        history: &History,
        ply: usize,
        context: &Context,
    ) -> MovePicker {
        let moves = pos.legal_moves();
        let mut scores = [0; MAX_MOVES];
        let killers = history.killers(ply);
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if Some(m) == tt_move {
                TT_SCORE
            } else if is_capture(pos, m) {
                capture_score(pos, m)
            } else if Some(m) == killers[0] {
                KILLER
            } else if Some(m) == killers[1] {
                KILLER - 1
            } else if Some(m) == context.countermove {
                COUNTERMOVE
            } else {
                let promo = if m.is_promotion() {
                    promotion_gain(pos, m)
                } else {
                    0
                };
                context.quiet_score(pos, history, m) + promo * 8
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The captures of `pos` (for quiescence search), most valuable victim first.
    #[must_use]
    pub fn captures(pos: &Position) -> MovePicker {
        let moves = if pos.in_check() {
            let mut moves = pos.legal_moves();
            moves.retain(|m| is_capture(pos, *m));
            moves
        } else {
            legal_captures(pos)
        };
        let mut scores = [0; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = mvv_lva(pos, m);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// How many moves there are in all.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there are no moves at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best remaining move and its ordering score.
    // Not an Iterator: the picker also hands back the ordering score, and the
    // search drives it by hand (skipping quiets, reading the stage).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }
}

/// The legal captures of `pos`, which must not be in check, generated
/// directly (far fewer than all legal moves, which include every drop).
#[must_use]
pub fn legal_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    let us = pos.side_to_move();
    let them = us.opponent();
    let occ = pos.occupancy();
    let enemies = pos.color_bb(them);
    let king = pos.king(us);
    let pinned = pos.pinned(us);
    for from in pos.color_bb(us) {
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        let mut targets = attacks::piece(us, piece.kind, from, occ) & enemies;
        if piece.kind == PieceKind::King {
            let without_king = occ.with_toggled(from);
            targets = targets
                .iter()
                .filter(|&to| !pos.is_attacked(to, them, &without_king))
                .collect();
        } else if let Some(k) = king {
            if pinned.contains(from) {
                targets &= attacks::line(k, from);
            }
        }
        for to in targets {
            if rules::can_promote(us, piece.kind, from, to) {
                list.push(Move::Board {
                    from,
                    to,
                    promote: true,
                });
            }
            if !rules::must_promote(us, piece.kind, to) {
                list.push(Move::Board {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    }
    list
}

fn promotion_gain(pos: &Position, m: Move) -> i32 {
    match m {
        Move::Board {
            from,
            promote: true,
            ..
        } => pos.piece_at(from).map_or(0, |p| {
            p.kind
                .promote()
                .map_or(0, |k| piece_value(k) - piece_value(p.kind))
        }),
        _ => 0,
    }
}

fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos.piece_at(m.to()).map_or(0, |p| capture_value(p.kind));
    let attacker = m
        .from()
        .and_then(|f| pos.piece_at(f))
        .map_or(0, |p| piece_value(p.kind));
    victim * 16 - attacker / 16 + promotion_gain(pos, m)
}

fn capture_score(pos: &Position, m: Move) -> i32 {
    let v = mvv_lva(pos, m);
    if see(pos, m) >= 0 {
        GOOD_CAPTURE + v
    } else {
        BAD_CAPTURE + v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_generator_matches_legal_moves() {
        let mut seed = 12345u64;
        for game in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..(10 + game % 120) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let m = moves[(seed >> 33) as usize % moves.len()];
                pos.make_move(m);
                if pos.in_check() {
                    continue;
                }
                let mut want: Vec<String> = pos
                    .legal_moves()
                    .iter()
                    .filter(|m| is_capture(&pos, **m))
                    .map(ToString::to_string)
                    .collect();
                let mut got: Vec<String> = legal_captures(&pos)
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                want.sort();
                got.sort();
                assert_eq!(got, want, "{}", pos.to_sfen());
            }
        }
    }
}
