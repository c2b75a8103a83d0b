//! Puzzles (`docs/PROTOCOL.md`, "Puzzles"): `GET /api/puzzles/next`,
//! `GET /api/puzzles/daily`, `GET /api/puzzles/{id}`, `POST
//! /api/puzzles/{id}/attempt`, `GET /api/me/puzzles` and `POST
//! /api/me/puzzles/streak`.

use std::collections::HashSet;

use axum::extract::{Path, Query, State};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use shogi_core::Move;

use super::body::{JsonBody, OptionalJsonBody};
use super::session::{ClientAddr, MaybeUser, User};
use crate::board::legal::LegalMoves;
use crate::error::{Error, Problem};
use crate::limits::rates::{Kind as Limit, Limiter};
use crate::puzzles::{self, Filter, Kind, Puzzle, Puzzles, Verdict, MAX_EXCLUDED};
use crate::ratings::Rating;
use crate::time::TimeSource;

fn bad(msg: impl Into<String>) -> Error {
    Error::BadRequest(msg.into())
}

/// A rating as the API shows it (one decimal).
fn rating_json(r: Rating) -> Value {
    let round = |x: f64| (x * 10.0).round() / 10.0;
    json!({"rating": round(r.rating), "deviation": round(r.deviation), "volatility": r.volatility})
}

/// A puzzle as the API shows it; its solution only when asked.
fn puzzle_json(p: &Puzzle, rating: Rating, solution: bool) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("id".into(), json!(p.id));
    out.insert("kind".into(), json!(p.kind.name()));
    out.insert("sfen".into(), json!(p.sfen));
    out.insert("plies".into(), json!(p.plies));
    let side = match p.position.side_to_move() {
        shogi_core::Color::Sente => "sente",
        shogi_core::Color::Gote => "gote",
    };
    out.insert("side_to_move".into(), json!(side));
    out.insert("rating".into(), json!(rating.rating.round()));
    out.insert("legal".into(), json!(LegalMoves::of(&p.position)));
    if solution {
        let moves: Vec<String> = p.solution.iter().map(ToString::to_string).collect();
        out.insert("solution".into(), json!(moves));
        if let (Some(best), Some(second)) = (p.best_cp, p.second_cp) {
            out.insert("best_cp".into(), json!(best));
            out.insert("second_cp".into(), json!(second));
        }
    }
    out
}

/// The `next` query.
#[derive(Debug, Deserialize)]
pub(super) struct NextQuery {
    kind: Option<String>,
    plies: Option<String>,
    rating: Option<String>,
    exclude: Option<String>,
}

impl NextQuery {
    fn filter(&self) -> Result<Filter, Error> {
        let kind = match self.kind.as_deref() {
            None | Some("") => None,
            Some(k) => Some(Kind::from_name(k).ok_or_else(|| bad(format!("unknown kind {k:?}")))?),
        };
        let plies = match self.plies.as_deref() {
            None | Some("") => None,
            Some(n) => Some(
                n.parse::<u32>()
                    .ok()
                    .filter(|n| (1..=63).contains(n))
                    .ok_or_else(|| bad(format!("plies must be 1..=63, not {n:?}")))?,
            ),
        };
        Ok(Filter { kind, plies })
    }

    fn rating(&self) -> Result<Option<f64>, Error> {
        match self.rating.as_deref() {
            None | Some("") => Ok(None),
            Some(r) => r
                .parse::<f64>()
                .ok()
                .filter(|r| (0.0..=4000.0).contains(r))
                .map(Some)
                .ok_or_else(|| bad(format!("rating must be 0..=4000, not {r:?}"))),
        }
    }

    fn exclude(&self) -> Result<HashSet<String>, Error> {
        let ids: HashSet<String> = self
            .exclude
            .as_deref()
            .unwrap_or("")
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if ids.len() > MAX_EXCLUDED {
            return Err(bad(format!("at most {MAX_EXCLUDED} ids in exclude")));
        }
        Ok(ids)
    }
}

