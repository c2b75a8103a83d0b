//! The WebSocket of a game: the state after every change to everyone, and
//! the seated players' moves, resignations, declarations and count answers
//! to the room.
//!
//! The server pings every [`WsLimits::ping`] and closes a socket from which
//! nothing (a pong or a message) arrived for [`WsLimits::idle`] (code 1001).
//! A message over [`MAX_MESSAGE_BYTES`] closes the socket with code 1009
//! `message too big`; a spectator over [`WsLimits::max_spectators`] is
//! closed at once with code 1013 `too many spectators`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde::Deserialize;
use shogi_core::Color;
use tokio::sync::broadcast::{self, error::RecvError};

use super::session::SocketSession;
use super::wire::{ClientMessage, ServerMessage};
use crate::db::Store;
use crate::error::{Error, Problem};
use crate::game::Seat;
use crate::games::connections::WsLimits;
use crate::games::room::ErrorDetail;
use crate::games::room::{ChatFeed, RoomError, RoomHandle, Subscription};
use crate::games::rooms::Rooms;
use crate::games::view::StateText;
use crate::limits::bucket::TokenBucket;

/// The largest message a client may send.
pub const MAX_MESSAGE_BYTES: usize = 4096;
/// How many messages a connection may send per second (on average; bursts up to this many).
pub const MESSAGES_PER_SECOND: u32 = 20;
/// What the WebSocket layer itself accepts, above [`MAX_MESSAGE_BYTES`] so
/// that a message too big is closed with our code and reason, not the library's.
const TRANSPORT_MAX_BYTES: usize = 64 * 1024;

/// Each socket's read buffer (the library's default, 128 KiB, made 2000
/// sockets take 256 MB; our messages are at most 4 KiB).
pub(crate) const READ_BUFFER_BYTES: usize = 4096;

/// The query of the WebSocket URL.
#[derive(Debug, Deserialize)]
pub(crate) struct WsQuery {
    token: Option<String>,
    /// `1`: after a change the state allows, send a `diff` instead of the
    /// whole `state` (docs/PROTOCOL.md, "Diffs").
    diffs: Option<String>,
}

