//! Puzzles from our own games (behind `shogi puzzles generate`): mate
//! problems proven by the [df-pn solver](crate::dfpn) and "find the best
//! move" positions found by a two-line ([`SearchOptions::multipv`]) search.
//!
//! [`generate`] plays self-play games from the [opening list](crate::arena::OPENINGS)
//! on one thread at a fixed node budget (each side's budget drawn once per game
//! from a seeded generator, between `nodes` and `2 * nodes`, so that every pass
//! over the list plays new games), and scans every position the search plays
//! from; [`scan_records`] scans the positions of given game records instead
//! (to measure, never to ship: the shipped set comes from our self-play).
//! For a given configuration the output is the same on every run.
//!
//! A position becomes
//! - a **mate puzzle** when the side to move has a shortest mate of 1, 3, 5
//!   or 7 plies ([`shortest_mate_within`]) and its first move is the only
//!   first move that mates within that many plies: after every other
//!   checking move some reply escapes a mate in the plies left
//!   ([`longest_defence`] answers [`Defence::Escapes`]);
//! - a **best-move puzzle** when, not in check, a fresh two-line search of
//!   [`PuzzleConfig::best_nodes`] nodes ([`best_move_check`], the same search
//!   the re-proof test runs) scores the best move at least
//!   [`PuzzleConfig::margin`] centipawns above the second, the best score is
//!   within [`BEST_SCORE_RANGE`] (not already won, not lost), neither line is
//!   a mate, and the best move is not a capture on the square the last move
//!   went to (a plain recapture). The self-play search's own two lines
//!   pick the candidates; at most [`BEST_PER_GAME`] come from one game.
//!
//! Positions are kept once (by board, side to move and hands), in the order
//! found; puzzle ids are `m<plies>-<n>` and `b-<n>`, numbered in that order.
//!
//! ```
//! use shogi_engine::puzzles::{generate, PuzzleConfig};
//! let config = PuzzleConfig { games: 1, nodes: 200, max_plies: 30, ..PuzzleConfig::default() };
//! let set = generate(&config, |_| {});
//! assert_eq!(set.stats.games, 1);
//! assert!(set.to_json("test").starts_with("{\n  \"version\": 1,"));
//! ```

use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::Arc;

use shogi_core::usi::PositionCommand;
use shogi_core::{Color, GameRules, GameStatus, ImpasseRule, Move, Position};

use crate::arena::{parse_openings, OPENINGS};
use crate::dfpn::{
    longest_defence, shortest_mate_within_with_stats, Defence, MateLimit, MateResult,
};
use crate::eval::LinearEval;
use crate::limits::SearchLimit;
use crate::movepicker::is_capture;
use crate::search::{
    search, search_position, PastPosition, SearchControl, SearchOptions, SearchResult,
    MATE_IN_MAX_PLY,
};
use crate::tt::TranspositionTable;
use crate::tune::Rng;

/// The mate lengths kept, in plies.
pub const MATE_LENGTHS: [u32; 4] = [1, 3, 5, 7];

/// The best move's score (centipawns, side to move) a best-move puzzle
/// allows: not already winning by more, not losing by more.
pub const BEST_SCORE_RANGE: std::ops::RangeInclusive<i32> = -300..=1000;

/// The default nodes of the two-line search that confirms a best-move
/// puzzle. A million: the 100,000 used before let five of the sixty shipped
/// puzzles through whose move a deeper search no longer plays (docs/PUZZLES.md).
pub const BEST_NODES: u64 = 1_000_000;

/// The default least lead, in centipawns, of a best-move puzzle's move
/// over the second best.
pub const MARGIN: i32 = 300;

/// The most best-move puzzles taken from one game (a tactic plays out over
/// several moves; the first few positions of it are enough).
pub const BEST_PER_GAME: usize = 2;

