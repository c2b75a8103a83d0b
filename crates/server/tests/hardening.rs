//! A server that holds up in public: header timeouts, WebSocket pings and
//! size limits, a cap on spectators, the shared search pool, and finished
//! games leaving memory.

mod common;

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use common::{local, TempDir, TestServer, Ws};
use futures_util::StreamExt;
use serde_json::{json, Value};
use shogi_core::{Move, Position};
use shogi_server::{Greedy, Limits, Opponent};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(30);

/// Reads until the peer closes; the bytes.
async fn read_to_close(stream: &mut TcpStream) -> Vec<u8> {
    let mut out = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut out))
        .await
        .expect("the server closes the connection in time")
        .ok();
    out
}

#[tokio::test]
async fn a_client_that_never_sends_its_headers_is_disconnected() {
    let dir = TempDir::new("header-timeout");
    let s = TestServer::start_with(&dir.db(), |c| {
        c.header_timeout = Duration::from_millis(200);
    })
    .await;
    let mut stream = TcpStream::connect(s.addr()).await.unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let got = read_to_close(&mut stream).await;
    assert!(!String::from_utf8_lossy(&got).contains("200 OK"));
    s.shutdown().await;
}

/// The frames a server sent (unmasked): `(opcode, payload)`.
fn frames(mut bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut out = Vec::new();
    while bytes.len() >= 2 {
        let opcode = bytes[0] & 0x0f;
        let (len, head) = match bytes[1] & 0x7f {
            126 if bytes.len() >= 4 => (usize::from(u16::from_be_bytes([bytes[2], bytes[3]])), 4),
            n if n < 126 => (usize::from(n), 2),
            _ => break,
        };
        if bytes.len() < head + len {
            break;
        }
        out.push((opcode, bytes[head..head + len].to_vec()));
        bytes = &bytes[head + len..];
    }
    out
}

#[tokio::test]
async fn a_websocket_that_never_answers_pings_is_closed() {
    let dir = TempDir::new("ws-idle");
    let s = TestServer::start_with(&dir.db(), |c| {
        c.ws_ping = Duration::from_millis(100);
        c.ws_idle = Duration::from_millis(400);
    })
    .await;
    let id = s.create(local(json!({}))).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    // A raw handshake, and then silence: no pong ever goes back.
    let mut stream = TcpStream::connect(s.addr()).await.unwrap();
    let request = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\n\
         Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        s.addr()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let got = read_to_close(&mut stream).await;
    let split = got.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    assert!(got.starts_with(b"HTTP/1.1 101"));
    let frames = frames(&got[split + 4..]);
    assert!(
        frames.iter().any(|(op, _)| *op == 0x9),
        "pinged: {frames:?}"
    );
    let (op, payload) = frames.last().unwrap();
    assert_eq!(*op, 0x8, "the last frame closes: {frames:?}");
    assert_eq!(u16::from_be_bytes([payload[0], payload[1]]), 1001);
    s.shutdown().await;
}

/// The close frame the server ends with: `(code, reason)`.
async fn close_frame(ws: &mut Ws) -> (u16, String) {
    loop {
        let msg = tokio::time::timeout(WAIT, ws.stream.next())
            .await
            .expect("a close in time")
            .expect("a close frame before the end")
            .expect("a valid frame");
        if let Message::Close(Some(frame)) = msg {
            return (u16::from(frame.code), frame.reason.to_string());
        }
    }
}

#[tokio::test]
async fn a_message_over_4_kib_closes_with_1009() {
    let dir = TempDir::new("ws-too-big");
    let s = TestServer::start(&dir.db()).await;
    let g = s.create(local(json!({}))).await;
    let mut ws = s
        .connect(g["id"].as_str().unwrap(), g["token"].as_str())
        .await;
    // Just under the limit: an ordinary bad message.
    ws.send_raw(format!("\"{}\"", "x".repeat(4000)))
        .await
        .unwrap();
    assert!(ws.error().await.starts_with("bad message"));
    ws.send_raw("x".repeat(5000)).await.unwrap();
    assert_eq!(close_frame(&mut ws).await, (1009, "message too big".into()));
    s.shutdown().await;
}

