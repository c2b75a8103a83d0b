//! Helpers for the server tests: a server on 127.0.0.1 port 0 with a manual
//! clock, a small HTTP/1.1 client and a WebSocket client.
#![allow(dead_code)]

pub mod csa;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use shogi_server::{
    ActivityGate, Config, Greedy, Location, ManualTime, RateLimits, Server, TimeSource,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// How long a test waits for an expected message.
const WAIT: Duration = Duration::from_secs(30);

/// The environment variable that runs the tests on PostgreSQL: a URL of a
/// server where the test user may create databases (for example
/// `postgres://shogi@127.0.0.1:5433/postgres`). Unset: `SQLite` files.
pub const POSTGRES_ENV: &str = "SHOGI_TEST_POSTGRES";

/// A test's storage, removed on drop: a temporary directory holding the
/// `SQLite` file, or, with [`POSTGRES_ENV`] set, a fresh PostgreSQL database
/// of its own (created here, dropped on drop).
pub struct TempDir {
    dir: PathBuf,
    /// The server's URL (any database) and the name of this test's database.
    postgres: Option<(String, String)>,
}

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let mut buf = [0u8; 8];
        getrandom::fill(&mut buf).unwrap();
        let unique = format!("{}-{:x}", std::process::id(), u64::from_le_bytes(buf));
        let dir = std::env::temp_dir().join(format!("shogi-server-{name}-{unique}"));
        std::fs::create_dir_all(&dir).unwrap();
        let postgres = std::env::var(POSTGRES_ENV).ok().map(|url| {
            let db = format!("shogi_test_{}", unique.replace('-', "_"));
            postgres_admin(&url, format!("CREATE DATABASE {db}")).unwrap();
            (url, db)
        });
        TempDir { dir, postgres }
    }

    /// Where the test's data lives (the same for every call).
    pub fn db(&self) -> Location {
        match &self.postgres {
            Some((url, db)) => Location::Postgres(with_database(url, db)),
            None => Location::Sqlite(self.dir.join("games.db")),
        }
    }

    /// The directory, for other files a test writes.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// A connection pool on the test's database, for tests that change rows
    /// behind the server's back (statements with `$1` placeholders).
    pub async fn pool(&self) -> sqlx::AnyPool {
        sqlx::any::install_default_drivers();
        let url = match self.db() {
            Location::Postgres(url) => url,
            Location::Sqlite(path) => format!("sqlite://{}", path.display()),
        };
        sqlx::AnyPool::connect(&url).await.unwrap()
    }
}

/// `url` with its database name replaced by `db`.
pub fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let (scheme, rest) = base.split_once("://").expect("a postgres:// URL");
    let host = rest.split('/').next().unwrap_or(rest);
    match query {
        Some(q) => format!("{scheme}://{host}/{db}?{q}"),
        None => format!("{scheme}://{host}/{db}"),
    }
}

/// Runs `sql` (CREATE or DROP DATABASE) on the server at `url`, on a thread
/// of its own so that it works inside and outside a runtime.
pub fn postgres_admin(url: &str, sql: String) -> Result<(), String> {
    use sqlx::{Connection, Executor};
    let url = url.to_owned();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async {
            let mut conn = sqlx::postgres::PgConnection::connect(&url)
                .await
                .map_err(|e| format!("{POSTGRES_ENV}={url}: {e}"))?;
            conn.execute(sql.as_str())
                .await
                .map_err(|e| format!("{sql}: {e}"))?;
            conn.close().await.ok();
            Ok(())
        })
    })
    .join()
    .map_err(|_| "the PostgreSQL thread panicked".to_string())?
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((url, db)) = &self.postgres {
            // FORCE: a failed test may have left its server's connections open.
            let _ = postgres_admin(url, format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"));
        }
    }
}

/// A running server with its manual clock.
pub struct TestServer {
    pub server: Server,
    pub time: Arc<ManualTime>,
}

impl TestServer {
    pub async fn start(db: &Location) -> TestServer {
        TestServer::start_with_gate(db, ActivityGate::default()).await
    }

