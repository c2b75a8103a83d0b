//! Rate limits per client: how many requests of a kind (registrations, login
//! attempts, games, seeks, imports, mate searches) one key (an address, a
//! name) may make in a sliding window, as the "Limits" table of
//! `docs/PROTOCOL.md` sets them.
//!
//! A [`Limiter`] keeps, per kind and key, the times of the requests it let
//! through in the window; a request over the limit is refused with
//! [`Error::TooManyRequests`], which says when the oldest of them leaves the
//! window. Refused requests are not counted. Time comes from the injected
//! [`TimeSource`], so tests move it by hand. With several instances on one
//! database ([`Limiter::shared`]) the counts are kept in the database
//! instead, so that they are the same whichever instance a request reaches.
//!
//! ```
//! use std::time::Duration;
//! use shogi_server::limits::rates::{Kind, Limiter, Rate, RateLimits};
//! use shogi_server::TimeSource;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let (time, clock) = TimeSource::manual();
//! let limits = RateLimits { mate: Rate::new(2, Duration::from_secs(60)), ..RateLimits::default() };
//! let limiter = Limiter::new(limits, time);
//! assert!(limiter.check(Kind::Mate, "198.51.100.7").await.is_ok());
//! assert!(limiter.check(Kind::Mate, "198.51.100.7").await.is_ok());
//! assert!(limiter.check(Kind::Mate, "198.51.100.7").await.is_err());
//! assert!(limiter.check(Kind::Mate, "198.51.100.8").await.is_ok());
//! clock.advance(60_000);
//! assert!(limiter.check(Kind::Mate, "198.51.100.7").await.is_ok());
//! # }
//! ```

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::db::rate_hits::RateTake;
use crate::db::Store;
use crate::error::Error;
use crate::time::TimeSource;

/// At most this many keys are tracked; beyond it the least recently used
/// keys are forgotten (and so start again from zero).
pub const MAX_KEYS: usize = 100_000;

/// At most this many entries are kept per key: further requests are added
/// to the newest entry (counted until the newest request leaves the window,
/// so a merge never lets more through than the limit).
const MAX_ENTRIES_PER_KEY: usize = 64;

/// Stale keys are swept every this many calls.
const SWEEP_EVERY: u64 = 1024;

/// A limit: at most `count` (requests, or bytes) per window `per`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// How many in one window.
    pub count: u64,
    /// The window's length.
    pub per: Duration,
}

impl Rate {
    /// At most `count` per `per`.
    #[must_use]
    pub const fn new(count: u64, per: Duration) -> Rate {
        Rate { count, per }
    }

    /// No limit.
    #[must_use]
    pub const fn unlimited() -> Rate {
        Rate {
            count: u64::MAX,
            per: Duration::ZERO,
        }
    }

    /// Whether this is [`Rate::unlimited`].
    #[must_use]
    pub const fn is_unlimited(&self) -> bool {
        self.count == u64::MAX
    }

    fn window_ms(&self) -> u64 {
        u64::try_from(self.per.as_millis()).unwrap_or(u64::MAX)
    }
}

const MINUTE: Duration = Duration::from_secs(60);

/// The limits of a server, one per row of the protocol's "Limits" table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// Accounts registered per address.
    pub accounts: Rate,
    /// Login attempts per address (any names).
    pub login_address: Rate,
    /// Login attempts per name from one address, over a minute...
    pub login_name: Rate,
    /// ...over an hour...
    pub login_name_hour: Rate,
    /// ...and over a day: the waits grow with the attempts.
    pub login_name_day: Rate,
    /// Games created (and seeks accepted) per address.
    pub games: Rate,
    /// Seeks posted per address.
    pub seeks: Rate,
    /// Records imported per address.
    pub imports: Rate,
    /// Bytes of records imported per address.
    pub import_bytes: Rate,
    /// Mate searches per address.
    pub mate: Rate,
    /// Puzzle attempts (moves judged) per address.
    pub puzzles: Rate,
    /// Analysis board searches (`POST /api/analyse`) per address.
    pub analyse: Rate,
    /// Position diagrams (`GET /api/diagram.png`) per address.
    pub diagrams: Rate,
    /// Tournament rounds paired (and unpaired) per address.
    pub pairings: Rate,
    /// Reports of games and chat messages per account.
    pub reports: Rate,
    /// Explorer answers and game searches per address.
    pub explorer: Rate,
    /// Bytes uploaded to collections per account.
    pub collection_bytes: Rate,
}

