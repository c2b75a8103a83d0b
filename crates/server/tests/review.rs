//! The review board's server side: saved annotations (comments and
//! variations), legal moves for a position, PNG diagrams.

mod common;

use common::{local, raw, TempDir, TestServer};
use serde_json::{json, Value};

const KIF: &str = "手合割：平手\n先手：Alice\n後手：Bob\n手数----指手---------消費時間--\n\
   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\n";

/// Imports `KIF`; the id and the owner token.
async fn import(ts: &TestServer) -> (String, String) {
    let (status, _, body) = raw(&ts.addr(), "POST", "/api/import?save=1", KIF.as_bytes()).await;
    let v: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(status, 201, "{v}");
    (
        v["id"].as_str().unwrap().to_string(),
        v["token"].as_str().unwrap().to_string(),
    )
}

async fn record(ts: &TestServer, id: &str) -> Value {
    let (status, rec) = ts
        .request("GET", &format!("/api/games/{id}/record?format=json"), None)
        .await;
    assert_eq!(status, 200, "{rec}");
    rec
}

/// A main line of plain nodes.
fn nodes(moves: &[&str]) -> Vec<Value> {
    moves
        .iter()
        .map(|m| json!({"usi": m, "comments": [], "variations": []}))
        .collect()
}

#[tokio::test]
async fn a_variation_and_comments_are_saved_and_downloaded_in_kif_ki2_and_jkf() {
    let tmp = TempDir::new("review-save");
    let ts = TestServer::start(&tmp.db()).await;
    let (id, token) = import(&ts).await;
    let mut main = nodes(&["7g7f", "3c3d", "2g2f"]);
    main[0]["comments"] = json!(["A good start"]);
    // Instead of 3c3d: 8c8d 2g2f, with a comment on 2g2f.
    main[1]["variations"] = json!([[
        {"usi": "8c8d", "comments": [], "variations": []},
        {"usi": "2g2f", "comments": ["The other plan"], "variations": []},
    ]]);
    let body = json!({"token": token, "start_comments": ["Before the game"], "nodes": main});
    let (status, saved) = ts
        .request("PUT", &format!("/api/games/{id}/annotations"), Some(&body))
        .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["nodes"][0]["comments"], json!(["A good start"]));

    let back = record(&ts, &id).await;
    assert_eq!(back["start_comments"], json!(["Before the game"]));
    assert_eq!(back["nodes"][1]["variations"][0][1]["usi"], "2g2f");
    assert_eq!(
        back["nodes"][1]["variations"][0][1]["comments"],
        json!(["The other plan"])
    );
    assert_eq!(back["ending"]["reason"], "resign", "the ending is kept");

    let (status, _, kif) = ts
        .get_text(&format!("/api/games/{id}/record?format=kif"))
        .await;
    assert_eq!(status, 200);
    assert!(kif.contains("*A good start"), "{kif}");
    assert!(kif.contains("変化：2手"), "{kif}");
    assert!(kif.contains("*The other plan"), "{kif}");
    for format in ["kif", "ki2", "jkf"] {
        let (status, _, body) = ts
            .get_text(&format!("/api/games/{id}/record?format={format}"))
            .await;
        assert_eq!(status, 200, "{format}");
        let rec = shogi_record::read(body.as_bytes()).unwrap_or_else(|e| panic!("{format}: {e}"));
        assert_eq!(rec.moves.len(), 3, "{format}");
        assert_eq!(rec.moves[0].comments, ["A good start"], "{format}");
        let var = &rec.moves[1].variations[0];
        let moves: Vec<String> = var.iter().map(|n| n.mv.to_string()).collect();
        assert_eq!(moves, ["8c8d", "2g2f"], "{format}");
        assert_eq!(var[1].comments, ["The other plan"], "{format}");
    }

    // Saving again replaces everything: the comment and the variation go.
    let body = json!({"token": token, "nodes": nodes(&["7g7f", "3c3d", "2g2f"])});
    let (status, _) = ts
        .request("PUT", &format!("/api/games/{id}/annotations"), Some(&body))
        .await;
    assert_eq!(status, 200);
    let back = record(&ts, &id).await;
    assert_eq!(back["nodes"][0]["comments"], json!([]));
    assert_eq!(back["nodes"][1]["variations"], json!([]));
    ts.shutdown().await;
}

