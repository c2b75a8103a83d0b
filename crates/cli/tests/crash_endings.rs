//! Nothing lost when the process dies (issue 43): a game's ending and the
//! record that its consequences are due (its players' ratings, its
//! tournament board's sennichite replay) are stored in one transaction, the
//! consequences are idempotent, and whatever a dead process left due is
//! carried out at the next start.
//!
//! Real `shogi serve` processes die right after an ending is stored and
//! before anything follows from it (the hidden `--crash-after-ending N`
//! aborts at the Nth ending, so the window is hit every time, not by luck),
//! are killed with SIGKILL a random few milliseconds after a game's last
//! move or resignation is sent, or are killed while they start (carrying
//! out what the one before left). After every start the database holds the
//! consequences of every ending stored exactly once: no outbox entry left;
//! two rating history points, one per player, for each game that earns a
//! rating and none for any other; every account's rated game count equal
//! to its history points; every tournament board a chain of sennichites,
//! each followed by exactly one replay; and no game outside the lobby's and
//! the boards'.
//!
//! The endings: rated games from the lobby between accounts (resigned
//! after two moves, or after one, which earns no rating; never more than
//! three a pair, the daily limit), and sennichites on the boards of rated
//! online events (the kings step out and back three times; three a board).
//! On a `SQLite` file always, and again on PostgreSQL when
//! `SHOGI_TEST_POSTGRES` names a server (a fresh database, dropped after).
//! `CRASH_SEED=N` replays a run's random choices.

mod support;

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::SinkExt;
use serde_json::{json, Value};
use sqlx::Row;
use support::{
    connect_as, http_with, moves, next_state, send_move, serve, spawn_serve, PgDatabase, Server,
    Ws, POSTGRES_ENV, WAIT,
};
use tokio_tungstenite::tungstenite::Message;

/// Server processes started (and made to die) on `SQLite`.
const RUNS_SQLITE: u32 = 40;
/// And on PostgreSQL (each start costs more there).
const RUNS_POSTGRES: u32 = 20;
/// The most endings a process stores before `--crash-after-ending` aborts it.
const MAX_CRASH_AFTER: u64 = 3;
/// Every account's password.
const PASSWORD: &str = "a long enough password";
/// Rated games two accounts play against each other at most (the daily
/// limit: more would be unrated, which the check does not expect).
const RATED_PER_PAIR: u32 = 3;
/// Sennichites played on one board (its games are rated, so at most the
/// daily limit too).
const SENNICHITES_PER_BOARD: u32 = 3;
/// Events one organiser creates (the daily limit).
const EVENTS_PER_ORGANISER: usize = 10;
/// The kings step out and back three times: the start position a fourth
/// time, a sennichite at the 12th move.
const SHUFFLE: [&str; 12] = [
    "5i4h", "5a4b", "4h5i", "4b5a", "5i4h", "5a4b", "4h5i", "4b5a", "5i4h", "5a4b", "4h5i", "4b5a",
];

/// A small deterministic generator (xorshift64*), seeded per test run.
struct Rng(u64);

impl Rng {
    fn seeded() -> Rng {
        let seed = std::env::var("CRASH_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap()
                    .as_nanos() as u64
            });
        eprintln!("CRASH_SEED={seed}");
        Rng(seed | 1)
    }

    /// A number below `n`.
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

/// An account and its session cookie (`name=value`).
#[derive(Clone, Debug)]
struct Account {
    name: String,
    cookie: String,
}

/// An event with one online board between two accounts of its own.
struct Event {
    id: String,
    players: [Account; 2],
    sennichites: u32,
}

/// A game's last action, ready to send: the socket it goes through.
struct Last {
    game: String,
    ws: Ws,
    /// The opponent's socket, kept open meanwhile.
    _other: Ws,
    message: Value,
}

/// How a process ends a run.
#[derive(Clone, Copy, Debug)]
enum Death {
    /// Aborts by itself right after its `n`th ending is stored.
    AfterEnding(u64),
    /// SIGKILL a random few milliseconds after a last action is sent.
    Killed,
}

