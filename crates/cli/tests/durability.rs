//! Durability of group commit: a real `shogi serve` is killed with SIGKILL
//! while bots burst moves in several games over WebSocket; restarted on the
//! same database, it has every move a player was shown (stored ⊇
//! acknowledged, in order), and the games go on.
//!
//! A move counts as acknowledged when the state with it arrives: the server
//! broadcasts a move only after the transaction holding it has committed.
//!
//! On a `SQLite` file always, and again on PostgreSQL when
//! `SHOGI_TEST_POSTGRES` names a server where the test may create a
//! database (`postgres://shogi@127.0.0.1:5433/postgres`, as
//! `scripts/test-all.sh` sets it): a fresh database, dropped at the end.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// Games bursting moves at once.
const GAMES: usize = 12;
/// Acknowledged moves (all games together) after which the server is
/// killed: about 5 a game, well before the bots' games end (the first legal
/// move every time mates in about 20 plies).
const KILL_AFTER: usize = 60;
/// How long anything expected may take before the test gives up.
const WAIT: Duration = Duration::from_secs(60);

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The environment variable naming a PostgreSQL server for the second run.
const POSTGRES_ENV: &str = "SHOGI_TEST_POSTGRES";

/// A fresh PostgreSQL database on the server at `url`, dropped on drop.
struct PgDatabase {
    admin: String,
    name: String,
    url: String,
}

impl PgDatabase {
    async fn create(admin: &str) -> PgDatabase {
        let name = format!("shogi_durability_{}", std::process::id());
        run_sql(admin, &format!("DROP DATABASE IF EXISTS {name}")).await;
        run_sql(admin, &format!("CREATE DATABASE {name}")).await;
        let (base, query) = admin.split_once('?').unwrap_or((admin, ""));
        let (scheme, rest) = base.split_once("://").expect("a postgres:// URL");
        let host = rest.split('/').next().unwrap_or(rest);
        let mut url = format!("{scheme}://{host}/{name}");
        if !query.is_empty() {
            url = format!("{url}?{query}");
        }
        PgDatabase {
            admin: admin.to_owned(),
            name,
            url,
        }
    }

    async fn drop_it(self) {
        run_sql(
            &self.admin,
            &format!("DROP DATABASE {} WITH (FORCE)", self.name),
        )
        .await;
    }
}

