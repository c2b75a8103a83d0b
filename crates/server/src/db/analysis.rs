//! Analyses of games and imported records: their state and the evaluations
//! found so far, one row per id.

use sqlx::Row;

use super::store::{corrupt, ms, to_u64, Store};
use crate::review::eval::{AnalysisStatus, Eval};

/// An analysis as stored.
#[derive(Debug)]
pub struct AnalysisRow {
    /// Queued, running or done.
    pub status: AnalysisStatus,
    /// Positions to evaluate, less one (the number of moves).
    pub total_plies: u64,
    /// Moves whose position after them is evaluated.
    pub done_plies: u64,
    /// The evaluations, one per position from the start.
    pub evals: Vec<Eval>,
}

impl Store {
    /// Forgets analyses that a stop interrupted (they can be asked for again).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn reset_unfinished_analyses(&self) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM analyses WHERE status <> 'done'")
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Queues the analysis of `id` with `total_plies` moves, unless it is
    /// queued, running or done already (a finished analysis of a game that has
    /// grown since is queued again); says whether it queued it.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn queue_analysis(
        &self,
        id: &str,
        total_plies: usize,
        now_ms: u64,
    ) -> Result<bool, sqlx::Error> {
        let total = ms(u64::try_from(total_plies).unwrap_or(u64::MAX));
        let inserted = sqlx::query(
            "INSERT INTO analyses (id, status, total_plies, done_plies, evals, updated_at)
             VALUES ($1, 'queued', $2, 0, '[]', $3) ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(total)
        .bind(ms(now_ms))
        .execute(&self.pool)
        .await?
        .rows_affected();
        if inserted > 0 {
            return Ok(true);
        }
        let restarted = sqlx::query(
            "UPDATE analyses SET status = 'queued', total_plies = $1, done_plies = 0, evals = '[]',
                updated_at = $2 WHERE id = $3 AND status = 'done' AND total_plies <> $4",
        )
        .bind(total)
        .bind(ms(now_ms))
        .bind(id)
        .bind(total)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(restarted > 0)
    }

    /// Forgets the analysis of `id`.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn forget_analysis(&self, id: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM analyses WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores the progress of the analysis of `id`.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn save_analysis(
        &self,
        id: &str,
        status: AnalysisStatus,
        evals: &[Eval],
        now_ms: u64,
    ) -> Result<(), sqlx::Error> {
        let text = serde_json::to_string(evals).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        let done = ms(u64::try_from(evals.len().saturating_sub(1)).unwrap_or(0));
        sqlx::query(
            "UPDATE analyses SET status = $1, done_plies = $2, evals = $3, updated_at = $4 WHERE id = $5",
        )
        .bind(status.name())
        .bind(done)
        .bind(text)
        .bind(ms(now_ms))
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The analysis of `id`, if one was asked for.
    ///
    /// # Errors
    /// The database refused the query, or a stored value does not read back.
    pub async fn analysis(&self, id: &str) -> Result<Option<AnalysisRow>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT status, total_plies, done_plies, evals FROM analyses WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.reader)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let evals: String = row.try_get("evals")?;
        let status: String = row.try_get("status")?;
        Ok(Some(AnalysisRow {
            status: status
                .parse()
                .map_err(|()| corrupt(format!("analysis {id}: status {status:?}")))?,
            total_plies: to_u64(row.try_get("total_plies")?),
            done_plies: to_u64(row.try_get("done_plies")?),
            evals: serde_json::from_str(&evals).unwrap_or_default(),
        }))
    }
}
