//! The archive list: finished games and imported records in one list,
//! filtered by player and result and paged by the database.
//!
//! Games and records are two tables; one `UNION ALL` view over both gives the
//! columns the list shows. A game's player names come from its settings (the
//! computer's seat is `AI <level>`); a record's from its headers, with a
//! Unicode lower-case copy for the case-insensitive player filter (`SQLite`'s
//! `lower()` folds ASCII only). Only public records are listed (unlisted and
//! private ones are read by id alone).

use serde::Serialize;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::store::{to_u64, Dialect, Store};
use crate::game::clock::TimeControl;
use crate::game::Side;

/// Which results the list keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFilter {
    /// Won by this side.
    Won(Side),
    /// Finished without a winner.
    Draw,
}

/// A page of the archive, filtered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveFilter {
    /// A part of either player's name, in lower case.
    pub player: Option<String>,
    /// The result.
    pub result: Option<ResultFilter>,
    /// Only the games of this account (`users.id`).
    pub user: Option<i64>,
    /// Only the games with this strategy tag (an id of
    /// `shogi_record::strategy`, on either side or as the line).
    pub strategy: Option<String>,
    /// Entries to skip.
    pub offset: usize,
    /// Entries on the page.
    pub limit: usize,
}

/// Played here or imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    /// A game played here.
    Game,
    /// An imported record.
    Import,
}

/// One entry of the archive list.
#[derive(Clone, Debug, Serialize)]
pub struct ArchiveEntry {
    /// The game or record id.
    pub id: String,
    /// `game` (played here) or `import`.
    pub kind: EntryKind,
    /// When it was created (Unix milliseconds): played here, or imported.
    pub created_at_ms: u64,
    /// When the game was played (Unix milliseconds): a game's start; for a
    /// record, midnight UTC of the day its header gives, else its import time.
    pub played_at_ms: i64,
    /// Sente's name, if known (the computer's seat is named `AI N`).
    pub sente: Option<String>,
    /// Gote's name, if known.
    pub gote: Option<String>,
    /// Sente is a program's account (sent only when true).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sente_bot: bool,
    /// Gote is a program's account (sent only when true).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub gote_bot: bool,
    /// The time control, if any.
    pub time: Option<TimeControl>,
    /// The handicap's name or `custom`.
    pub handicap: String,
    /// The winner, `null` for a draw or an unfinished record.
    pub winner: Option<Side>,
    /// Why it ended (`null`: the record just stops).
    pub reason: Option<String>,
    /// The number of moves.
    pub moves: usize,
}

