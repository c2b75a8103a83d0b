//! Puzzle ratings, the accounts' puzzle ratings and best streaks, and the
//! puzzles each account has attempted.

use std::collections::HashMap;

use sqlx::Row;

use super::store::{flag, ms, Store};
use crate::ratings::Rating;

/// What a finished attempt of an account changes.
#[derive(Clone, Copy, Debug)]
pub struct PuzzleAttempt<'a> {
    /// The account.
    pub user: i64,
    /// The puzzle.
    pub puzzle_id: &'a str,
    /// The puzzle's rating when no attempt has changed it yet.
    pub initial: Rating,
    /// Whether the attempt solved it.
    pub solved: bool,
    /// Whether the server served the puzzle to the account (only then does
    /// its first attempt change ratings).
    pub served: bool,
    /// When it was finished.
    pub at_ms: u64,
}

/// The ratings a rated attempt changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedAttempt {
    /// The account's puzzle rating before and after.
    pub player: (Rating, Rating),
    /// The puzzle's rating before and after.
    pub puzzle: (Rating, Rating),
}

/// An account's puzzle figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleStats {
    /// The puzzle rating (`None`: no rated attempt yet).
    pub rating: Option<Rating>,
    /// Puzzles solved (at the first attempt or later).
    pub solved: u32,
    /// Puzzles attempted.
    pub attempted: u32,
    /// The longest streak of the streak mode.
    pub best_streak: u32,
}

fn rating_of(r: &sqlx::any::AnyRow) -> Result<Rating, sqlx::Error> {
    Ok(Rating::new(
        r.try_get("rating")?,
        r.try_get("rd")?,
        r.try_get("volatility")?,
    ))
}

