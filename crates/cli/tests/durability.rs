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

mod support;

use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::SinkExt;
use serde_json::{json, Value};
use support::{moves, next_state, pick, send_move, PgDatabase, Ws, POSTGRES_ENV, WAIT};
use tokio_tungstenite::tungstenite::Message;

/// Games bursting moves at once.
const GAMES: usize = 12;
/// Acknowledged moves (all games together) after which the server is
/// killed: about 5 a game, well before the bots' games end (the first legal
/// move every time mates in about 20 plies).
const KILL_AFTER: usize = 60;

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `shogi serve` on a free port; its address once it says it serves.
fn serve(db: &OsStr) -> (support::Server, String) {
    support::serve(db, &["--port", "0"])
}

/// One HTTP/1.1 request that must succeed; the JSON body.
async fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> Value {
    let (status, body) = support::http(addr, method, path, body).await;
    assert!(
        (200..300).contains(&status),
        "{method} {path}: {status} {body}"
    );
    body
}

async fn connect(addr: &str, id: &str, token: &str) -> Ws {
    let url = format!("ws://{addr}/api/games/{id}/ws?token={token}");
    tokio_tungstenite::connect_async(url).await.unwrap().0
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
        let name = format!("shogi_durability_{}", std::process::id());
        let pg = PgDatabase::create(&admin, &name).await;
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
    server.kill(); // SIGKILL
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
        send_move(&mut ws, &mv).await;
        let after = loop {
            let s = next_state(&mut ws).await.unwrap();
            if moves(&s).len() > stored.len() {
                break s;
            }
        };
        assert_eq!(moves(&after).last(), Some(&mv));
    }
    server.kill();
}
