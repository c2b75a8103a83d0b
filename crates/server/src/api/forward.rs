//! Several instances: a request for a game whose room lives on another
//! instance (the holder of the game's lease) is forwarded there, and its
//! answer passed back. A WebSocket is forwarded as a whole: the upgrade goes
//! to the holder, and once both sides have switched protocols the two
//! connections are joined byte for byte, so players and spectators on any
//! instance play and watch live.
//!
//! The forwarded request keeps its method, path, headers (`Host`, `Origin`,
//! the session cookie: the holder checks and seats it as if it came
//! directly) and body, and gains [`FORWARDED`]; a request carrying that
//! header is never forwarded again (the instance it reaches answers from
//! what it holds), so two instances that disagree cannot bounce a request
//! between them. A holder that cannot be reached (it died; its lease runs
//! out within seconds and another instance takes the game over) gives
//! `503` `{"error": "the game's server cannot be reached; try again in a few seconds"}`.
//!
//! Only the routes of a live room pass through here: the game's state, the
//! join, the WebSocket. Everything else (records, reviews, the archive) is
//! read from the shared database by whichever instance is asked.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::MAX_BODY_BYTES;
use crate::error::Error;
use crate::rooms::{Located, Rooms};

/// The header a forwarded request carries (`x-shogi-forwarded: 1`).
pub const FORWARDED: HeaderName = HeaderName::from_static("x-shogi-forwarded");

/// The game id of a path `/api/games/{id}[/...]`.
fn game_id(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/games/")?;
    Some(rest.split('/').next().unwrap_or(rest))
}

/// The middleware of a live room's routes: forwards the request to the
/// holder of the game's lease when that is another instance.
pub(super) async fn to_holder(State(rooms): State<Rooms>, req: Request, next: Next) -> Response {
    if req.headers().contains_key(&FORWARDED) {
        return next.run(req).await;
    }
    let Some(id) = game_id(req.uri().path()) else {
        return next.run(req).await;
    };
    match rooms.locate(id).await {
        Ok(Located::Elsewhere(address)) => match forward(&address, req).await {
            Ok(response) => response,
            Err(e) => {
                tracing::warn!("forwarding to the instance at {address}: {e}");
                Error::Unavailable(
                    "the game's server cannot be reached; try again in a few seconds".into(),
                )
                .into_response()
            }
        },
        // Here, or an error the handler meets again and answers.
        Ok(Located::Here(_)) | Err(_) => next.run(req).await,
    }
}

/// Why a request could not be forwarded.
#[derive(Debug, thiserror::Error)]
enum ForwardError {
    #[error("connecting: {0}")]
    Connect(#[from] std::io::Error),
    #[error("http: {0}")]
    Http(#[from] hyper::Error),
    #[error("request: {0}")]
    Request(#[from] axum::http::Error),
    #[error("the request body is too large or broken")]
    Body,
}

/// Sends `req` to the instance at `address` and returns its answer; a
/// WebSocket upgrade is joined to the holder's once both switch protocols.
async fn forward(address: &str, mut req: Request) -> Result<Response, ForwardError> {
    let stream = TcpStream::connect(address).await?;
    stream.set_nodelay(true)?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake::<_, Body>(TokioIo::new(stream)).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.with_upgrades().await {
            tracing::debug!("a forwarded connection ended: {e}");
        }
    });
    let client_upgrade = req
        .headers()
        .contains_key(axum::http::header::UPGRADE)
        .then(|| hyper::upgrade::on(&mut req));
    let (parts, body) = req.into_parts();
    let body = axum::body::to_bytes(body, MAX_BODY_BYTES)
        .await
        .map_err(|_| ForwardError::Body)?;
    let path = parts
        .uri
        .path_and_query()
        .map_or_else(|| parts.uri.path().to_owned(), ToString::to_string);
    let mut upstream = axum::http::Request::builder()
        .method(parts.method)
        .uri(path)
        .body(Body::from(body))?;
    *upstream.headers_mut() = parts.headers;
    upstream
        .headers_mut()
        .insert(FORWARDED, HeaderValue::from_static("1"));
    let mut response = sender.send_request(upstream).await?;
    if let (Some(client), axum::http::StatusCode::SWITCHING_PROTOCOLS) =
        (client_upgrade, response.status())
    {
        let holder = hyper::upgrade::on(&mut response);
        tokio::spawn(async move {
            let (Ok(client), Ok(holder)) = tokio::join!(client, holder) else {
                return;
            };
            let mut client = TokioIo::new(client);
            let mut holder = TokioIo::new(holder);
            // Ends when either side closes; nothing to report.
            let _ = tokio::io::copy_bidirectional(&mut client, &mut holder).await;
        });
    }
    Ok(response.map(Body::new))
}

#[cfg(test)]
mod tests {
    use super::game_id;

    #[test]
    fn the_game_id_is_the_path_segment_after_games() {
        assert_eq!(game_id("/api/games/abc/ws"), Some("abc"));
        assert_eq!(game_id("/api/games/abc"), Some("abc"));
        assert_eq!(game_id("/api/games"), None);
        assert_eq!(game_id("/api/lobby"), None);
    }
}
