//! CSA load benchmark: pairs of programs play many games over the CSA
//! server protocol on loopback.
//!
//! ```text
//! cargo run --release -p shogi-server --example csa_load -- \
//!     [--server target/release/shogi] [--games 1000] [--think-ms 1000] [--jitter 50] \
//!     [--seconds 30] [--warmup 3]
//! ```
//!
//! It makes 2 × `--games` program accounts on a fresh SQLite database
//! (`csa<i>a` and `csa<i>b`, all in one `shogi user add NAME... --bot`, which
//! prints their CSA tokens), starts `shogi serve --csa-port` on free
//! loopback ports, and has every program log in over TCP. The two programs
//! of pair `i` ask for a game name of their own, `load<i>-600-10` (10
//! minutes and 10 s byoyomi, far more than a program's 128 moves at most
//! use at a move a second), so each pair is paired at once, with itself
//! (a `floodgate-` name would wait for the half-hourly schedule). Both
//! `AGREE`, and each plays a random legal move (`shogi_core`'s generator)
//! every `--think-ms`, drawn within `--jitter` percent of it as the web
//! benchmark's bots do (examples/load.rs; default 50: between half and one
//! and a half). A game ends by a mate, the 256-move limit or, seldom, a
//! repetition; both programs then ask for the next one with `%%GAME` and the
//! same name (a program stays logged in after a game, docs/CSA.md), so the
//! number of games stays put. A connection the server closes (a program
//! that lost on time) logs in again.
//!
//! Measured for `--seconds` after a warm-up (at least `--warmup` s and two
//! think times, and until every program has moved once): moves per second,
//! a move's echo (the time from writing the move line until its echo,
//! `+7776FU,T0`, is read on the mover's socket: the room's checks, the
//! move's commit to SQLite, the broadcast and the write; p50 … max), the
//! server's CPU time per move (user space and kernel) and peak resident
//! memory, its open file descriptors, the bots' own CPU (they share the
//! cores with the server), the games started and how the games ended, and
//! errors (a socket silent for 60 s, an unexpected line, a failed login).
//!
//! 2 × `--games` connections need as many file descriptors in this process
//! and a few more in the server (`ulimit -n`; 1000 games: above about 2030), and
//! the server serves at most 4096 CSA connections
//! (`api::csa::MAX_CONNECTIONS`).
//!
//! The server runs with `--no-rate-limits`: every program logs in from
//! 127.0.0.1. Not a test: run it by hand and keep the figures.

mod measure;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shogi_core::{Color, MoveList, Position};
use shogi_engine::rng::Rng;
use shogi_record::csa::CsaMove;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

use measure::{
    cpu_seconds, cpu_split, free_port, log_path, number, percentiles, print_cpu, sqlite_path,
    start_server, think_time, wait_for_server, warm_up, Tally,
};

const USAGE: &str = "usage: csa_load [--server PATH] [--games N] [--think-ms N] [--jitter PCT] \
[--seconds N] [--warmup N]";

/// Every game's clock, after the name in `load<i>-600-10`.
const CLOCK: &str = "600-10";
/// A socket silent for this long counts as an error.
const READ_TIMEOUT: Duration = Duration::from_secs(60);
/// The lines that end a game's result, for the program that reads them.
const OUTCOMES: [&str; 5] = ["#WIN", "#LOSE", "#DRAW", "#CENSORED", "#CHUDAN"];

struct Args {
    server: String,
    games: usize,
    think_ms: u64,
    /// How far each think time strays from `think_ms`, in percent.
    jitter_pct: u64,
    seconds: u64,
    /// The least warm-up, in seconds.
    warmup: u64,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        server: "target/release/shogi".into(),
        games: 1000,
        think_ms: 1000,
        jitter_pct: 50,
        seconds: 30,
        warmup: 3,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--server" => a.server = it.next().ok_or("--server needs a path")?,
            "--games" => a.games = number(&flag, it.next())?,
            "--think-ms" => a.think_ms = number(&flag, it.next())?,
            "--jitter" => a.jitter_pct = number(&flag, it.next())?,
            "--seconds" => a.seconds = number(&flag, it.next())?,
            "--warmup" => a.warmup = number(&flag, it.next())?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if a.jitter_pct > 100 {
        return Err("--jitter is a percentage of --think-ms, at most 100".into());
    }
    if a.games == 0 {
        return Err("--games needs at least 1".into());
    }
    Ok(a)
}

/// A program account: its name and CSA token.
struct Program {
    name: String,
    token: String,
}

