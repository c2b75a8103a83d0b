//! Moderation (issue 43, point 11): a moderator disables and re-enables an
//! account (its sessions, sockets and seeks go, it cannot log in, its games
//! stay), annuls a game's rating effect (ratings recomputed from the
//! history for everyone affected), hides a chat message; players report
//! games and chat messages; every action is in the log. On `SQLite`, and on
//! PostgreSQL when `SHOGI_TEST_POSTGRES` is set.

mod common;

use common::{account, ratings_of, seek_game, TempDir, TestServer, PASSWORD};
use serde_json::{json, Value};
use shogi_server::accounts::{admin, Role};
use shogi_server::limits::rates::RateLimits;
use shogi_server::ratings::{Glicko2, Rating, Score};

/// Registers `name` and makes it a moderator (as `shogi user role` does).
async fn moderator(s: &TestServer, dir: &TempDir, name: &str) -> (String, String) {
    let session = account(s, name).await;
    admin::set_role(&dir.db(), name, Role::Moderator)
        .await
        .unwrap();
    session
}

async fn call(
    s: &TestServer,
    who: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, _, answer) = s.request_with(method, path, &[who], body.as_ref()).await;
    (status, answer)
}

async fn login(s: &TestServer, name: &str, password: &str) -> (u16, Value) {
    s.request(
        "POST",
        "/api/session",
        Some(&json!({"name": name, "password": password})),
    )
    .await
}

const CLASSICAL: &str = r#"{"main_ms": 1800000, "byoyomi_ms": 30000}"#;

/// A rated game from `sente`'s seek, two moves, then `loser` resigns.
async fn rated_game(
    s: &TestServer,
    sente: &(String, String),
    gote: &(String, String),
    sente_wins: bool,
) -> String {
    let time: Value = serde_json::from_str(CLASSICAL).unwrap();
    let (game, mut a, mut b) = seek_game(
        s,
        json!({"time": time, "rated": true, "side": "sente"}),
        sente,
        gote,
    )
    .await;
    a.play("7g7f").await;
    b.play("3c3d").await;
    let loser = if sente_wins { &mut b } else { &mut a };
    loser.send(json!({"type": "resign"})).await;
    a.state_where(|st| st["status"]["over"] == true).await;
    game
}

fn classical(profile: &Value) -> Option<(i64, i64)> {
    let c = &profile["ratings"]["classical"];
    Some((c["rating"].as_i64()?, c["games"].as_i64()?))
}

