//! The outbox of endings: what a game's ending still has to change
//! elsewhere (a rated game's ratings, an event game's board), recorded in
//! the transaction that stores the ending and taken out in the transaction
//! that carries the consequence out. A process that dies between the two
//! leaves the record, and the next start carries it out; a consequence
//! already carried out finds no record and changes nothing.

use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::Row;

use super::store::{in_chunks, ms, to_u64, Dialect, Store};

/// What an ending changes besides its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consequence {
    /// A rated game: both players' ratings and their history.
    Rating,
    /// An event game: its board hears of it (a sennichite is replayed).
    Tournament,
}

impl Consequence {
    /// The word stored in `game_outbox.consequence`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Consequence::Rating => "rating",
            Consequence::Tournament => "tournament",
        }
    }
}

/// A consequence still due.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Due {
    /// The game that ended.
    pub game_id: String,
    /// When its ending was stored (Unix milliseconds).
    pub ended_at_ms: u64,
}

/// Now, in Unix milliseconds: when an ending is stored.
fn unix_now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Records, in the transaction on `conn` that stores the endings of
/// `games`, the consequences due: the rating of each rated game, the
/// tournament's of each event game.
pub(super) async fn record_endings(
    conn: &mut sqlx::AnyConnection,
    dialect: Dialect,
    games: &[&str],
) -> Result<(), sqlx::Error> {
    let at = ms(unix_now_ms());
    // Which of them the consequence concerns: rated games, games of a board.
    let consequences = [
        (
            Consequence::Rating,
            ") AS v JOIN games g ON g.id = v.column1 WHERE g.rated",
        ),
        (
            Consequence::Tournament,
            ") AS v JOIN tournament_games t ON t.game_id = v.column1",
        ),
    ];
    for (consequence, tail) in consequences {
        for rows in in_chunks(games) {
            let sql = dialect.values_sql(
                "INSERT INTO game_outbox (game_id, consequence, ended_at)
                 SELECT v.column1, v.column2, v.column3 FROM (VALUES ",
                3,
                rows.len(),
                tail,
            );
            let mut q = sqlx::query(&sql);
            for &id in rows {
                q = q.bind(id).bind(consequence.name()).bind(at);
            }
            q.execute(&mut *conn).await?;
        }
    }
    Ok(())
}

/// Takes `consequence` of `game` out of the outbox, in the transaction on
/// `conn` that carries it out; says whether it was due (if not, it has been
/// carried out already and the transaction must change nothing).
pub(super) async fn take(
    conn: &mut sqlx::AnyConnection,
    game: &str,
    consequence: Consequence,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM game_outbox WHERE game_id = $1 AND consequence = $2")
        .bind(game)
        .bind(consequence.name())
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

impl Store {
    /// The games whose `consequence` is still due, the oldest ending first.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn due(&self, consequence: Consequence) -> Result<Vec<Due>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT game_id, ended_at FROM game_outbox WHERE consequence = $1
             ORDER BY ended_at, game_id",
        )
        .bind(consequence.name())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Due {
                    game_id: r.try_get("game_id")?,
                    ended_at_ms: to_u64(r.try_get("ended_at")?),
                })
            })
            .collect()
    }

    /// Marks `consequence` of `game` carried out when it changes nothing
    /// else (an unrated result, a game no board waits for); says whether
    /// it was due.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn done(&self, game: &str, consequence: Consequence) -> Result<bool, sqlx::Error> {
        let mut conn = self.pool.acquire().await?;
        take(&mut conn, game, consequence).await
    }
}
