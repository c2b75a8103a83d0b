//! Move ordering: moves handed out best first, generated only when needed.
//!
//! Order: the transposition-table move (checked for legality and handed
//! out before anything is generated, so a node it refutes generates
//! nothing); then the captures that do not lose material by exchange,
//! most valuable victim first (generated alone, so a node one of them
//! refutes never generates its quiet moves and drops); then the quiet
//! moves and drops: killers, the rest by history; last the captures that
//! lose material.
//!
//! Among the quiet moves the first few are found by a scan for the best;
//! from the fourth on, the rest is sorted once (a node that has not been
//! refuted by then usually looks at many more moves).
//!
//! ```
//! use shogi_engine::history::History;
//! use shogi_engine::movepicker::MovePicker;
//! let pos = shogi_core::Position::startpos();
//! let tt_move = "2g2f".parse().ok();
//! let history = History::new();
//! let mut picker = MovePicker::new(tt_move, 0, Vec::new());
//! assert_eq!(picker.next(&pos, &history).map(|(m, _)| m), tt_move);
//! let rest = std::iter::from_fn(|| picker.next(&pos, &history)).count();
//! assert_eq!(rest, 29);
//! ```

use shogi_core::{Move, MoveList, Position};

use crate::eval::{capture_value, piece_value};
use crate::history::History;
use crate::see::see;

/// Score of the transposition-table move.
pub const TT_SCORE: i32 = 1 << 30;
/// Base score of captures that do not lose material.
pub const GOOD_CAPTURE: i32 = 1 << 24;
/// Score of the first killer (the second gets one less).
pub const KILLER: i32 = 1 << 22;
/// Base score of captures that lose material.
pub const BAD_CAPTURE: i32 = -(1 << 22);
/// How many moves are found by scanning before the rest is sorted.
const SCANNED: usize = 3;

/// Whether `m` captures a piece.
#[inline]
#[must_use]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    matches!(m, Move::Board { to, .. } if pos.piece_at(to).is_some())
}

/// Where a picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The table move (if legal) comes next; nothing is generated yet.
    TableMove,
    /// The captures are to be generated and scored.
    GenerateCaptures,
    /// Handing out the captures that do not lose material.
    GoodCaptures,
    /// The quiet moves and drops are to be generated and scored.
    GenerateQuiets,
    /// Handing out the quiet moves and drops.
    Quiets,
    /// Handing out the captures that lose material.
    BadCaptures,
    /// Nothing left.
    Done,
}

/// Hands out moves best first.
pub struct MovePicker {
    stage: Stage,
    /// The table move; once the first move is asked for, only if it is
    /// legal (and so handed out, and left out of the generated moves).
    tt_move: Option<Move>,
    ply: usize,
    /// The generated moves and their scores (a buffer the caller lends,
    /// so that no node allocates or copies a full-size list): the
    /// captures, then the quiet moves once they are generated.
    moves: Vec<(Move, i32)>,
    /// The next move to hand out in the current stage.
    next: usize,
    /// The end of the captures in `moves`.
    captures_end: usize,
    /// Where the losing captures begin (the good ones handed out before
    /// them are ahead of this).
    bad_next: usize,
}

impl MovePicker {
    /// All legal moves of the position `next` is given, the table move
    /// first, then ordered with the killers of `ply` and the history.
    /// `buffer` holds the generated moves (its contents are discarded);
    /// get it back with [`MovePicker::into_buffer`].
    #[must_use]
    pub fn new(tt_move: Option<Move>, ply: usize, mut buffer: Vec<(Move, i32)>) -> MovePicker {
        buffer.clear();
        MovePicker {
            stage: Stage::TableMove,
            tt_move,
            ply,
            moves: buffer,
            next: 0,
            captures_end: 0,
            bad_next: 0,
        }
    }

    /// The captures of `pos` (for quiescence search), most valuable victim
    /// first, the losing ones included; `next` must be given the same
    /// position. `buffer` as for [`MovePicker::new`].
    #[must_use]
    pub fn captures(pos: &Position, buffer: Vec<(Move, i32)>) -> MovePicker {
        let mut list = MoveList::new();
        pos.legal_captures_into(&mut list);
        let mut picker = MovePicker::new(None, 0, buffer);
        picker
            .moves
            .extend(list.iter().map(|&m| (m, mvv_lva(pos, m))));
        picker.captures_end = picker.moves.len();
        // Handed out best first by the last stage's scan, and nothing else.
        picker.stage = Stage::BadCaptures;
        picker
    }

