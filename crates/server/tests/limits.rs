//! The per-address limits of games, imports and mate searches (every test
//! request comes from 127.0.0.1, so one address makes them all).

mod common;

use std::time::Duration;

use common::{header, local, raw, TempDir, TestServer};
use serde_json::json;
use shogi_server::limits::rates::{Rate, RateLimits};

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

/// Two instances' limiters on one database count together: a client that
/// spreads its registrations over both gets the limit once, refused on
/// either with the wait of the oldest, and a login attempt counts against
/// its address and name on both or on neither. What is older than every
/// window is deleted. Times come from a manual clock.
#[tokio::test]
async fn instances_sharing_a_database_share_the_limits() {
    use shogi_server::db::Store;
    use shogi_server::limits::rates::{Kind, Limiter};
    use shogi_server::TimeSource;

    let tmp = TempDir::new("limits-shared");
    let store = Store::open(&tmp.db()).await.unwrap();
    let (time, clock) = TimeSource::manual();
    let a = Limiter::new(RateLimits::default(), time.clone()).shared(store.clone());
    let b = Limiter::new(RateLimits::default(), time).shared(store.clone());
    let retry = |r: Result<(), shogi_server::Error>| match r {
        Err(shogi_server::Error::TooManyRequests { retry_after_s, .. }) => retry_after_s,
        other => panic!("expected 429, got {other:?}"),
    };
    // Five accounts an hour: three through A, two through B, a minute apart.
    for i in 0..5 {
        let l = if i % 2 == 0 { &a } else { &b };
        l.check(Kind::Accounts, "198.51.100.7").await.unwrap();
        clock.advance(60_000);
    }
    // The first leaves the hour 55 min from now, on either instance.
    assert_eq!(retry(a.check(Kind::Accounts, "198.51.100.7").await), 3300);
    assert_eq!(retry(b.check(Kind::Accounts, "198.51.100.7").await), 3300);
    b.check(Kind::Accounts, "198.51.100.8").await.unwrap();
    clock.advance(3_300_000);
    b.check(Kind::Accounts, "198.51.100.7").await.unwrap();
    assert!(a.check(Kind::Accounts, "198.51.100.7").await.is_err());

    // Login attempts: five a minute for one name from one address, over
    // both; the refused ones charge neither the name nor the address.
    let login = |l: &Limiter, name: String| {
        let l = l.clone();
        async move {
            l.check_all(&[(Kind::LoginAddress, "ip", 1), (Kind::LoginName, &name, 1)])
                .await
        }
    };
    for i in 0..5 {
        login(if i < 3 { &a } else { &b }, "alice".into())
            .await
            .unwrap();
    }
    for l in [&a, &b] {
        assert!(login(l, "alice".into()).await.is_err());
    }
    for i in 0..15 {
        login(&a, format!("bob{i}")).await.unwrap();
    }
    // 20 counted for the address: refused whatever the name.
    assert!(login(&b, "carol".into()).await.is_err());

    // Two hours on, nothing is in any window: all of it can go.
    clock.advance(7_200_000);
    let forgotten = store.forget_rate_hits(3_600_000 + 3_300_000).await.unwrap();
    assert_eq!(forgotten, 5 + 1 + 1 + 2 * 20);
    b.check(Kind::Accounts, "198.51.100.7").await.unwrap();
}
