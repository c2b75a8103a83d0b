//! The instances sharing the database and the leases of live games: who
//! holds a game's room, until when, and at which epoch.
//!
//! The statements are written for both databases (`$1` placeholders,
//! `INSERT ... ON CONFLICT ... DO UPDATE ... WHERE ... RETURNING`). Times are
//! Unix milliseconds from the instances' clocks; correctness does not rest
//! on them (the epoch fences writes), only how soon a dead instance's games
//! are taken over.

use sqlx::Row;

use super::store::{in_chunks, ms, Dialect, Store};

/// Who holds a game's lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseHolder {
    /// The instance's id.
    pub instance_id: String,
    /// Where other instances reach it.
    pub address: String,
    /// The lease's epoch.
    pub epoch: i64,
}

/// What a room's writes are fenced by: its instance and the epoch of the
/// lease it holds. A write carrying a fence is stored only while that
/// instance still holds the game's lease at that epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The writing instance.
    pub instance_id: String,
    /// The epoch of its lease.
    pub epoch: i64,
}

/// The epoch of a game's first lease.
pub const FIRST_EPOCH: i64 = 1;

/// The lease a new game is stored with ([`NewGame::lease`](super::NewGame::lease)):
/// its instance holds it from the start, at [`FIRST_EPOCH`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstLease<'a> {
    /// The instance that creates the game.
    pub instance_id: &'a str,
    /// Until when (Unix milliseconds), renewed from then on as every lease.
    pub until_ms: u64,
}

impl FirstLease<'_> {
    /// The fence of the writes made under this lease.
    #[must_use]
    pub fn fence(&self) -> Fence {
        Fence {
            instance_id: self.instance_id.to_owned(),
            epoch: FIRST_EPOCH,
        }
    }
}

/// The error of a write whose fence no longer holds: another instance took
/// the game over.
#[must_use]
pub fn fenced_out(game_id: &str) -> sqlx::Error {
    sqlx::Error::Protocol(format!(
        "game {game_id}: this instance no longer holds its lease"
    ))
}

/// Checks `fence` for game `game_id` inside the transaction of `conn`.
///
/// It is an `UPDATE` that changes nothing rather than a `SELECT`: in
/// PostgreSQL it locks the lease row until the transaction ends, so another
/// instance taking the lease over waits for this write to commit (and then
/// restores the game with it) instead of slipping in between the check and
/// the commit. `SQLite` has one writer at a time anyway.
///
/// # Errors
/// [`fenced_out`] if the lease changed hands; database errors.
pub(super) async fn check_fence(
    conn: &mut sqlx::AnyConnection,
    game_id: &str,
    fence: &Fence,
) -> Result<(), sqlx::Error> {
    let done = sqlx::query(
        "UPDATE leases SET epoch = epoch WHERE game_id = $1 AND instance_id = $2 AND epoch = $3",
    )
    .bind(game_id)
    .bind(&fence.instance_id)
    .bind(fence.epoch)
    .execute(conn)
    .await?;
    if done.rows_affected() == 1 {
        Ok(())
    } else {
        Err(fenced_out(game_id))
    }
}

/// Checks several fences at once, as [`check_fence`] checks one: one
/// statement, which fails if any of them no longer holds (without saying
/// which: a group commit that fails is tried again write by write).
///
/// On PostgreSQL the lease rows are locked in the order of their game ids,
/// the order [`Store::renew_leases`] locks them in. Locked in any other
/// order (an `UPDATE` takes them in the order of its plan: the batch's
/// order through the key, the table's order in a scan), a group commit and
/// the renewal of the same instance's leases could each hold a row the
/// other waits for: PostgreSQL then finds the deadlock after its
/// `deadlock_timeout`, a second, and aborts one of them. With two instances
/// under load that held about one move in a hundred for up to a second.
///
/// # Errors
/// [`fenced_out`] (naming the first game) if a lease changed hands;
/// database errors.
pub(super) async fn check_fences(
    conn: &mut sqlx::AnyConnection,
    dialect: Dialect,
    fences: &[(&str, &Fence)],
) -> Result<(), sqlx::Error> {
    let mut sorted = fences.to_vec();
    sorted.sort_unstable_by(|a, b| {
        (a.0, &a.1.instance_id, a.1.epoch).cmp(&(b.0, &b.1.instance_id, b.1.epoch))
    });
    sorted.dedup();
    for rows in in_chunks(&sorted) {
        let (head, tail) = match dialect {
            Dialect::Postgres => (
                "SELECT game_id FROM leases WHERE (game_id, instance_id, epoch) IN (VALUES ",
                ") ORDER BY game_id FOR NO KEY UPDATE",
            ),
            // One writer at a time, and no row locks.
            Dialect::Sqlite => (
                "UPDATE leases SET epoch = epoch WHERE (game_id, instance_id, epoch) IN (VALUES ",
                ")",
            ),
        };
        let sql = dialect.values_sql(head, 3, rows.len(), tail);
        let mut q = sqlx::query(&sql);
        for &(id, fence) in rows {
            q = q.bind(id).bind(&fence.instance_id).bind(fence.epoch);
        }
        let held = match dialect {
            Dialect::Postgres => q.fetch_all(&mut *conn).await?.len() as u64,
            Dialect::Sqlite => q.execute(&mut *conn).await?.rows_affected(),
        };
        if held != rows.len() as u64 {
            return Err(fenced_out(rows[0].0));
        }
    }
    Ok(())
}

