//! The lobby: `GET /api/lobby`, its WebSocket `GET /api/lobby/ws`, and the
//! seeks: `POST /api/seeks`, `DELETE /api/seeks/{id}`,
//! `POST /api/seeks/{id}/accept`.

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use super::body::{JsonBody, OptionalJsonBody};
use super::session::{ClientAddr, MaybeUser, SocketSession};
use crate::accounts::name_key;
use crate::db::Store;
use crate::error::Error;
use crate::games::connections::WsLimits;
use crate::games::create::Created;
use crate::games::players::{self, Identity, SeatPlayer};
use crate::games::rooms::Rooms;
use crate::games::view::PlayerView;
use crate::limits::rates::{Kind, Limiter};
use crate::lobby::{Lobby, SeekRequest, PROGRAM_ANSWER};
use crate::ratings::TimeClass;

/// `GET /api/lobby`.
pub(super) async fn get(State(lobby): State<Lobby>) -> Json<Value> {
    Json(lobby.snapshot())
}

/// `GET /api/lobby/ws`.
pub(super) async fn upgrade(
    State(lobby): State<Lobby>,
    State(limits): State<WsLimits>,
    session: SocketSession,
    ws: WebSocketUpgrade,
) -> Response {
    ws.read_buffer_size(super::ws::READ_BUFFER_BYTES)
        .max_message_size(super::ws::MAX_MESSAGE_BYTES)
        .max_frame_size(super::ws::MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| watch(socket, lobby, limits, session))
}

/// Sends the lobby and its changes until the socket closes, pinging it like
/// a game's socket and closing it when nothing comes back or when the
/// session it was opened with ends.
async fn watch(mut socket: WebSocket, lobby: Lobby, limits: WsLimits, mut session: SocketSession) {
    let (mut events, now) = lobby.subscribe();
    let mut first = now;
    first["type"] = json!("lobby");
    if socket
        .send(Message::Text(first.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let start = tokio::time::Instant::now();
    let mut ping = tokio::time::interval_at(start + limits.ping, limits.ping);
    let idle = tokio::time::sleep_until(start + limits.idle);
    tokio::pin!(idle);
    loop {
        let out = tokio::select! {
            _ = ping.tick() => Some(Message::Ping(Bytes::new())),
            () = &mut idle => break,
            () = session.ended() => break,
            incoming = socket.recv() => {
                idle.as_mut().reset(tokio::time::Instant::now() + limits.idle);
                match incoming {
                None | Some(Err(_) | Ok(Message::Close(_))) => break,
                Some(Ok(Message::Text(t))) if t.contains("\"ping\"") => {
                    Some(Message::Text(r#"{"type":"pong"}"#.into()))
                }
                Some(Ok(Message::Text(_) | Message::Binary(_))) => Some(Message::Text(
                    r#"{"type":"error","message":"the lobby takes only pings"}"#.into(),
                )),
                Some(Ok(_)) => None,
            }},
            event = events.recv() => match event {
                Ok(text) => Some(Message::Text(text.as_ref().into())),
                Err(RecvError::Lagged(_)) => {
                    // Fell behind: start again from the whole lobby.
                    let mut now = lobby.snapshot();
                    now["type"] = json!("lobby");
                    Some(Message::Text(now.to_string().into()))
                }
                Err(RecvError::Closed) => break,
            },
        };
        if let Some(msg) = out {
            if socket.send(msg).await.is_err() {
                break;
            }
        }
    }
    let _ = socket.send(Message::Close(None)).await;
}

/// The player `who` is shown as in a seek of time class `class`.
async fn shown_as(
    store: &Store,
    who: &Identity,
    class: Option<TimeClass>,
) -> Result<PlayerView, Error> {
    Ok(match SeatPlayer::of(store, who, class).await? {
        Some(p) => players::view(&p),
        // A guest who typed no name.
        None => PlayerView {
            name: String::new(),
            guest: true,
            computer: false,
            bot: false,
            rating: None,
            provisional: false,
            rank: None,
        },
    })
}

/// `POST /api/seeks`.
pub(super) async fn post(
    State(store): State<Store>,
    State(lobby): State<Lobby>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    MaybeUser(user): MaybeUser,
    JsonBody(req): JsonBody<SeekRequest>,
) -> Result<(StatusCode, Json<Value>), Error> {
    limiter.check(Kind::Seeks, &addr.key()).await?;
    let who = players::identity(user.as_ref(), req.name.as_deref())?;
    let class = req.time.as_ref().map(TimeClass::of_control);
    let by = shown_as(&store, &who, class).await?;
    let to_key = req.to.as_deref().map(name_key);
    let (id, token) = lobby.post(&req, who, by, addr.0, to_key)?;
    Ok((StatusCode::CREATED, Json(json!({"id": id, "token": token}))))
}

/// The optional body of `DELETE /api/seeks/{id}`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct WithdrawBody {
    token: Option<String>,
}

/// `DELETE /api/seeks/{id}`.
pub(super) async fn withdraw(
    State(lobby): State<Lobby>,
    Path(id): Path<String>,
    MaybeUser(user): MaybeUser,
    OptionalJsonBody(body): OptionalJsonBody<WithdrawBody>,
) -> Result<StatusCode, Error> {
    let who = players::identity(user.as_ref(), None)?;
    lobby.withdraw(&id, &who, body.token.as_deref())?;
    Ok(StatusCode::NO_CONTENT)
}

/// The optional body of an acceptance.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AcceptBody {
    name: Option<String>,
}

/// `POST /api/seeks/{id}/accept`.
pub(super) async fn accept(
    State(lobby): State<Lobby>,
    State(rooms): State<Rooms>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    OptionalJsonBody(body): OptionalJsonBody<AcceptBody>,
) -> Result<(StatusCode, Json<Value>), Error> {
    limiter.check(Kind::Games, &addr.key()).await?;
    let who = players::identity(user.as_ref(), body.name.as_deref())?;
    let who_key = match &who {
        Identity::Account { name, .. } => Some(name_key(name)),
        Identity::Guest { .. } => None,
    };
    let seek = lobby.take(&id, &who, who_key.as_deref())?;
    // A program's seek: the program is asked over the CSA protocol, and
    // the game starts (stored with the program's rules) once it agrees.
    if let Some(door) = &seek.program {
        let answer = door.offer(who, PROGRAM_ANSWER).await;
        return match answer {
            Ok(Created {
                id: game,
                token,
                side,
                ..
            }) => {
                lobby.accepted(&id, &game);
                Ok((
                    StatusCode::CREATED,
                    Json(json!({"game": game, "token": token, "side": side})),
                ))
            }
            Err(e) => {
                lobby.dropped(&id);
                Err(e)
            }
        };
    }
    let Created {
        id: game,
        token,
        side,
        ..
    } = rooms.create_matched(&seek, &who).await?;
    lobby.accepted(&id, &game);
    Ok((
        StatusCode::CREATED,
        Json(json!({"game": game, "token": token, "side": side})),
    ))
}
