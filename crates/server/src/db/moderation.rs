//! The moderators' tables (`reports`, `moderation_log`) and what their
//! actions change: an account's role and whether it is disabled, a game's
//! rating effect annulled with the ratings of its class recomputed. Each
//! action is written in one transaction with its line of the log.

use shogi_core::{ByColor, Color};
use sqlx::any::AnyRow;
use sqlx::Row;

use super::store::{ms, Store};
use crate::accounts::role::{Role, UnknownRole};
use crate::ratings::replay::{RatedGame, Replayed};
use crate::ratings::TimeClass;

/// A line of the moderators' log to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogEntry<'a> {
    /// The moderator's account (`None`: the command line).
    pub moderator: Option<i64>,
    /// Its name.
    pub moderator_name: &'a str,
    /// What was done: `disable`, `enable`, `role`, `annul`, `hide_chat`,
    /// `close_report`.
    pub action: &'a str,
    /// On what: an account's name, a game's id, a report's number.
    pub target: &'a str,
    /// Why, in the moderator's words.
    pub reason: &'a str,
    /// When (Unix milliseconds).
    pub at_ms: u64,
}

/// A stored line of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// Its number.
    pub id: i64,
    /// Who.
    pub moderator_name: String,
    /// What (as [`LogEntry::action`]).
    pub action: String,
    /// On what.
    pub target: String,
    /// Why.
    pub reason: String,
    /// When (Unix milliseconds).
    pub at_ms: u64,
}

/// An account as a moderator finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    /// The row id.
    pub id: i64,
    /// The name.
    pub name: String,
    /// Its role.
    pub role: Role,
    /// When it was disabled, if it is.
    pub disabled_at_ms: Option<u64>,
    /// When it was created.
    pub created_at_ms: u64,
}

/// A report to store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewReport<'a> {
    /// Who reports.
    pub reporter: i64,
    /// Their name.
    pub reporter_name: &'a str,
    /// The game.
    pub game_id: &'a str,
    /// The chat message reported, if one is: its number, its writer's name
    /// and its text.
    pub chat: Option<(u32, &'a str, &'a str)>,
    /// Why.
    pub reason: &'a str,
    /// When.
    pub at_ms: u64,
}

/// A stored report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    /// Its number.
    pub id: i64,
    /// Who reported it.
    pub reporter_name: String,
    /// The game.
    pub game_id: String,
    /// The chat message's number, writer and text, if it is about one.
    pub chat: Option<(u32, String, String)>,
    /// Why.
    pub reason: String,
    /// When.
    pub at_ms: u64,
    /// When a moderator closed it, and who.
    pub closed: Option<(u64, String)>,
}

fn millis(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

fn account_row(row: &AnyRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        role: row
            .try_get::<String, _>("role")?
            .parse()
            .map_err(|e: UnknownRole| sqlx::Error::Decode(e.into()))?,
        disabled_at_ms: row.try_get::<Option<i64>, _>("disabled_at")?.map(millis),
        created_at_ms: millis(row.try_get("created_at")?),
    })
}

fn report_row(row: &AnyRow) -> Result<ReportRow, sqlx::Error> {
    let n: Option<i64> = row.try_get("chat_n")?;
    let chat = match n {
        Some(n) => Some((
            u32::try_from(n).unwrap_or(0),
            row.try_get::<Option<String>, _>("chat_from")?
                .unwrap_or_default(),
            row.try_get::<Option<String>, _>("chat_text")?
                .unwrap_or_default(),
        )),
        None => None,
    };
    let closed_at: Option<i64> = row.try_get("closed_at")?;
    let closed_by: Option<String> = row.try_get("closed_by")?;
    Ok(ReportRow {
        id: row.try_get("id")?,
        reporter_name: row.try_get("reporter_name")?,
        game_id: row.try_get("game_id")?,
        chat,
        reason: row.try_get("reason")?,
        at_ms: millis(row.try_get("created_at")?),
        closed: closed_at.map(|at| (millis(at), closed_by.unwrap_or_default())),
    })
}