async fn run_sql(url: &str, sql: &str) {
    use sqlx::{Connection, Executor};
    let mut conn = sqlx::postgres::PgConnection::connect(url)
        .await
        .unwrap_or_else(|e| panic!("{POSTGRES_ENV}={url}: {e}"));
    conn.execute(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    conn.close().await.ok();
}

/// `shogi serve` on a free port; its address once it says it serves.
fn serve(db: &OsStr) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shogi"))
        .args(["serve", "--port", "0", "--no-rate-limits", "--db"])
        .arg(db)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run shogi serve");
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server said where it serves")
            .unwrap();
        if let Some(rest) = line.split("serving http://").nth(1) {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    // Keep reading its log so that it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

/// One HTTP/1.1 request; the JSON body.
async fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> Value {
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
    assert!(head.starts_with("HTTP/1.1 2"), "{head}\n{body}");
    serde_json::from_str(body).unwrap()
}

/// The first legal move a state offers (board moves, then drops).
fn pick(state: &Value) -> Option<String> {
    if let Some((from, tos)) = state["dests"].as_object().and_then(|d| d.iter().next()) {
        let to = tos.as_array()?.first()?.as_str()?;
        let key = format!("{from}{to}");
        let must = state["promotions"][&key] == json!("must");
        return Some(if must { format!("{key}+") } else { key });
    }
    let (kind, tos) = state["drops"].as_object()?.iter().next()?;
    Some(format!("{kind}*{}", tos.as_array()?.first()?.as_str()?))
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn connect(addr: &str, id: &str, token: &str) -> Ws {
    let url = format!("ws://{addr}/api/games/{id}/ws?token={token}");
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// The next state message, `None` when the socket ends.
async fn next_state(ws: &mut Ws) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(WAIT, ws.next()).await.ok()??.ok()?;
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "state" {
                return Some(v);
            }
        }
    }
}

/// Plays the first legal move, one after another as soon as each is shown,
/// until the socket ends or the game does; the moves shown so far are kept
/// in `acked` (and counted in `total`).
async fn burst(mut ws: Ws, acked: Arc<Mutex<Vec<String>>>, total: Arc<AtomicUsize>) {
    let Some(mut state) = next_state(&mut ws).await else {
        return;
    };
    loop {
        if state["status"]["over"] == true {
            return;
        }
        let Some(mv) = pick(&state) else { return };
        let n = moves(&state).len();
        let sent = json!({"type": "move", "usi": mv}).to_string();
        if ws.send(Message::Text(sent.into())).await.is_err() {
            return;
        }
        // The state with the move: it is stored.
        loop {
            let Some(next) = next_state(&mut ws).await else {
                return;
            };
            if moves(&next).len() > n {
                let shown = moves(&next);
                *acked.lock().unwrap() = shown;
                total.fetch_add(1, Ordering::SeqCst);
                state = next;
                break;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_keeps_every_acknowledged_move() {
    let dir = Dir(std::env::temp_dir().join(format!("shogi-durability-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    kill_and_restart(dir.0.join("games.db").as_os_str()).await;
    if let Ok(admin) = std::env::var(POSTGRES_ENV) {
        let pg = PgDatabase::create(&admin).await;
        kill_and_restart(OsStr::new(&pg.url)).await;
        pg.drop_it().await;
    }
}

/// The burst, the kill and the check on the database `db` (a file or a URL).
async fn kill_and_restart(db: &OsStr) {
    let (mut server, addr) = serve(db);

    let mut games = Vec::new();
    for _ in 0..GAMES {
        let g = http(&addr, "POST", "/api/games", Some(&json!({"mode": "local"}))).await;
        let id = g["id"].as_str().unwrap().to_string();
        let token = g["token"].as_str().unwrap().to_string();
        games.push((id, token));
    }
    let total = Arc::new(AtomicUsize::new(0));
    let mut acked = Vec::new();
    let mut bots = Vec::new();
    for (id, token) in &games {
        let ws = connect(&addr, id, token).await;
        let shown = Arc::new(Mutex::new(Vec::new()));
        acked.push(shown.clone());
        bots.push(tokio::spawn(burst(ws, shown, total.clone())));
    }
    // Mid-burst: every bot sends its next move as soon as the last is shown.
    let mut waited = Duration::ZERO;
    while total.load(Ordering::SeqCst) < KILL_AFTER {
        assert!(
            waited < WAIT,
            "only {} moves acknowledged",
            total.load(Ordering::SeqCst)
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
        waited += Duration::from_millis(5);
    }
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();
    for bot in bots {
        bot.await.unwrap();
    }
    let acked: Vec<Vec<String>> = acked.iter().map(|a| a.lock().unwrap().clone()).collect();
    assert!(acked.iter().map(Vec::len).sum::<usize>() >= KILL_AFTER);

    let (mut server, addr) = serve(db);
    for ((id, token), shown) in games.iter().zip(&acked) {
        let state = http(&addr, "GET", &format!("/api/games/{id}"), None).await;
        let stored = moves(&state);
        // Everything shown is stored, in order; at most the move in flight
        // when the server died was stored without being shown.
        assert!(
            stored.len() >= shown.len() && stored[..shown.len()] == shown[..],
            "game {id}: shown {shown:?}, stored {stored:?}"
        );
        assert!(stored.len() <= shown.len() + 1, "game {id}");
        // The game goes on from where it was stored.
        if state["status"]["over"] == true {
            continue;
        }
        let mut ws = connect(&addr, id, token).await;
        let now = next_state(&mut ws).await.unwrap();
        assert_eq!(moves(&now), stored);
        let mv = pick(&now).unwrap();
        let sent = json!({"type": "move", "usi": mv}).to_string();
        ws.send(Message::Text(sent.into())).await.unwrap();
        let after = loop {
            let s = next_state(&mut ws).await.unwrap();
            if moves(&s).len() > stored.len() {
                break s;
            }
        };
        assert_eq!(moves(&after).last(), Some(&mv));
    }
    server.kill().unwrap();
    server.wait().unwrap();
}
