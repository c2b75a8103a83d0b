//! Requests from other sites that would change something are refused, and
//! every response carries the security headers.

mod common;

use std::time::Duration;

use common::{TempDir, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const WAIT: Duration = Duration::from_secs(30);

/// One request with `extra` header lines: the status, the head (lower case) and the body.
async fn send(
    addr: &str,
    method: &str,
    path: &str,
    extra: &str,
    body: &str,
) -> (u16, String, String) {
    let (status, head, body) = common::send_text(addr, method, path, extra, body).await;
    (status, head.to_ascii_lowercase(), body)
}

const GAME: &str = r#"{"mode":"local"}"#;

#[tokio::test]
async fn a_cross_origin_post_is_refused_by_either_header() {
    let dir = TempDir::new("guard-refused");
    let s = TestServer::start(&dir.db()).await;
    let addr = s.addr();
    for extra in [
        "Sec-Fetch-Site: cross-site\r\n".to_string(),
        "Sec-Fetch-Site: same-site\r\n".to_string(),
        "Origin: http://evil.test\r\n".to_string(),
        // The same host on another port is another origin.
        format!(
            "Origin: http://{}\r\n",
            addr.replace("127.0.0.1:", "127.0.0.1:1")
        ),
    ] {
        let (status, _, body) = send(&addr, "POST", "/api/games", &extra, GAME).await;
        assert_eq!(status, 403, "{extra}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&body).unwrap(),
            serde_json::json!({"error": "cross-origin request refused", "code": "cross_origin"}),
            "{extra}"
        );
    }
    s.shutdown().await;
}

#[tokio::test]
async fn same_origin_and_header_less_posts_are_accepted() {
    let dir = TempDir::new("guard-accepted");
    let s = TestServer::start(&dir.db()).await;
    let addr = s.addr();
    for extra in [
        String::new(),
        "Sec-Fetch-Site: same-origin\r\n".to_string(),
        // A browser's word wins over an Origin a proxy's Host rewrite made differ.
        "Sec-Fetch-Site: same-origin\r\nOrigin: http://proxy.test\r\n".to_string(),
        format!("Origin: http://{addr}\r\n"),
    ] {
        let (status, _, body) = send(&addr, "POST", "/api/games", &extra, GAME).await;
        assert_eq!(status, 201, "{extra}: {body}");
    }
    s.shutdown().await;
}

#[tokio::test]
async fn a_websocket_from_another_origin_is_refused() {
    let dir = TempDir::new("guard-ws");
    let s = TestServer::start(&dir.db()).await;
    let id = s.create(serde_json::json!({"mode": "local"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let upgrade = "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
                   Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let path = format!("/api/games/{id}/ws");
    let other = format!("{upgrade}Origin: http://evil.test\r\n");
    let (status, _, _) = send(&s.addr(), "GET", &path, &other, "").await;
    assert_eq!(status, 403);
    let same = format!("{upgrade}Origin: http://{}\r\n", s.addr());
    let mut stream = TcpStream::connect(s.addr()).await.unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\n{same}\r\n",
        s.addr()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0u8; 12];
    tokio::time::timeout(WAIT, stream.read_exact(&mut head))
        .await
        .expect("answer in time")
        .unwrap();
    assert_eq!(&head, b"HTTP/1.1 101");
    s.shutdown().await;
}

fn assert_security_headers(what: &str, head: &str) {
    for line in [
        "content-security-policy: default-src 'self'",
        "frame-ancestors 'none'",
        "x-frame-options: deny",
        "x-content-type-options: nosniff",
        "referrer-policy: same-origin",
    ] {
        assert!(head.contains(line), "{what} lacks {line:?}:\n{head}");
    }
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let dir = TempDir::new("guard-headers");
    let s = TestServer::start(&dir.db()).await;
    let addr = s.addr();
    let cases = [
        ("GET", "/", "", 200),
        ("GET", "/g/0123456789abcdef", "", 200),
        ("GET", "/assets/app.js", "", 200),
        ("GET", "/no/such/page", "", 404),
        ("GET", "/api/no-such-route", "", 404),
        ("GET", "/api/games/0123456789abcdef", "", 404),
        ("POST", "/api/games", GAME, 201),
        ("POST", "/api/games", "{", 400),
        ("GET", "/api/seeks", "", 405),
    ];
    for (method, path, body, want) in cases {
        let (status, head, text) = send(&addr, method, path, "", body).await;
        assert_eq!(status, want, "{method} {path}");
        assert_security_headers(&format!("{method} {path}"), &head);
        // Every error of the API is the documented JSON.
        if want >= 400 && path.starts_with("/api/") {
            let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
            assert!(v["error"].is_string(), "{method} {path}: {text}");
        }
    }
    let (status, head, _) = send(
        &addr,
        "POST",
        "/api/games",
        "Origin: http://evil.test\r\n",
        GAME,
    )
    .await;
    assert_eq!(status, 403);
    assert_security_headers("a refusal", &head);
    s.shutdown().await;
}
