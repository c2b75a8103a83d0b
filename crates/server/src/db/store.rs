//! The handle on the database: where it is ([`Location`]: an `SQLite` file or
//! a PostgreSQL URL), opening it (migrations applied; for `SQLite` WAL mode,
//! one writing connection, read-only readers and background checkpoints),
//! closing it, and the conversions every table module shares. The statements
//! themselves live in the table modules, written once for both databases
//! through sqlx's `Any` driver: `$1, $2, ...` placeholders, SQL both dialects
//! understand, flags bound as `bool` and read with [`flag`].

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool, Executor, Row};

/// One migration: its version, its name, and its SQL for each database.
struct Step {
    version: i64,
    name: &'static str,
    sqlite: &'static str,
    postgres: &'static str,
}

macro_rules! step {
    ($version:literal, $name:literal, $file:literal) => {
        Step {
            version: $version,
            name: $name,
            sqlite: include_str!(concat!("../../migrations/", $file)),
            postgres: include_str!(concat!("../../migrations/postgres/", $file)),
        }
    };
}

/// The migrations, in order: the same versions and names for both
/// databases, each with its `SQLite` file and its PostgreSQL twin.
const MIGRATIONS: [Step; 25] = [
    step!(1, "games", "0001_games.sql"),
    step!(2, "archive", "0002_archive.sql"),
    step!(3, "annotations", "0003_annotations.sql"),
    step!(4, "foul", "0004_foul.sql"),
    step!(5, "players", "0005_players.sql"),
    step!(6, "tournaments", "0006_tournaments.sql"),
    step!(7, "played_at", "0007_played_at.sql"),
    step!(8, "learn", "0008_learn.sql"),
    step!(9, "puzzles", "0009_puzzles.sql"),
    step!(10, "leases", "0010_leases.sql"),
    step!(11, "clocks_ply", "0011_clocks_ply.sql"),
    step!(12, "rate_hits", "0012_rate_hits.sql"),
    step!(13, "integrity", "0013_integrity.sql"),
    step!(14, "outbox", "0014_outbox.sql"),
    step!(15, "moderation", "0015_moderation.sql"),
    step!(16, "invitations", "0016_invitations.sql"),
    step!(17, "secrets", "0017_secrets.sql"),
    step!(18, "import_visibility", "0018_import_visibility.sql"),
    step!(19, "csa", "0019_csa.sql"),
    step!(20, "move_comments", "0020_move_comments.sql"),
    step!(21, "strategy", "0021_strategy.sql"),
    step!(22, "explorer", "0022_explorer.sql"),
    step!(23, "explorer_counts", "0023_explorer_counts.sql"),
    step!(24, "explorer_shared", "0024_explorer_shared.sql"),
    step!(25, "explorer_narrow", "0025_explorer_narrow.sql"),
];

/// Where the data lives: what `shogi serve --db` accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// An `SQLite` file, created if missing (the embedded default).
    Sqlite(PathBuf),
    /// A PostgreSQL server: a `postgres://user:password@host:port/dbname`
    /// URL (any parameter libpq-style URLs take that sqlx understands, such
    /// as `?sslmode=require`). The database must exist; the tables are
    /// created in it.
    Postgres(String),
}

impl Location {
    /// A `postgres://` or `postgresql://` URL names a PostgreSQL database;
    /// anything else is the path of an `SQLite` file.
    #[must_use]
    pub fn parse(text: &str) -> Location {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Location::Postgres(text.to_owned())
        } else {
            Location::Sqlite(PathBuf::from(text))
        }
    }
}

impl From<&Path> for Location {
    fn from(path: &Path) -> Location {
        Location::Sqlite(path.to_path_buf())
    }
}

impl From<&PathBuf> for Location {
    fn from(path: &PathBuf) -> Location {
        Location::Sqlite(path.clone())
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Location {
        Location::Sqlite(path)
    }
}

impl fmt::Display for Location {
    /// The path, or the URL without its password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(path) => write!(f, "{}", path.display()),
            Location::Postgres(url) => {
                // postgres://user:secret@host/db shows as postgres://user:***@host/db.
                let Some((scheme, rest)) = url.split_once("://") else {
                    return f.write_str(url);
                };
                match rest.split_once('@') {
                    Some((user, host)) if user.contains(':') => {
                        let name = user.split(':').next().unwrap_or_default();
                        write!(f, "{scheme}://{name}:***@{host}")
                    }
                    _ => f.write_str(url),
                }
            }
        }
    }
}

