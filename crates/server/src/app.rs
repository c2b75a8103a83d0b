//! The shared state (the store, the clock, the computer player and the map
//! of live rooms) and the HTTP handlers.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

use axum::extract::{FromRequest, Path, Request, State};
use axum::http::StatusCode;
use axum::Json;
use serde::de::DeserializeOwned;
use shogi_core::{ByColor, Color, Handicap, ImpasseRule, Position};
use tokio::sync::RwLock;

use crate::activity::LiveActivity;
use crate::analysis::Analyzer;
use crate::clock::Clock;
use crate::db::{NewGame, Store};
use crate::error::Error;
use crate::opponent::Opponent;
use crate::protocol::{
    AiSeat, CreateGame, Created, GameView, JoinRequest, Joined, Mode, RulesView, Settings, Side,
    SideChoice,
};
use crate::room::{self, RoomDeps, RoomHandle, RoomInit};
use crate::time::{unix_ms, TimeSource};
use crate::token;

/// The longest game limit accepted for `max_moves`.
pub const MAX_MOVES_LIMIT: u32 = 10_000;
/// The highest computer level.
pub const MAX_LEVEL: u8 = 10;

/// What the handlers share (cheap to clone).
#[derive(Clone)]
pub struct AppState {
    deps: RoomDeps,
    rooms: Arc<RwLock<HashMap<String, RoomHandle>>>,
    analyzer: Arc<Analyzer>,
}

impl AppState {
    /// A state on `store`, with rooms reading `time` and the computer played by `opponent`.
    #[must_use]
    pub fn new(store: Store, time: TimeSource, opponent: Arc<dyn Opponent>) -> AppState {
        let activity = Arc::new(LiveActivity::new());
        AppState {
            deps: RoomDeps {
                store,
                time,
                opponent,
                activity: Arc::clone(&activity),
            },
            rooms: Arc::default(),
            analyzer: Arc::new(Analyzer::new(activity)),
        }
    }