/// Settings of [`generate`] and [`scan_records`].
#[derive(Clone, Debug)]
pub struct PuzzleConfig {
    /// Self-play games to play.
    pub games: usize,
    /// The least nodes per move of the self-play search (each side's budget
    /// in a game is drawn between this and twice this).
    pub nodes: u64,
    /// Seed of the budgets.
    pub seed: u64,
    /// A game is drawn after this many plies.
    pub max_plies: u32,
    /// Node limit of each mate search (a search that reaches it drops the position).
    pub mate_nodes: u64,
    /// Nodes of the fresh two-line search that confirms a best-move puzzle.
    pub best_nodes: u64,
    /// How much better (centipawns) the best move must be than the second.
    pub margin: i32,
    /// Openings to start from, in turn (empty: the start position).
    pub openings: Vec<PositionCommand>,
}

impl Default for PuzzleConfig {
    fn default() -> Self {
        PuzzleConfig {
            games: 100,
            nodes: 20_000,
            seed: 1,
            max_plies: 320,
            mate_nodes: 200_000,
            best_nodes: BEST_NODES,
            margin: MARGIN,
            openings: parse_openings(OPENINGS).unwrap_or_default(),
        }
    }
}

/// What a puzzle asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleKind {
    /// Mate in [`Puzzle::plies`] plies.
    Mate,
    /// Find the one good move.
    Best,
}

/// One generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// What it asks for.
    pub kind: PuzzleKind,
    /// The position (full SFEN with move number); the side to move solves.
    pub sfen: String,
    /// The shortest mate's length, or 1 for a best-move puzzle.
    pub plies: u32,
    /// A mating line of `plies` plies, or the best move.
    pub solution: Vec<Move>,
    /// The first difficulty on the Glicko scale ([`mate_rating`], [`best_rating`]).
    pub rating: i32,
    /// Mate: the solver's nodes to find the shortest mate; best move: the
    /// smallest search budget that picks it.
    pub nodes: u64,
    /// Best move: the two lines' scores (centipawns, side to move).
    pub scores: Option<(i32, i32)>,
    /// The game it comes from (0-based) and the ply in it (0 = the game's start).
    pub source: (usize, usize),
}

/// Counts of a run, for the summary and the docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleStats {
    /// Games played (or records scanned).
    pub games: usize,
    /// Positions scanned.
    pub positions: usize,
    /// Mate searches that reached their node limit.
    pub mate_timeouts: usize,
    /// Per mate length (1, 3, 5, 7): positions whose shortest mate has that length (proofs).
    pub mate_proofs: [usize; 4],
    /// Per mate length: of those, the ones whose first move is the only one that mates in time.
    pub mate_unique: [usize; 4],
    /// Per mate length: of those, the ones kept (not a position already kept).
    pub mate_kept: [usize; 4],
    /// Positions whose self-play search passed the best-move filters.
    pub best_candidates: usize,
    /// Of those, the ones the fresh search confirmed.
    pub best_confirmed: usize,
    /// Best-move puzzles kept.
    pub best_kept: usize,
}

/// The puzzles of a run and its counts.
#[derive(Clone, Debug, Default)]
pub struct PuzzleSet {
    /// In the order found.
    pub puzzles: Vec<Puzzle>,
    /// The counts.
    pub stats: PuzzleStats,
}

/// The first difficulty of a mate puzzle: 700, 250 more per two plies of
/// length, and 40 per doubling of the nodes the solver needed to find the
/// shortest mate (`40 log2(nodes + 1)`).
///
/// ```
/// assert_eq!(shogi_engine::puzzles::mate_rating(1, 0), 700);
/// assert_eq!(shogi_engine::puzzles::mate_rating(3, 1023), 700 + 250 + 400);
/// ```
#[must_use]
pub fn mate_rating(plies: u32, nodes: u64) -> i32 {
    let length = 250 * (plies.saturating_sub(1) / 2) as i32;
    let work = (40.0 * ((nodes + 1) as f64).log2()).round() as i32;
    700 + length + work
}

/// The first difficulty of a best-move puzzle: 1000 plus 150 per doubling
/// of the smallest search budget (from 1000 nodes) that picks the move.
///
/// ```
/// assert_eq!(shogi_engine::puzzles::best_rating(1000), 1000);
/// assert_eq!(shogi_engine::puzzles::best_rating(8000), 1450);
/// ```
#[must_use]
pub fn best_rating(nodes: u64) -> i32 {
    let doublings = (nodes.max(1000) as f64 / 1000.0).log2();
    1000 + (150.0 * doublings).round() as i32
}