    /// The best remaining move of `pos` (always the same position for one
    /// picker) and its ordering score.
    // Not an Iterator: the picker also hands back the ordering score, and
    // the search drives it by hand with its own position and history.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    self.tt_move = self.tt_move.filter(|&m| pos.is_legal(m));
                    if let Some(m) = self.tt_move {
                        return Some((m, TT_SCORE));
                    }
                }
                Stage::GenerateCaptures => {
                    let mut list = MoveList::new();
                    pos.legal_captures_into(&mut list);
                    for &m in &list {
                        if Some(m) != self.tt_move {
                            self.moves.push((m, capture_score(pos, m)));
                        }
                    }
                    self.captures_end = self.moves.len();
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if let Some(i) = best_index(&self.moves[self.next..self.captures_end]) {
                        let i = self.next + i;
                        if self.moves[i].1 >= GOOD_CAPTURE {
                            self.moves.swap(self.next, i);
                            self.next += 1;
                            return Some(self.moves[self.next - 1]);
                        }
                    }
                    self.bad_next = self.next;
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets => {
                    self.generate_quiets(pos, history);
                    self.next = self.captures_end;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    let rest = &mut self.moves[self.next..];
                    if rest.is_empty() {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let handed = self.next - self.captures_end;
                    if handed == SCANNED {
                        rest.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
                    } else if handed < SCANNED {
                        if let Some(best) = best_index(rest) {
                            rest.swap(0, best);
                        }
                    }
                    self.next += 1;
                    return Some(self.moves[self.next - 1]);
                }
                Stage::BadCaptures => {
                    let rest = &mut self.moves[self.bad_next..self.captures_end];
                    let Some(best) = best_index(rest) else {
                        self.stage = Stage::Done;
                        continue;
                    };
                    rest.swap(0, best);
                    self.bad_next += 1;
                    return Some(self.moves[self.bad_next - 1]);
                }
                Stage::Done => return None,
            }
        }
    }

    /// The buffer lent to [`MovePicker::new`], for the next picker.
    #[must_use]
    pub fn into_buffer(self) -> Vec<(Move, i32)> {
        self.moves
    }

    fn generate_quiets(&mut self, pos: &Position, history: &History) {
        let mut list = MoveList::new();
        pos.legal_quiets_into(&mut list);
        let killers = history.killers(self.ply);
        let us = pos.side_to_move();
        for &m in &list {
            if Some(m) == self.tt_move {
                continue;
            }
            let score = if Some(m) == killers[0] {
                KILLER
            } else if Some(m) == killers[1] {
                KILLER - 1
            } else {
                let promo = if m.is_promotion() {
                    promotion_gain(pos, m)
                } else {
                    0
                };
                history.score(us, m) + promo * 8
            };
            self.moves.push((m, score));
        }
    }
}

/// The index of the highest score in `moves` (the first of equals), if any.
fn best_index(moves: &[(Move, i32)]) -> Option<usize> {
    let mut best = None;
    for (i, m) in moves.iter().enumerate() {
        if best.is_none_or(|b: usize| m.1 > moves[b].1) {
            best = Some(i);
        }
    }
    best
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

    /// Positions along pseudo-random games, checks included.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut seed = 12345u64;
        for game in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..(10 + game % 120) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let m = moves[(seed >> 33) as usize % moves.len()];
                pos.make_move(m);
                out.push(pos.clone());
            }
        }
        out
    }

    /// Every legal move once: the table move first, then the captures that
    /// keep their material, the quiet moves, and the losing captures last.
    #[test]
    fn hands_out_every_legal_move_once_in_stages() {
        let mut history = History::new();
        for (n, pos) in positions().iter().enumerate() {
            let legal = pos.legal_moves();
            // A table move now and then (the n-th legal move, or none), and
            // a killer that may or may not be legal here.
            let tt_move = (n % 3 != 0)
                .then(|| legal.get(n % legal.len().max(1)).copied())
                .flatten();
            if let Some(&k) = legal.last() {
                if !is_capture(pos, k) {
                    history.add_killer(0, k);
                }
            }
            let mut picker = MovePicker::new(tt_move, 0, Vec::new());
            let got: Vec<Move> =
                std::iter::from_fn(|| picker.next(pos, &history).map(|(m, _)| m)).collect();
            let mut a: Vec<u16> = got.iter().map(|m| m.to_u16()).collect();
            let mut b: Vec<u16> = legal.iter().map(|m| m.to_u16()).collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{}", pos.to_sfen());
            if let Some(t) = tt_move {
                assert_eq!(got[0], t);
            }
            let rest = &got[usize::from(tt_move.is_some())..];
            // 0: good capture, 1: quiet, 2: losing capture; never decreasing.
            let class = |m: Move| match (is_capture(pos, m), see(pos, m) >= 0) {
                (true, true) => 0,
                (false, _) => 1,
                (true, false) => 2,
            };
            assert!(
                rest.windows(2).all(|w| class(w[0]) <= class(w[1])),
                "{}: {rest:?}",
                pos.to_sfen()
            );
        }
    }

    #[test]
    fn capture_picker_gives_exactly_the_captures_best_victim_first() {
        for pos in positions() {
            let mut picker = MovePicker::captures(&pos, Vec::new());
            let history = History::new();
            let got: Vec<(Move, i32)> =
                std::iter::from_fn(|| picker.next(&pos, &history)).collect();
            let mut a: Vec<u16> = got.iter().map(|(m, _)| m.to_u16()).collect();
            let mut b: Vec<u16> = pos
                .legal_moves()
                .iter()
                .filter(|m| is_capture(&pos, **m))
                .map(|m| m.to_u16())
                .collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{}", pos.to_sfen());
            assert!(got.windows(2).all(|w| w[0].1 >= w[1].1));
        }
    }
}
