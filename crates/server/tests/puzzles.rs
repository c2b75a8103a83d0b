//! Puzzles over HTTP: the routes and their errors, attempts judged move by
//! move, the ratings an account's first attempt changes (checked against
//! Glicko-2 computed here from the ratings before), guests' ratings, the
//! daily puzzle, streaks and the rate limit of attempts. The puzzles are
//! those of the embedded set, chosen by what they are, not by id.

mod common;

use std::time::Duration;

use common::{header, TempDir, TestServer};
use serde_json::{json, Value};
use shogi_server::accounts::name_key;
use shogi_server::db::Store;
use shogi_server::limits::rates::{Rate, RateLimits};
use shogi_server::puzzles::{served_token, Kind, PuzzleSet};
use shogi_server::ratings::{Glicko2, Rating, Score};

const PASSWORD: &str = "correct horse";

fn set() -> std::sync::Arc<PuzzleSet> {
    PuzzleSet::embedded().unwrap()
}

/// A mate puzzle of at least 3 plies, and a best-move one.
fn mate3() -> String {
    let s = set();
    let p = s
        .all()
        .iter()
        .find(|p| p.kind == Kind::Mate && p.plies >= 3);
    p.expect("a mate puzzle of 3 plies or more").id.clone()
}

fn best() -> String {
    let s = set();
    let p = s.all().iter().find(|p| p.kind == Kind::Best);
    p.expect("a best-move puzzle").id.clone()
}

fn solution(id: &str) -> Vec<String> {
    set()
        .get(id)
        .unwrap()
        .solution
        .iter()
        .map(ToString::to_string)
        .collect()
}

async fn register(ts: &TestServer, name: &str) -> String {
    let body = json!({"name": name, "password": PASSWORD});
    let (status, head, _) = ts
        .request_with("POST", "/api/account", &[], Some(&body))
        .await;
    assert_eq!(status, 201);
    let set = header(&head, "set-cookie").unwrap();
    format!("Cookie: {}", set.split(';').next().unwrap())
}

/// The token `GET /api/puzzles/next` would give account `name` with puzzle
/// `id`, made from the secret the server keeps in `tmp`'s database (made
/// here first if the server has not made it yet: the first stored wins).
async fn served(tmp: &TempDir, name: &str, id: &str) -> String {
    let store = Store::open(&tmp.db()).await.unwrap();
    let key = store
        .secret("puzzle_serve", "made-by-the-test")
        .await
        .unwrap();
    let user = store.user_by_key(&name_key(name)).await.unwrap().unwrap();
    store.close().await;
    served_token(&key, user.id, id)
}

async fn attempt(
    ts: &TestServer,
    id: &str,
    moves: &[String],
    cookie: Option<&str>,
) -> (u16, Value) {
    attempt_served(ts, id, moves, cookie, None).await
}

async fn attempt_served(
    ts: &TestServer,
    id: &str,
    moves: &[String],
    cookie: Option<&str>,
    served: Option<&str>,
) -> (u16, Value) {
    let body = match served {
        Some(t) => json!({ "moves": moves, "served": t }),
        None => json!({ "moves": moves }),
    };
    let headers: Vec<&str> = cookie.into_iter().collect();
    let path = format!("/api/puzzles/{id}/attempt");
    let (status, _, v) = ts.request_with("POST", &path, &headers, Some(&body)).await;
    (status, v)
}

/// Plays the stored solution through, taking the server's replies; the answers.
async fn play_through(ts: &TestServer, id: &str, cookie: Option<&str>) -> Vec<Value> {
    play_through_served(ts, id, cookie, None).await
}

async fn play_through_served(
    ts: &TestServer,
    id: &str,
    cookie: Option<&str>,
    served: Option<&str>,
) -> Vec<Value> {
    let sol = solution(id);
    let mut moves: Vec<String> = Vec::new();
    let mut answers = Vec::new();
    let mut i = 0;
    while i < sol.len() {
        moves.push(sol[i].clone());
        let (status, a) = attempt_served(ts, id, &moves, cookie, served).await;
        assert_eq!(status, 200, "{a}");
        answers.push(a.clone());
        if a["result"] != "continue" {
            break;
        }
        let reply = a["reply"].as_str().unwrap().to_string();
        // The stored reply is preferred among the longest defences.
        moves.push(reply);
        i += 2;
    }
    answers
}

