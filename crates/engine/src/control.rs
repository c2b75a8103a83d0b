//! [`SearchControl`]: the signals shared between the protocol thread and a
//! running search (stop, ponder, and for background work a pause gate), and
//! the clock they keep: the time a search has used, less any time it spent
//! paused.
//!
//! ```
//! use shogi_engine::control::SearchControl;
//! let control = SearchControl::new(true);
//! assert!(control.pondering());
//! control.ponderhit();
//! assert!(!control.pondering());
//! assert!(!control.stopped());
//! control.stop();
//! assert!(control.stopped());
//! ```

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::timemgmt::{falling_factor, stability_factor, TimeBudget};

/// Asked now and then during a search: while it answers `true`, the search
/// waits (see [`SearchControl::with_pause`]).
type PauseHook = Box<dyn Fn() -> bool + Send + Sync>;

/// Signals shared between the protocol thread and the search: stop, ponder
/// and, for background work, pause.
pub struct SearchControl {
    stop: AtomicBool,
    ponder: AtomicBool,
    start: Instant,
    /// Milliseconds after `start` at which the clock started (ponderhit),
    /// moved later by the time spent paused.
    clock_start_ms: AtomicU64,
    pause: Option<PauseHook>,
}

impl std::fmt::Debug for SearchControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchControl")
            .field("stop", &self.stop)
            .field("ponder", &self.ponder)
            .field("start", &self.start)
            .field("clock_start_ms", &self.clock_start_ms)
            .field("pause", &self.pause.is_some())
            .finish()
    }
}

impl SearchControl {
    /// A control for a search starting now; `ponder` if it starts as a ponder search.
    #[must_use]
    pub fn new(ponder: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            ponder: AtomicBool::new(ponder),
            start: Instant::now(),
            clock_start_ms: AtomicU64::new(0),
            pause: None,
        }
    }

    /// This control, with a search that waits whenever `paused()` is true:
    /// `paused` is asked about every thousand nodes, and while it holds the
    /// search sleeps (2 ms at a time) instead of searching. Time spent waiting
    /// does not count against a time limit, so a paused `MoveTime(200)`
    /// still searches for 200 ms. The server uses this to let background
    /// analysis give way to live games.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use std::sync::Arc;
    /// use shogi_engine::limits::SearchLimit;
    /// use shogi_engine::control::SearchControl;
    /// use shogi_engine::search::{search, SearchOptions};
    /// use shogi_engine::tt::TranspositionTable;
    /// let busy = Arc::new(AtomicBool::new(false));
    /// let flag = Arc::clone(&busy);
    /// let control = SearchControl::new(false).with_pause(move || flag.load(Ordering::Relaxed));
    /// let pos = shogi_core::Position::startpos();
    /// let tt = TranspositionTable::new(1);
    /// let r = search(&pos, &[], &SearchLimit::Nodes(5_000), &SearchOptions::default(),
    ///                &tt, &control, &mut |_: &str| {});
    /// assert!(r.best_move.is_some());
    /// ```
    #[must_use]
    pub fn with_pause(mut self, paused: impl Fn() -> bool + Send + Sync + 'static) -> Self {
        self.pause = Some(Box::new(paused));
        self
    }

    /// Waits while the pause hook says so (or until a stop). Only the
    /// `main` thread moves the clock on by the time waited, so that helper
    /// threads waiting at the same time do not count it twice.
    pub(crate) fn wait_while_paused(&self, main: bool) {
        let Some(paused) = &self.pause else {
            return;
        };
        if !paused() {
            return;
        }
        let from = Instant::now();
        while paused() && !self.stopped() {
            std::thread::sleep(Duration::from_millis(2));
        }
        if main {
            let waited = from.elapsed().as_millis() as u64;
            self.clock_start_ms.fetch_add(waited, Ordering::SeqCst);
        }
    }

    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&self) {
        let ms = self.start.elapsed().as_millis() as u64;
        self.clock_start_ms.store(ms, Ordering::SeqCst);
        self.ponder.store(false, Ordering::SeqCst);
    }

    /// Whether the search is (still) pondering.
    #[must_use]
    pub fn pondering(&self) -> bool {
        self.ponder.load(Ordering::Relaxed)
    }

    /// Milliseconds since the search started.
    #[must_use]
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds on our clock: since the start, or since ponderhit.
    #[must_use]
    pub fn clock_ms(&self) -> u64 {
        self.elapsed_ms()
            .saturating_sub(self.clock_start_ms.load(Ordering::Relaxed))
    }

    /// Whether the hard time limit of `budget` has passed: never while
    /// pondering (the clock has not started) or without a budget.
    pub(crate) fn past_maximum(&self, budget: Option<TimeBudget>) -> bool {
        budget.is_some_and(|b| !self.pondering() && self.clock_ms() >= b.maximum_ms)
    }

    /// Whether the soft time limit of `budget` has passed, so that no new
    /// iteration should start: the optimum scaled by how many iterations the
    /// best move has been `stable` (see [`stability_factor`]) and by how far
    /// the score has just fallen, `drop` centipawns (see [`falling_factor`]).
    /// Never while pondering, without a budget, or when unused time is lost
    /// anyway ([`TimeBudget::use_all`]).
    pub(crate) fn past_optimum(&self, budget: Option<TimeBudget>, stable: u32, drop: i32) -> bool {
        budget.is_some_and(|b| {
            let share = stability_factor(stable) * falling_factor(drop);
            !b.use_all && !self.pondering() && self.clock_ms() as f64 >= b.optimum_ms as f64 * share
        })
    }
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl::new(false)
    }
}
