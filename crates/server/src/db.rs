//! SQLite storage: one row per game, one per move. Every statement binds its
//! values; no SQL is built from text.
//!
//! The schema lives in `migrations/`, embedded at build time and applied by
//! [`Store::open`] (sqlx's migrator, without its compile-time macros).

use std::borrow::Cow;
use std::path::Path;
use std::str::FromStr;

use shogi_core::{ByColor, Color};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

use crate::clock::Clock;
use crate::protocol::{Reason, Side};

/// The migrations, in order.
const MIGRATIONS: [(i64, &str, &str); 3] = [
    (1, "games", include_str!("../migrations/0001_games.sql")),
    (2, "archive", include_str!("../migrations/0002_archive.sql")),
    (
        3,
        "annotations",
        include_str!("../migrations/0003_annotations.sql"),
    ),
];

/// A handle on the database (cheap to clone).
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
    reader: SqlitePool,
}

/// A game as created.
#[derive(Debug)]
pub struct NewGame<'a> {
    /// The game id.
    pub id: &'a str,
    /// `ai`, `friend` or `local`.
    pub mode: &'a str,
    /// The start position.
    pub start_sfen: &'a str,
    /// The settings as JSON.
    pub settings: &'a str,
    /// The seats' tokens.
    pub tokens: ByColor<Option<&'a str>>,
    /// The invite code, if any.
    pub invite: Option<&'a str>,
    /// The full clocks, if any.
    pub clocks: Option<ByColor<Clock>>,
    /// Whether the clock runs from the start (both seats taken).
    pub clock_started: bool,
}

/// A game as stored.
#[derive(Debug)]
pub struct StoredGame {
    /// The mode.
    pub mode: String,
    /// The start position.
    pub start_sfen: String,
    /// The settings as JSON.
    pub settings: String,
    /// The seats' tokens.
    pub tokens: ByColor<Option<String>>,
    /// The unused invite code.
    pub invite: Option<String>,
    /// Main time and periods left per side.
    pub clock_values: ByColor<(u64, u32)>,
    /// Whether the clock runs.
    pub clock_started: bool,
    /// Time used on the current turn when the server stopped.
    pub turn_used_ms: u64,
    /// The ending, if the game is over.
    pub ending: Option<(Option<Color>, Reason)>,
    /// The moves in USI.
    pub moves: Vec<String>,
}

/// What one move changes.
#[derive(Debug)]
pub struct MoveRecord<'a> {
    /// 1 for the first move.
    pub ply: u32,
    /// The move in USI.
    pub usi: &'a str,
    /// Time used on it.
    pub used_ms: u64,
    /// Who made it.
    pub mover: Color,
    /// Both clocks after it.
    pub clocks: Option<ByColor<Clock>>,
    /// The ending it caused.
    pub ending: Option<(Option<Color>, Reason)>,
}

fn side_name(c: Color) -> &'static str {
    Side::from(c).name()
}

