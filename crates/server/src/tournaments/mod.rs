//! Club tournaments: events with their organisers and entrants, rounds
//! paired by the crate `shogi_tournament` (Berger tables, Swiss and McMahon
//! by minimum-weight matching), the in-app games of online boards and their
//! sennichite replays, results entered or reported, standings and exports.
//!
//! Nothing derived is stored: every call loads the event's rows and builds
//! the [`shogi_tournament::Event`] from them, so the pairing of a state is
//! always the same and an online board's result is its game's. Changes are
//! made one at a time (one lock for all events in a process: a club's
//! organisers click, they do not stream; and one per event across the
//! instances sharing a PostgreSQL database).

pub mod audit;
pub mod event;
pub mod exports;
pub mod handicaps;
pub mod invitations;
pub mod settings;
pub mod view;

use audit::{Action, BoardChange};

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex, PoisonError};

use serde::Deserialize;
use serde_json::{json, Value};
use shogi_core::{ByColor, Color, Ending, Handicap};
use shogi_tournament::check::Warning;
use shogi_tournament::pair::{self, PairingError, Request};
use shogi_tournament::{Bye, ByeKind, GameResult};
use tokio::sync::{mpsc, Mutex, OwnedMutexGuard, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

use self::event::{
    board_result, bye_name, colours_name, result_name, result_of_name, reversed, Loaded,
};
use self::settings::{BoardPlay, FormatName, PlayMode, SettingsRequest};
use crate::accounts::{name_key, Account};
use crate::db::tournaments::{BoardRow, EntrantRow, EventLock, EventRow, NewBoard, Replay};
use crate::db::{Consequence, Store};
use crate::error::{Error, Problem};
use crate::game::clock::Clock;
use crate::game::EventPlace;
use crate::games::players::Identity;
use crate::games::room::GameEnd;
use crate::games::rooms::{EventGame, Rooms};
use crate::ratings::{Rank, TimeClass};
use crate::time::unix_ms;
use crate::token;

/// The most events one account may create in a day.
pub const EVENTS_PER_DAY: u32 = 10;
/// The most entrants of one event.
pub const MAX_PLAYERS: usize = 1000;
/// The longest entrant name or club.
pub const MAX_NAME: usize = 60;

type Endings = mpsc::UnboundedReceiver<GameEnd>;

/// The tournaments service (cheap to clone).
#[derive(Clone)]
pub struct Tournaments {
    store: Store,
    rooms: Rooms,
    locks: EventLocks,
    endings: Arc<StdMutex<Option<Endings>>>,
}

/// At most this many events change at once in one process: on PostgreSQL
/// each holds a connection for its lock across instances (of the store's
/// 10), and must leave the others for the work itself.
const EVENTS_CHANGING_AT_ONCE: usize = 4;

/// One lock per event in this process, made when first wanted and
/// forgotten when nobody holds or waits for it: one event's work (pairing
/// a 1000-player round) never waits for another's.
#[derive(Clone)]
struct EventLocks {
    by_event: Arc<StdMutex<HashMap<String, Arc<Mutex<()>>>>>,
    changing: Arc<Semaphore>,
}

impl EventLocks {
    fn new() -> EventLocks {
        EventLocks {
            by_event: Arc::default(),
            changing: Arc::new(Semaphore::new(EVENTS_CHANGING_AT_ONCE)),
        }
    }

    /// Waits for event `id`'s lock (and a place among those changing).
    async fn lock(&self, id: &str) -> EventGuard {
        let lock = Arc::clone(
            self.by_event
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(id.to_string())
                .or_default(),
        );
        let guard = lock.lock_owned().await;
        // The semaphore is never closed.
        let place = Arc::clone(&self.changing).acquire_owned().await.ok();
        EventGuard {
            guard: Some(guard),
            _place: place,
            id: id.to_string(),
            locks: self.clone(),
        }
    }
}

/// An event's lock, held until dropped.
struct EventGuard {
    guard: Option<OwnedMutexGuard<()>>,
    _place: Option<OwnedSemaphorePermit>,
    id: String,
    locks: EventLocks,
}

impl Drop for EventGuard {
    fn drop(&mut self) {
        drop(self.guard.take());
        let mut map = self
            .locks
            .by_event
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // Only the map holds it: nobody waits, forget it.
        if map.get(&self.id).is_some_and(|l| Arc::strong_count(l) == 1) {
            map.remove(&self.id);
        }
    }
}

/// The locks held while an event changes (see `Tournaments::hold`); the
/// lock across instances is released first.
struct Held {
    _event: EventLock,
    _process: EventGuard,
}

/// `POST /api/tournaments/{id}/players` and its `PUT`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntrantRequest {
    /// The name shown.
    pub name: Option<String>,
    /// An account's name.
    pub account: Option<String>,
    /// A rating (a fraction is rounded).
    pub rating: Option<f64>,
    /// A rank (`3k`, `1d`).
    pub rank: Option<String>,
    /// A club.
    pub club: Option<String>,
}

/// What `POST /api/tournaments/{id}/players` did: entered a player (its
/// number), or invited an account (the invitation's JSON).
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// A new entry's number.
    Entered(u32),
    /// An organiser invited another account: no entry until it accepts.
    Invited(Value),
}

/// A sit-out in `POST /api/tournaments/{id}/rounds`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SitOut {
    /// The player's number.
    pub player: u32,
    /// 0, 0.5 or 1.
    pub points: f64,
}

/// `POST /api/tournaments/{id}/rounds`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRequest {
    /// Players sitting the round out.
    #[serde(default)]
    pub sit_out: Vec<SitOut>,
    /// Pairs to keep together.
    #[serde(default)]
    pub forced: Vec<(u32, u32)>,
}

fn organisers_only() -> Error {
    Error::Problem(Problem::OrganisersOnly)
}

fn no_event() -> Error {
    Error::NoSuch("tournament")
}

