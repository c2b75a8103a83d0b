//! A df-pn (depth-first proof-number search) mate solver.
//!
//! The side to move is the attacker: at its nodes (OR nodes) only checking
//! moves are tried; at the defender's nodes (AND nodes) every legal move is.
//! Drops, and the ban on mating by a pawn drop (uchifuzume), come from the
//! core's legal move generator. A position repeated on the current path counts
//! as "no mate" for the attacker (perpetual check is not a win in tsume).
//! Results live in the solver's own hash table, keyed by the board and the
//! attacker's hand, with hand domination: a proof also holds with a larger
//! attacker hand, a disproof with a smaller one. Disproofs that rely on a
//! repetition of a position on the current path are not stored as final.
//! Children are expanded with proof numbers initialised from the defender's
//! number of evasions, and thresholds use the 1+ε trick against thrashing.
//! Once the root is proven, a mating line is read back from the table
//! (shortest attack, longest defence by the stored mate distances); then
//! depth-limited searches, shortest first and within a node budget, look for
//! a shorter mate. The line is checked before it is returned.
//!
//! ```
//! use std::time::Duration;
//! use shogi_engine::dfpn::{solve_mate, MateLimit, MateResult};
//! let pos = shogi_core::sfen::parse_position_with(
//!     "9/4k4/9/4S4/9/9/9/9/9 b GS2r2b3g2s4n4l18p 1",
//!     shogi_core::Leniency { allow_missing_kings: true },
//! )?;
//! match solve_mate(&pos, MateLimit::time(Duration::from_secs(10))) {
//!     MateResult::Mate(line) => assert_eq!(line.len(), 3),
//!     other => panic!("{other:?}"),
//! }
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use shogi_core::{zobrist, Color, HandKind, Move, MoveList, Position};

use crate::checks::gives_check;

/// Proof or disproof number meaning "infinite".
const INF: u32 = u32::MAX;
/// "No repetition involved" for a disproof.
const NO_REP: u32 = u32::MAX;

/// What bounds a mate search.
#[derive(Clone, Debug, Default)]
pub struct MateLimit {
    /// Give up after this long.
    pub time: Option<Duration>,
    /// Give up after this many nodes.
    pub nodes: Option<u64>,
    /// Give up when this flag is set.
    pub stop: Option<Arc<AtomicBool>>,
    /// The most table entries kept (0: a default of 2 million).
    pub max_entries: usize,
}

impl MateLimit {
    /// A limit of `time`.
    #[must_use]
    pub fn time(time: Duration) -> MateLimit {
        MateLimit {
            time: Some(time),
            ..MateLimit::default()
        }
    }

    /// No limit but an optional stop flag.
    #[must_use]
    pub fn infinite(stop: Option<Arc<AtomicBool>>) -> MateLimit {
        MateLimit {
            stop,
            ..MateLimit::default()
        }
    }
}

/// The answer of [`solve_mate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mate: the line from the attacker's first move to the mating move.
    Mate(Vec<Move>),
    /// There is no mate by continuous checks.
    NoMate,
    /// The limit was reached first.
    Timeout,
}

impl MateResult {
    /// The USI answer to `go mate`: `checkmate <moves>`, `checkmate nomate`
    /// or `checkmate timeout`.
    #[must_use]
    pub fn to_usi(&self) -> String {
        match self {
            MateResult::Mate(line) => {
                let moves: Vec<String> = line.iter().map(ToString::to_string).collect();
                format!("checkmate {}", moves.join(" "))
            }
            MateResult::NoMate => "checkmate nomate".to_string(),
            MateResult::Timeout => "checkmate timeout".to_string(),
        }
    }
}

/// Reads a tsume SFEN (kings optional) and solves it within `time_ms` milliseconds.
///
/// ```
/// let r = shogi_engine::dfpn::solve_mate_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", 1000)?;
/// assert_eq!(r.to_usi(), "checkmate G*5b");
/// # Ok::<_, shogi_core::SfenError>(())
/// ```
///
/// # Errors
/// If the SFEN is not a legal position.
pub fn solve_mate_sfen(sfen: &str, time_ms: u64) -> Result<MateResult, shogi_core::SfenError> {
    let text = sfen.trim();
    let text = text.strip_prefix("sfen").unwrap_or(text).trim();
    let pos = shogi_core::sfen::parse_position_with(
        text,
        shogi_core::Leniency {
            allow_missing_kings: true,
        },
    )?;
    Ok(solve_mate(
        &pos,
        MateLimit::time(Duration::from_millis(time_ms)),
    ))
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The attacker's hand.
    hand: [u8; 7],
    pn: u32,
    dn: u32,
    /// Plies to mate, for proven entries.
    dist: u32,
    /// Nodes spent below this entry.
    work: u64,
}

