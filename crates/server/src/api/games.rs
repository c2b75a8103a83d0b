//! `POST /api/games`, `GET /api/games/{id}`, `POST /api/games/{id}/join`.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;

use super::body::JsonBody;
use super::session::ClientAddr;
use crate::error::Error;
use crate::limits::{Kind, Limiter};
use crate::protocol::{CreateGame, Created, GameView, JoinRequest, Joined};
use crate::rooms::Rooms;

/// `POST /api/games`.
pub(super) async fn create(
    State(rooms): State<Rooms>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    JsonBody(req): JsonBody<CreateGame>,
) -> Result<(StatusCode, Json<Created>), Error> {
    limiter.check(Kind::Games, &addr.key())?;
    Ok((StatusCode::CREATED, Json(rooms.create(req).await?)))
}

/// `POST /api/games/{id}/join`.
pub(super) async fn join(
    State(rooms): State<Rooms>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Json<Joined>, Error> {
    let room = rooms.room(&id).await?;
    Ok(Json(room.join(req.invite).await?))
}

/// `GET /api/games/{id}`.
pub(super) async fn get(
    State(rooms): State<Rooms>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, Error> {
    let room = rooms.room(&id).await?;
    let view = room.snapshot().await.ok_or(Error::NotFound)?;
    Ok(Json(GameView::clone(&view)))
}