/// Makes the program accounts of `pairs` pairs (`csa<i>a`, `csa<i>b`) in
/// the database `db` with one `shogi user add NAME... --bot`, and reads
/// their tokens from its output.
fn add_programs(bin: &str, db: &Path, pairs: usize) -> Result<Vec<(Program, Program)>, String> {
    let names: Vec<String> = (0..pairs)
        .flat_map(|i| [format!("csa{i}a"), format!("csa{i}b")])
        .collect();
    let out = Command::new(bin)
        .args(["user", "add"])
        .args(&names)
        .arg("--bot")
        .arg("--db")
        .arg(db)
        .output()
        .map_err(|e| format!("cannot run {bin} user add: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{bin} user add: {}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    // `CSA token (shown once; LOGIN NAME <gamename>,<token>): TOKEN`
    let mut tokens: BTreeMap<String, String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("CSA token (shown once; LOGIN ")?;
            let (name, _) = rest.split_once(' ')?;
            let (_, token) = rest.rsplit_once(' ')?;
            Some((name.to_owned(), token.to_owned()))
        })
        .collect();
    let mut program = |name: &String| {
        let token = tokens
            .remove(name)
            .ok_or_else(|| format!("no CSA token for {name} in the output of user add"))?;
        Ok::<_, String>(Program {
            name: name.clone(),
            token,
        })
    };
    names
        .chunks(2)
        .map(|pair| Ok((program(&pair[0])?, program(&pair[1])?)))
        .collect()
}

/// Everything the programs count.
#[derive(Default)]
struct Shared {
    stop: AtomicBool,
    /// The moves with their echoes, and the errors.
    tally: Tally,
    /// Games started (counted by their Sente).
    games_started: AtomicU64,
    /// Games ended, by how (counted by their Sente).
    endings: Mutex<BTreeMap<String, u64>>,
    logins: AtomicU64,
}

impl Shared {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// How the programs play.
#[derive(Clone, Copy)]
struct Bots {
    /// How long a program waits before each move, on average.
    think: Duration,
    /// How far one wait strays from `think`, in percent (uniformly).
    jitter_pct: u64,
}

/// A program's connection: lines in, lines out.
struct Conn {
    reader: BufReader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
    /// The line read last, without its line feed.
    line: String,
    /// A line to write, with its line feed.
    out: String,
}

impl Conn {
    async fn open(port: u16) -> Result<Conn, String> {
        let stream = TcpStream::connect(("127.0.0.1", port))
            .await
            .map_err(|e| format!("connect: {e}"))?;
        // A move is one short line: written at once, not held back.
        let _ = stream.set_nodelay(true);
        let (reader, writer) = stream.into_split();
        Ok(Conn {
            reader: BufReader::new(reader),
            writer,
            line: String::new(),
            out: String::new(),
        })
    }

    async fn send(&mut self, text: &str) -> Result<(), String> {
        self.out.clear();
        self.out.push_str(text);
        self.out.push('\n');
        self.writer
            .write_all(self.out.as_bytes())
            .await
            .map_err(|e| format!("write: {e}"))
    }

    /// Reads the next line into `self.line`.
    async fn read(&mut self) -> Result<(), String> {
        self.line.clear();
        let read = tokio::time::timeout(READ_TIMEOUT, self.reader.read_line(&mut self.line))
            .await
            .map_err(|_| format!("nothing read for {} s", READ_TIMEOUT.as_secs()))?;
        match read {
            Ok(0) => Err("the server closed the connection".into()),
            Ok(_) => {
                let end = self.line.trim_end_matches(['\n', '\r']).len();
                self.line.truncate(end);
                Ok(())
            }
            Err(e) => Err(format!("read: {e}")),
        }
    }

    /// Reads a `Game_Summary` to its end: this program's colour.
    async fn summary(&mut self) -> Result<Color, String> {
        let mut me = None;
        loop {
            self.read().await?;
            match self.line.as_str() {
                "END Game_Summary" => return me.ok_or("a summary without Your_Turn".into()),
                "Your_Turn:+" => me = Some(Color::Sente),
                "Your_Turn:-" => me = Some(Color::Gote),
                l if l.starts_with("##[ERROR]") || l.starts_with("REJECT:") => {
                    return Err(format!("waiting for a summary: {l}"));
                }
                _ => {}
            }
        }
    }

    /// Reads until `START:` after `AGREE`.
    async fn started(&mut self) -> Result<(), String> {
        loop {
            self.read().await?;
            if self.line.starts_with("START:") {
                return Ok(());
            }
            if self.line.starts_with("REJECT:") {
                return Err(format!("after AGREE: {}", self.line));
            }
        }
    }

