//! The archive: finished games and imported records in one list, filtered by
//! player and result and paged by SQLite (every value bound, no SQL built from
//! text).
//!
//! Games and records are two tables; one `UNION ALL` view over both gives the
//! columns the list shows. A game's player names come from its settings (the
//! computer's seat is `AI <level>`); a record's from its headers, with a
//! Unicode lower-case copy for the case-insensitive player filter (SQLite's
//! `lower()` folds ASCII only).

use axum::extract::{Query, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sqlx::sqlite::SqliteRow;
use sqlx::Row;

use crate::app::AppState;
use crate::clock::TimeControl;
use crate::db::Store;
use crate::error::Error;
use crate::review::{bad, side_of};

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

/// Every archive entry as rows of `id, kind, created_at, sente, gote, sente_lc,
/// gote_lc, time_json, handicap, winner, reason, plies`.
const ENTRIES: &str = "
    SELECT g.id AS id, 'game' AS kind, g.created_at AS created_at,
        CASE WHEN json_extract(g.settings, '$.ai.side') = 'sente'
            THEN 'AI ' || json_extract(g.settings, '$.ai.level') END AS sente,
        CASE WHEN json_extract(g.settings, '$.ai.side') = 'gote'
            THEN 'AI ' || json_extract(g.settings, '$.ai.level') END AS gote,
        CASE WHEN json_extract(g.settings, '$.ai.side') = 'sente'
            THEN 'ai ' || json_extract(g.settings, '$.ai.level') END AS sente_lc,
        CASE WHEN json_extract(g.settings, '$.ai.side') = 'gote'
            THEN 'ai ' || json_extract(g.settings, '$.ai.level') END AS gote_lc,
        json_extract(g.settings, '$.time') AS time_json,
        coalesce(json_extract(g.settings, '$.handicap'), 'even') AS handicap,
        g.winner AS winner, g.reason AS reason,
        (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies
    FROM games g WHERE g.over = 1
    UNION ALL
    SELECT id, 'import', created_at, sente, gote, sente_lc, gote_lc, time_json, handicap,
        winner, reason, plies
    FROM records";

/// The filter over [`ENTRIES`]: `?1` a lower-case part of a name or NULL,
/// `?2` `sente`, `gote`, `draw` or NULL.
const FILTER: &str = "
    WHERE (?1 IS NULL OR instr(coalesce(sente_lc, ''), ?1) > 0
                      OR instr(coalesce(gote_lc, ''), ?1) > 0)
      AND (?2 IS NULL
           OR (?2 = 'draw' AND (winner IS NULL OR winner NOT IN ('sente', 'gote'))
               AND reason IS NOT NULL)
           OR (?2 <> 'draw' AND winner = ?2))";

fn entry(r: &SqliteRow) -> Result<ArchiveEntry, sqlx::Error> {
    let time: Option<String> = r.try_get("time_json")?;
    let winner: Option<String> = r.try_get("winner")?;
    let kind: String = r.try_get("kind")?;
    Ok(ArchiveEntry {
        id: r.try_get("id")?,
        kind: if kind == "game" { "game" } else { "import" },
        created_at_ms: u64::try_from(r.try_get::<i64, _>("created_at")?).unwrap_or(0),
        sente: r.try_get("sente")?,
        gote: r.try_get("gote")?,
        time: time.and_then(|t| serde_json::from_str(&t).ok()),
        handicap: r.try_get("handicap")?,
        winner: side_of(winner.as_deref()),
        reason: r.try_get("reason")?,
        moves: usize::try_from(r.try_get::<i64, _>("plies")?).unwrap_or(0),
    })
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
    let pool = app.store().reader();
    let total: i64 = sqlx::query(&format!("SELECT COUNT(*) AS n FROM ({ENTRIES}) {FILTER}"))
        .bind(player.as_deref())
        .bind(result)
        .fetch_one(pool)
        .await?
        .try_get("n")?;
    let offset = i64::try_from((page - 1).saturating_mul(per_page)).unwrap_or(i64::MAX);
    let rows = sqlx::query(&format!(
        "SELECT * FROM ({ENTRIES}) {FILTER} ORDER BY created_at DESC, id DESC LIMIT ?3 OFFSET ?4"
    ))
    .bind(player.as_deref())
    .bind(result)
    .bind(i64::try_from(per_page).unwrap_or(i64::MAX))
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let entries = rows.iter().map(entry).collect::<Result<Vec<_>, _>>()?;
    Ok(Json(json!({
        "total": total,
        "page": page,
        "per_page": per_page,
        "entries": entries,
    })))
}

/// The lower-case name the player filter searches.
#[must_use]
pub fn search_name(name: Option<&str>) -> Option<String> {
    name.map(str::to_lowercase)
}

/// Fills the lower-case names of records imported before they were kept
/// (migration 3); returns how many records it changed.
///
/// # Errors
/// Database errors.
pub async fn fill_search_names(store: &Store) -> Result<usize, Error> {
    let rows = sqlx::query(
        "SELECT id, sente, gote FROM records
         WHERE (sente IS NOT NULL AND sente_lc IS NULL) OR (gote IS NOT NULL AND gote_lc IS NULL)",
    )
    .fetch_all(store.pool())
    .await?;
    for r in &rows {
        let sente: Option<String> = r.try_get("sente")?;
        let gote: Option<String> = r.try_get("gote")?;
        sqlx::query("UPDATE records SET sente_lc = ?, gote_lc = ? WHERE id = ?")
            .bind(search_name(sente.as_deref()))
            .bind(search_name(gote.as_deref()))
            .bind(r.try_get::<String, _>("id")?)
            .execute(store.pool())
            .await?;
    }
    Ok(rows.len())
}
