//! The room registry: the live room of every game in play, started when a
//! game is created, or loaded from the store the first time it is asked
//! for. The map from game id to room is locked only to create, open or
//! restore a game.
//!
//! With several instances on one database ([`Rooms::with_leases`]), a room
//! is opened only by the instance that takes the game's lease
//! ([`crate::games::leases`]); [`Rooms::locate`] says where another instance holds
//! it, every write of the room is fenced by the lease's epoch, and
//! [`Rooms::adopt_orphans`] takes over the unfinished games of an instance
//! that died.
//!
//! Finished games leave memory: [`Rooms::sweep`] (called every few seconds
//! by the task of [`Rooms::spawn_sweeper`]) stops the room of every finished
//! game that no WebSocket has watched for the room idle time (measured on the
//! rooms' [`TimeSource`](crate::TimeSource)); the next request loads it again.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use shogi_core::{ByColor, Color, Handicap, ImpasseRule};
use tokio::sync::RwLock;
use tokio::task::JoinHandle;

use crate::db::players::GamePlayers;
use crate::db::tournaments::Replay;
use crate::db::{Fence, NewGame, StoredGame};
use crate::error::Error;
use crate::game::clock::{Clock, TimeControl};
use crate::game::{AiSeat, EventPlace, Mode, RulesView, Seat, Settings, SideChoice, StartChoice};
use crate::games::create::{level_of, rules_of, start_of, CreateGame, Created};
use crate::games::leases::{Acquired, Leases};
use crate::games::players::{self, Identity, SeatPlayer};
use crate::games::room::{self, GameEnd, RoomDeps, RoomHandle, RoomInit};
use crate::lobby::Seek;
use crate::ratings::TimeClass;
use crate::time::unix_ms;
use crate::token;

/// How long a finished game nobody watches stays in memory by default.
pub const ROOM_IDLE: Duration = Duration::from_secs(60);

/// The live rooms and what they share (cheap to clone).
#[derive(Clone)]
pub struct Rooms {
    deps: RoomDeps,
    map: Arc<RwLock<HashMap<String, Live>>>,
    room_idle_ms: u64,
    /// With several instances: this instance's leases.
    leases: Option<Leases>,
    /// With several instances: how to reach the holders of other games.
    holders: Option<Arc<dyn Holders>>,
}

/// A room in memory and the lease it was opened under.
#[derive(Clone)]
struct Live {
    room: RoomHandle,
    fence: Option<Fence>,
}

/// Where a game's room is: here, or on the instance holding its lease.
#[derive(Clone)]
pub enum Located {
    /// In this instance.
    Here(RoomHandle),
    /// On another instance, reachable at this address (`host:port`).
    Elsewhere(String),
}

fn duration_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn elsewhere(id: &str) -> Error {
    Error::Conflict(format!("game {id} is played on another instance"))
}

/// How this instance asks the instance holding a game's lease to act on
/// the game: the requests between instances live in `api::forward`, which
/// gives [`Rooms::with_holders`] its implementation.
pub trait Holders: Send + Sync + std::fmt::Debug {
    /// Asks the instance at `address` to abort game `id` if no move has
    /// been made ([`Rooms::abort_unstarted_here`] there): whether it did.
    fn abort_unstarted<'a>(
        &'a self,
        address: &'a str,
        id: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<bool, Error>> + Send + 'a>>;
}

fn bad(msg: impl Into<String>) -> Error {
    Error::BadRequest(msg.into())
}

fn creator_of(choice: SideChoice) -> Color {
    match choice {
        SideChoice::Sente => Color::Sente,
        SideChoice::Gote => Color::Gote,
        SideChoice::Random if token::coin() => Color::Sente,
        SideChoice::Random => Color::Gote,
    }
}

/// The seats of a new game: the tokens, the creator's seat as shown, the invite.
struct Seats {
    tokens: ByColor<Option<String>>,
    side: Seat,
    invite: Option<String>,
}

