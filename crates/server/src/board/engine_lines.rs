//! The analysis board's engine lines: one position searched with `MultiPV`
//! 1-3 for at most [`MAX_TIME_MS`], on a thread of the [`SearchPool`]
//! (shared with the computer's moves, game analyses and mate searches).
//!
//! Live play comes first, as for the game analysis: the search pauses while
//! the [`ActivityGate`] shows live play, but waits at most as long as it may
//! search, so a request is answered within twice its time (plus its wait for
//! a thread of the pool). A search whose request is dropped (the client
//! went to another position and cancelled it) stops at once: [`analyse`]
//! stops it when its future is dropped.
//!
//! Scores are from Sente's point of view, as in the game analysis
//! ([`crate::review::analysis::sente_view`]).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use shogi_server::activity::ActivityGate;
//! use shogi_server::board::engine_lines::{analyse, Ask};
//! use shogi_server::search_pool::SearchPool;
//! let pos = shogi_core::sfen::parse_position("4k4/9/4G4/9/9/9/9/9/4K4 b G 1").unwrap();
//! let ask = Ask::new(pos, 2, 300).unwrap();
//! let lines = analyse(&SearchPool::new(1), &ActivityGate::default(), ask).await.unwrap();
//! assert_eq!(lines.lines[0].mate, Some(1)); // G*5b mates
//! assert_eq!(lines.lines[0].pv[0], "G*5b");
//! assert_eq!(lines.lines.len(), 2);
//! # }
//! ```

use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use shogi_core::Position;
use shogi_engine::control::SearchControl;
use shogi_engine::limits::SearchLimit;
use shogi_engine::search::{search, SearchOptions};
use shogi_engine::tt::TranspositionTable;

use crate::activity::ActivityGate;
use crate::error::Error;
use crate::review::analysis::sente_view;
use crate::search_pool::SearchPool;

/// The most lines asked for.
pub const MAX_MULTIPV: usize = 3;
/// The longest search, in milliseconds.
pub const MAX_TIME_MS: u64 = 3000;
/// The hash table of one search, in MiB.
const TT_MB: usize = 16;

/// A checked request: a position, how many lines, how long.
#[derive(Clone, Debug)]
pub struct Ask {
    pos: Position,
    multipv: usize,
    time_ms: u64,
}

impl Ask {
    /// `multipv` lines (1..=[`MAX_MULTIPV`]) of `pos` in `time_ms` (1..=[`MAX_TIME_MS`]).
    ///
    /// # Errors
    /// [`Error::BadRequest`] naming the number out of range.
    pub fn new(pos: Position, multipv: usize, time_ms: u64) -> Result<Ask, Error> {
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return Err(Error::BadRequest(format!(
                "multipv must be 1..={MAX_MULTIPV}, not {multipv}"
            )));
        }
        if !(1..=MAX_TIME_MS).contains(&time_ms) {
            return Err(Error::BadRequest(format!(
                "time_ms must be 1..={MAX_TIME_MS}, not {time_ms}"
            )));
        }
        Ok(Ask {
            pos,
            multipv,
            time_ms,
        })
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lines {
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The best lines, best first (none when the side to move has no move).
    pub lines: Vec<Line>,
}

/// One line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    /// Centipawns from Sente's point of view (±10000 for a mate).
    pub score_cp: i32,
    /// Plies to a mate, positive when Sente mates; `null` without one.
    pub mate: Option<i32>,
    /// The moves, USI.
    pub pv: Vec<String>,
}

