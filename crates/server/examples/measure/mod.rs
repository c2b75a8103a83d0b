//! What the load benchmarks share (`load.rs` over WebSocket, `csa_load.rs`
//! over the CSA protocol): starting `shogi serve` on a fresh database,
//! the bots' think times, the moves and errors they count, the warm-up,
//! the percentiles of the samples and the processes' CPU time and memory
//! from /proc.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use shogi_engine::rng::Rng;
use tokio::net::TcpStream;

/// The most the warm-up waits for the games to be under way.
const MAX_WARMUP: Duration = Duration::from_secs(120);
/// Errors whose message is printed (the rest are only counted).
const ERRORS_PRINTED: u64 = 10;

/// The moves the bots made, with their round trips, and their errors.
#[derive(Default)]
pub struct Tally {
    /// Each move's round trip in µs, since the last [`Tally::window`].
    rtts_us: Mutex<Vec<u64>>,
    moves: AtomicU64,
    errors: AtomicU64,
}

impl Tally {
    pub fn record_move(&self, rtt: Duration) {
        let us = u64::try_from(rtt.as_micros()).unwrap_or(u64::MAX);
        self.rtts_us.lock().expect("lock").push(us);
        self.moves.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts an error without a message.
    #[allow(
        dead_code,
        reason = "each example compiles this module on its own; csa_load's errors all have a message"
    )]
    pub fn error(&self) {
        self.errors.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts an error and prints what went wrong, for the first few only.
    pub fn error_saying(&self, what: std::fmt::Arguments) {
        if self.errors.fetch_add(1, Ordering::Relaxed) < ERRORS_PRINTED {
            eprintln!("{what}");
        }
    }

    pub fn moves(&self) -> u64 {
        self.moves.load(Ordering::Relaxed)
    }

    pub fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }

    /// The round trips since the last call, sorted, and a new window.
    pub fn window(&self) -> Vec<u64> {
        let mut rtts = std::mem::take(&mut *self.rtts_us.lock().expect("lock"));
        rtts.sort_unstable();
        rtts
    }
}

/// A command-line flag's number.
pub fn number<T: FromStr>(flag: &str, value: Option<String>) -> Result<T, String> {
    value
        .as_deref()
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("{flag} needs a number"))
}

/// Starts `shogi serve` number `i` on `port` with `--no-rate-limits`
/// (every bot comes from 127.0.0.1: the per-address limits would stop all
/// but the first few), on `db` (a fresh SQLite file in `dir` if none),
/// with `extra` arguments, logging to [`log_path`].
pub fn start_server(
    bin: &str,
    (i, port): (usize, u16),
    db: Option<&str>,
    extra: &[String],
    dir: &Path,
) -> Result<Child, String> {
    let log = std::fs::File::create(log_path(dir, i)).map_err(|e| e.to_string())?;
    let mut cmd = Command::new(bin);
    cmd.args(["serve", "--port", &port.to_string(), "--db"]);
    match db {
        Some(url) => cmd.arg(url),
        None => cmd.arg(sqlite_path(dir)),
    };
    cmd.arg("--no-rate-limits").args(extra);
    cmd.stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .map_err(|e| format!("cannot start {bin} (build it first: cargo build --release): {e}"))
}

/// The fresh SQLite file of a run in `dir`.
pub fn sqlite_path(dir: &Path) -> PathBuf {
    dir.join("load.db")
}

/// Where server number `i` logs.
pub fn log_path(dir: &Path, i: usize) -> PathBuf {
    dir.join(format!("server-{i}.log"))
}

/// A free loopback port.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

/// Waits until the server accepts connections on `port`; its log when it
/// exits first.
pub async fn wait_for_server(server: &mut Child, port: u16, log: &Path) -> Result<(), String> {
    for _ in 0..600 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return Ok(());
        }
        if let Ok(Some(status)) = server.try_wait() {
            let log = std::fs::read_to_string(log).unwrap_or_default();
            return Err(format!("the server exited ({status}):\n{}", log.trim_end()));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err("the server did not listen within 30 s".into())
}