    /// A server whose background analysis waits at `activity`.
    pub async fn start_with_gate(db: &Location, activity: ActivityGate) -> TestServer {
        TestServer::start_with(db, |c| c.activity = activity).await
    }

    /// A server like `start`'s with the rest of its configuration as
    /// `configure` leaves it.
    pub async fn start_with(db: &Location, configure: impl FnOnce(&mut Config)) -> TestServer {
        let (mut config, time) = TestServer::config(db);
        configure(&mut config);
        TestServer::start_with_config(config, time).await
    }

    /// A server started with `config` (whose time source is `time`'s).
    pub async fn start_with_config(config: Config, time: Arc<ManualTime>) -> TestServer {
        let server = Server::start(config).await.expect("server starts");
        TestServer { server, time }
    }

    /// A server like `start`'s with the rate limits `limits`.
    pub async fn start_with_limits(db: &Location, limits: &RateLimits) -> TestServer {
        let (mut config, time) = TestServer::config(db);
        config.limits = *limits;
        TestServer::start_with_config(config, time).await
    }

    /// A config like `start`'s (a manual clock, the greedy computer, no
    /// rate limits: every test request comes from 127.0.0.1) for changing
    /// before `start_with_config`.
    pub fn config(db: &Location) -> (Config, Arc<ManualTime>) {
        let (source, time) = TimeSource::manual();
        let config = Config {
            time: source,
            opponent: Arc::new(Greedy),
            limits: RateLimits::unlimited(),
            ..Config::new("127.0.0.1:0".parse().unwrap(), db.clone())
        };
        (config, time)
    }

    pub fn addr(&self) -> String {
        self.server.local_addr().to_string()
    }

    /// Moves the server's clock forward.
    pub fn advance(&self, ms: u64) {
        self.time.advance(ms);
    }

    pub async fn request(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        http(&self.addr(), method, path, body).await
    }

    /// A request with extra header lines (`"Cookie: a=b"`): the status, the
    /// response head and the JSON body (Null if none).
    pub async fn request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[&str],
        body: Option<&Value>,
    ) -> (u16, String, Value) {
        http_with(&self.addr(), method, path, headers, body).await
    }

    /// GETs `path` as text: the status, the response head and the body.
    pub async fn get_text(&self, path: &str) -> (u16, String, String) {
        let (status, head, body) = raw(&self.addr(), "GET", path, b"").await;
        (status, head, String::from_utf8(body).expect("UTF-8 body"))
    }

    /// Creates a game; panics unless the server answers 201.
    pub async fn create(&self, body: Value) -> Value {
        let (status, created) = self.request("POST", "/api/games", Some(&body)).await;
        assert_eq!(status, 201, "{created}");
        created
    }

    /// Creates a friend game from `body` and joins it by its invite: the
    /// game's id, the creator's token and the invitee's.
    pub async fn friend_game(&self, body: Value) -> (String, String, String) {
        let g = self.create(body).await;
        let id = g["id"].as_str().unwrap().to_string();
        let code = g["invite"].as_str().unwrap().split("join=").nth(1).unwrap();
        let (status, joined) = self
            .request(
                "POST",
                &format!("/api/games/{id}/join"),
                Some(&json!({"invite": code})),
            )
            .await;
        assert_eq!(status, 200, "{joined}");
        let host = g["token"].as_str().unwrap().to_string();
        (id, host, joined["token"].as_str().unwrap().to_string())
    }

    pub async fn state(&self, id: &str) -> Value {
        let (status, state) = self.request("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, 200, "{state}");
        state
    }

    /// Opens the game's WebSocket and reads the first state.
    pub async fn connect(&self, id: &str, token: Option<&str>) -> Ws {
        self.connect_with(id, token, None).await
    }

    /// Opens the game's WebSocket with a `Cookie` header (a logged-in player).
    pub async fn connect_with(&self, id: &str, token: Option<&str>, cookie: Option<&str>) -> Ws {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let url = match token {
            Some(t) => format!("ws://{}/api/games/{id}/ws?token={t}", self.addr()),
            None => format!("ws://{}/api/games/{id}/ws", self.addr()),
        };
        let mut request = url.into_client_request().unwrap();
        if let Some(c) = cookie {
            request.headers_mut().insert("cookie", c.parse().unwrap());
        }
        let (stream, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("websocket connects");
        let mut ws = Ws {
            stream,
            pending: None,
        };
        let first = ws.next().await;
        assert_eq!(first["type"], "state", "{first}");
        ws.pending = Some(first);
        ws
    }

    pub async fn shutdown(self) {
        self.server.shutdown().await;
    }
}

/// One HTTP/1.1 request with `Connection: close`; the status and the JSON body (Null if none).
pub async fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let (status, _, body) = http_with(addr, method, path, &[], body).await;
    (status, body)
}

