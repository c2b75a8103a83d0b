//! Review: record downloads, board pictures (SVG, PNG), record import and
//! the mate search; the archive list is in [`crate::archive`], saved
//! comments and variations in [`crate::annotations`].
//!
//! A finished game becomes a [`shogi_record::Record`] built from its stored
//! moves, times and ending; an imported record keeps the uploaded bytes and
//! is read again with the same reader whenever it is used. Either gets its
//! saved annotations laid over it.

use std::str::FromStr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use shogi_core::{Color, Handicap, Move};
use shogi_engine::dfpn::{self, MateResult};
use shogi_record::{Ending, Format, Node, Record};
use sqlx::Row;
use tokio::sync::Semaphore;

pub use crate::archive::{ArchiveEntry, ArchiveQuery, MAX_PER_PAGE};

use crate::annotations;
use crate::app::{AppState, JsonBody};
use crate::archive::search_name;
use crate::clock::TimeControl;
use crate::error::Error;
use crate::picture;
use crate::protocol::{Reason, Settings, Side};
use crate::time::unix_ms;
use crate::token;

/// The largest record file accepted by `POST /api/import`.
pub const MAX_IMPORT_BYTES: usize = 1024 * 1024;
/// The longest mate search, in milliseconds.
pub const MAX_MATE_MS: u64 = 10_000;

/// A 400 answer with `msg`.
pub(crate) fn bad(msg: impl Into<String>) -> Error {
    Error::BadRequest(msg.into())
}

/// The side name stored in the database (`sente`, `gote`), or `None`.
pub(crate) fn side_of(name: Option<&str>) -> Option<&'static str> {
    match name {
        Some("sente") => Some("sente"),
        Some("gote") => Some("gote"),
        _ => None,
    }
}

fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// `YYYY/MM/DD HH:MM:SS` (UTC) of Unix milliseconds.
fn date_text(ms: u64) -> String {
    let secs = ms / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Days to civil date (proleptic Gregorian), after Howard Hinnant's algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}/{month:02}/{day:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The record ending of a stored game ending; `stm` is the side to move after the moves.
fn game_ending(winner: Option<Color>, reason: Reason, stm: Color) -> Ending {
    match reason {
        Reason::Checkmate | Reason::NoLegalMoves => Ending::Checkmate,
        // Resigning while the opponent thinks is allowed: the loser is the resigner.
        Reason::Resign => Ending::Resign {
            loser: winner.map_or(stm, Color::opponent),
        },
        Reason::Timeout => Ending::Timeout,
        Reason::Repetition => Ending::Repetition,
        Reason::PerpetualCheck => Ending::PerpetualCheck {
            loser: winner.map_or(stm, Color::opponent),
        },
        Reason::Impasse if winner == Some(stm) => Ending::DeclarationWin,
        Reason::Impasse if winner.is_some() => Ending::IllegalMove { loser: stm },
        Reason::Impasse => Ending::Impasse,
        Reason::Try => Ending::IllegalMove { loser: stm },
        Reason::IllegalMove => Ending::IllegalMove {
            loser: winner.map_or(stm, Color::opponent),
        },
        Reason::MaxMoves => Ending::MaxMoves,
    }
}

/// The name and winner the archive shows for a record's ending.
fn ending_summary(rec: &Record) -> (Option<&'static str>, Option<&'static str>) {
    let reason = match rec.ending {
        Ending::None => None,
        Ending::Resign { .. } => Some("resign"),
        Ending::Checkmate => Some("checkmate"),
        Ending::Repetition => Some("repetition"),
        Ending::PerpetualCheck { .. } => Some("perpetual_check"),
        Ending::Impasse | Ending::DeclarationWin => Some("impasse"),
        Ending::IllegalMove { .. } | Ending::Matta => Some("illegal_move"),
        Ending::Timeout => Some("timeout"),
        Ending::Abort => Some("abort"),
        Ending::MaxMoves => Some("max_moves"),
        Ending::Draw => Some("draw"),
        Ending::NoMate => Some("nomate"),
        Ending::Sealed => Some("sealed"),
        Ending::Error => Some("error"),
    };
    let winner = rec
        .loser()
        .map(|l| Side::from(l.opponent()).name())
        .and_then(|n| side_of(Some(n)));
    (winner, reason)
}

/// The record of a game played here, if `id` is one.
async fn game_record(app: &AppState, id: &str) -> Result<Option<Record>, Error> {
    let Some(g) = app.store().load(id).await? else {
        return Ok(None);
    };
    let pool = app.store().reader();
    let created: i64 = sqlx::query("SELECT created_at FROM games WHERE id = ?")
        .bind(id)
        .fetch_one(pool)
        .await?
        .try_get("created_at")?;
    let used: Vec<i64> = sqlx::query("SELECT used_ms FROM moves WHERE game_id = ? ORDER BY ply")
        .bind(id)
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| r.try_get::<i64, _>("used_ms"))
        .collect::<Result<_, _>>()?;
    let broken = || Error::Internal(format!("game {id}: stored record is invalid"));
    let start = shogi_core::sfen::parse_position(&g.start_sfen).map_err(|_| broken())?;
    let settings: Option<Settings> = serde_json::from_str(&g.settings).ok();
    let mut rec = Record::new(start.clone());
    rec.headers.start_time = Some(date_text(to_u64(created)));
    rec.headers.handicap = Handicap::from_position(&start);
    if let Some(s) = &settings {
        if let Some(ai) = s.ai {
            let name = Some(format!("AI {}", ai.level));
            match ai.side {
                Side::Sente => rec.headers.sente = name,
                Side::Gote => rec.headers.gote = name,
            }
        }
        if let Some(tc) = s.time {
            let secs = |ms: u64| u32::try_from(ms / 1000).unwrap_or(u32::MAX);
            rec.headers.time_control = Some(shogi_record::TimeControl {
                main: secs(tc.main_ms),
                byoyomi: secs(tc.byoyomi_ms),
                increment: secs(tc.increment_ms),
            });
        }
    }
    let mut pos = start;
    for (i, usi) in g.moves.iter().enumerate() {
        let Ok(mv) = Move::from_str(usi) else { break };
        if !pos.is_legal(mv) {
            // An illegal move that lost the game ("lose" rule): the record stops before it.
            break;
        }
        pos.make_move(mv);
        let mut node = Node::new(mv);
        node.time = used
            .get(i)
            .map(|&ms| u32::try_from(to_u64(ms) / 1000).unwrap_or(u32::MAX));
        rec.moves.push(node);
    }
    if let Some((winner, reason)) = g.ending {
        rec.ending = game_ending(winner, reason, pos.side_to_move());
    }
    Ok(Some(rec))
}

