//! Club tournaments: events, their organisers, players, rounds, boards,
//! byes, board games and the audit log.

use sqlx::pool::PoolConnection;
use sqlx::{Any, Row};

use super::store::{advisory_key, flag, ms, to_u64, Dialect, Store};

/// The first key of the PostgreSQL advisory locks taken on events (the
/// second is a hash of the event's id), so that they cannot meet another
/// use of advisory locks on the same database.
const EVENT_LOCK_CLASS: i32 = 0x5347_5400;

/// A sennichite replay's place: the board of event `tournament` whose
/// last game, `drawn`, it follows (see [`super::NewGame::replay`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The event.
    pub tournament: String,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// The game drawn by repetition.
    pub drawn: String,
}

/// [`Store::add_board_game`] on `conn` (in a transaction of the caller's).
pub(super) async fn add_board_game_on(
    conn: &mut sqlx::AnyConnection,
    id: &str,
    round: u32,
    board: u32,
    game: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO tournament_games (tournament, round, board, seq, game_id)
         VALUES ($1, $2, $3, (SELECT COALESCE(MAX(seq), 0) + 1 FROM tournament_games
             WHERE tournament = $1 AND round = $2 AND board = $3), $4)",
    )
    .bind(id)
    .bind(i64::from(round))
    .bind(i64::from(board))
    .bind(game)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// One event's changes held to one instance at a time (see
/// [`Store::lock_tournament`]); released when dropped.
#[derive(Debug)]
#[must_use = "the lock is released when this is dropped"]
pub struct EventLock {
    /// PostgreSQL: the session holding the advisory lock. `SQLite`: none
    /// (one process serves the file, and it orders its own changes).
    _session: Option<PoolConnection<Any>>,
}

/// An event as stored.
#[derive(Clone, Debug)]
pub struct EventRow {
    /// The id (16 hex digits).
    pub id: String,
    /// The creator's account.
    pub created_by: Option<i64>,
    /// When it was created (Unix ms).
    pub created_at_ms: u64,
    /// The settings' JSON (`tournaments::Settings`).
    pub settings: String,
    /// The furigoma seed.
    pub seed: u64,
}

/// An entrant as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntrantRow {
    /// From 1, in order of entry.
    pub number: u32,
    /// The name shown.
    pub name: String,
    /// The account, if any.
    pub user: Option<i64>,
    /// The account's name, if any.
    pub account: Option<String>,
    /// A rating given at entry.
    pub rating: Option<i32>,
    /// A rank given at entry (`3k`, `1d`).
    pub rank: Option<String>,
    /// The club.
    pub club: Option<String>,
    /// The first round the player is paired in.
    pub from_round: u32,
    /// The first round the player is no longer paired in.
    pub withdrawn_from: Option<u32>,
    /// The rank the player proposed when accepting an invitation (the
    /// organisers decide `rank`).
    pub proposed_rank: Option<String>,
}

/// One in-app game of a board, with what the board's result needs of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardGameRow {
    /// The game id.
    pub id: String,
    /// Whether it is over.
    pub over: bool,
    /// `sente` / `gote`, if it has a winner.
    pub winner: Option<String>,
    /// Why it ended (`resign`, `repetition`, `abort`...).
    pub reason: Option<String>,
    /// Moves played.
    pub moves: u32,
}

/// A board as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardRow {
    /// From 1.
    pub round: u32,
    /// From 1.
    pub board: u32,
    /// Sente's number.
    pub sente: u32,
    /// Gote's number.
    pub gote: u32,
    /// `table` | `furigoma` | `balance` | `forced`.
    pub colours: String,
    /// The furigoma: the tosser's number and the pawns up.
    pub toss: Option<(u32, u8)>,
    /// The handicap's name (`even`).
    pub handicap: String,
    /// `online` | `otb`.
    pub play: String,
    /// The entered result (`sente`, `gote`, `draw`, `sente_forfeit`...).
    pub result: Option<String>,
    /// An uploaded record (KIF).
    pub record: Option<String>,
    /// The results the two players reported.
    pub reports: (Option<String>, Option<String>),
    /// The in-app games, first first.
    pub games: Vec<BoardGameRow>,
}