fn entrant_text(field: &str, v: &str) -> Result<String, Error> {
    let v = v.trim();
    let n = v.chars().count();
    if n == 0 || n > MAX_NAME || v.chars().any(char::is_control) {
        return Err(Error::BadRequest(format!(
            "{field} must be 1 to {MAX_NAME} characters"
        )));
    }
    Ok(v.to_string())
}

/// A rating as given (0 to 4000, a fraction rounded).
fn rating_of(r: f64) -> Result<i32, Error> {
    if (0.0..=4000.0).contains(&r) {
        Ok(r.round() as i32)
    } else {
        Err(Error::BadRequest("rating must be 0 to 4000".into()))
    }
}

fn pairing_error(e: PairingError) -> Error {
    match e {
        // The crate counts players from 0; the API from 1.
        PairingError::BadPlayer(p) => Error::BadRequest(format!(
            "player {} cannot be paired this round (unknown, not playing, named twice, or a forced pair in a round robin)",
            p + 1
        )),
        _ => Error::Conflict(e.to_string()),
    }
}

impl Tournaments {
    /// The service on `store`, starting games in `rooms`; `endings` is
    /// where the rooms report their endings (read by [`Tournaments::spawn_replays`]).
    #[must_use]
    pub fn new(store: Store, rooms: Rooms, endings: Endings) -> Tournaments {
        Tournaments {
            store,
            rooms,
            locks: EventLocks::new(),
            endings: Arc::new(StdMutex::new(Some(endings))),
        }
    }

    /// Waits for the right to change event `id`: the event's lock in this
    /// process (other events go on meanwhile) and then its lock across
    /// instances ([`Store::lock_tournament`]), so that two organisers on two
    /// instances cannot pair one round twice. Both are released when the
    /// result is dropped.
    async fn hold(&self, id: &str) -> Result<Held, Error> {
        let process = self.locks.lock(id).await;
        let event = self.store.lock_tournament(id).await?;
        Ok(Held {
            _event: event,
            _process: process,
        })
    }

    async fn load(&self, id: &str) -> Result<Loaded, Error> {
        if !token::is_game_id(id) {
            return Err(no_event());
        }
        let rows = self.store.tournament(id).await?.ok_or_else(no_event)?;
        Loaded::new(rows)
    }

    async fn load_as_organiser(&self, id: &str, actor: &Account) -> Result<Loaded, Error> {
        let t = self.load(id).await?;
        if t.is_organiser(actor.id) || actor.is_admin() {
            Ok(t)
        } else {
            Err(organisers_only())
        }
    }

    async fn audit(&self, id: &str, actor: Option<&Account>, action: Action) {
        let by = actor.map(|a| (a.id, a.name.as_str()));
        let detail = action.params().to_string();
        if let Err(e) = self
            .store
            .audit(id, unix_ms(), by, action.code(), &detail)
            .await
        {
            tracing::error!(tournament = %id, "audit log: {e}");
        }
    }

    /// Creates an event organised by `actor`; returns its id.
    ///
    /// # Errors
    /// [`Error::BadRequest`] naming a bad field; [`Error::TooManyRequests`]
    /// past [`EVENTS_PER_DAY`]; database errors.
    pub async fn create(&self, actor: &Account, req: &SettingsRequest) -> Result<String, Error> {
        let settings = req.create()?;
        let now = unix_ms();
        let day = 24 * 3600 * 1000;
        if self
            .store
            .tournaments_created_since(actor.id, now.saturating_sub(day))
            .await?
            >= EVENTS_PER_DAY
        {
            return Err(Error::TooManyRequests {
                message: format!("at most {EVENTS_PER_DAY} events a day"),
                retry_after_s: 3600,
            });
        }
        let mut seed = [0u8; 8];
        getrandom::fill(&mut seed).map_err(|e| Error::Internal(format!("random seed: {e}")))?;
        let row = EventRow {
            id: token::new_game_id(),
            created_by: Some(actor.id),
            created_at_ms: now,
            settings: serde_json::to_string(&settings)
                .map_err(|e| Error::Internal(e.to_string()))?,
            seed: u64::from_le_bytes(seed),
        };
        self.store.insert_tournament(&row, &settings.name).await?;
        self.audit(
            &row.id,
            Some(actor),
            Action::Create {
                name: settings.name.clone(),
            },
        )
        .await;
        Ok(row.id)
    }

    /// Changes an event's settings.
    ///
    /// # Errors
    /// [`Error::Forbidden`] for others than organisers; the settings' errors.
    pub async fn update(
        &self,
        id: &str,
        actor: &Account,
        req: &SettingsRequest,
    ) -> Result<Value, Error> {
        let guard = self.hold(id).await?;
        let t = self.load_as_organiser(id, actor).await?;
        let settings = req.apply(t.settings.clone(), t.paired() > 0)?;
        if let Some(r) = settings.rounds {
            if r < t.paired() {
                return Err(Error::Conflict(format!(
                    "{} rounds are paired already",
                    t.paired()
                )));
            }
        }
        let text = serde_json::to_string(&settings).map_err(|e| Error::Internal(e.to_string()))?;
        self.store
            .update_tournament(id, &settings.name, &text)
            .await?;
        let settings = serde_json::from_str(&text).unwrap_or_default();
        self.audit(id, Some(actor), Action::Settings { settings })
            .await;
        drop(guard);
        self.get(id, Some(actor)).await
    }

    /// Deletes an event before its first round: its creator only (a
    /// co-organiser may do everything else).
    ///
    /// # Errors
    /// [`Error::Conflict`] once a round is paired; `organisers only` for a
    /// co-organiser.
    pub async fn delete(&self, id: &str, actor: &Account) -> Result<(), Error> {
        let _guard = self.hold(id).await?;
        let t = self.load_as_organiser(id, actor).await?;
        if t.rows.event.created_by != Some(actor.id) && !actor.is_admin() {
            return Err(Error::Forbidden(
                "only the event's creator deletes it".into(),
            ));
        }
        if t.paired() > 0 {
            return Err(Error::Conflict("an event with a paired round stays".into()));
        }
        self.store.delete_tournament(id).await?;
        Ok(())
    }

