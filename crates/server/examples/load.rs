//! Load benchmark: bots play many live games over WebSocket on loopback.
//!
//! ```text
//! cargo run --release -p shogi-server --example load -- \
//!     [--server target/release/shogi] [--db URL [--instances N]] [--games 1000] \
//!     [--think-ms 1000] [--jitter 50] [--seconds 30] [--warmup 3] [--analyses 0] [--players [--rated] [--cross]] \
//!     [--watchers 0] [--full-states]
//! cargo run --release -p shogi-server --example load -- [--server ...] [--db URL] --finish 10000
//! ```
//!
//! It starts `shogi serve` on a free loopback port with a fresh database,
//! opens `--games` two-player games on one device (each bot holds both seats
//! and plays the first legal move the server offers, after `--think-ms`;
//! `--jitter P` draws each wait uniformly within P % of it instead),
//! and measures for `--seconds`: moves per second, the round trip of a move
//! (sent until the state with it comes back, which includes the SQLite
//! commit: p50, p90, p95, p99, p99.9, max), the server's CPU time (in
//! all, and per move) and peak resident memory, and the bots' own CPU time
//! (they share the machine with the server). Games that end are replaced
//! by new ones so that the number of live games stays put.
//!
//! With a fixed think time, the bots a stall of the server held up together
//! stay together: they move again at the same moment one think later, and
//! again after that, so one stall comes back every second, and the bots'
//! bunching weighs on the p99 as much as the server. Players do not move
//! in step; `--jitter 50` (each wait between half and one and a half
//! `--think-ms`, still one move a game a second on average) lets a bunch
//! drift apart. It is the default since 2026-12-05 (later); `--jitter 0`
//! (every wait exactly `--think-ms`) is how the figures before then were
//! measured.
//!
//! The bots share the cores with the server, so they are kept cheap: a
//! game socket reads from each message only the fields a bot uses (the
//! move count, whose turn it is, whether the game is over, the first move
//! offered), and uses the server's 4 KiB read buffer. Before 2026-12-05
//! they read every message whole into a `serde_json::Value` with the
//! library's 128 KiB buffer, zeroed before each read: 86-100 µs of CPU a
//! move, more than the server's, against 31 µs now; they pick the same
//! moves.
//!
//! The game sockets ask for diffs (`?diffs=1`, docs/PROTOCOL.md "Diffs")
//! and apply them to the state they hold, as the web client does;
//! `--full-states` makes them take whole states after every move instead
//! (a server without diffs sends whole states anyway, so the same bots
//! measure an older build).
//!
//! `--db URL` gives the server that database (`postgres://...`: a fresh,
//! empty database the user created; without it, a fresh SQLite file in a
//! temporary directory). `--instances N` starts N `shogi serve` processes on
//! that one database (PostgreSQL only: SQLite is refused for N > 1), one
//! after another so that the first migrates it, and spreads the games over
//! them round robin (game i on instance i mod N, its seek, acceptance and
//! sockets too); the server CPU is the sum over the instances and the peak
//! RSS is printed for each. `--cross` (with `--players` and N > 1) has the
//! second player of each game open its game socket on the next instance,
//! which forwards it to the instance that holds the game (each instance is
//! started with `--advertise` when N > 1).
//!
//! With `--players`, the bots are accounts instead: before the measurement
//! 2 × `--games` accounts are registered (8 at once: the password hash is
//! deliberately slow, and the time it took is printed), and each pair plays
//! through the lobby: one posts a casual seek (`--rated`: a rated one) with a
//! 30 min + 30 s clock, the other accepts it, and both open the game's
//! WebSocket with their session cookie. Each bot plays only its own side. A
//! socket the cookie did not seat is opened again with the seat token, and
//! such seatings are counted.
//!
//! With `--watchers N`, N clients watch the lobby (`/api/lobby/ws`); for
//! every seek posted during the measurement, the time from just before its
//! `POST` until each watcher receives its `seek_added` is measured.
//!
//! With `--analyses N`, N more clients keep the background analysis busy
//! the whole time: each imports a 120-ply game, asks for its analysis, waits
//! for it to finish and starts again. Comparing p99 with and without them
//! shows whether analysis slows live play.
//!
//! `--finish N` is a phase of its own: N short games (2 moves and a
//! resignation, 32 at once) played to the end as fast as possible, with the
//! server's current resident memory printed every N/10 games and again 70 s
//! after the last, when the rooms of the finished games have been idle for
//! over a minute and are dropped. It shows whether finished games leave
//! memory.
//!
//! The server runs with `--no-rate-limits`: every bot comes from 127.0.0.1.
//! Not a test: run it by hand and keep the figures.

mod measure;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use futures_util::{SinkExt, StreamExt};
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{json, Value};
use shogi_engine::rng::Rng;
use shogi_server::games::view::DIFF_FIELDS;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use measure::{
    cpu_seconds, cpu_split, free_port, log_path, memory_kib, mib, number, percentiles, print_cpu,
    quantile_ms, start_server, wait_for_server, warm_up, Tally,
};

const USAGE: &str = "usage: load [--server PATH] [--db URL [--instances N]] [--games N] [--think-ms N] [--jitter PCT] \
[--seconds N] [--warmup N] [--analyses N] [--players [--rated] [--cross]] [--watchers N] [--full-states]\n       \
load [--server PATH] [--db URL] --finish N";

