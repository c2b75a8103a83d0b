//! What the handlers share: the store, the room registry, the analysis queue
//! and the time source, each reachable alone through axum's `FromRef`, so a
//! handler takes only what it needs and no handler imports another.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::activity::ActivityGate;
use crate::analysis::Analyzer;
use crate::db::Store;
use crate::lobby::Lobby;
use crate::opponent::Opponent;
use crate::room::RoomDeps;
use crate::rooms::Rooms;
use crate::time::TimeSource;

/// The shared registries (cheap to clone).
#[derive(Clone)]
pub struct AppState {
    store: Store,
    rooms: Rooms,
    analyzer: Arc<Analyzer>,
    time: TimeSource,
    lobby: Lobby,
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
        let lobby = Lobby::new(time.clone());
        let deps = RoomDeps {
            store: store.clone(),
            time: time.clone(),
            opponent,
            activity: activity.clone(),
            lobby: lobby.clone(),
        };
        AppState {
            store,
            rooms: Rooms::new(deps),
            analyzer: Arc::new(Analyzer::new(activity)),
            time,
            lobby,
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

    /// The lobby.
    #[must_use]
    pub fn lobby(&self) -> &Lobby {
        &self.lobby
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

impl FromRef<AppState> for TimeSource {
    fn from_ref(s: &AppState) -> TimeSource {
        s.time.clone()
    }
}

impl FromRef<AppState> for Lobby {
    fn from_ref(s: &AppState) -> Lobby {
        s.lobby.clone()
    }
}