/// What the test has made and seen, for its checks and its summary.
struct World {
    rng: Rng,
    accounts: usize,
    organiser: Option<Account>,
    raters: Vec<Account>,
    /// Rated games started per pair of `raters`.
    rated: BTreeMap<(usize, usize), u32>,
    /// Games started from the lobby (the others are the boards').
    lobby_games: usize,
    events: Vec<Event>,
    endings_sent: usize,
    crashes: usize,
    kills: usize,
    /// Random kills after which a consequence was due (the window hit).
    kills_leaving_due: usize,
    /// Consequences the dead processes left due, all told.
    left_due: usize,
    start_kills: usize,
}

async fn request(addr: &str, who: &Account, method: &str, path: &str, body: &Value) -> Value {
    let header = format!("Cookie: {}", who.cookie);
    let (status, _, answer) = http_with(addr, method, path, &[&header], Some(body)).await;
    assert!(
        (200..300).contains(&status),
        "{method} {path}: {status} {answer}"
    );
    answer
}

async fn get(addr: &str, path: &str) -> Value {
    let (status, _, answer) = http_with(addr, "GET", path, &[], None).await;
    assert_eq!(status, 200, "GET {path}: {answer}");
    answer
}

/// Plays `usi` as the `ply`th move and waits until it is shown.
async fn play(ws: &mut Ws, usi: &str, ply: usize) {
    send_move(ws, usi).await;
    loop {
        let state = next_state(ws).await.expect("the move is shown");
        if moves(&state).len() >= ply {
            assert_eq!(moves(&state)[ply - 1], usi, "{state}");
            return;
        }
    }
}

/// Whether the game's end is shown on `ws` (`true`), or the socket ends
/// first (`false`: the server died).
async fn end_shown(ws: &mut Ws) -> bool {
    while let Some(state) = next_state(ws).await {
        if state["status"]["over"] == true {
            return true;
        }
    }
    false
}

impl World {
    async fn account(&mut self, addr: &str, kind: &str) -> Account {
        self.accounts += 1;
        let name = format!("{kind}{}", self.accounts);
        let body = json!({"name": name, "password": PASSWORD});
        let (status, cookie, answer) =
            http_with(addr, "POST", "/api/account", &[], Some(&body)).await;
        assert_eq!(status, 201, "{answer}");
        Account {
            name,
            cookie: cookie.expect("a session cookie"),
        }
    }

    /// Two raters who may still play a rated game (a new rater joins when
    /// every pair has played its share).
    async fn pair(&mut self, addr: &str) -> (usize, usize) {
        loop {
            let n = self.raters.len();
            let open: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .filter(|p| self.rated.get(p).copied().unwrap_or(0) < RATED_PER_PAIR)
                .collect();
            if !open.is_empty() {
                let p = open[self.rng.below(open.len() as u64) as usize];
                *self.rated.entry(p).or_default() += 1;
                return if self.rng.below(2) == 0 {
                    p
                } else {
                    (p.1, p.0)
                };
            }
            let rater = self.account(addr, "Rater").await;
            self.raters.push(rater);
        }
    }

    /// A rated game from the lobby, played to its resignation (after two
    /// moves, or one in a game of five, which then earns no rating).
    async fn lobby_game(&mut self, addr: &str) -> Last {
        let (s, g) = self.pair(addr).await;
        let (seeker, acceptor) = (self.raters[s].clone(), self.raters[g].clone());
        let classical = json!({"main_ms": 1_800_000, "byoyomi_ms": 30_000});
        let seek = json!({"time": classical, "rated": true, "side": "sente"});
        let posted = request(addr, &seeker, "POST", "/api/seeks", &seek).await;
        let seek_id = posted["id"].as_str().unwrap();
        let path = format!("/api/seeks/{seek_id}/accept");
        let accepted = request(addr, &acceptor, "POST", &path, &json!({})).await;
        let game = accepted["game"].as_str().unwrap().to_string();
        self.lobby_games += 1;
        let mut sente = connect_as(addr, &game, &seeker.cookie).await.unwrap();
        let mut gote = connect_as(addr, &game, &acceptor.cookie).await.unwrap();
        play(&mut sente, "7g7f", 1).await;
        if self.rng.below(5) > 0 {
            play(&mut gote, "3c3d", 2).await;
        }
        Last {
            game,
            ws: gote,
            _other: sente,
            message: json!({"type": "resign"}),
        }
    }