#[tokio::test]
async fn a_puzzle_is_shown_without_its_solution_unless_asked() {
    let tmp = TempDir::new("puzzles-get");
    let ts = TestServer::start(&tmp.db()).await;
    let id = mate3();
    let (status, p) = ts.request("GET", &format!("/api/puzzles/{id}"), None).await;
    assert_eq!(status, 200);
    let stored = set().get(&id).unwrap().clone();
    assert_eq!(p["id"], id);
    assert_eq!(p["kind"], "mate");
    assert_eq!(p["sfen"], stored.sfen);
    assert_eq!(p["plies"], stored.plies);
    assert!(p.get("solution").is_none(), "{p}");
    assert!(p["legal"]["dests"].is_object() || p["legal"]["drops"].is_object());
    let (_, p) = ts
        .request("GET", &format!("/api/puzzles/{id}?solution=1"), None)
        .await;
    assert_eq!(p["solution"], json!(solution(&id)));
    for path in [
        "/api/puzzles/no-such",
        "/api/puzzles/a%20b",
        "/api/puzzles/no-such/attempt",
    ] {
        let method = if path.ends_with("attempt") {
            "POST"
        } else {
            "GET"
        };
        let (status, e) = ts
            .request(method, path, Some(&json!({"moves": ["7g7f"]})))
            .await;
        assert_eq!(status, 404, "{path}: {e}");
        assert_eq!(
            e,
            json!({"error": "no such puzzle", "code": "no_such", "what": "puzzle"})
        );
    }
    ts.shutdown().await;
}

#[tokio::test]
async fn the_stored_solution_is_answered_continue_then_solved() {
    let tmp = TempDir::new("puzzles-solve");
    let ts = TestServer::start(&tmp.db()).await;
    let id = mate3();
    let sol = solution(&id);
    let answers = play_through(&ts, &id, None).await;
    assert_eq!(answers.last().unwrap(), &json!({"result": "solved"}));
    assert_eq!(answers.len(), sol.len().div_ceil(2));
    assert_eq!(answers[0]["result"], "continue");
    assert_eq!(
        answers[0]["reply"],
        sol[1].as_str(),
        "the stored reply preferred"
    );
    ts.shutdown().await;
}

#[tokio::test]
async fn malformed_attempts_are_refused_with_the_json_error() {
    let tmp = TempDir::new("puzzles-bad");
    let ts = TestServer::start(&tmp.db()).await;
    let id = mate3();
    let sol = solution(&id);
    let bad = |moves: Vec<String>| {
        let (ts, id) = (&ts, &id);
        async move { attempt(ts, id, &moves, None).await }
    };
    // An even count, an illegal move, a reply that is not the server's, too many moves.
    let (s, e) = bad(sol[..2].to_vec()).await;
    assert_eq!(s, 400, "{e}");
    let (s, e) = bad(vec!["5a5a".into()]).await;
    assert_eq!(s, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("moves[0]"), "{e}");
    let (_, first) = bad(vec![sol[0].clone()]).await;
    let reply = first["reply"].as_str().unwrap();
    let s = set();
    let mut pos = s.get(&id).unwrap().position.clone();
    pos.play(sol[0].parse().unwrap()).unwrap();
    if let Some(other) = pos
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .find(|m| m != reply)
    {
        let (s, e) = bad(vec![sol[0].clone(), other, sol[2].clone()]).await;
        assert_eq!(s, 400, "{e}");
        assert!(
            e["error"]
                .as_str()
                .unwrap()
                .contains("not the server's reply"),
            "{e}"
        );
    }
    let (s, _) = bad(vec!["7g7f".into(); 65]).await;
    assert_eq!(s, 400);
    let (s, e) = ts
        .request(
            "POST",
            &format!("/api/puzzles/{id}/attempt"),
            Some(&json!({"moves": ["zz"]})),
        )
        .await;
    assert_eq!(s, 400, "{e}");
    for q in [
        "kind=tsume",
        "plies=0",
        "plies=x",
        "rating=-5",
        "rating=nan",
    ] {
        let (s, e) = ts
            .request("GET", &format!("/api/puzzles/next?{q}"), None)
            .await;
        assert_eq!(s, 400, "{q}: {e}");
        assert!(e["error"].is_string());
    }
    ts.shutdown().await;
}

