//! Games over real HTTP and WebSocket: creating, joining, moving, refusing,
//! and every ending.

mod common;

use common::{local, TempDir, TestServer};
use serde_json::json;

#[tokio::test]
async fn local_game_plays_legal_moves_and_reports_dests() {
    let dir = TempDir::new("local");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "local"})).await;
    assert_eq!(g["side"], "both");
    assert!(g.get("invite").is_none());
    let id = g["id"].as_str().unwrap();
    let token = g["token"].as_str().unwrap();
    assert_eq!(token.len(), 32);

    let mut ws = s.connect(id, Some(token)).await;
    let state = s.state(id).await;
    assert_eq!(state["side_to_move"], "sente");
    assert_eq!(state["dests"]["7g"], json!(["7f"]));
    assert!(state["drops"].as_object().unwrap().is_empty());
    assert_eq!(state["impasse"]["rule"], "count24");
    assert_eq!(state["clocks"], json!(null));

    let after = ws.play_all(&["7g7f", "3c3d", "8h2b+"]).await;
    assert_eq!(after["you"], "both");
    assert_eq!(after["side_to_move"], "gote");
    assert_eq!(after["moves"], json!(["7g7f", "3c3d", "8h2b+"]));
    assert_eq!(
        after["sfen"],
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    );
    // Gote may take the horse back.
    assert!(after["dests"]["3a"]
        .as_array()
        .unwrap()
        .contains(&json!("2b")));
    s.shutdown().await;
}

#[tokio::test]
async fn promotion_choices_are_listed() {
    let dir = TempDir::new("promo");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    let state = ws.play_all(&["7g7f", "3c3d"]).await;
    assert_eq!(state["promotions"]["8h2b"], "may");
    assert_eq!(
        state["dests"]["8h"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| *d == "2b")
            .count(),
        1
    );
    s.shutdown().await;
}

#[tokio::test]
async fn illegal_move_is_refused_with_the_reason() {
    let dir = TempDir::new("illegal");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    ws.send(json!({"type": "move", "usi": "7g7e"})).await;
    let e = ws.error().await;
    assert!(e.contains("7g7e"), "{e}");
    ws.send(json!({"type": "move", "usi": "nonsense"})).await;
    ws.error().await;
    ws.send(json!({"type": "move", "usi": "5e5d"})).await;
    assert!(ws.error().await.contains("no piece of yours"));
    ws.send(json!({"type": "fly"})).await;
    assert!(ws.error().await.starts_with("bad message"));
    assert_eq!(s.state(id).await["moves"], json!([]));
    s.shutdown().await;
}

#[tokio::test]
async fn friend_game_seats_are_held_by_tokens() {
    let dir = TempDir::new("friend");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "friend", "side": "sente"})).await;
    let id = g["id"].as_str().unwrap();
    let invite = g["invite"].as_str().unwrap();
    let code = invite.split("join=").nth(1).unwrap();
    assert_eq!(invite, format!("/g/{id}?join={code}"));

    let mut host = s.connect(id, g["token"].as_str()).await;
    // Nobody has joined: no move yet.
    host.send(json!({"type": "move", "usi": "7g7f"})).await;
    assert!(host.error().await.contains("waiting"));

    let path = format!("/api/games/{id}/join");
    let (status, _) = s
        .request("POST", &path, Some(&json!({"invite": "00"})))
        .await;
    assert_eq!(status, 403);
    let (status, joined) = s
        .request("POST", &path, Some(&json!({"invite": code})))
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["side"], "gote");
    let (status, _) = s
        .request("POST", &path, Some(&json!({"invite": code})))
        .await;
    assert_eq!(status, 409);

    let mut guest = s.connect(id, joined["token"].as_str()).await;
    // Not your turn.
    guest.send(json!({"type": "move", "usi": "3c3d"})).await;
    assert_eq!(guest.error().await, "it is not your turn");
    // A spectator cannot move.
    let mut spectator = s.connect(id, None).await;
    spectator.send(json!({"type": "move", "usi": "7g7f"})).await;
    assert_eq!(spectator.error().await, "spectators cannot play");
    spectator.send(json!({"type": "resign"})).await;
    assert_eq!(spectator.error().await, "spectators cannot play");
    // A forged token is refused at the door.
    let url = format!(
        "ws://{}/api/games/{id}/ws?token={}",
        s.addr(),
        "ab".repeat(16)
    );
    assert!(tokio_tungstenite::connect_async(url).await.is_err());

    host.play("7g7f").await;
    let seen = spectator.state_where(|v| v["last_move"] == "7g7f").await;
    assert_eq!(seen["you"], json!(null));
    guest.play("3c3d").await;
    assert_eq!(s.state(id).await["moves"], json!(["7g7f", "3c3d"]));
    s.shutdown().await;
}

