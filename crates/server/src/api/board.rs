//! The analysis board's requests: the engine's lines of a position, the
//! export of a line as a record, a position's diagram, and the handicaps'
//! start positions for the position editor.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use shogi_core::{Handicap, Move, Position};
use shogi_record::diagram::{Coords, Options, PieceStyle};

use super::body::JsonBody;
use super::session::ClientAddr;
use crate::board::engine_lines::{self, Ask, Lines};
use crate::board::export::{self, Variation};
use crate::board::legal::MAX_SFEN_BYTES;
use crate::error::Error;
use crate::limits::rates::{Kind, Limiter};
use crate::review::analysis::Analyzer;
use crate::review::picture;
use crate::search_pool::SearchPool;

fn bad(msg: impl Into<String>) -> Error {
    Error::BadRequest(msg.into())
}

/// A position from its SFEN (both kings, the rules' checks).
fn position(sfen: &str) -> Result<Position, Error> {
    if sfen.len() > MAX_SFEN_BYTES {
        return Err(bad("sfen too long"));
    }
    shogi_core::sfen::parse_position(sfen).map_err(|e| bad(format!("sfen: {e}")))
}

/// USI moves read one by one; a bad one is named by `line` and its index.
fn usi_moves(words: &[String], line: &str) -> Result<Vec<Move>, Error> {
    if words.len() > export::MAX_MOVES {
        return Err(bad(format!(
            "{line}: more than {} moves",
            export::MAX_MOVES
        )));
    }
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            w.parse::<Move>()
                .map_err(|e| bad(format!("{line}[{i}]: {w:?}: {e}")))
        })
        .collect()
}

/// `POST /api/analyse` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AnalyseRequest {
    /// The position.
    sfen: String,
    /// How many lines, 1..=3 (default 1).
    multipv: Option<usize>,
    /// How long, 1..=3000 ms (default 1000).
    time_ms: Option<u64>,
}

/// `POST /api/analyse`.
pub(super) async fn analyse(
    State(limiter): State<Limiter>,
    State(pool): State<SearchPool>,
    State(analyzer): State<Arc<Analyzer>>,
    addr: ClientAddr,
    JsonBody(req): JsonBody<AnalyseRequest>,
) -> Result<Json<Lines>, Error> {
    limiter.check(Kind::Analyse, &addr.key()).await?;
    let ask = Ask::new(
        position(&req.sfen)?,
        req.multipv.unwrap_or(1),
        req.time_ms.unwrap_or(1000),
    )?;
    Ok(Json(
        engine_lines::analyse(&pool, &analyzer.gate(), ask).await?,
    ))
}

/// A variation in `POST /api/export`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct VariationBody {
    /// How many main-line moves come before it.
    at: usize,
    /// Its moves, USI.
    moves: Vec<String>,
}

/// `POST /api/export` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExportRequest {
    /// The start position.
    sfen: String,
    /// The main line, USI.
    #[serde(default)]
    moves: Vec<String>,
    /// Lines off the main line.
    #[serde(default)]
    variations: Vec<VariationBody>,
    /// `kif`, `ki2`, `csa`, `sfen` or `usen`.
    format: String,
}

/// `POST /api/export`: the record as text (not an attachment: the client
/// shows it, copies it and offers it as a file).
pub(super) async fn export(JsonBody(req): JsonBody<ExportRequest>) -> Result<Response, Error> {
    let (format, _) = export::format(&req.format)
        .ok_or_else(|| bad(format!("unknown format {:?}", req.format)))?;
    let start = position(&req.sfen)?;
    let moves = usi_moves(&req.moves, "moves")?;
    let variations = req
        .variations
        .iter()
        .enumerate()
        .map(|(i, v)| {
            Ok(Variation {
                at: v.at,
                moves: usi_moves(&v.moves, &format!("variations[{i}]"))?,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let rec = export::record(start, &moves, &variations).map_err(|e| bad(e.to_string()))?;
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        )],
        shogi_record::write(&rec, format),
    )
        .into_response())
}

/// The `GET /api/diagram.png` query.
#[derive(Debug, Deserialize)]
pub(super) struct DiagramQuery {
    /// The position.
    sfen: String,
    /// The move that led to it, USI (highlighted).
    last: Option<String>,
    /// `kanji` (default) or `international`.
    pieces: Option<String>,
    /// Width in pixels (default 600, 100..=2000).
    width: Option<u32>,
}

/// `GET /api/diagram.png?sfen=...`.
pub(super) async fn diagram_png(
    State(limiter): State<Limiter>,
    addr: ClientAddr,
    Query(q): Query<DiagramQuery>,
) -> Result<Response, Error> {
    let width = q.width.unwrap_or(picture::DEFAULT_WIDTH);
    if !(100..=picture::MAX_WIDTH).contains(&width) {
        return Err(bad(format!("width must be 100..={}", picture::MAX_WIDTH)));
    }
    let pos = position(&q.sfen)?;
    let last = match q.last.as_deref().filter(|w| !w.is_empty()) {
        Some(w) => Some(
            w.parse::<Move>()
                .map_err(|e| bad(format!("last: {w:?}: {e}")))?,
        ),
        None => None,
    };
    let mut opts = Options {
        last_move: last,
        ..Options::default()
    };
    if q.pieces.as_deref() == Some("international") {
        opts.pieces = PieceStyle::International;
        opts.coords = Coords::Letters;
    }
    limiter.check(Kind::Diagrams, &addr.key()).await?;
    super::download::png(pos, opts, width).await
}

/// One handicap of `GET /api/handicaps`.
#[derive(Debug, Serialize)]
pub(super) struct HandicapView {
    /// The name the API uses (`rook`, `two-pieces`, ...).
    name: &'static str,
    /// The KIF `手合割` name.
    kif: &'static str,
    /// The start position.
    sfen: String,
}

/// `GET /api/handicaps`: every standard start position, even first.
pub(super) async fn handicaps() -> Json<Vec<HandicapView>> {
    Json(
        Handicap::ALL
            .into_iter()
            .map(|h| HandicapView {
                name: h.name(),
                kif: h.kif_name(),
                sfen: h.sfen(),
            })
            .collect(),
    )
}
