//! A df-pn (depth-first proof-number search) mate solver.
//!
//! The side to move is the attacker: at its nodes (OR nodes) only checking
//! moves are tried; at the defender's nodes (AND nodes) every legal move is.
//! Drops, and the ban on mating by a pawn drop (uchifuzume), come from the
//! core's legal move generator. A position repeated on the current path counts
//! as "no mate" for the attacker (perpetual check is not a win in tsume).
//!
//! Results live in a table of fixed-size clusters (one vector that doubles as
//! it fills, up to [`MateLimit::max_entries`]; a full cluster replaces its
//! entry with the least work below it), keyed by the board and the
//! attacker's hand. Proven and disproven entries keep *proof hands* and
//! *disproof hands*: the least attacker's hand that still mates (a drop adds
//! the dropped piece to the child's proof hand, a capture removes the
//! captured one; a defender's node takes the most of each kind over its
//! replies and, when a drop could block the check, all the attacker holds of
//! each kind the defender lacks, since with less the defender would hold
//! some), and dually the most that still fails (an attacker's node keeps
//! none of a kind it lacks, which would give it new drops). A proof holds for
//! every larger hand, a disproof for every smaller one. Disproofs that rely
//! on a repetition of a position on the current path are not stored as final.
//!
//! At an attacker's node each check is played and the defender's replies
//! counted: none is a mate in one, otherwise the count is the first proof
//! number. Alike moves (drops of different kinds to one square, a move with
//! and without promotion) count once there, and in the sums of proof or
//! disproof numbers only the most of a group of alike children counts: their
//! results go together, and summing them would overrate the node. Children
//! are looked up in the table together (their clusters loaded at once).
//! Thresholds use the 1+ε trick against thrashing.
//!
//! Once the root is proven, a mating line is read back from the table
//! without recursion (shortest attack, longest defence by the mate
//! distances, which are upper bounds stored at proof time, recomputed a few
//! plies down; a position whose result was lost is searched again). For a
//! line of at most 63 plies, depth-limited searches, shortest first and
//! within a node budget, then look for a shorter mate; a longer line is
//! returned as found. The line is checked before it is returned.
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

use std::collections::HashMap;
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
    /// The most table entries kept, 32 bytes each (0: a default of
    /// 2 million; at least 1024). The table starts small and grows to this
    /// as needed.
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

/// An attacker's hand: the count of each [`HandKind`], in [`HandKind::ALL`] order.
type Hand7 = [u8; 7];

/// Entries per table cluster: all entries of one board key share a cluster.
const CLUSTER: usize = 8;
/// The table's first size (entries); it doubles as it fills, up to the limit.
const FIRST_ENTRIES: usize = 1 << 16;
/// Whether alike moves (drops of different kinds to one square; a move with
/// and without promotion) count once (the most of them) in sums of proof or
/// disproof numbers, and in the first proof number of a defender's node.
const GROUP_ALIKE: bool = true;
/// How far down [`Solver::fresh_dist`] recomputes mate distances.
const FRESH_PLIES: u32 = 4;
/// The least table size (entries), whatever the limit says.
const MIN_ENTRIES: usize = 1024;
/// The default most table entries.
const DEFAULT_ENTRIES: usize = 2_000_000;

/// One table entry: a result for a board key and an attacker's hand.
/// For a proof `hand` is a proof hand (the result holds for every hand that
/// has at least as much of each kind), for a disproof a disproof hand (it
/// holds for every hand with at most as much), otherwise the exact hand.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    hand: Hand7,
    used: bool,
    pn: u32,
    dn: u32,
    /// Plies to mate, for proven entries.
    dist: u32,
    /// Nodes spent below this entry (saturating).
    work: u32,
}

