//! What the handlers share: the store, the room registry, the analysis queue
//! and the time source, each reachable alone through axum's `FromRef`, so a
//! handler takes only what it needs and no handler imports another.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;

use crate::activity::ActivityGate;
use crate::analysis::Analyzer;
use crate::connections::WsLimits;
use crate::db::Store;
use crate::opponent::Opponent;
use crate::room::RoomDeps;
use crate::rooms::{Rooms, ROOM_IDLE};
use crate::search_pool::SearchPool;
use crate::time::TimeSource;

/// How much the server takes on at once (the defaults are those of `docs/PROTOCOL.md`).
#[derive(Clone, Debug)]
pub struct Capacity {
    /// The search threads of the computer's moves, analyses and mate searches.
    pub search: SearchPool,
    /// The limits of every game's WebSocket connections.
    pub ws: WsLimits,
    /// How long a finished game nobody watches stays in memory.
    pub room_idle: Duration,
}

impl Default for Capacity {
    fn default() -> Self {
        Capacity {
            search: SearchPool::default(),
            ws: WsLimits::default(),
            room_idle: ROOM_IDLE,
        }
    }
}

/// The shared registries (cheap to clone).
#[derive(Clone)]
pub struct AppState {
    store: Store,
    rooms: Rooms,
    analyzer: Arc<Analyzer>,
    time: TimeSource,
    capacity: Capacity,
}

impl AppState {
    /// A state on `store`, with rooms reading `time`, the computer played by
    /// `opponent`, and background analysis waiting on `activity`.
    #[must_use]
    pub fn new(
        store: Store,
        time: TimeSource,
        opponent: Arc<dyn Opponent>,
        activity: ActivityGate,
    ) -> AppState {
        AppState::with_capacity(store, time, opponent, activity, Capacity::default())
    }

    /// [`AppState::new`] with the search threads, WebSocket limits and room
    /// idle time of `capacity`.
    #[must_use]
    pub fn with_capacity(
        store: Store,
        time: TimeSource,
        opponent: Arc<dyn Opponent>,
        activity: ActivityGate,
        capacity: Capacity,
    ) -> AppState {
        let deps = RoomDeps {
            store: store.clone(),
            time: time.clone(),
            opponent,
            activity: activity.clone(),
            search: capacity.search.clone(),
        };
        AppState {
            store,
            rooms: Rooms::new(deps).with_room_idle(capacity.room_idle),
            analyzer: Arc::new(Analyzer::new(activity, capacity.search.clone())),
            time,
            capacity,
        }
    }

    /// The store.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The live rooms.
    #[must_use]
    pub fn rooms(&self) -> &Rooms {
        &self.rooms
    }

    /// The background analysis queue.
    #[must_use]
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }
}

impl FromRef<AppState> for Store {
    fn from_ref(s: &AppState) -> Store {
        s.store.clone()
    }
}

impl FromRef<AppState> for Rooms {
    fn from_ref(s: &AppState) -> Rooms {
        s.rooms.clone()
    }
}

impl FromRef<AppState> for Arc<Analyzer> {
    fn from_ref(s: &AppState) -> Arc<Analyzer> {
        Arc::clone(&s.analyzer)
    }
}

impl FromRef<AppState> for SearchPool {
    fn from_ref(s: &AppState) -> SearchPool {
        s.capacity.search.clone()
    }
}

impl FromRef<AppState> for WsLimits {
    fn from_ref(s: &AppState) -> WsLimits {
        s.capacity.ws
    }
}

impl FromRef<AppState> for TimeSource {
    fn from_ref(s: &AppState) -> TimeSource {
        s.time.clone()
    }
}
