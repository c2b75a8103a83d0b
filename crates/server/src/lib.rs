//! The shogi web server: games in the browser over HTTP and WebSocket (JSON,
//! see `docs/PROTOCOL.md`), clocks kept by the server, every move stored in
//! the database (`SQLite` or PostgreSQL) before it is acknowledged.
//!
//! Each live game is a *room*: one task that owns the game and is fed by a
//! channel; WebSocket connections send it commands and receive a broadcast of
//! the state after every change. The map from game id to room is locked only
//! to create, open or restore a game.
//!
//! Three layers, arrows pointing down only: the handlers in `api` (HTTP and
//! WebSocket → typed calls, through the registries of [`AppState`], and the
//! wire's message envelopes); the features, each in its folder, which know
//! nothing of HTTP: the live games ([`games`]: the rooms, their views, the
//! players), the [`lobby`], reviewing finished games and records
//! ([`review`]), the analysis [`board`], the [`learn`] pages, the
//! [`puzzles`], the [`tournaments`], the [`accounts`], the [`ratings`] and
//! the rate [`limits`]; and the storage, [`db`], the only module that
//! speaks SQL. The model of one game ([`game`]: sides, settings, clocks,
//! the words for endings) and the shared infrastructure ([`time`],
//! [`activity`], [`search_pool`], [`Error`]) sit at the bottom. `serve`
//! accepts the connections (with a header timeout).
//!
//! ```no_run
//! # async fn run() -> Result<(), shogi_server::Error> {
//! use std::path::Path;
//! // Serves until Ctrl-C or SIGTERM, then saves the clocks of the games in progress.
//! shogi_server::serve("127.0.0.1:8080".parse().unwrap(), Path::new("shogi.db")).await?;
//! # Ok(()) }
//! ```
#![warn(missing_docs)]

pub mod accounts;
pub mod activity;
mod api;
pub mod board;
pub mod calendar;
pub mod csa;
pub mod db;
mod error;
pub mod explorer;
pub mod game;
pub mod games;
pub mod learn;
pub mod limits;
pub mod lobby;
pub mod moderation;
pub mod puzzles;
pub mod ratings;
pub mod review;
pub mod search_pool;
mod serve;
mod state;
pub mod time;
mod token;
pub mod tournaments;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use activity::{ActivityGate, ManualGate};
pub use api::MAX_BODY_BYTES;
pub use db::Location;
pub use error::{Error, Kind, Problem};
pub use games::connections::WsLimits;
use games::leases::{LeasePolicy, Leases};
pub use games::opponent::{EngineOpponent, Greedy, Limits, Opponent};
use games::room::CrashAfterEnding;
/// An address range, as `--trusted-proxy` takes it.
pub use ipnet::IpNet;
pub use limits::rates::RateLimits;
pub use search_pool::SearchPool;
pub use state::{AppState, Capacity};
pub use time::{ManualTime, TimeSource};

/// How long a shutdown waits for open connections before dropping them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
/// How long a client may take to send a request's headers, by default.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How often finished games nobody watches are looked for, by default.
pub const SWEEP_EVERY: Duration = Duration::from_secs(5);

/// The router: the API under `/api` and the browser client's pages.
pub fn app(state: AppState) -> Router {
    api::router(state)
}

/// How to start a [`Server`].
#[derive(Clone)]
pub struct Config {
    /// Where to listen (port 0 picks a free port).
    pub bind: SocketAddr,
    /// The database: an `SQLite` file (created if missing) or a PostgreSQL URL.
    pub db: Location,
    /// The clock the rooms read.
    pub time: TimeSource,
    /// The computer player.
    pub opponent: Arc<dyn Opponent>,
    /// The gate background analysis waits at while live games are played.
    pub activity: ActivityGate,
    /// The per-address rate limits ([`RateLimits::unlimited`] lifts them).
    pub limits: RateLimits,
    /// Whether session cookies are always marked `Secure` (served over https).
    pub https_cookies: bool,
    /// How long a client may take to send a request's headers (10 s).
    pub header_timeout: Duration,
    /// How often the server pings a WebSocket (20 s).
    pub ws_ping: Duration,
    /// A WebSocket silent (no pong, no message) for this long is closed (60 s).
    pub ws_idle: Duration,
    /// The most spectator sockets of one game (200).
    pub max_spectators: usize,
    /// How many searches (computer moves, analyses, mate searches) run at
    /// once (the machine's cores).
    pub search_threads: usize,
    /// A finished game nobody has watched for this long leaves memory (60 s,
    /// on [`Config::time`]).
    pub room_idle: Duration,
    /// How often finished games are looked for (5 s, real time).
    pub sweep_every: Duration,
    /// Several instances on one database: the address (`host:port`) the
    /// other instances reach this one at. Each game's room then lives on
    /// the instance holding its lease, and requests for it reaching another
    /// instance are forwarded there (`None`: this instance is alone).
    pub advertise: Option<String>,
    /// The reverse proxies whose `X-Forwarded-For` names the client
    /// (`--trusted-proxy`; empty: the TCP peer is the client).
    pub trusted_proxies: Vec<IpNet>,
    /// For the crash tests only: abort the process right after the `n`th
    /// ending is stored, before its consequences (`None`: never).
    pub crash_after_ending: Option<u32>,
    /// Where to listen for the CSA server protocol (`--csa-port`,
    /// `--csa-bind`; docs/CSA.md); `None`: not at all.
    pub csa_bind: Option<SocketAddr>,
    /// How often programs waiting for a `floodgate-` game are paired
    /// (`--csa-pairing-minutes`; floodgate's 30 minutes, at :00 and :30).
    pub csa_pairing_every: Duration,
}

