//! Review: the archive of finished games and imported records, record
//! downloads, board pictures, record import and the mate search.
//!
//! A finished game becomes a [`shogi_record::Record`] built from its stored
//! moves, times and ending; an imported record keeps the uploaded bytes and
//! is read again with the same reader whenever it is used.

use std::str::FromStr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use shogi_core::{Color, Handicap, Move};
use shogi_engine::dfpn::{self, MateResult};
use shogi_record::{Ending, Format, Node, Record};
use sqlx::Row;
use tokio::sync::Semaphore;

use crate::app::{AppState, JsonBody};
use crate::clock::TimeControl;
use crate::error::Error;
use crate::protocol::{Reason, Settings, Side};
use crate::time::unix_ms;
use crate::token;

/// The largest record file accepted by `POST /api/import`.
pub const MAX_IMPORT_BYTES: usize = 1024 * 1024;
/// The longest mate search, in milliseconds.
pub const MAX_MATE_MS: u64 = 10_000;
/// The most archive entries on one page.
pub const MAX_PER_PAGE: usize = 100;

/// One entry of the archive list.
#[derive(Clone, Debug, Serialize)]
pub struct ArchiveEntry {
    /// The game or record id.
    pub id: String,
    /// `game` (played here) or `import`.
    pub kind: &'static str,
    /// When it was created (Unix milliseconds).
    pub created_at_ms: u64,
    /// Sente's name, if known (the computer's seat is named `AI N`).
    pub sente: Option<String>,
    /// Gote's name, if known.
    pub gote: Option<String>,
    /// The time control, if any.
    pub time: Option<TimeControl>,
    /// The handicap's name or `custom`.
    pub handicap: String,
    /// The winner, `null` for a draw or an unfinished record.
    pub winner: Option<&'static str>,
    /// Why it ended (`null`: the record just stops).
    pub reason: Option<String>,
    /// The number of moves.
    pub moves: usize,
}

/// The `GET /api/archive` query.
#[derive(Debug, Default, Deserialize)]
pub struct ArchiveQuery {
    /// A part of either player's name (case-insensitive).
    pub player: Option<String>,
    /// `sente`, `gote` or `draw` (no winner).
    pub result: Option<String>,
    /// 1-based page.
    pub page: Option<usize>,
    /// Entries per page (1..=100, default 20).
    pub per_page: Option<usize>,
}

fn bad(msg: impl Into<String>) -> Error {
    Error::BadRequest(msg.into())
}

fn side_of(name: Option<&str>) -> Option<&'static str> {
    match name {
        Some("sente") => Some("sente"),
        Some("gote") => Some("gote"),
        _ => None,
    }
}

fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