#[tokio::test]
async fn unknown_games_and_bad_requests_are_client_errors() {
    let dir = TempDir::new("bad");
    let s = TestServer::start(&dir.db()).await;
    let (status, body) = s.request("GET", "/api/games/0123456789abcdef", None).await;
    assert_eq!(status, 404);
    assert_eq!(body["error"], "no such game");
    let (status, _) = s.request("GET", "/api/games/../../etc", None).await;
    assert_eq!(status, 404);
    for bad in [
        json!({"mode": "local", "handicap": "queen"}),
        json!({"mode": "local", "rules": {"impasse": "30"}}),
        json!({"mode": "local", "time": {"main_ms": 0}}),
        json!({"mode": "local", "time": {"main_ms": 1000, "byoyomi_ms": 1000, "increment_ms": 1}}),
        json!({"mode": "friend", "ai": {"level": 3}}),
        json!({"mode": "ai", "ai": {"level": 11}}),
        json!({"mode": "local", "sfen": "9/9/9 b - 1"}),
    ] {
        let (status, body) = s.request("POST", "/api/games", Some(&bad)).await;
        assert_eq!(status, 400, "{bad} -> {body}");
        assert!(body["error"].is_string());
    }
    let (status, _) = s
        .request("POST", "/api/games", Some(&json!({"mode": "chess"})))
        .await;
    assert!((400..500).contains(&status));
    let (status, _) = s.request("GET", "/", None).await;
    assert_eq!(status, 200);
    s.shutdown().await;
}

#[tokio::test]
async fn oversized_and_flooding_messages_are_stopped() {
    let dir = TempDir::new("limits");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    for _ in 0..40 {
        ws.send(json!({"type": "ping"})).await;
    }
    let mut pongs = 0;
    let mut limited = 0;
    for _ in 0..40 {
        let m = ws.next().await;
        if m["type"] == "pong" {
            pongs += 1;
        } else if m["message"] == "too many messages" {
            limited += 1;
        }
    }
    assert!(
        pongs >= 20 && limited >= 1,
        "{pongs} pongs, {limited} limited"
    );

    let mut ws = s.connect(id, g["token"].as_str()).await;
    let _ = ws.send_raw("x".repeat(5000)).await;
    assert!(ws.closed().await);
    s.shutdown().await;
}

#[tokio::test]
async fn checkmate_ends_the_game() {
    let dir = TempDir::new("mate");
    let s = TestServer::start(&dir.db()).await;
    let g = s
        .create(local(json!({"sfen": "8k/9/6NG1/9/9/9/9/9/4K4 b G 1"})))
        .await;
    let mut ws = s
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    let end = ws.play("G*1b").await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "sente", "reason": "checkmate"})
    );
    assert!(end["dests"].as_object().unwrap().is_empty());
    ws.send(json!({"type": "resign"})).await;
    assert!(ws.error().await.contains("over"));
    s.shutdown().await;
}

#[tokio::test]
async fn resignation_ends_the_game_for_either_player() {
    let dir = TempDir::new("resign");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "friend", "side": "gote"})).await;
    let id = g["id"].as_str().unwrap();
    let code = g["invite"].as_str().unwrap().split("join=").nth(1).unwrap();
    let (_, joined) = s
        .request(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(&json!({"invite": code})),
        )
        .await;
    assert_eq!(joined["side"], "sente");
    // Gote resigns while Sente is to move.
    let mut ws = s.connect(id, g["token"].as_str()).await;
    ws.send(json!({"type": "resign"})).await;
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "sente", "reason": "resign"})
    );
    // The record says so too: Sente won, though Sente was to move.
    let (status, head, kif) = s
        .get_text(&format!("/api/games/{id}/record?format=kif"))
        .await;
    assert_eq!(status, 200, "{head}");
    assert!(kif.contains("まで0手で先手の勝ち"), "{kif}");
    let (_, rec) = s
        .request("GET", &format!("/api/games/{id}/record?format=json"), None)
        .await;
    assert_eq!(
        rec["ending"],
        json!({"reason": "resign", "winner": "sente"})
    );
    s.shutdown().await;
}

/// Sente ends up with a pawn in hand and a pawn on file 5: `P*5e` is nifu.
const BEFORE_NIFU: [&str; 8] = [
    "7g7f", "3c3d", "7f7e", "3d3e", "7e7d", "3e3f", "7d7c+", "3f3g+",
];

