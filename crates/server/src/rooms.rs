//! The room registry: the live room of every game in play, started when a
//! game is created, or loaded from the store the first time it is asked
//! for. The map from game id to room is locked only to create, open or
//! restore a game.
//!
//! Finished games leave memory: [`Rooms::sweep`] (called every few seconds
//! by the task of [`Rooms::spawn_sweeper`]) stops the room of every finished
//! game that no WebSocket has watched for the room idle time (measured on the
//! rooms' [`TimeSource`](crate::TimeSource)); the next request loads it again.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use shogi_core::{ByColor, Color, Handicap, ImpasseRule, Position};
use tokio::sync::RwLock;
use tokio::task::JoinHandle;

use crate::clock::{Clock, TimeControl};
use crate::db::players::GamePlayers;
use crate::db::{NewGame, StoredGame};
use crate::error::Error;
use crate::lobby::Seek;
use crate::players::{Identity, SeatPlayer};
use crate::protocol::{
    AiSeat, CreateGame, Created, Mode, RulesRequest, RulesView, Seat, Settings, SideChoice,
    StartChoice,
};
use crate::ratings::TimeClass;
use crate::room::{self, RoomDeps, RoomHandle, RoomInit};
use crate::time::unix_ms;
use crate::token;

/// The longest game limit accepted for `max_moves`.
pub const MAX_MOVES_LIMIT: u32 = 10_000;
/// The highest computer level.
pub const MAX_LEVEL: u8 = 10;
/// The longest start SFEN accepted.
pub const MAX_SFEN_BYTES: usize = 200;
/// How long a finished game nobody watches stays in memory by default.
pub const ROOM_IDLE: Duration = Duration::from_secs(60);

/// The live rooms and what they share (cheap to clone).
#[derive(Clone)]
pub struct Rooms {
    deps: RoomDeps,
    map: Arc<RwLock<HashMap<String, RoomHandle>>>,
    room_idle_ms: u64,
}

fn duration_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn bad(msg: impl Into<String>) -> Error {
    Error::BadRequest(msg.into())
}

/// The start position a creation asks for, and how it is named.
fn start_of(req: &CreateGame) -> Result<(Position, StartChoice), Error> {
    let (start, choice) = match (req.handicap, req.sfen.as_deref()) {
        (Some(_), Some(_)) => return Err(bad("give a handicap or an sfen, not both")),
        (None, Some(text)) if text.len() > MAX_SFEN_BYTES => return Err(bad("sfen too long")),
        (None, Some(text)) => (
            shogi_core::sfen::parse_position(text).map_err(|e| bad(format!("sfen: {e}")))?,
            StartChoice::Custom,
        ),
        (h, None) => {
            let h = h.unwrap_or(Handicap::Even);
            (h.position(), StartChoice::Handicap(h))
        }
    };
    if !start.has_legal_move() {
        return Err(bad("the side to move has no legal move"));
    }
    Ok((start, choice))
}

/// The rules a creation asks for, with each mode's default impasse rule.
fn rules_of(mode: Mode, rules: Option<&RulesRequest>) -> Result<RulesView, Error> {
    let rules = rules.cloned().unwrap_or_default();
    if let Some(n) = rules.max_moves {
        if !(1..=MAX_MOVES_LIMIT).contains(&n) {
            return Err(bad(format!(
                "rules.max_moves must be 1..={MAX_MOVES_LIMIT}"
            )));
        }
    }
    Ok(RulesView {
        impasse: rules.impasse.unwrap_or(match mode {
            Mode::Ai => ImpasseRule::Csa27,
            Mode::Friend | Mode::Local => ImpasseRule::Count24,
        }),
        illegal: rules.illegal.unwrap_or_default(),
        max_moves: rules.max_moves,
    })
}