/// The password of every bot account.
const PASSWORD: &str = "load-test-password";
/// Accounts registered at once (argon2 is deliberately slow).
const REGISTER_CONCURRENCY: usize = 8;
/// Short games played at once in `--finish`.
const FINISH_CONCURRENCY: usize = 32;
/// How long the server keeps a finished game's room without watchers, and a
/// margin.
const ROOM_IDLE_WAIT: Duration = Duration::from_secs(70);
/// A game socket silent for this long counts as an error.
const READ_TIMEOUT: Duration = Duration::from_secs(60);

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

#[expect(
    clippy::struct_excessive_bools,
    reason = "command-line switches, each on or off on its own"
)]
struct Args {
    server: String,
    games: usize,
    think_ms: u64,
    /// How far each think time strays from `think_ms`, in percent.
    jitter_pct: u64,
    seconds: u64,
    /// The least warm-up, in seconds (`None`: 3, or 10 with `--players`).
    warmup: Option<u64>,
    analyses: usize,
    players: bool,
    rated: bool,
    watchers: usize,
    finish: Option<usize>,
    /// A database URL for the server (`None`: a fresh SQLite file).
    db: Option<String>,
    /// Server processes on that database.
    instances: usize,
    /// The two players of a game on different instances.
    cross: bool,
    /// Whether the game sockets ask for diffs.
    diffs: bool,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        server: "target/release/shogi".into(),
        games: 1000,
        think_ms: 1000,
        jitter_pct: 50,
        seconds: 30,
        warmup: None,
        analyses: 0,
        players: false,
        rated: false,
        watchers: 0,
        finish: None,
        db: None,
        instances: 1,
        cross: false,
        diffs: true,
    };
    let mut live_options = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--server" => a.server = it.next().ok_or("--server needs a path")?,
            "--finish" => a.finish = Some(number(&flag, it.next())?),
            "--games" => a.games = number(&flag, it.next())?,
            "--think-ms" => a.think_ms = number(&flag, it.next())?,
            "--jitter" => a.jitter_pct = number(&flag, it.next())?,
            "--seconds" => a.seconds = number(&flag, it.next())?,
            "--warmup" => a.warmup = Some(number(&flag, it.next())?),
            "--analyses" => a.analyses = number(&flag, it.next())?,
            "--watchers" => a.watchers = number(&flag, it.next())?,
            "--players" => a.players = true,
            "--rated" => a.rated = true,
            "--db" => a.db = Some(it.next().ok_or("--db needs a database URL")?),
            "--instances" => a.instances = number(&flag, it.next())?,
            "--cross" => a.cross = true,
            "--full-states" => a.diffs = false,
            other => return Err(format!("unknown argument {other}")),
        }
        if !matches!(
            flag.as_str(),
            "--server" | "--finish" | "--db" | "--instances" | "--full-states"
        ) {
            live_options.push(flag);
        }
    }
    if let (Some(_), Some(other)) = (a.finish, live_options.first()) {
        return Err(format!("--finish is a phase of its own; drop {other}"));
    }
    if a.jitter_pct > 100 {
        return Err("--jitter is a percentage of --think-ms, at most 100".into());
    }
    if a.rated && !a.players {
        return Err("--rated needs --players".into());
    }
    if a.cross && !(a.players && a.instances > 1) {
        return Err("--cross needs --players and --instances 2 or more".into());
    }
    let postgres =
        a.db.as_deref()
            .is_some_and(|u| u.starts_with("postgres://") || u.starts_with("postgresql://"));
    if a.instances == 0 || (a.instances > 1 && !postgres) {
        return Err(
            "--instances above 1 needs --db postgres://... (SQLite is one process's file)".into(),
        );
    }
    Ok(a)
}

/// An HTTP answer.
struct Reply {
    /// The status code; 0 when the connection failed.
    status: u16,
    /// `shogi_session=<id>` when the answer set the session cookie.
    session: Option<String>,
    /// The body as JSON (`Null` when it is none).
    json: Value,
}

async fn post(port: u16, path: &str, cookie: Option<&str>, body: &Value) -> Reply {
    request(port, "POST", path, cookie, &body.to_string()).await
}

async fn request(port: u16, method: &str, path: &str, cookie: Option<&str>, body: &str) -> Reply {
    let failed = Reply {
        status: 0,
        session: None,
        json: Value::Null,
    };
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)).await else {
        return failed;
    };
    let cookie = cookie.map_or(String::new(), |c| format!("Cookie: {c}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut out = Vec::new();
    if s.write_all(req.as_bytes()).await.is_err() || s.read_to_end(&mut out).await.is_err() {
        return failed;
    }
    let text = String::from_utf8_lossy(&out);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    Reply {
        status: head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0),
        session: session_cookie(head),
        json: serde_json::from_str(body).unwrap_or(Value::Null),
    }
}

/// The `shogi_session=<id>` pair of a `Set-Cookie` header, ready to be sent
/// back as a `Cookie` header.
fn session_cookie(head: &str) -> Option<String> {
    head.lines()
        .filter_map(|line| line.split_once(':'))
        .filter(|(name, _)| name.trim().eq_ignore_ascii_case("set-cookie"))
        .find_map(|(_, value)| {
            let pair = value.trim().split(';').next()?;
            pair.starts_with("shogi_session=").then(|| pair.to_owned())
        })
}

/// Opens a WebSocket at `path`, with a `Cookie` header if given.
async fn open_ws(port: u16, path: &str, cookie: Option<&str>) -> Option<Ws> {
    let mut req = format!("ws://127.0.0.1:{port}{path}")
        .into_client_request()
        .ok()?;
    if let Some(c) = cookie {
        req.headers_mut()
            .insert("cookie", HeaderValue::from_str(c).ok()?);
    }
    // The server's read buffer size (`READ_BUFFER_BYTES` in src/api/ws.rs):
    // the library's default, 128 KiB, is zeroed before every read, which
    // took a tenth of the bots' CPU.
    let config = WebSocketConfig::default().read_buffer_size(4096);
    tokio_tungstenite::connect_async_with_config(req, Some(config), false)
        .await
        .ok()
        .map(|(ws, _)| ws)
}

