//! Several app instances on one database: two real `shogi serve --advertise`
//! processes, A and B. A game is created on A; its invitee joins through B;
//! one player plays through A, the other through B (forwarded to A), a
//! spectator watches from B. A is killed with SIGKILL mid-game: B takes the
//! game over (its lease runs out), and the game goes on there with every
//! acknowledged move and clocks that did not run while no instance held it.
//!
//! With `SHOGI_TEST_POSTGRES` set (a PostgreSQL server where the test may
//! create databases, as in the server's tests) both instances share a fresh
//! PostgreSQL database, dropped afterwards; otherwise they share one `SQLite`
//! file.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// How long anything expected may take before the test gives up (a lease
/// lasts 6 s; the take-over comes within a renewal period after that).
const WAIT: Duration = Duration::from_secs(60);
/// Moves played before A is killed.
const BEFORE_KILL: usize = 6;

/// The shared database: an `SQLite` file in a temporary directory, or a
/// fresh PostgreSQL database; removed on drop.
struct Db {
    dir: PathBuf,
    postgres: Option<(String, String)>,
}

/// `url` with its database name replaced by `db`.
fn with_database(url: &str, db: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let (scheme, rest) = base.split_once("://").expect("a postgres:// URL");
    let host = rest.split('/').next().unwrap_or(rest);
    match query {
        Some(q) => format!("{scheme}://{host}/{db}?{q}"),
        None => format!("{scheme}://{host}/{db}"),
    }
}

async fn postgres_admin(url: &str, sql: &str) {
    use sqlx::{Connection, Executor};
    let mut conn = sqlx::postgres::PgConnection::connect(url)
        .await
        .unwrap_or_else(|e| panic!("SHOGI_TEST_POSTGRES={url}: {e}"));
    conn.execute(sql).await.unwrap();
    conn.close().await.ok();
}

impl Db {
    async fn new() -> Db {
        let unique = format!(
            "{}_{}",
            std::process::id(),
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        );
        let dir = std::env::temp_dir().join(format!("shogi-instances-{unique}"));
        std::fs::create_dir_all(&dir).unwrap();
        let postgres = match std::env::var("SHOGI_TEST_POSTGRES") {
            Ok(url) => {
                let name = format!("shogi_instances_{unique}");
                postgres_admin(&url, &format!("CREATE DATABASE {name}")).await;
                Some((url, name))
            }
            Err(_) => None,
        };
        Db { dir, postgres }
    }

    fn arg(&self) -> String {
        match &self.postgres {
            Some((url, name)) => with_database(url, name),
            None => self.dir.join("games.db").to_str().unwrap().to_owned(),
        }
    }