#[tokio::test]
async fn a_best_move_puzzle_takes_its_move_and_says_not_best_otherwise() {
    let tmp = TempDir::new("puzzles-best");
    let ts = TestServer::start(&tmp.db()).await;
    let id = best();
    let sol = solution(&id);
    assert_eq!(
        attempt(&ts, &id, &sol, None).await.1,
        json!({"result": "solved"})
    );
    let s = set();
    let other = s
        .get(&id)
        .unwrap()
        .position
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .find(|m| *m != sol[0])
        .unwrap();
    let (status, a) = attempt(&ts, &id, &[other], None).await;
    assert_eq!(status, 200);
    assert_eq!(a, json!({"result": "wrong", "why": "not_best"}));
    ts.shutdown().await;
}

#[tokio::test]
async fn next_honours_the_filters_and_the_rating() {
    let tmp = TempDir::new("puzzles-next");
    let ts = TestServer::start(&tmp.db()).await;
    let s = set();
    for p in s.all() {
        let (status, n) = ts
            .request(
                "GET",
                &format!("/api/puzzles/next?kind=mate&plies={}", p.plies),
                None,
            )
            .await;
        if p.kind == Kind::Mate {
            assert_eq!(status, 200);
            assert_eq!(
                (n["kind"].as_str(), n["plies"].as_u64()),
                (Some("mate"), Some(u64::from(p.plies)))
            );
        }
    }
    let (_, n) = ts.request("GET", "/api/puzzles/next?kind=best", None).await;
    assert_eq!(n["kind"], "best");
    let (status, e) = ts
        .request("GET", "/api/puzzles/next?kind=mate&plies=63", None)
        .await;
    assert_eq!(
        (status, e),
        (
            404,
            json!({"error": "no such puzzle", "code": "no_such", "what": "puzzle"})
        )
    );
    // A rating far above every puzzle: one of the hardest comes.
    let hardest = s.all().iter().map(|p| p.rating).fold(0.0, f64::max);
    let (_, n) = ts
        .request("GET", "/api/puzzles/next?rating=4000", None)
        .await;
    let near: Vec<f64> = {
        let mut r: Vec<f64> = s.all().iter().map(|p| p.rating).collect();
        r.sort_by(|a, b| b.total_cmp(a));
        r.truncate(8);
        r
    };
    assert!(
        near.contains(&n["rating"].as_f64().unwrap()),
        "{n} not among {near:?} (max {hardest})"
    );
    // Excluded puzzles are not offered while others remain: of the mates in
    // one, all but the first excluded.
    let mates_in_one: Vec<&str> = s
        .all()
        .iter()
        .filter(|p| p.kind == Kind::Mate && p.plies == 1)
        .map(|p| p.id.as_str())
        .collect();
    assert!(mates_in_one.len() > 1);
    let (_, n) = ts
        .request(
            "GET",
            &format!(
                "/api/puzzles/next?kind=mate&plies=1&exclude={}",
                mates_in_one[1..].join(",")
            ),
            None,
        )
        .await;
    assert_eq!(n["id"], mates_in_one[0], "{n}");
    ts.shutdown().await;
}