/// A table key: the position without hands (possibly mixed with a depth)
/// and the attacker's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NodeKey {
    board: u64,
    hand: [u8; 7],
}

/// Whether hand `a` holds at least what hand `b` holds, kind by kind.
fn superset(a: &[u8; 7], b: &[u8; 7]) -> bool {
    a.iter().zip(b).all(|(x, y)| x >= y)
}

/// Results by board, each with the attacker's hand. A proof with a hand
/// also proves the same board with a larger hand (the defender then holds
/// less), and a disproof with a hand disproves any smaller one.
#[derive(Default)]
struct Table {
    map: HashMap<u64, Vec<Entry>>,
    len: usize,
}

impl Table {
    fn probe(&self, k: NodeKey) -> Option<Entry> {
        let v = self.map.get(&k.board)?;
        let mut exact = None;
        for e in v {
            if e.pn == 0 && superset(&k.hand, &e.hand) {
                return Some(*e);
            }
            if e.dn == 0 && superset(&e.hand, &k.hand) {
                return Some(*e);
            }
            if e.hand == k.hand {
                exact = Some(*e);
            }
        }
        exact
    }

    fn store(&mut self, k: NodeKey, pn: u32, dn: u32, dist: u32, work: u64) {
        let v = self.map.entry(k.board).or_default();
        let new = Entry {
            hand: k.hand,
            pn,
            dn,
            dist,
            work,
        };
        match v.iter_mut().find(|e| e.hand == k.hand) {
            Some(e) => *e = new,
            None => {
                v.push(new);
                self.len += 1;
            }
        }
        let before = v.len();
        if pn == 0 {
            v.retain(|e| e.hand == k.hand || e.pn == 0 || !superset(&e.hand, &k.hand));
        } else if dn == 0 {
            v.retain(|e| e.hand == k.hand || e.dn == 0 || !superset(&k.hand, &e.hand));
        }
        self.len -= before - v.len();
    }

    fn retain(&mut self, f: impl Fn(&Entry) -> bool) {
        let mut len = 0;
        self.map.retain(|_, v| {
            v.retain(&f);
            len += v.len();
            !v.is_empty()
        });
        self.len = len;
    }

    fn clear(&mut self) {
        self.map.clear();
        self.len = 0;
    }
}

/// The part of a position's key that comes from the hands.
fn hand_hash(pos: &Position) -> u64 {
    let mut h = 0;
    for color in Color::ALL {
        let hand = pos.hand(color);
        for kind in HandKind::ALL {
            for n in 1..=hand.count(kind) {
                h ^= zobrist::hand(color, kind, n);
            }
        }
    }
    h
}

struct Solver {
    pos: Position,
    attacker: Color,
    table: Table,
    /// Positions on the current path and their index on it.
    path: HashMap<u64, u32>,
    nodes: u64,
    limit: MateLimit,
    max_entries: usize,
    start: Instant,
    aborted: bool,
    /// When set, only mates within this many plies count (for shortening).
    depth_limit: Option<u32>,
    /// Extra node budget for the current phase.
    phase_nodes: Option<u64>,
}

/// Mixes a remaining depth into a key for the depth-limited phase.
fn depth_key(hash: u64, depth: u32) -> u64 {
    hash ^ (u64::from(depth) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(INF - 1)
    }
}

/// Solves the mate problem `pos` (the side to move attacks) within `limit`.
///
/// A returned mate line has been replayed and checked: every move is legal,
/// every attacker move gives check, and the final position is checkmate.
#[must_use]
pub fn solve_mate(pos: &Position, limit: MateLimit) -> MateResult {
    solve_mate_with_stats(pos, limit).0
}

/// Like [`solve_mate`], also giving the number of nodes searched.
#[must_use]
pub fn solve_mate_with_stats(pos: &Position, limit: MateLimit) -> (MateResult, u64) {
    let pos = pos.clone();
    // Long mates recurse deeply: run on a thread with a large stack.
    let handle = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut solver = Solver::new(pos, limit);
            let r = solver.solve();
            (r, solver.nodes)
        });
    match handle {
        Ok(h) => h.join().unwrap_or((MateResult::Timeout, 0)),
        Err(_) => (MateResult::Timeout, 0),
    }
}

