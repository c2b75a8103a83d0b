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
//! plies down; a position whose result was lost is searched again). Then
//! depth-limited searches look for a mate two plies shorter, again and
//! again, until one proves there is none (the line is a shortest mate) or
//! a node budget runs out (the shortest line found is returned); they reuse
//! the first search's proofs whose mate distance fits and all its
//! disproofs. Every line is checked before it is returned.
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

mod hands;
mod limit;
mod line;
mod node;
mod solver;
mod table;

use std::time::Duration;

use shogi_core::{Move, Position};

pub use limit::MateLimit;
use solver::Solver;

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

/// The shortest mate of at most `plies` plies for the side to move in `pos`:
/// depth-limited searches of 1, 3, 5, ... plies, each within `limit` (the
/// node and time limits count from the start of this call).
///
/// `Mate(line)` is a shortest mate (checked like [`solve_mate`]'s), `NoMate`
/// says there is none within `plies` plies by continuous checks, `Timeout`
/// that the limit was reached first. Puzzles use it where "a mate" is not
/// enough: whether a move keeps a mate within the moves left.
///
/// ```
/// use std::time::Duration;
/// use shogi_engine::dfpn::{shortest_mate_within, MateLimit, MateResult};
/// let pos = shogi_core::sfen::parse_position_with(
///     "9/4k4/9/4S4/9/9/9/9/9 b GS2r2b3g2s4n4l18p 1",
///     shogi_core::Leniency { allow_missing_kings: true },
/// )?;
/// let limit = || MateLimit::time(Duration::from_secs(10));
/// assert_eq!(shortest_mate_within(&pos, 1, limit()), MateResult::NoMate);
/// assert!(matches!(shortest_mate_within(&pos, 5, limit()), MateResult::Mate(l) if l.len() == 3));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn shortest_mate_within(pos: &Position, plies: u32, limit: MateLimit) -> MateResult {
    shortest_mate_within_with_stats(pos, plies, limit).0
}

/// Like [`shortest_mate_within`], also giving the number of nodes searched
/// (over all the depth-limited searches): a measure of how hard the mate is
/// to find, which puzzles turn into a difficulty.
#[must_use]
pub fn shortest_mate_within_with_stats(
    pos: &Position,
    plies: u32,
    limit: MateLimit,
) -> (MateResult, u64) {
    let pos = pos.clone();
    let handle = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut solver = Solver::new(pos, limit);
            let r = solver.shortest_within(plies);
            (r, solver.nodes)
        });
    match handle {
        Ok(h) => h.join().unwrap_or((MateResult::Timeout, 0)),
        Err(_) => (MateResult::Timeout, 0),
    }
}

/// How the side to move in `pos` (the defender, just checked) resists a mate
/// of at most `plies` more plies: see [`longest_defence`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Defence {
    /// The defender has no legal move: it is mated now.
    Mated,
    /// After this reply the attacker has no mate within the plies left.
    Escapes(Move),
    /// Every reply is mated within the plies left; this one resists longest,
    /// and `line` is the attacker's shortest mate after it.
    Falls {
        /// The longest-resisting reply.
        reply: Move,
        /// The shortest mate after `reply`, from the attacker's next move.
        line: Vec<Move>,
    },
    /// A search reached its limit first.
    Timeout,
}

