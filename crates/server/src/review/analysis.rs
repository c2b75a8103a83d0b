//! Game analysis in the background: one worker thread takes jobs from a
//! bounded queue and evaluates every position of a game, one analysis at a
//! time (so that live games are never starved), storing its progress in the
//! `analyses` table after every position.
//!
//! Each position's search takes a thread of the [`SearchPool`] (shared with
//! the computer's moves and mate searches) and gives it back after it.
//!
//! Live play comes first. The worker runs in the idle scheduling class, and
//! its search pauses whenever the [`ActivityGate`] shows live play (a live
//! move in the last [`QUIET_MS`](crate::activity::QUIET_MS)); the
//! pause does not count against the 200 ms per position. Under continuous
//! live traffic analyses therefore wait (their progress shows it) rather
//! than slow the games.
//!
//! Scores are from Sente's point of view, in centipawns; a mate is
//! `score_cp = ±10000` with `mate` the number of plies to it (positive when
//! Sente mates). Which moves are marked is [`super::marks`]' business: by
//! how much each lowered its player's winning chance.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{json, Value};
use shogi_core::{Color, Move, Position};
use shogi_engine::limits::SearchLimit;
use shogi_engine::search::{search, SearchControl, SearchOptions, MATE, MATE_IN_MAX_PLY};
use shogi_engine::tt::TranspositionTable;

use super::eval::AnalysisStatus;
pub use super::eval::Eval;
use crate::activity::ActivityGate;
use crate::db::Store;
use crate::error::{Error, Problem};
use crate::review::{marks, records};
use crate::search_pool::SearchPool;
use crate::time::unix_ms;

/// Search time per position, in milliseconds.
pub const MOVE_TIME_MS: u64 = 200;
/// The analysis hash table size in MiB.
const TT_MB: usize = 16;
/// How many analyses may wait.
pub const QUEUE_LEN: usize = 16;
/// The `score_cp` of a mate.
pub const MATE_CP: i32 = 10_000;

struct Job {
    id: String,
    start: Position,
    moves: Vec<Move>,
}

/// The queue to the analysis worker (started on first use).
pub struct Analyzer {
    queue: Mutex<Option<SyncSender<Job>>>,
    gate: ActivityGate,
    pool: SearchPool,
}

impl Analyzer {
    /// An analyser whose searches wait while `gate` shows live play, each
    /// on a thread of `pool`.
    #[must_use]
    pub fn new(gate: ActivityGate, pool: SearchPool) -> Analyzer {
        Analyzer {
            queue: Mutex::new(None),
            gate,
            pool,
        }
    }

    /// The gate that shows live play (other background searches pause on it too).
    #[must_use]
    pub fn gate(&self) -> ActivityGate {
        self.gate.clone()
    }

    /// Whether the analyses wait for live play now.
    #[must_use]
    pub fn waiting_for_live_play(&self) -> bool {
        !self.gate.is_quiet()
    }

    fn submit(&self, job: Job, store: &Store) -> Result<(), Error> {
        let mut queue = self
            .queue
            .lock()
            .map_err(|_| Error::Internal("analysis queue poisoned".into()))?;
        if queue.is_none() {
            let (tx, rx) = sync_channel(QUEUE_LEN);
            let store = store.clone();
            let rt = tokio::runtime::Handle::current();
            let gate = self.gate.clone();
            let pool = self.pool.clone();
            std::thread::Builder::new()
                .name("analysis".into())
                .spawn(move || worker(&rx, &store, &rt, &gate, &pool))?;
            *queue = Some(tx);
        }
        let Some(tx) = queue.as_ref() else {
            return Err(Error::Internal("no analysis worker".into()));
        };
        match tx.try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(Problem::AnalysisBusy.into()),
            Err(TrySendError::Disconnected(_)) => {
                *queue = None;
                Err(Error::Internal("analysis worker stopped".into()))
            }
        }
    }
}

fn eval_of(pos: &Position, ply: usize, tt: &TranspositionTable, gate: &ActivityGate) -> Eval {
    // Live play first: the search waits while moves are arriving, and the
    // wait does not count against its time.
    let gate = gate.clone();
    let control = SearchControl::new(false).with_pause(move || !gate.is_quiet());
    evaluate(pos, ply, &SearchLimit::MoveTime(MOVE_TIME_MS), tt, &control)
}

/// The evaluation of `pos`, the position after `ply` moves, by a search
/// within `limit` (the worker's is [`MOVE_TIME_MS`]; a fixed depth makes it
/// repeatable, as the tests want).
#[must_use]
pub fn evaluate(
    pos: &Position,
    ply: usize,
    limit: &SearchLimit,
    tt: &TranspositionTable,
    control: &SearchControl,
) -> Eval {
    let r = search(
        pos,
        &[],
        limit,
        &SearchOptions::default(),
        tt,
        control,
        &mut |_: &str| {},
    );
    let (score_cp, mate) = sente_view(r.score, pos.side_to_move(), r.best_move.is_none());
    Eval {
        ply,
        score_cp,
        mate,
        best_move: r.best_move.map(|m| m.to_string()),
    }
}

