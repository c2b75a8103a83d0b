//! The root of the search: iterative deepening over the root moves, an
//! aspiration window around each line's last score, `MultiPV`, the decision
//! when to stop (a mate found with room to spare, the soft time limit scaled
//! by the best move's stability), the USI `info` lines, and the result.
//!
//! Helper threads (lazy SMP) run the same loop, skipping some depths so that
//! the threads spread over depths; only the main thread (id 0) reports and
//! decides when to stop.

use shogi_core::Move;

use super::{usi_score, PvLine, RootMove, SearchResult, Worker, INFINITE, MATE, MATE_IN_MAX_PLY};
use crate::checks::gives_check;
use crate::skill::{Skill, SKILL_LINES};

/// The least depth searched with an aspiration window.
const ASPIRATION_DEPTH: u32 = 4;
/// Past this half-width the window is opened fully.
const ASPIRATION_MAX_DELTA: i32 = 1000;

/// What iterative deepening keeps from one iteration to the next.
#[derive(Default)]
struct Progress {
    /// The last completed depth.
    completed: u32,
    /// The root moves after the last completed iteration.
    last_completed: Option<Vec<RootMove>>,
    /// The best move of the last completed iteration.
    last_best: Option<Move>,
    /// For how many iterations in a row the best move has not changed.
    stable: u32,
    /// The best score of the last completed iteration.
    last_score: Option<i32>,
    /// How many centipawns the best score fell in the last completed
    /// iteration (0 or less: it held or rose; 0 around mate scores).
    drop: i32,
}

impl Progress {
    /// Notes the best move and its score of a completed iteration.
    fn note_best(&mut self, best: Move, score: i32) {
        if self.last_best == Some(best) {
            self.stable += 1;
        } else {
            self.stable = 0;
        }
        self.last_best = Some(best);
        let plain = |s: i32| s.abs() < MATE_IN_MAX_PLY;
        self.drop = match self.last_score {
            Some(last) if plain(last) && plain(score) => last - score,
            _ => 0,
        };
        self.last_score = Some(score);
    }
}