/// Checks that `line` is a mate from `pos`: legal moves, every attacker move
/// gives check, and the last position is checkmate.
#[must_use]
pub fn verify_mate_line(pos: &Position, line: &[Move]) -> bool {
    if line.len() % 2 == 0 {
        return false;
    }
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        if p.play(m).is_err() {
            return false;
        }
        if i % 2 == 0 && !p.in_check() {
            return false;
        }
    }
    p.is_checkmate()
}

impl Solver {
    fn new(pos: Position, limit: MateLimit) -> Solver {
        let max_entries = if limit.max_entries == 0 {
            2_000_000
        } else {
            limit.max_entries
        };
        Solver {
            attacker: pos.side_to_move(),
            pos,
            table: Table::default(),
            path: HashMap::new(),
            nodes: 0,
            limit,
            max_entries,
            start: Instant::now(),
            aborted: false,
            depth_limit: None,
            phase_nodes: None,
        }
    }

    fn solve(&mut self) -> MateResult {
        let root = self.key(u32::MAX);
        for _attempt in 0..3 {
            while !self.aborted {
                let (pn, dn, _) = self.mid(INF, INF, u32::MAX);
                if pn == 0 || dn == 0 {
                    break;
                }
            }
            if self.aborted {
                return MateResult::Timeout;
            }
            match self.table.probe(root) {
                Some(e) if e.pn == 0 => {}
                _ => return MateResult::NoMate,
            }
            if let Some(line) = self.extract(u32::MAX) {
                let start = self.pos.clone();
                if verify_mate_line(&start, &line) {
                    return MateResult::Mate(self.shorten(line));
                }
            }
            // The line could not be read back (entries were replaced): forget and retry.
            self.table.retain(|e| e.pn == 0);
        }
        MateResult::Timeout
    }

    /// Looks for a shorter mate than `line` with depth-limited searches
    /// (shortest first), within a node budget; returns the shortest found.
    fn shorten(&mut self, line: Vec<Move>) -> Vec<Move> {
        if line.len() <= 1 || line.len() > 63 {
            return line;
        }
        let budget = self.nodes.saturating_mul(4).max(200_000);
        self.table.clear();
        self.phase_nodes = Some(self.nodes.saturating_add(budget));
        for limit in (1..line.len() as u32).step_by(2) {
            self.depth_limit = Some(limit);
            let root = self.key(limit);
            while !self.aborted {
                let (pn, dn, _) = self.mid(INF, INF, limit);
                if pn == 0 || dn == 0 {
                    break;
                }
            }
            if self.aborted {
                break;
            }
            if self.table.probe(root).is_some_and(|e| e.pn == 0) {
                if let Some(short) = self.extract(limit) {
                    let start = self.pos.clone();
                    if short.len() < line.len() && verify_mate_line(&start, &short) {
                        return short;
                    }
                }
            }
        }
        line
    }

