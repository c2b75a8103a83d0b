//! The opening explorer, the game search and collections:
//! `GET /api/explorer`, `GET /api/search`, `GET`/`POST /api/collections`,
//! `POST /api/collections/{name}/import` (docs/PROTOCOL.md).

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::body::JsonBody;
use super::session::{ClientAddr, MaybeUser, User};
use crate::calendar::{days_from_civil, DAY_MS};
use crate::db::explorer::{GameFilter, Order, Outcome, Privacy};
use crate::db::Store;
use crate::error::Error;
use crate::explorer::import::{self, SourceFile};
use crate::explorer::{collection, query};
use crate::limits::rates::{account_key, Kind, Limiter};
use crate::ratings::TimeClass;

/// The largest upload to a collection (a ZIP archive or one record file).
pub const MAX_UPLOAD_BYTES: usize = 64 * 1024 * 1024;

fn bad(msg: impl Into<String>) -> Error {
    Error::BadRequest(msg.into())
}

/// The query of `GET /api/explorer` and `GET /api/search` (every field optional).
#[derive(Debug, Default, Deserialize)]
pub(super) struct ExplorerQuery {
    sfen: Option<String>,
    collection: Option<String>,
    time_class: Option<String>,
    min_rating: Option<String>,
    max_rating: Option<String>,
    since: Option<String>,
    until: Option<String>,
    order: Option<String>,
    limit: Option<String>,
    offset: Option<String>,
    player: Option<String>,
    event: Option<String>,
    result: Option<String>,
    handicap: Option<String>,
    strategy: Option<String>,
}

