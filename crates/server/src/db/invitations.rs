//! Organisers' invitations to events (migration 0016): an account enters an
//! event only by joining it itself or by accepting one. An accepted
//! invitation becomes an entry in the transaction that deletes it.

use sqlx::Row;

use super::store::{ms, to_u64, Store};
use super::tournaments::{insert_entrant_on, num, EntrantRow};

/// A pending invitation as an event's organisers see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvitationRow {
    /// The invited account.
    pub user: i64,
    /// Its name.
    pub name: String,
    /// The organiser who invited (the name then).
    pub by: String,
    /// When (Unix ms).
    pub at_ms: u64,
    /// The rank the organiser gave, carried to the entry.
    pub rank: Option<String>,
    /// The club the organiser gave, carried to the entry.
    pub club: Option<String>,
}

/// A pending invitation as the invited account sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MyInvitationRow {
    /// The event.
    pub tournament: String,
    /// The event's settings JSON (its name, time control, rated flag).
    pub settings: String,
    /// The organiser who invited.
    pub by: String,
    /// When (Unix ms).
    pub at_ms: u64,
}

/// A new invitation.
#[derive(Clone, Debug)]
pub struct NewInvitation<'a> {
    /// The event.
    pub tournament: &'a str,
    /// The invited account.
    pub user: i64,
    /// The organiser inviting: account id and name.
    pub by: (i64, &'a str),
    /// When (Unix ms).
    pub at_ms: u64,
    /// A rank for the entry.
    pub rank: Option<&'a str>,
    /// A club for the entry.
    pub club: Option<&'a str>,
}

impl Store {
    /// Stores an invitation; `false` if the account is invited already.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn insert_invitation(&self, i: &NewInvitation<'_>) -> Result<bool, sqlx::Error> {
        let done = sqlx::query(
            "INSERT INTO tournament_invitations
                 (tournament, user_id, invited_by, by_name, invited_at, rank, club)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (tournament, user_id) DO NOTHING",
        )
        .bind(i.tournament)
        .bind(i.user)
        .bind(i.by.0)
        .bind(i.by.1)
        .bind(ms(i.at_ms))
        .bind(i.rank)
        .bind(i.club)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The pending invitations of event `id`, oldest first.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn event_invitations(&self, id: &str) -> Result<Vec<InvitationRow>, sqlx::Error> {
        // The writer: an organiser's change is seen by the next read at once.
        sqlx::query(
            "SELECT i.user_id, u.name, i.by_name, i.invited_at, i.rank, i.club
             FROM tournament_invitations i JOIN users u ON u.id = i.user_id
             WHERE i.tournament = $1 ORDER BY i.invited_at, i.user_id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(InvitationRow {
                user: r.try_get("user_id")?,
                name: r.try_get("name")?,
                by: r.try_get("by_name")?,
                at_ms: to_u64(r.try_get("invited_at")?),
                rank: r.try_get("rank")?,
                club: r.try_get("club")?,
            })
        })
        .collect()
    }

    /// The pending invitations of account `user`, newest first.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn user_invitations(&self, user: i64) -> Result<Vec<MyInvitationRow>, sqlx::Error> {
        sqlx::query(
            "SELECT i.tournament, t.settings, i.by_name, i.invited_at
             FROM tournament_invitations i JOIN tournaments t ON t.id = i.tournament
             WHERE i.user_id = $1 ORDER BY i.invited_at DESC, i.tournament",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(MyInvitationRow {
                tournament: r.try_get("tournament")?,
                settings: r.try_get("settings")?,
                by: r.try_get("by_name")?,
                at_ms: to_u64(r.try_get("invited_at")?),
            })
        })
        .collect()
    }

    /// Deletes the invitation of `user` to event `id`; whether there was one.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn delete_invitation(&self, id: &str, user: i64) -> Result<bool, sqlx::Error> {
        let done = sqlx::query(
            "DELETE FROM tournament_invitations WHERE tournament = $1 AND user_id = $2",
        )
        .bind(id)
        .bind(user)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Turns the invitation of `entry.user` to event `id` into the entry,
    /// in one transaction; its number, or `None` (nothing stored) when the
    /// invitation is gone.
    ///
    /// # Errors
    /// The database refused it (an account entered twice breaks a unique index).
    pub async fn accept_invitation(
        &self,
        id: &str,
        entry: &EntrantRow,
    ) -> Result<Option<u32>, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let gone = sqlx::query(
            "DELETE FROM tournament_invitations WHERE tournament = $1 AND user_id = $2",
        )
        .bind(id)
        .bind(entry.user)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 0;
        if gone {
            return Ok(None);
        }
        let n = insert_entrant_on(&mut tx, id, entry).await?;
        tx.commit().await?;
        Ok(Some(n))
    }

    /// How many invitations event `id` holds.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn invitations_count(&self, id: &str) -> Result<u32, sqlx::Error> {
        let n: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM tournament_invitations WHERE tournament = $1")
                .bind(id)
                .fetch_one(&self.pool)
                .await?;
        Ok(num(n))
    }
}
