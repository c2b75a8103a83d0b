//! Judging a solver's move. An attempt is the solver's moves so far with the
//! server's replies between them (odd length: it ends with the solver's
//! move); [`judge_last`] judges that last move, the earlier ones being
//! checked by the caller ([`super::Puzzles::attempt`]) against the replies
//! the server gives.
//!
//! A mate puzzle accepts any move that still forces mate within the plies
//! left of the shortest solution, not only the stored one: a move that mates
//! is [`Verdict::Solved`]; a check after which every reply is mated in time
//! is answered with the reply that resists longest ([`Verdict::Continue`],
//! the stored solution's reply among equals when the solver followed it);
//! anything else is [`Verdict::Wrong`] with the reason. A best-move puzzle
//! accepts its one move.
//!
//! ```
//! use std::time::Duration;
//! use shogi_engine::dfpn::MateLimit;
//! use shogi_server::puzzles::{judge_last, PuzzleSet, Verdict, Why};
//! let set = PuzzleSet::parse(r#"{"version": 1, "generator": "hand", "puzzles": [
//!   {"id": "m1", "kind": "mate", "sfen": "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
//!    "plies": 1, "solution": ["G*5b"], "rating": 800}]}"#)?;
//! let p = set.get("m1").unwrap();
//! let limit = MateLimit::time(Duration::from_secs(5));
//! assert_eq!(judge_last(p, &["G*5b".parse()?], &limit)?, Verdict::Solved);
//! assert_eq!(judge_last(p, &["G*4b".parse()?], &limit)?, Verdict::Wrong(Why::NotMate));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{Move, Position};
use shogi_engine::dfpn::{longest_defence, Defence, MateLimit};

use super::set::{Kind, Puzzle};

/// The answer to a solver's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Right so far: the server replies with this move.
    Continue(Move),
    /// The puzzle is solved (the defender is mated, or the best move found).
    Solved,
    /// The move is wrong.
    Wrong(Why),
}

/// Why a move is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// A mate puzzle's move that gives no check (a tsume is mated by checks only).
    NoCheck,
    /// The last move allowed checks but does not mate.
    NotMate,
    /// After this reply of the defender there is no mate within the plies left.
    Escapes(Move),
    /// A best-move puzzle's move that is not the best one.
    NotBest,
}

impl Why {
    /// The API's word: `no_check`, `not_mate`, `escapes` or `not_best`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Why::NoCheck => "no_check",
            Why::NotMate => "not_mate",
            Why::Escapes(_) => "escapes",
            Why::NotBest => "not_best",
        }
    }
}

/// Why an attempt cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// The moves are not an attempt at this puzzle (`400`).
    #[error("{0}")]
    Bad(String),
    /// A search reached its limit first (`503`).
    #[error("the puzzle search took too long; try again")]
    Timeout,
}

/// The position after `moves` from the puzzle's start, every move checked;
/// and whether the moves are the stored solution's first ones.
///
/// # Errors
/// [`JudgeError::Bad`]: too many moves, an even count, or an illegal move.
pub fn replay(p: &Puzzle, moves: &[Move]) -> Result<Position, JudgeError> {
    if moves.len().is_multiple_of(2) {
        return Err(JudgeError::Bad(
            "moves must end with the solver's move (an odd count)".into(),
        ));
    }
    if moves.len() > p.solution.len() {
        return Err(JudgeError::Bad(format!(
            "at most {} moves in this puzzle",
            p.solution.len()
        )));
    }
    position_after(p, moves)
}

/// The position after `moves` from the puzzle's start, every move checked
/// (any count).
///
/// # Errors
/// [`JudgeError::Bad`] for an illegal move.
pub fn position_after(p: &Puzzle, moves: &[Move]) -> Result<Position, JudgeError> {
    let mut pos = p.position.clone();
    for (i, &m) in moves.iter().enumerate() {
        pos.play(m)
            .map_err(|e| JudgeError::Bad(format!("moves[{i}]: {m}: {e}")))?;
    }
    Ok(pos)
}

