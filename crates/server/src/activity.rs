//! When live play last happened, so that background work (the analysis
//! worker) can wait for a lull instead of competing with live games.
//!
//! Rooms [`touch`](LiveActivity::touch) it whenever a player acts or the
//! computer moves; the analysis search pauses while the last touch is more
//! recent than [`QUIET_MS`]. Live play comes first: a server with moves
//! arriving continuously (the load benchmark's 1000 games make a move every
//! millisecond) does not analyse until the moves thin out, while a club
//! event, with a move every few seconds, leaves analysis nearly all the time.
//!
//! The gate is injected like the rooms' [`TimeSource`](crate::TimeSource):
//! [`ActivityGate::Live`] follows real moves, [`ActivityGate::Manual`] is
//! held and released by a test, so that no test depends on how busy the
//! machine is.
//!
//! ```
//! use shogi_server::activity::{ActivityGate, LiveActivity};
//! let live = LiveActivity::new();
//! assert!(live.quiet_for(0));
//! live.touch();
//! assert!(!live.quiet_for(60_000));
//!
//! let (gate, manual) = ActivityGate::manual();
//! assert!(gate.is_quiet());
//! manual.hold();
//! assert!(!gate.is_quiet());
//! manual.release();
//! assert!(gate.is_quiet());
//! ```

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How long after the last live move background analysis waits, in ms.
pub const QUIET_MS: u64 = 50;

/// The time of the last live action (monotonic).
#[derive(Debug)]
pub struct LiveActivity {
    origin: Instant,
    /// Milliseconds after `origin` of the last touch, plus one; 0 = never.
    last: AtomicU64,
}

impl LiveActivity {
    /// No live play yet.
    #[must_use]
    pub fn new() -> LiveActivity {
        LiveActivity {
            origin: Instant::now(),
            last: AtomicU64::new(0),
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(u64::MAX - 1) + 1
    }

    /// Live play happened now.
    pub fn touch(&self) {
        self.last.store(self.now(), Ordering::Relaxed);
    }

    /// Whether no live play happened in the last `ms` milliseconds.
    #[must_use]
    pub fn quiet_for(&self, ms: u64) -> bool {
        let last = self.last.load(Ordering::Relaxed);
        last == 0 || self.now().saturating_sub(last) >= ms
    }
}

impl Default for LiveActivity {
    fn default() -> Self {
        LiveActivity::new()
    }
}

/// Whether background work may run now: after live moves (real time), or
/// as a test says.
#[derive(Clone, Debug)]
pub enum ActivityGate {
    /// Busy for [`QUIET_MS`] after every live action.
    Live(Arc<LiveActivity>),
    /// Busy exactly while [`ManualGate::hold`] is in force.
    Manual(Arc<ManualGate>),
}

impl Default for ActivityGate {
    fn default() -> Self {
        ActivityGate::Live(Arc::new(LiveActivity::new()))
    }
}

impl ActivityGate {
    /// A gate only a test opens and closes, and its handle (open at first).
    #[must_use]
    pub fn manual() -> (ActivityGate, Arc<ManualGate>) {
        let m = Arc::new(ManualGate::default());
        (ActivityGate::Manual(Arc::clone(&m)), m)
    }

    /// Live play happened now (a manual gate only counts it).
    pub fn touch(&self) {
        match self {
            ActivityGate::Live(live) => live.touch(),
            ActivityGate::Manual(m) => {
                m.touches.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Whether background work may run now. A refusal is counted by a manual
    /// gate, so that a test can see that the work reached the gate.
    #[must_use]
    pub fn is_quiet(&self) -> bool {
        match self {
            ActivityGate::Live(live) => live.quiet_for(QUIET_MS),
            ActivityGate::Manual(m) => {
                let held = m.held.load(Ordering::SeqCst);
                if held {
                    m.refusals.fetch_add(1, Ordering::SeqCst);
                }
                !held
            }
        }
    }
}

/// The handle of a manual gate.
#[derive(Debug, Default)]
pub struct ManualGate {
    held: AtomicBool,
    refusals: AtomicU64,
    touches: AtomicU64,
}

impl ManualGate {
    /// Keeps background work waiting, as live play would.
    pub fn hold(&self) {
        self.held.store(true, Ordering::SeqCst);
    }

    /// Lets background work run.
    pub fn release(&self) {
        self.held.store(false, Ordering::SeqCst);
    }

    /// How many times background work asked and was told to wait.
    #[must_use]
    pub fn refusals(&self) -> u64 {
        self.refusals.load(Ordering::SeqCst)
    }

    /// How many live actions touched the gate.
    #[must_use]
    pub fn touches(&self) -> u64 {
        self.touches.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_returns_after_the_window() {
        let live = LiveActivity::new();
        live.touch();
        assert!(!live.quiet_for(10_000));
        std::thread::sleep(std::time::Duration::from_millis(30));
        assert!(live.quiet_for(20));
    }

    #[test]
    fn a_held_manual_gate_refuses_and_counts_until_released() {
        let (gate, manual) = ActivityGate::manual();
        manual.hold();
        assert!(!gate.is_quiet());
        assert!(!gate.is_quiet());
        assert_eq!(manual.refusals(), 2);
        gate.touch();
        assert_eq!(manual.touches(), 1);
        manual.release();
        assert!(gate.is_quiet());
        assert_eq!(manual.refusals(), 2);
    }
}