fn seats_of(mode: Mode, creator: Color, seat_token: &str) -> Seats {
    let mut tokens: ByColor<Option<String>> = ByColor::default();
    let creator_side = Seat::from(creator);
    match mode {
        Mode::Local => {
            tokens[Color::Sente] = Some(seat_token.to_string());
            tokens[Color::Gote] = Some(seat_token.to_string());
            Seats {
                tokens,
                side: Seat::Both,
                invite: None,
            }
        }
        Mode::Ai => {
            tokens[creator] = Some(seat_token.to_string());
            Seats {
                tokens,
                side: creator_side,
                invite: None,
            }
        }
        Mode::Friend => {
            tokens[creator] = Some(seat_token.to_string());
            Seats {
                tokens,
                side: creator_side,
                invite: Some(token::new_token()),
            }
        }
    }
}

/// The clocks of a stored game.
fn stored_clocks(g: &StoredGame, tc: TimeControl) -> ByColor<Clock> {
    let clock = |(main_ms, periods_left): (u64, u32)| Clock {
        control: tc,
        main_ms,
        periods_left,
    };
    ByColor::new(
        clock(g.clock_values[Color::Sente]),
        clock(g.clock_values[Color::Gote]),
    )
}

impl Rooms {
    /// No rooms yet; every room will share `deps`.
    #[must_use]
    pub fn new(deps: RoomDeps) -> Rooms {
        Rooms {
            deps,
            map: Arc::default(),
            room_idle_ms: duration_ms(ROOM_IDLE),
            leases: None,
            holders: None,
        }
    }

    /// The same rooms, sharing the database with other instances: each
    /// room opened under the game's lease (`None`: this instance is alone).
    #[must_use]
    pub fn with_leases(mut self, leases: Option<Leases>) -> Rooms {
        self.leases = leases;
        self
    }

    /// The same rooms, asking `holders` to act on games other instances
    /// hold (`None`: such a game is a conflict).
    #[must_use]
    pub fn with_holders(mut self, holders: Option<Arc<dyn Holders>>) -> Rooms {
        self.holders = holders;
        self
    }

    /// This instance's leases (`None`: alone).
    #[must_use]
    pub fn leases(&self) -> Option<&Leases> {
        self.leases.as_ref()
    }

    /// The same rooms, with finished games leaving memory after `idle` unwatched.
    #[must_use]
    pub fn with_room_idle(mut self, idle: Duration) -> Rooms {
        self.room_idle_ms = duration_ms(idle);
        self
    }

    /// How many rooms are in memory.
    pub async fn live_count(&self) -> usize {
        self.map.read().await.len()
    }

    /// Stops and forgets the room of every finished game that no WebSocket
    /// has watched for the room idle time; returns how many.
    pub async fn sweep(&self) -> usize {
        let idle: Vec<(String, Live)> = self
            .map
            .read()
            .await
            .iter()
            .filter(|(_, live)| {
                live.room
                    .connections()
                    .idle_ms()
                    .is_some_and(|ms| ms >= self.room_idle_ms)
            })
            .map(|(id, live)| (id.clone(), live.clone()))
            .collect();
        let mut dropped = 0;
        for (id, live) in idle {
            // A room whose task has stopped answers nothing: it goes too.
            if !live.room.snapshot().await.is_none_or(|v| v.status.over) {
                continue;
            }
            {
                let mut map = self.map.write().await;
                // Someone may have connected meanwhile.
                if live.room.connections().open() > 0 {
                    continue;
                }
                map.remove(&id);
            }
            live.room.shutdown().await;
            self.release(&id, live.fence.as_ref()).await;
            dropped += 1;
        }
        dropped
    }

