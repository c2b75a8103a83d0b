//! `GET /api/players/{name}`, its games (`/games`, paged like the archive)
//! and all of them as one ZIP of KIF files (`/games.zip`).

use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::Json;
use serde_json::Value;

use crate::accounts::name_key;
use crate::db::Store;
use crate::error::Error;
use crate::games::players::{self, Profile};
use crate::review::archive::{self, ArchiveQuery};

/// `GET /api/players/{name}`.
pub(super) async fn profile(
    State(store): State<Store>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, Error> {
    Ok(Json(players::profile(&store, &name_key(&name)).await?))
}

/// `GET /api/players/{name}/games?page=&per_page=`.
pub(super) async fn games(
    State(store): State<Store>,
    Path(name): Path<String>,
    Query(q): Query<ArchiveQuery>,
) -> Result<Json<Value>, Error> {
    let user = store
        .profile_user(&name_key(&name))
        .await?
        .ok_or(Error::NoSuch("player"))?;
    let mut filter = q.filter()?;
    filter.user = Some(user.user);
    Ok(Json(archive::listing(&store, &filter).await?))
}

/// `GET /api/players/{name}/repertoire`: the positions the player's games
/// here reached most with them to move, as Sente and as Gote, and their
/// moves there (docs/EXPLORER.md).
pub(super) async fn repertoire(
    State(store): State<Store>,
    Path(name): Path<String>,
) -> Result<Json<crate::explorer::repertoire::Repertoire>, Error> {
    let user = store
        .profile_user(&name_key(&name))
        .await?
        .ok_or(Error::NoSuch("player"))?;
    Ok(Json(
        crate::explorer::repertoire::of_account(&store, user.user).await?,
    ))
}

/// `GET /api/players/{name}/games.zip`.
pub(super) async fn games_zip(
    State(store): State<Store>,
    Path(name): Path<String>,
) -> Result<Response, Error> {
    let (name, bytes) = players::games_zip(&store, &name_key(&name)).await?;
    super::download::attachment(
        "games.zip",
        &format!("{name}-games.zip"),
        "application/zip",
        bytes,
    )
}
