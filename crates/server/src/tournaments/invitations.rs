//! Consent: an account enters an event only by joining it itself or by
//! accepting an organiser's invitation. An organiser who names another
//! account in `POST /api/tournaments/{id}/players` invites it; the account
//! sees the invitation (`GET /api/me/invitations`) and accepts it (an entry
//! made by the rules of joining, with the account's name and rating) or
//! declines it; an organiser may withdraw it. So no organiser can enter
//! someone into a rated online event with a clock they did not choose.

use serde::Deserialize;
use serde_json::{json, Value};

use super::audit::Action;
use super::event::Loaded;
use super::settings::{FormatName, Settings};
use super::{entrant_text, EntrantRequest, Tournaments, MAX_PLAYERS};
use crate::accounts::{name_key, Account};
use crate::db::invitations::NewInvitation;
use crate::db::tournaments::EntrantRow;
use crate::db::UserRow;
use crate::error::{Error, Problem};
use crate::ratings::{Rank, TimeClass};
use crate::time::unix_ms;

/// `POST /api/tournaments/{id}/invitation/accept`'s optional body.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptRequest {
    /// A rank the player proposes (`3k`, `1d`); organisers set the entry's.
    pub rank: Option<String>,
}

/// A rank as written (`3k`, `1d`), `None` when blank.
fn rank_of(r: Option<&str>) -> Result<Option<String>, Error> {
    r.map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| r.parse::<Rank>().map(Rank::short))
        .transpose()
        .map_err(Error::from)
}

/// The refusal of a new entry while a round robin is under way.
fn round_robin_paired(t: &Loaded) -> Result<(), Error> {
    if t.paired() > 0 && t.settings.format == FormatName::RoundRobin {
        return Err(Error::Conflict(
            "a round robin takes no new players once paired".into(),
        ));
    }
    Ok(())
}

impl Tournaments {
    /// Invites account `invitee` to event `t` (an organiser's
    /// `POST .../players` naming another account); the invitation's JSON.
    /// The event's entries and pending invitations together stay within
    /// [`MAX_PLAYERS`].
    pub(super) async fn invite(
        &self,
        t: &Loaded,
        actor: &Account,
        invitee: &UserRow,
        req: &EntrantRequest,
    ) -> Result<Value, Error> {
        round_robin_paired(t)?;
        let pending = self.store.invitations_count(t.id()).await? as usize;
        if t.rows.players.len() + pending >= MAX_PLAYERS {
            return Err(Problem::EventFull { max: MAX_PLAYERS }.into());
        }
        let rank = rank_of(req.rank.as_deref())?;
        let club = req
            .club
            .as_deref()
            .filter(|c| !c.trim().is_empty())
            .map(|c| entrant_text("club", c))
            .transpose()?;
        let at_ms = unix_ms();
        let new = NewInvitation {
            tournament: t.id(),
            user: invitee.id,
            by: (actor.id, &actor.name),
            at_ms,
            rank: rank.as_deref(),
            club: club.as_deref(),
        };
        if !self.store.insert_invitation(&new).await? {
            return Err(Problem::AlreadyInvited {
                name: invitee.name.clone(),
            }
            .into());
        }
        self.audit(
            t.id(),
            Some(actor),
            Action::Invite {
                name: invitee.name.clone(),
            },
        )
        .await;
        Ok(json!({
            "invitation": {"name": invitee.name, "by": actor.name, "at_ms": at_ms,
                           "rank": rank, "club": club},
            "entered": false,
        }))
    }

    /// The pending invitations of account `user`, newest first, with what
    /// the account decides by: the event, who invited, the time control and
    /// whether its online games are rated.
    ///
    /// # Errors
    /// Database errors.
    pub async fn my_invitations(&self, user: i64) -> Result<Value, Error> {
        let rows = self.store.user_invitations(user).await?;
        let invitations: Vec<Value> = rows
            .iter()
            .filter_map(|r| {
                let s: Settings = serde_json::from_str(&r.settings).ok()?;
                Some(json!({
                    "tournament": r.tournament, "name": s.name, "by": r.by, "at_ms": r.at_ms,
                    "time": s.time, "rated": s.rated, "play": s.play, "format": s.format,
                    "starts": s.starts,
                }))
            })
            .collect();
        Ok(json!({ "invitations": invitations }))
    }

