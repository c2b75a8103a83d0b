//! The per-address limits of games, imports and mate searches (every test
//! request comes from 127.0.0.1, so one address makes them all).

mod common;

use std::time::Duration;

use common::{header, local, raw, TempDir, TestServer};
use serde_json::json;
use shogi_server::limits::{Rate, RateLimits};

#[tokio::test]
async fn the_31st_game_in_a_minute_is_refused() {
    let tmp = TempDir::new("limits-games");
    let ts = TestServer::start_with_limits(&tmp.db(), &RateLimits::default()).await;
    for _ in 0..30 {
        ts.create(local(json!({}))).await;
    }
    let (status, head, body) = ts
        .request_with("POST", "/api/games", &[], Some(&local(json!({}))))
        .await;
    assert_eq!(status, 429);
    assert_eq!(header(&head, "retry-after"), Some("60"));
    assert_eq!(
        body,
        json!({"error": "too many games created; try again in 60 s", "code": "too_many_requests", "retry_after_s": 60})
    );
    ts.advance(60_000);
    ts.create(local(json!({}))).await;
    ts.shutdown().await;
}

#[tokio::test]
async fn the_11th_mate_search_in_a_minute_is_refused() {
    let tmp = TempDir::new("limits-mate");
    let ts = TestServer::start_with_limits(&tmp.db(), &RateLimits::default()).await;
    let bad = json!({"sfen": "not a position"});
    for _ in 0..10 {
        assert_eq!(ts.request("POST", "/api/mate", Some(&bad)).await.0, 400);
    }
    let (status, body) = ts.request("POST", "/api/mate", Some(&bad)).await;
    assert_eq!(
        (status, body),
        (
            429,
            json!({"error": "too many mate searches; try again in 60 s", "code": "too_many_requests", "retry_after_s": 60})
        )
    );
    ts.shutdown().await;
}

#[tokio::test]
async fn imports_are_limited_by_count_and_by_bytes() {
    let tmp = TempDir::new("limits-imports");
    let ts = TestServer::start_with_limits(
        &tmp.db(),
        &RateLimits {
            import_bytes: Rate::new(1000, Duration::from_secs(60)),
            ..RateLimits::default()
        },
    )
    .await;
    let record = b"startpos moves 7g7f 3c3d";
    for _ in 0..30 {
        assert_eq!(raw(&ts.addr(), "POST", "/api/import", record).await.0, 200);
    }
    let (status, _, body) = raw(&ts.addr(), "POST", "/api/import", record).await;
    assert_eq!(status, 429, "{}", String::from_utf8_lossy(&body));
    ts.advance(60_000);
    // 1000 bytes a minute: a 990-byte record, then not even a short one.
    let long = format!("startpos moves 7g7f 3c3d{}", " ".repeat(966));
    assert_eq!(
        raw(&ts.addr(), "POST", "/api/import", long.as_bytes())
            .await
            .0,
        200
    );
    let (status, head, body) = raw(&ts.addr(), "POST", "/api/import", record).await;
    assert_eq!(status, 429);
    assert_eq!(header(&head, "retry-after"), Some("60"));
    assert!(
        String::from_utf8_lossy(&body).contains("too many bytes of records imported"),
        "{}",
        String::from_utf8_lossy(&body)
    );
    ts.shutdown().await;
}