/// The SFEN without its move number: what makes two positions the same puzzle.
fn position_key(pos: &Position) -> String {
    let sfen = pos.to_sfen();
    sfen.rsplit_once(' ')
        .map_or(sfen.clone(), |(k, _)| k.to_string())
}

/// Whether a mate's first move is the only one: see [`other_mating_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstMove {
    /// No other first move mates within the plies.
    Unique,
    /// This other checking first move also mates within the plies.
    Another(Move),
    /// A search reached its limit first.
    Timeout,
}

/// Whether a checking first move other than `first` also mates within
/// `plies` plies from `pos`: after each, [`longest_defence`] with the plies
/// left must find a reply that escapes.
#[must_use]
pub fn other_mating_move(pos: &Position, first: Move, plies: u32, limit: &MateLimit) -> FirstMove {
    for m in pos.legal_moves() {
        if m == first || !pos.gives_check(m) {
            continue;
        }
        let mut after = pos.clone();
        if after.play(m).is_err() {
            continue;
        }
        match longest_defence(&after, plies.saturating_sub(2), None, limit.clone()) {
            Defence::Escapes(_) => {}
            Defence::Mated | Defence::Falls { .. } => return FirstMove::Another(m),
            Defence::Timeout => return FirstMove::Timeout,
        }
    }
    FirstMove::Unique
}

/// The fresh, single-thread, two-line search at `nodes` nodes that decides a
/// best-move puzzle: `Some((best move, best score, second score))` when its
/// best move beats the second by at least `margin` centipawns, the best
/// score lies in [`BEST_SCORE_RANGE`], neither is a mate score and the move
/// is not a capture on `last_to` (the square the last move went to).
/// The generator keeps a position by it; the re-proof test repeats it.
#[must_use]
pub fn best_move_check(
    pos: &Position,
    last_to: Option<shogi_core::Square>,
    nodes: u64,
    margin: i32,
) -> Option<(Move, i32, i32)> {
    if pos.in_check() {
        return None;
    }
    let options = SearchOptions {
        multipv: 2,
        ..SearchOptions::default()
    };
    let r = search_position(pos, &SearchLimit::Nodes(nodes), &options);
    passes_best_filters(pos, last_to, &r, margin)
}

/// The best-move filters applied to a two-line search result.
fn passes_best_filters(
    pos: &Position,
    last_to: Option<shogi_core::Square>,
    r: &SearchResult,
    margin: i32,
) -> Option<(Move, i32, i32)> {
    let [first, second, ..] = r.lines.as_slice() else {
        return None;
    };
    let m = *first.pv.first()?;
    let (best, next) = (first.score, second.score);
    let mate = |s: i32| s.abs() >= MATE_IN_MAX_PLY;
    let recapture = is_capture(pos, m) && Some(m.to()) == last_to;
    (!mate(best)
        && !mate(next)
        && best - next >= margin
        && BEST_SCORE_RANGE.contains(&best)
        && !recapture)
        .then_some((m, best, next))
}

/// Scans positions and keeps the puzzles found.
struct Scanner<'a> {
    config: &'a PuzzleConfig,
    seen: HashSet<String>,
    set: PuzzleSet,
}