    /// Starts a task that calls [`Rooms::sweep`] every `every` (real time).
    #[must_use]
    pub fn spawn_sweeper(&self, every: Duration) -> JoinHandle<()> {
        let rooms = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let n = rooms.sweep().await;
                if n > 0 {
                    tracing::debug!("{n} finished games left memory");
                }
            }
        })
    }

    /// The live room of game `id`, loading it from the store if needed.
    ///
    /// # Errors
    /// [`Error::NotFound`] for an unknown game; [`Error::Conflict`] if
    /// another instance holds it; database errors.
    pub async fn room(&self, id: &str) -> Result<RoomHandle, Error> {
        match self.locate(id).await? {
            Located::Here(room) => Ok(room),
            Located::Elsewhere(_) => Err(elsewhere(id)),
        }
    }

    /// Where the room of game `id` is: here (loaded from the store, under
    /// the game's lease with several instances, if it was not in memory),
    /// or on the instance that holds the game's lease.
    ///
    /// # Errors
    /// [`Error::NotFound`] for an unknown game; database errors.
    pub async fn locate(&self, id: &str) -> Result<Located, Error> {
        if !token::is_game_id(id) {
            return Err(Error::NotFound);
        }
        if let Some(live) = self.map.read().await.get(id) {
            if !live.room.is_stopped() {
                return Ok(Located::Here(live.room.clone()));
            }
        }
        // Held by another instance (every request forwarded there passes
        // here): one read, without the lock.
        if let Some(leases) = &self.leases {
            if let Some(holder) = self.deps.store.lease_holder(id, unix_ms()).await? {
                if holder.instance_id != leases.instance_id() {
                    return Ok(Located::Elsewhere(holder.address));
                }
            }
        }
        // Rare (a game not touched since the server started): load under the write lock
        // so that two requests cannot start two rooms for one game.
        let mut map = self.map.write().await;
        if let Some(live) = map.get(id) {
            if !live.room.is_stopped() {
                return Ok(Located::Here(live.room.clone()));
            }
            // Its room stopped: another instance took the game over.
            map.remove(id);
        }
        let fence = match self.take_lease(id).await? {
            Ok(fence) => fence,
            Err(address) => return Ok(Located::Elsewhere(address)),
        };
        let Some(room) = self.load(id, fence.clone()).await? else {
            self.release(id, fence.as_ref()).await;
            return Err(Error::NotFound);
        };
        map.insert(
            id.to_string(),
            Live {
                room: room.clone(),
                fence,
            },
        );
        Ok(Located::Here(room))
    }

    /// Takes game `id`'s lease when there are several instances: the fence
    /// for the room's writes (`None` when alone), or the address of the
    /// instance that holds it.
    async fn take_lease(&self, id: &str) -> Result<Result<Option<Fence>, String>, Error> {
        let Some(leases) = &self.leases else {
            return Ok(Ok(None));
        };
        match leases.acquire(id, unix_ms()).await {
            Ok(Acquired::Mine(lease)) => Ok(Ok(Some(Fence {
                instance_id: leases.instance_id().to_owned(),
                epoch: lease.epoch,
            }))),
            Ok(Acquired::HeldBy(holder)) => Ok(Err(holder.address)),
            // A lease names its game: an unknown game cannot have one.
            Err(_) if self.deps.store.load(id).await?.is_none() => Err(Error::NotFound),
            Err(e) => Err(e.into()),
        }
    }

    /// Gives up game `id`'s lease, if the room had one (its room has left memory).
    async fn release(&self, id: &str, fence: Option<&Fence>) {
        let (Some(leases), Some(fence)) = (&self.leases, fence) else {
            return;
        };
        let lease = crate::games::leases::Lease {
            game_id: id.to_owned(),
            epoch: fence.epoch,
        };
        if let Err(e) = leases.release(&lease).await {
            tracing::warn!(game = %id, "releasing the lease: {e}");
        }
    }

    /// Takes over every unfinished game whose lease is free or expired (an
    /// instance died, or none ever opened it); returns how many rooms it
    /// opened. Alone (no leases), it does nothing.
    ///
    /// # Errors
    /// Database errors.
    pub async fn adopt_orphans(&self) -> Result<usize, Error> {
        if self.leases.is_none() {
            return Ok(0);
        }
        let mut opened = 0;
        for id in self.deps.store.orphaned_games(unix_ms()).await? {
            if matches!(self.locate(&id).await?, Located::Here(_)) {
                opened += 1;
            }
        }
        Ok(opened)
    }

    /// Starts a task that calls [`Rooms::adopt_orphans`] every `every`
    /// (real time); `None` when alone.
    #[must_use]
    pub fn spawn_adopter(&self, every: Duration) -> Option<JoinHandle<()>> {
        self.leases.as_ref()?;
        let rooms = self.clone();
        Some(tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                match rooms.adopt_orphans().await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!("{n} games of another instance taken over"),
                    Err(e) => tracing::warn!("taking over games: {e}"),
                }
            }
        }))
    }

    async fn load(&self, id: &str, fence: Option<Fence>) -> Result<Option<RoomHandle>, Error> {
        let Some(g) = self.deps.store.load(id).await? else {
            return Ok(None);
        };
        let clocks = g.settings.time.map(|tc| stored_clocks(&g, tc));
        let rating_change = if g.ending.is_some() && g.players.rated {
            let user = |c: Color| g.players.seats[c].as_ref().and_then(|p| p.user);
            let users = ByColor::new(user(Color::Sente), user(Color::Gote));
            // Shown if it can be read; the game opens all the same.
            players::stored_change(&self.deps.store, id, users)
                .await
                .unwrap_or_else(|e| {
                    tracing::warn!(game = %id, "reading the rating change: {e}");
                    None
                })
        } else {
            None
        };
        let init = RoomInit {
            id: id.to_string(),
            mode: g.mode,
            settings: g.settings,
            start: g.start,
            moves: g.moves,
            comments: g.comments,
            tokens: g.tokens,
            invite: g.invite,
            clocks,
            clock_started: g.clock_started,
            turn_used_ms: g.turn_used_ms,
            ending: g.ending,
            players: g.players,
            fence,
            rating_change,
        };
        Ok(Some(room::spawn(init, self.deps.clone())))
    }

    /// How stored game `id` ended, if it is over: what its room reported
    /// (for consequences carried out again after a restart).
    ///
    /// # Errors
    /// Database errors.
    pub async fn stored_end(&self, id: &str) -> Result<Option<GameEnd>, Error> {
        let Some(g) = self.deps.store.load(id).await? else {
            return Ok(None);
        };
        let clocks = g.settings.time.map(|tc| stored_clocks(&g, tc));
        Ok(g.ending.map(|ending| GameEnd {
            id: id.to_owned(),
            ending,
            clocks,
            // Not stored: nobody is taken for absent.
            opened: ByColor::new(true, true),
        }))
    }

    /// Starts the rooms of every unfinished game (with several instances,
    /// those no live instance holds); returns how many.
    ///
    /// # Errors
    /// Database errors.
    pub async fn restore_unfinished(&self) -> Result<usize, Error> {
        if self.leases.is_some() {
            return self.adopt_orphans().await;
        }
        let ids = self.deps.store.unfinished().await?;
        for id in &ids {
            self.room(id).await?;
        }
        Ok(ids.len())
    }

    /// Stops every room, saving the time used on turns in progress, and
    /// gives up their leases (another instance may take them at once).
    pub async fn shutdown(&self) {
        let rooms: Vec<(String, Live)> = self.map.write().await.drain().collect();
        for (id, live) in rooms {
            live.room.shutdown().await;
            self.release(&id, live.fence.as_ref()).await;
        }
    }

    /// Creates a game for `who`: checks the request, stores the game and
    /// starts its room.
    ///
    /// # Errors
    /// [`Error::BadRequest`] for invalid settings; database errors.
    pub async fn create(&self, req: CreateGame, who: &Identity) -> Result<Created, Error> {
        let (start, handicap) = start_of(&req)?;
        let rules = rules_of(req.mode, req.rules.as_ref())?;
        if let Some(tc) = &req.time {
            tc.validate().map_err(bad)?;
        }
        let level = level_of(&req)?;
        let creator = creator_of(req.side);
        let settings = Settings {
            rules,
            time: req.time,
            ai: level.map(|level| AiSeat {
                side: creator.opponent().into(),
                level,
            }),
            handicap,
            event: None,
            whole_seconds: false,
        };
        let id = token::new_game_id();
        let seat_token = token::new_token();
        let seats = seats_of(req.mode, creator, &seat_token);
        let clocks = req
            .time
            .map(|tc| ByColor::new(Clock::new(tc), Clock::new(tc)));
        let clock_started = req.mode != Mode::Friend;
        let class = req.time.as_ref().map(TimeClass::of_control);
        let mut players = GamePlayers::default();
        let me = SeatPlayer::of(&self.deps.store, who, class).await?;
        match req.mode {
            // Two people at one device: the creator's name names neither side.
            Mode::Local => {}
            Mode::Ai | Mode::Friend => players.seats[creator] = me,
        }
        self.open_new(RoomInit {
            id: id.clone(),
            mode: req.mode,
            settings,
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            tokens: seats.tokens,
            invite: seats.invite.clone(),
            clocks,
            clock_started,
            turn_used_ms: 0,
            ending: None,
            players,
            fence: None,
            rating_change: None,
        })
        .await?;
        Ok(Created {
            invite: seats.invite.map(|code| format!("/g/{id}?join={code}")),
            id,
            token: seat_token,
            side: seats.side,
        })
    }
}

