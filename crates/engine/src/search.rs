//! The alpha-beta search.
//!
//! Iterative deepening with aspiration windows over a principal variation
//! search (PVS) with a shared [transposition table](crate::tt), quiescence
//! search of captures (all evasions when in check), extension of the checks
//! that do not lose material by exchange, null move pruning, reverse
//! futility (to depth 7), futility and late move pruning, late move
//! reductions, killer and history move ordering, SEE-based capture pruning
//! and mate distance pruning. The pruning judges a node by the table's
//! score where its bound says the true score lies beyond the static
//! evaluation. None of these is a switch: docs/TUNING.md keeps the
//! self-play results of the features that were tried and removed. Several
//! threads search the same tree sharing the table (lazy SMP); the first
//! thread reports and decides.
//!
//! Repetitions are scored by the rules of shogi: a position that repeats one
//! already on the game or search path is a draw, unless one side gave check
//! with every one of its moves since, in which case that side loses.
//! The impasse (entering king) rule and the maximum game length are applied
//! at every node.
//!
//! Scores are from the side to move's point of view; a mate in `n` plies is
//! `MATE - n`.
//!
//! ```
//! use shogi_engine::limits::SearchLimit;
//! use shogi_engine::search::{search_position, SearchOptions, MATE};
//! // Sente mates at once with G*5b.
//! let pos = shogi_core::sfen::parse_position("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")?;
//! let r = search_position(&pos, &SearchLimit::Depth(3), &SearchOptions::default());
//! assert_eq!(r.best_move, Some("G*5b".parse()?));
//! assert_eq!(r.score, MATE - 1);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod root;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use shogi_core::{impasse, Bitboard, ByColor, ImpasseRule, ImpasseVerdict, Move, Position};

pub use crate::control::SearchControl;

use crate::checks::gives_check;
use crate::eval::{capture_value, Evaluator, LinearEval};
use crate::history::History;
use crate::limits::SearchLimit;
use crate::movepicker::{is_capture, MovePicker};
use crate::search_params::SearchParams;
use crate::see::see;
use crate::skill::Skill;
use crate::timemgmt::{allocate, TimeBudget};
use crate::tt::{Bound, TranspositionTable};

pub use crate::score::{MATE, MATE_IN_MAX_PLY, MAX_PLY};
/// Larger than any score.
pub const INFINITE: i32 = MATE + 1;
/// The score of winning by the opponent's perpetual check (not a mate).
pub const PERPETUAL_WIN: i32 = 30000;
/// The deepest nominal depth iterative deepening goes to.
pub const MAX_DEPTH: u32 = 100;

/// Futility pruning of quiet moves applies up to this depth.
const FUTILITY_DEPTH: i32 = 5;
/// Reverse futility pruning applies up to this depth.
const REVERSE_FUTILITY_DEPTH: i32 = 7;

/// Engine settings that shape a search.
#[derive(Clone)]
pub struct SearchOptions {
    /// Search threads (at least one).
    pub threads: usize,
    /// How many best lines to report.
    pub multipv: usize,
    /// The impasse rule for declarations and try.
    pub impasse: ImpasseRule,
    /// Extra impasse points per side (handicap credit).
    pub impasse_credit: ByColor<u32>,
    /// A game ends drawn when its SFEN move number passes this (0: never).
    pub max_moves_to_draw: u32,
    /// Milliseconds lost on the way to the server, kept back from the clock.
    pub network_delay: u64,
    /// 20 is full strength; lower levels read fewer nodes, choose among
    /// near-best moves and now and then blunder ([`crate::skill`]).
    pub skill_level: u32,
    /// The evaluation.
    pub evaluator: Arc<dyn Evaluator>,
    /// The tunable constants: margins, late move limits, the reduction
    /// table and the aspiration window ([`crate::search_params`]).
    pub params: SearchParams,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            impasse: ImpasseRule::None,
            impasse_credit: ByColor::default(),
            max_moves_to_draw: 0,
            network_delay: 0,
            skill_level: 20,
            evaluator: Arc::new(LinearEval::default()),
            params: SearchParams::default(),
        }
    }
}