    /// The list of events (`mine`: those `user` organises or plays in).
    ///
    /// # Errors
    /// Database errors.
    pub async fn list(&self, user: Option<i64>, mine: bool) -> Result<Value, Error> {
        let rows = self
            .store
            .tournaments(if mine { user.or(Some(-1)) } else { None }, 100)
            .await?;
        let events: Vec<Value> = rows
            .iter()
            .filter_map(|r| {
                let s: settings::Settings = serde_json::from_str(&r.event.settings).ok()?;
                let planned = event::planned_rounds(&s, r.players);
                let status = if r.rounds_paired == 0 {
                    "registration"
                } else if r.rounds_paired >= planned && r.open_boards == 0 {
                    "finished"
                } else {
                    "running"
                };
                Some(json!({
                    "id": r.event.id, "name": s.name, "place": s.place,
                    "starts": s.starts, "ends": s.ends, "format": s.format,
                    "status": status, "players": r.players, "rounds": planned,
                    "round": r.rounds_paired,
                }))
            })
            .collect();
        Ok(json!({ "events": events }))
    }

    /// The event as `GET /api/tournaments/{id}` shows it to `viewer`.
    ///
    /// # Errors
    /// [`Error::NoSuch`] for an unknown event.
    pub async fn get(&self, id: &str, viewer: Option<&Account>) -> Result<Value, Error> {
        let t = self.load(id).await?;
        let mut v = view::event(&t, viewer);
        if viewer.is_some_and(|a| t.is_organiser(a.id) || a.is_admin()) {
            let pending = self.store.event_invitations(id).await?;
            v["invitations"] = view::invitations(&pending);
        }
        Ok(v)
    }

    /// Adds an entrant: an organiser adds an over-the-board player by name
    /// or invites another account ([`Entry::Invited`]: it enters only by
    /// accepting), an account adds itself to an open event before round 1.
    ///
    /// # Errors
    /// [`Error::Forbidden`], [`Error::Conflict`] (entered or invited twice,
    /// a round robin under way, the event full), [`Error::BadRequest`].
    pub async fn add_entrant(
        &self,
        id: &str,
        actor: &Account,
        req: &EntrantRequest,
    ) -> Result<Entry, Error> {
        let _guard = self.hold(id).await?;
        let t = self.load(id).await?;
        let organiser = t.is_organiser(actor.id) || actor.is_admin();
        let account = match req
            .account
            .as_deref()
            .map(str::trim)
            .filter(|a| !a.is_empty())
        {
            Some(name) => Some(
                self.store
                    .user_by_key(&name_key(name))
                    .await?
                    .ok_or(Error::NoSuch("player"))?,
            ),
            None if organiser => None,
            None => self.store.user_by_id(actor.id).await?,
        };
        if !organiser {
            if account.as_ref().is_none_or(|a| a.id != actor.id) {
                return Err(organisers_only());
            }
            if !t.settings.open || t.paired() > 0 {
                return Err(Problem::RegistrationClosed.into());
            }
        }
        if t.paired() > 0 && t.settings.format == FormatName::RoundRobin {
            return Err(Error::Conflict(
                "a round robin takes no new players once paired".into(),
            ));
        }
        if let Some(a) = &account {
            if t.entrant_of(a.id).is_some() {
                return Err(Problem::AlreadyEntered {
                    name: a.name.clone(),
                }
                .into());
            }
            // Consent: nobody is entered by someone else.
            if a.id != actor.id {
                let invitation = self.invite(&t, actor, a, req).await?;
                return Ok(Entry::Invited(invitation));
            }
        }
        if t.rows.players.len() >= MAX_PLAYERS {
            return Err(Problem::EventFull { max: MAX_PLAYERS }.into());
        }
        // An entry linked to an account carries the account's name and its
        // rating; only an organiser sets a rank (or a rating for someone
        // without one), so a player cannot enter as "8 dan, 4000".
        let name = match (req.name.as_deref(), &account) {
            (_, Some(a)) => a.name.clone(),
            (Some(n), None) => entrant_text("name", n)?,
            (None, None) => return Err(Error::BadRequest("name is required".into())),
        };
        let rank = req
            .rank
            .as_deref()
            .filter(|r| !r.trim().is_empty() && organiser)
            .map(|r| r.parse::<Rank>().map(Rank::short))
            .transpose()
            .map_err(Error::from)?;
        let mut rating = req
            .rating
            .filter(|_| organiser)
            .map(rating_of)
            .transpose()?;
        if let (None, None, Some(a)) = (rating, &rank, &account) {
            rating = self
                .store
                .rating(a.id, TimeClass::Classical)
                .await?
                .map(|r| r.rating.rating.round() as i32);
        }
        let club = req
            .club
            .as_deref()
            .filter(|c| !c.trim().is_empty())
            .map(|c| entrant_text("club", c))
            .transpose()?;
        let row = EntrantRow {
            number: 0,
            name,
            user: account.as_ref().map(|a| a.id),
            account: None,
            rating,
            rank,
            club,
            from_round: t.paired() + 1,
            withdrawn_from: None,
            proposed_rank: None,
        };
        let n = self.store.insert_entrant(id, &row).await?;
        let name = row.name.clone();
        self.audit(id, Some(actor), Action::AddPlayer { number: n, name })
            .await;
        Ok(Entry::Entered(n))
    }