/// A search score for the side to move `stm` as `(score_cp, mate)` from
/// Sente's point of view: centipawns and no mate, or [`MATE_CP`] (negated
/// when Gote mates) and the plies to the mate (negative when Gote mates).
/// `no_move`: the side to move has no legal move (it is mated now).
///
/// ```
/// use shogi_core::Color;
/// use shogi_engine::search::MATE;
/// use shogi_server::review::analysis::{sente_view, MATE_CP};
/// assert_eq!(sente_view(120, Color::Gote, false), (-120, None));
/// assert_eq!(sente_view(MATE - 3, Color::Sente, false), (MATE_CP, Some(3)));
/// assert_eq!(sente_view(MATE - 3, Color::Gote, false), (-MATE_CP, Some(-3)));
/// ```
#[must_use]
pub fn sente_view(score: i32, stm: Color, no_move: bool) -> (i32, Option<i32>) {
    let sign = if stm == Color::Sente { 1 } else { -1 };
    if score >= MATE_IN_MAX_PLY {
        (MATE_CP * sign, Some((MATE - score) * sign))
    } else if score <= -MATE_IN_MAX_PLY || no_move {
        let plies = (MATE + score).max(0);
        (-MATE_CP * sign, Some(-plies * sign))
    } else {
        (score * sign, None)
    }
}

async fn save(store: &Store, id: &str, status: AnalysisStatus, evals: &[Eval]) {
    if let Err(e) = store.save_analysis(id, status, evals, unix_ms()).await {
        tracing::warn!("analysis {id}: {e}");
    }
}

/// Puts the calling thread in the idle scheduling class, so that analysis
/// only gets CPU time that live games leave over (see the load benchmark's
/// `--analyses` figures in docs/LOAD.md).
#[cfg(target_os = "linux")]
fn lower_priority() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: `sched_setscheduler` only reads `param`, a valid initialised
    // struct that lives across the call, and changes the scheduling policy of
    // pid 0, which Linux takes as the calling thread. No memory of ours is
    // written; failure is reported through the return value.
    let r = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &raw const param) };
    if r != 0 {
        tracing::warn!(
            "analysis thread keeps normal priority: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

fn worker(
    rx: &Receiver<Job>,
    store: &Store,
    rt: &tokio::runtime::Handle,
    gate: &ActivityGate,
    pool: &SearchPool,
) {
    lower_priority();
    // One table for the worker's life, cleared per game (allocating one per
    // position cost page faults and unmaps that live games felt).
    let tt = TranspositionTable::new(TT_MB);
    while let Ok(job) = rx.recv() {
        tt.clear();
        let mut evals = Vec::with_capacity(job.moves.len() + 1);
        rt.block_on(save(store, &job.id, AnalysisStatus::Running, &evals));
        let mut pos = job.start.clone();
        for ply in 0..=job.moves.len() {
            // Wait for a lull before the search and its progress write too.
            while !gate.is_quiet() {
                std::thread::sleep(Duration::from_millis(5));
            }
            let permit = rt.block_on(pool.ticket().wait());
            evals.push(eval_of(&pos, ply, &tt, gate));
            drop(permit);
            let status = if ply == job.moves.len() {
                AnalysisStatus::Done
            } else {
                AnalysisStatus::Running
            };
            rt.block_on(save(store, &job.id, status, &evals));
            if let Some(&mv) = job.moves.get(ply) {
                pos.make_move(mv);
            }
        }
    }
}

/// Forgets analyses that a stop interrupted (they can be asked for again).
///
/// # Errors
/// Database errors.
pub async fn reset_unfinished(store: &Store) -> Result<(), Error> {
    Ok(store.reset_unfinished_analyses().await?)
}

fn legal_line(start: &Position, moves: &[Move]) -> Vec<Move> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        pos.make_move(m);
        out.push(m);
    }
    out
}

/// The analysis of `id` as the JSON of `GET /api/games/{id}/analysis`, as
/// `reader` (an account id, `None` for a guest) may read it.
///
/// # Errors
/// [`Error::NotFound`] for an unknown id or a record `reader` may not read;
/// database errors.
pub async fn view(
    store: &Store,
    analyzer: &Analyzer,
    id: &str,
    reader: Option<i64>,
) -> Result<Value, Error> {
    let rec = records::load(store, id, reader).await?.record;
    let moves = legal_line(&rec.start, &rec.main_line());
    let Some(row) = store.analysis(id).await? else {
        return Ok(json!({
            "status": AnalysisStatus::None, "done_plies": 0, "total_plies": moves.len(),
            "evals": [], "mistakes": [],
        }));
    };
    let mistakes = marks::mistakes(&rec.start, &moves, &row.evals);
    let waiting = row.status != AnalysisStatus::Done && analyzer.waiting_for_live_play();
    Ok(json!({
        "status": row.status,
        "waiting_for_live_play": waiting,
        "done_plies": row.done_plies,
        "total_plies": row.total_plies,
        "evals": row.evals,
        "mistakes": mistakes,
    }))
}

/// Queues the analysis of `id` (once per game; again for a game that has
/// grown since); says whether it was queued now, and the analysis as it stands.
///
/// # Errors
/// [`Error::NotFound`] for an unknown id or a record `reader` may not read;
/// [`Error::Unavailable`] when the queue is full; database errors.
pub async fn start(
    store: &Store,
    analyzer: &Analyzer,
    id: &str,
    reader: Option<i64>,
) -> Result<(bool, Value), Error> {
    let rec = records::load(store, id, reader).await?.record;
    let moves = legal_line(&rec.start, &rec.main_line());
    if !store.queue_analysis(id, moves.len(), unix_ms()).await? {
        return Ok((false, view(store, analyzer, id, reader).await?));
    }
    let job = Job {
        id: id.to_string(),
        start: rec.start.clone(),
        moves,
    };
    if let Err(e) = analyzer.submit(job, store) {
        store.forget_analysis(id).await?;
        return Err(e);
    }
    Ok((true, view(store, analyzer, id, reader).await?))
}