/// The game an accepted seek becomes: the seeker's seat (a random seat
/// decided now), both players, and whether it is rated.
struct Match {
    seeker_side: Color,
    players: GamePlayers,
}

impl Rooms {
    async fn match_of(&self, seek: &Seek, acceptor: &Identity) -> Result<Match, Error> {
        let seeker_side = creator_of(seek.side);
        let class = seek.view.terms.time.as_ref().map(TimeClass::of_control);
        let mut seats: ByColor<Option<SeatPlayer>> = ByColor::default();
        seats[seeker_side] = SeatPlayer::of(&self.deps.store, &seek.owner, class).await?;
        seats[seeker_side.opponent()] = SeatPlayer::of(&self.deps.store, acceptor, class).await?;
        let accounts = seek.owner.user().is_some() && acceptor.user().is_some();
        Ok(Match {
            seeker_side,
            players: GamePlayers {
                seats,
                rated: seek.view.terms.rated
                    && accounts
                    && seek.handicap == Handicap::Even
                    && class.is_some(),
            },
        })
    }

    /// Starts the game of an accepted seek between its author and
    /// `acceptor`: both seats taken, the clocks running. Returns the
    /// acceptor's seat.
    ///
    /// # Errors
    /// Database errors.
    pub async fn create_matched(&self, seek: &Seek, acceptor: &Identity) -> Result<Created, Error> {
        let m = self.match_of(seek, acceptor).await?;
        let start = seek.handicap.position();
        let settings = Settings {
            rules: rules_of(Mode::Friend, None)?,
            time: seek.view.terms.time,
            ai: None,
            handicap: StartChoice::Handicap(seek.handicap),
            event: None,
            whole_seconds: false,
        };
        let id = token::new_game_id();
        let acceptor_token = token::new_token();
        let mut tokens: ByColor<Option<String>> = ByColor::default();
        tokens[m.seeker_side] = Some(seek.token.clone());
        tokens[m.seeker_side.opponent()] = Some(acceptor_token.clone());
        let clocks = seek
            .view
            .terms
            .time
            .map(|tc| ByColor::new(Clock::new(tc), Clock::new(tc)));
        self.open_new(RoomInit {
            id: id.clone(),
            mode: Mode::Friend,
            settings,
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            tokens,
            invite: None,
            clocks,
            clock_started: true,
            turn_used_ms: 0,
            ending: None,
            players: m.players,
            fence: None,
            rating_change: None,
        })
        .await?;
        Ok(Created {
            id,
            token: acceptor_token,
            side: Seat::from(m.seeker_side.opponent()),
            invite: None,
        })
    }
}