#[tokio::test]
async fn spectators_over_the_cap_are_closed_with_1013_but_players_get_in() {
    let dir = TempDir::new("ws-spectators");
    let s = TestServer::start_with(&dir.db(), |c| c.max_spectators = 2).await;
    let g = s.create(json!({"mode": "friend", "side": "sente"})).await;
    let id = g["id"].as_str().unwrap();
    let _one = s.connect(id, None).await;
    let _two = s.connect(id, None).await;
    let url = format!("ws://{}/api/games/{id}/ws", s.addr());
    let (stream, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("accepted first");
    let mut third = Ws::new(stream);
    assert_eq!(
        close_frame(&mut third).await,
        (1013, "too many spectators".into())
    );
    let mut player = s.connect(id, g["token"].as_str()).await;
    assert_eq!(player.next().await["type"], "state");
    s.shutdown().await;
}

/// A computer that thinks until the test lets it move, and counts how many
/// of its searches run at once.
#[derive(Default)]
struct Gated {
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Default)]
struct GateState {
    running: usize,
    most_at_once: usize,
    releases: usize,
    open: bool,
}

impl Gated {
    fn release(&self, n: usize) {
        self.state.lock().unwrap().releases += n;
        self.changed.notify_all();
    }

    fn open(&self) {
        self.state.lock().unwrap().open = true;
        self.changed.notify_all();
    }

    fn most_at_once(&self) -> usize {
        self.state.lock().unwrap().most_at_once
    }
}

impl Opponent for Gated {
    fn choose_move(&self, position: &Position, limits: Limits) -> Option<Move> {
        let mut st = self.state.lock().unwrap();
        st.running += 1;
        st.most_at_once = st.most_at_once.max(st.running);
        while st.releases == 0 && !st.open {
            st = self.changed.wait(st).unwrap();
        }
        st.releases = st.releases.saturating_sub(1);
        st.running -= 1;
        drop(st);
        Greedy.choose_move(position, limits)
    }
}

#[tokio::test]
async fn computer_moves_wait_their_turn_for_a_search_thread() {
    let dir = TempDir::new("search-pool");
    let gate = Arc::new(Gated::default());
    let opponent: Arc<dyn Opponent> = gate.clone();
    let s = TestServer::start_with(&dir.db(), |c| {
        c.search_threads = 1;
        c.opponent = opponent;
    })
    .await;
    // The creator takes Gote: the computer moves first in each game.
    let mut ids = Vec::new();
    for _ in 0..3 {
        let g = s.create(json!({"mode": "ai", "side": "gote"})).await;
        ids.push(g["id"].as_str().unwrap().to_string());
    }
    let computer = |v: &Value| v["computer"].clone();
    assert_eq!(
        computer(&s.state(&ids[0]).await),
        json!({"state": "thinking"})
    );
    assert_eq!(
        computer(&s.state(&ids[1]).await),
        json!({"state": "queued", "ahead": 0})
    );
    assert_eq!(
        computer(&s.state(&ids[2]).await),
        json!({"state": "queued", "ahead": 1})
    );

    let mut second = s.connect(&ids[1], None).await;
    gate.release(1);
    second
        .state_where(|v| v["computer"]["state"] == "thinking")
        .await;
    let first = s.state(&ids[0]).await;
    assert_eq!(first["moves"].as_array().unwrap().len(), 1);
    assert_eq!(first["computer"], Value::Null);
    assert_eq!(
        computer(&s.state(&ids[2]).await),
        json!({"state": "queued", "ahead": 1})
    );

    gate.release(1);
    let moved = second
        .state_where(|v| v["moves"].as_array().unwrap().len() == 1)
        .await;
    assert_eq!(moved["computer"], Value::Null);
    let mut third = s.connect(&ids[2], None).await;
    third
        .state_where(|v| v["computer"]["state"] == "thinking")
        .await;
    gate.open();
    third
        .state_where(|v| v["moves"].as_array().unwrap().len() == 1)
        .await;
    assert_eq!(gate.most_at_once(), 1, "never two searches at once");
    s.shutdown().await;
}