impl std::fmt::Debug for SearchOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchOptions")
            .field("threads", &self.threads)
            .field("multipv", &self.multipv)
            .field("impasse", &self.impasse)
            .field("max_moves_to_draw", &self.max_moves_to_draw)
            .field("network_delay", &self.network_delay)
            .field("skill_level", &self.skill_level)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

/// One position of the game before the root: its key and whether the move
/// played from it gave check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PastPosition {
    /// The Zobrist key.
    pub key: u64,
    /// Whether the move played from it gave check.
    pub gave_check: bool,
}

/// One line found by the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// The score of the line for the side to move at the root.
    pub score: i32,
    /// The moves.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move; `None` when there is no legal move.
    pub best_move: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder_move: Option<Move>,
    /// The best move's score.
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// With `MultiPV`, the best lines, best first.
    pub lines: Vec<PvLine>,
}

/// Writes a score in USI form: `cp N` or `mate N` (plies, negative when mated).
#[must_use]
pub fn usi_score(score: i32) -> String {
    if score >= MATE_IN_MAX_PLY {
        format!("mate {}", MATE - score)
    } else if score <= -MATE_IN_MAX_PLY {
        format!("mate -{}", MATE + score)
    } else {
        format!("cp {score}")
    }
}

/// Searches `pos` with a fresh table, no game history and no output.
#[must_use]
pub fn search_position(
    pos: &Position,
    limit: &SearchLimit,
    options: &SearchOptions,
) -> SearchResult {
    let tt = TranspositionTable::new(16);
    let control = SearchControl::new(false);
    search(pos, &[], limit, options, &tt, &control, &mut |_: &str| {})
}

/// The quiescence search score of `pos` (captures only, all evasions in
/// check) for the side to move, with the table `tt`: how far the static
/// evaluation is from a quiet position's, for the tuner's quietness test.
#[must_use]
pub fn quiescence(pos: &Position, options: &SearchOptions, tt: &TranspositionTable) -> i32 {
    let control = SearchControl::new(false);
    let shared = Shared {
        tt,
        control: &control,
        done: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        options,
        budget: None,
        max_nodes: None,
        max_depth: 1,
        skill: None,
        seed: 0,
    };
    let mut w = Worker::new(&shared, 0, pos, &[]);
    w.qsearch(-INFINITE, INFINITE, 0, 0)
}

fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_IN_MAX_PLY {
        v + ply as i32
    } else if v <= -MATE_IN_MAX_PLY {
        v - ply as i32
    } else {
        v
    }
}

fn score_from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_IN_MAX_PLY {
        v - ply as i32
    } else if v <= -MATE_IN_MAX_PLY {
        v + ply as i32
    } else {
        v
    }
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
}

/// Shared among the threads of one search.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
    done: AtomicBool,
    nodes: AtomicU64,
    options: &'a SearchOptions,
    budget: Option<TimeBudget>,
    max_nodes: Option<u64>,
    max_depth: u32,
    /// The weakening below full strength, if any.
    skill: Option<Skill>,
    /// The random seed of this search (move choice of a weakened level).
    seed: u64,
}

struct Worker<'a> {
    shared: &'a Shared<'a>,
    id: usize,
    pos: Position,
    keys: Vec<u64>,
    checks: Vec<bool>,
    history: History,
    nodes: u64,
    flushed: u64,
    stopped: bool,
    seldepth: usize,
    pv: Vec<Vec<Move>>,
    root_moves: Vec<RootMove>,
    pv_idx: usize,
    root_depth: i32,
    lmr: Vec<[i32; 64]>,
    /// Path index of the position after the last null move (repetitions stop there).
    null_barrier: usize,
    /// One move buffer per ply, lent to that ply's move picker.
    buffers: Vec<Vec<(Move, i32)>>,
}