/// Which SQL dialect the store speaks, for the few expressions the two do
/// not share (reading a JSON field, finding a substring).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// `SQLite`.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// The `sqlite:` URL of `path` for sqlx (which percent-decodes it), with
/// `params`. An absolute path, so that the file name is never read as a
/// URL's host.
fn sqlite_url(path: &Path, params: &str) -> Result<String, sqlx::Error> {
    let path = std::path::absolute(path).map_err(|e| sqlx::Error::Configuration(e.into()))?;
    let text = path.to_str().ok_or_else(|| {
        sqlx::Error::Configuration(format!("not a UTF-8 path: {}", path.display()).into())
    })?;
    let mut url = String::from("sqlite://");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/._-~".contains(&b) {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url.push('?');
    url.push_str(params);
    Ok(url)
}

/// A handle on the database (cheap to clone).
#[derive(Clone, Debug)]
pub struct Store {
    /// The connections that write (and may read): one for `SQLite`.
    pub(super) pool: AnyPool,
    /// Connections for queries that change nothing (archive pages, record
    /// downloads, analysis progress): read-only ones for `SQLite`, so that
    /// they never delay a move; the same pool as `pool` for PostgreSQL.
    pub(super) reader: AnyPool,
    /// The dialect of both.
    pub(super) dialect: Dialect,
    /// `SQLite`'s connection for the first step of each checkpoint (see
    /// [`checkpoints`]); none for PostgreSQL.
    checkpointer: Option<AnyPool>,
}

/// A writing connection held across several writes (by the group
/// committer), taken with [`Store::writer`].
///
/// A connection going back to sqlx's pool is pinged first: a round trip to
/// `SQLite`'s thread, or to the PostgreSQL server, for every write. A holder
/// pays it once, when it lets go; meanwhile, for `SQLite`, every other write
/// waits, so a holder lets go when it has nothing to write or after a few
/// milliseconds.
#[derive(Debug)]
pub struct Writer {
    pub(super) conn: PoolConnection<Any>,
    pub(super) dialect: Dialect,
}

/// `items` in chunks whose lengths are powers of two, largest first (37
/// items: 32, 4, 1), so that a statement with one row per item has at most
/// a few distinct texts for the prepared-statement cache.
pub(super) fn in_chunks<T>(items: &[T]) -> impl Iterator<Item = &[T]> {
    let mut rest = items;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let len = 1 << rest.len().ilog2();
        let (chunk, tail) = rest.split_at(len);
        rest = tail;
        Some(chunk)
    })
}

impl Dialect {
    /// `head`, then `rows` rows of `cols` placeholders each, then `tail`:
    /// numbered for PostgreSQL (`($1, $2), ($3, $4)`), anonymous for
    /// `SQLite` (`(?, ?), (?, ?)`, bound in order). `SQLite` looks a numbered
    /// placeholder up by name in a list when it binds it, so a batch of `n`
    /// numbered placeholders costs `n²/2` steps (3.4 % of the server's CPU
    /// at 6000 games before they were anonymous).
    pub(super) fn values_sql(self, head: &str, cols: usize, rows: usize, tail: &str) -> String {
        use std::fmt::Write as _;
        let mut sql = String::with_capacity(head.len() + tail.len() + rows * cols * 5);
        sql.push_str(head);
        for r in 0..rows {
            sql.push_str(if r == 0 { "(" } else { ", (" });
            for c in 0..cols {
                if c > 0 {
                    sql.push_str(", ");
                }
                match self {
                    Dialect::Sqlite => sql.push('?'),
                    Dialect::Postgres => {
                        let _ = write!(sql, "${}", r * cols + c + 1);
                    }
                }
            }
            sql.push(')');
        }
        sql.push_str(tail);
        sql
    }
}

