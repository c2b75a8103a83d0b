//! Leases: with several app instances on one database, a live game's room
//! lives on one instance at a time, the holder of the game's lease.
//!
//! An instance takes a game's lease before it opens the room (a new game,
//! or one restored from the database), renews all its leases every
//! [`LeasePolicy::renew_every_ms`], and gives a lease up when the game ends.
//! A lease not renewed for [`LeasePolicy::ttl_ms`] (its instance died or
//! lost the database) may be taken by another instance, which restores the
//! game from what was stored. Every change of holder raises the lease's
//! epoch, and a room's writes are fenced by it: the instance that lost a
//! lease cannot store a move after the new holder took it, so no game is
//! ever played on two instances at once.
//!
//! With one instance (the embedded `SQLite` default) every lease is this
//! instance's; the table then costs one statement per room opened and one
//! per renewal period.
//!
//! ```
//! use shogi_server::games::leases::LeasePolicy;
//! let p = LeasePolicy::default();
//! assert!(p.renew_every_ms * 3 <= p.ttl_ms);
//! ```

use std::collections::HashSet;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use crate::db::leases::{FirstLease, LeaseHolder};
use crate::db::Store;

/// How long a lease lasts and how often it is renewed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeasePolicy {
    /// A lease not renewed for this long may be taken over.
    pub ttl_ms: u64,
    /// How often an instance renews its leases (a third of the TTL or less,
    /// so that one late renewal does not lose them).
    pub renew_every_ms: u64,
}

impl Default for LeasePolicy {
    /// Six seconds, renewed every two: a dead instance's games move within
    /// six to eight seconds, which a game's clocks bridge (the turn in
    /// progress starts again from the clock after the last move).
    fn default() -> Self {
        LeasePolicy {
            ttl_ms: 6_000,
            renew_every_ms: 2_000,
        }
    }
}

/// The lease of one game held by this instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The game.
    pub game_id: String,
    /// The epoch this instance holds it at.
    pub epoch: i64,
}

/// What [`Leases::acquire`] got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Acquired {
    /// The lease is this instance's: open the room here.
    Mine(Lease),
    /// Another instance holds it: send the game's players there.
    HeldBy(LeaseHolder),
}

/// This instance's side of the leases: its id and address, the policy, and
/// the store.
#[derive(Clone, Debug)]
pub struct Leases {
    store: Store,
    instance_id: String,
    address: String,
    policy: LeasePolicy,
    /// The ids of the live instances, as last listed ([`Leases::live_instances`]).
    known: Arc<RwLock<HashSet<String>>>,
}

/// The wall clock, in Unix milliseconds.
fn now_ms() -> u64 {
    crate::time::unix_ms()
}

impl Leases {
    /// Registers a new instance reachable at `address` (with a random id) at `now_ms`.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn register(
        store: Store,
        address: &str,
        policy: LeasePolicy,
        now_ms: u64,
    ) -> Result<Leases, sqlx::Error> {
        let instance_id = crate::token::new_token();
        store
            .register_instance(&instance_id, address, now_ms)
            .await?;
        Ok(Leases {
            known: Arc::new(RwLock::new(HashSet::from([instance_id.clone()]))),
            store,
            instance_id,
            address: address.to_owned(),
            policy,
        })
    }

    /// This instance's id.
    #[must_use]
    pub fn instance_id(&self) -> &str {
        &self.instance_id
    }

    /// How long its leases last and how often they are renewed.
    #[must_use]
    pub fn policy(&self) -> LeasePolicy {
        self.policy
    }

    /// Where other instances reach this one.
    #[must_use]
    pub fn address(&self) -> &str {
        &self.address
    }

    /// When a lease taken or renewed at `now_ms` runs out.
    fn expiry(&self, now_ms: u64) -> u64 {
        now_ms.saturating_add(self.policy.ttl_ms)
    }

    /// The lease a game this instance creates at `now_ms` is stored with
    /// (in the same transaction as the game, so that it never looks orphaned).
    #[must_use]
    pub fn first_lease(&self, now_ms: u64) -> FirstLease<'_> {
        FirstLease {
            instance_id: &self.instance_id,
            until_ms: self.expiry(now_ms),
        }
    }

    /// Takes game `game_id`'s lease at `now_ms` if no other instance holds
    /// it unexpired; otherwise says who does.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn acquire(&self, game_id: &str, now_ms: u64) -> Result<Acquired, sqlx::Error> {
        let until = self.expiry(now_ms);
        let take = || {
            self.store
                .acquire_lease(game_id, &self.instance_id, now_ms, until)
        };
        let mine = |epoch| {
            Acquired::Mine(Lease {
                game_id: game_id.to_owned(),
                epoch,
            })
        };
        if let Some(epoch) = take().await? {
            return Ok(mine(epoch));
        }
        match self.store.lease_holder(game_id, now_ms).await? {
            Some(holder) => Ok(Acquired::HeldBy(holder)),
            // It expired between the two statements: try once more.
            None => take().await?.map(mine).ok_or_else(|| {
                sqlx::Error::Protocol(format!(
                    "the lease of game {game_id} changed hands twice at once"
                ))
            }),
        }
    }

    /// Whether this instance still holds `lease` (nobody took it over).
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn still_holds(&self, lease: &Lease) -> Result<bool, sqlx::Error> {
        self.store
            .holds_lease(&lease.game_id, &self.instance_id, lease.epoch)
            .await
    }

    /// Gives `lease` up (the game ended or its room closed).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn release(&self, lease: &Lease) -> Result<(), sqlx::Error> {
        self.store
            .release_lease(&lease.game_id, &self.instance_id, lease.epoch)
            .await
            .map(|_| ())
    }

    /// The live instances at `now_ms` (renewed within a lease's lifetime):
    /// id and address, by id. The first is the lobby's home.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn live_instances(&self, now_ms: u64) -> Result<Vec<(String, String)>, sqlx::Error> {
        let live = self
            .store
            .live_instances(now_ms.saturating_sub(self.policy.ttl_ms))
            .await?;
        let mut known: HashSet<String> = live.iter().map(|(id, _)| id.clone()).collect();
        known.insert(self.instance_id.clone());
        *self.known.write().unwrap_or_else(PoisonError::into_inner) = known;
        Ok(live)
    }

    /// Whether `id` is the id of a live instance (as last listed), or this
    /// one's. An instance id is a random token no client is ever shown: a
    /// request naming one comes from an instance.
    #[must_use]
    pub fn knows(&self, id: &str) -> bool {
        self.known
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(id)
    }

    /// Renews every lease of this instance at `now_ms`; how many.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn renew(&self, now_ms: u64) -> Result<u64, sqlx::Error> {
        self.store
            .renew_leases(&self.instance_id, now_ms, self.expiry(now_ms))
            .await
    }

    /// Renews this instance's leases every [`LeasePolicy::renew_every_ms`]
    /// by the wall clock until the store is closed; a failed renewal is
    /// logged and tried again at the next tick.
    pub async fn keep_renewing(self) {
        let mut tick =
            tokio::time::interval(Duration::from_millis(self.policy.renew_every_ms.max(1)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if self.store.is_closed() {
                return;
            }
            if let Err(e) = self.renew(now_ms()).await {
                if self.store.is_closed() {
                    return;
                }
                tracing::warn!("renewing the leases of instance {}: {e}", self.instance_id);
            }
        }
    }
}