    /// The store.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.deps.store
    }

    /// The background analysis queue.
    #[must_use]
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// The live room of game `id`, loading it from the database if needed.
    ///
    /// # Errors
    /// [`Error::NotFound`] for an unknown game; database errors.
    pub async fn room(&self, id: &str) -> Result<RoomHandle, Error> {
        if !token::is_game_id(id) {
            return Err(Error::NotFound);
        }
        if let Some(room) = self.rooms.read().await.get(id) {
            return Ok(room.clone());
        }
        // Rare (a game not touched since the server started): load under the write lock
        // so that two requests cannot start two rooms for one game.
        let mut rooms = self.rooms.write().await;
        if let Some(room) = rooms.get(id) {
            return Ok(room.clone());
        }
        let room = self.load(id).await?.ok_or(Error::NotFound)?;
        rooms.insert(id.to_string(), room.clone());
        Ok(room)
    }

    async fn load(&self, id: &str) -> Result<Option<RoomHandle>, Error> {
        let Some(g) = self.deps.store.load(id).await? else {
            return Ok(None);
        };
        let bad = |what: &str| Error::Internal(format!("game {id}: stored {what} is invalid"));
        let settings: Settings = serde_json::from_str(&g.settings).map_err(|_| bad("settings"))?;
        let start = shogi_core::sfen::parse_position(&g.start_sfen).map_err(|_| bad("start"))?;
        let clocks = settings.time.map(|tc| {
            let clock = |(main_ms, periods_left): (u64, u32)| Clock {
                control: tc,
                main_ms,
                periods_left,
            };
            ByColor::new(
                clock(g.clock_values[Color::Sente]),
                clock(g.clock_values[Color::Gote]),
            )
        });
        let init = RoomInit {
            id: id.to_string(),
            mode: Mode::from_str(&g.mode).map_err(|_| bad("mode"))?,
            settings,
            start,
            moves: g.moves,
            tokens: g.tokens,
            invite: g.invite,
            clocks,
            clock_started: g.clock_started,
            turn_used_ms: g.turn_used_ms,
            ending: g.ending,
        };
        Ok(Some(room::spawn(init, self.deps.clone())?))
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
    pub async fn shutdown_rooms(&self) {
        let rooms: Vec<RoomHandle> = self.rooms.write().await.drain().map(|(_, r)| r).collect();
        for room in rooms {
            room.shutdown().await;
        }
    }

    /// Creates a game.
    ///
    /// # Errors
    /// [`Error::BadRequest`] for invalid settings; database errors.
    pub async fn create(&self, req: CreateGame) -> Result<Created, Error> {
        let bad = Error::BadRequest;
        let handicap = match req.handicap.as_deref() {
            None => Handicap::Even,
            Some(h) => Handicap::from_str(h).map_err(|e| bad(e.to_string()))?,
        };
        let start: Position = match req.sfen.as_deref() {
            None => handicap.position(),
            Some(_) if req.handicap.is_some() => {
                return Err(bad("give a handicap or an sfen, not both".into()))
            }
            Some(text) if text.len() > 200 => return Err(bad("sfen too long".into())),
            Some(text) => {
                shogi_core::sfen::parse_position(text).map_err(|e| bad(format!("sfen: {e}")))?
            }
        };
        if !start.has_legal_move() {
            return Err(bad("the side to move has no legal move".into()));
        }
        let rules = req.rules.unwrap_or_default();
        let impasse = match rules.impasse.as_deref() {
            Some(name) => ImpasseRule::from_str(name).map_err(|e| bad(e.to_string()))?,
            None if req.mode == Mode::Ai => ImpasseRule::Csa27,
            None => ImpasseRule::Count24,
        };
        if let Some(n) = rules.max_moves {
            if !(1..=MAX_MOVES_LIMIT).contains(&n) {
                return Err(bad(format!(
                    "rules.max_moves must be 1..={MAX_MOVES_LIMIT}"
                )));
            }
        }
        if let Some(tc) = &req.time {
            tc.validate().map_err(bad)?;
        }
        let level = match (req.mode, req.ai) {
            (Mode::Ai, ai) => {
                let level = ai.map_or(1, |a| a.level);
                if !(1..=MAX_LEVEL).contains(&level) {
                    return Err(bad(format!("ai.level must be 1..={MAX_LEVEL}")));
                }
                Some(level)
            }
            (_, Some(_)) => return Err(bad("ai settings are only for ai games".into())),
            (_, None) => None,
        };
        let creator = match req.side {
            SideChoice::Sente => Color::Sente,
            SideChoice::Gote => Color::Gote,
            SideChoice::Random if token::coin() => Color::Sente,
            SideChoice::Random => Color::Gote,
        };
        let settings = Settings {
            rules: RulesView {
                impasse: impasse.name().to_string(),
                illegal: rules.illegal.unwrap_or_default(),
                max_moves: rules.max_moves,
            },
            time: req.time,
            ai: level.map(|level| AiSeat {
                side: creator.opponent().into(),
                level,
            }),
            handicap: if req.sfen.is_some() {
                "custom".to_string()
            } else {
                handicap.name().to_string()
            },
        };
        let id = token::new_game_id();
        let seat_token = token::new_token();
        let mut tokens: ByColor<Option<String>> = ByColor::default();
        let (side, invite) = match req.mode {
            Mode::Local => {
                tokens[Color::Sente] = Some(seat_token.clone());
                tokens[Color::Gote] = Some(seat_token.clone());
                ("both".to_string(), None)
            }
            Mode::Ai => {
                tokens[creator] = Some(seat_token.clone());
                (Side::from(creator).name().to_string(), None)
            }
            Mode::Friend => {
                tokens[creator] = Some(seat_token.clone());
                (
                    Side::from(creator).name().to_string(),
                    Some(token::new_token()),
                )
            }
        };
        let clocks = req
            .time
            .map(|tc| ByColor::new(Clock::new(tc), Clock::new(tc)));
        let clock_started = req.mode != Mode::Friend;
        let settings_json = serde_json::to_string(&settings)
            .map_err(|e| Error::Internal(format!("settings: {e}")))?;
        let start_sfen = start.to_sfen();
        let new = NewGame {
            id: &id,
            mode: req.mode.name(),
            start_sfen: &start_sfen,
            settings: &settings_json,
            tokens: ByColor::new(
                tokens[Color::Sente].as_deref(),
                tokens[Color::Gote].as_deref(),
            ),
            invite: invite.as_deref(),
            clocks,
            clock_started,
        };
        self.deps.store.insert_game(&new, unix_ms()).await?;
        let init = RoomInit {
            id: id.clone(),
            mode: req.mode,
            settings,
            start,
            moves: Vec::new(),
            tokens,
            invite: invite.clone(),
            clocks,
            clock_started,
            turn_used_ms: 0,
            ending: None,
        };
        let room = room::spawn(init, self.deps.clone())?;
        self.rooms.write().await.insert(id.clone(), room);
        Ok(Created {
            invite: invite.map(|code| format!("/g/{id}?join={code}")),
            id,
            token: seat_token,
            side,
        })
    }
}

/// A JSON body whose rejection is an [`Error::BadRequest`] like every other client error.
pub(crate) struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Error> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(Error::BadRequest(rejection.body_text())),
        }
    }
}

/// `POST /api/games`.
pub(crate) async fn create_game(
    State(app): State<AppState>,
    JsonBody(req): JsonBody<CreateGame>,
) -> Result<(StatusCode, Json<Created>), Error> {
    Ok((StatusCode::CREATED, Json(app.create(req).await?)))
}

/// `POST /api/games/{id}/join`.
pub(crate) async fn join_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Json<Joined>, Error> {
    let room = app.room(&id).await?;
    Ok(Json(room.join(req.invite).await?))
}

/// `GET /api/games/{id}`.
pub(crate) async fn get_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, Error> {
    let room = app.room(&id).await?;
    let view = room.snapshot().await.ok_or(Error::NotFound)?;
    Ok(Json(GameView::clone(&view)))
}