fn count(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

impl Store {
    /// Every puzzle rating an attempt has changed, by puzzle id.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn puzzle_ratings(&self) -> Result<HashMap<String, Rating>, sqlx::Error> {
        let rows = sqlx::query("SELECT puzzle_id, rating, rd, volatility FROM puzzle_ratings")
            .fetch_all(&self.reader)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("puzzle_id")?, rating_of(r)?)))
            .collect()
    }

    /// The rating of puzzle `id`, if an attempt has changed it.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn puzzle_rating(&self, id: &str) -> Result<Option<Rating>, sqlx::Error> {
        let row =
            sqlx::query("SELECT rating, rd, volatility FROM puzzle_ratings WHERE puzzle_id = $1")
                .bind(id)
                .fetch_optional(&self.reader)
                .await?;
        row.as_ref().map(rating_of).transpose()
    }

    /// The puzzles `user` has attempted, each with whether they solved it.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn attempted_puzzles(&self, user: i64) -> Result<Vec<(String, bool)>, sqlx::Error> {
        let rows = sqlx::query("SELECT puzzle_id, solved FROM puzzle_attempts WHERE user_id = $1")
            .bind(user)
            .fetch_all(&self.reader)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("puzzle_id")?, flag(r, "solved")?)))
            .collect()
    }

    /// Whether `user` has finished an attempt at puzzle `puzzle_id`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn attempted_puzzle(&self, user: i64, puzzle_id: &str) -> Result<bool, sqlx::Error> {
        let row = sqlx::query(
            "SELECT 1 AS one FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2",
        )
        .bind(user)
        .bind(puzzle_id)
        .fetch_optional(&self.reader)
        .await?;
        Ok(row.is_some())
    }

    /// Records a finished attempt. The first of `a.user` at the puzzle is
    /// rated if the puzzle was served to it (`a.served`; else it is only
    /// recorded): `rate(player, puzzle)` gives both new ratings from the stored
    /// ones (the player's: [`Rating::NEW`] when missing; the puzzle's:
    /// `a.initial`), read and written in one transaction. A later attempt
    /// only marks the puzzle solved when it is. Returns the rated change.
    ///
    /// # Errors
    /// The database refused it; nothing is stored then.
    pub async fn record_puzzle_attempt(
        &self,
        a: &PuzzleAttempt<'_>,
        rate: impl FnOnce(Rating, Rating) -> (Rating, Rating) + Send,
    ) -> Result<Option<RatedAttempt>, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let first = sqlx::query(
            "INSERT INTO puzzle_attempts (user_id, puzzle_id, first_solved, solved, at)
             VALUES ($1, $2, $3, $3, $4) ON CONFLICT (user_id, puzzle_id) DO NOTHING",
        )
        .bind(a.user)
        .bind(a.puzzle_id)
        .bind(a.solved)
        .bind(ms(a.at_ms))
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if !first {
            if a.solved {
                sqlx::query(
                    "UPDATE puzzle_attempts SET solved = TRUE WHERE user_id = $1 AND puzzle_id = $2",
                )
                .bind(a.user)
                .bind(a.puzzle_id)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            return Ok(None);
        }
        if !a.served {
            tx.commit().await?;
            return Ok(None);
        }
        let player =
            sqlx::query("SELECT rating, rd, volatility FROM puzzle_players WHERE user_id = $1")
                .bind(a.user)
                .fetch_optional(&mut *tx)
                .await?
                .as_ref()
                .map(rating_of)
                .transpose()?
                .unwrap_or(Rating::NEW);
        let puzzle =
            sqlx::query("SELECT rating, rd, volatility FROM puzzle_ratings WHERE puzzle_id = $1")
                .bind(a.puzzle_id)
                .fetch_optional(&mut *tx)
                .await?
                .as_ref()
                .map(rating_of)
                .transpose()?
                .unwrap_or(a.initial);
        let (player_new, puzzle_new) = rate(player, puzzle);
        sqlx::query(
            "INSERT INTO puzzle_players (user_id, rating, rd, volatility, updated_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (user_id) DO UPDATE SET rating = $2, rd = $3, volatility = $4, updated_at = $5",
        )
        .bind(a.user)
        .bind(player_new.rating)
        .bind(player_new.deviation)
        .bind(player_new.volatility)
        .bind(ms(a.at_ms))
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO puzzle_ratings (puzzle_id, rating, rd, volatility, attempts, updated_at)
             VALUES ($1, $2, $3, $4, 1, $5)
             ON CONFLICT (puzzle_id) DO UPDATE SET rating = $2, rd = $3, volatility = $4,
                attempts = puzzle_ratings.attempts + 1, updated_at = $5",
        )
        .bind(a.puzzle_id)
        .bind(puzzle_new.rating)
        .bind(puzzle_new.deviation)
        .bind(puzzle_new.volatility)
        .bind(ms(a.at_ms))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(RatedAttempt {
            player: (player, player_new),
            puzzle: (puzzle, puzzle_new),
        }))
    }

    /// The puzzle figures of `user`.
    ///
    /// # Errors
    /// The database refused the query.
    pub async fn puzzle_stats(&self, user: i64) -> Result<PuzzleStats, sqlx::Error> {
        let player = sqlx::query(
            "SELECT rating, rd, volatility, best_streak FROM puzzle_players WHERE user_id = $1",
        )
        .bind(user)
        .fetch_optional(&self.reader)
        .await?;
        let counts = sqlx::query(
            "SELECT count(*) AS attempted, coalesce(sum(CASE WHEN solved THEN 1 ELSE 0 END), 0) AS solved
             FROM puzzle_attempts WHERE user_id = $1",
        )
        .bind(user)
        .fetch_one(&self.reader)
        .await?;
        let best_streak = match &player {
            Some(r) => count(r.try_get("best_streak")?),
            None => 0,
        };
        Ok(PuzzleStats {
            rating: player.as_ref().map(rating_of).transpose()?,
            solved: count(counts.try_get("solved")?),
            attempted: count(counts.try_get("attempted")?),
            best_streak,
        })
    }

    /// Raises the best streak of `user` to `streak` if it is longer; returns
    /// the best streak.
    ///
    /// # Errors
    /// The database refused it.
    pub async fn raise_puzzle_streak(
        &self,
        user: i64,
        streak: u32,
        at_ms: u64,
    ) -> Result<u32, sqlx::Error> {
        let new = Rating::NEW;
        let row = sqlx::query(
            "INSERT INTO puzzle_players (user_id, rating, rd, volatility, best_streak, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (user_id) DO UPDATE SET best_streak =
                CASE WHEN puzzle_players.best_streak > $5 THEN puzzle_players.best_streak ELSE $5 END
             RETURNING best_streak",
        )
        .bind(user)
        .bind(new.rating)
        .bind(new.deviation)
        .bind(new.volatility)
        .bind(i64::from(streak))
        .bind(ms(at_ms))
        .fetch_one(&self.pool)
        .await?;
        Ok(count(row.try_get("best_streak")?))
    }
}