impl Entry {
    fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// Whether hand `a` holds at least what hand `b` holds, kind by kind.
fn superset(a: &Hand7, b: &Hand7) -> bool {
    a.iter().zip(b).all(|(x, y)| x >= y)
}

/// A cluster of entries, aligned to cache lines.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct Cluster([Entry; CLUSTER]);

/// A fixed-layout hash table: clusters of [`CLUSTER`] entries in one
/// vector, all entries of a board key in one cluster. It starts small and
/// doubles while it is less than the limit; at the limit a full cluster
/// replaces its entry with the least work.
struct Table {
    clusters: Vec<Cluster>,
    len: usize,
    max_entries: usize,
}

impl Table {
    fn new(max_entries: usize) -> Table {
        let max_entries = max_entries.max(MIN_ENTRIES);
        let size = FIRST_ENTRIES.min(max_entries) / CLUSTER;
        Table {
            clusters: vec![Cluster::default(); size],
            len: 0,
            max_entries,
        }
    }

    fn capacity(&self) -> usize {
        self.clusters.len() * CLUSTER
    }

    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.clusters.len() as u128) >> 64) as usize
    }

    /// Reads the clusters of `keys` so that the probes that follow find
    /// them in the cache (the loads overlap).
    fn touch(&self, keys: impl Iterator<Item = u64>) {
        let mut x = 0;
        for k in keys {
            x ^= self.clusters[self.index(k)].0[0].key;
        }
        std::hint::black_box(x);
    }

    /// The entry for `key` and `hand`: a proof with a hand `hand` dominates
    /// (the shortest such), else a disproof whose hand dominates `hand`,
    /// else the entry for exactly `hand`.
    fn probe(&self, key: u64, hand: &Hand7) -> Option<Entry> {
        let mut proof: Option<Entry> = None;
        let mut disproof = None;
        let mut exact = None;
        for e in &self.clusters[self.index(key)].0 {
            if !e.used || e.key != key {
                continue;
            }
            if e.pn == 0 {
                if superset(hand, &e.hand) && proof.is_none_or(|p| e.dist < p.dist) {
                    proof = Some(*e);
                }
            } else if e.dn == 0 {
                if superset(&e.hand, hand) {
                    disproof = Some(*e);
                }
            } else if e.hand == *hand {
                exact = Some(*e);
            }
        }
        proof.or(disproof).or(exact)
    }

    fn store(&mut self, key: u64, hand: Hand7, pn: u32, dn: u32, dist: u32, work: u64) {
        if self.len * 4 >= self.capacity() * 3 && self.next_size() > self.clusters.len() {
            self.grow();
        }
        let new = Entry {
            key,
            hand,
            used: true,
            pn,
            dn,
            dist,
            work: u32::try_from(work).unwrap_or(u32::MAX),
        };
        let proof = pn == 0;
        let disproof = dn == 0 && !proof;
        let c = self.index(key);
        let cluster = &mut self.clusters[c].0;
        let mut exact = None;
        let mut empty = None;
        for (i, e) in cluster.iter_mut().enumerate() {
            if !e.used {
                empty = empty.or(Some(i));
                continue;
            }
            if e.key != key {
                continue;
            }
            if e.hand == hand {
                exact = Some(i);
                continue;
            }
            // Entries that the new result makes redundant.
            let redundant = if proof {
                superset(&e.hand, &hand) && (e.dn != 0 && (e.pn != 0 || e.dist >= dist))
            } else if disproof {
                superset(&hand, &e.hand) && e.pn != 0
            } else {
                false
            };
            if redundant {
                e.used = false;
                self.len -= 1;
                empty = empty.or(Some(i));
            }
        }
        if let Some(i) = exact {
            let e = &mut cluster[i];
            if e.is_final() && !new.is_final() {
                return;
            }
            if e.pn == 0 && proof && e.dist <= dist {
                return;
            }
            *e = new;
            return;
        }
        self.place(c, empty, new);
    }

    /// Puts `new` into slot `empty` of cluster `c`, or over the entry there
    /// with the least work (unresolved entries first on ties).
    fn place(&mut self, c: usize, empty: Option<usize>, new: Entry) {
        let cluster = &mut self.clusters[c].0;
        if let Some(i) = empty {
            cluster[i] = new;
            self.len += 1;
            return;
        }
        let victim = (0..CLUSTER)
            .min_by_key(|&i| (cluster[i].work, cluster[i].is_final()))
            .unwrap_or(0);
        cluster[victim] = new;
    }

    /// The number of clusters after the next growth: double, at most the limit.
    fn next_size(&self) -> usize {
        (self.clusters.len() * 2).min(self.max_entries / CLUSTER)
    }

    /// Doubles the table (or grows it to the limit).
    fn grow(&mut self) {
        let size = self.next_size();
        let old = std::mem::replace(&mut self.clusters, vec![Cluster::default(); size]);
        self.len = 0;
        for e in old.iter().flat_map(|c| c.0).filter(|e| e.used) {
            let c = self.index(e.key);
            let empty = self.clusters[c].0.iter().position(|e| !e.used);
            self.place(c, empty, e);
        }
    }

    /// Removes the proofs of `key` that hold for `hand`.
    fn forget_proofs(&mut self, key: u64, hand: &Hand7) {
        let c = self.index(key);
        for e in &mut self.clusters[c].0 {
            if e.used && e.key == key && e.pn == 0 && superset(hand, &e.hand) {
                e.used = false;
                self.len -= 1;
            }
        }
    }

    fn retain(&mut self, f: impl Fn(&Entry) -> bool) {
        for e in self.clusters.iter_mut().flat_map(|c| c.0.iter_mut()) {
            if e.used && !f(e) {
                e.used = false;
                self.len -= 1;
            }
        }
    }
}