    /// An event with one online board between two new accounts.
    async fn new_event(&mut self, addr: &str) -> Event {
        // An account creates at most 10 events a day.
        let organiser = match &self.organiser {
            Some(o) if !self.events.len().is_multiple_of(EVENTS_PER_ORGANISER) => o.clone(),
            _ => {
                let o = self.account(addr, "Organiser").await;
                self.organiser = Some(o.clone());
                o
            }
        };
        let players = [
            self.account(addr, "Player").await,
            self.account(addr, "Player").await,
        ];
        let settings = json!({"name": format!("Cup {}", self.events.len() + 1),
            "format": "swiss", "rounds": 2, "time": "30+30", "play": "online", "rated": true});
        let created = request(addr, &organiser, "POST", "/api/tournaments", &settings).await;
        let id = created["id"].as_str().unwrap().to_string();
        let base = format!("/api/tournaments/{id}");
        // Each player joins the open event by itself (nobody enters
        // another account: an organiser only invites).
        for p in &players {
            request(addr, p, "POST", &format!("{base}/players"), &json!({})).await;
        }
        request(
            addr,
            &organiser,
            "POST",
            &format!("{base}/rounds"),
            &json!({}),
        )
        .await;
        Event {
            id,
            players,
            sennichites: 0,
        }
    }

    /// The game an event's board plays now: its last, once the sennichite
    /// before it has been replayed (the live server replays it while the
    /// test goes on).
    async fn board_game(addr: &str, event: &str) -> (String, Value) {
        let mut waited = Duration::ZERO;
        loop {
            let e = get(addr, &format!("/api/tournaments/{event}")).await;
            let games = e["rounds"][0]["pairings"][0]["games"].clone();
            let last = games.as_array().and_then(|g| g.last()).cloned();
            let last = last.and_then(|g| g.as_str().map(str::to_string));
            let last = last.unwrap_or_else(|| panic!("a board without a game: {e}"));
            let state = get(addr, &format!("/api/games/{last}")).await;
            if state["status"]["over"] != true {
                return (last, state);
            }
            assert!(waited < WAIT, "the sennichite {last} is not replayed");
            tokio::time::sleep(Duration::from_millis(10)).await;
            waited += Duration::from_millis(10);
        }
    }

    /// A sennichite on an event's board, played to its last move (from
    /// where the game stands: a killed server may have stored part of it).
    async fn sennichite(&mut self, addr: &str) -> Last {
        let i = match self
            .events
            .iter()
            .position(|e| e.sennichites < SENNICHITES_PER_BOARD)
        {
            Some(i) => i,
            None => {
                let event = self.new_event(addr).await;
                self.events.push(event);
                self.events.len() - 1
            }
        };
        self.events[i].sennichites += 1;
        let event = &self.events[i];
        let (game, state) = Self::board_game(addr, &event.id).await;
        let sente_name = state["players"]["sente"]["name"].as_str().unwrap();
        let (sente, gote) = if sente_name == event.players[0].name {
            (&event.players[0], &event.players[1])
        } else {
            (&event.players[1], &event.players[0])
        };
        let mut sockets = [
            connect_as(addr, &game, &sente.cookie).await.unwrap(),
            connect_as(addr, &game, &gote.cookie).await.unwrap(),
        ];
        let played = moves(&state);
        assert_eq!(played[..], SHUFFLE[..played.len()], "game {game}");
        for (ply, usi) in SHUFFLE
            .iter()
            .enumerate()
            .skip(played.len())
            .take(11 - played.len())
        {
            play(&mut sockets[ply % 2], usi, ply + 1).await;
        }
        let [sente_ws, gote_ws] = sockets;
        Last {
            game,
            ws: gote_ws,
            _other: sente_ws,
            message: json!({"type": "move", "usi": SHUFFLE[11]}),
        }
    }

    /// The next ending, either kind, up to its last action.
    async fn next_ending(&mut self, addr: &str) -> Last {
        self.endings_sent += 1;
        if self.rng.below(2) == 0 {
            self.lobby_game(addr).await
        } else {
            self.sennichite(addr).await
        }
    }

