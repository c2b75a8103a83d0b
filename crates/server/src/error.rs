//! The one error type of the server's requests: the client's mistakes (a
//! bad request, an unknown game, a wrong token, a conflict) apart from the
//! server's own failures. How each becomes an HTTP response is decided in
//! one place, `api` (4xx with a message; 500, logged).

/// An error answering a request.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request is malformed or asks for something impossible.
    #[error("{0}")]
    BadRequest(String),
    /// No such game.
    #[error("no such game")]
    NotFound,
    /// No such thing (a player, a challenge): `no such <what>`.
    #[error("no such {0}")]
    NoSuch(&'static str),
    /// The request needs a logged-in player, or the name or password is wrong.
    #[error("{0}")]
    Unauthorized(String),
    /// The client has made too many requests of this kind; it may try again
    /// after `retry_after_s` seconds.
    #[error("{message}")]
    TooManyRequests {
        /// What was refused, in words.
        message: String,
        /// Seconds until a request of this kind is accepted again.
        retry_after_s: u64,
    },
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