impl Scanner<'_> {
    fn mate_limit(&self) -> MateLimit {
        MateLimit {
            nodes: Some(self.config.mate_nodes),
            ..MateLimit::default()
        }
    }

    /// Scans `pos` (reached by `last`); `played` is the two-line search
    /// that chose the move played from it.
    fn scan(
        &mut self,
        pos: &Position,
        last: Option<Move>,
        played: &SearchResult,
        source: (usize, usize),
    ) {
        self.set.stats.positions += 1;
        if !self.scan_mate(pos, source) {
            self.scan_best(pos, last, played, source);
        }
    }

    /// Looks for a mate puzzle; true when the side to move has a mate within 7 plies.
    fn scan_mate(&mut self, pos: &Position, source: (usize, usize)) -> bool {
        let limit = self.mate_limit();
        let longest = MATE_LENGTHS[MATE_LENGTHS.len() - 1];
        let (line, nodes) = match shortest_mate_within_with_stats(pos, longest, limit.clone()) {
            (MateResult::Mate(line), nodes) => (line, nodes),
            (MateResult::NoMate, _) => return false,
            (MateResult::Timeout, _) => {
                self.set.stats.mate_timeouts += 1;
                return false;
            }
        };
        let plies = line.len() as u32;
        let slot = (plies as usize - 1) / 2;
        let stats = &mut self.set.stats;
        stats.mate_proofs[slot] += 1;
        match other_mating_move(pos, line[0], plies, &limit) {
            FirstMove::Unique => {}
            FirstMove::Another(_) => return true,
            FirstMove::Timeout => {
                stats.mate_timeouts += 1;
                return true;
            }
        }
        stats.mate_unique[slot] += 1;
        if !self.seen.insert(format!("m {}", position_key(pos))) {
            return true;
        }
        stats.mate_kept[slot] += 1;
        self.set.puzzles.push(Puzzle {
            kind: PuzzleKind::Mate,
            sfen: pos.to_sfen(),
            plies,
            solution: line,
            rating: mate_rating(plies, nodes),
            nodes,
            scores: None,
            source,
        });
        true
    }

    /// Looks for a best-move puzzle, the self-play search's two lines first.
    fn scan_best(
        &mut self,
        pos: &Position,
        last: Option<Move>,
        played: &SearchResult,
        source: (usize, usize),
    ) {
        let last_to = last.map(Move::to);
        let from_this_game = self
            .set
            .puzzles
            .iter()
            .rev()
            .take_while(|p| p.source.0 == source.0)
            .filter(|p| p.kind == PuzzleKind::Best)
            .count();
        if from_this_game >= BEST_PER_GAME
            || pos.in_check()
            || passes_best_filters(pos, last_to, played, self.config.margin).is_none()
        {
            return;
        }
        self.set.stats.best_candidates += 1;
        let Some((m, best, second)) =
            best_move_check(pos, last_to, self.config.best_nodes, self.config.margin)
        else {
            return;
        };
        self.set.stats.best_confirmed += 1;
        if !self.seen.insert(format!("b {}", position_key(pos))) {
            return;
        }
        self.set.stats.best_kept += 1;
        let nodes = smallest_budget_for(pos, m, self.config.best_nodes);
        self.set.puzzles.push(Puzzle {
            kind: PuzzleKind::Best,
            sfen: pos.to_sfen(),
            plies: 1,
            solution: vec![m],
            rating: best_rating(nodes),
            nodes,
            scores: Some((best, second)),
            source,
        });
    }
}

/// The smallest budget of 1000, 2000, 4000, ... nodes (at most `most`) at
/// which a fresh one-line search plays `m`; `most` if none does.
fn smallest_budget_for(pos: &Position, m: Move, most: u64) -> u64 {
    let mut nodes = 1000;
    while nodes < most {
        let r = search_position(pos, &SearchLimit::Nodes(nodes), &SearchOptions::default());
        if r.best_move == Some(m) {
            return nodes;
        }
        nodes *= 2;
    }
    most
}

/// The options of the self-play search: two lines, the impasse rule of matches.
fn play_options() -> SearchOptions {
    SearchOptions {
        multipv: 2,
        impasse: ImpasseRule::Csa27,
        evaluator: Arc::new(LinearEval::default()),
        ..SearchOptions::default()
    }
}

