//! File downloads: a body with its type and a `Content-Disposition` that
//! names the file (RFC 6266: an ASCII `filename` and the real name as
//! `filename*`).

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

use shogi_core::Position;
use shogi_record::diagram::Options;

use crate::error::Error;
use crate::review::picture;

/// The diagram of `pos` as a PNG `width` pixels wide (drawn on the blocking
/// pool), for the game diagrams and the analysis board's.
///
/// # Errors
/// [`Error::Internal`] if the picture cannot be drawn.
pub(super) async fn png(pos: Position, opts: Options, width: u32) -> Result<Response, Error> {
    let png = tokio::task::spawn_blocking(move || picture::png(&pos, &opts, width))
        .await
        .map_err(|e| Error::Internal(format!("diagram: {e}")))?
        .map_err(|e| Error::Internal(format!("diagram: {e}")))?;
    Ok((
        [(header::CONTENT_TYPE, HeaderValue::from_static("image/png"))],
        png,
    )
        .into_response())
}

/// `bytes` as an attachment named `ascii` (a plain fallback) and `name`
/// (any text, percent-encoded as UTF-8).
///
/// # Errors
/// [`Error::Internal`] only if a header cannot be built.
pub(super) fn attachment(
    ascii: &str,
    name: &str,
    content_type: &'static str,
    bytes: impl IntoResponse,
) -> Result<Response, Error> {
    let encoded: String = name
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.' {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    let disposition = format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}");
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).map_err(|e| Error::Internal(e.to_string()))?,
            ),
        ],
        bytes,
    )
        .into_response())
}