/// Milliseconds (or any count) as the database's integer.
pub(super) fn ms(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// 32-bit FNV-1a of `bytes`, the second key of a PostgreSQL advisory lock
/// (two things whose keys collide only wait for each other).
pub(super) fn advisory_key(bytes: impl IntoIterator<Item = u8>) -> i32 {
    bytes
        .into_iter()
        .fold(0x811c_9dc5_u32, |h, b| {
            (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
        })
        .cast_signed()
}

/// The database's integer as a count (negative reads as 0).
pub(super) fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// A flag column: PostgreSQL's `BOOLEAN`, `SQLite`'s integer 0 or 1 (which
/// sqlx's `Any` driver hands over as an integer).
///
/// # Errors
/// The column is missing or holds something else.
pub(super) fn flag(row: &AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    match row.try_get::<bool, _>(column) {
        Ok(b) => Ok(b),
        Err(sqlx::Error::ColumnNotFound(c)) => Err(sqlx::Error::ColumnNotFound(c)),
        Err(_) => Ok(row.try_get::<i64, _>(column)? != 0),
    }
}

/// A stored value that does not read back (a corrupt or foreign database).
pub(super) fn corrupt(what: impl Into<String>) -> sqlx::Error {
    sqlx::Error::Decode(what.into().into())
}

/// How often the write-ahead log is copied back into the database.
const CHECKPOINT_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

/// Copies the write-ahead log into the database file every
/// [`CHECKPOINT_INTERVAL`], in `PASSIVE` mode (it never waits for, or makes
/// wait, a reader or a writer), in two steps, until the pool is closed:
///
/// 1. on `checkpointer`, a connection of its own, which copies every frame
///    committed so far while the writing connection goes on committing
///    moves (this is most of the work: 35-50 ms a second at 10,000 live
///    games, which held up every move when the writing connection did it);
/// 2. on `writer`, the writing connection, which copies the few frames
///    committed meanwhile. Only a checkpoint that leaves no frame behind
///    lets the next commit start the log again from its beginning, and
///    under a steady stream of moves only the writing connection can be
///    sure that no commit comes in between; without this step the log
///    would grow for as long as moves keep coming.
async fn checkpoints(writer: AnyPool, checkpointer: AnyPool) {
    let mut tick = tokio::time::interval(CHECKPOINT_INTERVAL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if writer.is_closed() {
            return;
        }
        if let Err(e) = checkpoint(&checkpointer, &writer).await {
            if writer.is_closed() || checkpointer.is_closed() {
                return;
            }
            tracing::warn!("checkpoint: {e}");
        }
    }
}

/// One checkpoint of [`checkpoints`]: the bulk on `checkpointer`, the
/// rest on `writer`.
async fn checkpoint(checkpointer: &AnyPool, writer: &AnyPool) -> Result<(), sqlx::Error> {
    for pool in [checkpointer, writer] {
        sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(pool)
            .await?;
    }
    Ok(())
}

/// The statements every new `SQLite` writing connection runs first.
///
/// WAL: readers see committed data beside the writer and never wait for it.
/// In WAL mode `synchronous = NORMAL` still commits every transaction before
/// the call returns (a crash of the server loses nothing), but syncs the log
/// to disk at checkpoints rather than at every commit, so a power cut may
/// lose the last moves (see "Durability" in docs/DEPLOY.md). No checkpoint
/// inside a commit (`wal_autocheckpoint = 0`): the move that happened to
/// cross `SQLite`'s 1000-page mark would wait for the whole copy (and every
/// move queued behind it); a background task checkpoints instead. A page
/// cache of 64 MiB (`SQLite`'s default is 2 MiB): an import's transaction
/// writes a few hundred thousand explorer rows, and once its dirty pages
/// outgrow the cache `SQLite` spills them to the log and writes them again
/// (24,000 games took 25 million page writes with the default).
const SQLITE_WRITER_PRAGMAS: &str = "PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    PRAGMA wal_autocheckpoint = 0;
    PRAGMA cache_size = -65536;
    PRAGMA foreign_keys = ON;";

/// How many connections a PostgreSQL store keeps at most.
const POSTGRES_CONNECTIONS: u32 = 10;

impl Store {
    /// Opens the database at `location` and applies the migrations: an
    /// `SQLite` file (created if missing) in WAL mode, or a PostgreSQL
    /// database (which must exist).
    ///
    /// # Errors
    /// The database cannot be reached, opened or migrated.
    pub async fn open(location: &Location) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        match location {
            Location::Sqlite(path) => Store::open_sqlite(path).await,
            Location::Postgres(url) => Store::open_postgres(url).await,
        }
    }

    async fn open_sqlite(path: &Path) -> Result<Store, sqlx::Error> {
        // Held while the file is created (WAL mode) and migrated.
        let lock = lock_for_migrations(path).await?;
        // One connection writes: SQLite has a single writer anyway, and
        // writers queued here wait in order, where writers on several
        // connections would meet a locked database and back off in SQLite's
        // busy handler (sleeps of 1, 2, 5, 10 ms...), which showed as a cluster
        // of ~19 ms round trips in the load benchmark.
        let pool = AnyPoolOptions::new()
            .max_connections(1)
            // A file this process opened needs no ping before each use:
            // the ping is a round trip to the connection's thread, one
            // more for every group commit.
            .test_before_acquire(false)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute(SQLITE_WRITER_PRAGMAS).await?;
                    Ok(())
                })
            })
            .connect(&sqlite_url(path, "mode=rwc")?)
            .await?;
        migrate(&pool, Dialect::Sqlite).await?;
        drop(lock);
        // Checkpoints only: no statement of the app runs on it.
        let checkpointer = AnyPoolOptions::new()
            .max_connections(1)
            .test_before_acquire(false)
            .connect(&sqlite_url(path, "mode=rw")?)
            .await?;
        tokio::spawn(checkpoints(pool.clone(), checkpointer.clone()));
        // Readers see committed data beside the writer (WAL) and never wait for it.
        let reader = AnyPoolOptions::new()
            .max_connections(3)
            .test_before_acquire(false)
            .connect(&sqlite_url(path, "mode=ro")?)
            .await?;
        Ok(Store {
            pool,
            reader,
            dialect: Dialect::Sqlite,
            checkpointer: Some(checkpointer),
        })
    }

    async fn open_postgres(url: &str) -> Result<Store, sqlx::Error> {
        let pool = AnyPoolOptions::new()
            .max_connections(POSTGRES_CONNECTIONS)
            .connect(url)
            .await?;
        migrate(&pool, Dialect::Postgres).await?;
        Ok(Store {
            reader: pool.clone(),
            pool,
            dialect: Dialect::Postgres,
            checkpointer: None,
        })
    }

    /// Takes a writing connection (waiting for `SQLite`'s one while
    /// another write holds it), until the [`Writer`] is dropped.
    ///
    /// # Errors
    /// The pool is closed or cannot connect.
    pub async fn writer(&self) -> Result<Writer, sqlx::Error> {
        Ok(Writer {
            conn: self.pool.acquire().await?,
            dialect: self.dialect,
        })
    }

    /// Whether [`Store::close`] was called.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.pool.is_closed()
    }

    /// Closes the pool, waiting for the connections to finish.
    pub async fn close(&self) {
        self.reader.close().await;
        self.pool.close().await;
        if let Some(checkpointer) = &self.checkpointer {
            checkpointer.close().await;
        }
    }
}