/// A number of the query, within `range`.
fn number(
    name: &str,
    text: Option<&str>,
    range: std::ops::RangeInclusive<i64>,
) -> Result<Option<i64>, Error> {
    let Some(t) = text.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    match t.parse::<i64>() {
        Ok(n) if range.contains(&n) => Ok(Some(n)),
        _ => Err(bad(format!(
            "{name} must be a whole number from {} to {}, not {t:?}",
            range.start(),
            range.end()
        ))),
    }
}

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` as the Unix milliseconds of its first
/// day's midnight (UTC); with `end`, of the day after its last day.
fn date(name: &str, text: Option<&str>, end: bool) -> Result<Option<i64>, Error> {
    let Some(t) = text.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let refuse = || {
        bad(format!(
            "{name} must be YYYY, YYYY-MM or YYYY-MM-DD, not {t:?}"
        ))
    };
    let parts: Vec<&str> = t.split('-').collect();
    if parts.is_empty()
        || parts.len() > 3
        || parts
            .iter()
            .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(refuse());
    }
    let year: i64 = parts[0].parse().map_err(|_| refuse())?;
    let month: u32 = parts
        .get(1)
        .map_or(Ok(1), |m| m.parse())
        .map_err(|_| refuse())?;
    let day: u32 = parts
        .get(2)
        .map_or(Ok(1), |d| d.parse())
        .map_err(|_| refuse())?;
    if !(1..=9999).contains(&year) || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return Err(refuse());
    }
    let mut days = days_from_civil(year, month, day);
    if end {
        days = match parts.len() {
            1 => days_from_civil(year + 1, 1, 1),
            2 if month == 12 => days_from_civil(year + 1, 1, 1),
            2 => days_from_civil(year, month + 1, 1),
            _ => days + 1,
        };
    }
    Ok(Some(days * DAY_MS))
}

impl ExplorerQuery {
    fn filter(&self) -> Result<GameFilter, Error> {
        let word = |t: &Option<String>| t.as_deref().filter(|t| !t.is_empty()).map(str::to_owned);
        Ok(GameFilter {
            time_class: match word(&self.time_class) {
                None => None,
                Some(w) => Some(TimeClass::from_name(&w).ok_or_else(|| {
                    bad(format!(
                        "time_class is bullet, blitz, rapid or classical, not {w:?}"
                    ))
                })?),
            },
            min_rating: number("min_rating", self.min_rating.as_deref(), 0..=10_000)?,
            max_rating: number("max_rating", self.max_rating.as_deref(), 0..=10_000)?,
            since_ms: date("since", self.since.as_deref(), false)?,
            until_ms: date("until", self.until.as_deref(), true)?,
            player: word(&self.player).map(|p| p.to_lowercase()),
            event: word(&self.event),
            outcome: match word(&self.result) {
                None => None,
                Some(w) => Some(
                    Outcome::from_name(&w)
                        .ok_or_else(|| bad(format!("result is sente, gote or draw, not {w:?}")))?,
                ),
            },
            handicap: word(&self.handicap),
            strategy: match word(&self.strategy) {
                Some(s) if !crate::review::strategy::is_tag(&s) => {
                    return Err(bad(format!("no strategy tag {s:?}")))
                }
                s => s,
            },
        })
    }

    fn order(&self) -> Result<Order, Error> {
        match self.order.as_deref() {
            None | Some("" | "recent") => Ok(Order::Recent),
            Some("rating") => Ok(Order::Rating),
            Some(o) => Err(bad(format!("order is recent or rating, not {o:?}"))),
        }
    }

    fn limit(&self, default: i64) -> Result<usize, Error> {
        let max = i64::try_from(query::MAX_LIMIT).unwrap_or(100);
        Ok(
            usize::try_from(number("limit", self.limit.as_deref(), 0..=max)?.unwrap_or(default))
                .unwrap_or(0),
        )
    }
}

/// `GET /api/explorer?sfen=...&collection=...`: the moves played from a
/// position with their counts, and the games through it.
pub(super) async fn explorer(
    State(store): State<Store>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    MaybeUser(user): MaybeUser,
    Query(q): Query<ExplorerQuery>,
) -> Result<Json<Value>, Error> {
    limiter.check(Kind::Explorer, &addr.key()).await?;
    let req = query::ExplorerRequest {
        sfen: q.sfen.clone().unwrap_or_default(),
        collection: q.collection.clone(),
        filter: q.filter()?,
        order: q.order()?,
        limit: q.limit(10)?,
    };
    let answer = query::explore(&store, user.map(|u| u.id), &req).await?;
    Ok(Json(query::answer_json(&answer)))
}

/// `GET /api/search?sfen=...&player=...`: games by position, player, event,
/// date, result, handicap or strategy.
pub(super) async fn search(
    State(store): State<Store>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    MaybeUser(user): MaybeUser,
    Query(q): Query<ExplorerQuery>,
) -> Result<Json<Value>, Error> {
    limiter.check(Kind::Explorer, &addr.key()).await?;
    let req = query::SearchRequest {
        sfen: q.sfen.clone().filter(|s| !s.trim().is_empty()),
        collection: q.collection.clone(),
        filter: q.filter()?,
        order: q.order()?,
        offset: usize::try_from(number("offset", q.offset.as_deref(), 0..=1_000_000)?.unwrap_or(0))
            .unwrap_or(0),
        limit: q.limit(20)?,
    };
    let (games, more, cols) = query::search(&store, user.map(|u| u.id), &req).await?;
    Ok(Json(json!({
        "games": games.iter().map(|g| query::listed_json(g, &cols)).collect::<Vec<_>>(),
        "more": more,
        "offset": req.offset,
    })))
}

/// `GET /api/collections`: the collections the reader may read.
pub(super) async fn list(
    State(store): State<Store>,
    MaybeUser(user): MaybeUser,
) -> Result<Json<Value>, Error> {
    let reader = user.as_ref().map(|u| u.id);
    let cols = store.readable_collections(reader).await?;
    let mut out = Vec::with_capacity(cols.len());
    for c in &cols {
        let mine = match &user {
            Some(a) => collection::may_add(&store, a, c).await?,
            None => false,
        };
        out.push(json!({
            "name": c.name, "visibility": c.privacy.name(), "tournament": c.tournament,
            "games": c.games, "can_import": mine,
        }));
    }
    Ok(Json(json!({"collections": out})))
}

/// `POST /api/collections` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewCollection {
    name: String,
    visibility: Option<String>,
    tournament: Option<String>,
}

/// `POST /api/collections`: makes a collection owned by the account.
pub(super) async fn create(
    State(store): State<Store>,
    User(account): User,
    JsonBody(req): JsonBody<NewCollection>,
) -> Result<(StatusCode, Json<Value>), Error> {
    let privacy: Privacy = match req.visibility.as_deref() {
        None | Some("") => Privacy::Public,
        Some(w) => w.parse().map_err(|e| bad(format!("{e}")))?,
    };
    let c = collection::create(
        &store,
        Some(&account),
        req.name.trim(),
        privacy,
        req.tournament.as_deref().filter(|t| !t.is_empty()),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(
            json!({"name": c.name, "visibility": c.privacy.name(), "tournament": c.tournament, "games": 0, "can_import": true}),
        ),
    ))
}

/// `POST /api/collections/{name}/import`: the body is a ZIP archive of
/// record files or one record file. Answers `200` at once with one JSON
/// line of progress per batch read (`application/x-ndjson`), the last with
/// `"finished": true`; the import goes on if the client leaves.
pub(super) async fn import(
    State(store): State<Store>,
    State(limiter): State<Limiter>,
    User(account): User,
    Path(name): Path<String>,
    body: Bytes,
) -> Result<Response, Error> {
    let c = store.collection(&name).await?.ok_or(Error::NotFound)?;
    let readable = store
        .readable_collections_uncounted(Some(account.id))
        .await?;
    if !readable.iter().any(|r| r.id == c.id) {
        return Err(Error::NotFound);
    }
    if !collection::may_add(&store, &account, &c).await? {
        return Err(Error::Forbidden(
            "you may not add games to this collection".into(),
        ));
    }
    let bytes = u64::try_from(body.len()).unwrap_or(u64::MAX);
    limiter
        .check_bytes(Kind::CollectionBytes, &account_key(account.id), bytes)
        .await?;
    let (files, too_big) = if import::is_zip(&body) {
        import::expand_zip("upload.zip", &body).map_err(|e| bad(e.to_string()))?
    } else {
        (
            vec![SourceFile {
                name: "upload".into(),
                bytes: body.to_vec(),
            }],
            Vec::new(),
        )
    };
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
    tokio::spawn(async move {
        let refused: Vec<import::Refused> = too_big
            .into_iter()
            .map(import::Refused::too_large)
            .collect();
        let send = |p: &import::Progress| {
            let mut p = p.clone();
            p.unreadable.splice(0..0, refused.iter().cloned());
            if let Ok(mut line) = serde_json::to_vec(&p) {
                line.push(b'\n');
                // A client gone: the import goes on.
                let _ = tx.send(Bytes::from(line));
            }
        };
        let files = files.into_iter().map(import::Input::from).collect();
        if let Err(e) = import::import(&store, c.id, files, 0, send).await {
            tracing::warn!("import into {}: {e}", c.name);
            let line =
                json!({"error": "internal", "message": "the import stopped", "finished": true});
            let _ = tx.send(Bytes::from(format!("{line}\n")));
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, std::io::Error>(b), rx))
    });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response())
}