/// `GET /api/puzzles/next[?kind=mate&plies=N][&rating=R][&exclude=id,id]`.
pub(super) async fn next(
    State(puzzles): State<Puzzles>,
    MaybeUser(user): MaybeUser,
    Query(q): Query<NextQuery>,
) -> Result<Json<Value>, Error> {
    let filter = q.filter()?;
    let exclude = q.exclude()?;
    let user = user.map(|u| u.id);
    let target = match (q.rating()?, user) {
        (Some(r), _) => r,
        (None, Some(u)) => puzzles.stats(u).await?.rating.unwrap_or(Rating::NEW).rating,
        (None, None) => Rating::NEW.rating,
    };
    let (p, rating) = puzzles
        .next(filter, target, &exclude, user)
        .await?
        .ok_or(Error::NoSuch("puzzle"))?;
    let mut out = puzzle_json(p, rating, false);
    served(&puzzles, user, p, &mut out).await?;
    Ok(Json(Value::Object(out)))
}

/// Adds the token that says `p` was served to account `user` (nothing for
/// a guest): the account's first attempt at it is rated when it sends the
/// token back. Nothing is stored.
async fn served(
    puzzles: &Puzzles,
    user: Option<i64>,
    p: &Puzzle,
    out: &mut Map<String, Value>,
) -> Result<(), Error> {
    if let Some(u) = user {
        out.insert("served".into(), json!(puzzles.served_token(u, p).await?));
    }
    Ok(())
}

/// `GET /api/puzzles/daily`.
pub(super) async fn daily(
    State(puzzles): State<Puzzles>,
    State(time): State<TimeSource>,
    MaybeUser(user): MaybeUser,
) -> Result<Json<Value>, Error> {
    let (p, date) = puzzles
        .daily(time.now_ms())
        .ok_or(Error::NoSuch("puzzle"))?;
    let rating = puzzles.rating(p).await?;
    let mut out = puzzle_json(p, rating, false);
    out.insert("date".into(), json!(date));
    served(&puzzles, user.map(|u| u.id), p, &mut out).await?;
    Ok(Json(Value::Object(out)))
}

/// The `get` query.
#[derive(Debug, Deserialize)]
pub(super) struct GetQuery {
    /// `1` (or `true`): with the solution.
    solution: Option<String>,
}

fn puzzle<'a>(puzzles: &'a Puzzles, id: &str) -> Result<&'a Puzzle, Error> {
    if !puzzles::plausible_id(id) {
        return Err(Error::NoSuch("puzzle"));
    }
    puzzles.get(id)
}

/// `GET /api/puzzles/{id}[?solution=1]`: changes nothing. The solution is
/// shown to a guest, and to an account only once its attempt at the puzzle
/// is over (solved, failed or given up with `POST .../give-up`); before
/// that `403` `solution_after_attempt`.
pub(super) async fn get(
    State(puzzles): State<Puzzles>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    Query(q): Query<GetQuery>,
) -> Result<Json<Value>, Error> {
    let p = puzzle(&puzzles, &id)?;
    let solution = matches!(q.solution.as_deref(), Some("1" | "true"));
    if let (true, Some(account)) = (solution, user) {
        if !puzzles.attempted(account.id, p).await? {
            return Err(Problem::SolutionAfterAttempt.into());
        }
    }
    let rating = puzzles.rating(p).await?;
    Ok(Json(Value::Object(puzzle_json(p, rating, solution))))
}

/// `POST /api/puzzles/{id}/give-up`: the puzzle with its solution. For an
/// account that has not finished an attempt at it, giving up is a failed
/// first attempt (its rating changes as for a wrong move).
pub(super) async fn give_up(
    State(puzzles): State<Puzzles>,
    State(time): State<TimeSource>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    OptionalJsonBody(req): OptionalJsonBody<GiveUpRequest>,
) -> Result<Json<Value>, Error> {
    let p = puzzle(&puzzles, &id)?;
    if let Some(account) = user {
        let served = puzzles
            .was_served(account.id, p, req.served.as_deref())
            .await?;
        puzzles
            .finish(account.id, p, false, served, time.now_ms())
            .await?;
    }
    let rating = puzzles.rating(p).await?;
    Ok(Json(Value::Object(puzzle_json(p, rating, true))))
}

/// `POST /api/puzzles/{id}/give-up` body (optional).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GiveUpRequest {
    /// The token `next` or `daily` gave with the puzzle.
    served: Option<String>,
}

/// A guest's rating, sent with an attempt to learn its change.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GuestRating {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