/// A paired round as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundRow {
    /// From 1.
    pub round: u32,
    /// The pairing's warnings (JSON list).
    pub warnings: String,
    /// The byes: the player's number and the kind (`pairing`, `zero`, `half`, `full`).
    pub byes: Vec<(u32, String)>,
    /// The boards, board 1 first.
    pub boards: Vec<BoardRow>,
}

/// Everything stored of one event.
#[derive(Clone, Debug)]
pub struct EventRows {
    /// The event.
    pub event: EventRow,
    /// The organisers: account id and name, the creator first.
    pub organisers: Vec<(i64, String)>,
    /// The entrants by number.
    pub players: Vec<EntrantRow>,
    /// The rounds, round 1 first.
    pub rounds: Vec<RoundRow>,
}

/// An event in the list.
#[derive(Clone, Debug)]
pub struct EventListRow {
    /// The event.
    pub event: EventRow,
    /// Its entrants.
    pub players: u32,
    /// Rounds paired.
    pub rounds_paired: u32,
    /// Boards of the last paired round still without a result of their own
    /// or an online game over.
    pub open_boards: u32,
}

/// A new board: the board row and its first game, if online.
#[derive(Clone, Debug)]
pub struct NewBoard {
    /// The board (`games` and `reports` are ignored).
    pub row: BoardRow,
    /// Its in-app game.
    pub game: Option<String>,
}

/// An event game still to play, as "your game is ready" lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadyGameRow {
    /// The event.
    pub tournament: String,
    /// The event's settings JSON (its name is in it).
    pub settings: String,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// The game.
    pub game: String,
    /// `sente` or `gote`.
    pub side: String,
    /// The opponent's name in the game.
    pub opponent: Option<String>,
}

/// One audit entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditRow {
    /// When (Unix ms).
    pub at_ms: u64,
    /// Who (the account's name then).
    pub by: String,
    /// What, as a word (`pair_round`, `set_result`...).
    pub action: String,
    /// The details.
    pub detail: String,
}

