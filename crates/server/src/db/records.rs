//! Imported records (`POST /api/import?save=1`): the uploaded bytes as they
//! came, plus the columns the archive lists.

use sqlx::Row;

use super::store::{ms, Store};
use crate::game::clock::TimeControl;
use crate::game::{Side, StartChoice};

/// A record to store.
#[derive(Debug)]
pub struct NewRecord<'a> {
    /// The id (the same space as game ids).
    pub id: &'a str,
    /// When it was imported (Unix milliseconds).
    pub created_at_ms: u64,
    /// The file's bytes.
    pub source: &'a [u8],
    /// Sente's name.
    pub sente: Option<&'a str>,
    /// Gote's name.
    pub gote: Option<&'a str>,
    /// The handicap, or custom.
    pub handicap: StartChoice,
    /// The time control.
    pub time: Option<TimeControl>,
    /// The winner.
    pub winner: Option<Side>,
    /// Why it ended, in the protocol's words (`None`: the record just stops).
    pub reason: Option<&'a str>,
    /// The number of moves.
    pub plies: usize,
    /// The day its header says it was played (Unix milliseconds of midnight UTC), if it says.
    pub played_at_ms: Option<i64>,
    /// The token that allows annotating it.
    pub owner_token: &'a str,
}

/// The lower-case name the archive's player filter searches (Unicode, as
/// `SQLite`'s `lower()` folds ASCII only).
#[must_use]
pub fn search_name(name: Option<&str>) -> Option<String> {
    name.map(str::to_lowercase)
}

impl Store {
    /// Stores an imported record.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn insert_record(&self, r: &NewRecord<'_>) -> Result<(), sqlx::Error> {
        let time_json = r
            .time
            .map(|t| serde_json::to_string(&t))
            .transpose()
            .map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        sqlx::query(
            "INSERT INTO records (id, created_at, source, sente, gote, handicap, time_json, winner,
                reason, plies, owner_token, sente_lc, gote_lc, played_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        )
        .bind(r.id)
        .bind(ms(r.created_at_ms))
        .bind(r.source)
        .bind(r.sente)
        .bind(r.gote)
        .bind(r.handicap.to_string())
        .bind(time_json)
        .bind(r.winner.map(Side::name))
        .bind(r.reason)
        .bind(ms(u64::try_from(r.plies).unwrap_or(u64::MAX)))
        .bind(r.owner_token)
        .bind(search_name(r.sente))
        .bind(search_name(r.gote))
        .bind(r.played_at_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Sets the length and ending the archive lists for imported record `id`
    /// once its main line changed (a variation promoted, moves added), and
    /// forgets its analysis (of the old line).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn set_record_line(
        &self,
        id: &str,
        plies: usize,
        winner: Option<Side>,
        reason: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE records SET plies = $1, winner = $2, reason = $3 WHERE id = $4")
            .bind(ms(u64::try_from(plies).unwrap_or(u64::MAX)))
            .bind(winner.map(Side::name))
            .bind(reason)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM analyses WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The bytes of imported record `id`, if it exists.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn record_source(&self, id: &str) -> Result<Option<Vec<u8>>, sqlx::Error> {
        let row = sqlx::query("SELECT source FROM records WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.reader)
            .await?;
        row.map(|r| r.try_get("source")).transpose()
    }

    /// The owner token of imported record `id`: `None` if there is no such
    /// record, `Some(None)` if it was imported without one.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn record_owner(&self, id: &str) -> Result<Option<Option<String>>, sqlx::Error> {
        let row = sqlx::query("SELECT owner_token FROM records WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| r.try_get("owner_token")).transpose()
    }

    /// Fills the lower-case names of records imported before they were kept
    /// (migration 3); returns how many records it changed.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn fill_search_names(&self) -> Result<usize, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT id, sente, gote FROM records
             WHERE (sente IS NOT NULL AND sente_lc IS NULL) OR (gote IS NOT NULL AND gote_lc IS NULL)",
        )
        .fetch_all(&self.pool)
        .await?;
        for r in &rows {
            let sente: Option<String> = r.try_get("sente")?;
            let gote: Option<String> = r.try_get("gote")?;
            sqlx::query("UPDATE records SET sente_lc = $1, gote_lc = $2 WHERE id = $3")
                .bind(search_name(sente.as_deref()))
                .bind(search_name(gote.as_deref()))
                .bind(r.try_get::<String, _>("id")?)
                .execute(&self.pool)
                .await?;
        }
        Ok(rows.len())
    }
}
