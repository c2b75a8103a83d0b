//! The moderators' routes (docs/PROTOCOL.md, "Moderation") and the
//! players' reports, each a call into [`crate::moderation`].

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::body::JsonBody;
use super::session::User;
use crate::accounts::Role;
use crate::error::Error;
use crate::limits::rates::{account_key, Kind, Limiter};
use crate::moderation::Moderation;

/// `GET /api/admin/accounts`'s query.
#[derive(Debug, Deserialize)]
pub(super) struct FindQuery {
    /// The beginning of the name (any case); empty: the first names.
    #[serde(default)]
    q: String,
}

/// `GET /api/admin/accounts?q=`.
pub(super) async fn find(
    State(m): State<Moderation>,
    User(user): User,
    Query(q): Query<FindQuery>,
) -> Result<Json<Value>, Error> {
    let found = m.find(&user, &q.q).await?;
    Ok(Json(json!({ "accounts": found })))
}

/// The body of every moderator's action: why.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Why {
    reason: String,
}

/// `POST /api/admin/accounts/{name}/disable`.
pub(super) async fn disable(
    State(m): State<Moderation>,
    User(user): User,
    Path(name): Path<String>,
    JsonBody(why): JsonBody<Why>,
) -> Result<Json<Value>, Error> {
    let account = m.set_disabled(&user, &name, true, &why.reason).await?;
    Ok(Json(json!({ "account": account })))
}

/// `POST /api/admin/accounts/{name}/enable`.
pub(super) async fn enable(
    State(m): State<Moderation>,
    User(user): User,
    Path(name): Path<String>,
    JsonBody(why): JsonBody<Why>,
) -> Result<Json<Value>, Error> {
    let account = m.set_disabled(&user, &name, false, &why.reason).await?;
    Ok(Json(json!({ "account": account })))
}

/// `PUT /api/admin/accounts/{name}/role`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RoleRequest {
    role: String,
    reason: String,
}

/// `PUT /api/admin/accounts/{name}/role`.
pub(super) async fn set_role(
    State(m): State<Moderation>,
    User(user): User,
    Path(name): Path<String>,
    JsonBody(req): JsonBody<RoleRequest>,
) -> Result<Json<Value>, Error> {
    let role: Role = req
        .role
        .parse()
        .map_err(|e: crate::accounts::role::UnknownRole| Error::BadRequest(e.to_string()))?;
    let account = m.set_role(&user, &name, role, &req.reason).await?;
    Ok(Json(json!({ "account": account })))
}

/// `POST /api/admin/games/{id}/annul`.
pub(super) async fn annul(
    State(m): State<Moderation>,
    User(user): User,
    Path(id): Path<String>,
    JsonBody(why): JsonBody<Why>,
) -> Result<Json<Value>, Error> {
    let changed = m.annul(&user, &id, &why.reason).await?;
    Ok(Json(json!({ "game": id, "ratings_changed": changed })))
}

/// `POST /api/admin/games/{id}/chat/{n}/hide`.
pub(super) async fn hide_chat(
    State(m): State<Moderation>,
    User(user): User,
    Path((id, n)): Path<(String, u32)>,
    JsonBody(why): JsonBody<Why>,
) -> Result<StatusCode, Error> {
    m.hide_chat(&user, &id, n, &why.reason).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/admin/reports`'s query.
#[derive(Debug, Deserialize)]
pub(super) struct ReportsQuery {
    /// `1`: only the open reports.
    open: Option<String>,
}

/// `GET /api/admin/reports`.
pub(super) async fn reports(
    State(m): State<Moderation>,
    User(user): User,
    Query(q): Query<ReportsQuery>,
) -> Result<Json<Value>, Error> {
    let open = q.open.as_deref().is_some_and(|o| o == "1" || o == "true");
    Ok(Json(json!({ "reports": m.reports(&user, open).await? })))
}

/// `POST /api/admin/reports/{id}/close`.
pub(super) async fn close_report(
    State(m): State<Moderation>,
    User(user): User,
    Path(id): Path<i64>,
    JsonBody(why): JsonBody<Why>,
) -> Result<StatusCode, Error> {
    m.close_report(&user, id, &why.reason).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/admin/log`.
pub(super) async fn log(
    State(m): State<Moderation>,
    User(user): User,
) -> Result<Json<Value>, Error> {
    Ok(Json(json!({ "log": m.log(&user).await? })))
}

/// `POST /api/reports`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReportRequest {
    /// The game.
    game: String,
    /// The chat message's number, if the report is about one.
    chat: Option<u32>,
    /// Why.
    reason: String,
}

/// `POST /api/reports` (any logged-in player, [`Kind::Reports`] an account).
pub(super) async fn report(
    State(m): State<Moderation>,
    State(limiter): State<Limiter>,
    User(user): User,
    JsonBody(req): JsonBody<ReportRequest>,
) -> Result<(StatusCode, Json<Value>), Error> {
    limiter.check(Kind::Reports, &account_key(user.id)).await?;
    let id = m.report(&user, &req.game, req.chat, &req.reason).await?;
    Ok((StatusCode::CREATED, Json(json!({ "report": id }))))
}
