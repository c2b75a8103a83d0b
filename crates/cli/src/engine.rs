//! `shogi usi`, `shogi mate`, `shogi bench`, `shogi match` and `shogi serve`:
//! thin calls into the engine and server crates.

use std::io::{BufReader, IsTerminal};
use std::net::SocketAddr;
use std::time::Duration;

use shogi_core::ImpasseRule;
use shogi_engine::arena::{self, GameResult, MatchConfig, MatchSummary, TimeControl};
use shogi_engine::dfpn::{self, MateResult};
use shogi_engine::elo::{Sprt, SprtVerdict};
use shogi_engine::usi_client::EngineCommand;
use shogi_record::{Ending, Record};

use crate::args::{BenchArgs, MatchArgs, MateArgs, ServeArgs};
use crate::CliError;

/// The USI protocol on stdin/stdout until `quit`.
#[allow(clippy::unnecessary_wraps)] // every subcommand returns a Result, so main dispatches them alike
pub fn usi() -> Result<(), CliError> {
    shogi_engine::run_usi(BufReader::new(std::io::stdin()), std::io::stdout());
    Ok(())
}

/// The mating line on one line, or `nomate` / `timeout`.
pub fn mate(a: &MateArgs) -> Result<(), CliError> {
    let result = dfpn::solve_mate_sfen(&a.sfen, a.time_ms).map_err(|e| CliError(e.to_string()))?;
    match result {
        MateResult::Mate(line) => {
            let text: Vec<String> = line.iter().map(ToString::to_string).collect();
            out!("{}", text.join(" "));
        }
        MateResult::NoMate => out!("nomate"),
        MateResult::Timeout => out!("timeout"),
    }
    Ok(())
}

/// Per-position node counts, then `N nodes M nps`.
#[allow(clippy::unnecessary_wraps)] // every subcommand returns a Result, so main dispatches them alike
pub fn bench(a: &BenchArgs) -> Result<(), CliError> {
    let tt = shogi_engine::tt::TranspositionTable::try_new(a.hash as usize)
        .ok_or_else(|| CliError(format!("cannot allocate a {} MiB table", a.hash)))?;
    let r = shogi_engine::bench::bench_with_hash(a.depth, &tt);
    for (i, n) in r.per_position.iter().enumerate() {
        out!("position {:>2}: {n} nodes", i + 1);
    }
    out!("{} nodes {} nps", r.total_nodes, r.nps);
    Ok(())
}

pub(crate) fn engine_command(
    text: Option<&String>,
    options: &[String],
) -> Result<EngineCommand, CliError> {
    let mut cmd = match text {
        Some(t) => EngineCommand::parse(t).map_err(|e| CliError(e.to_string()))?,
        None => {
            let exe = std::env::current_exe()
                .map_err(|e| CliError(format!("cannot find this program: {e}")))?;
            EngineCommand {
                program: exe,
                args: vec!["usi".into()],
                options: Vec::new(),
            }
        }
    };
    for o in options {
        let (name, value) = o
            .split_once('=')
            .ok_or_else(|| CliError(format!("bad engine option {o:?}: expected Name=Value")))?;
        cmd.options
            .push((name.trim().to_string(), value.trim().to_string()));
    }
    Ok(cmd)
}

fn time_control(a: &MatchArgs) -> Result<TimeControl, CliError> {
    let clocks = a.byoyomi.is_some() || a.time.is_some() || a.inc.is_some();
    match (a.nodes, a.depth, clocks) {
        (Some(_), Some(_), _) | (Some(_), _, true) | (_, Some(_), true) => Err(CliError(
            "give one of: a clock (--time/--byoyomi/--inc), --nodes, --depth".into(),
        )),
        (Some(n), None, false) => Ok(TimeControl::Nodes(n)),
        (None, Some(d), false) => Ok(TimeControl::Depth(d)),
        _ => match (a.inc, a.byoyomi) {
            (Some(_), Some(_)) => Err(CliError("give --inc or --byoyomi, not both".into())),
            (Some(inc), None) => Ok(TimeControl::Fischer {
                main_ms: a.time.unwrap_or(0),
                increment_ms: inc,
            }),
            (None, byoyomi) => Ok(TimeControl::Byoyomi {
                main_ms: a.time.unwrap_or(0),
                byoyomi_ms: byoyomi.unwrap_or(if a.time.is_some() { 0 } else { 100 }),
            }),
        },
    }
}

fn parse_sprt(text: &str) -> Result<Sprt, CliError> {
    let bad = || {
        CliError(format!(
            "bad --sprt {text:?}: expected ELO0,ELO1 such as 0,10"
        ))
    };
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let elo0: f64 = a.trim().parse().map_err(|_| bad())?;
    let elo1: f64 = b.trim().parse().map_err(|_| bad())?;
    if elo1 <= elo0 {
        return Err(bad());
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
    })
}

