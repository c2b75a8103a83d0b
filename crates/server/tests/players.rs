//! Players in games: names in the state and in every record format, the
//! lobby (seeks, acceptance, the live list and its WebSocket), and the
//! in-game messages (abort, takeback, chat, presence).

mod common;

use common::{account, ratings_of as ratings, seek_game, TempDir, TestServer};
use futures_util::StreamExt;
use serde_json::{json, Value};
use shogi_server::db::GameWrite;
use shogi_server::ratings;
use tokio_tungstenite::tungstenite::Message;

/// A friend game between two named guests: the creator's id, tokens and sockets.
async fn friend_game(s: &TestServer, sente: &str, gote: &str) -> (String, common::Ws, common::Ws) {
    let g = s
        .create(json!({"mode": "friend", "side": "sente", "name": sente}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let invite = g["invite"].as_str().unwrap().split("join=").nth(1).unwrap();
    let (status, joined) = s
        .request(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(&json!({"invite": invite, "name": gote})),
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    let a = s.connect(&id, g["token"].as_str()).await;
    let b = s.connect(&id, joined["token"].as_str()).await;
    (id, a, b)
}

#[tokio::test]
async fn guest_names_are_shown_and_written_in_every_record_format() {
    let dir = TempDir::new("names");
    let s = TestServer::start(&dir.db()).await;
    let (id, mut a, mut b) = friend_game(&s, "Алиса", "Богдан").await;
    let state = s.state(&id).await;
    assert_eq!(state["players"]["sente"]["name"], "Алиса");
    assert_eq!(state["players"]["sente"]["guest"], true);
    // Only a program's seat says `bot`.
    assert!(state["players"]["sente"].get("bot").is_none(), "{state}");
    assert_eq!(state["players"]["gote"]["name"], "Богдан");
    assert_eq!(state["rated"], false);
    a.play("7g7f").await;
    b.play("3c3d").await;
    b.send(json!({"type": "resign"})).await;
    a.state_where(|s| s["status"]["over"] == true).await;

    let (_, _, kif) = s
        .get_text(&format!("/api/games/{id}/record?format=kif"))
        .await;
    assert!(kif.contains("先手：Алиса (guest)"), "{kif}");
    assert!(kif.contains("後手：Богдан (guest)"), "{kif}");
    let (_, _, ki2) = s
        .get_text(&format!("/api/games/{id}/record?format=ki2"))
        .await;
    assert!(ki2.contains("先手：Алиса (guest)"), "{ki2}");
    let (_, _, csa) = s
        .get_text(&format!("/api/games/{id}/record?format=csa"))
        .await;
    assert!(csa.contains("N+Алиса (guest)"), "{csa}");
    assert!(csa.contains("N-Богдан (guest)"), "{csa}");
    let (_, _, jkf) = s
        .get_text(&format!("/api/games/{id}/record?format=jkf"))
        .await;
    let jkf: Value = serde_json::from_str(&jkf).unwrap();
    assert_eq!(jkf["header"]["先手"], "Алиса (guest)");
    assert_eq!(jkf["header"]["後手"], "Богдан (guest)");

    // The archive's player filter finds played games by a part of a name, in any case.
    let (_, page) = s
        .request("GET", "/api/archive?player=%D0%B1%D0%BE%D0%B3", None)
        .await;
    assert_eq!(page["total"], 1, "{page}");
    assert_eq!(page["entries"][0]["gote"], "Богдан (guest)");
    s.shutdown().await;
}

#[tokio::test]
async fn a_bad_guest_name_is_refused() {
    let dir = TempDir::new("badname");
    let s = TestServer::start(&dir.db()).await;
    for name in ["<script>", "a b", "x".repeat(25).as_str()] {
        let (status, body) = s
            .request(
                "POST",
                "/api/games",
                Some(&json!({"mode": "ai", "name": name})),
            )
            .await;
        assert_eq!(status, 400, "{name}: {body}");
    }
    s.shutdown().await;
}

/// The lobby's WebSocket.
struct LobbyWs(
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
);

impl LobbyWs {
    async fn open(s: &TestServer) -> LobbyWs {
        let url = format!("ws://{}/api/lobby/ws", s.addr());
        let (stream, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        LobbyWs(stream)
    }

    /// The lobby's WebSocket opened with a session cookie.
    async fn open_as(s: &TestServer, cookie: &str) -> LobbyWs {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{}/api/lobby/ws", s.addr())
            .into_client_request()
            .unwrap();
        request
            .headers_mut()
            .insert("cookie", cookie.parse().unwrap());
        let (stream, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        LobbyWs(stream)
    }

    /// Whether the server closed it (within 30 s).
    async fn closed(&mut self) -> bool {
        loop {
            match tokio::time::timeout(std::time::Duration::from_secs(30), self.0.next()).await {
                Err(_) => return false,
                Ok(None | Some(Err(_) | Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// The next message of `kind`.
    async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let msg = tokio::time::timeout(std::time::Duration::from_secs(30), self.0.next())
                .await
                .expect("a lobby message in time")
                .unwrap()
                .unwrap();
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == kind {
                    return v;
                }
            }
        }
    }
}

#[tokio::test]
async fn a_seek_is_announced_accepted_played_and_listed_live() {
    let dir = TempDir::new("lobby");
    let s = TestServer::start(&dir.db()).await;
    let mut watcher = LobbyWs::open(&s).await;
    let first = watcher.next_of("lobby").await;
    assert_eq!(first["seeks"], json!([]));

    let seek = json!({"time": {"main_ms": 1_800_000, "byoyomi_ms": 30_000},
                      "side": "sente", "name": "Ирина"});
    let (status, posted) = s.request("POST", "/api/seeks", Some(&seek)).await;
    assert_eq!(status, 201, "{posted}");
    let seek_id = posted["id"].as_str().unwrap();
    let added = watcher.next_of("seek_added").await;
    assert_eq!(added["seek"]["id"], seek_id);
    assert_eq!(added["seek"]["by"]["name"], "Ирина");
    assert_eq!(added["seek"]["class"], "classical");
    let (_, lobby) = s.request("GET", "/api/lobby", None).await;
    assert_eq!(lobby["seeks"][0]["id"], seek_id);

    let (status, accepted) = s
        .request(
            "POST",
            &format!("/api/seeks/{seek_id}/accept"),
            Some(&json!({"name": "Олег"})),
        )
        .await;
    assert_eq!(status, 201, "{accepted}");
    let game = accepted["game"].as_str().unwrap();
    assert_eq!(accepted["side"], "gote");
    let note = watcher.next_of("seek_accepted").await;
    assert_eq!(note["game"], game);
    let live = watcher.next_of("live").await;
    assert_eq!(live["live"][0]["id"], game);
    assert_eq!(live["live"][0]["players"]["sente"]["name"], "Ирина");

    // The seeker plays with the token it got when posting; the clock runs at once.
    let mut sente = s.connect(game, posted["token"].as_str()).await;
    let mut gote = s.connect(game, accepted["token"].as_str()).await;
    let state = sente.state_where(|_| true).await;
    assert_eq!(state["you"], "sente");
    assert_eq!(state["clocks"]["running"], "sente");
    sente.play("7g7f").await;
    gote.play("3c3d").await;
    // A second acceptance finds the seek gone.
    let (status, _) = s
        .request("POST", &format!("/api/seeks/{seek_id}/accept"), None)
        .await;
    assert_eq!(status, 404);
    gote.send(json!({"type": "resign"})).await;
    sente.state_where(|s| s["status"]["over"] == true).await;
    let live = watcher.next_of("live").await;
    assert_eq!(live["live_total"], 0, "{live}");
    s.shutdown().await;
}

#[tokio::test]
async fn a_game_is_aborted_only_before_both_sides_have_moved() {
    let dir = TempDir::new("abort");
    let s = TestServer::start(&dir.db()).await;
    let (_, mut a, mut b) = friend_game(&s, "A", "B").await;
    a.play("7g7f").await;
    b.send(json!({"type": "abort"})).await;
    let over = a.state_where(|s| s["status"]["over"] == true).await;
    assert_eq!(over["status"]["reason"], "abort");
    assert_eq!(over["status"]["winner"], Value::Null);

    let (_, mut a, mut b) = friend_game(&s, "A", "B").await;
    a.play("7g7f").await;
    b.play("3c3d").await;
    a.send(json!({"type": "abort"})).await;
    assert!(a.error().await.contains("before each side"));
    s.shutdown().await;
}

#[tokio::test]
async fn a_takeback_needs_the_opponents_consent_in_a_casual_game() {
    let dir = TempDir::new("takeback");
    let s = TestServer::start(&dir.db()).await;
    let (id, mut a, mut b) = friend_game(&s, "A", "B").await;
    a.play("7g7f").await;
    b.play("3c3d").await;
    // Sente, to move, asks for its last move back: both moves go.
    a.send(json!({"type": "takeback"})).await;
    let asked = b
        .state_where(|s| s["takeback"]["proposed_by"] == "sente")
        .await;
    assert_eq!(asked["moves"].as_array().unwrap().len(), 2);
    b.send(json!({"type": "decline_takeback"})).await;
    a.state_where(|s| s["takeback"]["proposed_by"].is_null())
        .await;
    a.send(json!({"type": "takeback"})).await;
    b.state_where(|s| s["takeback"]["proposed_by"] == "sente")
        .await;
    // The proposer cannot accept its own proposal.
    a.send(json!({"type": "accept_takeback"})).await;
    assert!(a.error().await.contains("other player"));
    b.send(json!({"type": "accept_takeback"})).await;
    let back = a
        .state_where(|s| s["moves"].as_array().is_some_and(Vec::is_empty))
        .await;
    assert_eq!(back["side_to_move"], "sente");
    // The store agrees: a reload shows no moves.
    assert_eq!(s.state(&id).await["moves"], json!([]));
    s.shutdown().await;
}

#[tokio::test]
async fn chat_reaches_the_players_only_and_is_limited() {
    let dir = TempDir::new("chat");
    let s = TestServer::start(&dir.db()).await;
    let (id, mut a, mut b) = friend_game(&s, "A", "B").await;
    let mut watcher = s.connect(&id, None).await;
    // Both players are seen connected.
    let state = watcher
        .state_where(|s| s["connected"]["sente"] == true && s["connected"]["gote"] == true)
        .await;
    assert_eq!(state["connected"], json!({"sente": true, "gote": true}));

    a.send(json!({"type": "chat", "text": "<b>удачи</b>"}))
        .await;
    let line = loop {
        let m = b.next().await;
        if m["type"] == "chat" {
            break m;
        }
    };
    assert_eq!(line["text"], "<b>удачи</b>");
    assert_eq!(line["from"], "sente");
    assert_eq!(line["name"], "A");
    // A spectator cannot chat.
    watcher.send(json!({"type": "chat", "text": "hi"})).await;
    assert!(watcher.error().await.contains("spectators"));
    // Too long, then too fast (the clock does not move: 3 at once at most).
    a.send(json!({"type": "chat", "text": "x".repeat(201)}))
        .await;
    assert!(a.error().await.contains("200"));
    a.send(json!({"type": "chat", "text": "2"})).await;
    a.send(json!({"type": "chat", "text": "3"})).await;
    a.send(json!({"type": "chat", "text": "4"})).await;
    assert!(a.error().await.contains("too many chat"));
    let g = s.state(&id).await;
    assert_eq!(g["players"]["gote"]["name"], "B");
    drop(b);
    let state = watcher
        .state_where(|s| s["connected"]["gote"] == false)
        .await;
    assert_eq!(state["connected"]["sente"], true);
    // Spectators never received a chat line.
    watcher.send(json!({"type": "ping"})).await;
    loop {
        let m = watcher.next().await;
        assert_ne!(m["type"], "chat", "{m}");
        if m["type"] == "pong" {
            break;
        }
    }
    s.shutdown().await;
}

#[tokio::test]
async fn a_rated_game_changes_both_ratings_and_a_handicap_game_none() {
    let dir = TempDir::new("rated");
    let s = TestServer::start(&dir.db()).await;
    let alice = account(&s, "Алиса").await;
    let bob = account(&s, "Bob").await;
    let classical = json!({"main_ms": 1_800_000, "byoyomi_ms": 30_000});
    let (game, mut a, mut b) = seek_game(
        &s,
        json!({"time": classical, "rated": true, "side": "sente"}),
        &alice,
        &bob,
    )
    .await;
    let first = a.state_where(|_| true).await;
    assert_eq!(first["you"], "sente");
    assert_eq!(first["rated"], true);
    assert_eq!(first["players"]["sente"]["name"], "Алиса");
    assert_eq!(first["players"]["sente"]["rating"], 1500);
    assert_eq!(first["players"]["gote"]["provisional"], true);
    assert_eq!(b.state_where(|_| true).await["you"], "gote");
    // No takeback in a rated game.
    a.play("7g7f").await;
    a.send(json!({"type": "takeback"})).await;
    assert!(a.error().await.contains("rated"));
    b.play("3c3d").await;
    b.send(json!({"type": "resign"})).await;
    a.state_where(|s| s["status"]["over"] == true).await;

    // Glicko-2 for two new players (1500, RD 350, σ 0.06), one game each.
    let won = ratings(&s, "алиса").await;
    let lost = ratings(&s, "BOB").await;
    let w = &won["ratings"]["classical"];
    let l = &lost["ratings"]["classical"];
    assert_eq!(w["games"], 1);
    assert_eq!(l["games"], 1);
    // The winner gains exactly what the loser drops (same RD before).
    let (wr, lr) = (w["rating"].as_i64().unwrap(), l["rating"].as_i64().unwrap());
    assert!(wr > 1500 && lr < 1500, "{won} {lost}");
    assert_eq!(wr - 1500, 1500 - lr);
    assert!(w["rd"].as_f64().unwrap() < 350.0);
    assert_eq!(won["results"], json!({"wins": 1, "losses": 0, "draws": 0}));
    assert_eq!(lost["results"], json!({"wins": 0, "losses": 1, "draws": 0}));
    assert_eq!(won["history"]["classical"][0]["game"], game.as_str());
    let expected = ratings::Glicko2::default().rate(
        ratings::Rating::NEW,
        &[(ratings::Rating::NEW, ratings::Score::Win)],
    );
    assert_eq!(wr, expected.rating.round() as i64);
    // The profile's games list has it.
    let (_, games) = s.request("GET", "/api/players/Bob/games", None).await;
    assert_eq!(games["total"], 1);
    assert_eq!(games["entries"][0]["sente"], "Алиса");

    // A handicap game between the same accounts, asked as rated, is unrated.
    let (status, _, refused) = s
        .request_with(
            "POST",
            "/api/seeks",
            &[&alice.0],
            Some(&json!({"time": classical, "rated": true, "handicap": "rook"})),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    let (_, mut a, mut b) = seek_game(
        &s,
        json!({"time": classical, "handicap": "rook", "side": "sente"}),
        &alice,
        &bob,
    )
    .await;
    let first = a.state_where(|_| true).await;
    assert_eq!(first["rated"], false);
    // The handicap giver (Gote) moves first.
    assert_eq!(first["side_to_move"], "gote");
    b.play("3c3d").await;
    b.send(json!({"type": "resign"})).await;
    a.state_where(|s| s["status"]["over"] == true).await;
    let after = ratings(&s, "Алиса").await;
    assert_eq!(after["ratings"], won["ratings"]);
    assert_eq!(after["results"]["wins"], 2);
    s.shutdown().await;
}

/// Both players see what a rated game did to their ratings the moment it
/// ends (the Glicko-2 numbers, rounded), and so does anyone who opens the
/// finished game later, after a restart too (read back from the history).
#[tokio::test]
async fn both_players_see_their_rating_change_when_a_rated_game_ends() {
    let dir = TempDir::new("change");
    let s = TestServer::start(&dir.db()).await;
    let alice = account(&s, "Алиса").await;
    let bob = account(&s, "Bob").await;
    let classical = json!({"main_ms": 1_800_000, "byoyomi_ms": 30_000});
    let (game, mut a, mut b) = seek_game(
        &s,
        json!({"time": classical, "rated": true, "side": "sente"}),
        &alice,
        &bob,
    )
    .await;
    let first = a.state_where(|_| true).await;
    assert_eq!(first["rating_change"], Value::Null);
    a.play("7g7f").await;
    b.play("3c3d").await;
    b.send(json!({"type": "resign"})).await;
    let seen_a = a.state_where(|s| s["status"]["over"] == true).await;
    let seen_b = b.state_where(|s| s["status"]["over"] == true).await;
    let system = ratings::Glicko2::default();
    let new = ratings::Rating::NEW;
    let won = system
        .rate(new, &[(new, ratings::Score::Win)])
        .rating
        .round() as i64;
    let lost = system
        .rate(new, &[(new, ratings::Score::Loss)])
        .rating
        .round() as i64;
    let expected = json!({
        "sente": {"before": 1500, "after": won, "delta": won - 1500},
        "gote": {"before": 1500, "after": lost, "delta": lost - 1500},
    });
    assert!(won > 1500 && lost < 1500);
    assert_eq!(seen_a["rating_change"], expected, "{seen_a}");
    assert_eq!(seen_b["rating_change"], expected);
    assert_eq!(s.state(&game).await["rating_change"], expected);
    s.shutdown().await;
    // A restart: the finished game's room reads the change back.
    let s = TestServer::start(&dir.db()).await;
    assert_eq!(s.state(&game).await["rating_change"], expected);
    s.shutdown().await;
}

/// A process that died right after storing a rated game's ending (the
/// ending written as the committer writes it, and no room told): the next
/// start rates the game, and the one after does not rate it again.
#[tokio::test]
async fn a_rating_left_due_by_a_dead_process_is_settled_at_the_next_start_once() {
    let dir = TempDir::new("rating-due");
    let s = TestServer::start(&dir.db()).await;
    let alice = account(&s, "Alice").await;
    let bob = account(&s, "Bob").await;
    let classical = json!({"main_ms": 1_800_000, "byoyomi_ms": 30_000});
    let seek = json!({"time": classical, "rated": true, "side": "sente"});
    let (game, mut a, mut b) = seek_game(&s, seek, &alice, &bob).await;
    a.play("7g7f").await;
    b.play("3c3d").await;
    let ending = shogi_core::Ending::Resignation {
        loser: shogi_core::Color::Gote,
    };
    let write = GameWrite::Finish {
        ending,
        plies: 2,
        clocks: None,
    };
    let store = s.server.state().store().clone();
    store
        .write_batch(&[(game.as_str(), None, &write)])
        .await
        .unwrap();
    drop((a, b));
    s.shutdown().await;
    for start in 1..=2 {
        let s = TestServer::start(&dir.db()).await;
        for (name, won) in [("Alice", true), ("Bob", false)] {
            let profile = ratings(&s, name).await;
            let classical = &profile["ratings"]["classical"];
            assert_eq!(classical["games"], 1, "start {start}: {profile}");
            assert_eq!(classical["rating"].as_i64().unwrap() > 1500, won);
            let history = profile["history"]["classical"].as_array().unwrap();
            assert_eq!(history.len(), 1, "start {start}: {profile}");
            assert_eq!(history[0]["game"], game.as_str());
        }
        s.shutdown().await;
    }
}

#[tokio::test]
async fn a_players_games_download_as_one_zip_of_kif_files() {
    let dir = TempDir::new("zip");
    let s = TestServer::start(&dir.db()).await;
    let alice = account(&s, "Alice").await;
    let bob = account(&s, "Bob").await;
    let (_, mut a, mut b) = seek_game(&s, json!({"side": "gote"}), &alice, &bob).await;
    b.play("7g7f").await;
    a.send(json!({"type": "resign"})).await;
    b.state_where(|s| s["status"]["over"] == true).await;
    let (status, head, zip) =
        common::raw(&s.addr(), "GET", "/api/players/alice/games.zip", b"").await;
    assert_eq!(status, 200, "{head}");
    assert!(head.to_lowercase().contains("application/zip"), "{head}");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    assert_eq!(archive.len(), 1);
    let mut file = archive.by_index(0).unwrap();
    let name = std::path::Path::new(file.name()).to_path_buf();
    assert_eq!(
        name.extension().and_then(|e| e.to_str()),
        Some("kif"),
        "{name:?}"
    );
    let mut kif = String::new();
    std::io::Read::read_to_string(&mut file, &mut kif).unwrap();
    assert!(
        kif.contains("先手：Bob") && kif.contains("後手：Alice"),
        "{kif}"
    );
    let (status, _) = s
        .request("GET", "/api/players/nobody/games.zip", None)
        .await;
    assert_eq!(status, 404);
    s.shutdown().await;
}

#[tokio::test]
async fn an_address_holds_three_open_seeks_unless_the_limits_are_lifted() {
    let dir = TempDir::new("seekcap");
    let limited =
        TestServer::start_with_limits(&dir.db(), &shogi_server::RateLimits::default()).await;
    for i in 0..4 {
        let (status, body) = limited
            .request("POST", "/api/seeks", Some(&json!({"name": "x"})))
            .await;
        assert_eq!(status, if i < 3 { 201 } else { 429 }, "{i}: {body}");
    }
    limited.shutdown().await;
    let dir = TempDir::new("seekcap-lifted");
    let lifted = TestServer::start(&dir.db()).await;
    for _ in 0..5 {
        let (status, body) = lifted
            .request("POST", "/api/seeks", Some(&json!({"name": "x"})))
            .await;
        assert_eq!(status, 201, "{body}");
    }
    lifted.shutdown().await;
}

#[tokio::test]
async fn ending_a_session_closes_its_sockets_at_once() {
    let dir = TempDir::new("session-sockets");
    let s = TestServer::start(&dir.db()).await;
    let alice = account(&s, "Алиса").await;
    let bob = account(&s, "Bob").await;
    let seek = json!({"time": {"main_ms": 600_000, "byoyomi_ms": 10_000}, "side": "sente"});
    let (game, mut a, mut b) = seek_game(&s, seek, &alice, &bob).await;
    let mut lobby = LobbyWs::open_as(&s, &alice.1).await;
    lobby.next_of("lobby").await;
    // Alice logs out: her game and lobby sockets close; Bob plays on.
    let (status, _, _) = s
        .request_with("DELETE", "/api/session", &[&alice.0], None)
        .await;
    assert_eq!(status, 204);
    assert!(
        a.closed().await,
        "the game socket of the ended session closes"
    );
    assert!(
        lobby.closed().await,
        "the lobby socket of the ended session closes"
    );
    b.send(json!({"type": "sync"})).await;
    assert_eq!(b.state_where(|_| true).await["you"], "gote");
    // Reopened without a session, the socket only watches.
    let mut again = s.connect(&game, None).await;
    again.send(json!({"type": "move", "usi": "7g7f"})).await;
    assert_eq!(again.error().await, "spectators cannot play");
    // Bob changes his password: his older sockets close too.
    let body = json!({"old": common::PASSWORD, "new": "another long password"});
    let (status, _, _) = s
        .request_with("PUT", "/api/account/password", &[&bob.0], Some(&body))
        .await;
    assert_eq!(status, 204);
    assert!(b.closed().await, "a password change ends every session");
    s.shutdown().await;
}

#[tokio::test]
async fn a_rating_is_earned_by_play_at_a_playable_clock_three_times_a_day_per_pair() {
    let dir = TempDir::new("earned");
    let s = TestServer::start(&dir.db()).await;
    let alice = account(&s, "Алиса").await;
    let bob = account(&s, "Bob").await;
    let seek = |main_ms: u64| json!({"time": {"main_ms": main_ms, "byoyomi_ms": 0}, "rated": true, "side": "sente"});
    // A clock nobody can play on is refused for a rated seek.
    let (status, _, v) = s
        .request_with("POST", "/api/seeks", &[&alice.0], Some(&seek(1)))
        .await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("at least a minute"),
        "{v}"
    );
    // Resigned before each side moved: no rating changes.
    let (_, mut a, mut b) = seek_game(&s, seek(600_000), &alice, &bob).await;
    a.play("7g7f").await;
    b.send(json!({"type": "resign"})).await;
    a.state_where(|st| st["status"]["over"] == true).await;
    assert_eq!(ratings(&s, "bob").await["ratings"], json!({}));
    // Four played games in a day: three count.
    for _ in 0..4 {
        let (_, mut a, mut b) = seek_game(&s, seek(600_000), &alice, &bob).await;
        a.play("7g7f").await;
        b.play("3c3d").await;
        b.send(json!({"type": "resign"})).await;
        a.state_where(|st| st["status"]["over"] == true).await;
    }
    let won = ratings(&s, "алиса").await;
    assert_eq!(won["ratings"]["rapid"]["games"], 3, "{won}");
    assert_eq!(won["results"]["wins"], 5);
    s.shutdown().await;
}