impl Default for RateLimits {
    /// The table of `docs/PROTOCOL.md`: 5 accounts an hour, 20 login
    /// attempts per 10 minutes per address, and per name from one address
    /// 5 a minute, 15 an hour and 30 a day, 30 games, 20
    /// seeks, 30 imports and 8 MiB of them, 10 mate searches, 60 puzzle
    /// moves, 120 analysis board searches, 60 position diagrams and 20
    /// rounds paired a minute; 10 reports an hour per account; 120 explorer
    /// answers and searches a minute; 512 MiB uploaded to collections an
    /// hour per account.
    fn default() -> RateLimits {
        RateLimits {
            accounts: Rate::new(5, Duration::from_secs(3600)),
            login_address: Rate::new(20, Duration::from_secs(600)),
            login_name: Rate::new(5, MINUTE),
            login_name_hour: Rate::new(15, Duration::from_secs(3600)),
            login_name_day: Rate::new(30, Duration::from_secs(24 * 3600)),
            games: Rate::new(30, MINUTE),
            seeks: Rate::new(20, MINUTE),
            imports: Rate::new(30, MINUTE),
            import_bytes: Rate::new(8 << 20, MINUTE),
            mate: Rate::new(10, MINUTE),
            puzzles: Rate::new(60, MINUTE),
            analyse: Rate::new(120, MINUTE),
            diagrams: Rate::new(60, MINUTE),
            pairings: Rate::new(20, MINUTE),
            reports: Rate::new(10, Duration::from_secs(3600)),
            explorer: Rate::new(120, MINUTE),
            collection_bytes: Rate::new(512 << 20, Duration::from_secs(3600)),
        }
    }
}

impl RateLimits {
    /// No limits at all (`shogi serve --no-rate-limits`, load benchmarks).
    #[must_use]
    pub const fn unlimited() -> RateLimits {
        RateLimits {
            accounts: Rate::unlimited(),
            login_address: Rate::unlimited(),
            login_name: Rate::unlimited(),
            login_name_hour: Rate::unlimited(),
            login_name_day: Rate::unlimited(),
            games: Rate::unlimited(),
            seeks: Rate::unlimited(),
            imports: Rate::unlimited(),
            import_bytes: Rate::unlimited(),
            mate: Rate::unlimited(),
            puzzles: Rate::unlimited(),
            analyse: Rate::unlimited(),
            diagrams: Rate::unlimited(),
            pairings: Rate::unlimited(),
            reports: Rate::unlimited(),
            explorer: Rate::unlimited(),
            collection_bytes: Rate::unlimited(),
        }
    }

    /// The limit of `kind`.
    #[must_use]
    pub const fn of(&self, kind: Kind) -> Rate {
        match kind {
            Kind::Accounts => self.accounts,
            Kind::LoginAddress => self.login_address,
            Kind::LoginName => self.login_name,
            Kind::LoginNameHour => self.login_name_hour,
            Kind::LoginNameDay => self.login_name_day,
            Kind::Games => self.games,
            Kind::Seeks => self.seeks,
            Kind::Imports => self.imports,
            Kind::ImportBytes => self.import_bytes,
            Kind::Mate => self.mate,
            Kind::Puzzles => self.puzzles,
            Kind::Analyse => self.analyse,
            Kind::Diagrams => self.diagrams,
            Kind::Pairings => self.pairings,
            Kind::Reports => self.reports,
            Kind::Explorer => self.explorer,
            Kind::CollectionBytes => self.collection_bytes,
        }
    }
}