#[tokio::test]
async fn an_accounts_first_attempt_changes_both_ratings_as_glicko2_says() {
    let tmp = TempDir::new("puzzles-rated");
    let ts = TestServer::start(&tmp.db()).await;
    let cookie = register(&ts, "solver").await;
    let id = mate3();
    let p = set().get(&id).unwrap().clone();
    // Not served to this account (another's token, or none): solved, not rated.
    let other = register(&ts, "other").await;
    let token = served(&tmp, "solver", &id).await;
    let theirs = play_through_served(&ts, &id, Some(&other), Some(&token)).await;
    assert_eq!(theirs.last().unwrap()["result"], "solved");
    assert!(theirs.last().unwrap().get("rated").is_none());
    let answers = play_through_served(&ts, &id, Some(&cookie), Some(&token)).await;
    let last = answers.last().unwrap();
    assert_eq!(last["result"], "solved");
    // Independent truth: the paper's Glicko-2 from the ratings before (a new
    // player; the file's rating with deviation 200).
    let puzzle = Rating::new(p.rating, 200.0, 0.06);
    let g = Glicko2::default();
    let player_after = g.rate(Rating::NEW, &[(puzzle, Score::Win)]);
    let puzzle_after = g.rate(puzzle, &[(Rating::NEW, Score::Loss)]);
    let close = |v: &Value, x: f64| (v.as_f64().unwrap() - x).abs() < 0.06;
    assert!(
        close(&last["rated"]["player"]["before"]["rating"], 1500.0),
        "{last}"
    );
    assert!(
        close(
            &last["rated"]["player"]["after"]["rating"],
            player_after.rating
        ),
        "{last}"
    );
    assert!(
        close(
            &last["rated"]["puzzle"]["after"]["rating"],
            puzzle_after.rating
        ),
        "{last}"
    );
    assert!(player_after.rating > 1500.0 && puzzle_after.rating < p.rating);
    // The puzzle shows its new rating; a second attempt changes nothing.
    let (_, shown) = ts.request("GET", &format!("/api/puzzles/{id}"), None).await;
    assert!((shown["rating"].as_f64().unwrap() - puzzle_after.rating.round()).abs() < 0.5);
    let again = play_through(&ts, &id, Some(&cookie)).await;
    assert!(again.last().unwrap().get("rated").is_none());
    let (status, _, me) = ts
        .request_with("GET", "/api/me/puzzles", &[&cookie], None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        (me["solved"].as_u64(), me["attempted"].as_u64()),
        (Some(1), Some(1))
    );
    assert!(close(&me["rating"]["rating"], player_after.rating), "{me}");
    // The next puzzle is not the one solved (while others of its kind remain).
    let others = set()
        .all()
        .iter()
        .filter(|q| q.kind == p.kind && q.plies == p.plies)
        .count();
    if others > 1 {
        let path = format!("/api/puzzles/next?kind=mate&plies={}", p.plies);
        let (_, _, n) = ts.request_with("GET", &path, &[&cookie], None).await;
        assert_ne!(n["id"], id.as_str());
    }
    ts.shutdown().await;
}

#[tokio::test]
async fn a_wrong_first_attempt_lowers_the_rating_and_a_guest_gets_its_change_unstored() {
    let tmp = TempDir::new("puzzles-wrong");
    let ts = TestServer::start(&tmp.db()).await;
    let cookie = register(&ts, "loser").await;
    let id = best();
    let s = set();
    let p = s.get(&id).unwrap();
    let other = p
        .position
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .find(|m| *m != solution(&id)[0])
        .unwrap();
    let token = served(&tmp, "loser", &id).await;
    let (_, a) = attempt_served(
        &ts,
        &id,
        std::slice::from_ref(&other),
        Some(&cookie),
        Some(&token),
    )
    .await;
    assert_eq!(a["result"], "wrong");
    let after = a["rated"]["player"]["after"]["rating"].as_f64().unwrap();
    assert!(after < 1500.0, "{a}");
    // A guest sends its rating and gets the new one; nothing is stored.
    let body = json!({"moves": [solution(&id)[0]], "rating": {"rating": 1400.0, "deviation": 100.0, "volatility": 0.06}});
    let (status, _, g) = ts
        .request_with(
            "POST",
            &format!("/api/puzzles/{id}/attempt"),
            &[],
            Some(&body),
        )
        .await;
    assert_eq!(status, 200);
    let want = Glicko2::default().rate(
        Rating::new(1400.0, 100.0, 0.06),
        &[(
            Rating::new(
                a["rated"]["puzzle"]["after"]["rating"].as_f64().unwrap(),
                a["rated"]["puzzle"]["after"]["deviation"].as_f64().unwrap(),
                a["rated"]["puzzle"]["after"]["volatility"]
                    .as_f64()
                    .unwrap(),
            ),
            Score::Win,
        )],
    );
    assert!(
        (g["guest_rating"]["rating"].as_f64().unwrap() - want.rating).abs() < 0.2,
        "{g} vs {want:?}"
    );
    let bad = json!({"moves": [solution(&id)[0]], "rating": {"rating": 1400.0, "deviation": 0.0, "volatility": 0.06}});
    let (status, _, _) = ts
        .request_with(
            "POST",
            &format!("/api/puzzles/{id}/attempt"),
            &[],
            Some(&bad),
        )
        .await;
    assert_eq!(status, 400);
    ts.shutdown().await;
}