/// Creates the `SQLite` database at `path` (owner only) if missing, and
/// locks the file beside it that instances
/// opening it lock while they migrate it (`games.db.migrate-lock` beside
/// `games.db`), waiting for any other holder; the lock ends when the file
/// handle is dropped.
///
/// sqlx's migrator locks a PostgreSQL database for its migrations, but has
/// no lock for `SQLite`: two instances started together on a new file would
/// both create the same tables, and one would fail ("table users already
/// exists").
async fn lock_for_migrations(path: &Path) -> Result<std::fs::File, sqlx::Error> {
    let db = path.to_path_buf();
    let mut name = path.as_os_str().to_owned();
    name.push(".migrate-lock");
    tokio::task::spawn_blocking(move || {
        let file = owner_only()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&name)?;
        file.lock()?;
        // The database itself, created before SQLite opens it so that it is
        // readable by its owner only; SQLite gives its journal, WAL and
        // shared-memory files the mode of the database file.
        owner_only()
            .create(true)
            .truncate(false)
            .write(true)
            .open(db)?;
        Ok(file)
    })
    .await
    .map_err(|e| sqlx::Error::Configuration(e.into()))?
    .map_err(sqlx::Error::Io)
}

/// Options that create a file readable and writable by its owner only
/// (mode 0600 on Unix; an existing file keeps its mode).
fn owner_only() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

