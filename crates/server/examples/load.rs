//! Load benchmark: bots play many live games over WebSocket on loopback.
//!
//! ```text
//! cargo run --release -p shogi-server --example load -- \
//!     [--server target/release/shogi] [--games 1000] [--think-ms 1000] [--seconds 30] \
//!     [--analyses 0]
//! ```
//!
//! It starts `shogi serve` on a free loopback port with a fresh database,
//! opens `--games` two-player games on one device (each bot holds both seats
//! and plays the first legal move the server offers, after `--think-ms`),
//! and measures for `--seconds`: moves per second, the round trip of a move
//! (sent until the state with it comes back, which includes the SQLite
//! commit), and the server's CPU time and peak resident memory. Games that
//! end are replaced by new ones so that the number of live games stays put.
//!
//! With `--analyses N`, N more clients keep the background analysis busy
//! the whole time: each imports a 120-ply game, asks for its analysis, waits
//! for it to finish and starts again. Comparing p99 with and without them
//! shows whether analysis slows live play.
//! Not a test: run it by hand and keep the figures.

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

struct Args {
    server: String,
    games: usize,
    think_ms: u64,
    seconds: u64,
    analyses: usize,
}

fn args() -> Args {
    let mut a = Args {
        server: "target/release/shogi".into(),
        games: 1000,
        think_ms: 1000,
        seconds: 30,
        analyses: 0,
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    for pair in v.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--server" => a.server = value,
            "--games" => a.games = value.parse().expect("--games N"),
            "--think-ms" => a.think_ms = value.parse().expect("--think-ms N"),
            "--seconds" => a.seconds = value.parse().expect("--seconds N"),
            "--analyses" => a.analyses = value.parse().expect("--analyses N"),
            other => panic!("unknown argument {other}"),
        }
    }
    a
}

async fn post(port: u16, path: &str, body: &Value) -> Value {
    request(port, "POST", path, &body.to_string()).await
}

async fn request(port: u16, method: &str, path: &str, body: &str) -> Value {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)).await else {
        return Value::Null;
    };
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut out = Vec::new();
    if s.write_all(req.as_bytes()).await.is_err() || s.read_to_end(&mut out).await.is_err() {
        return Value::Null;
    }
    let text = String::from_utf8_lossy(&out);
    let json = text.split("\r\n\r\n").nth(1).unwrap_or("{}");
    serde_json::from_str(json).unwrap_or(Value::Null)
}

/// The first legal move the state offers (board moves, then drops).
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

struct Stats {
    rtts_us: Mutex<Vec<u64>>,
    moves: AtomicU64,
    games_started: AtomicU64,
    errors: AtomicU64,
}