/// The next text message, or `None` when the socket closes, fails or stays
/// silent for `wait`.
async fn next_text(ws: &mut Ws, wait: Duration) -> Option<Utf8Bytes> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await.ok()?? {
            Ok(Message::Text(t)) => return Some(t),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// A game socket's message, read for what a bot uses of it (the rest is
/// skipped unread). Reading each message into a [`Value`] took over half
/// of the bots' CPU in allocations, which shared the cores with the server.
#[derive(Deserialize)]
struct GameMsg<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    /// A diff's ply: the moves played with it.
    ply: Option<usize>,
    /// A diff's move (`null`: the clocks or seats changed, not the board).
    #[serde(rename = "move", borrow)]
    mv: Option<Cow<'a, str>>,
    /// A state's moves, counted.
    moves: Option<Count>,
    #[serde(borrow)]
    you: Option<Cow<'a, str>>,
    #[serde(borrow)]
    side_to_move: Option<Cow<'a, str>>,
    status: Option<Status>,
    dests: Option<Least>,
    drops: Option<Least>,
    promotions: Option<Musts>,
}

/// The length of a JSON array.
struct Count(usize);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Counter;
        impl<'de> Visitor<'de> for Counter {
            type Value = Count;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Count, A::Error> {
                let mut n = 0;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Count(n))
            }
        }
        d.deserialize_seq(Counter)
    }
}

/// Of an object of arrays of squares (`dests`, `drops`), its least key
/// with a square, and that key's first square: the move a bot plays is
/// the first the object offers in key order, as a `serde_json` map
/// iterates it.
#[derive(Default)]
struct Least(Option<(String, String)>);

impl<'de> Deserialize<'de> for Least {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Finder;
        impl<'de> Visitor<'de> for Finder {
            type Value = Least;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of arrays")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Least, A::Error> {
                let mut least: Option<(String, String)> = None;
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    let First(first) = map.next_value()?;
                    if let Some(to) = first {
                        if least
                            .as_ref()
                            .is_none_or(|(k, _)| key.as_ref() < k.as_str())
                        {
                            least = Some((key.into_owned(), to.into_owned()));
                        }
                    }
                }
                Ok(Least(least))
            }
        }
        d.deserialize_map(Finder)
    }
}

/// The first string of an array.
struct First<'a>(Option<Cow<'a, str>>);

impl<'de> Deserialize<'de> for First<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Taker;
        impl<'de> Visitor<'de> for Taker {
            type Value = First<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of strings")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<First<'de>, A::Error> {
                let first = seq.next_element::<Cow<'de, str>>()?;
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(First(first))
            }
        }
        d.deserialize_seq(Taker)
    }
}

/// The moves of `promotions` that must promote.
#[derive(Default)]
struct Musts(Vec<String>);

impl<'de> Deserialize<'de> for Musts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Collector;
        impl<'de> Visitor<'de> for Collector {
            type Value = Musts;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Musts, A::Error> {
                let mut musts = Vec::new();
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    if map.next_value::<Cow<'de, str>>()? == "must" {
                        musts.push(key.into_owned());
                    }
                }
                Ok(Musts(musts))
            }
        }
        d.deserialize_map(Collector)
    }
}

#[derive(Deserialize)]
struct Status {
    #[serde(default)]
    over: bool,
}

/// What a bot holds of its game's state: the fields of the last `state`,
/// with each `diff` since applied (`docs/PROTOCOL.md` "Diffs").
struct Held {
    /// Moves played.
    plies: usize,
    /// The socket's seat (`None`: a spectator).
    you: Option<String>,
    side_to_move: Option<String>,
    over: bool,
    /// The first board move offered: a square and its first destination.
    dest: Option<(String, String)>,
    /// The first drop offered: a piece and its first square.
    drop: Option<(String, String)>,
    /// The moves that must promote.
    must: Vec<String>,
}

impl Held {
    fn from_state(msg: GameMsg) -> Held {
        let mut held = Held {
            plies: msg.moves.as_ref().map_or(0, |c| c.0),
            you: msg.you.as_ref().map(|y| y.clone().into_owned()),
            side_to_move: None,
            over: false,
            dest: None,
            drop: None,
            must: Vec::new(),
        };
        held.replace_diff_fields(msg);
        held
    }

    /// The fields of a diff a bot uses.
    const DIFF_FIELDS_USED: [&str; 5] = ["side_to_move", "status", "dests", "drops", "promotions"];

    /// A diff's fields replace the held ones, present or not, as the
    /// protocol's `DIFF_FIELDS` do (of which a bot uses
    /// [`Held::DIFF_FIELDS_USED`]).
    fn replace_diff_fields(&mut self, msg: GameMsg) {
        self.side_to_move = msg.side_to_move.map(Cow::into_owned);
        self.over = msg.status.is_some_and(|s| s.over);
        self.dest = msg.dests.and_then(|l| l.0);
        self.drop = msg.drops.and_then(|l| l.0);
        self.must = msg.promotions.map(|m| m.0).unwrap_or_default();
    }
}

/// What a game socket's message does to the state a bot holds.
enum Update {
    /// A `state` replaced it or a `diff` was applied to it.
    Changed,
    /// A `diff` that does not follow it: the bot asks for the state again.
    Stale,
    /// The server answered an error.
    Error,
    /// Any other message.
    Other,
}