    /// Changes an entrant's name, rating, rank or club (organisers).
    ///
    /// # Errors
    /// [`Error::NoSuch`] for an unknown number, [`Error::BadRequest`].
    pub async fn update_entrant(
        &self,
        id: &str,
        actor: &Account,
        number: u32,
        req: &EntrantRequest,
    ) -> Result<Value, Error> {
        let _guard = self.hold(id).await?;
        let t = self.load_as_organiser(id, actor).await?;
        let mut row = t.entrant(number).ok_or(Error::NoSuch("player"))?.clone();
        if req.account.is_some() {
            return Err(Error::BadRequest(
                "an entrant's account does not change".into(),
            ));
        }
        if let Some(n) = &req.name {
            if row.user.is_some() && n.trim() != row.name {
                return Err(Error::BadRequest(
                    "an entrant with an account keeps the account's name".into(),
                ));
            }
            row.name = entrant_text("name", n)?;
        }
        if let Some(r) = req.rating {
            row.rating = Some(rating_of(r)?);
        }
        if let Some(r) = &req.rank {
            row.rank = if r.trim().is_empty() {
                None
            } else {
                Some(r.parse::<Rank>()?.short())
            };
        }
        if let Some(c) = &req.club {
            row.club = if c.trim().is_empty() {
                None
            } else {
                Some(entrant_text("club", c)?)
            };
        }
        self.store.update_entrant(id, &row).await?;
        let name = row.name.clone();
        self.audit(id, Some(actor), Action::EditPlayer { number, name })
            .await;
        Ok(view::entrant(&row))
    }

    /// Withdraws an entrant (an organiser, or the entrant's account):
    /// removed before round 1, not paired from the next round after.
    ///
    /// # Errors
    /// [`Error::NoSuch`], [`Error::Forbidden`].
    pub async fn withdraw(&self, id: &str, actor: &Account, number: u32) -> Result<(), Error> {
        let _guard = self.hold(id).await?;
        let t = self.load(id).await?;
        let row = t.entrant(number).ok_or(Error::NoSuch("player"))?.clone();
        if !(t.is_organiser(actor.id) || actor.is_admin() || row.user == Some(actor.id)) {
            return Err(organisers_only());
        }
        if t.paired() == 0 {
            self.store.remove_entrant(id, number).await?;
        } else {
            let withdrawn = EntrantRow {
                withdrawn_from: Some(t.paired() + 1),
                ..row.clone()
            };
            self.store.update_entrant(id, &withdrawn).await?;
        }
        let name = row.name.clone();
        self.audit(id, Some(actor), Action::Withdraw { number, name })
            .await;
        Ok(())
    }

    /// Adds a co-organiser by account name.
    ///
    /// # Errors
    /// [`Error::NoSuch`] for an unknown account.
    pub async fn add_organiser(&self, id: &str, actor: &Account, name: &str) -> Result<(), Error> {
        let _guard = self.hold(id).await?;
        self.load_as_organiser(id, actor).await?;
        let user = self
            .store
            .user_by_key(&name_key(name))
            .await?
            .ok_or(Error::NoSuch("player"))?;
        self.store.add_organiser(id, user.id).await?;
        let name = user.name.clone();
        self.audit(id, Some(actor), Action::AddOrganiser { name })
            .await;
        Ok(())
    }

    /// Removes a co-organiser (not the creator).
    ///
    /// # Errors
    /// [`Error::NoSuch`], [`Error::Conflict`] for the creator.
    pub async fn remove_organiser(
        &self,
        id: &str,
        actor: &Account,
        name: &str,
    ) -> Result<(), Error> {
        let _guard = self.hold(id).await?;
        let t = self.load_as_organiser(id, actor).await?;
        let key = name_key(name);
        let (user, name) = t
            .rows
            .organisers
            .iter()
            .find(|(_, n)| name_key(n) == key)
            .cloned()
            .ok_or(Error::NoSuch("organiser"))?;
        if Some(user) == t.rows.event.created_by {
            return Err(Error::Conflict("the creator stays an organiser".into()));
        }
        self.store.remove_organiser(id, user).await?;
        self.audit(id, Some(actor), Action::RemoveOrganiser { name })
            .await;
        Ok(())
    }

    /// Pairs the next round, starts its online games; returns the round.
    ///
    /// # Errors
    /// [`Error::Conflict`] when the round cannot be paired (all paired, a
    /// result missing, too few players); [`Error::BadRequest`].
    pub async fn pair(
        &self,
        id: &str,
        actor: &Account,
        req: &RoundRequest,
    ) -> Result<Value, Error> {
        let _guard = self.hold(id).await?;
        let t = self.load_as_organiser(id, actor).await?;
        let n = t.rows.players.len();
        let player = |p: u32| -> Result<usize, Error> {
            if p == 0 || p as usize > n {
                return Err(Error::BadRequest(format!("no player {p}")));
            }
            Ok(p as usize - 1)
        };
        let mut request = Request::default();
        for s in &req.sit_out {
            let kind = if s.points == 0.0 {
                ByeKind::Zero
            } else if s.points == 0.5 {
                ByeKind::Half
            } else if s.points == 1.0 {
                ByeKind::Full
            } else {
                return Err(Error::BadRequest(
                    "sit_out points must be 0, 0.5 or 1".into(),
                ));
            };
            request.sit_out.push(Bye {
                player: player(s.player)?,
                kind,
            });
        }
        for &(a, b) in &req.forced {
            request.forced.push((player(a)?, player(b)?));
        }
        let event = t.event();
        let pairing = pair::pair_next(&event, &request).map_err(pairing_error)?;
        let round = t.paired() + 1;
        let mut boards = layout(&t, &pairing, round);
        // The games first (the rows name them); on failure they are aborted.
        for b in &mut boards {
            if b.row.play == BoardPlay::Online.name() {
                let handicap = b.row.handicap.parse::<Handicap>().unwrap_or(Handicap::Even);
                let seats = Self::seats(&t, b.row.sente, b.row.gote)?;
                match self
                    .start_game(&t, (round, b.row.board), seats, None, handicap, None)
                    .await
                {
                    Ok(game) => b.game = Some(game),
                    Err(e) => {
                        self.abort_new_games(&boards_games(&boards)).await;
                        return Err(e);
                    }
                }
            }
        }
        let warnings = warnings_json(&pairing.warnings);
        let byes: Vec<(u32, &str)> = pairing
            .byes
            .iter()
            .map(|b| (b.player as u32 + 1, bye_name(b.kind)))
            .collect();
        if let Err(e) = self
            .store
            .insert_round(id, round, unix_ms(), &warnings.to_string(), &boards, &byes)
            .await
        {
            self.abort_new_games(&boards_games(&boards)).await;
            return Err(e.into());
        }
        self.audit(
            id,
            Some(actor),
            Action::PairRound {
                round,
                boards: boards.len(),
                byes: byes.iter().map(|b| b.0).collect(),
                forced: req.forced.clone(),
            },
        )
        .await;
        let t = self.load(id).await?;
        let r = t
            .rows
            .rounds
            .last()
            .ok_or_else(|| Error::Internal("round not stored".into()))?;
        Ok(view::round(&t, r))
    }

