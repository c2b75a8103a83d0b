//! Games played here and their moves: created, moved, finished, joined,
//! loaded back as typed rows.
//!
//! An ending is stored as the columns the archive lists (`winner`, `reason`
//! in the protocol's words) plus `foul`, the kind of foul that lost the game,
//! so that [`StoredGame::ending`] is the [`Ending`] the room had: a foul by an
//! illegal move is rebuilt by replaying the stored moves, which names the rule
//! the last one broke.

use shogi_core::{ByColor, Color, Ending, Foul, Move, Position};
use sqlx::Row;

use super::leases::{check_fence, check_fences, Fence, FirstLease};
use super::outbox::{record_endings, take, Consequence};
use super::players::GamePlayers;
use super::store::{corrupt, flag, in_chunks, ms, to_u64, Dialect, Store, Writer};
use super::tournaments::{add_board_game_on, Replay};
use crate::game::clock::Clock;
use crate::game::{reason_word, Mode, Settings, Side};

/// A game as created.
#[derive(Debug)]
pub struct NewGame<'a> {
    /// The game id.
    pub id: &'a str,
    /// The mode.
    pub mode: Mode,
    /// The start position.
    pub start: &'a Position,
    /// The settings (stored as JSON).
    pub settings: &'a Settings,
    /// The seats' tokens.
    pub tokens: ByColor<Option<&'a str>>,
    /// The invite code, if any.
    pub invite: Option<&'a str>,
    /// The full clocks, if any.
    pub clocks: Option<ByColor<Clock>>,
    /// Whether the clock runs from the start (both seats taken).
    pub clock_started: bool,
    /// Who sits where, and whether the game is rated.
    pub players: &'a GamePlayers,
    /// With several instances: the creating instance's lease, stored in the
    /// same transaction as the game. A game stored before its lease would
    /// look orphaned to the other instances, which could take it over
    /// before its creator leased it.
    pub lease: Option<FirstLease<'a>>,
    /// A sennichite replay: the board it goes on, stored in the same
    /// transaction, which also marks the drawn game's tournament
    /// consequence carried out.
    pub replay: Option<&'a Replay>,
}

/// A game as stored.
#[derive(Debug)]
pub struct StoredGame {
    /// When it was created (Unix milliseconds).
    pub created_at_ms: u64,
    /// The mode.
    pub mode: Mode,
    /// The start position.
    pub start: Position,
    /// The settings.
    pub settings: Settings,
    /// The seats' tokens.
    pub tokens: ByColor<Option<String>>,
    /// The unused invite code.
    pub invite: Option<String>,
    /// Main time and periods left per side.
    pub clock_values: ByColor<(u64, u32)>,
    /// Whether the clock runs.
    pub clock_started: bool,
    /// Time used on the current turn when the server stopped.
    pub turn_used_ms: u64,
    /// The ending, if the game is over.
    pub ending: Option<Ending>,
    /// The moves, in order (an illegal last move when a foul lost the game).
    pub moves: Vec<Move>,
    /// The time used on each move, in milliseconds.
    pub used_ms: Vec<u64>,
    /// The comment kept with each move (a CSA program's `'*` evaluation).
    pub comments: Vec<Option<String>>,
    /// Who sat where, and whether the game is rated.
    pub players: GamePlayers,
}

/// What one move changes.
#[derive(Debug)]
pub struct MoveRecord {
    /// 1 for the first move.
    pub ply: u32,
    /// The move.
    pub mv: Move,
    /// Time used on it.
    pub used_ms: u64,
    /// Who made it.
    pub mover: Color,
    /// Both clocks after it.
    pub clocks: Option<ByColor<Clock>>,
    /// The ending it caused.
    pub ending: Option<Ending>,
    /// A comment kept with it (a CSA program's `'*` evaluation).
    pub comment: Option<String>,
}

/// One write of a live game, for [`Store::write_batch`].
#[derive(Debug)]
pub enum GameWrite {
    /// A move, the clocks after it and the ending it caused.
    Move(MoveRecord),
    /// An ending no move caused, and the clocks as they stood.
    Finish {
        /// How the game ended.
        ending: Ending,
        /// How many moves had been played.
        plies: u32,
        /// Both clocks, if the game has any.
        clocks: Option<ByColor<Clock>>,
    },
}