/// Plays `config.games` self-play games and scans their positions;
/// `progress` is called after every game.
#[must_use]
pub fn generate<F: FnMut(&PuzzleStats)>(config: &PuzzleConfig, mut progress: F) -> PuzzleSet {
    let options = play_options();
    let tt = TranspositionTable::new(16);
    let startpos = [PositionCommand {
        start: Position::startpos(),
        moves: Vec::new(),
    }];
    let openings = if config.openings.is_empty() {
        &startpos[..]
    } else {
        &config.openings[..]
    };
    let mut scanner = Scanner {
        config,
        seen: HashSet::new(),
        set: PuzzleSet::default(),
    };
    for index in 0..config.games {
        let mut rng = Rng::new(config.seed ^ (index as u64).wrapping_mul(0xA24B_AED4_963E_E407));
        let budget = |rng: &mut Rng| config.nodes + rng.below(config.nodes as usize + 1) as u64;
        let nodes = [budget(&mut rng), budget(&mut rng)];
        let rules = GameRules {
            impasse: ImpasseRule::Csa27,
            max_moves: Some(config.max_plies),
            ..GameRules::default()
        };
        let opening = &openings[index % openings.len()];
        let (mut game, illegal) = opening.replay(rules);
        if illegal.is_some() {
            continue;
        }
        let mut past = past_positions(&opening.start, &opening.moves);
        tt.clear();
        while game.status() == GameStatus::Ongoing {
            let pos = game.position().clone();
            tt.new_search();
            let side = usize::from(pos.side_to_move() == Color::Gote);
            let r = search(
                &pos,
                &past,
                &SearchLimit::Nodes(nodes[side]),
                &options,
                &tt,
                &SearchControl::new(false),
                &mut |_: &str| {},
            );
            let ply = game.moves().len();
            scanner.scan(&pos, game.moves().last().copied(), &r, (index, ply));
            let Some(m) = r.best_move else { break };
            past.push(PastPosition {
                key: pos.hash(),
                gave_check: pos.gives_check(m),
            });
            if game.play(m).is_err() {
                break;
            }
        }
        scanner.set.stats.games += 1;
        progress(&scanner.set.stats);
    }
    scanner.set
}

/// The positions before each of `moves` from `start`, for repetition.
fn past_positions(start: &Position, moves: &[Move]) -> Vec<PastPosition> {
    let mut pos = start.clone();
    let mut past = Vec::new();
    for &m in moves {
        past.push(PastPosition {
            key: pos.hash(),
            gave_check: pos.gives_check(m),
        });
        if pos.play(m).is_err() {
            break;
        }
    }
    past
}

