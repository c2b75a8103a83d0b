//! Clocks kept by the server, on a manual clock the tests move: byoyomi,
//! periods, Fischer increment, and the flag falling without any client.

mod common;

use common::{local, TempDir, TestServer};
use serde_json::{json, Value};

fn clock(state: &Value, side: &str) -> (u64, u64, u64) {
    let c = &state["clocks"][side];
    (
        c["main_ms"].as_u64().unwrap(),
        c["byoyomi_ms"].as_u64().unwrap(),
        c["periods_left"].as_u64().unwrap(),
    )
}

fn timed(main_ms: u64, byoyomi_ms: u64, periods: u32, increment_ms: u64) -> Value {
    local(json!({"time": {
        "main_ms": main_ms, "byoyomi_ms": byoyomi_ms, "periods": periods, "increment_ms": increment_ms
    }}))
}

#[tokio::test]
async fn a_move_at_exactly_zero_main_time_enters_byoyomi() {
    let dir = TempDir::new("byoyomi-enter");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(timed(10_000, 30_000, 1, 0)).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    assert_eq!(s.state(id).await["clocks"]["running"], "sente");

    s.advance(10_000);
    let st = ws.play("7g7f").await;
    assert_eq!(clock(&st, "sente"), (0, 30_000, 1));
    assert_eq!(st["clocks"]["running"], "gote");
    ws.play("3c3d").await;
    // Inside the period: it is kept.
    s.advance(29_999);
    let st = ws.play("2g2f").await;
    assert_eq!(clock(&st, "sente"), (0, 30_000, 1));
    ws.play("8c8d").await;
    // The whole period: the flag falls, with no message from anyone.
    s.advance(30_000);
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "gote", "reason": "timeout"})
    );
    assert_eq!(end["clocks"]["running"], json!(null));
    ws.send(json!({"type": "move", "usi": "2f2e"})).await;
    assert!(ws.error().await.contains("over"));
    s.shutdown().await;
}

#[tokio::test]
async fn zero_main_time_and_thirty_seconds_byoyomi() {
    let dir = TempDir::new("byoyomi-only");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(timed(0, 30_000, 1, 0)).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    s.advance(29_000);
    let st = ws.play("7g7f").await;
    assert_eq!(clock(&st, "sente"), (0, 30_000, 1));
    // Gote thinks 12 s: the reading counts down inside the period.
    s.advance(12_000);
    assert_eq!(clock(&s.state(id).await, "gote"), (0, 18_000, 1));
    s.advance(18_000);
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(end["status"]["winner"], "sente");
    assert_eq!(end["status"]["reason"], "timeout");
    s.shutdown().await;
}

#[tokio::test]
async fn running_over_a_period_uses_it_up() {
    let dir = TempDir::new("periods");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(timed(0, 10_000, 3, 0)).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    s.advance(25_000);
    let st = ws.play("7g7f").await;
    assert_eq!(clock(&st, "sente"), (0, 10_000, 1));
    ws.play("3c3d").await;
    s.advance(9_000);
    assert_eq!(clock(&s.state(id).await, "sente"), (0, 1_000, 1));
    s.advance(1_000);
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(
        end["status"],
        json!({"over": true, "winner": "gote", "reason": "timeout"})
    );
    assert_eq!(clock(&end, "sente"), (0, 0, 0));
    s.shutdown().await;
}

#[tokio::test]
async fn fischer_increment_is_added_after_each_move() {
    let dir = TempDir::new("fischer");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(timed(60_000, 0, 1, 5_000)).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    s.advance(10_000);
    let st = ws.play("7g7f").await;
    assert_eq!(clock(&st, "sente").0, 55_000);
    s.advance(1_000);
    let st = ws.play("3c3d").await;
    assert_eq!(clock(&st, "gote").0, 64_000);
    s.advance(55_000);
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(end["status"]["reason"], "timeout");
    assert_eq!(end["status"]["winner"], "gote");
    s.shutdown().await;
}

#[tokio::test]
async fn friend_game_clock_waits_for_the_invitee() {
    let dir = TempDir::new("friend-clock");
    let s = TestServer::start(&dir.db()).await;
    let g = s
        .create(json!({"mode": "friend", "time": {"main_ms": 5_000}}))
        .await;
    let id = g["id"].as_str().unwrap();
    s.advance(60_000);
    let st = s.state(id).await;
    assert_eq!(st["status"]["over"], false);
    assert_eq!(st["clocks"]["running"], json!(null));
    let code = g["invite"].as_str().unwrap().split("join=").nth(1).unwrap();
    let (status, _) = s
        .request(
            "POST",
            &format!("/api/games/{id}/join"),
            Some(&json!({"invite": code})),
        )
        .await;
    assert_eq!(status, 200);
    let mut ws = s.connect(id, None).await;
    s.advance(5_000);
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(end["status"]["reason"], "timeout");
    s.shutdown().await;
}

#[tokio::test]
async fn resigning_stops_the_clock() {
    let dir = TempDir::new("resign-clock");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(timed(60_000, 0, 1, 0)).await;
    let id = g["id"].as_str().unwrap();
    let mut ws = s.connect(id, g["token"].as_str()).await;
    s.advance(4_000);
    ws.send(json!({"type": "resign"})).await;
    let end = ws.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(end["status"]["winner"], "gote");
    assert_eq!(clock(&end, "sente").0, 56_000);
    s.advance(100_000);
    assert_eq!(clock(&s.state(id).await, "sente").0, 56_000);
    s.shutdown().await;
}
