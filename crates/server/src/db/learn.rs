//! The learn pages' progress of an account: the exercises it has solved.

use sqlx::Row;

use super::store::{ms, to_u64, Store};

impl Store {
    /// The exercises `user_id` has solved, with when, by id.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn learn_done(&self, user_id: i64) -> Result<Vec<(String, u64)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT exercise, done_at FROM learn_progress WHERE user_id = $1 ORDER BY exercise",
        )
        .bind(user_id)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("exercise")?, to_u64(r.try_get("done_at")?))))
            .collect()
    }

    /// Records `exercises` as solved by `user_id` at `at_ms`; those already
    /// recorded keep their first time.
    ///
    /// # Errors
    /// The database refused it (nothing is recorded then).
    pub async fn add_learn_done(
        &self,
        user_id: i64,
        exercises: &[String],
        at_ms: u64,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        for e in exercises {
            sqlx::query(
                "INSERT INTO learn_progress (user_id, exercise, done_at) VALUES ($1, $2, $3)
                 ON CONFLICT (user_id, exercise) DO NOTHING",
            )
            .bind(user_id)
            .bind(e)
            .bind(ms(at_ms))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await
    }
}
