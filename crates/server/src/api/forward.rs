//! Several instances: a request for a game whose room lives on another
//! instance (the holder of the game's lease) is forwarded there, and its
//! answer passed back. A WebSocket is forwarded as a whole: the upgrade goes
//! to the holder, and once both sides have switched protocols the two
//! connections are joined byte for byte, so players and spectators on any
//! instance play and watch live.
//!
//! The forwarded request keeps its method, path, headers (`Host`, `Origin`,
//! the session cookie: the holder checks and seats it as if it came
//! directly) and body, and gains [`FORWARDED`] (the forwarding instance's
//! id) and [`CLIENT`] (the client's address). A request whose [`FORWARDED`]
//! names a live instance is never forwarded again (the instance it reaches
//! answers from what it holds), so two instances that disagree cannot bounce
//! a request between them, and its client address is taken from [`CLIENT`],
//! so that per-address limits count the player, not the instance. Instance
//! ids are random tokens no client is shown; a request naming anything else
//! has both headers dropped and is served as any other. A holder that cannot be reached (it died; its lease runs
//! out within seconds and another instance takes the game over) gives
//! `503` `{"error": "the game's server cannot be reached; try again in a few seconds"}`.
//!
//! Only the routes of a live room pass through here (the game's state, the
//! join, the WebSocket) and the lobby's (its state and socket, the seeks),
//! which lives on one instance, the *home*: the live instance with the
//! lowest id. The home lists the other instances' live games too, asking
//! each for its own every [`LIVE_REFRESH`] ([`spawn_lobby_sync`]). Everything
//! else (records, reviews, the archive) is read from the shared database by
//! whichever instance is asked.
//!
//! One request goes between instances by themselves: an instance that
//! unpairs a tournament round asks the holder of each of its games to abort
//! it ([`HttpHolders`], answered by [`abort_unstarted`]).

use axum::body::Body;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;

use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::header::{HeaderName, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::MAX_BODY_BYTES;
use crate::error::Error;
use crate::games::leases::Leases;
use crate::games::rooms::{Holders, Located, Rooms};
use crate::lobby::{Lobby, LIVE_REFRESH};

/// The header a forwarded request carries: the forwarding instance's id.
pub const FORWARDED: HeaderName = HeaderName::from_static("x-shogi-forwarded");
/// The header a forwarded request carries: the client's address.
pub const CLIENT: HeaderName = HeaderName::from_static("x-shogi-client");

/// Whether `req` was forwarded by a live instance: if so, its client
/// address becomes the one the forwarder saw; if it only claims to be,
/// the claim is dropped.
fn from_instance(leases: Option<&Leases>, req: &mut Request) -> bool {
    let Some(claim) = req.headers().get(&FORWARDED) else {
        return false;
    };
    let known = leases.is_some_and(|l| claim.to_str().is_ok_and(|id| l.knows(id)));
    if !known {
        req.headers_mut().remove(&FORWARDED);
        req.headers_mut().remove(&CLIENT);
        return false;
    }
    let client = req
        .headers()
        .get(&CLIENT)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<IpAddr>().ok());
    if let Some(ip) = client {
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::new(ip, 0)));
    }
    true
}

/// The game id of a path `/api/games/{id}[/...]`.
fn game_id(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/games/")?;
    Some(rest.split('/').next().unwrap_or(rest))
}

/// The middleware of a live room's routes: forwards the request to the
/// holder of the game's lease when that is another instance.
pub(super) async fn to_holder(
    State(rooms): State<Rooms>,
    mut req: Request,
    next: Next,
) -> Response {
    let leases = rooms.leases();
    if from_instance(leases, &mut req) {
        return next.run(req).await;
    }
    let Some(leases) = leases else {
        return next.run(req).await;
    };
    let Some(id) = game_id(req.uri().path()) else {
        return next.run(req).await;
    };
    match rooms.locate(id).await {
        Ok(Located::Elsewhere(address)) => {
            forward_or_unavailable(&address, leases, req, "the game's server").await
        }
        // Here, or an error the handler meets again and answers.
        Ok(Located::Here(_)) | Err(_) => next.run(req).await,
    }
}

