//! What the tests driving real `shogi serve` processes share: a fresh
//! PostgreSQL database, the server process, plain HTTP requests and the
//! game's WebSocket.
#![allow(dead_code)] // Each test file uses a part.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// The environment variable naming a PostgreSQL server where the tests may
/// create databases (`postgres://shogi@127.0.0.1:5433/postgres`, as
/// `scripts/test-all.sh` sets it).
pub const POSTGRES_ENV: &str = "SHOGI_TEST_POSTGRES";

/// How long anything expected may take before a test gives up.
pub const WAIT: Duration = Duration::from_secs(60);

/// A fresh PostgreSQL database on the server at `admin`; drop it with
/// [`PgDatabase::drop_it`].
pub struct PgDatabase {
    admin: String,
    name: String,
    /// Its URL.
    pub url: String,
}

impl PgDatabase {
    /// Creates database `name` (dropped first if a failed run left it).
    pub async fn create(admin: &str, name: &str) -> PgDatabase {
        run_sql(
            admin,
            &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        )
        .await;
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
            name: name.to_owned(),
            url,
        }
    }

    /// Drops it (closing the connections left open).
    pub async fn drop_it(self) {
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

/// A `shogi serve` process, killed (SIGKILL) when dropped, so that a test
/// that fails midway leaves no server running behind it.
pub struct Server(Child);

impl Server {
    /// Kills the server with SIGKILL (it neither saves nor gives up
    /// anything) and waits for it to go.
    pub fn kill(&mut self) {
        self.0.kill().unwrap();
        self.0.wait().unwrap();
    }

    /// How the server ended, once it has (polled for at most `within`);
    /// `None` if it still runs.
    pub async fn exited(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let step = Duration::from_millis(5);
        let mut waited = Duration::ZERO;
        loop {
            if let Some(status) = self.0.try_wait().unwrap() {
                return Some(status);
            }
            if waited >= within {
                return None;
            }
            tokio::time::sleep(step).await;
            waited += step;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Already killed and reaped by `kill`, or to be killed now.
        if matches!(self.0.try_wait(), Ok(None)) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// `shogi serve --no-rate-limits --db DB` with `args`; its address once it
/// says it serves.
pub fn serve(db: &OsStr, args: &[&str]) -> (Server, String) {
    let (server, addr, _) = serve_until(db, args, false);
    (server, addr)
}

/// `shogi serve --no-rate-limits --db DB` with `args`, which include
/// `--csa-port`: its web and CSA protocol addresses once it says both.
pub fn serve_with_csa(db: &OsStr, args: &[&str]) -> (Server, String, String) {
    let (server, addr, csa) = serve_until(db, args, true);
    (server, addr, csa.expect("the CSA address"))
}

/// The server, its web address and, when `csa`, its CSA address.
fn serve_until(db: &OsStr, args: &[&str], csa: bool) -> (Server, String, Option<String>) {
    let mut child = command(db, args)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run shogi serve");
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let mut addr = None;
    let mut csa_addr = None;
    while addr.is_none() || (csa && csa_addr.is_none()) {
        let line = lines
            .next()
            .expect("the server said where it serves")
            .unwrap();
        if let Some(rest) = line.split("serving http://").nth(1) {
            addr = Some(rest.split('/').next().unwrap().to_string());
        }
        if let Some(rest) = line.split("CSA server protocol on ").nth(1) {
            csa_addr = Some(rest.trim().to_string());
        }
    }
    let addr = addr.unwrap_or_default();
    // Keep reading its log so that it never blocks on a full pipe, and pass
    // it on: the harness shows it beside a failing test's own output.
    let name = addr.clone();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            eprintln!("[shogi serve {name}] {line}");
        }
    });
    (Server(child), addr, csa_addr)
}

/// `shogi serve --no-rate-limits --db DB` with `args`, not waited for (its
/// log is dropped): for a test that kills it while it starts.
pub fn spawn_serve(db: &OsStr, args: &[&str]) -> Server {
    let child = command(db, args)
        .stderr(Stdio::null())
        .spawn()
        .expect("run shogi serve");
    Server(child)
}

/// The command `shogi serve --no-rate-limits --db DB` with `args`.
fn command(db: &OsStr, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shogi"));
    command
        .args(["serve", "--no-rate-limits"])
        .args(args)
        .arg("--db")
        .arg(db)
        .stdout(Stdio::null());
    command
}

/// The WebSocket of game `id` for the account whose session `cookie`
/// (`name=value`) holds; `None` if the server does not take it.
pub async fn connect_as(addr: &str, id: &str, cookie: &str) -> Option<Ws> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}/api/games/{id}/ws")
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("cookie", cookie.parse().unwrap());
    Some(tokio_tungstenite::connect_async(request).await.ok()?.0)
}

/// One HTTP/1.1 request: the status and the JSON body (`null` if none).
pub async fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let (status, _, value) = http_with(addr, method, path, &[], body).await;
    (status, value)
}

/// One HTTP/1.1 request with extra header lines (`"Cookie: ..."`): the
/// status, the `Set-Cookie` header's `name=value` if any, and the JSON body
/// (`null` if none).
pub async fn http_with(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[&str],
    body: Option<&Value>,
) -> (u16, Option<String>, Value) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let cookie = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("set-cookie").then(|| {
            value
                .trim()
                .split(';')
                .next()
                .unwrap_or_default()
                .to_owned()
        })
    });
    (
        status,
        cookie,
        serde_json::from_str(body).unwrap_or(Value::Null),
    )
}

/// The first legal move a state offers (board moves, then drops).
pub fn pick(state: &Value) -> Option<String> {
    if let Some((from, tos)) = state["dests"].as_object().and_then(|d| d.iter().next()) {
        let to = tos.as_array()?.first()?.as_str()?;
        let key = format!("{from}{to}");
        let must = state["promotions"][&key] == json!("must");
        return Some(if must { format!("{key}+") } else { key });
    }
    let (kind, tos) = state["drops"].as_object()?.iter().next()?;
    Some(format!("{kind}*{}", tos.as_array()?.first()?.as_str()?))
}

/// The moves of a state, in USI.
pub fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// A game's WebSocket.
pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// The next state message, `None` when the socket ends or nothing comes in [`WAIT`].
pub async fn next_state(ws: &mut Ws) -> Option<Value> {
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

/// Sends the move `usi`.
pub async fn send_move(ws: &mut Ws, usi: &str) {
    let msg = json!({"type": "move", "usi": usi}).to_string();
    ws.send(Message::Text(msg.into())).await.unwrap();
}