/// The record of an imported record, if `id` is one.
async fn imported_record(app: &AppState, id: &str) -> Result<Option<Record>, Error> {
    let row = sqlx::query("SELECT source FROM records WHERE id = ?")
        .bind(id)
        .fetch_optional(app.store().reader())
        .await?;
    let Some(row) = row else { return Ok(None) };
    let bytes: Vec<u8> = row.try_get("source")?;
    shogi_record::read(&bytes)
        .map(Some)
        .map_err(|e| Error::Internal(format!("record {id}: {e}")))
}

/// The record of a game or an imported record, with its saved annotations
/// (comments and variations) if any.
///
/// # Errors
/// [`Error::NotFound`] when `id` is neither.
pub(crate) async fn load_record(app: &AppState, id: &str) -> Result<Record, Error> {
    if !token::is_game_id(id) {
        return Err(Error::NotFound);
    }
    let rec = match game_record(app, id).await? {
        Some(rec) => rec,
        None => imported_record(app, id).await?.ok_or(Error::NotFound)?,
    };
    let Some(ann) = annotations::stored(app, id).await? else {
        return Ok(rec);
    };
    match annotations::apply(&rec, &ann) {
        Ok(annotated) => Ok(annotated),
        Err(e) => {
            // Checked when saved; a record read differently since then keeps its own.
            tracing::warn!("annotations of {id} no longer fit the record: {e}");
            Ok(rec)
        }
    }
}

fn node_json(n: &Node) -> Value {
    json!({
        "usi": n.mv.to_string(),
        "time": n.time,
        "comments": n.comments,
        "variations": n.variations.iter().map(|line| line.iter().map(node_json).collect::<Vec<_>>()).collect::<Vec<_>>(),
    })
}

/// A record as the JSON of `POST /api/import` (see `docs/PROTOCOL.md`).
#[must_use]
pub fn record_json(rec: &Record) -> Value {
    let h = &rec.headers;
    let (winner, reason) = ending_summary(rec);
    json!({
        "start_sfen": rec.start.to_sfen(),
        "moves": rec.moves.iter().map(|n| n.mv.to_string()).collect::<Vec<_>>(),
        "nodes": rec.moves.iter().map(node_json).collect::<Vec<_>>(),
        "start_comments": rec.start_comments,
        "ending": {"reason": reason, "winner": winner},
        "headers": {
            "sente": h.sente, "gote": h.gote, "event": h.event, "site": h.site,
            "start_time": h.start_time, "end_time": h.end_time,
            "time_control": h.time_control.map(|t| t.to_plus()),
            "handicap": rec.handicap().map_or("custom", Handicap::name),
            "other": h.other,
        },
        "illegal_move": rec.illegal_move.as_ref().map(|i| json!({
            "ply": i.ply, "text": i.text, "problem": i.problem.to_string(),
        })),
    })
}

