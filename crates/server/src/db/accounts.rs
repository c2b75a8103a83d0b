//! Accounts and their sessions (tables `users`, `sessions`); deleting an
//! account also renames its seats in `games` to `deleted`.

use sqlx::sqlite::SqliteRow;
use sqlx::Row;

use super::store::{ms, Store};

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    /// The row id.
    pub id: i64,
    /// The name as registered (NFC).
    pub name: String,
    /// The argon2id hash, PHC string format.
    pub password_hash: String,
    /// Whether it may administer the server.
    pub admin: bool,
}

/// A session to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSession {
    /// The cookie's 32 hex digits.
    pub id: String,
    /// Whose session.
    pub user_id: i64,
    /// Unix milliseconds.
    pub created_at_ms: u64,
    /// Unix milliseconds; the session is dead from then on.
    pub expires_at_ms: u64,
}

fn user_row(row: &SqliteRow) -> Result<UserRow, sqlx::Error> {
    Ok(UserRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        admin: row.try_get::<i64, _>("admin")? != 0,
    })
}

impl Store {
    /// The account whose name has the case-folded key `key`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn user_by_key(&self, key: &str) -> Result<Option<UserRow>, sqlx::Error> {
        sqlx::query("SELECT id, name, password_hash, admin FROM users WHERE name_key = ?")
            .bind(key)
            .fetch_optional(&self.reader)
            .await?
            .as_ref()
            .map(user_row)
            .transpose()
    }

    /// The account with row id `id`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn user_by_id(&self, id: i64) -> Result<Option<UserRow>, sqlx::Error> {
        sqlx::query("SELECT id, name, password_hash, admin FROM users WHERE id = ?")
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
        name: &str,
        key: &str,
        password_hash: &str,
        admin: bool,
        created_at_ms: u64,
    ) -> Result<Option<i64>, sqlx::Error> {
        let result = sqlx::query(
            "INSERT INTO users (name, name_key, password_hash, admin, created_at)
             VALUES (?, ?, ?, ?, ?)",
        )
        .bind(name)
        .bind(key)
        .bind(password_hash)
        .bind(i64::from(admin))
        .bind(ms(created_at_ms))
        .execute(&self.pool)
        .await;
        match result {
            Ok(done) => Ok(Some(done.last_insert_rowid())),
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
            "SELECT users.id, users.name, users.password_hash, users.admin
             FROM sessions JOIN users ON users.id = sessions.user_id
             WHERE sessions.id = ? AND sessions.expires_at > ?",
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
        sqlx::query("DELETE FROM sessions WHERE id = ?")
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
        sqlx::query("DELETE FROM sessions WHERE user_id = ? AND expires_at <= ?")
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
        sqlx::query("UPDATE users SET password_hash = ? WHERE id = ?")
            .bind(password_hash)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = ?")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        if let Some(s) = session {
            insert_session(&mut tx, s).await?;
        }
        tx.commit().await
    }

    /// In one transaction: names the seats of `user_id` in its games
    /// `deleted` (unbinding them from the account), and deletes the
    /// account, its sessions, ratings and rating history.
    ///
    /// # Errors
    /// The database refused it (and nothing changed).
    pub async fn delete_user(&self, user_id: i64) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        for statement in [
            "UPDATE games SET sente_name = 'deleted', sente_lc = 'deleted', sente_user = NULL
             WHERE sente_user = ?",
            "UPDATE games SET gote_name = 'deleted', gote_lc = 'deleted', gote_user = NULL
             WHERE gote_user = ?",
            "DELETE FROM sessions WHERE user_id = ?",
            "DELETE FROM rating_history WHERE user_id = ?",
            "DELETE FROM ratings WHERE user_id = ?",
            "DELETE FROM users WHERE id = ?",
        ] {
            sqlx::query(statement)
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await
    }
}

async fn insert_session(
    conn: &mut sqlx::SqliteConnection,
    s: &NewSession,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
        .bind(&s.id)
        .bind(s.user_id)
        .bind(ms(s.created_at_ms))
        .bind(ms(s.expires_at_ms))
        .execute(conn)
        .await?;
    Ok(())
}