#[tokio::test]
async fn a_refused_move_names_its_rule_square_and_file() {
    let dir = TempDir::new("illegal-code");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    ws.play_all(&BEFORE_NIFU).await;
    ws.send(json!({"type": "move", "usi": "P*5e"})).await;
    let e = loop {
        let msg = ws.next().await;
        if msg["type"] == "error" {
            break msg;
        }
    };
    assert_eq!(e["code"], "illegal_move", "{e}");
    assert_eq!(e["move"], "P*5e");
    assert_eq!(e["rule"], "nifu");
    assert_eq!(e["square"], "5e");
    assert_eq!(e["file"], 5);
    assert!(e["message"].as_str().unwrap().contains("nifu"), "{e}");
    // A king walking into check: the rule, no file.
    ws.send(json!({"type": "move", "usi": "5i4h"})).await;
    let e = loop {
        let msg = ws.next().await;
        if msg["type"] == "error" {
            break msg;
        }
    };
    assert_eq!(e["rule"], "self_check", "{e}");
    assert_eq!(e["square"], "4h");
    assert!(e.get("file").is_none(), "{e}");
    // A square without a piece of the mover's: named at the origin.
    ws.send(json!({"type": "move", "usi": "5e5d"})).await;
    let e = loop {
        let msg = ws.next().await;
        if msg["type"] == "error" {
            break msg;
        }
    };
    assert_eq!(e["rule"], "no_piece", "{e}");
    assert_eq!(e["square"], "5e");
    // Errors that are not refused moves have a code of their own and no rule.
    ws.send(json!({"type": "fly"})).await;
    let e = ws.next().await;
    assert_eq!(e["type"], "error");
    assert_eq!(e["code"], "bad_message", "{e}");
    assert!(e.get("rule").is_none(), "{e}");
    s.shutdown().await;
}

#[tokio::test]
async fn a_nifu_that_loses_names_the_rule_in_the_status_and_the_record() {
    let dir = TempDir::new("nifu-lose");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(local(json!({"rules": {"illegal": "lose"}}))).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    ws.play_all(&BEFORE_NIFU).await;
    ws.send(json!({"type": "move", "usi": "P*5e"})).await;
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(end["status"]["winner"], "gote");
    assert_eq!(end["status"]["foul"]["rule"], "nifu", "{end}");
    assert_eq!(end["status"]["foul"]["file"], 5);
    assert_eq!(end["status"]["foul"]["move"], "P*5e");
    let (code, _, kif) = s
        .get_text(&format!("/api/games/{id}/record?format=kif"))
        .await;
    assert_eq!(code, 200);
    assert!(kif.contains("*反則: 二歩（５筋）"), "{kif}");
    // The record reads back with the comment on the last move written.
    let rec = shogi_record::read(kif.as_bytes()).unwrap();
    assert_eq!(rec.moves.len(), BEFORE_NIFU.len());
    assert!(
        rec.moves[7].comments[0].starts_with("反則: 二歩"),
        "{rec:?}"
    );
    s.shutdown().await;
}

#[tokio::test]
async fn fourfold_repetition_is_a_draw() {
    let dir = TempDir::new("repetition");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "local"})).await;
    let mut ws = s
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    let end = ws.play_all(&moves).await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": null, "reason": "repetition"})
    );
    s.shutdown().await;
}

#[tokio::test]
async fn illegal_move_loses_when_the_rules_say_so() {
    let dir = TempDir::new("illegal-lose");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(local(json!({"rules": {"illegal": "lose"}}))).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    ws.play("7g7f").await;
    ws.send(json!({"type": "move", "usi": "3c3e"})).await;
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(end["status"]["over"], true);
    assert_eq!(end["status"]["winner"], "sente");
    assert_eq!(end["status"]["reason"], "illegal_move");
    assert_eq!(end["status"]["foul"]["kind"], "illegal_move");
    assert_eq!(end["status"]["foul"]["move"], "3c3e");
    assert!(end["status"]["foul"]["rule"].is_string(), "{end}");
    assert_eq!(end["moves"], json!(["7g7f", "3c3e"]));
    s.shutdown().await;
}

#[tokio::test]
async fn max_moves_draws() {
    let dir = TempDir::new("max");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(local(json!({"rules": {"max_moves": 2}}))).await;
    let mut ws = s
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    let end = ws.play_all(&["7g7f", "3c3d"]).await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": null, "reason": "max_moves"})
    );
    s.shutdown().await;
}

/// Sente's king and 17 pieces in Gote's camp, rooks and bishops in hand: 37 points.
const DECLARABLE: &str = "4K4/GGGG1SSSS/PPPPPPPPP/9/9/9/9/9/4k4 b 2R2B 1";