/// The middleware of the lobby's routes: forwards the request to the
/// lobby's home when that is another instance.
pub(super) async fn to_lobby_home(
    State(rooms): State<Rooms>,
    State(lobby): State<Lobby>,
    mut req: Request,
    next: Next,
) -> Response {
    let leases = rooms.leases();
    if from_instance(leases, &mut req) {
        return next.run(req).await;
    }
    let (Some(leases), Some(address)) = (leases, lobby.home()) else {
        return next.run(req).await;
    };
    forward_or_unavailable(&address, leases, req, "the lobby").await
}

/// [`forward`]'s answer, or `503` naming `what` could not be reached.
async fn forward_or_unavailable(
    address: &str,
    leases: &Leases,
    req: Request,
    what: &str,
) -> Response {
    match forward(address, leases, req).await {
        Ok(response) => response,
        Err(e) => {
            tracing::warn!("forwarding to {what} at {address}: {e}");
            Error::Unavailable(format!(
                "{what} cannot be reached; try again in a few seconds"
            ))
            .into_response()
        }
    }
}

/// Keeps the lobby's home up to date every [`LIVE_REFRESH`]: the live
/// instance with the lowest id. On the home, the other instances' live
/// games are fetched and merged into its list; elsewhere, lobby requests
/// go to the home.
pub(crate) fn spawn_lobby_sync(leases: Leases, lobby: Lobby) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(LIVE_REFRESH);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let instances = match leases.live_instances(crate::time::unix_ms()).await {
                Ok(list) => list,
                Err(e) => {
                    tracing::warn!("listing the instances: {e}");
                    continue;
                }
            };
            let home = instances
                .first()
                .filter(|(id, _)| id != leases.instance_id())
                .map(|(_, address)| address.clone());
            let here = home.is_none();
            lobby.set_home(home);
            if !here {
                lobby.set_remote(Vec::new(), 0);
                continue;
            }
            let mut listed = Vec::new();
            let mut total = 0;
            for (_, address) in instances
                .iter()
                .filter(|(id, _)| id != leases.instance_id())
            {
                match get_json(address, &leases, "/api/lobby").await {
                    Ok(v) => {
                        total += v["live_total"]
                            .as_u64()
                            .and_then(|n| usize::try_from(n).ok())
                            .unwrap_or(0);
                        if let Some(games) = v["live"].as_array() {
                            listed.extend(games.iter().cloned());
                        }
                    }
                    Err(e) => tracing::debug!("the live games of {address}: {e}"),
                }
            }
            lobby.set_remote(listed, total);
        }
    })
}

/// `GET path` of the instance at `address` (marked forwarded, so that it
/// answers from what it holds): the JSON answer.
async fn get_json(
    address: &str,
    leases: &Leases,
    path: &str,
) -> Result<serde_json::Value, ForwardError> {
    Ok(call(address, leases, Method::GET, path).await?.1)
}