#[tokio::test]
async fn me_puzzles_needs_an_account_and_a_streak_counts_only_solved_puzzles() {
    let tmp = TempDir::new("puzzles-streak");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, e) = ts.request("GET", "/api/me/puzzles", None).await;
    assert_eq!(
        (status, e),
        (
            401,
            json!({"error": "not logged in", "code": "not_logged_in"})
        )
    );
    let cookie = register(&ts, "streaker").await;
    let streak = |n: u32| {
        let (ts, cookie) = (&ts, &cookie);
        async move {
            let body = json!({ "streak": n });
            ts.request_with("POST", "/api/me/puzzles/streak", &[cookie], Some(&body))
                .await
                .2
        }
    };
    // Nothing solved yet: a claimed streak of 5 counts as 0.
    assert_eq!(streak(5).await, json!({"best_streak": 0}));
    play_through(&ts, &mate3(), Some(&cookie)).await;
    assert_eq!(
        attempt(&ts, &best(), &solution(&best()), Some(&cookie))
            .await
            .1["result"],
        "solved"
    );
    assert_eq!(streak(2).await, json!({"best_streak": 2}));
    assert_eq!(
        streak(1).await,
        json!({"best_streak": 2}),
        "the best is kept"
    );
    let (_, _, me) = ts
        .request_with("GET", "/api/me/puzzles", &[&cookie], None)
        .await;
    assert_eq!(me["best_streak"], 2);
    ts.shutdown().await;
}

#[tokio::test]
async fn the_daily_puzzle_is_one_puzzle_all_day_and_changes_with_the_date() {
    let tmp = TempDir::new("puzzles-daily");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, first) = ts.request("GET", "/api/puzzles/daily", None).await;
    assert_eq!(status, 200);
    assert!(set().get(first["id"].as_str().unwrap()).is_some());
    let date = first["date"].as_str().unwrap().to_string();
    assert!(
        date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-',
        "{date}"
    );
    let (_, again) = ts.request("GET", "/api/puzzles/daily", None).await;
    assert_eq!(again, first);
    let mut ids = std::collections::HashSet::new();
    for _ in 0..30 {
        ts.advance(86_400_000);
        let (_, d) = ts.request("GET", "/api/puzzles/daily", None).await;
        assert_ne!(d["date"], date.as_str());
        ids.insert(d["id"].as_str().unwrap().to_string());
    }
    assert!(ids.len() > 1, "30 days, one puzzle: {ids:?}");
    ts.shutdown().await;
}

#[tokio::test]
async fn attempts_are_rate_limited_per_address() {
    let tmp = TempDir::new("puzzles-limit");
    let ts = TestServer::start_with_limits(
        &tmp.db(),
        &RateLimits {
            puzzles: Rate::new(3, Duration::from_secs(60)),
            ..RateLimits::unlimited()
        },
    )
    .await;
    let id = best();
    let sol = solution(&id);
    for _ in 0..3 {
        assert_eq!(attempt(&ts, &id, &sol, None).await.0, 200);
    }
    let body = json!({ "moves": sol });
    let (status, head, e) = ts
        .request_with(
            "POST",
            &format!("/api/puzzles/{id}/attempt"),
            &[],
            Some(&body),
        )
        .await;
    assert_eq!(status, 429, "{e}");
    assert_eq!(header(&head, "retry-after"), Some("60"));
    assert_eq!(
        e,
        json!({"error": "too many puzzle moves; try again in 60 s", "code": "too_many_requests", "retry_after_s": 60})
    );
    // Reading puzzles is not limited.
    assert_eq!(ts.request("GET", "/api/puzzles/daily", None).await.0, 200);
    ts.advance(60_000);
    assert_eq!(attempt(&ts, &id, &sol, None).await.0, 200);
    ts.shutdown().await;
}

