//! What the handlers share: the store, the room registry, the analysis queue,
//! the time source, the accounts and the rate limiter, each reachable alone through axum's `FromRef`, so a
//! handler takes only what it needs and no handler imports another.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;

use crate::accounts::Accounts;
use crate::activity::ActivityGate;
use crate::db::Store;
use crate::games::committer::Committer;
use crate::games::connections::WsLimits;
use crate::games::leases::Leases;
use crate::games::opponent::Opponent;
use crate::games::room::{CrashAfterEnding, GameEndedSender, RoomDeps};
use crate::games::rooms::{Holders, Rooms, ROOM_IDLE};
use crate::limits::rates::{Limiter, RateLimits};
use crate::lobby::Lobby;
use crate::moderation::Moderation;
use crate::puzzles::{PuzzleSet, Puzzles};
use crate::review::analysis::Analyzer;
use crate::search_pool::SearchPool;
use crate::time::TimeSource;
use crate::tournaments::Tournaments;

/// How much the server takes on at once (the defaults are those of `docs/PROTOCOL.md`).
#[derive(Clone, Debug)]
pub struct Capacity {
    /// The search threads of the computer's moves, analyses and mate searches.
    pub search: SearchPool,
    /// The limits of every game's WebSocket connections.
    pub ws: WsLimits,
    /// How long a finished game nobody watches stays in memory.
    pub room_idle: Duration,
    /// With several instances on one database: this instance's leases.
    pub leases: Option<Leases>,
    /// With several instances: how to reach the other instances' games.
    pub holders: Option<Arc<dyn Holders>>,
    /// The crash tests' hook (unset: none).
    pub crash: CrashAfterEnding,
}

impl Default for Capacity {
    fn default() -> Self {
        Capacity {
            search: SearchPool::default(),
            ws: WsLimits::default(),
            room_idle: ROOM_IDLE,
            leases: None,
            holders: None,
            crash: CrashAfterEnding::default(),
        }
    }
}

/// The rate limiter: counting in memory, or in the database shared with
/// the other instances when there are several.
fn limiter(limits: &RateLimits, time: &TimeSource, store: &Store, capacity: &Capacity) -> Limiter {
    let limiter = Limiter::new(*limits, time.clone());
    if capacity.leases.is_some() {
        limiter.shared(store.clone())
    } else {
        limiter
    }
}

/// The shared registries (cheap to clone).
#[derive(Clone)]
pub struct AppState {
    store: Store,
    rooms: Rooms,
    analyzer: Arc<Analyzer>,
    time: TimeSource,
    lobby: Lobby,
    tournaments: Tournaments,
    accounts: Accounts,
    moderation: Moderation,
    limiter: Limiter,
    puzzles: Puzzles,
    https_cookies: HttpsCookies,
    trusted_proxies: TrustedProxies,
    capacity: Capacity,
}

/// The reverse proxies whose `X-Forwarded-For` is believed
/// (`shogi serve --trusted-proxy CIDR`): a request whose TCP peer is in one
/// of these ranges is from the address the proxies name; any other
/// request is from its peer (a client cannot forge its address by sending
/// the header itself).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(pub Arc<Vec<ipnet::IpNet>>);

impl TrustedProxies {
    /// Whether `ip` is one of the trusted proxies.
    #[must_use]
    pub fn contains(&self, ip: std::net::IpAddr) -> bool {
        let ip = match ip {
            std::net::IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, std::net::IpAddr::V4),
            v4 @ std::net::IpAddr::V4(_) => v4,
        };
        self.0.iter().any(|net| net.contains(&ip))
    }
}