impl Config {
    /// Real time, the engine as the computer player ([`EngineOpponent`])
    /// and the documented limits.
    #[must_use]
    pub fn new(bind: SocketAddr, db: impl Into<Location>) -> Config {
        let ws = WsLimits::default();
        Config {
            bind,
            db: db.into(),
            time: TimeSource::default(),
            opponent: Arc::new(EngineOpponent),
            activity: ActivityGate::default(),
            limits: RateLimits::default(),
            https_cookies: false,
            header_timeout: HEADER_TIMEOUT,
            ws_ping: ws.ping,
            ws_idle: ws.idle,
            max_spectators: ws.max_spectators,
            search_threads: search_pool::default_threads(),
            room_idle: games::rooms::ROOM_IDLE,
            sweep_every: SWEEP_EVERY,
            advertise: None,
            trusted_proxies: Vec::new(),
            crash_after_ending: None,
            csa_bind: None,
            csa_pairing_every: api::csa::SCHEDULED_PAIRING,
        }
    }

    fn capacity(&self, leases: Option<Leases>) -> Capacity {
        Capacity {
            holders: leases.clone().map(|leases| {
                Arc::new(api::forward::HttpHolders::new(leases)) as Arc<dyn games::rooms::Holders>
            }),
            leases,
            search: SearchPool::new(self.search_threads),
            ws: WsLimits {
                ping: self.ws_ping,
                idle: self.ws_idle,
                max_spectators: self.max_spectators,
            },
            room_idle: self.room_idle,
            crash: self
                .crash_after_ending
                .map(CrashAfterEnding::after)
                .unwrap_or_default(),
        }
    }
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    state: AppState,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
    sweeper: JoinHandle<()>,
    lobby_refresher: JoinHandle<()>,
    /// The task that tells the tournaments of endings, which replay a
    /// sennichite in event games (`None`: another server on the same state
    /// already runs it).
    replays: Option<JoinHandle<()>>,
    /// With several instances: the tasks renewing this instance's leases
    /// and taking over a dead instance's games.
    lease_tasks: Vec<JoinHandle<()>>,
    /// The CSA protocol's address and accept loop, if it listens.
    csa: Option<(SocketAddr, oneshot::Sender<()>, JoinHandle<()>)>,
}

