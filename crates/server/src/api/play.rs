//! `POST /api/play`: one move on a position outside any game, for the
//! lessons ([`crate::learn::play`]).

use axum::Json;
use serde::Deserialize;

use super::body::JsonBody;
use crate::error::Error;
use crate::learn::play::{self, Played};

/// `POST /api/play` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayRequest {
    /// The position (kings may be missing).
    sfen: String,
    /// The move in USI.
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/play`: `200` with the position after the move, or with the
/// rule that refuses it.
pub(super) async fn play(JsonBody(req): JsonBody<PlayRequest>) -> Result<Json<Played>, Error> {
    Ok(Json(play::play(&req.sfen, &req.mv)?))
}