#[tokio::test]
async fn bad_annotations_are_refused_with_the_problem_named_and_nothing_stored() {
    let tmp = TempDir::new("review-bad");
    let ts = TestServer::start(&tmp.db()).await;
    let (id, token) = import(&ts).await;
    let path = format!("/api/games/{id}/annotations");
    let before = record(&ts, &id).await;

    let mut illegal = nodes(&["7g7f", "3c3d", "2g2f"]);
    illegal[0]["comments"] = json!(["not stored"]);
    illegal[1]["variations"] = json!([[{"usi": "8c8d"}, {"usi": "2g2e"}]]);
    let cases = [
        (
            json!({"token": token, "nodes": illegal}),
            400,
            "nodes[1].variations[0][1]: 2g2e is not legal",
        ),
        (
            json!({"token": token, "nodes": nodes(&["7g7f", "7g7f", "2g2f"])}),
            400,
            "nodes[1]: 7g7f is not legal",
        ),
        (
            json!({"token": token, "nodes": [{"usi": "7g7f", "comments": ["a\nb"]}, {"usi": "3c3d"}, {"usi": "2g2f"}]}),
            400,
            "nodes[0].comments[0]: one line per entry",
        ),
        (
            json!({"token": token, "nodes": [{"usi": "7g7f", "variations": [[]]}, {"usi": "3c3d"}, {"usi": "2g2f"}]}),
            400,
            "nodes[0].variations[0]: an empty variation",
        ),
        (
            json!({"token": token, "nodes": [{"usi": "7g7f", "variations": [[{"usi": "xyz"}]]}, {"usi": "3c3d"}, {"usi": "2g2f"}]}),
            400,
            "nodes[0].variations[0][0]: bad move \"xyz\"",
        ),
        (
            json!({"token": "0".repeat(32), "nodes": nodes(&["7g7f", "3c3d", "2g2f"])}),
            403,
            "only whoever imported the record",
        ),
        (
            json!({"nodes": nodes(&["7g7f", "3c3d", "2g2f"])}),
            400,
            "token",
        ),
    ];
    for (body, want_status, want_msg) in cases {
        let (status, answer) = ts.request("PUT", &path, Some(&body)).await;
        assert_eq!(status, want_status, "{body}: {answer}");
        let msg = answer["error"].as_str().unwrap_or_default();
        assert!(msg.contains(want_msg), "{body}: {msg}");
    }
    assert_eq!(record(&ts, &id).await, before, "nothing was stored");
    let (status, _) = ts
        .request(
            "PUT",
            "/api/games/0123456789abcdef/annotations",
            Some(&json!({"token": token, "nodes": []})),
        )
        .await;
    assert_eq!(status, 404);
    ts.shutdown().await;
}

#[tokio::test]
async fn an_imported_records_variation_becomes_its_main_line_and_back() {
    let tmp = TempDir::new("review-promote");
    let ts = TestServer::start(&tmp.db()).await;
    let (id, token) = import(&ts).await;
    let path = format!("/api/games/{id}/annotations");
    assert_eq!(record(&ts, &id).await["main_line_fixed"], false);
    let entry = |list: &Value| {
        list["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == id.as_str())
            .unwrap()
            .clone()
    };
    // 8c8d 2g2f (a variation of 3c3d) promoted and one move added: the old line is its variation.
    let mut main = nodes(&["7g7f", "8c8d", "2g2f", "3a3b"]);
    main[1]["variations"] = json!([[{"usi": "3c3d"}, {"usi": "2g2f"}]]);
    let (status, answer) = ts
        .request("PUT", &path, Some(&json!({"token": token, "nodes": main})))
        .await;
    assert_eq!(status, 200, "{answer}");
    let back = record(&ts, &id).await;
    assert_eq!(back["moves"], json!(["7g7f", "8c8d", "2g2f", "3a3b"]));
    assert_eq!(back["nodes"][1]["variations"][0][0]["usi"], "3c3d");
    assert_eq!(
        back["ending"]["reason"],
        Value::Null,
        "the resignation ended the old line"
    );
    let (_, list) = ts.request("GET", "/api/archive", None).await;
    assert_eq!(entry(&list)["moves"], 4, "the archive lists the new line");
    assert_eq!(entry(&list)["reason"], Value::Null);
    // Promoted back: the file's own line, with its ending.
    let mut main = nodes(&["7g7f", "3c3d", "2g2f"]);
    main[1]["variations"] = json!([[{"usi": "8c8d"}, {"usi": "2g2f"}, {"usi": "3a3b"}]]);
    let (status, answer) = ts
        .request("PUT", &path, Some(&json!({"token": token, "nodes": main})))
        .await;
    assert_eq!(status, 200, "{answer}");
    let back = record(&ts, &id).await;
    assert_eq!(back["moves"], json!(["7g7f", "3c3d", "2g2f"]));
    assert_eq!(back["ending"]["reason"], "resign");
    let (_, list) = ts.request("GET", "/api/archive", None).await;
    assert_eq!(entry(&list)["moves"], 3);
    assert_eq!(entry(&list)["reason"], "resign");
    ts.shutdown().await;
}

#[tokio::test]
async fn a_played_game_is_annotated_by_its_players_once_it_is_over() {
    let tmp = TempDir::new("review-game");
    let ts = TestServer::start(&tmp.db()).await;
    let created = ts.create(local(json!({}))).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut ws = ts.connect(&id, Some(&token)).await;
    ws.play_all(&["7g7f", "3c3d"]).await;
    let path = format!("/api/games/{id}/annotations");
    let mut main = nodes(&["7g7f", "3c3d"]);
    main[0]["variations"] = json!([[{"usi": "2g2f"}, {"usi": "8c8d"}]]);
    let body = json!({"token": token, "nodes": main});
    let (status, answer) = ts.request("PUT", &path, Some(&body)).await;
    assert_eq!(status, 409, "still in progress: {answer}");
    ws.send(json!({"type": "resign"})).await;
    ws.state_where(|s| s["status"]["over"] == true).await;
    let (status, answer) = ts
        .request(
            "PUT",
            &path,
            Some(&json!({"token": "f".repeat(32), "nodes": main})),
        )
        .await;
    assert_eq!(status, 403, "{answer}");
    // The game's own moves cannot change: no promoted variation, no added move.
    for (moves, msg) in [
        (
            &["7g7f", "8c8d"][..],
            "nodes[1]: the main line has 3c3d here",
        ),
        (
            &["7g7f", "3c3d", "2g2f"][..],
            "the main line has 3 moves, the record 2",
        ),
    ] {
        let changed = json!({"token": token, "nodes": nodes(moves)});
        let (status, answer) = ts.request("PUT", &path, Some(&changed)).await;
        assert_eq!(status, 400, "{answer}");
        assert!(answer["error"].as_str().unwrap().contains(msg), "{answer}");
    }
    let (status, answer) = ts.request("PUT", &path, Some(&body)).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["main_line_fixed"], true);
    let (_, _, kif) = ts
        .get_text(&format!("/api/games/{id}/record?format=kif"))
        .await;
    assert!(kif.contains("変化：1手"), "{kif}");
    let rec = shogi_record::read(kif.as_bytes()).unwrap();
    assert_eq!(rec.main_line().len(), 2);
    assert!(
        matches!(
            rec.ending,
            shogi_record::Ending::Game(shogi_core::Ending::Resignation { .. })
        ),
        "{kif}"
    );
    assert_eq!(rec.moves[0].variations[0].len(), 2);
    // The annotations survive a restart.
    ts.shutdown().await;
    let ts = TestServer::start(&tmp.db()).await;
    assert_eq!(
        record(&ts, &id).await["nodes"][0]["variations"][0][0]["usi"],
        "2g2f"
    );
    ts.shutdown().await;
}

