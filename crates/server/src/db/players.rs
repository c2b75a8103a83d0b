//! Ratings, their history, the players of games and the counts a profile
//! shows.

use shogi_core::{ByColor, Color};
use sqlx::Row;

use super::outbox::{take, Consequence};
use super::store::{flag, ms, to_u64, Store};
use crate::game::{Results, Side};
use crate::ratings::{Rating, TimeClass};

/// A stored rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRow {
    /// The rating.
    pub rating: Rating,
    /// Rated games played in its class.
    pub games: u32,
}

/// What a rated game changes: both new ratings and their game counts.
#[derive(Debug)]
pub struct Settlement<'a> {
    /// The game.
    pub game_id: &'a str,
    /// Its time class.
    pub class: TimeClass,
    /// When it ended.
    pub at_ms: u64,
    /// Sente's and Gote's account, new rating and rated game count.
    pub players: [(i64, Rating, u32); 2],
}

/// An account as a profile shows it.
#[derive(Debug)]
pub struct ProfileRow {
    /// `users.id`.
    pub user: i64,
    /// The name as registered.
    pub name: String,
    /// When it was made.
    pub created_at_ms: u64,
    /// Whether it is a program's account.
    pub bot: bool,
}

/// One point of a rating history.
#[derive(Debug)]
pub struct HistoryRow {
    /// The class.
    pub class: TimeClass,
    /// The game.
    pub game_id: String,
    /// When.
    pub at_ms: u64,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation.
    pub rd: f64,
}

/// The player of one seat, as stored with the game: an account or a guest
/// with a typed name (an unnamed guest, a free seat and the computer's seat
/// have none).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatPlayer {
    /// The account (`None` for a guest, the computer, a deleted account).
    pub user: Option<i64>,
    /// The name shown.
    pub name: String,
    /// Whether the seat is a guest's.
    pub guest: bool,
    /// Whether the account is a program's (read from `users.bot`, not
    /// stored with the game).
    pub bot: bool,
    /// The account's rating in the game's time class when the game started
    /// (its volatility is not stored: read back, it is the starting 0.06).
    pub rating: Option<Rating>,
}

impl SeatPlayer {
    /// How a record names this seat: the name, `(guest)` after a guest's.
    #[must_use]
    pub fn record_name(&self) -> String {
        if self.guest {
            format!("{} (guest)", self.name)
        } else {
            self.name.clone()
        }
    }
}

/// The players of a game as stored, and whether it is rated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GamePlayers {
    /// Who sits on each side.
    pub seats: ByColor<Option<SeatPlayer>>,
    /// Whether the game is rated.
    pub rated: bool,
}

impl GamePlayers {
    /// The columns of a `games` row.
    pub(super) fn of_row(r: &sqlx::any::AnyRow) -> Result<GamePlayers, sqlx::Error> {
        let seat = |side: Color| -> Result<Option<SeatPlayer>, sqlx::Error> {
            let col = |name: &str| format!("{}_{name}", Side::from(side).name());
            let Some(name) = r.try_get::<Option<String>, _>(col("name").as_str())? else {
                return Ok(None);
            };
            let rating: Option<f64> = r.try_get(col("rating").as_str())?;
            let rd: Option<f64> = r.try_get(col("rd").as_str())?;
            Ok(Some(SeatPlayer {
                user: r.try_get(col("user").as_str())?,
                name,
                guest: flag(r, &col("guest"))?,
                bot: r
                    .try_get::<Option<i64>, _>(col("bot").as_str())?
                    .unwrap_or(0)
                    != 0,
                rating: rating.map(|x| {
                    Rating::new(
                        x,
                        rd.unwrap_or(Rating::NEW.deviation),
                        Rating::NEW.volatility,
                    )
                }),
            }))
        };
        Ok(GamePlayers {
            seats: ByColor::new(seat(Color::Sente)?, seat(Color::Gote)?),
            rated: flag(r, "rated")?,
        })
    }
}