async fn log(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    e: &LogEntry<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO moderation_log (moderator, moderator_name, action, target, reason, at)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(e.moderator)
    .bind(e.moderator_name)
    .bind(e.action)
    .bind(e.target)
    .bind(e.reason)
    .bind(ms(e.at_ms))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// Up to `limit` accounts whose case-folded name begins with `key`, by name.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn find_accounts(
        &self,
        key: &str,
        limit: u32,
    ) -> Result<Vec<AccountRow>, sqlx::Error> {
        sqlx::query(
            "SELECT id, name, role, disabled_at, created_at FROM users
             WHERE substr(name_key, 1, length($1)) = $1 ORDER BY name_key LIMIT $2",
        )
        .bind(key)
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?
        .iter()
        .map(account_row)
        .collect()
    }

    /// The account whose case-folded name is `key`, as a moderator sees it.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn account_by_key(&self, key: &str) -> Result<Option<AccountRow>, sqlx::Error> {
        sqlx::query("SELECT id, name, role, disabled_at, created_at FROM users WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(account_row)
            .transpose()
    }

    /// Disables account `user` as of `at` (its sessions are deleted) or
    /// enables it again (`None`), and logs it, in one transaction.
    ///
    /// # Errors
    /// The database refused it (nothing changed).
    pub async fn set_disabled(
        &self,
        user: i64,
        disabled_at_ms: Option<u64>,
        entry: &LogEntry<'_>,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE users SET disabled_at = $1 WHERE id = $2")
            .bind(disabled_at_ms.map(ms))
            .bind(user)
            .execute(&mut *tx)
            .await?;
        if disabled_at_ms.is_some() {
            sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                .bind(user)
                .execute(&mut *tx)
                .await?;
        }
        log(&mut tx, entry).await?;
        tx.commit().await
    }

    /// Sets the role of account `user`, and logs it, in one transaction.
    ///
    /// # Errors
    /// The database refused it (nothing changed).
    pub async fn set_role(
        &self,
        user: i64,
        role: Role,
        entry: &LogEntry<'_>,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE users SET role = $1 WHERE id = $2")
            .bind(role.name())
            .bind(user)
            .execute(&mut *tx)
            .await?;
        log(&mut tx, entry).await?;
        tx.commit().await
    }

    /// Logs an action that changes nothing stored (a chat message hidden
    /// in a live game).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn log_moderation(&self, entry: &LogEntry<'_>) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        log(&mut tx, entry).await?;
        tx.commit().await
    }

    /// The last `limit` lines of the log, the newest first.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn moderation_log(&self, limit: u32) -> Result<Vec<LogRow>, sqlx::Error> {
        sqlx::query(
            "SELECT id, moderator_name, action, target, reason, at FROM moderation_log
             ORDER BY at DESC, id DESC LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?
        .iter()
        .map(|row| {
            Ok(LogRow {
                id: row.try_get("id")?,
                moderator_name: row.try_get("moderator_name")?,
                action: row.try_get("action")?,
                target: row.try_get("target")?,
                reason: row.try_get("reason")?,
                at_ms: millis(row.try_get("at")?),
            })
        })
        .collect()
    }

    /// Stores a report; its number.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn insert_report(&self, r: &NewReport<'_>) -> Result<i64, sqlx::Error> {
        let (n, from, text) = match r.chat {
            Some((n, from, text)) => (Some(i64::from(n)), Some(from), Some(text)),
            None => (None, None, None),
        };
        sqlx::query(
            "INSERT INTO reports (reporter, reporter_name, game_id, chat_n, chat_from,
                chat_text, reason, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(r.reporter)
        .bind(r.reporter_name)
        .bind(r.game_id)
        .bind(n)
        .bind(from)
        .bind(text)
        .bind(r.reason)
        .bind(ms(r.at_ms))
        .fetch_one(&self.pool)
        .await?
        .try_get("id")
    }

    /// The last `limit` reports, the newest first; only the open ones if
    /// `open`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn reports(&self, open: bool, limit: u32) -> Result<Vec<ReportRow>, sqlx::Error> {
        sqlx::query(
            "SELECT id, reporter_name, game_id, chat_n, chat_from, chat_text, reason,
                created_at, closed_at, closed_by
             FROM reports WHERE ($1 = 0 OR closed_at IS NULL)
             ORDER BY created_at DESC, id DESC LIMIT $2",
        )
        .bind(i64::from(open))
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?
        .iter()
        .map(report_row)
        .collect()
    }

    /// Closes open report `id` and logs it; whether it was open.
    ///
    /// # Errors
    /// The database refused it (nothing changed).
    pub async fn close_report(&self, id: i64, entry: &LogEntry<'_>) -> Result<bool, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let closed = sqlx::query(
            "UPDATE reports SET closed_at = $1, closed_by = $2
             WHERE id = $3 AND closed_at IS NULL",
        )
        .bind(ms(entry.at_ms))
        .bind(entry.moderator_name)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if closed {
            log(&mut tx, entry).await?;
        }
        tx.commit().await?;
        Ok(closed)
    }

    /// The time class game `id` changed ratings in, if it changed any
    /// (its history points are stored).
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn rated_class(&self, id: &str) -> Result<Option<TimeClass>, sqlx::Error> {
        let class: Option<String> =
            sqlx::query_scalar("SELECT class FROM rating_history WHERE game_id = $1 LIMIT 1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(class.as_deref().and_then(TimeClass::from_name))
    }

    /// Annuls the rating effect of game `id` in `class`, in one
    /// transaction: reads every rated game of the class in the order they
    /// were rated, asks `recompute` for the ratings without the game, and
    /// stores them (the game's history points deleted, every other point
    /// and rating that changed rewritten, the game marked annulled), with
    /// `entry` in the log. Returns the accounts whose rating changed.
    ///
    /// # Errors
    /// The database refused it (nothing changed).
    pub async fn annul_rating(
        &self,
        id: &str,
        class: TimeClass,
        entry: &LogEntry<'_>,
        recompute: impl FnOnce(&[RatedGame]) -> Replayed,
    ) -> Result<Vec<i64>, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(
            "SELECT g.id AS id, g.sente_user AS su, g.gote_user AS gu, g.winner AS winner,
                g.sente_rating AS sr, g.sente_rd AS srd, g.gote_rating AS gr, g.gote_rd AS grd,
                MIN(h.at) AS at
             FROM rating_history h JOIN games g ON g.id = h.game_id
             WHERE h.class = $1
             GROUP BY g.id, g.sente_user, g.gote_user, g.winner,
                g.sente_rating, g.sente_rd, g.gote_rating, g.gote_rd
             ORDER BY MIN(h.at), g.id",
        )
        .bind(class.name())
        .fetch_all(&mut *tx)
        .await?;
        let mut games = Vec::with_capacity(rows.len());
        for row in &rows {
            let start = |r: &str, d: &str| -> Result<Option<(f64, f64)>, sqlx::Error> {
                Ok(row
                    .try_get::<Option<f64>, _>(r)?
                    .zip(row.try_get::<Option<f64>, _>(d)?))
            };
            let winner: Option<String> = row.try_get("winner")?;
            games.push(RatedGame {
                id: row.try_get("id")?,
                users: ByColor::new(row.try_get("su")?, row.try_get("gu")?),
                start: ByColor::new(start("sr", "srd")?, start("gr", "grd")?),
                winner: match winner.as_deref() {
                    Some("sente") => Some(Color::Sente),
                    Some("gote") => Some(Color::Gote),
                    _ => None,
                },
            });
        }
        let now = recompute(&games);
        // The points stored now, to rewrite only those that changed.
        let stored =
            sqlx::query("SELECT user_id, game_id, rating, rd FROM rating_history WHERE class = $1")
                .bind(class.name())
                .fetch_all(&mut *tx)
                .await?;
        let mut changed_users = std::collections::BTreeSet::new();
        for row in &stored {
            let user: i64 = row.try_get("user_id")?;
            let game: String = row.try_get("game_id")?;
            let (rating, rd): (f64, f64) = (row.try_get("rating")?, row.try_get("rd")?);
            match now.points.get(&(user, game.clone())) {
                Some(p) if p.rating == rating && p.deviation == rd => {}
                Some(p) => {
                    sqlx::query(
                        "UPDATE rating_history SET rating = $1, rd = $2
                         WHERE user_id = $3 AND game_id = $4 AND class = $5",
                    )
                    .bind(p.rating)
                    .bind(p.deviation)
                    .bind(user)
                    .bind(&game)
                    .bind(class.name())
                    .execute(&mut *tx)
                    .await?;
                    changed_users.insert(user);
                }
                None => {
                    changed_users.insert(user);
                }
            }
        }
        sqlx::query("DELETE FROM rating_history WHERE game_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        for &user in &changed_users {
            match now.ratings.get(&user) {
                Some((r, games)) => {
                    sqlx::query(
                        "UPDATE ratings SET rating = $1, rd = $2, volatility = $3, games = $4,
                            updated_at = $5
                         WHERE user_id = $6 AND class = $7",
                    )
                    .bind(r.rating)
                    .bind(r.deviation)
                    .bind(r.volatility)
                    .bind(i64::from(*games))
                    .bind(ms(entry.at_ms))
                    .bind(user)
                    .bind(class.name())
                    .execute(&mut *tx)
                    .await?;
                }
                // No rated game left in the class: the starting rating.
                None => {
                    sqlx::query("DELETE FROM ratings WHERE user_id = $1 AND class = $2")
                        .bind(user)
                        .bind(class.name())
                        .execute(&mut *tx)
                        .await?;
                }
            }
        }
        sqlx::query("UPDATE games SET rating_annulled = $1 WHERE id = $2")
            .bind(true)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        log(&mut tx, entry).await?;
        tx.commit().await?;
        Ok(changed_users.into_iter().collect())
    }
}