/// The stack each search thread is given: the search recurses up to
/// `MAX_PLY` deep with a move buffer per ply. A caller of
/// [`search_on_this_thread`] runs it on a thread with at least this much.
pub const SEARCH_STACK: usize = 64 << 20;

/// What one search's threads share, set up from its arguments.
fn shared<'a>(
    pos: &Position,
    limit: &SearchLimit,
    options: &'a SearchOptions,
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
) -> Shared<'a> {
    tt.new_search();
    let mut max_nodes = limit.max_nodes();
    let skill = Skill::new(options.skill_level);
    if let Some(skill) = skill {
        let cap = skill.nodes();
        max_nodes = Some(max_nodes.map_or(cap, |n| n.min(cap)));
    }
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let ply = pos.move_number().saturating_sub(1);
    Shared {
        tt,
        control,
        done: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        options,
        budget: allocate(limit, pos.side_to_move(), ply, options.network_delay),
        max_nodes,
        max_depth: limit.max_depth().unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH),
        skill,
        seed,
    }
}

/// Searches `pos` under `limit`, sharing `tt`, stopping on `control`, and
/// sending USI `info` lines (without a trailing newline) to `info` after
/// every iteration. `past` is the game before `pos`, oldest first.
pub fn search(
    pos: &Position,
    past: &[PastPosition],
    limit: &SearchLimit,
    options: &SearchOptions,
    tt: &TranspositionTable,
    control: &SearchControl,
    info: &mut (dyn FnMut(&str) + Send),
) -> SearchResult {
    let shared = shared(pos, limit, options, tt, control);
    let threads = options.threads.clamp(1, 256);
    std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for id in 1..threads {
            let shared = &shared;
            let builder = std::thread::Builder::new().stack_size(SEARCH_STACK);
            if let Ok(h) = builder.spawn_scoped(scope, move || {
                let mut w = Worker::new(shared, id, pos, past);
                w.iterate(&mut |_: &str| {});
            }) {
                helpers.push(h);
            }
        }
        let shared_ref = &shared;
        let main = std::thread::Builder::new()
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, move || {
                let mut w = Worker::new(shared_ref, 0, pos, past);
                let r = w.iterate(info);
                shared_ref.done.store(true, Ordering::SeqCst);
                r
            });
        let result = match main {
            Ok(h) => h.join().ok(),
            Err(_) => None,
        };
        shared.done.store(true, Ordering::SeqCst);
        for h in helpers {
            let _ = h.join();
        }
        let mut result = result.unwrap_or_else(|| fallback_result(pos));
        result.nodes = shared.nodes.load(Ordering::Relaxed);
        result
    })
}

/// [`search`] with one thread, the calling one, which must have a stack of
/// at least [`SEARCH_STACK`] bytes (`options.threads` is not read). For
/// many very short searches in a row (`shogi db generate` at a few hundred
/// nodes a move), where starting a thread per search cost as much as the
/// search; the moves found are the same as [`search`]'s with one thread.
pub fn search_on_this_thread(
    pos: &Position,
    past: &[PastPosition],
    limit: &SearchLimit,
    options: &SearchOptions,
    tt: &TranspositionTable,
    control: &SearchControl,
    info: &mut (dyn FnMut(&str) + Send),
) -> SearchResult {
    let shared = shared(pos, limit, options, tt, control);
    let mut w = Worker::new(&shared, 0, pos, past);
    let mut result = w.iterate(info);
    result.nodes = shared.nodes.load(Ordering::Relaxed);
    result
}