fn ms(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

fn clock_values(clocks: Option<ByColor<Clock>>) -> [i64; 4] {
    clocks.map_or([0; 4], |c| {
        [
            ms(c[Color::Sente].main_ms),
            i64::from(c[Color::Sente].periods_left),
            ms(c[Color::Gote].main_ms),
            i64::from(c[Color::Gote].periods_left),
        ]
    })
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

    /// The connection that writes (and may read).
    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Read-only connections, for queries that change nothing (archive pages,
    /// record downloads, analysis progress), so that they never delay a move.
    pub(crate) fn reader(&self) -> &SqlitePool {
        &self.reader
    }

    /// Closes the pool, waiting for the connections to finish.
    pub async fn close(&self) {
        self.reader.close().await;
        self.pool.close().await;
    }

    /// Stores a new game.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn insert_game(
        &self,
        g: &NewGame<'_>,
        created_at_ms: u64,
    ) -> Result<(), sqlx::Error> {
        let [sm, sp, gm, gp] = clock_values(g.clocks);
        sqlx::query(
            "INSERT INTO games (id, created_at, mode, start_sfen, settings, sente_token, gote_token,
                invite, sente_main_ms, sente_periods, gote_main_ms, gote_periods, clock_started)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(g.id)
        .bind(ms(created_at_ms))
        .bind(g.mode)
        .bind(g.start_sfen)
        .bind(g.settings)
        .bind(g.tokens[Color::Sente])
        .bind(g.tokens[Color::Gote])
        .bind(g.invite)
        .bind(sm)
        .bind(sp)
        .bind(gm)
        .bind(gp)
        .bind(g.clock_started)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Stores a move, the clocks after it and the ending it caused, in one transaction.
    ///
    /// # Errors
    /// The database refused it; nothing is stored then.
    pub async fn record_move(&self, id: &str, m: &MoveRecord<'_>) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let (main_after, periods_after) = m.clocks.map_or((0, 0), |c| {
            (ms(c[m.mover].main_ms), i64::from(c[m.mover].periods_left))
        });
        sqlx::query(
            "INSERT INTO moves (game_id, ply, usi, used_ms, main_ms_after, periods_after)
             VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(id)
        .bind(i64::from(m.ply))
        .bind(m.usi)
        .bind(ms(m.used_ms))
        .bind(main_after)
        .bind(periods_after)
        .execute(&mut *tx)
        .await?;
        let [sm, sp, gm, gp] = clock_values(m.clocks);
        let (over, winner, reason) = ending_values(m.ending);
        sqlx::query(
            "UPDATE games SET sente_main_ms = ?, sente_periods = ?, gote_main_ms = ?,
                gote_periods = ?, turn_used_ms = 0, over = ?, winner = ?, reason = ?
             WHERE id = ?",
        )
        .bind(sm)
        .bind(sp)
        .bind(gm)
        .bind(gp)
        .bind(over)
        .bind(winner)
        .bind(reason)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await
    }

    /// Stores an ending that no move caused (resignation, time, declaration, count).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn finish(
        &self,
        id: &str,
        ending: (Option<Color>, Reason),
        clocks: Option<ByColor<Clock>>,
    ) -> Result<(), sqlx::Error> {
        let [sm, sp, gm, gp] = clock_values(clocks);
        let (over, winner, reason) = ending_values(Some(ending));
        sqlx::query(
            "UPDATE games SET sente_main_ms = ?, sente_periods = ?, gote_main_ms = ?,
                gote_periods = ?, over = ?, winner = ?, reason = ? WHERE id = ?",
        )
        .bind(sm)
        .bind(sp)
        .bind(gm)
        .bind(gp)
        .bind(over)
        .bind(winner)
        .bind(reason)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Seats the invitee: stores its token, spends the invite and starts the clock.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn join(&self, id: &str, side: Color, token: &str) -> Result<(), sqlx::Error> {
        let sql = match side {
            Color::Sente => {
                "UPDATE games SET sente_token = ?, invite = NULL, clock_started = 1 WHERE id = ?"
            }
            Color::Gote => {
                "UPDATE games SET gote_token = ?, invite = NULL, clock_started = 1 WHERE id = ?"
            }
        };
        sqlx::query(sql)
            .bind(token)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores the time used so far on the current turn (at shutdown).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn save_turn_used(&self, id: &str, used_ms: u64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE games SET turn_used_ms = ? WHERE id = ?")
            .bind(ms(used_ms))
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The ids of the games not over.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn unfinished(&self) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query("SELECT id FROM games WHERE over = 0 ORDER BY created_at")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| r.try_get::<String, _>("id")).collect()
    }

    /// A stored game with its moves, if it exists.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, sqlx::Error> {
        // On a reader, so that loading never waits behind moves being written;
        // one read transaction, so that the game row and its moves are of the
        // same moment (every move is committed before it is shown).
        let mut tx = self.reader.begin().await?;
        let Some(r) = sqlx::query("SELECT * FROM games WHERE id = ?")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(None);
        };
        let moves = sqlx::query("SELECT usi FROM moves WHERE game_id = ? ORDER BY ply")
            .bind(id)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|m| m.try_get::<String, _>("usi"))
            .collect::<Result<Vec<_>, _>>()?;
        let over: bool = r.try_get("over")?;
        let ending = if over {
            let winner: Option<String> = r.try_get("winner")?;
            let reason: Option<String> = r.try_get("reason")?;
            let winner = winner
                .and_then(|w| Side::from_str(&w).ok())
                .map(Color::from);
            let reason = reason
                .and_then(|r| Reason::from_str(&r).ok())
                .unwrap_or(Reason::Resign);
            Some((winner, reason))
        } else {
            None
        };
        let periods = |name: &str| -> Result<u32, sqlx::Error> {
            Ok(u32::try_from(r.try_get::<i64, _>(name)?).unwrap_or(0))
        };
        Ok(Some(StoredGame {
            mode: r.try_get("mode")?,
            start_sfen: r.try_get("start_sfen")?,
            settings: r.try_get("settings")?,
            tokens: ByColor::new(r.try_get("sente_token")?, r.try_get("gote_token")?),
            invite: r.try_get("invite")?,
            clock_values: ByColor::new(
                (
                    to_u64(r.try_get("sente_main_ms")?),
                    periods("sente_periods")?,
                ),
                (to_u64(r.try_get("gote_main_ms")?), periods("gote_periods")?),
            ),
            clock_started: r.try_get("clock_started")?,
            turn_used_ms: to_u64(r.try_get("turn_used_ms")?),
            ending,
            moves,
        }))
    }
}

fn ending_values(
    ending: Option<(Option<Color>, Reason)>,
) -> (bool, Option<&'static str>, Option<&'static str>) {
    match ending {
        None => (false, None, None),
        Some((winner, reason)) => (true, winner.map(side_name), Some(reason.name())),
    }
}