/// The `record` query.
#[derive(Debug, Deserialize)]
pub struct RecordQuery {
    /// `kif`, `ki2`, `csa`, `jkf`, `sfen` (the USI `position` line), `usen` or `json`.
    pub format: Option<String>,
}

/// `GET /api/games/{id}/record?format=`.
pub(crate) async fn record(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<RecordQuery>,
) -> Result<Response, Error> {
    let rec = load_record(&app, &id).await?;
    let name = q.format.as_deref().unwrap_or("kif");
    let (format, ext, mime) = match name {
        "json" => return Ok(Json(record_json(&rec)).into_response()),
        "kif" => (Format::Kif, "kif", "text/plain; charset=utf-8"),
        "ki2" => (Format::Ki2, "ki2", "text/plain; charset=utf-8"),
        "csa" => (Format::Csa, "csa", "text/plain; charset=utf-8"),
        "jkf" => (Format::Jkf, "jkf", "application/json; charset=utf-8"),
        "sfen" | "usi" => (Format::Usi, "usi", "text/plain; charset=utf-8"),
        "usen" => (Format::Usen, "usen", "text/plain; charset=utf-8"),
        other => return Err(bad(format!("unknown format {other:?}"))),
    };
    let text = shogi_record::write(&rec, format);
    let disposition = format!("attachment; filename=\"{id}.{ext}\"");
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(mime)),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).map_err(|e| Error::Internal(e.to_string()))?,
            ),
        ],
        text,
    )
        .into_response())
}

/// The `diagram.svg` and `diagram.png` query.
#[derive(Debug, Deserialize)]
pub struct DiagramQuery {
    /// The position after this many moves (default: the last).
    pub ply: Option<usize>,
    /// Instead of `ply`: the position after these moves from the record's
    /// start, USI separated by commas or spaces (a variation's line).
    pub moves: Option<String>,
    /// `kanji` (default) or `international`.
    pub pieces: Option<String>,
    /// PNG width in pixels (default 600, at most 2000).
    pub width: Option<u32>,
}

/// The most moves `diagram.*?moves=` takes.
const MAX_DIAGRAM_MOVES: usize = 2000;

/// The position a diagram query asks for, and the picture options.
async fn diagram_position(
    app: &AppState,
    id: &str,
    q: &DiagramQuery,
) -> Result<(shogi_core::Position, shogi_record::diagram::Options), Error> {
    let rec = load_record(app, id).await?;
    let mut pos = rec.start.clone();
    let mut last_move = None;
    if let Some(text) = q.moves.as_deref().filter(|m| !m.trim().is_empty()) {
        if q.ply.is_some() {
            return Err(bad("give ply or moves, not both"));
        }
        let words: Vec<&str> = text.split([',', ' ']).filter(|w| !w.is_empty()).collect();
        if words.len() > MAX_DIAGRAM_MOVES {
            return Err(bad(format!("more than {MAX_DIAGRAM_MOVES} moves")));
        }
        for (i, w) in words.iter().enumerate() {
            let mv = Move::from_str(w).map_err(|e| bad(format!("moves[{i}]: {w:?}: {e}")))?;
            pos.check_move(mv)
                .map_err(|e| bad(format!("moves[{i}]: {w} is not legal here: {e}")))?;
            pos.make_move(mv);
            last_move = Some(mv);
        }
    } else {
        let ply = q.ply.unwrap_or(rec.moves.len());
        if ply > rec.moves.len() {
            return Err(bad(format!("ply must be 0..={}", rec.moves.len())));
        }
        for n in &rec.moves[..ply] {
            pos.make_move(n.mv);
        }
        last_move = ply.checked_sub(1).map(|i| rec.moves[i].mv);
    }
    let mut opts = shogi_record::diagram::Options {
        last_move,
        ..Default::default()
    };
    if q.pieces.as_deref() == Some("international") {
        opts.pieces = shogi_record::diagram::PieceStyle::International;
        opts.coords = shogi_record::diagram::Coords::Letters;
    }
    Ok((pos, opts))
}