#[tokio::test]
async fn legal_moves_of_a_position() {
    let tmp = TempDir::new("review-legal");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, m) = ts
        .request(
            "POST",
            "/api/legal",
            Some(
                &json!({"sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{m}");
    assert_eq!(m["side_to_move"], "sente");
    assert_eq!(m["dests"]["7g"], json!(["7f"]));
    let total: usize = m["dests"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_array().unwrap().len())
        .sum();
    assert_eq!(total, 30);
    let (status, m) = ts
        .request(
            "POST",
            "/api/legal",
            Some(&json!({"sfen": "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"})),
        )
        .await;
    assert_eq!(status, 200, "{m}");
    assert_eq!(m["promotions"]["5c5b"], "may");
    assert!(m["drops"]["G"].as_array().unwrap().len() > 60, "{m}");
    let (status, _) = ts
        .request("POST", "/api/legal", Some(&json!({"sfen": "nonsense"})))
        .await;
    assert_eq!(status, 400);
    ts.shutdown().await;
}

#[tokio::test]
async fn png_and_svg_diagrams_of_main_line_and_variation_positions() {
    let tmp = TempDir::new("review-png");
    let ts = TestServer::start(&tmp.db()).await;
    let (id, _) = import(&ts).await;
    let (status, head, png) = raw(
        &ts.addr(),
        "GET",
        &format!("/api/games/{id}/diagram.png?ply=2"),
        b"",
    )
    .await;
    assert_eq!(status, 200, "{head}");
    assert!(head.contains("image/png"), "{head}");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "the PNG signature");
    let (status, _, small) = raw(
        &ts.addr(),
        "GET",
        &format!("/api/games/{id}/diagram.png?width=200&pieces=international"),
        b"",
    )
    .await;
    assert_eq!(status, 200);
    assert!(small.starts_with(b"\x89PNG"));
    for bad in ["ply=9", "width=5", "moves=7g7f,7g7f", "ply=1&moves=7g7f"] {
        let (status, _, _) = raw(
            &ts.addr(),
            "GET",
            &format!("/api/games/{id}/diagram.png?{bad}"),
            b"",
        )
        .await;
        assert_eq!(status, 400, "{bad}");
    }
    // A variation's position by its moves.
    let (status, _, svg) = ts
        .get_text(&format!("/api/games/{id}/diagram.svg?moves=7g7f,8c8d"))
        .await;
    assert_eq!(status, 200, "{svg}");
    assert!(svg.contains("<svg"), "{svg}");
    ts.shutdown().await;
}
