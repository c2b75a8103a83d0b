//! Imported records (`POST /api/import?save=1`): the uploaded bytes as they
//! came, plus the columns the archive lists, who may read them and the
//! dedupe key that finds the same record imported again (also kept for
//! finished games).

use std::fmt;
use std::str::FromStr;

use sqlx::Row;

use super::store::{ms, Store};
use crate::game::clock::TimeControl;
use crate::game::{Side, StartChoice};

/// Who may read an imported record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Visibility {
    /// Anyone; listed in the archive and found by its search.
    #[default]
    Public,
    /// Anyone with the id; not listed.
    Unlisted,
    /// Only the account that imported it.
    Private,
}

impl Visibility {
    /// The protocol's and the database's word.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Unlisted => "unlisted",
            Visibility::Private => "private",
        }
    }

    /// Whether `reader` (an account id, `None` for a guest) may read a
    /// record of this visibility owned by `owner`.
    #[must_use]
    pub fn readable_by(self, owner: Option<i64>, reader: Option<i64>) -> bool {
        match self {
            Visibility::Public | Visibility::Unlisted => true,
            Visibility::Private => owner.is_some() && owner == reader,
        }
    }
}

impl fmt::Display for Visibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A visibility word that is none of `public`, `unlisted`, `private`.
#[derive(Debug, thiserror::Error)]
#[error("visibility must be public, unlisted or private, not {0:?}")]
pub struct BadVisibility(pub String);

impl FromStr for Visibility {
    type Err = BadVisibility;

    fn from_str(s: &str) -> Result<Visibility, BadVisibility> {
        match s {
            "public" => Ok(Visibility::Public),
            "unlisted" => Ok(Visibility::Unlisted),
            "private" => Ok(Visibility::Private),
            other => Err(BadVisibility(other.to_string())),
        }
    }
}

/// A stored record's bytes and who may read them.
#[derive(Debug)]
pub struct StoredSource {
    /// The file's bytes.
    pub source: Vec<u8>,
    /// Who may read it.
    pub visibility: Visibility,
    /// The account that imported it, if one was logged in.
    pub owner_user: Option<i64>,
}

/// A record already in the archive with the same dedupe key.
#[derive(Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// Its id (a game's or a record's).
    pub id: String,
    /// Its visibility (`Public` for a game played here).
    pub visibility: Visibility,
    /// The account that imported it, if any (`None` for a game).
    pub owner_user: Option<i64>,
    /// Its owner token (`None` for a game, or a record imported without one).
    pub owner_token: Option<String>,
}

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
    /// Who may read it.
    pub visibility: Visibility,
    /// The account that imported it, if one was logged in.
    pub owner_user: Option<i64>,
    /// The dedupe key ([`crate::review::dedupe`]).
    pub dedupe_key: &'a str,
    /// The strategy tags ([`crate::review::strategy::tags_text`]).
    pub strategy: &'a str,
}

/// The lower-case name the archive's player filter searches (Unicode, as
/// `SQLite`'s `lower()` folds ASCII only).
#[must_use]
pub fn search_name(name: Option<&str>) -> Option<String> {
    name.map(str::to_lowercase)
}

/// The `visibility` column of a row.
fn visibility_of(r: &sqlx::any::AnyRow) -> Result<Visibility, sqlx::Error> {
    let word: String = r.try_get("visibility")?;
    word.parse()
        .map_err(|e: BadVisibility| sqlx::Error::Decode(Box::new(e)))
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
                reason, plies, owner_token, sente_lc, gote_lc, played_at, visibility, owner_user,
                dedupe_key, strategy)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                $18)",
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
        .bind(r.visibility.name())
        .bind(r.owner_user)
        .bind(r.dedupe_key)
        .bind(r.strategy)
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

    /// The bytes of imported record `id` and who may read them, if it exists.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn record_source(&self, id: &str) -> Result<Option<StoredSource>, sqlx::Error> {
        let row = sqlx::query("SELECT source, visibility, owner_user FROM records WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.reader)
            .await?;
        row.map(|r| {
            Ok(StoredSource {
                source: r.try_get("source")?,
                visibility: visibility_of(&r)?,
                owner_user: r.try_get("owner_user")?,
            })
        })
        .transpose()
    }

    /// The oldest finished game, else the oldest imported record, with the
    /// dedupe key `key` that `reader` (an account id, `None` for a guest) may
    /// read: a game, a public or unlisted record, or a private record of the
    /// reader's own.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn find_duplicate(
        &self,
        key: &str,
        reader: Option<i64>,
    ) -> Result<Option<Duplicate>, sqlx::Error> {
        let game = sqlx::query(
            "SELECT id FROM games WHERE dedupe_key = $1 ORDER BY created_at, id LIMIT 1",
        )
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        if let Some(row) = game {
            return Ok(Some(Duplicate {
                id: row.try_get("id")?,
                visibility: Visibility::Public,
                owner_user: None,
                owner_token: None,
            }));
        }
        let row = sqlx::query(
            "SELECT id, visibility, owner_user, owner_token FROM records
             WHERE dedupe_key = $1 AND (visibility <> 'private' OR owner_user = $2)
             ORDER BY created_at, id LIMIT 1",
        )
        .bind(key)
        .bind(reader)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(Duplicate {
                id: r.try_get("id")?,
                visibility: visibility_of(&r)?,
                owner_user: r.try_get("owner_user")?,
                owner_token: r.try_get("owner_token")?,
            })
        })
        .transpose()
    }

    /// At most `limit` finished games without a dedupe key.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn games_without_key(&self, limit: i64) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE over AND dedupe_key IS NULL ORDER BY id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| r.try_get("id")).collect()
    }

    /// Sets the dedupe key and the strategy tags of game `id`.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn set_game_key(
        &self,
        id: &str,
        key: &str,
        strategy: &str,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE games SET dedupe_key = $1, strategy = $3 WHERE id = $2")
            .bind(key)
            .bind(id)
            .bind(strategy)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// At most `limit` imported records without a dedupe key: ids and bytes.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn records_without_key(
        &self,
        limit: i64,
    ) -> Result<Vec<(String, Vec<u8>)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT id, source FROM records WHERE dedupe_key IS NULL ORDER BY id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("source")?)))
            .collect()
    }

    /// Sets the dedupe key and the strategy tags of imported record `id`.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn set_record_key(
        &self,
        id: &str,
        key: &str,
        strategy: &str,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE records SET dedupe_key = $1, strategy = $3 WHERE id = $2")
            .bind(key)
            .bind(id)
            .bind(strategy)
            .execute(&self.pool)
            .await?;
        Ok(())
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