/// One HTTP/1.1 JSON request with extra header lines: the status, the
/// response head and the JSON body (Null if none).
pub async fn http_with(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[&str],
    body: Option<&Value>,
) -> (u16, String, Value) {
    let body = body.map(Value::to_string).unwrap_or_default();
    let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
    let (status, head, body) = send_text(addr, method, path, &extra, &body).await;
    (
        status,
        head,
        serde_json::from_str(&body).unwrap_or(Value::Null),
    )
}

/// One HTTP/1.1 request with a JSON content type, `extra` header lines
/// (each ending in CRLF) and `body` as it is: the status, the response head
/// and the body.
pub async fn send_text(
    addr: &str,
    method: &str,
    path: &str,
    extra: &str,
    body: &str,
) -> (u16, String, String) {
    let stream = TcpStream::connect(addr).await.unwrap();
    exchange(stream, addr, method, path, extra, body).await
}

/// [`send_text`] from the local address `from` (any of 127.0.0.0/8 on
/// Linux): a client at another address, as the server sees it.
pub async fn send_text_from(
    from: &str,
    addr: &str,
    method: &str,
    path: &str,
    extra: &str,
    body: &str,
) -> (u16, String, String) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(format!("{from}:0").parse().unwrap())
        .expect("a loopback source address");
    let stream = socket.connect(addr.parse().unwrap()).await.unwrap();
    exchange(stream, addr, method, path, extra, body).await
}

async fn exchange(
    mut stream: TcpStream,
    addr: &str,
    method: &str,
    path: &str,
    extra: &str,
    body: &str,
) -> (u16, String, String) {
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut response))
        .await
        .expect("response in time")
        .unwrap();
    let text = String::from_utf8_lossy(&response);
    let (head, body) = text.split_once("\r\n\r\n").expect("a complete response");
    let status: u16 = head[9..12].parse().unwrap();
    (status, head.to_string(), body.to_string())
}

/// The value of the response head's header `name` (case-insensitive), if any.
pub fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().skip(1).find_map(|line| {
        let (n, v) = line.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// One raw HTTP/1.1 request: the status, the headers and the body bytes.
pub async fn raw(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut response))
        .await
        .expect("response in time")
        .unwrap();
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete response");
    let head = String::from_utf8_lossy(&response[..split]).to_string();
    let status: u16 = head[9..12].parse().unwrap();
    (status, head, response[split + 4..].to_vec())
}

pub struct Ws {
    pub stream: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    /// The state received on connect, handed out again by the next read: a
    /// change (such as the computer's first move) may already be in it.
    pending: Option<Value>,
}

impl Ws {
    /// A client on an open WebSocket, nothing read yet.
    pub fn new(
        stream: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    ) -> Ws {
        Ws {
            stream,
            pending: None,
        }
    }

    pub async fn send(&mut self, msg: Value) {
        self.stream
            .send(Message::text(msg.to_string()))
            .await
            .unwrap();
    }

    pub async fn send_raw(&mut self, text: String) -> Result<(), String> {
        self.stream
            .send(Message::text(text))
            .await
            .map_err(|e| e.to_string())
    }