/// A request without a body from this instance to the one at `address`
/// (marked forwarded, so that it answers from what it holds): the status
/// and the JSON answer.
async fn call(
    address: &str,
    leases: &Leases,
    method: Method,
    path: &str,
) -> Result<(StatusCode, serde_json::Value), ForwardError> {
    let stream = TcpStream::connect(address).await?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake::<_, Body>(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    let req = axum::http::Request::builder()
        .method(method)
        .uri(path)
        .header(axum::http::header::HOST, address)
        .header(FORWARDED, leases.instance_id())
        .body(Body::empty())?;
    let response = sender.send_request(req).await?;
    let status = response.status();
    let body = axum::body::to_bytes(Body::new(response.into_body()), 1 << 20)
        .await
        .map_err(|_| ForwardError::Body)?;
    let value = serde_json::from_slice(&body).map_err(|_| ForwardError::Body)?;
    Ok((status, value))
}

/// How long [`HttpHolders`] waits for the holder's answer.
const HOLDER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// The path of [`abort_unstarted`] for game `id`.
fn abort_path(id: &str) -> String {
    format!("/api/instance/games/{id}/abort")
}

/// `POST /api/instance/games/{id}/abort`: another instance (unpairing a
/// tournament round, or moving a board over the board) asks this one, the
/// holder of the game's lease, to abort the game if nobody has moved
/// ([`Rooms::abort_unstarted_here`]); `{"aborted": bool}`. Only for
/// requests from a live instance: anyone else meets `404`, as if the route
/// did not exist. No route forwards a client's request here, since
/// forwarding keeps the path and only a live room's and the lobby's routes
/// forward.
pub(super) async fn abort_unstarted(
    State(rooms): State<Rooms>,
    Path(id): Path<String>,
    mut req: Request,
) -> Result<Json<serde_json::Value>, Error> {
    // An instance started since the list was last read is not known yet:
    // read it again before refusing (a client's false claim costs a read).
    let leases = rooms.leases();
    if let (Some(leases), Some(claim)) = (leases, req.headers().get(&FORWARDED)) {
        if !claim.to_str().is_ok_and(|id| leases.knows(id)) {
            leases.live_instances(crate::time::unix_ms()).await?;
        }
    }
    if !from_instance(leases, &mut req) {
        return Err(Error::NotFound);
    }
    let aborted = rooms.abort_unstarted_here(&id).await?;
    Ok(Json(serde_json::json!({ "aborted": aborted })))
}

/// [`Holders`] over HTTP between instances, for [`Rooms::with_holders`].
#[derive(Debug)]
pub(crate) struct HttpHolders {
    leases: Leases,
}

impl HttpHolders {
    /// Requests signed with this instance's id from `leases`.
    pub(crate) fn new(leases: Leases) -> HttpHolders {
        HttpHolders { leases }
    }
}

impl Holders for HttpHolders {
    fn abort_unstarted<'a>(
        &'a self,
        address: &'a str,
        id: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<bool, Error>> + Send + 'a>> {
        Box::pin(async move {
            let path = abort_path(id);
            let asked = call(address, &self.leases, Method::POST, &path);
            // The caller holds its event's lock meanwhile: a holder that
            // does not answer is not waited for long.
            let answer = tokio::time::timeout(HOLDER_TIMEOUT, asked)
                .await
                .unwrap_or(Err(ForwardError::TimedOut));
            match answer {
                Ok((StatusCode::OK, v)) => Ok(v["aborted"].as_bool().unwrap_or(false)),
                Ok((StatusCode::CONFLICT, v)) => Err(Error::Conflict(
                    v["error"].as_str().unwrap_or("conflict").to_owned(),
                )),
                Ok((status, v)) => Err(Error::Unavailable(format!(
                    "the game's server at {address} answered {status}: {v}"
                ))),
                Err(e) => Err(Error::Unavailable(format!(
                    "the game's server at {address} cannot be reached: {e}"
                ))),
            }
        })
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
    #[error("header: {0}")]
    Header(#[from] axum::http::header::InvalidHeaderValue),
    #[error("a body too large or broken")]
    Body,
    #[error("no answer within {} s", HOLDER_TIMEOUT.as_secs())]
    TimedOut,
}

/// Sends `req` to the instance at `address` and returns its answer; a
/// WebSocket upgrade is joined to the holder's once both switch protocols.
async fn forward(
    address: &str,
    leases: &Leases,
    mut req: Request,
) -> Result<Response, ForwardError> {
    let client = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_string());
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
    let headers = upstream.headers_mut();
    headers.insert(FORWARDED, HeaderValue::from_str(leases.instance_id())?);
    headers.remove(&CLIENT);
    if let Some(ip) = client.and_then(|ip| HeaderValue::from_str(&ip).ok()) {
        headers.insert(CLIENT, ip);
    }
    let mut response = sender.send_request(upstream).await?;
    if let (Some(client), StatusCode::SWITCHING_PROTOCOLS) = (client_upgrade, response.status()) {
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
    fn the_abort_path_is_not_a_live_rooms_path() {
        // A live room's paths forward; this one must not (see `abort_unstarted`).
        assert_eq!(game_id(&super::abort_path("abc")), None);
    }

    #[test]
    fn the_game_id_is_the_path_segment_after_games() {
        assert_eq!(game_id("/api/games/abc/ws"), Some("abc"));
        assert_eq!(game_id("/api/games/abc"), Some("abc"));
        assert_eq!(game_id("/api/games"), None);
        assert_eq!(game_id("/api/lobby"), None);
    }
}