/// What is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Accounts registered (key: the address).
    Accounts,
    /// Login attempts (key: the address).
    LoginAddress,
    /// Login attempts per minute (key: [`login_key`], the name's key and
    /// the address: failures from one address never refuse another's).
    LoginName,
    /// Login attempts per hour (key: [`login_key`]).
    LoginNameHour,
    /// Login attempts per day (key: [`login_key`]).
    LoginNameDay,
    /// Games created (key: the address).
    Games,
    /// Seeks posted (key: the address).
    Seeks,
    /// Records imported (key: the address).
    Imports,
    /// Bytes of records imported (key: the address; use [`Limiter::check_bytes`]).
    ImportBytes,
    /// Mate searches (key: the address).
    Mate,
    /// Puzzle attempts (key: the address).
    Puzzles,
    /// Analysis board searches (key: the address).
    Analyse,
    /// Position diagrams (key: the address).
    Diagrams,
    /// Tournament rounds paired or unpaired (key: the address).
    Pairings,
    /// Reports to the moderators (key: the account, [`account_key`]).
    Reports,
    /// Explorer answers and game searches (key: the address).
    Explorer,
    /// Bytes uploaded to collections (key: the account, [`account_key`]; use
    /// [`Limiter::check_bytes`]).
    CollectionBytes,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 17] = [
        Kind::Accounts,
        Kind::LoginAddress,
        Kind::LoginName,
        Kind::LoginNameHour,
        Kind::LoginNameDay,
        Kind::Games,
        Kind::Seeks,
        Kind::Imports,
        Kind::ImportBytes,
        Kind::Mate,
        Kind::Puzzles,
        Kind::Analyse,
        Kind::Diagrams,
        Kind::Pairings,
        Kind::Reports,
        Kind::Explorer,
        Kind::CollectionBytes,
    ];

    /// The kind as a word, as the shared counts store it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Accounts => "accounts",
            Kind::LoginAddress => "login_address",
            Kind::LoginName => "login_name",
            Kind::LoginNameHour => "login_name_hour",
            Kind::LoginNameDay => "login_name_day",
            Kind::Games => "games",
            Kind::Seeks => "seeks",
            Kind::Imports => "imports",
            Kind::ImportBytes => "import_bytes",
            Kind::Mate => "mate",
            Kind::Puzzles => "puzzles",
            Kind::Analyse => "analyse",
            Kind::Diagrams => "diagrams",
            Kind::Pairings => "pairings",
            Kind::Reports => "reports",
            Kind::Explorer => "explorer",
            Kind::CollectionBytes => "collection_bytes",
        }
    }

    /// The refusal's words, before "; try again in N s".
    fn refusal(self) -> &'static str {
        match self {
            Kind::Accounts => "too many accounts registered from this address",
            Kind::LoginAddress | Kind::LoginName | Kind::LoginNameHour | Kind::LoginNameDay => {
                "too many login attempts"
            }
            Kind::Games => "too many games created",
            Kind::Seeks => "too many seeks posted",
            Kind::Imports => "too many records imported",
            Kind::ImportBytes => "too many bytes of records imported",
            Kind::Mate => "too many mate searches",
            Kind::Puzzles => "too many puzzle moves",
            Kind::Analyse => "too many analysis requests",
            Kind::Diagrams => "too many diagrams",
            Kind::Pairings => "too many rounds paired",
            Kind::Reports => "too many reports",
            Kind::Explorer => "too many explorer requests",
            Kind::CollectionBytes => "too many bytes uploaded to collections",
        }
    }
}

/// The key of what account `id` does ([`Kind::Reports`]).
///
/// ```
/// use shogi_server::limits::rates::account_key;
/// assert_eq!(account_key(7), "account:7");
/// ```
#[must_use]
pub fn account_key(id: i64) -> String {
    format!("account:{id}")
}

/// The key of login attempts at the name whose [`crate::accounts::name_key`]
/// is `name_key` from the address whose [`address_key`] is `address`: the
/// per-name limits count one address's attempts, so that someone guessing
/// a name's password from one address is slowed down more and more while
/// its owner, from another, logs in.
///
/// ```
/// use shogi_server::limits::rates::login_key;
/// assert_ne!(login_key("alice", "203.0.113.9"), login_key("alice", "203.0.113.10"));
/// ```
#[must_use]
pub fn login_key(name_key: &str, address: &str) -> String {
    format!("{name_key}\u{0}{address}")
}

