//! The analysis board's routes over HTTP: the engine's lines, the export of
//! a line, a position's diagram, the handicaps, and their limits.

mod common;

use common::{header, raw, send_text, TempDir, TestServer};
use serde_json::{json, Value};
use shogi_server::limits::rates::{Rate, RateLimits};

/// Gote mates with G*5h (the Sente king on 5i, a Gote gold on 5g).
const GOTE_MATES: &str = "4k4/9/9/9/9/9/4g4/9/4K4 w g 1";

#[tokio::test]
async fn analyse_gives_each_line_from_sentes_view() {
    let tmp = TempDir::new("board-analyse");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, body) = ts
        .request(
            "POST",
            "/api/analyse",
            Some(&json!({"sfen": GOTE_MATES, "multipv": 2, "time_ms": 300})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let lines = body["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{body}");
    assert_eq!(lines[0]["pv"][0], "G*5h");
    assert_eq!(lines[0]["mate"], -1);
    assert_eq!(lines[0]["score_cp"], -10_000);
    assert_ne!(lines[1]["pv"][0], "G*5h");
    assert!(body["depth"].as_u64().unwrap() >= 1 && body["nodes"].as_u64().unwrap() > 0);
    ts.shutdown().await;
}

#[tokio::test]
async fn analyse_refuses_bad_numbers_and_illegal_positions() {
    let tmp = TempDir::new("board-analyse-bad");
    let ts = TestServer::start(&tmp.db()).await;
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    for (body, words) in [
        (json!({"sfen": start, "multipv": 4}), "multipv"),
        (json!({"sfen": start, "time_ms": 3001}), "time_ms"),
        (json!({"sfen": "4k4/9/9/9/9/9/9/9/9 b - 1"}), "no king"),
        (json!({"sfen": "4k4/4P4/9/9/4P4/9/9/9/4K4 b - 1"}), "pawns"),
        (json!({"sfen": start, "depth": 3}), "unknown field"),
    ] {
        let (status, answer) = ts.request("POST", "/api/analyse", Some(&body)).await;
        assert_eq!(status, 400, "{body}: {answer}");
        let msg = answer["error"].as_str().unwrap();
        assert!(msg.contains(words), "{body}: {msg}");
    }
    ts.shutdown().await;
}

#[tokio::test]
async fn analyses_over_the_limit_are_refused_and_the_default_is_120_a_minute() {
    let tmp = TempDir::new("board-analyse-limit");
    let ts = TestServer::start_with_limits(
        &tmp.db(),
        &RateLimits {
            analyse: Rate::new(2, std::time::Duration::from_secs(60)),
            ..RateLimits::default()
        },
    )
    .await;
    let bad = json!({"sfen": "not a position"});
    for _ in 0..2 {
        assert_eq!(ts.request("POST", "/api/analyse", Some(&bad)).await.0, 400);
    }
    let (status, body) = ts.request("POST", "/api/analyse", Some(&bad)).await;
    assert_eq!(
        (status, body),
        (
            429,
            json!({"error": "too many analysis requests; try again in 60 s", "code": "too_many_requests", "retry_after_s": 60})
        )
    );
    assert_eq!(RateLimits::default().analyse.count, 120);
    ts.shutdown().await;
}

async fn export(ts: &TestServer, body: &Value) -> (u16, String) {
    let (status, _, text) =
        send_text(&ts.addr(), "POST", "/api/export", "", &body.to_string()).await;
    (status, text)
}

#[tokio::test]
async fn export_writes_the_line_and_its_variations_in_each_format() {
    let tmp = TempDir::new("board-export");
    let ts = TestServer::start(&tmp.db()).await;
    let line = |format: &str| {
        json!({
            "sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "moves": ["7g7f", "3c3d", "8h2b+"],
            "variations": [{"at": 1, "moves": ["8c8d"]}],
            "format": format,
        })
    };
    let (status, kif) = export(&ts, &line("kif")).await;
    assert_eq!(status, 200, "{kif}");
    assert!(
        kif.contains("７六歩(77)") && kif.contains("２二角成(88)"),
        "{kif}"
    );
    assert!(
        kif.contains("変化：2手") && kif.contains("８四歩(83)"),
        "{kif}"
    );
    let (_, ki2) = export(&ts, &line("ki2")).await;
    assert!(
        ki2.contains("▲７六歩") && ki2.contains("▲２二角成"),
        "{ki2}"
    );
    let (_, csa) = export(&ts, &line("csa")).await;
    assert!(csa.contains("+7776FU") && csa.contains("+8822UM"), "{csa}");
    let (_, usi) = export(&ts, &line("sfen")).await;
    assert_eq!(usi.trim(), "position startpos moves 7g7f 3c3d 8h2b+");
    let (_, usen) = export(&ts, &line("usen")).await;
    let back = shogi_record::usen::read(&usen).unwrap();
    assert_eq!(back.moves[1].variations[0][0].mv.to_string(), "8c8d");
    ts.shutdown().await;
}

#[tokio::test]
async fn export_names_the_move_it_refuses() {
    let tmp = TempDir::new("board-export-bad");
    let ts = TestServer::start(&tmp.db()).await;
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    for (body, words) in [
        (
            json!({"sfen": sfen, "moves": ["7g7f", "7f7e"], "format": "kif"}),
            "moves[1]: 7f7e is not legal",
        ),
        (
            json!({"sfen": sfen, "moves": ["7x7f"], "format": "kif"}),
            "moves[0]: \"7x7f\"",
        ),
        (
            json!({"sfen": sfen, "moves": ["7g7f"], "variations": [{"at": 0, "moves": ["2g2f", "2f2e"]}], "format": "kif"}),
            "variations[0][1]: 2f2e is not legal",
        ),
        (
            json!({"sfen": sfen, "moves": ["7g7f"], "variations": [{"at": 1, "moves": ["3c3d"]}], "format": "kif"}),
            "past the main line",
        ),
        (json!({"sfen": sfen, "format": "pgn"}), "unknown format"),
    ] {
        let (status, text) = export(&ts, &body).await;
        assert_eq!(status, 400, "{body}: {text}");
        assert!(text.contains(&words.replace('"', "\\\"")), "{body}: {text}");
    }
    let long: Vec<&str> = std::iter::repeat_n("7g7f", 2001).collect();
    let (status, text) = export(&ts, &json!({"sfen": sfen, "moves": long, "format": "kif"})).await;
    assert!(status == 400 || status == 413, "{status} {text}");
    ts.shutdown().await;
}

#[tokio::test]
async fn a_diagram_of_a_position_is_a_png_and_a_bad_one_is_refused() {
    let tmp = TempDir::new("board-diagram");
    let ts = TestServer::start(&tmp.db()).await;
    let sfen = "4k4/9/9/9/9/9/4g4/4g4/4K4%20b%20-%202";
    let (status, head, png) = raw(
        &ts.addr(),
        "GET",
        &format!("/api/diagram.png?sfen={sfen}&last=G*5h&width=300"),
        b"",
    )
    .await;
    assert_eq!(status, 200, "{head}");
    assert_eq!(header(&head, "content-type"), Some("image/png"));
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
    assert_eq!(width, 300);
    let (status, _, _) = raw(
        &ts.addr(),
        "GET",
        "/api/diagram.png?sfen=9%2F9%20b%20-%201",
        b"",
    )
    .await;
    assert_eq!(status, 400);
    let (status, _, _) = raw(
        &ts.addr(),
        "GET",
        &format!("/api/diagram.png?sfen={sfen}&last=zz"),
        b"",
    )
    .await;
    assert_eq!(status, 400);
    ts.shutdown().await;
}

#[tokio::test]
async fn the_handicaps_are_the_rules_table() {
    let tmp = TempDir::new("board-handicaps");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, list) = ts.request("GET", "/api/handicaps", None).await;
    assert_eq!(status, 200);
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), shogi_core::Handicap::ALL.len());
    assert_eq!(list[0]["name"], "even");
    let rook = list.iter().find(|h| h["name"] == "rook").unwrap();
    assert_eq!(rook["kif"], "飛車落ち");
    let pos = shogi_core::sfen::parse_position(rook["sfen"].as_str().unwrap()).unwrap();
    assert_eq!(pos, shogi_core::Handicap::Rook.position());
    ts.shutdown().await;
}

#[tokio::test]
async fn the_analysis_page_is_the_client() {
    let tmp = TempDir::new("board-page");
    let ts = TestServer::start(&tmp.db()).await;
    let (status, _, html) = ts.get_text("/analysis").await;
    assert_eq!(status, 200);
    assert!(html.contains("/assets/app.js"), "{html}");
    ts.shutdown().await;
}