/// Every archive entry as rows of `id, kind, created_at, sente, gote, sente_lc,
/// gote_lc, sente_user, gote_user, time_json, handicap, winner, reason, plies,
/// played_at, strategy`, with the JSON fields of a game's settings read by `json`
/// (`$AI_SIDE`, `$AI_LEVEL`, `$TIME`, `$HANDICAP` stand for them).
const ENTRIES: &str = "
    SELECT g.id AS id, 'game' AS kind, g.created_at AS created_at,
        CASE WHEN $AI_SIDE = 'sente'
            THEN 'AI ' || $AI_LEVEL
            ELSE g.sente_name || CASE WHEN g.sente_guest THEN ' (guest)' ELSE '' END END AS sente,
        CASE WHEN $AI_SIDE = 'gote'
            THEN 'AI ' || $AI_LEVEL
            ELSE g.gote_name || CASE WHEN g.gote_guest THEN ' (guest)' ELSE '' END END AS gote,
        CASE WHEN $AI_SIDE = 'sente'
            THEN 'ai ' || $AI_LEVEL ELSE g.sente_lc END AS sente_lc,
        CASE WHEN $AI_SIDE = 'gote'
            THEN 'ai ' || $AI_LEVEL ELSE g.gote_lc END AS gote_lc,
        g.sente_user AS sente_user, g.gote_user AS gote_user,
        $TIME AS time_json,
        coalesce($HANDICAP, 'even') AS handicap,
        g.winner AS winner, g.reason AS reason,
        (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies,
        g.created_at AS played_at, g.strategy AS strategy
    FROM games g WHERE g.over
    UNION ALL
    SELECT id, 'import', created_at, sente, gote, sente_lc, gote_lc, NULL, NULL, time_json,
        handicap, winner, reason, plies, coalesce(played_at, created_at), strategy
    FROM records WHERE visibility = 'public'";

/// The filter over [`ENTRIES`]: `$1` a lower-case part of a name or NULL,
/// `$2` `sente`, `gote`, `draw` or NULL, `$5` an account id or NULL, `$6`
/// a strategy tag as stored (`:mino `) or NULL; `$FIND(a, b)` stands for
/// the position of `b` in `a` (0: absent).
const FILTER: &str = "
    WHERE ($5 IS NULL OR sente_user = $5 OR gote_user = $5)
      AND ($6 IS NULL OR $FIND(coalesce(strategy, ''), $6) > 0)
      AND ($1 IS NULL OR $FIND(coalesce(sente_lc, ''), $1) > 0
                      OR $FIND(coalesce(gote_lc, ''), $1) > 0)
      AND ($2 IS NULL
           OR ($2 = 'draw' AND (winner IS NULL OR winner NOT IN ('sente', 'gote'))
               AND reason IS NOT NULL)
           OR ($2 <> 'draw' AND winner = $2))";

/// The entries filtered, in `dialect`: `SQLite` reads JSON with
/// `json_extract` and finds text with `instr`, PostgreSQL with `#>>` and
/// `strpos`. (Only these fixed fragments differ; every value is bound.)
fn filtered(dialect: Dialect) -> String {
    let (json, find): (fn(&str) -> String, &str) = match dialect {
        Dialect::Sqlite => (
            |path| format!("json_extract(g.settings, '$.{path}')"),
            "instr",
        ),
        Dialect::Postgres => (
            |path| format!("(g.settings::jsonb #>> '{{{}}}')", path.replace('.', ",")),
            "strpos",
        ),
    };
    let entries = ENTRIES
        .replace("$AI_SIDE", &json("ai.side"))
        .replace("$AI_LEVEL", &json("ai.level"))
        .replace("$TIME", &json("time"))
        .replace("$HANDICAP", &json("handicap"));
    let filter = FILTER.replace("$FIND", find);
    format!("({entries}) AS entries {filter}")
}

fn entry(r: &AnyRow) -> Result<ArchiveEntry, sqlx::Error> {
    let time: Option<String> = r.try_get("time_json")?;
    let winner: Option<String> = r.try_get("winner")?;
    let kind: String = r.try_get("kind")?;
    Ok(ArchiveEntry {
        id: r.try_get("id")?,
        kind: if kind == "game" {
            EntryKind::Game
        } else {
            EntryKind::Import
        },
        created_at_ms: to_u64(r.try_get("created_at")?),
        played_at_ms: r.try_get("played_at")?,
        sente: r.try_get("sente")?,
        gote: r.try_get("gote")?,
        sente_bot: r.try_get::<Option<i64>, _>("sente_bot")?.unwrap_or(0) != 0,
        gote_bot: r.try_get::<Option<i64>, _>("gote_bot")?.unwrap_or(0) != 0,
        time: time.and_then(|t| serde_json::from_str(&t).ok()),
        handicap: r.try_get("handicap")?,
        winner: winner.and_then(|w| w.parse().ok()),
        reason: r.try_get("reason")?,
        moves: usize::try_from(r.try_get::<i64, _>("plies")?).unwrap_or(0),
    })
}

fn result_word(r: Option<ResultFilter>) -> Option<&'static str> {
    r.map(|r| match r {
        ResultFilter::Won(side) => side.name(),
        ResultFilter::Draw => "draw",
    })
}

impl Store {
    /// The entries that pass `filter` (all of them, not only the page's) and
    /// the page's entries, newest first.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn archive(
        &self,
        filter: &ArchiveFilter,
    ) -> Result<(u64, Vec<ArchiveEntry>), sqlx::Error> {
        let result = result_word(filter.result);
        // Stored as ` side:id `: the id between a colon and a space.
        let tag = filter.strategy.as_ref().map(|id| format!(":{id} "));
        let from = filtered(self.dialect);
        let total: i64 = sqlx::query(&format!("SELECT COUNT(*) AS n FROM {from}"))
            .bind(filter.player.as_deref())
            .bind(result)
            // ?3 and ?4 are the page's limit and offset, unused when counting.
            .bind(None::<i64>)
            .bind(None::<i64>)
            .bind(filter.user)
            .bind(tag.as_deref())
            .fetch_one(&self.reader)
            .await?
            .try_get("n")?;
        let rows = sqlx::query(&format!(
            // Whether a player is a program's is the account's, read with it.
            "SELECT entries.*,
                (SELECT u.bot FROM users u WHERE u.id = entries.sente_user) AS sente_bot,
                (SELECT u.bot FROM users u WHERE u.id = entries.gote_user) AS gote_bot
             FROM {from} ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4"
        ))
        .bind(filter.player.as_deref())
        .bind(result)
        .bind(i64::try_from(filter.limit).unwrap_or(i64::MAX))
        .bind(i64::try_from(filter.offset).unwrap_or(i64::MAX))
        .bind(filter.user)
        .bind(tag.as_deref())
        .fetch_all(&self.reader)
        .await?;
        let entries = rows.iter().map(entry).collect::<Result<Vec<_>, _>>()?;
        Ok((to_u64(total), entries))
    }
}
