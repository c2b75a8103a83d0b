//! `GET` and `POST /api/games/{id}/analysis`.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde_json::Value;

use super::session::MaybeUser;
use crate::db::Store;
use crate::error::Error;
use crate::review::analysis::{self, Analyzer};

/// `GET /api/games/{id}/analysis`.
pub(super) async fn get(
    State(store): State<Store>,
    State(analyzer): State<Arc<Analyzer>>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
) -> Result<Json<Value>, Error> {
    let reader = user.map(|u| u.id);
    Ok(Json(analysis::view(&store, &analyzer, &id, reader).await?))
}

/// `POST /api/games/{id}/analysis`: queues an analysis (once per game).
pub(super) async fn start(
    State(store): State<Store>,
    State(analyzer): State<Arc<Analyzer>>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Value>), Error> {
    let reader = user.map(|u| u.id);
    let (queued, view) = analysis::start(&store, &analyzer, &id, reader).await?;
    let status = if queued {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(view)))
}
