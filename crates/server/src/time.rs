//! Where the rooms read the time: the tokio clock, or a manual clock that
//! tests move by hand.
//!
//! Tests over real sockets and `SQLite` cannot use `tokio::time::pause()`: a
//! paused runtime that waits on the network or on `SQLite`'s worker thread
//! looks idle, and tokio then jumps its clock to the next timer, which would
//! make flags fall while a move is being stored. [`ManualTime`] only moves
//! when the test says so.

use std::sync::Arc;

use tokio::sync::watch;

/// A millisecond clock that starts at 0.
#[derive(Clone, Debug)]
pub enum TimeSource {
    /// The tokio clock (real time, or paused time in tests that use it).
    Tokio(tokio::time::Instant),
    /// A clock moved by [`ManualTime::advance`].
    Manual(Arc<ManualTime>),
}

impl Default for TimeSource {
    fn default() -> Self {
        TimeSource::Tokio(tokio::time::Instant::now())
    }
}

impl TimeSource {
    /// A clock that only moves when told to, and its handle.
    #[must_use]
    pub fn manual() -> (TimeSource, Arc<ManualTime>) {
        let m = Arc::new(ManualTime {
            now: watch::Sender::new(0),
        });
        (TimeSource::Manual(m.clone()), m)
    }

    /// Milliseconds since the clock started.
    #[must_use]
    pub fn now_ms(&self) -> u64 {
        match self {
            TimeSource::Tokio(origin) => {
                u64::try_from(origin.elapsed().as_millis()).unwrap_or(u64::MAX)
            }
            TimeSource::Manual(m) => *m.now.borrow(),
        }
    }

    /// Waits until the clock reads `at_ms` or later.
    pub async fn sleep_until_ms(&self, at_ms: u64) {
        match self {
            TimeSource::Tokio(origin) => {
                let at = origin.checked_add(std::time::Duration::from_millis(at_ms));
                match at {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            }
            TimeSource::Manual(m) => {
                let mut rx = m.now.subscribe();
                // The sender lives as long as `m`, which this borrow keeps alive.
                let _ = rx.wait_for(|&now| now >= at_ms).await;
            }
        }
    }
}

/// Wall-clock Unix milliseconds (for timestamps shown or stored, never for clocks).
#[must_use]
pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The handle of a manual clock.
#[derive(Debug)]
pub struct ManualTime {
    now: watch::Sender<u64>,
}

impl ManualTime {
    /// Moves the clock forward by `ms`.
    pub fn advance(&self, ms: u64) {
        self.now.send_modify(|t| *t += ms);
    }

    /// The current reading.
    #[must_use]
    pub fn now_ms(&self) -> u64 {
        *self.now.borrow()
    }
}