/// A game of a tournament board: two accounts, the event's clock and rules.
#[derive(Clone, Debug)]
pub struct EventGame {
    /// Who sits on each side.
    pub seats: ByColor<Identity>,
    /// The clocks to start from: full ones, or a sennichite replay's
    /// remaining times.
    pub clocks: ByColor<Clock>,
    /// The impasse rule.
    pub impasse: ImpasseRule,
    /// The start.
    pub handicap: Handicap,
    /// Whether the event rates its games (rated only when even).
    pub rated: bool,
    /// A sennichite replay: its place on the board, stored with the game.
    pub replay: Option<Replay>,
    /// The event, round and board, and whether the game allows chat and
    /// takebacks.
    pub event: EventPlace,
}

impl Rooms {
    /// Stores a new game (with its lease, when there are several instances)
    /// and starts its room.
    async fn open_new(&self, init: RoomInit) -> Result<(), Error> {
        self.open_new_with(init, None).await
    }

    /// [`Rooms::open_new`] for a sennichite replay, stored with its place
    /// on the board.
    async fn open_new_with(&self, init: RoomInit, replay: Option<&Replay>) -> Result<(), Error> {
        let now = unix_ms();
        let lease = self.leases.as_ref().map(|l| l.first_lease(now));
        let new = NewGame {
            id: &init.id,
            mode: init.mode,
            start: &init.start,
            settings: &init.settings,
            tokens: ByColor::new(
                init.tokens[Color::Sente].as_deref(),
                init.tokens[Color::Gote].as_deref(),
            ),
            invite: init.invite.as_deref(),
            clocks: init.clocks,
            clock_started: init.clock_started,
            players: &init.players,
            lease,
            replay,
        };
        self.deps.store.insert_game(&new, now).await?;
        let id = init.id.clone();
        let fence = lease.map(|l| l.fence());
        let room = room::spawn(
            RoomInit {
                fence: fence.clone(),
                ..init
            },
            self.deps.clone(),
        );
        self.map.write().await.insert(id, Live { room, fence });
        Ok(())
    }