/// The computer's level, for an AI game only.
fn level_of(req: &CreateGame) -> Result<Option<u8>, Error> {
    match (req.mode, req.ai) {
        (Mode::Ai, ai) => {
            let level = ai.map_or(1, |a| a.level);
            if !(1..=MAX_LEVEL).contains(&level) {
                return Err(bad(format!("ai.level must be 1..={MAX_LEVEL}")));
            }
            Ok(Some(level))
        }
        (_, Some(_)) => Err(bad("ai settings are only for ai games")),
        (_, None) => Ok(None),
    }
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
        }
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
        let idle: Vec<(String, RoomHandle)> = self
            .map
            .read()
            .await
            .iter()
            .filter(|(_, room)| {
                room.connections()
                    .idle_ms()
                    .is_some_and(|ms| ms >= self.room_idle_ms)
            })
            .map(|(id, room)| (id.clone(), room.clone()))
            .collect();
        let mut dropped = 0;
        for (id, room) in idle {
            // A room whose task has stopped answers nothing: it goes too.
            if !room.snapshot().await.is_none_or(|v| v.status.over) {
                continue;
            }
            {
                let mut map = self.map.write().await;
                // Someone may have connected meanwhile.
                if room.connections().open() > 0 {
                    continue;
                }
                map.remove(&id);
            }
            room.shutdown().await;
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
    /// [`Error::NotFound`] for an unknown game; database errors.
    pub async fn room(&self, id: &str) -> Result<RoomHandle, Error> {
        if !token::is_game_id(id) {
            return Err(Error::NotFound);
        }
        if let Some(room) = self.map.read().await.get(id) {
            return Ok(room.clone());
        }
        // Rare (a game not touched since the server started): load under the write lock
        // so that two requests cannot start two rooms for one game.
        let mut map = self.map.write().await;
        if let Some(room) = map.get(id) {
            return Ok(room.clone());
        }
        let room = self.load(id).await?.ok_or(Error::NotFound)?;
        map.insert(id.to_string(), room.clone());
        Ok(room)
    }

    async fn load(&self, id: &str) -> Result<Option<RoomHandle>, Error> {
        let Some(g) = self.deps.store.load(id).await? else {
            return Ok(None);
        };
        let clocks = g.settings.time.map(|tc| stored_clocks(&g, tc));
        let init = RoomInit {
            id: id.to_string(),
            mode: g.mode,
            settings: g.settings,
            start: g.start,
            moves: g.moves,
            tokens: g.tokens,
            invite: g.invite,
            clocks,
            clock_started: g.clock_started,
            turn_used_ms: g.turn_used_ms,
            ending: g.ending,
            players: g.players,
        };
        Ok(Some(room::spawn(init, self.deps.clone())))
    }

    /// Starts the rooms of every unfinished game; returns how many.
    ///
    /// # Errors
    /// Database errors.
    pub async fn restore_unfinished(&self) -> Result<usize, Error> {
        let ids = self.deps.store.unfinished().await?;
        for id in &ids {
            self.room(id).await?;
        }
        Ok(ids.len())
    }

    /// Stops every room, saving the time used on turns in progress.
    pub async fn shutdown(&self) {
        let rooms: Vec<RoomHandle> = self.map.write().await.drain().map(|(_, r)| r).collect();
        for room in rooms {
            room.shutdown().await;
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
            tokens: seats.tokens,
            invite: seats.invite.clone(),
            clocks,
            clock_started,
            turn_used_ms: 0,
            ending: None,
            players,
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
            tokens,
            invite: None,
            clocks,
            clock_started: true,
            turn_used_ms: 0,
            ending: None,
            players: m.players,
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
}

impl Rooms {
    /// Stores a new game and starts its room.
    async fn open_new(&self, init: RoomInit) -> Result<(), Error> {
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
        };
        self.deps.store.insert_game(&new, unix_ms()).await?;
        let id = init.id.clone();
        let room = room::spawn(init, self.deps.clone());
        self.map.write().await.insert(id, room);
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
        };
        let id = token::new_game_id();
        let tokens = ByColor::new(Some(token::new_token()), Some(token::new_token()));
        let clocks = Some(g.clocks);
        self.open_new(RoomInit {
            id: id.clone(),
            mode: Mode::Friend,
            settings,
            start,
            moves: Vec::new(),
            tokens,
            invite: None,
            clocks,
            clock_started: true,
            turn_used_ms: 0,
            ending: None,
            players,
        })
        .await?;
        Ok(id)
    }

    /// Ends game `id` without a result if no move has been made (a
    /// tournament round unpaired, a board moved over the board). Says
    /// whether it did; a game already over is left as it is.
    ///
    /// # Errors
    /// [`Error::Conflict`] once a move has been made; database errors.
    pub async fn abort_unstarted(&self, id: &str) -> Result<bool, Error> {
        let room = self.room(id).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: serde_json::Value) -> CreateGame {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn each_mode_has_its_default_impasse_rule() {
        let ai = rules_of(Mode::Ai, None).unwrap();
        assert_eq!(ai.impasse, ImpasseRule::Csa27);
        let local = rules_of(Mode::Local, None).unwrap();
        assert_eq!(local.impasse, ImpasseRule::Count24);
    }

    #[test]
    fn a_handicap_and_an_sfen_together_are_refused() {
        let req = request(serde_json::json!({
            "mode": "local", "handicap": "rook", "sfen": "4k4/9/9/9/9/9/9/9/4K4 b - 1"
        }));
        assert!(matches!(start_of(&req), Err(Error::BadRequest(_))));
        let req = request(serde_json::json!({"mode": "local", "handicap": "rook"}));
        let (pos, choice) = start_of(&req).unwrap();
        assert_eq!(choice, StartChoice::Handicap(Handicap::Rook));
        assert_eq!(pos.to_sfen(), Handicap::Rook.position().to_sfen());
    }

    #[test]
    fn only_ai_games_take_a_level() {
        let req = request(serde_json::json!({"mode": "friend", "ai": {"level": 3}}));
        assert!(level_of(&req).is_err());
        let req = request(serde_json::json!({"mode": "ai"}));
        assert_eq!(level_of(&req).unwrap(), Some(1));
    }
}
