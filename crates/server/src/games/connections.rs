//! The WebSocket connections of a room: how many are open, how many of
//! them are spectators (capped, so that one game cannot hold a crowd of
//! sockets), and since when none has been open (a finished game nobody
//! watches leaves memory, see [`Rooms::sweep`](crate::games::rooms::Rooms::sweep)),
//! and the limits every connection keeps ([`WsLimits`]).
//!
//! ```
//! use shogi_server::games::connections::Connections;
//! use shogi_server::TimeSource;
//! let (time, manual) = TimeSource::manual();
//! let room = Connections::new(time);
//! let player = room.enter(false, 1).unwrap();
//! let spectator = room.enter(true, 1).unwrap();
//! assert!(room.enter(true, 1).is_none()); // one spectator at most
//! assert_eq!(room.idle_ms(), None);
//! drop((player, spectator));
//! manual.advance(500);
//! assert_eq!(room.idle_ms(), Some(500));
//! ```

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::time::TimeSource;

/// How a game's WebSocket connections are kept in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WsLimits {
    /// How often the server pings.
    pub ping: Duration,
    /// A socket from which nothing (pong or message) arrived for this long is closed.
    pub idle: Duration,
    /// The most spectator sockets a game has at once.
    pub max_spectators: usize,
}

impl Default for WsLimits {
    /// A ping every 20 s, closed after 60 s of silence, 200 spectators.
    fn default() -> Self {
        WsLimits {
            ping: Duration::from_secs(20),
            idle: Duration::from_secs(60),
            max_spectators: 200,
        }
    }
}

/// The open connections of one room (shared by its handles).
#[derive(Debug)]
pub struct Connections {
    time: TimeSource,
    open: AtomicUsize,
    spectators: AtomicUsize,
    /// When the last connection closed (or the room started), on `time`.
    last_left_ms: AtomicU64,
}

impl Connections {
    /// No connection yet; idle from now on `time`.
    #[must_use]
    pub fn new(time: TimeSource) -> Arc<Connections> {
        Arc::new(Connections {
            last_left_ms: AtomicU64::new(time.now_ms()),
            time,
            open: AtomicUsize::new(0),
            spectators: AtomicUsize::new(0),
        })
    }

    /// Counts a new connection while the returned [`Presence`] lives; `None`
    /// for a spectator when `max_spectators` are already watching (seated
    /// players always get in).
    #[must_use]
    pub fn enter(self: &Arc<Self>, spectator: bool, max_spectators: usize) -> Option<Presence> {
        if spectator {
            self.spectators
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                    (n < max_spectators).then_some(n + 1)
                })
                .ok()?;
        }
        self.open.fetch_add(1, Ordering::SeqCst);
        Some(Presence {
            room: Arc::clone(self),
            spectator,
        })
    }

    /// How many connections are open.
    #[must_use]
    pub fn open(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }

    /// How many spectators are connected.
    #[must_use]
    pub fn spectators(&self) -> usize {
        self.spectators.load(Ordering::SeqCst)
    }

    /// How long no connection has been open, in milliseconds; `None` while one is.
    #[must_use]
    pub fn idle_ms(&self) -> Option<u64> {
        if self.open() > 0 {
            return None;
        }
        let since = self.last_left_ms.load(Ordering::SeqCst);
        Some(self.time.now_ms().saturating_sub(since))
    }
}

/// One open connection, counted until dropped.
#[derive(Debug)]
pub struct Presence {
    room: Arc<Connections>,
    spectator: bool,
}

impl Drop for Presence {
    fn drop(&mut self) {
        if self.spectator {
            self.room.spectators.fetch_sub(1, Ordering::SeqCst);
        }
        self.room
            .last_left_ms
            .store(self.room.time.now_ms(), Ordering::SeqCst);
        self.room.open.fetch_sub(1, Ordering::SeqCst);
    }
}
