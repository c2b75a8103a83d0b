//! [`MateLimit`]: what bounds a mate search (time, nodes, a stop flag, the
//! table size).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The default most table entries.
const DEFAULT_ENTRIES: usize = 2_000_000;

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

    /// The most table entries, the default put in for 0.
    pub(super) fn table_entries(&self) -> usize {
        if self.max_entries == 0 {
            DEFAULT_ENTRIES
        } else {
            self.max_entries
        }
    }

    /// Whether a search that started at `start` and has searched `nodes`
    /// nodes must stop.
    pub(super) fn reached(&self, start: Instant, nodes: u64) -> bool {
        self.time.is_some_and(|t| start.elapsed() >= t)
            || self.nodes.is_some_and(|n| nodes >= n)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}