/// A `state` replaces `held`; a `diff` that follows it is applied to it.
fn absorb(held: &mut Held, msg: GameMsg) -> Update {
    match msg.kind.as_ref() {
        "state" => {
            *held = Held::from_state(msg);
            Update::Changed
        }
        "diff" => {
            match (&msg.mv, msg.ply) {
                (Some(_), Some(ply)) if ply == held.plies + 1 => held.plies = ply,
                (None, Some(ply)) if ply == held.plies => {}
                _ => return Update::Stale,
            }
            held.replace_diff_fields(msg);
            Update::Changed
        }
        "error" => Update::Error,
        _ => Update::Other,
    }
}

/// Reads until the state held changes; `None` when the socket closes, fails
/// or stays silent for `wait`, or the server answers an error.
async fn next_state(ws: &mut Ws, held: &mut Held, wait: Duration) -> Option<()> {
    loop {
        let text = next_text(ws, wait).await?;
        let Ok(msg) = serde_json::from_str::<GameMsg>(&text) else {
            continue;
        };
        match absorb(held, msg) {
            Update::Changed => return Some(()),
            Update::Stale => send(ws, &json!({"type": "sync"})).await?,
            Update::Error => return None,
            Update::Other => {}
        }
    }
}

/// The first `state` of a socket.
async fn first_state(ws: &mut Ws) -> Option<Held> {
    loop {
        let text = next_text(ws, READ_TIMEOUT).await?;
        if let Ok(msg) = serde_json::from_str::<GameMsg>(&text) {
            if msg.kind == "state" {
                return Some(Held::from_state(msg));
            }
        }
    }
}

async fn send(ws: &mut Ws, msg: &Value) -> Option<()> {
    ws.send(Message::Text(msg.to_string().into())).await.ok()
}

/// The first legal move the state offers (board moves, then drops).
fn pick(state: &Held) -> Option<String> {
    if let Some((from, to)) = &state.dest {
        let key = format!("{from}{to}");
        let must = state.must.contains(&key);
        return Some(if must { format!("{key}+") } else { key });
    }
    let (kind, to) = state.drop.as_ref()?;
    Some(format!("{kind}*{to}"))
}

/// Plays the first legal move of `state` and waits for the state with it
/// (a `state`, or a `diff` applied to `state`). Returns the round trip;
/// `None` when there is no move, the server answered an error or the socket
/// failed.
async fn play_move(ws: &mut Ws, state: &mut Held) -> Option<Duration> {
    let usi = pick(state)?;
    let before = state.plies;
    let sent = Instant::now();
    send(ws, &json!({"type": "move", "usi": usi})).await?;
    loop {
        next_state(ws, state, READ_TIMEOUT).await?;
        if state.plies > before {
            return Some(sent.elapsed());
        }
    }
}

/// Everything the bots, watchers and analysis clients count.
#[derive(Default)]
struct Shared {
    stop: AtomicBool,
    /// Set during the measured window: seeks posted then are timed.
    measuring: AtomicBool,
    tally: Tally,
    games_started: AtomicU64,
    /// Game sockets the session cookie did not seat.
    seated_by_token: AtomicU64,
    /// Seek id → the instant just before its `POST` (measured window only).
    posted: Mutex<HashMap<String, Instant>>,
    /// `(seek id, when a watcher got its seek_added)`, every watcher's.
    receipts: Mutex<Vec<(String, Instant)>>,
    /// Whole-lobby messages watchers got after their first (they fell behind).
    resyncs: AtomicU64,
    analyses_done: AtomicU64,
    positions: AtomicU64,
}

