//! `GET /api/archive`.

use axum::extract::{Query, State};
use axum::Json;
use serde_json::Value;

use crate::db::Store;
use crate::error::Error;
use crate::review::archive::{self, ArchiveQuery};

/// `GET /api/archive`: finished games and imported records, newest first.
pub(super) async fn archive(
    State(store): State<Store>,
    Query(q): Query<ArchiveQuery>,
) -> Result<Json<Value>, Error> {
    Ok(Json(archive::page(&store, &q).await?))
}