#[tokio::test]
async fn finished_games_nobody_watches_leave_memory_and_come_back() {
    let dir = TempDir::new("sweep");
    let s = TestServer::start_with(&dir.db(), |c| {
        c.room_idle = Duration::from_secs(60);
        // Only the test sweeps.
        c.sweep_every = Duration::from_secs(3600);
    })
    .await;
    let rooms = s.server.state().rooms().clone();
    let mut ids = Vec::new();
    for _ in 0..20 {
        let g = s.create(local(json!({}))).await;
        let id = g["id"].as_str().unwrap().to_string();
        let mut ws = s.connect(&id, g["token"].as_str()).await;
        ws.send(json!({"type": "resign"})).await;
        ws.state_where(|v| v["status"]["over"] == true).await;
        ws.stream.close(None).await.unwrap();
        ids.push(id);
    }
    let unfinished = s.create(local(json!({}))).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let watched = s.create(local(json!({}))).await;
    let watched_id = watched["id"].as_str().unwrap().to_string();
    let mut watcher = s.connect(&watched_id, watched["token"].as_str()).await;
    watcher.send(json!({"type": "resign"})).await;
    watcher.state_where(|v| v["status"]["over"] == true).await;
    assert_eq!(rooms.live_count().await, 22);

    // Wait until the server has seen every socket of the 20 games close.
    let old = rooms.room(&ids[0]).await.unwrap();
    for id in &ids {
        let room = rooms.room(id).await.unwrap();
        tokio::time::timeout(WAIT, async {
            while room.connections().open() > 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the sockets close in time");
    }
    s.advance(59_999);
    assert_eq!(rooms.sweep().await, 0, "not idle long enough yet");
    s.advance(1);
    assert_eq!(rooms.sweep().await, 20);
    assert_eq!(
        rooms.live_count().await,
        2,
        "the unfinished and the watched game stay"
    );
    assert!(old.snapshot().await.is_none(), "the room's task has ended");
    assert!(rooms.room(&unfinished).await.is_ok());

    let st = s.state(&ids[0]).await;
    assert_eq!(st["status"]["over"], true);
    assert_eq!(rooms.live_count().await, 3, "loaded again on demand");
    let (status, _, kif) = s.get_text(&format!("/api/games/{}/record", ids[1])).await;
    assert_eq!(status, 200);
    assert!(kif.contains("投了"), "{kif}");
    let mut again = s.connect(&ids[2], None).await;
    assert_eq!(again.next().await["status"]["over"], true);
    s.shutdown().await;
}

#[tokio::test]
async fn a_body_over_the_limit_is_413_and_api_answers_are_not_stored() {
    let dir = TempDir::new("too-large");
    let s = TestServer::start(&dir.db()).await;
    let big = format!(
        r#"{{"name": "{}", "password": "x"}}"#,
        "a".repeat(64 * 1024)
    );
    let (status, head, body) = common::send_text(&s.addr(), "POST", "/api/account", "", &big).await;
    assert_eq!(status, 413, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["code"], "too_large");
    assert_eq!(common::header(&head, "cache-control"), Some("no-store"));
    // A private answer (who is logged in) is never cached.
    let (status, head, _) = s.request_with("GET", "/api/me", &[], None).await;
    assert_eq!(status, 401);
    assert_eq!(common::header(&head, "cache-control"), Some("no-store"));
    s.shutdown().await;
}