fn count(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

impl Store {
    /// How many games between accounts `a` and `b` changed their ratings
    /// since `since_ms` (any class).
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn rated_games_between(
        &self,
        a: i64,
        b: i64,
        since_ms: u64,
    ) -> Result<u32, sqlx::Error> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM rating_history mine JOIN rating_history theirs
               ON theirs.game_id = mine.game_id AND theirs.user_id = $2
             WHERE mine.user_id = $1 AND mine.at >= $3",
        )
        .bind(a)
        .bind(b)
        .bind(ms(since_ms))
        .fetch_one(&self.pool)
        .await?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Whether account `user` is a program's (`users.bot`); `false` for an
    /// unknown account.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn is_program(&self, user: i64) -> Result<bool, sqlx::Error> {
        let bot: Option<i64> = sqlx::query_scalar("SELECT bot FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(&self.reader)
            .await?;
        Ok(bot.unwrap_or(0) != 0)
    }

    /// The rating of `user` in `class`, if they have played a rated game in it.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn rating(
        &self,
        user: i64,
        class: TimeClass,
    ) -> Result<Option<RatingRow>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT rating, rd, volatility, games FROM ratings WHERE user_id = $1 AND class = $2",
        )
        .bind(user)
        .bind(class.name())
        // A reader: seating players never waits behind moves being stored.
        .fetch_optional(&self.reader)
        .await?;
        row.map(|r| {
            Ok(RatingRow {
                rating: Rating::new(
                    r.try_get("rating")?,
                    r.try_get("rd")?,
                    r.try_get("volatility")?,
                ),
                games: count(r.try_get("games")?),
            })
        })
        .transpose()
    }

    /// Stores both players' new ratings and their history points, and
    /// takes the game's rating out of the outbox, in one transaction; does
    /// nothing if it was not due (rated already). Says whether it stored.
    ///
    /// # Errors
    /// The database refused it; nothing is stored then.
    pub async fn settle(&self, s: &Settlement<'_>) -> Result<bool, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        if !take(&mut tx, s.game_id, Consequence::Rating).await? {
            return Ok(false);
        }
        for (user, rating, games) in s.players {
            sqlx::query(
                "INSERT INTO ratings (user_id, class, rating, rd, volatility, games, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (user_id, class) DO UPDATE SET rating = $3, rd = $4,
                    volatility = $5, games = $6, updated_at = $7",
            )
            .bind(user)
            .bind(s.class.name())
            .bind(rating.rating)
            .bind(rating.deviation)
            .bind(rating.volatility)
            .bind(i64::from(games))
            .bind(ms(s.at_ms))
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history (user_id, class, game_id, at, rating, rd)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(user)
            .bind(s.class.name())
            .bind(s.game_id)
            .bind(ms(s.at_ms))
            .bind(rating.rating)
            .bind(rating.deviation)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The account whose case-folded name is `name_key`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn profile_user(&self, name_key: &str) -> Result<Option<ProfileRow>, sqlx::Error> {
        let row = sqlx::query("SELECT id, name, created_at, bot FROM users WHERE name_key = $1")
            .bind(name_key)
            .fetch_optional(&self.reader)
            .await?;
        row.map(|r| {
            Ok(ProfileRow {
                user: r.try_get("id")?,
                name: r.try_get("name")?,
                created_at_ms: to_u64(r.try_get("created_at")?),
                bot: r.try_get::<i64, _>("bot")? != 0,
            })
        })
        .transpose()
    }

    /// Every rating history point of `user`, oldest first.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn rating_history(&self, user: i64) -> Result<Vec<HistoryRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT class, game_id, at, rating, rd FROM rating_history
             WHERE user_id = $1 ORDER BY at, game_id",
        )
        .bind(user)
        .fetch_all(&self.reader)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let class: String = r.try_get("class")?;
            let Some(class) = TimeClass::from_name(&class) else {
                continue;
            };
            out.push(HistoryRow {
                class,
                game_id: r.try_get("game_id")?,
                at_ms: to_u64(r.try_get("at")?),
                rating: r.try_get("rating")?,
                rd: r.try_get("rd")?,
            });
        }
        Ok(out)
    }

    /// The wins, losses and draws of `user` over every finished game that
    /// was not aborted.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn results(&self, user: i64) -> Result<Results, sqlx::Error> {
        let r = sqlx::query(
            "SELECT
                coalesce(sum(CASE WHEN (sente_user = $1 AND winner = 'sente') OR (gote_user = $1 AND winner = 'gote') THEN 1 ELSE 0 END), 0) AS wins,
                coalesce(sum(CASE WHEN (sente_user = $1 AND winner = 'gote') OR (gote_user = $1 AND winner = 'sente') THEN 1 ELSE 0 END), 0) AS losses,
                coalesce(sum(CASE WHEN winner IS NULL THEN 1 ELSE 0 END), 0) AS draws
             FROM games WHERE over AND reason <> 'abort' AND (sente_user = $1 OR gote_user = $1)",
        )
        .bind(user)
        .fetch_one(&self.reader)
        .await?;
        Ok(Results {
            wins: count(r.try_get("wins")?),
            losses: count(r.try_get("losses")?),
            draws: count(r.try_get("draws")?),
        })
    }

    /// Stores who sits on `side` of game `id` (a seat taken after the game
    /// was created).
    ///
    /// # Errors
    /// The database refused it.
    pub async fn set_game_player(
        &self,
        id: &str,
        side: Color,
        player: &SeatPlayer,
    ) -> Result<(), sqlx::Error> {
        let sql = match side {
            Color::Sente => {
                "UPDATE games SET sente_user = $1, sente_name = $2, sente_lc = $3, sente_guest = $4,
                    sente_rating = $5, sente_rd = $6 WHERE id = $7"
            }
            Color::Gote => {
                "UPDATE games SET gote_user = $1, gote_name = $2, gote_lc = $3, gote_guest = $4,
                    gote_rating = $5, gote_rd = $6 WHERE id = $7"
            }
        };
        sqlx::query(sql)
            .bind(player.user)
            .bind(&player.name)
            .bind(player.name.to_lowercase())
            .bind(player.guest)
            .bind(player.rating.map(|r| r.rating))
            .bind(player.rating.map(|r| r.deviation))
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The ids of every finished game of `user`, oldest first (for the ZIP).
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn finished_games_of(&self, user: i64) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE over AND (sente_user = $1 OR gote_user = $1)
             ORDER BY created_at, id",
        )
        .bind(user)
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(|r| r.try_get::<String, _>("id")).collect()
    }
}