pub(super) fn num(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

fn opt_num(v: Option<i64>) -> Option<u32> {
    v.map(num)
}

impl Store {
    /// Waits until no other instance is changing event `id`, and keeps it
    /// so until the returned lock is dropped. On PostgreSQL, a session-level
    /// advisory lock on a connection of its own, which is closed rather than
    /// returned to the pool when the lock is dropped: ending the session
    /// releases the lock on every path out of the caller, early returns
    /// and errors too, and an instance that dies releases it with its
    /// connections. On `SQLite`, nothing to wait for (the file has one
    /// process; the caller orders its own tasks).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn lock_tournament(&self, id: &str) -> Result<EventLock, sqlx::Error> {
        if self.dialect == Dialect::Sqlite {
            return Ok(EventLock { _session: None });
        }
        let mut session = self.pool.acquire().await?;
        session.close_on_drop();
        // `pg_advisory_lock` returns `void`, which the `Any` driver cannot
        // read: it is called in the FROM clause and a number selected.
        sqlx::query("SELECT 1 FROM pg_advisory_lock($1, $2)")
            .bind(EVENT_LOCK_CLASS)
            .bind(advisory_key(id.bytes()))
            .execute(&mut *session)
            .await?;
        Ok(EventLock {
            _session: Some(session),
        })
    }

    /// Stores a new event with its creator as its first organiser.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn insert_tournament(&self, e: &EventRow, name: &str) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO tournaments (id, created_by, created_at, name, settings, seed)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&e.id)
        .bind(e.created_by)
        .bind(ms(e.created_at_ms))
        .bind(name)
        .bind(&e.settings)
        // SQLite's integers are signed: the seed is stored by its bits.
        .bind(e.seed.cast_signed())
        .execute(&mut *tx)
        .await?;
        if let Some(user) = e.created_by {
            sqlx::query("INSERT INTO tournament_organisers (tournament, user_id) VALUES ($1, $2)")
                .bind(&e.id)
                .bind(user)
                .execute(&mut *tx)
                .await?;
            // Kept when the event is deleted: the daily limit counts creations.
            sqlx::query("INSERT INTO tournament_creations (user_id, created_at) VALUES ($1, $2)")
                .bind(user)
                .bind(ms(e.created_at_ms))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await
    }

    /// Events created by `user` since `since_ms`, deleted ones included.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn tournaments_created_since(
        &self,
        user: i64,
        since_ms: u64,
    ) -> Result<u32, sqlx::Error> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM tournament_creations WHERE user_id = $1 AND created_at >= $2",
        )
        .bind(user)
        .bind(ms(since_ms))
        .fetch_one(&self.pool)
        .await?;
        Ok(num(n))
    }

    /// Replaces an event's settings.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn update_tournament(
        &self,
        id: &str,
        name: &str,
        settings: &str,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE tournaments SET name = $1, settings = $2 WHERE id = $3")
            .bind(name)
            .bind(settings)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes an event and everything of it.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn delete_tournament(&self, id: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM tournaments WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The newest events (`limit` at most); with `user`, only those the
    /// account organises or plays in.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn tournaments(
        &self,
        user: Option<i64>,
        limit: u32,
    ) -> Result<Vec<EventListRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT t.id, t.created_by, t.created_at, t.settings, t.seed,
                (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament = t.id) AS players,
                (SELECT COUNT(*) FROM tournament_rounds r WHERE r.tournament = t.id) AS rounds_paired,
                (SELECT COUNT(*) FROM tournament_boards b
                   WHERE b.tournament = t.id AND b.result IS NULL
                     AND b.round = (SELECT MAX(round) FROM tournament_rounds r WHERE r.tournament = t.id)
                     AND NOT EXISTS (SELECT 1 FROM tournament_games tg JOIN games g ON g.id = tg.game_id
                         WHERE tg.tournament = b.tournament AND tg.round = b.round AND tg.board = b.board
                           AND g.over AND g.reason <> 'abort'
                           AND tg.seq = (SELECT MAX(seq) FROM tournament_games t2
                               WHERE t2.tournament = b.tournament AND t2.round = b.round AND t2.board = b.board)
                           AND NOT (g.reason = 'repetition'))) AS open_boards
             FROM tournaments t
             WHERE $1 IS NULL
                OR EXISTS (SELECT 1 FROM tournament_organisers o WHERE o.tournament = t.id AND o.user_id = $1)
                OR EXISTS (SELECT 1 FROM tournament_players p WHERE p.tournament = t.id AND p.user_id = $1)
             ORDER BY t.created_at DESC, t.id LIMIT $2",
        )
        .bind(user)
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(EventListRow {
                    event: event_row(r)?,
                    players: num(r.try_get("players")?),
                    rounds_paired: num(r.try_get("rounds_paired")?),
                    open_boards: num(r.try_get("open_boards")?),
                })
            })
            .collect()
    }

    /// Everything stored of event `id`.
    ///
    /// # Errors
    /// The database refused a query.
    pub async fn tournament(&self, id: &str) -> Result<Option<EventRows>, sqlx::Error> {
        // The writer: an organiser's change is seen by the next read at once.
        let mut tx = self.pool.begin().await?;
        let Some(r) = sqlx::query(
            "SELECT id, created_by, created_at, settings, seed FROM tournaments WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        let event = event_row(&r)?;
        let organisers = sqlx::query(
            "SELECT u.id, u.name FROM tournament_organisers o JOIN users u ON u.id = o.user_id
             WHERE o.tournament = $1 ORDER BY (u.id = $2) DESC, u.id",
        )
        .bind(id)
        .bind(event.created_by)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| Ok((r.try_get("id")?, r.try_get("name")?)))
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let players = entrants(&mut tx, id).await?;
        let mut rounds: Vec<RoundRow> = sqlx::query(
            "SELECT round, warnings FROM tournament_rounds WHERE tournament = $1 ORDER BY round",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| {
            Ok(RoundRow {
                round: num(r.try_get("round")?),
                warnings: r.try_get("warnings")?,
                ..RoundRow::default()
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let byes = sqlx::query(
            "SELECT round, player, kind FROM tournament_byes WHERE tournament = $1
             ORDER BY round, player",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        for b in &byes {
            let round = num(b.try_get("round")?);
            if let Some(r) = rounds.iter_mut().find(|r| r.round == round) {
                r.byes.push((num(b.try_get("player")?), b.try_get("kind")?));
            }
        }
        boards_and_games(&mut tx, id, &mut rounds).await?;
        tx.commit().await?;
        Ok(Some(EventRows {
            event,
            organisers,
            players,
            rounds,
        }))
    }

    /// Adds an organiser.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn add_organiser(&self, id: &str, user: i64) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO tournament_organisers (tournament, user_id) VALUES ($1, $2)
             ON CONFLICT (tournament, user_id) DO NOTHING",
        )
        .bind(id)
        .bind(user)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Removes an organiser.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn remove_organiser(&self, id: &str, user: i64) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM tournament_organisers WHERE tournament = $1 AND user_id = $2")
            .bind(id)
            .bind(user)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Adds an entrant with the next number; returns the number.
    ///
    /// # Errors
    /// The database refused it (an account entered twice breaks a unique index).
    pub async fn insert_entrant(&self, id: &str, p: &EntrantRow) -> Result<u32, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let n = insert_entrant_on(&mut tx, id, p).await?;
        tx.commit().await?;
        Ok(n)
    }

    /// Rewrites an entrant's name, rating, rank, club and withdrawal.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn update_entrant(&self, id: &str, p: &EntrantRow) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE tournament_players SET name = $1, rating = $2, rank = $3, club = $4,
                withdrawn_from = $5 WHERE tournament = $6 AND number = $7",
        )
        .bind(&p.name)
        .bind(p.rating)
        .bind(&p.rank)
        .bind(&p.club)
        .bind(p.withdrawn_from.map(i64::from))
        .bind(id)
        .bind(i64::from(p.number))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Removes an entrant before any round is paired; later numbers move up.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn remove_entrant(&self, id: &str, number: u32) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM tournament_players WHERE tournament = $1 AND number = $2")
            .bind(id)
            .bind(i64::from(number))
            .execute(&mut *tx)
            .await?;
        // One by one, upwards, so that no two rows share a number midway.
        let later: Vec<i64> = sqlx::query_scalar(
            "SELECT number FROM tournament_players WHERE tournament = $1 AND number > $2
             ORDER BY number",
        )
        .bind(id)
        .bind(i64::from(number))
        .fetch_all(&mut *tx)
        .await?;
        for n in later {
            sqlx::query(
                "UPDATE tournament_players SET number = $1 WHERE tournament = $2 AND number = $3",
            )
            .bind(n - 1)
            .bind(id)
            .bind(n)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await
    }

    /// Stores a paired round: its boards with their first games, its byes.
    ///
    /// # Errors
    /// The database refused it (and nothing is stored).
    pub async fn insert_round(
        &self,
        id: &str,
        round: u32,
        at_ms: u64,
        warnings: &str,
        boards: &[NewBoard],
        byes: &[(u32, &str)],
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO tournament_rounds (tournament, round, paired_at, warnings)
             VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(i64::from(round))
        .bind(ms(at_ms))
        .bind(warnings)
        .execute(&mut *tx)
        .await?;
        for b in boards {
            let r = &b.row;
            sqlx::query(
                "INSERT INTO tournament_boards (tournament, round, board, sente, gote, colours,
                    toss_tosser, toss_fu, handicap, play, result)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            )
            .bind(id)
            .bind(i64::from(round))
            .bind(i64::from(r.board))
            .bind(i64::from(r.sente))
            .bind(i64::from(r.gote))
            .bind(&r.colours)
            .bind(r.toss.map(|t| i64::from(t.0)))
            .bind(r.toss.map(|t| i64::from(t.1)))
            .bind(&r.handicap)
            .bind(&r.play)
            .bind(&r.result)
            .execute(&mut *tx)
            .await?;
            if let Some(game) = &b.game {
                sqlx::query(
                    "INSERT INTO tournament_games (tournament, round, board, seq, game_id)
                     VALUES ($1, $2, $3, 1, $4)",
                )
                .bind(id)
                .bind(i64::from(round))
                .bind(i64::from(r.board))
                .bind(game)
                .execute(&mut *tx)
                .await?;
            }
        }
        for (player, kind) in byes {
            sqlx::query(
                "INSERT INTO tournament_byes (tournament, round, player, kind) VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(i64::from(round))
            .bind(i64::from(*player))
            .bind(*kind)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await
    }

    /// Deletes a round with its boards, byes and the links to its games.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn delete_round(&self, id: &str, round: u32) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM tournament_rounds WHERE tournament = $1 AND round = $2")
            .bind(id)
            .bind(i64::from(round))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Rewrites a board's result, record, play, handicap and reports.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn update_board(&self, id: &str, b: &BoardRow) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE tournament_boards SET result = $1, record = $2, play = $3, handicap = $4,
                report_sente = $5, report_gote = $6 WHERE tournament = $7 AND round = $8 AND board = $9",
        )
        .bind(&b.result)
        .bind(&b.record)
        .bind(&b.play)
        .bind(&b.handicap)
        .bind(&b.reports.0)
        .bind(&b.reports.1)
        .bind(id)
        .bind(i64::from(b.round))
        .bind(i64::from(b.board))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Adds a game (a sennichite replay, or the first game of a board moved
    /// online) after the board's others.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn add_board_game(
        &self,
        id: &str,
        round: u32,
        board: u32,
        game: &str,
    ) -> Result<(), sqlx::Error> {
        let mut conn = self.pool.acquire().await?;
        add_board_game_on(&mut conn, id, round, board, game).await
    }

    /// Drops the links from a board to its games (a board moved over the board).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn clear_board_games(
        &self,
        id: &str,
        round: u32,
        board: u32,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "DELETE FROM tournament_games WHERE tournament = $1 AND round = $2 AND board = $3",
        )
        .bind(id)
        .bind(i64::from(round))
        .bind(i64::from(board))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The event, round and board a game is played for, if any.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn board_of_game(
        &self,
        game: &str,
    ) -> Result<Option<(String, u32, u32)>, sqlx::Error> {
        let row =
            sqlx::query("SELECT tournament, round, board FROM tournament_games WHERE game_id = $1")
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
        row.map(|r| {
            Ok((
                r.try_get("tournament")?,
                num(r.try_get("round")?),
                num(r.try_get("board")?),
            ))
        })
        .transpose()
    }

    /// The unfinished event games of `user`, newest event first.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn ready_games(&self, user: i64) -> Result<Vec<ReadyGameRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT tg.tournament, t.settings, tg.round, tg.board, g.id,
                    CASE WHEN g.sente_user = $1 THEN 'sente' ELSE 'gote' END AS side,
                    CASE WHEN g.sente_user = $1 THEN g.gote_name ELSE g.sente_name END AS opponent
             FROM tournament_games tg
             JOIN games g ON g.id = tg.game_id
             JOIN tournaments t ON t.id = tg.tournament
             WHERE NOT g.over AND (g.sente_user = $1 OR g.gote_user = $1)
             ORDER BY t.created_at DESC, tg.round, tg.board",
        )
        .bind(user)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ReadyGameRow {
                    tournament: r.try_get("tournament")?,
                    settings: r.try_get("settings")?,
                    round: num(r.try_get("round")?),
                    board: num(r.try_get("board")?),
                    game: r.try_get("id")?,
                    side: r.try_get("side")?,
                    opponent: r.try_get("opponent")?,
                })
            })
            .collect()
    }

    /// Writes an audit entry.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn audit(
        &self,
        id: &str,
        at_ms: u64,
        by: Option<(i64, &str)>,
        action: &str,
        detail: &str,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO tournament_audit (tournament, at, by_user, by_name, action, detail)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(ms(at_ms))
        .bind(by.map(|b| b.0))
        .bind(by.map_or("server", |b| b.1))
        .bind(action)
        .bind(detail)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// An event's audit log, oldest first.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn audit_log(&self, id: &str) -> Result<Vec<AuditRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT at, by_name, action, detail FROM tournament_audit WHERE tournament = $1
             ORDER BY id",
        )
        .bind(id)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(AuditRow {
                    at_ms: to_u64(r.try_get("at")?),
                    by: r.try_get("by_name")?,
                    action: r.try_get("action")?,
                    detail: r.try_get("detail")?,
                })
            })
            .collect()
    }
}

