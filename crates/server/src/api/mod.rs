//! The HTTP and WebSocket handlers: each translates a request into a typed
//! call of a domain module and its result into a response, and takes from
//! the [`AppState`] only what it needs (`FromRef`). How an [`Error`] becomes
//! a response is decided here, once.

mod account;
mod admin;
mod analysis;
mod annotations;
mod archive;
mod board;
mod body;
pub(crate) mod csa;
mod download;
mod explorer;
pub(crate) mod forward;
mod games;
mod guard;
mod learn;
mod legal;
mod lobby;
mod play;
mod players;
mod puzzles;
mod review;
pub(crate) mod session;
mod tournaments;
mod web;
mod wire;
pub mod ws;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};

use crate::error::{Error, Kind};
use crate::state::AppState;

/// The largest HTTP request body accepted.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// The router: the API under `/api` and the browser client's pages.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/games", post(games::create))
        .merge(live_room_routes(&state))
        .route("/api/games/{id}/record", get(review::record))
        .route("/api/games/{id}/diagram.svg", get(review::diagram_svg))
        .route("/api/games/{id}/diagram.png", get(review::diagram_png))
        .route(
            "/api/games/{id}/annotations",
            put(annotations::put).layer(DefaultBodyLimit::max(
                crate::review::annotations::MAX_ANNOTATIONS_BYTES,
            )),
        )
        .route(
            "/api/games/{id}/analysis",
            get(analysis::get).post(analysis::start),
        )
        .route("/api/archive", get(archive::archive))
        .route("/api/strategies", get(archive::strategies))
        .route("/api/explorer", get(explorer::explorer))
        .route("/api/search", get(explorer::search))
        .route(
            "/api/collections",
            get(explorer::list).post(explorer::create),
        )
        .route(
            "/api/collections/{name}/import",
            post(explorer::import).layer(DefaultBodyLimit::max(explorer::MAX_UPLOAD_BYTES)),
        )
        .route("/api/legal", post(legal::legal))
        .route("/api/play", post(play::play))
        .route(
            "/api/import",
            post(review::import).layer(DefaultBodyLimit::max(
                crate::review::records::MAX_IMPORT_BYTES,
            )),
        )
        .route("/api/mate", post(review::mate))
        .route("/api/analyse", post(board::analyse))
        .route("/api/export", post(board::export))
        .route("/api/diagram.png", get(board::diagram_png))
        .route("/api/handicaps", get(board::handicaps))
        .merge(lobby_routes(&state))
        .route("/api/players/{name}", get(players::profile))
        .route("/api/players/{name}/games", get(players::games))
        .route("/api/players/{name}/games.zip", get(players::games_zip))
        .route("/api/players/{name}/repertoire", get(players::repertoire))
        .route(
            "/api/account",
            post(account::register).delete(account::delete),
        )
        .route("/api/account/password", put(account::change_password))
        .route("/api/session", post(account::login).delete(account::logout))
        .route("/api/me", get(account::me))
        .route("/api/me/tournament-games", get(tournaments::ready))
        .route("/api/me/invitations", get(tournaments::my_invitations))
        .route(
            "/api/me/learn",
            get(learn::get).put(learn::put).layer(DefaultBodyLimit::max(
                crate::learn::progress::MAX_PROGRESS_BYTES,
            )),
        )
        .merge(tournament_routes())
        .merge(moderation_routes())
        .route("/api/puzzles/next", get(puzzles::next))
        .route("/api/puzzles/daily", get(puzzles::daily))
        .route("/api/puzzles/{id}", get(puzzles::get))
        .route("/api/puzzles/{id}/attempt", post(puzzles::attempt))
        .route("/api/puzzles/{id}/give-up", post(puzzles::give_up))
        .route("/api/me/puzzles", get(puzzles::me))
        .route("/api/me/puzzles/streak", post(puzzles::streak))
        .merge(web::routes())
        .fallback(web::not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        // Outermost: refusals and errors of the layers inside carry the headers too.
        .layer(axum::middleware::from_fn(guard::guard))
        .with_state(state)
}

/// The routes of a live room, forwarded to the instance holding the game's
/// lease when that is another one ([`forward`]).
fn live_room_routes(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}", get(games::get))
        .route("/api/games/{id}/join", post(games::join))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            forward::to_holder,
        ))
}

/// The lobby's routes, forwarded to the lobby's home when that is another
/// instance ([`forward`]).
fn lobby_routes(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/api/lobby", get(lobby::get))
        .route("/api/lobby/ws", get(lobby::upgrade))
        .route("/api/seeks", post(lobby::post))
        .route("/api/seeks/{id}", delete(lobby::withdraw))
        .route("/api/seeks/{id}/accept", post(lobby::accept))
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            forward::to_lobby_home,
        ))
}