/// The wait before a move: `think`, or with `jitter_pct` a time drawn
/// uniformly within that many percent of it, so that bots a stall has
/// bunched together drift apart again instead of arriving together every
/// `think` from then on.
pub fn think_time(think: Duration, jitter_pct: u64, rng: &mut Rng) -> Duration {
    let micros = u64::try_from(think.as_micros()).unwrap_or(u64::MAX);
    let spread = micros * jitter_pct / 100;
    if spread == 0 {
        return think;
    }
    let drawn = rng.below(usize::try_from(2 * spread + 1).unwrap_or(usize::MAX)) as u64;
    Duration::from_micros(micros - spread + drawn)
}

/// Runs the warm-up: at least `least`, and until `under_way` moves were
/// made (every game started and past its first move), so that the
/// measurement sees the games running rather than starting: with 10,000
/// games begun within one second, opening a game took up to 4.3 s and a
/// first move up to 3.7 s, which a 3 s warm-up left inside the measured
/// window as its p99. Prints how long it took and its slowest move, and
/// starts the tally's measured window.
pub async fn warm_up(tally: &Tally, under_way: u64, least: Duration) {
    let t = Instant::now();
    tokio::time::sleep(least).await;
    while tally.moves() < under_way && t.elapsed() < MAX_WARMUP {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let slowest = tally.window().last().copied().unwrap_or(0);
    println!(
        "warm-up {:.1} s (the least {:.0} s, then until {under_way} moves)  slowest move {:.0} ms",
        t.elapsed().as_secs_f64(),
        least.as_secs_f64(),
        slowest as f64 / 1000.0
    );
}

/// `p50 … max` of sorted samples in µs, in ms, for one line.
pub fn percentiles(sorted: &[u64]) -> String {
    format!(
        "p50 {:.2} ms  p90 {:.2} ms  p95 {:.2} ms  p99 {:.2} ms  p99.9 {:.2} ms  max {:.2} ms",
        quantile_ms(sorted, 0.5),
        quantile_ms(sorted, 0.9),
        quantile_ms(sorted, 0.95),
        quantile_ms(sorted, 0.99),
        quantile_ms(sorted, 0.999),
        quantile_ms(sorted, 1.0),
    )
}

/// The `p`-quantile of sorted samples in µs, in ms.
pub fn quantile_ms(sorted: &[u64], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 - 1.0) * p) as usize)
        .copied()
        .unwrap_or(0) as f64
        / 1000.0
}

/// Prints the servers' CPU (user space and kernel) and peak RSS, and the
/// bots' CPU, over `elapsed` seconds in which `moves` moves were played.
pub fn print_cpu(
    servers: &[(u16, u32)],
    (user, system): (f64, f64),
    bots_cpu: f64,
    elapsed: f64,
    moves: u64,
) {
    let rss: Vec<String> = servers
        .iter()
        .map(|&(_, pid)| format!("{:.0}", mib(memory_kib(pid, "VmHWM"))))
        .collect();
    let per_move = |s: f64| s / moves.max(1) as f64 * 1e6;
    println!(
        "server CPU {:.0}% of one core  CPU per move {:.0} µs (user {:.0}, kernel {:.0})  peak RSS {} MiB",
        (user + system) / elapsed * 100.0,
        per_move(user + system),
        per_move(user),
        per_move(system),
        rss.join(" / ")
    );
    // The bots share the machine: what they take is not left for the server.
    println!(
        "bots CPU {:.0}% of one core  CPU per move {:.0} µs",
        bots_cpu / elapsed * 100.0,
        per_move(bots_cpu),
    );
}

/// CPU seconds (user + system) of a process, from /proc.
pub fn cpu_seconds(pid: u32) -> f64 {
    let (user, system) = cpu_split(pid);
    user + system
}

/// CPU seconds of a process in user space and in the kernel, from /proc.
pub fn cpu_split(pid: u32) -> (f64, f64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| fields.get(i).and_then(|t| t.parse::<f64>().ok());
    (
        ticks(11).unwrap_or(0.0) / 100.0,
        ticks(12).unwrap_or(0.0) / 100.0,
    )
}

/// A memory figure of a process in KiB from /proc/PID/status: `VmRSS` (now)
/// or `VmHWM` (the peak).
pub fn memory_kib(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

pub fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}
