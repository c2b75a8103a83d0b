//! `GET` and `PUT /api/me/learn`: the logged-in account's progress on the
//! learn pages ([`crate::learn::progress`]).

use axum::extract::State;
use axum::Json;

use super::body::JsonBody;
use super::session::User;
use crate::db::Store;
use crate::error::Error;
use crate::learn::progress::{self, Progress};
use crate::time::unix_ms;

/// `GET /api/me/learn`: `{"done": [ids]}`.
pub(super) async fn get(
    State(store): State<Store>,
    User(account): User,
) -> Result<Json<Progress>, Error> {
    Ok(Json(progress::progress(&store, account.id).await?))
}

/// `PUT /api/me/learn` `{"done": [ids]}`: adds them; answers the whole progress.
pub(super) async fn put(
    State(store): State<Store>,
    User(account): User,
    JsonBody(more): JsonBody<Progress>,
) -> Result<Json<Progress>, Error> {
    Ok(Json(
        progress::merge(&store, account.id, &more, unix_ms()).await?,
    ))
}