/// Scans every position of the given records (each scored by a fresh
/// two-line search of `config.nodes` nodes for the best-move candidates);
/// `progress` is called after every record. For measuring what other games
/// would yield: the shipped set is made by [`generate`].
#[must_use]
pub fn scan_records<F: FnMut(&PuzzleStats)>(
    config: &PuzzleConfig,
    records: &[PositionCommand],
    mut progress: F,
) -> PuzzleSet {
    let options = SearchOptions {
        multipv: 2,
        ..SearchOptions::default()
    };
    let mut scanner = Scanner {
        config,
        seen: HashSet::new(),
        set: PuzzleSet::default(),
    };
    for (index, record) in records.iter().enumerate() {
        let mut pos = record.start.clone();
        let mut last = None;
        for (ply, &m) in record.moves.iter().enumerate() {
            if pos.legal_moves().is_empty() {
                break;
            }
            let r = search_position(&pos, &SearchLimit::Nodes(config.nodes), &options);
            scanner.scan(&pos, last, &r, (index, ply));
            if pos.play(m).is_err() {
                break;
            }
            last = Some(m);
        }
        scanner.set.stats.games += 1;
        progress(&scanner.set.stats);
    }
    scanner.set
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl PuzzleSet {
    /// At most `most` puzzles of each kind and mate length, the first found.
    #[must_use]
    pub fn capped(&self, most: usize) -> PuzzleSet {
        let mut counts = std::collections::HashMap::new();
        let puzzles = self
            .puzzles
            .iter()
            .filter(|p| {
                let n = counts
                    .entry((p.kind == PuzzleKind::Mate, p.plies))
                    .or_insert(0);
                *n += 1;
                *n <= most
            })
            .cloned()
            .collect();
        PuzzleSet {
            puzzles,
            stats: self.stats.clone(),
        }
    }

    /// The puzzles with their ids (`m3-0001`, `b-0001`, numbered in the order
    /// found), mates by length first, then best moves.
    #[must_use]
    pub fn with_ids(&self) -> Vec<(String, &Puzzle)> {
        let mut out = Vec::new();
        for plies in MATE_LENGTHS {
            let mates = self
                .puzzles
                .iter()
                .filter(|p| p.kind == PuzzleKind::Mate && p.plies == plies);
            for (i, p) in mates.enumerate() {
                out.push((format!("m{plies}-{:04}", i + 1), p));
            }
        }
        let best = self.puzzles.iter().filter(|p| p.kind == PuzzleKind::Best);
        for (i, p) in best.enumerate() {
            out.push((format!("b-{:04}", i + 1), p));
        }
        out
    }

    /// The data file: `{"version": 1, "generator": ..., "stats": {...},
    /// "puzzles": [...]}`, one puzzle per line (docs/PUZZLES.md).
    #[must_use]
    pub fn to_json(&self, generator: &str) -> String {
        let s = &self.stats;
        let list = |a: &[usize; 4]| {
            a.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{{\n  \"version\": 1,\n  \"generator\": {},",
            json_string(generator)
        );
        let _ = writeln!(
            out,
            "  \"stats\": {{\"games\": {}, \"positions\": {}, \"mate_timeouts\": {}, \
             \"mate_proofs\": [{}], \"mate_unique\": [{}], \"mate_kept\": [{}], \
             \"best_candidates\": {}, \"best_confirmed\": {}, \"best_kept\": {}}},",
            s.games,
            s.positions,
            s.mate_timeouts,
            list(&s.mate_proofs),
            list(&s.mate_unique),
            list(&s.mate_kept),
            s.best_candidates,
            s.best_confirmed,
            s.best_kept
        );
        out.push_str("  \"puzzles\": [\n");
        let items: Vec<String> = self
            .with_ids()
            .into_iter()
            .map(|(id, p)| puzzle_json(&id, p))
            .collect();
        out.push_str(&items.join(",\n"));
        out.push_str("\n  ]\n}\n");
        out
    }
}

/// One puzzle as a JSON object on one line.
fn puzzle_json(id: &str, p: &Puzzle) -> String {
    let solution: Vec<String> = p
        .solution
        .iter()
        .map(|m| json_string(&m.to_string()))
        .collect();
    let kind = match p.kind {
        PuzzleKind::Mate => "mate",
        PuzzleKind::Best => "best",
    };
    let mut s = format!(
        "    {{\"id\": {}, \"kind\": \"{kind}\", \"sfen\": {}, \"plies\": {}, \"solution\": [{}], \"rating\": {}",
        json_string(id),
        json_string(&p.sfen),
        p.plies,
        solution.join(", "),
        p.rating
    );
    if let Some((best, second)) = p.scores {
        let _ = write!(s, ", \"best_cp\": {best}, \"second_cp\": {second}");
    }
    let _ = write!(
        s,
        ", \"nodes\": {}, \"game\": {}, \"ply\": {}}}",
        p.nodes, p.source.0, p.source.1
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> Position {
        shogi_core::sfen::parse_position(sfen).unwrap()
    }

    #[test]
    fn a_second_mating_first_move_is_found() {
        // Gote's king in the corner, a Sente pawn on 1c: G*1b mates, and
        // nothing else does.
        let pos = position("8k/9/8P/9/9/9/9/9/4K4 b G 1");
        let limit = MateLimit::default();
        let g1b: Move = "G*1b".parse().unwrap();
        assert_eq!(other_mating_move(&pos, g1b, 1, &limit), FirstMove::Unique);
        // With a rook on 2i guarding the 2-file, R*1b and G*2a mate as well.
        let pos = position("8k/9/8P/9/9/9/9/9/4K2R1 b GR 1");
        let FirstMove::Another(other) = other_mating_move(&pos, g1b, 1, &limit) else {
            panic!("no second mate found");
        };
        assert_ne!(other, g1b);
        let mut after = pos.clone();
        after.play(other).unwrap();
        assert!(after.is_checkmate(), "{other}");
    }

    #[test]
    fn ratings_grow_with_length_and_work() {
        assert!(mate_rating(3, 100) > mate_rating(1, 100));
        assert!(mate_rating(3, 10_000) > mate_rating(3, 100));
        assert!(best_rating(64_000) > best_rating(2000));
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }

    #[test]
    fn generation_is_repeatable() {
        let config = PuzzleConfig {
            games: 2,
            nodes: 300,
            max_plies: 60,
            ..PuzzleConfig::default()
        };
        let a = generate(&config, |_| {});
        let b = generate(&config, |_| {});
        assert_eq!(a.puzzles, b.puzzles);
        assert_eq!(a.stats, b.stats);
        assert!(a.stats.positions > 0);
    }
}
