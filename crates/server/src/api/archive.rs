//! `GET /api/archive` and the strategy tags it filters by, `GET /api/strategies`.

use axum::extract::{Query, State};
use axum::Json;
use serde_json::Value;

use crate::db::Store;
use crate::error::Error;
use crate::review::archive::{self, ArchiveQuery};
use crate::review::strategy;

/// `GET /api/archive`: finished games and imported records, newest first.
pub(super) async fn archive(
    State(store): State<Store>,
    Query(q): Query<ArchiveQuery>,
) -> Result<Json<Value>, Error> {
    Ok(Json(archive::page(&store, &q).await?))
}

/// `GET /api/strategies`: every strategy tag with its names (docs/STRATEGY.md).
pub(super) async fn strategies() -> Json<Value> {
    Json(strategy::all_tags())
}
