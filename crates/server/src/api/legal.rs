//! `POST /api/legal`: the legal moves of a position, which the review board
//! asks before letting a move be played on it.

use axum::Json;
use serde::Deserialize;

use super::body::JsonBody;
use crate::board::legal::{self, LegalMoves};
use crate::error::Error;

/// `POST /api/legal` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LegalRequest {
    /// The position.
    sfen: String,
    /// Whether a position without a king (a lesson's lone rook, a tsume
    /// problem) is read; by default both kings must stand.
    #[serde(default)]
    missing_kings: bool,
}

/// `POST /api/legal`.
pub(super) async fn legal(
    JsonBody(req): JsonBody<LegalRequest>,
) -> Result<Json<LegalMoves>, Error> {
    Ok(Json(legal::of_sfen(&req.sfen, req.missing_kings)?))
}
