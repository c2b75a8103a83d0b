//! The review's requests: record downloads, board pictures (SVG, PNG),
//! record import and the mate search.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use shogi_core::Move;
use shogi_engine::dfpn::MateResult;
use shogi_record::diagram::{Coords, Options, PieceStyle};
use shogi_record::Format;

use super::body::JsonBody;
use super::session::{ClientAddr, MaybeUser};
use crate::db::records::Visibility;
use crate::db::Store;
use crate::error::Error;
use crate::limits::rates::{Kind, Limiter};
use crate::review::records::{self, PlyChoice};
use crate::review::{mate, picture};
use crate::search_pool::SearchPool;

fn bad(msg: impl Into<String>) -> Error {
    Error::BadRequest(msg.into())
}

/// The `record` query.
#[derive(Debug, Deserialize)]
pub(super) struct RecordQuery {
    /// `kif`, `ki2`, `csa`, `jkf`, `sfen` (the USI `position` line), `usen` or `json`.
    format: Option<String>,
}

/// `GET /api/games/{id}/record?format=`.
pub(super) async fn record(
    State(store): State<Store>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    Query(q): Query<RecordQuery>,
) -> Result<Response, Error> {
    let review = records::load(&store, &id, user.map(|u| u.id)).await?;
    let name = q.format.as_deref().unwrap_or("kif");
    let (format, ext, mime) = match name {
        "json" => return Ok(Json(records::record_json(&review)).into_response()),
        "kif" => (Format::Kif, "kif", "text/plain; charset=utf-8"),
        "ki2" => (Format::Ki2, "ki2", "text/plain; charset=utf-8"),
        "csa" => (Format::Csa, "csa", "text/plain; charset=utf-8"),
        "jkf" => (Format::Jkf, "jkf", "application/json; charset=utf-8"),
        "sfen" | "usi" => (Format::Usi, "usi", "text/plain; charset=utf-8"),
        "usen" => (Format::Usen, "usen", "text/plain; charset=utf-8"),
        other => return Err(bad(format!("unknown format {other:?}"))),
    };
    let text = shogi_record::write(&review.record, format);
    let file = format!("{id}.{ext}");
    super::download::attachment(&file, &file, mime, text)
}

/// The `diagram.svg` and `diagram.png` query.
#[derive(Debug, Deserialize)]
pub(super) struct DiagramQuery {
    /// The position after this many moves (default: the last).
    ply: Option<usize>,
    /// Instead of `ply`: the position after these moves from the record's
    /// start, USI separated by commas or spaces (a variation's line).
    moves: Option<String>,
    /// `kanji` (default) or `international`.
    pieces: Option<String>,
    /// PNG width in pixels (default 600, at most [`picture::MAX_WIDTH`]).
    width: Option<u32>,
}

impl DiagramQuery {
    /// The position asked for.
    fn choice(&self) -> Result<PlyChoice, Error> {
        let Some(text) = self.moves.as_deref().filter(|m| !m.trim().is_empty()) else {
            return Ok(self.ply.map_or(PlyChoice::Last, PlyChoice::Ply));
        };
        if self.ply.is_some() {
            return Err(bad("give ply or moves, not both"));
        }
        let words: Vec<&str> = text.split([',', ' ']).filter(|w| !w.is_empty()).collect();
        if words.len() > records::MAX_DIAGRAM_MOVES {
            return Err(bad(format!(
                "more than {} moves",
                records::MAX_DIAGRAM_MOVES
            )));
        }
        let moves = words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                w.parse::<Move>()
                    .map_err(|e| bad(format!("moves[{i}]: {w:?}: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PlyChoice::Line(moves))
    }

    /// The picture options asked for.
    fn options(&self, last_move: Option<Move>) -> Options {
        let mut opts = Options {
            last_move,
            ..Options::default()
        };
        if self.pieces.as_deref() == Some("international") {
            opts.pieces = PieceStyle::International;
            opts.coords = Coords::Letters;
        }
        opts
    }
}

/// The position a diagram query asks for, and the picture options.
async fn diagram(
    store: &Store,
    id: &str,
    reader: Option<i64>,
    q: &DiagramQuery,
) -> Result<(shogi_core::Position, Options), Error> {
    let choice = q.choice()?;
    let review = records::load(store, id, reader).await?;
    let (pos, last) = records::position_at(&review.record, &choice)?;
    Ok((pos, q.options(last)))
}

/// `GET /api/games/{id}/diagram.svg?ply=N` (counted as a diagram of the address).
pub(super) async fn diagram_svg(
    State(store): State<Store>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    Query(q): Query<DiagramQuery>,
) -> Result<Response, Error> {
    limiter.check(Kind::Diagrams, &addr.key()).await?;
    let (pos, opts) = diagram(&store, &id, user.map(|u| u.id), &q).await?;
    let svg = shogi_record::diagram::svg(&pos, &opts);
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("image/svg+xml; charset=utf-8"),
        )],
        svg,
    )
        .into_response())
}