/// The key of a client address: the address itself for IPv4, its /64
/// network for IPv6 (one host commonly has a whole /64 to choose from).
///
/// ```
/// use shogi_server::limits::rates::address_key;
/// assert_eq!(address_key("203.0.113.9".parse().unwrap()), "203.0.113.9");
/// assert_eq!(address_key("2001:db8:1:2:aaaa::1".parse().unwrap()), "2001:db8:1:2::/64");
/// assert_eq!(address_key("::ffff:203.0.113.9".parse().unwrap()), "203.0.113.9");
/// ```
#[must_use]
pub fn address_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                let net = std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0);
                format!("{net}/64")
            }
        },
    }
}

/// What was let through for one key: (time, amount), oldest first.
#[derive(Default)]
struct Log {
    entries: VecDeque<(u64, u64)>,
    total: u64,
}

impl Log {
    /// Forgets what left the window ending at `now`.
    fn expire(&mut self, now: u64, window: u64) {
        while let Some(&(t, n)) = self.entries.front() {
            if t.saturating_add(window) > now {
                break;
            }
            self.entries.pop_front();
            self.total -= n;
        }
    }

    /// Milliseconds until `n` more fit under `limit` (after [`Log::expire`]).
    fn wait_for(&self, n: u64, limit: u64, now: u64, window: u64) -> u64 {
        if n > limit {
            // Never fits; say "a whole window" rather than "never".
            return window;
        }
        let mut total = self.total;
        for &(t, m) in &self.entries {
            total -= m;
            if total.saturating_add(n) <= limit {
                return t.saturating_add(window).saturating_sub(now);
            }
        }
        0
    }

    fn add(&mut self, now: u64, n: u64) {
        if self.entries.len() >= MAX_ENTRIES_PER_KEY {
            if let Some(last) = self.entries.back_mut() {
                *last = (now, last.1 + n);
                self.total += n;
                return;
            }
        }
        self.entries.push_back((now, n));
        self.total += n;
    }

    fn newest(&self) -> u64 {
        self.entries.back().map_or(0, |&(t, _)| t)
    }
}

struct Table {
    logs: HashMap<(Kind, String), Log>,
    calls: u64,
}

/// Counts requests per kind and key against [`RateLimits`] (cheap to clone;
/// clones share the counts).
#[derive(Clone)]
pub struct Limiter {
    limits: RateLimits,
    time: TimeSource,
    table: Arc<Mutex<Table>>,
    /// With several instances: the database where the counts are kept.
    shared: Option<Store>,
}

impl Limiter {
    /// A limiter with `limits`, reading the time from `time`.
    #[must_use]
    pub fn new(limits: RateLimits, time: TimeSource) -> Limiter {
        Limiter {
            limits,
            time,
            table: Arc::new(Mutex::new(Table {
                logs: HashMap::new(),
                calls: 0,
            })),
            shared: None,
        }
    }

    /// The limits it applies.
    #[must_use]
    pub fn limits(&self) -> &RateLimits {
        &self.limits
    }

    /// Counts one request of `kind` by `key`.
    ///
    /// # Errors
    /// [`Error::TooManyRequests`] when `key` has made as many as the limit
    /// allows in the window (the request is then not counted); with
    /// [`Limiter::shared`], a database that refused.
    pub async fn check(&self, kind: Kind, key: &str) -> Result<(), Error> {
        self.check_bytes(kind, key, 1).await
    }

    /// Counts `n` (bytes, say) of `kind` by `key`.
    ///
    /// # Errors
    /// [`Error::TooManyRequests`] when they would take `key` over the limit
    /// in the window (they are then not counted); with [`Limiter::shared`],
    /// a database that refused.
    pub async fn check_bytes(&self, kind: Kind, key: &str, n: u64) -> Result<(), Error> {
        self.check_all(&[(kind, key, n)]).await
    }