pub(super) type Tx<'a> = sqlx::Transaction<'a, Any>;

/// [`Store::insert_entrant`] in a transaction of the caller's.
pub(super) async fn insert_entrant_on(
    tx: &mut Tx<'_>,
    id: &str,
    p: &EntrantRow,
) -> Result<u32, sqlx::Error> {
    let next: i64 = sqlx::query_scalar(
        "SELECT COALESCE(MAX(number), 0) + 1 FROM tournament_players WHERE tournament = $1",
    )
    .bind(id)
    .fetch_one(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO tournament_players (tournament, number, name, user_id, rating, rank, club,
             from_round, withdrawn_from, proposed_rank)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(id)
    .bind(next)
    .bind(&p.name)
    .bind(p.user)
    .bind(p.rating)
    .bind(&p.rank)
    .bind(&p.club)
    .bind(i64::from(p.from_round))
    .bind(p.withdrawn_from.map(i64::from))
    .bind(&p.proposed_rank)
    .execute(&mut **tx)
    .await?;
    Ok(num(next))
}

/// The entrants of event `id`, by number.
async fn entrants(tx: &mut Tx<'_>, id: &str) -> Result<Vec<EntrantRow>, sqlx::Error> {
    sqlx::query(
        "SELECT p.number, p.name, p.user_id, u.name AS account, p.rating, p.rank, p.club,
                p.from_round, p.withdrawn_from, p.proposed_rank
         FROM tournament_players p LEFT JOIN users u ON u.id = p.user_id
         WHERE p.tournament = $1 ORDER BY p.number",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(|r| {
        Ok(EntrantRow {
            number: num(r.try_get("number")?),
            name: r.try_get("name")?,
            user: r.try_get("user_id")?,
            account: r.try_get("account")?,
            rating: r
                .try_get::<Option<i64>, _>("rating")?
                .and_then(|v| i32::try_from(v).ok()),
            rank: r.try_get("rank")?,
            club: r.try_get("club")?,
            from_round: num(r.try_get("from_round")?),
            withdrawn_from: opt_num(r.try_get("withdrawn_from")?),
            proposed_rank: r.try_get("proposed_rank")?,
        })
    })
    .collect()
}

