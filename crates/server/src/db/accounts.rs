//! Accounts and their sessions (tables `users`, `sessions`); deleting an
//! account also renames its seats in `games` to `deleted`.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::store::{ms, Store};
use crate::accounts::role::{Role, UnknownRole};

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    /// The row id.
    pub id: i64,
    /// The name as registered (NFKC).
    pub name: String,
    /// The argon2id hash, PHC string format.
    pub password_hash: String,
    /// What it may do beyond playing.
    pub role: Role,
    /// Whether a moderator disabled it (it cannot log in).
    pub disabled: bool,
    /// Whether it is a program's account (`users.bot`).
    pub bot: bool,
}

/// A new account's name and the two keys it is found and compared by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameKeys<'a> {
    /// The name as shown.
    pub name: &'a str,
    /// The case-folded key that makes names unique.
    pub key: &'a str,
    /// The confusable skeleton of the key (UTS #39).
    pub skeleton: &'a str,
}

/// A session to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSession {
    /// The SHA-256 of the cookie's value, 64 hex digits (the value itself
    /// is never stored).
    pub id: String,
    /// Whose session.
    pub user_id: i64,
    /// Unix milliseconds.
    pub created_at_ms: u64,
    /// Unix milliseconds; the session is dead from then on.
    pub expires_at_ms: u64,
}

fn user_row(row: &AnyRow) -> Result<UserRow, sqlx::Error> {
    Ok(UserRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        role: row
            .try_get::<String, _>("role")?
            .parse()
            .map_err(|e: UnknownRole| sqlx::Error::Decode(e.into()))?,
        disabled: row.try_get::<Option<i64>, _>("disabled_at")?.is_some(),
        bot: row.try_get::<i64, _>("bot")? != 0,
    })
}