    /// Counts several at once, all or nothing: each `(kind, key, n)` is
    /// counted only if none of them is over its limit (a login attempt
    /// counts against its address and its name, or against neither).
    ///
    /// # Errors
    /// [`Error::TooManyRequests`] for the first that is over its limit,
    /// with the longest wait of those over theirs; with
    /// [`Limiter::shared`], a database that refused.
    pub async fn check_all(&self, checks: &[(Kind, &str, u64)]) -> Result<(), Error> {
        let checks: Vec<_> = checks
            .iter()
            .copied()
            .filter(|(kind, _, _)| !self.limits.of(*kind).is_unlimited())
            .collect();
        if checks.is_empty() {
            return Ok(());
        }
        let now = self.time.now_ms();
        let refused = match &self.shared {
            None => self.check_here(&checks, now),
            Some(store) => self.check_shared(store, &checks, now).await?,
        };
        match refused {
            None => Ok(()),
            Some((kind, wait_ms)) => {
                let retry_after_s = wait_ms.div_ceil(1000).max(1);
                Err(Error::TooManyRequests {
                    message: format!("{}; try again in {retry_after_s} s", kind.refusal()),
                    retry_after_s,
                })
            }
        }
    }

    /// The same limiter counting in `store`, shared with the other
    /// instances on that database, instead of in this process's memory
    /// (the app with several instances): a client spreading its requests
    /// over the instances gets the limits once, not once per instance.
    #[must_use]
    pub fn shared(mut self, store: Store) -> Limiter {
        self.shared = Some(store);
        self
    }

    /// [`Limiter::check_all`] in memory: the first kind over its limit and
    /// the longest wait, or `None` once all are counted.
    fn check_here(&self, checks: &[(Kind, &str, u64)], now: u64) -> Option<(Kind, u64)> {
        let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        table.calls += 1;
        if table.calls.is_multiple_of(SWEEP_EVERY) || table.logs.len() >= MAX_KEYS {
            self.sweep(&mut table, now);
        }
        let mut refused: Option<(Kind, u64)> = None;
        for &(kind, key, n) in checks {
            let log = table.logs.entry((kind, key.to_string())).or_default();
            refused = self.over(refused, kind, n, log, now);
        }
        if refused.is_none() {
            for &(kind, key, n) in checks {
                if let Some(log) = table.logs.get_mut(&(kind, key.to_string())) {
                    log.add(now, n);
                }
            }
        }
        refused
    }

    /// [`Limiter::check_all`] in the database: what every instance let
    /// through is read and this one's counted in one transaction
    /// ([`Store::take_rate`]); every [`SWEEP_EVERY`] calls, what is older
    /// than the longest window is deleted.
    async fn check_shared(
        &self,
        store: &Store,
        checks: &[(Kind, &str, u64)],
        now: u64,
    ) -> Result<Option<(Kind, u64)>, Error> {
        let takes: Vec<RateTake<'_>> = checks
            .iter()
            .map(|&(kind, key, amount)| RateTake {
                kind: kind.name(),
                key,
                amount,
                window_ms: self.limits.of(kind).window_ms(),
            })
            .collect();
        let refused = store
            .take_rate(&takes, now, |seen| {
                let mut refused = None;
                for (&(kind, _, n), hits) in checks.iter().zip(seen) {
                    let mut log = Log::default();
                    for &(at, amount) in hits {
                        log.entries.push_back((at, amount));
                        log.total = log.total.saturating_add(amount);
                    }
                    refused = self.over(refused, kind, n, &mut log, now);
                }
                refused
            })
            .await?;
        let sweep = {
            let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
            table.calls += 1;
            table.calls.is_multiple_of(SWEEP_EVERY)
        };
        if sweep {
            let longest = Kind::ALL
                .iter()
                .map(|k| self.limits.of(*k))
                .filter(|r| !r.is_unlimited())
                .map(|r| r.window_ms())
                .max()
                .unwrap_or(0);
            // The request is counted already; a failed clean-up waits for the next.
            if let Err(e) = store.forget_rate_hits(now.saturating_sub(longest)).await {
                tracing::warn!("deleting old rate limit counts: {e}");
            }
        }
        Ok(refused)
    }