/// The boards of event `id` with their games, into their rounds.
async fn boards_and_games(
    tx: &mut Tx<'_>,
    id: &str,
    rounds: &mut [RoundRow],
) -> Result<(), sqlx::Error> {
    let boards =
        sqlx::query("SELECT * FROM tournament_boards WHERE tournament = $1 ORDER BY round, board")
            .bind(id)
            .fetch_all(&mut **tx)
            .await?;
    for b in &boards {
        let round = num(b.try_get("round")?);
        let toss = match (
            b.try_get::<Option<i64>, _>("toss_tosser")?,
            b.try_get::<Option<i64>, _>("toss_fu")?,
        ) {
            (Some(t), Some(f)) => Some((num(t), u8::try_from(f).unwrap_or(0))),
            _ => None,
        };
        let row = BoardRow {
            round,
            board: num(b.try_get("board")?),
            sente: num(b.try_get("sente")?),
            gote: num(b.try_get("gote")?),
            colours: b.try_get("colours")?,
            toss,
            handicap: b.try_get("handicap")?,
            play: b.try_get("play")?,
            result: b.try_get("result")?,
            record: b.try_get("record")?,
            reports: (b.try_get("report_sente")?, b.try_get("report_gote")?),
            games: Vec::new(),
        };
        if let Some(r) = rounds.iter_mut().find(|r| r.round == round) {
            r.boards.push(row);
        }
    }
    let games = sqlx::query(
        "SELECT tg.round, tg.board, g.id, g.over, g.winner, g.reason,
                (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS moves
         FROM tournament_games tg JOIN games g ON g.id = tg.game_id
         WHERE tg.tournament = $1 ORDER BY tg.round, tg.board, tg.seq",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    for g in &games {
        let (round, board) = (num(g.try_get("round")?), num(g.try_get("board")?));
        let game = BoardGameRow {
            id: g.try_get("id")?,
            over: flag(g, "over")?,
            winner: g.try_get("winner")?,
            reason: g.try_get("reason")?,
            moves: num(g.try_get("moves")?),
        };
        if let Some(b) = rounds
            .iter_mut()
            .find(|r| r.round == round)
            .and_then(|r| r.boards.iter_mut().find(|b| b.board == board))
        {
            b.games.push(game);
        }
    }
    Ok(())
}

fn event_row(r: &sqlx::any::AnyRow) -> Result<EventRow, sqlx::Error> {
    Ok(EventRow {
        id: r.try_get("id")?,
        created_by: r.try_get("created_by")?,
        created_at_ms: to_u64(r.try_get("created_at")?),
        settings: r.try_get("settings")?,
        seed: r.try_get::<i64, _>("seed")?.cast_unsigned(),
    })
}