/// The defender's best resistance in `pos` (the defender to move) when the
/// attacker must mate within `plies` plies after the reply: every legal
/// reply is tried with [`shortest_mate_within`] (each within `limit`); the
/// first reply that escapes is answered at once, otherwise the reply whose
/// shortest mate is longest (among equals, `prefer` when it is one of them,
/// else the first in generation order).
///
/// A puzzle server answers a solver's check with it; a puzzle generator asks
/// it whether a first move other than the solution also mates in time.
///
/// ```
/// use std::time::Duration;
/// use shogi_engine::dfpn::{longest_defence, shortest_mate_within, Defence, MateLimit, MateResult};
/// let mut pos = shogi_core::sfen::parse_position_with(
///     "9/4k4/9/4S4/9/9/9/9/9 b GS2r2b3g2s4n4l18p 1",
///     shogi_core::Leniency { allow_missing_kings: true },
/// )?;
/// let limit = || MateLimit::time(Duration::from_secs(10));
/// let MateResult::Mate(line) = shortest_mate_within(&pos, 3, limit()) else { panic!() };
/// pos.play(line[0])?;
/// // Whatever the king does, a mate in one follows; no reply escapes it.
/// match longest_defence(&pos, 1, Some(line[1]), limit()) {
///     Defence::Falls { reply, line: rest } => {
///         assert_eq!(rest.len(), 1);
///         assert_eq!(reply, line[1]);
///     }
///     other => panic!("{other:?}"),
/// }
/// // Allowed no further move, the attacker cannot mate: the first reply escapes.
/// assert!(matches!(longest_defence(&pos, 0, None, limit()), Defence::Escapes(_)));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn longest_defence(
    pos: &Position,
    plies: u32,
    prefer: Option<Move>,
    limit: MateLimit,
) -> Defence {
    let replies = pos.legal_moves();
    if replies.is_empty() {
        return Defence::Mated;
    }
    let mut best: Option<(Move, Vec<Move>)> = None;
    for &reply in &replies {
        let mut after = pos.clone();
        if after.play(reply).is_err() {
            continue;
        }
        match shortest_mate_within(&after, plies, limit.clone()) {
            MateResult::NoMate => return Defence::Escapes(reply),
            MateResult::Timeout => return Defence::Timeout,
            MateResult::Mate(line) => {
                let longer = best.as_ref().is_none_or(|(m, l)| {
                    line.len() > l.len()
                        || (line.len() == l.len() && Some(reply) == prefer && *m != reply)
                });
                if longer {
                    best = Some((reply, line));
                }
            }
        }
    }
    match best {
        Some((reply, line)) => Defence::Falls { reply, line },
        None => Defence::Mated,
    }
}

/// Checks that `line` is a mate from `pos`: legal moves, every attacker move
/// gives check, and the last position is checkmate.
#[must_use]
pub fn verify_mate_line(pos: &Position, line: &[Move]) -> bool {
    if line.len().is_multiple_of(2) {
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
    /// Proves the root, reads the mating line back, checks it and tries to
    /// shorten it; searches again (up to three times) when the line cannot
    /// be read back.
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

    /// The shortest mate within `plies` plies (see [`shortest_mate_within`]).
    fn shortest_within(&mut self, plies: u32) -> MateResult {
        for depth in (1..=plies).step_by(2) {
            self.depth_limit = Some(depth);
            let r = self.prove(depth);
            if self.aborted {
                return MateResult::Timeout;
            }
            if r.pn == 0 {
                let start = self.pos.clone();
                return match self.extract(depth) {
                    Some(line)
                        if line.len() <= depth as usize && verify_mate_line(&start, &line) =>
                    {
                        MateResult::Mate(line)
                    }
                    _ => MateResult::Timeout,
                };
            }
        }
        MateResult::NoMate
    }

    /// Looks for shorter mates than `line`: a depth-limited search for a
    /// mate within two plies less, again and again, until one finds none
    /// (the line is then a shortest mate) or the budget runs out (the
    /// shortest line found so far is returned). The depth-limited searches
    /// reuse the proofs and disproofs of the first search (see
    /// [`Solver::known`](solver::Solver)); the budget is a quarter of the
    /// nodes the first search took, at least [`SHORTEN_MIN_NODES`], within
    /// the caller's limit.
    fn shorten(&mut self, mut line: Vec<Move>) -> Vec<Move> {
        let budget = (self.nodes / 4).max(SHORTEN_MIN_NODES);
        self.phase_nodes = Some(self.nodes.saturating_add(budget));
        let start = self.pos.clone();
        while line.len() > 1 {
            let limit = line.len() as u32 - 2;
            self.depth_limit = Some(limit);
            let r = self.prove(limit);
            if self.aborted || r.pn != 0 {
                break;
            }
            match self.extract(limit) {
                Some(short) if short.len() < line.len() && verify_mate_line(&start, &short) => {
                    line = short;
                }
                _ => break,
            }
        }
        self.depth_limit = None;
        self.phase_nodes = None;
        line
    }
}

/// The least node budget [`Solver::shorten`] gets, however quickly the
/// first proof came.
const SHORTEN_MIN_NODES: u64 = 2_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    /// A problem position: the attacker's king may be absent.
    pub(super) fn lenient(s: &str) -> Position {
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
    fn shortest_within_is_exact_about_length() {
        // A mate in 7 (the small-table test): none in 5, one of 7 within 7 or 9.
        let p = lenient("9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1");
        let limit = || MateLimit::time(Duration::from_secs(20));
        assert_eq!(shortest_mate_within(&p, 5, limit()), MateResult::NoMate);
        for plies in [7, 9] {
            match shortest_mate_within(&p, plies, limit()) {
                MateResult::Mate(line) => {
                    assert_eq!(line.len(), 7);
                    assert!(verify_mate_line(&p, &line));
                }
                other => panic!("{plies}: {other:?}"),
            }
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