/// Applies the migrations of `dialect` not applied yet.
async fn migrate(pool: &AnyPool, dialect: Dialect) -> Result<(), sqlx::Error> {
    let migrations: Vec<Migration> = MIGRATIONS
        .iter()
        .map(|step| {
            let sql = match dialect {
                Dialect::Sqlite => step.sqlite,
                Dialect::Postgres => step.postgres,
            };
            Migration::new(
                step.version,
                Cow::Borrowed(step.name),
                MigrationType::Simple,
                Cow::Borrowed(sql),
                false,
            )
        })
        .collect();
    let migrator = Migrator {
        migrations: Cow::Owned(migrations),
        ignore_missing: false,
        locking: true,
        no_tx: false,
    };
    migrator.run(pool).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{in_chunks, Dialect, Location, Store};
    use sqlx::Row;

    /// The first step of a checkpoint runs on a connection of its own, so
    /// it copies the log while the writing connection is taken (as the
    /// committer holds it under a stream of moves). When the writing
    /// connection checkpointed alone, this waited for it: every move
    /// committed behind a checkpoint waited 25-50 ms.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_checkpoint_copies_the_log_while_the_writing_connection_is_taken() {
        let dir = std::env::temp_dir().join(format!("shogi-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(&Location::Sqlite(dir.join("games.db")))
            .await
            .unwrap();
        sqlx::query("CREATE TABLE scratch (x INTEGER)")
            .execute(&store.pool)
            .await
            .unwrap();
        for x in 0..20 {
            sqlx::query("INSERT INTO scratch (x) VALUES ($1)")
                .bind(x)
                .execute(&store.pool)
                .await
                .unwrap();
        }
        let held = store.writer().await.unwrap();
        let checkpointer = store.checkpointer.clone().unwrap();
        let first_step = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(&checkpointer);
        // Generous: the step takes milliseconds; it fails only by waiting
        // for the writing connection, which is not given back before.
        let row = tokio::time::timeout(std::time::Duration::from_secs(60), first_step)
            .await
            .expect("the checkpoint waited for the writing connection")
            .unwrap();
        let (busy, log, copied): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        assert_eq!(busy, 0);
        assert!(log > 0, "no frame in the log");
        assert_eq!(copied, log, "frames left behind");
        drop(held);
        store.close().await;
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Instances started together on a new `SQLite` file: each opens it,
    /// and the migrations run once (before the lock, one of the two failed
    /// in about half of such starts with "table ... already exists").
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn stores_opened_together_on_a_new_file_both_open() {
        let dir = std::env::temp_dir().join(format!("shogi-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for i in 0..8 {
            let location = Location::Sqlite(dir.join(format!("games-{i}.db")));
            let (a, b) = tokio::join!(Store::open(&location), Store::open(&location));
            let (a, b) = (a.unwrap(), b.unwrap());
            a.close().await;
            b.close().await;
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn chunks_are_powers_of_two_largest_first() {
        let items: Vec<u32> = (0..37).collect();
        let lens: Vec<usize> = in_chunks(&items).map(<[u32]>::len).collect();
        assert_eq!(lens, [32, 4, 1]);
        let back: Vec<u32> = in_chunks(&items).flatten().copied().collect();
        assert_eq!(back, items);
        assert_eq!(in_chunks::<u32>(&[]).count(), 0);
        assert_eq!(in_chunks(&items[..16]).count(), 1);
    }

    #[test]
    fn values_number_their_placeholders_row_by_row() {
        assert_eq!(
            Dialect::Postgres.values_sql("INSERT INTO t VALUES ", 2, 3, ";"),
            "INSERT INTO t VALUES ($1, $2), ($3, $4), ($5, $6);"
        );
        assert_eq!(
            Dialect::Sqlite.values_sql("INSERT INTO t VALUES ", 2, 3, ";"),
            "INSERT INTO t VALUES (?, ?), (?, ?), (?, ?);"
        );
    }
}
