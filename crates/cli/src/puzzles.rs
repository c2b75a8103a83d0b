//! `shogi puzzles generate` and `confirm`: thin calls into `shogi_engine::puzzles`.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use shogi_engine::arena::parse_openings;
use shogi_engine::puzzles::{self, PuzzleConfig, PuzzleStats};

use crate::args::{PuzzlesCommand, PuzzlesConfirmArgs, PuzzlesGenerateArgs};
use crate::CliError;

/// Runs one puzzles step.
pub fn run(command: &PuzzlesCommand) -> Result<(), CliError> {
    match command {
        PuzzlesCommand::Generate(a) => generate(a),
        PuzzlesCommand::Confirm(a) => confirm(a),
    }
}

/// What [`confirm_text`] did to one best-move puzzle.
#[derive(Debug, PartialEq, Eq)]
enum Confirmed {
    /// Still best by the margin: kept with these scores (best, second).
    Kept(i32, i32),
    /// Dropped: the search plays another move, or the lead or score is out of bounds.
    Dropped,
}

/// Rewrites the puzzle data file `text` (one puzzle a line, as `generate`
/// writes it): every best-move puzzle is searched again by `check` (its
/// position, its move); a kept one gets the new `best_cp` and `second_cp`,
/// a dropped one goes. Other lines are copied. `report` hears each puzzle's id
/// and verdict.
fn confirm_text(
    text: &str,
    check: impl Fn(&shogi_core::Position, shogi_core::Move) -> Confirmed,
    mut report: impl FnMut(&str, &Confirmed),
) -> Result<String, CliError> {
    let mut out: Vec<String> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let body = line.trim().trim_end_matches(',');
        if !body.starts_with("{\"id\"") || !body.contains("\"kind\": \"best\"") {
            out.push(line.to_string());
            continue;
        }
        let bad = |what: &str| CliError(format!("line {}: {what}", n + 1));
        let v: serde_json::Value =
            serde_json::from_str(body).map_err(|e| bad(&format!("not a puzzle: {e}")))?;
        let field = |k: &str| v.get(k).ok_or_else(|| bad(&format!("no {k}")));
        let id = field("id")?.as_str().unwrap_or_default().to_string();
        let sfen = field("sfen")?.as_str().ok_or_else(|| bad("sfen"))?;
        let pos = shogi_core::sfen::parse_position(sfen).map_err(|e| bad(&e.to_string()))?;
        let m: shogi_core::Move = field("solution")?
            .get(0)
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| bad("solution"))?
            .parse()
            .map_err(|e| bad(&format!("solution: {e}")))?;
        let old = format!(
            "\"best_cp\": {}, \"second_cp\": {}",
            field("best_cp")?,
            field("second_cp")?
        );
        let verdict = check(&pos, m);
        report(&id, &verdict);
        if let Confirmed::Kept(best, second) = verdict {
            if !line.contains(&old) {
                return Err(bad("scores not in the generator's layout"));
            }
            let new = format!("\"best_cp\": {best}, \"second_cp\": {second}");
            out.push(line.replacen(&old, &new, 1));
        }
    }
    // The last puzzle of the list carries no comma: the line before "]" may
    // have lost its successor.
    for i in 1..out.len() {
        if out[i].trim_start().starts_with(']') {
            if let Some(prev) = out[i - 1].strip_suffix(',') {
                out[i - 1] = prev.to_string();
            }
        }
    }
    let mut s = out.join("\n");
    if text.ends_with('\n') {
        s.push('\n');
    }
    Ok(s)
}

fn confirm(a: &PuzzlesConfirmArgs) -> Result<(), CliError> {
    let err = |e: std::io::Error| CliError(format!("{}: {e}", a.file.display()));
    let text = std::fs::read_to_string(&a.file).map_err(err)?;
    let start = Instant::now();
    let (mut kept, mut dropped) = (0, 0);
    let check = |pos: &shogi_core::Position, m: shogi_core::Move| match puzzles::best_move_check(
        pos,
        None,
        a.best_nodes,
        a.margin,
    ) {
        Some((found, best, second)) if found == m => Confirmed::Kept(best, second),
        _ => Confirmed::Dropped,
    };
    let out = confirm_text(&text, check, |id, verdict| match verdict {
        Confirmed::Kept(b, s) => {
            kept += 1;
            eprintln!("{id}: kept ({b} / {s})");
        }
        Confirmed::Dropped => {
            dropped += 1;
            eprintln!("{id}: dropped");
        }
    })?;
    std::fs::write(&a.file, out).map_err(err)?;
    eprintln!(
        "best-move puzzles kept: {kept}, dropped: {dropped}; {:.0} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"{
  "version": 1,
  "puzzles": [
    {"id": "m1-0001", "kind": "mate", "sfen": "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "plies": 1, "solution": ["G*5b"], "rating": 740, "nodes": 1, "game": 0, "ply": 1},
    {"id": "b-0001", "kind": "best", "sfen": "4k4/9/9/9/9/9/9/9/4K4 b G 1", "plies": 1, "solution": ["G*5b"], "rating": 1000, "best_cp": 290, "second_cp": -145, "nodes": 1000, "game": 1, "ply": 27},
    {"id": "b-0002", "kind": "best", "sfen": "4k4/9/9/9/9/9/9/9/4K4 b S 1", "plies": 1, "solution": ["S*5b"], "rating": 1000, "best_cp": 300, "second_cp": 0, "nodes": 1000, "game": 1, "ply": 29}
  ]
}
"#;

    #[test]
    fn keeps_confirmed_puzzles_with_new_scores_and_drops_the_rest() {
        let mut seen = Vec::new();
        let out = confirm_text(
            FILE,
            |pos, _| {
                if pos.to_sfen().contains(" G ") {
                    Confirmed::Kept(412, 12)
                } else {
                    Confirmed::Dropped
                }
            },
            |id, v| seen.push(format!("{id} {v:?}")),
        )
        .unwrap();
        assert_eq!(seen, ["b-0001 Kept(412, 12)", "b-0002 Dropped"]);
        assert!(out
            .contains(r#""best_cp": 412, "second_cp": 12, "nodes": 1000, "game": 1, "ply": 27}"#));
        assert!(!out.contains("b-0002"));
        assert!(out.contains("m1-0001"));
        // Still one JSON document: the comma before the end of the list went.
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["puzzles"].as_array().unwrap().len(), 2);
        assert!(out.ends_with("]\n}\n"));
    }

    #[test]
    fn a_broken_puzzle_line_is_named() {
        let text = FILE.replace(
            r#""sfen": "4k4/9/9/9/9/9/9/9/4K4 b S 1""#,
            r#""sfen": "nonsense""#,
        );
        let e = confirm_text(&text, |_, _| Confirmed::Dropped, |_, _| {}).unwrap_err();
        assert!(e.0.starts_with("line 6:"), "{}", e.0);
    }
}