/// For each colour, hand kind and count, the part of a position's key that
/// comes from holding that many of the kind.
type HandKeys = [[[u64; 19]; 7]; 2];

fn hand_keys() -> HandKeys {
    let mut t = [[[0; 19]; 7]; 2];
    for color in Color::ALL {
        for kind in HandKind::ALL {
            let row = &mut t[color.index()][kind.index()];
            for n in 1..19 {
                row[n] = row[n - 1] ^ zobrist::hand(color, kind, n as u8);
            }
        }
    }
    t
}

/// A (dis)proof search result of a node.
#[derive(Clone, Copy, Debug)]
struct Res {
    pn: u32,
    dn: u32,
    /// The path index of the earliest ancestor whose repetition a disproof
    /// relies on ([`NO_REP`] if none).
    rep: u32,
    /// The proof or disproof hand of a final result, otherwise the exact hand.
    hand: Hand7,
    /// Plies to mate of a proof.
    dist: u32,
}

impl Res {
    fn of(e: &Entry) -> Res {
        Res {
            pn: e.pn,
            dn: e.dn,
            rep: NO_REP,
            hand: e.hand,
            dist: e.dist,
        }
    }
}

/// A child of the node being searched.
#[derive(Clone, Copy, Debug)]
struct Child {
    m: Move,
    /// The kind the move drops, if a drop (index into [`Hand7`]).
    drop: Option<usize>,
    /// The hand kind the move captures, if any.
    capture: Option<usize>,
    /// Alike moves share a group (see [`GROUP_ALIKE`]).
    group: Option<u16>,
    res: Res,
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
    hand_keys: HandKeys,
}