#[tokio::test]
async fn a_disabled_account_loses_its_sessions_sockets_and_seeks_and_keeps_its_games() {
    let dir = TempDir::new("mod-disable");
    let s = TestServer::start(&dir.db()).await;
    let m = moderator(&s, &dir, "Модератор").await;
    let alice = account(&s, "Алиса").await;
    let bob = account(&s, "Bob").await;

    // Players do not moderate.
    let (status, body) = call(&s, &alice.0, "GET", "/api/admin/accounts?q=a", None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("moderators_only")),
        "{body}"
    );

    // Alice is playing, and has a seek open.
    let (game, mut a, _b) = seek_game(&s, json!({"side": "sente"}), &alice, &bob).await;
    a.state_where(|_| true).await;
    let (status, _, seek) = s
        .request_with("POST", "/api/seeks", &[&alice.0], Some(&json!({})))
        .await;
    assert_eq!(status, 201, "{seek}");
    let (_, lobby) = s.request("GET", "/api/lobby", None).await;
    assert_eq!(lobby["seeks"].as_array().unwrap().len(), 1, "{lobby}");

    // Found by the beginning of the name, in any case.
    let (status, found) = call(&s, &m.0, "GET", "/api/admin/accounts?q=%D0%B0%D0%BB", None).await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["accounts"][0]["name"], "Алиса");
    assert_eq!(found["accounts"][0]["disabled"], false);

    // A reason is required.
    let path = "/api/admin/accounts/%D0%B0%D0%BB%D0%B8%D1%81%D0%B0/disable";
    let (status, body) = call(&s, &m.0, "POST", path, Some(json!({"reason": "  "}))).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = call(
        &s,
        &m.0,
        "POST",
        path,
        Some(json!({"reason": "оскорбления"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["account"]["disabled"], true);

    // Her socket closes, her seek is gone, her cookie is dead, she cannot log in.
    assert!(
        a.closed().await,
        "the game socket of a disabled account closes"
    );
    let (_, lobby) = s.request("GET", "/api/lobby", None).await;
    assert_eq!(lobby["seeks"], json!([]), "{lobby}");
    let (status, _) = call(&s, &alice.0, "GET", "/api/me", None).await;
    assert_eq!(status, 401);
    let (status, body) = login(&s, "Алиса", PASSWORD).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("account_disabled")),
        "{body}"
    );
    // A wrong password says nothing of it.
    let (status, body) = login(&s, "Алиса", "not her password at all").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("wrong_login")),
        "{body}"
    );
    // Her game stays.
    let (status, state) = s.request("GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(state["players"]["sente"]["name"], "Алиса");

    // Not oneself; another moderator only by an administrator.
    let path_self =
        "/api/admin/accounts/%D0%9C%D0%BE%D0%B4%D0%B5%D1%80%D0%B0%D1%82%D0%BE%D1%80/disable";
    let (status, _) = call(&s, &m.0, "POST", path_self, Some(json!({"reason": "x"}))).await;
    assert_eq!(status, 409);
    let m2 = moderator(&s, &dir, "Second").await;
    let (status, body) = call(&s, &m2.0, "POST", path_self, Some(json!({"reason": "x"}))).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("admins_only")),
        "{body}"
    );
    // Roles are set by administrators only.
    let (status, body) = call(
        &s,
        &m.0,
        "PUT",
        "/api/admin/accounts/Bob/role",
        Some(json!({"role": "moderator", "reason": "x"})),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("admins_only")),
        "{body}"
    );

    // Enabled again: she logs in.
    let enable = "/api/admin/accounts/%D0%90%D0%BB%D0%B8%D1%81%D0%B0/enable";
    let (status, body) = call(
        &s,
        &m.0,
        "POST",
        enable,
        Some(json!({"reason": "извинилась"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(login(&s, "Алиса", PASSWORD).await.0, 200);

    // The log: who, what, on whom, why; the newest first.
    let (status, log) = call(&s, &m.0, "GET", "/api/admin/log", None).await;
    assert_eq!(status, 200);
    let lines = log["log"].as_array().unwrap();
    let first: Vec<_> = lines
        .iter()
        .map(|l| {
            (
                l["moderator"].as_str().unwrap(),
                l["action"].as_str().unwrap(),
                l["reason"].as_str().unwrap(),
            )
        })
        .collect();
    // The roles given from the command line are logged too.
    assert_eq!(
        first,
        [
            ("Модератор", "enable", "извинилась"),
            ("shogi user role", "role", "set from the command line"),
            ("Модератор", "disable", "оскорбления"),
            ("shogi user role", "role", "set from the command line"),
        ]
    );
    assert_eq!(lines[1]["target"], "Second: moderator");
    assert_eq!(lines[0]["target"], "Алиса");
    s.shutdown().await;
}

#[tokio::test]
async fn an_annulled_game_takes_its_rating_effect_back_from_everyone_it_reached() {
    let dir = TempDir::new("mod-annul");
    let s = TestServer::start(&dir.db()).await;
    let m = moderator(&s, &dir, "Mod").await;
    let alice = account(&s, "Alice").await;
    let bob = account(&s, "Bob").await;
    let carol = account(&s, "Carol").await;

    // Alice beats Bob; then Bob, weakened, beats Carol.
    let first = rated_game(&s, &alice, &bob, true).await;
    rated_game(&s, &bob, &carol, true).await;
    let carol_before = classical(&ratings_of(&s, "Carol").await).unwrap();
    assert!(classical(&ratings_of(&s, "Alice").await).unwrap().0 > 1500);

    // Players cannot annul.
    let path = format!("/api/admin/games/{first}/annul");
    let (status, _) = call(&s, &alice.0, "POST", &path, Some(json!({"reason": "x"}))).await;
    assert_eq!(status, 403);

    let (status, body) = call(
        &s,
        &m.0,
        "POST",
        &path,
        Some(json!({"reason": "договорная партия"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let mut changed: Vec<_> = body["ratings_changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    changed.sort();
    assert_eq!(changed, ["Alice", "Bob", "Carol"]);

    // Alice is back where she started; Bob and Carol as if the first game
    // never counted: one game each between two new players.
    let alice_now = ratings_of(&s, "Alice").await;
    assert_eq!(classical(&alice_now), None, "{alice_now}");
    assert_eq!(
        alice_now["history"]["classical"]
            .as_array()
            .map_or(0, Vec::len),
        0
    );
    let system = Glicko2::default();
    let win = system.rate(Rating::NEW, &[(Rating::NEW, Score::Win)]);
    let loss = system.rate(Rating::NEW, &[(Rating::NEW, Score::Loss)]);
    assert_eq!(
        classical(&ratings_of(&s, "Bob").await),
        Some((win.rating.round() as i64, 1))
    );
    let carol_after = classical(&ratings_of(&s, "Carol").await).unwrap();
    assert_eq!(carol_after, (loss.rating.round() as i64, 1));
    assert_ne!(
        carol_after, carol_before,
        "Carol lost to a stronger Bob than before"
    );

    // Once only; a game that changed no rating cannot be annulled.
    let (status, body) = call(&s, &m.0, "POST", &path, Some(json!({"reason": "x"}))).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("not_rated")),
        "{body}"
    );
    let (status, log) = call(&s, &m.0, "GET", "/api/admin/log", None).await;
    assert_eq!(status, 200);
    assert_eq!(log["log"][0]["action"], "annul");
    assert_eq!(log["log"][0]["target"], first.as_str());
    s.shutdown().await;
}

#[tokio::test]
async fn reports_copy_the_chat_and_a_moderator_hides_it() {
    let dir = TempDir::new("mod-reports");
    let limits = RateLimits {
        reports: shogi_server::limits::rates::Rate::new(3, std::time::Duration::from_secs(3600)),
        ..RateLimits::unlimited()
    };
    let s = TestServer::start_with_limits(&dir.db(), &limits).await;
    let m = moderator(&s, &dir, "Mod").await;
    let alice = account(&s, "Alice").await;
    let bob = account(&s, "Bob").await;
    let carol = account(&s, "Carol").await;
    let (game, mut a, mut b) = seek_game(&s, json!({"side": "sente"}), &alice, &bob).await;
    a.state_where(|_| true).await;
    b.state_where(|_| true).await;
    a.send(json!({"type": "chat", "text": "ты проиграешь, дурак"}))
        .await;
    let said = loop {
        let msg = b.next().await;
        if msg["type"] == "chat" {
            break msg;
        }
    };
    assert_eq!(said["n"], 1, "{said}");

    // Bob reports the message; Carol, who does not play, cannot report its chat.
    let (status, body) = call(
        &s,
        &bob.0,
        "POST",
        "/api/reports",
        Some(json!({"game": game, "chat": 1, "reason": "оскорбление"})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = call(
        &s,
        &carol.0,
        "POST",
        "/api/reports",
        Some(json!({"game": game, "chat": 1, "reason": "x"})),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = call(
        &s,
        &carol.0,
        "POST",
        "/api/reports",
        Some(json!({"game": game, "reason": "they play too well"})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    // Guests cannot report.
    let (status, _) = s
        .request(
            "POST",
            "/api/reports",
            Some(&json!({"game": game, "reason": "x"})),
        )
        .await;
    assert_eq!(status, 401);

    // The moderator reads the message as it was written.
    let (status, list) = call(&s, &m.0, "GET", "/api/admin/reports?open=1", None).await;
    assert_eq!(status, 200, "{list}");
    let reports = list["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 2);
    let chat = reports.iter().find(|r| r["chat"].is_object()).unwrap();
    assert_eq!(chat["chat"]["text"], "ты проиграешь, дурак");
    assert_eq!(chat["chat"]["from"], "Alice");
    assert_eq!(chat["reporter"], "Bob");

    // Hidden: the players are told, and a later connection sees it hidden.
    let (status, body) = call(
        &s,
        &m.0,
        "POST",
        &format!("/api/admin/games/{game}/chat/1/hide"),
        Some(json!({"reason": "оскорбление"})),
    )
    .await;
    assert_eq!(status, 204, "{body}");
    let hidden = loop {
        let msg = b.next().await;
        if msg["type"] == "chat_hidden" {
            break msg;
        }
    };
    assert_eq!(hidden["n"], 1);
    let mut again = s.connect_with(&game, None, Some(&bob.1)).await;
    let replayed = loop {
        let msg = again.next().await;
        if msg["type"] == "chat_history" {
            break msg["messages"][0].clone();
        }
    };
    assert_eq!(replayed["hidden"], true, "{replayed}");
    assert_eq!(replayed["n"], 1, "{replayed}");
    assert!(replayed.get("text").is_none(), "{replayed}");
    // Hidden messages cannot be reported any more.
    let (status, _) = call(
        &s,
        &bob.0,
        "POST",
        "/api/reports",
        Some(json!({"game": game, "chat": 1, "reason": "x"})),
    )
    .await;
    assert_eq!(status, 404);

    // Closing a report.
    let id = chat["id"].as_i64().unwrap();
    let path = format!("/api/admin/reports/{id}/close");
    let (status, _) = call(&s, &m.0, "POST", &path, Some(json!({"reason": "скрыто"}))).await;
    assert_eq!(status, 204);
    let (status, _) = call(&s, &m.0, "POST", &path, Some(json!({"reason": "скрыто"}))).await;
    assert_eq!(status, 404);
    let (_, list) = call(&s, &m.0, "GET", "/api/admin/reports?open=1", None).await;
    assert_eq!(list["reports"].as_array().unwrap().len(), 1);
    let (_, list) = call(&s, &m.0, "GET", "/api/admin/reports", None).await;
    assert_eq!(list["reports"].as_array().unwrap().len(), 2);

    // Reports are limited per account (3 an hour here): Bob made 2 (one refused
    // as not found still counts), the next is his last.
    let body = json!({"game": game, "reason": "again"});
    let (status, _) = call(&s, &bob.0, "POST", "/api/reports", Some(body.clone())).await;
    assert_eq!(status, 201);
    let (status, answer) = call(&s, &bob.0, "POST", "/api/reports", Some(body)).await;
    assert_eq!(status, 429, "{answer}");
    s.shutdown().await;
}