    /// One process's life: it starts (carrying out what the last one left
    /// due), is checked, stores endings and dies as `death` says. `stored`
    /// is the game whose ending the last process stored before it aborted.
    /// Returns this process's.
    async fn run(
        &mut self,
        db: &OsStr,
        check_url: &str,
        death: Death,
        stored: Option<String>,
    ) -> Option<String> {
        let mut args = vec!["--port".to_string(), "0".to_string()];
        if let Death::AfterEnding(n) = death {
            args.extend(["--crash-after-ending".to_string(), n.to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (mut server, addr) = serve(db, &args);
        check(check_url, self.lobby_games).await;
        if let Some(game) = stored {
            // Stored before the process died, though never shown: over.
            let state = get(&addr, &format!("/api/games/{game}")).await;
            assert_eq!(state["status"]["over"], true, "{state}");
        }
        let stored = match death {
            Death::AfterEnding(n) => {
                let mut stored = None;
                for k in 1..=n {
                    let mut last = self.next_ending(&addr).await;
                    last.ws
                        .send(Message::Text(last.message.to_string().into()))
                        .await
                        .unwrap();
                    let shown = end_shown(&mut last.ws).await;
                    if k < n {
                        assert!(shown, "ending {k} of {n} ({}) is shown", last.game);
                        continue;
                    }
                    // The nth ending: stored, then the process aborts before it is shown.
                    assert!(!shown, "the server outlived its ending {n} ({})", last.game);
                    let status = server.exited(WAIT).await.expect("the server aborts");
                    assert!(!status.success(), "{status}");
                    self.crashes += 1;
                    stored = Some(last.game);
                }
                stored
            }
            Death::Killed => {
                let mut last = self.next_ending(&addr).await;
                last.ws
                    .send(Message::Text(last.message.to_string().into()))
                    .await
                    .unwrap();
                tokio::time::sleep(Duration::from_micros(self.rng.below(20_000))).await;
                server.kill();
                self.kills += 1;
                None
            }
        };
        // What the dead process left due: an abort right after an ending
        // always leaves the ending's consequences (every game here is
        // rated); a random kill, when it hit the window.
        let due = due(check_url).await;
        match death {
            Death::AfterEnding(_) => assert!(due > 0, "the abort left nothing due"),
            Death::Killed => self.kills_leaving_due += usize::from(due > 0),
        }
        self.left_due += due;
        // Sometimes the next process dies too while it starts, carrying
        // out (or not yet) what this one left.
        if self.rng.below(3) == 0 {
            let mut starting: Server = spawn_serve(db, &["--port", "0"]);
            tokio::time::sleep(Duration::from_micros(self.rng.below(60_000))).await;
            starting.kill();
            self.start_kills += 1;
        }
        stored
    }
}

/// A board: event, round and number.
type Board = (String, i64, i64);

/// How many consequences are due.
async fn due(url: &str) -> usize {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let due: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM game_outbox")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    usize::try_from(due).unwrap()
}

/// What the check counted.
#[derive(Debug, Default)]
struct Counts {
    rated_games: usize,
    replays: usize,
}

/// The consequences of every ending stored are there exactly once (see the
/// module's comment); `lobby_games` games are not on a board.
async fn check(url: &str, lobby_games: usize) -> Counts {
    assert_eq!(due(url).await, 0, "consequences left due after a start");
    let pool = sqlx::AnyPool::connect(url).await.unwrap();

    let mut counts = Counts::default();
    let games = sqlx::query(
        "SELECT g.id, g.reason, g.sente_user, g.gote_user,
            CAST(CASE WHEN g.over THEN 1 ELSE 0 END AS BIGINT) AS over,
            CAST(CASE WHEN g.rated THEN 1 ELSE 0 END AS BIGINT) AS rated,
            (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies,
            (SELECT COUNT(*) FROM rating_history h WHERE h.game_id = g.id) AS points,
            (SELECT COUNT(DISTINCT h.user_id) FROM rating_history h WHERE h.game_id = g.id
                AND (h.user_id = g.sente_user OR h.user_id = g.gote_user)) AS players_points
         FROM games g",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for g in &games {
        let id: String = g.get("id");
        let reason: Option<String> = g.get("reason");
        let users = (
            g.get::<Option<i64>, _>("sente_user"),
            g.get::<Option<i64>, _>("gote_user"),
        );
        let earns = g.get::<i64, _>("over") == 1
            && g.get::<i64, _>("rated") == 1
            && reason.as_deref() != Some("abort")
            && g.get::<i64, _>("plies") >= 2
            && users.0.is_some()
            && users.1.is_some();
        let expected = if earns { 2 } else { 0 };
        let points: i64 = g.get("points");
        let players_points: i64 = g.get("players_points");
        assert_eq!(
            (points, players_points),
            (expected, expected),
            "game {id} ({reason:?}): rating history points"
        );
        counts.rated_games += usize::from(earns);
    }

    let ratings = sqlx::query(
        "SELECT r.user_id, r.class, r.games,
            (SELECT COUNT(*) FROM rating_history h
             WHERE h.user_id = r.user_id AND h.class = r.class) AS points
         FROM ratings r",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for r in &ratings {
        let (user, class): (i64, String) = (r.get("user_id"), r.get("class"));
        let (games, points): (i64, i64) = (r.get("games"), r.get("points"));
        assert_eq!(
            games, points,
            "user {user} in {class}: rated games and history"
        );
    }

    let links = sqlx::query(
        "SELECT tg.tournament, tg.round, tg.board, tg.game_id, g.reason
         FROM tournament_games tg JOIN games g ON g.id = tg.game_id
         ORDER BY tg.tournament, tg.round, tg.board, tg.seq",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut boards: BTreeMap<Board, Vec<(String, Option<String>)>> = BTreeMap::new();
    for l in &links {
        boards
            .entry((l.get("tournament"), l.get("round"), l.get("board")))
            .or_default()
            .push((l.get("game_id"), l.get("reason")));
    }
    for (board, games) in &boards {
        let (last, before) = games.split_last().unwrap();
        for (game, reason) in before {
            assert_eq!(
                reason.as_deref(),
                Some("repetition"),
                "board {board:?}: game {game} was replayed: {games:?}"
            );
        }
        assert_ne!(
            last.1.as_deref(),
            Some("repetition"),
            "board {board:?}: the sennichite {} has no replay",
            last.0
        );
        counts.replays += before.len();
    }
    let off_board: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM games WHERE id NOT IN (SELECT game_id FROM tournament_games)",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        off_board, lobby_games as i64,
        "games neither from the lobby nor on a board"
    );
    pool.close().await;
    counts
}

/// `runs` processes on the database `db` (checked through `check_url`).
async fn crash_and_restart(db: &OsStr, check_url: &str, runs: u32) {
    let started = std::time::Instant::now();
    let mut world = World {
        rng: Rng::seeded(),
        accounts: 0,
        organiser: None,
        raters: Vec::new(),
        rated: BTreeMap::new(),
        lobby_games: 0,
        events: Vec::new(),
        endings_sent: 0,
        crashes: 0,
        kills: 0,
        kills_leaving_due: 0,
        left_due: 0,
        start_kills: 0,
    };
    let mut stored = None;
    for run in 0..runs {
        // One process in four is killed at a random moment; the others
        // abort right after their first, second or third ending.
        let death = if run % 4 == 3 {
            Death::Killed
        } else {
            Death::AfterEnding(1 + world.rng.below(MAX_CRASH_AFTER))
        };
        stored = world.run(db, check_url, death, stored).await;
    }
    let (mut server, addr) = serve(db, &["--port", "0"]);
    let counts = check(check_url, world.lobby_games).await;
    if let Some(game) = stored {
        let state = get(&addr, &format!("/api/games/{game}")).await;
        assert_eq!(state["status"]["over"], true, "{state}");
    }
    server.kill();
    eprintln!(
        "{runs} processes, {} endings sent: {} aborted right after an ending, {} killed at \
         random ({} of them with a consequence due), {} more killed while starting; {} \
         consequences left due and carried out at a start; {} games rated once, {} \
         sennichites replayed once, in {:.1} s",
        world.endings_sent,
        world.crashes,
        world.kills,
        world.kills_leaving_due,
        world.start_kills,
        world.left_due,
        counts.rated_games,
        counts.replays,
        started.elapsed().as_secs_f64()
    );
    assert!(counts.rated_games > 0 && counts.replays > 0, "{counts:?}");
}

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_stored_ending_has_its_consequences_exactly_once_after_a_crash() {
    let dir = Dir(std::env::temp_dir().join(format!("shogi-crash-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let file = dir.0.join("games.db");
    let url = format!("sqlite://{}?mode=ro", file.display());
    crash_and_restart(file.as_os_str(), &url, RUNS_SQLITE).await;
    if let Ok(admin) = std::env::var(POSTGRES_ENV) {
        let name = format!("shogi_crash_{}", std::process::id());
        let pg = PgDatabase::create(&admin, &name).await;
        crash_and_restart(OsStr::new(&pg.url), &pg.url, RUNS_POSTGRES).await;
        pg.drop_it().await;
    }
}