    /// Starts the game of a tournament board: both seats held by the
    /// players' accounts (their sessions play it; the tokens are never
    /// given out), the clock running from now. Returns the game id.
    ///
    /// # Errors
    /// Database errors.
    pub async fn create_event_game(&self, g: &EventGame) -> Result<String, Error> {
        let class = Some(TimeClass::of_control(&g.clocks[Color::Sente].control));
        let players = GamePlayers {
            seats: ByColor::new(
                SeatPlayer::of(&self.deps.store, &g.seats[Color::Sente], class).await?,
                SeatPlayer::of(&self.deps.store, &g.seats[Color::Gote], class).await?,
            ),
            rated: g.rated
                && g.handicap == Handicap::Even
                && g.seats[Color::Sente].user().is_some()
                && g.seats[Color::Gote].user().is_some(),
        };
        let start = g.handicap.position();
        let settings = Settings {
            rules: RulesView {
                impasse: g.impasse,
                ..rules_of(Mode::Friend, None)?
            },
            time: Some(g.clocks[Color::Sente].control),
            ai: None,
            handicap: StartChoice::Handicap(g.handicap),
            event: Some(g.event.clone()),
            whole_seconds: false,
        };
        let id = token::new_game_id();
        let tokens = ByColor::new(Some(token::new_token()), Some(token::new_token()));
        let clocks = Some(g.clocks);
        self.open_new_with(
            RoomInit {
                id: id.clone(),
                mode: Mode::Friend,
                settings,
                start,
                moves: Vec::new(),
                comments: Vec::new(),
                tokens,
                invite: None,
                clocks,
                clock_started: true,
                turn_used_ms: 0,
                ending: None,
                players,
                fence: None,
                rating_change: None,
            },
            g.replay.as_ref(),
        )
        .await?;
        Ok(id)
    }

    /// Ends game `id` without a result if no move has been made (a
    /// tournament round unpaired, a board moved over the board). Says
    /// whether it did; a game already over is left as it is.
    ///
    /// # Errors
    /// [`Error::Conflict`] once a move has been made; database errors.
    /// With several instances, a game another instance holds is aborted
    /// there, through [`Rooms::with_holders`].
    pub async fn abort_unstarted(&self, id: &str) -> Result<bool, Error> {
        match self.locate(id).await? {
            Located::Here(room) => Self::abort_room(id, &room).await,
            Located::Elsewhere(address) => match &self.holders {
                Some(holders) => holders.abort_unstarted(&address, id).await,
                None => Err(elsewhere(id)),
            },
        }
    }

    /// [`Rooms::abort_unstarted`] for a game this instance holds, as the
    /// holder does when another instance asks it; a game held elsewhere is
    /// a conflict (never passed on, so two instances that disagree on the
    /// holder cannot pass it back and forth).
    ///
    /// # Errors
    /// As [`Rooms::abort_unstarted`].
    pub async fn abort_unstarted_here(&self, id: &str) -> Result<bool, Error> {
        let room = self.room(id).await?;
        Self::abort_room(id, &room).await
    }