    fn seats(t: &Loaded, sente: u32, gote: u32) -> Result<ByColor<Identity>, Error> {
        let seat = |n: u32| -> Result<Identity, Error> {
            let p = t.entrant(n).ok_or(Error::NoSuch("player"))?;
            let id = p
                .user
                .ok_or_else(|| Error::Conflict(format!("{} has no account", p.name)))?;
            Ok(Identity::Account {
                id,
                name: p.account.clone().unwrap_or_else(|| p.name.clone()),
            })
        };
        Ok(ByColor::new(seat(sente)?, seat(gote)?))
    }

    /// Starts the online game of board `place` (round, board) of event `t`.
    async fn start_game(
        &self,
        t: &Loaded,
        (round, board): (u32, u32),
        seats: ByColor<Identity>,
        clocks: Option<ByColor<Clock>>,
        handicap: Handicap,
        replay: Option<Replay>,
    ) -> Result<String, Error> {
        let tc = t.settings.time;
        self.rooms
            .create_event_game(&EventGame {
                seats,
                clocks: clocks.unwrap_or_else(|| ByColor::new(Clock::new(tc), Clock::new(tc))),
                impasse: t.settings.impasse,
                handicap,
                rated: t.settings.rated,
                replay,
                event: EventPlace {
                    id: t.id().to_owned(),
                    name: t.settings.name.clone(),
                    round,
                    board,
                    chat: t.settings.chat,
                    takebacks: t.settings.takebacks,
                },
            })
            .await
    }

    /// Aborts the unplayed `games` of a change that drops them (a round
    /// unpaired, a board moved over the board or given a handicap), before
    /// the change is stored. A game that cannot be aborted refuses the
    /// change, so that no game is left live without a board: one that
    /// began meanwhile (`409`), or one whose holder, another instance,
    /// cannot be reached (`503`: once its lease runs out, an instance takes
    /// the game over and the organiser's next try aborts it there). Games
    /// aborted before the refusal stay aborted; a second try finds them over.
    async fn abort_games(&self, games: &[String]) -> Result<(), Error> {
        for g in games {
            self.rooms.abort_unstarted(g).await?;
        }
        Ok(())
    }

    /// Aborts each game of a pairing that failed, as far as it can (the
    /// failure is what the organiser sees).
    async fn abort_new_games(&self, games: &[String]) {
        for g in games {
            if let Err(e) = self.rooms.abort_unstarted(g).await {
                tracing::warn!(game = %g, "aborting a game of a failed pairing: {e}");
            }
        }
    }

    /// Unpairs the last round while nothing of it has been played.
    ///
    /// # Errors
    /// [`Error::Conflict`] once a result or a move exists; [`Error::NoSuch`];
    /// [`Error::Unavailable`] while a game's holder cannot be reached (the
    /// round stays paired).
    pub async fn unpair(&self, id: &str, actor: &Account, round: u32) -> Result<(), Error> {
        let _guard = self.hold(id).await?;
        let t = self.load_as_organiser(id, actor).await?;
        let last = t.rows.rounds.last().ok_or(Error::NoSuch("round"))?;
        if last.round != round {
            return Err(Error::Conflict(
                "only the last round can be unpaired".into(),
            ));
        }
        let played = last.boards.iter().any(|b| {
            b.games.iter().any(|g| g.moves > 0) || (b.result.is_some() && !preset_forfeit(&t, b))
        });
        if played {
            return Err(Error::Conflict(
                "the round has begun: results or moves exist".into(),
            ));
        }
        let games: Vec<String> = last
            .boards
            .iter()
            .flat_map(|b| b.games.iter().map(|g| g.id.clone()))
            .collect();
        self.abort_games(&games).await?;
        self.store.delete_round(id, round).await?;
        self.audit(id, Some(actor), Action::UnpairRound { round })
            .await;
        Ok(())
    }

    /// Sets a board's result, uploads its record, or moves it between
    /// online and over the board (organisers). `body` is the JSON object of
    /// `PUT .../boards/{b}`.
    ///
    /// # Errors
    /// [`Error::BadRequest`] naming the bad field or the bad move of a record.
    pub async fn set_board(
        &self,
        id: &str,
        actor: &Account,
        round: u32,
        board: u32,
        body: &serde_json::Map<String, Value>,
    ) -> Result<Value, Error> {
        let _guard = self.hold(id).await?;
        let t = self.load_as_organiser(id, actor).await?;
        let mut row = t.board(round, board).ok_or(Error::NoSuch("board"))?.clone();
        for key in body.keys() {
            if !["result", "kif", "play", "handicap"].contains(&key.as_str()) {
                return Err(Error::BadRequest(format!("unknown field {key}")));
            }
        }
        let mut details = Vec::new();
        if let Some(v) = body.get("result") {
            row.result = match v {
                Value::Null => None,
                Value::String(s) if result_of_name(s).is_some() => Some(s.clone()),
                _ => {
                    return Err(Error::BadRequest(
                        "result must be sente, gote, draw, sente_forfeit, gote_forfeit, double_forfeit or null".into(),
                    ))
                }
            };
            details.push(BoardChange::Result {
                result: row.result.clone(),
            });
        }
        if let Some(v) = body.get("handicap") {
            let h = v
                .as_str()
                .and_then(|s| s.parse::<Handicap>().ok())
                .ok_or_else(|| {
                    Error::BadRequest(
                        "handicap must be a handicap's name (even, lance, bishop, rook...)".into(),
                    )
                })?;
            if h.name() != row.handicap {
                self.change_handicap(&t, &mut row, h).await?;
                details.push(BoardChange::Handicap {
                    handicap: h.name().to_owned(),
                });
            }
        }
        if let Some(v) = body.get("kif") {
            let Value::String(text) = v else {
                return Err(Error::BadRequest("kif must be the record's text".into()));
            };
            row.record = Some(exports::checked_record(&t, &row, text)?);
            details.push(BoardChange::Record);
        }
        if let Some(v) = body.get("play") {
            let play = match v.as_str() {
                Some("online") => BoardPlay::Online,
                Some("otb") => BoardPlay::Otb,
                _ => return Err(Error::BadRequest("play must be online or otb".into())),
            };
            if play != BoardPlay::of_name(&row.play) {
                self.switch_play(&t, &mut row, play).await?;
                details.push(BoardChange::Play {
                    play: play.name().to_owned(),
                });
            }
        }
        self.store.update_board(id, &row).await?;
        self.audit(
            id,
            Some(actor),
            Action::Board {
                round,
                board,
                changes: details,
            },
        )
        .await;
        let t = self.load(id).await?;
        let row = t.board(round, board).ok_or(Error::NoSuch("board"))?;
        Ok(view::board(&t, row))
    }