/// The seats and state of a game, for deciding who may annotate it.
#[derive(Debug)]
pub struct GameSeats {
    /// The seats' tokens.
    pub tokens: ByColor<Option<String>>,
    /// Whether the game is over.
    pub over: bool,
}

fn clock_values(clocks: Option<ByColor<Clock>>) -> [i64; 4] {
    clocks.map_or([0; 4], |c| {
        [
            ms(c[Color::Sente].main_ms),
            i64::from(c[Color::Sente].periods_left),
            ms(c[Color::Gote].main_ms),
            i64::from(c[Color::Gote].periods_left),
        ]
    })
}

/// The clocks of a game as stored: the games row's (as of `clocks_ply`
/// moves), then each side's clock after its last move beyond that (a move
/// changes only its mover's clock). `moves` are (ply, main time after,
/// periods after) in order; `first` moved at ply 1.
fn clocks_after(
    row: ByColor<(u64, u32)>,
    clocks_ply: u64,
    first: Color,
    moves: &[(u64, u64, u32)],
) -> ByColor<(u64, u32)> {
    let mut clocks = row;
    for &(ply, main_ms, periods) in moves {
        if ply > clocks_ply {
            let mover = if ply % 2 == 1 {
                first
            } else {
                first.opponent()
            };
            clocks[mover] = (main_ms, periods);
        }
    }
    clocks
}

