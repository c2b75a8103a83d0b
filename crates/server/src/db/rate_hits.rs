//! Rate limits shared by several instances: what each kind of request and
//! key was let through, when, and how much (`crate::limits::rates` decides; this
//! stores and reads, all or nothing).

use sqlx::Row;

use super::store::{advisory_key, ms, to_u64, Dialect, Store};

/// The first key of the PostgreSQL advisory locks taken on a kind and key
/// (the second is a hash of both), apart from the events' locks.
const RATE_LOCK_CLASS: i32 = 0x5347_5200;

/// One count asked for: `amount` of `kind` by `key`, looked at over the
/// `window_ms` before now.
#[derive(Clone, Copy, Debug)]
pub struct RateTake<'a> {
    /// The kind of request, as a word (`games`, `login_name`...).
    pub kind: &'a str,
    /// Whose: an address's key, a name's key.
    pub key: &'a str,
    /// How much (1, or bytes).
    pub amount: u64,
    /// How far back counts.
    pub window_ms: u64,
}

/// The second key of a take's lock: a hash of its kind and key.
fn lock_key(take: &RateTake<'_>) -> i32 {
    advisory_key(take.kind.bytes().chain([0]).chain(take.key.bytes()))
}

impl Store {
    /// Counts `takes` at `now_ms` if `decide` lets them through, as one
    /// transaction: `decide` is given, for each take, what was let through
    /// for its kind and key within its window, `(at_ms, amount)` oldest
    /// first, and answers `None` to store them all or `Some(refusal)` to
    /// store none. The counts of other instances are read after theirs are
    /// committed: on PostgreSQL the transaction holds an advisory lock per
    /// kind and key (taken in one order, so two never wait for each other);
    /// on `SQLite` it writes first, which takes the database's one write
    /// lock before it reads.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn take_rate<R: Send>(
        &self,
        takes: &[RateTake<'_>],
        now_ms: u64,
        decide: impl FnOnce(&[Vec<(u64, u64)>]) -> Option<R> + Send,
    ) -> Result<Option<R>, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        if self.dialect == Dialect::Postgres {
            let mut keys: Vec<i32> = takes.iter().map(lock_key).collect();
            keys.sort_unstable();
            keys.dedup();
            for key in keys {
                sqlx::query("SELECT 1 FROM pg_advisory_xact_lock($1, $2)")
                    .bind(RATE_LOCK_CLASS)
                    .bind(key)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        for t in takes {
            sqlx::query("INSERT INTO rate_hits (kind, key, at_ms, amount) VALUES ($1, $2, $3, $4)")
                .bind(t.kind)
                .bind(t.key)
                .bind(ms(now_ms))
                .bind(ms(t.amount))
                .execute(&mut *tx)
                .await?;
        }
        let mut seen = Vec::with_capacity(takes.len());
        for t in takes {
            let rows = sqlx::query(
                "SELECT at_ms, amount FROM rate_hits
                 WHERE kind = $1 AND key = $2 AND at_ms >= $3 ORDER BY at_ms",
            )
            .bind(t.kind)
            .bind(t.key)
            // In the window: at + window > now, as the in-memory count has it.
            .bind(ms((now_ms + 1).saturating_sub(t.window_ms)))
            .fetch_all(&mut *tx)
            .await?;
            let mut hits: Vec<(u64, u64)> = rows
                .iter()
                .map(|r| Ok((to_u64(r.try_get(0)?), to_u64(r.try_get(1)?))))
                .collect::<Result<_, sqlx::Error>>()?;
            // Without the rows this call has just written.
            for own in takes.iter().filter(|o| o.kind == t.kind && o.key == t.key) {
                if let Some(i) = hits.iter().rposition(|&h| h == (now_ms, own.amount)) {
                    hits.remove(i);
                }
            }
            seen.push(hits);
        }
        match decide(&seen) {
            None => {
                tx.commit().await?;
                Ok(None)
            }
            refusal => {
                tx.rollback().await?;
                Ok(refusal)
            }
        }
    }

    /// Deletes what was let through before `before_ms` (older than every
    /// window); how many rows.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn forget_rate_hits(&self, before_ms: u64) -> Result<u64, sqlx::Error> {
        let done = sqlx::query("DELETE FROM rate_hits WHERE at_ms < $1")
            .bind(ms(before_ms))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
