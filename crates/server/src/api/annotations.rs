//! `PUT /api/games/{id}/annotations`.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::Value;

use super::body::JsonBody;
use super::session::MaybeUser;
use crate::db::Store;
use crate::error::Error;
use crate::review::annotated::AnnotationsRequest;
use crate::review::records;

/// `PUT /api/games/{id}/annotations`: stores the comments and variations;
/// answers the record JSON with them.
pub(super) async fn put(
    State(store): State<Store>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<AnnotationsRequest>,
) -> Result<Json<Value>, Error> {
    let review = records::annotate(&store, &id, user.map(|u| u.id), req).await?;
    Ok(Json(records::record_json(&review)))
}
