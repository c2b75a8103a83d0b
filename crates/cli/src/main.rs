//! The `shogi` command: every subcommand is a thin call into a library crate.

/// `println!` for the command's output: a closed standard output (`shogi
/// perft ... | head`) ends the program quietly instead of a panic; another
/// write error is one line on stderr and exit code 2.
macro_rules! out {
    () => {
        $crate::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

// The doc comments of args.rs are clap's --help text, read in a terminal, not rustdoc.
#[allow(clippy::doc_markdown)]
mod args;
mod convert;
mod csa_client;
mod db;
mod db_generate;
mod diagram;
mod engine;
mod picture;
mod puzzles;
mod tune;
mod user;

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use shogi_core::usi::PositionCommand;
use shogi_core::{perft, Game, GameRules, GameStatus, Leniency, Move, PlayError, Position};

use args::{Cli, Command, PerftArgs, PositionArgs, ServeArgs, ShowArgs, StatusArgs};

/// Writes `text` to standard output (see `out!`).
fn write_out(text: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    let written = stdout.write_fmt(text).and_then(|()| stdout.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("shogi: cannot write the output: {e}");
            std::process::exit(2);
        }
    }
}

/// A user error: printed as one line on stderr, exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct CliError(String);

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            let text = e.render().to_string();
            let line = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("bad arguments");
            eprintln!("shogi: {}", line.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        // With no subcommand, run the main job: the web app with its defaults.
        None => engine::serve(&ServeArgs::default()),
        Some(Command::Perft(a)) => run_perft(&a),
        Some(Command::Moves(a)) => run_moves(&a),
        Some(Command::Status(a)) => run_status(&a),
        Some(Command::Show(a)) => run_show(&a),
        Some(Command::Convert(a)) => convert::run(&a),
        Some(Command::Diagram(a)) => picture::run(&a),
        Some(Command::Usi) => engine::usi(),
        Some(Command::Mate(a)) => engine::mate(&a),
        Some(Command::Bench(a)) => engine::bench(&a),
        Some(Command::Match(a)) => engine::run_match(&a),
        Some(Command::Serve(a)) => engine::serve(&a),
        Some(Command::CsaClient(a)) => csa_client::run(&a),
        Some(Command::Tune(t)) => tune::run(&t),
        Some(Command::Puzzles(p)) => puzzles::run(&p),
        Some(Command::User(u)) => user::run(&u),
        Some(Command::Db(d)) => db::run(&d),
        Some(Command::Explore(e)) => db::explore(&e),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("shogi: {e}");
            ExitCode::from(2)
        }
    }
}

/// The start position and the moves (syntax-checked) the arguments name.
pub(crate) fn read_position(a: &PositionArgs) -> Result<PositionCommand, CliError> {
    let start = match (&a.sfen, &a.handicap) {
        (Some(_), Some(_)) => return Err(CliError("give --sfen or --handicap, not both".into())),
        (None, Some(h)) => h
            .parse::<shogi_core::Handicap>()
            .map_err(|e| CliError(e.to_string()))?
            .position(),
        (Some(s), None) => {
            let text = s.trim();
            let text = text.strip_prefix("position").map_or(text, str::trim);
            let leniency = Leniency {
                allow_missing_kings: true,
            };
            if text.contains("moves") {
                // A whole USI position line.
                let cmd = PositionCommand::parse_with(text, leniency)
                    .map_err(|e| CliError(e.to_string()))?;
                return with_extra_moves(cmd, &a.moves);
            }
            if text == "startpos" {
                Position::startpos()
            } else {
                shogi_core::sfen::parse_position_with(
                    text.strip_prefix("sfen").unwrap_or(text),
                    leniency,
                )
                .map_err(|e| CliError(e.to_string()))?
            }
        }
        (None, None) => Position::startpos(),
    };
    with_extra_moves(
        PositionCommand {
            start,
            moves: Vec::new(),
        },
        &a.moves,
    )
}

fn with_extra_moves(
    mut cmd: PositionCommand,
    moves: &[String],
) -> Result<PositionCommand, CliError> {
    for tok in moves.iter().flat_map(|m| m.split_whitespace()) {
        let m: Move = tok
            .parse()
            .map_err(|e: shogi_core::UsiMoveError| CliError(e.to_string()))?;
        cmd.moves.push(m);
    }
    Ok(cmd)
}

/// Plays the moves without stopping at rule endings; reports the first illegal move.
pub(crate) fn replay(
    cmd: &PositionCommand,
    rules: GameRules,
) -> (Game, Option<(usize, PlayError)>) {
    cmd.replay(rules)
}