    /// Sets a board's handicap (the Gote player gives it) before anything
    /// is played on it; an online board's game starts again from the new
    /// position.
    async fn change_handicap(
        &self,
        t: &Loaded,
        row: &mut BoardRow,
        h: Handicap,
    ) -> Result<(), Error> {
        if row.result.is_some() || row.games.iter().any(|g| g.moves > 0) {
            return Err(Error::Conflict("the board has been played".into()));
        }
        row.handicap = h.name().to_string();
        if BoardPlay::of_name(&row.play) == BoardPlay::Online {
            let games: Vec<String> = row.games.iter().map(|g| g.id.clone()).collect();
            self.abort_games(&games).await?;
            let seats = Self::seats(t, row.sente, row.gote)?;
            let game = self
                .start_game(t, (row.round, row.board), seats, None, h, None)
                .await?;
            self.store
                .clear_board_games(t.id(), row.round, row.board)
                .await?;
            self.store
                .add_board_game(t.id(), row.round, row.board, &game)
                .await?;
        }
        Ok(())
    }

    async fn switch_play(
        &self,
        t: &Loaded,
        row: &mut BoardRow,
        play: BoardPlay,
    ) -> Result<(), Error> {
        if t.settings.play != PlayMode::Mixed {
            return Err(Error::Conflict("only a mixed event moves boards".into()));
        }
        match play {
            BoardPlay::Otb => {
                if row.games.iter().any(|g| g.moves > 0) {
                    return Err(Error::Conflict("the game has begun".into()));
                }
                let games: Vec<String> = row.games.iter().map(|g| g.id.clone()).collect();
                self.abort_games(&games).await?;
                self.store
                    .clear_board_games(t.id(), row.round, row.board)
                    .await?;
                row.games.clear();
            }
            BoardPlay::Online => {
                if row.result.is_some() {
                    return Err(Problem::BoardHasResult.into());
                }
                let seats = Self::seats(t, row.sente, row.gote)?;
                let handicap = row.handicap.parse::<Handicap>().unwrap_or(Handicap::Even);
                let game = self
                    .start_game(t, (row.round, row.board), seats, None, handicap, None)
                    .await?;
                self.store
                    .clear_board_games(t.id(), row.round, row.board)
                    .await?;
                self.store
                    .add_board_game(t.id(), row.round, row.board, &game)
                    .await?;
            }
        }
        row.play = play.name().to_string();
        Ok(())
    }

    /// A player's report of their over-the-board result; two equal reports
    /// enter it.
    ///
    /// # Errors
    /// [`Error::Forbidden`] for anyone but the board's players.
    pub async fn report(
        &self,
        id: &str,
        actor: &Account,
        round: u32,
        board: u32,
        result: &str,
    ) -> Result<Value, Error> {
        let _guard = self.hold(id).await?;
        let t = self.load(id).await?;
        let mut row = t.board(round, board).ok_or(Error::NoSuch("board"))?.clone();
        if !matches!(result, "sente" | "gote" | "draw") {
            return Err(Error::BadRequest(
                "result must be sente, gote or draw".into(),
            ));
        }
        let user_of = |n: u32| t.entrant(n).and_then(|p| p.user);
        let side = if user_of(row.sente) == Some(actor.id) {
            Color::Sente
        } else if user_of(row.gote) == Some(actor.id) {
            Color::Gote
        } else {
            return Err(Error::Forbidden(
                "only the board's players report its result".into(),
            ));
        };
        if BoardPlay::of_name(&row.play) == BoardPlay::Online {
            return Err(Error::Conflict(
                "an online game reports its own result".into(),
            ));
        }
        if row.result.is_some() {
            return Err(Problem::BoardHasResult.into());
        }
        match side {
            Color::Sente => row.reports.0 = Some(result.to_string()),
            Color::Gote => row.reports.1 = Some(result.to_string()),
        }
        if row.reports.0.is_some() && row.reports.0 == row.reports.1 {
            row.result.clone_from(&row.reports.0);
        }
        self.store.update_board(id, &row).await?;
        self.audit(
            id,
            Some(actor),
            Action::Report {
                round,
                board,
                result: result.to_string(),
            },
        )
        .await;
        let t = self.load(id).await?;
        let row = t.board(round, board).ok_or(Error::NoSuch("board"))?;
        Ok(view::board(&t, row))
    }

    /// The unfinished event games of `user` ("your game is ready").
    ///
    /// # Errors
    /// Database errors.
    pub async fn ready_games(&self, user: i64) -> Result<Value, Error> {
        let rows = self.store.ready_games(user).await?;
        let games: Vec<Value> = rows
            .iter()
            .map(|r| {
                let name = serde_json::from_str::<settings::Settings>(&r.settings)
                    .map(|s| s.name)
                    .unwrap_or_default();
                json!({
                    "tournament": r.tournament, "name": name, "round": r.round,
                    "board": r.board, "game": r.game, "side": r.side, "opponent": r.opponent,
                })
            })
            .collect();
        Ok(json!({ "games": games }))
    }