    fn check_limits(&mut self) {
        if let Some(t) = self.limit.time {
            if self.start.elapsed() >= t {
                self.aborted = true;
            }
        }
        if let Some(n) = self.limit.nodes {
            if self.nodes >= n {
                self.aborted = true;
            }
        }
        if let Some(n) = self.phase_nodes {
            if self.nodes >= n {
                self.aborted = true;
            }
        }
        if let Some(s) = &self.limit.stop {
            if s.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
    }

    fn moves(&self) -> MoveList {
        let mut moves = self.pos.legal_moves();
        if self.pos.side_to_move() == self.attacker {
            moves.retain(|m| gives_check(&self.pos, *m));
        }
        moves
    }

    fn lookup(&self, key: NodeKey, position: u64) -> (u32, u32, u32) {
        if let Some(&i) = self.path.get(&position) {
            return (INF, 0, i);
        }
        self.table
            .probe(key)
            .map_or((1, 1, NO_REP), |e| (e.pn, e.dn, NO_REP))
    }

    fn store(&mut self, key: NodeKey, pn: u32, dn: u32, dist: u32, work: u64) {
        if self.table.len >= self.max_entries {
            self.collect_garbage();
        }
        self.table.store(key, pn, dn, dist, work);
    }

    fn collect_garbage(&mut self) {
        let target = self.max_entries * 7 / 10;
        let mut threshold = 1;
        while self.table.len > target && threshold < u64::MAX / 4 {
            self.table
                .retain(|e| e.pn == 0 || e.dn == 0 || e.work > threshold);
            threshold *= 4;
        }
        if self.table.len > target {
            self.table.retain(|e| e.pn == 0);
        }
    }

    /// The table key of the current position with `depth` plies left.
    fn key(&self, depth: u32) -> NodeKey {
        let board = self.pos.hash() ^ hand_hash(&self.pos);
        let hand = self.pos.hand(self.attacker);
        NodeKey {
            board: match self.depth_limit {
                Some(_) => depth_key(board, depth),
                None => board,
            },
            hand: HandKind::ALL.map(|k| hand.count(k)),
        }
    }

    /// Expands the current position's children (with `depth` plies left
    /// here) and initialises unseen ones; gives each child's move, table key
    /// and position key.
    fn children(&mut self, depth: u32) -> Vec<(Move, NodeKey, u64)> {
        let moves = self.moves();
        let or_node = self.pos.side_to_move() == self.attacker;
        let mut kids = Vec::with_capacity(moves.len());
        for &m in &moves {
            let undo = self.pos.make_move(m);
            let key = self.key(depth.saturating_sub(1));
            if or_node && self.table.probe(key).is_none() {
                // The defender's reply count makes a good first proof number.
                let n = self.pos.count_legal_moves() as u32;
                if n == 0 {
                    self.store(key, 0, INF, 0, 1);
                } else if self.depth_limit.is_some() && depth <= 1 {
                    self.store(key, INF, 0, 0, 1);
                } else {
                    self.store(key, n, 1, 0, 0);
                }
            }
            let position = self.pos.hash();
            self.pos.unmake_move(m, undo);
            kids.push((m, key, position));
        }
        kids
    }

    /// Searches the current position until its proof or disproof number
    /// reaches its threshold; `depth` is the plies left in the depth-limited
    /// phase. Returns (pn, dn, rep): `rep` is the path index of the earliest
    /// ancestor whose repetition a disproof relies on ([`NO_REP`] if none).
    fn mid(&mut self, thpn: u32, thdn: u32, depth: u32) -> (u32, u32, u32) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 || self.limit.nodes.is_some_and(|n| self.nodes >= n) {
            self.check_limits();
        }
        let key = self.key(depth);
        let position = self.pos.hash();
        let or_node = self.pos.side_to_move() == self.attacker;
        if self.aborted {
            let (pn, dn) = self.table.probe(key).map_or((1, 1), |e| (e.pn, e.dn));
            return (pn, dn, NO_REP);
        }
        if self.depth_limit.is_some() && depth == 0 {
            // No plies left: only a position already mated counts.
            let mated = !or_node && !self.pos.has_legal_move();
            let (pn, dn) = if mated { (0, INF) } else { (INF, 0) };
            self.store(key, pn, dn, 0, 1);
            return (pn, dn, NO_REP);
        }
        let start_nodes = self.nodes;
        let kids = self.children(depth);
        if kids.is_empty() {
            let (pn, dn) = if or_node { (INF, 0) } else { (0, INF) };
            self.store(key, pn, dn, 0, 1);
            return (pn, dn, NO_REP);
        }
        let index = self.path.len() as u32;
        self.path.insert(position, index);
        // Results of children that hold only on this path (repetitions).
        let mut local: Vec<Option<(u32, u32, u32)>> = vec![None; kids.len()];
        let (mut pn, mut dn, mut rep);
        loop {
            let mut best = 0;
            let mut best_val = INF;
            let mut second = INF;
            let mut best_other = 0;
            let mut sum = 0u32;
            // For a disproof: OR needs all children (earliest rep counts),
            // AND needs one (the least path-dependent one).
            let mut or_rep = NO_REP;
            let mut and_rep: Option<u32> = None;
            for (i, &(_, k, p)) in kids.iter().enumerate() {
                let (cpn, cdn, crep) = local[i].unwrap_or_else(|| self.lookup(k, p));
                or_rep = or_rep.min(crep);
                if cdn == 0 {
                    and_rep = Some(and_rep.map_or(crep, |r: u32| r.max(crep)));
                }
                let (val, other) = if or_node { (cpn, cdn) } else { (cdn, cpn) };
                sum = add(sum, other);
                if val < best_val {
                    second = best_val;
                    best_val = val;
                    best = i;
                    best_other = other;
                } else if val < second {
                    second = val;
                }
            }
            if or_node {
                pn = best_val;
                dn = sum;
            } else {
                dn = best_val;
                pn = sum;
            }
            rep = if dn != 0 {
                NO_REP
            } else if or_node {
                or_rep
            } else {
                and_rep.unwrap_or(NO_REP)
            };
            if pn >= thpn || dn >= thdn || self.aborted {
                break;
            }
            let eps = |x: u32| if x == INF { INF } else { add(x, 1 + x / 4) };
            let (cthpn, cthdn) = if or_node {
                let cthdn = if thdn == INF {
                    INF
                } else {
                    thdn - dn + best_other
                };
                (thpn.min(eps(second)), cthdn)
            } else {
                let cthpn = if thpn == INF {
                    INF
                } else {
                    thpn - pn + best_other
                };
                (cthpn, thdn.min(eps(second)))
            };
            let m = kids[best].0;
            let undo = self.pos.make_move(m);
            let (cpn, cdn, crep) = self.mid(cthpn, cthdn, depth.saturating_sub(1));
            self.pos.unmake_move(m, undo);
            local[best] = (crep != NO_REP).then_some((cpn, cdn, crep));
        }
        self.path.remove(&position);
        if rep >= index {
            // Repetitions of this node itself are settled here.
            rep = NO_REP;
        }
        let dist = if pn == 0 {
            let dists = kids
                .iter()
                .filter_map(|&(_, k, _)| self.table.probe(k).filter(|e| e.pn == 0).map(|e| e.dist));
            1 + if or_node {
                dists.min().unwrap_or(0)
            } else {
                dists.max().unwrap_or(0)
            }
        } else {
            0
        };
        let work = self.nodes - start_nodes;
        let old_work = self.table.probe(key).map_or(0, |e| e.work);
        if rep == NO_REP {
            self.store(key, pn, dn, dist, work + old_work);
        } else {
            // A disproof that holds only on this path: keep the old estimate.
            let (opn, odn) = self.table.probe(key).map_or((1, 1), |e| (e.pn, e.dn));
            let (opn, odn) = if odn == 0 { (1, 1) } else { (opn, odn) };
            self.store(key, opn, odn, 0, work + old_work);
        }
        (pn, dn, rep)
    }