    async fn remove(self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((url, name)) = &self.postgres {
            postgres_admin(url, &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await;
        }
    }
}

/// A free loopback port (taken by nobody a moment ago).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `shogi serve` as one of several instances; its address once it serves.
fn instance(db: &str) -> (Child, String) {
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_shogi"))
        .args(["serve", "--no-rate-limits", "--port", &port.to_string()])
        .args(["--advertise", &addr, "--db", db])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run shogi serve");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    loop {
        let line = lines.next().expect("the server said it serves").unwrap();
        if line.contains("serving http://") {
            break;
        }
    }
    // Keep reading its log so that it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

/// One HTTP/1.1 request: the status and the JSON body.
async fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// The game's WebSocket on `addr` (with a seat token, or as a spectator),
/// tried again until it opens (while a dead holder's lease runs out).
async fn connect(addr: &str, id: &str, token: Option<&str>) -> Ws {
    let url = match token {
        Some(t) => format!("ws://{addr}/api/games/{id}/ws?token={t}"),
        None => format!("ws://{addr}/api/games/{id}/ws"),
    };
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        match tokio_tungstenite::connect_async(url.as_str()).await {
            Ok((ws, _)) => return ws,
            Err(e) => {
                assert!(tokio::time::Instant::now() < deadline, "{url}: {e}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// The next state message.
async fn next_state(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a state in time")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "state" {
                return v;
            }
        }
    }
}

/// The next state showing `plies` moves.
async fn state_at(ws: &mut Ws, plies: usize) -> Value {
    loop {
        let s = next_state(ws).await;
        if moves(&s).len() >= plies {
            return s;
        }
    }
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The first legal move a state offers (board moves, then drops).
fn first_move(state: &Value) -> String {
    if let Some((from, tos)) = state["dests"].as_object().and_then(|d| d.iter().next()) {
        let key = format!("{from}{}", tos[0].as_str().unwrap());
        let must = state["promotions"][&key] == json!("must");
        return if must { format!("{key}+") } else { key };
    }
    let (kind, tos) = state["drops"].as_object().unwrap().iter().next().unwrap();
    format!("{kind}*{}", tos[0].as_str().unwrap())
}

async fn send_move(ws: &mut Ws, usi: &str) {
    let msg = json!({"type": "move", "usi": usi}).to_string();
    ws.send(Message::Text(msg.into())).await.unwrap();
}

/// A clock as shown: main time and periods left.
fn clock(state: &Value, side: &str) -> (u64, u64) {
    let c = &state["clocks"][side];
    (
        c["main_ms"].as_u64().unwrap(),
        c["periods_left"].as_u64().unwrap(),
    )
}

/// Plays one move for the side to move (`players`: sente's socket, gote's
/// socket) and waits until every socket in `all` shows it; the state shown.
async fn play_one(players: &mut [Ws; 2], watcher: &mut Ws, state: &Value) -> Value {
    let n = moves(state).len();
    let mover = usize::from(state["side_to_move"] == "gote");
    let mv = first_move(state);
    send_move(&mut players[mover], &mv).await;
    let shown = state_at(&mut players[mover], n + 1).await;
    let other = state_at(&mut players[1 - mover], n + 1).await;
    let watched = state_at(watcher, n + 1).await;
    assert_eq!(moves(&shown).last(), Some(&mv));
    assert_eq!(moves(&other), moves(&shown));
    assert_eq!(moves(&watched), moves(&shown));
    shown
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_survives_its_instance() {
    let db = Db::new().await;
    let (mut a, a_addr) = instance(&db.arg());
    let (mut b, b_addr) = instance(&db.arg());

    // Created on A (A holds it); the invitee joins through B.
    let body = json!({"mode": "friend", "side": "sente",
        "time": {"main_ms": 600_000, "byoyomi_ms": 30_000, "periods": 1}});
    let (status, created) = http(&a_addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let sente = created["token"].as_str().unwrap().to_owned();
    let invite = created["invite"].as_str().unwrap();
    let code = invite.split("join=").nth(1).unwrap();
    let path = format!("/api/games/{id}/join");
    let (status, joined) = http(&b_addr, "POST", &path, Some(&json!({"invite": code}))).await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["side"], "gote");
    let gote = joined["token"].as_str().unwrap().to_owned();

    // Sente plays through A, gote through B, a spectator watches from B.
    let mut players = [
        connect(&a_addr, &id, Some(&sente)).await,
        connect(&b_addr, &id, Some(&gote)).await,
    ];
    let mut watcher = connect(&b_addr, &id, None).await;
    let mut state = next_state(&mut players[0]).await;
    next_state(&mut players[1]).await;
    next_state(&mut watcher).await;
    for _ in 0..BEFORE_KILL {
        state = play_one(&mut players, &mut watcher, &state).await;
    }
    let acknowledged = moves(&state);
    assert_eq!(acknowledged.len(), BEFORE_KILL);

    a.kill().unwrap(); // SIGKILL: A neither saves nor gives up its leases.
    a.wait().unwrap();
    let killed_ms = u64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap();
    drop(players);
    drop(watcher);

    // Everyone comes back through B, which has taken the game over.
    let mut players = [
        connect(&b_addr, &id, Some(&sente)).await,
        connect(&b_addr, &id, Some(&gote)).await,
    ];
    let mut watcher = connect(&b_addr, &id, None).await;
    let after = next_state(&mut players[0]).await;
    next_state(&mut players[1]).await;
    next_state(&mut watcher).await;
    assert_eq!(moves(&after), acknowledged, "every acknowledged move");
    assert_eq!(after["status"]["over"], false);
    // Fair clocks: the side not to move keeps its time exactly; the side to
    // move was charged at most the time since A died (the turn starts again
    // from its clock after the last move), not the time no instance ran it.
    let (to_move, waiting) = match after["side_to_move"].as_str().unwrap() {
        "sente" => ("sente", "gote"),
        _ => ("gote", "sente"),
    };
    assert_eq!(clock(&after, waiting), clock(&state, waiting));
    let before = clock(&state, to_move).0;
    let now = clock(&after, to_move).0;
    let shown_at = after["clocks"]["server_time_ms"].as_u64().unwrap();
    assert!(now <= before);
    assert!(
        before - now <= shown_at.saturating_sub(killed_ms),
        "charged {} ms for a turn B has run for at most {} ms",
        before - now,
        shown_at.saturating_sub(killed_ms)
    );

    // The game goes on at B.
    state = after;
    for _ in 0..2 {
        state = play_one(&mut players, &mut watcher, &state).await;
    }
    let (status, stored) = http(&b_addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(moves(&stored), moves(&state));
    assert_eq!(moves(&stored)[..BEFORE_KILL], acknowledged[..]);

    b.kill().unwrap();
    b.wait().unwrap();
    db.remove().await;
}