    /// Reads a game's result lines from the first, `first`, to the
    /// outcome: how the game ended (the reason, or `checkmate` for an
    /// outcome alone) and whether this program lost on time (its
    /// connection is closed then).
    async fn result(&mut self, first: String) -> Result<(String, bool), String> {
        let mut last = first.clone();
        while !OUTCOMES.contains(&last.as_str()) {
            self.read().await?;
            if self.line.starts_with('#') {
                last.clone_from(&self.line);
            }
        }
        let timed_out = first == "#TIME_UP" && last == "#LOSE";
        let alone = first == last && first != "#CHUDAN";
        Ok((if alone { "checkmate".into() } else { first }, timed_out))
    }
}

/// A line read during a game.
enum Said<'a> {
    /// A move, `+7776FU` (its `,T0` left off).
    Move(&'a str),
    /// The first line of the result.
    End,
    Other,
}

fn said(line: &str) -> Said<'_> {
    if let Some(mv) = line.get(..7).filter(|m| m.starts_with(['+', '-'])) {
        Said::Move(mv)
    } else if line.starts_with('#') {
        Said::End
    } else {
        Said::Other
    }
}

/// Plays a started game as `me` to its end: how it ended and whether
/// this program lost on time.
async fn play(
    conn: &mut Conn,
    me: Color,
    bots: Bots,
    rng: &mut Rng,
    shared: &Shared,
) -> Result<(String, bool), String> {
    let mut pos = Position::startpos();
    loop {
        let moves = if pos.side_to_move() == me {
            pos.legal_moves()
        } else {
            MoveList::new()
        };
        if !moves.is_empty() {
            tokio::time::sleep(think_time(bots.think, bots.jitter_pct, rng)).await;
            let mv = moves[rng.below(moves.len())];
            let text = CsaMove::of(&pos, mv).to_string();
            let sent = Instant::now();
            conn.send(&text).await?;
            loop {
                conn.read().await?;
                match said(&conn.line) {
                    Said::Move(m) if m == text => break,
                    Said::Move(m) => return Err(format!("sent {text}, read {m}")),
                    Said::End => return conn.result(conn.line.clone()).await,
                    Said::Other => {}
                }
            }
            shared.tally.record_move(sent.elapsed());
            pos.make_move(mv);
            continue;
        }
        // The opponent's turn (or this program is mated, which the server
        // says at once).
        conn.read().await?;
        match said(&conn.line) {
            Said::Move(m) => {
                let theirs = CsaMove::parse(m)
                    .and_then(|c| c.to_move(&pos).ok())
                    .ok_or_else(|| format!("cannot read the move {m}"))?;
                pos.make_move(theirs);
            }
            Said::End => return conn.result(conn.line.clone()).await,
            Said::Other => {}
        }
    }
}

/// One program's login: games one after another with `%%GAME`. Returns
/// when the server closes the connection after a loss on time (to log in
/// again) or the run stops; an error ends it too.
async fn session(
    port: u16,
    program: &Program,
    game: &str,
    bots: Bots,
    rng: &mut Rng,
    shared: &Shared,
) -> Result<(), String> {
    let mut conn = Conn::open(port).await?;
    conn.send(&format!("LOGIN {} {game},{}", program.name, program.token))
        .await?;
    conn.read().await?;
    if conn.line != format!("LOGIN:{} OK", program.name) {
        return Err(format!("LOGIN: {}", conn.line));
    }
    shared.logins.fetch_add(1, Ordering::Relaxed);
    loop {
        let me = conn.summary().await?;
        conn.send("AGREE").await?;
        conn.started().await?;
        if me == Color::Sente {
            shared.games_started.fetch_add(1, Ordering::Relaxed);
        }
        let (how, timed_out) = play(&mut conn, me, bots, rng, shared).await?;
        if me == Color::Sente {
            *shared.endings.lock().expect("lock").entry(how).or_default() += 1;
        }
        if timed_out {
            // Closed by the server once told: the login is released then.
            while conn.read().await.is_ok() {}
            return Ok(());
        }
        if shared.stopped() {
            return Ok(());
        }
        conn.send(&format!("%%GAME {game}")).await?;
    }
}

/// A program: logs in for its pair's game and plays until the run stops,
/// logging in again when its connection ends.
async fn program(
    port: u16,
    program: Program,
    game: String,
    bots: Bots,
    seed: u64,
    shared: Arc<Shared>,
) {
    let mut rng = Rng::new(seed);
    while !shared.stopped() {
        if let Err(e) = session(port, &program, &game, bots, &mut rng, &shared).await {
            if shared.stopped() {
                return;
            }
            shared
                .tally
                .error_saying(format_args!("{}: {e}", program.name));
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
}

/// The server's open file descriptors.
fn open_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, Iterator::count)
}