fn run_perft(a: &PerftArgs) -> Result<(), CliError> {
    let cmd = read_position(&a.position)?;
    let (game, err) = replay(&cmd, GameRules::default());
    if let Some((i, e)) = err {
        return Err(CliError(format!("move {i}: {e}")));
    }
    let mut pos = game.position().clone();
    let bulk = !a.no_bulk;
    let t = Instant::now();
    let out = std::io::stdout();
    let mut out = out.lock();
    let total = if a.divide {
        let mut total = 0;
        for (m, n) in perft::divide(&mut pos, a.depth, bulk) {
            let _ = writeln!(out, "{m}: {n}");
            total += n;
        }
        total
    } else {
        perft::perft(&mut pos, a.depth, bulk)
    };
    let _ = writeln!(out, "Nodes searched: {total}");
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        if secs > 0.0 { total as f64 / secs } else { 0.0 }
    );
    Ok(())
}

fn run_moves(a: &PositionArgs) -> Result<(), CliError> {
    let cmd = read_position(a)?;
    let (game, err) = replay(&cmd, GameRules::default());
    if let Some((i, e)) = err {
        return Err(CliError(format!("move {i}: {e}")));
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    for m in game.position().legal_moves() {
        let _ = writeln!(out, "{m}");
    }
    Ok(())
}

fn run_status(a: &StatusArgs) -> Result<(), CliError> {
    let cmd = read_position(&a.position)?;
    let rules = GameRules {
        impasse: a
            .impasse_rule
            .parse()
            .map_err(|e: shogi_core::UnknownImpasseRule| CliError(e.to_string()))?,
        handicap_credit: a.handicap_credit,
        max_moves: a.max_moves,
        illegal_move_loses: true,
    };
    let (game, err) = replay(&cmd, rules);
    let status = game.status();
    out!("{}", status.word());
    if a.explain {
        eprintln!("{}", explain(&game, status, err));
    }
    Ok(())
}

fn explain(game: &Game, status: GameStatus, err: Option<(usize, PlayError)>) -> String {
    use shogi_core::impasse;
    let pos = game.position();
    let us = pos.side_to_move();
    let side = |c: shogi_core::Color| match c {
        shogi_core::Color::Sente => "Sente",
        shogi_core::Color::Gote => "Gote",
    };
    match status {
        GameStatus::IllegalMove { loser, .. } => match err {
            Some((i, e)) => format!("move {i} by {} is illegal: {e}", side(loser)),
            None => format!("{} made an illegal move", side(loser)),
        },
        GameStatus::Checkmate => format!("{} is checkmated", side(us)),
        GameStatus::NoLegalMoves => format!("{} has no legal move", side(us)),
        GameStatus::PerpetualCheckLoss => {
            format!(
                "fourfold repetition; {} gave check with every move of the cycle and loses",
                side(us)
            )
        }
        GameStatus::PerpetualCheckWin => format!(
            "fourfold repetition; {} gave check with every move of the cycle and loses",
            side(us.opponent())
        ),
        GameStatus::RepetitionDraw => "the same position stands for the fourth time: a draw".into(),
        GameStatus::Impasse(v) => {
            let credit = game.impasse_credit();
            let rule = game.rules().impasse;
            let detail = if rule == shogi_core::ImpasseRule::Count24 {
                format!(
                    "Sente {} points, Gote {} points (board and hand)",
                    impasse::total_points(pos, shogi_core::Color::Sente) + credit.sente,
                    impasse::total_points(pos, shogi_core::Color::Gote) + credit.gote
                )
            } else {
                let d = impasse::declaration(pos, us, credit[us]);
                format!(
                    "{} declares with {} points and {} pieces in the enemy camp",
                    side(us),
                    d.points,
                    d.pieces_in_camp
                )
            };
            format!(
                "impasse under rule {rule}: {detail}; {} for {}",
                format!("{v:?}").to_lowercase(),
                side(us)
            )
        }
        GameStatus::TryLoss => format!("{}'s king reached the try square", side(us.opponent())),
        GameStatus::MaxMovesDraw => format!(
            "{} moves played: a draw by the move limit",
            game.moves().len()
        ),
        GameStatus::Ongoing => format!("{} to move; the game goes on", side(us)),
    }
}

fn run_show(a: &ShowArgs) -> Result<(), CliError> {
    let cmd = read_position(&a.position)?;
    let (game, err) = replay(&cmd, GameRules::default());
    if let Some((i, e)) = err {
        return Err(CliError(format!("move {i}: {e}")));
    }
    let text = match a.style.as_str() {
        "kif" | "bod" => shogi_record::bod::write(game.position()),
        _ => diagram::plain(game.position()),
    };
    write_out(format_args!("{text}"));
    Ok(())
}