/// Inserts the rows of `moves` (game id, move), in statements of several rows.
async fn insert_moves(
    conn: &mut sqlx::AnyConnection,
    dialect: Dialect,
    moves: &[(&str, &MoveRecord)],
) -> Result<(), sqlx::Error> {
    for rows in in_chunks(moves) {
        let sql = dialect.values_sql(
            "INSERT INTO moves (game_id, ply, usi, used_ms, main_ms_after, periods_after, comment) VALUES ",
            7,
            rows.len(),
            "",
        );
        let mut q = sqlx::query(&sql);
        for &(id, m) in rows {
            let (main_after, periods_after) = m.clocks.map_or((0, 0), |c| {
                (ms(c[m.mover].main_ms), i64::from(c[m.mover].periods_left))
            });
            q = q
                .bind(id)
                .bind(i64::from(m.ply))
                .bind(m.mv.to_string())
                .bind(ms(m.used_ms))
                .bind(main_after)
                .bind(periods_after)
                .bind(m.comment.clone());
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

/// The games-row part of an ending: `id`'s clocks and ending, as of
/// `plies` moves (the turn in progress is over).
struct Ended<'a> {
    id: &'a str,
    plies: u32,
    clocks: Option<ByColor<Clock>>,
    ending: Ending,
}

/// Stores the endings of `ended` in the games rows, in statements of
/// several rows.
async fn set_endings(
    conn: &mut sqlx::AnyConnection,
    dialect: Dialect,
    ended: &[Ended<'_>],
) -> Result<(), sqlx::Error> {
    for rows in in_chunks(ended) {
        let sql = dialect.values_sql(
            "UPDATE games SET sente_main_ms = v.column2, sente_periods = v.column3,
                gote_main_ms = v.column4, gote_periods = v.column5, clocks_ply = v.column6,
                turn_used_ms = 0, over = v.column7, winner = v.column8, reason = v.column9,
                foul = v.column10
             FROM (VALUES ",
            10,
            rows.len(),
            ") AS v WHERE games.id = v.column1",
        );
        let mut q = sqlx::query(&sql);
        for e in rows {
            let [sm, sp, gm, gp] = clock_values(e.clocks);
            let c = ending_columns(Some(e.ending));
            q = q
                .bind(e.id)
                .bind(sm)
                .bind(sp)
                .bind(gm)
                .bind(gp)
                .bind(i64::from(e.plies))
                .bind(c.over)
                .bind(c.winner)
                .bind(c.reason)
                .bind(c.foul);
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

impl Writer {
    /// [`Store::write_batch`] on this connection.
    ///
    /// # Errors
    /// As [`Store::write_batch`]. The connection stays usable: a transaction
    /// that failed is rolled back before the next statement.
    pub async fn write_batch(
        &mut self,
        writes: &[(&str, Option<&Fence>, &GameWrite)],
    ) -> Result<(), sqlx::Error> {
        let fences: Vec<(&str, &Fence)> = writes
            .iter()
            .filter_map(|&(id, fence, _)| Some((id, fence?)))
            .collect();
        let moves: Vec<(&str, &MoveRecord)> = writes
            .iter()
            .filter_map(|&(id, _, write)| match write {
                GameWrite::Move(m) => Some((id, m)),
                GameWrite::Finish { .. } => None,
            })
            .collect();
        // A move's row holds its clocks; the games row changes only when a game ends.
        let ended: Vec<Ended<'_>> = writes
            .iter()
            .filter_map(|&(id, _, write)| match write {
                GameWrite::Move(m) => m.ending.map(|ending| Ended {
                    id,
                    plies: m.ply,
                    clocks: m.clocks,
                    ending,
                }),
                GameWrite::Finish {
                    ending,
                    plies,
                    clocks,
                } => Some(Ended {
                    id,
                    plies: *plies,
                    clocks: *clocks,
                    ending: *ending,
                }),
            })
            .collect();
        // The usual batch, moves that end nothing and carry no fence, in one
        // statement: atomic by itself, without BEGIN and COMMIT (two round
        // trips fewer to the database, and no statement journal in SQLite).
        if fences.is_empty() && ended.is_empty() && moves.len().is_power_of_two() {
            return insert_moves(&mut self.conn, self.dialect, &moves).await;
        }
        let mut tx = sqlx::Connection::begin(&mut *self.conn).await?;
        check_fences(&mut tx, self.dialect, &fences).await?;
        insert_moves(&mut tx, self.dialect, &moves).await?;
        if !ended.is_empty() {
            set_endings(&mut tx, self.dialect, &ended).await?;
            // What the endings change elsewhere is due from the moment they
            // are stored: the same transaction (docs/ARCHITECTURE.md, "The outbox").
            let ids: Vec<&str> = ended.iter().map(|e| e.id).collect();
            record_endings(&mut tx, self.dialect, &ids).await?;
        }
        tx.commit().await
    }
}

/// The `over`, `winner`, `reason` and `foul` columns of an ending.
struct EndingColumns {
    over: bool,
    winner: Option<&'static str>,
    reason: Option<&'static str>,
    foul: Option<&'static str>,
}

const FOUL_MOVE: &str = "move";
const FOUL_UNREADABLE: &str = "unreadable_move";
/// A foul whose rule is not known (never written by play on this server today).
const FOUL_UNSPECIFIED: &str = "unspecified";
const FOUL_DECLARATION: &str = "false_declaration";

fn ending_columns(ending: Option<Ending>) -> EndingColumns {
    let Some(e) = ending else {
        return EndingColumns {
            over: false,
            winner: None,
            reason: None,
            foul: None,
        };
    };
    let foul = match e {
        Ending::Foul { foul, .. } => Some(match foul {
            Foul::Move { .. } => FOUL_MOVE,
            Foul::UnreadableMove => FOUL_UNREADABLE,
            Foul::FalseDeclaration => FOUL_DECLARATION,
            Foul::Unspecified => FOUL_UNSPECIFIED,
        }),
        _ => None,
    };
    EndingColumns {
        over: true,
        winner: e.winner().map(|c| Side::from(c).name()),
        reason: Some(reason_word(e)),
        foul,
    }
}

/// The first illegal move of `moves` from `start` and the rule it broke.
fn illegal_move(start: &Position, moves: &[Move]) -> Option<Foul> {
    let mut pos = start.clone();
    for &mv in moves {
        if let Err(reason) = pos.check_move(mv) {
            return Some(Foul::Move { mv, reason });
        }
        pos.make_move(mv);
    }
    None
}

/// The ending stored as `winner`, `reason`, `foul` (the inverse of
/// [`ending_columns`]); `None` for a reason this server never wrote.
fn ending_of(
    winner: Option<Color>,
    reason: &str,
    foul: Option<&str>,
    start: &Position,
    moves: &[Move],
) -> Option<Ending> {
    let loser = winner.map(Color::opponent);
    Some(match (reason, foul) {
        ("checkmate", _) => Ending::Checkmate { loser: loser? },
        ("no_legal_moves", _) => Ending::NoLegalMoves { loser: loser? },
        ("resign", _) => Ending::Resignation { loser: loser? },
        ("timeout", _) => Ending::Timeout { loser: loser? },
        ("perpetual_check", _) => Ending::PerpetualCheck { loser: loser? },
        ("repetition", _) => Ending::Repetition,
        ("impasse", Some(FOUL_DECLARATION)) => Ending::Foul {
            loser: loser?,
            foul: Foul::FalseDeclaration,
        },
        ("impasse", _) => Ending::Impasse { winner },
        ("try", _) => Ending::Try { winner: winner? },
        ("illegal_move", Some(FOUL_UNREADABLE)) => Ending::Foul {
            loser: loser?,
            foul: Foul::UnreadableMove,
        },
        ("illegal_move", Some(FOUL_UNSPECIFIED)) => Ending::Foul {
            loser: loser?,
            foul: Foul::Unspecified,
        },
        // Before migration 4 every foul was an illegal move, as it is with `move`.
        ("illegal_move", _) => Ending::Foul {
            loser: loser?,
            foul: illegal_move(start, moves)?,
        },
        ("max_moves", _) => Ending::MaxMoves,
        ("draw", _) => Ending::DrawAgreement,
        ("abort", _) => Ending::Abort,
        _ => return None,
    })
}

fn side_of(name: Option<&str>) -> Option<Color> {
    match name {
        Some("sente") => Some(Color::Sente),
        Some("gote") => Some(Color::Gote),
        _ => None,
    }
}

impl Store {
    /// Stores a new game, its first lease if it has one, and a replay's
    /// place on its board, in one transaction.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn insert_game(
        &self,
        g: &NewGame<'_>,
        created_at_ms: u64,
    ) -> Result<(), sqlx::Error> {
        let [sm, sp, gm, gp] = clock_values(g.clocks);
        let settings =
            serde_json::to_string(g.settings).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        let seat = |c: Color| g.players.seats[c].as_ref();
        let user = |c: Color| seat(c).and_then(|p| p.user);
        let name = |c: Color| seat(c).map(|p| p.name.as_str());
        let guest = |c: Color| seat(c).is_some_and(|p| p.guest);
        let rating = |c: Color| seat(c).and_then(|p| p.rating);
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, created_at, mode, start_sfen, settings, sente_token, gote_token,
                invite, sente_main_ms, sente_periods, gote_main_ms, gote_periods, clock_started,
                sente_user, gote_user, sente_name, gote_name, sente_lc, gote_lc,
                sente_guest, gote_guest, sente_rating, gote_rating, sente_rd, gote_rd, rated)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
                $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26)",
        )
        .bind(g.id)
        .bind(ms(created_at_ms))
        .bind(g.mode.name())
        .bind(g.start.to_sfen())
        .bind(settings)
        .bind(g.tokens[Color::Sente])
        .bind(g.tokens[Color::Gote])
        .bind(g.invite)
        .bind(sm)
        .bind(sp)
        .bind(gm)
        .bind(gp)
        .bind(g.clock_started)
        .bind(user(Color::Sente))
        .bind(user(Color::Gote))
        .bind(name(Color::Sente))
        .bind(name(Color::Gote))
        .bind(name(Color::Sente).map(str::to_lowercase))
        .bind(name(Color::Gote).map(str::to_lowercase))
        .bind(guest(Color::Sente))
        .bind(guest(Color::Gote))
        .bind(rating(Color::Sente).map(|r| r.rating))
        .bind(rating(Color::Gote).map(|r| r.rating))
        .bind(rating(Color::Sente).map(|r| r.deviation))
        .bind(rating(Color::Gote).map(|r| r.deviation))
        .bind(g.players.rated)
        .execute(&mut *tx)
        .await?;
        if let Some(lease) = g.lease {
            sqlx::query(
                "INSERT INTO leases (game_id, instance_id, epoch, expires_at)
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(g.id)
            .bind(lease.instance_id)
            .bind(super::leases::FIRST_EPOCH)
            .bind(ms(lease.until_ms))
            .execute(&mut *tx)
            .await?;
        }
        if let Some(r) = g.replay {
            add_board_game_on(&mut tx, &r.tournament, r.round, r.board, g.id).await?;
            take(&mut tx, &r.drawn, Consequence::Tournament).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Stores the writes of several live games in one transaction (group
    /// commit): each a move (the move row, the clocks after it and the
    /// ending it caused) or an ending no move caused (resignation, time,
    /// declaration, count), in the order given. One write alone is a
    /// transaction of its own.
    ///
    /// A write with a [`Fence`] is stored only if its instance still holds
    /// the game's lease at that epoch (checked in the same transaction).
    ///
    /// # Errors
    /// The database refused one of them, or a fence no longer holds
    /// ([`fenced_out`](super::leases::fenced_out)); nothing is stored then.
    pub async fn write_batch(
        &self,
        writes: &[(&str, Option<&Fence>, &GameWrite)],
    ) -> Result<(), sqlx::Error> {
        self.writer().await?.write_batch(writes).await
    }

    /// Seats the invitee: stores its token, spends the invite and starts the
    /// clock (only while `fence`, if any, holds).
    ///
    /// # Errors
    /// The database refused it, or the fence no longer holds.
    pub async fn join(
        &self,
        id: &str,
        side: Color,
        token: &str,
        fence: Option<&Fence>,
    ) -> Result<(), sqlx::Error> {
        let sql = match side {
            Color::Sente => {
                "UPDATE games SET sente_token = $1, invite = NULL, clock_started = TRUE WHERE id = $2"
            }
            Color::Gote => {
                "UPDATE games SET gote_token = $1, invite = NULL, clock_started = TRUE WHERE id = $2"
            }
        };
        let mut tx = self.pool.begin().await?;
        if let Some(fence) = fence {
            check_fence(&mut tx, id, fence).await?;
        }
        sqlx::query(sql)
            .bind(token)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    /// Takes back every move after ply `keep` and stores the clocks, in one
    /// transaction (only while `fence`, if any, holds: an instance that lost
    /// the game's lease must not delete the moves its new holder stored).
    ///
    /// # Errors
    /// The database refused it or the fence no longer holds; nothing is
    /// changed then.
    pub async fn take_back(
        &self,
        id: &str,
        keep: u32,
        clocks: Option<ByColor<Clock>>,
        fence: Option<&Fence>,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        if let Some(fence) = fence {
            check_fence(&mut tx, id, fence).await?;
        }
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
            .bind(id)
            .bind(i64::from(keep))
            .execute(&mut *tx)
            .await?;
        let [sm, sp, gm, gp] = clock_values(clocks);
        sqlx::query(
            "UPDATE games SET sente_main_ms = $1, sente_periods = $2, gote_main_ms = $3,
                gote_periods = $4, clocks_ply = $5, turn_used_ms = 0 WHERE id = $6",
        )
        .bind(sm)
        .bind(sp)
        .bind(gm)
        .bind(gp)
        .bind(i64::from(keep))
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await
    }

    /// Stores the time used so far on the current turn (at shutdown), the
    /// turn after `plies` moves.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn save_turn_used(
        &self,
        id: &str,
        plies: u32,
        used_ms: u64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE games SET turn_used_ms = $1, turn_ply = $2 WHERE id = $3")
            .bind(ms(used_ms))
            .bind(i64::from(plies))
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The ids of the games not over.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn unfinished(&self) -> Result<Vec<String>, sqlx::Error> {
        // Each in the words of its partial index `games_unfinished`, which
        // SQLite uses only for `over = 0` (not for `over = FALSE`).
        let sql = match self.dialect {
            Dialect::Sqlite => "SELECT id FROM games WHERE over = 0 ORDER BY created_at",
            Dialect::Postgres => "SELECT id FROM games WHERE over = FALSE ORDER BY created_at",
        };
        let rows = sqlx::query(sql).fetch_all(&self.pool).await?;
        rows.iter().map(|r| r.try_get::<String, _>("id")).collect()
    }

    /// The seat tokens of game `id` and whether it is over, if it exists.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn game_seats(&self, id: &str) -> Result<Option<GameSeats>, sqlx::Error> {
        let Some(r) = sqlx::query("SELECT sente_token, gote_token, over FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        Ok(Some(GameSeats {
            tokens: ByColor::new(r.try_get("sente_token")?, r.try_get("gote_token")?),
            over: flag(&r, "over")?,
        }))
    }

    /// A stored game with its moves, if it exists.
    ///
    /// # Errors
    /// The database refused the query, or a stored value does not read back.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, sqlx::Error> {
        // On a reader, so that loading never waits behind moves being written;
        // one read transaction, so that the game row and its moves are of the
        // same moment (every move is committed before it is shown).
        let mut tx = self.reader.begin().await?;
        let Some(r) = sqlx::query(
            // Whether a seat is a program's is the account's, read with it.
            "SELECT g.*, su.bot AS sente_bot, gu.bot AS gote_bot FROM games g
             LEFT JOIN users su ON su.id = g.sente_user
             LEFT JOIN users gu ON gu.id = g.gote_user
             WHERE g.id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        let rows = sqlx::query(
            "SELECT ply, usi, used_ms, main_ms_after, periods_after, comment FROM moves
             WHERE game_id = $1 ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let mut moves = Vec::with_capacity(rows.len());
        let mut used_ms = Vec::with_capacity(rows.len());
        let mut comments = Vec::with_capacity(rows.len());
        let mut clocks_after_moves = Vec::with_capacity(rows.len());
        for m in &rows {
            clocks_after_moves.push((
                to_u64(m.try_get("ply")?),
                to_u64(m.try_get("main_ms_after")?),
                u32::try_from(m.try_get::<i64, _>("periods_after")?).unwrap_or(0),
            ));
            let usi: String = m.try_get("usi")?;
            let mv = usi
                .parse::<Move>()
                .map_err(|e| corrupt(format!("game {id}: stored move {usi}: {e}")))?;
            moves.push(mv);
            used_ms.push(to_u64(m.try_get("used_ms")?));
            comments.push(m.try_get::<Option<String>, _>("comment")?);
        }
        let mode: String = r.try_get("mode")?;
        let mode = mode
            .parse::<Mode>()
            .map_err(|e| corrupt(format!("game {id}: {e}")))?;
        let settings: String = r.try_get("settings")?;
        let settings: Settings = serde_json::from_str(&settings)
            .map_err(|e| corrupt(format!("game {id}: stored settings: {e}")))?;
        let start: String = r.try_get("start_sfen")?;
        let start = shogi_core::sfen::parse_position(&start)
            .map_err(|e| corrupt(format!("game {id}: stored start: {e}")))?;
        let ending = if flag(&r, "over")? {
            let winner: Option<String> = r.try_get("winner")?;
            let reason: Option<String> = r.try_get("reason")?;
            let foul: Option<String> = r.try_get("foul")?;
            let winner = side_of(winner.as_deref());
            let ending = reason
                .as_deref()
                .and_then(|reason| ending_of(winner, reason, foul.as_deref(), &start, &moves));
            // A game over for a reason this server never wrote: stopped without a result.
            Some(ending.unwrap_or(Ending::Abort))
        } else {
            None
        };
        let periods = |name: &str| -> Result<u32, sqlx::Error> {
            Ok(u32::try_from(r.try_get::<i64, _>(name)?).unwrap_or(0))
        };
        let row_clocks = ByColor::new(
            (
                to_u64(r.try_get("sente_main_ms")?),
                periods("sente_periods")?,
            ),
            (to_u64(r.try_get("gote_main_ms")?), periods("gote_periods")?),
        );
        let clock_values = clocks_after(
            row_clocks,
            to_u64(r.try_get("clocks_ply")?),
            start.side_to_move(),
            &clocks_after_moves,
        );
        // Time saved at shutdown counts only for the turn it was saved in.
        let turn_used_ms = if to_u64(r.try_get("turn_ply")?) == moves.len() as u64 {
            to_u64(r.try_get("turn_used_ms")?)
        } else {
            0
        };
        Ok(Some(StoredGame {
            created_at_ms: to_u64(r.try_get("created_at")?),
            mode,
            start,
            settings,
            tokens: ByColor::new(r.try_get("sente_token")?, r.try_get("gote_token")?),
            invite: r.try_get("invite")?,
            clock_values,
            clock_started: flag(&r, "clock_started")?,
            turn_used_ms,
            ending,
            moves,
            used_ms,
            comments,
            players: GamePlayers::of_row(&r)?,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_core::IllegalMove;

    /// The games row's clocks hold until a later move of a side replaces
    /// that side's (the first mover may be Gote, in handicap games).
    #[test]
    fn each_sides_clock_is_that_after_its_last_move_since_the_row() {
        let row = ByColor::new((600_000, 1), (600_000, 1));
        let moves = [(1, 590_000, 1), (2, 580_000, 1), (3, 570_000, 1)];
        let c = clocks_after(row, 0, Color::Sente, &moves);
        assert_eq!(c, ByColor::new((570_000, 1), (580_000, 1)));
        let c = clocks_after(row, 0, Color::Gote, &moves);
        assert_eq!(c, ByColor::new((580_000, 1), (570_000, 1)));
        // Written at a takeback to two moves: only the third counts.
        let c = clocks_after(row, 2, Color::Sente, &moves);
        assert_eq!(c, ByColor::new((570_000, 1), (600_000, 1)));
        assert_eq!(clocks_after(row, 3, Color::Sente, &moves), row);
    }

    /// Every ending the server makes is stored and read back as it was.
    #[test]
    fn every_ending_survives_its_columns() {
        let start = Position::startpos();
        let bad: Move = "7g7e".parse().unwrap();
        let reason: IllegalMove = start.check_move(bad).unwrap_err();
        let moves = [bad];
        for e in [
            Ending::Checkmate { loser: Color::Gote },
            Ending::NoLegalMoves {
                loser: Color::Sente,
            },
            Ending::Resignation { loser: Color::Gote },
            Ending::Resignation {
                loser: Color::Sente,
            },
            Ending::Timeout {
                loser: Color::Sente,
            },
            Ending::PerpetualCheck { loser: Color::Gote },
            Ending::Repetition,
            Ending::Impasse { winner: None },
            Ending::Impasse {
                winner: Some(Color::Gote),
            },
            Ending::Try {
                winner: Color::Sente,
            },
            Ending::Foul {
                loser: Color::Sente,
                foul: Foul::Move { mv: bad, reason },
            },
            Ending::Foul {
                loser: Color::Gote,
                foul: Foul::FalseDeclaration,
            },
            Ending::Foul {
                loser: Color::Gote,
                foul: Foul::UnreadableMove,
            },
            Ending::MaxMoves,
            Ending::DrawAgreement,
            Ending::Abort,
        ] {
            let c = ending_columns(Some(e));
            assert!(c.over);
            let back = ending_of(side_of(c.winner), c.reason.unwrap(), c.foul, &start, &moves);
            assert_eq!(back, Some(e), "{e}");
        }
    }

    #[test]
    fn a_foul_stored_before_the_foul_column_is_the_illegal_move() {
        let start = Position::startpos();
        let moves: Vec<Move> = ["7g7f", "3c3e"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let e = ending_of(Some(Color::Sente), "illegal_move", None, &start, &moves).unwrap();
        let Ending::Foul {
            loser: Color::Gote,
            foul: Foul::Move { mv, .. },
        } = e
        else {
            panic!("{e:?}");
        };
        assert_eq!(mv.to_string(), "3c3e");
    }
}
