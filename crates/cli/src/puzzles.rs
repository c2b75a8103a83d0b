//! `shogi puzzles generate`: a thin call into `shogi_engine::puzzles`.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use shogi_engine::arena::parse_openings;
use shogi_engine::puzzles::{self, PuzzleConfig, PuzzleStats};

use crate::args::{PuzzlesCommand, PuzzlesGenerateArgs};
use crate::CliError;

/// Runs one puzzles step.
pub fn run(command: &PuzzlesCommand) -> Result<(), CliError> {
    match command {
        PuzzlesCommand::Generate(a) => generate(a),
    }
}

/// The command that makes the same file: every setting spelt out, the
/// output path left out (the file names itself).
fn canonical_command(a: &PuzzlesGenerateArgs) -> String {
    let mut s = format!(
        "shogi puzzles generate --games {} --nodes {} --seed {} --max-plies {} --mate-nodes {} --best-nodes {} --margin {}",
        a.games, a.nodes, a.seed, a.max_plies, a.mate_nodes, a.best_nodes, a.margin
    );
    if let Some(n) = a.max_per_kind {
        s.push_str(&format!(" --max-per-kind {n}"));
    }
    if let Some(p) = &a.records {
        s.push_str(&format!(" --records {}", p.display()));
    }
    s
}

/// One progress line.
fn progress_line(s: &PuzzleStats, total: usize, start: Instant) -> String {
    format!(
        "games {}/{total} positions {} mates kept 1:{} 3:{} 5:{} 7:{} best {} {:.0} s",
        s.games,
        s.positions,
        s.mate_kept[0],
        s.mate_kept[1],
        s.mate_kept[2],
        s.mate_kept[3],
        s.best_kept,
        start.elapsed().as_secs_f64()
    )
}

fn generate(a: &PuzzlesGenerateArgs) -> Result<(), CliError> {
    let config = PuzzleConfig {
        games: a.games,
        nodes: a.nodes,
        seed: a.seed,
        max_plies: a.max_plies,
        mate_nodes: a.mate_nodes,
        best_nodes: a.best_nodes,
        margin: a.margin,
        ..PuzzleConfig::default()
    };
    let records = match &a.records {
        None => None,
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| CliError(format!("{}: {e}", p.display())))?;
            let list = parse_openings(&text)
                .map_err(|(line, e)| CliError(format!("{}:{line}: {e}", p.display())))?;
            Some(list)
        }
    };
    // Open the output first: a bad path fails at once, not after the games.
    let out_error = |e: std::io::Error| CliError(format!("{}: {e}", a.out.display()));
    let mut file = std::fs::File::create(&a.out).map_err(out_error)?;
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let total = records.as_ref().map_or(a.games, Vec::len);
    let progress = |s: &PuzzleStats| {
        let line = progress_line(s, total, start);
        if tty {
            eprint!("\r\x1b[2K{line}");
        } else if s.games.is_multiple_of(10) || s.games == total {
            eprintln!("{line}");
        }
    };
    let set = match &records {
        None => puzzles::generate(&config, progress),
        Some(list) => puzzles::scan_records(&config, list, progress),
    };
    if tty {
        eprintln!();
    }
    let set = match a.max_per_kind {
        Some(n) => set.capped(n),
        None => set,
    };
    file.write_all(set.to_json(&canonical_command(a)).as_bytes())
        .map_err(out_error)?;
    let s = &set.stats;
    let join = |v: &[usize; 4]| {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" / ")
    };
    eprintln!("games played: {}", s.games);
    eprintln!("positions scanned: {}", s.positions);
    eprintln!("mate searches over the node limit: {}", s.mate_timeouts);
    eprintln!("mate proofs (in 1 / 3 / 5 / 7): {}", join(&s.mate_proofs));
    eprintln!("  with a unique first move: {}", join(&s.mate_unique));
    eprintln!("  kept (new positions): {}", join(&s.mate_kept));
    eprintln!(
        "best-move candidates: {}, confirmed: {}, kept: {}",
        s.best_candidates, s.best_confirmed, s.best_kept
    );
    eprintln!(
        "written: {} puzzles to {}",
        set.puzzles.len(),
        a.out.display()
    );
    eprintln!("time: {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}