/// Mixes a remaining depth into a key for the depth-limited phase.
fn depth_key(hash: u64, depth: u32) -> u64 {
    hash ^ (u64::from(depth) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The group of the move `moves[i]` if it has an alike move: a drop goes
/// by its square (0-80), a board move that may promote or not by its origin
/// and destination (81 and up). The generator lists the two promotion
/// choices of a move one after the other.
fn alike_group(moves: &[Move], i: usize) -> Option<u16> {
    match moves[i] {
        Move::Drop { to, .. } => Some(to.index() as u16),
        Move::Board { from, to, promote } => {
            let twin = Move::Board {
                from,
                to,
                promote: !promote,
            };
            let near = |j: Option<usize>| j.and_then(|j| moves.get(j)) == Some(&twin);
            (near(i.checked_sub(1)) || near(Some(i + 1)))
                .then(|| 81 + (from.index() * 81 + to.index()) as u16)
        }
    }
}

/// The number of moves in `moves`, alike moves counted once.
fn distinct_moves(moves: &[Move]) -> u32 {
    let mut squares = 0u128;
    let mut n = 0;
    for i in 0..moves.len() {
        match alike_group(moves, i) {
            None => n += 1,
            Some(g) if g < 81 => squares |= 1 << g,
            // Each of a promotion pair counts a half.
            Some(_) => n += usize::from(moves[i].is_promotion()),
        }
    }
    n as u32 + squares.count_ones()
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
            DEFAULT_ENTRIES
        } else {
            limit.max_entries
        };
        Solver {
            attacker: pos.side_to_move(),
            pos,
            table: Table::new(max_entries),
            path: HashMap::new(),
            nodes: 0,
            limit,
            max_entries,
            start: Instant::now(),
            aborted: false,
            depth_limit: None,
            phase_nodes: None,
            hand_keys: hand_keys(),
        }
    }

    fn solve(&mut self) -> MateResult {
        for attempt in 0..3 {
            let r = self.prove(u32::MAX);
            if self.aborted {
                return MateResult::Timeout;
            }
            if r.pn != 0 {
                return MateResult::NoMate;
            }
            if let Some(line) = self.extract(u32::MAX) {
                let start = self.pos.clone();
                if verify_mate_line(&start, &line) {
                    return MateResult::Mate(self.shorten(line));
                }
            }
            if self.aborted {
                return MateResult::Timeout;
            }
            // The line could not be read back: search again (the second
            // time with all but proofs forgotten).
            if attempt == 1 {
                self.table.retain(|e| e.pn == 0);
            }
        }
        MateResult::Timeout
    }

    /// Searches the current position (`depth` plies left) until it is
    /// proven or disproven, or the search is aborted.
    fn prove(&mut self, depth: u32) -> Res {
        loop {
            let r = self.mid(INF, INF, depth);
            if r.pn == 0 || r.dn == 0 || self.aborted {
                return r;
            }
        }
    }

    /// Looks for a shorter mate than `line` with depth-limited searches
    /// (shortest first), within a node budget; returns the shortest found.
    fn shorten(&mut self, line: Vec<Move>) -> Vec<Move> {
        if line.len() <= 1 || line.len() > 63 {
            return line;
        }
        let budget = self.nodes.saturating_mul(4).max(200_000);
        self.table = Table::new(self.max_entries);
        self.phase_nodes = Some(self.nodes.saturating_add(budget));
        for limit in (1..line.len() as u32).step_by(2) {
            self.depth_limit = Some(limit);
            let r = self.prove(limit);
            if self.aborted {
                break;
            }
            if r.pn == 0 {
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

    /// The attacker's hand.
    fn hand(&self) -> Hand7 {
        let hand = self.pos.hand(self.attacker);
        HandKind::ALL.map(|k| hand.count(k))
    }

    /// The table key of the current position with `depth` plies left.
    fn key(&self, depth: u32) -> u64 {
        let mut board = self.pos.hash();
        for color in Color::ALL {
            let hand = self.pos.hand(color);
            let keys = &self.hand_keys[color.index()];
            for kind in HandKind::ALL {
                board ^= keys[kind.index()][usize::from(hand.count(kind)).min(18)];
            }
        }
        match self.depth_limit {
            Some(_) => depth_key(board, depth),
            None => board,
        }
    }

    /// Whether the defender (to move, in check) could block the check by
    /// putting a piece between: a single checker, not adjacent.
    fn interposable(&self) -> bool {
        let checkers = self.pos.checkers();
        match (checkers.single(), self.pos.king(self.pos.side_to_move())) {
            (Some(c), Some(k)) => shogi_core::attacks::between(k, c).any(),
            _ => !checkers.more_than_one(),
        }
    }

    /// The proof hand of the current (defender's) position from the union
    /// `ph` of its children's proof hands: with less in the attacker's hand
    /// the defender would hold more, so for each kind the defender lacks the
    /// attacker must keep all it has (unless no drop can block the check).
    fn and_proof_hand(&self, mut ph: Hand7, hand: &Hand7) -> Hand7 {
        if self.interposable() {
            let theirs = self.pos.hand(self.attacker.opponent());
            for k in HandKind::ALL {
                if theirs.count(k) == 0 {
                    ph[k.index()] = hand[k.index()];
                }
            }
        }
        ph
    }

    /// Stores a result and returns it.
    fn settle(&mut self, key: u64, r: Res, work: u64) -> Res {
        self.table.store(key, r.hand, r.pn, r.dn, r.dist, work);
        r
    }

    /// Expands the current position's children (with `depth` plies left
    /// here), with their first results: from the path (repetitions), the
    /// table, or, at the attacker's nodes, the defender's number of replies
    /// as the first proof number (none: mate in one).
    fn children(&mut self, depth: u32) -> Vec<Child> {
        let moves = self.moves();
        let or_node = self.pos.side_to_move() == self.attacker;
        // First the keys (and the table's clusters loaded together), then the probes.
        let mut info = Vec::with_capacity(moves.len());
        for &m in &moves {
            let undo = self.pos.make_move(m);
            let key = self.key(depth.saturating_sub(1));
            let hand = self.hand();
            let position = self.pos.hash();
            let capture = undo
                .captured()
                .and_then(|p| p.kind.hand_kind())
                .map(HandKind::index);
            self.pos.unmake_move(m, undo);
            info.push((key, hand, position, capture));
        }
        self.table.touch(info.iter().map(|i| i.0));
        let mut kids = Vec::with_capacity(moves.len());
        for (&m, &(key, hand, position, capture)) in moves.iter().zip(&info) {
            let unknown = Res {
                pn: 1,
                dn: 1,
                rep: NO_REP,
                hand,
                dist: 0,
            };
            let res = if let Some(&i) = self.path.get(&position) {
                Res {
                    pn: INF,
                    dn: 0,
                    rep: i,
                    ..unknown
                }
            } else if let Some(e) = self.table.probe(key, &hand) {
                Res::of(&e)
            } else if or_node {
                let undo = self.pos.make_move(m);
                let n = if GROUP_ALIKE {
                    distinct_moves(&self.pos.legal_moves())
                } else {
                    self.pos.count_legal_moves() as u32
                };
                let r = if n == 0 {
                    Res {
                        pn: 0,
                        dn: INF,
                        hand: self.and_proof_hand([0; 7], &hand),
                        ..unknown
                    }
                } else if self.depth_limit.is_some() && depth <= 1 {
                    Res {
                        pn: INF,
                        dn: 0,
                        ..unknown
                    }
                } else {
                    Res { pn: n, ..unknown }
                };
                self.pos.unmake_move(m, undo);
                self.settle(key, r, u64::from(r.pn == 0 || r.dn == 0))
            } else {
                unknown
            };
            let drop = match m {
                Move::Drop { kind, .. } => Some(kind.index()),
                Move::Board { .. } => None,
            };
            kids.push(Child {
                m,
                drop,
                capture,
                group: alike_group(&moves, kids.len()),
                res,
            });
        }
        kids
    }

    /// Searches the current position until its proof or disproof number
    /// reaches its threshold; `depth` is the plies left in the depth-limited
    /// phase.
    fn mid(&mut self, thpn: u32, thdn: u32, depth: u32) -> Res {
        self.nodes += 1;
        if self.nodes & 1023 == 0 || self.limit.nodes.is_some_and(|n| self.nodes >= n) {
            self.check_limits();
        }
        let key = self.key(depth);
        let hand = self.hand();
        let or_node = self.pos.side_to_move() == self.attacker;
        let entry = self.table.probe(key, &hand);
        if let Some(e) = entry {
            if e.is_final() || self.aborted {
                return Res::of(&e);
            }
        }
        let exact = Res {
            pn: 1,
            dn: 1,
            rep: NO_REP,
            hand,
            dist: 0,
        };
        if self.aborted {
            return exact;
        }
        if self.depth_limit.is_some() && depth == 0 {
            // No plies left: only a position already mated counts.
            let r = if or_node {
                Res {
                    pn: INF,
                    dn: 0,
                    hand: [u8::MAX; 7],
                    ..exact
                }
            } else if !self.pos.has_legal_move() {
                Res {
                    pn: 0,
                    dn: INF,
                    hand: self.and_proof_hand([0; 7], &hand),
                    ..exact
                }
            } else {
                Res {
                    pn: INF,
                    dn: 0,
                    ..exact
                }
            };
            return self.settle(key, r, 1);
        }
        let old_work = entry.map_or(0, |e| u64::from(e.work));
        let start_nodes = self.nodes;
        let mut kids = self.children(depth);
        if kids.is_empty() {
            let r = if or_node {
                // No check: a larger hand helps only with a kind it lacks.
                Res {
                    pn: INF,
                    dn: 0,
                    hand: hand.map(|n| if n == 0 { 0 } else { u8::MAX }),
                    ..exact
                }
            } else {
                Res {
                    pn: 0,
                    dn: INF,
                    hand: self.and_proof_hand([0; 7], &hand),
                    ..exact
                }
            };
            return self.settle(key, r, 1);
        }
        let position = self.pos.hash();
        let index = self.path.len() as u32;
        self.path.insert(position, index);
        let (mut pn, mut dn, mut rep);
        // The groups of alike moves and the most of their other numbers.
        let mut groups: Vec<(u16, u32)> = Vec::new();
        loop {
            let mut best = 0;
            let mut best_val = INF;
            let mut second = INF;
            let mut best_other = 0;
            let mut sum = 0u32;
            groups.clear();
            // For a disproof: OR needs all children (earliest rep counts),
            // AND needs one (the least path-dependent one).
            let mut or_rep = NO_REP;
            let mut and_rep: Option<u32> = None;
            for (i, c) in kids.iter().enumerate() {
                let r = &c.res;
                or_rep = or_rep.min(r.rep);
                if r.dn == 0 {
                    and_rep = Some(and_rep.map_or(r.rep, |x: u32| x.max(r.rep)));
                }
                let (val, other) = if or_node { (r.pn, r.dn) } else { (r.dn, r.pn) };
                match c.group {
                    Some(sq) if GROUP_ALIKE => match groups.iter_mut().find(|g| g.0 == sq) {
                        Some(g) => g.1 = g.1.max(other),
                        None => groups.push((sq, other)),
                    },
                    _ => sum = add(sum, other),
                }
                if val < best_val {
                    second = best_val;
                    best_val = val;
                    best = i;
                    best_other = other;
                } else if val < second {
                    second = val;
                }
            }
            for g in &groups {
                sum = add(sum, g.1);
            }
            if let Some(sq) = kids[best].group.filter(|_| GROUP_ALIKE) {
                // The sum counts the most of a group of alike moves.
                best_other = groups
                    .iter()
                    .find(|g| g.0 == sq)
                    .map_or(best_other, |g| g.1);
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
            let m = kids[best].m;
            let undo = self.pos.make_move(m);
            let r = self.mid(cthpn, cthdn, depth.saturating_sub(1));
            self.pos.unmake_move(m, undo);
            kids[best].res = r;
        }
        self.path.remove(&position);
        if rep >= index {
            // Repetitions of this node itself are settled here.
            rep = NO_REP;
        }
        let work = self.nodes - start_nodes + old_work;
        if pn == 0 {
            let (ph, dist) = if or_node {
                let c = kids
                    .iter()
                    .filter(|c| c.res.pn == 0)
                    .min_by_key(|c| c.res.dist)
                    .map_or((hand, 0), |c| {
                        let mut ph = c.res.hand;
                        if let Some(k) = c.capture {
                            ph[k] = ph[k].saturating_sub(1);
                        }
                        if let Some(k) = c.drop {
                            ph[k] = ph[k].saturating_add(1);
                        }
                        (ph, c.res.dist)
                    });
                (c.0, c.1 + 1)
            } else {
                let mut ph = [0u8; 7];
                let mut dist = 0;
                for c in &kids {
                    for (p, &h) in ph.iter_mut().zip(&c.res.hand) {
                        *p = (*p).max(h);
                    }
                    dist = dist.max(c.res.dist);
                }
                (self.and_proof_hand(ph, &hand), dist + 1)
            };
            let mut ph = ph;
            for (p, &h) in ph.iter_mut().zip(&hand) {
                *p = (*p).min(h);
            }
            let r = Res {
                pn: 0,
                dn: INF,
                hand: ph,
                dist,
                ..exact
            };
            return self.settle(key, r, work);
        }
        if dn == 0 && rep == NO_REP {
            let dh = if or_node {
                let mut dh = [u8::MAX; 7];
                for c in &kids {
                    let mut h = c.res.hand;
                    if let Some(k) = c.capture {
                        h[k] = h[k].saturating_sub(1);
                    }
                    if let Some(k) = c.drop {
                        h[k] = h[k].saturating_add(1);
                    }
                    for (d, &x) in dh.iter_mut().zip(&h) {
                        *d = (*d).min(x);
                    }
                }
                // With a kind it lacks, the attacker would have new drops.
                for (d, &x) in dh.iter_mut().zip(&hand) {
                    if x == 0 {
                        *d = 0;
                    }
                }
                dh
            } else {
                kids.iter()
                    .find(|c| c.res.dn == 0 && (c.res.rep == NO_REP || c.res.rep >= index))
                    .map_or(hand, |c| c.res.hand)
            };
            let mut dh = dh;
            for (d, &h) in dh.iter_mut().zip(&hand) {
                *d = (*d).max(h);
            }
            let r = Res {
                pn: INF,
                dn: 0,
                hand: dh,
                ..exact
            };
            return self.settle(key, r, work);
        }
        if rep == NO_REP {
            self.table.store(key, hand, pn, dn, 0, work);
        } else {
            // A disproof that holds only on this path: keep the old estimate.
            let (opn, odn) = entry
                .filter(|e| !e.is_final())
                .map_or((1, 1), |e| (e.pn, e.dn));
            self.table.store(key, hand, opn, odn, 0, work);
        }
        Res {
            pn,
            dn,
            rep,
            ..exact
        }
    }

    /// The plies to mate of the current position, proven with `stored`
    /// (`depth` plies left), recomputed from the table `plies` plies down:
    /// the stored distance of a node is an upper bound fixed when it was
    /// proven, and its children may have been proven faster since.
    fn fresh_dist(&mut self, depth: u32, plies: u32, stored: u32) -> u32 {
        if plies == 0 {
            return stored;
        }
        let or_node = self.pos.side_to_move() == self.attacker;
        let moves = self.moves();
        let mut best: Option<u32> = None;
        for &m in &moves {
            let undo = self.pos.make_move(m);
            let child = self
                .table
                .probe(self.key(depth.saturating_sub(1)), &self.hand())
                .filter(|e| e.pn == 0)
                .map(|e| self.fresh_dist(depth.saturating_sub(1), plies - 1, e.dist));
            self.pos.unmake_move(m, undo);
            match child {
                Some(d) if or_node => best = Some(best.map_or(d, |b| b.min(d))),
                Some(d) => best = Some(best.map_or(d, |b| b.max(d))),
                None if or_node => {}
                // A defence whose proof is not in the table.
                None => return stored,
            }
        }
        best.map_or(if or_node { stored } else { 0 }, |b| (b + 1).min(stored))
    }

    /// Reads the mating line back from the table (`depth` plies left at the
    /// root), without recursion: the attacker plays its shortest proven
    /// move, the defender its longest, and neither goes back to a position
    /// of the line. A position whose result was lost from the table is
    /// searched again (with the line so far as the path); outside the
    /// depth-limited phase a defence that then fails (a repetition of the
    /// line) is passed over.
    fn extract(&mut self, mut depth: u32) -> Option<Vec<Move>> {
        let start = self.pos.clone();
        let mut line = Vec::new();
        let mut on_path = Vec::new();
        let mut retries = 0;
        let result = loop {
            let or_node = self.pos.side_to_move() == self.attacker;
            let position = self.pos.hash();
            if line.len() > 100_000 || self.aborted {
                break None;
            }
            let moves = self.moves();
            if moves.is_empty() {
                break if or_node { None } else { Some(line) };
            }
            let child_depth = depth.saturating_sub(1);
            self.path.insert(position, self.path.len() as u32);
            let mut pick: Option<(Move, u32)> = None;
            let mut lost = false;
            for &m in &moves {
                let undo = self.pos.make_move(m);
                let mut e = None;
                if !self.path.contains_key(&self.pos.hash()) {
                    e = self
                        .table
                        .probe(self.key(child_depth), &self.hand())
                        .filter(|e| e.pn == 0);
                    if e.is_none() && !or_node {
                        // A defence whose proof was lost: prove it again.
                        let r = self.prove(child_depth);
                        e = (r.pn == 0).then_some(Entry {
                            pn: 0,
                            dist: r.dist,
                            ..Entry::default()
                        });
                        // In the depth-limited phase every defence must mate in time.
                        lost |= e.is_none() && self.depth_limit.is_some();
                    }
                }
                let dist = e.map(|e| self.fresh_dist(child_depth, FRESH_PLIES, e.dist));
                self.pos.unmake_move(m, undo);
                let Some(dist) = dist else { continue };
                let better = pick.is_none_or(|(_, d)| if or_node { dist < d } else { dist > d });
                if better {
                    pick = Some((m, dist));
                }
            }
            self.path.remove(&position);
            if lost || self.aborted {
                break None;
            }
            let Some((m, _)) = pick else {
                if or_node && retries < 100 {
                    // The proofs below this position were lost: prove it again.
                    retries += 1;
                    self.table.forget_proofs(self.key(depth), &self.hand());
                    if self.prove(depth).pn == 0 {
                        continue;
                    }
                }
                break None;
            };
            self.path.insert(position, self.path.len() as u32);
            on_path.push(position);
            line.push(m);
            self.pos.make_move(m);
            depth = child_depth;
        };
        for p in on_path {
            self.path.remove(&p);
        }
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
    fn proof_hand_keeps_only_what_mates() {
        // G*5b mates with one gold; the king cannot block an adjacent check.
        let p = lenient("4k4/9/4P4/9/9/9/9/9/9 b 2GS2r2b2g3s4n4l17p 1");
        let mut solver = Solver::new(p, MateLimit::time(Duration::from_secs(5)));
        assert_eq!(solver.prove(u32::MAX).pn, 0);
        let e = solver.table.probe(solver.key(u32::MAX), &solver.hand());
        let gold = HandKind::Gold.index();
        let want: Hand7 = std::array::from_fn(|i| u8::from(i == gold));
        assert_eq!(e.map(|e| (e.pn, e.hand)), Some((0, want)));
        // The proof serves any hand with a gold, not one without.
        assert!(solver
            .table
            .probe(solver.key(u32::MAX), &want)
            .is_some_and(|e| e.pn == 0));
        assert!(solver
            .table
            .probe(solver.key(u32::MAX), &[0; 7])
            .is_none_or(|e| e.pn != 0));
    }

    #[test]
    fn disproof_hand_covers_smaller_hands() {
        let p = lenient("9/4k4/9/4P4/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        let mut solver = Solver::new(p, MateLimit::time(Duration::from_secs(10)));
        assert_eq!(solver.prove(u32::MAX).dn, 0);
        let e = solver.table.probe(solver.key(u32::MAX), &[0; 7]);
        assert!(e.is_some_and(|e| e.dn == 0));
    }

    #[test]
    fn small_tables_still_solve() {
        let p = lenient("9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1");
        for max_entries in [1, 100, 1000, 3000] {
            let r = solve_mate(
                &p,
                MateLimit {
                    time: Some(Duration::from_secs(20)),
                    max_entries,
                    ..MateLimit::default()
                },
            );
            assert!(
                matches!(&r, MateResult::Mate(line) if line.len() == 7),
                "{max_entries}: {r:?}"
            );
        }
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