    async fn abort_room(id: &str, room: &RoomHandle) -> Result<bool, Error> {
        let Some(view) = room.snapshot().await else {
            return Ok(false);
        };
        if view.status.over {
            return Ok(false);
        }
        if !view.moves.is_empty() {
            return Err(Error::Conflict(format!("game {id} has begun")));
        }
        match room.act(Seat::Sente, room::Action::Abort).await {
            Ok(()) => Ok(true),
            Err(e) => Err(Error::Conflict(e.to_string())),
        }
    }
}

/// A game a program plays over the CSA server protocol (`api::csa`):
/// against another program, or against a person who accepted its seek
/// (or whose seek it took); the game name's clock and start, the CSA
/// rules (27-point declarations, an illegal move loses, a move limit).
#[derive(Clone, Debug)]
pub struct ProgramGame {
    /// The id, chosen when the programs were paired (their
    /// `Game_Summary` names it before the game is stored).
    pub id: String,
    /// Who sits on each side.
    pub seats: ByColor<Identity>,
    /// The clock.
    pub time: TimeControl,
    /// The start.
    pub handicap: Handicap,
    /// The move limit.
    pub max_moves: u32,
    /// A seat token chosen before (a person's seek a program took: the
    /// seeker's client holds it); `None`: a new one.
    pub tokens: ByColor<Option<String>>,
}

impl Rooms {
    /// Stores a program's game that both sides agreed to and starts its
    /// room, the clock running from now. Returns the room and the seats'
    /// tokens: a program's is never given out (the CSA edge acts for its
    /// seat), a person's goes to that person's client.
    ///
    /// Two programs' even game is rated, in the programs' own pool: a
    /// program's ratings only ever come from games against programs, and a
    /// game between a program and a person is unrated (docs/CSA.md).
    ///
    /// # Errors
    /// [`Error::BadRequest`] for an id that is not a game id or a bad
    /// clock; database errors.
    pub async fn create_program_game(
        &self,
        g: &ProgramGame,
    ) -> Result<(RoomHandle, ByColor<String>), Error> {
        if !token::is_game_id(&g.id) {
            return Err(bad("not a game id"));
        }
        g.time.validate().map_err(bad)?;
        let class = Some(TimeClass::of_control(&g.time));
        let seats = ByColor::new(
            SeatPlayer::of(&self.deps.store, &g.seats[Color::Sente], class).await?,
            SeatPlayer::of(&self.deps.store, &g.seats[Color::Gote], class).await?,
        );
        let programs = [Color::Sente, Color::Gote]
            .iter()
            .all(|&c| seats[c].as_ref().is_some_and(|p| p.bot && p.user.is_some()));
        let players = GamePlayers {
            seats,
            rated: programs && g.handicap == Handicap::Even,
        };
        let settings = Settings {
            rules: RulesView {
                impasse: ImpasseRule::Csa27,
                illegal: crate::game::IllegalPolicy::Lose,
                max_moves: Some(g.max_moves),
            },
            time: Some(g.time),
            ai: None,
            handicap: StartChoice::Handicap(g.handicap),
            event: None,
            whole_seconds: true,
        };
        let tokens = ByColor::new(
            g.tokens[Color::Sente]
                .clone()
                .unwrap_or_else(token::new_token),
            g.tokens[Color::Gote]
                .clone()
                .unwrap_or_else(token::new_token),
        );
        self.open_new(RoomInit {
            id: g.id.clone(),
            mode: Mode::Friend,
            settings,
            start: g.handicap.position(),
            moves: Vec::new(),
            comments: Vec::new(),
            tokens: ByColor::new(
                Some(tokens[Color::Sente].clone()),
                Some(tokens[Color::Gote].clone()),
            ),
            invite: None,
            clocks: Some(ByColor::new(Clock::new(g.time), Clock::new(g.time))),
            clock_started: true,
            turn_used_ms: 0,
            ending: None,
            players,
            fence: None,
            rating_change: None,
        })
        .await?;
        let room = self.room(&g.id).await?;
        Ok((room, tokens))
    }
}