    /// Accepts `actor`'s invitation to event `id`: the entry is made by the
    /// rules of joining (the account's name and classical rating, the rank
    /// the organiser gave; a late entry after round 1, none in a round
    /// robin under way, none in a full event) and the invitation deleted,
    /// in one transaction. `req.rank` is only proposed. Returns the number.
    ///
    /// # Errors
    /// [`Error::NoSuch`] (`invitation`) without one; [`Error::Conflict`];
    /// [`Error::BadRequest`] for a bad rank.
    pub async fn accept_invitation(
        &self,
        id: &str,
        actor: &Account,
        req: &AcceptRequest,
    ) -> Result<u32, Error> {
        let _guard = self.hold(id).await?;
        let t = self.load(id).await?;
        let invitation = self
            .store
            .event_invitations(id)
            .await?
            .into_iter()
            .find(|i| i.user == actor.id)
            .ok_or(Error::NoSuch("invitation"))?;
        let proposed_rank = rank_of(req.rank.as_deref())?;
        if t.entrant_of(actor.id).is_some() {
            self.store.delete_invitation(id, actor.id).await?;
            return Err(Problem::AlreadyEntered {
                name: actor.name.clone(),
            }
            .into());
        }
        round_robin_paired(&t)?;
        if t.rows.players.len() >= MAX_PLAYERS {
            return Err(Problem::EventFull { max: MAX_PLAYERS }.into());
        }
        let rating = self
            .store
            .rating(actor.id, TimeClass::Classical)
            .await?
            .map(|r| r.rating.rating.round() as i32);
        let row = EntrantRow {
            number: 0,
            name: actor.name.clone(),
            user: Some(actor.id),
            account: None,
            rating,
            rank: invitation.rank,
            club: invitation.club,
            from_round: t.paired() + 1,
            withdrawn_from: None,
            proposed_rank,
        };
        let n = self
            .store
            .accept_invitation(id, &row)
            .await?
            .ok_or(Error::NoSuch("invitation"))?;
        let action = Action::AcceptInvitation {
            number: n,
            name: row.name.clone(),
            proposed_rank: row.proposed_rank.clone(),
        };
        self.audit(id, Some(actor), action).await;
        Ok(n)
    }

    /// Declines `actor`'s invitation to event `id`.
    ///
    /// # Errors
    /// [`Error::NoSuch`] (`invitation`) without one.
    pub async fn decline_invitation(&self, id: &str, actor: &Account) -> Result<(), Error> {
        let _guard = self.hold(id).await?;
        self.load(id).await?;
        if !self.store.delete_invitation(id, actor.id).await? {
            return Err(Error::NoSuch("invitation"));
        }
        let name = actor.name.clone();
        self.audit(id, Some(actor), Action::DeclineInvitation { name })
            .await;
        Ok(())
    }

    /// Withdraws the invitation of account `name` to event `id` (organisers).
    ///
    /// # Errors
    /// [`Error::NoSuch`] (`invitation`) without one; organisers only.
    pub async fn withdraw_invitation(
        &self,
        id: &str,
        actor: &Account,
        name: &str,
    ) -> Result<(), Error> {
        let _guard = self.hold(id).await?;
        self.load_as_organiser(id, actor).await?;
        let key = name_key(name);
        let invitation = self
            .store
            .event_invitations(id)
            .await?
            .into_iter()
            .find(|i| name_key(&i.name) == key)
            .ok_or(Error::NoSuch("invitation"))?;
        self.store.delete_invitation(id, invitation.user).await?;
        let name = invitation.name.clone();
        self.audit(id, Some(actor), Action::WithdrawInvitation { name })
            .await;
        Ok(())
    }
}