#[tokio::test]
async fn declaration_under_27_wins_with_enough_points() {
    let dir = TempDir::new("declare");
    let s = TestServer::start(&dir.db()).await;
    let g = s
        .create(local(
            json!({"sfen": DECLARABLE, "rules": {"impasse": "27"}}),
        ))
        .await;
    let id = g["id"].as_str().unwrap();
    let state = s.state(id).await;
    assert_eq!(state["impasse"]["can_declare"], true);
    assert_eq!(state["impasse"]["sente_points"], 37);
    let mut ws = s.connect(id, g["token"].as_str()).await;
    ws.send(json!({"type": "declare"})).await;
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "sente", "reason": "impasse"})
    );
    s.shutdown().await;
}

#[tokio::test]
async fn failed_declaration_under_27_loses() {
    let dir = TempDir::new("declare-fail");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(local(json!({"rules": {"impasse": "27"}}))).await;
    let mut ws = s
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    ws.send(json!({"type": "declare"})).await;
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "gote", "reason": "impasse",
               "foul": {"kind": "false_declaration"}})
    );
    s.shutdown().await;
}

/// Both kings entered; Sente holds 24 points, Gote 16.
const ENTERED: &str = "K8/9/9/9/9/9/9/9/8k b 2R2B4G4s4n4l4p 1";

#[tokio::test]
async fn count24_proposal_accepted_ends_by_the_count() {
    let dir = TempDir::new("count");
    let s = TestServer::start(&dir.db()).await;
    let g = s
        .create(json!({"mode": "friend", "side": "sente", "sfen": ENTERED}))
        .await;
    let id = g["id"].as_str().unwrap();
    let code = g["invite"].as_str().unwrap().split("join=").nth(1).unwrap();
    let (_, joined) = s
        .request(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(&json!({"invite": code})),
        )
        .await;
    let mut host = s.connect(id, g["token"].as_str()).await;
    let mut guest = s.connect(id, joined["token"].as_str()).await;
    let state = s.state(id).await;
    assert_eq!(state["impasse"]["can_propose_count"], true);
    assert_eq!(state["impasse"]["sente_points"], 24);

    // Declined: play goes on.
    host.send(json!({"type": "propose_count"})).await;
    guest
        .state_where(|v| v["impasse"]["count_proposed_by"] == "sente")
        .await;
    host.send(json!({"type": "accept_count"})).await;
    assert_eq!(host.error().await, "the other player answers a proposal");
    guest.send(json!({"type": "decline_count"})).await;
    guest
        .state_where(|v| v["impasse"]["count_proposed_by"].is_null())
        .await;

    // Proposed again and accepted: Sente has 24, Gote 16.
    host.send(json!({"type": "propose_count"})).await;
    guest
        .state_where(|v| v["impasse"]["count_proposed_by"] == "sente")
        .await;
    guest.send(json!({"type": "accept_count"})).await;
    let end = guest.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "sente", "reason": "impasse"})
    );
    s.shutdown().await;
}

#[tokio::test]
async fn count_cannot_be_proposed_before_both_kings_enter() {
    let dir = TempDir::new("count-early");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(json!({"mode": "local"})).await;
    let mut ws = s
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    ws.send(json!({"type": "propose_count"})).await;
    assert!(ws.error().await.contains("both kings"));
    ws.send(json!({"type": "declare"})).await;
    assert!(ws.error().await.contains("no declaration"));
    s.shutdown().await;
}

#[tokio::test]
async fn ai_game_answers_moves_by_itself() {
    let dir = TempDir::new("ai");
    let s = TestServer::start(&dir.db()).await;
    // The computer plays Sente and moves first.
    let g = s
        .create(json!({"mode": "ai", "side": "gote", "ai": {"level": 2}}))
        .await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    let state = ws
        .state_where(|v| v["moves"].as_array().unwrap().len() == 1)
        .await;
    assert_eq!(state["side_to_move"], "gote");
    assert_eq!(state["impasse"]["rule"], "27");
    assert_eq!(state["you"], "gote");
    let reply = state["dests"].as_object().unwrap().iter().next().unwrap();
    let usi = format!("{}{}", reply.0, reply.1[0].as_str().unwrap());
    ws.send(json!({"type": "move", "usi": usi})).await;
    ws.state_where(|v| v["moves"].as_array().unwrap().len() == 3)
        .await;
    s.shutdown().await;
}

