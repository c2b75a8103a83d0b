//! The one error type of the HTTP layer and how it becomes a response:
//! the client's mistakes are 4xx with a message; the server's are 500, logged.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An error answering a request.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request is malformed or asks for something impossible.
    #[error("{0}")]
    BadRequest(String),
    /// No such game.
    #[error("no such game")]
    NotFound,
    /// The token or invite code is not the right one.
    #[error("{0}")]
    Forbidden(String),
    /// The request came too late (the seat is taken).
    #[error("{0}")]
    Conflict(String),
    /// The server is too busy to take the request now.
    #[error("{0}")]
    Unavailable(String),
    /// The server failed.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Error {
        Error::Internal(format!("database: {e}"))
    }
}

impl From<sqlx::migrate::MigrateError> for Error {
    fn from(e: sqlx::migrate::MigrateError) -> Error {
        Error::Internal(format!("database migration: {e}"))
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Internal(format!("i/o: {e}"))
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let status = match &self {
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::NotFound => StatusCode::NOT_FOUND,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::Conflict(_) => StatusCode::CONFLICT,
            Error::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Internal(e) => {
                tracing::error!("{e}");
                return (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    Json(serde_json::json!({"error": "internal error"})),
                )
                    .into_response();
            }
        };
        (status, Json(serde_json::json!({"error": self.to_string()}))).into_response()
    }
}