#[tokio::test]
async fn a_get_changes_nothing_and_an_account_sees_the_solution_after_giving_up() {
    let tmp = TempDir::new("puzzles-peek");
    let ts = TestServer::start(&tmp.db()).await;
    let cookie = register(&ts, "peeker").await;
    let id = mate3();
    let path = format!("/api/puzzles/{id}?solution=1");
    let mine = || async {
        let (_, _, me) = ts
            .request_with("GET", "/api/me/puzzles", &[&cookie], None)
            .await;
        me
    };
    // A guest reads it; the account is refused, and nothing is recorded
    // (a cross-site link to this URL used to fail the victim's puzzle).
    let (status, guest) = ts.request("GET", &path, None).await;
    assert_eq!(status, 200);
    assert!(guest["solution"].is_array());
    let (status, _, refused) = ts.request_with("GET", &path, &[&cookie], None).await;
    assert_eq!(
        (status, &refused["code"]),
        (403, &json!("solution_after_attempt"))
    );
    assert_eq!(mine().await["attempted"], 0);
    // Giving up is a POST: a failed first attempt, then the solution.
    let give_up = format!("/api/puzzles/{id}/give-up");
    let body = json!({"served": served(&tmp, "peeker", &id).await});
    let (status, _, p) = ts
        .request_with("POST", &give_up, &[&cookie], Some(&body))
        .await;
    assert_eq!(status, 200);
    assert_eq!(p["solution"], guest["solution"]);
    let me = mine().await;
    assert_eq!(
        (me["attempted"].as_u64(), me["solved"].as_u64()),
        (Some(1), Some(0))
    );
    assert!(me["rating"]["rating"].as_f64().unwrap() < 1500.0, "{me}");
    let (status, _, _) = ts.request_with("GET", &path, &[&cookie], None).await;
    assert_eq!(status, 200);
    // Solving it afterwards counts it solved but rates nothing.
    let answers = play_through(&ts, &id, Some(&cookie)).await;
    assert!(answers.last().unwrap().get("rated").is_none());
    ts.shutdown().await;
}

#[tokio::test]
async fn only_a_puzzle_the_server_served_moves_an_accounts_rating() {
    let tmp = TempDir::new("puzzles-served");
    let ts = TestServer::start(&tmp.db()).await;
    let cookie = register(&ts, "served").await;
    // Asked for by id (a link, a puzzle read elsewhere): solved, never rated.
    let id = mate3();
    let answers = play_through(&ts, &id, Some(&cookie)).await;
    assert_eq!(answers.last().unwrap()["result"], "solved");
    assert!(answers.last().unwrap().get("rated").is_none());
    let (_, _, me) = ts
        .request_with("GET", "/api/me/puzzles", &[&cookie], None)
        .await;
    assert_eq!(me["attempted"], 1);
    assert!(
        (me["rating"]["rating"].as_f64().unwrap() - 1500.0).abs() < 0.01,
        "{me}"
    );
    // Served by `next` (a GET that stores nothing): its token rates the first attempt.
    let (_, _, next) = ts
        .request_with("GET", "/api/puzzles/next", &[&cookie], None)
        .await;
    let next_id = next["id"].as_str().unwrap().to_string();
    let token = next["served"].as_str().unwrap().to_string();
    assert_eq!(token, served(&tmp, "served", &next_id).await);
    let answers = play_through_served(&ts, &next_id, Some(&cookie), Some(&token)).await;
    assert!(
        answers.last().unwrap().get("rated").is_some(),
        "{answers:?}"
    );
    // A guest gets no token.
    let (_, guest) = ts.request("GET", "/api/puzzles/next", None).await;
    assert!(guest.get("served").is_none());
    // The daily puzzle is served to everyone who asks for it.
    let (_, _, daily) = ts
        .request_with("GET", "/api/puzzles/daily", &[&cookie], None)
        .await;
    let daily_id = daily["id"].as_str().unwrap();
    assert_eq!(
        daily["served"].as_str().unwrap(),
        served(&tmp, "served", daily_id).await
    );
    ts.shutdown().await;
}