impl Store {
    /// The account whose name has the case-folded key `key`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn user_by_key(&self, key: &str) -> Result<Option<UserRow>, sqlx::Error> {
        sqlx::query(
            "SELECT id, name, password_hash, role, disabled_at, bot FROM users WHERE name_key = $1",
        )
        .bind(key)
        .fetch_optional(&self.reader)
        .await?
        .as_ref()
        .map(user_row)
        .transpose()
    }

    /// The name of an account whose name has the confusable skeleton
    /// `skeleton` (any of them, if several do).
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn name_with_skeleton(&self, skeleton: &str) -> Result<Option<String>, sqlx::Error> {
        sqlx::query("SELECT name FROM users WHERE name_skeleton = $1 LIMIT 1")
            .bind(skeleton)
            .fetch_optional(&self.pool)
            .await?
            .map(|row| row.try_get("name"))
            .transpose()
    }

    /// The accounts stored before names had skeletons: (id, name).
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn users_without_skeleton(&self) -> Result<Vec<(i64, String)>, sqlx::Error> {
        sqlx::query("SELECT id, name FROM users WHERE name_skeleton IS NULL")
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| Ok((row.try_get("id")?, row.try_get("name")?)))
            .collect()
    }

    /// Stores the skeleton of account `id`'s name.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn set_skeleton(&self, id: i64, skeleton: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE users SET name_skeleton = $1 WHERE id = $2")
            .bind(skeleton)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The account with row id `id`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn user_by_id(&self, id: i64) -> Result<Option<UserRow>, sqlx::Error> {
        sqlx::query(
            "SELECT id, name, password_hash, role, disabled_at, bot FROM users WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.reader)
        .await?
        .as_ref()
        .map(user_row)
        .transpose()
    }

    /// Stores a new account; its id, or `None` when the key is taken.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn insert_user(
        &self,
        name: &NameKeys<'_>,
        password_hash: &str,
        role: Role,
        created_at_ms: u64,
    ) -> Result<Option<i64>, sqlx::Error> {
        let result = sqlx::query(
            "INSERT INTO users (name, name_key, name_skeleton, password_hash, role, created_at)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(name.name)
        .bind(name.key)
        .bind(name.skeleton)
        .bind(password_hash)
        .bind(role.name())
        .bind(ms(created_at_ms))
        .fetch_one(&self.pool)
        .await;
        match result {
            Ok(row) => Ok(Some(row.try_get("id")?)),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Stores a session.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn insert_session(&self, s: &NewSession) -> Result<(), sqlx::Error> {
        insert_session(&mut *self.pool.acquire().await?, s).await
    }

    /// The account of session `id` if it has not expired at `now_ms`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn session_user(
        &self,
        id: &str,
        now_ms: u64,
    ) -> Result<Option<UserRow>, sqlx::Error> {
        sqlx::query(
            "SELECT users.id, users.name, users.password_hash, users.role, users.disabled_at, users.bot
             FROM sessions JOIN users ON users.id = sessions.user_id
             WHERE sessions.id = $1 AND sessions.expires_at > $2 AND users.disabled_at IS NULL",
        )
        .bind(id)
        .bind(ms(now_ms))
        .fetch_optional(&self.reader)
        .await?
        .as_ref()
        .map(user_row)
        .transpose()
    }

    /// Ends session `id`.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn delete_session(&self, id: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM sessions WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets the sessions of `user_id` that expired by `now_ms`.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn delete_expired_sessions(
        &self,
        user_id: i64,
        now_ms: u64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND expires_at <= $2")
            .bind(user_id)
            .bind(ms(now_ms))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// In one transaction: sets the password hash of `user_id`, ends every
    /// session of it and stores `session` (the caller's new one), if any.
    ///
    /// # Errors
    /// The database refused it (and nothing changed).
    pub async fn set_password(
        &self,
        user_id: i64,
        password_hash: &str,
        session: Option<&NewSession>,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        if let Some(s) = session {
            insert_session(&mut tx, s).await?;
        }
        tx.commit().await
    }

    /// In one transaction: names the seats of `user_id` in its games
    /// `deleted` (unbinding them from the account; their dedupe keys are
    /// computed again), deletes its private imported records (with their
    /// annotations and analyses) and unbinds its other records, and deletes
    /// the account, its sessions, ratings and rating history.
    ///
    /// # Errors
    /// The database refused it (and nothing changed).
    pub async fn delete_user(&self, user_id: i64) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        for statement in [
            "UPDATE games SET sente_name = 'deleted', sente_lc = 'deleted', sente_user = NULL,
                dedupe_key = NULL
             WHERE sente_user = $1",
            "UPDATE games SET gote_name = 'deleted', gote_lc = 'deleted', gote_user = NULL,
                dedupe_key = NULL
             WHERE gote_user = $1",
            "DELETE FROM annotations WHERE id IN
                (SELECT id FROM records WHERE owner_user = $1 AND visibility = 'private')",
            "DELETE FROM analyses WHERE id IN
                (SELECT id FROM records WHERE owner_user = $1 AND visibility = 'private')",
            "DELETE FROM records WHERE owner_user = $1 AND visibility = 'private'",
            "UPDATE records SET owner_user = NULL WHERE owner_user = $1",
            "DELETE FROM sessions WHERE user_id = $1",
            "DELETE FROM tournament_creations WHERE user_id = $1",
            "DELETE FROM rating_history WHERE user_id = $1",
            "DELETE FROM ratings WHERE user_id = $1",
            "DELETE FROM users WHERE id = $1",
        ] {
            sqlx::query(statement)
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await
    }
}

async fn insert_session(conn: &mut sqlx::AnyConnection, s: &NewSession) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&s.id)
    .bind(s.user_id)
    .bind(ms(s.created_at_ms))
    .bind(ms(s.expires_at_ms))
    .execute(conn)
    .await?;
    Ok(())
}

/// A program's account as its CSA login needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramRow {
    /// The row id.
    pub id: i64,
    /// The name as registered.
    pub name: String,
    /// Whether the account is marked as a program.
    pub bot: bool,
    /// The SHA-256 of its CSA token, if one was issued.
    pub csa_token_hash: Option<String>,
    /// Whether a moderator disabled it.
    pub disabled: bool,
}

impl Store {
    /// The program account whose name has the case-folded key `key`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn program_by_key(&self, key: &str) -> Result<Option<ProgramRow>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT id, name, bot, csa_token_hash, disabled_at FROM users WHERE name_key = $1",
        )
        .bind(key)
        .fetch_optional(&self.reader)
        .await?;
        row.map(|row| {
            Ok(ProgramRow {
                id: row.try_get("id")?,
                name: row.try_get("name")?,
                bot: row.try_get::<i64, _>("bot")? != 0,
                csa_token_hash: row.try_get("csa_token_hash")?,
                disabled: row.try_get::<Option<i64>, _>("disabled_at")?.is_some(),
            })
        })
        .transpose()
    }

    /// Marks account `user_id` as a program with a new CSA token's hash
    /// (the old token stops working); whether the account exists.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn set_csa_token(&self, user_id: i64, token_hash: &str) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("UPDATE users SET bot = 1, csa_token_hash = $1 WHERE id = $2")
            .bind(token_hash)
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}
