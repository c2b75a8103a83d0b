//! Request bodies: JSON whose rejection is answered like every other client error.

use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::Json;
use serde::de::DeserializeOwned;

use crate::error::Error;

/// A body over the route's limit is [`Error::TooLarge`] (`413`); any other
/// rejection an [`Error::BadRequest`].
fn rejected(status: StatusCode, text: String) -> Error {
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        Error::TooLarge(text)
    } else {
        Error::BadRequest(text)
    }
}

/// A JSON body whose rejection is an [`Error::BadRequest`] like every other
/// client error (or [`Error::TooLarge`] over the limit).
pub(crate) struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Error> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(rejected(rejection.status(), rejection.body_text())),
        }
    }
}

/// A JSON body that may be left out (empty or blank): then `T::default()`.
pub(crate) struct OptionalJsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for OptionalJsonBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Error> {
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|e| rejected(e.status(), e.body_text()))?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJsonBody(T::default()));
        }
        serde_json::from_slice(&bytes)
            .map(OptionalJsonBody)
            .map_err(|e| Error::BadRequest(format!("bad body: {e}")))
    }
}