/// `GET /api/games/{id}/diagram.png?ply=N[&width=W]` (counted as a diagram
/// of the address).
pub(super) async fn diagram_png(
    State(store): State<Store>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    Query(q): Query<DiagramQuery>,
) -> Result<Response, Error> {
    let width = q.width.unwrap_or(picture::DEFAULT_WIDTH);
    if !(100..=picture::MAX_WIDTH).contains(&width) {
        return Err(bad(format!("width must be 100..={}", picture::MAX_WIDTH)));
    }
    limiter.check(Kind::Diagrams, &addr.key()).await?;
    let (pos, opts) = diagram(&store, &id, user.map(|u| u.id), &q).await?;
    super::download::png(pos, opts, width).await
}

/// The `import` query.
#[derive(Debug, Deserialize)]
pub(super) struct ImportQuery {
    /// `1` (or `true`): store the record in the archive.
    save: Option<String>,
    /// `public` (default), `unlisted` or `private`.
    visibility: Option<String>,
}

/// `POST /api/import[?save=1][&visibility=]`: the body is the record file.
/// Answers the record JSON with `existing` (the id of the same record
/// already in the archive, or `null`); saving answers `201` with the new
/// record's `id`, `token` and `visibility`, or `200` with the existing
/// record's and `"duplicate": true` (its `token` only for its owner account).
pub(super) async fn import(
    State(store): State<Store>,
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    MaybeUser(user): MaybeUser,
    Query(q): Query<ImportQuery>,
    body: Bytes,
) -> Result<(StatusCode, Json<Value>), Error> {
    let visibility = match q.visibility.as_deref() {
        None | Some("") => Visibility::Public,
        Some(word) => word.parse().map_err(|e| bad(format!("{e}")))?,
    };
    let key = addr.key();
    let bytes = u64::try_from(body.len()).unwrap_or(u64::MAX);
    limiter
        .check_all(&[(Kind::Imports, &key, 1), (Kind::ImportBytes, &key, bytes)])
        .await?;
    let save = matches!(q.save.as_deref(), Some("1" | "true"));
    let importer = user.map(|u| u.id);
    let opts = records::ImportOptions {
        save,
        visibility,
        importer,
    };
    let imported = records::import(&store, &body, opts).await?;
    let mut out = imported.json;
    let Some(obj) = out.as_object_mut() else {
        return Err(Error::Internal("the record JSON is not an object".into()));
    };
    obj.insert(
        "existing".into(),
        imported
            .existing
            .as_ref()
            .map_or(Value::Null, |d| Value::String(d.id.clone())),
    );
    if let Some((id, owner)) = imported.saved {
        obj.insert("id".into(), Value::String(id));
        obj.insert("token".into(), Value::String(owner));
        obj.insert("visibility".into(), visibility.name().into());
        obj.insert("duplicate".into(), Value::Bool(false));
        return Ok((StatusCode::CREATED, Json(out)));
    }
    if let (true, Some(dup)) = (save, imported.existing) {
        let mine = dup.owner_user.is_some() && dup.owner_user == importer;
        obj.insert("id".into(), Value::String(dup.id));
        if let (true, Some(token)) = (mine, dup.owner_token) {
            obj.insert("token".into(), Value::String(token));
        }
        obj.insert("visibility".into(), dup.visibility.name().into());
        obj.insert("duplicate".into(), Value::Bool(true));
    }
    Ok((StatusCode::OK, Json(out)))
}

/// `POST /api/mate` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MateRequest {
    /// The position (an SFEN; the attacker is the side to move).
    sfen: String,
    /// The time limit (default 3000, at most 10000).
    time_ms: Option<u64>,
}

/// `POST /api/mate`.
pub(super) async fn mate(
    State(limiter): State<Limiter>,
    State(pool): State<SearchPool>,
    addr: ClientAddr,
    JsonBody(req): JsonBody<MateRequest>,
) -> Result<Json<Value>, Error> {
    limiter.check(Kind::Mate, &addr.key()).await?;
    let time_ms = req.time_ms.unwrap_or(mate::DEFAULT_MATE_MS);
    Ok(Json(match mate::solve(&pool, req.sfen, time_ms).await? {
        MateResult::Mate(line) => json!({
            "result": "mate",
            "moves": line.iter().map(ToString::to_string).collect::<Vec<_>>(),
        }),
        MateResult::NoMate => json!({"result": "nomate", "moves": []}),
        MateResult::Timeout => json!({"result": "timeout", "moves": []}),
    }))
}