/// How a game ended, for the per-game line: the ending's reason word (a
/// false declaration and a crash said in words).
fn termination_text(r: &GameResult) -> String {
    match (&r.crash, r.ending) {
        (Some(c), _) => c.to_string(),
        (
            None,
            shogi_core::Ending::Foul {
                foul: shogi_core::Foul::FalseDeclaration,
                ..
            },
        ) => "wrong declaration".into(),
        (None, shogi_core::Ending::Impasse { winner: Some(_) }) => "declaration".into(),
        // The winner is said by the line itself ("engine1 won").
        (None, e) => e.cause(),
    }
}

fn record_of(r: &GameResult, names: [&str; 2]) -> Record {
    let mut rec = Record::new(r.record.start.clone());
    for &m in &r.record.moves {
        rec.push(m);
    }
    let sente = r.sente_engine;
    rec.headers.sente = Some(names[sente].to_string());
    rec.headers.gote = Some(names[1 - sente].to_string());
    // A crash is an abort in the record (the match still scores it as a loss).
    rec.ending = Ending::Game(r.ending);
    rec
}

fn summary_lines(s: &MatchSummary, sprt: Option<&Sprt>) -> Vec<String> {
    let t = s.tally;
    let (elo, margin) = t.elo();
    let score = if t.games() == 0 {
        0.0
    } else {
        (f64::from(t.wins) + f64::from(t.draws) / 2.0) / f64::from(t.games()) * 100.0
    };
    let mut out = vec![
        format!(
            "Games: {}  W-L-D: {}-{}-{}  Score: {score:.1}%",
            t.games(),
            t.wins,
            t.losses,
            t.draws
        ),
        format!("Elo: {elo:+.1} +/- {margin:.1} (95%)"),
        format!(
            "Time losses: {} / {}  Illegal moves: {} / {}  Crashes: {} / {}",
            s.time_losses[0],
            s.time_losses[1],
            s.illegal_moves[0],
            s.illegal_moves[1],
            s.crashes[0],
            s.crashes[1]
        ),
    ];
    if s.least_time_left_ms.iter().any(Option::is_some) {
        let show = |l: Option<i64>| l.map_or_else(|| "-".to_string(), |ms| format!("{ms} ms"));
        out.push(format!(
            "Least time left after a move: {} / {}  Late moves (within the margin): {} / {}",
            show(s.least_time_left_ms[0]),
            show(s.least_time_left_ms[1]),
            s.late_moves[0],
            s.late_moves[1]
        ));
    }
    if s.effort.iter().any(|e| e.nodes > 0) {
        let show =
            |e: &arena::Effort| format!("{} nodes in {} ms", e.nodes_per_move(), e.ms_per_move());
        out.push(format!(
            "Per move: {} / {}",
            show(&s.effort[0]),
            show(&s.effort[1])
        ));
    }
    if let Some(sprt) = sprt {
        let (lo, hi) = sprt.bounds();
        let name = |v: SprtVerdict| match v {
            SprtVerdict::AcceptH1 => "H1 accepted",
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::Continue => "inconclusive",
        };
        let verdict = match s.sprt_stop {
            // Games under way at the decision finished after it.
            Some((v, at)) if at != t => format!(
                "{} after {} games (LLR {:.2} then)",
                name(v),
                at.games(),
                sprt.llr(&at)
            ),
            Some((v, _)) => name(v).to_string(),
            None => name(sprt.verdict(&t)).to_string(),
        };
        out.push(format!(
            "SPRT elo0={} elo1={}: LLR {:.2} [{lo:.2}, {hi:.2}] {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.llr(&t)
        ));
    }
    out
}