    /// Reads the mating line back from the table (`depth` plies left at the root).
    fn extract(&mut self, mut depth: u32) -> Option<Vec<Move>> {
        let start = self.pos.clone();
        let mut line = Vec::new();
        let mut seen = HashSet::new();
        let result = loop {
            let or_node = self.pos.side_to_move() == self.attacker;
            if !seen.insert(self.pos.hash()) || line.len() > 10_000 {
                break None;
            }
            let moves = self.moves();
            if moves.is_empty() {
                break if or_node { None } else { Some(line) };
            }
            let mut pick: Option<(Move, u32)> = None;
            for &m in &moves {
                let undo = self.pos.make_move(m);
                let e = self.table.probe(self.key(depth.saturating_sub(1)));
                self.pos.unmake_move(m, undo);
                let Some(e) = e.filter(|e| e.pn == 0) else {
                    if !or_node {
                        // An unproven defence: the line cannot be trusted.
                        pick = None;
                        break;
                    }
                    continue;
                };
                let better = match pick {
                    None => true,
                    Some((_, d)) => {
                        if or_node {
                            e.dist < d
                        } else {
                            e.dist > d
                        }
                    }
                };
                if better {
                    pick = Some((m, e.dist));
                }
            }
            let Some((m, _)) = pick else { break None };
            line.push(m);
            self.pos.make_move(m);
            depth = depth.saturating_sub(1);
        };
        self.pos = start;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lenient(s: &str) -> Position {
        shogi_core::sfen::parse_position_with(
            s,
            shogi_core::Leniency {
                allow_missing_kings: true,
            },
        )
        .unwrap()
    }

    #[test]
    fn mate_in_one() {
        let p = lenient("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        let r = solve_mate(&p, MateLimit::time(Duration::from_secs(5)));
        assert_eq!(r, MateResult::Mate(vec!["G*5b".parse().unwrap()]));
    }

    #[test]
    fn no_mate() {
        let p = lenient("9/4k4/9/4P4/9/9/9/9/9 b G2r2b4s4n4l17p 1");
        let r = solve_mate(&p, MateLimit::time(Duration::from_secs(10)));
        assert_eq!(r, MateResult::NoMate);
    }

    #[test]
    fn pawn_drop_mate_is_not_mate() {
        let p = lenient("kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1");
        let r = solve_mate(&p, MateLimit::time(Duration::from_secs(10)));
        assert_ne!(r, MateResult::Mate(vec!["P*9b".parse().unwrap()]));
    }

    #[test]
    fn timeout_is_reported() {
        let p = lenient("9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1");
        let r = solve_mate(
            &p,
            MateLimit {
                nodes: Some(10),
                ..MateLimit::default()
            },
        );
        assert_eq!(r, MateResult::Timeout);
    }
}
