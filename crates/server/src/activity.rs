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
//! ```
//! use shogi_server::activity::LiveActivity;
//! let live = LiveActivity::new();
//! assert!(live.quiet_for(0));
//! live.touch();
//! assert!(!live.quiet_for(60_000));
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
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
}
