//! Club tournaments (docs/PROTOCOL.md, "Tournaments"): events, entrants,
//! organisers, rounds, boards, reports and exports, each a call into
//! [`crate::tournaments`].

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::body::{JsonBody, OptionalJsonBody};
use super::download::attachment;
use super::session::{ClientAddr, MaybeUser, User};
use crate::error::Error;
use crate::limits::rates::{Kind, Limiter};
use crate::tournaments::invitations::AcceptRequest;
use crate::tournaments::settings::SettingsRequest;
use crate::tournaments::{EntrantRequest, Entry, RoundRequest, Tournaments};
use shogi_tournament::crosstable::CsvLanguage;

type Created = (StatusCode, Json<Value>);

/// `POST /api/tournaments`.
pub(super) async fn create(
    State(t): State<Tournaments>,
    User(user): User,
    JsonBody(req): JsonBody<SettingsRequest>,
) -> Result<Created, Error> {
    let id = t.create(&user, &req).await?;
    Ok((StatusCode::CREATED, Json(json!({ "id": id }))))
}

/// The list's query.
#[derive(Debug, Deserialize)]
pub(super) struct ListQuery {
    /// `1`: only the client's events.
    mine: Option<String>,
}

/// `GET /api/tournaments`.
pub(super) async fn list(
    State(t): State<Tournaments>,
    MaybeUser(user): MaybeUser,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>, Error> {
    let mine = q.mine.as_deref().is_some_and(|m| m == "1" || m == "true");
    Ok(Json(t.list(user.map(|u| u.id), mine).await?))
}

/// `GET /api/tournaments/{id}`.
pub(super) async fn get(
    State(t): State<Tournaments>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
) -> Result<Json<Value>, Error> {
    Ok(Json(t.get(&id, user.as_ref()).await?))
}

/// `PUT /api/tournaments/{id}`.
pub(super) async fn update(
    State(t): State<Tournaments>,
    User(user): User,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<SettingsRequest>,
) -> Result<Json<Value>, Error> {
    Ok(Json(t.update(&id, &user, &req).await?))
}

/// `DELETE /api/tournaments/{id}`.
pub(super) async fn delete(
    State(t): State<Tournaments>,
    User(user): User,
    Path(id): Path<String>,
) -> Result<StatusCode, Error> {
    t.delete(&id, &user).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/players`: `201` an entry, or `202` an
/// invitation (an organiser naming another account).
pub(super) async fn add_player(
    State(t): State<Tournaments>,
    User(user): User,
    Path(id): Path<String>,
    OptionalJsonBody(req): OptionalJsonBody<EntrantRequest>,
) -> Result<Created, Error> {
    Ok(match t.add_entrant(&id, &user, &req).await? {
        Entry::Entered(n) => (StatusCode::CREATED, Json(json!({ "player": n }))),
        Entry::Invited(invitation) => (StatusCode::ACCEPTED, Json(invitation)),
    })
}

/// `GET /api/me/invitations`.
pub(super) async fn my_invitations(
    State(t): State<Tournaments>,
    User(user): User,
) -> Result<Json<Value>, Error> {
    Ok(Json(t.my_invitations(user.id).await?))
}

/// `POST /api/tournaments/{id}/invitation/accept`.
pub(super) async fn accept_invitation(
    State(t): State<Tournaments>,
    User(user): User,
    Path(id): Path<String>,
    OptionalJsonBody(req): OptionalJsonBody<AcceptRequest>,
) -> Result<Created, Error> {
    let n = t.accept_invitation(&id, &user, &req).await?;
    Ok((StatusCode::CREATED, Json(json!({ "player": n }))))
}

/// `POST /api/tournaments/{id}/invitation/decline`.
pub(super) async fn decline_invitation(
    State(t): State<Tournaments>,
    User(user): User,
    Path(id): Path<String>,
) -> Result<StatusCode, Error> {
    t.decline_invitation(&id, &user).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/tournaments/{id}/invitations/{name}`.
pub(super) async fn withdraw_invitation(
    State(t): State<Tournaments>,
    User(user): User,
    Path((id, name)): Path<(String, String)>,
) -> Result<StatusCode, Error> {
    t.withdraw_invitation(&id, &user, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `PUT /api/tournaments/{id}/players/{n}`.
pub(super) async fn update_player(
    State(t): State<Tournaments>,
    User(user): User,
    Path((id, n)): Path<(String, u32)>,
    JsonBody(req): JsonBody<EntrantRequest>,
) -> Result<Json<Value>, Error> {
    Ok(Json(t.update_entrant(&id, &user, n, &req).await?))
}

/// `DELETE /api/tournaments/{id}/players/{n}`.
pub(super) async fn withdraw(
    State(t): State<Tournaments>,
    User(user): User,
    Path((id, n)): Path<(String, u32)>,
) -> Result<StatusCode, Error> {
    t.withdraw(&id, &user, n).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/organisers`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OrganiserRequest {
    /// The account's name.
    name: String,
}

/// `POST /api/tournaments/{id}/organisers`.
pub(super) async fn add_organiser(
    State(t): State<Tournaments>,
    User(user): User,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<OrganiserRequest>,
) -> Result<StatusCode, Error> {
    t.add_organiser(&id, &user, &req.name).await?;
    Ok(StatusCode::CREATED)
}

/// `DELETE /api/tournaments/{id}/organisers/{name}`.
pub(super) async fn remove_organiser(
    State(t): State<Tournaments>,
    User(user): User,
    Path((id, name)): Path<(String, String)>,
) -> Result<StatusCode, Error> {
    t.remove_organiser(&id, &user, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/tournaments/{id}/rounds` (counted against the address's
/// limit of rounds paired).
pub(super) async fn pair(
    State(t): State<Tournaments>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    User(user): User,
    Path(id): Path<String>,
    OptionalJsonBody(req): OptionalJsonBody<RoundRequest>,
) -> Result<Created, Error> {
    limiter.check(Kind::Pairings, &addr.key()).await?;
    Ok((StatusCode::CREATED, Json(t.pair(&id, &user, &req).await?)))
}

/// `DELETE /api/tournaments/{id}/rounds/{n}`.
pub(super) async fn unpair(
    State(t): State<Tournaments>,
    User(user): User,
    Path((id, n)): Path<(String, u32)>,
) -> Result<StatusCode, Error> {
    t.unpair(&id, &user, n).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `PUT /api/tournaments/{id}/rounds/{n}/boards/{b}`.
pub(super) async fn set_board(
    State(t): State<Tournaments>,
    User(user): User,
    Path((id, n, b)): Path<(String, u32, u32)>,
    JsonBody(body): JsonBody<serde_json::Map<String, Value>>,
) -> Result<Json<Value>, Error> {
    Ok(Json(t.set_board(&id, &user, n, b, &body).await?))
}

/// `POST .../boards/{b}/report`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReportRequest {
    /// `sente`, `gote` or `draw`.
    result: String,
}

/// `POST /api/tournaments/{id}/rounds/{n}/boards/{b}/report`.
pub(super) async fn report(
    State(t): State<Tournaments>,
    User(user): User,
    Path((id, n, b)): Path<(String, u32, u32)>,
    JsonBody(req): JsonBody<ReportRequest>,
) -> Result<Json<Value>, Error> {
    Ok(Json(t.report(&id, &user, n, b, &req.result).await?))
}

/// `GET /api/tournaments/{id}/rounds/{n}/boards/{b}/record`.
pub(super) async fn board_record(
    State(t): State<Tournaments>,
    Path((id, n, b)): Path<(String, u32, u32)>,
) -> Result<Response, Error> {
    let kif = t.board_record(&id, n, b).await?;
    let file = format!("r{n}-b{b}.kif");
    attachment(&file, &file, "text/plain; charset=utf-8", kif)
}

/// `GET /api/me/tournament-games`.
pub(super) async fn ready(
    State(t): State<Tournaments>,
    User(user): User,
) -> Result<Json<Value>, Error> {
    Ok(Json(t.ready_games(user.id).await?))
}

/// The `?lang=` of the crosstable CSV.
#[derive(Deserialize)]
pub(super) struct CsvQuery {
    lang: Option<String>,
}

/// `GET /api/tournaments/{id}/crosstable.csv[?lang=en|ru|uk|ja]`: English
/// without `lang` or with a language it does not know.
pub(super) async fn crosstable_csv(
    State(t): State<Tournaments>,
    Path(id): Path<String>,
    Query(q): Query<CsvQuery>,
) -> Result<Response, Error> {
    let lang = q
        .lang
        .as_deref()
        .and_then(CsvLanguage::from_code)
        .unwrap_or_default();
    let (name, csv) = t.crosstable_csv(&id, lang).await?;
    attachment(
        "crosstable.csv",
        &format!("{name}.csv"),
        "text/csv; charset=utf-8",
        csv,
    )
}

/// `GET /api/tournaments/{id}/report.txt`.
pub(super) async fn report_txt(
    State(t): State<Tournaments>,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let (name, text) = t.report_txt(&id).await?;
    attachment(
        "report.txt",
        &format!("{name}.txt"),
        "text/plain; charset=utf-8",
        text,
    )
}

/// `GET /api/tournaments/{id}/games.zip`.
pub(super) async fn games_zip(
    State(t): State<Tournaments>,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let (name, bytes) = t.games_zip(&id).await?;
    attachment(
        "games.zip",
        &format!("{name}.zip"),
        "application/zip",
        bytes,
    )
}

/// `GET /api/tournaments/{id}/audit`.
pub(super) async fn audit(
    State(t): State<Tournaments>,
    User(user): User,
    Path(id): Path<String>,
) -> Result<Json<Value>, Error> {
    Ok(Json(t.audit_log(&id, &user).await?))
}
