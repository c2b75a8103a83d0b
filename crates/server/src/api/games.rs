//! `POST /api/games`, `GET /api/games/{id}`, `POST /api/games/{id}/join`.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;

use super::body::JsonBody;
use super::session::{ClientAddr, MaybeUser};
use super::wire::JoinRequest;
use crate::error::Error;
use crate::games::create::{CreateGame, Created};
use crate::games::players;
use crate::games::rooms::Rooms;
use crate::games::view::{GameView, Joined};
use crate::limits::rates::{Kind, Limiter};

/// `POST /api/games`.
pub(super) async fn create(
    State(rooms): State<Rooms>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    MaybeUser(user): MaybeUser,
    JsonBody(req): JsonBody<CreateGame>,
) -> Result<(StatusCode, Json<Created>), Error> {
    limiter.check(Kind::Games, &addr.key()).await?;
    let who = players::identity(user.as_ref(), req.name.as_deref())?;
    Ok((StatusCode::CREATED, Json(rooms.create(req, &who).await?)))
}

/// `POST /api/games/{id}/join`.
pub(super) async fn join(
    State(rooms): State<Rooms>,
    Path(id): Path<String>,
    MaybeUser(user): MaybeUser,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Json<Joined>, Error> {
    let room = rooms.room(&id).await?;
    let who = players::identity(user.as_ref(), req.name.as_deref())?;
    Ok(Json(room.join(req.invite, who).await?))
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