    /// `refused` updated with `kind` if `n` more would take `log` over its
    /// limit: the first kind over, the longest wait.
    fn over(
        &self,
        refused: Option<(Kind, u64)>,
        kind: Kind,
        n: u64,
        log: &mut Log,
        now: u64,
    ) -> Option<(Kind, u64)> {
        let rate = self.limits.of(kind);
        let window = rate.window_ms();
        log.expire(now, window);
        if log.total.saturating_add(n) <= rate.count {
            return refused;
        }
        let wait_ms = log.wait_for(n, rate.count, now, window);
        Some(match refused {
            None => (kind, wait_ms),
            Some((first, longest)) => (first, longest.max(wait_ms)),
        })
    }

    /// Forgets the keys with nothing left in their window; if that leaves
    /// the table full, also the least recently used quarter.
    fn sweep(&self, table: &mut Table, now: u64) {
        let limits = self.limits;
        table.logs.retain(|(kind, _), log| {
            log.expire(now, limits.of(*kind).window_ms());
            !log.entries.is_empty()
        });
        if table.logs.len() >= MAX_KEYS {
            let mut ages: Vec<u64> = table.logs.values().map(Log::newest).collect();
            let cut = MAX_KEYS / 4;
            ages.select_nth_unstable(cut);
            let oldest_kept = ages[cut];
            table.logs.retain(|_, log| log.newest() > oldest_kept);
        }
    }

