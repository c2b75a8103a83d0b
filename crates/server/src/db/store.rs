//! The handle on the database: opening it (WAL mode, migrations applied),
//! the background checkpoints, closing it, and the conversions every table
//! module shares. The statements themselves live in the table modules.

use std::borrow::Cow;
use std::path::Path;

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

/// The migrations, in order.
const MIGRATIONS: [(i64, &str, &str); 10] = [
    (1, "games", include_str!("../../migrations/0001_games.sql")),
    (
        2,
        "archive",
        include_str!("../../migrations/0002_archive.sql"),
    ),
    (
        3,
        "annotations",
        include_str!("../../migrations/0003_annotations.sql"),
    ),
    (4, "foul", include_str!("../../migrations/0004_foul.sql")),
    (
        5,
        "players",
        include_str!("../../migrations/0005_players.sql"),
    ),
    (
        6,
        "tournaments",
        include_str!("../../migrations/0006_tournaments.sql"),
    ),
    (
        7,
        "played_at",
        include_str!("../../migrations/0007_played_at.sql"),
    ),
    (8, "learn", include_str!("../../migrations/0008_learn.sql")),
    (
        9,
        "puzzles",
        include_str!("../../migrations/0009_puzzles.sql"),
    ),
    (
        10,
        "leases",
        include_str!("../../migrations/0010_leases.sql"),
    ),
];

/// A handle on the database (cheap to clone).
#[derive(Clone, Debug)]
pub struct Store {
    /// The connection that writes (and may read).
    pub(super) pool: SqlitePool,
    /// Read-only connections, for queries that change nothing (archive pages,
    /// record downloads, analysis progress), so that they never delay a move.
    pub(super) reader: SqlitePool,
}

/// Milliseconds (or any count) as `SQLite`'s integer.
pub(super) fn ms(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// `SQLite`'s integer as a count (negative reads as 0).
pub(super) fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// A stored value that does not read back (a corrupt or foreign database).
pub(super) fn corrupt(what: impl Into<String>) -> sqlx::Error {
    sqlx::Error::Decode(what.into().into())
}

/// How often the write-ahead log is copied back into the database.
const CHECKPOINT_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

/// Copies the write-ahead log into the database file every
/// [`CHECKPOINT_INTERVAL`], in `PASSIVE` mode (it never waits for, or makes
/// wait, a reader or a writer), until the pool is closed.
async fn checkpoints(pool: SqlitePool) {
    let mut tick = tokio::time::interval(CHECKPOINT_INTERVAL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if pool.is_closed() {
            return;
        }
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&pool)
            .await
        {
            if pool.is_closed() {
                return;
            }
            tracing::warn!("checkpoint: {e}");
        }
    }
}

impl Store {
    /// Opens (creating if needed) the database at `path` in WAL mode and applies the migrations.
    ///
    /// # Errors
    /// The file cannot be opened or migrated.
    pub async fn open(path: &Path) -> Result<Store, sqlx::Error> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // In WAL mode NORMAL still commits every transaction before the
            // call returns (a crash of the server loses nothing), but syncs the
            // log to disk at checkpoints rather than at every commit, so a power
            // cut may lose the last moves. See "Durability" in the README.
            .synchronous(SqliteSynchronous::Normal)
            // No checkpoint inside a commit: the move that happened to cross
            // SQLite's 1000-page mark would wait for the whole copy (and every
            // move queued behind it). A background task checkpoints instead.
            .pragma("wal_autocheckpoint", "0")
            .foreign_keys(true);
        // One connection writes: SQLite has a single writer anyway, and
        // writers queued here wait in order, where writers on several
        // connections would meet a locked database and back off in SQLite's
        // busy handler (sleeps of 1, 2, 5, 10 ms...), which showed as a cluster
        // of ~19 ms round trips in the load benchmark.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await?;
        let migrations: Vec<Migration> = MIGRATIONS
            .iter()
            .map(|&(version, name, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(name),
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
        migrator.run(&pool).await?;
        tokio::spawn(checkpoints(pool.clone()));
        // Readers see committed data beside the writer (WAL) and never wait for it.
        let reader = SqlitePoolOptions::new()
            .max_connections(3)
            .connect_with(options.read_only(true))
            .await?;
        Ok(Store { pool, reader })
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
    }
}