/// Plays the match, prints a line per game on stderr and the summary on stdout.
pub fn run_match(a: &MatchArgs) -> Result<(), CliError> {
    if a.engine.len() > 2 {
        return Err(CliError("at most two --engine".into()));
    }
    let first = engine_command(a.engine.first(), &a.option1)?;
    let second = engine_command(a.engine.get(1).or(a.engine.first()), &a.option2)?;
    let openings = match &a.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
            arena::parse_openings(&text)
                .map_err(|(line, e)| CliError(format!("{}:{line}: {e}", path.display())))?
        }
        None => arena::parse_openings(arena::OPENINGS)
            .map_err(|(line, e)| CliError(format!("openings:{line}: {e}")))?,
    };
    let impasse: ImpasseRule = a
        .impasse_rule
        .parse()
        .map_err(|e: shogi_core::UnknownImpasseRule| CliError(e.to_string()))?;
    let sprt = a.sprt.as_deref().map(parse_sprt).transpose()?;
    if let Some(dir) = &a.records {
        std::fs::create_dir_all(dir).map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
    }
    let config = MatchConfig {
        engines: [first, second],
        games: a.games.max(1),
        concurrency: a.concurrency.max(1),
        time: time_control(a)?,
        openings,
        impasse,
        max_moves: a.max_moves,
        time_margin: Duration::from_millis(200),
        sprt,
    };
    let total = config.games.div_ceil(2) * 2;
    let tty = std::io::stderr().is_terminal();
    let names = ["engine1", "engine2"];
    let records = a.records.clone();
    let summary = arena::run(&config, |game, s| {
        let t = s.tally;
        // Spelled out: "1-0" would read as a Sente win to a shogi player.
        let result = match game.score_of_first() {
            x if x > 0.75 => "engine1 won",
            x if x < 0.25 => "engine2 won",
            _ => "draw",
        };
        let line = format!(
            "[{}/{total}] game {} ({} as Sente): {result} by {}, {} moves | engine1 +{} -{} ={}",
            s.games.len(),
            game.index + 1,
            names[game.sente_engine],
            termination_text(game),
            game.record.moves.len(),
            t.wins,
            t.losses,
            t.draws
        );
        if tty {
            eprint!("\r\x1b[2K{line}");
        } else {
            eprintln!("{line}");
        }
        if let Some(dir) = &records {
            let rec = record_of(game, names);
            let path = dir.join(format!("game-{:04}.kif", game.index + 1));
            if let Err(e) = std::fs::write(&path, rec.to_kif()) {
                eprintln!("shogi: warning: {}: {e}", path.display());
            }
        }
    })
    .map_err(|e| CliError(e.to_string()))?;
    if tty {
        eprintln!();
    }
    for line in summary_lines(&summary, sprt.as_ref()) {
        out!("{line}");
    }
    Ok(())
}

/// The web app until Ctrl-C.
pub fn serve(a: &ServeArgs) -> Result<(), CliError> {
    // The server's own log (a database that refused a write, a lease that
    // could not be renewed...) on standard error: warnings and errors, or
    // what `RUST_LOG` asks for (for example `RUST_LOG=shogi_server=debug`).
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    // Fails only when a subscriber is already set, which then stays.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError(format!("cannot start the runtime: {e}")))?;
    let addr = SocketAddr::new(a.bind, a.port);
    runtime.block_on(async {
        // Said only once the database is open and the port is bound.
        let mut config = shogi_server::Config::new(addr, a.db.clone());
        if a.no_rate_limits {
            config.limits = shogi_server::RateLimits::unlimited();
        }
        config.https_cookies = a.https_cookies;
        config.advertise.clone_from(&a.advertise);
        config.trusted_proxies.clone_from(&a.trusted_proxies);
        config.crash_after_ending = a.crash_after_ending;
        config.csa_bind = a
            .csa_port
            .map(|port| SocketAddr::new(a.csa_bind.unwrap_or(a.bind), port));
        config.csa_pairing_every = Duration::from_secs(u64::from(a.csa_pairing_minutes) * 60);
        let server = shogi_server::Server::start(config).await.map_err(|e| {
            CliError(format!(
                "cannot serve on http://{addr}/ with database {}: {e}",
                a.db
            ))
        })?;
        eprintln!(
            "shogi: serving http://{}/ (database {})",
            server.local_addr(),
            a.db
        );
        if let Some(csa) = server.csa_addr() {
            eprintln!("shogi: CSA server protocol on {csa}");
        }
        server.run_until(shogi_server::stop_signal()).await;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi_engine::elo::Tally;

    /// The match of 2026-12-03 that showed the fault: the SPRT stopped it
    /// at 340-233-4, the game still under way was lost, and the report
    /// said "inconclusive" for a match the SPRT had decided.
    #[test]
    fn the_sprt_line_reports_the_decision_that_stopped_the_match() {
        let sprt = parse_sprt("0,10").unwrap();
        let at = Tally {
            wins: 340,
            losses: 233,
            draws: 4,
        };
        let end = Tally { losses: 234, ..at };
        assert_eq!(sprt.verdict(&at), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(&end), SprtVerdict::Continue);
        let s = MatchSummary {
            tally: end,
            sprt_stop: Some((SprtVerdict::AcceptH1, at)),
            ..MatchSummary::default()
        };
        let lines = summary_lines(&s, Some(&sprt));
        let line = lines.last().unwrap();
        assert!(
            line.ends_with("H1 accepted after 577 games (LLR 2.96 then)"),
            "{line}"
        );
        // Without games finishing after the decision, the verdict alone.
        let s = MatchSummary {
            tally: at,
            sprt_stop: Some((SprtVerdict::AcceptH1, at)),
            ..MatchSummary::default()
        };
        assert!(summary_lines(&s, Some(&sprt))
            .last()
            .unwrap()
            .ends_with("] H1 accepted"));
        // A match that ran out of games undecided.
        let s = MatchSummary {
            tally: end,
            ..MatchSummary::default()
        };
        assert!(summary_lines(&s, Some(&sprt))
            .last()
            .unwrap()
            .ends_with("] inconclusive"));
    }
}