/// `GET /api/games/{id}/diagram.svg?ply=N`.
pub(crate) async fn diagram(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<DiagramQuery>,
) -> Result<Response, Error> {
    let (pos, opts) = diagram_position(&app, &id, &q).await?;
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

/// `GET /api/games/{id}/diagram.png?ply=N[&width=W]`.
pub(crate) async fn diagram_png(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<DiagramQuery>,
) -> Result<Response, Error> {
    let width = q.width.unwrap_or(picture::DEFAULT_WIDTH);
    if !(100..=picture::MAX_WIDTH).contains(&width) {
        return Err(bad(format!("width must be 100..={}", picture::MAX_WIDTH)));
    }
    let (pos, opts) = diagram_position(&app, &id, &q).await?;
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

/// The `import` query.
#[derive(Debug, Deserialize)]
pub struct ImportQuery {
    /// `1` (or `true`): store the record in the archive.
    pub save: Option<String>,
}

/// `POST /api/import[?save=1]`: the body is the record file.
pub(crate) async fn import(
    State(app): State<AppState>,
    Query(q): Query<ImportQuery>,
    body: Bytes,
) -> Result<(StatusCode, Json<Value>), Error> {
    if body.is_empty() {
        return Err(bad("empty record"));
    }
    let rec = shogi_record::read(&body).map_err(|e| bad(e.to_string()))?;
    let mut out = record_json(&rec);
    let save = matches!(q.save.as_deref(), Some("1" | "true"));
    if !save {
        return Ok((StatusCode::OK, Json(out)));
    }
    let id = token::new_game_id();
    let (winner, reason) = ending_summary(&rec);
    let time = rec.headers.time_control.map(|t| TimeControl {
        main_ms: u64::from(t.main) * 1000,
        byoyomi_ms: u64::from(t.byoyomi) * 1000,
        periods: 1,
        increment_ms: u64::from(t.increment) * 1000,
    });
    let time_json = time.map(|t| serde_json::to_string(&t).unwrap_or_default());
    let owner = token::new_token();
    sqlx::query(
        "INSERT INTO records (id, created_at, source, sente, gote, handicap, time_json, winner,
            reason, plies, owner_token, sente_lc, gote_lc)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&id)
    .bind(i64::try_from(unix_ms()).unwrap_or(i64::MAX))
    .bind(body.as_ref())
    .bind(rec.headers.sente.as_deref())
    .bind(rec.headers.gote.as_deref())
    .bind(rec.handicap().map_or("custom", Handicap::name))
    .bind(time_json)
    .bind(winner)
    .bind(reason)
    .bind(i64::try_from(rec.moves.len()).unwrap_or(i64::MAX))
    .bind(&owner)
    .bind(search_name(rec.headers.sente.as_deref()))
    .bind(search_name(rec.headers.gote.as_deref()))
    .execute(app.store().pool())
    .await?;
    if let Some(obj) = out.as_object_mut() {
        obj.insert("id".into(), Value::String(id));
        obj.insert("token".into(), Value::String(owner));
    }
    Ok((StatusCode::CREATED, Json(out)))
}

/// `POST /api/mate` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MateRequest {
    /// The position (an SFEN; the attacker is the side to move).
    pub sfen: String,
    /// The time limit (default 3000, at most 10000).
    pub time_ms: Option<u64>,
}

/// One mate search at a time, so that games are never starved.
fn mate_gate() -> &'static Arc<Semaphore> {
    static GATE: std::sync::OnceLock<Arc<Semaphore>> = std::sync::OnceLock::new();
    GATE.get_or_init(|| Arc::new(Semaphore::new(1)))
}

/// `POST /api/mate`.
pub(crate) async fn mate(JsonBody(req): JsonBody<MateRequest>) -> Result<Json<Value>, Error> {
    if req.sfen.len() > 200 {
        return Err(bad("sfen too long"));
    }
    let time_ms = req.time_ms.unwrap_or(3000).clamp(1, MAX_MATE_MS);
    let _permit = mate_gate()
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| Error::Internal(e.to_string()))?;
    // Tsume positions need no attacking king: the solver's own SFEN reading allows that.
    let sfen = req.sfen;
    let result = tokio::task::spawn_blocking(move || dfpn::solve_mate_sfen(&sfen, time_ms))
        .await
        .map_err(|e| Error::Internal(format!("mate search: {e}")))?
        .map_err(|e| bad(format!("sfen: {e}")))?;
    Ok(Json(match result {
        MateResult::Mate(line) => json!({
            "result": "mate",
            "moves": line.iter().map(ToString::to_string).collect::<Vec<_>>(),
        }),
        MateResult::NoMate => json!({"result": "nomate", "moves": []}),
        MateResult::Timeout => json!({"result": "timeout", "moves": []}),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_text(0), "1970/01/01 00:00:00");
        assert_eq!(date_text(1_764_424_000_000), "2025/11/29 13:46:40");
    }
}
