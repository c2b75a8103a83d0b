//! Move ordering: moves handed out best first, generated only when needed.
//!
//! Order: the transposition-table move (checked for legality and handed
//! out before anything is generated, so a node it refutes generates
//! nothing), then the other legal moves, scored when they are generated:
//! captures that do not lose material (most valuable victim first),
//! killers, the countermove, quiet moves by history plus continuation
//! history, and last the captures that lose material.
//!
//! The first few moves after the table move are found by a scan for the
//! best; from the fourth on, the rest is sorted once (a node that has not
//! been refuted by then usually looks at many more moves).
//!
//! ```
//! use shogi_engine::history::History;
//! use shogi_engine::movepicker::{Context, MovePicker};
//! let pos = shogi_core::Position::startpos();
//! let tt_move = "2g2f".parse().ok();
//! let history = History::new();
//! let mut picker = MovePicker::new(tt_move, 0, Context::default(), Vec::new());
//! assert_eq!(picker.next(&pos, &history).map(|(m, _)| m), tt_move);
//! let rest = std::iter::from_fn(|| picker.next(&pos, &history)).count();
//! assert_eq!(rest, 29);
//! ```

use shogi_core::{attacks, rules, Move, MoveList, PieceKind, Position};

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
/// How many moves are found by scanning before the rest is sorted.
const SCANNED: usize = 3;

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

/// Where a picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The table move (if legal) comes next; nothing is generated yet.
    TableMove,
    /// The other legal moves are to be generated and scored.
    Generate,
    /// Handing out the generated moves.
    Pick,
}

/// Hands out moves best first.
pub struct MovePicker {
    stage: Stage,
    /// The table move; once the first move is asked for, only if it is
    /// legal (and so handed out, and left out of the generated moves).
    tt_move: Option<Move>,
    ply: usize,
    context: Context,
    /// The generated moves and their scores (a buffer the caller lends,
    /// so that no node allocates or copies a full-size list).
    moves: Vec<(Move, i32)>,
    /// How many generated moves have been handed out; from [`SCANNED`] on,
    /// the rest (`moves[next..]`) is sorted best first.
    next: usize,
}

impl MovePicker {
    /// All legal moves of the position `next` is given, the table move
    /// first, then ordered with the killers of `ply`, the history and the
    /// countermove and continuation history of `context`. `buffer` holds
    /// the generated moves (its contents are discarded); get it back with
    /// [`MovePicker::into_buffer`].
    #[must_use]
    pub fn new(
        tt_move: Option<Move>,
        ply: usize,
        context: Context,
        mut buffer: Vec<(Move, i32)>,
    ) -> MovePicker {
        buffer.clear();
        MovePicker {
            stage: Stage::TableMove,
            tt_move,
            ply,
            context,
            moves: buffer,
            next: 0,
        }
    }

    /// The captures of `pos` (for quiescence search), most valuable victim
    /// first; `next` must be given the same position. `buffer` as for
    /// [`MovePicker::new`].
    #[must_use]
    pub fn captures(pos: &Position, buffer: Vec<(Move, i32)>) -> MovePicker {
        let mut list = MoveList::new();
        if pos.in_check() {
            pos.legal_moves_into(&mut list);
            list.retain(|m| is_capture(pos, *m));
        } else {
            legal_captures_into(pos, &mut list);
        }
        let mut picker = MovePicker::new(None, 0, Context::default(), buffer);
        picker.stage = Stage::Pick;
        picker
            .moves
            .extend(list.iter().map(|&m| (m, mvv_lva(pos, m))));
        picker
    }

    /// The best remaining move of `pos` (always the same position for one
    /// picker) and its ordering score.
    // Not an Iterator: the picker also hands back the ordering score, and
    // the search drives it by hand with its own position and history.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<(Move, i32)> {
        if self.stage == Stage::TableMove {
            self.stage = Stage::Generate;
            self.tt_move = self.tt_move.filter(|&m| pos.is_legal(m));
            if let Some(m) = self.tt_move {
                return Some((m, TT_SCORE));
            }
        }
        if self.stage == Stage::Generate {
            self.stage = Stage::Pick;
            self.generate(pos, history);
        }
        let rest = self.moves.get_mut(self.next..)?;
        if rest.is_empty() {
            return None;
        }
        if self.next == SCANNED {
            rest.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
        } else if self.next < SCANNED {
            let mut best = 0;
            for i in 1..rest.len() {
                if rest[i].1 > rest[best].1 {
                    best = i;
                }
            }
            rest.swap(0, best);
        }
        let r = rest[0];
        self.next += 1;
        Some(r)
    }

    /// The buffer lent to [`MovePicker::new`], for the next picker.
    #[must_use]
    pub fn into_buffer(self) -> Vec<(Move, i32)> {
        self.moves
    }

    fn generate(&mut self, pos: &Position, history: &History) {
        let mut list = MoveList::new();
        pos.legal_moves_into(&mut list);
        let killers = history.killers(self.ply);
        for &m in &list {
            if Some(m) == self.tt_move {
                continue;
            }
            let score = if is_capture(pos, m) {
                capture_score(pos, m)
            } else if Some(m) == killers[0] {
                KILLER
            } else if Some(m) == killers[1] {
                KILLER - 1
            } else if Some(m) == self.context.countermove {
                COUNTERMOVE
            } else {
                let promo = if m.is_promotion() {
                    promotion_gain(pos, m)
                } else {
                    0
                };
                self.context.quiet_score(pos, history, m) + promo * 8
            };
            self.moves.push((m, score));
        }
    }
}

/// The legal captures of `pos`, which must not be in check, generated
/// directly (far fewer than all legal moves, which include every drop).
#[must_use]
pub fn legal_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    legal_captures_into(pos, &mut list);
    list
}

/// [`legal_captures`] appended to `list`.
pub fn legal_captures_into(pos: &Position, list: &mut MoveList) {
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