/// The moderators' routes and the players' reports (docs/PROTOCOL.md,
/// "Moderation").
fn moderation_routes() -> Router<AppState> {
    Router::new()
        .route("/api/admin/accounts", get(admin::find))
        .route("/api/admin/accounts/{name}/disable", post(admin::disable))
        .route("/api/admin/accounts/{name}/enable", post(admin::enable))
        .route("/api/admin/accounts/{name}/role", put(admin::set_role))
        .route("/api/admin/games/{id}/annul", post(admin::annul))
        .route(
            "/api/admin/games/{id}/chat/{n}/hide",
            post(admin::hide_chat),
        )
        .route("/api/admin/reports", get(admin::reports))
        .route("/api/admin/reports/{id}/close", post(admin::close_report))
        .route("/api/admin/log", get(admin::log))
        .route("/api/reports", post(admin::report))
}

/// The tournaments' routes (docs/PROTOCOL.md, "Tournaments").
fn tournament_routes() -> Router<AppState> {
    Router::new()
        .route(
            "/api/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .route(
            "/api/tournaments/{id}",
            get(tournaments::get)
                .put(tournaments::update)
                .delete(tournaments::delete),
        )
        .route(
            "/api/tournaments/{id}/players",
            post(tournaments::add_player),
        )
        .route(
            "/api/tournaments/{id}/invitation/accept",
            post(tournaments::accept_invitation),
        )
        .route(
            "/api/tournaments/{id}/invitation/decline",
            post(tournaments::decline_invitation),
        )
        .route(
            "/api/tournaments/{id}/invitations/{name}",
            delete(tournaments::withdraw_invitation),
        )
        .route(
            "/api/tournaments/{id}/players/{n}",
            put(tournaments::update_player).delete(tournaments::withdraw),
        )
        .route(
            "/api/tournaments/{id}/organisers",
            post(tournaments::add_organiser),
        )
        .route(
            "/api/tournaments/{id}/organisers/{name}",
            delete(tournaments::remove_organiser),
        )
        .route("/api/tournaments/{id}/rounds", post(tournaments::pair))
        .route(
            "/api/instance/games/{id}/abort",
            post(forward::abort_unstarted),
        )
        .route(
            "/api/tournaments/{id}/rounds/{n}",
            delete(tournaments::unpair),
        )
        .route(
            "/api/tournaments/{id}/rounds/{n}/boards/{b}",
            put(tournaments::set_board).layer(DefaultBodyLimit::max(
                crate::tournaments::exports::MAX_RECORD_BYTES + 4096,
            )),
        )
        .route(
            "/api/tournaments/{id}/rounds/{n}/boards/{b}/report",
            post(tournaments::report),
        )
        .route(
            "/api/tournaments/{id}/rounds/{n}/boards/{b}/record",
            get(tournaments::board_record),
        )
        .route(
            "/api/tournaments/{id}/crosstable.csv",
            get(tournaments::crosstable_csv),
        )
        .route(
            "/api/tournaments/{id}/report.txt",
            get(tournaments::report_txt),
        )
        .route(
            "/api/tournaments/{id}/games.zip",
            get(tournaments::games_zip),
        )
        .route("/api/tournaments/{id}/audit", get(tournaments::audit))
}

/// A known route asked with a method it does not take: `405` with the JSON error.
async fn method_not_allowed(method: axum::http::Method) -> Response {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        Json(serde_json::json!({
            "error": format!("{method} is not allowed here"),
            "code": "method_not_allowed",
        })),
    )
        .into_response()
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let status = match &self {
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::NotFound | Error::NoSuch(_) => StatusCode::NOT_FOUND,
            Error::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Error::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::Conflict(_) => StatusCode::CONFLICT,
            Error::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Error::Problem(p) => match p.kind() {
                Kind::BadRequest => StatusCode::BAD_REQUEST,
                Kind::Unauthorized => StatusCode::UNAUTHORIZED,
                Kind::Forbidden => StatusCode::FORBIDDEN,
                Kind::Conflict => StatusCode::CONFLICT,
                Kind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            },
            Error::Internal(e) => {
                tracing::error!("{e}");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        let body = error_body(&self);
        match self {
            Error::TooManyRequests { retry_after_s, .. } => (
                status,
                [(axum::http::header::RETRY_AFTER, retry_after_s.to_string())],
                Json(body),
            )
                .into_response(),
            _ => (status, Json(body)).into_response(),
        }
    }
}

/// The JSON of an error answer: `error` (English words), `code` and the
/// code's parameters (docs/PROTOCOL.md, "Errors").
fn error_body(e: &Error) -> serde_json::Value {
    let mut body = match e {
        Error::Problem(p) => serde_json::to_value(p).unwrap_or_default(),
        Error::NoSuch(what) => serde_json::json!({"what": what}),
        Error::TooManyRequests { retry_after_s, .. } => {
            serde_json::json!({"retry_after_s": retry_after_s})
        }
        _ => serde_json::json!({}),
    };
    if let Some(fields) = body.as_object_mut() {
        let message = match e {
            // The server's failures are logged, not shown.
            Error::Internal(_) => "internal error".to_string(),
            _ => e.to_string(),
        };
        fields.insert("error".into(), message.into());
        fields.entry("code").or_insert_with(|| e.kind_code().into());
    }
    body
}