/// Whether session cookies are always `Secure` (the server is told it is
/// served over https); otherwise only for requests that say so.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HttpsCookies(pub bool);

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
        let lobby = Lobby::new(time.clone());
        let (ended, endings) = GameEndedSender::channel();
        let deps = RoomDeps {
            store: store.clone(),
            committer: Committer::spawn(store.clone()),
            time: time.clone(),
            opponent,
            activity: activity.clone(),
            lobby: lobby.clone(),
            search: capacity.search.clone(),
            ended,
            crash: capacity.crash.clone(),
        };
        let rooms = Rooms::new(deps)
            .with_room_idle(capacity.room_idle)
            .with_leases(capacity.leases.clone())
            .with_holders(capacity.holders.clone());
        let accounts = Accounts::new(store.clone());
        AppState {
            tournaments: Tournaments::new(store.clone(), rooms.clone(), endings),
            moderation: Moderation::new(
                store.clone(),
                accounts.clone(),
                lobby.clone(),
                rooms.clone(),
            ),
            accounts,
            limiter: limiter(&RateLimits::default(), &time, &store, &capacity),
            // A bad embedded set stops `Server::start` before this; elsewhere it is empty.
            puzzles: Puzzles::new(
                PuzzleSet::embedded().unwrap_or_default(),
                store.clone(),
                capacity.search.clone(),
            ),
            https_cookies: HttpsCookies::default(),
            trusted_proxies: TrustedProxies::default(),
            store,
            rooms,
            analyzer: Arc::new(Analyzer::new(activity, capacity.search.clone())),
            time,
            lobby,
            capacity,
        }
    }

    /// The same state with `limits` instead of [`RateLimits::default`].
    #[must_use]
    pub fn with_limits(mut self, limits: RateLimits) -> AppState {
        self.lobby.cap_open_seeks(!limits.seeks.is_unlimited());
        self.limiter = limiter(&limits, &self.time, &self.store, &self.capacity);
        self
    }

    /// The same state believing `X-Forwarded-For` from `proxies` only.
    #[must_use]
    pub fn with_trusted_proxies(mut self, proxies: Vec<ipnet::IpNet>) -> AppState {
        self.trusted_proxies = TrustedProxies(Arc::new(proxies));
        self
    }

    /// The same state with session cookies always `Secure` (or not).
    #[must_use]
    pub fn with_https_cookies(mut self, https: bool) -> AppState {
        self.https_cookies = HttpsCookies(https);
        self
    }

    /// The accounts and sessions.
    #[must_use]
    pub fn accounts(&self) -> &Accounts {
        &self.accounts
    }

    /// The rate limiter.
    #[must_use]
    pub fn limiter(&self) -> &Limiter {
        &self.limiter
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

    /// The club tournaments.
    #[must_use]
    pub fn tournaments(&self) -> &Tournaments {
        &self.tournaments
    }

    /// The puzzles.
    #[must_use]
    pub fn puzzles(&self) -> &Puzzles {
        &self.puzzles
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

impl FromRef<AppState> for Lobby {
    fn from_ref(s: &AppState) -> Lobby {
        s.lobby.clone()
    }
}

impl FromRef<AppState> for Accounts {
    fn from_ref(s: &AppState) -> Accounts {
        s.accounts.clone()
    }
}

impl FromRef<AppState> for Moderation {
    fn from_ref(s: &AppState) -> Moderation {
        s.moderation.clone()
    }
}

impl FromRef<AppState> for Tournaments {
    fn from_ref(s: &AppState) -> Tournaments {
        s.tournaments.clone()
    }
}

impl FromRef<AppState> for Limiter {
    fn from_ref(s: &AppState) -> Limiter {
        s.limiter.clone()
    }
}

impl FromRef<AppState> for Puzzles {
    fn from_ref(s: &AppState) -> Puzzles {
        s.puzzles.clone()
    }
}

impl FromRef<AppState> for TrustedProxies {
    fn from_ref(s: &AppState) -> TrustedProxies {
        s.trusted_proxies.clone()
    }
}

impl FromRef<AppState> for HttpsCookies {
    fn from_ref(s: &AppState) -> HttpsCookies {
        s.https_cookies
    }
}
