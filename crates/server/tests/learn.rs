//! The learn pages' routes over HTTP: `POST /api/play` (a legal move, a
//! refused one with its rule, positions without kings, bad input) and the
//! account's progress (`GET`/`PUT /api/me/learn`: only known exercise ids,
//! merged, kept per account, gone with the account).

mod common;

use common::{account, TempDir, TestServer, PASSWORD};
use serde_json::json;

#[tokio::test]
async fn play_answers_the_position_after_a_legal_move() {
    let dir = TempDir::new("learn-play");
    let s = TestServer::start(&dir.db()).await;
    let (status, v) = s
        .request(
            "POST",
            "/api/play",
            Some(&json!({"sfen": "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "move": "G*5b"})),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["legal"], true);
    assert_eq!(v["sfen"], "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 2");
    assert_eq!(
        (v["in_check"].clone(), v["checkmate"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(v["legal_moves"]["side_to_move"], "gote");
    assert_eq!(v["legal_moves"]["dests"], json!({}));

    // A lone rook, no kings at all: the lessons' positions.
    let (status, v) = s
        .request(
            "POST",
            "/api/play",
            Some(&json!({"sfen": "9/9/9/9/9/9/9/9/R8 b - 1", "move": "9i9a+"})),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["sfen"], "+R8/9/9/9/9/9/9/9/9 w - 2");
    assert_eq!(v["in_check"], false);
    s.shutdown().await;
}

#[tokio::test]
async fn play_names_the_rule_of_a_refused_move_as_a_room_does() {
    let dir = TempDir::new("learn-refused");
    let s = TestServer::start(&dir.db()).await;
    let cases = [
        (
            "9/9/9/9/9/9/2P6/9/4K4 b P 1",
            "P*7e",
            json!({"legal": false, "code": "illegal_move", "move": "P*7e", "rule": "nifu", "square": "7e", "file": 7}),
        ),
        (
            "9/9/9/9/9/9/9/9/4K4 b N 1",
            "N*5b",
            json!({"legal": false, "code": "illegal_move", "move": "N*5b", "rule": "dead_piece", "square": "5b"}),
        ),
        (
            "7nk/9/7G1/9/9/9/9/9/4K4 b P 1",
            "P*1b",
            json!({"legal": false, "code": "illegal_move", "move": "P*1b", "rule": "uchifuzume", "square": "1b"}),
        ),
        (
            "9/9/9/9/3p5/4K4/9/9/9 b - 1",
            "5f6f",
            json!({"legal": false, "code": "illegal_move", "move": "5f6f", "rule": "self_check", "square": "6f"}),
        ),
        (
            "9/9/9/9/9/9/9/9/4K4 b - 1",
            "3c3d",
            json!({"legal": false, "code": "illegal_move", "move": "3c3d", "rule": "no_piece", "square": "3c"}),
        ),
    ];
    for (sfen, mv, want) in cases {
        let (status, v) = s
            .request(
                "POST",
                "/api/play",
                Some(&json!({"sfen": sfen, "move": mv})),
            )
            .await;
        assert_eq!((status, v), (200, want), "{mv} on {sfen}");
    }
    s.shutdown().await;
}

#[tokio::test]
async fn play_and_legal_refuse_bad_input_with_the_json_error() {
    let dir = TempDir::new("learn-bad");
    let s = TestServer::start(&dir.db()).await;
    for body in [
        json!({"sfen": "not a position", "move": "7g7f"}),
        json!({"sfen": "9/9/9/9/9/9/9/9/9 b - 1", "move": "7g7"}),
        json!({"sfen": "9/9/9/9/9/9/9/9/9 b - 1"}),
        json!({"sfen": "9/".repeat(120), "move": "7g7f"}),
        json!({"sfen": "9/9/9/9/9/9/9/9/9 b - 1", "move": "7g7f".repeat(8)}),
        json!({"sfen": "9/9/9/9/9/9/9/9/9 b - 1", "move": "7g7f", "extra": 1}),
    ] {
        let (status, v) = s.request("POST", "/api/play", Some(&body)).await;
        assert_eq!(status, 400, "{body}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    // /api/legal reads a position without kings when asked to (a lesson's
    // board), refuses it otherwise (the editor's check), and refuses a bad one.
    let lone = "9/9/9/9/4B4/9/9/9/9 b - 1";
    let (status, v) = s
        .request(
            "POST",
            "/api/legal",
            Some(&json!({"sfen": lone, "missing_kings": true})),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["dests"]["5e"].as_array().unwrap().len(), 16);
    let (status, v) = s
        .request("POST", "/api/legal", Some(&json!({"sfen": lone})))
        .await;
    assert_eq!((status, &v["code"]), (400, &json!("bad_sfen")), "{v}");
    let (status, _) = s
        .request("POST", "/api/legal", Some(&json!({"sfen": "9/9/9 b - 1"})))
        .await;
    assert_eq!(status, 400);
    s.shutdown().await;
}

#[tokio::test]
async fn an_account_keeps_its_progress_and_merges_more() {
    let dir = TempDir::new("learn-progress");
    let s = TestServer::start(&dir.db()).await;
    let (status, _) = s.request("GET", "/api/me/learn", None).await;
    assert_eq!(status, 401, "a guest has no server progress");

    let (alice, _) = account(&s, "alice").await;
    let (bob, _) = account(&s, "bob").await;
    let get = |cookie: String| {
        let s = &s;
        async move {
            let (status, _, v) = s
                .request_with("GET", "/api/me/learn", &[&cookie], None)
                .await;
            assert_eq!(status, 200, "{v}");
            v
        }
    };
    assert_eq!(get(alice.clone()).await, json!({"done": []}));

    let (status, _, v) = s
        .request_with(
            "PUT",
            "/api/me/learn",
            &[&alice],
            Some(&json!({"done": ["king-1", "board-1", "board-1"]})),
        )
        .await;
    assert_eq!((status, v), (200, json!({"done": ["board-1", "king-1"]})));
    // More merges in; what is there stays.
    let (status, _, v) = s
        .request_with(
            "PUT",
            "/api/me/learn",
            &[&alice],
            Some(&json!({"done": ["nifu-2"]})),
        )
        .await;
    assert_eq!(
        (status, v),
        (200, json!({"done": ["board-1", "king-1", "nifu-2"]}))
    );
    // An unknown id refuses the whole request.
    let (status, _, v) = s
        .request_with(
            "PUT",
            "/api/me/learn",
            &[&alice],
            Some(&json!({"done": ["rook-1", "no-such-1"]})),
        )
        .await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no-such-1"), "{v}");
    assert_eq!(
        get(alice.clone()).await["done"].as_array().unwrap().len(),
        3
    );
    // Each account its own.
    assert_eq!(get(bob.clone()).await, json!({"done": []}));

    // The body is size-limited: known ids, but too many bytes of them.
    let many = vec!["rook-1"; 1200];
    let (status, _, v) = s
        .request_with(
            "PUT",
            "/api/me/learn",
            &[&alice],
            Some(&json!({ "done": many })),
        )
        .await;
    assert_eq!((status, &v["code"]), (413, &json!("too_large")), "{v}");
    assert!(v["error"].as_str().unwrap().contains("length limit"), "{v}");
    assert_eq!(
        get(alice.clone()).await["done"].as_array().unwrap().len(),
        3
    );

    // Deleting the account deletes its progress (a new alice starts empty).
    let (status, _, v) = s
        .request_with(
            "DELETE",
            "/api/account",
            &[&alice],
            Some(&json!({"password": PASSWORD})),
        )
        .await;
    assert_eq!(status, 204, "{v}");
    let (again, _) = account(&s, "alice").await;
    assert_eq!(get(again).await, json!({"done": []}));
    s.shutdown().await;
}