    /// The audit log (organisers).
    ///
    /// # Errors
    /// [`Error::Forbidden`].
    pub async fn audit_log(&self, id: &str, actor: &Account) -> Result<Value, Error> {
        self.load_as_organiser(id, actor).await?;
        let rows = self.store.audit_log(id).await?;
        let entries: Vec<Value> = rows
            .iter()
            .map(|r| {
                let e = audit::Entry::read(&r.action, &r.detail);
                json!({"at_ms": r.at_ms, "by": r.by, "action": e.action, "params": e.params})
            })
            .collect();
        Ok(json!({ "entries": entries }))
    }

    /// Starts the task that hears of every ending the rooms report and
    /// replays a sennichite of an online event game (once per service;
    /// `None` the second time).
    #[must_use]
    pub fn spawn_replays(&self) -> Option<JoinHandle<()>> {
        let mut endings = self.endings.lock().ok()?.take()?;
        let this = self.clone();
        Some(tokio::spawn(async move {
            while let Some(end) = endings.recv().await {
                if let Err(e) = this.hear(&end).await {
                    tracing::error!(game = %end.id, "an event game's ending (due at the next start): {e}");
                }
            }
        }))
    }

    /// Hears of every ending still due to the tournaments (its process
    /// died before they heard of it), the oldest first; returns how many
    /// it carried out. One that fails stays due and is logged.
    ///
    /// # Errors
    /// The outbox cannot be read.
    pub async fn hear_due(&self) -> Result<usize, Error> {
        let mut carried = 0;
        for due in self.store.due(Consequence::Tournament).await? {
            let heard = match self.rooms.stored_end(&due.game_id).await {
                Ok(Some(end)) => self.hear(&end).await,
                // Not over (never recorded so) or gone: nothing to hear.
                Ok(None) => self
                    .store
                    .done(&due.game_id, Consequence::Tournament)
                    .await
                    .map(drop)
                    .map_err(Error::from),
                Err(e) => Err(e),
            };
            match heard {
                Ok(()) => carried += 1,
                Err(e) => tracing::error!(game = %due.game_id, "an event game's ending: {e}"),
            }
        }
        Ok(carried)
    }

    /// What an event game's ending changes: the board's result is the
    /// game's own (nothing to store), and a sennichite is replayed. Marks
    /// the ending heard; an ending heard already changes nothing.
    ///
    /// # Errors
    /// Database errors (the ending stays due then).
    pub async fn hear(&self, end: &GameEnd) -> Result<(), Error> {
        if end.ending == Ending::Repetition {
            return self.replay(&end.id, end.clocks).await;
        }
        if let Ending::Timeout { loser } = end.ending {
            if !end.opened[loser] && !end.opened[loser.opponent()] {
                self.double_forfeit(&end.id).await?;
            }
        }
        self.store.done(&end.id, Consequence::Tournament).await?;
        Ok(())
    }

    /// Enters a double forfeit on the board of event game `game`, lost on
    /// time by a player who never came, when the opponent never opened the
    /// game either: its first game, without a move and without a result
    /// entered meanwhile (a single forfeit otherwise: [`event::game_result`]).
    async fn double_forfeit(&self, game: &str) -> Result<(), Error> {
        let Some((id, round, board)) = self.store.board_of_game(game).await? else {
            return Ok(());
        };
        let _guard = self.hold(&id).await?;
        let t = self.load(&id).await?;
        let Some(row) = t.board(round, board).filter(|row| {
            row.result.is_none()
                && row.games.len() == 1
                && row.games[0].id == game
                && row.games[0].moves == 0
        }) else {
            return Ok(());
        };
        let mut row = row.clone();
        row.result = Some(result_name(GameResult::DoubleForfeit).to_string());
        self.store.update_board(&id, &row).await?;
        let action = Action::DoubleForfeit {
            round,
            board,
            game: game.to_string(),
        };
        self.audit(&id, None, action).await;
        Ok(())
    }

    /// Starts the replay of event game `game`, drawn by repetition, with
    /// the colours reversed and each player's remaining time. A handicap
    /// board is not replayed (its giver stays Gote): the draw stands. The
    /// replay is stored with its place on the board and the mark that the
    /// sennichite was heard, in one transaction; a sennichite replayed
    /// already (the board's last game is no longer `game`) is not replayed
    /// again.
    ///
    /// # Errors
    /// Database errors.
    pub async fn replay(&self, game: &str, clocks: Option<ByColor<Clock>>) -> Result<(), Error> {
        let Some((id, round, board)) = self.store.board_of_game(game).await? else {
            self.store.done(game, Consequence::Tournament).await?;
            return Ok(());
        };
        // Checked again under the lock: another instance may have
        // replayed it (then the board's last game is no longer `game`).
        let _guard = self.hold(&id).await?;
        let t = self.load(&id).await?;
        let row = t.board(round, board).filter(|row| {
            row.games.last().is_some_and(|g| g.id == game)
                && row.result.is_none()
                && row.handicap == Handicap::Even.name()
        });
        let Some(row) = row else {
            self.store.done(game, Consequence::Tournament).await?;
            return Ok(());
        };
        let last = row.games.len().saturating_sub(1);
        // The next game swaps the colours of the one just drawn.
        let (sente, gote) = if reversed(last + 1) {
            (row.gote, row.sente)
        } else {
            (row.sente, row.gote)
        };
        let seats = Self::seats(&t, sente, gote)?;
        let clocks = clocks.map(|c| ByColor::new(c[Color::Gote], c[Color::Sente]));
        let replay = Replay {
            tournament: id.clone(),
            round,
            board,
            drawn: game.to_owned(),
        };
        let new = self
            .start_game(
                &t,
                (round, board),
                seats,
                clocks,
                Handicap::Even,
                Some(replay),
            )
            .await?;
        self.audit(
            &id,
            None,
            Action::SennichiteReplay {
                round,
                board,
                game: game.to_string(),
                replay: new,
            },
        )
        .await;
        Ok(())
    }