impl Worker<'_> {
    /// Iterative deepening from depth 1 to the limit: each iteration
    /// searches every line of `MultiPV` with an aspiration window, then
    /// reports (main thread) and decides whether to go on.
    pub(super) fn iterate(&mut self, info: &mut (dyn FnMut(&str) + Send)) -> SearchResult {
        if self.root_moves.is_empty() {
            return SearchResult {
                best_move: None,
                ponder_move: None,
                score: -MATE,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                lines: Vec::new(),
            };
        }
        let multipv = self.shared.options.multipv.clamp(1, self.root_moves.len());
        // A weakened level keeps a few more lines to choose from; it
        // reports only the `multipv` asked for.
        let searched = match self.shared.skill {
            Some(_) => multipv.max(SKILL_LINES).min(self.root_moves.len()),
            None => multipv,
        };
        let mut progress = Progress::default();
        for depth in 1..=self.shared.max_depth {
            if self.skips(depth) {
                continue;
            }
            self.search_iteration(depth, searched);
            self.flush_nodes();
            if self.stopped && depth > 1 {
                // An interrupted iteration's scores are partial: answer with
                // the last completed iteration's moves and order.
                if let Some(done) = progress.last_completed.take() {
                    self.root_moves = done;
                    // Its lines again, with the whole search's nodes and
                    // time: GUIs and match runners read the totals from the
                    // last `info` line, which otherwise held the count at
                    // the end of the completed iteration (at `go nodes
                    // 50000`, 31,000 on average over a match).
                    if self.id == 0 {
                        self.report(progress.completed, multipv, info);
                    }
                }
                break;
            }
            progress.completed = depth;
            progress.last_completed = Some(self.root_moves.clone());
            if self.id == 0 {
                self.report(depth, multipv, info);
            }
            progress.note_best(self.root_moves[0].mv, self.root_moves[0].score);
            if self.stopped || (self.id == 0 && self.enough(depth, &progress)) {
                break;
            }
        }
        if let (Some(skill), 0) = (self.shared.skill, self.id) {
            self.choose(skill, searched);
        }
        self.result(progress.completed, multipv)
    }

    /// Moves the root move a weakened level plays to the front: one of the
    /// best `searched` lines by the skill's temperature, or now and then any
    /// move ([`Skill::pick`]).
    fn choose(&mut self, skill: Skill, searched: usize) {
        let lines: Vec<i32> = self
            .root_moves
            .iter()
            .take(searched)
            .map(|rm| rm.score)
            .take_while(|&s| s > -INFINITE)
            .collect();
        let i = skill.pick(&lines, self.root_moves.len(), self.shared.seed);
        if i > 0 && i < self.root_moves.len() {
            let top = self.root_moves[0].score;
            let mut chosen = self.root_moves.remove(i);
            // A random move not searched (or seen to lose to a mate) keeps
            // the position's score: the level plays it unaware, and does
            // not resign instead.
            if chosen.score <= -MATE_IN_MAX_PLY {
                chosen.score = top;
            }
            self.root_moves.insert(0, chosen);
        }
    }

    /// Whether this helper thread skips `depth`, so that threads spread
    /// over depths. The main thread searches every depth.
    fn skips(&self, depth: u32) -> bool {
        self.id != 0 && depth > 1 && (depth as usize + self.id).is_multiple_of(3)
    }

    /// One iteration: every line of `MultiPV` to `depth`, best first, until
    /// stopped.
    fn search_iteration(&mut self, depth: u32, multipv: usize) {
        self.root_depth = depth as i32;
        for rm in &mut self.root_moves {
            rm.prev_score = rm.score;
        }
        for pv_idx in 0..multipv {
            self.search_line(depth, pv_idx);
            if self.stopped {
                break;
            }
        }
    }

    /// The `pv_idx`-th best line to `depth`: a search of the root moves not
    /// yet taken by a better line, in a window around the line's last score
    /// (widened on each fail high or low), after which the root moves are
    /// sorted by score.
    fn search_line(&mut self, depth: u32, pv_idx: usize) {
        self.pv_idx = pv_idx;
        self.seldepth = 0;
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = self.shared.options.params.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && prev.abs() < MATE_IN_MAX_PLY {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let v = self.root_search(depth as i32, alpha, beta);
            self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                break;
            }
            if v <= alpha {
                // Rounded toward zero as the search was tuned with (midpoint
                // rounds down); alpha + beta stays within ±2 × INFINITE.
                #[allow(clippy::manual_midpoint)]
                {
                    beta = (alpha + beta) / 2;
                }
                alpha = (v - delta).max(-INFINITE);
            } else if v >= beta {
                beta = (v + delta).min(INFINITE);
            } else {
                break;
            }
            delta += delta / 2;
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
        self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }

    /// Sends the `info` line of each of the best `multipv` lines of the
    /// completed iteration `depth`.
    fn report(&self, depth: u32, multipv: usize, info: &mut (dyn FnMut(&str) + Send)) {
        for (i, rm) in self.root_moves.iter().take(multipv).enumerate() {
            let line = self.info_line(depth, i, multipv, rm);
            info(&line);
        }
    }

    /// Whether the main thread should start no new iteration after `depth`:
    /// a mate found with room to spare will not change; the only legal move
    /// needs no thought when the clock is running (not while pondering, nor
    /// under a node or depth limit); and past the soft time limit (scaled
    /// by how long the best move has been stable and by how far the score
    /// just fell) a new iteration would not finish.
    fn enough(&self, depth: u32, progress: &Progress) -> bool {
        let score = self.root_moves[0].score;
        if score.abs() >= MATE_IN_MAX_PLY && (MATE - score.abs()) < depth as i32 {
            return true;
        }
        let shared = self.shared;
        if self.root_moves.len() == 1 && shared.budget.is_some() && !shared.control.pondering() {
            return true;
        }
        shared
            .control
            .past_optimum(shared.budget, progress.stable, progress.drop)
    }

    /// The search result after the last `completed` iteration: the best
    /// move, a move to ponder on, the best `multipv` lines.
    fn result(&mut self, completed: u32, multipv: usize) -> SearchResult {
        let best_mv = self.root_moves[0].mv;
        let ponder_move = match self.root_moves[0].pv.get(1).copied() {
            Some(m) => Some(m),
            None => self.ponder_from_tt(best_mv),
        };
        let best = &self.root_moves[0];
        SearchResult {
            best_move: Some(best.mv),
            ponder_move,
            score: if completed == 0 {
                0
            } else {
                best.score.max(-INFINITE + 1)
            },
            depth: completed,
            nodes: self.total_nodes(),
            pv: best.pv.clone(),
            lines: self
                .root_moves
                .iter()
                .take(multipv)
                .map(|rm| PvLine {
                    score: rm.score,
                    pv: rm.pv.clone(),
                })
                .collect(),
        }
    }

    /// The reply to `best` that the table remembers, if it is legal.
    fn ponder_from_tt(&mut self, best: Move) -> Option<Move> {
        let undo = self.pos.make_move(best);
        let m = self
            .shared
            .tt
            .probe(self.pos.hash())
            .and_then(|e| e.mv)
            .filter(|m| self.pos.legal_moves().contains(m));
        self.pos.unmake_move(best, undo);
        m
    }

    /// The USI `info` line of root move `rm`, the `i`-th best line of
    /// iteration `depth`.
    fn info_line(&self, depth: u32, i: usize, multipv: usize, rm: &RootMove) -> String {
        let elapsed = self.shared.control.elapsed_ms();
        let nodes = self.total_nodes();
        let nps = nodes * 1000 / elapsed.max(1);
        let mut s = format!(
            "info depth {depth} seldepth {}",
            self.seldepth.max(depth as usize)
        );
        if multipv > 1 {
            s.push_str(&format!(" multipv {}", i + 1));
        }
        s.push_str(&format!(
            " score {} nodes {nodes} nps {nps} hashfull {} time {elapsed} pv",
            usi_score(rm.score),
            self.shared.tt.hashfull()
        ));
        for m in &rm.pv {
            s.push(' ');
            s.push_str(&m.to_string());
        }
        s
    }

    /// Searches the root moves from `pv_idx` on to `depth` in the window
    /// (`alpha`, `beta`): the first with a full window, the rest with a null
    /// window and again with a full one if they beat `alpha`. Each move's
    /// score and line go into its root move.
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INFINITE;
        self.visit();
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let check = gives_check(&self.pos, m);
            let new_depth = depth - 1 + i32::from(check);
            let undo = self.push_move(m, check);
            let mut v;
            if i == self.pv_idx {
                v = -self.search(new_depth, -beta, -alpha, 1, true, true);
            } else {
                v = -self.search(new_depth, -alpha - 1, -alpha, 1, false, true);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.search(new_depth, -beta, -alpha, 1, true, true);
                }
            }
            self.pop_move(m, undo);
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || v > alpha {
                rm.score = v;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.score = -INFINITE;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