async fn all_entries(app: &AppState) -> Result<Vec<ArchiveEntry>, Error> {
    let pool = app.store().pool();
    let mut out = Vec::new();
    let rows = sqlx::query(
        "SELECT g.id, g.created_at, g.settings, g.winner, g.reason,
            (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies
         FROM games g WHERE g.over = 1",
    )
    .fetch_all(pool)
    .await?;
    for r in rows {
        let settings: String = r.try_get("settings")?;
        let settings: Option<Settings> = serde_json::from_str(&settings).ok();
        let (mut sente, mut gote) = (None, None);
        if let Some(ai) = settings.as_ref().and_then(|s| s.ai) {
            let name = Some(format!("AI {}", ai.level));
            match ai.side {
                Side::Sente => sente = name,
                Side::Gote => gote = name,
            }
        }
        let winner: Option<String> = r.try_get("winner")?;
        out.push(ArchiveEntry {
            id: r.try_get("id")?,
            kind: "game",
            created_at_ms: to_u64(r.try_get("created_at")?),
            sente,
            gote,
            time: settings.as_ref().and_then(|s| s.time),
            handicap: settings.map_or_else(|| "even".to_string(), |s| s.handicap),
            winner: side_of(winner.as_deref()),
            reason: r.try_get("reason")?,
            moves: usize::try_from(r.try_get::<i64, _>("plies")?).unwrap_or(0),
        });
    }
    let rows = sqlx::query(
        "SELECT id, created_at, sente, gote, handicap, time_json, winner, reason, plies FROM records",
    )
    .fetch_all(pool)
    .await?;
    for r in rows {
        let time: Option<String> = r.try_get("time_json")?;
        let winner: Option<String> = r.try_get("winner")?;
        out.push(ArchiveEntry {
            id: r.try_get("id")?,
            kind: "import",
            created_at_ms: to_u64(r.try_get("created_at")?),
            sente: r.try_get("sente")?,
            gote: r.try_get("gote")?,
            time: time.and_then(|t| serde_json::from_str(&t).ok()),
            handicap: r.try_get("handicap")?,
            winner: side_of(winner.as_deref()),
            reason: r.try_get("reason")?,
            moves: usize::try_from(r.try_get::<i64, _>("plies")?).unwrap_or(0),
        });
    }
    Ok(out)
}

/// `GET /api/archive`: finished games and imported records, newest first.
pub(crate) async fn archive(
    State(app): State<AppState>,
    Query(q): Query<ArchiveQuery>,
) -> Result<Json<Value>, Error> {
    let per_page = q.per_page.unwrap_or(20);
    if !(1..=MAX_PER_PAGE).contains(&per_page) {
        return Err(bad(format!("per_page must be 1..={MAX_PER_PAGE}")));
    }
    let page = q.page.unwrap_or(1);
    if page == 0 {
        return Err(bad("page starts at 1"));
    }
    let result = q.result.as_deref().filter(|r| !r.is_empty());
    if let Some(r) = result {
        if !matches!(r, "sente" | "gote" | "draw") {
            return Err(bad("result must be sente, gote or draw"));
        }
    }
    let player = q
        .player
        .as_deref()
        .map(|p| p.trim().to_lowercase())
        .filter(|p| !p.is_empty());
    let mut entries = all_entries(&app).await?;
    entries.retain(|e| {
        let by_player = player.as_ref().is_none_or(|p| {
            [&e.sente, &e.gote]
                .iter()
                .any(|n| n.as_ref().is_some_and(|n| n.to_lowercase().contains(p)))
        });
        let by_result = match result {
            None => true,
            Some("draw") => e.winner.is_none() && e.reason.is_some(),
            Some(side) => e.winner == Some(side),
        };
        by_player && by_result
    });
    entries.sort_by(|a, b| {
        b.created_at_ms
            .cmp(&a.created_at_ms)
            .then_with(|| b.id.cmp(&a.id))
    });
    let total = entries.len();
    let page_entries: Vec<ArchiveEntry> = entries
        .into_iter()
        .skip((page - 1).saturating_mul(per_page))
        .take(per_page)
        .collect();
    Ok(Json(json!({
        "total": total,
        "page": page,
        "per_page": per_page,
        "entries": page_entries,
    })))
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
        Reason::Resign => Ending::Resign,
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
        Ending::Resign => Some("resign"),
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
    let pool = app.store().pool();
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
        .fetch_optional(app.store().pool())
        .await?;
    let Some(row) = row else { return Ok(None) };
    let bytes: Vec<u8> = row.try_get("source")?;
    shogi_record::read(&bytes)
        .map(Some)
        .map_err(|e| Error::Internal(format!("record {id}: {e}")))
}

/// The record of a game or an imported record.
///
/// # Errors
/// [`Error::NotFound`] when `id` is neither.
pub(crate) async fn load_record(app: &AppState, id: &str) -> Result<Record, Error> {
    if !token::is_game_id(id) {
        return Err(Error::NotFound);
    }
    if let Some(rec) = game_record(app, id).await? {
        return Ok(rec);
    }
    imported_record(app, id).await?.ok_or(Error::NotFound)
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

/// The `diagram.svg` query.
#[derive(Debug, Deserialize)]
pub struct DiagramQuery {
    /// The position after this many moves (default: the last).
    pub ply: Option<usize>,
    /// `kanji` (default) or `international`.
    pub pieces: Option<String>,
}

/// `GET /api/games/{id}/diagram.svg?ply=N`.
pub(crate) async fn diagram(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<DiagramQuery>,
) -> Result<Response, Error> {
    let rec = load_record(&app, &id).await?;
    let ply = q.ply.unwrap_or(rec.moves.len());
    if ply > rec.moves.len() {
        return Err(bad(format!("ply must be 0..={}", rec.moves.len())));
    }
    let mut pos = rec.start.clone();
    for n in &rec.moves[..ply] {
        pos.make_move(n.mv);
    }
    let mut opts = shogi_record::diagram::Options {
        last_move: ply.checked_sub(1).map(|i| rec.moves[i].mv),
        ..Default::default()
    };
    if q.pieces.as_deref() == Some("international") {
        opts.pieces = shogi_record::diagram::PieceStyle::International;
        opts.coords = shogi_record::diagram::Coords::Letters;
    }
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
    sqlx::query(
        "INSERT INTO records (id, created_at, source, sente, gote, handicap, time_json, winner, reason, plies)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
    .execute(app.store().pool())
    .await?;
    if let Some(obj) = out.as_object_mut() {
        obj.insert("id".into(), Value::String(id));
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