impl Store {
    /// The unfinished games whose lease is free or expired at `now_ms` (or
    /// that never had one): the games of a dead instance, waiting for
    /// another to take them over.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn orphaned_games(&self, now_ms: u64) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id
             WHERE g.over = $1 AND (l.game_id IS NULL OR l.expires_at <= $2)",
        )
        .bind(false)
        .bind(ms(now_ms))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| r.try_get("id")).collect()
    }

    /// The instances seen (renewing) since `since_ms`: id and address, by id.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn live_instances(
        &self,
        since_ms: u64,
    ) -> Result<Vec<(String, String)>, sqlx::Error> {
        let rows = sqlx::query("SELECT id, address FROM instances WHERE seen_at > $1 ORDER BY id")
            .bind(ms(since_ms))
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("address")?)))
            .collect()
    }

    /// Records (or updates) instance `id`, reachable at `address`, as seen at `now_ms`.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn register_instance(
        &self,
        id: &str,
        address: &str,
        now_ms: u64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO instances (id, address, seen_at) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO UPDATE SET address = excluded.address, seen_at = excluded.seen_at",
        )
        .bind(id)
        .bind(address)
        .bind(ms(now_ms))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Takes game `game_id`'s lease for `instance_id` until `until_ms` if it
    /// is free, expired at `now_ms`, or already this instance's; the epoch
    /// of the lease taken (one more than the last), or `None` if another
    /// instance holds it.
    ///
    /// # Errors
    /// The database refused it (for example, no such game).
    pub async fn acquire_lease(
        &self,
        game_id: &str,
        instance_id: &str,
        now_ms: u64,
        until_ms: u64,
    ) -> Result<Option<i64>, sqlx::Error> {
        let row = sqlx::query(
            "INSERT INTO leases (game_id, instance_id, epoch, expires_at) VALUES ($1, $2, $5, $3)
             ON CONFLICT (game_id) DO UPDATE
                SET instance_id = excluded.instance_id, epoch = leases.epoch + 1,
                    expires_at = excluded.expires_at
                WHERE leases.expires_at <= $4 OR leases.instance_id = excluded.instance_id
             RETURNING epoch",
        )
        .bind(game_id)
        .bind(instance_id)
        .bind(ms(until_ms))
        .bind(ms(now_ms))
        .bind(FIRST_EPOCH)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| r.try_get("epoch")).transpose()
    }

    /// Extends every lease `instance_id` holds to `until_ms` and notes the
    /// instance as seen at `now_ms`; the number of leases renewed.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn renew_leases(
        &self,
        instance_id: &str,
        now_ms: u64,
        until_ms: u64,
    ) -> Result<u64, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE instances SET seen_at = $1 WHERE id = $2")
            .bind(ms(now_ms))
            .bind(instance_id)
            .execute(&mut *tx)
            .await?;
        if self.dialect == Dialect::Postgres {
            // The rows locked in the order of their game ids, as a group
            // commit's fence check locks them ([`check_fences`]), so that the
            // two never wait for each other.
            sqlx::query(
                "SELECT game_id FROM leases WHERE instance_id = $1 AND expires_at > 0
                 ORDER BY game_id FOR NO KEY UPDATE",
            )
            .bind(instance_id)
            .fetch_all(&mut *tx)
            .await?;
        }
        // A released lease (expiry 0) stays released.
        let done = sqlx::query(
            "UPDATE leases SET expires_at = $1 WHERE instance_id = $2 AND expires_at > 0",
        )
        .bind(ms(until_ms))
        .bind(instance_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(done.rows_affected())
    }

    /// Gives up game `game_id`'s lease if `instance_id` still holds it at
    /// `epoch` (a finished game, a room closed); true if it did. The row
    /// stays, expired, so that the next holder's epoch is higher still.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn release_lease(
        &self,
        game_id: &str,
        instance_id: &str,
        epoch: i64,
    ) -> Result<bool, sqlx::Error> {
        let done = sqlx::query(
            "UPDATE leases SET expires_at = 0
             WHERE game_id = $1 AND instance_id = $2 AND epoch = $3",
        )
        .bind(game_id)
        .bind(instance_id)
        .bind(epoch)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Whether `instance_id` still holds game `game_id`'s lease at `epoch`
    /// (expired or not: nobody has taken it over). A room asks before it
    /// writes; the write itself must check it in its transaction too.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn holds_lease(
        &self,
        game_id: &str,
        instance_id: &str,
        epoch: i64,
    ) -> Result<bool, sqlx::Error> {
        let row = sqlx::query(
            "SELECT 1 AS held FROM leases WHERE game_id = $1 AND instance_id = $2 AND epoch = $3",
        )
        .bind(game_id)
        .bind(instance_id)
        .bind(epoch)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Who holds game `game_id`'s lease unexpired at `now_ms`, if anyone.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn lease_holder(
        &self,
        game_id: &str,
        now_ms: u64,
    ) -> Result<Option<LeaseHolder>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT l.instance_id, i.address, l.epoch FROM leases l
             JOIN instances i ON i.id = l.instance_id
             WHERE l.game_id = $1 AND l.expires_at > $2",
        )
        .bind(game_id)
        .bind(ms(now_ms))
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(LeaseHolder {
                instance_id: r.try_get("instance_id")?,
                address: r.try_get("address")?,
                epoch: r.try_get("epoch")?,
            })
        })
        .transpose()
    }
}