impl Shared {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A two-player game on one device with a 30 min + 30 s clock.
fn local_game() -> Value {
    json!({"mode": "local", "side": "sente", "handicap": "even",
           "time": {"main_ms": 1_800_000, "byoyomi_ms": 30_000, "periods": 1, "increment_ms": 0},
           "rules": {"impasse": "count24", "illegal": "prevent", "max_moves": 300}, "ai": null})
}

/// Creates a local game and opens its socket with the one token; the first
/// state with it.
async fn open_local_game(port: u16, diffs: bool) -> Option<(Ws, Held)> {
    let g = post(port, "/api/games", None, &local_game()).await.json;
    let (id, token) = (g["id"].as_str()?, g["token"].as_str()?);
    let path = format!(
        "/api/games/{id}/ws?token={token}{}",
        diffs_query(diffs, "&")
    );
    let mut ws = open_ws(port, &path, None).await?;
    let state = first_state(&mut ws).await?;
    Some((ws, state))
}

/// `diffs=1` after `sep` (`?` or `&`) when the bots ask for diffs.
fn diffs_query(diffs: bool, sep: &str) -> String {
    if diffs {
        format!("{sep}diffs=1")
    } else {
        String::new()
    }
}

impl Bots {
    /// The wait before a move ([`measure::think_time`]).
    fn think_time(&self, rng: &mut Rng) -> Duration {
        measure::think_time(self.think, self.jitter_pct, rng)
    }
}

/// The default bot: one local game after another, holding both seats;
/// `seed` draws its think times.
async fn local_bot(port: u16, bots: Bots, seed: u64, shared: Arc<Shared>) {
    let mut rng = Rng::new(seed);
    while !shared.stopped() {
        let Some((mut ws, mut state)) = open_local_game(port, bots.diffs).await else {
            shared.tally.error();
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        shared.games_started.fetch_add(1, Ordering::Relaxed);
        while !shared.stopped() && !state.over {
            tokio::time::sleep(bots.think_time(&mut rng)).await;
            if pick(&state).is_none() {
                break;
            }
            let Some(rtt) = play_move(&mut ws, &mut state).await else {
                shared.tally.error();
                break;
            };
            shared.tally.record_move(rtt);
        }
        let _ = ws.close(None).await;
    }
}

/// How the game bots play.
#[derive(Clone, Copy)]
struct Bots {
    /// How long a bot waits before each move, on average.
    think: Duration,
    /// How far one wait strays from `think`, in percent (uniformly).
    jitter_pct: u64,
    /// Whether the sockets ask for diffs.
    diffs: bool,
    /// Whether account pairs post rated seeks.
    rated: bool,
}

/// A bot account: its name and its session cookie (`shogi_session=...`).
struct Account {
    name: String,
    cookie: String,
}

async fn register(port: u16, name: String) -> Result<Account, String> {
    let r = post(
        port,
        "/api/account",
        None,
        &json!({"name": name, "password": PASSWORD}),
    )
    .await;
    match (r.status, r.session) {
        (201, Some(cookie)) => Ok(Account { name, cookie }),
        (201, None) => Err(format!("registering {name}: 201 without a session cookie")),
        (status, _) => Err(format!("registering {name}: {status} {}", r.json)),
    }
}

/// Registers the accounts `bot{n}a` and `bot{n}b` of `pairs` pairs,
/// [`REGISTER_CONCURRENCY`] at once.
async fn register_pairs(port: u16, pairs: usize) -> Result<Vec<(Account, Account)>, String> {
    let names: Vec<String> = (0..pairs)
        .flat_map(|n| [format!("bot{n}a"), format!("bot{n}b")])
        .collect();
    let next = AtomicUsize::new(0);
    let registered = Mutex::new(Vec::with_capacity(names.len()));
    let (names, next, done) = (&names, &next, &registered);
    let worker = move || async move {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(name) = names.get(i) else {
                return Ok(());
            };
            let account = register(port, name.clone()).await?;
            done.lock().expect("lock").push((i, account));
        }
    };
    let results: Vec<Result<(), String>> =
        join_all((0..REGISTER_CONCURRENCY).map(|_| worker())).await;
    results.into_iter().collect::<Result<(), String>>()?;
    let mut registered = registered.into_inner().expect("lock");
    registered.sort_unstable_by_key(|(i, _)| *i);
    let mut accounts = registered.into_iter().map(|(_, account)| account);
    let mut out = Vec::with_capacity(pairs);
    while let (Some(a), Some(b)) = (accounts.next(), accounts.next()) {
        out.push((a, b));
    }
    Ok(out)
}

/// The seek each pair posts: a 30 min + 30 s clock, casual or rated.
fn seek_body(rated: bool) -> Value {
    json!({"time": {"main_ms": 1_800_000, "byoyomi_ms": 30_000, "periods": 1, "increment_ms": 0},
           "rated": rated, "side": "random", "handicap": "even", "to": null, "name": null})
}

/// A pair of account bots: `seeker` posts a seek, `acceptor` accepts it, both
/// play the game (each its own side), and again.
async fn account_pair(
    (port, other_port): (u16, u16),
    (seeker, acceptor): (Account, Account),
    bots: Bots,
    shared: Arc<Shared>,
) {
    let Bots { rated, .. } = bots;
    while !shared.stopped() {
        let body = seek_body(rated);
        let posted = post_seek(port, Some(&seeker.cookie), &body, &seeker.name, &shared).await;
        let Some((id, seek_token)) = posted else {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        let (id, seek_token) = (id.as_str(), seek_token.as_str());
        let path = format!("/api/seeks/{id}/accept");
        let accepted = post(port, &path, Some(&acceptor.cookie), &json!({})).await;
        let (Some(game), Some(accept_token)) = (
            accepted.json["game"].as_str(),
            accepted.json["token"].as_str(),
        ) else {
            shared.tally.error_saying(format_args!(
                "{} could not accept a seek: {} {}",
                acceptor.name, accepted.status, accepted.json
            ));
            let withdraw = format!("/api/seeks/{id}");
            request(port, "DELETE", &withdraw, Some(&seeker.cookie), "").await;
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        shared.games_started.fetch_add(1, Ordering::Relaxed);
        tokio::join!(
            account_player(port, game, &seeker.cookie, seek_token, bots, &shared),
            account_player(
                other_port,
                game,
                &acceptor.cookie,
                accept_token,
                bots,
                &shared
            ),
        );
    }
}

/// Opens a game's socket seated by the session cookie. If the server seats
/// it as a spectator (`you: null`), it opens it again with the seat token and
/// counts that.
async fn seat(
    port: u16,
    game: &str,
    (cookie, token): (&str, &str),
    diffs: bool,
    shared: &Shared,
) -> Option<(Ws, Held)> {
    let path = format!("/api/games/{game}/ws");
    let first = format!("{path}{}", diffs_query(diffs, "?"));
    let mut ws = open_ws(port, &first, Some(cookie)).await?;
    let state = first_state(&mut ws).await?;
    if state.you.is_some() {
        return Some((ws, state));
    }
    let _ = ws.close(None).await;
    shared.seated_by_token.fetch_add(1, Ordering::Relaxed);
    let again = format!("{path}?token={token}{}", diffs_query(diffs, "&"));
    let mut ws = open_ws(port, &again, Some(cookie)).await?;
    let state = first_state(&mut ws).await?;
    state.you.is_some().then_some((ws, state))
}

/// One account's side of a game, played to its end.
async fn account_player(
    port: u16,
    game: &str,
    cookie: &str,
    token: &str,
    bots: Bots,
    shared: &Shared,
) {
    let Some((mut ws, mut state)) = seat(port, game, (cookie, token), bots.diffs, shared).await
    else {
        shared.tally.error();
        return;
    };
    let you = state.you.clone();
    // Each side its own think times: FNV-1a of its seat token.
    let seed = token.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let mut rng = Rng::new(seed);
    while !shared.stopped() && !state.over {
        if state.side_to_move != you {
            match next_state(&mut ws, &mut state, READ_TIMEOUT).await {
                Some(()) => {}
                None => {
                    shared.tally.error();
                    break;
                }
            }
            continue;
        }
        tokio::time::sleep(bots.think_time(&mut rng)).await;
        if pick(&state).is_none() {
            break;
        }
        let Some(rtt) = play_move(&mut ws, &mut state).await else {
            shared.tally.error();
            // Let the other bot's game end too.
            let _ = send(&mut ws, &json!({"type": "resign"})).await;
            break;
        };
        shared.tally.record_move(rtt);
    }
    let _ = ws.close(None).await;
}

/// A lobby watcher: notes when each `seek_added` arrives.
async fn lobby_watcher(port: u16, shared: Arc<Shared>) {
    let Some(mut ws) = open_ws(port, "/api/lobby/ws", None).await else {
        shared.tally.error();
        return;
    };
    let mut first = true;
    while let Some(Ok(msg)) = ws.next().await {
        let at = Instant::now();
        let Message::Text(t) = msg else { continue };
        let Ok(v) = serde_json::from_str::<Value>(&t) else {
            continue;
        };
        if v["type"] == "seek_added" {
            if let Some(id) = v["seek"]["id"].as_str() {
                shared
                    .receipts
                    .lock()
                    .expect("lock")
                    .push((id.to_owned(), at));
            }
        } else if v["type"] == "lobby" {
            if !first {
                shared.resyncs.fetch_add(1, Ordering::Relaxed);
            }
            first = false;
        }
    }
    if !shared.stopped() {
        shared.tally.error();
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
async fn analyst(port: u16, seed: u64, shared: Arc<Shared>) {
    let mut n = 0;
    while !shared.stopped() {
        n += 1;
        let game = sample_game(120, seed.wrapping_mul(1000).wrapping_add(n));
        let rec = request(port, "POST", "/api/import?save=1", None, &game)
            .await
            .json;
        let Some(id) = rec["id"].as_str() else {
            eprintln!("import failed: {rec}");
            return;
        };
        let path = format!("/api/games/{id}/analysis");
        request(port, "POST", &path, None, "").await;
        let mut seen = 0;
        while !shared.stopped() {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let v = request(port, "GET", &path, None, "").await.json;
            let now = v["evals"].as_array().map_or(0, Vec::len) as u64;
            shared
                .positions
                .fetch_add(now.saturating_sub(seen), Ordering::Relaxed);
            seen = seen.max(now);
            if v["status"] == json!("done") {
                shared.analyses_done.fetch_add(1, Ordering::Relaxed);
                break;
            }
        }
    }
}

/// The least time the bots run before the measurement starts. Pairs of
/// accounts need a seek, an acceptance and two sockets each before their
/// first move: all of them start before measuring.
fn least_warmup(a: &Args, think: Duration) -> Duration {
    let least = a.warmup.unwrap_or(if a.players { 10 } else { 3 });
    Duration::from_secs(least).max(think * 2)
}

/// Starts the lobby watchers, the game bots and the analysis clients, spread
/// over the instances round robin.
fn spawn_clients(
    a: &Args,
    servers: &[(u16, u32)],
    pairs: Vec<(Account, Account)>,
    bots: Bots,
    shared: &Arc<Shared>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let n = servers.len();
    let port = servers[0].0;
    let port_of = |i: usize| servers[i % n].0;
    let think = bots.think;
    let mut tasks = Vec::new();
    for i in 0..a.watchers {
        let shared = shared.clone();
        let port = port_of(i);
        tasks.push(tokio::spawn(async move {
            // Spread the connections a little.
            tokio::time::sleep(Duration::from_millis(i as u64 % 1000)).await;
            lobby_watcher(port, shared).await;
        }));
    }
    if a.watchers > 0 {
        tasks.push(tokio::spawn(seek_prober(port, shared.clone())));
    }
    let mut pairs = pairs.into_iter();
    for i in 0..a.games {
        let shared = shared.clone();
        // Spread the start so that moves do not arrive in lockstep.
        let delay = Duration::from_millis((i as u64 * 7919) % think.as_millis().max(1) as u64);
        let pair = pairs.next();
        // Round robin over the instances; with --cross the acceptor plays
        // through the next one.
        let ports = (port_of(i), port_of(i + usize::from(a.cross)));
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            match pair {
                Some(pair) => account_pair(ports, pair, bots, shared).await,
                None => local_bot(ports.0, bots, i as u64, shared).await,
            }
        }));
    }
    for i in 0..a.analyses {
        tasks.push(tokio::spawn(analyst(
            port_of(i),
            i as u64 + 1,
            shared.clone(),
        )));
    }
    tasks
}

/// The measured run: live games (local or between accounts), lobby watchers
/// and analysis clients.
async fn live(a: &Args, servers: &[(u16, u32)]) -> Result<(), String> {
    let shared = Arc::new(Shared::default());
    let think = Duration::from_millis(a.think_ms);
    let bots = Bots {
        think,
        jitter_pct: a.jitter_pct,
        diffs: a.diffs,
        rated: a.rated,
    };
    let n = servers.len();
    let port = servers[0].0;
    let cpu = || {
        servers.iter().fold((0.0, 0.0), |(u, k), &(_, pid)| {
            let (user, system) = cpu_split(pid);
            (u + user, k + system)
        })
    };
    let mut registration = None;
    let mut pairs = Vec::new();
    if a.players {
        println!(
            "registering {} accounts, {REGISTER_CONCURRENCY} at once ...",
            2 * a.games
        );
        let t = Instant::now();
        pairs = register_pairs(port, a.games).await?;
        registration = Some(t.elapsed());
    }
    let tasks = spawn_clients(a, servers, pairs, bots, &shared);
    let under_way = 2 * a.games as u64;
    warm_up(&shared.tally, under_way, least_warmup(a, think)).await;
    let moves0 = shared.tally.moves();
    let positions0 = shared.positions.load(Ordering::Relaxed);
    let cpu0 = cpu();
    let bots_cpu0 = cpu_seconds(std::process::id());
    shared.measuring.store(true, Ordering::Relaxed);
    let t0 = Instant::now();
    tokio::time::sleep(Duration::from_secs(a.seconds)).await;
    shared.measuring.store(false, Ordering::Relaxed);
    let elapsed = t0.elapsed().as_secs_f64();
    let moves = shared.tally.moves() - moves0;
    let analysed = shared.positions.load(Ordering::Relaxed) - positions0;
    let cpu1 = cpu();
    let bots_cpu = cpu_seconds(std::process::id()) - bots_cpu0;
    let rtts = shared.tally.window();
    // Seeks posted at the very end may still be on their way to the watchers.
    tokio::time::sleep(Duration::from_secs(1)).await;
    shared.stop.store(true, Ordering::Relaxed);
    let who = if a.players {
        format!(
            "{} accounts in pairs through the lobby, {}",
            2 * a.games,
            if a.rated { "rated" } else { "casual" }
        )
    } else {
        "one bot per local game holding both seats".into()
    };
    println!(
        "live games {}  think {} ms ± {} %  measured {elapsed:.0} s  bots: {who}  {}  instances {n}{}",
        a.games,
        a.think_ms,
        a.jitter_pct,
        if a.diffs { "diffs" } else { "full states" },
        if a.cross { " (players crossed)" } else { "" }
    );
    println!("moves {moves}  moves/s {:.0}", moves as f64 / elapsed);
    println!("move round trip  {}", percentiles(&rtts));
    if a.watchers > 0 {
        print_lobby_latency(&shared, a.watchers);
    }
    print_cpu(
        servers,
        (cpu1.0 - cpu0.0, cpu1.1 - cpu0.1),
        bots_cpu,
        elapsed,
        moves,
    );
    println!(
        "games started {}  errors {}",
        shared.games_started.load(Ordering::Relaxed),
        shared.tally.errors()
    );
    if let Some(t) = registration {
        println!(
            "accounts registered {} in {:.1} s ({REGISTER_CONCURRENCY} at once), before the measurement",
            2 * a.games,
            t.as_secs_f64()
        );
        println!(
            "game sockets seated by token (the session cookie did not seat them) {}",
            shared.seated_by_token.load(Ordering::Relaxed)
        );
    }
    if a.analyses > 0 {
        println!(
            "analysis clients {}  analyses finished {}  positions analysed {analysed}",
            a.analyses,
            shared.analyses_done.load(Ordering::Relaxed)
        );
    }
    for t in tasks {
        t.abort();
    }
    Ok(())
}

/// Posts a seek as `who`: its id and the seeker's token, or `None` when it
/// was refused (counted as an error). A seek posted during the measurement
/// is timed from just before its `POST`, for the lobby latency.
async fn post_seek(
    port: u16,
    cookie: Option<&str>,
    body: &Value,
    who: &str,
    shared: &Shared,
) -> Option<(String, String)> {
    let before_post = Instant::now();
    let seek = post(port, "/api/seeks", cookie, body).await;
    let (Some(id), Some(token)) = (seek.json["id"].as_str(), seek.json["token"].as_str()) else {
        shared.tally.error_saying(format_args!(
            "{who} could not post a seek: {} {}",
            seek.status, seek.json
        ));
        return None;
    };
    if shared.measuring.load(Ordering::Relaxed) {
        shared
            .posted
            .lock()
            .expect("lock")
            .insert(id.to_owned(), before_post);
    }
    Some((id.to_owned(), token.to_owned()))
}

/// Posts a guest's seek four times a second and withdraws it a second
/// later, so that the lobby latency has samples even while no game ends
/// (the players' own seeks come only when their games end).
async fn seek_prober(port: u16, shared: Arc<Shared>) {
    let body = json!({"time": {"main_ms": 600_000, "byoyomi_ms": 30_000}, "name": "probe"});
    while !shared.stopped() {
        let Some((id, token)) = post_seek(port, None, &body, "the prober", &shared).await else {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let body = json!({"token": token}).to_string();
            request(port, "DELETE", &format!("/api/seeks/{id}"), None, &body).await;
        });
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Lobby latency: from just before a seek's `POST` until a watcher got its
/// `seek_added`, over every watcher and every seek of the measured window.
fn print_lobby_latency(shared: &Shared, watchers: usize) {
    let posted = shared.posted.lock().expect("lock");
    let receipts = shared.receipts.lock().expect("lock");
    let mut lat_us: Vec<u64> = receipts
        .iter()
        .filter_map(|(id, at)| {
            let before = posted.get(id)?;
            Some(
                u64::try_from(at.saturating_duration_since(*before).as_micros())
                    .unwrap_or(u64::MAX),
            )
        })
        .collect();
    lat_us.sort_unstable();
    let expected = posted.len() * watchers;
    println!(
        "lobby seek_added latency  p50 {:.2} ms  p99 {:.2} ms  max {:.2} ms  samples {} of {expected} ({} seeks x {watchers} watchers)  resyncs {}",
        quantile_ms(&lat_us, 0.5),
        quantile_ms(&lat_us, 0.99),
        quantile_ms(&lat_us, 1.0),
        lat_us.len(),
        posted.len(),
        shared.resyncs.load(Ordering::Relaxed)
    );
}

/// A short local game to its end: 2 moves and a resignation.
async fn short_game(port: u16) -> Option<()> {
    let (mut ws, mut state) = open_local_game(port, true).await?;
    for _ in 0..2 {
        play_move(&mut ws, &mut state).await?;
    }
    send(&mut ws, &json!({"type": "resign"})).await?;
    while !state.over {
        next_state(&mut ws, &mut state, READ_TIMEOUT).await?;
    }
    let _ = ws.close(None).await;
    Some(())
}

/// `--finish N`: N short games to their end, the server's current RSS every
/// N/10 of them and once more after their rooms have been idle for a minute.
/// Plays `n` short games, 32 at once, printing the server's RSS every
/// `n / 10`; the RSS at the end.
async fn finish_round(port: u16, pid: u32, n: usize) -> u64 {
    let step = (n / 10).max(1);
    let t = Instant::now();
    let (next, done, errors) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    );
    let counters = (&next, &done, &errors);
    let worker = move || async move {
        let (next, done, errors) = counters;
        while next.fetch_add(1, Ordering::Relaxed) < n {
            if short_game(port).await.is_none() {
                errors.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            if d % step == 0 {
                let rss = memory_kib(pid, "VmRSS");
                println!("finished {d:>8}  RSS {:7.1} MiB", mib(rss));
            }
        }
    };
    join_all((0..FINISH_CONCURRENCY).map(|_| worker())).await;
    let elapsed = t.elapsed().as_secs_f64();
    let done = done.into_inner();
    println!(
        "finished games {done} in {elapsed:.1} s ({:.0} a second)  errors {}",
        done as f64 / elapsed,
        errors.into_inner()
    );
    memory_kib(pid, "VmRSS")
}

/// Two rounds of `n` short games each, with the server's room idle time
/// (60 s) waited out after each: finished games leave memory when the
/// second round reuses what the first took instead of growing again.
async fn finish(port: u16, pid: u32, n: usize) {
    println!(
        "two rounds of {n} short games (2 moves and a resignation), {FINISH_CONCURRENCY} at once, {} s apart; server RSS (VmRSS):",
        ROOM_IDLE_WAIT.as_secs()
    );
    let rss0 = memory_kib(pid, "VmRSS");
    println!("before        RSS {:7.1} MiB", mib(rss0));
    let mut after = Vec::new();
    for round in 1..=2 {
        println!("round {round}");
        let end = finish_round(port, pid, n).await;
        println!(
            "waiting {} s: the server drops a finished game's room after 60 s without watchers ...",
            ROOM_IDLE_WAIT.as_secs()
        );
        tokio::time::sleep(ROOM_IDLE_WAIT).await;
        let rested = memory_kib(pid, "VmRSS");
        println!(
            "round {round}: RSS {:.1} MiB at its end, {:.1} MiB {} s later",
            mib(end),
            mib(rested),
            ROOM_IDLE_WAIT.as_secs()
        );
        after.push(end);
    }
    println!(
        "{} finished games: round 1 grew RSS by {:.1} MiB, round 2 by {:.1} MiB (flat: the rooms of round 1 were freed and reused)",
        2 * n,
        mib(after[0].saturating_sub(rss0)),
        mib(after[1].saturating_sub(after[0]))
    );
}

#[tokio::main]
async fn main() {
    assert!(
        Held::DIFF_FIELDS_USED
            .iter()
            .all(|f| DIFF_FIELDS.contains(f)),
        "a field the bots use is no longer in a diff"
    );
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("load: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let dir = std::env::temp_dir().join(format!("shogi-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // Every bot comes from 127.0.0.1: the per-address limits (30 new games
    // a minute, ...) would stop all but the first few games.
    let mut children = Vec::new();
    let mut outcome = Ok(());
    for i in 0..a.instances {
        let port = free_port();
        // Each game on one instance; the others forward its sockets there.
        let advertise = if a.instances > 1 {
            vec!["--advertise".to_owned(), format!("127.0.0.1:{port}")]
        } else {
            Vec::new()
        };
        match start_server(&a.server, (i, port), a.db.as_deref(), &advertise, &dir) {
            Ok(mut child) => {
                // One at a time: the first one migrates the database.
                let up = wait_for_server(&mut child, port, &log_path(&dir, i)).await;
                children.push((port, child));
                if let Err(e) = up {
                    outcome = Err(e);
                    break;
                }
            }
            Err(e) => {
                outcome = Err(e);
                break;
            }
        }
    }
    if outcome.is_ok() {
        let servers: Vec<(u16, u32)> = children.iter().map(|(p, c)| (*p, c.id())).collect();
        outcome = match a.finish {
            Some(n) => {
                finish(servers[0].0, servers[0].1, n).await;
                Ok(())
            }
            None => live(&a, &servers).await,
        };
    }
    for (_, mut child) in children {
        let _ = child.kill();
        let _ = child.wait();
    }
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = outcome {
        eprintln!("load: {e}");
        std::process::exit(1);
    }
}