    /// The next JSON message; panics on timeout or close.
    pub async fn next(&mut self) -> Value {
        if let Some(v) = self.pending.take() {
            return v;
        }
        loop {
            let msg = tokio::time::timeout(WAIT, self.stream.next())
                .await
                .expect("a message in time")
                .expect("the connection is open")
                .expect("a valid frame");
            if let Message::Text(t) = msg {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }

    /// Whether the server closed the connection (within the wait).
    pub async fn closed(&mut self) -> bool {
        loop {
            match tokio::time::timeout(WAIT, self.stream.next()).await {
                Err(_) => return false,
                Ok(None | Some(Err(_) | Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Reads states until one satisfies `pred`; panics on an error message.
    pub async fn state_where(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let msg = self.next().await;
            assert_ne!(msg["type"], "error", "{msg}");
            if msg["type"] == "state" && pred(&msg) {
                return msg;
            }
        }
    }

    /// Plays `usi` and returns the state that contains it.
    pub async fn play(&mut self, usi: &str) -> Value {
        self.send(json!({"type": "move", "usi": usi})).await;
        let before = usi.to_string();
        self.state_where(|s| s["last_move"] == before.as_str())
            .await
    }

    /// Plays the moves in turn (a local game's token plays both sides).
    pub async fn play_all(&mut self, moves: &[&str]) -> Value {
        let mut last = Value::Null;
        for (i, m) in moves.iter().enumerate() {
            self.send(json!({"type": "move", "usi": m})).await;
            last = self
                .state_where(|s| s["moves"].as_array().is_some_and(|a| a.len() == i + 1))
                .await;
        }
        last
    }

    /// The next error message's text (skipping states).
    pub async fn error(&mut self) -> String {
        loop {
            let msg = self.next().await;
            if msg["type"] == "error" {
                return msg["message"].as_str().unwrap().to_string();
            }
        }
    }
}

/// A local game's body with extra fields.
pub fn local(extra: Value) -> Value {
    let mut body = json!({"mode": "local"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            b.insert(k.clone(), v.clone());
        }
    }
    body
}

/// The password the tests register accounts with.
pub const PASSWORD: &str = "a long enough password";

/// Registers `name`; its `Cookie` header line and the cookie itself.
pub async fn account(s: &TestServer, name: &str) -> (String, String) {
    let body = json!({"name": name, "password": PASSWORD});
    let (status, head, answer) = s
        .request_with("POST", "/api/account", &[], Some(&body))
        .await;
    assert_eq!(status, 201, "{answer}");
    let cookie = header(&head, "set-cookie")
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    (format!("Cookie: {cookie}"), cookie)
}

/// A game from a seek by `seeker` accepted by `acceptor` (sessions); the
/// game id and both players' sockets, seated by their cookies.
pub async fn seek_game(
    s: &TestServer,
    seek: Value,
    seeker: &(String, String),
    acceptor: &(String, String),
) -> (String, Ws, Ws) {
    let (status, _, posted) = s
        .request_with("POST", "/api/seeks", &[&seeker.0], Some(&seek))
        .await;
    assert_eq!(status, 201, "{posted}");
    let seek_id = posted["id"].as_str().unwrap();
    let (status, _, accepted) = s
        .request_with(
            "POST",
            &format!("/api/seeks/{seek_id}/accept"),
            &[&acceptor.0],
            None,
        )
        .await;
    assert_eq!(status, 201, "{accepted}");
    let game = accepted["game"].as_str().unwrap().to_string();
    // No token: the session cookie seats each player.
    let a = s.connect_with(&game, None, Some(&seeker.1)).await;
    let b = s.connect_with(&game, None, Some(&acceptor.1)).await;
    (game, a, b)
}

/// The profile of `name` (its ratings, history and results).
pub async fn ratings_of(s: &TestServer, name: &str) -> Value {
    let (status, profile) = s
        .request("GET", &format!("/api/players/{name}"), None)
        .await;
    assert_eq!(status, 200, "{profile}");
    profile
}

/// The real game records of `shared/data/records`, beside the checkout.
pub fn records_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/records"
    ));
    assert!(
        dir.join("manifest.tsv").is_file(),
        "the test records are missing: expected {} (the shared/ folder beside this checkout)",
        dir.display()
    );
    dir
}