/// Stops the search when the request is dropped.
struct StopOnDrop(Arc<SearchControl>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Searches `ask` once a thread of `pool` is free, pausing while `gate`
/// shows live play (at most as long as the search time).
///
/// # Errors
/// [`Error::Internal`] if the search failed.
pub async fn analyse(pool: &SearchPool, gate: &ActivityGate, ask: Ask) -> Result<Lines, Error> {
    let gate = gate.clone();
    let max_wait = u128::from(ask.time_ms);
    let since = Instant::now();
    let control = Arc::new(
        SearchControl::new(false)
            .with_pause(move || !gate.is_quiet() && since.elapsed().as_millis() < max_wait),
    );
    let _stop = StopOnDrop(Arc::clone(&control));
    pool.run(move || search_lines(&ask, &control))
        .await
        .map_err(|e| Error::Internal(format!("analysis board search: {e}")))
}

fn search_lines(ask: &Ask, control: &SearchControl) -> Lines {
    let tt = TranspositionTable::new(TT_MB);
    let options = SearchOptions {
        multipv: ask.multipv,
        ..SearchOptions::default()
    };
    let r = search(
        &ask.pos,
        &[],
        &SearchLimit::MoveTime(ask.time_ms),
        &options,
        &tt,
        control,
        &mut |_: &str| {},
    );
    let stm = ask.pos.side_to_move();
    let mut lines: Vec<Line> = r
        .lines
        .iter()
        .filter(|l| !l.pv.is_empty())
        .map(|l| {
            let (score_cp, mate) = sente_view(l.score, stm, false);
            Line {
                score_cp,
                mate,
                pv: l.pv.iter().map(ToString::to_string).collect(),
            }
        })
        .collect();
    if lines.is_empty() {
        if let Some(best) = r.best_move {
            let (score_cp, mate) = sente_view(r.score, stm, false);
            let pv = if r.pv.is_empty() { vec![best] } else { r.pv };
            lines.push(Line {
                score_cp,
                mate,
                pv: pv.iter().map(ToString::to_string).collect(),
            });
        }
    }
    lines.truncate(ask.multipv);
    Lines {
        depth: r.depth,
        nodes: r.nodes,
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(sfen: &str, multipv: usize, time_ms: u64) -> Ask {
        Ask::new(
            shogi_core::sfen::parse_position(sfen).unwrap(),
            multipv,
            time_ms,
        )
        .unwrap()
    }

    #[test]
    fn out_of_range_numbers_are_refused_by_name() {
        let pos = Position::startpos();
        let e = Ask::new(pos.clone(), 4, 100).unwrap_err().to_string();
        assert!(e.contains("multipv"), "{e}");
        let e = Ask::new(pos.clone(), 0, 100).unwrap_err().to_string();
        assert!(e.contains("multipv"), "{e}");
        let e = Ask::new(pos, 1, 3001).unwrap_err().to_string();
        assert!(e.contains("time_ms"), "{e}");
    }

    #[tokio::test]
    async fn three_lines_of_the_start_position_are_distinct_legal_moves() {
        let pool = SearchPool::new(1);
        let r = analyse(
            &pool,
            &ActivityGate::default(),
            ask(
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                3,
                200,
            ),
        )
        .await
        .unwrap();
        assert_eq!(r.lines.len(), 3);
        let firsts: Vec<&str> = r.lines.iter().map(|l| l.pv[0].as_str()).collect();
        let pos = Position::startpos();
        for m in &firsts {
            assert!(pos.is_legal(m.parse().unwrap()), "{m}");
        }
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        assert!(r.depth >= 1 && r.nodes > 0);
    }

    #[tokio::test]
    async fn a_gote_mate_is_negative_from_sentes_view() {
        // Gote to move mates with G*5h (the Sente king on 5i, a Gote gold on 5g).
        let pool = SearchPool::new(1);
        let r = analyse(
            &pool,
            &ActivityGate::default(),
            ask("4k4/9/9/9/9/9/4g4/9/4K4 w g 1", 1, 300),
        )
        .await
        .unwrap();
        assert_eq!(r.lines[0].pv[0], "G*5h");
        assert_eq!((r.lines[0].score_cp, r.lines[0].mate), (-10_000, Some(-1)));
    }

    #[tokio::test]
    async fn a_mated_side_gets_no_lines() {
        // Sente is mated already: no legal move.
        let pool = SearchPool::new(1);
        let r = analyse(
            &pool,
            &ActivityGate::default(),
            ask("4k4/9/9/9/9/9/4g4/4g4/4K4 b - 1", 1, 100),
        )
        .await
        .unwrap();
        assert!(r.lines.is_empty());
    }

    #[tokio::test]
    async fn a_dropped_request_stops_its_search() {
        let pool = SearchPool::new(1);
        let gate = ActivityGate::default();
        let long = ask(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            1,
            3000,
        );
        let started = Instant::now();
        // Cancelled after 100 ms: the next search gets the one thread long before 3 s.
        let _ = tokio::time::timeout(
            std::time::Duration::from_millis(100),
            analyse(&pool, &gate, long),
        )
        .await;
        let quick = ask(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            1,
            10,
        );
        analyse(&pool, &gate, quick).await.unwrap();
        assert!(
            started.elapsed().as_millis() < 2500,
            "{:?}",
            started.elapsed()
        );
    }
}