    /// How many keys are tracked (for tests of the memory bound).
    #[must_use]
    pub fn tracked_keys(&self) -> usize {
        self.table
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .logs
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(limits: &RateLimits) -> (Limiter, Arc<crate::time::ManualTime>) {
        let (time, clock) = TimeSource::manual();
        (Limiter::new(*limits, time), clock)
    }

    /// An in-memory check, which never waits.
    fn sync<T>(check: impl std::future::Future<Output = T>) -> T {
        futures_util::FutureExt::now_or_never(check).expect("an in-memory check does not wait")
    }

    fn retry_after(r: Result<(), Error>) -> u64 {
        match r {
            Err(Error::TooManyRequests { retry_after_s, .. }) => retry_after_s,
            other => panic!("expected 429, got {other:?}"),
        }
    }

    #[test]
    fn the_limit_plus_one_is_refused_until_the_oldest_leaves_the_window() {
        let (l, clock) = limiter(&RateLimits::default());
        for _ in 0..5 {
            sync(l.check(Kind::Accounts, "a")).unwrap();
            clock.advance(60_000);
        }
        // Five in the last 5 minutes; the first leaves the hour at 60 min.
        assert_eq!(retry_after(sync(l.check(Kind::Accounts, "a"))), 3300);
        clock.advance(3_299_999);
        assert_eq!(retry_after(sync(l.check(Kind::Accounts, "a"))), 1);
        clock.advance(1);
        sync(l.check(Kind::Accounts, "a")).unwrap();
        assert!(sync(l.check(Kind::Accounts, "a")).is_err());
    }

    #[test]
    fn refusals_are_not_counted() {
        let (l, clock) = limiter(&RateLimits::default());
        for _ in 0..10 {
            sync(l.check(Kind::Mate, "a")).unwrap();
        }
        for _ in 0..100 {
            assert!(sync(l.check(Kind::Mate, "a")).is_err());
        }
        clock.advance(60_000);
        for _ in 0..10 {
            sync(l.check(Kind::Mate, "a")).unwrap();
        }
    }

    #[test]
    fn keys_and_kinds_are_counted_apart() {
        let (l, _) = limiter(&RateLimits::default());
        for _ in 0..5 {
            sync(l.check(Kind::LoginName, "alice")).unwrap();
        }
        assert!(sync(l.check(Kind::LoginName, "alice")).is_err());
        sync(l.check(Kind::LoginName, "bob")).unwrap();
        sync(l.check(Kind::LoginAddress, "alice")).unwrap();
    }

    #[test]
    fn the_message_names_the_kind_and_the_wait() {
        let (l, _) = limiter(&RateLimits {
            login_address: Rate::new(1, Duration::from_secs(600)),
            ..RateLimits::default()
        });
        sync(l.check(Kind::LoginAddress, "a")).unwrap();
        let e = sync(l.check(Kind::LoginAddress, "a")).unwrap_err();
        assert_eq!(e.to_string(), "too many login attempts; try again in 600 s");
    }

    #[test]
    fn check_all_counts_all_or_nothing() {
        let (l, _) = limiter(&RateLimits::default());
        let login = |name: &str| {
            sync(l.check_all(&[(Kind::LoginAddress, "ip", 1), (Kind::LoginName, name, 1)]))
        };
        for _ in 0..5 {
            login("alice").unwrap();
        }
        // Alice's name is at its limit; the address is not charged for the refusals.
        for _ in 0..5 {
            let e = login("alice").unwrap_err();
            assert_eq!(e.to_string(), "too many login attempts; try again in 60 s");
        }
        for i in 0..15 {
            login(&i.to_string()).unwrap();
        }
        // 20 counted for the address: the next is refused whatever the name,
        // and the name is not charged either.
        assert!(matches!(login("bob"), Err(Error::TooManyRequests { .. })));
        for _ in 0..5 {
            sync(l.check(Kind::LoginName, "bob")).unwrap();
        }
    }

    #[test]
    fn bytes_count_by_amount() {
        let (l, clock) = limiter(&RateLimits::default());
        sync(l.check_bytes(Kind::ImportBytes, "a", 5 << 20)).unwrap();
        clock.advance(10_000);
        sync(l.check_bytes(Kind::ImportBytes, "a", 3 << 20)).unwrap();
        assert_eq!(
            retry_after(sync(l.check_bytes(Kind::ImportBytes, "a", 1))),
            50
        );
        clock.advance(50_000);
        // The first 5 MiB left; 3 MiB remain in the window.
        sync(l.check_bytes(Kind::ImportBytes, "a", 5 << 20)).unwrap();
        assert!(sync(l.check_bytes(Kind::ImportBytes, "a", 1)).is_err());
    }

    #[test]
    fn many_small_amounts_stay_bounded_and_never_exceed_the_limit() {
        let (l, clock) = limiter(&RateLimits {
            import_bytes: Rate::new(1000, MINUTE),
            ..RateLimits::default()
        });
        let mut let_through = 0;
        for _ in 0..2000 {
            if sync(l.check_bytes(Kind::ImportBytes, "a", 1)).is_ok() {
                let_through += 1;
            }
            clock.advance(10);
        }
        // 2000 calls over 20 s, all in one window: exactly the limit.
        assert_eq!(let_through, 1000);
        let table = l.table.lock().unwrap();
        let log = &table.logs[&(Kind::ImportBytes, "a".to_string())];
        assert!(log.entries.len() <= MAX_ENTRIES_PER_KEY);
    }

    #[test]
    fn unlimited_lets_everything_through_and_tracks_nothing() {
        let (l, _) = limiter(&RateLimits::unlimited());
        for _ in 0..1000 {
            sync(l.check(Kind::Accounts, "a")).unwrap();
        }
        assert_eq!(l.tracked_keys(), 0);
    }

    #[test]
    fn stale_keys_are_swept() {
        let (l, clock) = limiter(&RateLimits::default());
        for i in 0..SWEEP_EVERY - 1 {
            sync(l.check(Kind::Mate, &i.to_string())).unwrap();
        }
        assert_eq!(l.tracked_keys(), 1023);
        clock.advance(60_000);
        sync(l.check(Kind::Mate, "last")).unwrap();
        assert_eq!(l.tracked_keys(), 1);
    }

    #[test]
    fn a_full_table_forgets_the_least_recently_used() {
        let (l, clock) = limiter(&RateLimits::default());
        for i in 0..MAX_KEYS {
            sync(l.check(Kind::Accounts, &i.to_string())).unwrap();
            if i % 1000 == 999 {
                clock.advance(1);
            }
        }
        sync(l.check(Kind::Accounts, "new")).unwrap();
        let kept = l.tracked_keys();
        assert!((MAX_KEYS / 2..MAX_KEYS).contains(&kept), "{kept}");
        // The newest keys are still counted.
        let newest = (MAX_KEYS - 1).to_string();
        for _ in 0..4 {
            sync(l.check(Kind::Accounts, &newest)).unwrap();
        }
        assert!(sync(l.check(Kind::Accounts, &newest)).is_err());
    }
}