async fn bot(port: u16, think: Duration, stop: Arc<AtomicBool>, stats: Arc<Stats>) {
    while !stop.load(Ordering::Relaxed) {
        let g = post(
            port,
            "/api/games",
            &json!({"mode": "local", "side": "sente", "handicap": "even",
                    "time": {"main_ms": 1_800_000, "byoyomi_ms": 30_000, "periods": 1, "increment_ms": 0},
                    "rules": {"impasse": "count24", "illegal": "prevent", "max_moves": 300}, "ai": null}),
        )
        .await;
        let (Some(id), Some(token)) = (g["id"].as_str(), g["token"].as_str()) else {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        stats.games_started.fetch_add(1, Ordering::Relaxed);
        let url = format!("ws://127.0.0.1:{port}/api/games/{id}/ws?token={token}");
        let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await else {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let mut state = Value::Null;
        // The state on connect.
        while let Some(Ok(Message::Text(t))) = ws.next().await {
            if let Ok(v) = serde_json::from_str::<Value>(&t) {
                if v["type"] == "state" {
                    state = v;
                    break;
                }
            }
        }
        loop {
            if stop.load(Ordering::Relaxed) || state["status"]["over"] == json!(true) {
                break;
            }
            tokio::time::sleep(think).await;
            let Some(usi) = pick(&state) else { break };
            let before = state["moves"].as_array().map_or(0, Vec::len);
            let sent = Instant::now();
            if ws
                .send(Message::Text(
                    json!({"type": "move", "usi": usi}).to_string().into(),
                ))
                .await
                .is_err()
            {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                break;
            }
            let mut got = false;
            while let Some(Ok(msg)) = ws.next().await {
                let Message::Text(t) = msg else { continue };
                let Ok(v) = serde_json::from_str::<Value>(&t) else {
                    continue;
                };
                if v["type"] == "error" {
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                if v["type"] == "state" && v["moves"].as_array().map_or(0, Vec::len) > before {
                    state = v;
                    got = true;
                    break;
                }
            }
            if !got {
                break;
            }
            let us = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
            stats.rtts_us.lock().expect("lock").push(us);
            stats.moves.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// A deterministic game of `plies` legal moves (a simple generator, so that
/// the record is a real game the server can replay), as a USI line.
fn sample_game(plies: usize, seed: u64) -> String {
    let mut pos = shogi_core::Position::startpos();
    let mut line = String::from("position startpos moves");
    let mut x = seed | 1;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mv = moves[(x % moves.len() as u64) as usize];
        line.push(' ');
        line.push_str(&mv.to_string());
        pos.make_move(mv);
    }
    line
}

/// Keeps the analysis worker busy: import a game, analyse it, again.
async fn analyst(
    port: u16,
    seed: u64,
    stop: Arc<AtomicBool>,
    done: Arc<AtomicU64>,
    positions: Arc<AtomicU64>,
) {
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let game = sample_game(120, seed.wrapping_mul(1000).wrapping_add(n));
        let rec = request(port, "POST", "/api/import?save=1", &game).await;
        let Some(id) = rec["id"].as_str() else {
            eprintln!("import failed: {rec}");
            return;
        };
        request(port, "POST", &format!("/api/games/{id}/analysis"), "").await;
        let mut seen = 0;
        while !stop.load(Ordering::Relaxed) {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let v = request(port, "GET", &format!("/api/games/{id}/analysis"), "").await;
            let now = v["evals"].as_array().map_or(0, Vec::len) as u64;
            positions.fetch_add(now.saturating_sub(seen), Ordering::Relaxed);
            seen = seen.max(now);
            if v["status"] == json!("done") {
                done.fetch_add(1, Ordering::Relaxed);
                break;
            }
        }
    }
}

/// (CPU seconds, resident memory in KiB) of a process, from /proc.
fn usage(pid: u32) -> (f64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks: f64 = fields
        .get(11)
        .and_then(|u| u.parse::<f64>().ok())
        .unwrap_or(0.0)
        + fields
            .get(12)
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or(0.0);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    (ticks / 100.0, rss)
}

fn start_server(bin: &str, port: u16, dir: &std::path::Path) -> Child {
    Command::new(bin)
        .args(["serve", "--port", &port.to_string(), "--db"])
        .arg(dir.join("load.db"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server (build it first: cargo build --release)")
}

#[tokio::main]
async fn main() {
    let a = args();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port");
    let dir = std::env::temp_dir().join(format!("shogi-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut server = start_server(&a.server, port, &dir);
    for _ in 0..100 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let stats = Arc::new(Stats {
        rtts_us: Mutex::new(Vec::new()),
        moves: AtomicU64::new(0),
        games_started: AtomicU64::new(0),
        errors: AtomicU64::new(0),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let think = Duration::from_millis(a.think_ms);
    let mut tasks = Vec::new();
    for i in 0..a.games {
        let (stop, stats) = (stop.clone(), stats.clone());
        tasks.push(tokio::spawn(async move {
            // Spread the start so that moves do not arrive in lockstep.
            tokio::time::sleep(Duration::from_millis(
                (i as u64 * 7919) % think.as_millis().max(1) as u64,
            ))
            .await;
            bot(port, think, stop, stats).await;
        }));
    }
    let analyses_done = Arc::new(AtomicU64::new(0));
    let positions = Arc::new(AtomicU64::new(0));
    for i in 0..a.analyses {
        let (stop, done, seen) = (stop.clone(), analyses_done.clone(), positions.clone());
        tasks.push(tokio::spawn(analyst(port, i as u64 + 1, stop, done, seen)));
    }
    let warmup = Duration::from_secs(3).max(think * 2);
    tokio::time::sleep(warmup).await;
    stats.rtts_us.lock().expect("lock").clear();
    let moves0 = stats.moves.load(Ordering::Relaxed);
    let positions0 = positions.load(Ordering::Relaxed);
    let (cpu0, _) = usage(server.id());
    let t0 = Instant::now();
    tokio::time::sleep(Duration::from_secs(a.seconds)).await;
    let elapsed = t0.elapsed().as_secs_f64();
    let moves = stats.moves.load(Ordering::Relaxed) - moves0;
    let analysed = positions.load(Ordering::Relaxed) - positions0;
    let (cpu1, rss) = usage(server.id());
    stop.store(true, Ordering::Relaxed);
    let mut rtts = std::mem::take(&mut *stats.rtts_us.lock().expect("lock"));
    rtts.sort_unstable();
    let pct = |p: f64| {
        rtts.get(((rtts.len() as f64 - 1.0) * p) as usize)
            .copied()
            .unwrap_or(0) as f64
            / 1000.0
    };
    println!(
        "live games {}  think {} ms  measured {:.0} s\nmoves {moves}  moves/s {:.0}\nround trip p50 {:.2} ms  p90 {:.2} ms  p95 {:.2} ms  p99 {:.2} ms  p99.9 {:.2} ms  max {:.2} ms\nserver CPU {:.0}% of one core  peak RSS {} MiB\ngames started {}  errors {}\nanalysis clients {}  analyses finished {}  positions analysed {analysed}",
        a.games,
        a.think_ms,
        elapsed,
        moves as f64 / elapsed,
        pct(0.5),
        pct(0.9),
        pct(0.95),
        pct(0.99),
        pct(0.999),
        pct(1.0),
        (cpu1 - cpu0) / elapsed * 100.0,
        rss / 1024,
        stats.games_started.load(Ordering::Relaxed),
        stats.errors.load(Ordering::Relaxed),
        a.analyses,
        analyses_done.load(Ordering::Relaxed)
    );
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    for t in tasks {
        t.abort();
    }
}