    /// The crosstable as CSV for a spreadsheet in `lang`; the event's name.
    ///
    /// # Errors
    /// [`Error::NoSuch`].
    pub async fn crosstable_csv(
        &self,
        id: &str,
        lang: shogi_tournament::crosstable::CsvLanguage,
    ) -> Result<(String, String), Error> {
        let t = self.load(id).await?;
        Ok((t.settings.name.clone(), exports::crosstable_csv(&t, lang)))
    }

    /// The federations' plain-text report; the event's name.
    ///
    /// # Errors
    /// [`Error::NoSuch`].
    pub async fn report_txt(&self, id: &str) -> Result<(String, String), Error> {
        let t = self.load(id).await?;
        Ok((t.settings.name.clone(), exports::federation_report(&t)))
    }

    /// Every game of the event as one ZIP of KIF files; the event's name.
    ///
    /// # Errors
    /// [`Error::NoSuch`]; database errors.
    pub async fn games_zip(&self, id: &str) -> Result<(String, Vec<u8>), Error> {
        let t = self.load(id).await?;
        Ok((
            t.settings.name.clone(),
            exports::games_zip(&self.store, &t).await?,
        ))
    }

    /// One board's record as KIF.
    ///
    /// # Errors
    /// [`Error::NoSuch`] for a board without a record or a game.
    pub async fn board_record(&self, id: &str, round: u32, board: u32) -> Result<String, Error> {
        let t = self.load(id).await?;
        let row = t.board(round, board).ok_or(Error::NoSuch("board"))?;
        exports::board_kif(&self.store, &t, row)
            .await?
            .ok_or(Error::NoSuch("record"))
    }
}

/// The rows of a paired round's boards: handicap events turned so that the
/// stronger player is Gote, each board online where the event and the
/// players' accounts allow.
fn layout(t: &Loaded, pairing: &pair::Pairing, round: u32) -> Vec<NewBoard> {
    let mut boards = Vec::with_capacity(pairing.boards.len());
    for (i, b) in pairing.boards.iter().enumerate() {
        let (mut sente, mut gote) = (&t.rows.players[b.sente], &t.rows.players[b.gote]);
        let mut colours = colours_name(b.colours).to_string();
        let mut handicap = Handicap::Even;
        let mut result = b.result;
        if t.settings.handicap {
            let (swap, h) = handicaps::orient(event::grade(sente), event::grade(gote));
            if swap {
                std::mem::swap(&mut sente, &mut gote);
                result = result.map(flipped);
            }
            if swap || h != Handicap::Even {
                colours = "handicap".into();
            }
            handicap = h;
        }
        let toss = match b.colours {
            shogi_tournament::ColourChoice::Furigoma(toss) if colours == "furigoma" => {
                Some((toss.tosser as u32 + 1, toss.fu_up))
            }
            _ => None,
        };
        let both_accounts = sente.user.is_some() && gote.user.is_some();
        let play = match t.settings.play {
            PlayMode::Online | PlayMode::Mixed if both_accounts && result.is_none() => {
                BoardPlay::Online
            }
            _ => BoardPlay::Otb,
        };
        boards.push(NewBoard {
            row: BoardRow {
                round,
                board: i as u32 + 1,
                sente: sente.number,
                gote: gote.number,
                colours,
                toss,
                handicap: handicap.name().to_string(),
                play: play.name().to_string(),
                result: result.map(|r| result_name(r).to_string()),
                ..BoardRow::default()
            },
            game: None,
        });
    }
    boards
}

/// The same result seen from the other side of the board.
fn flipped(r: GameResult) -> GameResult {
    match r {
        GameResult::SenteWin => GameResult::GoteWin,
        GameResult::GoteWin => GameResult::SenteWin,
        GameResult::SenteForfeit => GameResult::GoteForfeit,
        GameResult::GoteForfeit => GameResult::SenteForfeit,
        GameResult::Draw | GameResult::DoubleForfeit => r,
    }
}

/// Whether a board's result was set by the pairing (a withdrawn player's
/// forfeit) rather than played.
fn preset_forfeit(t: &Loaded, b: &BoardRow) -> bool {
    let withdrawn = |n: u32| {
        t.entrant(n)
            .is_some_and(|p| p.withdrawn_from.is_some_and(|w| w <= b.round))
    };
    matches!(
        board_result(b),
        Some(GameResult::SenteForfeit | GameResult::GoteForfeit | GameResult::DoubleForfeit)
    ) && (withdrawn(b.sente) || withdrawn(b.gote))
}

fn boards_games(boards: &[NewBoard]) -> Vec<String> {
    boards.iter().filter_map(|b| b.game.clone()).collect()
}

fn warnings_json(w: &[Warning]) -> Value {
    Value::Array(
        w.iter()
            .map(|w| json!({"rule": w.rule.key(), "players": w.players.iter().map(|p| p + 1).collect::<Vec<_>>()}))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    #[tokio::test]
    async fn one_event_never_waits_for_another() {
        let locks = EventLocks::new();
        let a = locks.lock("aaaaaaaaaaaa").await;
        // Another event: at once, while the first is held.
        let b = locks.lock("bbbbbbbbbbbb").now_or_never();
        assert!(b.is_some(), "another event waited");
        // The same event waits until the first lets go.
        let mut again = Box::pin(locks.lock("aaaaaaaaaaaa"));
        assert!((&mut again).now_or_never().is_none());
        drop(a);
        let a2 = (&mut again).now_or_never().expect("free once released");
        drop((a2, b, again));
        // Nobody holds or waits: the locks are forgotten.
        assert!(locks.by_event.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn at_most_a_few_events_change_at_once() {
        let locks = EventLocks::new();
        let mut held = Vec::new();
        for i in 0..EVENTS_CHANGING_AT_ONCE {
            held.push(locks.lock(&format!("event{i:07}")).await);
        }
        let mut next = Box::pin(locks.lock("eventnext000"));
        assert!((&mut next).now_or_never().is_none());
        held.pop();
        assert!((&mut next).now_or_never().is_some());
    }
}