/// Judges the last move of `moves` (the earlier ones are taken as given),
/// each mate search within `limit`.
///
/// # Errors
/// [`JudgeError::Bad`] when [`replay`] refuses the moves; [`JudgeError::Timeout`]
/// when a search reached `limit`.
pub fn judge_last(p: &Puzzle, moves: &[Move], limit: &MateLimit) -> Result<Verdict, JudgeError> {
    let after = replay(p, moves)?;
    let last = moves[moves.len() - 1];
    if p.kind == Kind::Best {
        return Ok(if last == p.solution[0] {
            Verdict::Solved
        } else {
            Verdict::Wrong(Why::NotBest)
        });
    }
    if after.is_checkmate() {
        return Ok(Verdict::Solved);
    }
    if !after.in_check() {
        return Ok(Verdict::Wrong(Why::NoCheck));
    }
    // Plies left after the solver's move; the defender's reply takes one.
    let left = p.solution.len() - moves.len();
    if left == 0 {
        return Ok(Verdict::Wrong(Why::NotMate));
    }
    let followed = p.solution[..moves.len()] == *moves;
    let prefer = followed.then(|| p.solution[moves.len()]);
    let plies = u32::try_from(left - 1).unwrap_or(u32::MAX);
    match longest_defence(&after, plies, prefer, limit.clone()) {
        Defence::Mated => Ok(Verdict::Solved),
        Defence::Escapes(reply) => Ok(Verdict::Wrong(Why::Escapes(reply))),
        Defence::Falls { reply, .. } => Ok(Verdict::Continue(reply)),
        Defence::Timeout => Err(JudgeError::Timeout),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::puzzles::PuzzleSet;

    /// A mate in 3 without the attacker's king (a tsume), as `shogi mate`
    /// solves it, and a best-move position.
    const SET: &str = r#"{"version": 1, "generator": "test", "puzzles": [
      {"id": "m3", "kind": "mate", "sfen": "6S2/4k4/9/4S4/9/9/9/9/9 b GS2r2b3g1s4n4l18p 1",
       "plies": 3, "solution": ["S*5c", "5b4a", "3a4b+"], "rating": 1200},
      {"id": "b1", "kind": "best", "sfen": "4k4/9/9/9/4b4/9/9/4R4/4K4 b rb4g4s4n4l18p 1",
       "plies": 1, "solution": ["5h5e"], "best_cp": 800, "second_cp": 0, "rating": 1000}
    ]}"#;

    fn set() -> PuzzleSet {
        PuzzleSet::parse(SET).unwrap()
    }

    fn limit() -> MateLimit {
        MateLimit::time(Duration::from_secs(20))
    }

    fn mv(list: &[&str]) -> Vec<Move> {
        list.iter().map(|m| m.parse().unwrap()).collect()
    }

    /// Whether the side to move of `pos` mates in one (the rules core alone).
    fn mates_in_one(pos: &Position) -> bool {
        pos.legal_moves().iter().any(|&m| {
            let mut p = pos.clone();
            p.play(m).unwrap();
            p.is_checkmate()
        })
    }

    #[test]
    fn a_move_that_does_not_check_is_wrong() {
        let s = set();
        let p = s.get("m3").unwrap();
        let quiet = p
            .position
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| {
                let mut a = p.position.clone();
                a.play(m).unwrap();
                !a.in_check()
            })
            .unwrap();
        let v = judge_last(p, &[quiet], &limit()).unwrap();
        assert_eq!(v, Verdict::Wrong(Why::NoCheck));
    }

    #[test]
    fn following_the_stored_solution_gets_its_reply_then_solved() {
        let s = set();
        let p = s.get("m3").unwrap();
        let v = judge_last(p, &p.solution[..1], &limit()).unwrap();
        assert_eq!(
            v,
            Verdict::Continue(p.solution[1]),
            "the stored reply is preferred"
        );
        let v = judge_last(p, &p.solution, &limit()).unwrap();
        assert_eq!(v, Verdict::Solved);
    }

    #[test]
    fn every_first_check_is_judged_by_whether_a_mate_in_one_follows() {
        let s = set();
        let p = s.get("m3").unwrap();
        let (mut continued, mut escaped) = (0, 0);
        for first in p.position.legal_moves() {
            let mut after = p.position.clone();
            after.play(first).unwrap();
            if !after.in_check() {
                continue;
            }
            match judge_last(p, &[first], &limit()).unwrap() {
                Verdict::Continue(reply) => {
                    // Every reply is mated in one, this one too.
                    for r in after.legal_moves() {
                        let mut q = after.clone();
                        q.play(r).unwrap();
                        assert!(mates_in_one(&q), "{first} {r}");
                    }
                    assert!(after.is_legal(reply));
                    continued += 1;
                }
                Verdict::Wrong(Why::Escapes(reply)) => {
                    let mut q = after.clone();
                    q.play(reply).unwrap();
                    assert!(!mates_in_one(&q), "{first} {reply} escapes");
                    escaped += 1;
                }
                other => panic!("{first}: {other:?}"),
            }
        }
        assert!(continued >= 1 && escaped >= 1, "{continued} {escaped}");
    }

    #[test]
    fn a_different_mating_line_is_solved_not_wrong() {
        let s = set();
        let p = s.get("m3").unwrap();
        let (first, reply) = (p.solution[0], p.solution[1]);
        let mut pos = p.position.clone();
        pos.play(first).unwrap();
        pos.play(reply).unwrap();
        let mut other_lines = 0;
        let mut not_mate = 0;
        for last in pos.legal_moves() {
            let line = [first, reply, last];
            let mut end = pos.clone();
            end.play(last).unwrap();
            let v = judge_last(p, &line, &limit()).unwrap();
            // An independent truth: the rules core says whether it mates.
            assert_eq!(v == Verdict::Solved, end.is_checkmate(), "{line:?}");
            if end.is_checkmate() && last != p.solution[2] {
                other_lines += 1;
            }
            if end.in_check() && !end.is_checkmate() {
                assert_eq!(v, Verdict::Wrong(Why::NotMate), "{line:?}");
                not_mate += 1;
            }
        }
        assert!(other_lines > 0, "the puzzle has another mating last move");
        assert!(not_mate > 0, "a check that does not mate was tried");
    }

    #[test]
    fn bad_attempts_are_refused() {
        let s = set();
        let p = s.get("m3").unwrap();
        let bad = |moves: &[&str]| judge_last(p, &mv(moves), &limit()).unwrap_err();
        assert!(matches!(bad(&["S*5c", "5b4a"]), JudgeError::Bad(m) if m.contains("odd")));
        assert!(matches!(bad(&["5e5d"]), JudgeError::Bad(m) if m.contains("moves[0]")));
        assert!(
            matches!(bad(&["S*5c", "5b4a", "G*4b", "4a3a", "G*3b"]), JudgeError::Bad(m) if m.contains("at most 3"))
        );
    }

    #[test]
    fn a_best_move_puzzle_takes_only_its_move() {
        let s = set();
        let p = s.get("b1").unwrap();
        assert_eq!(
            judge_last(p, &mv(&["5h5e"]), &limit()).unwrap(),
            Verdict::Solved
        );
        assert_eq!(
            judge_last(p, &mv(&["5h5g"]), &limit()).unwrap(),
            Verdict::Wrong(Why::NotBest)
        );
    }
}