#[tokio::test]
async fn try_rule_king_on_the_enemy_king_square_wins() {
    let dir = TempDir::new("try");
    let s = TestServer::start(&dir.db()).await;
    let g = s
        .create(local(
            json!({"sfen": "9/4K4/9/9/9/9/9/9/k8 b - 1", "rules": {"impasse": "try"}}),
        ))
        .await;
    let mut ws = s
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    let end = ws.play("5b5a").await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "sente", "reason": "try"})
    );
    // A try, not a foul, in the record's JSON and in the archive.
    let id = g["id"].as_str().unwrap();
    let (_, rec) = s
        .request("GET", &format!("/api/games/{id}/record?format=json"), None)
        .await;
    assert_eq!(rec["ending"], json!({"reason": "try", "winner": "sente"}));
    let (_, list) = s.request("GET", "/api/archive", None).await;
    assert_eq!(list["entries"][0]["reason"], "try", "{list}");
    // And in the records we write: KIF's トライ (read back as the try), CSA's %TRY.
    for (format, word) in [("kif", "トライ"), ("csa", "%TRY")] {
        let (status, head, text) = s
            .get_text(&format!("/api/games/{id}/record?format={format}"))
            .await;
        assert_eq!(status, 200, "{head}");
        assert!(text.contains(word), "{text}");
        assert!(
            !text.contains("反則") && !text.contains("ILLEGAL"),
            "{text}"
        );
        let read = shogi_record::read(text.as_bytes()).unwrap();
        assert_eq!(
            read.ending,
            shogi_record::Ending::Game(shogi_core::Ending::Try {
                winner: shogi_core::Color::Sente
            }),
            "{text}"
        );
    }
    s.shutdown().await;
}

#[tokio::test]
async fn the_computer_accepts_a_count_at_once() {
    let dir = TempDir::new("ai-count");
    let s = TestServer::start(&dir.db()).await;
    let g = s
        .create(json!({"mode": "ai", "side": "sente", "sfen": ENTERED, "rules": {"impasse": "count24"}}))
        .await;
    let mut ws = s
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    ws.send(json!({"type": "propose_count"})).await;
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "sente", "reason": "impasse"})
    );
    s.shutdown().await;
}

#[tokio::test]
async fn perpetual_check_loses_for_the_checking_side() {
    let dir = TempDir::new("perpetual");
    let s = TestServer::start(&dir.db()).await;
    // Sente's rook checks from 5h and 4h in turn; the fourth occurrence loses for Sente.
    let g = s
        .create(local(json!({"sfen": "4k4/9/9/9/9/9/9/5R3/4K4 b - 1"})))
        .await;
    let mut ws = s
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    let cycle = ["4h5h", "5a4a", "5h4h", "4a5a"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    let end = ws.play_all(&moves).await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "gote", "reason": "perpetual_check"})
    );
    s.shutdown().await;
}

#[tokio::test]
async fn declaration_under_24_wins_draws_by_points() {
    for (sfen, winner) in [
        // 17 pieces in the camp and two rooks and bishops in hand: 37 points, a win.
        (DECLARABLE, json!("sente")),
        // Two rooks only: 27 points, 24-30 is a draw.
        ("4K4/GGGG1SSSS/PPPPPPPPP/9/9/9/9/9/4k4 b 2R 1", json!(null)),
    ] {
        let dir = TempDir::new("declare24");
        let s = TestServer::start(&dir.db()).await;
        let g = s
            .create(local(json!({"sfen": sfen, "rules": {"impasse": "24"}})))
            .await;
        let mut ws = s
            .connect(g["id"].as_str().unwrap(), g["token"].as_str())
            .await;
        ws.send(json!({"type": "declare"})).await;
        let end = ws.state_where(|v| v["status"]["over"] == true).await;
        assert_eq!(
            end["status"],
            json!({"over": true, "winner": winner, "reason": "impasse"}),
            "{sfen}"
        );
        s.shutdown().await;
    }
}

#[tokio::test]
async fn unknown_pages_get_the_client_with_404_and_unknown_api_routes_the_json_error() {
    let dir = TempDir::new("not-found");
    let s = TestServer::start(&dir.db()).await;
    let (status, head, body) = s.get_text("/games").await;
    assert_eq!(status, 404, "{head}");
    assert!(head.to_ascii_lowercase().contains("text/html"), "{head}");
    assert!(body.contains("/assets/app.js"));
    let (status, body) = s.request("GET", "/api/no-such-route", None).await;
    assert_eq!(status, 404);
    assert_eq!(
        body,
        json!({"error": "no such API route", "code": "no_such_route"})
    );
    // Known pages are still 200.
    let (status, head, _) = s.get_text("/archive").await;
    assert_eq!(status, 200, "{head}");
    s.shutdown().await;
}