/// Whether an account at `seat` of the room is disabled (a moderator's action).
async fn seat_disabled(store: &Store, room: &RoomHandle, seat: Seat) -> Result<bool, Error> {
    let users = room.seat_users().await;
    let sides: &[Color] = match seat {
        Seat::Sente => &[Color::Sente],
        Seat::Gote => &[Color::Gote],
        Seat::Both => &[Color::Sente, Color::Gote],
    };
    for &c in sides {
        if let Some(user) = users[c] {
            if store.user_by_id(user).await?.is_some_and(|u| u.disabled) {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// `GET /api/games/{id}/ws[?token=...]`.
pub(crate) async fn upgrade(
    State(rooms): State<Rooms>,
    State(store): State<Store>,
    State(limits): State<WsLimits>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    session: SocketSession,
    ws: WebSocketUpgrade,
) -> Result<Response, Error> {
    let room = rooms.room(&id).await?;
    let diffs = matches!(q.diffs.as_deref(), Some("1" | "true"));
    let seat = match (q.token, session.account()) {
        (Some(token), _) => {
            let seat = room
                .authorize(token)
                .await
                .ok_or(Error::Problem(Problem::NotASeat))?;
            // A seat's token does not outlive its account's right to play:
            // a disabled account's player only watches.
            if seat_disabled(&store, &room, seat).await? {
                None
            } else {
                Some(seat)
            }
        }
        // A logged-in player is seated by the session; anyone else watches.
        (None, Some(account)) => room.authorize_user(account.id).await,
        (None, None) => None,
    };
    Ok(ws
        .read_buffer_size(READ_BUFFER_BYTES)
        .max_message_size(TRANSPORT_MAX_BYTES)
        .max_frame_size(TRANSPORT_MAX_BYTES)
        .on_upgrade(move |socket| connection(socket, room, seat, diffs, limits, session)))
}

fn text(msg: &ServerMessage<'_>) -> Message {
    // Serializing our own plain structs cannot fail.
    Message::Text(serde_json::to_string(msg).unwrap_or_default().into())
}

/// The state for a connection of `you`: serialised once by the room, the
/// seat added here.
fn state(view: &StateText, you: Option<Seat>) -> Message {
    Message::Text(view.text(you).into())
}

/// What a connection is told of `update` when it was last told the state
/// after `ply` moves: the `diff` if it asked for diffs and the change allows
/// one after that ply, otherwise the whole `state`.
fn update_message(update: &StateText, you: Option<Seat>, diffs: bool, ply: usize) -> Message {
    // The diff's bytes are shared with the other connections, not copied
    // (the text is our own JSON, always UTF-8).
    match update
        .diff_after(ply)
        .filter(|_| diffs)
        .and_then(|diff| Utf8Bytes::try_from(diff).ok())
    {
        Some(diff) => Message::Text(diff),
        None => state(update, you),
    }
}

/// An error about the message itself (`code`: `bad_message`,
/// `too_many_messages`, `spectator`).
fn error(code: &'static str, message: &str) -> Message {
    text(&ServerMessage::Error {
        message,
        detail: ErrorDetail::code(code),
    })
}

/// The error for a refused action: a refused move names its rule and square.
fn refused(e: &RoomError) -> Message {
    text(&ServerMessage::Error {
        message: &e.to_string(),
        detail: e.detail(),
    })
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

async fn connection(
    mut socket: WebSocket,
    room: RoomHandle,
    seat: Option<Seat>,
    diffs: bool,
    limits: WsLimits,
    mut session: SocketSession,
) {
    let spectator = seat.is_none();
    let Some(_presence) = room.connections().enter(spectator, limits.max_spectators) else {
        let _ = socket
            .send(close(close_code::AGAIN, "too many spectators"))
            .await;
        return;
    };
    let Some(sub) = room.subscribe(seat).await else {
        return;
    };
    let last = serve(&mut socket, &room, seat, diffs, sub, &limits, &mut session).await;
    if let Some(seat) = seat {
        room.leave(seat).await;
    }
    if let Some(last) = last {
        let _ = socket.send(last).await;
    }
}

/// A chat receiver that never yields, for spectators.
async fn next_chat(
    chat: Option<&mut broadcast::Receiver<Arc<str>>>,
) -> Result<Arc<str>, RecvError> {
    match chat {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// The chat history message for a seated player.
fn history(feed: &ChatFeed) -> Message {
    let messages: Vec<serde_json::Value> = feed
        .history
        .iter()
        .filter_map(|m| serde_json::from_str(m).ok())
        .collect();
    let msg = serde_json::json!({"type": "chat_history", "messages": messages});
    Message::Text(msg.to_string().into())
}

/// Serves one socket until it closes; the last message to send, if the
/// socket is still open.
async fn serve(
    socket: &mut WebSocket,
    room: &RoomHandle,
    seat: Option<Seat>,
    diffs: bool,
    sub: Subscription,
    limits: &WsLimits,
    session: &mut SocketSession,
) -> Option<Message> {
    let Subscription {
        mut updates,
        now,
        chat,
    } = sub;
    socket.send(state(&now, seat)).await.ok()?;
    // The state this connection was last told, the base of the next diff.
    let mut told = now;
    if let Some(feed) = &chat {
        socket.send(history(feed)).await.ok()?;
    }
    let mut chat = chat.map(|feed| feed.updates);
    let mut limit = TokenBucket::new(f64::from(MESSAGES_PER_SECOND), MESSAGES_PER_SECOND);
    let start = tokio::time::Instant::now();
    let mut ping = tokio::time::interval_at(start + limits.ping, limits.ping);
    let idle = tokio::time::sleep_until(start + limits.idle);
    tokio::pin!(idle);
    let last = loop {
        let out = tokio::select! {
            incoming = socket.recv() => {
                idle.as_mut().reset(tokio::time::Instant::now() + limits.idle);
                match incoming {
                None | Some(Err(_) | Ok(Message::Close(_))) => break Message::Close(None),
                Some(Ok(Message::Text(t))) if t.len() > MAX_MESSAGE_BYTES => {
                    break close(close_code::SIZE, "message too big");
                }
                Some(Ok(Message::Binary(b))) if b.len() > MAX_MESSAGE_BYTES => {
                    break close(close_code::SIZE, "message too big");
                }
                Some(Ok(Message::Text(t))) => {
                    let at_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
                    if limit.allow(at_ms) {
                        match serde_json::from_str(t.as_str()) {
                            Err(e) => Some(error("bad_message", &format!("bad message: {e}"))),
                            // The state last told, without asking the room.
                            Ok(ClientMessage::Sync) => Some(state(&told, seat)),
                            Ok(msg) => answer(room, seat, msg).await,
                        }
                    } else {
                        Some(error("too_many_messages", "too many messages"))
                    }
                }
                Some(Ok(Message::Binary(_))) => Some(error("bad_message", "send JSON text messages")),
                // Pings are answered by the library; pongs only show the peer is there.
                Some(Ok(_)) => None,
            }},
            _ = ping.tick() => Some(Message::Ping(Bytes::new())),
            () = &mut idle => break close(close_code::AWAY, "no answer to pings"),
            () = session.ended() => break close(close_code::POLICY, "session ended"),
            update = updates.recv() => match update {
                Ok(update) => {
                    let msg = update_message(&update, seat, diffs, told.ply());
                    told = update;
                    Some(msg)
                }
                // Skipped updates are superseded by the newer ones still queued.
                Err(RecvError::Lagged(_)) => None,
                Err(RecvError::Closed) => break Message::Close(None),
            },
            line = next_chat(chat.as_mut()) => match line {
                Ok(text) => Some(Message::Text(text.as_ref().into())),
                Err(RecvError::Lagged(_)) => None,
                Err(RecvError::Closed) => {
                    chat = None;
                    None
                }
            },
        };
        if let Some(msg) = out {
            socket.send(msg).await.ok()?;
        }
    };
    Some(last)
}

/// The reply to one client message, if any (a change is answered by the state broadcast).
async fn answer(room: &RoomHandle, seat: Option<Seat>, msg: ClientMessage) -> Option<Message> {
    let action = match msg {
        ClientMessage::Act(action) => action,
        ClientMessage::Ping => return Some(text_pong()),
        // Answered by the connection before it gets here.
        ClientMessage::Sync => return None,
        ClientMessage::Chat { text } => {
            let Some(seat) = seat else {
                return Some(error(
                    "spectator",
                    "spectators cannot chat with the players",
                ));
            };
            return match room.chat(seat, text).await {
                Ok(()) => None,
                Err(e) => Some(refused(&e)),
            };
        }
    };
    let Some(seat) = seat else {
        return Some(error("spectator", "spectators cannot play"));
    };
    match room.act(seat, action).await {
        Ok(()) => None,
        Err(e) => Some(refused(&e)),
    }
}

fn text_pong() -> Message {
    text(&ServerMessage::Pong)
}