impl GuestRating {
    fn checked(&self) -> Result<Rating, Error> {
        let ok = (0.0..=4000.0).contains(&self.rating)
            && (1.0..=350.0).contains(&self.deviation)
            && (0.0..=1.0).contains(&self.volatility);
        if !ok {
            return Err(bad(
                "rating must be 0..=4000, deviation 1..=350, volatility 0..=1",
            ));
        }
        Ok(Rating::new(self.rating, self.deviation, self.volatility))
    }
}

/// `POST /api/puzzles/{id}/attempt` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AttemptRequest {
    /// The solver's moves and the server's replies, USI.
    moves: Vec<String>,
    /// A guest's rating: a finished attempt answers with its change.
    rating: Option<GuestRating>,
    /// The token `next` or `daily` gave with the puzzle: an account's
    /// first attempt is rated only with it.
    served: Option<String>,
}

/// The most moves an attempt may send.
const MAX_MOVES: usize = 63;

/// `POST /api/puzzles/{id}/attempt`.
pub(super) async fn attempt(
    State(puzzles): State<Puzzles>,
    State(limiter): State<Limiter>,
    State(time): State<TimeSource>,
    MaybeUser(user): MaybeUser,
    addr: ClientAddr,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<AttemptRequest>,
) -> Result<Json<Value>, Error> {
    let p = puzzle(&puzzles, &id)?;
    if req.moves.len() > MAX_MOVES {
        return Err(bad(format!("at most {MAX_MOVES} moves")));
    }
    let moves = req
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            m.parse::<Move>()
                .map_err(|e| bad(format!("moves[{i}]: {m:?}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let guest = req.rating.as_ref().map(GuestRating::checked).transpose()?;
    limiter.check(Limit::Puzzles, &addr.key()).await?;
    let verdict = puzzles.attempt(&id, &moves).await?;
    let mut out = match verdict {
        Verdict::Continue(reply) => {
            let mut line = moves;
            line.push(reply);
            let after = puzzles::position_after(p, &line)
                .map_err(|e| Error::Internal(format!("puzzle reply: {e}")))?;
            return Ok(Json(json!({
                "result": "continue",
                "reply": reply.to_string(),
                "sfen": after.to_sfen(),
                "legal": LegalMoves::of(&after),
            })));
        }
        Verdict::Solved => json!({"result": "solved"}),
        Verdict::Wrong(why) => {
            let mut w = json!({"result": "wrong", "why": why.name()});
            if let puzzles::Why::Escapes(reply) = why {
                w["reply"] = json!(reply.to_string());
            }
            w
        }
    };
    let solved = verdict == Verdict::Solved;
    if let Some(account) = user {
        let served = puzzles
            .was_served(account.id, p, req.served.as_deref())
            .await?;
        if let Some(rated) = puzzles
            .finish(account.id, p, solved, served, time.now_ms())
            .await?
        {
            out["rated"] = json!({
                "player": {"before": rating_json(rated.player.0), "after": rating_json(rated.player.1)},
                "puzzle": {"before": rating_json(rated.puzzle.0), "after": rating_json(rated.puzzle.1)},
            });
        }
    } else if let Some(g) = guest {
        let puzzle_rating = puzzles.rating(p).await?;
        out["guest_rating"] = rating_json(puzzles::rate_guest(g, puzzle_rating, solved));
    }
    Ok(Json(out))
}

/// `GET /api/me/puzzles`.
pub(super) async fn me(
    State(puzzles): State<Puzzles>,
    User(account): User,
) -> Result<Json<Value>, Error> {
    let s = puzzles.stats(account.id).await?;
    Ok(Json(json!({
        "rating": rating_json(s.rating.unwrap_or(Rating::NEW)),
        "rated": s.rating.is_some(),
        "solved": s.solved,
        "attempted": s.attempted,
        "best_streak": s.best_streak,
    })))
}

/// `POST /api/me/puzzles/streak` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StreakRequest {
    streak: u32,
}

/// `POST /api/me/puzzles/streak`: a streak ended; the best one is kept.
pub(super) async fn streak(
    State(puzzles): State<Puzzles>,
    State(time): State<TimeSource>,
    User(account): User,
    JsonBody(req): JsonBody<StreakRequest>,
) -> Result<Json<Value>, Error> {
    let best = puzzles
        .record_streak(account.id, req.streak, time.now_ms())
        .await?;
    Ok(Json(json!({"best_streak": best})))
}