fn fallback_result(pos: &Position) -> SearchResult {
    let best = pos.legal_moves().first().copied();
    SearchResult {
        best_move: best,
        ponder_move: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: best.into_iter().collect(),
        lines: Vec::new(),
    }
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, id: usize, pos: &Position, past: &[PastPosition]) -> Self {
        let root_moves = pos
            .legal_moves()
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                pv: vec![mv],
            })
            .collect();
        let params = &shared.options.params;
        let lmr = params.reductions::<128, 64>();
        Worker {
            shared,
            id,
            pos: pos.clone(),
            keys: past.iter().map(|p| p.key).collect(),
            checks: past.iter().map(|p| p.gave_check).collect(),
            history: History::new(),
            nodes: 0,
            flushed: 0,
            stopped: false,
            seldepth: 0,
            pv: vec![Vec::new(); MAX_PLY + 2],
            root_moves,
            pv_idx: 0,
            root_depth: 0,
            lmr,
            null_barrier: 0,
            buffers: vec![Vec::new(); MAX_PLY + 2],
        }
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed)
    }

    /// Counts a node and checks the limits now and then.
    fn visit(&mut self) {
        self.nodes += 1;
        // The first iteration always completes, so there is always a scored move.
        if self.nodes & 1023 == 0 && self.root_depth > 1 {
            self.flush_nodes();
            self.check_limits();
        }
    }

    fn check_limits(&mut self) {
        let s = self.shared;
        s.control.wait_while_paused(self.id == 0);
        if s.control.stopped() || s.done.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id != 0 {
            return;
        }
        if let Some(n) = s.max_nodes {
            if self.total_nodes() >= n {
                self.stopped = true;
            }
        }
        if s.control.past_maximum(s.budget) {
            self.stopped = true;
        }
    }

    fn push_move(&mut self, m: Move, check: bool) -> shogi_core::Undo {
        self.shared.tt.prefetch(self.pos.hash_after(m));
        self.keys.push(self.pos.hash());
        self.checks.push(check);
        self.pos.make_move(m)
    }

    fn pop_move(&mut self, m: Move, undo: shogi_core::Undo) {
        self.pos.unmake_move(m, undo);
        self.keys.pop();
        self.checks.pop();
    }

    /// Draw or perpetual-check result if the current position repeats one on the path.
    fn repetition(&self) -> Option<i32> {
        let n = self.keys.len();
        let key = self.pos.hash();
        let mut back = 4;
        while back <= n && back <= 64 && n - back >= self.null_barrier {
            let i = n - back;
            if self.keys[i] == key {
                let ours = (i..n).step_by(2).all(|j| self.checks[j]);
                let theirs = (i + 1..n).step_by(2).all(|j| self.checks[j]);
                return Some(if theirs {
                    PERPETUAL_WIN
                } else if ours {
                    -PERPETUAL_WIN
                } else {
                    0
                });
            }
            back += 2;
        }
        None
    }

    fn impasse_score(&self, ply: usize) -> Option<i32> {
        let rule = self.shared.options.impasse;
        if rule == ImpasseRule::None {
            return None;
        }
        let us = self.pos.side_to_move();
        let them = us.opponent();
        let entered = |c| {
            self.pos
                .king(c)
                .is_some_and(|k| Bitboard::zone(c).contains(k))
        };
        if !entered(us) && !entered(them) {
            return None;
        }
        match impasse::judge(&self.pos, rule, self.shared.options.impasse_credit)? {
            ImpasseVerdict::Win => Some(MATE - ply as i32 - 1),
            ImpasseVerdict::Loss => Some(-MATE + ply as i32),
            ImpasseVerdict::Draw => Some(0),
        }
    }

    fn evaluate(&self) -> i32 {
        self.shared
            .options
            .evaluator
            .evaluate(&self.pos)
            .clamp(-MATE_IN_MAX_PLY + 1, MATE_IN_MAX_PLY - 1)
    }

    /// The principal variation search of an inner node: `depth` plies left,
    /// window (`alpha`, `beta`), `ply` from the root.
    ///
    /// One piece on purpose: this is the search core, run at every node.
    /// Its steps (repetition and rule endings, mate distance pruning, the
    /// table cut, reverse futility and null move pruning, then the move
    /// loop with late move pruning, reductions, re-searches and the history
    /// update at a cutoff) share the node's locals (static eval, check,
    /// table entry, window) and return early from the middle; their order
    /// *is* the algorithm and is read best top to bottom. Split into
    /// functions it would pass half a dozen values around on the hottest
    /// path for no gain in clarity.
    #[allow(clippy::too_many_lines)]
    fn search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        allow_null: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        self.pv[ply].clear();
        self.visit();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        if let Some(v) = self.repetition() {
            return v;
        }
        let max_moves = self.shared.options.max_moves_to_draw;
        if max_moves > 0 && self.pos.move_number() > max_moves {
            return 0;
        }
        if let Some(v) = self.impasse_score(ply) {
            return v;
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = self.pos.hash();
        let entry = self.shared.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            if !pv_node && e.depth >= depth {
                let v = score_from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if cut {
                    return v;
                }
            }
        }
        let in_check = self.pos.in_check();
        let static_eval = if in_check {
            -INFINITE
        } else {
            entry.map_or_else(|| self.evaluate(), |e| e.eval)
        };
        // What the pruning judges the node by: the table's score where its
        // bound says the true score lies beyond the static evaluation
        // (which stays what the table stores), mate scores aside.
        let prune_eval = match entry {
            Some(e) if !in_check && e.score.abs() < MATE_IN_MAX_PLY => {
                let v = score_from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => v,
                    Bound::Lower if v > static_eval => v,
                    Bound::Upper if v < static_eval => v,
                    _ => static_eval,
                }
            }
            _ => static_eval,
        };
        if !in_check && !pv_node && beta.abs() < MATE_IN_MAX_PLY {
            // Reverse futility pruning.
            if depth <= REVERSE_FUTILITY_DEPTH
                && prune_eval - self.shared.options.params.reverse_futility_margin * depth >= beta
            {
                return prune_eval;
            }
            // Null move pruning.
            if allow_null && depth >= 3 && prune_eval >= beta {
                let r = 3 + depth / 4;
                let undo = self.pos.make_null_move();
                self.keys.push(key);
                self.checks.push(false);
                // Repetitions across a null move are not real.
                let barrier = std::mem::replace(&mut self.null_barrier, self.keys.len());
                let v = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, false, false);
                self.null_barrier = barrier;
                self.keys.pop();
                self.checks.pop();
                self.pos.unmake_null_move(undo);
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_IN_MAX_PLY { beta } else { v };
                }
            }
        }
        self.history.clear_killers_from(ply + 1);
        let buffer = std::mem::take(&mut self.buffers[ply]);
        let mut picker = MovePicker::new(tt_move, ply, buffer);
        let us = self.pos.side_to_move();
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut quiets: [Option<Move>; 32] = [None; 32];
        let mut n_quiets = 0;
        let mut count = 0;
        let shared = self.shared;
        let params = &shared.options.params;
        while let Some((m, order)) = picker.next(&self.pos, &self.history) {
            count += 1;
            let capture = is_capture(&self.pos, m);
            let quiet = !capture && !m.is_promotion();
            let check = gives_check(&self.pos, m);
            if !pv_node && !in_check && best > -MATE_IN_MAX_PLY && !check {
                // Late move pruning of quiet moves at shallow depth.
                if quiet
                    && depth <= 3
                    && count
                        > (params.late_move_base + params.late_move_factor * depth * depth) / 10
                {
                    continue;
                }
                // Futility pruning: a quiet move will not lift a static
                // evaluation this far below alpha near the leaves.
                if quiet
                    && depth <= FUTILITY_DEPTH
                    && prune_eval + params.futility_base + params.futility_per_ply * depth <= alpha
                {
                    continue;
                }
                // Losing captures at shallow depth.
                if capture
                    && depth <= 3
                    && order < 0
                    && see(&self.pos, m) < -params.bad_capture_margin * depth
                {
                    continue;
                }
            }
            // Checks that do not lose material by exchange are extended.
            let extension =
                i32::from(check && (ply as i32) < 2 * self.root_depth && see(&self.pos, m) >= 0);
            let new_depth = depth - 1 + extension;
            let undo = self.push_move(m, check);
            let mut v;
            if count == 1 {
                v = -self.search(new_depth, -beta, -alpha, ply + 1, pv_node, true);
            } else {
                let mut r = 0;
                if depth >= 3 && count > 2 && quiet && !in_check && !check {
                    r = self.lmr[depth.min(127) as usize][count.min(63) as usize];
                    if pv_node {
                        r -= 1;
                    }
                    if self.history.score(us, m) > params.reduction_history {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.search(new_depth - r, -alpha - 1, -alpha, ply + 1, false, true);
                if v > alpha && r > 0 && !self.stopped {
                    v = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, false, true);
                }
                if pv_node && v > alpha && v < beta && !self.stopped {
                    v = -self.search(new_depth, -beta, -alpha, ply + 1, true, true);
                }
            }
            self.pop_move(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    alpha = v;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(m);
                        line.extend_from_slice(&tail[0]);
                    }
                    if v >= beta {
                        if quiet {
                            self.history.add_killer(ply, m);
                            self.history.reward(us, m, depth);
                            for q in quiets.iter().take(n_quiets).flatten() {
                                self.history.punish(us, *q, depth);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = Some(m);
                n_quiets += 1;
            }
        }
        self.buffers[ply] = picker.into_buffer();
        if count == 0 {
            // No legal move loses in shogi, in check or not.
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval = if in_check { 0 } else { static_eval };
        self.shared
            .tt
            .store(key, best_move, score_to_tt(best, ply), eval, depth, bound);
        best
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        self.pv[ply.min(MAX_PLY + 1)].clear();
        self.visit();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY || qdepth >= 12 {
            return self.evaluate();
        }
        let key = self.pos.hash();
        let entry = self.shared.tt.probe(key);
        if let Some(e) = entry {
            let v = score_from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if cut {
                return v;
            }
        }
        let mut best;
        let stand;
        let mut picker;
        if in_check {
            let buffer = std::mem::take(&mut self.buffers[ply]);
            picker = MovePicker::new(entry.and_then(|e| e.mv), ply, buffer);
            best = -INFINITE;
            stand = -INFINITE;
        } else {
            stand = entry.map_or_else(|| self.evaluate(), |e| e.eval);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            picker = MovePicker::captures(&self.pos, std::mem::take(&mut self.buffers[ply]));
        }
        let original_alpha = alpha;
        let mut best_move = None;
        let mut tried = false;
        while let Some((m, _)) = picker.next(&self.pos, &self.history) {
            tried = true;
            if !in_check {
                let victim = self
                    .pos
                    .piece_at(m.to())
                    .map_or(0, |p| capture_value(p.kind));
                if stand + victim + 200 < alpha {
                    continue;
                }
                if see(&self.pos, m) < 0 {
                    continue;
                }
            }
            let check = in_check && gives_check(&self.pos, m);
            let undo = self.push_move(m, check);
            let v = -self.qsearch(-beta, -alpha, ply + 1, qdepth + 1);
            self.pop_move(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = Some(m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = picker.into_buffer();
        if in_check && !tried {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval = if in_check { 0 } else { stand };
        self.shared
            .tt
            .store(key, best_move, score_to_tt(best, ply), eval, 0, bound);
        best
    }
}

/// How long a search took, for reports.
#[must_use]
pub fn elapsed_since(start: Instant) -> Duration {
    start.elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        shogi_core::sfen::parse_position(s).unwrap()
    }

    #[test]
    fn finds_mate_in_three() {
        // tsume: S*5c 5b4a G*4b is a mate in 3 (no attacking king).
        let p = shogi_core::sfen::parse_position_with(
            "9/4k4/9/4S4/9/9/9/9/9 b GS2r2b3g2s4n4l18p 1",
            shogi_core::Leniency {
                allow_missing_kings: true,
            },
        )
        .unwrap();
        let r = search_position(&p, &SearchLimit::Depth(5), &SearchOptions::default());
        assert_eq!(r.score, MATE - 3, "{r:?}");
    }

    #[test]
    fn the_only_legal_move_takes_one_iteration_on_a_clock() {
        // In check from the rook on 1a; the gold covers 2i: only 1i2h.
        let p = pos("k7r/9/9/9/9/9/9/9/6g1K b - 1");
        assert_eq!(p.legal_moves().len(), 1);
        let clock = SearchLimit::Clock(crate::limits::Clock {
            byoyomi: 60_000,
            ..crate::limits::Clock::default()
        });
        let r = search_position(&p, &clock, &SearchOptions::default());
        assert_eq!((r.depth, r.best_move), (1, Some("1i2h".parse().unwrap())));
        // Under a depth limit the search still goes as deep as asked.
        let r = search_position(&p, &SearchLimit::Depth(4), &SearchOptions::default());
        assert_eq!((r.depth, r.best_move), (4, Some("1i2h".parse().unwrap())));
    }

    #[test]
    fn takes_a_hanging_rook() {
        let p = pos("4k4/9/4r4/9/9/9/4R4/9/4K4 b - 1");
        let r = search_position(&p, &SearchLimit::Depth(4), &SearchOptions::default());
        assert_eq!(r.best_move, Some("5g5c+".parse().unwrap()), "{r:?}");
    }

    #[test]
    fn try_rule_win_is_found() {
        let p = pos("9/5K3/9/9/9/9/9/9/k8 b - 1");
        let opts = SearchOptions {
            impasse: ImpasseRule::Try,
            ..SearchOptions::default()
        };
        let r = search_position(&p, &SearchLimit::Depth(3), &opts);
        assert_eq!(r.best_move, Some("4b5a".parse().unwrap()), "{r:?}");
        assert_eq!(r.score, MATE - 1);
        let r = search_position(&p, &SearchLimit::Depth(3), &SearchOptions::default());
        assert!(r.score < MATE_IN_MAX_PLY);
    }

    #[test]
    fn no_moves_means_no_best_move() {
        let p = pos("k8/1G7/1K7/9/9/9/9/9/9 w - 1");
        let r = search_position(&p, &SearchLimit::Depth(3), &SearchOptions::default());
        assert_eq!(r.best_move, None);
    }

    #[test]
    fn deterministic_single_thread() {
        let p = Position::startpos();
        let a = search_position(&p, &SearchLimit::Depth(5), &SearchOptions::default());
        let b = search_position(&p, &SearchLimit::Depth(5), &SearchOptions::default());
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.best_move, b.best_move);
    }

    #[test]
    fn on_this_thread_searches_as_one_search_thread_does() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2",
        ];
        for sfen in sfens {
            let p: Position = sfen.parse().unwrap();
            let limit = SearchLimit::Depth(4);
            let options = SearchOptions::default();
            let spawned = search_position(&p, &limit, &options);
            let here = std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn(move || {
                    let tt = TranspositionTable::new(16);
                    let control = SearchControl::new(false);
                    search_on_this_thread(&p, &[], &limit, &options, &tt, &control, &mut |_| {})
                })
                .unwrap()
                .join()
                .unwrap();
            assert_eq!(here.best_move, spawned.best_move, "{sfen}");
            assert_eq!(here.nodes, spawned.nodes, "{sfen}");
            assert_eq!(here.score, spawned.score, "{sfen}");
        }
    }

    #[test]
    fn a_pause_delays_the_search_without_changing_it() {
        use std::sync::atomic::AtomicU32;
        let p = Position::startpos();
        let limit = SearchLimit::Nodes(20_000);
        let plain = search_position(&p, &limit, &SearchOptions::default());
        // Paused for the first 20 checks (each waits one 2 ms sleep).
        let asked = Arc::new(AtomicU32::new(0));
        let counter = Arc::clone(&asked);
        let control = SearchControl::new(false)
            .with_pause(move || counter.fetch_add(1, Ordering::Relaxed) < 20);
        let tt = TranspositionTable::new(16);
        let paused = search(
            &p,
            &[],
            &limit,
            &SearchOptions::default(),
            &tt,
            &control,
            &mut |_: &str| {},
        );
        assert!(asked.load(Ordering::Relaxed) > 20, "the hook was asked");
        assert_eq!(paused.nodes, plain.nodes);
        assert_eq!(paused.best_move, plain.best_move);
    }

    #[test]
    fn time_spent_paused_does_not_count_against_the_move_time() {
        use std::sync::Mutex;
        let p = Position::startpos();
        let from = Instant::now();
        // Paused from the first check until 300 ms have passed.
        let first_ask = Arc::new(Mutex::new(None::<Instant>));
        let seen = Arc::clone(&first_ask);
        let control = SearchControl::new(false).with_pause(move || {
            if let Ok(mut f) = seen.lock() {
                f.get_or_insert_with(Instant::now);
            }
            from.elapsed() < Duration::from_millis(300)
        });
        let tt = TranspositionTable::new(16);
        let r = search(
            &p,
            &[],
            &SearchLimit::MoveTime(100),
            &SearchOptions::default(),
            &tt,
            &control,
            &mut |_: &str| {},
        );
        let total = from.elapsed();
        assert!(r.best_move.is_some());
        let first = first_ask
            .lock()
            .ok()
            .and_then(|f| *f)
            .expect("the hook was asked");
        let paused = Duration::from_millis(300).saturating_sub(first - from);
        // MoveTime(100) allows 80 ms of search; had the wait counted, the
        // search would have stopped as soon as the pause ended.
        assert!(
            total.checked_sub(paused).unwrap() >= Duration::from_millis(75),
            "searched {:?} besides the pause",
            total.checked_sub(paused).unwrap()
        );
    }

    #[test]
    fn multipv_and_threads() {
        let p = Position::startpos();
        let opts = SearchOptions {
            multipv: 3,
            threads: 2,
            ..SearchOptions::default()
        };
        let r = search_position(&p, &SearchLimit::Depth(4), &opts);
        assert_eq!(r.lines.len(), 3);
        assert!(r.lines[0].score >= r.lines[1].score && r.lines[1].score >= r.lines[2].score);
    }

    #[test]
    fn perpetual_check_is_scored() {
        let p = pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
        // Path: position key repeats with all of Sente's moves checks.
        let tt = TranspositionTable::new(1);
        let control = SearchControl::new(false);
        let shared = Shared {
            tt: &tt,
            control: &control,
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            options: &SearchOptions::default(),
            budget: None,
            max_nodes: None,
            max_depth: 1,
            skill: None,
            seed: 0,
        };
        let key = p.hash();
        let past = [
            PastPosition {
                key,
                gave_check: false,
            },
            PastPosition {
                key: 1,
                gave_check: true,
            },
            PastPosition {
                key: 2,
                gave_check: false,
            },
            PastPosition {
                key: 3,
                gave_check: true,
            },
        ];
        let w = Worker::new(&shared, 0, &p, &past);
        // Sente is to move again; Gote's moves (1 and 3) all checked: Sente wins.
        assert_eq!(w.repetition(), Some(PERPETUAL_WIN));
        let past2 = [
            PastPosition {
                key,
                gave_check: true,
            },
            PastPosition {
                key: 1,
                gave_check: false,
            },
            PastPosition {
                key: 2,
                gave_check: true,
            },
            PastPosition {
                key: 3,
                gave_check: false,
            },
        ];
        let w = Worker::new(&shared, 0, &p, &past2);
        assert_eq!(w.repetition(), Some(-PERPETUAL_WIN));
        let past3 = [
            PastPosition {
                key,
                gave_check: false,
            },
            PastPosition {
                key: 1,
                gave_check: false,
            },
            PastPosition {
                key: 2,
                gave_check: true,
            },
            PastPosition {
                key: 3,
                gave_check: false,
            },
        ];
        let w = Worker::new(&shared, 0, &p, &past3);
        assert_eq!(w.repetition(), Some(0));
    }
}
