//! Several app instances on one database: two real `shogi serve --advertise`
//! processes, A and B. A game is created on A; its invitee joins through B;
//! one player plays through A, the other through B (forwarded to A), a
//! spectator watches from B. A is killed with SIGKILL mid-game: B takes the
//! game over (its lease runs out), and the game goes on there with every
//! acknowledged move and clocks that did not run while no instance held it.
//! The lobby is one for both; a tournament round unpaired through B has its
//! game, held by A, aborted there, and with A dead the unpairing waits
//! (refused) until B has taken the game over.
//!
//! With `SHOGI_TEST_POSTGRES` set (a PostgreSQL server where the test may
//! create databases, as in the server's tests) both instances share a fresh
//! PostgreSQL database, dropped afterwards; otherwise they share one `SQLite`
//! file.

mod support;

use std::ffi::OsStr;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use support::{
    http, http_with, moves, next_state, pick, send_move, PgDatabase, Server, Ws, POSTGRES_ENV, WAIT,
};

/// Moves played before A is killed.
const BEFORE_KILL: usize = 6;

/// The shared database: an `SQLite` file in a temporary directory, or a
/// fresh PostgreSQL database; removed by [`Db::remove`].
struct Db {
    dir: PathBuf,
    postgres: Option<PgDatabase>,
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
        let postgres = match std::env::var(POSTGRES_ENV) {
            Ok(admin) => {
                Some(PgDatabase::create(&admin, &format!("shogi_instances_{unique}")).await)
            }
            Err(_) => None,
        };
        Db { dir, postgres }
    }

    fn arg(&self) -> String {
        match &self.postgres {
            Some(pg) => pg.url.clone(),
            None => self.dir.join("games.db").to_str().unwrap().to_owned(),
        }
    }

    async fn remove(self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some(pg) = self.postgres {
            pg.drop_it().await;
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
fn instance(db: &str) -> (Server, String) {
    let port = free_port().to_string();
    let addr = format!("127.0.0.1:{port}");
    let (child, serving) = support::serve(OsStr::new(db), &["--port", &port, "--advertise", &addr]);
    assert_eq!(serving, addr);
    (child, addr)
}

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

/// The next state showing `plies` moves.
async fn state_at(ws: &mut Ws, plies: usize) -> Value {
    loop {
        let s = next_state(ws).await.expect("a state in time");
        if moves(&s).len() >= plies {
            return s;
        }
    }
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
    let mv = pick(state).unwrap();
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
    let mut state = next_state(&mut players[0]).await.unwrap();
    next_state(&mut players[1]).await.unwrap();
    next_state(&mut watcher).await.unwrap();
    // When the last move before the kill was sent: the server started the
    // turn it shows after that.
    let mut last_sent_ms = 0;
    for _ in 0..BEFORE_KILL {
        last_sent_ms = unix_now_ms();
        state = play_one(&mut players, &mut watcher, &state).await;
    }
    let acknowledged = moves(&state);
    assert_eq!(acknowledged.len(), BEFORE_KILL);

    a.kill(); // SIGKILL: A neither saves nor gives up its leases.
    let killed_ms = unix_now_ms();
    drop(players);
    drop(watcher);

    // Everyone comes back through B, which has taken the game over.
    let mut players = [
        connect(&b_addr, &id, Some(&sente)).await,
        connect(&b_addr, &id, Some(&gote)).await,
    ];
    let mut watcher = connect(&b_addr, &id, None).await;
    let after = next_state(&mut players[0]).await.unwrap();
    next_state(&mut players[1]).await.unwrap();
    next_state(&mut watcher).await.unwrap();
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
    // `state` shows the running clock as of its `server_time_ms`, already
    // charged for the part of the turn that had passed (at most the time since
    // the move was sent, plus 1 ms: the turn is measured on a monotonic clock
    // and shown on the wall clock, each truncated to whole milliseconds). The
    // clock after the move, which B starts the turn from again, is at most
    // that much above what `state` shows.
    let before = clock(&state, to_move).0;
    let now = clock(&after, to_move).0;
    let state_shown_at = state["clocks"]["server_time_ms"].as_u64().unwrap();
    let after_move = before + state_shown_at.saturating_sub(last_sent_ms) + 1;
    let shown_at = after["clocks"]["server_time_ms"].as_u64().unwrap();
    assert!(
        now <= after_move,
        "B shows {now} ms, more than the {after_move} ms left after the move"
    );
    // And B charged the turn at most the time it has run it (which began
    // after A died), 1 ms of truncation aside.
    assert!(
        before.saturating_sub(now) <= shown_at.saturating_sub(killed_ms) + 1,
        "charged {} ms for a turn B has run for at most {} ms",
        before.saturating_sub(now),
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

    b.kill();
    db.remove().await;
}

/// Whether the lobby seen through `addr` lists seek `id`.
async fn lists_seek(addr: &str, id: &str) -> bool {
    let (status, lobby) = http(addr, "GET", "/api/lobby", None).await;
    status == 200
        && lobby["seeks"]
            .as_array()
            .is_some_and(|s| s.iter().any(|s| s["id"] == id))
}

/// Whether the lobby seen through `addr` lists live game `id` with `moves` moves.
async fn lists_game(addr: &str, id: &str, moves: u64) -> bool {
    let (status, lobby) = http(addr, "GET", "/api/lobby", None).await;
    status == 200
        && lobby["live"]
            .as_array()
            .is_some_and(|g| g.iter().any(|g| g["id"] == id && g["moves"] == moves))
}

/// Waits (up to [`WAIT`]) until `check` holds.
async fn eventually<F: std::future::Future<Output = bool>>(
    what: &str,
    mut check: impl FnMut() -> F,
) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !check().await {
        assert!(tokio::time::Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// One lobby for all instances: a seek posted through one is seen and
/// accepted through the other, and the game it makes is listed live by
/// both, with its moves, whichever instance plays it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_is_one_for_all_instances() {
    let db = Db::new().await;
    let (mut a, a_addr) = instance(&db.arg());
    let (mut b, b_addr) = instance(&db.arg());

    // Until the instances agree on the lobby's home (within a refresh or
    // two of starting), a seek may land in a lobby nobody else sees: post
    // until one posted through A is seen through B.
    let body = json!({"name": "Alice", "time": {"main_ms": 600_000, "byoyomi_ms": 30_000}});
    let deadline = tokio::time::Instant::now() + WAIT;
    let seek = 'posting: loop {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no seek of A seen through B"
        );
        let (status, posted) = http(&a_addr, "POST", "/api/seeks", Some(&body)).await;
        assert_eq!(status, 201, "{posted}");
        let id = posted["id"].as_str().unwrap();
        for _ in 0..10 {
            if lists_seek(&b_addr, id).await {
                break 'posting posted;
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    };
    let seek_id = seek["id"].as_str().unwrap();
    assert!(lists_seek(&a_addr, seek_id).await);

    let path = format!("/api/seeks/{seek_id}/accept");
    let (status, accepted) = http(&b_addr, "POST", &path, Some(&json!({"name": "Bob"}))).await;
    assert_eq!(status, 201, "{accepted}");
    let id = accepted["game"].as_str().unwrap().to_owned();
    let bob = accepted["token"].as_str().unwrap().to_owned();
    let alice = seek["token"].as_str().unwrap().to_owned();
    assert!(
        !lists_seek(&a_addr, seek_id).await,
        "an accepted seek is gone"
    );

    // Alice plays through A, Bob through B; both lobbies list the game with its move.
    let (sente, gote) = if accepted["side"] == "gote" {
        (alice, bob)
    } else {
        (bob, alice)
    };
    let mut players = [
        connect(&a_addr, &id, Some(&sente)).await,
        connect(&b_addr, &id, Some(&gote)).await,
    ];
    let mut watcher = connect(&a_addr, &id, None).await;
    let state = next_state(&mut players[0]).await.unwrap();
    next_state(&mut players[1]).await.unwrap();
    next_state(&mut watcher).await.unwrap();
    play_one(&mut players, &mut watcher, &state).await;
    for addr in [&a_addr, &b_addr] {
        eventually("the game listed live with its move", || {
            lists_game(addr, &id, 1)
        })
        .await;
    }

    a.kill();
    b.kill();
    db.remove().await;
}

/// An account registered through `addr`: its `Cookie:` header line.
async fn account(addr: &str, name: &str) -> String {
    let body = json!({"name": name, "password": "a long enough password"});
    let (status, cookie, answer) = http_with(addr, "POST", "/api/account", &[], Some(&body)).await;
    assert_eq!(status, 201, "{answer}");
    format!("Cookie: {}", cookie.expect("a session cookie"))
}

/// An online Swiss event of two players whose round 1 is paired through
/// `a_addr` (so that instance starts the game and holds its lease): the
/// organiser's cookie, the event's path and the game's id.
async fn paired_through(a_addr: &str) -> (String, String, String) {
    let org = account(a_addr, "Org").await;
    let players = [account(a_addr, "Alice").await, account(a_addr, "Bob").await];

    let body = json!({"name": "Online", "format": "swiss", "rounds": 2, "time": "30+30", "play": "online"});
    let (status, _, created) =
        http_with(a_addr, "POST", "/api/tournaments", &[&org], Some(&body)).await;
    assert_eq!(status, 201, "{created}");
    let base = format!("/api/tournaments/{}", created["id"].as_str().unwrap());
    for p in &players {
        let (status, _, v) = http_with(
            a_addr,
            "POST",
            &format!("{base}/players"),
            &[p],
            Some(&json!({})),
        )
        .await;
        assert_eq!(status, 201, "{v}");
    }
    // Paired through A: A starts the game and holds its lease.
    let (status, _, round) = http_with(
        a_addr,
        "POST",
        &format!("{base}/rounds"),
        &[&org],
        Some(&json!({})),
    )
    .await;
    assert_eq!(status, 201, "{round}");
    let game = round["pairings"][0]["game"].as_str().unwrap().to_owned();
    (org, base, game)
}

/// How many rounds an event's page lists.
fn rounds(event: &Value) -> Option<usize> {
    event["rounds"].as_array().map(Vec::len)
}

/// `DELETE {base}/rounds/1` through `addr` as the organiser: the status and body.
async fn unpair_round_1(addr: &str, org: &str, base: &str) -> (u16, Value) {
    let (status, _, v) = http_with(addr, "DELETE", &format!("{base}/rounds/1"), &[org], None).await;
    (status, v)
}

/// A tournament round unpaired through the instance that does not hold its
/// game: the game is aborted on its holder (asked by the other instance),
/// not left live without a board. The holder's route for it answers only
/// instances: a client calling it, even claiming to be an instance, meets
/// `404`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_unpaired_on_one_instance_aborts_its_games_on_the_other() {
    let db = Db::new().await;
    let (mut a, a_addr) = instance(&db.arg());
    let (mut b, b_addr) = instance(&db.arg());
    let (org, base, game) = paired_through(&a_addr).await;
    let (status, state) = http(&b_addr, "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["status"]["over"], false, "{state}");

    // A client cannot abort it through the instances' route.
    let abort = format!("/api/instance/games/{game}/abort");
    for headers in [&[][..], &["x-shogi-forwarded: 0123456789abcdef"][..]] {
        let (status, _, v) = http_with(&a_addr, "POST", &abort, headers, None).await;
        assert_eq!(status, 404, "{v}");
    }

    // Unpaired through B: B asks A to abort the game.
    let (status, v) = unpair_round_1(&b_addr, &org, &base).await;
    assert!((200..300).contains(&status), "{status} {v}");
    for addr in [&a_addr, &b_addr] {
        let (status, state) = http(addr, "GET", &format!("/api/games/{game}"), None).await;
        assert_eq!(status, 200, "{state}");
        assert_eq!(state["status"]["over"], true, "{state}");
        assert_eq!(state["status"]["reason"], "abort", "{state}");
    }
    let (_, _, event) = http_with(&b_addr, "GET", &base, &[], None).await;
    assert_eq!(rounds(&event), Some(0), "{event}");

    a.kill();
    b.kill();
    db.remove().await;
}

/// A round unpaired while its game's holder is dead: the unpairing is
/// refused (`503`, the round kept) until another instance has taken the
/// game over, and then it aborts the game. Never the round gone and its
/// game live without a board, which the holder's death used to leave (the
/// failed abort was logged and the round deleted). Whether the first try
/// meets the dead holder or the game already taken over, each answer is
/// checked for that.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_is_unpaired_only_once_its_dead_holders_game_can_be_aborted() {
    let db = Db::new().await;
    let (mut a, a_addr) = instance(&db.arg());
    let (mut b, b_addr) = instance(&db.arg());
    let (org, base, game) = paired_through(&a_addr).await;
    a.kill();

    let deadline = tokio::time::Instant::now() + WAIT;
    let mut refused = 0;
    loop {
        let (status, v) = unpair_round_1(&b_addr, &org, &base).await;
        if (200..300).contains(&status) {
            break;
        }
        assert_eq!(status, 503, "{v}");
        assert_eq!(v["code"], "unavailable", "{v}");
        let (_, _, event) = http_with(&b_addr, "GET", &base, &[], None).await;
        assert_eq!(rounds(&event), Some(1), "refused, yet unpaired: {event}");
        refused += 1;
        assert!(
            tokio::time::Instant::now() < deadline,
            "still refused after {refused} tries: {v}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (status, state) = http(&b_addr, "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["status"]["over"], true,
        "after {refused} refusals: {state}"
    );
    assert_eq!(state["status"]["reason"], "abort", "{state}");
    let (_, _, event) = http_with(&b_addr, "GET", &base, &[], None).await;
    assert_eq!(rounds(&event), Some(0), "{event}");

    b.kill();
    db.remove().await;
}

/// The wall clock in Unix milliseconds, as the server's `server_time_ms`.
fn unix_now_ms() -> u64 {
    u64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}