/// The measured run.
async fn live(a: &Args, port: u16, pid: u32, pairs: Vec<(Program, Program)>) {
    let shared = Arc::new(Shared::default());
    let bots = Bots {
        think: Duration::from_millis(a.think_ms),
        jitter_pct: a.jitter_pct,
    };
    let think_ms = a.think_ms.max(1);
    let mut tasks = Vec::with_capacity(2 * pairs.len());
    for (i, (first, second)) in pairs.into_iter().enumerate() {
        let game = format!("load{i}-{CLOCK}");
        // Spread the logins so that moves do not arrive in lockstep.
        let delay = Duration::from_millis((i as u64 * 7919) % think_ms);
        for (k, p) in [first, second].into_iter().enumerate() {
            let (game, shared) = (game.clone(), shared.clone());
            let seed = 2 * i as u64 + k as u64 + 1;
            tasks.push(tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                program(port, p, game, bots, seed, shared).await;
            }));
        }
    }
    let least = Duration::from_secs(a.warmup).max(bots.think * 2);
    warm_up(&shared.tally, 2 * a.games as u64, least).await;
    let moves0 = shared.tally.moves();
    let started0 = shared.games_started.load(Ordering::Relaxed);
    let endings0 = shared.endings.lock().expect("lock").clone();
    let cpu0 = cpu_split(pid);
    let bots_cpu0 = cpu_seconds(std::process::id());
    let t0 = Instant::now();
    tokio::time::sleep(Duration::from_secs(a.seconds)).await;
    let elapsed = t0.elapsed().as_secs_f64();
    let moves = shared.tally.moves() - moves0;
    let cpu1 = cpu_split(pid);
    let bots_cpu = cpu_seconds(std::process::id()) - bots_cpu0;
    let files = open_files(pid);
    let rtts = shared.tally.window();
    shared.stop.store(true, Ordering::Relaxed);
    println!(
        "CSA games {}  programs {}  think {} ms ± {} %  measured {elapsed:.0} s",
        a.games,
        2 * a.games,
        a.think_ms,
        a.jitter_pct
    );
    println!("moves {moves}  moves/s {:.0}", moves as f64 / elapsed);
    println!("move echo  {}", percentiles(&rtts));
    print_cpu(
        &[(port, pid)],
        (cpu1.0 - cpu0.0, cpu1.1 - cpu0.1),
        bots_cpu,
        elapsed,
        moves,
    );
    let ended: Vec<String> = shared
        .endings
        .lock()
        .expect("lock")
        .iter()
        .filter_map(|(how, n)| {
            let n = n - endings0.get(how).copied().unwrap_or(0);
            (n > 0).then(|| format!("{how} {n}"))
        })
        .collect();
    println!(
        "games started {}  ended: {}",
        shared.games_started.load(Ordering::Relaxed) - started0,
        if ended.is_empty() {
            "none".to_owned()
        } else {
            ended.join(", ")
        }
    );
    println!(
        "logins {}  server file descriptors {files}  errors {}",
        shared.logins.load(Ordering::Relaxed),
        shared.tally.errors()
    );
    for t in tasks {
        t.abort();
    }
}

#[tokio::main]
async fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("csa_load: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let dir = std::env::temp_dir().join(format!("shogi-csa-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let outcome = run(&a, &dir).await;
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = outcome {
        eprintln!("csa_load: {e}");
        std::process::exit(1);
    }
}

/// Makes the accounts, starts the server, measures, stops the server.
async fn run(a: &Args, dir: &Path) -> Result<(), String> {
    println!(
        "making {} program accounts in one shogi user add ...",
        2 * a.games
    );
    let t = Instant::now();
    let pairs = add_programs(&a.server, &sqlite_path(dir), a.games)?;
    println!("accounts made in {:.1} s", t.elapsed().as_secs_f64());
    let (port, csa_port) = (free_port(), free_port());
    let csa = ["--csa-port".to_owned(), csa_port.to_string()];
    let mut child = start_server(&a.server, (0, port), None, &csa, dir)?;
    let mut outcome = wait_for_server(&mut child, port, &log_path(dir, 0)).await;
    if outcome.is_ok() {
        outcome = wait_for_server(&mut child, csa_port, &log_path(dir, 0)).await;
    }
    if outcome.is_ok() {
        live(a, csa_port, child.id(), pairs).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    outcome
}