impl Server {
    /// Opens the database (WAL mode, migrations applied), restores the
    /// unfinished games, carries out the consequences of endings still due
    /// (a process died after storing them) and starts listening.
    ///
    /// # Errors
    /// The database cannot be opened or read, or the address cannot be bound.
    pub async fn start(config: Config) -> Result<Server, Error> {
        puzzles::PuzzleSet::embedded().map_err(Error::Internal)?;
        let store = db::Store::open(&config.db).await?;
        review::analysis::reset_unfinished(&store).await?;
        store.fill_search_names().await?;
        review::dedupe::fill_records(&store).await?;
        review::records::fill_game_keys(&store).await?;
        // The games over since the last start join the `site` collection in
        // the background (each explorer request adds the rest first).
        let filling = store.clone();
        tokio::spawn(async move {
            if let Err(e) = explorer::site::fill(&filling).await {
                tracing::warn!("adding finished games to the site collection: {e}");
            }
        });
        let leases = match &config.advertise {
            Some(address) => Some(
                Leases::register(
                    store.clone(),
                    address,
                    LeasePolicy::default(),
                    time::unix_ms(),
                )
                .await?,
            ),
            None => None,
        };
        let capacity = config.capacity(leases.clone());
        let state = AppState::with_capacity(
            store,
            config.time,
            config.opponent,
            config.activity,
            capacity,
        )
        .with_limits(config.limits)
        .with_https_cookies(config.https_cookies)
        .with_trusted_proxies(config.trusted_proxies.clone());
        state.accounts().fill_skeletons().await?;
        let restored = state.rooms().restore_unfinished().await?;
        // The consequences of endings a dead process left due (the outbox).
        let rated = games::players::settle_due(state.store()).await?;
        let heard = state.tournaments().hear_due().await?;
        if rated + heard > 0 {
            tracing::info!(
                "{rated} games rated and {heard} endings told to tournaments after a restart"
            );
        }
        let listener = tokio::net::TcpListener::bind(config.bind).await?;
        let addr = listener.local_addr()?;
        tracing::info!("listening on http://{addr}, {restored} games restored");
        let (stop, stopped) = oneshot::channel::<()>();
        let router = app(state.clone());
        let task = tokio::spawn(serve::serve(
            listener,
            router,
            config.header_timeout,
            async {
                let _ = stopped.await;
            },
        ));
        let csa = match config.csa_bind {
            Some(bind) => {
                let listener = tokio::net::TcpListener::bind(bind).await?;
                let csa_addr = listener.local_addr()?;
                tracing::info!("CSA server protocol on {csa_addr}");
                let (stop, stopped) = oneshot::channel::<()>();
                let task = tokio::spawn(api::csa::serve(
                    listener,
                    state.clone(),
                    config.csa_pairing_every,
                    async {
                        let _ = stopped.await;
                    },
                ));
                Some((csa_addr, stop, task))
            }
            None => None,
        };
        let sweeper = state.rooms().spawn_sweeper(config.sweep_every);
        let lobby_refresher = state.lobby().spawn_refresher();
        let replays = state.tournaments().spawn_replays();
        let mut lease_tasks = Vec::new();
        if let Some(leases) = leases {
            tracing::info!(
                "instance {} reachable at {}",
                leases.instance_id(),
                leases.address()
            );
            let adopt_every = Duration::from_millis(leases.policy().renew_every_ms);
            lease_tasks.push(api::forward::spawn_lobby_sync(
                leases.clone(),
                state.lobby().clone(),
            ));
            lease_tasks.push(tokio::spawn(leases.keep_renewing()));
            lease_tasks.extend(state.rooms().spawn_adopter(adopt_every));
        }
        Ok(Server {
            addr,
            state,
            stop,
            task,
            sweeper,
            lobby_refresher,
            replays,
            lease_tasks,
            csa,
        })
    }

    /// The address it listens on.
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The address the CSA server protocol listens on, if it does.
    #[must_use]
    pub fn csa_addr(&self) -> Option<SocketAddr> {
        self.csa.as_ref().map(|(addr, _, _)| *addr)
    }

    /// The shared state (for tests and tools).
    #[must_use]
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Stops: saves the clocks of the games in progress, closes the
    /// `WebSockets`, stops listening and closes the database.
    pub async fn shutdown(self) {
        self.sweeper.abort();
        self.lobby_refresher.abort();
        if let Some(replays) = self.replays {
            replays.abort();
        }
        for task in &self.lease_tasks {
            task.abort();
        }
        if let Some((_, stop, task)) = self.csa {
            let _ = stop.send(());
            let _ = tokio::time::timeout(SHUTDOWN_GRACE, task).await;
        }
        self.state.rooms().shutdown().await;
        let _ = self.stop.send(());
        let mut task = self.task;
        if tokio::time::timeout(SHUTDOWN_GRACE, &mut task)
            .await
            .is_err()
        {
            task.abort();
        }
        self.state.store().close().await;
    }

    /// Runs until `signal` completes, then shuts down.
    pub async fn run_until(self, signal: impl Future<Output = ()>) {
        signal.await;
        self.shutdown().await;
    }
}

/// Completes on Ctrl-C, or on SIGTERM where there are signals.
pub async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Serves on `bind` with the games in `db` (an `SQLite` file's path, or a
/// [`Location`]) until Ctrl-C or SIGTERM.
///
/// # Errors
/// The database cannot be opened or the address cannot be bound.
pub async fn serve(bind: SocketAddr, db: impl Into<Location>) -> Result<(), Error> {
    let server = Server::start(Config::new(bind, db)).await?;
    server.run_until(stop_signal()).await;
    Ok(())
}
